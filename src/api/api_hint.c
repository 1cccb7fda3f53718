/* api_logic.c - POST /validate, /hint, /grade, /explain and /generate: the
 * logic engine (logic.h) and the generator (generate.h) behind the same
 * board intake as /solve (api_read_board). /validate reports a bad puzzle in
 * a 200 answer; /hint, /grade and /explain need exactly one solution (which
 * is also what makes the uniqueness techniques sound) and say why
 * otherwise. The three share one time budget (--max-logic-ms): when it runs
 * out the answer says so in a 200, never a 5xx. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api.h"
#include "api_internal.h"
#include "codec.h"
#include "generate.h"
#include "killer.h"
#include "logic.h"
#include "sudoku.h"

#define MAX_CONFLICTS (3 * SUDOKU_SIZE * SUDOKU_SIZE)

/* The most steps /explain lists (a step removes at least one of the 729
 * candidates, so real puzzles stay far below). */
#define API_EXPLAIN_MAX_STEPS 400

static unsigned logic_ms(const struct api_context *ctx)
{
    return ctx->max_logic_ms ? ctx->max_logic_ms : API_LOGIC_DEFAULT_MS;
}

static int complete(const struct sudoku_grid *g)
{
    for (int i = 0; i < SUDOKU_CELLS; i++)
        if (g->cell[i] == 0)
            return 0;
    return 1;
}

/* Reads the board and insists on exactly one solution (into *sol). Returns
 * 0, or -1 when resp holds the problem. */
/* The logic engine knows classic sudoku only: a killer body (one with a
 * "cages" member) gets 422 here rather than a hint or a grade that
 * ignores its cages. 0, or -1 with resp set. */
static int refuse_cages(const struct api_request *req,
                        struct api_response *resp)
{
    struct killer_cages *k = malloc(sizeof(*k));
    struct codec_error err;
    struct codec_problem p;
    int present = 0;

    if (k == NULL) {
        api_respond_no_memory(resp);
        return -1;
    }
    codec_decode_cages(req->body, req->body_len, k, &present, &err);
    free(k);
    if (!present)
        return 0;
    codec_problem_init(&p, 422, "cages_not_supported",
                       "Killer cages are not supported here",
                       "hints and grades are for classic sudoku only; POST "
                       "/solve and /validate take killer cages");
    p.pointer = "/cages";
    api_respond_problem(resp, &p);
    return -1;
}

static int read_puzzle(const struct api_context *ctx,
                       const struct api_request *req, struct api_response *resp,
                       struct sudoku_grid *puzzle, struct sudoku_grid *sol)
{
    struct codec_board board;
    struct api_verdict v;

    if (api_read_board(ctx, req, resp, &board, puzzle, NULL) != 0 ||
        refuse_cages(req, resp) != 0)
        return -1;
    /* The same judgement as POST /solve: rules, then exactly one solution. */
    if (api_judge(ctx, puzzle, &v) != API_SOLVED) {
        api_respond_problem(resp, &v.problem);
        return -1;
    }
    *sol = v.solution;
    return 0;
}

/* ------------------------------------------------------------------------
 * POST /validate
 * ------------------------------------------------------------------------ */

void api_handle_validate(const struct api_context *ctx,
                         const struct api_request *req,
                         struct api_response *resp)
{
    struct sudoku_conflict conflicts[MAX_CONFLICTS];
    struct codec_board board;
    struct sudoku_grid puzzle;
    struct api_variant *var;
    unsigned count = 0;
    size_t n, len = 0;
    char *body;
    int in = api_read_board(ctx, req, resp, &board, &puzzle, &var);

    if (in == 1) {
        api_validate_variant(ctx, resp, var);
        free(var);
    }
    if (in != 0 || api_validate_killer(ctx, req, resp, &puzzle))
        return;
    n = sudoku_conflicts(&puzzle, conflicts, MAX_CONFLICTS);
    if (n == 0 && sudoku_count(&puzzle, 2, ctx->max_nodes, NULL, &count,
                               NULL) == SUDOKU_BUDGET) {
        api_respond_search_limit(resp, ctx->max_nodes);
        return;
    }
    body = codec_encode_validate(n == 0 && count == 1, count, complete(&puzzle),
                                 conflicts,
                                 n < MAX_CONFLICTS ? n : MAX_CONFLICTS, &len);
    api_respond_json(resp, body, len);
}

/* ------------------------------------------------------------------------
 * POST /hint
 * ------------------------------------------------------------------------ */

/* When the engine is stuck: the blank with the fewest candidates (the one a
 * person would most likely try), with its digit from the solution. */
static void solution_step(const struct logic_grid *g,
                          const struct sudoku_grid *sol, struct logic_step *s)
{
    int best = -1;

    for (int i = 0; i < SUDOKU_CELLS; i++)
        if (g->value[i] == 0 &&
            (best < 0 || __builtin_popcount(g->cand[i]) <
                             __builtin_popcount(g->cand[best])))
            best = i;
    memset(s, 0, sizeof(*s));
    s->nplacements = 1;
    s->placements[0].cell = (uint8_t)best;
    s->placements[0].digit = sol->cell[best];
    s->digits = (uint16_t)(1u << (sol->cell[best] - 1));
    s->ncells = 1;
    s->cells[0] = (uint8_t)best;
}

void api_handle_hint(const struct api_context *ctx,
                     const struct api_request *req, struct api_response *resp)
{
    struct sudoku_grid puzzle, sol;
    struct logic_grid g, ahead;
    struct logic_step step, next;
    struct codec_hint h = {0};
    char text[1024], *body;
    size_t len = 0;
    struct logic_budget budget;
    enum logic_status st;

    if (read_puzzle(ctx, req, resp, &puzzle, &sol) != 0)
        return;
    budget.deadline_us = logic_now_us() + logic_ms(ctx) * 1000ull;
    budget.max_rating = 0;
    if (complete(&puzzle)) {
        api_respond_simple(resp, 422, "already_solved", "Already solved",
                           "the board has no blank cell left: it is solved");
        return;
    }
    logic_init(&g, &puzzle);
    h.step = &step;
    h.explanation = text;
    if ((st = logic_step_budget(&g, &budget, &step)) == LOGIC_OK) {
        logic_explain(&step, text, sizeof(text));
        /* An elimination cannot be written on a board: say which digit the
         * eliminations lead to, so the next hint is not the same one. */
        ahead = g;
        next = step;
        while (next.nplacements == 0) {
            logic_apply(&ahead, &next);
            h.next_steps++;
            if (logic_step_budget(&ahead, &budget, &next) != LOGIC_OK)
                break;
        }
        if (next.nplacements > 0 && h.next_steps > 0) {
            h.next = &next;
        }
    } else {
        int cell;
        solution_step(&g, &sol, &step);
        cell = step.placements[0].cell;
        h.technique = "from_solution";
        h.stuck = 1;
        if (st == LOGIC_BUDGET)
            snprintf(text, sizeof(text),
                     "The time budget (%u ms) ran out before a step was "
                     "found, so this is not a logical deduction: in the "
                     "solution, cell [%d,%d] is %d.",
                     logic_ms(ctx), cell / 9, cell % 9,
                     step.placements[0].digit);
        else
            snprintf(text, sizeof(text),
                     "None of the implemented techniques finds a step here, "
                     "so this is not a logical deduction: in the solution, "
                     "cell [%d,%d] is %d.",
                     cell / 9, cell % 9, step.placements[0].digit);
    }
    body = codec_encode_hint(&h, &len);
    api_respond_json(resp, body, len);
}

/* ------------------------------------------------------------------------
 * POST /grade
 * ------------------------------------------------------------------------ */

void api_handle_grade(const struct api_context *ctx,
                      const struct api_request *req, struct api_response *resp)
{
    struct sudoku_grid puzzle, sol;
    struct logic_grade grade;
    struct logic_limits lim = {logic_ms(ctx) * 1000ull, 0, 0};
    size_t len = 0;
    char *body;

    if (read_puzzle(ctx, req, resp, &puzzle, &sol) != 0)
        return;
    logic_grade_budget(&puzzle, &lim, &grade, NULL);
    body = codec_encode_grade(&grade, &len);
    api_respond_json(resp, body, len);
}

/* ------------------------------------------------------------------------
 * POST /explain
 * ------------------------------------------------------------------------ */

/* The steps from the given board to the end, applied in order. Steps and
 * their sentences are held in one allocation: API_EXPLAIN_MAX_STEPS steps
 * and 1 KiB of text each. */
void api_handle_explain(const struct api_context *ctx,
                        const struct api_request *req,
                        struct api_response *resp)
{
    enum { TEXT = 1024 };
    struct sudoku_grid puzzle, sol;
    struct codec_board board;
    struct api_verdict v;
    struct logic_grid g;
    struct logic_budget budget;
    struct codec_explain e = {0};
    struct logic_step *steps;
    const char **texts;
    char *pool, *body;
    uint64_t t0 = logic_now_us();
    enum logic_status st = LOGIC_OK;
    unsigned rating = 10;
    int hardest = -1;
    size_t n = 0, len = 0;

    if (api_read_board(ctx, req, resp, &board, &puzzle, NULL) != 0 ||
        refuse_cages(req, resp) != 0)
        return;
    if (api_judge(ctx, &puzzle, &v) != API_SOLVED) {
        api_respond_problem(resp, &v.problem);
        return;
    }
    sol = v.solution;
    steps = malloc(API_EXPLAIN_MAX_STEPS * sizeof(*steps));
    texts = malloc(API_EXPLAIN_MAX_STEPS * sizeof(*texts));
    pool = malloc((size_t)API_EXPLAIN_MAX_STEPS * TEXT);
    if (steps == NULL || texts == NULL || pool == NULL) {
        free(steps);
        free(texts);
        free(pool);
        api_respond_no_memory(resp);
        return;
    }
    budget.deadline_us = t0 + logic_ms(ctx) * 1000ull;
    budget.max_rating = 0;
    logic_init(&g, &puzzle);
    while (n < API_EXPLAIN_MAX_STEPS &&
           (st = logic_step_budget(&g, &budget, &steps[n])) == LOGIC_OK) {
        texts[n] = pool + n * TEXT;
        logic_explain(&steps[n], pool + n * TEXT, TEXT);
        if (steps[n].rating > rating ||
            (steps[n].rating == rating && (int)steps[n].technique > hardest)) {
            rating = steps[n].rating;
            hardest = (int)steps[n].technique;
        }
        logic_apply(&g, &steps[n]);
        n++;
    }
    e.steps = steps;
    e.explanations = texts;
    e.nsteps = n;
    e.complete = st == LOGIC_SOLVED;
    e.stopped = st == LOGIC_BUDGET   ? "time_budget"
                : st == LOGIC_OK     ? "step_cap"
                : st == LOGIC_SOLVED ? NULL
                                     : "stuck";
    e.rating = rating;
    e.level = e.complete ? (int)logic_rating_level(rating) : LOGIC_EXTREME;
    if (e.complete && hardest < 0)
        e.level = LOGIC_EASY;
    e.solution = &sol;
    e.shape = board.shape;
    e.max_logic_ms = logic_ms(ctx);
    e.explain_us = logic_now_us() - t0;
    body = codec_encode_explain(&e, &len);
    free(steps);
    free(texts);
    free(pool);
    api_respond_json(resp, body, len);
}

/* ------------------------------------------------------------------------
 * POST /generate
 * ------------------------------------------------------------------------ */

/* Size, media type and JSON of the /generate body; 0 or -1 (resp set). */
static int read_options(const struct api_context *ctx,
                        const struct api_request *req,
                        struct api_response *resp,
                        struct codec_generate_request *o)
{
    struct codec_problem p;
    struct codec_error err;
    enum codec_status st;

    if (api_check_body(ctx, req, resp) != 0)
        return -1;
    st = codec_decode_generate(req->body, req->body_len, o, &err);
    if (st == CODEC_OK)
        return 0;
    api_decode_problem(st, &err, &p);
    api_respond_problem(resp, &p);
    return -1;
}

void api_handle_generate(const struct api_context *ctx,
                         const struct api_request *req,
                         struct api_response *resp)
{
    struct codec_generate_request o;
    struct generate_options opt;
    struct generate_result r;
    struct codec_problem p;
    struct codec_generated out;
    enum logic_level level = LOGIC_MEDIUM;
    enum generate_symmetry sym = GENERATE_NONE;
    char detail[200], *body;
    size_t len = 0;

    if (read_options(ctx, req, resp, &o) != 0 ||
        api_generate_variant(ctx, req, resp, &o))
        return;
    if (o.difficulty[0] && logic_level_parse(o.difficulty, &level) != 0) {
        codec_problem_init(&p, 422, "invalid_difficulty", "Unknown difficulty",
                           "\"difficulty\" must be one of easy, medium, hard, "
                           "expert, extreme");
        p.pointer = "/difficulty";
        api_respond_problem(resp, &p);
        return;
    }
    if (o.symmetry[0] && generate_symmetry_parse(o.symmetry, &sym) != 0) {
        codec_problem_init(&p, 400, "invalid_request", "Malformed request",
                           "\"symmetry\" must be one of none, rotational, "
                           "diagonal");
        p.pointer = "/symmetry";
        api_respond_problem(resp, &p);
        return;
    }
    /* Without a seed, one from the clock; the answer says which. */
    generate_options_init(
        &opt, level, o.has_seed ? o.seed : api_now_us() & ((1ull << 53) - 1));
    opt.symmetry = sym;
    opt.max_us = API_GENERATE_MAX_US;
    if (o.min_rating || o.max_rating) {
        if (o.min_rating && o.max_rating && o.min_rating > o.max_rating) {
            codec_problem_init(&p, 422, "invalid_rating", "Empty rating range",
                               "\"min_rating\" is above \"max_rating\"");
            p.pointer = "/min_rating";
            api_respond_problem(resp, &p);
            return;
        }
        /* Without a difficulty the range alone decides; with one, both. */
        if (!o.difficulty[0])
            opt.level = LOGIC_NLEVELS;
        opt.min_rating = o.min_rating;
        opt.max_rating = o.max_rating;
    }
    if (generate_puzzle(&opt, &r) != GENERATE_OK) {
        snprintf(detail, sizeof(detail),
                 "no %s puzzle%s was found within the budget (%u attempts, "
                 "%llu ms); the closest was %s, rated %.1f: try another "
                 "seed",
                 opt.level < LOGIC_NLEVELS ? logic_level_name(opt.level)
                                           : "rated",
                 opt.min_rating || opt.max_rating ? " in the rating range" : "",
                 r.attempts, (unsigned long long)(r.took_us / 1000),
                 logic_level_name(r.grade.level), r.grade.rating / 10.0);
        codec_problem_init(&p, 503, "generation_timeout",
                           "Generation budget exhausted", detail);
        p.limit = (long long)(API_GENERATE_MAX_US / 1000);
        api_respond_problem(resp, &p);
        return;
    }
    out = (struct codec_generated){
        &r.puzzle, &r.solution, CODEC_SHAPE_LINE,
        &r.grade,  opt.seed,    generate_symmetry_name(sym),
        r.givens,  r.attempts,  r.took_us};
    body = codec_encode_generated(&out, &len);
    api_respond_json(resp, body, len);
}
