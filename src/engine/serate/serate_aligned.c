/* serate_aligned.c - SE's aligned pair (6.2) and triplet (7.5) exclusion
 * (AlignedPairExclusion, AlignedExclusion): a candidate goes when every
 * combination of the aligned cells' values that uses it leaves some common
 * excluder cell empty or repeats a value in cells that see each other.
 * Whether a set of cells gives a hint depends only on the candidates of
 * its cells and on their houses' cells (each one's class: one candidate,
 * an excluder of 2..degree, or more; an excluder's candidates), so a set
 * none of whose cells or house cells changed so since a scan that found
 * nothing still gives nothing: only the others are tested again. */
#include <string.h>

#include "serate_internal.h"

#define BIT(v) ((uint16_t)(1u << (v)))

struct excl {
    int n;
    uint8_t c[20];
};

static int in_ex(const uint64_t *m, int c)
{
    return (int)(m[c >> 6] >> (c & 63) & 1);
}

/* Does the cell set {a, b} (two words) hold at least two cells? (No
 * popcount: the default target has no instruction for it.) */
static int two_or_more(uint64_t a, uint64_t b)
{
    return (a & (a - 1)) || (b & (b - 1)) || (a && b);
}

static int sees(const struct se_ctx *ctx, int a, int b)
{
    return (int)(ctx->t.peers[a][b >> 6] >> (b & 63) & 1);
}

/* Tests one set of aligned cells and hands on the hint it gives. The
 * excluders are bit sets of cells (their order in SE only names the
 * locking cell of a combination, which the rating does not use). */
static int try_cells(struct se_ctx *ctx, const struct se_grid *g,
                     struct se_acc *acc, int degree, const int *cells,
                     uint64_t (*ex)[2], int *found)
{
    uint64_t common[2] = {ex[0][0], ex[0][1]};
    struct se_hint h;
    uint16_t allowed[3] = {0, 0, 0};
    uint16_t exc[20];
    int nex = 0;

    for (int i = 1; i < degree; i++) {
        common[0] &= ex[i][0];
        common[1] &= ex[i][1];
    }
    if (!two_or_more(common[0], common[1]))
        return 0;
    /* An excluder blocks a combination only if all its candidates are
     * among the cells' own: keep those; with none, and no two of the
     * cells seeing each other, every combination is allowed. */
    unsigned uni = 0;
    for (int i = 0; i < degree; i++)
        uni |= g->cand[cells[i]];
    for (int w = 0; w < 2; w++)
        for (uint64_t m = common[w]; m; m &= m - 1) {
            uint16_t e = g->cand[w * 64 + __builtin_ctzll(m)];
            if (!(e & ~uni))
                exc[nex++] = e;
        }
    int see01 = sees(ctx, cells[0], cells[1]);
    int see02 = degree > 2 && sees(ctx, cells[0], cells[2]);
    int see12 = degree > 2 && sees(ctx, cells[1], cells[2]);
    if (!nex && !see01 && !see02 && !see12)
        return 0;
    /* A value stays if one allowed combination uses it. For each pair
     * (p0, p1) the third cell's allowed values are a mask: an excluder
     * inside {p0, p1} blocks them all, one with a single value outside
     * blocks that value, one with two or more outside blocks none. */
    unsigned c0 = g->cand[cells[0]], c1 = g->cand[cells[1]];
    unsigned c2 = degree > 2 ? g->cand[cells[2]] : 0;
    for (unsigned m0 = c0; m0; m0 &= m0 - 1) {
        unsigned b0 = m0 & -m0;
        for (unsigned m1 = c1; m1; m1 &= m1 - 1) {
            unsigned b1 = m1 & -m1, used = b0 | b1;
            if (b0 == b1 && see01)
                continue;
            if (degree == 2) {
                int ok = 1;
                for (int k = 0; k < nex && ok; k++)
                    ok = (exc[k] & ~used) != 0;
                if (ok) {
                    allowed[0] |= (uint16_t)b0;
                    allowed[1] |= (uint16_t)b1;
                }
                continue;
            }
            unsigned m2 = c2;
            if (see02)
                m2 &= ~b0;
            if (see12)
                m2 &= ~b1;
            for (int k = 0; k < nex && m2; k++) {
                unsigned rest = exc[k] & ~used;
                if (!rest)
                    m2 = 0;
                else if (!(rest & (rest - 1)))
                    m2 &= ~rest;
            }
            if (m2) {
                allowed[0] |= (uint16_t)b0;
                allowed[1] |= (uint16_t)b1;
                allowed[2] |= (uint16_t)m2;
            }
        }
    }
    int worth = 0;
    for (int i = 0; i < degree; i++)
        worth |= (g->cand[cells[i]] & (uint16_t)~allowed[i]) != 0;
    if (!worth)
        return 0;
    se_hint_init(&h, degree == 2 ? 6.2 : 7.5,
                 degree == 2 ? "Aligned Pair Exclusion"
                             : "Aligned Triplet Exclusion");
    for (int i = 0; i < degree; i++)
        h.rem[cells[i]] = g->cand[cells[i]] & (uint16_t)~allowed[i];
    *found = 1;
    return acc->add(acc, &h);
}

/* A house cell matters to a set of cells by its class (one candidate,
 * 2..degree of them: an excluder, or more) and, as an excluder, by its
 * candidates. */
static int aligned_class(unsigned cand, int degree)
{
    int n = se_popcount(cand);
    return n == 1 ? 1 : n >= 2 && n <= degree ? 2 : 0;
}

/* dirty[c]: c changed since the memo's scan, or a cell of its house
 * changed in a way that matters (its class, or an excluder's values). */
static void aligned_dirty(const struct se_ctx *ctx, const struct se_grid *g,
                          const struct se_aligned_memo *memo, int degree,
                          uint8_t *dirty)
{
    uint64_t changed[2] = {0, 0}, self[2] = {0, 0};

    for (int c = 0; c < 81; c++) {
        if (memo->valid && memo->cand[c] == g->cand[c])
            continue;
        self[c >> 6] |= 1ull << (c & 63);
        int was = memo->valid ? aligned_class(memo->cand[c], degree) : -1;
        int now = aligned_class(g->cand[c], degree);
        if (was != now || now == 2)
            changed[c >> 6] |= 1ull << (c & 63);
    }
    for (int c = 0; c < 81; c++)
        dirty[c] = in_ex(self, c) || (ctx->t.peers[c][0] & changed[0]) ||
                   (ctx->t.peers[c][1] & changed[1]);
}

static int aligned_scan(struct se_ctx *ctx, struct se_grid *g,
                        struct se_acc *acc, int degree, const uint8_t *dirty,
                        int *found);

int se_aligned(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc,
               int degree)
{
    struct se_aligned_memo *memo = &ctx->aligned[degree - 2];
    uint8_t dirty[81];
    int found = 0, stop;

    aligned_dirty(ctx, g, memo, degree, dirty);
    memo->valid = 0;
    stop = aligned_scan(ctx, g, acc, degree, dirty, &found);
    if (found || ctx->timed_out)
        return stop && !ctx->timed_out;
    memo->valid = 1;
    memcpy(memo->cand, g->cand, sizeof memo->cand);
    return 0;
}

static int aligned_scan(struct se_ctx *ctx, struct se_grid *g,
                        struct se_acc *acc, int degree, const uint8_t *dirty,
                        int *found)
{
    int cand[81], ncand = 0;
    static const struct excl empty;
    struct excl ex[81];
    uint64_t exm[81][2];
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
        exm[ncand][0] = exm[ncand][1] = 0;
        for (int k = 0; k < e.n; k++)
            exm[ncand][e.c[k] >> 6] |= 1ull << (e.c[k] & 63);
        cand[ncand++] = c;
    }
    if (ncand < degree)
        return 0;
    uint64_t dm[2] = {0, 0};
    for (int c = 0; c < 81; c++)
        if (dirty[c])
            dm[c >> 6] |= 1ull << (c & 63);
    /* Pairs in Permutations(2, n) order: (0,1) (0,2) (1,2) (0,3)... */
    for (int j = 1; j < ncand; j++)
        for (int i = 0; i < j; i++) {
            if (se_time_up(ctx))
                return 0;
            int cells[3] = {cand[i], cand[j], 0};
            uint64_t e3[3][2] = {{exm[i][0], exm[i][1]},
                                 {exm[j][0], exm[j][1]}};
            /* Every set of cells with these two has fewer than two common
             * excluders: nothing to test. */
            if (!two_or_more(exm[i][0] & exm[j][0], exm[i][1] & exm[j][1]))
                continue;
            /* Both clean, and (for triplets) no dirty third among their
             * excluders, where the third cell is taken from: nothing new. */
            if (!dirty[cells[0]] && !dirty[cells[1]] &&
                (degree == 2 || !(((exm[i][0] | exm[j][0]) & dm[0]) |
                                  ((exm[i][1] | exm[j][1]) & dm[1]))))
                continue;
            if (degree == 2) {
                if (try_cells(ctx, g, acc, 2, cells, e3, found))
                    return 1;
                continue;
            }
            /* twinArea: both cells' excluders that are candidates too. */
            uint64_t c01[2] = {exm[i][0] & exm[j][0], exm[i][1] & exm[j][1]};
            /* In SE's order (cell i's excluders, then j's), each once. */
            uint64_t met[2] = {0, 0};
            int twin[40], nt = 0;
            met[cells[0] >> 6] |= 1ull << (cells[0] & 63);
            met[cells[1] >> 6] |= 1ull << (cells[1] & 63);
            for (int pass = 0; pass < 2; pass++) {
                const struct excl *e = pass ? &ex[j] : &ex[i];
                for (int k = 0; k < e->n; k++) {
                    int o = e->c[k];
                    if (slot[o] < 0 || in_ex(met, o))
                        continue;
                    met[o >> 6] |= 1ull << (o & 63);
                    twin[nt++] = o;
                }
            }
            for (int q = 0; q < nt; q++) {
                const uint64_t *e = exm[slot[twin[q]]];
                if (!two_or_more(c01[0] & e[0], c01[1] & e[1]))
                    continue;
                /* The same three cells, met from an earlier pair, gave
                 * nothing (or SE would have stopped there): skip. */
                int t = slot[twin[q]];
                int seen_before;
                if (t > j) /* (i, j) is the first pair of these three */
                    seen_before = 0;
                else if (t > i) /* (i, t) came first, with j as its tail? */
                    seen_before =
                        in_ex(exm[i], cand[j]) || in_ex(exm[t], cand[j]);
                else /* (t, i) with tail j, or (t, j) with tail i? */
                    seen_before =
                        in_ex(exm[t], cand[j]) || in_ex(exm[i], cand[j]) ||
                        in_ex(exm[t], cand[i]) || in_ex(exm[j], cand[i]);
                if (seen_before ||
                    !(dirty[cells[0]] || dirty[cells[1]] || dirty[twin[q]]))
                    continue;
                cells[2] = twin[q];
                e3[2][0] = exm[slot[twin[q]]][0];
                e3[2][1] = exm[slot[twin[q]]][1];
                if (try_cells(ctx, g, acc, 3, cells, e3, found))
                    return 1;
            }
        }
    return 0;
}
