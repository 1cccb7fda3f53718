/* http_conn.c - slow clients and the body budget. libmicrohttpd's own
 * timeout only closes connections that send nothing at all, so a client
 * trickling a byte a second holds its connection forever. Here every
 * connection has a phase and a deadline: headers complete within
 * --header-timeout of the connection opening (or its last answer), a body
 * at --body-min-rate after that grace. Each loop keeps its connections in
 * a list ordered by when their phase began and looks at it four times a
 * second; a connection past its deadline is shut down (shutdown(2), not
 * close: the descriptor stays libmicrohttpd's, which then sees the end of
 * the stream and closes it itself). When connections run out, the one
 * that has waited longest for a request makes room for the new one, so
 * hundreds of slow clients cannot keep a normal one out. */
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>

#include "http_internal.h"
#include "metrics.h"

#define SWEEP_US 250000u   /* how often a loop looks for slow clients */
#define EVICT_MIN_US 100000u /* a connection this new is not evicted */

static void unlink_conn(struct http_loop *lp, struct http_conn *cs)
{
    if (cs->prev)
        cs->prev->next = cs->next;
    else
        lp->oldest = cs->next;
    if (cs->next)
        cs->next->prev = cs->prev;
    else
        lp->newest = cs->prev;
    cs->prev = cs->next = NULL;
}

static void append_conn(struct http_loop *lp, struct http_conn *cs)
{
    cs->prev = lp->newest;
    cs->next = NULL;
    if (lp->newest)
        lp->newest->next = cs;
    else
        lp->oldest = cs;
    lp->newest = cs;
}

uint64_t http_now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Ends the connection for `why`: libmicrohttpd reads the end of the stream
 * in its next round and closes it (a request under way is then reported
 * as aborted). */
static void shut(struct http_loop *lp, struct http_conn *cs,
                 enum metrics_close why)
{
    cs->closing = 1;
    shutdown(cs->fd, SHUT_RDWR);
    metrics_connection_closed(lp->srv->metrics, why);
}

/* Fewer than --body-min-rate bytes a second over `us` microseconds? */
static int below_rate(const struct http_server *srv, size_t bytes, uint64_t us)
{
    return srv->body_min_rate > 0 &&
           (double)bytes < (double)srv->body_min_rate * (double)us / 1e6;
}

/* The connection of lp to close for a new one: the one that has waited
 * longest for a request (idle, or trickling its headers) or sent its body
 * below the minimum rate, for at least min_age microseconds, and unless
 * `any`, none with bytes libmicrohttpd has not read yet; NULL if none. */
static struct http_conn *evictable(struct http_loop *lp, uint64_t now,
                                   uint64_t min_age, int any)
{
    for (struct http_conn *v = lp->oldest; v != NULL; v = v->next) {
        int unread = 0;
        if (now - v->since_us < min_age)
            return NULL; /* the rest began later still */
        if (v->closing ||
            !(v->phase == CONN_WAITING || v->phase == CONN_HEADERS ||
              (v->phase == CONN_BODY &&
               below_rate(lp->srv, v->body_bytes, now - v->since_us))))
            continue;
        /* Bytes libmicrohttpd has not read yet: a request that arrived
         * with its connection in this round, not a slow client. */
        if (!any && ioctl(v->fd, FIONREAD, &unread) == 0 && unread > 0)
            continue;
        return v;
    }
    return NULL;
}

struct http_conn *http_conn_open(struct http_loop *lp,
                                 struct MHD_Connection *conn, long open)
{
    struct http_server *srv = lp->srv;
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    struct http_conn *cs = calloc(1, sizeof(*cs));
    uint64_t now = http_now_us();

    if (cs == NULL || ci == NULL) {
        free(cs);
        return NULL;
    }
    cs->fd = ci->connect_fd;
    cs->since_us = now;
    if (open > (long)srv->max_connections) {
        /* Make room: a waiting or slow connection goes, one that is
         * sending a body at a fair rate or being answered stays. Only this loop's own: another loop's may
         * close and have its descriptor reused at any moment. */
        struct http_conn *v = evictable(lp, now, EVICT_MIN_US, 0);
        if (v != NULL)
            shut(lp, v, METRICS_CLOSE_EVICTED);
        else
            cs->over_capacity = 1;
    }
    append_conn(lp, cs);
    return cs;
}

int http_conn_make_room(struct http_loop *lp, int any)
{
    struct http_conn *v = evictable(lp, http_now_us(), 0, any);

    if (v == NULL)
        return -1;
    shut(lp, v, METRICS_CLOSE_EVICTED);
    return 0;
}

void http_conn_close(struct http_loop *lp, struct http_conn *cs)
{
    if (cs == NULL)
        return;
    unlink_conn(lp, cs);
    free(cs);
}

void http_conn_request_line(struct http_conn *cs)
{
    if (cs != NULL && cs->phase == CONN_WAITING)
        cs->phase = CONN_HEADERS;
}

void http_conn_enter(struct http_loop *lp, struct http_conn *cs,
                     enum http_conn_phase phase, uint64_t now)
{
    if (cs == NULL)
        return;
    cs->phase = phase;
    cs->since_us = now;
    cs->body_bytes = 0;
    if (lp->newest != cs) {
        unlink_conn(lp, cs);
        append_conn(lp, cs);
    }
}

/* Past its deadline? Headers must be complete within the header timeout;
 * a body may take it as grace, then must have come at --body-min-rate on
 * average since. (When a new client needs the connection, a slow body
 * gets no grace: see evictable.) */
static int overdue(const struct http_server *srv, const struct http_conn *cs,
                   uint64_t now, enum metrics_close *why)
{
    uint64_t waited = now - cs->since_us;

    if (waited <= srv->header_timeout_us)
        return 0;
    if (cs->phase == CONN_WAITING || cs->phase == CONN_HEADERS) {
        *why = METRICS_CLOSE_HEADER_TIMEOUT;
        return 1;
    }
    if (cs->phase == CONN_BODY &&
        below_rate(srv, cs->body_bytes, waited - srv->header_timeout_us)) {
        *why = METRICS_CLOSE_BODY_TOO_SLOW;
        return 1;
    }
    return 0;
}

/* Idle for the drain: waiting for a request long enough that none is on
 * its way with the connection (0.1 s), and nothing unread. As nginx does
 * on a graceful stop, such a connection is closed rather than waited for
 * until --timeout: a request sent at that very moment is lost, as it
 * would be at the idle timeout. */
static int idle(const struct http_conn *cs, uint64_t now)
{
    int unread = 0;

    return cs->phase == CONN_WAITING && now - cs->since_us >= EVICT_MIN_US &&
           !(ioctl(cs->fd, FIONREAD, &unread) == 0 && unread > 0);
}

void http_conn_sweep_soon(struct http_loop *lp)
{
    lp->next_sweep_us = 0;
}

int http_conn_sweep(struct http_loop *lp, uint64_t now)
{
    struct http_server *srv = lp->srv;

    if (lp->oldest == NULL)
        return -1;
    if (now >= lp->next_sweep_us) {
        lp->next_sweep_us = now + SWEEP_US;
        int draining = atomic_load_explicit(&srv->draining,
                                            memory_order_relaxed);
        for (struct http_conn *cs = lp->oldest; cs != NULL; cs = cs->next) {
            enum metrics_close why;
            if (cs->closing)
                continue;
            if (overdue(srv, cs, now, &why))
                shut(lp, cs, why);
            else if (draining && idle(cs, now))
                shut(lp, cs, METRICS_CLOSE_SHUTDOWN);
        }
        /* Over max_connections (a burst came in faster than connections
         * could be evicted for it): this loop's share of the excess goes,
         * so that the next new client finds room below the hard limit. */
        long excess = atomic_load_explicit(&srv->connections,
                                           memory_order_relaxed) -
                      (long)srv->max_connections;
        for (long k = (excess + srv->nloops - 1) / (long)srv->nloops; k > 0; k--) {
            struct http_conn *v = evictable(lp, now, EVICT_MIN_US, 0);
            if (v == NULL)
                break;
            shut(lp, v, METRICS_CLOSE_EVICTED);
        }
    }
    return (int)((lp->next_sweep_us - now + 999) / 1000);
}

int http_buffer_take(struct http_server *srv, size_t n)
{
    size_t held = atomic_fetch_add_explicit(&srv->buffered, n,
                                            memory_order_relaxed) + n;

    if (held <= srv->max_buffered)
        return 0;
    atomic_fetch_sub_explicit(&srv->buffered, n, memory_order_relaxed);
    return -1;
}

size_t http_buffer_room(const struct http_server *srv)
{
    size_t held = atomic_load_explicit(&srv->buffered, memory_order_relaxed);

    return held < srv->max_buffered ? srv->max_buffered - held : 0;
}

void http_buffer_give(struct http_server *srv, size_t n)
{
    if (n > 0)
        atomic_fetch_sub_explicit(&srv->buffered, n, memory_order_relaxed);
}
