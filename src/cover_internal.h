/* cover_internal.h - what src/cover*.c share: the work space of one search
 * (peer lists, units, candidate masks, undo trail), built once per rules
 * and reused by the generator for its many counts. Not a public header. */
#ifndef COVER_INTERNAL_H
#define COVER_INTERNAL_H

#include <stdint.h>

#include "cover.h"

/* One undo record: the cell's mask and digit before a change. */
struct cover_trail {
    uint32_t mask;
    uint16_t cell;
    uint8_t val;
};

/* Exact cover as bitsets: the primary columns are the cells (cand[c], the
 * digits still open to cell c, bit d-1 for digit d) and the (unit, digit)
 * pairs of every unit of n cells (its rows, columns, regions, diagonals and
 * full extra groups: the places of d among the unit's cells). Peers are the
 * cells a placement removes its digit from (the secondary columns: every
 * group, and the knight and king pairs).
 *
 *   peer[peer_start[c] .. peer_start[c + 1]) : the peers of cell c
 *   unit[u * n .. u * n + n)                 : the cells of unit u
 */
struct cover_ws {
    unsigned n, ncells, nunits;
    uint32_t all; /* the n digits' bits */
    uint32_t *peer_start;
    uint16_t *peer;
    uint16_t *unit;
    /* The state: */
    uint32_t *cand;
    uint8_t *val; /* the placed digit, 0 while open */
    unsigned nfilled;
    struct cover_trail *trail;
    size_t ntrail;
    uint16_t *queue; /* cells down to one candidate, not yet placed */
    unsigned nqueue;
    /* The search: */
    unsigned limit, count;
    uint64_t max_nodes, nodes, guesses;
    uint64_t *rng; /* NULL: options in order; else a random rotation */
    struct cover_grid *solution;
    int out_of_budget;
};

#define COVER_MAX_GROUPS (3 * COVER_MAX_N + 2 + COVER_MAX_EXTRA)

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
