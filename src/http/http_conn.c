/* http_conn.c - slow clients and the body budget. libmicrohttpd's own
 * timeout only closes connections that send nothing at all, so a client
 * trickling a byte a second holds its connection forever; and it counts
 * from the last bytes it read, so when its loop was busy it closed
 * connections whose next request had arrived and waited unread. Here
 * every connection has a phase and a deadline: headers complete within
 * --header-timeout of the connection opening (or its last answer), a body
 * at --body-min-rate after that grace and never silent for --timeout, an
 * idle connection closed after --timeout, a small answer gone within
 * --timeout; the library's timer runs only while a large answer is being
 * sent (http_request.c). Each loop keeps its connections in a list and
 * looks at it four times a second; a connection past its deadline is shut down
 * (shutdown(2), not close: the descriptor stays libmicrohttpd's, which
 * then sees the end of the stream and closes it itself), unless bytes
 * wait on its socket unread: they came while the loop was busy, and the
 * slowness is the server's, not the client's. When connections run out,
 * the one that has waited longest for a request makes room for the new
 * one, so hundreds of slow clients cannot keep a normal one out. Every
 * close is counted with its reason. */
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "clock.h"
#include "http_internal.h"
#include "metrics.h"

#define SWEEP_US 250000u     /* how often a loop looks for slow clients */
#define EVICT_MIN_US 100000u /* a connection this new is not evicted */

_Static_assert(sizeof(struct http_conn) == 64, "a connection: one cache line");

static void unlink_conn(struct http_loop *lp, struct http_conn *cs)
{
    if (cs->prev)
        cs->prev->next = cs->next;
    else
        lp->conns = cs->next;
    if (cs->next)
        cs->next->prev = cs->prev;
    cs->prev = cs->next = NULL;
}

static void link_conn(struct http_loop *lp, struct http_conn *cs)
{
    cs->prev = NULL;
    cs->next = lp->conns;
    if (lp->conns)
        lp->conns->prev = cs;
    lp->conns = cs;
}

/* Ends the connection for `why`: libmicrohttpd reads the end of the stream
 * in its next round and closes it (a request under way is then reported
 * as aborted). Counted before the shutdown, so that a client that sees
 * its connection end finds the close in /metrics already. */
static void shut(struct http_loop *lp, struct http_conn *cs,
                 enum metrics_close why)
{
    cs->closing = 1;
    metrics_connection_closed(lp->srv->metrics, why);
    shutdown(cs->fd, SHUT_RDWR);
}

/* Bytes on cs's socket that libmicrohttpd has not read yet: a request that
 * arrived in this round, not a slow or idle client. */
static int unread(const struct http_conn *cs)
{
    int n = 0;

    return ioctl(cs->fd, FIONREAD, &n) == 0 && n > 0;
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
    struct http_conn *best = NULL;

    for (struct http_conn *v = lp->conns; v != NULL; v = v->next) {
        if (now - v->since_us < min_age ||
            (best != NULL && v->since_us >= best->since_us) || v->closing ||
            !(v->phase == HTTP_CONN_WAITING || v->phase == HTTP_CONN_HEADERS ||
              (v->phase == HTTP_CONN_BODY &&
               below_rate(lp->srv, v->body_bytes, now - v->since_us))))
            continue;
        if (!any && unread(v))
            continue;
        best = v;
    }
    return best;
}

/* Closes lp's evictable connection (see evictable): 0, or -1 when none. */
static int evict(struct http_loop *lp, uint64_t now, uint64_t min_age, int any)
{
    struct http_conn *v = evictable(lp, now, min_age, any);

    if (v == NULL)
        return -1;
    shut(lp, v, METRICS_CLOSE_EVICTED);
    return 0;
}

/* Tracks a new connection of lp: a struct for its socket context, or NULL
 * when out of memory (the connection is then not tracked). When more than
 * max_connections are open, the connection that has waited longest for a
 * request is closed to make room; when none can be, the new one is marked
 * over_capacity (its requests get 503 overloaded). */
static struct http_conn *conn_open(struct http_loop *lp,
                                   struct MHD_Connection *conn, long open)
{
    struct http_server *srv = lp->srv;
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    struct http_conn *cs = aligned_alloc(64, sizeof(*cs));
    uint64_t now = clock_now_us();

    if (cs == NULL || ci == NULL) {
        free(cs);
        return NULL;
    }
    memset(cs, 0, sizeof(*cs));
    cs->fd = ci->connect_fd;
    cs->since_us = now;
    if (open > (long)srv->max_connections) {
        /* Make room: a waiting or slow connection goes, one that is
         * sending a body at a fair rate or being answered stays. Only this
         * loop's own: another loop's may close and have its descriptor reused
         * at any moment. */
        if (evict(lp, now, EVICT_MIN_US, 0) != 0)
            cs->over_capacity = 1;
    }
    link_conn(lp, cs);
    return cs;
}

/* Closes lp's connection that has waited longest for a request (or whose
 * body is slow), however new, so that another can be served: 0, or -1
 * when there is none. Unless `any`, a connection with bytes not read yet
 * (a request that came in this round) is spared; at the hard limit, where
 * the alternative is refusing the newest, it is not. */
static int make_room(struct http_loop *lp, int any)
{
    return evict(lp, clock_now_us(), 0, any);
}

/* The connection closed: unlinks and frees cs (NULL is fine). */
static void conn_close(struct http_loop *lp, struct http_conn *cs)
{
    if (cs == NULL)
        return;
    unlink_conn(lp, cs);
    free(cs->remote);
    free(cs);
}

void http_conn_request_line(struct http_conn *cs)
{
    if (cs != NULL && cs->phase == HTTP_CONN_WAITING)
        cs->phase = HTTP_CONN_HEADERS;
}

void http_conn_enter(struct http_loop *lp, struct http_conn *cs,
                     enum http_conn_phase phase, uint64_t now)
{
    if (cs == NULL)
        return;
    (void)lp;
    cs->phase = (unsigned char)phase;
    cs->since_us = cs->active_us = now;
    cs->body_bytes = 0;
}

/* Past its deadline? Headers must be complete within the header timeout
 * (an idle connection goes at --timeout if that is sooner); a body may
 * take it as grace, then must have come at --body-min-rate on average
 * since, and may never be silent for --timeout. (When a new client needs
 * the connection, a slow body gets no grace: see evictable.) Not when
 * bytes wait unread: the loop was late, not the client. */
static int overdue(const struct http_server *srv, const struct http_conn *cs,
                   uint64_t now, enum metrics_close *why)
{
    uint64_t waited = now - cs->since_us;

    switch (cs->phase) {
    case HTTP_CONN_WAITING:
        if (srv->idle_timeout_us < srv->header_timeout_us &&
            waited > srv->idle_timeout_us) {
            *why = METRICS_CLOSE_IDLE_TIMEOUT;
            break;
        }
        /* fall through */
    case HTTP_CONN_HEADERS:
        if (waited <= srv->header_timeout_us)
            return 0;
        *why = METRICS_CLOSE_HEADER_TIMEOUT;
        break;
    case HTTP_CONN_SENDING:
        /* A small answer fits the socket's buffers: one not gone after
         * --timeout is one the client does not read (its next requests
         * waiting unread do not excuse it). */
        if (waited <= srv->idle_timeout_us)
            return 0;
        *why = METRICS_CLOSE_SEND_TIMEOUT;
        return 1;
    case HTTP_CONN_BODY:
        if (waited > srv->header_timeout_us &&
            below_rate(srv, cs->body_bytes, waited - srv->header_timeout_us))
            *why = METRICS_CLOSE_BODY_TOO_SLOW;
        else if (now - cs->active_us > srv->idle_timeout_us)
            *why = METRICS_CLOSE_IDLE_TIMEOUT;
        else
            return 0;
        break;
    default:
        return 0;
    }
    return !unread(cs);
}

void http_conn_body(struct http_conn *cs, size_t n, uint64_t now)
{
    if (cs == NULL)
        return;
    cs->body_bytes += n;
    cs->active_us = now;
}

/* Idle for the drain: waiting for a request long enough that none is on
 * its way with the connection (0.1 s), and nothing unread. As nginx does
 * on a graceful stop, such a connection is closed rather than waited for
 * until --timeout: a request sent at that very moment is lost, as it
 * would be at the idle timeout. */
static int idle(const struct http_conn *cs, uint64_t now)
{
    return cs->phase == HTTP_CONN_WAITING &&
           now - cs->since_us >= EVICT_MIN_US && !unread(cs);
}

void http_conn_sweep_soon(struct http_loop *lp)
{
    lp->next_sweep_us = 0;
}

int http_conn_sweep(struct http_loop *lp, uint64_t now)
{
    struct http_server *srv = lp->srv;

    if (lp->conns == NULL)
        return -1;
    if (now >= lp->next_sweep_us) {
        lp->next_sweep_us = now + SWEEP_US;
        int draining =
            atomic_load_explicit(&srv->draining, memory_order_relaxed);
        for (struct http_conn *cs = lp->conns; cs != NULL; cs = cs->next) {
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
        long excess =
            atomic_load_explicit(&srv->connections, memory_order_relaxed) -
            (long)srv->max_connections;
        for (long k = (excess + srv->nloops - 1) / (long)srv->nloops;
             k > 0 && evict(lp, now, EVICT_MIN_US, 0) == 0; k--)
            ;
    }
    return (int)((lp->next_sweep_us - now + 999) / 1000);
}

int http_buffer_take(struct http_server *srv, size_t n)
{
    size_t held =
        atomic_fetch_add_explicit(&srv->buffered, n, memory_order_relaxed) + n;

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

/* ------------------------------------------------------------------------
 * Connections in all, and per client address (--max-per-ip)
 *
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

static size_t ip_home(const struct http_ip_table *t,
                      const unsigned char key[16])
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a */

    for (int i = 0; i < 16; i++)
        h = (h ^ key[i]) * 1099511628211ull;
    return (size_t)(h ^ (h >> 29)) & (t->size - 1);
}

/* The slot holding key, or the free slot where it would go. The table is
 * never full: it has over twice as many slots as connections can be open. */
static struct http_ip_slot *ip_find(struct http_ip_table *t,
                                    const unsigned char key[16])
{
    for (size_t i = ip_home(t, key);; i = (i + 1) & (t->size - 1))
        if (t->slots[i].count == 0 || memcmp(t->slots[i].addr, key, 16) == 0)
            return &t->slots[i];
}

/* Frees a slot whose count fell to 0, moving later slots of the same run
 * back so that every key stays reachable from its home slot. */
static void ip_free_slot(struct http_ip_table *t, size_t i)
{
    size_t mask = t->size - 1;

    for (size_t j = (i + 1) & mask; t->slots[j].count != 0;
         j = (j + 1) & mask) {
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
enum MHD_Result http_on_accept(void *cls, const struct sockaddr *addr,
                               socklen_t addrlen)
{
    struct http_loop *lp = cls;
    struct http_server *srv = lp->srv;
    struct http_ip_table *t = &srv->per_ip;
    unsigned char key[16];
    int ok;

    (void)addrlen;
    if (atomic_load_explicit(&srv->connections, memory_order_relaxed) >=
            (long)srv->conn_limit &&
        make_room(lp, 1) != 0) {
        metrics_connection_closed(srv->metrics, METRICS_CLOSE_REFUSED);
        return MHD_NO;
    }
    if (t->cap == 0 || ip_key(addr, key) != 0)
        return MHD_YES;
    pthread_mutex_lock(&t->lock);
    ok = ip_find(t, key)->count < t->cap;
    pthread_mutex_unlock(&t->lock);
    if (!ok)
        metrics_connection_closed(srv->metrics, METRICS_CLOSE_REFUSED);
    return ok ? MHD_YES : MHD_NO;
}

/* Counts a connection of its address in (+1) or out (-1). */
static void ip_count(struct http_server *srv, struct MHD_Connection *conn,
                     int delta)
{
    struct http_ip_table *t = &srv->per_ip;
    const union MHD_ConnectionInfo *ci;
    unsigned char key[16];
    struct http_ip_slot *slot;

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

int http_ip_table_init(struct http_ip_table *t, unsigned cap, size_t max_open)
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

void http_ip_table_free(struct http_ip_table *t)
{
    if (t->slots != NULL) {
        free(t->slots);
        pthread_mutex_destroy(&t->lock);
    }
}

/* Counts connections. One that opens while more than max_connections are
 * open is marked (its socket context points at the server), and while that
 * is still so its requests are answered 503 overloaded: the newest clients
 * are refused, the ones already being served are not. */
void http_on_connection(void *cls, struct MHD_Connection *conn,
                        void **socket_context,
                        enum MHD_ConnectionNotificationCode code)
{
    struct http_loop *lp = cls;
    struct http_server *srv = lp->srv;
    long open;

    if (code != MHD_CONNECTION_NOTIFY_STARTED) {
        lp->closed++;
        conn_close(lp, *socket_context);
        *socket_context = NULL;
        atomic_fetch_sub_explicit(&lp->open, 1, memory_order_relaxed);
        ip_count(srv, conn, -1);
        atomic_fetch_sub_explicit(&srv->connections, 1, memory_order_relaxed);
        return;
    }
    ip_count(srv, conn, +1);
    atomic_fetch_add_explicit(&lp->open, 1, memory_order_relaxed);
    open =
        atomic_fetch_add_explicit(&srv->connections, 1, memory_order_relaxed) +
        1;
    *socket_context = conn_open(lp, conn, open);
}

/* Opened over max_connections with no waiting connection to make room,
 * and still over it, now that its request is here: a connection still
 * waiting for one makes room if there is any (this one has shown it is
 * a client); else the request gets 503 overloaded. */
int http_over_capacity(struct http_server *srv, struct http_request *rq)
{
    if (rq->cs == NULL || !rq->cs->over_capacity ||
        atomic_load_explicit(&srv->connections, memory_order_relaxed) <=
            (long)srv->max_connections)
        return 0;
    if (make_room(rq->loop, 0) != 0)
        return 1;
    rq->cs->over_capacity = 0;
    return 0;
}
