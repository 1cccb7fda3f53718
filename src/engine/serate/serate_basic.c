/* serate_basic.c - SE's singles, direct hints, intersections, naked and
 * hidden sets, fish and XY(Z)-wings, each a port of the SE 1.2.1.3 class
 * of the same name (HiddenSingle, Locking, HiddenSet, NakedSet,
 * Fisherman, XYWing) that keeps its loops in the same order. */
#include <string.h>

#include "serate_internal.h"

#define BIT(v) ((uint16_t)(1u << (v)))

/* ------------------------------------------------------------------ */
/* Empty scans (struct se_scan_memo)                                    */
/* ------------------------------------------------------------------ */

/* Whether a hidden or naked set of a region gives a hint depends only on
 * the region's cells; a fish or an intersection of digit v only on v's
 * positions (and, for fish, v's placed count). A scan skips a region or
 * digit whose key it last saw give nothing, so the hints, their order
 * and every rating stay as without the memo. */
static int memo_hit(struct se_scan_memo *m, const uint16_t key[9])
{
    for (int i = 0; i < m->n; i++)
        if (!memcmp(m->key[i], key, sizeof m->key[i])) {
            if (i) { /* found again: keep it first */
                uint16_t t[9];
                memcpy(t, m->key[0], sizeof t);
                memcpy(m->key[0], m->key[1], sizeof t);
                memcpy(m->key[1], t, sizeof t);
            }
            return 1;
        }
    return 0;
}

/* A new key replaces the second, so the one met most stays. */
static void memo_put(struct se_scan_memo *m, const uint16_t key[9])
{
    memcpy(m->key[m->n < 2 ? m->n++ : 1], key, sizeof m->key[0]);
}

static void region_key(const struct se_ctx *ctx, const struct se_grid *g, int r,
                       uint16_t key[9])
{
    for (int k = 0; k < 9; k++) {
        int c = ctx->t.rcell[r][k];
        key[k] = (uint16_t)(g->cand[c] | (g->val[c] != 0));
    }
}

static void digit_key(const struct se_grid *g, int v, int placed,
                      uint16_t key[9])
{
    for (int y = 0; y < 9; y++)
        key[y] = g->pos[9 + y][v];
    key[0] |= (uint16_t)(placed << 10);
}

/* ------------------------------------------------------------------ */
/* Singles                                                              */
/* ------------------------------------------------------------------ */

static const int hs_types[3] = {SE_BLOCK, SE_COL, SE_ROW};

int se_hidden_single(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc)
{
    struct se_hint h;

    for (int alone = 1; alone >= 0; alone--)
        for (int t = 0; t < 3; t++)
            for (int i = 0; i < 9; i++) {
                int r = hs_types[t] * 9 + i;
                for (int v = 1; v <= 9; v++) {
                    int pos = se_region_positions(ctx, g, r, v);
                    if (se_popcount((unsigned)pos) != 1)
                        continue;
                    int isalone = se_region_empty(ctx, g, r) == 1;
                    if (isalone != alone)
                        continue;
                    double d = isalone                   ? 1.0
                               : hs_types[t] == SE_BLOCK ? 1.2
                                                         : 1.5;
                    se_hint_init(&h, d, "Hidden Single");
                    h.cell = ctx->t.rcell[r][se_first_bit((unsigned)pos)];
                    h.value = v;
                    if (acc->add(acc, &h))
                        return 1;
                }
            }
    return 0;
}

int se_naked_single(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc)
{
    struct se_hint h;

    (void)ctx;
    for (int c = 0; c < 81; c++)
        if (se_popcount(g->cand[c]) == 1) {
            se_hint_init(&h, 2.3, "Naked Single");
            h.cell = c;
            h.value = se_first_bit(g->cand[c]);
            if (acc->add(acc, &h))
                return 1;
        }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Intersections (Locking)                                              */
/* ------------------------------------------------------------------ */

static int in_region(const struct se_ctx *ctx, int cell, int r)
{
    return ctx->t.creg[cell][r / 9] == r;
}

/* createLockingHint: p1's value confined to p2 removes it from p2 \ p1. */
static void locking_hint(const struct se_ctx *ctx, const struct se_grid *g,
                         struct se_hint *h, int p1, int p2, int v,
                         const struct se_acc *acc)
{
    for (int i = 0; i < 9; i++) {
        int c = ctx->t.rcell[p2][i];
        if (!in_region(ctx, c, p1) && (g->cand[c] & BIT(v)))
            h->rem[c] |= BIT(v);
    }
    if (acc->want_rp)
        for (int i = 0; i < 9; i++) {
            int c = ctx->t.rcell[p1][i];
            if ((acc->source->cand[c] & BIT(v)) && !(g->cand[c] & BIT(v)) &&
                !in_region(ctx, c, p2))
                h->rp[c] |= BIT(v);
        }
}

static int has_rem(const struct se_hint *h)
{
    for (int c = 0; c < 81; c++)
        if (h->rem[c])
            return 1;
    return 0;
}

static int locking_pair(struct se_ctx *ctx, struct se_grid *g,
                        struct se_acc *acc, int direct, int t1, int t2,
                        int pass)
{
    struct se_hint h;
    uint16_t key[10][9];
    unsigned skip = 0, added = 0;

    if (!direct)
        for (int v = 1; v <= 9; v++) {
            digit_key(g, v, 0, key[v]);
            if (memo_hit(&ctx->locking[pass][v], key[v]))
                skip |= 1u << v;
        }
    for (int i1 = 0; i1 < 9; i1++)
        for (int i2 = 0; i2 < 9; i2++) {
            int r1 = t1 * 9 + i1, r2 = t2 * 9 + i2;
            if (!ctx->t.inter[r1][r2]) /* the two do not cross */
                continue;
            for (int v = 1; v <= 9; v++) {
                if (skip >> v & 1)
                    continue;
                int pos = se_region_positions(ctx, g, r1, v);
                if (se_popcount((unsigned)pos) <= 1)
                    continue;
                if (pos & ~ctx->t.inter[r1][r2])
                    continue;
                if (!direct) {
                    if (!(g->pos[r2][v] & ~ctx->t.inter[r2][r1]))
                        continue; /* nothing to remove */
                    se_hint_init(&h, t1 == SE_BLOCK ? 2.6 : 2.8,
                                 t1 == SE_BLOCK ? "Pointing" : "Claiming");
                    locking_hint(ctx, g, &h, r1, r2, v, acc);
                    added |= 1u << v;
                    if (acc->add(acc, &h))
                        return 1;
                    continue;
                }
                for (int i3 = 0; i3 < 9; i3++) {
                    int r3 = t1 * 9 + i3;
                    if (i3 == i1 || !ctx->t.inter[r3][r2])
                        continue;
                    int pos3 = se_region_positions(ctx, g, r3, v);
                    if (se_popcount((unsigned)pos3) <= 1)
                        continue;
                    unsigned out = (unsigned)pos3 & ~ctx->t.inter[r3][r2];
                    if (se_popcount(out) != 1)
                        continue;
                    int hcell = ctx->t.rcell[r3][__builtin_ctz(out)];
                    se_hint_init(&h, t1 == SE_BLOCK ? 1.7 : 1.9,
                                 t1 == SE_BLOCK ? "Direct Pointing"
                                                : "Direct Claiming");
                    /* SE's direct hints only place: no removals. */
                    h.cell = hcell;
                    h.value = v;
                    if (acc->add(acc, &h))
                        return 1;
                }
            }
        }
    if (!direct)
        for (int v = 1; v <= 9; v++)
            if (!((skip | added) >> v & 1))
                memo_put(&ctx->locking[pass][v], key[v]);
    return 0;
}

int se_locking(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc,
               int direct)
{
    return locking_pair(ctx, g, acc, direct, SE_BLOCK, SE_COL, 0) ||
           locking_pair(ctx, g, acc, direct, SE_BLOCK, SE_ROW, 1) ||
           locking_pair(ctx, g, acc, direct, SE_COL, SE_BLOCK, 2) ||
           locking_pair(ctx, g, acc, direct, SE_ROW, SE_BLOCK, 3);
}

/* ------------------------------------------------------------------ */
/* Hidden and naked sets                                                */
/* ------------------------------------------------------------------ */

static const int set_types[3] = {SE_BLOCK, SE_COL, SE_ROW};
static const double hidden_diff[5] = {0, 0, 3.4, 4.0, 5.4};
static const double direct_diff[5] = {0, 0, 2.0, 2.5, 4.3};
static const char *const set_names[5] = {"", "", "Pair", "Triplet", "Quad"};

int se_hidden_set(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc,
                  int degree, int direct)
{
    struct se_hint h;

    for (int t = 0; t < 3; t++)
        for (int i = 0; i < 9; i++) {
            int r = set_types[t] * 9 + i, added = 0;
            int empty = se_region_empty(ctx, g, r);
            if (!(empty > degree * 2 || (direct && empty > degree)))
                continue;
            uint16_t key[9];
            region_key(ctx, g, r, key);
            struct se_scan_memo *memo = &ctx->hidden[!!direct][degree - 2][r];
            if (memo_hit(memo, key))
                continue;
            /* A digit in one place or none spoils every set it is in. */
            unsigned usable = 0;
            for (int v0 = 0; v0 < 9; v0++)
                if (se_popcount((unsigned)g->pos[r][v0 + 1]) > 1)
                    usable |= 1u << v0;
            for (unsigned m = (1u << degree) - 1; m < 512;
                 m = se_perm_next(m)) {
                if (m & ~usable)
                    continue;
                unsigned common = 0;
                for (unsigned b = m; b; b &= b - 1)
                    common |= g->pos[r][__builtin_ctz(b) + 1];
                if (se_popcount(common) != degree)
                    continue;
                uint16_t vset = (uint16_t)(m << 1);
                char name[72];
                strcpy(name, direct ? "Direct Hidden " : "Hidden ");
                strcat(name, set_names[degree]);
                se_hint_init(&h,
                             direct ? direct_diff[degree] : hidden_diff[degree],
                             name);
                for (int k = 0; k < 9; k++)
                    if (common >> k & 1) {
                        int c = ctx->t.rcell[r][k];
                        h.rem[c] = g->cand[c] & (uint16_t)~vset;
                    }
                if (direct) {
                    int found = 0;
                    for (int v = 1; v <= 9 && !found; v++) {
                        if (vset & BIT(v))
                            continue;
                        unsigned pos =
                            (unsigned)se_region_positions(ctx, g, r, v);
                        if (se_popcount(pos) <= 1)
                            continue;
                        pos &= ~common;
                        if (se_popcount(pos) == 1) {
                            h.cell = ctx->t.rcell[r][se_first_bit(pos)];
                            h.value = v;
                            found = 1;
                        }
                    }
                    memset(h.rem, 0, sizeof h.rem); /* direct: only places */
                    if (!found)
                        continue;
                    added = 1;
                    if (acc->add(acc, &h))
                        return 1;
                    continue;
                }
                if (acc->want_rp) {
                    for (int k = 0; k < 9; k++) {
                        int c = ctx->t.rcell[r][k];
                        if (!(common >> k & 1))
                            h.rp[c] = acc->source->cand[c] & vset;
                    }
                }
                if (!has_rem(&h))
                    continue;
                added = 1;
                if (acc->add(acc, &h))
                    return 1;
            }
            if (!added)
                memo_put(memo, key);
        }
    return 0;
}

static const double naked_diff[5] = {0, 0, 3.0, 3.6, 5.0};

int se_naked_set(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc,
                 int degree)
{
    struct se_hint h;

    for (int t = 0; t < 3; t++)
        for (int i = 0; i < 9; i++) {
            int r = set_types[t] * 9 + i, added = 0;
            if (se_region_empty(ctx, g, r) < degree * 2)
                continue;
            uint16_t key[9];
            region_key(ctx, g, r, key);
            if (memo_hit(&ctx->naked[degree - 2][r], key))
                continue;
            /* A cell with one candidate or none spoils every set. */
            unsigned usable = 0;
            for (int k = 0; k < 9; k++)
                if (se_popcount(g->cand[ctx->t.rcell[r][k]]) > 1)
                    usable |= 1u << k;
            for (unsigned m = (1u << degree) - 1; m < 512;
                 m = se_perm_next(m)) {
                if (m & ~usable)
                    continue;
                unsigned common = 0;
                for (unsigned b = m; b; b &= b - 1)
                    common |= g->cand[ctx->t.rcell[r][__builtin_ctz(b)]];
                if (se_popcount(common) != degree)
                    continue;
                char name[72];
                strcpy(name, "Naked ");
                strcat(name, set_names[degree]);
                se_hint_init(&h, naked_diff[degree], name);
                for (int k = 0; k < 9; k++) {
                    int c = ctx->t.rcell[r][k];
                    if (!(m >> k & 1))
                        h.rem[c] = g->cand[c] & (uint16_t)common;
                    else if (acc->want_rp)
                        h.rp[c] = acc->source->cand[c] & (uint16_t)~common;
                }
                if (!has_rem(&h))
                    continue;
                added = 1;
                if (acc->add(acc, &h))
                    return 1;
            }
            if (!added)
                memo_put(&ctx->naked[degree - 2][r], key);
        }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Fish (Fisherman)                                                     */
/* ------------------------------------------------------------------ */

static const double fish_diff[5] = {0, 0, 3.2, 3.8, 5.2};
static const char *const fish_names[5] = {"", "", "X-Wing", "Swordfish",
                                          "Jellyfish"};

static int fish_pass(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc,
                     int degree, int t1, int t2, int pass)
{
    struct se_hint h;
    int occ[10] = {0};
    uint16_t key[10][9];
    unsigned skip = 0, added = 0;

    for (int c = 0; c < 81; c++)
        occ[g->val[c]]++;
    for (int v = 1; v <= 9; v++) {
        digit_key(g, v, occ[v], key[v]);
        if (memo_hit(&ctx->fish[degree - 2][pass][v], key[v]))
            skip |= 1u << v;
    }
    /* usable[v]: the base regions where v has two places or more. */
    unsigned usable[10] = {0};
    for (int v = 1; v <= 9; v++)
        for (int k = 0; k < 9; k++)
            if (se_popcount(g->pos[t1 * 9 + k][v]) > 1)
                usable[v] |= 1u << k;
    for (unsigned m = (1u << degree) - 1; m < 512; m = se_perm_next(m))
        for (int v = 1; v <= 9; v++) {
            if ((skip >> v & 1) || occ[v] + degree * 2 > 9 || (m & ~usable[v]))
                continue;
            unsigned common = 0;
            for (unsigned b = m; b; b &= b - 1)
                common |= g->pos[t1 * 9 + __builtin_ctz(b)][v];
            if (se_popcount(common) != degree)
                continue;
            se_hint_init(&h, fish_diff[degree], fish_names[degree]);
            for (int j = 0; j < 9; j++) {
                if (!(common >> j & 1))
                    continue;
                unsigned pos =
                    (unsigned)se_region_positions(ctx, g, t2 * 9 + j, v);
                pos &= ~m;
                for (int k = 0; k < 9; k++)
                    if (pos >> k & 1)
                        h.rem[ctx->t.rcell[t2 * 9 + j][k]] |= BIT(v);
            }
            if (acc->want_rp)
                for (int k = 0; k < 9; k++) {
                    if (!(m >> k & 1))
                        continue;
                    for (int i = 0; i < 9; i++) {
                        int c = ctx->t.rcell[t1 * 9 + k][i];
                        if ((acc->source->cand[c] & BIT(v)) &&
                            !(g->cand[c] & BIT(v)) &&
                            !(common >> ctx->t.cidx[c][t1] & 1))
                            h.rp[c] |= BIT(v);
                    }
                }
            if (!has_rem(&h))
                continue;
            added |= 1u << v;
            if (acc->add(acc, &h))
                return 1;
        }
    for (int v = 1; v <= 9; v++)
        if (!((skip | added) >> v & 1))
            memo_put(&ctx->fish[degree - 2][pass][v], key[v]);
    return 0;
}

int se_fish(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc,
            int degree)
{
    return fish_pass(ctx, g, acc, degree, SE_COL, SE_ROW, 0) ||
           fish_pass(ctx, g, acc, degree, SE_ROW, SE_COL, 1);
}

/* ------------------------------------------------------------------ */
/* XY-Wing and XYZ-Wing                                                 */
/* ------------------------------------------------------------------ */

static int peer(const struct se_ctx *ctx, int a, int b)
{
    return (int)(ctx->t.peers[a][b >> 6] >> (b & 63) & 1);
}

int se_xywing(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc,
              int xyz)
{
    struct se_hint h;
    int target = xyz ? 3 : 2;

    for (int xy = 0; xy < 81; xy++) {
        unsigned xyv = g->cand[xy];
        if (se_popcount(xyv) != target)
            continue;
        for (int a = 0; a < 20; a++) {
            int xz = ctx->t.house[xy][a];
            unsigned xzv = g->cand[xz];
            if (se_popcount(xzv) != 2 || se_popcount(xyv & ~xzv) != 1)
                continue;
            for (int b = 0; b < 20; b++) {
                int yz = ctx->t.house[xy][b];
                unsigned yzv = g->cand[yz];
                if (se_popcount(yzv) != 2)
                    continue;
                unsigned uni = xyv | xzv | yzv, inter = xyv & xzv & yzv;
                if (se_popcount(uni) != 3 ||
                    se_popcount(inter) != (xyz ? 1 : 0))
                    continue;
                int z = se_first_bit(xzv & yzv);
                se_hint_init(&h, xyz ? 4.4 : 4.2, xyz ? "XYZ-Wing" : "XY-Wing");
                for (int c = 0; c < 81; c++) {
                    if (c == xy || c == xz || c == yz)
                        continue;
                    if (!peer(ctx, c, xz) || !peer(ctx, c, yz))
                        continue;
                    if (xyz && !peer(ctx, c, xy))
                        continue;
                    if (g->cand[c] & BIT(z))
                        h.rem[c] |= BIT(z);
                }
                if (has_rem(&h) && acc->add(acc, &h))
                    return 1;
            }
        }
    }
    return 0;
}
