/* api_hint.c - POST /hint, /grade and /explain behind the same intake as
 * /solve (api_read_puzzle). Classic 9x9: /hint and the default /explain
 * follow the logic engine (logic.h), /grade's ratings and /explain's
 * "engine": "se" path the SE rater (serate.h, Sudoku Explainer 1.2.1.3's
 * own path); killer and variant puzzles go to api_teach.c's general
 * engine. The three need exactly one solution (which is also what makes
 * the uniqueness techniques sound) and say why otherwise. They share one
 * time budget (--max-logic-ms): when it runs out the answer says so in a
 * 200, never a 5xx. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_internal.h"
#include "api_teach.h"
#include "clock.h"
#include "codec.h"
#include "logic.h"
#include "serate.h"
#include "sudoku.h"

/* The most steps /explain lists (a step removes at least one of the 729
 * candidates, so real puzzles stay far below). */
#define API_EXPLAIN_MAX_STEPS 400

static unsigned logic_ms(const struct api_context *ctx)
{
    return ctx->max_logic_ms ? ctx->max_logic_ms : API_LOGIC_DEFAULT_MS;
}

/* Reads the puzzle (any kind) and insists on exactly one solution (into
 * *sol, a variant's into *csol), as POST /solve judges it. Returns 0, or
 * -1 when resp holds the problem. */
static int read_puzzle(const struct api_context *ctx,
                       const struct api_request *req, struct api_response *resp,
                       struct api_puzzle *pz, struct sudoku_grid *sol,
                       struct cover_grid *csol)
{
    struct api_verdict v;

    if (api_read_puzzle(ctx, req, resp, API_TAKES_VARIANT | API_TAKES_CAGES,
                        pz) != 0)
        return -1;
    if (api_judge(ctx, ctx->max_nodes, &pz->givens, &v) == API_DEFER) {
        resp->defer = 1; /* called with a slice: this is a worker's */
        return -1;
    }
    if (v.result != API_SOLVED) {
        api_respond_problem(resp, &v.problem);
        return -1;
    }
    *sol = v.solution;
    if (pz->givens.kind == CODEC_VARIANT)
        *csol = v.cover_solution;
    return 0;
}

/* The dispatch of the three routes: a killer or variant puzzle goes to the
 * general engine (api_teach.c). 1 when it did (resp is set). */
static int teach(const struct api_context *ctx, const struct api_puzzle *pz,
                 const struct sudoku_grid *sol, const struct cover_grid *csol,
                 void (*route)(const struct api_teach_input *,
                               struct api_response *),
                 struct api_response *resp)
{
    struct api_teach_input in = {pz, sol, csol, logic_ms(ctx)};

    if (pz->givens.kind == CODEC_CLASSIC)
        return 0;
    route(&in, resp);
    return 1;
}

/* ------------------------------------------------------------------------
 * POST /hint
 * ------------------------------------------------------------------------ */

void api_handle_hint(const struct api_context *ctx,
                     const struct api_request *req, struct api_response *resp)
{
    struct api_puzzle pz;
    struct sudoku_grid sol;
    struct cover_grid csol;
    struct logic_grid g, ahead;
    struct logic_step step, next;
    struct codec_hint h = {0};
    char text[1024], *body;
    size_t len = 0;
    struct logic_budget budget;
    enum logic_status st;

    if (read_puzzle(ctx, req, resp, &pz, &sol, &csol) != 0 ||
        teach(ctx, &pz, &sol, &csol, api_teach_hint, resp))
        return;
    budget.deadline_us = clock_now_us() + logic_ms(ctx) * 1000ull;
    budget.max_rating = 0;
    if (api_givens_complete(&pz.givens)) {
        api_respond_simple(resp, CODEC_PROBLEM_ALREADY_SOLVED,
                           "the board has no blank cell left: it is solved");
        return;
    }
    logic_init(&g, pz.givens.grid);
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
        /* The board is not complete (checked above), so there is a blank. */
        logic_fallback_step(&g, &sol, &step);
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

/* The level of SE's ER; extreme when the budget cut SE short. */
static int se_level(const struct serate_result *se)
{
    return se->lower_bound ? LOGIC_EXTREME
                           : (int)logic_rating_level((unsigned)se->er);
}

/* The grade of a board on the request's one budget: SE's ER/EP/ED from the
 * SE rater first (its budget counts this thread's CPU time), then the logic
 * engine's technique counts in what is left of the budget's wall time.
 * Returns 0, or -1 when the SE rater's work area could not be allocated.
 * (A caller that defers a request which ran out of a small budget looks at
 * out->budget_exhausted.) */
static int grade_board(const struct api_context *ctx,
                       const struct sudoku_grid *board,
                       struct serate_result *se, struct logic_grade *lg,
                       struct codec_grade *out)
{
    uint64_t budget_us = logic_ms(ctx) * 1000ull, t0 = clock_now_us(), used;
    struct logic_limits lim = {0, 0, 0};
    struct serate_options opt;

    serate_options_init(&opt);
    opt.max_ms = (long)logic_ms(ctx);
    if (serate_rate(board->cell, &opt, se) != SERATE_OK)
        return -1; /* the board was judged unique: only memory fails */
    used = clock_now_us() - t0;
    lim.max_us = used < budget_us ? budget_us - used : 1; /* 0: no bound */
    logic_grade_budget(board, &lim, lg, NULL);
    out->se = se;
    out->logic = lg;
    out->level = se_level(se);
    out->budget_exhausted = se->lower_bound || lg->budget_out;
    return 0;
}

void api_handle_grade(const struct api_context *ctx,
                      const struct api_request *req, struct api_response *resp)
{
    struct api_puzzle pz;
    struct sudoku_grid sol;
    struct cover_grid csol;
    struct serate_result se;
    struct logic_grade lg;
    struct codec_grade grade;
    size_t len = 0;
    char *body;

    if (read_puzzle(ctx, req, resp, &pz, &sol, &csol) != 0 ||
        teach(ctx, &pz, &sol, &csol, api_teach_grade, resp))
        return;
    if (grade_board(ctx, pz.givens.grid, &se, &lg, &grade) != 0) {
        api_respond_no_memory(resp);
        return;
    }
    body = codec_encode_grade(&grade, &len);
    api_respond_json(resp, body, len);
}

/* ------------------------------------------------------------------------
 * POST /explain
 * ------------------------------------------------------------------------ */

/* "engine": "se": the steps SE 1.2.1.3 takes (serate_rate), within the
 * budget; each SE step removes a candidate at least, so there are at most
 * 729. */
static void explain_se(const struct api_context *ctx,
                       const struct api_puzzle *pz,
                       const struct sudoku_grid *sol, uint64_t t0,
                       struct api_response *resp)
{
    enum { MAX = SUDOKU_CELLS * SUDOKU_SIZE };
    struct serate_step *steps = malloc(MAX * sizeof(*steps));
    struct serate_options opt;
    struct serate_result se;
    struct codec_explain e = {0};
    size_t len = 0;
    char *body;

    serate_options_init(&opt);
    opt.max_ms = (long)logic_ms(ctx);
    opt.steps = steps;
    opt.max_steps = MAX;
    if (steps == NULL ||
        serate_rate(pz->givens.grid->cell, &opt, &se) != SERATE_OK) {
        free(steps);
        api_respond_no_memory(resp);
        return;
    }
    e.se_steps = steps;
    e.se = &se;
    e.nsteps = se.nsteps < MAX ? se.nsteps : MAX;
    e.complete = !se.lower_bound;
    e.stopped = se.lower_bound ? "time_budget" : NULL;
    e.level = se_level(&se);
    e.solution = sol;
    e.shape = pz->body.board.shape;
    e.max_logic_ms = logic_ms(ctx);
    e.explain_us = clock_now_us() - t0;
    body = codec_encode_explain(&e, &len);
    free(steps);
    api_respond_json(resp, body, len);
}

/* The steps from the given board to the end, applied in order: the logic
 * engine's, or SE's with "engine": "se". The logic engine's steps and
 * their sentences are held in one allocation: API_EXPLAIN_MAX_STEPS steps
 * and 1 KiB of text each. */
void api_handle_explain(const struct api_context *ctx,
                        const struct api_request *req,
                        struct api_response *resp)
{
    enum { TEXT = 1024 };
    struct api_puzzle pz;
    struct sudoku_grid sol;
    struct cover_grid csol;
    struct logic_budget budget;
    struct logic_walk w;
    struct codec_explain e = {0};
    struct logic_step *steps;
    const char **texts;
    char *pool, *body;
    uint64_t t0 = clock_now_us();
    size_t len = 0;

    if (read_puzzle(ctx, req, resp, &pz, &sol, &csol) != 0 ||
        teach(ctx, &pz, &sol, &csol, api_teach_explain, resp))
        return;
    if (pz.body.engine == CODEC_ENGINE_BAD) {
        struct codec_problem p;
        codec_problem_init(&p, CODEC_PROBLEM_INVALID_REQUEST,
                           "\"engine\" must be \"logic\" (the default: our "
                           "technique engine) or \"se\" (Sudoku Explainer "
                           "1.2.1.3's steps)");
        p.pointer = "/engine";
        api_respond_problem(resp, &p);
        return;
    }
    if (pz.body.engine == CODEC_ENGINE_SE) {
        explain_se(ctx, &pz, &sol, t0, resp);
        return;
    }
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
    logic_walk(pz.givens.grid, &budget, steps, API_EXPLAIN_MAX_STEPS, &w);
    for (size_t i = 0; i < w.nsteps; i++) {
        texts[i] = pool + i * TEXT;
        logic_explain(&steps[i], pool + i * TEXT, TEXT);
    }
    e.steps = steps;
    e.explanations = texts;
    e.nsteps = w.nsteps;
    e.complete = w.status == LOGIC_SOLVED;
    e.stopped = w.status == LOGIC_BUDGET   ? "time_budget"
                : w.status == LOGIC_OK     ? "step_cap"
                : w.status == LOGIC_SOLVED ? NULL
                                           : "stuck";
    e.rating = w.rating;
    e.level = (int)w.level;
    e.solution = &sol;
    e.shape = pz.body.board.shape;
    e.max_logic_ms = logic_ms(ctx);
    e.explain_us = clock_now_us() - t0;
    body = codec_encode_explain(&e, &len);
    free(steps);
    free(texts);
    free(pool);
    api_respond_json(resp, body, len);
}
