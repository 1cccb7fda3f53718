/* logic_check.c - the independent checks of logic_check.h. Deliberately
 * naive: units and peers are recomputed from their definitions, the search
 * tries every candidate of the cell with the fewest, and the medium solver
 * applies each technique by its textbook definition. Nothing here is fast or
 * clever, so that nothing here can share a mistake with src/logic*.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "logic_check.h"

/* Values and candidates; a placed cell has no candidates. */
struct check_grid {
    uint8_t v[SUDOKU_CELLS];
    uint16_t c[SUDOKU_CELLS];
};

/* Cell k of unit u: rows 0-8, columns 9-17, boxes 18-26. */
static int unit_cell(int u, int k)
{
    if (u < 9)
        return u * 9 + k;
    if (u < 18)
        return k * 9 + (u - 9);
    u -= 18;
    return ((u / 3) * 3 + k / 3) * 9 + (u % 3) * 3 + k % 3;
}

static int same_box(int a, int b)
{
    return a / 27 == b / 27 && (a % 9) / 3 == (b % 9) / 3;
}

static int sees(int a, int b)
{
    return a != b && (a / 9 == b / 9 || a % 9 == b % 9 || same_box(a, b));
}

static int bits(unsigned m)
{
    int n = 0;

    for (; m; m &= m - 1)
        n++;
    return n;
}

static void place(struct check_grid *g, int cell, int digit)
{
    g->v[cell] = (uint8_t)digit;
    g->c[cell] = 0;
    for (int p = 0; p < SUDOKU_CELLS; p++)
        if (sees(cell, p))
            g->c[p] &= (uint16_t) ~(1u << (digit - 1));
}

/* Removes digit d from cell; 1 when it was a candidate. */
static int drop(struct check_grid *g, int cell, int d)
{
    uint16_t b = (uint16_t)(1u << (d - 1));

    if (!(g->c[cell] & b))
        return 0;
    g->c[cell] &= (uint16_t)~b;
    return 1;
}

/* The cells of unit u holding candidate d, as a mask of k (bit k: cell k),
 * and whether d is placed in u. */
static unsigned places(const struct check_grid *g, int u, int d, int *placed)
{
    unsigned m = 0;

    *placed = 0;
    for (int k = 0; k < 9; k++) {
        int cell = unit_cell(u, k);
        m |= (unsigned)((g->c[cell] >> (d - 1)) & 1u) << k;
        *placed |= g->v[cell] == d;
    }
    return m;
}

/* ------------------------------------------------------------ the search */

/* Places naked and hidden singles until none is left: -1 when a blank has
 * no candidate or a unit no place for a missing digit, else 0. */
static int propagate(struct check_grid *g)
{
    int changed = 1;

    while (changed) {
        changed = 0;
        for (int i = 0; i < SUDOKU_CELLS; i++) {
            if (g->v[i])
                continue;
            if (g->c[i] == 0)
                return -1;
            if (bits(g->c[i]) == 1) {
                place(g, i, __builtin_ctz(g->c[i]) + 1);
                changed = 1;
            }
        }
        for (int u = 0; u < 27; u++)
            for (int d = 1; d <= 9; d++) {
                int placed;
                unsigned m = places(g, u, d, &placed);
                if (placed)
                    continue;
                if (m == 0)
                    return -1;
                if (bits(m) == 1) {
                    place(g, unit_cell(u, __builtin_ctz(m)), d);
                    changed = 1;
                }
            }
    }
    return 0;
}

static int has_solution(struct check_grid g)
{
    int best = -1;

    if (propagate(&g) < 0)
        return 0;
    for (int i = 0; i < SUDOKU_CELLS; i++)
        if (!g.v[i] && (best < 0 || bits(g.c[i]) < bits(g.c[best])))
            best = i;
    if (best < 0)
        return 1;
    for (int d = 1; d <= 9; d++)
        if (g.c[best] & (1u << (d - 1))) {
            struct check_grid t = g;
            place(&t, best, d);
            if (has_solution(t))
                return 1;
        }
    return 0;
}

int logic_check_possible(const struct logic_grid *lg, int cell, int digit)
{
    struct check_grid g;

    memcpy(g.v, lg->value, sizeof(g.v));
    memcpy(g.c, lg->cand, sizeof(g.c));
    /* The rules: no digit twice in a unit, so no blank may be a digit
     * placed among its peers, whatever its pencil marks say. */
    for (int a = 0; a < SUDOKU_CELLS; a++)
        for (int b = 0; b < SUDOKU_CELLS; b++) {
            if (!g.v[a] || !sees(a, b))
                continue;
            if (g.v[a] == g.v[b])
                return 0;
            drop(&g, b, g.v[a]);
        }
    if (g.v[cell])
        return g.v[cell] == digit;
    if (!(g.c[cell] & (1u << (digit - 1))))
        return 0;
    place(&g, cell, digit);
    return has_solution(g);
}

void logic_check_sound(const struct logic_grid *g, const struct logic_step *s)
{
    assert_true(s->nplacements + s->neliminations > 0);
    for (int i = 0; i < s->neliminations; i++) {
        int cell = s->eliminations[i].cell, d = s->eliminations[i].digit;
        assert_true(g->cand[cell] & (1u << (d - 1)));
        if (logic_check_possible(g, cell, d))
            fail_msg("%s: a solution has %d at [%d,%d]",
                     logic_technique_name(s->technique), d, cell / 9, cell % 9);
    }
    for (int i = 0; i < s->nplacements; i++) {
        int cell = s->placements[i].cell, d = s->placements[i].digit;
        assert_int_equal(g->value[cell], 0);
        if (!logic_check_possible(g, cell, d))
            fail_msg("%s: no solution has %d at [%d,%d]",
                     logic_technique_name(s->technique), d, cell / 9, cell % 9);
        for (int e = 1; e <= 9; e++)
            if (e != d && logic_check_possible(g, cell, e))
                fail_msg("%s: a solution has %d, not %d, at [%d,%d]",
                         logic_technique_name(s->technique), e, d, cell / 9,
                         cell % 9);
    }
}

/* ------------------------------------------------ the easy/medium solver */

/* Locked candidates: a digit of a box on one line leaves the rest of the
 * line; a digit of a line in one box leaves the rest of the box. */
static int locked(struct check_grid *g)
{
    int changed = 0;

    for (int u = 0; u < 27; u++)
        for (int d = 1; d <= 9; d++) {
            int placed, first = -1, all_in[27];
            unsigned m = places(g, u, d, &placed);
            if (placed || m == 0)
                continue;
            for (int v = 0; v < 27; v++)
                all_in[v] = v != u;
            for (int k = 0; k < 9; k++) {
                if (!(m & (1u << k)))
                    continue;
                int cell = unit_cell(u, k);
                first = first < 0 ? cell : first;
                for (int v = 0; v < 27; v++) {
                    int in = 0;
                    for (int j = 0; j < 9; j++)
                        in |= unit_cell(v, j) == cell;
                    all_in[v] &= in;
                }
            }
            for (int v = 0; v < 27; v++)
                for (int j = 0; all_in[v] && j < 9; j++) {
                    int cell = unit_cell(v, j), in_u = 0;
                    for (int k = 0; k < 9; k++)
                        in_u |= unit_cell(u, k) == cell;
                    if (!in_u)
                        changed |= drop(g, cell, d);
                }
        }
    return changed;
}

/* Naked pairs (two cells of a unit with the same two candidates) and
 * hidden pairs (two digits of a unit with the same two places). */
static int pairs(struct check_grid *g)
{
    int changed = 0;

    for (int u = 0; u < 27; u++)
        for (int a = 0; a < 9; a++)
            for (int b = a + 1; b < 9; b++) {
                int ca = unit_cell(u, a), cb = unit_cell(u, b);
                if (bits(g->c[ca]) != 2 || g->c[ca] != g->c[cb])
                    continue;
                for (int k = 0; k < 9; k++)
                    if (k != a && k != b)
                        for (int d = 1; d <= 9; d++)
                            if (g->c[ca] & (1u << (d - 1)))
                                changed |= drop(g, unit_cell(u, k), d);
            }
    for (int u = 0; u < 27; u++)
        for (int d = 1; d <= 9; d++)
            for (int e = d + 1; e <= 9; e++) {
                int pd, pe;
                unsigned md = places(g, u, d, &pd), me = places(g, u, e, &pe);
                if (pd || pe || md != me || bits(md) != 2)
                    continue;
                for (int k = 0; k < 9; k++)
                    if (md & (1u << k))
                        for (int x = 1; x <= 9; x++)
                            if (x != d && x != e)
                                changed |= drop(g, unit_cell(u, k), x);
            }
    return changed;
}

/* X-wings: a digit in two rows (columns) only in the same two columns
 * (rows) leaves the rest of those columns (rows). */
static int x_wings(struct check_grid *g)
{
    int changed = 0;

    for (int base = 0; base < 18; base += 9)
        for (int d = 1; d <= 9; d++)
            for (int a = base; a < base + 9; a++)
                for (int b = a + 1; b < base + 9; b++) {
                    int pa, pb;
                    unsigned m = places(g, a, d, &pa);
                    if (pa || places(g, b, d, &pb) != m || pb || bits(m) != 2)
                        continue;
                    for (int k = 0; k < 9; k++) {
                        int cover = (base ? 0 : 9) + k;
                        if (!(m & (1u << k)))
                            continue;
                        for (int j = 0; j < 9; j++)
                            if (base + j != a && base + j != b)
                                changed |= drop(g, unit_cell(cover, j), d);
                    }
                }
    return changed;
}

int logic_check_solves(const struct sudoku_grid *board,
                       enum logic_check_set set)
{
    struct check_grid g;

    memset(&g, 0, sizeof(g));
    for (int i = 0; i < SUDOKU_CELLS; i++)
        g.c[i] = 0x1FF;
    for (int i = 0; i < SUDOKU_CELLS; i++)
        if (board->cell[i])
            place(&g, i, board->cell[i]);
    for (;;) {
        if (propagate(&g) < 0)
            return 0;
        if (set == LOGIC_CHECK_SINGLES ||
            !(locked(&g) || pairs(&g) || x_wings(&g)))
            break;
    }
    for (int i = 0; i < SUDOKU_CELLS; i++)
        if (!g.v[i])
            return 0;
    return 1;
}
