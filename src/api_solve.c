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

/* application/json, any case, optionally followed by parameters. */
static int is_json(const char *type)
{
    size_t n = strlen(API_JSON_TYPE);

    if (type == NULL)
        return 0;
    while (*type == ' ' || *type == '\t')
        type++;
    if (strncasecmp(type, API_JSON_TYPE, n) != 0)
        return 0;
    type += n;
    while (*type == ' ' || *type == '\t')
        type++;
    return *type == '\0' || *type == ';';
}

static void respond_decode_error(struct api_response *resp,
                                 enum codec_status st,
                                 const struct codec_error *err)
{
    struct codec_problem p;

    switch (st) {
    case CODEC_INVALID_JSON:
        codec_problem_init(&p, 400, "invalid_json", "Body is not JSON",
                           err->detail);
        p.offset = err->offset;
        break;
    case CODEC_INVALID_REQUEST:
        codec_problem_init(&p, 400, "invalid_request", "Malformed request",
                           err->detail);
        p.row = err->row;
        break;
    case CODEC_INVALID_BOARD:
        codec_problem_init(&p, 422, "invalid_board", "Malformed board",
                           err->detail);
        p.row = err->row;
        p.column = err->column;
        break;
    default:
        api_respond_simple(resp, 500, "internal_error", "Internal error",
                       "the server ran out of memory; try again");
        return;
    }
    if (st != CODEC_INVALID_JSON)
        p.pointer = err->pointer;
    api_respond_problem(resp, &p);
}

static void respond_bad_char(struct api_response *resp,
                             const struct codec_board *board, size_t index)
{
    struct codec_problem p;
    char detail[160], pointer[16], shown[32];
    unsigned char ch = (unsigned char)board->text[index];
    int row = (int)(index / SUDOKU_SIZE), col = (int)(index % SUDOKU_SIZE);

    if (ch >= 0x20 && ch < 0x7f)
        snprintf(shown, sizeof(shown), "'%c'", ch);
    else if (board->text[index] == CODEC_NON_ASCII)
        snprintf(shown, sizeof(shown), "a non-ASCII character");
    else
        snprintf(shown, sizeof(shown), "a control character");
    snprintf(detail, sizeof(detail),
             "row %d, column %d: %s is not allowed; use '.' or '0' for a "
             "blank and 1-9 for a digit", row, col, shown);
    if (board->shape == CODEC_SHAPE_ROWS)
        snprintf(pointer, sizeof(pointer), "/board/%d", row);
    else
        snprintf(pointer, sizeof(pointer), "/board");
    codec_problem_init(&p, 422, "invalid_board", "Malformed board", detail);
    p.pointer = pointer;
    p.row = row;
    p.column = col;
    api_respond_problem(resp, &p);
}

void api_respond_conflicts(struct api_response *resp,
                           const struct sudoku_conflict *c, size_t n)
{
    static const char *const units[] = {"row", "column", "box"};
    struct codec_problem p;
    char detail[200];
    int len;

    len = snprintf(detail, sizeof(detail),
                   "digit %d appears %d times in %s %d (cells",
                   c[0].digit, c[0].ncells, units[c[0].unit], c[0].index);
    for (int k = 0; k < c[0].ncells && len < (int)sizeof(detail); k++)
        len += snprintf(detail + len, sizeof(detail) - (size_t)len,
                        "%s [%d,%d]", k ? "," : "", c[0].cells[k] / SUDOKU_SIZE,
                        c[0].cells[k] % SUDOKU_SIZE);
    if (len < (int)sizeof(detail))
        snprintf(detail + len, sizeof(detail) - (size_t)len,
                 n > 2 ? "), and %zu more conflicts are listed"
                       : n == 2 ? "), and %zu more conflict is listed" : ")",
                 n - 1);
    codec_problem_init(&p, 422, "conflict", "Board breaks the rules", detail);
    p.conflicts = c;
    p.nconflicts = n;
    api_respond_problem(resp, &p);
}

uint64_t api_now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

int api_read_board(const struct api_context *ctx,
                   const struct api_request *req, struct api_response *resp,
                   struct codec_board *board, struct sudoku_grid *puzzle)
{
    struct codec_error err;
    struct codec_problem p;
    enum codec_status st;
    char detail[160];
    size_t bad;

    if (req->body_too_large) {
        snprintf(detail, sizeof(detail),
                 "the body is larger than the limit of %zu bytes",
                 ctx->max_body);
        codec_problem_init(&p, 413, "body_too_large", "Body too large", detail);
        p.limit = (long long)ctx->max_body;
        api_respond_problem(resp, &p);
        return -1;
    }
    if (!is_json(req->content_type)) {
        api_respond_simple(resp, 415, "unsupported_media_type",
                           "Unsupported media type",
                           "send the body with Content-Type: application/json");
        return -1;
    }
    st = codec_decode_board(req->body, req->body_len, board, &err);
    if (st != CODEC_OK) {
        respond_decode_error(resp, st, &err);
        return -1;
    }
    if (sudoku_parse(board->text, SUDOKU_CELLS, puzzle, &bad) != SUDOKU_OK) {
        respond_bad_char(resp, board, bad);
        return -1;
    }
    return 0;
}

/* Checks the rules and searches; rejected boards are METRICS_INVALID. */
static enum metrics_result check_and_search(const struct api_context *ctx,
                                            const struct codec_board *board,
                                            const struct sudoku_grid *puzzle,
                                            struct api_response *resp,
                                            struct sudoku_stats *stats,
                                            uint64_t *took)
{
    struct sudoku_conflict conflicts[3 * SUDOKU_SIZE * SUDOKU_SIZE];
    struct sudoku_grid solution;
    struct codec_problem p;
    size_t nconf, len = 0;
    unsigned count = 0;
    uint64_t t0;
    char detail[160], *body;

    nconf = sudoku_conflicts(puzzle, conflicts,
                             sizeof(conflicts) / sizeof(conflicts[0]));
    if (nconf > 0) {
        api_respond_conflicts(resp, conflicts, nconf);
        return METRICS_INVALID;
    }
    t0 = api_now_us();
    if (sudoku_count(puzzle, 2, ctx->max_nodes, &solution, &count, stats) ==
        SUDOKU_BUDGET) {
        *took = api_now_us() - t0;
        snprintf(detail, sizeof(detail),
                 "the search gave up after %llu nodes without settling the "
                 "puzzle", (unsigned long long)ctx->max_nodes);
        codec_problem_init(&p, 422, "search_limit", "Search limit reached",
                           detail);
        p.limit = (long long)ctx->max_nodes;
        api_respond_problem(resp, &p);
        return METRICS_SEARCH_LIMIT;
    }
    *took = api_now_us() - t0;
    if (count == 0) {
        api_respond_simple(resp, 422, "no_solution", "No solution",
                           "the board obeys the rules but cannot be completed");
        return METRICS_NO_SOLUTION;
    }
    if (count > 1) {
        api_respond_simple(resp, 422, "multiple_solutions",
                           "Multiple solutions",
                           "the board has more than one solution; a valid "
                           "puzzle has exactly one, so add givens");
        return METRICS_MULTIPLE_SOLUTIONS;
    }
    body = codec_encode_solution(&solution, board->shape, stats, *took, &len);
    if (body == NULL)
        api_respond_simple(resp, 500, "internal_error", "Internal error",
                           "the server ran out of memory; try again");
    else
        api_respond_body(resp, 200, API_JSON_TYPE, body, len);
    return METRICS_SOLVED;
}

void api_handle_solve(const struct api_context *ctx,
                      const struct api_request *req,
                      struct api_response *resp)
{
    enum metrics_result result = METRICS_INVALID;
    struct sudoku_stats stats = {0, 0};
    struct codec_board board;
    struct sudoku_grid puzzle;
    uint64_t took = 0;

    if (api_read_board(ctx, req, resp, &board, &puzzle) == 0)
        result = check_and_search(ctx, &board, &puzzle, resp, &stats, &took);
    if (ctx->metrics != NULL)
        metrics_puzzle(ctx->metrics, result, took, stats.guesses);
}
