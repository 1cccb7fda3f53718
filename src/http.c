/* http.c - libmicrohttpd glue: per-request state, a bounded body buffer, and
 * one call into api_handle per request.
 * libmicrohttpd calls the access handler several times per request: first
 * with the headers only (we allocate the state), then with body chunks (we
 * copy up to max_body and drop the rest), then with no data (we answer).
 * State is freed in the completed callback, which also ends "in flight". */
#include "http.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api.h"

struct http_server {
    struct MHD_Daemon *daemon;
    struct api_context api;
    size_t max_body;
    atomic_int draining;
    atomic_long in_flight;
    MHD_socket quiesced_fd;  /* listening socket, closed after the stop */
};

/* One request between its first and its completed callback. */
struct request {
    char *body;
    size_t len, cap;
    int too_large;
};

/* ------------------------------------------------------------------------
 * Requests
 * ------------------------------------------------------------------------ */

static enum MHD_Result queue(struct http_server *srv,
                             struct MHD_Connection *conn,
                             const struct api_response *r)
{
    struct MHD_Response *resp;
    enum MHD_Result ret;

    if (r->body_owned)
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
    if (atomic_load_explicit(&srv->draining, memory_order_relaxed))
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
    ret = MHD_queue_response(conn, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ret;
}

static enum MHD_Result answer(struct http_server *srv,
                              struct MHD_Connection *conn, const char *url,
                              const char *method, const struct request *rq)
{
    struct api_request req = {
        .method = method,
        .path = url,
        .content_type = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                                    MHD_HTTP_HEADER_CONTENT_TYPE),
        .body = rq->body,
        .body_len = rq->len,
        .body_too_large = rq->too_large,
        .draining = atomic_load_explicit(&srv->draining, memory_order_relaxed),
    };
    struct api_response resp;

    api_handle(&srv->api, &req, &resp);
    return queue(srv, conn, &resp);
}

/* Declared Content-Length larger than the limit? */
static int declared_too_large(struct MHD_Connection *conn, size_t max)
{
    const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                                 MHD_HTTP_HEADER_CONTENT_LENGTH);
    char *end;
    unsigned long long n;

    if (cl == NULL)
        return 0;
    n = strtoull(cl, &end, 10);
    return end != cl && n > max;
}

/* Appends a chunk, growing the buffer up to max; past it, keeps nothing. */
static void append(struct request *rq, const char *data, size_t size,
                   size_t max)
{
    if (rq->too_large)
        return;
    if (size > max - rq->len) {
        rq->too_large = 1;
        free(rq->body);
        rq->body = NULL;
        rq->len = rq->cap = 0;
        return;
    }
    if (rq->len + size > rq->cap) {
        size_t cap = rq->cap ? rq->cap : 1024;
        char *p;
        while (cap < rq->len + size)
            cap *= 2;
        if (cap > max)
            cap = max;
        p = realloc(rq->body, cap);
        if (p == NULL) { /* treat like an oversized body: answer, keep nothing */
            rq->too_large = 1;
            free(rq->body);
            rq->body = NULL;
            rq->len = rq->cap = 0;
            return;
        }
        rq->body = p;
        rq->cap = cap;
    }
    memcpy(rq->body + rq->len, data, size);
    rq->len += size;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn,
                                  const char *url, const char *method,
                                  const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
    struct http_server *srv = cls;
    struct request *rq = *con_cls;

    (void)version;
    if (rq == NULL) {
        rq = calloc(1, sizeof(*rq));
        if (rq == NULL)
            return MHD_NO;
        *con_cls = rq;
        atomic_fetch_add_explicit(&srv->in_flight, 1, memory_order_relaxed);
        if (declared_too_large(conn, srv->max_body)) {
            /* Answer before reading: libmicrohttpd then skips the body
             * (or never sends "100 Continue") and closes the connection. */
            rq->too_large = 1;
            return answer(srv, conn, url, method, rq);
        }
        return MHD_YES;
    }
    if (*upload_data_size != 0) {
        append(rq, upload_data, *upload_data_size, srv->max_body);
        *upload_data_size = 0;
        return MHD_YES;
    }
    return answer(srv, conn, url, method, rq);
}

static void on_completed(void *cls, struct MHD_Connection *conn,
                         void **con_cls, enum MHD_RequestTerminationCode toe)
{
    struct http_server *srv = cls;
    struct request *rq = *con_cls;

    (void)conn, (void)toe;
    if (rq == NULL)
        return;
    free(rq->body);
    free(rq);
    *con_cls = NULL;
    atomic_fetch_sub_explicit(&srv->in_flight, 1, memory_order_relaxed);
}

/* ------------------------------------------------------------------------
 * Life cycle
 * ------------------------------------------------------------------------ */

enum http_status http_server_start(const struct config *cfg,
                                   struct http_server **out, char *err,
                                   size_t errlen)
{
    struct sockaddr_in in4;
    struct sockaddr_in6 in6;
    const struct sockaddr *addr;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
                     MHD_USE_ITC;
    struct http_server *srv;

    memset(&in4, 0, sizeof(in4));
    memset(&in6, 0, sizeof(in6));
    if (inet_pton(AF_INET, cfg->bind, &in4.sin_addr) == 1) {
        in4.sin_family = AF_INET;
        in4.sin_port = htons(cfg->port);
        addr = (const struct sockaddr *)&in4;
    } else if (inet_pton(AF_INET6, cfg->bind, &in6.sin6_addr) == 1) {
        in6.sin6_family = AF_INET6;
        in6.sin6_port = htons(cfg->port);
        addr = (const struct sockaddr *)&in6;
        flags |= MHD_USE_IPv6;
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
    srv->api.max_nodes = cfg->max_nodes;
    srv->api.max_body = cfg->max_body;
    srv->max_body = cfg->max_body;
    srv->quiesced_fd = MHD_INVALID_SOCKET;
    atomic_init(&srv->draining, 0);
    atomic_init(&srv->in_flight, 0);
    /* A pool of one is ignored by libmicrohttpd: one internal thread then. */
    srv->daemon = MHD_start_daemon(
        flags, cfg->port, NULL, NULL, on_request, srv,
        MHD_OPTION_SOCK_ADDR, addr,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)(cfg->threads > 1 ? cfg->threads : 0),
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)cfg->timeout,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)cfg->max_connections,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, srv,
        MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned)1,
        MHD_OPTION_END);
    if (srv->daemon == NULL) {
        snprintf(err, errlen, "cannot listen on %s port %u (in use, or not an "
                 "address of this machine?)", cfg->bind, (unsigned)cfg->port);
        free(srv);
        return HTTP_START_FAILED;
    }
    *out = srv;
    return HTTP_OK;
}

uint16_t http_server_port(const struct http_server *srv)
{
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(srv->daemon, MHD_DAEMON_INFO_BIND_PORT);

    return info ? info->port : 0;
}

long http_server_in_flight(const struct http_server *srv)
{
    return atomic_load(&srv->in_flight);
}

long http_server_drain(struct http_server *srv, unsigned timeout_ms)
{
    const struct timespec tick = {0, 5 * 1000 * 1000};
    long left;

    atomic_store(&srv->draining, 1);
    if (srv->quiesced_fd == MHD_INVALID_SOCKET) {
        srv->quiesced_fd = MHD_quiesce_daemon(srv->daemon);
        /* Quiescing only stops accept(); the kernel would still complete
         * handshakes into the backlog, and those clients would hang until the
         * stop resets them. Shutting the listening socket down makes Linux
         * refuse new connections at once, so a gateway retries elsewhere.
         * The descriptor itself stays open until after MHD_stop_daemon, as
         * libmicrohttpd requires. */
        if (srv->quiesced_fd != MHD_INVALID_SOCKET)
            shutdown(srv->quiesced_fd, SHUT_RDWR);
    }
    for (unsigned waited = 0;; waited += 5) {
        left = atomic_load(&srv->in_flight);
        if (left == 0 || waited >= timeout_ms)
            return left;
        nanosleep(&tick, NULL);
    }
}

void http_server_stop(struct http_server *srv)
{
    if (srv == NULL)
        return;
    MHD_stop_daemon(srv->daemon);
    if (srv->quiesced_fd != MHD_INVALID_SOCKET)
        close(srv->quiesced_fd);
    free(srv);
}
