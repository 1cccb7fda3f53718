/* api_respond.c - responses and problems: the helpers every route uses to
 * fill a struct api_response, and the problems they answer (RFC 9457, their
 * status, code and title from the table of problems.h). Depends on no other
 * file of the api. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "codec.h"

void api_respond_body(struct api_response *resp, int status, const char *type,
                      char *body, size_t len)
{
    resp->status = status;
    resp->content_type = type;
    resp->body = body;
    resp->body_len = len;
    resp->body_owned = body != NULL;
}

void api_respond_problem(struct api_response *resp,
                         const struct codec_problem *p)
{
    struct codec_problem with_id = *p;
    size_t len = 0;
    char *body;

    with_id.request_id = resp->request_id;
    with_id.trace_id = resp->trace_id;
    body = codec_encode_problem(&with_id, &len);

    if (body == NULL)
        api_respond_body(resp, 500, API_PROBLEM_TYPE, NULL, 0);
    else
        api_respond_body(resp, p->status, API_PROBLEM_TYPE, body, len);
}

void api_respond_simple(struct api_response *resp, enum codec_problem_id id,
                        const char *detail)
{
    struct codec_problem p;

    codec_problem_init(&p, id, detail);
    api_respond_problem(resp, &p);
}

void api_respond_no_memory(struct api_response *resp)
{
    api_respond_simple(resp, CODEC_PROBLEM_INTERNAL_ERROR,
                       "the server ran out of memory; try again");
}

void api_respond_generation_timeout(struct api_response *resp,
                                    const char *detail)
{
    struct codec_problem p;

    codec_problem_init(&p, CODEC_PROBLEM_GENERATION_TIMEOUT, detail);
    p.limit = (long long)(API_GENERATE_MAX_US / 1000);
    api_respond_problem(resp, &p);
}

void api_respond_json(struct api_response *resp, char *body, size_t len)
{
    if (body == NULL)
        api_respond_no_memory(resp);
    else
        api_respond_body(resp, 200, API_JSON_TYPE, body, len);
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

void api_respond_too_large(const struct api_context *ctx, size_t limit,
                           struct api_response *resp)
{
    struct codec_problem p;
    char detail[160];

    snprintf(detail, sizeof(detail),
             "the body is larger than the %slimit of %zu bytes",
             limit == ctx->max_body ? "" : "batch ", limit);
    codec_problem_init(&p, CODEC_PROBLEM_BODY_TOO_LARGE, detail);
    p.limit = (long long)limit;
    api_respond_problem(resp, &p);
}

void api_respond_bad_type(struct api_response *resp, const char *detail)
{
    api_respond_simple(resp, CODEC_PROBLEM_UNSUPPORTED_MEDIA_TYPE, detail);
}

void api_respond_unsupported(struct api_response *resp, const char *pointer,
                             const char *detail)
{
    struct codec_problem p;

    codec_problem_init(&p, CODEC_PROBLEM_UNSUPPORTED_VARIANT, detail);
    p.pointer = pointer;
    api_respond_problem(resp, &p);
}

void api_search_limit_problem(uint64_t budget, unsigned cpu_ms,
                              struct codec_problem *p,
                              struct api_problem_text *t)
{
    if (cpu_ms > 0)
        snprintf(t->detail, sizeof(t->detail),
                 "the search used its %u ms of CPU time (--max-search-ms) "
                 "without settling the puzzle",
                 cpu_ms);
    else
        snprintf(t->detail, sizeof(t->detail),
                 "the search gave up after %llu nodes without settling the "
                 "puzzle",
                 (unsigned long long)budget);
    codec_problem_init(p, CODEC_PROBLEM_SEARCH_LIMIT, t->detail);
    p->limit = cpu_ms > 0 ? (long long)cpu_ms : (long long)budget;
}

void api_decode_problem(enum codec_status st, const struct codec_error *err,
                        struct codec_problem *p)
{
    static const enum codec_problem_id as[] = {
        [CODEC_INVALID_JSON] = CODEC_PROBLEM_INVALID_JSON,
        [CODEC_INVALID_REQUEST] = CODEC_PROBLEM_INVALID_REQUEST,
        [CODEC_INVALID_BOARD] = CODEC_PROBLEM_INVALID_BOARD,
        [CODEC_INVALID_BOX] = CODEC_PROBLEM_INVALID_BOX,
        [CODEC_INVALID_REGIONS] = CODEC_PROBLEM_INVALID_REGIONS,
        [CODEC_INVALID_EXTRA] = CODEC_PROBLEM_INVALID_EXTRA_REGIONS,
        [CODEC_INVALID_SIZE] = CODEC_PROBLEM_INVALID_SIZE,
    };

    switch (st) {
    case CODEC_INVALID_JSON:
        codec_problem_init(p, as[st], err->detail);
        p->offset = err->offset;
        return;
    case CODEC_INVALID_REQUEST:
        codec_problem_init(p, as[st], err->detail);
        p->row = err->row;
        break;
    case CODEC_INVALID_BOARD:
    case CODEC_INVALID_BOX:
    case CODEC_INVALID_REGIONS:
    case CODEC_INVALID_EXTRA:
    case CODEC_INVALID_SIZE:
        codec_problem_init(p, as[st], err->detail);
        p->row = err->row;
        p->column = err->column;
        break;
    default:
        codec_problem_init(p, CODEC_PROBLEM_INTERNAL_ERROR,
                           "the server ran out of memory; try again");
        return;
    }
    p->pointer = err->pointer;
}

/* How a character of a board is shown in a problem: 'x', "a non-ASCII
 * character" or "a control character". */
static void shown_char(char c, char *out, size_t size)
{
    unsigned char ch = (unsigned char)c;

    if (ch >= 0x20 && ch < 0x7f)
        snprintf(out, size, "'%c'", ch);
    else if (c == CODEC_NON_ASCII)
        snprintf(out, size, "a non-ASCII character");
    else
        snprintf(out, size, "a control character");
}

void api_bad_char_problem(const char *text, unsigned n, enum codec_shape shape,
                          size_t index, const char *pointer_prefix, int sized,
                          struct codec_problem *p, struct api_problem_text *t)
{
    char shown[32];
    int row = (int)(index / n), col = (int)(index % n);

    shown_char(text[index], shown, sizeof(shown));
    if (sized)
        snprintf(t->detail, sizeof(t->detail),
                 "row %d, column %d: %s is not allowed; a %ux%u board takes "
                 "'.' or '0' for a blank and %c to %c for a digit",
                 row, col, shown, n, n, cover_digit_char(1),
                 cover_digit_char(n));
    else
        snprintf(t->detail, sizeof(t->detail),
                 "row %d, column %d: %s is not allowed; use '.' or '0' for a "
                 "blank and 1-9 for a digit",
                 row, col, shown);
    if (shape == CODEC_SHAPE_ROWS)
        snprintf(t->pointer, sizeof(t->pointer), "%s/%d", pointer_prefix, row);
    else
        snprintf(t->pointer, sizeof(t->pointer), "%s", pointer_prefix);
    codec_problem_init(p, CODEC_PROBLEM_INVALID_BOARD, t->detail);
    p->pointer = t->pointer;
    p->row = row;
    p->column = col;
}
