/* api_internal.h - what the files of the api module share with each other;
 * not a contract for any other module (include/api/api.h is). The files
 * depend on each other one way only: api.c (the route table) on the route
 * files, those on api_intake.c and api_judge.c, and everything on
 * api_respond.c, which depends on no other api file. */
#ifndef API_INTERNAL_H
#define API_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "budget.h"
#include "codec.h"
#include "cover.h"
#include "killer.h"
#include "metrics.h"
#include "sudoku.h"

#define API_JSON_TYPE "application/json"
#define API_PROBLEM_TYPE "application/problem+json"

/* ------------------------------------------------------------------------
 * api_respond.c: responses and problems
 * ------------------------------------------------------------------------ */

/* Sets status, type and body (owned by resp when body is not NULL). */
void api_respond_body(struct api_response *resp, int status, const char *type,
                      char *body, size_t len);

/* Sends p as problem+json, with the request's id; an empty 500 if that
 * cannot be allocated. */
void api_respond_problem(struct api_response *resp,
                         const struct codec_problem *p);

/* Problem `id` of the table with no location members. */
void api_respond_simple(struct api_response *resp, enum codec_problem_id id,
                        const char *detail);

/* 500 internal_error: the server ran out of memory. */
void api_respond_no_memory(struct api_response *resp);

/* 503 generation_timeout with `detail`, its limit the generators' budget
 * (API_GENERATE_MAX_US, in ms). */
void api_respond_generation_timeout(struct api_response *resp,
                                    const char *detail);

/* 200 with an encoder's result as application/json (owned by resp), or
 * api_respond_no_memory when the encoder returned NULL. Call it only after
 * the encoder has run (C leaves the order of arguments unspecified). */
void api_respond_json(struct api_response *resp, char *body, size_t len);

/* 200 with the solution answer, written into req->answer when the caller
 * gave room for it, else into a heap string (api_respond_no_memory when that
 * cannot be allocated). */
void api_respond_solution(const struct api_request *req,
                          struct api_response *resp,
                          const struct sudoku_grid *solution,
                          enum codec_shape shape,
                          const struct sudoku_stats *stats, uint64_t solve_us);

/* 413 body_too_large for a route whose limit is `limit` bytes. */
void api_respond_too_large(const struct api_context *ctx, size_t limit,
                           struct api_response *resp);

/* 415 unsupported_media_type, `detail` saying what to send. */
void api_respond_bad_type(struct api_response *resp, const char *detail);

/* 422 unsupported_variant: `what` cannot be done for such a board. */
void api_respond_unsupported(struct api_response *resp, const char *pointer,
                             const char *detail);

/* Room for the texts a problem points into. */
struct api_problem_text {
    char detail[400];
    char pointer[64];
};

/* 422 search_limit for a search that used its `budget` of nodes, or when
 * cpu_ms is not 0, its cpu_ms of CPU time (--max-search-ms): the detail
 * says which, and `limit` is that bound (nodes, or ms). */
void api_search_limit_problem(uint64_t budget, unsigned cpu_ms,
                              struct codec_problem *p,
                              struct api_problem_text *t);

/* The problem for a codec failure: 400 invalid_json / invalid_request, 422
 * invalid_board and the variant members' 422s, 500 when out of memory. p
 * points into err. */
void api_decode_problem(enum codec_status st, const struct codec_error *err,
                        struct codec_problem *p);

/* 422 invalid_board for the bad character at `index` of the n x n `text`
 * in `shape`; the pointer is pointer_prefix ("/board") plus the row for
 * the rows shape. `sized` words the digits for any size (a variant). */
void api_bad_char_problem(const char *text, unsigned n, enum codec_shape shape,
                          size_t index, const char *pointer_prefix, int sized,
                          struct codec_problem *p, struct api_problem_text *t);

/* ------------------------------------------------------------------------
 * api_intake.c: the body checks and the one reading of a puzzle
 * ------------------------------------------------------------------------ */

/* Is `type` (a Content-Type value, maybe NULL) the media type `want`, in
 * any case, maybe followed by parameters such as charset? */
int api_media_is(const char *type, const char *want);

/* The checks every JSON route makes first: 413 when the body passed the
 * limit (--max-body), 415 unless it is application/json. 0, or -1 with
 * resp set. */
int api_check_body(const struct api_context *ctx, const struct api_request *req,
                   struct api_response *resp);

/* What a verdict needs of a puzzle: its kind and its givens for the engine
 * of that kind (the pointers of other kinds are NULL). */
struct api_givens {
    enum codec_kind kind;
    const struct sudoku_grid *grid;   /* CLASSIC, KILLER */
    const struct killer_cages *cages; /* KILLER */
    const struct cover_rules *rules;  /* VARIANT */
    const struct cover_grid *cover;   /* VARIANT */
};

/* A puzzle read by the intake: the body decoded once, and its givens. */
struct api_puzzle {
    struct codec_puzzle body;
    struct cover_grid cover; /* VARIANT: the givens under body.variant */
    struct api_givens givens;
};

/* What a route takes besides classic 9x9: others get 422. */
#define API_TAKES_VARIANT 1u /* else unsupported_variant */
#define API_TAKES_CAGES 2u   /* else cages_not_supported */

/* The intake of every puzzle route: size limit, media type, the body
 * decoded once (codec_decode_puzzle), characters, and for a variant its
 * rules (cover_rules_check); a killer body's cage shapes. Fills *pz and
 * returns 0, or -1 with resp holding the problem. The classic rules and
 * the cages' values are the verdict's to check. */
int api_read_puzzle(const struct api_context *ctx,
                    const struct api_request *req, struct api_response *resp,
                    unsigned takes, struct api_puzzle *pz);

/* The rules of b (cover_rules_check): 0, or -1 with *p (pointers under
 * b->at, texts in *t). */
int api_variant_rules(struct codec_variant *b, struct codec_problem *p,
                      struct api_problem_text *t);

/* api_variant_rules, then b's board parsed into *g: 0, or -1 with *p. */
int api_variant_prepare(struct codec_variant *b, struct cover_grid *g,
                        struct codec_problem *p, struct api_problem_text *t);

/* ------------------------------------------------------------------------
 * api_judge.c: the verdict on a puzzle, for every engine
 * ------------------------------------------------------------------------ */

/* The api's verdict on one board. */
enum api_result {
    API_SOLVED = 0,
    API_NO_SOLUTION,
    API_MULTIPLE_SOLUTIONS,
    API_INVALID,      /* turned down before the search */
    API_SEARCH_LIMIT, /* the budget ran out (nodes or CPU time) */
    API_DEFER,        /* ctx->slice: more than a slice of work, for a
                         worker (nothing was counted or answered) */
};

/* Conflicts listed in one answer at most; the detail says how many more
 * there are (a 9x9 board has at most 3 * 81). */
#define API_MAX_CONFLICTS 256

/* What became of one well-formed puzzle: its rules, then a search counting
 * solutions up to 2 within the node budget. Big (the conflicts): one per
 * request or per batch. */
struct api_verdict {
    enum api_result result;
    struct sudoku_grid solution;      /* API_SOLVED, CLASSIC and KILLER */
    struct cover_grid cover_solution; /* API_SOLVED, VARIANT */
    struct sudoku_stats stats;
    uint64_t took_us; /* search time */
    int cpu_out;      /* API_SEARCH_LIMIT: the CPU deadline ran out, not the
                         node count */
    struct codec_problem problem; /* otherwise: what to answer */
    struct api_problem_text text;
    struct killer_error cage_error;
    struct cover_rules classic; /* the units of a 9x9 board's conflicts */
    struct cover_conflict conflicts[API_MAX_CONFLICTS];
    size_t nconflicts, total; /* listed, and in all */
};

/* Judges a puzzle: for a killer its givens' conflicts and its cages
 * (killer_check) first; then the engine of its kind counts to 2 within
 * max_nodes (a killer: ctx->max_killer_nodes) and ctx->max_search_ms of
 * the thread's CPU from the search's start; a count of 0 lists the
 * conflicts. Fills *v and returns v->result. */
enum api_result api_judge(const struct api_context *ctx, uint64_t max_nodes,
                          const struct api_givens *g, struct api_verdict *v);

/* The budget of one search of a puzzle of `kind` under ctx, starting now:
 * max_nodes (a killer's: ctx->max_killer_nodes), and ctx->max_search_ms
 * of this thread's CPU (none when 0). A classic search on a loop
 * (ctx->slice) gets that CPU as nodes (API_CLASSIC_NODES_PER_MS) and no
 * deadline: it reads no clock, and one it stops goes to a worker. */
struct search_budget api_search_budget(const struct api_context *ctx,
                                       enum codec_kind kind,
                                       uint64_t max_nodes);

/* The event loops' slice (ctx->slice): 1 when a puzzle of `kind` is not
 * for the loop at all (only classic ones are), else 0 with b's nodes cut
 * to API_SLICE_NODES. Off a loop: 0, b as it was. */
int api_slice(const struct api_context *ctx, enum codec_kind kind,
              struct search_budget *b);

/* api_judge within *b as it is (a batch's, cut to what the batch has
 * left); a search it stops gets ctx's search_limit problem, which a batch
 * may replace. */
enum api_result api_judge_within(const struct api_context *ctx,
                                 const struct search_budget *b,
                                 const struct api_givens *g,
                                 struct api_verdict *v);

/* What a count to 2 gave. */
enum api_count_status {
    API_COUNT_OK = 0,
    API_COUNT_BUDGET,
    API_COUNT_NO_MEMORY,
};

/* The engine of g's kind counts g's solutions up to 2 within *b (the
 * solution into v when there is one, v->stats, and on API_COUNT_BUDGET
 * v->cpu_out). The classic solver reads no clock: when b has a deadline
 * (a batch's), its nodes are capped at what the CPU left buys at
 * API_CLASSIC_NODES_PER_MS. */
enum api_count_status api_count(const struct api_givens *g,
                                const struct search_budget *b,
                                struct api_verdict *v, unsigned *count);

/* Classic 9x9 nodes one CPU millisecond buys at most: the costliest node
 * found costs 0.23 us (docs/operations.md), so 2,000 a ms leaves twice
 * that. */
#define API_CLASSIC_NODES_PER_MS 2000u

/* Lists the broken rules of g's givens into v (nconflicts, total). */
size_t api_find_conflicts(const struct api_givens *g, struct api_verdict *v);

/* The units the conflicts of g are named by. */
const struct cover_rules *api_conflict_rules(const struct api_givens *g,
                                             struct api_verdict *v);

/* v->problem: 422 for the killer_check status st (v->cage_error). */
void api_cage_problem(enum killer_status st, struct api_verdict *v);

/* Is every cell of g filled? */
int api_givens_complete(const struct api_givens *g);

/* Counts one judged board in the metrics (NULL: none kept): the one place
 * where a verdict becomes a metrics result. */
void api_count_puzzle(struct metrics *m, enum api_result r, uint64_t took_us,
                      uint64_t guesses);

/* The time /generate may take; past it the closest puzzle found is not
 * good enough (classic: 503 generation_timeout). */
#define API_GENERATE_MAX_US 2000000u

/* ------------------------------------------------------------------------
 * The route handlers, one file per family
 * ------------------------------------------------------------------------ */

void api_handle_solve(const struct api_context *ctx,
                      const struct api_request *req, struct api_response *resp);
void api_handle_solve_batch(const struct api_context *ctx,
                            const struct api_request *req,
                            struct api_response *resp);
void api_handle_validate(const struct api_context *ctx,
                         const struct api_request *req,
                         struct api_response *resp);
void api_handle_hint(const struct api_context *ctx,
                     const struct api_request *req, struct api_response *resp);
void api_handle_grade(const struct api_context *ctx,
                      const struct api_request *req, struct api_response *resp);
void api_handle_explain(const struct api_context *ctx,
                        const struct api_request *req,
                        struct api_response *resp);
void api_handle_generate(const struct api_context *ctx,
                         const struct api_request *req,
                         struct api_response *resp);

#endif
