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

static int same(const struct logic_cells *a, const struct logic_cells *b)
{
    return a->w[0] == b->w[0] && a->w[1] == b->w[1];
}

static int collect(const struct logic_grid *g, struct als *out, int max)
{
    int n = 0;

    for (int size = 1; size <= 4; size++)
        for (int u = 0; u < LOGIC_NUNITS; u++) {
            int cells[9], m = 0;
            for (int k = 0; k < 9; k++) {
                int c = logic_unit_cell(u, k);
                if (!g->value[c])
                    cells[m++] = c;
            }
            for (unsigned sub = 1; sub < (1u << m); sub++) {
                unsigned digits = 0;
                struct als a;
                int dup = 0, k = 0;
                if (logic_popcount(sub) != size)
                    continue;
                memset(&a, 0, sizeof(a));
                for (int i = 0; i < m; i++)
                    if (sub & (1u << i)) {
                        digits |= g->cand[cells[i]];
                        logic_cells_add(&a.cells, cells[i]);
                        a.list[k++] = (uint8_t)cells[i];
                    }
                if (logic_popcount(digits) != size + 1)
                    continue;
                for (int i = 0; i < n && !dup; i++)
                    dup = same(&out[i].cells, &a.cells);
                if (dup)
                    continue;
                a.digits = (uint16_t)digits;
                a.unit = (uint8_t)u;
                a.n = (uint8_t)size;
                for (int d = 0; d < 9; d++)
                    a.seen[d] = (struct logic_cells){{~0ull, ~0ull}};
                for (int i = 0; i < size; i++) {
                    struct logic_cells p = logic_peers(a.list[i]);
                    for (int d = 0; d < 9; d++)
                        if (g->cand[a.list[i]] & (1u << d)) {
                            logic_cells_add(&a.of[d], a.list[i]);
                            a.seen[d] = logic_cells_and(a.seen[d], p);
                        }
                }
                if (n >= max)
                    return n;
                out[n++] = a;
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

int logic_find_als_xz(const struct logic_grid *g, struct logic_step *out)
{
    struct als *all = malloc(MAX_ALS * sizeof(*all));
    struct logic_cells candz[9];
    int n, found = 0;

    if (all == NULL)
        return 0;
    memset(candz, 0, sizeof(candz));
    for (int c = 0; c < SUDOKU_CELLS; c++)
        for (int z = 0; z < 9; z++)
            if (g->cand[c] & (1u << z))
                logic_cells_add(&candz[z], c);
    n = collect(g, all, MAX_ALS);
    for (int i = 0; i < n && !found; i++)
        for (int j = 0; j < i && !found; j++) {
            unsigned common = all[i].digits & all[j].digits;
            if ((common & (common - 1)) == 0 ||
                (all[i].cells.w[0] & all[j].cells.w[0]) ||
                (all[i].cells.w[1] & all[j].cells.w[1]))
                continue;
            found = try_pair(candz, &all[j], &all[i], common, out) ||
                    try_pair(candz, &all[i], &all[j], common, out);
        }
    free(all);
    return found;
}
