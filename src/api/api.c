/* api.c - the route table with each route's policy (body limit, where it
 * runs), CORS, and the small routes (health, metrics, documents, the demo
 * page). A handler reads a struct api_request and fills a struct
 * api_response; every failure is an RFC 9457 problem with a stable `code`.
 * The puzzle routes live one family per file (api_solve.c, api_validate.c,
 * api_hint.c, api_generate.c, api_batch.c); api_internal.h is what the
 * files share. */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_internal.h"
#include "assets.h"
#include "codec.h"
#include "metrics.h"

/* ------------------------------------------------------------------------
 * Health and documents
 * ------------------------------------------------------------------------ */

static void respond_status(struct api_response *resp, int status,
                           const char *word)
{
    size_t len = 0;
    char *body = codec_encode_status(word, &len);

    api_respond_body(resp, body ? status : 500, API_JSON_TYPE, body, len);
}

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
            resp, CODEC_PROBLEM_DRAINING,
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
        api_respond_simple(resp, CODEC_PROBLEM_INTERNAL_ERROR,
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

/* Which limit a route's body has. */
enum route_limit {
    LIMIT_BODY = 0, /* --max-body */
    LIMIT_BATCH,    /* --max-batch-body */
};

/* The routes: one entry per path, with its policy. A path no entry has is
 * route API_NROUTES ("other"). */
struct route {
    const char *path;
    const char *method; /* GET routes answer HEAD too */
    const char *allow;  /* the Allow header of this path */
    void (*handle)(const struct api_context *, const struct api_request *,
                   struct api_response *);
    enum route_limit limit; /* of its body */
    enum api_place place;   /* where the http module runs it */
};

#define GET_ROUTE "GET", "GET, HEAD, OPTIONS"
#define POST_ROUTE "POST", "POST, OPTIONS"

static const struct route routes[] = {
    {"/solve", POST_ROUTE, api_handle_solve, LIMIT_BODY, API_ON_LOOP},
    {"/livez", GET_ROUTE, handle_livez, LIMIT_BODY, API_ON_LOOP},
    {"/readyz", GET_ROUTE, handle_readyz, LIMIT_BODY, API_ON_LOOP},
    {"/openapi.yaml", GET_ROUTE, handle_openapi, LIMIT_BODY, API_ON_LOOP},
    {"/metrics", GET_ROUTE, handle_metrics, LIMIT_BODY, API_ON_LOOP},
    {"/", GET_ROUTE, handle_asset, LIMIT_BODY, API_ON_LOOP},
    {"/app.js", GET_ROUTE, handle_asset, LIMIT_BODY, API_ON_LOOP},
    {"/app.css", GET_ROUTE, handle_asset, LIMIT_BODY, API_ON_LOOP},
    {"/validate", POST_ROUTE, api_handle_validate, LIMIT_BODY, API_ON_LOOP},
    {"/hint", POST_ROUTE, api_handle_hint, LIMIT_BODY, API_ON_WORKER},
    {"/grade", POST_ROUTE, api_handle_grade, LIMIT_BODY, API_ON_WORKER},
    {"/generate", POST_ROUTE, api_handle_generate, LIMIT_BODY, API_ON_LONG},
    {"/solve/batch", POST_ROUTE, api_handle_solve_batch, LIMIT_BATCH,
     API_ON_LONG},
    {"/explain", POST_ROUTE, api_handle_explain, LIMIT_BODY, API_ON_WORKER},
    {"/favicon.ico", GET_ROUTE, handle_asset, LIMIT_BODY, API_ON_LOOP},
};

_Static_assert(sizeof(routes) / sizeof(routes[0]) == API_NROUTES,
               "API_NROUTES (api.h) must count the entries of routes[]");

const char *api_route_label(size_t route)
{
    return route < API_NROUTES ? routes[route].path : "other";
}

/* The route of `path`, or API_NROUTES. */
static size_t find_route(const char *path)
{
    size_t i = 0;

    while (i < API_NROUTES && strcmp(path, routes[i].path) != 0)
        i++;
    return i;
}

size_t api_body_limit(const struct api_context *ctx, const char *path)
{
    size_t i = find_route(path);

    return i < API_NROUTES && routes[i].limit == LIMIT_BATCH
               ? ctx->max_batch_body
               : ctx->max_body;
}

enum api_place api_place(const char *method, const char *path)
{
    size_t i = find_route(path);

    /* Only the route's own method does work: OPTIONS, a 405 or a 404 is
     * answered where it is. */
    return i < API_NROUTES && strcmp(method, routes[i].method) == 0
               ? routes[i].place
               : API_ON_LOOP;
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
        api_respond_simple(resp, CODEC_PROBLEM_METHOD_NOT_ALLOWED, detail);
    }
}

void api_handle(const struct api_context *ctx, const struct api_request *req,
                struct api_response *resp)
{
    size_t i = find_route(req->path);

    memset(resp, 0, sizeof(*resp));
    resp->request_id = req->request_id;
    resp->trace_id = req->trace_id;
    resp->route = i;
    /* Liveness stays cheap and truthful under load: a probe that failed
     * because the server is busy would get a busy server restarted. */
    if (req->refused != NULL) {
        const struct api_refusal *f = req->refused;
        const struct codec_problem_type type = {f->status, f->code, f->title};
        struct codec_problem p;
        codec_problem_set(&p, &type, f->detail);
        api_respond_problem(resp, &p);
    } else if (req->queue_full) {
        resp->retry_after = 1;
        api_respond_simple(resp, CODEC_PROBLEM_BUSY_QUEUE,
                           "every worker for this kind of request is busy "
                           "and its queue is full; retry in a moment");
    } else if (req->memory_full) {
        resp->retry_after = 1;
        api_respond_simple(resp, CODEC_PROBLEM_BUSY_MEMORY,
                           "the server holds as many request bodies as its "
                           "memory budget allows (--max-buffered); retry in a "
                           "moment");
    } else if (req->overloaded &&
               !(i < API_NROUTES && routes[i].handle == handle_livez)) {
        resp->retry_after = 1;
        api_respond_simple(resp, CODEC_PROBLEM_OVERLOADED,
                           "the server has all the connections it can serve; "
                           "retry in a moment");
    } else if (i == API_NROUTES ||
               (routes[i].handle == handle_metrics && ctx->metrics == NULL))
        api_respond_simple(
            resp, CODEC_PROBLEM_NOT_FOUND,
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
