/* cover_internal.h - what src/cover*.c share: the work space of one search
 * (units, their pairs, other peers, candidate and place masks, undo trail),
 * built once per rules (cover_build.c) and reused by the generator for its
 * many counts. Not a public header. */
#ifndef COVER_INTERNAL_H
#define COVER_INTERNAL_H

#include <stdint.h>

#include "budget.h"
#include "cover.h"
#include "rng.h"

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
 * extra groups. place[u * n + d] holds the positions in unit u still open
 * to d, the placed one included: bit i stands for cell unit[u * n + i], so
 * a count is a popcount and a hidden single's cell is a ctz away.
 *
 *   unit[u * n .. u * n + n)                    the cells of unit u
 *   uo_start[c] .. uo_start[c + 1])             the units of cell c: for
 *       each, uo_base (u * n) and uo_bit (c's position bit in u)
 *   other[other_start[c] .. other_start[c + 1])  c's peers in no unit of c:
 *       knight and king pairs, extra groups of fewer than n cells
 *
 * A placement of d in c clears d from the cells of c's units still open to
 * it (place[] names them) and from the other peers.
 *
 * Two units that share two cells or more make a pair, for locked
 * candidates: a digit of one unit confined to the shared cells leaves the
 * other unit's own cells. Pair p's sides are 2p (its first unit) and
 * 2p + 1; pair_unit[side] is that side's unit and pair_shared[side] the
 * positions in it of the shared cells. The sides whose shared cells hold
 * position i of unit u (a digit's places can only lie within those whose
 * lowest place is there):
 *
 *   side_of[side_start[u * n + i] .. side_start[u * n + i + 1])
 *
 * with side_mask[] beside side_of[] (each side's pair_shared), and
 * reach[u * n + i] the union of those masks: places with a bit outside it
 * fit no side.
 *
 * Work queues: cells down to one candidate (queue) or two (twos, for
 * naked pairs), units with a digit
 * down to one place (hidden, entries u * n + d), and digits confined to a
 * side's shared cells (lock, entries side * n + d), checked when their
 * places shrink; the flags keep each entry queued once. */
struct cover_ws {
    unsigned n, ncells, nunits, npairs;
    uint32_t all; /* the n digits' bits */
    uint32_t *other_start, *uo_start, *side_start;
    uint16_t *other, *unit, *uo_base, *side_of;
    uint32_t *uo_bit, *pair_shared, *side_mask, *reach;
    uint8_t *pair_unit;
    /* The state: */
    uint32_t *cand;
    uint8_t *val; /* the placed digit, 0 while open */
    uint32_t *place;
    unsigned nfilled;
    struct cover_trail *trail;
    size_t ntrail;
    uint16_t *queue, *twos; /* naked singles; cells down to two */
    uint32_t *hidden, *lock;
    uint8_t *hidden_flag, *lock_flag;
    unsigned nqueue, nhidden, nlock, ntwos;
    /* The search: */
    unsigned limit, count;
    struct search_budget budget;
    uint64_t nodes, guesses;
    struct rng *rng; /* NULL: options in order; else shuffled */
    struct cover_grid *solution;
    int out_of_budget;
    void *block; /* everything above that is not fixed size */
};

/* Is n one of the sizes the engine takes (4, 6, 8, 9, 12, 16, 25)? */
int cover_size_ok(unsigned n);

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
                                 unsigned limit,
                                 const struct search_budget *budget,
                                 struct rng *rng, struct cover_grid *solution,
                                 unsigned *count, struct sudoku_stats *stats);

/* The (row, column) steps of a knight's move and of a king's diagonal
 * move, in row-major order of the cell reached. */
extern const int cover_knight[8][2];
extern const int cover_king[4][2];

#endif
