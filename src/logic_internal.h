/* logic_internal.h - what the files of the logic module share (logic.c:
 * singles, locked candidates, subsets, grading; logic_fish.c: fish and
 * wings; logic_explain.c: the sentences). Not a contract: include/logic.h is. */
#ifndef LOGIC_INTERNAL_H
#define LOGIC_INTERNAL_H

#include <stdint.h>

#include "logic.h"

/* The 27 units: 0-8 rows, 9-17 columns, 18-26 boxes. */
#define LOGIC_NUNITS 27

/* Cell k (0-8) of unit u (0-26): along a row or column, boxes row-major. */
static inline int logic_unit_cell(int u, int k)
{
    int i = u % 9;

    switch (u / 9) {
    case 0: return i * 9 + k;
    case 1: return k * 9 + i;
    default: return ((i / 3) * 3 + k / 3) * 9 + (i % 3) * 3 + k % 3;
    }
}

static inline int logic_row(int cell) { return cell / 9; }
static inline int logic_col(int cell) { return cell % 9; }
static inline int logic_box(int cell) { return (cell / 27) * 3 + (cell % 9) / 3; }

/* Do two different cells share a row, column or box? */
static inline int logic_sees(int a, int b)
{
    return a != b && (logic_row(a) == logic_row(b) ||
                      logic_col(a) == logic_col(b) ||
                      logic_box(a) == logic_box(b));
}

static inline int logic_popcount(unsigned x)
{
    return __builtin_popcount(x);
}

/* Step building: start a step, then add to it. Additions past the array
 * sizes are dropped (a step with fewer eliminations is still sound). */
void logic_step_start(struct logic_step *s, enum logic_technique t,
                      uint16_t digits);
void logic_step_elim(struct logic_step *s, int cell, int digit);
void logic_step_unit(struct logic_step *s, int u);
void logic_step_cell(struct logic_step *s, int cell);

/* The fish (X-wing, swordfish, jellyfish: size 2, 3, 4) and the wings of
 * logic_fish.c. Each returns 1 and fills *out when it finds a step with at
 * least one elimination, 0 otherwise. */
int logic_find_fish(const struct logic_grid *g, int size,
                    struct logic_step *out);
int logic_find_xy_wing(const struct logic_grid *g, struct logic_step *out);
int logic_find_xyz_wing(const struct logic_grid *g, struct logic_step *out);

#endif
