/* teach_internal.h - what the files of the teach module share
 * (teach_build.c: units, peers, marks, names; teach_basic.c: singles,
 * locked candidates, subsets, fish; teach_killer.c: cage combinations, the
 * 45 rule; teach_walk.c: the step order, the forcing chain and the walk;
 * teach_explain.c: the sentences). Not a contract: include/engine/teach.h
 * is. */
#ifndef TEACH_INTERNAL_H
#define TEACH_INTERNAL_H

#include <stdint.h>

#include "grid.h"
#include "teach.h"

/* grid.h's bit count: __builtin_popcount is a libgcc call in the baseline
 * x86-64 build (no POPCNT), and the walks count candidates at every step. */
static inline int teach_popcount(uint32_t m)
{
    return grid_popcount(m);
}

/* Lowest set digit of a mask (1-based); the mask must not be 0. */
static inline int teach_low_digit(uint32_t m)
{
    return __builtin_ctz(m) + 1;
}

static inline int teach_is_peer(const struct teach_puzzle *p, unsigned a,
                                unsigned b)
{
    return (int)((p->peer[a][b >> 6] >> (b & 63)) & 1u);
}

/* Step building: start a step, then add to it; additions past the arrays
 * are dropped (fewer eliminations are still sound). teach_step_elim adds
 * only a digit that is a candidate, and never twice. */
void teach_step_start(struct teach_step *s, enum teach_technique t,
                      uint32_t digits);
void teach_step_elim(struct teach_step *s, const struct teach_grid *g,
                     unsigned cell, unsigned digit);
void teach_step_cell(struct teach_step *s, unsigned cell);
void teach_step_unit(struct teach_step *s, unsigned u);
void teach_step_place(struct teach_step *s, unsigned cell, unsigned digit);

/* Places digit in cell: its marks go, and the digit leaves its peers'
 * (teach_apply's placement, for walks that keep no steps). */
void teach_place(const struct teach_puzzle *p, struct teach_grid *g,
                 unsigned cell, unsigned digit);

/* Removes `digit` from every cell (not in cells[]) that is a peer of all of
 * cells[0..ncells-1]: one of them holds the digit. Returns how many
 * eliminations the step gained. */
unsigned teach_sees_all(const struct teach_puzzle *p,
                        const struct teach_grid *g, const uint16_t *cells,
                        unsigned ncells, unsigned digit, struct teach_step *s);

/* The digits placed in unit u, as a mask. */
static inline uint32_t teach_placed_in(const struct teach_unit *u,
                                       const struct teach_grid *g)
{
    uint32_t m = 0;

    for (unsigned k = 0; k < u->ncells; k++)
        if (g->value[u->cell[k]])
            m |= 1u << (g->value[u->cell[k]] - 1);
    return m;
}

/* The digits of full unit u with one place left (returned) and those with
 * none (*none), placed digits in neither: every digit in one pass over
 * the cells. */
static inline uint32_t teach_unit_singles(const struct teach_puzzle *p,
                                          const struct teach_unit *u,
                                          const struct teach_grid *g,
                                          uint32_t *none)
{
    uint32_t once = 0, twice = 0, placed = 0;

    for (unsigned k = 0; k < u->ncells; k++) {
        unsigned c = u->cell[k];
        twice |= once & g->cand[c];
        once |= g->cand[c];
        if (g->value[c])
            placed |= 1u << (g->value[c] - 1);
    }
    *none = ((1u << p->n) - 1) & ~once & ~placed;
    return once & ~twice & ~placed;
}

/* The next k of the m sets (in grid_next_comb's order; `start` begins
 * at the first k) whose union has exactly k members: 1 with them in idx
 * and the union in *uni, 0 when none is left. The shape of naked and
 * hidden subsets and of fish. */
static inline int teach_next_subset(const uint32_t *sets, int m, int k,
                                    int *idx, int start, uint32_t *uni)
{
    if (start) {
        if (m < k)
            return 0;
        for (int i = 0; i < k; i++)
            idx[i] = i;
    } else if (!grid_next_comb(idx, k, m)) {
        return 0;
    }
    do {
        uint32_t u = 0;
        for (int i = 0; i < k; i++)
            u |= sets[idx[i]];
        if (teach_popcount(u) == k) {
            *uni = u;
            return 1;
        }
    } while (grid_next_comb(idx, k, m));
    return 0;
}

/* Has the budget's deadline passed? (b may be NULL: never.) */
int teach_expired(const struct teach_budget *b);

/* Each finder writes a step and returns TEACH_OK, or returns TEACH_STUCK
 * (nothing found), TEACH_CONTRADICTION or TEACH_BUDGET. */
enum teach_status teach_find_singles(const struct teach_puzzle *p,
                                     const struct teach_grid *g, int hidden,
                                     struct teach_step *s);
enum teach_status teach_find_locked(const struct teach_puzzle *p,
                                    const struct teach_grid *g,
                                    struct teach_step *s);
/* Every locked candidate one pass over the units finds, removed from g at
 * once (the dig's walk, teach_variant.c, which needs no steps): how many
 * marks went. */
unsigned teach_locked_all(const struct teach_puzzle *p, struct teach_grid *g);
enum teach_status teach_find_naked(const struct teach_puzzle *p,
                                   const struct teach_grid *g, int k,
                                   const struct teach_budget *b,
                                   struct teach_step *s);
enum teach_status teach_find_hidden(const struct teach_puzzle *p,
                                    const struct teach_grid *g, int k,
                                    const struct teach_budget *b,
                                    struct teach_step *s);
enum teach_status teach_find_fish(const struct teach_puzzle *p,
                                  const struct teach_grid *g, int k,
                                  struct teach_step *s);
enum teach_status teach_find_cage_combination(const struct teach_puzzle *p,
                                              const struct teach_grid *g,
                                              struct teach_step *s);
enum teach_status teach_find_innies_outies(const struct teach_puzzle *p,
                                           const struct teach_grid *g,
                                           int outies, struct teach_step *s);
/* The 45 rule with innies and outies together, over 1-4 rows, columns or
 * boxes. */
enum teach_status teach_find_innies_outies_mixed(const struct teach_puzzle *p,
                                                 const struct teach_grid *g,
                                                 struct teach_step *s);
enum teach_status teach_find_cage_locked(const struct teach_puzzle *p,
                                         const struct teach_grid *g,
                                         struct teach_step *s);

/* What a cage can still hold: for its k-th cell the digits it can take in
 * some completion of the cage (its sum, distinct digits, the cells' marks;
 * 0 for a placed cell), the digit sets of the completions (the first
 * TEACH_MAX_COMBOS of ncombos, placed digits included) and the digits
 * every completion holds. */
struct teach_cage_info {
    uint32_t poss[TEACH_MAX_N];
    uint16_t combos[TEACH_MAX_COMBOS];
    unsigned ncombos;
    uint32_t required;
};

/* Fills *out for cage unit u: 0, or -1 when the cage cannot be completed. */
int teach_cage_options(const struct teach_puzzle *p, const struct teach_grid *g,
                       unsigned u, struct teach_cage_info *out);

/* XY-wings (teach_chain.c). */
enum teach_status teach_find_xy_wing(const struct teach_puzzle *p,
                                     const struct teach_grid *g,
                                     const struct teach_budget *b,
                                     struct teach_step *s);

/* Chains (teach_chain.c): xy 0 for X-chains, 1 for XY-chains. */
enum teach_status teach_find_chain(const struct teach_puzzle *p,
                                   const struct teach_grid *g, int xy,
                                   const struct teach_budget *b,
                                   struct teach_step *s);

/* Alternating inference chains (teach_aic.c). */
enum teach_status teach_find_aic(const struct teach_puzzle *p,
                                 const struct teach_grid *g,
                                 const struct teach_budget *b,
                                 struct teach_step *s);

/* The last resort (teach_walk.c): a candidate whose assumption leads, by
 * singles and cage sums, to a contradiction. */
enum teach_status teach_find_forcing(const struct teach_puzzle *p,
                                     const struct teach_grid *g,
                                     const struct teach_budget *b,
                                     struct teach_step *s);

#endif
