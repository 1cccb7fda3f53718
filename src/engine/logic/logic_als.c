/* logic_als.c - ALS-XZ. An almost locked set (ALS) is n cells of one unit
 * holding n+1 digits together: take one digit away and the rest are locked.
 * Two ALSs A and B with a restricted common digit x (every x of A sees
 * every x of B, so x is in at most one of them) lock the other: A without x
 * or B without x. If they share another digit z, z is in A or in B, so a
 * cell that sees every z of both is not z. Sets of 1-4 cells, found unit by
 * unit; the first pair in order (smaller sets first) with a removal wins. */
#include <stdlib.h>
#include <string.h>

#include "logic_internal.h"

#define MAX_ALS 1200

struct als {
    struct logic_cells cells;
    struct logic_cells of[9];   /* the cells holding each digit */
    struct logic_cells seen[9]; /* the cells that see all of of[d] */
    uint16_t digits;
    uint8_t unit, n;
    uint8_t list[4];
};

/* Is the set (cells `list`, n of them, found in unit u) one found in an
 * earlier unit? Units are scanned rows, columns, boxes: a single cell is
 * the row's; a box's cells in one line are that line's. */
static int found_before(const uint8_t *list, int n, int u)
{
    int row = 1, col = 1;

    if (u < 9)
        return 0;
    if (n == 1)
        return 1;
    if (u < 18)
        return 0;
    for (int i = 1; i < n; i++) {
        row &= grid_row(list[i]) == grid_row(list[0]);
        col &= grid_col(list[i]) == grid_col(list[0]);
    }
    return row || col;
}

static int collect(const struct logic_grid *g, struct als *out, int max)
{
    int n = 0;

    for (int size = 1; size <= 4; size++)
        for (int u = 0; u < GRID_UNITS; u++) {
            int cells[9], m = 0;
            for (int k = 0; k < 9; k++) {
                int c = grid_unit_cell(u, k);
                if (!g->value[c])
                    cells[m++] = c;
            }
            for (unsigned sub = 1; sub < (1u << m); sub++) {
                unsigned digits = 0;
                uint8_t list[4];
                struct als *a = &out[n];
                int k = 0;
                if (grid_popcount(sub) != size)
                    continue;
                for (int i = 0; i < m; i++)
                    if (sub & (1u << i)) {
                        digits |= g->cand[cells[i]];
                        list[k++] = (uint8_t)cells[i];
                    }
                if (grid_popcount(digits) != size + 1 ||
                    found_before(list, size, u))
                    continue;
                if (n >= max)
                    return n;
                memset(a, 0, sizeof(*a));
                memcpy(a->list, list, sizeof(list));
                a->digits = (uint16_t)digits;
                a->unit = (uint8_t)u;
                a->n = (uint8_t)size;
                for (int d = 0; d < 9; d++)
                    a->seen[d] = (struct logic_cells){{~0ull, ~0ull}};
                for (int i = 0; i < size; i++) {
                    struct logic_cells p = logic_peers(list[i]);
                    logic_cells_add(&a->cells, list[i]);
                    for (int d = 0; d < 9; d++)
                        if (g->cand[list[i]] & (1u << d)) {
                            logic_cells_add(&a->of[d], list[i]);
                            a->seen[d] = logic_cells_and(a->seen[d], p);
                        }
                }
                n++;
            }
        }
    return n;
}

static int inside(const struct logic_cells *a, const struct logic_cells *b)
{
    return (a->w[0] & ~b->w[0]) == 0 && (a->w[1] & ~b->w[1]) == 0;
}

/* A and B (disjoint, sharing the digits `common`, at least two): a
 * restricted common x and another shared z that something sees in both.
 * candz[z]: the cells holding candidate z+1, to skip a z with nothing to
 * remove before a step is written. */
static int try_pair(const struct logic_cells *candz, const struct als *a,
                    const struct als *b, unsigned common,
                    struct logic_step *out)
{
    for (int x = 0; x < 9; x++) {
        /* restricted: every x of B sees every x of A */
        if (!(common & (1u << x)) || !inside(&b->of[x], &a->seen[x]))
            continue;
        for (int z = 0; z < 9; z++) {
            struct logic_cells t;
            if (z == x || !(common & (1u << z)))
                continue;
            t = logic_cells_and(logic_cells_and(a->seen[z], b->seen[z]),
                                candz[z]);
            if (logic_cells_empty(&t))
                continue;
            logic_step_start(out, LOGIC_ALS_XZ,
                             (uint16_t)((1u << x) | (1u << z)));
            for (int c = 0; c < SUDOKU_CELLS; c++)
                if (logic_cells_has(&t, c))
                    logic_step_elim(out, c, z + 1);
            for (int i = 0; i < a->n; i++)
                logic_step_cell(out, a->list[i]);
            for (int i = 0; i < b->n; i++)
                logic_step_cell(out, b->list[i]);
            logic_step_unit(out, a->unit);
            logic_step_unit(out, b->unit);
            /* the chain: z in A = x in A - x in B = z in B (cells are
             * the first cell of each set holding the digit) */
            out->chain_length = (uint8_t)(a->n + b->n);
            out->depth = a->n; /* the first a->n cells are set A */
            return 1;
        }
    }
    return 0;
}

static int overlap(const struct als *a, const struct als *b)
{
    return ((a->cells.w[0] & b->cells.w[0]) | (a->cells.w[1] & b->cells.w[1]))
               ? 1
               : 0;
}

/* The digits x that A and B (disjoint) both hold where every x of B sees
 * every x of A (restricted commons), as a mask. */
static unsigned restricted(const struct als *a, const struct als *b)
{
    unsigned rc = 0;

    for (unsigned m = a->digits & b->digits; m; m &= m - 1) {
        int x = __builtin_ctz(m);
        if (inside(&b->of[x], &a->seen[x]))
            rc |= 1u << x;
    }
    return rc;
}

/* The cells holding each digit (candz[d]: digit d+1), and the ALSs. */
static int setup(const struct logic_grid *g, struct logic_cells *candz,
                 struct als *all)
{
    memset(candz, 0, 9 * sizeof(*candz));
    for (int c = 0; c < SUDOKU_CELLS; c++)
        for (int z = 0; z < 9; z++)
            if (g->cand[c] & (1u << z))
                logic_cells_add(&candz[z], c);
    return collect(g, all, MAX_ALS);
}

int logic_find_als_xz(const struct logic_grid *g, struct logic_step *out)
{
    struct als *all = malloc(MAX_ALS * sizeof(*all));
    struct logic_cells candz[9];
    int n, found = 0;

    if (all == NULL)
        return 0;
    n = setup(g, candz, all);
    for (int i = 0; i < n && !found; i++)
        for (int j = 0; j < i && !found; j++) {
            unsigned common = all[i].digits & all[j].digits;
            if ((common & (common - 1)) == 0 || overlap(&all[i], &all[j]))
                continue;
            found = try_pair(candz, &all[j], &all[i], common, out) ||
                    try_pair(candz, &all[i], &all[j], common, out);
        }
    free(all);
    return found;
}

/* ------------------------------------------------------------------------
 * ALS-XY-wing: A and C share a restricted common x, B and C another, y.
 * C is almost locked, so it holds x or y (or both): if x, A has none and
 * is locked; if y, B is. So a digit z of A and B (not x, not y) is in A or
 * in B, and a cell that sees all of their zs is not z. The three sets are
 * disjoint; A is the wing whose common with C is the smaller digit.
 * ------------------------------------------------------------------------ */

/* The step for wings a, b on pivot c with commons x (a-c) and y (b-c),
 * if some z has something to remove. */
static int try_wing(const struct logic_cells *candz, const struct als *a,
                    const struct als *b, const struct als *c, int x, int y,
                    struct logic_step *out)
{
    unsigned zs = a->digits & b->digits & ~((1u << x) | (1u << y));

    for (; zs; zs &= zs - 1) {
        int z = __builtin_ctz(zs);
        struct logic_cells t =
            logic_cells_and(logic_cells_and(a->seen[z], b->seen[z]), candz[z]);
        const struct als *sets[3] = {a, b, c};
        if (logic_cells_empty(&t))
            continue;
        logic_step_start(out, LOGIC_ALS_XY_WING,
                         (uint16_t)((1u << x) | (1u << y) | (1u << z)));
        for (int cell = 0; cell < SUDOKU_CELLS; cell++)
            if (logic_cells_has(&t, cell))
                logic_step_elim(out, cell, z + 1);
        for (int k = 0; k < 3; k++) {
            for (int i = 0; i < sets[k]->n; i++)
                logic_step_cell(out, sets[k]->list[i]);
            logic_step_unit(out, sets[k]->unit);
        }
        out->depth = a->n;                          /* cells: A, then B, */
        out->chain_length = (uint8_t)(a->n + b->n); /* then C */
        return 1;
    }
    return 0;
}

/* Wings of pivot c among the ALSs linked to it (rc: their commons). */
static int wings_of(const struct logic_cells *candz, const struct als *all,
                    const int *linked, const unsigned *rc, int m, int c,
                    struct logic_step *out)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            const struct als *a = &all[linked[i]], *b = &all[linked[j]];
            if (i == j || overlap(a, b))
                continue;
            for (unsigned xs = rc[i]; xs; xs &= xs - 1) {
                int x = __builtin_ctz(xs);
                /* y > x: A is the wing with the smaller common */
                for (unsigned ys = rc[j] & ~((2u << x) - 1); ys; ys &= ys - 1)
                    if (try_wing(candz, a, b, &all[c], x, __builtin_ctz(ys),
                                 out))
                        return 1;
            }
        }
    return 0;
}

int logic_find_als_xy_wing(const struct logic_grid *g, struct logic_step *out)
{
    struct als *all = malloc(MAX_ALS * sizeof(*all));
    int *linked = malloc(MAX_ALS * sizeof(*linked));
    unsigned *rc = malloc(MAX_ALS * sizeof(*rc));
    struct logic_cells candz[9];
    int n, found = 0;

    if (all != NULL && linked != NULL && rc != NULL) {
        n = setup(g, candz, all);
        for (int c = 0; c < n && !found; c++) {
            int m = 0;
            for (int i = 0; i < n; i++)
                if (i != c && !overlap(&all[i], &all[c]) &&
                    (rc[m] = restricted(&all[i], &all[c])) != 0)
                    linked[m++] = i;
            found = m >= 2 && wings_of(candz, all, linked, rc, m, c, out);
        }
    }
    free(all);
    free(linked);
    free(rc);
    return found;
}
