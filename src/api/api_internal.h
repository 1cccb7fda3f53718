/* api_internal.h - what the files of the api module share with each other;
 * not a contract for any other module (include/api/api.h is). */
#ifndef API_INTERNAL_H
#define API_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "codec.h"
#include "cover.h"
#include "metrics.h"
#include "sudoku.h"

#define API_JSON_TYPE "application/json"
#define API_PROBLEM_TYPE "application/problem+json"

/* Sets status, type and body (owned by resp when body is not NULL). */
void api_respond_body(struct api_response *resp, int status, const char *type,
                      char *body, size_t len);

/* Sends p as problem+json, with the request's id; an empty 500 if that
 * cannot be allocated. */
void api_respond_problem(struct api_response *resp,
                         const struct codec_problem *p);

/* A problem with no location members. */
void api_respond_simple(struct api_response *resp, int status, const char *code,
                        const char *title, const char *detail);

/* 500 internal_error: the server ran out of memory. */
void api_respond_no_memory(struct api_response *resp);

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

/* Is `type` (a Content-Type value, maybe NULL) the media type `want`, in
 * any case, maybe followed by parameters such as charset? */
int api_media_is(const char *type, const char *want);

/* 413 body_too_large with the limit of the request's route. */
void api_respond_too_large(const struct api_context *ctx,
                           const struct api_request *req,
                           struct api_response *resp);

/* The checks every JSON route makes first: 413 when the body passed its
 * route's limit, 415 unless it is application/json. 0, or -1 with resp set. */
int api_check_body(const struct api_context *ctx, const struct api_request *req,
                   struct api_response *resp);

/* Room for the texts a problem points into. */
struct api_problem_text {
    char detail[200];
    char pointer[64];
};

/* 422 search_limit for a search that used its `budget` of nodes. */
void api_search_limit_problem(uint64_t budget, struct codec_problem *p,
                              struct api_problem_text *t);

/* Answers that problem. */
void api_respond_search_limit(struct api_response *resp, uint64_t budget);

/* The problem for a codec failure: 400 invalid_json / invalid_request, 422
 * invalid_board, 500 when out of memory. p points into err. */
void api_decode_problem(enum codec_status st, const struct codec_error *err,
                        struct codec_problem *p);

/* 422 invalid_board for the bad character at `index` of board; the pointer
 * is pointer_prefix ("/board") plus the row for the rows shape. */
void api_bad_char_problem(const struct codec_board *board, size_t index,
                          const char *pointer_prefix, struct codec_problem *p,
                          struct api_problem_text *t);

/* 422 conflict listing the n conflicts c (n >= 1); p points into c and t. */
void api_conflict_problem(const struct sudoku_conflict *c, size_t n,
                          struct codec_problem *p, struct api_problem_text *t);

/* 422 conflict listing the n conflicts c (n >= 1). */
void api_respond_conflicts(struct api_response *resp,
                           const struct sudoku_conflict *c, size_t n);

/* The api's verdict on one board. */
enum api_result {
    API_SOLVED = 0,
    API_NO_SOLUTION,
    API_MULTIPLE_SOLUTIONS,
    API_INVALID,      /* turned down before the search */
    API_SEARCH_LIMIT, /* the node budget ran out */
};

/* Counts one judged board in the metrics (NULL: none kept): the one place
 * where a verdict becomes a metrics result. */
void api_count_puzzle(struct metrics *m, enum api_result r, uint64_t took_us,
                      uint64_t guesses);

/* What became of one well-formed board: its rules, then a search counting
 * solutions up to 2 within the node budget. */
struct api_verdict {
    enum api_result result; /* API_SOLVED: `solution` holds it */
    struct sudoku_grid solution;
    struct sudoku_stats stats;
    uint64_t took_us;             /* search time */
    struct codec_problem problem; /* otherwise: what to answer */
    struct api_problem_text text;
    struct sudoku_conflict conflicts[3 * SUDOKU_SIZE * SUDOKU_SIZE];
    size_t nconflicts;
};

/* Judges a parsed board; fills *v and returns v->result. */
enum api_result api_judge(const struct api_context *ctx,
                          const struct sudoku_grid *puzzle,
                          struct api_verdict *v);

/* Conflicts of a variant board listed in one answer at most; the detail
 * says how many more there are. */
#define API_VARIANT_CONFLICTS 256

/* A puzzle for the generic engine (another size, or variant rules): its
 * body as decoded, the board parsed, and what became of it. Big (the
 * conflicts): allocate it. */
struct api_variant {
    struct codec_variant body; /* body.rules: checked by prepare */
    struct cover_grid puzzle;
    enum api_result result;     /* of api_variant_judge */
    struct cover_grid solution; /* API_SOLVED */
    struct sudoku_stats stats;
    uint64_t took_us;
    struct codec_problem problem; /* a failed prepare, or not API_SOLVED */
    struct api_problem_text text;
    struct cover_conflict conflicts[API_VARIANT_CONFLICTS];
    size_t nconflicts, total; /* stored, and in all */
};

/* Reads the board of a puzzle route's JSON body: size limit, media type,
 * JSON and shape (codec), characters. A classic 9x9 body fills *board (the
 * text and its shape) and *puzzle and returns 0. A body for the generic
 * engine returns 1 with *var (heap; the caller frees it) when var is not
 * NULL, and is refused with 422 unsupported_variant when var is NULL (a
 * route the generic engine does not serve). Otherwise resp holds the
 * problem (413, 415, 400 or 422) and -1 is returned. The classic rules are
 * not checked: that is the caller's to do or report. */
int api_read_board(const struct api_context *ctx, const struct api_request *req,
                   struct api_response *resp, struct codec_board *board,
                   struct sudoku_grid *puzzle, struct api_variant **var);

/* How a character of a board is shown in a problem: 'x', "a non-ASCII
 * character" or "a control character". */
void api_shown_char(char c, char *out, size_t size);

/* The verdict of a finished count to 2 on a board that obeys the rules,
 * shared by every engine: API_SOLVED for one solution, else the result
 * with its problem in *p (no_solution, multiple_solutions). */
enum api_result api_count_result(unsigned count, struct codec_problem *p);

/* The time /generate may take; past it the closest puzzle found is not
 * good enough (classic: 503 generation_timeout). */
#define API_GENERATE_MAX_US 2000000u

/* api_variant.c: the generic engine behind the puzzle routes. */

/* Checks var->body's rules (cover_rules_check) and parses its board into
 * var->puzzle. 0, or -1 with var->problem set (pointers under body.at). */
int api_variant_prepare(struct api_variant *var);

/* Counts the solutions of a prepared var up to 2 within max_nodes: fills
 * the verdict members (the conflicts when it has none) and returns
 * var->result. */
enum api_result api_variant_judge(uint64_t max_nodes, struct api_variant *var);

/* A body codec_decode_variant found to be a variant: prepared, and no
 * "cages". 0, or -1 with resp set. */
int api_variant_check(const struct api_request *req, struct api_response *resp,
                      struct api_variant *var);

/* POST /solve and /validate of a checked variant; the verdict stays in
 * *var (result, took_us, stats) for the metrics. */
void api_solve_variant(const struct api_context *ctx, struct api_response *resp,
                       struct api_variant *var);
void api_validate_variant(const struct api_context *ctx,
                          struct api_response *resp, struct api_variant *var);

/* POST /generate with a "size" other than 9 or a rule member: answers and
 * returns 1; 0 (nothing done) for a classic body. o is the classic
 * decoding of the same body (its members the generic engine refuses). */
int api_generate_variant(const struct api_context *ctx,
                         const struct api_request *req,
                         struct api_response *resp,
                         const struct codec_generate_request *o);

/* The 422 problem of a variant member the codec refused (invalid_box,
 * invalid_regions, invalid_extra_regions, invalid_size). */
void api_variant_decode_problem(enum codec_status st,
                                const struct codec_error *err,
                                struct codec_problem *p);

/* 422 unsupported_variant: `what` cannot be done for such a board. */
void api_respond_unsupported(struct api_response *resp, const char *pointer,
                             const char *detail);

/* Microseconds on the monotonic clock. */
uint64_t api_now_us(void);

/* The route handlers of api_solve.c and api_batch.c. */
void api_handle_solve(const struct api_context *ctx,
                      const struct api_request *req, struct api_response *resp);
void api_handle_solve_batch(const struct api_context *ctx,
                            const struct api_request *req,
                            struct api_response *resp);

/* Decodes a batch request; NULL when resp already holds the answer (an
 * error: 503 busy, 413, 415, 400). */
struct api_batch *api_batch_open(const struct api_context *ctx,
                                 const struct api_request *req,
                                 struct api_response *resp);
const char *api_batch_type(const struct api_batch *b);

/* The route handlers of api_logic.c. */
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

/* api_killer.c: killer sudoku (a "cages" member beside the board) on
 * /solve and /validate, after api_read_board. Each returns 0 when the body
 * has no "cages" (nothing done), else 1 with the answer in resp;
 * api_solve_killer also sets v's result, stats and took_us. */
int api_solve_killer(const struct api_context *ctx,
                     const struct api_request *req, struct api_response *resp,
                     const struct codec_board *board,
                     const struct sudoku_grid *puzzle, struct api_verdict *v);
int api_validate_killer(const struct api_context *ctx,
                        const struct api_request *req,
                        struct api_response *resp,
                        const struct sudoku_grid *puzzle);

#endif
