/* api.h - the routes of the service as plain functions: a request value in,
 * a response value out. No sockets and no libmicrohttpd here, so every route
 * is tested directly; the http module only moves bytes. */
#ifndef API_H
#define API_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct metrics;

/* The route templates, also the `route` label of the metrics; a path that
 * matches none is route API_NROUTES ("other"). */
#define API_NROUTES 15
/* The path of route i (its metrics label); "other" for API_NROUTES. */
const char *api_route_label(size_t route);

/* What the handlers need from the configuration. */
struct api_context {
    uint64_t max_nodes;        /* node budget of one search */
    uint64_t max_killer_nodes; /* node budget of one killer search */
    unsigned max_search_ms;    /* CPU ms of one search, any engine (the
                                  thread's clock); 0: no bound */
    unsigned max_batch_ms;     /* CPU ms of one batch, parse, searches and
                                  encoding; 0: no bound */
    size_t max_body;           /* request-body limit, for the 413 message */
    const char *cors_origins; /* "*", "https://a,https://b", or NULL: no CORS */
    size_t max_batch;         /* puzzles in one POST /solve/batch */
    size_t max_batch_body;    /* bytes of one POST /solve/batch body */
    uint64_t max_batch_nodes; /* search nodes of one batch, all puzzles;
                                 0: no budget beyond max_nodes each */
    /* NULL, or a flag the server sets when running jobs must stop (the
     * drain deadline): a batch then judges no more puzzles and answers
     * the rest shutting_down. Read between puzzles, never inside one. */
    const atomic_int *stop;
    struct metrics *metrics; /* NULL: not counted, /metrics answers 404 */
    unsigned max_logic_ms;   /* time budget of /hint, /grade, /explain;
                                0: API_LOGIC_DEFAULT_MS */
    /* Set for the calls an event loop makes: a route then does at most a
     * small slice of work (a classic search of API_SLICE_NODES); one that
     * would need more answers with resp->defer set and nothing else, and
     * the caller runs it again on a worker with a context without it. */
    int slice;
};

/* The search nodes a classic puzzle may take on an event loop (about a
 * millisecond at the dearest node known) before it moves to a worker. */
#define API_SLICE_NODES 5000

/* Where a route runs: on the event loop that read it (cheap, or sliced:
 * see api_context.slice), on a request worker (work of up to about a
 * second: /hint, /grade, /explain, and what a slice deferred), or on a
 * long-job worker (batches and generation, seconds). */
enum api_place { API_ON_LOOP = 0, API_ON_WORKER, API_ON_LONG };

/* A request the http module refuses before any route sees it (its
 * framing, its URL or its headers are bad): answered with this problem and
 * nothing else. The strings are static. */
struct api_refusal {
    int status;
    const char *code, *title, *detail;
};

/* The time budget of one logic request when the context sets none. */
#define API_LOGIC_DEFAULT_MS 1000

/* Room for a solution answer (see api_request.answer). */
#define API_ANSWER_MAX 256

struct api_request {
    const char *method;       /* "GET", "POST", ... */
    const char *path;         /* without the query string */
    const char *content_type; /* NULL when the header is absent */
    const char *body;         /* need not be NUL-terminated; may be NULL */
    size_t body_len;
    int body_too_large;      /* the body passed max_body and was not kept */
    int draining;            /* the server is shutting down (readyz says 503) */
    const char *origin;      /* Origin header, or NULL */
    const char *cors_method; /* Access-Control-Request-Method, or NULL */
    const char *request_id;  /* put into problem bodies; may be NULL */
    const char *trace_id;    /* W3C trace id, beside it; may be NULL */
    int overloaded;          /* over the connection cap: answer 503 */
    int queue_full;          /* a long job found the job queue full: 503 */
    int memory_full;         /* its body would pass the server's budget for
                                bodies held (--max-buffered): 503 */
    int can_stream;          /* the caller can take resp->stream */
    const struct api_refusal *refused; /* NULL, or the problem to answer */
    char *answer; /* NULL, or API_ANSWER_MAX bytes that outlive
                     the response: a solution is written there
                     (resp->body points into it, not owned)
                     instead of into a heap string */
    /* NULL, or asks whether the client has gone (hung up): a batch then
     * stops judging (looked at every API_GONE_CHECK_US or so). */
    int (*gone)(void *arg);
    void *gone_arg;
};

/* How often a running batch asks whether its client is still there. */
#define API_GONE_CHECK_US 50000u

/* A header the response must carry besides the usual ones. */
struct api_header {
    const char *name, *value;
};

/* A response. `body` is a heap string owned by the response when
 * body_owned is set (free it with api_response_free, or take it over),
 * static otherwise. `allow` is the Allow header value for 405 and OPTIONS.
 * The cors_ members are the CORS headers to send, NULL for none. */
struct api_response {
    int status;
    const char *content_type;
    char *body;
    size_t body_len;
    int body_owned;
    const char *allow;
    size_t route;             /* a route index (api_route_label) */
    const char *request_id;   /* req->request_id, echoed in problems */
    const char *trace_id;     /* req->trace_id, likewise */
    const char *cors_origin;  /* Access-Control-Allow-Origin */
    const char *cors_methods; /* preflight: Access-Control-Allow-Methods */
    const char *cors_headers; /* preflight: Access-Control-Allow-Headers */
    int cors_max_age;         /* preflight: Access-Control-Max-Age, s */
    int vary_origin;          /* send Vary: Origin */
    int retry_after;          /* seconds for a Retry-After header, 0: none */
    const struct api_header *headers; /* nheaders more headers (static) */
    size_t nheaders;
    struct api_batch *stream; /* set (only if req->can_stream): the body is
                                 pulled with api_batch_next */
    int defer; /* ctx->slice was set and the work needs more than a slice:
                  nothing else is set; run the request on a worker */
};

/* Routes and answers one request. Never fails: every error, including
 * running out of memory, becomes a response (a problem+json body, or an
 * empty 500 when even that cannot be allocated). */
void api_handle(const struct api_context *ctx, const struct api_request *req,
                struct api_response *resp);

/* A batch whose answer is produced piece by piece (POST /solve/batch to a
 * caller that can stream). */
struct api_batch;

/* Judges up to n more puzzles of b and returns their results as a heap
 * string (length in *len); *done is set once the answer is complete (its
 * closing part included). NULL when out of memory or when the client has
 * gone (api_request.gone): the answer is then cut. */
char *api_batch_next(struct api_batch *b, size_t n, size_t *len, int *done);

/* Frees b (and whatever it did not hand out). */
void api_batch_free(struct api_batch *b);

/* The largest body a request to `path` may have. */
size_t api_body_limit(const struct api_context *ctx, const char *path);

/* Where the http module runs this request (see enum api_place). */
enum api_place api_place(const char *method, const char *path);

/* Frees the body of *resp when it owns it. */
void api_response_free(struct api_response *resp);

#endif
