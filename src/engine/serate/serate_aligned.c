/* serate_aligned.c - SE's aligned pair (6.2) and triplet (7.5) exclusion
 * (AlignedPairExclusion, AlignedExclusion): a candidate goes when every
 * combination of the aligned cells' values that uses it leaves some common
 * excluder cell empty or repeats a value in cells that see each other. */
#include <string.h>

#include "serate_internal.h"

#define BIT(v) ((uint16_t)(1u << (v)))

struct excl {
    int n;
    uint8_t c[20];
};

static int sees(const struct se_ctx *ctx, int a, int b)
{
    return (int)(ctx->t.peers[a][b >> 6] >> (b & 63) & 1);
}

static int excl_has(const struct excl *e, int c)
{
    for (int i = 0; i < e->n; i++)
        if (e->c[i] == c)
            return 1;
    return 0;
}

/* Tests one set of aligned cells and hands on the hint it gives. */
static int try_cells(struct se_ctx *ctx, const struct se_grid *g,
                     struct se_acc *acc, int degree, const int *cells,
                     const struct excl *ex)
{
    struct excl common = ex[0];
    struct se_hint h;
    uint16_t allowed[3] = {0, 0, 0};
    int vals[3][9], nv[3];

    for (int i = 1; i < degree; i++) {
        int n = 0;
        for (int k = 0; k < common.n; k++)
            if (excl_has(&ex[i], common.c[k]))
                common.c[n++] = common.c[k];
        common.n = n;
    }
    if (common.n < 2)
        return 0;
    for (int i = 0; i < degree; i++) {
        nv[i] = 0;
        for (int v = 1; v <= 9; v++)
            if (g->cand[cells[i]] & BIT(v))
                vals[i][nv[i]++] = v;
    }
    int idx[3] = {0, 0, 0};
    for (;;) {
        int p[3];
        for (int i = 0; i < degree; i++)
            p[i] = vals[i][idx[i]];
        int ok = 1;
        for (int a = 0; a < degree && ok; a++)
            for (int b = a + 1; b < degree && ok; b++)
                if (p[a] == p[b] && sees(ctx, cells[a], cells[b]))
                    ok = 0;
        if (ok) {
            unsigned used = 0;
            for (int i = 0; i < degree; i++)
                used |= BIT(p[i]);
            for (int k = 0; k < common.n && ok; k++)
                if (!(g->cand[common.c[k]] & ~used))
                    ok = 0;
        }
        if (ok)
            for (int i = 0; i < degree; i++)
                allowed[i] |= BIT(p[i]);
        int z = 0;
        while (z < degree && ++idx[z] == nv[z])
            idx[z++] = 0;
        if (z == degree)
            break;
    }
    se_hint_init(&h, degree == 2 ? 6.2 : 7.5,
                 degree == 2 ? "Aligned Pair Exclusion"
                             : "Aligned Triplet Exclusion");
    int worth = 0;
    for (int i = 0; i < degree; i++) {
        h.rem[cells[i]] = g->cand[cells[i]] & (uint16_t)~allowed[i];
        worth |= h.rem[cells[i]] != 0;
    }
    return worth && acc->add(acc, &h);
}

int se_aligned(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc,
               int degree)
{
    int cand[81], ncand = 0;
    static const struct excl empty;
    struct excl ex[81];
    int slot[81];

    for (int c = 0; c < 81; c++) {
        slot[c] = -1;
        if (se_popcount(g->cand[c]) < 2)
            continue;
        struct excl e = empty;
        int single = 0;
        for (int i = 0; i < 20; i++) {
            int o = ctx->t.house[c][i], n = se_popcount(g->cand[o]);
            if (n == 1)
                single = 1;
            else if (n >= 2 && n <= degree)
                e.c[e.n++] = (uint8_t)o;
        }
        if (single || !e.n)
            continue;
        slot[c] = ncand;
        ex[ncand] = e;
        cand[ncand++] = c;
    }
    if (ncand < degree)
        return 0;
    /* Pairs in Permutations(2, n) order: (0,1) (0,2) (1,2) (0,3)... */
    for (int j = 1; j < ncand; j++)
        for (int i = 0; i < j; i++) {
            if (se_time_up(ctx))
                return 0;
            int cells[3] = {cand[i], cand[j], 0};
            struct excl e3[3];
            e3[0] = ex[i];
            e3[1] = ex[j];
            if (degree == 2) {
                if (try_cells(ctx, g, acc, 2, cells, e3))
                    return 1;
                continue;
            }
            /* twinArea: both cells' excluders that are candidates too. */
            int twin[40], nt = 0;
            for (int pass = 0; pass < 2; pass++) {
                const struct excl *e = pass ? &ex[j] : &ex[i];
                for (int k = 0; k < e->n; k++) {
                    int o = e->c[k], dup = 0;
                    if (slot[o] < 0 || o == cells[0] || o == cells[1])
                        continue;
                    for (int q = 0; q < nt; q++)
                        dup |= twin[q] == o;
                    if (!dup)
                        twin[nt++] = o;
                }
            }
            for (int q = 0; q < nt; q++) {
                cells[2] = twin[q];
                e3[2] = ex[slot[twin[q]]];
                if (try_cells(ctx, g, acc, 3, cells, e3))
                    return 1;
            }
        }
    return 0;
}
