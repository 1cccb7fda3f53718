/* logic_step.c - the leaf every file of the logic engine builds on: the
 * techniques' base ratings and SE's chain-length bonus, the step builders
 * (logic_step_start and the additions) and the budget's clock check. It
 * calls into no other logic file, so the hub (logic.c) and its technique
 * plug-ins depend on it and not on each other both ways. */
#include <string.h>

#include "clock.h"
#include "logic_internal.h"

/* Base ratings in tenths, on Sudoku Explainer's published scale where it
 * has the technique (singles 1.2-2.3, locked candidates 2.6/2.8, subsets
 * 3.0-5.4, fish 3.2/3.8/5.2, XY- and XYZ-wing 4.2/4.4, unique rectangles
 * 4.5/4.6, BUG 5.6, turbot fish 6.6, chains 6.5-7.0, forcing chains 7.5,
 * cell and region forcing chains 8.0, nested forcing 9.5+; a type 3
 * rectangle adds SE's naked-set bonus: 4.6, 4.7, 4.8 for a pair, triple,
 * quad). Techniques SE does not name (finned fish, W-wing, ALS-XZ,
 * ALS-XY-wing) sit with the chains that SE would use to find the same
 * eliminations: ALS-XZ is a four-node chain (7.0, as an AIC), the
 * ALS-XY-wing a six-node one (7.0 and SE's length bonus, 7.1). Chains add SE's
 * length bonus (logic_chain_bonus); forcing nets add 1.0 per level of nesting.
 */
static const uint8_t technique_ratings[LOGIC_NTECHNIQUES] = {
    23, 15, 26, 28, 30, 34, 36, 40, 50, 54, 32, 38, 42, 44, 52, 45, 46, 45, 46,
    56, 66, 66, 66, 66, 68, 70, 66, 66, 66, 66, 70, 71, 70, 75, 80, 80, 95,
};

unsigned logic_technique_rating(enum logic_technique t)
{
    return (unsigned)t < LOGIC_NTECHNIQUES ? technique_ratings[t] : 120;
}

/* Sudoku Explainer's length bonus: nothing up to 4 links, then 0.1 more
 * each time the length passes a ceiling that grows by 3/2 and 4/3 in
 * turn (6, 8, 12, 16, 24, ...). */
unsigned logic_chain_bonus(unsigned length)
{
    unsigned ceil = 4, added = 0;
    int odd = 0;

    while (length > ceil) {
        added++;
        ceil = odd ? ceil * 4 / 3 : ceil * 3 / 2;
        odd = !odd;
    }
    return added;
}

int logic_expired(const struct logic_budget *b)
{
    return b != NULL && b->deadline_us != 0 && clock_now_us() >= b->deadline_us;
}

/* ------------------------------------------------------------------------
 * Building a step
 * ------------------------------------------------------------------------ */

void logic_step_start(struct logic_step *s, enum logic_technique t,
                      uint16_t digits)
{
    memset(s, 0, sizeof(*s));
    s->technique = t;
    s->digits = digits;
    s->rating = (uint8_t)logic_technique_rating(t);
}

void logic_step_link(struct logic_step *s, int cell, int digit, int kind)
{
    if (s->nlinks < LOGIC_MAX_LINKS) {
        struct logic_link *l = &s->links[s->nlinks++];
        memset(l, 0, sizeof(*l));
        l->cells[0] = (uint8_t)cell;
        l->ncells = 1;
        l->digit = (uint8_t)digit;
        l->link = (uint8_t)kind;
    }
}

void logic_step_elim(struct logic_step *s, int cell, int digit)
{
    if (s->neliminations < LOGIC_MAX_ELIMINATIONS)
        s->eliminations[s->neliminations++] =
            (struct logic_move){(uint8_t)cell, (uint8_t)digit};
}

void logic_step_unit(struct logic_step *s, int u)
{
    if (s->nunits < LOGIC_MAX_UNITS)
        s->units[s->nunits++] =
            (struct logic_unit){(enum sudoku_unit)(u / 9), (uint8_t)(u % 9)};
}

void logic_step_cell(struct logic_step *s, int cell)
{
    if (s->ncells < LOGIC_MAX_CELLS)
        s->cells[s->ncells++] = (uint8_t)cell;
}
