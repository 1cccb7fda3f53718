/* api_solve.c - POST /solve and the board intake every puzzle route shares:
 * size, media type, JSON shape (codec), characters, then the rules; then one
 * search that counts solutions up to 2, so "exactly one" is checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "api.h"
#include "api_internal.h"
#include "codec.h"
#include "metrics.h"
#include "sudoku.h"

/* ------------------------------------------------------------------------
 * POST /solve
 * ------------------------------------------------------------------------ */

int api_media_is(const char *type, const char *want)
{
    size_t n = strlen(want);

    if (type == NULL)
        return 0;
    while (*type == ' ' || *type == '\t')
        type++;
    if (strncasecmp(type, want, n) != 0)
        return 0;
    type += n;
    while (*type == ' ' || *type == '\t')
        type++;
    return *type == '\0' || *type == ';';
}

void api_respond_too_large(const struct api_context *ctx,
                           const struct api_request *req,
                           struct api_response *resp)
{
    size_t limit = api_body_limit(ctx, req->path);
    struct codec_problem p;
    char detail[160];

    snprintf(detail, sizeof(detail),
             "the body is larger than the %slimit of %zu bytes",
             limit == ctx->max_body ? "" : "batch ", limit);
    codec_problem_init(&p, 413, "body_too_large", "Body too large", detail);
    p.limit = (long long)limit;
    api_respond_problem(resp, &p);
}

int api_check_body(const struct api_context *ctx, const struct api_request *req,
                   struct api_response *resp)
{
    if (req->body_too_large) {
        api_respond_too_large(ctx, req, resp);
        return -1;
    }
    if (!api_media_is(req->content_type, API_JSON_TYPE)) {
        api_respond_simple(resp, 415, "unsupported_media_type",
                           "Unsupported media type",
                           "send the body with Content-Type: application/json");
        return -1;
    }
    return 0;
}

void api_search_limit_problem(uint64_t budget, struct codec_problem *p,
                              struct api_problem_text *t)
{
    snprintf(t->detail, sizeof(t->detail),
             "the search gave up after %llu nodes without settling the "
             "puzzle",
             (unsigned long long)budget);
    codec_problem_init(p, 422, "search_limit", "Search limit reached",
                       t->detail);
    p->limit = (long long)budget;
}

void api_respond_search_limit(struct api_response *resp, uint64_t budget)
{
    struct api_problem_text t;
    struct codec_problem p;

    api_search_limit_problem(budget, &p, &t);
    api_respond_problem(resp, &p);
}

void api_decode_problem(enum codec_status st, const struct codec_error *err,
                        struct codec_problem *p)
{
    switch (st) {
    case CODEC_INVALID_JSON:
        codec_problem_init(p, 400, "invalid_json", "Body is not JSON",
                           err->detail);
        p->offset = err->offset;
        return;
    case CODEC_INVALID_REQUEST:
        codec_problem_init(p, 400, "invalid_request", "Malformed request",
                           err->detail);
        p->row = err->row;
        break;
    case CODEC_INVALID_BOARD:
        codec_problem_init(p, 422, "invalid_board", "Malformed board",
                           err->detail);
        p->row = err->row;
        p->column = err->column;
        break;
    case CODEC_INVALID_BOX:
    case CODEC_INVALID_REGIONS:
    case CODEC_INVALID_EXTRA:
    case CODEC_INVALID_SIZE:
        api_variant_decode_problem(st, err, p);
        break;
    default:
        codec_problem_init(p, 500, "internal_error", "Internal error",
                           "the server ran out of memory; try again");
        return;
    }
    p->pointer = err->pointer;
}

void api_shown_char(char c, char *out, size_t size)
{
    unsigned char ch = (unsigned char)c;

    if (ch >= 0x20 && ch < 0x7f)
        snprintf(out, size, "'%c'", ch);
    else if (c == CODEC_NON_ASCII)
        snprintf(out, size, "a non-ASCII character");
    else
        snprintf(out, size, "a control character");
}

void api_bad_char_problem(const struct codec_board *board, size_t index,
                          const char *pointer_prefix, struct codec_problem *p,
                          struct api_problem_text *t)
{
    char shown[32];
    int row = (int)(index / SUDOKU_SIZE), col = (int)(index % SUDOKU_SIZE);

    api_shown_char(board->text[index], shown, sizeof(shown));
    snprintf(t->detail, sizeof(t->detail),
             "row %d, column %d: %s is not allowed; use '.' or '0' for a "
             "blank and 1-9 for a digit",
             row, col, shown);
    if (board->shape == CODEC_SHAPE_ROWS)
        snprintf(t->pointer, sizeof(t->pointer), "%s/%d", pointer_prefix, row);
    else
        snprintf(t->pointer, sizeof(t->pointer), "%s", pointer_prefix);
    codec_problem_init(p, 422, "invalid_board", "Malformed board", t->detail);
    p->pointer = t->pointer;
    p->row = row;
    p->column = col;
}

void api_conflict_problem(const struct sudoku_conflict *c, size_t n,
                          struct codec_problem *p, struct api_problem_text *t)
{
    static const char *const units[] = {"row", "column", "box"};
    size_t cap = sizeof(t->detail);
    int len;

    len = snprintf(t->detail, cap, "digit %d appears %d times in %s %d (cells",
                   c[0].digit, c[0].ncells, units[c[0].unit], c[0].index);
    for (int k = 0; k < c[0].ncells && len < (int)cap; k++)
        len += snprintf(t->detail + len, cap - (size_t)len, "%s [%d,%d]",
                        k ? "," : "", c[0].cells[k] / SUDOKU_SIZE,
                        c[0].cells[k] % SUDOKU_SIZE);
    if (len < (int)cap)
        snprintf(t->detail + len, cap - (size_t)len,
                 n > 2    ? "), and %zu more conflicts are listed"
                 : n == 2 ? "), and %zu more conflict is listed"
                          : ")",
                 n - 1);
    codec_problem_init(p, 422, "conflict", "Board breaks the rules", t->detail);
    p->conflicts = c;
    p->nconflicts = n;
}

void api_respond_conflicts(struct api_response *resp,
                           const struct sudoku_conflict *c, size_t n)
{
    struct api_problem_text t;
    struct codec_problem p;

    api_conflict_problem(c, n, &p, &t);
    api_respond_problem(resp, &p);
}

_Static_assert(API_ANSWER_MAX >= CODEC_SOLUTION_MAX,
               "a solution answer must fit in api_request.answer");

void api_respond_solution(const struct api_request *req,
                          struct api_response *resp,
                          const struct sudoku_grid *solution,
                          enum codec_shape shape,
                          const struct sudoku_stats *stats, uint64_t solve_us)
{
    size_t len = 0;
    char *body;

    if (req->answer != NULL) { /* nothing to allocate, nothing to free */
        len =
            codec_write_solution(req->answer, solution, shape, stats, solve_us);
        api_respond_body(resp, 200, API_JSON_TYPE, req->answer, len);
        resp->body_owned = 0;
        return;
    }
    body = codec_encode_solution(solution, shape, stats, solve_us, &len);
    api_respond_json(resp, body, len);
}

uint64_t api_now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* A body that is not the plain classic one: does it go to the generic
 * engine? 1 with *var (when the route takes it), 0 to go on as classic
 * (board and puzzle as decoded), -1 with resp set. */
static int read_variant(const struct api_request *req,
                        struct api_response *resp, struct api_variant **var)
{
    struct codec_error err;
    struct codec_problem p;
    enum codec_status st;
    struct api_variant *v = malloc(sizeof(*v));

    if (v == NULL) {
        api_respond_no_memory(resp);
        return -1;
    }
    st = codec_decode_variant(req->body, req->body_len, &v->body, &err);
    if (!v->body.is_variant) {
        free(v);
        return 0;
    }
    if (st != CODEC_OK) { /* malformed: the same problem on every route */
        api_decode_problem(st, &err, &p);
        api_respond_problem(resp, &p);
    } else if (var == NULL) /* a route of the classic engine only */
        api_respond_unsupported(resp, err.pointer[0] ? err.pointer : "",
                                "this route knows classic 9x9 sudoku only; "
                                "POST /solve, /validate, /solve/batch and "
                                "/generate take other sizes and variants");
    else if (api_variant_check(req, resp, v) == 0) {
        *var = v;
        return 1;
    }
    free(v);
    return -1;
}

int api_read_board(const struct api_context *ctx, const struct api_request *req,
                   struct api_response *resp, struct codec_board *board,
                   struct sudoku_grid *puzzle, struct api_variant **var)
{
    struct api_problem_text t;
    struct codec_error err;
    struct codec_problem p;
    enum codec_status st;
    size_t bad;
    int in;

    if (var != NULL)
        *var = NULL;
    if (api_check_body(ctx, req, resp) != 0)
        return -1;
    st = codec_decode_board(req->body, req->body_len, board, &err);
    /* Only a body that is more than {"board": 9x9} can be a variant: the
     * common body never pays for the question. */
    if (!(st == CODEC_OK && board->only_board) &&
        (in = read_variant(req, resp, var)) != 0)
        return in;
    if (st != CODEC_OK) {
        api_decode_problem(st, &err, &p);
        api_respond_problem(resp, &p);
        return -1;
    }
    if (board->has_grid) /* read with the body: digits and dots only */
        *puzzle = board->grid;
    else if (sudoku_parse(board->text, SUDOKU_CELLS, puzzle, &bad) !=
             SUDOKU_OK) {
        api_bad_char_problem(board, bad, "/board", &p, &t);
        api_respond_problem(resp, &p);
        return -1;
    }
    return 0;
}

enum api_result api_judge(const struct api_context *ctx,
                          const struct sudoku_grid *puzzle,
                          struct api_verdict *v)
{
    unsigned count = 0;
    uint64_t t0;

    v->stats.nodes = v->stats.guesses = 0;
    v->took_us = 0;
    v->nconflicts = 0;
    /* A board that breaks a rule has no solution, and the count sees that
     * before it searches: the conflicts are only listed for such boards. */
    t0 = api_now_us();
    if (sudoku_count(puzzle, 2, ctx->max_nodes, &v->solution, &count,
                     &v->stats) == SUDOKU_BUDGET) {
        v->took_us = api_now_us() - t0;
        api_search_limit_problem(ctx->max_nodes, &v->problem, &v->text);
        return v->result = API_SEARCH_LIMIT;
    }
    v->took_us = api_now_us() - t0;
    if (count == 0 &&
        (v->nconflicts = sudoku_conflicts(puzzle, v->conflicts,
                                          sizeof(v->conflicts) /
                                              sizeof(v->conflicts[0]))) > 0) {
        v->stats.nodes = v->stats.guesses = 0;
        v->took_us = 0;
        api_conflict_problem(v->conflicts, v->nconflicts, &v->problem,
                             &v->text);
        return v->result = API_INVALID;
    }
    return v->result = api_count_result(count, &v->problem);
}

enum api_result api_count_result(unsigned count, struct codec_problem *p)
{
    if (count == 0) {
        codec_problem_init(p, 422, "no_solution", "No solution",
                           "the board obeys the rules but cannot be "
                           "completed");
        return API_NO_SOLUTION;
    }
    if (count > 1) {
        codec_problem_init(p, 422, "multiple_solutions", "Multiple solutions",
                           "the board has more than one solution; a valid "
                           "puzzle has exactly one, so add givens");
        return API_MULTIPLE_SOLUTIONS;
    }
    return API_SOLVED;
}

void api_handle_solve(const struct api_context *ctx,
                      const struct api_request *req, struct api_response *resp)
{
    struct codec_board board;
    struct sudoku_grid puzzle;
    struct api_verdict v;
    struct api_variant *var;
    int in;

    v.result = API_INVALID;
    v.took_us = 0;
    v.stats.guesses = 0;
    in = api_read_board(ctx, req, resp, &board, &puzzle, &var);
    if (in == 1) {
        api_solve_variant(ctx, resp, var);
        v.result = var->result;
        v.took_us = var->took_us;
        v.stats = var->stats;
        free(var);
    } else if (in == 0 &&
               !api_solve_killer(ctx, req, resp, &board, &puzzle, &v)) {
        if (api_judge(ctx, &puzzle, &v) != API_SOLVED)
            api_respond_problem(resp, &v.problem);
        else
            api_respond_solution(req, resp, &v.solution, board.shape, &v.stats,
                                 v.took_us);
    }
    api_count_puzzle(ctx->metrics, v.result, v.took_us, v.stats.guesses);
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

    if (m != NULL)
        metrics_puzzle(m, as[r], took_us, guesses);
}
