/* api.c - route table and handlers. A handler reads a struct api_request and
 * fills a struct api_response; every failure is an RFC 9457 problem with a
 * stable `code`. The solve path: media type, JSON shape (codec), characters,
 * rule conflicts, then one search counting solutions up to 2. */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "codec.h"
#include "metrics.h"
#include "sudoku.h"

#define JSON_TYPE "application/json"
#define PROBLEM_TYPE "application/problem+json"

/* ------------------------------------------------------------------------
 * Responses
 * ------------------------------------------------------------------------ */

static void respond_body(struct api_response *resp, int status,
                         const char *type, char *body, size_t len)
{
    resp->status = status;
    resp->content_type = type;
    resp->body = body;
    resp->body_len = len;
    resp->body_owned = body != NULL;
}

/* Sends p as problem+json, with the request's id; an empty 500 if that
 * cannot be allocated. */
static void respond_problem(struct api_response *resp,
                            const struct codec_problem *p)
{
    struct codec_problem with_id = *p;
    size_t len = 0;
    char *body;

    with_id.request_id = resp->request_id;
    body = codec_encode_problem(&with_id, &len);

    if (body == NULL)
        respond_body(resp, 500, PROBLEM_TYPE, NULL, 0);
    else
        respond_body(resp, p->status, PROBLEM_TYPE, body, len);
}

static void respond_simple(struct api_response *resp, int status,
                           const char *code, const char *title,
                           const char *detail)
{
    struct codec_problem p;

    codec_problem_init(&p, status, code, title, detail);
    respond_problem(resp, &p);
}

static void respond_status(struct api_response *resp, int status,
                           const char *word)
{
    size_t len = 0;
    char *body = codec_encode_status(word, &len);

    respond_body(resp, body ? status : 500, JSON_TYPE, body, len);
}

/* ------------------------------------------------------------------------
 * POST /solve
 * ------------------------------------------------------------------------ */

/* application/json, any case, optionally followed by parameters. */
static int is_json(const char *type)
{
    size_t n = strlen(JSON_TYPE);

    if (type == NULL)
        return 0;
    while (*type == ' ' || *type == '\t')
        type++;
    if (strncasecmp(type, JSON_TYPE, n) != 0)
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
        respond_simple(resp, 500, "internal_error", "Internal error",
                       "the server ran out of memory; try again");
        return;
    }
    if (st != CODEC_INVALID_JSON)
        p.pointer = err->pointer;
    respond_problem(resp, &p);
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
    respond_problem(resp, &p);
}

static void respond_conflicts(struct api_response *resp,
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
    respond_problem(resp, &p);
}

static uint64_t now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Checks and searches one board; rejected boards are METRICS_INVALID. */
static enum metrics_result check_and_search(const struct api_context *ctx,
                                            const struct codec_board *board,
                                            struct api_response *resp,
                                            struct sudoku_stats *stats,
                                            uint64_t *took)
{
    struct sudoku_conflict conflicts[3 * SUDOKU_SIZE * SUDOKU_SIZE];
    struct sudoku_grid puzzle, solution;
    struct codec_problem p;
    size_t bad, nconf, len = 0;
    unsigned count = 0;
    uint64_t t0;
    char detail[160], *body;

    if (sudoku_parse(board->text, SUDOKU_CELLS, &puzzle, &bad) != SUDOKU_OK) {
        respond_bad_char(resp, board, bad);
        return METRICS_INVALID;
    }
    nconf = sudoku_conflicts(&puzzle, conflicts,
                             sizeof(conflicts) / sizeof(conflicts[0]));
    if (nconf > 0) {
        respond_conflicts(resp, conflicts, nconf);
        return METRICS_INVALID;
    }
    t0 = now_us();
    if (sudoku_count(&puzzle, 2, ctx->max_nodes, &solution, &count, stats) ==
        SUDOKU_BUDGET) {
        *took = now_us() - t0;
        snprintf(detail, sizeof(detail),
                 "the search gave up after %llu nodes without settling the "
                 "puzzle", (unsigned long long)ctx->max_nodes);
        codec_problem_init(&p, 422, "search_limit", "Search limit reached",
                           detail);
        p.limit = (long long)ctx->max_nodes;
        respond_problem(resp, &p);
        return METRICS_SEARCH_LIMIT;
    }
    *took = now_us() - t0;
    if (count == 0) {
        respond_simple(resp, 422, "no_solution", "No solution",
                       "the board obeys the rules but cannot be completed");
        return METRICS_NO_SOLUTION;
    }
    if (count > 1) {
        respond_simple(resp, 422, "multiple_solutions", "Multiple solutions",
                       "the board has more than one solution; a valid puzzle "
                       "has exactly one, so add givens");
        return METRICS_MULTIPLE_SOLUTIONS;
    }
    body = codec_encode_solution(&solution, board->shape, stats, *took, &len);
    if (body == NULL)
        respond_simple(resp, 500, "internal_error", "Internal error",
                       "the server ran out of memory; try again");
    else
        respond_body(resp, 200, JSON_TYPE, body, len);
    return METRICS_SOLVED;
}

static void handle_solve(const struct api_context *ctx,
                         const struct api_request *req,
                         struct api_response *resp)
{
    enum metrics_result result = METRICS_INVALID;
    struct sudoku_stats stats = {0, 0};
    struct codec_board board;
    struct codec_error err;
    struct codec_problem p;
    enum codec_status st;
    uint64_t took = 0;
    char detail[160];

    if (req->body_too_large) {
        snprintf(detail, sizeof(detail),
                 "the body is larger than the limit of %zu bytes",
                 ctx->max_body);
        codec_problem_init(&p, 413, "body_too_large", "Body too large", detail);
        p.limit = (long long)ctx->max_body;
        respond_problem(resp, &p);
    } else if (!is_json(req->content_type)) {
        respond_simple(resp, 415, "unsupported_media_type",
                       "Unsupported media type",
                       "send the body with Content-Type: application/json");
    } else if ((st = codec_decode_board(req->body, req->body_len, &board,
                                        &err)) != CODEC_OK) {
        respond_decode_error(resp, st, &err);
    } else {
        result = check_and_search(ctx, &board, resp, &stats, &took);
    }
    if (ctx->metrics != NULL)
        metrics_puzzle(ctx->metrics, result, took, stats.guesses);
}

/* ------------------------------------------------------------------------
 * Health and documents
 * ------------------------------------------------------------------------ */

static void handle_livez(const struct api_context *ctx,
                         const struct api_request *req,
                         struct api_response *resp)
{
    (void)ctx, (void)req;
    respond_status(resp, 200, "ok");
}

static void handle_readyz(const struct api_context *ctx,
                          const struct api_request *req,
                          struct api_response *resp)
{
    (void)ctx;
    if (req->draining)
        respond_simple(resp, 503, "draining", "Shutting down",
                       "the server is shutting down: it accepts no new connections and "
                       "closes each open one after its next answer");
    else
        respond_status(resp, 200, "ready");
}

static void handle_openapi(const struct api_context *ctx,
                           const struct api_request *req,
                           struct api_response *resp)
{
    (void)ctx, (void)req;
    resp->status = 200;
    resp->content_type = "application/yaml";
    resp->body = (char *)api_openapi_yaml;
    resp->body_len = (size_t)(api_openapi_yaml_end - api_openapi_yaml);
    resp->body_owned = 0;
}

/* The demo page loads nothing from elsewhere and runs no inline script or
 * style, so the policy can forbid everything but its own three files and
 * calls back to this origin. */
static const struct api_header page_headers[] = {
    {"Content-Security-Policy",
     "default-src 'none'; script-src 'self'; style-src 'self'; "
     "connect-src 'self'; img-src 'self'; base-uri 'none'; "
     "form-action 'none'; frame-ancestors 'none'"},
    {"X-Content-Type-Options", "nosniff"},
    {"X-Frame-Options", "DENY"},
    {"Referrer-Policy", "no-referrer"},
    {"Cross-Origin-Opener-Policy", "same-origin"},
    {"Cache-Control", "no-cache"},
};

struct asset {
    const char *path, *type, *start, *end;
};

static const struct asset assets[] = {
    {"/", "text/html; charset=utf-8", api_index_html, api_index_html_end},
    {"/app.js", "text/javascript; charset=utf-8", api_app_js, api_app_js_end},
    {"/app.css", "text/css; charset=utf-8", api_app_css, api_app_css_end},
};

static void handle_asset(const struct api_context *ctx,
                         const struct api_request *req,
                         struct api_response *resp)
{
    (void)ctx;
    for (size_t i = 0; i < sizeof(assets) / sizeof(assets[0]); i++) {
        if (strcmp(req->path, assets[i].path) != 0)
            continue;
        resp->status = 200;
        resp->content_type = assets[i].type;
        resp->body = (char *)assets[i].start;
        resp->body_len = (size_t)(assets[i].end - assets[i].start);
        resp->body_owned = 0;
        resp->headers = page_headers;
        resp->nheaders = sizeof(page_headers) / sizeof(page_headers[0]);
        return;
    }
}

static void handle_metrics(const struct api_context *ctx,
                           const struct api_request *req,
                           struct api_response *resp)
{
    size_t len = 0;
    char *body = ctx->metrics ? metrics_render(ctx->metrics, &len) : NULL;

    (void)req;
    if (body == NULL)
        respond_simple(resp, 500, "internal_error", "Internal error",
                       "the metrics could not be rendered");
    else
        respond_body(resp, 200, "text/plain; version=0.0.4; charset=utf-8",
                     body, len);
}

/* ------------------------------------------------------------------------
 * CORS
 * ------------------------------------------------------------------------ */

/* Is `origin` one of the comma-separated `list`? */
static int origin_listed(const char *list, const char *origin)
{
    size_t n = strlen(origin);

    while (*list) {
        size_t k = strcspn(list, ",");
        if (k == n && strncmp(list, origin, n) == 0)
            return 1;
        list += k;
        if (*list == ',')
            list++;
    }
    return 0;
}

/* Adds the CORS members: Allow-Origin for an allowed Origin, Vary when the
 * answer depends on the Origin, and the preflight members for an OPTIONS
 * request that carries Access-Control-Request-Method. */
static void apply_cors(const struct api_context *ctx,
                       const struct api_request *req, const char *allow,
                       struct api_response *resp)
{
    int any;

    if (ctx->cors_origins == NULL)
        return;
    any = strcmp(ctx->cors_origins, "*") == 0;
    resp->vary_origin = !any;
    if (req->origin == NULL || !(any || origin_listed(ctx->cors_origins,
                                                      req->origin)))
        return;
    resp->cors_origin = any ? "*" : req->origin;
    if (allow != NULL && strcmp(req->method, "OPTIONS") == 0 &&
        req->cors_method != NULL) {
        resp->cors_methods = allow;
        resp->cors_headers = "Content-Type, X-Request-Id";
        resp->cors_max_age = 600;
    }
}

/* ------------------------------------------------------------------------
 * Routing
 * ------------------------------------------------------------------------ */

/* The routes, in the order of api_route_labels (their paths). */
struct route {
    const char *method;  /* GET routes answer HEAD too */
    const char *allow;   /* the Allow header of this path */
    void (*handle)(const struct api_context *, const struct api_request *,
                   struct api_response *);
};

const char *const api_route_labels[API_NROUTES] = {
    "/solve", "/livez",   "/readyz",  "/openapi.yaml",
    "/metrics", "/", "/app.js", "/app.css"};

static const struct route routes[API_NROUTES] = {
    {"POST", "POST, OPTIONS", handle_solve},
    {"GET", "GET, HEAD, OPTIONS", handle_livez},
    {"GET", "GET, HEAD, OPTIONS", handle_readyz},
    {"GET", "GET, HEAD, OPTIONS", handle_openapi},
    {"GET", "GET, HEAD, OPTIONS", handle_metrics},
    {"GET", "GET, HEAD, OPTIONS", handle_asset},
    {"GET", "GET, HEAD, OPTIONS", handle_asset},
    {"GET", "GET, HEAD, OPTIONS", handle_asset},
};

static void route(const struct api_context *ctx, const struct api_request *req,
                  size_t i, struct api_response *resp)
{
    const struct route *r = &routes[i];
    char detail[96];

    resp->allow = r->allow;
    if (strcmp(req->method, r->method) == 0 ||
        (strcmp(r->method, "GET") == 0 && strcmp(req->method, "HEAD") == 0)) {
        r->handle(ctx, req, resp);
    } else if (strcmp(req->method, "OPTIONS") == 0) {
        respond_body(resp, 204, NULL, NULL, 0);
    } else {
        snprintf(detail, sizeof(detail), "%s accepts only %s",
                 api_route_labels[i], r->allow);
        respond_simple(resp, 405, "method_not_allowed", "Method not allowed",
                       detail);
    }
}

void api_handle(const struct api_context *ctx, const struct api_request *req,
                struct api_response *resp)
{
    size_t i = 0;

    memset(resp, 0, sizeof(*resp));
    resp->request_id = req->request_id;
    while (i < API_NROUTES && strcmp(req->path, api_route_labels[i]) != 0)
        i++;
    resp->route = i;
    if (req->overloaded) {
        resp->retry_after = 1;
        respond_simple(resp, 503, "overloaded", "Too many connections",
                       "the server has all the connections it can serve; "
                       "retry in a moment");
    } else if (i == API_NROUTES ||
        (routes[i].handle == handle_metrics && ctx->metrics == NULL))
        respond_simple(resp, 404, "not_found", "Not found",
                       "no such endpoint; see GET /openapi.yaml for the API");
    else
        route(ctx, req, i, resp);
    apply_cors(ctx, req, i < API_NROUTES ? routes[i].allow : NULL, resp);
}

void api_response_free(struct api_response *resp)
{
    if (resp->body_owned)
        free(resp->body);
    resp->body = NULL;
    resp->body_owned = 0;
}
