/* api_hint.c - POST /hint, /grade and /explain: the logic engine (logic.h)
 * behind the same intake as /solve (api_read_puzzle) for classic 9x9;
 * killer and variant puzzles go to api_teach.c's general engine. The
 * three need exactly one solution (which is also what
 * makes the uniqueness techniques sound) and say why otherwise. They share
 * one time budget (--max-logic-ms): when it runs out the answer says so in
 * a 200, never a 5xx. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_internal.h"
#include "api_teach.h"
#include "clock.h"
#include "codec.h"
#include "logic.h"
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
    if (api_judge(ctx, ctx->max_nodes, &pz->givens, &v) != API_SOLVED) {
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

void api_handle_grade(const struct api_context *ctx,
                      const struct api_request *req, struct api_response *resp)
{
    struct api_puzzle pz;
    struct sudoku_grid sol;
    struct cover_grid csol;
    struct logic_grade grade;
    struct logic_limits lim = {logic_ms(ctx) * 1000ull, 0, 0};
    size_t len = 0;
    char *body;

    if (read_puzzle(ctx, req, resp, &pz, &sol, &csol) != 0 ||
        teach(ctx, &pz, &sol, &csol, api_teach_grade, resp))
        return;
    logic_grade_budget(pz.givens.grid, &lim, &grade, NULL);
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
