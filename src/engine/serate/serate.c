/* serate.c - the SE 1.2.1.3 rating loop (Solver.getDifficulty): ask the
 * producers in SE's order, apply the first hint any of them gives, keep
 * the hardest rating so far. ED is that maximum after the first step, EP
 * after the first step that places a digit, ER after the last. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "serate_internal.h"
#include "sudoku.h"

static uint64_t cpu_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* se_time_up's slow path: read the clock. */
int se_time_check(struct se_ctx *ctx)
{
    if (cpu_ns() > ctx->deadline_ns)
        ctx->timed_out = 1;
    return ctx->timed_out;
}

static void tables_init(struct se_tables *t)
{
    for (int i = 0; i < 9; i++)
        for (int k = 0; k < 9; k++) {
            t->rcell[i][k] =
                (uint8_t)(((i / 3) * 3 + k / 3) * 9 + (i % 3) * 3 + k % 3);
            t->rcell[9 + i][k] = (uint8_t)(i * 9 + k);
            t->rcell[18 + i][k] = (uint8_t)(k * 9 + i);
        }
    memset(t->rmask, 0, sizeof t->rmask);
    for (int r = 0; r < 27; r++)
        for (int k = 0; k < 9; k++) {
            int c = t->rcell[r][k];
            t->rmask[r][c >> 6] |= 1ull << (c & 63);
            t->creg[t->rcell[r][k]][r / 9] = (uint8_t)r;
            t->cidx[t->rcell[r][k]][r / 9] = (uint8_t)k;
        }
    for (int a = 0; a < 27; a++)
        for (int b = 0; b < 27; b++) {
            t->inter[a][b] = 0;
            for (int k = 0; k < 9; k++)
                if (t->creg[t->rcell[a][k]][b / 9] == b)
                    t->inter[a][b] |= (uint16_t)(1u << k);
        }
    memset(t->peers, 0, sizeof t->peers);
    for (int c = 0; c < 81; c++) {
        int n = 0;
        for (int ty = 0; ty < 3; ty++)
            for (int k = 0; k < 9; k++) {
                int o = t->rcell[t->creg[c][ty]][k];
                if (o == c || (t->peers[c][o >> 6] >> (o & 63) & 1))
                    continue;
                t->peers[c][o >> 6] |= 1ull << (o & 63);
                t->house[c][n++] = (uint8_t)o;
            }
    }
}

void se_hint_init(struct se_hint *h, double diff, const char *name)
{
    memset(h->rem, 0, sizeof h->rem);
    memset(h->rp, 0, sizeof h->rp);
    h->diff = diff;
    h->cell = -1;
    h->value = 0;
    h->complexity = 0;
    h->sortkey = 0;
    h->seq = 0;
    h->nested = -1;
    strncpy(h->name, name, sizeof h->name - 1);
    h->name[sizeof h->name - 1] = 0;
}

void se_remove(const struct se_ctx *ctx, struct se_grid *g, int cell,
               unsigned bits)
{
    bits &= g->cand[cell];
    if (!bits)
        return;
    g->cand[cell] &= (uint16_t)~bits;
    for (int v = 1; v <= 9; v++)
        if (bits >> v & 1)
            for (int ty = 0; ty < 3; ty++)
                g->pos[ctx->t.creg[cell][ty]][v] &=
                    (uint16_t) ~(1u << ctx->t.cidx[cell][ty]);
}

void se_place(struct se_ctx *ctx, struct se_grid *g, int cell, int v)
{
    g->val[cell] = (uint8_t)v;
    se_remove(ctx, g, cell, 0x3fe);
    for (int i = 0; i < 20; i++)
        se_remove(ctx, g, ctx->t.house[cell][i], 1u << v);
}

int se_region_empty(const struct se_ctx *ctx, const struct se_grid *g, int r)
{
    int n = 0;

    for (int k = 0; k < 9; k++)
        n += g->val[ctx->t.rcell[r][k]] == 0;
    return n;
}

/* SingleHintAccumulator: keep the first hint, stop. */
static int take_first(struct se_acc *acc, struct se_hint *h)
{
    memcpy(acc->data, h, sizeof *h);
    return 1;
}

/* One SE step: every producer in Solver's order until one gives a hint.
 * Returns 1 with *h filled, 0 when none applies (or the budget ran out). */
static int next_hint(struct se_ctx *ctx, struct se_grid *g, struct se_hint *h,
                     int max_level)
{
    struct se_acc acc = {take_first, NULL, 0, h};

    if (se_hidden_single(ctx, g, &acc) || se_locking(ctx, g, &acc, 1) ||
        se_hidden_set(ctx, g, &acc, 2, 1) || se_naked_single(ctx, g, &acc) ||
        se_hidden_set(ctx, g, &acc, 3, 1))
        return 1;
    if (se_locking(ctx, g, &acc, 0) || se_naked_set(ctx, g, &acc, 2) ||
        se_fish(ctx, g, &acc, 2) || se_hidden_set(ctx, g, &acc, 2, 0) ||
        se_naked_set(ctx, g, &acc, 3) || se_fish(ctx, g, &acc, 3) ||
        se_hidden_set(ctx, g, &acc, 3, 0) || se_xywing(ctx, g, &acc, 0) ||
        se_xywing(ctx, g, &acc, 1) || se_unique_loops(ctx, g, &acc) ||
        se_naked_set(ctx, g, &acc, 4) || se_fish(ctx, g, &acc, 4) ||
        se_hidden_set(ctx, g, &acc, 4, 0) || se_bug(ctx, g, &acc) ||
        se_aligned(ctx, g, &acc, 2))
        return 1;
    if (se_chaining(ctx, g, &acc, 0, 0, 0, 0) || se_aligned(ctx, g, &acc, 3) ||
        se_chaining(ctx, g, &acc, 0, 1, 1, 0) ||
        se_chaining(ctx, g, &acc, 1, 0, 0, 0) ||
        se_chaining(ctx, g, &acc, 1, 1, 0, 0))
        return !ctx->timed_out;
    for (int level = 1; level <= max_level; level++)
        if (se_chaining(ctx, g, &acc, 1, 1, 0, level))
            return !ctx->timed_out;
    return 0;
}

void serate_options_init(struct serate_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->max_level = SERATE_LEVEL_ALL;
}

static int tenths(double d)
{
    return (int)((d + 0.05) * 10);
}

enum serate_status serate_rate(const uint8_t cells[81],
                               const struct serate_options *opt,
                               struct serate_result *res)
{
    struct serate_options defaults;
    struct sudoku_grid puzzle;
    struct se_hint h;
    struct se_ctx *ctx;
    unsigned count = 0;

    memset(res, 0, sizeof *res);
    if (!opt) {
        serate_options_init(&defaults);
        opt = &defaults;
    }
    memcpy(puzzle.cell, cells, 81);
    for (int c = 0; c < 81; c++)
        if (cells[c] > 9)
            return SERATE_INVALID;
    if (sudoku_count(&puzzle, 2, 0, NULL, &count, NULL) != SUDOKU_OK ||
        count != 1)
        return SERATE_INVALID;
    ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return SERATE_NOMEM;
    tables_init(&ctx->t);
    if (se_chain_init(ctx)) {
        free(ctx);
        return SERATE_NOMEM;
    }
    if (opt->max_ms > 0)
        ctx->deadline_ns = cpu_ns() + (uint64_t)opt->max_ms * 1000000u;

    struct se_grid g;
    for (int c = 0; c < 81; c++) {
        g.val[c] = 0;
        g.cand[c] = 0x3fe;
    }
    for (int r = 0; r < 27; r++)
        for (int v = 0; v < 10; v++)
            g.pos[r][v] = v ? 0x1ff : 0;
    for (int c = 0; c < 81; c++)
        if (cells[c])
            se_place(ctx, &g, c, cells[c]);

    double diff = -1, pearl = 0, diamond = 0;
    int left = 0;
    for (int c = 0; c < 81; c++)
        left += g.val[c] == 0;
    while (left > 0) {
        if (!next_hint(ctx, &g, &h, opt->max_level)) {
            res->lower_bound = 1;
            break;
        }
        if (h.diff > diff) {
            diff = h.diff;
            memcpy(res->hardest, h.name, sizeof res->hardest);
            res->hardest[sizeof res->hardest - 1] = 0;
        }
        struct serate_step *s = opt->steps && res->nsteps < opt->max_steps
                                    ? &opt->steps[res->nsteps]
                                    : NULL;
        for (int c = 0; c < 81; c++) {
            if (s)
                s->removed[c] = (uint16_t)((h.rem[c] & g.cand[c]) >> 1);
            se_remove(ctx, &g, c, h.rem[c]);
        }
        if (h.cell >= 0) {
            se_place(ctx, &g, h.cell, h.value);
            left--;
        }
        if (pearl == 0.0) {
            if (diamond == 0.0)
                diamond = diff;
            if (h.cell >= 0)
                pearl = diff;
        }
        if (s) {
            memcpy(s->name, h.name, sizeof s->name);
            s->rating = (uint8_t)tenths(h.diff);
            s->cell = (int8_t)h.cell;
            s->digit = (uint8_t)(h.cell >= 0 ? h.value : 0);
        }
        res->nsteps++;
    }
    res->er = diff < 0 ? 0 : tenths(diff);
    res->ep = tenths(pearl);
    res->ed = tenths(diamond);
    se_chain_free(ctx);
    free(ctx);
    return SERATE_OK;
}
