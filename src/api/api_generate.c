/* api_generate.c - POST /generate: a classic puzzle of a level or a rating
 * range from the generator (generate.h), or, for another "size" or rule
 * members, one from the generic engine (cover_generate). The body is
 * decoded once (codec_decode_generate, rule members included); with a
 * "difficulty", the general logic engine's generator (teach.h). Without a
 * seed, one from the clock; the answer says which, so it can be replayed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "api_teach.h"
#include "clock.h"
#include "codec.h"
#include "cover.h"
#include "generate.h"
#include "logic.h"
#include "teach.h"

/* ------------------------------------------------------------------------
 * Sizes and variants: the generic engine
 * ------------------------------------------------------------------------ */

/* The symmetry a variant puzzle can have: "none" (also when absent) or
 * "rotational" (cover_generate_symmetric); NULL for another. */
static const char *symmetry_of(const struct codec_generate_request *o)
{
    if (o->symmetry[0] == '\0' || strcmp(o->symmetry, "none") == 0)
        return "none";
    return strcmp(o->symmetry, "rotational") == 0 ? "rotational" : NULL;
}

/* The classic members the generic engine cannot honour: 422 at the first
 * one present. 0, or -1 with resp set. */
static int refuse_classic_members(const struct codec_generate_request *o,
                                  struct api_response *resp)
{
    const char *pointer = o->min_rating            ? "/min_rating"
                          : o->max_rating          ? "/max_rating"
                          : symmetry_of(o) == NULL ? "/symmetry"
                                                   : NULL;

    if (pointer == NULL)
        return 0;
    api_respond_unsupported(resp, pointer,
                            "ratings are Sudoku Explainer's, which knows "
                            "classic 9x9 sudoku only; other sizes and "
                            "variants take \"difficulty\", \"seed\", "
                            "\"symmetry\" none or rotational, and the rule "
                            "members");
    return -1;
}

/* The level of o's "difficulty" when the size offers it: 0, or -1 with
 * resp set (invalid_difficulty, level_not_offered). */
static int variant_level(const struct codec_generate_request *o,
                         enum logic_level *level, struct api_response *resp)
{
    unsigned n = o->variant.rules.n, offered = teach_variant_levels(n);
    struct codec_problem p;
    char detail[200];
    size_t used;

    if (logic_level_parse(o->difficulty, level) != 0) {
        codec_problem_init(&p, CODEC_PROBLEM_INVALID_DIFFICULTY,
                           "\"difficulty\" must be one of easy, medium, hard, "
                           "expert, extreme");
        p.pointer = "/difficulty";
        api_respond_problem(resp, &p);
        return -1;
    }
    if (offered & (1u << *level))
        return 0;
    used = (size_t)snprintf(detail, sizeof(detail),
                            "%ux%u puzzles are generated at", n, n);
    for (unsigned l = 0; l < LOGIC_NLEVELS && used < sizeof(detail); l++)
        if (offered & (1u << l))
            used += (size_t)snprintf(detail + used, sizeof(detail) - used,
                                     " %s", logic_level_name(l));
    if (used < sizeof(detail))
        snprintf(detail + used, sizeof(detail) - used,
                 " only: %s is not found within the time budget",
                 logic_level_name(*level));
    codec_problem_init(&p, CODEC_PROBLEM_LEVEL_NOT_OFFERED, detail);
    p.pointer = "/difficulty";
    api_respond_problem(resp, &p);
    return -1;
}

/* 422 no_solution: the search ran to its end and no grid obeys the rules. */
static void respond_no_grid(struct api_response *resp)
{
    struct codec_problem p;

    codec_problem_init(&p, CODEC_PROBLEM_NO_SOLUTION,
                       "no grid obeys these rules together, so there is "
                       "no puzzle to make");
    api_respond_problem(resp, &p);
}

/* teach_generate_variant into out (on the heap: the scratch is big), or
 * -1 with resp set (no memory, or the level not met in time). */
static int generate_at_level(const struct codec_variant *b, uint64_t seed,
                             enum logic_level level, int rotational,
                             struct teach_variant *out,
                             struct api_response *resp)
{
    struct teach_puzzle *scratch = malloc(sizeof(*scratch));
    enum teach_status st;
    char detail[200];

    if (scratch == NULL) {
        api_respond_no_memory(resp);
        return -1;
    }
    st = teach_generate_variant(&b->rules, seed, level, rotational,
                                API_GENERATE_MAX_US, scratch, out);
    free(scratch);
    if (st == TEACH_OK)
        return 0;
    if (st == TEACH_CONTRADICTION) {
        respond_no_grid(resp);
        return -1;
    }
    if (st == TEACH_STUCK)
        snprintf(detail, sizeof(detail),
                 "no grid obeying these rules was filled within the budget "
                 "(%llu ms): try another seed or fewer rules",
                 (unsigned long long)(API_GENERATE_MAX_US / 1000));
    else
        snprintf(detail, sizeof(detail),
                 "no %s puzzle was found within the budget (%u grids, %llu "
                 "ms); the closest was %s, rated %.1f: try another seed",
                 logic_level_name(level), out->attempts,
                 (unsigned long long)(out->took_us / 1000),
                 logic_level_name((enum logic_level)out->grade.level),
                 out->grade.rating / 10.0);
    api_respond_generation_timeout(resp, detail);
    return -1;
}

/* cover_generate, and the answer when it found no puzzle: COVER_OK when
 * *puzzle holds one (maybe with more givens, after the time budget). */
static enum cover_status generate(const struct codec_variant *b, uint64_t seed,
                                  int rotational, struct cover_grid *puzzle,
                                  struct cover_grid *solution,
                                  struct api_response *resp)
{
    enum cover_status st;

    puzzle->n = 0; /* untouched when no full grid was found in time */
    st = (rotational ? cover_generate_symmetric : cover_generate)(
        &b->rules, seed, API_GENERATE_MAX_US, puzzle, solution);
    if (st == COVER_OK || (st == COVER_BUDGET && puzzle->n != 0))
        return COVER_OK;
    if (st == COVER_NO_MEMORY) {
        api_respond_no_memory(resp);
    } else if (st == COVER_BUDGET) {
        api_respond_generation_timeout(
            resp, "no grid obeying these rules was found within the time "
                  "budget; try another seed or fewer rules");
    } else {
        respond_no_grid(resp);
    }
    return st;
}

/* POST /generate of a body whose options ask for the generic engine: a
 * random minimal puzzle, or with "difficulty" one the general logic
 * engine grades at that level. */
static void generate_variant(struct codec_generate_request *o,
                             struct api_response *resp)
{
    struct codec_variant_generated out;
    struct codec_variant *b = &o->variant;
    struct teach_variant *v = NULL;
    struct cover_grid puzzle, solution;
    struct api_problem_text t;
    struct codec_problem p;
    enum logic_level level = LOGIC_MEDIUM;
    uint64_t t0 = clock_now_us();
    uint64_t seed = o->has_seed ? o->seed : t0 & CODEC_SEED_MAX;
    int rotational;
    size_t len = 0;
    char *body;

    if (refuse_classic_members(o, resp) != 0)
        return;
    if (api_variant_rules(b, &p, &t) != 0) {
        api_respond_problem(resp, &p);
        return;
    }
    rotational = symmetry_of(o)[0] == 'r';
    if (o->difficulty[0]) {
        if (variant_level(o, &level, resp) != 0)
            return;
        if ((v = malloc(sizeof(*v))) == NULL) {
            api_respond_no_memory(resp);
            return;
        }
        if (generate_at_level(b, seed, level, rotational, v, resp) != 0) {
            free(v);
            return;
        }
        puzzle = v->puzzle;
        solution = v->solution;
    } else if (generate(b, seed, rotational, &puzzle, &solution, resp) !=
               COVER_OK) {
        return;
    }
    out = (struct codec_variant_generated){&puzzle,
                                           &solution,
                                           &b->rules,
                                           CODEC_SHAPE_LINE,
                                           seed,
                                           symmetry_of(o),
                                           0,
                                           clock_now_us() - t0,
                                           v ? &v->grade : NULL,
                                           v ? v->attempts : 0};
    for (unsigned i = 0; i < (unsigned)puzzle.n * puzzle.n; i++)
        out.givens += puzzle.cell[i] != 0;
    body = codec_encode_variant_generated(&out, &len);
    free(v);
    api_respond_json(resp, body, len);
}

/* ------------------------------------------------------------------------
 * Classic 9x9: the generator and the logic engine's levels
 * ------------------------------------------------------------------------ */

/* Size, media type and JSON of the /generate body, decoded once with its
 * rule members; 0 or -1 (resp set). */
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
    struct codec_grade grade;
    enum logic_level level = LOGIC_MEDIUM;
    enum generate_symmetry sym = GENERATE_NONE;
    char detail[200], *body;
    size_t len = 0;

    if (read_options(ctx, req, resp, &o) != 0)
        return;
    if (o.killer) { /* the general engine's generator (api_teach.c) */
        api_teach_generate(&o, resp);
        return;
    }
    if (o.variant.is_variant) {
        generate_variant(&o, resp);
        return;
    }
    if (o.difficulty[0] && logic_level_parse(o.difficulty, &level) != 0) {
        codec_problem_init(&p, CODEC_PROBLEM_INVALID_DIFFICULTY,
                           "\"difficulty\" must be one of easy, medium, hard, "
                           "expert, extreme");
        p.pointer = "/difficulty";
        api_respond_problem(resp, &p);
        return;
    }
    if (o.symmetry[0] && generate_symmetry_parse(o.symmetry, &sym) != 0) {
        codec_problem_init(&p, CODEC_PROBLEM_INVALID_REQUEST,
                           "\"symmetry\" must be one of none, rotational, "
                           "diagonal");
        p.pointer = "/symmetry";
        api_respond_problem(resp, &p);
        return;
    }
    /* Without a seed, one from the clock; the answer says which. */
    generate_options_init(
        &opt, level, o.has_seed ? o.seed : clock_now_us() & ((1ull << 53) - 1));
    opt.symmetry = sym;
    opt.max_us = API_GENERATE_MAX_US;
    if (o.min_rating || o.max_rating) {
        if (o.min_rating && o.max_rating && o.min_rating > o.max_rating) {
            codec_problem_init(&p, CODEC_PROBLEM_INVALID_RATING,
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
                 logic_level_name(r.level), r.se.er / 10.0);
        api_respond_generation_timeout(resp, detail);
        return;
    }
    grade = (struct codec_grade){(int)r.level, &r.se, &r.grade,
                                 r.se.lower_bound || r.grade.budget_out};
    out = (struct codec_generated){
        &r.puzzle, &r.solution, CODEC_SHAPE_LINE,
        &grade,    opt.seed,    generate_symmetry_name(sym),
        r.givens,  r.attempts,  r.took_us};
    body = codec_encode_generated(&out, &len);
    api_respond_json(resp, body, len);
}
