/* api_judge.c - the verdict on a puzzle, one for every engine: a count of
 * solutions up to 2 within a budget of nodes and CPU time, by the engine the
 * puzzle's kind needs (the bitboard solver, the killer search, the exact-cover
 * engine), so "exactly one" is checked; the budget becomes search_limit, and a
 * count of 0 lists the broken rules when there are any. A killer puzzle's
 * givens and cages are checked before its search (killer_check). On an event
 * loop (ctx->slice) only a classic search runs, within API_SLICE_NODES; any
 * other, or one that needs more, is deferred to a worker. */
#include <stdio.h>
#include <string.h>

#include "api_internal.h"
#include "clock.h"
#include "codec.h"
#include "cover.h"
#include "killer.h"
#include "metrics.h"
#include "sudoku.h"

/* The classic solver's nodes within *b: its node count, cut to what the
 * CPU left buys (it reads no clock). *by_cpu: the cut is the CPU's. */
static uint64_t classic_nodes(const struct search_budget *b, int *by_cpu)
{
    uint64_t now, left;

    *by_cpu = 0;
    if (b->cpu_deadline_ns == 0)
        return b->max_nodes;
    now = search_budget_cpu_ns();
    left = now < b->cpu_deadline_ns ? (b->cpu_deadline_ns - now) / 1000000u : 0;
    left = left * API_CLASSIC_NODES_PER_MS + 1; /* 0 would mean no bound */
    if (b->max_nodes == 0 || left < b->max_nodes) {
        *by_cpu = 1;
        return left;
    }
    return b->max_nodes;
}

enum api_count_status api_count(const struct api_givens *g,
                                const struct search_budget *b,
                                struct api_verdict *v, unsigned *count)
{
    enum api_count_status st = API_COUNT_OK;
    int by_cpu = 0;

    *count = 0;
    v->cpu_out = 0;
    switch (g->kind) {
    case CODEC_CLASSIC:
        if (sudoku_count(g->grid, 2, classic_nodes(b, &by_cpu), &v->solution,
                         count, &v->stats) == SUDOKU_BUDGET)
            st = API_COUNT_BUDGET;
        v->cpu_out = st == API_COUNT_BUDGET && by_cpu;
        return st;
    case CODEC_KILLER:
        if (killer_count_budget(g->grid, g->cages, 2, b, &v->solution, count,
                                &v->stats) == KILLER_BUDGET)
            st = API_COUNT_BUDGET;
        break;
    case CODEC_VARIANT:
        switch (cover_count_budget(g->rules, g->cover, 2, b, &v->cover_solution,
                                   count, &v->stats)) {
        case COVER_BUDGET:
            st = API_COUNT_BUDGET;
            break;
        case COVER_NO_MEMORY:
            return API_COUNT_NO_MEMORY;
        default:
            break;
        }
        break;
    }
    v->cpu_out =
        st == API_COUNT_BUDGET && !search_budget_by_nodes(b, v->stats.nodes);
    return st;
}

const struct cover_rules *api_conflict_rules(const struct api_givens *g,
                                             struct api_verdict *v)
{
    if (g->kind == CODEC_VARIANT)
        return g->rules;
    cover_rules_init(&v->classic, SUDOKU_SIZE);
    return &v->classic;
}

size_t api_find_conflicts(const struct api_givens *g, struct api_verdict *v)
{
    struct sudoku_conflict c[3 * SUDOKU_CELLS];
    size_t n;

    if (g->kind == CODEC_VARIANT) {
        v->total = cover_conflicts(g->rules, g->cover, v->conflicts,
                                   API_MAX_CONFLICTS);
        v->nconflicts =
            v->total < API_MAX_CONFLICTS ? v->total : API_MAX_CONFLICTS;
        return v->nconflicts;
    }
    /* The 9x9 engine's conflicts, in the generic engine's terms (its first
     * three units are row, column and box), so one builder lists both. */
    n = sudoku_conflicts(g->grid, c, sizeof(c) / sizeof(c[0]));
    for (size_t i = 0; i < n; i++) {
        v->conflicts[i].unit = (enum cover_unit)c[i].unit;
        v->conflicts[i].index = c[i].index;
        v->conflicts[i].digit = c[i].digit;
        v->conflicts[i].ncells = c[i].ncells;
        for (int k = 0; k < c[i].ncells; k++)
            v->conflicts[i].cell[k] = c[i].cells[k];
    }
    return v->nconflicts = v->total = n;
}

int api_givens_complete(const struct api_givens *g)
{
    const uint8_t *cell =
        g->kind == CODEC_VARIANT ? g->cover->cell : g->grid->cell;
    size_t n = g->kind == CODEC_VARIANT ? (size_t)g->cover->n * g->cover->n
                                        : SUDOKU_CELLS;

    for (size_t i = 0; i < n; i++)
        if (cell[i] == 0)
            return 0;
    return 1;
}

static const char *unit_word(const struct cover_rules *r, enum cover_unit u)
{
    static const char *const words[] = {
        [COVER_ROW] = "row",
        [COVER_COLUMN] = "column",
        [COVER_BOX] = "box",
        [COVER_DIAGONAL] = "diagonal",
        [COVER_EXTRA] = "extra region",
        [COVER_KNIGHT] = "knight's move",
        [COVER_KING] = "king's move",
    };

    return u == COVER_BOX && r->has_regions ? "region" : words[u];
}

/* v->problem: 422 conflict listing v's conflicts (at least one) under r. A
 * 9x9 board's detail says how many more "are listed" (all of them are); a
 * variant's how many more there are. */
static void conflict_problem(const struct api_givens *g, struct api_verdict *v)
{
    const struct cover_rules *r = api_conflict_rules(g, v);
    const struct cover_conflict *c = v->conflicts;
    char *detail = v->text.detail;
    size_t cap = sizeof(v->text.detail), total = v->total;
    int len;

    if (c[0].unit == COVER_KNIGHT || c[0].unit == COVER_KING)
        len = snprintf(detail, cap, "digit %c is a %s from itself (cells",
                       cover_digit_char(c[0].digit), unit_word(r, c[0].unit));
    else
        len = snprintf(detail, cap, "digit %c appears %d times in %s %d (cells",
                       cover_digit_char(c[0].digit), c[0].ncells,
                       unit_word(r, c[0].unit), c[0].index);
    for (int k = 0; k < c[0].ncells && len < (int)cap; k++)
        len += snprintf(detail + len, cap - (size_t)len, "%s [%u,%u]",
                        k ? "," : "", c[0].cell[k] / r->n, c[0].cell[k] % r->n);
    if (len < (int)cap && g->kind != CODEC_VARIANT)
        snprintf(detail + len, cap - (size_t)len,
                 total > 2    ? "), and %zu more conflicts are listed"
                 : total == 2 ? "), and %zu more conflict is listed"
                              : ")",
                 total - 1);
    else if (len < (int)cap)
        snprintf(detail + len, cap - (size_t)len,
                 total > 1 ? "), and %zu more conflict%s" : ")", total - 1,
                 total > 2 ? "s" : "");
    codec_problem_init(&v->problem, CODEC_PROBLEM_CONFLICT, detail);
    v->problem.cover_conflicts = c;
    v->problem.ncover = v->nconflicts;
    v->problem.cover_rules = r;
}

void api_cage_problem(enum killer_status st, struct api_verdict *v)
{
    static const enum codec_problem_id as[] = {
        [KILLER_CELL_OUT_OF_RANGE] = CODEC_PROBLEM_CAGE_CELL_OUT_OF_RANGE,
        [KILLER_OVERLAP] = CODEC_PROBLEM_CAGE_OVERLAP,
        [KILLER_NOT_CONNECTED] = CODEC_PROBLEM_CAGE_NOT_CONNECTED,
        [KILLER_SUM_IMPOSSIBLE] = CODEC_PROBLEM_CAGE_SUM_IMPOSSIBLE,
        [KILLER_TOTAL_NOT_405] = CODEC_PROBLEM_CAGE_TOTAL_NOT_405,
        [KILLER_GIVEN_CONFLICT] = CODEC_PROBLEM_CAGE_GIVEN_CONFLICT,
    };
    const struct killer_error *err = &v->cage_error;
    struct codec_problem *p = &v->problem;

    killer_describe(st, err, 0, v->text.detail, sizeof(v->text.detail));
    codec_problem_init(p, as[st], v->text.detail);
    p->cage = err->cage;
    p->other_cage = st == KILLER_OVERLAP ? err->other_cage : -1;
    p->cell_rows = err->row;
    p->cell_cols = err->col;
    p->ncells = err->ncells;
    snprintf(v->text.pointer, sizeof(v->text.pointer), "/cages/%d", err->cage);
    p->pointer = err->cage >= 0 ? v->text.pointer : "/cages";
}

/* The verdict of a finished count to 2 on a puzzle that obeys the rules:
 * API_SOLVED for one solution, else no_solution or multiple_solutions. */
static enum api_result count_result(enum codec_kind kind, unsigned count,
                                    struct codec_problem *p)
{
    int killer = kind == CODEC_KILLER;

    if (count == 0) {
        codec_problem_init(p, CODEC_PROBLEM_NO_SOLUTION,
                           killer ? "the board and the cages obey the rules "
                                    "but cannot be completed"
                                  : "the board obeys the rules but cannot be "
                                    "completed");
        return API_NO_SOLUTION;
    }
    if (count > 1) {
        codec_problem_init(p, CODEC_PROBLEM_MULTIPLE_SOLUTIONS,
                           killer ? "the board and the cages have more than "
                                    "one solution; a valid puzzle has exactly "
                                    "one, so add cages or givens"
                                  : "the board has more than one solution; a "
                                    "valid puzzle has exactly one, so add "
                                    "givens");
        return API_MULTIPLE_SOLUTIONS;
    }
    return API_SOLVED;
}

/* A killer's checks before its search: the givens by the 9x9 rules, then
 * the cages. 0, or -1 with v's problem. */
static int killer_checks(const struct api_givens *g, struct api_verdict *v)
{
    enum killer_status st;

    if (api_find_conflicts(g, v) > 0) {
        conflict_problem(g, v);
        return -1;
    }
    if ((st = killer_check(g->grid, g->cages, &v->cage_error)) != KILLER_OK) {
        api_cage_problem(st, v);
        return -1;
    }
    return 0;
}

struct search_budget api_search_budget(const struct api_context *ctx,
                                       enum codec_kind kind, uint64_t max_nodes)
{
    if (kind == CODEC_KILLER)
        max_nodes = ctx->max_killer_nodes;
    /* On a loop a classic search stops at the slice and moves to a worker,
     * which makes the real budget: here the CPU is only a node count, so
     * the loop's request reads no CPU clock (a system call each). */
    if (ctx->slice && kind == CODEC_CLASSIC) {
        uint64_t cpu_nodes =
            (uint64_t)ctx->max_search_ms * API_CLASSIC_NODES_PER_MS + 1;
        if (ctx->max_search_ms > 0 && (max_nodes == 0 || cpu_nodes < max_nodes))
            max_nodes = cpu_nodes;
        return search_budget_make(max_nodes, 0);
    }
    return search_budget_make(max_nodes, ctx->max_search_ms * 1000000ull);
}

int api_slice(const struct api_context *ctx, enum codec_kind kind,
              struct search_budget *b)
{
    if (!ctx->slice)
        return 0;
    if (kind != CODEC_CLASSIC)
        return 1;
    if (b->max_nodes == 0 || b->max_nodes > API_SLICE_NODES)
        b->max_nodes = API_SLICE_NODES;
    return 0;
}

enum api_result api_judge(const struct api_context *ctx, uint64_t max_nodes,
                          const struct api_givens *g, struct api_verdict *v)
{
    struct search_budget b = api_search_budget(ctx, g->kind, max_nodes);

    return api_judge_within(ctx, &b, g, v);
}

enum api_result api_judge_within(const struct api_context *ctx,
                                 const struct search_budget *b,
                                 const struct api_givens *g,
                                 struct api_verdict *v)
{
    enum api_count_status st;
    struct search_budget sliced;
    unsigned count = 0;
    uint64_t t0;

    v->stats.nodes = v->stats.guesses = 0;
    v->took_us = 0;
    v->nconflicts = v->total = 0;
    if (g->kind == CODEC_KILLER && killer_checks(g, v) != 0)
        return v->result = API_INVALID;
    sliced = *b;
    if (api_slice(ctx, g->kind, &sliced))
        return v->result = API_DEFER;
    b = &sliced;
    /* A board that breaks a rule has no solution, and the count sees that
     * before it searches: the conflicts are only listed for such boards. */
    t0 = clock_now_us();
    st = api_count(g, b, v, &count);
    v->took_us = clock_now_us() - t0;
    if (st == API_COUNT_NO_MEMORY) {
        codec_problem_init(&v->problem, CODEC_PROBLEM_INTERNAL_ERROR,
                           "the server ran out of memory; try again");
        return v->result = API_INVALID;
    }
    if (st == API_COUNT_BUDGET && ctx->slice)
        return v->result = API_DEFER;
    if (st == API_COUNT_BUDGET) {
        api_search_limit_problem(b->max_nodes,
                                 v->cpu_out ? ctx->max_search_ms : 0,
                                 &v->problem, &v->text);
        return v->result = API_SEARCH_LIMIT;
    }
    if (count == 0 && g->kind != CODEC_KILLER && api_find_conflicts(g, v) > 0) {
        if (g->kind == CODEC_CLASSIC) { /* the rules, not a search, said no */
            v->stats.nodes = v->stats.guesses = 0;
            v->took_us = 0;
        }
        conflict_problem(g, v);
        return v->result = API_INVALID;
    }
    return v->result = count_result(g->kind, count, &v->problem);
}

void api_count_puzzle(struct metrics *m, enum api_result r, uint64_t took_us,
                      uint64_t guesses)
{
    static const enum metrics_result as[] = {
        [API_SOLVED] = METRICS_SOLVED,
        [API_NO_SOLUTION] = METRICS_NO_SOLUTION,
        [API_MULTIPLE_SOLUTIONS] = METRICS_MULTIPLE_SOLUTIONS,
        [API_INVALID] = METRICS_INVALID,
        [API_SEARCH_LIMIT] = METRICS_SEARCH_LIMIT,
    };

    if (m != NULL && r != API_DEFER) /* the worker counts it */
        metrics_puzzle(m, as[r], took_us, guesses);
}
