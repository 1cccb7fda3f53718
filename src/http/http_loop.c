/* http_loop.c - the event loops and their listening sockets.
 *
 * Each loop is a libmicrohttpd daemon of its own, in epoll mode and
 * without a thread of the library's, run by a thread of ours, each on a
 * listening socket of its own on the same address (SO_REUSEPORT: the
 * kernel spreads the connections). Why not the library's own threads (the
 * figures are in docs/performance.md):
 *  - its epoll loop hangs a thread when exactly 128 connections are ready
 *    at once (after a full batch of events MHD_epoll waits again, blocking);
 *    MHD_run drains the events without blocking, so here it cannot;
 *  - its poll loop walks every connection on every round, and a thread that
 *    is never idle shares a core with other busy threads in scheduler
 *    slices of milliseconds, which showed as a p99 twice nginx's.
 * So a loop that has found more work already waiting after YIELD_AFTER
 * rounds in a row gives the core away (sched_yield: back at once when
 * nothing else is runnable there); the other busy threads, such as a
 * client or a proxy on the same machine, then wait a few rounds of ours
 * instead of a scheduler slice. Yielding after every busy round cost more
 * than it gave with few connections (a context switch per request where
 * nginx makes half of one).
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/epoll.h>
#include <sys/socket.h>

#include "clock.h"
#include "http_internal.h"
#include "log.h"

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

#define YIELD_AFTER 4

enum { EV_DAEMON, EV_WAKE }; /* what an event of a loop's epoll set is */

void http_loop_wake(struct http_loop *lp)
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

        lp->round_us = clock_now_us();
        MHD_run(lp->daemon);
        atomic_fetch_add_explicit(&lp->rounds, 1, memory_order_relaxed);
        if (MHD_get_timeout(lp->daemon, &left) == MHD_YES)
            ms = left > 60000 ? 60000 : (int)left;
        sweep_ms = http_conn_sweep(lp, clock_now_us());
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
    int fd =
        socket(addr->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
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

uint16_t http_bound_port(int fd)
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
 * took every connection of a burst, and the other core's loop sat idle. A
 * socket without SO_REUSEPORT is bound first, and let go, so
 * that an address in use is an error as before, and not a group joined
 * with another sudokud (a program of the same user that sets SO_REUSEPORT
 * on the port later can still join it). Returns 0, or -1 with errno set. */
int http_open_listeners(struct http_server *srv, const struct sockaddr *addr,
                        socklen_t len)
{
    struct sockaddr_storage ss;
    int any = addr->sa_family == AF_INET
                  ? ((const struct sockaddr_in *)addr)->sin_port == 0
                  : ((const struct sockaddr_in6 *)addr)->sin6_port == 0;

    if (srv->nloops == 1)
        return (srv->loops[0].listen_fd = open_socket(addr, len, 0, 1)) < 0 ? -1
                                                                            : 0;
    memcpy(&ss, addr, len);
    /* With port 0 another program may take the chosen port between the
     * probe and the group: then try another. */
    for (int attempt = 0;; attempt++) {
        int probe = open_socket(addr, len, 0, 0), e;
        uint16_t port;
        unsigned i;

        if (probe < 0)
            return -1;
        port =
            http_bound_port(probe); /* the one the kernel chose, for port 0 */
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

/* Sets loop i up: its daemon on its listening socket and its epoll
 * set (the daemon's descriptor and wake_fd); the thread comes later. */
int http_make_loop(struct http_server *srv, unsigned i, unsigned limit)
{
    struct http_loop *lp = &srv->loops[i];
    const union MHD_DaemonInfo *info;
    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = EV_DAEMON};
    struct epoll_event wake = {.events = EPOLLIN, .data.u32 = EV_WAKE};
    unsigned flags =
        MHD_USE_EPOLL | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME;

    lp->daemon = MHD_start_daemon(
        flags, 0, http_on_accept, lp, http_on_request, lp,
        MHD_OPTION_EXTERNAL_LOGGER, on_mhd_log, srv, /* first, so it sees all */
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)lp->listen_fd,
        /* None while a request is awaited or read: see http_conn.c. */
        MHD_OPTION_CONNECTION_TIMEOUT, 0u, MHD_OPTION_CONNECTION_LIMIT, limit,
        MHD_OPTION_NOTIFY_COMPLETED, http_on_completed, srv,
        MHD_OPTION_NOTIFY_CONNECTION, http_on_connection, lp,
        MHD_OPTION_UNESCAPE_CALLBACK, http_unescape, srv,
        MHD_OPTION_URI_LOG_CALLBACK, http_on_uri, lp, /* makes the request */
        /* Each connection's buffer for headers and body chunks. The library
         * clears 1.5 times it on every request, on memory that is cold once
         * many connections take turns: at 16 KiB that was the largest
         * single cost of a request, and grew with the connections
         * (docs/performance.md, issue 34). 8 KiB takes a request line and
         * headers of about 7.5 KiB (more gets 431); nginx, 8 KiB a line. */
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)8192, MHD_OPTION_END);
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

int http_run_loop(struct http_loop *lp)
{
    if (pthread_create(&lp->thread, NULL, loop_main, lp) != 0)
        return -1;
    pthread_setname_np(lp->thread, "http-loop");
    pthread_mutex_lock(&lp->lock);
    lp->running = 1;
    pthread_mutex_unlock(&lp->lock);
    return 0;
}
