/* api_teach.c - POST /hint, /grade and /explain for killer and for every
 * size and rule the service takes: the general logic engine (teach.h) in
 * place of the classic one, answers in the classic answers' shape
 * (codec_teach.h). The puzzle is rebuilt as units and peers per request
 * (about 100 KB on the heap); the budget is --max-logic-ms, as for
 * classic, and when it runs out the answer says so in a 200. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_teach.h"
#include "clock.h"
#include "codec_teach.h"
#include "cover.h"
#include "logic.h"
#include "teach.h"

/* The engine's view of one request: rules, givens, solution. */
struct teach_request {
    struct teach_puzzle puzzle;
    struct teach_grid grid;
    uint8_t givens[TEACH_MAX_CELLS];
    uint8_t solution[TEACH_MAX_CELLS];
    char solution_text[TEACH_MAX_CELLS + 1];
    enum codec_shape shape;
};

/* The request's puzzle on the heap, or NULL (resp then holds a 500). */
static struct teach_request *prepare(const struct api_teach_input *in,
                                     struct api_response *resp)
{
    const struct api_puzzle *pz = in->pz;
    struct teach_request *t = malloc(sizeof(*t));
    unsigned n;

    if (t == NULL) {
        api_respond_no_memory(resp);
        return NULL;
    }
    if (pz->givens.kind == CODEC_KILLER) {
        teach_from_killer(&t->puzzle, pz->givens.cages);
        memcpy(t->givens, pz->givens.grid->cell, SUDOKU_CELLS);
        memcpy(t->solution, in->sol->cell, SUDOKU_CELLS);
        sudoku_format(in->sol, t->solution_text);
        t->shape = pz->body.board.shape;
    } else {
        teach_from_cover(&t->puzzle, pz->givens.rules);
        n = pz->givens.rules->n;
        memcpy(t->givens, pz->givens.cover->cell, n * n);
        memcpy(t->solution, in->csol->cell, n * n);
        cover_format(in->csol, t->solution_text);
        t->shape = pz->body.variant.shape;
    }
    /* The judge proved one solution, so the givens break no rule. */
    teach_init(&t->puzzle, &t->grid, t->givens);
    return t;
}

static struct teach_budget budget_of(const struct api_teach_input *in)
{
    struct teach_budget b = {clock_now_us() + in->max_ms * 1000ull, 0};
    return b;
}

/* ------------------------------------------------------------------------
 * POST /hint
 * ------------------------------------------------------------------------ */

/* The step a hint falls back on: the blank with the fewest candidates
 * (the first in row-major order), its digit from the solution. */
static void fallback(const struct teach_request *t, struct teach_step *s)
{
    unsigned best = 0, best_count = ~0u;

    for (unsigned c = 0; c < t->puzzle.ncells; c++) {
        unsigned k = (unsigned)__builtin_popcount(t->grid.cand[c]);
        if (t->grid.value[c] == 0 && k < best_count) {
            best = c;
            best_count = k;
        }
    }
    memset(s, 0, sizeof(*s));
    s->nplacements = 1;
    s->placements[0].cell = (uint16_t)best;
    s->placements[0].digit = t->solution[best];
    s->ncells = 1;
    s->cells[0] = (uint16_t)best;
    s->digits = 1u << (t->solution[best] - 1);
}

void api_teach_hint(const struct api_teach_input *in, struct api_response *resp)
{
    struct teach_request *t;
    struct teach_step step, next;
    struct teach_budget b = budget_of(in);
    struct codec_teach_hint h = {0};
    enum teach_status st;
    char text[1024], *body;
    size_t len = 0;

    if (api_givens_complete(&in->pz->givens)) {
        api_respond_simple(resp, CODEC_PROBLEM_ALREADY_SOLVED,
                           "the board has no blank cell left: it is solved");
        return;
    }
    if ((t = prepare(in, resp)) == NULL)
        return;
    h.puzzle = &t->puzzle;
    h.step = &step;
    h.explanation = text;
    if ((st = teach_step(&t->puzzle, &t->grid, &b, &step)) == TEACH_OK) {
        struct teach_grid ahead = t->grid;
        teach_explain(&t->puzzle, &step, text, sizeof(text));
        /* An elimination cannot be written on a board: say which digit the
         * eliminations lead to, so the next hint is not the same one. */
        next = step;
        while (next.nplacements == 0) {
            teach_apply(&t->puzzle, &ahead, &next);
            h.next_steps++;
            if (teach_step(&t->puzzle, &ahead, &b, &next) != TEACH_OK)
                break;
        }
        if (next.nplacements > 0 && h.next_steps > 0)
            h.next = &next;
    } else {
        unsigned cell, n = t->puzzle.n;
        fallback(t, &step);
        cell = step.placements[0].cell;
        h.technique = "from_solution";
        h.stuck = 1;
        snprintf(text, sizeof(text),
                 "%s, so this is not a logical deduction: in the solution, "
                 "cell [%u,%u] is %u.",
                 st == TEACH_BUDGET
                     ? "The time budget ran out before a step was found"
                     : "None of the implemented techniques finds a step here",
                 cell / n, cell % n, step.placements[0].digit);
    }
    body = codec_encode_teach_hint(&h, &len);
    free(t);
    api_respond_json(resp, body, len);
}

/* ------------------------------------------------------------------------
 * POST /grade
 * ------------------------------------------------------------------------ */

void api_teach_grade(const struct api_teach_input *in,
                     struct api_response *resp)
{
    struct teach_request *t = prepare(in, resp);
    struct teach_budget b = budget_of(in);
    struct teach_walk w;
    size_t len = 0;
    char *body;

    if (t == NULL)
        return;
    teach_walk(&t->puzzle, &t->grid, &b, NULL, 0, &w);
    body = codec_encode_teach_grade(&w, &len);
    free(t);
    api_respond_json(resp, body, len);
}

/* ------------------------------------------------------------------------
 * POST /explain
 * ------------------------------------------------------------------------ */

/* Sentences of one step at most (a 25x25 step's cells run long). */
#define TEXT 1024

void api_teach_explain(const struct api_teach_input *in,
                       struct api_response *resp)
{
    uint64_t t0 = clock_now_us();
    struct teach_request *t = prepare(in, resp);
    struct teach_budget b = budget_of(in);
    struct codec_teach_explain e = {0};
    struct teach_step *steps;
    struct teach_walk w;
    const char **texts;
    char *pool, *body;
    size_t len = 0, max;

    if (t == NULL)
        return;
    /* A step removes at least one candidate; real walks stay below three
     * steps per cell. */
    max = (size_t)t->puzzle.ncells * 3 + 16;
    steps = malloc(max * sizeof(*steps));
    texts = malloc(max * sizeof(*texts));
    pool = malloc(max * TEXT);
    if (steps == NULL || texts == NULL || pool == NULL) {
        free(steps);
        free(texts);
        free(pool);
        free(t);
        api_respond_no_memory(resp);
        return;
    }
    teach_walk(&t->puzzle, &t->grid, &b, steps, max, &w);
    for (size_t i = 0; i < w.nsteps; i++) {
        texts[i] = pool + i * TEXT;
        teach_explain(&t->puzzle, &steps[i], pool + i * TEXT, TEXT);
    }
    e.puzzle = &t->puzzle;
    e.steps = steps;
    e.explanations = texts;
    e.nsteps = w.nsteps;
    e.complete = w.status == TEACH_SOLVED;
    e.stopped = w.status == TEACH_BUDGET   ? "time_budget"
                : w.status == TEACH_OK     ? "step_cap"
                : w.status == TEACH_SOLVED ? NULL
                                           : "stuck";
    e.rating = w.rating;
    e.level = w.level;
    e.solution = t->solution_text;
    e.shape = t->shape;
    e.max_logic_ms = in->max_ms;
    e.explain_us = clock_now_us() - t0;
    body = codec_encode_teach_explain(&e, &len);
    free(steps);
    free(texts);
    free(pool);
    free(t);
    api_respond_json(resp, body, len);
}

/* ------------------------------------------------------------------------
 * POST /generate {"killer": true}
 * ------------------------------------------------------------------------ */

/* The members a killer cannot honour: 422 at the first; 0 or -1. */
static int refuse(const struct codec_generate_request *o,
                  struct api_response *resp)
{
    const char *pointer = o->variant.is_variant ? "/killer"
                          : o->min_rating       ? "/min_rating"
                          : o->max_rating       ? "/max_rating"
                          : o->symmetry[0] && strcmp(o->symmetry, "none") != 0
                              ? "/symmetry"
                              : NULL;

    if (pointer == NULL)
        return 0;
    api_respond_unsupported(resp, pointer,
                            "killer puzzles are generated for classic 9x9 "
                            "rules by \"difficulty\" and \"seed\" only "
                            "(no size, rule members, ratings or symmetry)");
    return -1;
}

void api_teach_generate(const struct codec_generate_request *o,
                        struct api_response *resp)
{
    struct teach_puzzle *scratch;
    struct teach_killer *k;
    struct codec_problem p;
    enum logic_level level = LOGIC_MEDIUM;
    uint64_t seed = o->has_seed ? o->seed : clock_now_us() & CODEC_SEED_MAX;
    enum teach_status st;
    char detail[200], *body;
    size_t len = 0;

    if (refuse(o, resp) != 0)
        return;
    if (o->difficulty[0] && logic_level_parse(o->difficulty, &level) != 0) {
        codec_problem_init(&p, CODEC_PROBLEM_INVALID_DIFFICULTY,
                           "\"difficulty\" must be one of easy, medium, hard, "
                           "expert, extreme");
        p.pointer = "/difficulty";
        api_respond_problem(resp, &p);
        return;
    }
    scratch = malloc(sizeof(*scratch));
    k = malloc(sizeof(*k));
    if (scratch == NULL || k == NULL) {
        free(scratch);
        free(k);
        api_respond_no_memory(resp);
        return;
    }
    st = teach_generate_killer(seed, level, API_GENERATE_MAX_US, scratch, k);
    if (st != TEACH_OK) {
        if (st == TEACH_STUCK)
            snprintf(detail, sizeof(detail),
                     "no unique %s killer puzzle was made within the budget "
                     "(%llu ms): try another seed",
                     logic_level_name(level),
                     (unsigned long long)(API_GENERATE_MAX_US / 1000));
        else
            snprintf(detail, sizeof(detail),
                     "no %s killer puzzle was found within the budget (%u "
                     "layouts, %llu ms); the closest was %s, rated %.1f: try "
                     "another seed",
                     logic_level_name(level), k->attempts,
                     (unsigned long long)(k->took_us / 1000),
                     logic_level_name((enum logic_level)k->grade.level),
                     k->grade.rating / 10.0);
        free(scratch);
        free(k);
        api_respond_generation_timeout(resp, detail);
        return;
    }
    {
        struct codec_teach_generated g = {k, seed};
        body = codec_encode_teach_generated(&g, &len);
    }
    free(scratch);
    free(k);
    api_respond_json(resp, body, len);
}
