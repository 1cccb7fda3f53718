/* logic_internal.h - what the files of the logic module share (logic.c:
 * singles, locked candidates, subsets, grading; logic_fish.c: fish and
 * wings; logic_unique.c: rectangles and BUG; logic_turbot.c: turbot
 * fish and W-wing; logic_chain.c: chains;
 * logic_als.c: ALS-XZ, ALS-XY-wing; logic_force.c: forcing chains and nets;
 * logic_explain.c: the sentences; logic_step.c, the leaf: ratings, step
 * builders, the budget check). Not a contract: include/engine/logic.h is.
 */
#ifndef LOGIC_INTERNAL_H
#define LOGIC_INTERNAL_H

#include <stdint.h>

#include "grid.h" /* the geometry, popcount and unit names */
#include "logic.h"

/* Bit k set when cell k of unit u has `digit` as a candidate. */
static inline unsigned logic_positions(const struct logic_grid *g, int u,
                                       int digit)
{
    unsigned m = 0, bit = 1u << (digit - 1);

    for (int k = 0; k < 9; k++)
        if (g->cand[grid_unit_cell(u, k)] & bit)
            m |= 1u << k;
    return m;
}

/* Step building (logic_step.c): start a step, then add to it. Additions past
 * the array sizes are dropped (a step with fewer eliminations is still sound).
 */
void logic_step_start(struct logic_step *s, enum logic_technique t,
                      uint16_t digits);
void logic_step_elim(struct logic_step *s, int cell, int digit);
void logic_step_unit(struct logic_step *s, int u);
void logic_step_cell(struct logic_step *s, int cell);
void logic_step_link(struct logic_step *s, int cell, int digit, int kind);

/* Base rating of a technique in tenths; SE's length bonus in tenths. */
unsigned logic_technique_rating(enum logic_technique t);
unsigned logic_chain_bonus(unsigned length);

/* Has the budget's deadline passed? (b may be NULL: never.) */
int logic_expired(const struct logic_budget *b);

/* Sets of cells: bit i of w[i / 64] for cell i. */
struct logic_cells {
    uint64_t w[2];
};

static inline void logic_cells_add(struct logic_cells *s, int cell)
{
    s->w[cell >> 6] |= 1ull << (cell & 63);
}

static inline int logic_cells_has(const struct logic_cells *s, int cell)
{
    return (int)((s->w[cell >> 6] >> (cell & 63)) & 1u);
}

static inline int logic_cells_empty(const struct logic_cells *s)
{
    return (s->w[0] | s->w[1]) == 0;
}

static inline struct logic_cells logic_cells_and(struct logic_cells a,
                                                 struct logic_cells b)
{
    return (struct logic_cells){{a.w[0] & b.w[0], a.w[1] & b.w[1]}};
}

/* The cells that see `cell` (its 20 peers). */
struct logic_cells logic_peers(int cell);

/* The fish (X-wing, swordfish, jellyfish: size 2, 3, 4) and the wings of
 * logic_fish.c. Each returns 1 and fills *out when it finds a step with at
 * least one elimination, 0 otherwise. */
int logic_find_fish(const struct logic_grid *g, int size,
                    struct logic_step *out);
int logic_find_xy_wing(const struct logic_grid *g, struct logic_step *out);
int logic_find_xyz_wing(const struct logic_grid *g, struct logic_step *out);
/* Finned and sashimi fish of size 2-4 (logic_fish.c). */
int logic_find_finned_fish(const struct logic_grid *g, int size,
                           struct logic_step *out);

/* Unique rectangles 1-4 and BUG+1 (logic_unique.c). */
int logic_find_unique_rectangle(const struct logic_grid *g,
                                struct logic_step *out);
int logic_find_bug(const struct logic_grid *g, struct logic_step *out);

/* Chains (logic_turbot.c, logic_chain.c). Turbot: skyscraper, kite, empty
 * rectangle. The general search returns 1 (step set), 0 or -1 (budget). */
enum logic_chain_kind {
    LOGIC_CHAIN_X = 0, /* one digit, single and grouped nodes */
    LOGIC_CHAIN_XY,    /* bivalue cells only */
    LOGIC_CHAIN_AIC,   /* everything */
};
int logic_find_turbot(const struct logic_grid *g, struct logic_step *out);
int logic_find_w_wing(const struct logic_grid *g, struct logic_step *out);
int logic_find_chain(const struct logic_grid *g, enum logic_chain_kind kind,
                     const struct logic_budget *b, struct logic_step *out);

/* ALS-XZ and ALS-XY-wing (logic_als.c). */
int logic_find_als_xz(const struct logic_grid *g, struct logic_step *out);
int logic_find_als_xy_wing(const struct logic_grid *g, struct logic_step *out);

/* Forcing (logic_force.c): 1, 0 or -1 (budget). Chains first (an
 * assumption that fails through singles, then cell and unit forcing), and
 * apart from them the nets, rated higher, so a rating cap below the nets
 * leaves their costly search out. */
int logic_find_forcing(const struct logic_grid *g, const struct logic_budget *b,
                       struct logic_step *out);
int logic_find_forcing_net(const struct logic_grid *g,
                           const struct logic_budget *b,
                           struct logic_step *out);

#endif
