/* http.c - libmicrohttpd glue: per-request state, a bounded body buffer, one
 * call into api_handle per request, then headers, metrics and the access log.
 * libmicrohttpd calls the access handler several times per request: first
 * with the headers only (we allocate the state), then with body chunks (we
 * copy up to max_body and drop the rest), then with no data (we answer).
 * State is freed in the completed callback, which also ends "in flight". */
#include "http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/resource.h>

#include "api.h"
#include "http_internal.h"
#include "log.h"
#include "metrics.h"

/* A header value copied to the heap for a job (*dst, freed with the
 * request); NULL when absent or out of memory. */
static const char *copy_header(char **dst, const char *value)
{
    *dst = value ? strdup(value) : NULL;
    return *dst;
}

/* ------------------------------------------------------------------------
 * Requests
 * ------------------------------------------------------------------------ */

static void add_cors_headers(struct MHD_Response *resp,
                             const struct api_response *r)
{
    if (r->vary_origin)
        MHD_add_response_header(resp, "Vary", "Origin");
    if (r->cors_origin == NULL)
        return;
    MHD_add_response_header(resp, "Access-Control-Allow-Origin", r->cors_origin);
    if (r->cors_methods == NULL) {
        MHD_add_response_header(resp, "Access-Control-Expose-Headers",
                                "X-Request-Id");
        return;
    }
    char age[16];
    snprintf(age, sizeof(age), "%d", r->cors_max_age);
    MHD_add_response_header(resp, "Access-Control-Allow-Methods", r->cors_methods);
    MHD_add_response_header(resp, "Access-Control-Allow-Headers", r->cors_headers);
    MHD_add_response_header(resp, "Access-Control-Max-Age", age);
}

static enum MHD_Result queue(struct http_server *srv,
                             struct MHD_Connection *conn,
                             const struct api_response *r, struct request *rq)
{
    const char *id = rq->id;
    struct MHD_Response *resp;
    enum MHD_Result ret;

    if (rq->job && rq->job->stream) /* a batch's answer, streamed by its worker */
        resp = http_stream_response(rq);
    else if (r->body_owned)
        resp = MHD_create_response_from_buffer_with_free_callback(
            r->body_len, r->body, free);
    else
        resp = MHD_create_response_from_buffer(r->body_len, r->body,
                                               MHD_RESPMEM_PERSISTENT);
    if (resp == NULL) {
        if (r->body_owned)
            free(r->body);
        return MHD_NO;
    }
    if (r->content_type != NULL)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
                                r->content_type);
    if (r->allow != NULL && (r->status == 405 || r->status == 204))
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, r->allow);
    add_cors_headers(resp, r);
    if (r->retry_after > 0) {
        char secs[16];
        snprintf(secs, sizeof(secs), "%d", r->retry_after);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, secs);
    }
    MHD_add_response_header(resp, "X-Request-Id", id);
    for (size_t i = 0; i < r->nheaders; i++)
        MHD_add_response_header(resp, r->headers[i].name, r->headers[i].value);
    if (rq->close || r->retry_after > 0 ||
        atomic_load_explicit(&srv->draining, memory_order_relaxed))
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
    ret = MHD_queue_response(conn, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ret;
}

static int over_capacity(struct http_server *srv, struct request *rq);

static const char *header(struct MHD_Connection *conn, const char *name)
{
    return MHD_lookup_connection_value(conn, MHD_HEADER_KIND, name);
}

/* A character of a token (a method, a header name; RFC 9110, 5.6.2). */
static int is_tchar(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') ||
           (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

/* Is one header line, as libmicrohttpd 0.9.75 left it in its read buffer,
 * exactly NAME ":" OWS VALUE CRLF, starting where the line before ended?
 * The library parses lines in place: it turns CR LF and the colon into
 * NULs and hands out C strings, so what it cannot represent is not
 * rejected but lost. A NUL in a name or value cuts it short (the rest of
 * the line is dropped), a bare LF ends a line, a folded line (obs-fold) is
 * appended to a copy of the name elsewhere in the pool, and a space before
 * the colon becomes part of the name. Each of these shows as a line that
 * does not start where the one before ended plus CR LF, or as a name or
 * value with bytes that cannot be in one. */
static int header_line_ok(const char *expect, const char *key, size_t key_size,
                          const char *value, size_t value_size)
{
    const char *p;

    if (key != expect || key_size == 0 || value == NULL ||
        value < key + key_size + 1)
        return 0;
    for (size_t i = 0; i < key_size; i++)
        if (!is_tchar((unsigned char)key[i]))
            return 0;
    for (p = key + key_size + 1; p < value; p++) /* OWS the library skipped */
        if (*p != ' ' && *p != '\t')
            return 0;
    for (size_t i = 0; i < value_size; i++) {
        unsigned char c = (unsigned char)value[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f) /* a bare CR, a control */
            return 0;
    }
    return 1;
}

/* One header for read_headers: kept when it is one we read and the first
 * of its name; counted when it decides the framing; checked for its shape
 * (header_line_ok). Names are matched without regard to case, like
 * MHD_lookup_connection_value does, and by length first. */
static enum MHD_Result take_header(void *cls, enum MHD_ValueKind kind,
                                   const char *key, size_t key_size,
                                   const char *value, size_t value_size)
{
    enum { OTHER, LENGTH, CODING, HOST };
    static const struct {
        const char *name;
        size_t len, at;
        int counts;
    } wanted[] = {
#define WANT(name, member, counts) \
    {name, sizeof(name) - 1, offsetof(struct request_headers, member), counts}
        WANT("X-Request-Id", id, OTHER),
        WANT(MHD_HTTP_HEADER_CONTENT_LENGTH, content_length, LENGTH),
        WANT(MHD_HTTP_HEADER_CONTENT_TYPE, content_type, OTHER),
        WANT("Origin", origin, OTHER),
        WANT("Access-Control-Request-Method", cors_method, OTHER),
        WANT(MHD_HTTP_HEADER_TRANSFER_ENCODING, transfer_encoding, CODING),
        WANT(MHD_HTTP_HEADER_HOST, host, HOST),
#undef WANT
    };
    struct request_headers *h = cls;

    (void)kind;
    if (!h->bad && !header_line_ok(h->next, key, key_size, value, value_size))
        h->bad = 1;
    h->next = value ? value + value_size + 2 : NULL;
    for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++) {
        const char **slot;
        if (key_size != wanted[i].len || strcasecmp(key, wanted[i].name) != 0)
            continue;
        slot = (const char **)((char *)cls + wanted[i].at);
        if (wanted[i].counts == LENGTH && h->n_content_length++ > 0 &&
            strcmp(*slot, value) != 0)
            h->lengths_differ = 1;
        h->n_transfer_encoding += wanted[i].counts == CODING;
        h->n_host += wanted[i].counts == HOST;
        if (*slot == NULL)
            *slot = value;
        break;
    }
    return MHD_YES;
}

/* Finds every header the server reads in one pass (looking each up walks
 * all of them again), and checks the framing on the way. The first header
 * line starts right after the request line's CR LF, which follows the
 * version, and the empty line after the last one ends the header block,
 * whose size from the method on the library reports. */
static void read_headers(struct MHD_Connection *conn, const char *method,
                         const char *version, struct request_headers *h)
{
    const union MHD_ConnectionInfo *ci;

    memset(h, 0, sizeof(*h));
    h->next = version + strlen(version) + 2;
    MHD_get_connection_values_n(conn, MHD_HEADER_KIND, take_header, h);
    ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    if (ci != NULL &&
        (h->next == NULL || h->next + 2 != method + ci->header_size))
        h->bad = 1;
}

/* Records what is being answered and queues it. */
static enum MHD_Result reply(struct http_server *srv,
                             struct MHD_Connection *conn, struct request *rq,
                             const struct api_response *resp)
{
    rq->status = resp->status;
    rq->bytes = rq->job && rq->job->stream ? 0 : resp->body_len; /* a stream counts */
    rq->route = resp->route;
    return queue(srv, conn, resp, rq);
}

/* ------------------------------------------------------------------------
 * Framing: what is refused before routing
 *
 * libmicrohttpd 0.9.75 decides the framing itself and answers some
 * requests it cannot parse (a malformed Content-Length, a chunk size over
 * 64 bits, a request line or headers too long for its buffer) with HTML of
 * its own before the access handler is called; sudokud cannot change those
 * (README, Security). Everything else it passes on, ambiguous or not, so
 * the first call of the access handler, which sees all the headers, judges
 * the rest: a request is refused with a problem and the connection closed
 * when the message's length is ambiguous (request smuggling), when it uses
 * a transfer coding the library would wait on forever, or when its request
 * line or headers held bytes the library silently dropped.
 * ------------------------------------------------------------------------ */

/* The URL (path and query) may have this many bytes and query parameters.
 * The library keeps a 56-byte record per parameter in the connection's
 * 16 KiB memory pool; when they do not fit it queues a 431 but goes on
 * reading headers with no buffer left, so the client waited for the idle
 * timeout (about 250 parameters). No route takes any parameter. */
#define URI_MAX 2048
#define QUERY_ARGS_MAX 32
#define STR_(x) #x
#define STR(x) STR_(x)

static const struct api_refusal refusals[REFUSE_N] = {
    [REFUSE_URI_TOO_LONG] = {414, "uri_too_long", "URI too long",
        "the URL is longer than " STR(URI_MAX) " bytes or has more than "
        STR(QUERY_ARGS_MAX) " query parameters"},
    [REFUSE_BAD_TARGET] = {400, "bad_request_line", "Bad request line",
        "the method or the URL holds a control character, a space or a NUL"},
    [REFUSE_BAD_HEADER] = {400, "bad_header", "Bad header",
        "a header line is not name: value ending in CR LF (a control "
        "character, a NUL, a bare CR or LF, a folded line, a space before "
        "the colon), or Host is repeated"},
    [REFUSE_MISSING_HOST] = {400, "missing_host", "Missing Host header",
        "an HTTP/1.1 request must have a Host header"},
    [REFUSE_BAD_FRAMING] = {400, "bad_framing", "Ambiguous message length",
        "Content-Length together with Transfer-Encoding, two different "
        "Content-Length values, or Transfer-Encoding repeated or in an "
        "HTTP/1.0 request"},
    [REFUSE_UNSUPPORTED_CODING] = {501, "unsupported_transfer_coding",
        "Unsupported transfer coding",
        "the only transfer coding a request may use is chunked"},
};

static enum MHD_Result answer(struct http_server *srv,
                              struct MHD_Connection *conn, const char *url,
                              const char *method, struct request *rq,
                              int queue_full)
{
    struct api_request req = {
        .method = method,
        .path = url,
        .content_type = rq->hdr.content_type,
        .body = rq->body,
        .body_len = rq->len,
        .body_too_large = rq->too_large,
        .draining = atomic_load_explicit(&srv->draining, memory_order_relaxed),
        .origin = rq->hdr.origin,
        .cors_method = rq->hdr.cors_method,
        .request_id = rq->id,
        .overloaded = over_capacity(srv, rq),
        .queue_full = queue_full,
        .memory_full = rq->no_room,
        .answer = rq->answer,
        .refused = rq->refused != REFUSE_NONE ? &refusals[rq->refused] : NULL,
    };
    struct api_response resp;

    /* A refused request's framing cannot be trusted, and the rest of an
     * oversized body is not read: either way, whatever follows on the
     * connection is not a request. */
    if (rq->refused != REFUSE_NONE || rq->too_large)
        rq->close = 1;
    api_handle(&srv->api, &req, &resp);
    return reply(srv, conn, rq, &resp);
}

/* Hands a long job to the pool: its request is copied into rq (the worker
 * must not read libmicrohttpd's strings) and the connection is suspended
 * until the worker resumes it with rq->resp filled. Returns -1, touching
 * nothing, when the queue is full. */
static int submit(struct http_server *srv, struct MHD_Connection *conn,
                  const char *url, const char *method, struct request *rq)
{
    if ((rq->job = calloc(1, sizeof(*rq->job))) == NULL ||
        http_jobs_reserve(srv) != 0)
        return -1;
    rq->job->api = (struct api_request){
        .method = rq->method,
        .path = rq->path,
        .content_type = copy_header(&rq->job->content_type,
                                    rq->hdr.content_type),
        .body = rq->body,
        .body_len = rq->len,
        .origin = copy_header(&rq->job->origin, rq->hdr.origin),
        .request_id = rq->id,
        .answer = rq->answer,
    };
    (void)url, (void)method;
    rq->job->conn = conn;
    rq->state = REQUEST_QUEUED;
    MHD_suspend_connection(conn);
    http_jobs_push(srv, rq);
    return 0;
}

/* The declared Content-Length (cl, NULL when absent) as a number; 0 when
 * absent or not a number. */
static unsigned long long declared_length(const char *cl)
{
    char *end;
    unsigned long long n;

    if (cl == NULL)
        return 0;
    n = strtoull(cl, &end, 10);
    return end != cl ? n : 0;
}

/* Lets go of the body: a heap buffer is freed and its bytes go back to
 * the server's budget; the inline one is part of the request. */
static void drop_body(struct http_server *srv, struct request *rq)
{
    if (rq->body != rq->inline_body)
        free(rq->body);
    http_buffer_give(srv, rq->held);
    rq->held = 0;
    rq->body = NULL;
    rq->len = rq->cap = 0;
}

/* Makes room for `need` bytes (at most max) by moving the body to a larger
 * heap buffer: the declared length at once when it is known, else twice
 * the room so far. Returns 0, or -1 when out of memory (the body is kept). */
static int grow_body(struct request *rq, size_t need, size_t max)
{
    size_t cap = rq->cap * 2;
    char *p;

    while (cap < need)
        cap *= 2;
    if (rq->expect >= need)
        cap = rq->expect;
    if (cap > max)
        cap = max;
    if (rq->body == rq->inline_body) {
        if ((p = malloc(cap)) != NULL)
            memcpy(p, rq->body, rq->len);
    } else {
        p = realloc(rq->body, cap);
    }
    if (p == NULL)
        return -1;
    rq->body = p;
    rq->cap = cap;
    return 0;
}

/* Appends a chunk, growing the buffer up to max; past it, keeps nothing.
 * The body starts in the request's inline buffer: a small one then costs
 * no allocation. Bytes on the heap are taken from --max-buffered as they
 * come (a large buffer's pages cost memory only once written), and past
 * it nothing is kept either: the answer is 503 busy. */
static void append(struct http_server *srv, struct request *rq,
                   const char *data, size_t size, size_t max)
{
    if (rq->too_large || rq->no_room)
        return;
    if (size > max - rq->len) {
        rq->too_large = 1;
        drop_body(srv, rq);
        return;
    }
    if (rq->body == NULL) {
        rq->body = rq->inline_body;
        rq->cap = sizeof(rq->inline_body);
    }
    if (rq->len + size > sizeof(rq->inline_body)) {
        size_t take = rq->len + size - rq->held; /* what is not held yet */
        if (http_buffer_take(srv, take) != 0) {
            rq->no_room = 1;
            drop_body(srv, rq);
            return;
        }
        rq->held += take;
    }
    if (rq->len + size > rq->cap && grow_body(rq, rq->len + size, max) != 0) {
        rq->too_large = 1; /* treat like an oversized body: answer, keep nothing */
        drop_body(srv, rq);
        return;
    }
    memcpy(rq->body + rq->len, data, size);
    rq->len += size;
}

/* 16 hex digits: the server's random boot id, then the request counter. */
static void make_id(char out[17], uint32_t boot, uint32_t seq)
{
    static const char hex[] = "0123456789abcdef";

    for (int i = 0; i < 8; i++) {
        out[i] = hex[(boot >> (28 - 4 * i)) & 15];
        out[8 + i] = hex[(seq >> (28 - 4 * i)) & 15];
    }
    out[16] = '\0';
}

/* Copies src into dst (cap bytes), cutting it if needed. */
static void copy_cut(char *dst, const char *src, size_t cap)
{
    size_t n = strnlen(src, cap - 1);

    memcpy(dst, src, n);
    dst[n] = '\0';
}


/* Keeps the client's X-Request-Id when it is 1-128 visible ASCII
 * characters; otherwise makes one. */
static void start_request(struct http_server *srv, const char *method,
                          const char *url, struct request *rq)
{
    const char *id = rq->hdr.id;
    size_t n = id ? strlen(id) : 0;
    int sane = n > 0 && n <= REQUEST_ID_MAX;

    for (size_t i = 0; sane && i < n; i++)
        sane = id[i] > ' ' && id[i] < 0x7f;
    if (sane)
        memcpy(rq->id, id, n + 1);
    else
        make_id(rq->id, srv->boot_id,
                (uint32_t)atomic_fetch_add_explicit(&srv->next_id, 1,
                                                    memory_order_relaxed));
    copy_cut(rq->method, method, sizeof(rq->method));
    copy_cut(rq->path, url, sizeof(rq->path));
    rq->route = API_NROUTES;
    rq->start_us = http_now_us();
    metrics_request_begin(srv->metrics);
}

/* libmicrohttpd's URI log callback: called with the raw request target
 * right after the request line, before the library splits the query into
 * parameters. It makes the request's state (its return value becomes the
 * handler's *con_cls), notes where the target lies in the library's buffer
 * for judge(), and refuses a target too long. A refused target's query is
 * cut off here, in the library's buffer (the pointer is const only in the
 * callback's signature): the parameters are then never stored, so their
 * records cannot exhaust the pool and stall the connection. */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
    struct http_loop *lp = cls;
    struct request *rq = malloc(sizeof(*rq));
    const char *query = strchr(uri, '?');
    size_t nargs = 0;

    http_conn_request_line(
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT)
            ->socket_context);
    if (rq == NULL)
        return NULL; /* on_request closes the connection */
    memset(rq, 0, offsetof(struct request, inline_body));
    rq->loop = lp;
    rq->route = API_NROUTES;
    rq->start_us = http_now_us();
    rq->raw_uri = uri;
    rq->raw_uri_len = strlen(uri);
    /* For the log of an answer the library makes itself; start_request
     * puts the decoded path here, like the library's, without the query. */
    copy_cut(rq->path, uri, sizeof(rq->path));
    rq->path[strcspn(rq->path, "?")] = '\0';
    for (const char *p = query; p != NULL; p = strchr(p + 1, '&'))
        nargs++;
    if (rq->raw_uri_len > URI_MAX || nargs > QUERY_ARGS_MAX) {
        rq->refused = REFUSE_URI_TOO_LONG;
        if (query != NULL)
            ((char *)query)[1] = '\0';
        return rq;
    }
    for (size_t i = 0; i < rq->raw_uri_len; i++)
        if ((unsigned char)uri[i] <= ' ' || uri[i] == 0x7f)
            rq->refused = REFUSE_BAD_TARGET;
    return rq;
}

/* The first call's verdict on a request that on_uri let through. The
 * request line lies in the library's buffer as METHOD NUL SP* TARGET NUL
 * VERSION: a NUL inside the method or the target ends its C string early
 * (`/livez\0junk` would be routed as /livez), which shows as the next part
 * not starting where the string ended. */
static enum request_refusal judge(const struct request *rq, const char *url,
                                  const char *method, const char *version)
{
    const struct request_headers *h = &rq->hdr;
    size_t mlen = strlen(method);
    const char *p = method + mlen + 1;
    int http10 = strcmp(version, "HTTP/1.0") == 0;

    if (url != rq->raw_uri || version != rq->raw_uri + rq->raw_uri_len + 1)
        return REFUSE_BAD_TARGET;
    for (size_t i = 0; i < mlen; i++)
        if (!is_tchar((unsigned char)method[i]))
            return REFUSE_BAD_TARGET;
    while (p < url && *p == ' ')
        p++;
    if (p != url)
        return REFUSE_BAD_TARGET;
    if (h->bad || h->n_host > 1)
        return REFUSE_BAD_HEADER;
    if (h->n_host == 0 && !http10)
        return REFUSE_MISSING_HOST;
    /* RFC 9112, 6.1 and 6.3: with both, or with a coding the library does
     * not take for chunked (it then reads the body until the client
     * closes, which it never does), the length is not known. */
    if (h->n_transfer_encoding > 0) {
        if (h->n_content_length > 0 || h->n_transfer_encoding > 1 || http10)
            return REFUSE_BAD_FRAMING;
        if (strcasecmp(h->transfer_encoding, "chunked") != 0)
            return REFUSE_UNSUPPORTED_CODING;
    }
    if (h->lengths_differ)
        return REFUSE_BAD_FRAMING;
    return REFUSE_NONE;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn,
                                  const char *url, const char *method,
                                  const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
    struct http_loop *lp = cls;
    struct http_server *srv = lp->srv;
    struct request *rq = *con_cls;
    unsigned long long n;

    if (rq == NULL) /* on_uri ran out of memory */
        return MHD_NO;
    if (!rq->begun) {
        rq->begun = 1;
        read_headers(conn, method, version, &rq->hdr);
        start_request(srv, method, url, rq);
        rq->limit = api_body_limit(&srv->api, url);
        rq->cs = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT)
                     ->socket_context;
        http_conn_enter(lp, rq->cs, CONN_BODY, rq->start_us);
        if (rq->refused == REFUSE_NONE)
            rq->refused = judge(rq, url, method, version);
        n = declared_length(rq->hdr.content_length);
        if (rq->refused != REFUSE_NONE)
            ; /* answered below, before the body */
        else if (n > rq->limit)
            rq->too_large = 1;
        else if (n > sizeof(rq->inline_body)) {
            /* A body that cannot be held now is refused before it is sent;
             * the bytes are taken from the budget as they come. */
            if (http_buffer_room(srv) < n)
                rq->no_room = 1;
            rq->expect = (size_t)n;
        }
        if (rq->refused != REFUSE_NONE || rq->too_large || rq->no_room) {
            /* Answer before reading: libmicrohttpd then skips the body
             * (or never sends "100 Continue") and closes the connection. */
            http_conn_enter(lp, rq->cs, CONN_BUSY, rq->start_us);
            return answer(srv, conn, url, method, rq, 0);
        }
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        if (rq->cs)
            rq->cs->body_bytes += *upload_data_size;
        if (rq->status != 0) { /* answered early: drop the rest */
            *upload_data_size = 0;
            return MHD_YES;
        }
        append(srv, rq, upload_data, *upload_data_size, rq->limit);
        if (rq->too_large || rq->no_room)
            rq->dropped += *upload_data_size;
        *upload_data_size = 0;
        /* A body without Content-Length passed the limit: it is read and
         * dropped so that the client, once it has sent it all, can read
         * the 413 (answering while it still sends would reset the
         * connection under its feet, and libmicrohttpd 0.9.75 refuses an
         * answer queued during an upload anyway). Past DRAIN_MAX more the
         * connection is closed without an answer. A body that found the
         * budget spent is drained the same way, for its 503, up to the
         * route's limit. */
        if (rq->dropped > (rq->too_large ? DRAIN_MAX : rq->limit)) {
            rq->status = 0;
            return MHD_NO;
        }
        return MHD_YES;
    }
    http_conn_enter(lp, rq->cs, CONN_BUSY, rq->start_us);
    if (rq->state == REQUEST_DONE) { /* resumed: the worker's answer */
        rq->state = REQUEST_READING;
        return reply(srv, conn, rq, &rq->job->resp);
    }
    if (rq->status != 0)
        return MHD_YES;
    /* A long job goes to the pool unless it can be answered at once: too
     * large, or from a connection over the cap (503 overloaded). */
    if (!rq->too_large && !rq->no_room && api_is_job(method, url) &&
        !over_capacity(srv, rq))
        return submit(srv, conn, url, method, rq) == 0
                   ? MHD_YES
                   : answer(srv, conn, url, method, rq, 1);
    return answer(srv, conn, url, method, rq, 0);
}

static void log_access(struct http_server *srv, struct MHD_Connection *conn,
                       const struct request *rq, uint64_t took,
                       enum MHD_RequestTerminationCode toe)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    char addr[INET6_ADDRSTRLEN] = "";
    struct log_line l;

    if (ci != NULL && ci->client_addr != NULL) {
        const struct sockaddr *sa = ci->client_addr;
        if (sa->sa_family == AF_INET)
            inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr,
                      addr, sizeof(addr));
        else if (sa->sa_family == AF_INET6)
            inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr,
                      addr, sizeof(addr));
    }
    log_begin(&l, &srv->log, LOG_INFO, "request");
    log_str(&l, "request_id", rq->id);
    log_str(&l, "method", rq->method);
    log_str(&l, "path", rq->path);
    log_num(&l, "status", rq->status);
    log_num(&l, "bytes", (long long)rq->bytes);
    log_num(&l, "duration_us", (long long)took);
    log_str(&l, "remote", addr);
    log_str(&l, "user_agent", header(conn, MHD_HTTP_HEADER_USER_AGENT));
    if (toe != MHD_REQUEST_TERMINATED_COMPLETED_OK)
        log_str(&l, "aborted", toe == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED
                                   ? "timeout" : "connection closed");
    log_end(&l, &srv->log);
}

static void on_completed(void *cls, struct MHD_Connection *conn,
                         void **con_cls, enum MHD_RequestTerminationCode toe)
{
    struct http_server *srv = cls;
    struct request *rq = *con_cls;
    uint64_t took, now;

    if (rq == NULL)
        return;
    if (rq->status == 0) {
        /* Not answered by us: the library answered on its own (see
         * "Framing"), before the handler saw the request or during its
         * body, or nobody did. Its answer is counted and logged like ours. */
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_HTTP_STATUS);
        if (ci != NULL)
            rq->status = (int)ci->http_status;
    }
    if (!rq->begun) {
        if (rq->status == 0) { /* the client left within the headers */
            free(rq);
            *con_cls = NULL;
            return;
        }
        make_id(rq->id, srv->boot_id,
                (uint32_t)atomic_fetch_add_explicit(&srv->next_id, 1,
                                                    memory_order_relaxed));
        metrics_request_begin(srv->metrics);
    }
    now = http_now_us();
    took = now - rq->start_us;
    if (rq->cs != NULL) /* the next request's headers are due from now */
        http_conn_enter(rq->loop, rq->cs, CONN_WAITING, now);
    metrics_request_end(srv->metrics, rq->method, rq->route, rq->status, took);
    if (srv->access_log)
        log_access(srv, conn, rq, took, toe);
    /* Resumed but never answered (the client went away first): what the
     * worker made for it is ours to let go. */
    if (rq->job && rq->state == REQUEST_DONE) {
        if (rq->job->stream)
            http_stream_drop(rq->job->stream);
        else
            api_response_free(&rq->job->resp);
    }
    drop_body(srv, rq);
    if (rq->job) {
        free(rq->job->content_type);
        free(rq->job->origin);
        free(rq->job);
    }
    free(rq);
    *con_cls = NULL;
}

/* ------------------------------------------------------------------------
 * Connections in all, and per client address (--max-per-ip)
 *
 * Each event loop has a daemon of its own, and libmicrohttpd's limits
 * would count per daemon, so the counts are kept here, for all of them: a
 * connection is refused when it is accepted (libmicrohttpd's accept policy
 * callback, which closes it at once) while the server already holds its
 * connection limit, or its address the cap; it is counted once
 * libmicrohttpd has taken it in (the connection notification), so one it
 * drops on the way is never counted. Loops accepting at the same instant
 * can let in up to one connection more than a limit per other loop.
 * ------------------------------------------------------------------------ */

/* The address as 16 bytes (IPv4 mapped into IPv6); -1 for other kinds. */
static int ip_key(const struct sockaddr *sa, unsigned char key[16])
{
    if (sa != NULL && sa->sa_family == AF_INET) {
        memset(key, 0, 10);
        key[10] = key[11] = 0xff;
        memcpy(key + 12, &((const struct sockaddr_in *)sa)->sin_addr, 4);
        return 0;
    }
    if (sa != NULL && sa->sa_family == AF_INET6) {
        memcpy(key, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
        return 0;
    }
    return -1;
}

static size_t ip_home(const struct ip_table *t, const unsigned char key[16])
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a */

    for (int i = 0; i < 16; i++)
        h = (h ^ key[i]) * 1099511628211ull;
    return (size_t)(h ^ (h >> 29)) & (t->size - 1);
}

/* The slot holding key, or the free slot where it would go. The table is
 * never full: it has over twice as many slots as connections can be open. */
static struct ip_slot *ip_find(struct ip_table *t, const unsigned char key[16])
{
    for (size_t i = ip_home(t, key);; i = (i + 1) & (t->size - 1))
        if (t->slots[i].count == 0 || memcmp(t->slots[i].addr, key, 16) == 0)
            return &t->slots[i];
}

/* Frees a slot whose count fell to 0, moving later slots of the same run
 * back so that every key stays reachable from its home slot. */
static void ip_free_slot(struct ip_table *t, size_t i)
{
    size_t mask = t->size - 1;

    for (size_t j = (i + 1) & mask; t->slots[j].count != 0; j = (j + 1) & mask) {
        size_t home = ip_home(t, t->slots[j].addr);
        int stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
        if (!stays) {
            t->slots[i] = t->slots[j];
            t->slots[j].count = 0;
            i = j;
        }
    }
}

/* libmicrohttpd's accept policy: MHD_NO closes the new connection. At the
 * hard limit a waiting connection of the loop makes room if there is one
 * (with one loop the daemon's own limit stops accepting before this). */
static enum MHD_Result on_accept(void *cls, const struct sockaddr *addr,
                                 socklen_t addrlen)
{
    struct http_loop *lp = cls;
    struct http_server *srv = lp->srv;
    struct ip_table *t = &srv->per_ip;
    unsigned char key[16];
    int ok;

    (void)addrlen;
    if (atomic_load_explicit(&srv->connections, memory_order_relaxed) >=
            (long)srv->conn_limit &&
        http_conn_make_room(lp, 1) != 0)
        return MHD_NO;
    if (t->cap == 0 || ip_key(addr, key) != 0)
        return MHD_YES;
    pthread_mutex_lock(&t->lock);
    ok = ip_find(t, key)->count < t->cap;
    pthread_mutex_unlock(&t->lock);
    return ok ? MHD_YES : MHD_NO;
}

/* Counts a connection of its address in (+1) or out (-1). */
static void ip_count(struct http_server *srv, struct MHD_Connection *conn,
                     int delta)
{
    struct ip_table *t = &srv->per_ip;
    const union MHD_ConnectionInfo *ci;
    unsigned char key[16];
    struct ip_slot *slot;

    if (t->cap == 0)
        return;
    ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (ci == NULL || ip_key(ci->client_addr, key) != 0)
        return;
    pthread_mutex_lock(&t->lock);
    slot = ip_find(t, key);
    if (delta > 0) {
        if (slot->count == 0)
            memcpy(slot->addr, key, 16);
        slot->count++;
    } else if (slot->count > 0 && --slot->count == 0) {
        ip_free_slot(t, (size_t)(slot - t->slots));
    }
    pthread_mutex_unlock(&t->lock);
}

static int ip_table_init(struct ip_table *t, unsigned cap, size_t max_open)
{
    t->cap = cap;
    t->size = 1;
    if (cap == 0)
        return 0;
    while (t->size <= 2 * max_open + 1)
        t->size *= 2;
    t->slots = calloc(t->size, sizeof(*t->slots));
    if (t->slots == NULL)
        return -1;
    pthread_mutex_init(&t->lock, NULL);
    return 0;
}

static void ip_table_free(struct ip_table *t)
{
    if (t->slots != NULL) {
        free(t->slots);
        pthread_mutex_destroy(&t->lock);
    }
}

/* ------------------------------------------------------------------------
 * Connections
 * ------------------------------------------------------------------------ */

/* Counts connections. One that opens while more than max_connections are
 * open is marked (its socket context points at the server), and while that
 * is still so its requests are answered 503 overloaded: the newest clients
 * are refused, the ones already being served are not. */
static void on_connection(void *cls, struct MHD_Connection *conn,
                          void **socket_context,
                          enum MHD_ConnectionNotificationCode code)
{
    struct http_loop *lp = cls;
    struct http_server *srv = lp->srv;
    long open;

    if (code != MHD_CONNECTION_NOTIFY_STARTED) {
        lp->closed++;
        http_conn_close(lp, *socket_context);
        *socket_context = NULL;
        atomic_fetch_sub_explicit(&lp->open, 1, memory_order_relaxed);
        ip_count(srv, conn, -1);
        atomic_fetch_sub_explicit(&srv->connections, 1, memory_order_relaxed);
        return;
    }
    ip_count(srv, conn, +1);
    atomic_fetch_add_explicit(&lp->open, 1, memory_order_relaxed);
    open = atomic_fetch_add_explicit(&srv->connections, 1,
                                     memory_order_relaxed) + 1;
    *socket_context = http_conn_open(lp, conn, open);
}

/* Opened over max_connections with no waiting connection to make room,
 * and still over it, now that its request is here: a connection still
 * waiting for one makes room if there is any (this one has shown it is
 * a client); else the request gets 503 overloaded. */
static int over_capacity(struct http_server *srv, struct request *rq)
{
    if (rq->cs == NULL || !rq->cs->over_capacity ||
        atomic_load_explicit(&srv->connections, memory_order_relaxed) <=
            (long)srv->max_connections)
        return 0;
    if (http_conn_make_room(rq->loop, 0) != 0)
        return 1;
    rq->cs->over_capacity = 0;
    return 0;
}

static int hex_value(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* Decodes %HH in paths (and query arguments) in place, like the default,
 * except %00: a NUL would end the C string early, so "/livez%00junk" would
 * be routed as "/livez". It is left as "%00", which matches no route. */
static size_t unescape(void *cls, struct MHD_Connection *conn, char *s)
{
    char *out = s;

    (void)cls, (void)conn;
    for (const char *p = s; *p; p++) {
        int hi, lo;
        if (*p == '%' && (hi = hex_value(p[1])) >= 0 &&
            (lo = hex_value(p[2])) >= 0 && (hi | lo) != 0) {
            *out++ = (char)(hi * 16 + lo);
            p += 2;
        } else {
            *out++ = *p;
        }
    }
    *out = '\0';
    return (size_t)(out - s);
}

/* libmicrohttpd's own messages (failed accepts, the connection limit, ...)
 * become warn lines of our log instead of free text on stderr. */
static void on_mhd_log(void *cls, const char *fmt, va_list ap)
{
    struct http_server *srv = cls;
    struct log_line l;
    char text[512];
    size_t n;

    vsnprintf(text, sizeof(text), fmt, ap);
    n = strlen(text);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r'))
        text[--n] = '\0';
    log_begin(&l, &srv->log, LOG_WARN, "libmicrohttpd");
    log_str(&l, "detail", text);
    log_end(&l, &srv->log);
}

/* ------------------------------------------------------------------------
 * Event loops
 *
 * Each loop is a libmicrohttpd daemon of its own, in epoll mode and
 * without a thread of the library's, run by a thread of ours, each on a
 * listening socket of its own on the same address (SO_REUSEPORT: the
 * kernel spreads the connections). Why not the library's thread pool
 * (measured here, see README, "HTTP event loops"):
 *  - its epoll loop hangs a thread when exactly 128 connections are ready
 *    at once (after a full batch of events MHD_epoll waits again, blocking);
 *    MHD_run drains the events without blocking, so here it cannot;
 *  - its poll loop walks every connection on every round, and a thread that
 *    is never idle shares a core with other busy threads in scheduler
 *    slices of milliseconds: at 2 x 64 connections half of the answers were
 *    ready in 0.2 ms and the rest waited up to 8 ms (p99 7.9 ms, nginx's 4).
 * So a loop that has found more work already waiting after YIELD_AFTER
 * rounds in a row gives the core away (sched_yield: back at once when
 * nothing else is runnable there); the other busy threads, such as a
 * client or a proxy on the same machine, then wait a few rounds of ours
 * instead of a scheduler slice. Yielding after every busy round cost more
 * than it gave with few connections: at 2 x 16, 0.9 context switches per
 * request against nginx's 0.4, and 10-17% fewer requests/s than yielding
 * after 2 or 4 rounds; at 2 x 64 the three did alike.
 * ------------------------------------------------------------------------ */

#define YIELD_AFTER 4

enum { EV_DAEMON, EV_WAKE }; /* what an event of a loop's epoll set is */

static void http_loop_wake(struct http_loop *lp)
{
    uint64_t one = 1;
    ssize_t w = write(lp->wake_fd, &one, sizeof(one));

    (void)w; /* EAGAIN: it is awake already */
}

void http_resume(struct http_loop *lp, struct MHD_Connection *conn)
{
    MHD_resume_connection(conn);
    http_loop_wake(lp);
}

/* What other threads left for the loop: stop accepting, connections to
 * take in. */
static void loop_errands(struct http_loop *lp)
{
    struct http_handoff *h;
    uint64_t n;
    ssize_t r = read(lp->wake_fd, &n, sizeof(n));

    (void)r;
    pthread_mutex_lock(&lp->lock);
    if (lp->quiesce && !lp->quiesced) {
        MHD_quiesce_daemon(lp->daemon);
        lp->quiesced = 1;
        http_conn_sweep_soon(lp); /* the idle connections go now */
        pthread_cond_broadcast(&lp->changed);
    }
    h = lp->handoff;
    lp->handoff = NULL;
    pthread_mutex_unlock(&lp->lock);
    while (h != NULL) {
        struct http_handoff *next = h->next;
        /* On failure libmicrohttpd closes the descriptor itself. */
        MHD_add_connection(lp->daemon, h->fd, (struct sockaddr *)&h->addr,
                           h->len);
        atomic_fetch_sub(&lp->pending, 1); /* counted as open now */
        free(h);
        h = next;
    }
}

static void *loop_main(void *arg)
{
    struct http_loop *lp = arg;
    struct http_server *srv = lp->srv;

    do {
        MHD_UNSIGNED_LONG_LONG left;
        struct epoll_event ev[2];
        int ms = -1; /* nothing has a deadline: wait for an event */
        unsigned long closed = lp->closed;
        int n, busy;

        int sweep_ms;

        MHD_run(lp->daemon);
        if (MHD_get_timeout(lp->daemon, &left) == MHD_YES)
            ms = left > 60000 ? 60000 : (int)left;
        sweep_ms = http_conn_sweep(lp, http_now_us());
        if (sweep_ms >= 0 && (ms < 0 || sweep_ms < ms))
            ms = sweep_ms;
        n = epoll_wait(lp->epfd, ev, 2, 0);
        /* A connection closed in this round: if the daemon had stopped
         * watching the listening socket (at its connection limit, or out
         * of descriptors), only the next round puts it back, and no event
         * would wake us for that. */
        busy = ms == 0 || n > 0 || lp->closed != closed;
        if (!busy)
            n = epoll_wait(lp->epfd, ev, 2, ms);
        for (int i = 0; i < n; i++)
            if (ev[i].data.u32 == EV_WAKE)
                loop_errands(lp);
        if (!busy)
            lp->busy_rounds = 0;
        else if (++lp->busy_rounds == YIELD_AFTER) {
            lp->busy_rounds = 0;
            sched_yield(); /* busy for a while: let others run first */
        }
    } while (!atomic_load_explicit(&srv->stopping, memory_order_acquire));
    return NULL;
}

/* A listening socket, non-blocking; -1 (errno set) on failure. With
 * `group`, one of a group sharing the address (SO_REUSEPORT). Without
 * `backlog` it is only bound, not listening. */
static int open_socket(const struct sockaddr *addr, socklen_t len, int group,
                       int backlog)
{
    int fd = socket(addr->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    int on = 1;

    if (fd < 0)
        return -1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    if (group)
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on));
    if (addr->sa_family == AF_INET6)
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof(on));
    if (bind(fd, addr, len) != 0 || (backlog && listen(fd, SOMAXCONN) != 0)) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

static uint16_t bound_port(int fd)
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof(ss);

    if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0)
        return 0;
    if (ss.ss_family == AF_INET)
        return ntohs(((struct sockaddr_in *)&ss)->sin_port);
    return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
}

/* A listening socket per loop, all on the address, so that the kernel
 * spreads new connections over the loops (by a hash of the client's
 * address and port). With one socket for all, whichever loop woke first
 * took every connection of a burst: 2 x 16 connections often all went to
 * one loop, and the other core's loop sat idle (64k requests/s instead of
 * 80-95k). A socket without SO_REUSEPORT is bound first, and let go, so
 * that an address in use is an error as before, and not a group joined
 * with another sudokud (a program of the same user that sets SO_REUSEPORT
 * on the port later can still join it). Returns 0, or -1 with errno set. */
static int open_listeners(struct http_server *srv,
                          const struct sockaddr *addr, socklen_t len)
{
    struct sockaddr_storage ss;
    int any = addr->sa_family == AF_INET
                  ? ((const struct sockaddr_in *)addr)->sin_port == 0
                  : ((const struct sockaddr_in6 *)addr)->sin6_port == 0;

    if (srv->nloops == 1)
        return (srv->loops[0].listen_fd = open_socket(addr, len, 0, 1)) < 0
                   ? -1 : 0;
    memcpy(&ss, addr, len);
    /* With port 0 another program may take the chosen port between the
     * probe and the group: then try another. */
    for (int attempt = 0;; attempt++) {
        int probe = open_socket(addr, len, 0, 0), e;
        uint16_t port;
        unsigned i;

        if (probe < 0)
            return -1;
        port = bound_port(probe); /* the one the kernel chose, for port 0 */
        close(probe);
        if (port == 0) {
            errno = EADDRNOTAVAIL;
            return -1;
        }
        if (addr->sa_family == AF_INET)
            ((struct sockaddr_in *)&ss)->sin_port = htons(port);
        else
            ((struct sockaddr_in6 *)&ss)->sin6_port = htons(port);
        for (i = 0; i < srv->nloops; i++)
            if ((srv->loops[i].listen_fd =
                     open_socket((struct sockaddr *)&ss, len, 1, 1)) < 0)
                break;
        if (i == srv->nloops)
            return 0;
        e = errno;
        while (i-- > 0) {
            close(srv->loops[i].listen_fd);
            srv->loops[i].listen_fd = -1;
        }
        errno = e;
        if (!any || e != EADDRINUSE || attempt == 4)
            return -1;
    }
}

/* Has every loop stop accepting, and waits until they have. libmicrohttpd
 * then leaves the listening sockets to us (it would otherwise close them).
 * With the threads gone, done here directly. */
static void quiesce_all(struct http_server *srv)
{
    for (unsigned i = 0; i < srv->nloops; i++) {
        struct http_loop *lp = &srv->loops[i];
        pthread_mutex_lock(&lp->lock);
        lp->quiesce = 1;
        if (!lp->running && !lp->quiesced && lp->daemon != NULL) {
            MHD_quiesce_daemon(lp->daemon);
            lp->quiesced = 1;
        }
        pthread_mutex_unlock(&lp->lock);
        if (lp->running)
            http_loop_wake(lp);
    }
    for (unsigned i = 0; i < srv->nloops; i++) {
        struct http_loop *lp = &srv->loops[i];
        pthread_mutex_lock(&lp->lock);
        while (lp->running && !lp->quiesced)
            pthread_cond_wait(&lp->changed, &lp->lock);
        pthread_mutex_unlock(&lp->lock);
    }
}

/* Ends the loops' threads, then the daemons (closing what connections
 * remain), then everything else. Safe on a half-started server. */
static void free_server(struct http_server *srv)
{
    /* A job may hold a suspended connection (a failed start can have
     * served already): its worker resumes it through a running loop. */
    http_jobs_stop(srv);
    atomic_store_explicit(&srv->stopping, 1, memory_order_release);
    for (unsigned i = 0; i < srv->nloops; i++)
        if (srv->loops[i].running)
            http_loop_wake(&srv->loops[i]);
    for (unsigned i = 0; i < srv->nloops; i++)
        if (srv->loops[i].running) {
            pthread_join(srv->loops[i].thread, NULL);
            pthread_mutex_lock(&srv->loops[i].lock);
            srv->loops[i].running = 0;
            pthread_mutex_unlock(&srv->loops[i].lock);
        }
    quiesce_all(srv);
    for (unsigned i = 0; i < srv->nloops; i++) {
        struct http_loop *lp = &srv->loops[i];
        while (lp->handoff != NULL) { /* never taken in */
            struct http_handoff *next = lp->handoff->next;
            atomic_fetch_sub(&lp->pending, 1);
            close(lp->handoff->fd);
            free(lp->handoff);
            lp->handoff = next;
        }
        if (lp->daemon != NULL)
            MHD_stop_daemon(lp->daemon);
        if (lp->listen_fd >= 0) /* quiesced: the daemon left it to us */
            close(lp->listen_fd);
        if (lp->epfd >= 0)
            close(lp->epfd);
        if (lp->wake_fd >= 0)
            close(lp->wake_fd);
        pthread_cond_destroy(&lp->changed);
        pthread_mutex_destroy(&lp->lock);
    }
    free(srv->loops);
    http_jobs_free(srv);
    log_buffer_stop(srv->log.buffer);
    ip_table_free(&srv->per_ip);
    metrics_destroy(srv->metrics);
    free(srv);
}

/* Sets loop i up: its daemon on its listening socket and its epoll
 * set (the daemon's descriptor and wake_fd); the thread comes later. */
static int make_loop(struct http_server *srv, unsigned i,
                     const struct config *cfg, unsigned limit)
{
    struct http_loop *lp = &srv->loops[i];
    const union MHD_DaemonInfo *info;
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = EV_DAEMON};
    struct epoll_event wake = {.events = EPOLLIN, .data.u32 = EV_WAKE};
    unsigned flags = MHD_USE_EPOLL | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME;

    lp->daemon = MHD_start_daemon(
        flags, 0, on_accept, lp, on_request, lp,
        MHD_OPTION_EXTERNAL_LOGGER, on_mhd_log, srv, /* first, so it sees all */
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)lp->listen_fd,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)cfg->timeout,
        MHD_OPTION_CONNECTION_LIMIT, limit,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, srv,
        MHD_OPTION_NOTIFY_CONNECTION, on_connection, lp,
        MHD_OPTION_UNESCAPE_CALLBACK, unescape, srv,
        MHD_OPTION_URI_LOG_CALLBACK, on_uri, lp, /* makes the request */
        /* Each connection's buffer for headers and body chunks. The library
         * clears all of it between requests, so its size is paid on every
         * request: the default 32 KiB cost about 1 us; 16 KiB still takes
         * headers of about 15 KiB (more gets 431). */
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)16384,
        MHD_OPTION_END);
    if (lp->daemon == NULL) {
        /* Some of libmicrohttpd's failure paths close the socket it was
         * given: then it is not ours to close again. The threads started so
         * far (the job pool, the log writer) open no descriptors, so the
         * number cannot have been reused. */
        if (fcntl(lp->listen_fd, F_GETFD) < 0)
            lp->listen_fd = -1;
        return -1;
    }
    info = MHD_get_daemon_info(lp->daemon, MHD_DAEMON_INFO_EPOLL_FD);
    lp->epfd = epoll_create1(EPOLL_CLOEXEC);
    if (info == NULL || lp->epfd < 0 || lp->wake_fd < 0 ||
        epoll_ctl(lp->epfd, EPOLL_CTL_ADD, info->epoll_fd, &ev) != 0 ||
        epoll_ctl(lp->epfd, EPOLL_CTL_ADD, lp->wake_fd, &wake) != 0)
        return -1;
    return 0;
}

static int run_loop(struct http_loop *lp)
{
    if (pthread_create(&lp->thread, NULL, loop_main, lp) != 0)
        return -1;
    pthread_setname_np(lp->thread, "http-loop");
    pthread_mutex_lock(&lp->lock);
    lp->running = 1;
    pthread_mutex_unlock(&lp->lock);
    return 0;
}

enum http_status http_server_start(const struct config *cfg,
                                   struct http_server **out, char *err,
                                   size_t errlen)
{
    struct sockaddr_in in4;
    struct sockaddr_in6 in6;
    const struct sockaddr *addr;
    socklen_t addrlen;
    struct http_server *srv;
    /* Past max_connections we still accept a few more, to answer them 503
     * at once; past those, new connections are closed at once (on_accept).
     * Each loop's daemon may take them all: the kernel decides which loop's
     * socket a client reaches, and a daemon at a limit of its own would
     * leave the clients hashed to it waiting in its backlog however much
     * room the other loops had. With one loop the daemon's own limit comes
     * first: clients then wait in the backlog until a connection closes. */
    const unsigned wanted = cfg->max_connections + 16 + cfg->max_connections / 8;
    unsigned limit = wanted;
    unsigned nloops = cfg->threads > 0 ? cfg->threads : 1;
    struct rlimit fds;

    /* A descriptor per connection: raise the soft limit as far as allowed
     * (1024 in many shells), and keep the connection limit under it, with
     * room for the rest of the process, so that accept() does not fail
     * with EMFILE (libmicrohttpd then stops watching the socket for a
     * while, or retries it in a loop). */
    if (getrlimit(RLIMIT_NOFILE, &fds) == 0) {
        if (fds.rlim_cur < fds.rlim_max) {
            fds.rlim_cur = fds.rlim_max;
            setrlimit(RLIMIT_NOFILE, &fds);
            getrlimit(RLIMIT_NOFILE, &fds);
        }
        if (fds.rlim_cur != RLIM_INFINITY && fds.rlim_cur < (rlim_t)limit + 64 + 4 * nloops)
            limit = fds.rlim_cur > 64 + 4 * nloops + 16
                        ? (unsigned)(fds.rlim_cur - 64 - 4 * nloops) : 16;
    }

    memset(&in4, 0, sizeof(in4));
    memset(&in6, 0, sizeof(in6));
    if (inet_pton(AF_INET, cfg->bind, &in4.sin_addr) == 1) {
        in4.sin_family = AF_INET;
        in4.sin_port = htons(cfg->port);
        addr = (const struct sockaddr *)&in4;
        addrlen = sizeof(in4);
    } else if (inet_pton(AF_INET6, cfg->bind, &in6.sin6_addr) == 1) {
        in6.sin6_family = AF_INET6;
        in6.sin6_port = htons(cfg->port);
        addr = (const struct sockaddr *)&in6;
        addrlen = sizeof(in6);
    } else {
        snprintf(err, errlen, "bind address '%s' is not an IPv4 or IPv6 address",
                 cfg->bind);
        return HTTP_BAD_ADDRESS;
    }
    srv = calloc(1, sizeof(*srv));
    if (srv == NULL) {
        snprintf(err, errlen, "out of memory");
        return HTTP_NO_MEMORY;
    }
    atomic_init(&srv->stopping, 0);
    atomic_init(&srv->draining, 0);
    atomic_init(&srv->connections, 0);
    atomic_init(&srv->buffered, 0);
    atomic_init(&srv->next_id, 0);
    srv->metrics = metrics_create(api_route_labels, API_NROUTES, cfg->version);
    srv->loops = calloc(nloops, sizeof(*srv->loops));
    if (srv->loops != NULL) {
        srv->nloops = nloops;
        for (unsigned i = 0; i < nloops; i++) {
            struct http_loop *lp = &srv->loops[i];
            lp->srv = srv;
            lp->epfd = -1;
            lp->listen_fd = -1;
            atomic_init(&lp->open, 0);
            atomic_init(&lp->pending, 0);
            lp->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
            pthread_mutex_init(&lp->lock, NULL);
            pthread_cond_init(&lp->changed, NULL);
        }
    }
    if (srv->metrics == NULL || srv->loops == NULL ||
        ip_table_init(&srv->per_ip, cfg->max_per_ip, limit + nloops) != 0) {
        free_server(srv);
        snprintf(err, errlen, "out of memory");
        return HTTP_NO_MEMORY;
    }
    srv->api.max_nodes = cfg->max_nodes;
    srv->api.max_killer_nodes = cfg->max_killer_nodes;
    srv->api.max_body = cfg->max_body;
    snprintf(srv->cors_origins, sizeof(srv->cors_origins), "%s",
             cfg->cors_origins);
    srv->api.cors_origins = srv->cors_origins;
    srv->api.max_batch = cfg->max_batch;
    srv->api.max_batch_body = cfg->max_batch_body;
    srv->api.max_batch_nodes = cfg->max_batch_nodes;
    srv->api.metrics = srv->metrics;
    srv->log.fd = 1;
    srv->log.level = (enum log_level)cfg->log_level;
    srv->access_log = cfg->access_log;
    /* Buffered, so that no request waits on stdout (a full pipe drops
     * lines, counted in the metrics) nor pays a write(2) for its access
     * line; written out at least every 200 ms. */
    srv->log.buffer = log_buffer_start(1, 200);
    metrics_watch_log(srv->metrics, srv->log.buffer);

    srv->max_connections = cfg->max_connections;
    srv->header_timeout_us = (uint64_t)cfg->header_timeout * 1000000u;
    srv->body_min_rate = cfg->body_min_rate;
    srv->max_buffered = cfg->max_buffered;
    if (limit < wanted) {
        struct log_line l;
        log_begin(&l, &srv->log, LOG_WARN, "connection limit lowered");
        log_str(&l, "detail", "the open-files limit (ulimit -n) is too low for --max-connections");
        log_num(&l, "connections", limit);
        log_end(&l, &srv->log);
    }
    if (getrandom(&srv->boot_id, sizeof(srv->boot_id), GRND_NONBLOCK) !=
        (ssize_t)sizeof(srv->boot_id))
        srv->boot_id = (uint32_t)time(NULL) ^ (uint32_t)getpid();
    if (open_listeners(srv, addr, addrlen) != 0) {
        snprintf(err, errlen, "cannot listen on %s port %u: %s (in use, or not "
                 "an address of this machine?)", cfg->bind, (unsigned)cfg->port,
                 strerror(errno));
        free_server(srv);
        return HTTP_START_FAILED;
    }
    srv->port = bound_port(srv->loops[0].listen_fd);
    /* The job pool first: the loops may submit at once. */
    if (http_jobs_start(srv, cfg->batch_workers, cfg->batch_queue) != 0) {
        snprintf(err, errlen, "cannot start the job pool's threads");
        free_server(srv);
        return HTTP_START_FAILED;
    }
    /* Every daemon before any thread, so that nothing runs on a half-made
     * server. */
    srv->conn_limit = limit;
    for (unsigned i = 0; i < nloops; i++) {
        if (make_loop(srv, i, cfg, limit) != 0) {
            snprintf(err, errlen, "cannot start the HTTP event loops: %s",
                     strerror(errno));
            free_server(srv);
            return HTTP_START_FAILED;
        }
    }
    for (unsigned i = 0; i < nloops; i++) {
        if (run_loop(&srv->loops[i]) != 0) {
            snprintf(err, errlen, "cannot start the HTTP event loops' threads");
            free_server(srv);
            return HTTP_START_FAILED;
        }
    }
    *out = srv;
    return HTTP_OK;
}

uint16_t http_server_port(const struct http_server *srv)
{
    return srv->port;
}

long http_server_in_flight(const struct http_server *srv)
{
    return metrics_in_flight(srv->metrics);
}

long http_server_connections(const struct http_server *srv)
{
    return atomic_load(&srv->connections);
}

/* Makes the kernel drop new connection requests (a TCP segment with SYN
 * and without ACK) to a listening socket, so the backlog stops growing
 * while it is taken in; handshakes already under way still complete into
 * it. Without this a client whose handshake completed between the last
 * accept and the shutdown was reset with its request already sent (a
 * request or two in 20,000 in the SIGTERM load test, in about 1 run of
 * 15). A client dropped here retries its SYN and is then refused. The
 * filter sees each segment from its TCP header on: byte 13 holds the
 * flags. The window is kept very short (0.2 ms, room for a handshake on
 * loopback): a gateway whose connect lands in it waits for its connect
 * timeout and marks the replica failed, and with 5 ms that happened often
 * enough in the gateway test's rolling restart (2 runs in 7) to leave
 * nginx with no live upstream for a moment. */
static void refuse_new(int fd)
{
    struct sock_filter syn_only[] = {
        BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 13),
        BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0x12), /* SYN | ACK */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x02, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, 0),              /* SYN alone: dropped */
        BPF_STMT(BPF_RET | BPF_K, 0xFFFFFFFFu),    /* the rest: kept */
    };
    struct sock_fprog prog = {sizeof(syn_only) / sizeof(syn_only[0]), syn_only};

    setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog));
}

/* The loop with the fewest connections, counting those handed to it and
 * not taken in yet. */
static struct http_loop *emptiest_loop(struct http_server *srv)
{
    struct http_loop *best = &srv->loops[0];
    long least = -1;

    for (unsigned i = 0; i < srv->nloops; i++) {
        struct http_loop *lp = &srv->loops[i];
        long n = atomic_load(&lp->open) + atomic_load(&lp->pending);
        if (least < 0 || n < least)
            best = lp, least = n;
    }
    return best;
}

/* Accepts every connection waiting in the backlog of a listening socket
 * and hands each to the emptiest loop, oldest first. */
static void take_backlog(struct http_server *srv, int listen_fd)
{
    for (;;) {
        struct http_loop *lp;
        struct http_handoff *h = malloc(sizeof(*h)), **end;
        if (h == NULL)
            return;
        do {
            h->len = sizeof(h->addr);
            h->fd = accept4(listen_fd, (struct sockaddr *)&h->addr,
                            &h->len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        } while (h->fd < 0 && (errno == ECONNABORTED || errno == EINTR));
        if (h->fd < 0) { /* EAGAIN: the backlog is empty */
            free(h);
            return;
        }
        h->next = NULL;
        lp = emptiest_loop(srv);
        atomic_fetch_add(&lp->pending, 1);
        pthread_mutex_lock(&lp->lock);
        for (end = &lp->handoff; *end != NULL; end = &(*end)->next)
            ;
        *end = h;
        pthread_mutex_unlock(&lp->lock);
        http_loop_wake(lp);
    }
}

long http_server_drain(struct http_server *srv, unsigned timeout_ms)
{
    const struct timespec tick = {0, 5 * 1000 * 1000};
    long left;

    atomic_store(&srv->draining, 1);
    if (!srv->draining_started) {
        /* Quiescing only stops the loops' accept(); the kernel still
         * completes handshakes into the backlog. Those clients connected
         * before we stopped, so they are taken in and served (with
         * Connection: close) rather than reset. Then shutting the listening
         * sockets down makes Linux refuse new connections at once, so a
         * gateway retries elsewhere. The descriptors themselves stay open
         * until the daemons are stopped. */
        const struct timespec settle = {0, 200 * 1000};
        srv->draining_started = 1;
        quiesce_all(srv);
        for (unsigned i = 0; i < srv->nloops; i++)
            refuse_new(srv->loops[i].listen_fd);
        for (unsigned i = 0; i < srv->nloops; i++)
            take_backlog(srv, srv->loops[i].listen_fd);
        nanosleep(&settle, NULL); /* handshakes under way complete */
        for (unsigned i = 0; i < srv->nloops; i++) {
            take_backlog(srv, srv->loops[i].listen_fd);
            shutdown(srv->loops[i].listen_fd, SHUT_RDWR);
        }
    }
    /* Every answer now closes its connection, so connections go away as
     * their last request is answered; idle ones go at the idle timeout. Not
     * waiting for them would reset a request that is on its way. */
    for (unsigned waited = 0;; waited += 5) {
        /* A connection handed to a loop counts as open once the loop took
         * it in, and only then leaves the handoff count: read that first. */
        long handed = 0;
        for (unsigned i = 0; i < srv->nloops; i++)
            handed += atomic_load(&srv->loops[i].pending);
        left = http_server_in_flight(srv);
        if (handed == 0 && http_server_connections(srv) == 0)
            return left;
        if (waited >= timeout_ms) {
            /* The deadline: running jobs stop between two puzzles and
             * answer the rest shutting_down, so the stop is bounded. */
            http_jobs_halt(srv);
            return left;
        }
        nanosleep(&tick, NULL);
    }
}

long http_server_stop(struct http_server *srv)
{
    const struct timespec tick = {0, 5 * 1000 * 1000};
    long cut;

    if (srv == NULL)
        return 0;
    http_jobs_stop(srv); /* resumes every suspended connection first */
    /* Give the answers the workers just finished a moment to go out. */
    for (int i = 0; i < 200 && http_server_in_flight(srv) > 0; i++)
        nanosleep(&tick, NULL);
    cut = http_server_in_flight(srv);
    free_server(srv);
    return cut;
}
