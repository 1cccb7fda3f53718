/* api.c - the route table, shared response helpers, CORS, and the small
 * routes (health, metrics, documents, the demo page). A handler reads a
 * struct api_request and fills a struct api_response; every failure is an
 * RFC 9457 problem with a stable `code`. The puzzle routes live in
 * api_solve.c; api_internal.h is what the files share. */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "codec.h"
#include "metrics.h"

/* ------------------------------------------------------------------------
 * Responses
 * ------------------------------------------------------------------------ */

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

void api_respond_simple(struct api_response *resp, int status, const char *code,
                        const char *title, const char *detail)
{
    struct codec_problem p;

    codec_problem_init(&p, status, code, title, detail);
    api_respond_problem(resp, &p);
}

void api_respond_no_memory(struct api_response *resp)
{
    api_respond_simple(resp, 500, "internal_error", "Internal error",
                       "the server ran out of memory; try again");
}

void api_respond_json(struct api_response *resp, char *body, size_t len)
{
    if (body == NULL)
        api_respond_no_memory(resp);
    else
        api_respond_body(resp, 200, API_JSON_TYPE, body, len);
}

static void respond_status(struct api_response *resp, int status,
                           const char *word)
{
    size_t len = 0;
    char *body = codec_encode_status(word, &len);

    api_respond_body(resp, body ? status : 500, API_JSON_TYPE, body, len);
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
        api_respond_simple(
            resp, 503, "draining", "Shutting down",
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
    {"/favicon.ico", "image/x-icon", api_favicon_ico, api_favicon_ico_end},
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
        api_respond_simple(resp, 500, "internal_error", "Internal error",
                           "the metrics could not be rendered");
    else
        api_respond_body(resp, 200, "text/plain; version=0.0.4; charset=utf-8",
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
    if (req->origin == NULL ||
        !(any || origin_listed(ctx->cors_origins, req->origin)))
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

/* The routes: one entry per path. A path no entry has is route
 * API_NROUTES ("other"). */
struct route {
    const char *path;
    const char *method; /* GET routes answer HEAD too */
    const char *allow;  /* the Allow header of this path */
    void (*handle)(const struct api_context *, const struct api_request *,
                   struct api_response *);
};

static const struct route routes[] = {
    {"/solve", "POST", "POST, OPTIONS", api_handle_solve},
    {"/livez", "GET", "GET, HEAD, OPTIONS", handle_livez},
    {"/readyz", "GET", "GET, HEAD, OPTIONS", handle_readyz},
    {"/openapi.yaml", "GET", "GET, HEAD, OPTIONS", handle_openapi},
    {"/metrics", "GET", "GET, HEAD, OPTIONS", handle_metrics},
    {"/", "GET", "GET, HEAD, OPTIONS", handle_asset},
    {"/app.js", "GET", "GET, HEAD, OPTIONS", handle_asset},
    {"/app.css", "GET", "GET, HEAD, OPTIONS", handle_asset},
    {"/validate", "POST", "POST, OPTIONS", api_handle_validate},
    {"/hint", "POST", "POST, OPTIONS", api_handle_hint},
    {"/grade", "POST", "POST, OPTIONS", api_handle_grade},
    {"/generate", "POST", "POST, OPTIONS", api_handle_generate},
    {"/solve/batch", "POST", "POST, OPTIONS", api_handle_solve_batch},
    {"/explain", "POST", "POST, OPTIONS", api_handle_explain},
    {"/favicon.ico", "GET", "GET, HEAD, OPTIONS", handle_asset},
};

_Static_assert(sizeof(routes) / sizeof(routes[0]) == API_NROUTES,
               "API_NROUTES (api.h) must count the entries of routes[]");

const char *api_route_label(size_t route)
{
    return route < API_NROUTES ? routes[route].path : "other";
}

static void route(const struct api_context *ctx, const struct api_request *req,
                  size_t i, struct api_response *resp)
{
    const struct route *r = &routes[i];
    char detail[96];

    if (strcmp(req->method, r->method) == 0 ||
        (strcmp(r->method, "GET") == 0 && strcmp(req->method, "HEAD") == 0)) {
        r->handle(ctx, req, resp);
    } else if (strcmp(req->method, "OPTIONS") == 0) {
        api_respond_body(resp, 204, NULL, NULL, 0);
        resp->allow = r->allow;
    } else {
        resp->allow = r->allow;
        snprintf(detail, sizeof(detail), "%s accepts only %s", r->path,
                 r->allow);
        api_respond_simple(resp, 405, "method_not_allowed",
                           "Method not allowed", detail);
    }
}

void api_handle(const struct api_context *ctx, const struct api_request *req,
                struct api_response *resp)
{
    size_t i = 0;

    memset(resp, 0, sizeof(*resp));
    resp->request_id = req->request_id;
    resp->trace_id = req->trace_id;
    while (i < API_NROUTES && strcmp(req->path, routes[i].path) != 0)
        i++;
    resp->route = i;
    /* Liveness stays cheap and truthful under load: a probe that failed
     * because the server is busy would get a busy server restarted. */
    if (req->refused != NULL) {
        const struct api_refusal *f = req->refused;
        api_respond_simple(resp, f->status, f->code, f->title, f->detail);
    } else if (req->queue_full) {
        resp->retry_after = 1;
        api_respond_simple(resp, 503, "busy", "Job queue full",
                           "every worker for long jobs (batches, generation) "
                           "is busy and the queue is full; retry in a moment");
    } else if (req->memory_full) {
        resp->retry_after = 1;
        api_respond_simple(resp, 503, "busy", "Too many bodies held",
                           "the server holds as many request bodies as its "
                           "memory budget allows (--max-buffered); retry in a "
                           "moment");
    } else if (req->overloaded &&
               !(i < API_NROUTES && routes[i].handle == handle_livez)) {
        resp->retry_after = 1;
        api_respond_simple(resp, 503, "overloaded", "Too many connections",
                           "the server has all the connections it can serve; "
                           "retry in a moment");
    } else if (i == API_NROUTES ||
               (routes[i].handle == handle_metrics && ctx->metrics == NULL))
        api_respond_simple(
            resp, 404, "not_found", "Not found",
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
