/* cover_internal.h - what src/cover*.c share: the work space of one search
 * (peer lists, units, pairs of units, candidate masks, counts, undo trail),
 * built once per rules (cover_build.c) and reused by the generator for its
 * many counts. Not a public header. */
#ifndef COVER_INTERNAL_H
#define COVER_INTERNAL_H

#include <stdint.h>

#include "cover.h"

#define COVER_MAX_GROUPS (3 * COVER_MAX_N + 2 + COVER_MAX_EXTRA)

/* One undo record: the cell's mask and digit before a change. */
struct cover_trail {
    uint32_t mask;
    uint16_t cell;
    uint8_t val;
};

/* Exact cover as bitsets. The primary columns are the cells (cand[c]: the
 * digits still open to cell c, bit d for digit d + 1) and the (unit, digit)
 * pairs of every unit of n cells: rows, columns, regions, diagonals and full
 * extra groups (cnt[u * n + d]: the cells of unit u still open to d, the
 * placed one included). Peers are the cells a placement removes its digit
 * from: every group, and the knight and king pairs.
 *
 *   peer[peer_start[c] .. peer_start[c + 1])    the peers of cell c
 *   unit[u * n .. u * n + n)                    the cells of unit u
 *   unit_of[uo_start[c] .. uo_start[c + 1])     the units of cell c
 *
 * Two units that share two cells or more make a pair, for locked
 * candidates: a digit of one unit confined to the shared cells leaves the
 * other unit's own cells. Pair p shares pair_k[p] cells; its units are
 * pair_unit[2p] and pair_unit[2p + 1]; at pair_cell + p * 2n lie
 *
 *   [ shared (k) | first unit's own (n - k) | second unit's own (n - k) ]
 *
 * scnt[p * n + d] counts the shared cells open to d. A unit's pairs are
 * listed as 2p + side (side 1: the unit is the pair's second):
 *
 *   pair_of_unit[up_start[u] .. up_start[u + 1])
 *   pair_of_cell[cp_start[c] .. cp_start[c + 1])  pairs c is shared in
 *
 * Work queues: cells down to one candidate (queue), units with a digit
 * down to one place (hidden, entries u * n + d), (unit, digit) counts that
 * changed since their pairs were looked at (changed, u * n + d; only
 * counts a pair could confine: unit_maxk[u] at most), and
 * confinements to act on (lock, entries (2p + side) * n + d); the flags
 * keep each entry queued once. */
struct cover_ws {
    unsigned n, ncells, nunits, npairs;
    uint32_t all; /* the n digits' bits */
    uint32_t *peer_start, *uo_start, *up_start, *cp_start;
    uint16_t *peer, *unit, *pair_cell, *pair_of_unit, *pair_of_cell;
    uint8_t *unit_of, *pair_k, *pair_unit;
    uint8_t *unit_maxk; /* the most cells a pair of unit u shares */
    /* The state: */
    uint32_t *cand;
    uint8_t *val; /* the placed digit, 0 while open */
    uint8_t *cnt, *scnt;
    unsigned nfilled;
    struct cover_trail *trail;
    size_t ntrail;
    uint16_t *queue;
    uint32_t *hidden, *lock, *changed;
    uint8_t *hidden_flag, *lock_flag, *changed_flag;
    unsigned nqueue, nhidden, nlock, nchanged;
    /* The search: */
    unsigned limit, count;
    uint64_t max_nodes, nodes, guesses;
    uint64_t *rng; /* NULL: options in order; else shuffled */
    struct cover_grid *solution;
    int out_of_budget;
    void *block; /* everything above that is not fixed size */
};

/* Every all-different group of checked rules r into g: the n rows, the n
 * columns, the n regions (cells row-major), the two diagonals when r has
 * them, then the extra groups. Returns how many. */
unsigned cover_groups(const struct cover_rules *r, struct cover_group *g);

/* Builds the work space of checked rules r; NULL when out of memory. */
struct cover_ws *cover_ws_new(const struct cover_rules *r);
void cover_ws_free(struct cover_ws *w);

/* cover_count on a built work space; rng as in struct cover_ws. */
enum cover_status cover_ws_count(struct cover_ws *w,
                                 const struct cover_grid *puzzle,
                                 unsigned limit, uint64_t max_nodes,
                                 uint64_t *rng, struct cover_grid *solution,
                                 unsigned *count, struct sudoku_stats *stats);

/* The (row, column) steps of a knight's move and of a king's diagonal
 * move, in row-major order of the cell reached. */
extern const int cover_knight[8][2];
extern const int cover_king[4][2];

/* splitmix64: the next value of the generator state *s. */
uint64_t cover_rand(uint64_t *s);

#endif
