/* serate_unique.c - SE's uniqueness tests: unique rectangles and loops of
 * types 1-4 (UniqueLoops: every loop found from every bivalue cell, the
 * list sorted by rating then type) and the bivalue universal grave types
 * 1-4 (BivalueUniversalGrave), ported with SE's scan orders. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serate_internal.h"

#define BIT(v) ((uint16_t)(1u << (v)))
#define MAX_LOOP 40
#define MAX_LOOPS 4096
#define MAX_UL_HINTS 256

struct loop {
    int n;
    uint8_t cell[MAX_LOOP];
};

struct loop_search {
    struct se_ctx *ctx;
    const struct se_grid *g;
    int v1, v2;
    struct loop cur;
    struct loop *res;
    int nres;
};

static int loop_has(const struct loop *l, int c)
{
    for (int i = 0; i < l->n; i++)
        if (l->cell[i] == c)
            return 1;
    return 0;
}

static uint32_t cell_regions(const struct se_tables *t, int cell)
{
    return (1u << t->creg[cell][0]) | (1u << t->creg[cell][1]) |
           (1u << t->creg[cell][2]);
}

/* checkForLoops, exValues shared by the siblings as in SE. One addition:
 * a path whose cells at even (or odd) places already share a region can
 * only close into a loop isValidLoop rejects, so it is not followed; the
 * loops kept, and their order, are SE's. */
static void check_loops(struct loop_search *s, int cell, int allowed,
                        unsigned ex, int last_type, uint32_t even, uint32_t odd)
{
    const struct se_tables *t = &s->ctx->t;

    if (s->cur.n >= MAX_LOOP)
        return;
    if (s->cur.n & 1)
        odd |= cell_regions(t, cell);
    else
        even |= cell_regions(t, cell);
    s->cur.cell[s->cur.n++] = (uint8_t)cell;
    for (int ty = 0; ty < 3; ty++) {
        if (ty == last_type)
            continue;
        int r = t->creg[cell][ty];
        for (int i = 0; i < 9; i++) {
            int next = t->rcell[r][i];
            if (s->cur.cell[0] == next && s->cur.n >= 4) {
                if (s->nres < MAX_LOOPS)
                    s->res[s->nres++] = s->cur;
            } else if (!loop_has(&s->cur, next)) {
                unsigned p = s->g->cand[next];
                if ((p & BIT(s->v1)) && (p & BIT(s->v2))) {
                    ex |= p;
                    ex &= ~(unsigned)(BIT(s->v1) | BIT(s->v2));
                    int card = se_popcount(p);
                    uint32_t side = (s->cur.n & 1) ? odd : even;
                    if ((card == 2 || se_popcount(ex) == 1 || allowed > 0) &&
                        !(side & cell_regions(t, next)))
                        check_loops(s, next, allowed - (card > 2), ex, ty, even,
                                    odd);
                }
            }
        }
    }
    s->cur.n--;
}

static int valid_loop(const struct se_ctx *ctx, const struct loop *l)
{
    uint32_t odd = 0, even = 0;

    for (int i = 0; i < l->n; i++)
        for (int ty = 0; ty < 3; ty++) {
            uint32_t b = 1u << ctx->t.creg[l->cell[i]][ty];
            uint32_t *set = (i & 1) ? &odd : &even;
            if (*set & b)
                return 0;
            *set |= b;
        }
    return odd == even;
}

struct ul_hint {
    struct se_hint h;
    int type;
    uint64_t cells[2]; /* the loop, for SE's equals() */
    int size;
    int region;        /* type 3 */
    unsigned vals;     /* type 3: naked values or hidden values */
    uint64_t extra[2]; /* type 3: other cells / hidden indexes */
};

struct ul_list {
    struct ul_hint *a;
    int n;
};

static double loop_diff(int size)
{
    double d = 4.5;
    if (size >= 10)
        d += 0.3;
    if (size >= 8)
        d += 0.2;
    else if (size >= 6)
        d += 0.1;
    return d;
}

static void ul_start(struct ul_hint *u, const struct loop *l, int type,
                     double diff)
{
    char name[48];
    const char *kind = l->n == 4 ? "Rectangle" : "Loop";

    if (l->n > 6)
        snprintf(name, sizeof name, "Unique %s %d type %d", kind, l->n, type);
    else
        snprintf(name, sizeof name, "Unique %s type %d", kind, type);
    se_hint_init(&u->h, diff, name);
    u->type = type;
    u->size = l->n;
    u->cells[0] = u->cells[1] = 0;
    for (int i = 0; i < l->n; i++)
        u->cells[l->cell[i] >> 6] |= 1ull << (l->cell[i] & 63);
    u->region = -1;
    u->vals = 0;
    u->extra[0] = u->extra[1] = 0;
}

static int ul_equal(const struct ul_hint *a, const struct ul_hint *b)
{
    if (a->type != b->type || a->size != b->size ||
        a->cells[0] != b->cells[0] || a->cells[1] != b->cells[1])
        return 0;
    if (a->type != 3)
        return 1;
    /* Naked and hidden type 3 are different classes: told apart by the
     * sign of region (hidden ones store ~region). */
    return a->region == b->region && a->vals == b->vals &&
           a->extra[0] == b->extra[0] && a->extra[1] == b->extra[1];
}

static void ul_add(struct ul_list *list, struct ul_hint *u)
{
    int worth = 0;

    for (int c = 0; c < 81; c++)
        worth |= u->h.rem[c] != 0;
    if (!worth || list->n >= MAX_UL_HINTS)
        return;
    for (int i = 0; i < list->n; i++)
        if (ul_equal(&list->a[i], u))
            return;
    list->a[list->n++] = *u;
}

static void type2(struct se_ctx *ctx, const struct se_grid *g,
                  struct ul_list *list, const struct loop *l, const int *xc,
                  int nx, int v1, int v2)
{
    struct ul_hint u;
    unsigned common = g->cand[xc[0]] & ~(unsigned)(BIT(v1) | BIT(v2));
    int value = se_first_bit(common);

    ul_start(&u, l, 2, loop_diff(l->n));
    for (int c = 0; c < 81; c++) {
        int ok = 1;
        for (int i = 0; i < nx && ok; i++)
            if (c == xc[i] || !(ctx->t.peers[xc[i]][c >> 6] >> (c & 63) & 1))
                ok = 0;
        if (ok && (g->cand[c] & BIT(value)))
            u.h.rem[c] |= BIT(value);
    }
    ul_add(list, &u);
}

static void type3(struct se_ctx *ctx, const struct se_grid *g,
                  struct ul_list *list, const struct loop *l, int c1, int c2,
                  int v1, int v2)
{
    const struct se_tables *t = &ctx->t;
    unsigned extra =
        (g->cand[c1] | g->cand[c2]) & ~(unsigned)(BIT(v1) | BIT(v2));

    for (int degree = se_popcount(extra); degree <= 7; degree++)
        for (int ty = 0; ty < 3; ty++) {
            int r = t->creg[c1][ty];
            if (r != t->creg[c2][ty])
                continue;
            int empty = se_region_empty(ctx, g, r);
            int i1 = t->cidx[c1][ty], i2 = t->cidx[c2][ty];
            if (degree * 2 <= empty)
                for (unsigned m = (1u << degree) - 1; m < 512;
                     m = se_perm_next(m)) {
                    if (!(m >> i1 & 1) || (m >> i2 & 1))
                        continue;
                    unsigned naked = extra & g->cand[c1] & g->cand[c2];
                    unsigned uni = 0;
                    int ok = 1;
                    for (int k = 0; k < 9; k++) {
                        if (!(m >> k & 1))
                            continue;
                        unsigned p = k == i1 ? extra : g->cand[t->rcell[r][k]];
                        if (k != i1)
                            naked |= p;
                        if (se_popcount(p) <= 1)
                            ok = 0;
                        uni |= p;
                    }
                    if (se_popcount(naked) != degree || !ok ||
                        se_popcount(uni) != degree)
                        continue;
                    struct ul_hint u;
                    ul_start(&u, l, 3, loop_diff(l->n) + (degree - 1) * 0.1);
                    u.region = r;
                    u.vals = uni;
                    for (int k = 0; k < 9; k++) {
                        int c = t->rcell[r][k];
                        if ((m >> k & 1) && k != i1)
                            u.extra[c >> 6] |= 1ull << (c & 63);
                        if ((m >> k & 1) || c == c1 || c == c2)
                            continue;
                        u.h.rem[c] = g->cand[c] & (uint16_t)uni;
                    }
                    ul_add(list, &u);
                }
            if (degree * 2 < empty) {
                int rem[9], nrem = 0;
                for (int v = 1; v <= 9; v++)
                    if (v != v1 && v != v2 && !(extra & BIT(v)))
                        rem[nrem++] = v;
                if (degree - 2 > nrem)
                    continue;
                int k2 = degree - 2;
                for (unsigned m = (1u << k2) - 1; m < (1u << nrem);
                     m = k2 ? se_perm_next(m) : (1u << nrem)) {
                    unsigned hidden = BIT(v1) | BIT(v2);
                    unsigned uni = 0;
                    int ok = 1;
                    for (int j = 0; j < nrem; j++)
                        if (m >> j & 1)
                            hidden |= BIT(rem[j]);
                    for (int v = 1; v <= 9; v++) {
                        if (!(hidden & BIT(v)))
                            continue;
                        unsigned p =
                            (unsigned)se_region_positions(ctx, g, r, v) &
                            ~(1u << i2);
                        uni |= p;
                        if (!p)
                            ok = 0;
                    }
                    if (!ok || se_popcount(uni) != degree)
                        continue;
                    uni &= ~((1u << i1) | (1u << i2));
                    struct ul_hint u;
                    ul_start(&u, l, 3,
                             loop_diff(l->n) + (se_popcount(uni) - 1) * 0.1);
                    u.region = ~r;
                    u.vals = hidden;
                    u.extra[0] = uni;
                    for (int k = 0; k < 9; k++) {
                        int c = t->rcell[r][k];
                        if ((uni >> k & 1) && c != c1 && c != c2)
                            u.h.rem[c] = g->cand[c] & (uint16_t)~hidden;
                    }
                    ul_add(list, &u);
                }
            }
        }
}

static void type4(struct se_ctx *ctx, const struct se_grid *g,
                  struct ul_list *list, const struct loop *l, int c1, int c2,
                  int v1, int v2)
{
    int r1 = -1, r2 = -1;

    for (int ty = 0; ty < 3; ty++) {
        int r = ctx->t.creg[c1][ty];
        if (r != ctx->t.creg[c2][ty])
            continue;
        int h1 = 0, h2 = 0;
        for (int k = 0; k < 9; k++) {
            int c = ctx->t.rcell[r][k];
            if (c == c1 || c == c2)
                continue;
            h1 |= (g->cand[c] & BIT(v1)) != 0;
            h2 |= (g->cand[c] & BIT(v2)) != 0;
        }
        if (!h1)
            r1 = r;
        if (!h2)
            r2 = r;
    }
    int remv;
    if (r1 >= 0)
        remv = v2;
    else if (r2 >= 0)
        remv = v1;
    else
        return;
    struct ul_hint u;
    ul_start(&u, l, 4, loop_diff(l->n));
    u.h.rem[c1] = BIT(remv);
    u.h.rem[c2] = BIT(remv);
    ul_add(list, &u);
}

static int ul_cmp(const struct ul_hint *a, const struct ul_hint *b)
{
    if (a->h.diff < b->h.diff)
        return -1;
    if (a->h.diff > b->h.diff)
        return 1;
    return a->type - b->type;
}

int se_unique_loops(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc)
{
    struct loop_search s;
    struct ul_list list;
    int stop = 0;

    s.res = malloc(sizeof *s.res * MAX_LOOPS);
    list.a = malloc(sizeof *list.a * MAX_UL_HINTS);
    list.n = 0;
    if (!s.res || !list.a)
        goto done;
    s.ctx = ctx;
    s.g = g;
    for (int cell = 0; cell < 81; cell++) {
        unsigned p = g->cand[cell];
        if (se_popcount(p) != 2)
            continue;
        int v1 = se_first_bit(p), v2 = se_first_bit(p & (p - 1));
        s.v1 = v1;
        s.v2 = v2;
        s.cur.n = 0;
        s.nres = 0;
        check_loops(&s, cell, 2, 0, -1, 0, 0);
        for (int li = 0; li < s.nres; li++) {
            const struct loop *l = &s.res[li];
            if (!valid_loop(ctx, l))
                continue;
            int xc[MAX_LOOP], nx = 0;
            for (int i = 0; i < l->n; i++)
                if (se_popcount(g->cand[l->cell[i]]) > 2)
                    xc[nx++] = l->cell[i];
            if (nx == 1) {
                struct ul_hint u;
                ul_start(&u, l, 1, loop_diff(l->n));
                u.h.rem[xc[0]] = BIT(v1) | BIT(v2);
                ul_add(&list, &u);
            } else if (nx > 2) {
                type2(ctx, g, &list, l, xc, nx, v1, v2);
            } else if (nx == 2) {
                unsigned rp = (g->cand[xc[0]] | g->cand[xc[1]]) &
                              ~(unsigned)(BIT(v1) | BIT(v2));
                if (se_popcount(rp) == 1)
                    type2(ctx, g, &list, l, xc, nx, v1, v2);
                else if (se_popcount(rp) >= 2)
                    type3(ctx, g, &list, l, xc[0], xc[1], v1, v2);
                type4(ctx, g, &list, l, xc[0], xc[1], v1, v2);
            }
        }
    }
    /* Collections.sort is stable: insertion sort keeps equal keys' order. */
    for (int i = 1; i < list.n; i++) {
        struct ul_hint tmp = list.a[i];
        int j = i - 1;
        while (j >= 0 && ul_cmp(&list.a[j], &tmp) > 0) {
            list.a[j + 1] = list.a[j];
            j--;
        }
        list.a[j + 1] = tmp;
    }
    for (int i = 0; i < list.n && !stop; i++)
        stop = acc->add(acc, &list.a[i].h);
done:
    free(s.res);
    free(list.a);
    return stop;
}

/* ------------------------------------------------------------------ */
/* Bivalue universal grave                                              */
/* ------------------------------------------------------------------ */

int se_bug(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc)
{
    const struct se_tables *t = &ctx->t;
    struct se_grid temp = *g;
    int bug[81], nbug = 0;
    uint16_t bugv[81] = {0};
    unsigned all = 0;
    uint64_t common[2] = {~0ull, ~0ull};
    int have_common = 0;
    struct se_hint h;

    for (int r = 0; r < 27; r++)
        for (int v = 1; v <= 9; v++) {
            int pos = se_region_positions(ctx, g, r, v);
            int card = se_popcount((unsigned)pos);
            if (card == 0 || card == 2)
                continue;
            int nb[9], nnb = 0;
            for (int k = 0; k < 9; k++)
                if ((pos >> k & 1) && se_popcount(g->cand[t->rcell[r][k]]) >= 3)
                    nb[nnb++] = t->rcell[r][k];
            if (nnb == 1) {
                int c = nb[0], known = 0;
                for (int i = 0; i < nbug; i++)
                    known |= bug[i] == c;
                if (!known)
                    bug[nbug++] = c;
                bugv[c] |= BIT(v);
                all |= BIT(v);
                se_remove(ctx, &temp, c, BIT(v));
                if (!have_common) {
                    common[0] = t->peers[c][0];
                    common[1] = t->peers[c][1];
                    have_common = 1;
                } else {
                    common[0] &= t->peers[c][0];
                    common[1] &= t->peers[c][1];
                }
                for (int i = 0; i < nbug; i++)
                    common[bug[i] >> 6] &= ~(1ull << (bug[i] & 63));
                if (nbug > 1 && se_popcount(all) > 1 && !common[0] &&
                    !common[1])
                    return 0;
            }
            if (nnb == 0)
                return 0;
        }
    for (int c = 0; c < 81; c++)
        if (temp.val[c] == 0 && se_popcount(temp.cand[c]) != 2)
            return 0;
    for (int r = 0; r < 27; r++)
        for (int v = 1; v <= 9; v++) {
            int card =
                se_popcount((unsigned)se_region_positions(ctx, &temp, r, v));
            if (card != 0 && card != 2)
                return 0;
        }
    /* commonCells keeps the first bug cell's house order. */
    int cc[20], ncc = 0;
    if (have_common)
        for (int i = 0; i < 20; i++) {
            int c = t->house[bug[0]][i];
            if (common[c >> 6] >> (c & 63) & 1)
                cc[ncc++] = c;
        }
    if (nbug == 1) {
        se_hint_init(&h, 5.6, "BUG type 1");
        h.rem[bug[0]] = g->cand[bug[0]] & (uint16_t)~all;
        return acc->add(acc, &h);
    }
    if (se_popcount(all) == 1) {
        int value = se_first_bit(all);
        if (ncc) {
            se_hint_init(&h, 5.7, "BUG type 2");
            int any = 0;
            for (int i = 0; i < ncc; i++)
                if (g->cand[cc[i]] & BIT(value)) {
                    h.rem[cc[i]] |= BIT(value);
                    any = 1;
                }
            if (any && acc->add(acc, &h))
                return 1;
        }
        if (nbug == 2)
            goto bug4;
        return 0;
    }
    if (!ncc)
        return 0;
    if (nbug == 2) {
    bug4:;
        int c1 = bug[0], c2 = bug[1];
        unsigned com = g->cand[c1] & g->cand[c2] & ~all;
        if (se_popcount(com) == 1)
            for (int ty = 0; ty < 3; ty++) {
                if (t->creg[c1][ty] != t->creg[c2][ty])
                    continue;
                int value = se_first_bit(com);
                se_hint_init(&h, 5.7, "BUG type 4");
                h.rem[c1] =
                    g->cand[c1] & (uint16_t)~bugv[c1] & (uint16_t)~BIT(value);
                h.rem[c2] =
                    g->cand[c2] & (uint16_t)~bugv[c2] & (uint16_t)~BIT(value);
                if (acc->add(acc, &h))
                    return 1;
            }
        if (se_popcount(all) == 1)
            return 0;
    }
    /* Type 3: the extra values with cells of a region they share form a
     * naked set. */
    for (int ty = 0; ty < 3; ty++) {
        int r = t->creg[bug[0]][ty], same = 1;
        for (int i = 1; i < nbug; i++)
            same &= t->creg[bug[i]][ty] == r;
        if (!same)
            continue;
        int rc[20], nrc = 0;
        for (int i = 0; i < ncc; i++)
            if (t->creg[cc[i]][ty] == r)
                rc[nrc++] = cc[i];
        for (int degree = 2; degree <= 6; degree++) {
            if (nrc < degree)
                continue;
            int k = degree - 1;
            for (unsigned m = (1u << k) - 1; m < (1u << nrc);
                 m = se_perm_next(m)) {
                unsigned other = 0, uni = all;
                int ok = se_popcount(all) > 1;
                for (int j = 0; j < nrc; j++)
                    if (m >> j & 1) {
                        unsigned p = g->cand[rc[j]];
                        other |= p;
                        uni |= p;
                        if (se_popcount(p) <= 1)
                            ok = 0;
                    }
                if (se_popcount(other) != degree || !ok ||
                    se_popcount(uni) != degree)
                    continue;
                se_hint_init(&h, 5.7 + (degree - 1) * 0.1, "BUG type 3");
                int any = 0;
                for (int j = 0; j < nrc; j++) {
                    if (m >> j & 1)
                        continue;
                    int c = rc[j], isbug = 0;
                    for (int i = 0; i < nbug; i++)
                        isbug |= bug[i] == c;
                    if (isbug)
                        continue;
                    h.rem[c] = g->cand[c] & (uint16_t)uni;
                    any |= h.rem[c] != 0;
                }
                if (any && acc->add(acc, &h))
                    return 1;
            }
        }
    }
    return 0;
}
