/* http.c - a request's life: libmicrohttpd calls the access handler
 * several times per request: first with the headers only (the state, made
 * by http_on_uri, is started and the framing judged), then with body
 * chunks (copied up to the route's limit and the --max-buffered budget,
 * the rest dropped), then with no data (answered, or handed to the job
 * pool). The completed callback logs, counts and frees. */
#include "http.h"

#include <arpa/inet.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api.h"
#include "clock.h"
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

/* Answers up to this size are timed by the sweep, not the library (see
 * respond): far below any socket's send buffer. */
#define SMALL_ANSWER 8192

static void add_cors_headers(struct MHD_Response *resp,
                             const struct api_response *r)
{
    if (r->vary_origin)
        MHD_add_response_header(resp, "Vary", "Origin");
    if (r->cors_origin == NULL)
        return;
    MHD_add_response_header(resp, "Access-Control-Allow-Origin",
                            r->cors_origin);
    if (r->cors_methods == NULL) {
        MHD_add_response_header(resp, "Access-Control-Expose-Headers",
                                "X-Request-Id");
        return;
    }
    char age[16];
    snprintf(age, sizeof(age), "%d", r->cors_max_age);
    MHD_add_response_header(resp, "Access-Control-Allow-Methods",
                            r->cors_methods);
    MHD_add_response_header(resp, "Access-Control-Allow-Headers",
                            r->cors_headers);
    MHD_add_response_header(resp, "Access-Control-Max-Age", age);
}

/* Sends r, the answer to rq: records what is answered (for the log and
 * the metrics), makes libmicrohttpd's response with every header, and
 * queues it. The words of this file: a request is *answered* by the api
 * (answer), or *deferred* to the job pool (defer) whose worker makes the
 * answer; either way it is *responded* to here. */
static enum MHD_Result respond(struct http_server *srv,
                               struct MHD_Connection *conn,
                               struct http_request *rq,
                               const struct api_response *r)
{
    const char *id = rq->id;
    /* a batch's answer, streamed by its worker (which counts its bytes) */
    int stream = rq->job && rq->job->stream;
    struct MHD_Response *resp;
    enum MHD_Result ret;

    rq->status = r->status;
    rq->bytes = stream ? 0 : r->body_len;
    rq->route = r->route;
    if (stream)
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
    if (r->allow != NULL)
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
    /* While the answer goes out a client that reads none of it for
     * --timeout is closed. A small one fits the socket's buffers, so it
     * is gone at once unless the client reads nothing at all: the sweep
     * (http_conn.c) gives it --timeout, and libmicrohttpd's timer, whose
     * every switch costs a walk of its connection list, stays off. A
     * large or streamed one may take long at a fair pace: the library's
     * timer, which counts from the last bytes sent, judges it. */
    if (rq->cs != NULL && !stream && r->body_len <= SMALL_ANSWER) {
        http_conn_enter(rq->loop, rq->cs, HTTP_CONN_SENDING,
                        rq->loop->round_us);
    } else if (rq->cs == NULL || !rq->cs->timed) {
        MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT,
                                  srv->timeout_s);
        if (rq->cs != NULL)
            rq->cs->timed = 1;
    }
    return ret;
}

static const char *header(struct MHD_Connection *conn, const char *name)
{
    return MHD_lookup_connection_value(conn, MHD_HEADER_KIND, name);
}

static int defer(struct http_server *srv, struct MHD_Connection *conn,
                 struct http_request *rq, enum http_pool_kind kind);

/* Has the api answer rq now, and responds. queue_full: a job found its
 * pool full (503 busy). A request that needs more than the loop's slice
 * goes to the request workers (or gets 503 busy when they are full). */
static enum MHD_Result answer(struct http_server *srv,
                              struct MHD_Connection *conn, const char *url,
                              const char *method, struct http_request *rq,
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
        .trace_id = rq->trace_id[0] ? rq->trace_id : NULL,
        .overloaded = http_over_capacity(srv, rq),
        .queue_full = queue_full,
        .memory_full = rq->no_room,
        .answer = rq->answer,
        .refused = http_refusal(rq->refused),
    };
    struct api_response resp;

    /* A refused request's framing cannot be trusted, and the rest of an
     * oversized body is not read: either way, whatever follows on the
     * connection is not a request. */
    if (rq->refused != HTTP_REFUSE_NONE || rq->too_large)
        rq->close = 1;
    api_handle(&srv->api_loop, &req, &resp);
    if (resp.defer) {
        if (defer(srv, conn, rq, HTTP_POOL_REQUESTS) == 0)
            return MHD_YES;
        req.queue_full = 1;
        api_handle(&srv->api_loop, &req, &resp);
    }
    return respond(srv, conn, rq, &resp);
}

/* Defers a request to pool `kind`: its request is copied into rq (the
 * worker must not read libmicrohttpd's strings) and the connection is
 * suspended until the worker resumes it with rq->resp filled. Returns -1,
 * touching nothing but rq->job (kept for next time), when the queue is
 * full or memory ran out. */
static int defer(struct http_server *srv, struct MHD_Connection *conn,
                 struct http_request *rq, enum http_pool_kind kind)
{
    const union MHD_ConnectionInfo *ci;

    if ((rq->job == NULL && (rq->job = calloc(1, sizeof(*rq->job))) == NULL) ||
        http_jobs_reserve(srv, kind) != 0)
        return -1;
    rq->job->api = (struct api_request){
        .method = rq->method,
        .path = rq->path,
        .content_type =
            copy_header(&rq->job->content_type, rq->hdr.content_type),
        .body = rq->body,
        .body_len = rq->len,
        .origin = copy_header(&rq->job->origin, rq->hdr.origin),
        .request_id = rq->id,
        .trace_id = rq->trace_id[0] ? rq->trace_id : NULL,
        .answer = rq->answer,
    };
    rq->job->conn = conn;
    ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    rq->job->fd = ci != NULL ? ci->connect_fd : -1;
    rq->state = HTTP_REQUEST_QUEUED;
    MHD_suspend_connection(conn);
    http_jobs_push(srv, kind, rq);
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
static void drop_body(struct http_server *srv, struct http_request *rq)
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
static int grow_body(struct http_request *rq, size_t need, size_t max)
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
static void append(struct http_server *srv, struct http_request *rq,
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
        rq->too_large =
            1; /* treat like an oversized body: answer, keep nothing */
        drop_body(srv, rq);
        return;
    }
    memcpy(rq->body + rq->len, data, size);
    rq->len += size;
}

/* 16 hex digits: the server's random boot id, then the request counter.
 * Each loop counts its own requests, its number in the low digits (loop
 * i of n makes i, i + n, i + 2n, ...), so that the loops share no counter
 * and the ids still differ. */
static void make_id(char out[17], struct http_loop *lp)
{
    static const char hex[] = "0123456789abcdef";
    struct http_server *srv = lp->srv;
    uint32_t boot = srv->boot_id;
    uint32_t seq = lp->next_seq++ * srv->nloops + (uint32_t)(lp - srv->loops);

    for (int i = 0; i < 8; i++) {
        out[i] = hex[(boot >> (28 - 4 * i)) & 15];
        out[8 + i] = hex[(seq >> (28 - 4 * i)) & 15];
    }
    out[16] = '\0';
}

/* n lowercase hex digits at s; with `nonzero`, not all of them 0. */
static int is_hex(const char *s, size_t n, int nonzero)
{
    int seen = !nonzero;

    for (size_t i = 0; i < n; i++) {
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
        seen |= s[i] != '0';
    }
    return seen;
}

/* Keeps the trace id and parent id of a valid W3C traceparent
 * (https://www.w3.org/TR/trace-context/#traceparent-header):
 * VERSION-TRACEID-PARENTID-FLAGS, 2, 32, 16 and 2 lowercase hex digits,
 * neither id all zeros, version ff invalid; version 00 is exactly 55
 * characters, a later version may go on after a '-'. Anything else is
 * ignored, as the spec asks: the request then has no trace context. */
static void take_traceparent(struct http_request *rq, const char *tp)
{
    size_t n = tp ? strlen(tp) : 0;

    rq->trace_id[0] = rq->parent_id[0] = '\0';
    if (n < 55 || !is_hex(tp, 2, 0) || tp[2] != '-' || !is_hex(tp + 3, 32, 1) ||
        tp[35] != '-' || !is_hex(tp + 36, 16, 1) || tp[52] != '-' ||
        !is_hex(tp + 53, 2, 0))
        return;
    if (memcmp(tp, "ff", 2) == 0 || (memcmp(tp, "00", 2) == 0 && n != 55) ||
        (n > 55 && tp[55] != '-'))
        return;
    memcpy(rq->trace_id, tp + 3, 32);
    rq->trace_id[32] = '\0';
    memcpy(rq->parent_id, tp + 36, 16);
    rq->parent_id[16] = '\0';
}

/* Keeps the client's X-Request-Id when it is 1-128 visible ASCII
 * characters; otherwise makes one. */
static void start_request(struct http_server *srv, const char *method,
                          const char *url, struct http_request *rq)
{
    const char *id = rq->hdr.id;
    size_t n = id ? strlen(id) : 0;
    int sane = n > 0 && n <= HTTP_REQUEST_ID_MAX;

    for (size_t i = 0; sane && i < n; i++)
        sane = id[i] > ' ' && id[i] < 0x7f;
    if (sane)
        memcpy(rq->id, id, n + 1);
    else
        make_id(rq->id, rq->loop);
    take_traceparent(rq, rq->hdr.traceparent);
    http_copy_cut(rq->method, method, sizeof(rq->method));
    http_copy_cut(rq->path, url, sizeof(rq->path));
    rq->route = API_NROUTES;
    rq->start_us = clock_now_us();
    metrics_request_begin(srv->metrics);
}

/* The first call: the headers are in. Starts the request, judges its
 * framing and its declared size; MHD_YES to read the body, or the early
 * answer (libmicrohttpd then skips the body, or never sends "100
 * Continue", and closes the connection). */
static enum MHD_Result begin(struct http_loop *lp, struct MHD_Connection *conn,
                             const char *url, const char *method,
                             const char *version, struct http_request *rq)
{
    struct http_server *srv = lp->srv;
    unsigned long long n;

    rq->begun = 1;
    rq->cs = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT)
                 ->socket_context;
    /* The request is in: from here until its answer is queued no timer
     * of the library's may close it (http_conn.c judges the body). */
    if (rq->cs == NULL || rq->cs->timed) {
        MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT, 0);
        if (rq->cs != NULL)
            rq->cs->timed = 0;
    }
    http_read_headers(conn, method, version, &rq->hdr);
    start_request(srv, method, url, rq);
    rq->limit = api_body_limit(&srv->api, url);
    http_conn_enter(lp, rq->cs, HTTP_CONN_BODY, rq->start_us);
    if (rq->refused == HTTP_REFUSE_NONE)
        rq->refused = http_judge(rq, url, method, version);
    n = declared_length(rq->hdr.content_length);
    if (rq->refused != HTTP_REFUSE_NONE)
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
    if (rq->refused == HTTP_REFUSE_NONE && !rq->too_large && !rq->no_room)
        return MHD_YES;
    http_conn_enter(lp, rq->cs, HTTP_CONN_BUSY, rq->start_us);
    return answer(srv, conn, url, method, rq, 0);
}

/* A chunk of the body: kept (or dropped once the request is refused or
 * answered); MHD_NO closes the connection. */
static enum MHD_Result body(struct http_server *srv, struct http_request *rq,
                            const char *data, size_t *size)
{
    http_conn_body(rq->cs, *size, rq->loop->round_us);
    if (rq->status != 0) { /* answered early: drop the rest */
        *size = 0;
        return MHD_YES;
    }
    append(srv, rq, data, *size, rq->limit);
    if (rq->too_large || rq->no_room)
        rq->dropped += *size;
    *size = 0;
    /* A body without Content-Length passed the limit: it is read and
     * dropped so that the client, once it has sent it all, can read the
     * 413 (answering while it still sends would reset the connection under
     * its feet, and libmicrohttpd 0.9.75 refuses an answer queued during an
     * upload anyway). Past HTTP_DRAIN_MAX more the connection is closed without
     * an answer. A body that found the budget spent is drained the same
     * way, for its 503, up to the route's limit. */
    if (rq->dropped > (rq->too_large ? HTTP_DRAIN_MAX : rq->limit)) {
        rq->status = 0;
        metrics_connection_closed(srv->metrics, METRICS_CLOSE_TOO_LARGE);
        return MHD_NO;
    }
    return MHD_YES;
}

enum MHD_Result http_on_request(void *cls, struct MHD_Connection *conn,
                                const char *url, const char *method,
                                const char *version, const char *upload_data,
                                size_t *upload_data_size, void **con_cls)
{
    struct http_loop *lp = cls;
    struct http_server *srv = lp->srv;
    struct http_request *rq = *con_cls;
    enum api_place place;

    if (rq == NULL) /* http_on_uri ran out of memory */
        return MHD_NO;
    if (!rq->begun)
        return begin(lp, conn, url, method, version, rq);
    if (*upload_data_size != 0)
        return body(srv, rq, upload_data, upload_data_size);
    http_conn_enter(lp, rq->cs, HTTP_CONN_BUSY, rq->start_us);
    if (rq->state == HTTP_REQUEST_DONE) { /* resumed: the worker's answer */
        rq->state = HTTP_REQUEST_READING;
        return respond(srv, conn, rq, &rq->job->resp);
    }
    if (rq->status != 0)
        return MHD_YES;
    /* A worker's request goes to its pool unless it can be answered at
     * once: too large, or from a connection over the cap (503
     * overloaded). */
    place = api_place(method, url);
    if (place != API_ON_LOOP && !rq->too_large && !rq->no_room &&
        !http_over_capacity(srv, rq))
        return defer(srv, conn, rq,
                     place == API_ON_LONG ? HTTP_POOL_LONG
                                          : HTTP_POOL_REQUESTS) == 0
                   ? MHD_YES
                   : answer(srv, conn, url, method, rq, 1);
    return answer(srv, conn, url, method, rq, 0);
}

/* The client's address of conn as text in out[cap] ("" if unknown). */
static const char *remote_text(struct MHD_Connection *conn, char *out,
                               size_t cap)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);

    out[0] = '\0';
    if (ci != NULL && ci->client_addr != NULL) {
        const struct sockaddr *sa = ci->client_addr;
        if (sa->sa_family == AF_INET)
            inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out,
                      (socklen_t)cap);
        else if (sa->sa_family == AF_INET6)
            inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr,
                      out, (socklen_t)cap);
    }
    return out;
}

static void log_access(struct http_server *srv, struct MHD_Connection *conn,
                       const struct http_request *rq, uint64_t took,
                       enum MHD_RequestTerminationCode toe)
{
    char own[INET6_ADDRSTRLEN];
    const char *addr;
    struct log_line l;

    /* Once per connection: its keep-alive requests share the text. */
    addr = rq->cs != NULL ? rq->cs->remote : NULL;
    if (addr == NULL) {
        addr = remote_text(conn, own, sizeof(own));
        if (rq->cs != NULL)
            rq->cs->remote = strdup(own); /* NULL: made again next time */
    }
    log_begin(&l, &srv->log, LOG_INFO, "request");
    log_str(&l, "request_id", rq->id);
    if (rq->trace_id[0] != '\0') {
        log_str(&l, "trace_id", rq->trace_id);
        log_str(&l, "parent_id", rq->parent_id);
    }
    log_str(&l, "method", rq->method);
    log_str(&l, "path", rq->path);
    log_num(&l, "status", rq->status);
    log_num(&l, "bytes", (long long)rq->bytes);
    log_num(&l, "duration_us", (long long)took);
    log_str(&l, "remote", addr);
    log_str(&l, "user_agent", header(conn, MHD_HTTP_HEADER_USER_AGENT));
    if (toe != MHD_REQUEST_TERMINATED_COMPLETED_OK)
        log_str(&l, "aborted",
                toe == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED
                    ? "timeout"
                    : "connection closed");
    log_end(&l, &srv->log);
}

void http_on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                       enum MHD_RequestTerminationCode toe)
{
    struct http_server *srv = cls;
    struct http_request *rq = *con_cls;
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
            http_request_give(rq->loop, rq);
            *con_cls = NULL;
            return;
        }
        make_id(rq->id, rq->loop);
        metrics_request_begin(srv->metrics);
    }
    now = clock_now_us();
    took = now - rq->start_us;
    if (rq->cs != NULL) /* the next request's headers are due from now */
        http_conn_enter(rq->loop, rq->cs, HTTP_CONN_WAITING, now);
    if (toe == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED)
        metrics_connection_closed(srv->metrics, METRICS_CLOSE_SEND_TIMEOUT);
    else if (toe == MHD_REQUEST_TERMINATED_COMPLETED_OK &&
             (rq->cs == NULL || rq->cs->timed)) {
        MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT, 0);
        if (rq->cs != NULL)
            rq->cs->timed = 0;
    }
    metrics_request_end(srv->metrics, rq->method, rq->route, rq->status, took);
    if (srv->access_log)
        log_access(srv, conn, rq, took, toe);
    /* Resumed but never answered (the client went away first): what the
     * worker made for it is ours to let go. */
    if (rq->job && rq->state == HTTP_REQUEST_DONE) {
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
    http_request_give(rq->loop, rq);
    *con_cls = NULL;
}

/* A loop keeps at most this many finished requests: more than it has
 * under way at once in a round, however many connections it holds (a
 * request lives from its request line to its answer's last byte). */
#define SPARES_MAX 32

struct http_request *http_request_take(struct http_loop *lp)
{
    struct http_request *rq = lp->spare;

    if (rq != NULL) {
        lp->spare = rq->spare;
        lp->nspare--;
    } else if ((rq = malloc(sizeof(*rq))) == NULL) {
        return NULL;
    }
    memset(rq, 0, offsetof(struct http_request, inline_body));
    rq->loop = lp;
    return rq;
}

void http_request_give(struct http_loop *lp, struct http_request *rq)
{
    if (lp->nspare >= SPARES_MAX) {
        free(rq);
        return;
    }
    rq->spare = lp->spare;
    lp->spare = rq;
    lp->nspare++;
}

void http_request_spares_free(struct http_loop *lp)
{
    while (lp->spare != NULL) {
        struct http_request *next = lp->spare->spare;
        free(lp->spare);
        lp->spare = next;
    }
    lp->nspare = 0;
}
