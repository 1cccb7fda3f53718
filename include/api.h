/* api.h - the routes of the service as plain functions: a request value in,
 * a response value out. No sockets and no libmicrohttpd here, so every route
 * is tested directly; the http module only moves bytes. */
#ifndef API_H
#define API_H

#include <stddef.h>
#include <stdint.h>

/* What the handlers need from the configuration. */
struct api_context {
    uint64_t max_nodes;  /* node budget of one search */
    size_t max_body;     /* request-body limit, for the 413 message */
};

struct api_request {
    const char *method;        /* "GET", "POST", ... */
    const char *path;          /* without the query string */
    const char *content_type;  /* NULL when the header is absent */
    const char *body;          /* need not be NUL-terminated; may be NULL */
    size_t body_len;
    int body_too_large;  /* the body passed max_body and was not kept */
    int draining;        /* the server is shutting down (readyz says 503) */
};

/* A response. `body` is a heap string owned by the response when
 * body_owned is set (free it with api_response_free, or take it over),
 * static otherwise. `allow` is the Allow header value for 405 and OPTIONS. */
struct api_response {
    int status;
    const char *content_type;
    char *body;
    size_t body_len;
    int body_owned;
    const char *allow;
};

/* Routes and answers one request. Never fails: every error, including
 * running out of memory, becomes a response (a problem+json body, or an
 * empty 500 when even that cannot be allocated). */
void api_handle(const struct api_context *ctx, const struct api_request *req,
                struct api_response *resp);

/* Frees the body of *resp when it owns it. */
void api_response_free(struct api_response *resp);

/* The OpenAPI document embedded at build time (src/assets.S), followed by a
 * NUL byte at api_openapi_yaml_end. */
extern const char api_openapi_yaml[];
extern const char api_openapi_yaml_end[];

#endif
