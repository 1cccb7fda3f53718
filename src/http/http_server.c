/* http_server.c - the server's start, its drain and its stop: the loops,
 * their sockets and the job pool made in order, and on SIGTERM the sockets
 * quiesced, the backlog taken in and served, idle connections closed and
 * the rest awaited up to the drain timeout. */
#include "http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "api.h"
#include "http_internal.h"
#include "log.h"
#include "metrics.h"

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
        http_request_spares_free(lp); /* the daemon gave every request back */
        if (lp->listen_fd >= 0)       /* quiesced: the daemon left it to us */
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
    http_ip_table_free(&srv->per_ip);
    metrics_destroy(srv->metrics);
    free(srv);
}

/* How many connections to take at most: max_connections, and past it a
 * few more, to answer them 503 at once; past those, new connections are
 * closed at once (http_on_accept). Each loop's daemon may take them all:
 * the kernel decides which loop's socket a client reaches, and a daemon at
 * a limit of its own would leave the clients hashed to it waiting in its
 * backlog however much room the other loops had. With one loop the
 * daemon's own limit comes first: clients then wait in the backlog until
 * a connection closes.
 *
 * A descriptor per connection: the soft open-files limit is raised as far
 * as allowed (1024 in many shells), and the connection limit kept under
 * it, with room for the rest of the process, so that accept() does not
 * fail with EMFILE (libmicrohttpd then stops watching the socket for a
 * while, or retries it in a loop). */
static unsigned connection_limit(const struct config *cfg, unsigned nloops)
{
    unsigned limit = cfg->max_connections + 16 + cfg->max_connections / 8;
    struct rlimit fds;

    if (getrlimit(RLIMIT_NOFILE, &fds) == 0) {
        if (fds.rlim_cur < fds.rlim_max) {
            fds.rlim_cur = fds.rlim_max;
            setrlimit(RLIMIT_NOFILE, &fds);
            getrlimit(RLIMIT_NOFILE, &fds);
        }
        if (fds.rlim_cur != RLIM_INFINITY &&
            fds.rlim_cur < (rlim_t)limit + 64 + 4 * nloops)
            limit = fds.rlim_cur > 64 + 4 * nloops + 16
                        ? (unsigned)(fds.rlim_cur - 64 - 4 * nloops)
                        : 16;
    }
    return limit;
}

/* The address to listen on, from --bind and --port; -1 when --bind is
 * neither IPv4 nor IPv6. */
static int listen_address(const struct config *cfg, struct sockaddr_storage *ss,
                          socklen_t *len)
{
    struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
    struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

    memset(ss, 0, sizeof(*ss));
    if (inet_pton(AF_INET, cfg->bind, &in4->sin_addr) == 1) {
        in4->sin_family = AF_INET;
        in4->sin_port = htons(cfg->port);
        *len = sizeof(*in4);
    } else if (inet_pton(AF_INET6, cfg->bind, &in6->sin6_addr) == 1) {
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons(cfg->port);
        *len = sizeof(*in6);
    } else {
        return -1;
    }
    return 0;
}

/* Socket activation. The sockets are systemd's, bound before sudokud
 * started and kept open across its restarts: connections that arrive while
 * no sudokud runs wait in their backlog. Loop i serves socket i % n, on a
 * descriptor of its own (a dup, closed with the loop), made non-blocking.
 * systemd usually hands over one socket (one ListenStream=), which the
 * loops then share: each loop's daemon watches its own duplicate, and
 * whichever loop wakes first accepts (the others find the backlog empty).
 * SO_REUSEPORT cannot spread them: a socket may join only a group made by
 * the same user, and systemd's are root's while sudokud runs as another
 * (docs/design.md, "Socket activation"). 0, or -1 with errno set. */
static int adopt_listeners(struct http_server *srv, const int *fds, unsigned n)
{
    for (unsigned i = 0; i < srv->nloops; i++) {
        int fd = fcntl(fds[i % n], F_DUPFD_CLOEXEC, 3), fl;
        if (fd < 0)
            return -1;
        srv->loops[i].listen_fd = fd;
        /* O_NONBLOCK is the socket's, shared with systemd's copy: harmless
         * there, systemd only polls a listening socket. */
        if ((fl = fcntl(fd, F_GETFL)) < 0 ||
            fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
            return -1;
    }
    return 0;
}

/* The server and its loops' shells (no daemon, socket or thread yet):
 * NULL when out of memory. */
static struct http_server *new_server(const struct config *cfg, unsigned nloops,
                                      unsigned limit)
{
    struct http_server *srv = calloc(1, sizeof(*srv));

    if (srv == NULL)
        return NULL;
    atomic_init(&srv->stopping, 0);
    atomic_init(&srv->draining, 0);
    atomic_init(&srv->connections, 0);
    atomic_init(&srv->buffered, 0);
    srv->metrics = metrics_create(api_route_label, API_NROUTES, cfg->version);
    srv->loops = calloc(nloops, sizeof(*srv->loops));
    if (srv->loops != NULL) {
        srv->nloops = nloops;
        for (unsigned i = 0; i < nloops; i++) {
            struct http_loop *lp = &srv->loops[i];
            lp->srv = srv;
            lp->epfd = -1;
            lp->listen_fd = -1;
            atomic_init(&lp->open, 0);
            atomic_init(&lp->rounds, 0);
            atomic_init(&lp->pending, 0);
            lp->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
            pthread_mutex_init(&lp->lock, NULL);
            pthread_cond_init(&lp->changed, NULL);
        }
    }
    if (srv->metrics == NULL || srv->loops == NULL ||
        http_ip_table_init(&srv->per_ip, cfg->max_per_ip, limit + nloops) !=
            0) {
        free_server(srv);
        return NULL;
    }
    return srv;
}

/* The settings the server and the api read, copied from cfg; the log. */
static void apply_config(struct http_server *srv, const struct config *cfg,
                         unsigned limit)
{
    srv->api.max_nodes = cfg->max_nodes;
    srv->api.max_logic_ms = cfg->max_logic_ms;
    srv->api.max_killer_nodes = cfg->max_killer_nodes;
    srv->api.max_search_ms = cfg->max_search_ms;
    srv->api.max_batch_ms = cfg->max_batch_ms;
    srv->api.max_body = cfg->max_body;
    snprintf(srv->cors_origins, sizeof(srv->cors_origins), "%s",
             cfg->cors_origins);
    srv->api.cors_origins = srv->cors_origins;
    srv->api.max_batch = cfg->max_batch;
    srv->api.max_batch_body = cfg->max_batch_body;
    srv->api.max_batch_nodes = cfg->max_batch_nodes;
    srv->api.metrics = srv->metrics;
    atomic_init(&srv->halt, 0);
    srv->api.stop = &srv->halt;
    srv->api_loop = srv->api;
    srv->api_loop.slice = 1;
    srv->log.fd = 1;
    srv->log.level = cfg->log_level;
    srv->access_log = cfg->access_log;
    /* Buffered, so that no request waits on stdout (a full pipe drops
     * lines, counted in the metrics) nor pays a write(2) for its access
     * line; written out at least every 200 ms. */
    srv->log.buffer = log_buffer_start(1, 200);
    metrics_watch_log(srv->metrics, srv->log.buffer);
    metrics_watch_connections(srv->metrics, &srv->connections);
    srv->max_connections = cfg->max_connections;
    srv->conn_limit = limit;
    srv->header_timeout_us = (uint64_t)cfg->header_timeout * 1000000u;
    srv->idle_timeout_us = (uint64_t)cfg->timeout * 1000000u;
    srv->timeout_s = cfg->timeout;
    srv->body_min_rate = cfg->body_min_rate;
    srv->max_buffered = cfg->max_buffered;
    if (getrandom(&srv->boot_id, sizeof(srv->boot_id), GRND_NONBLOCK) !=
        (ssize_t)sizeof(srv->boot_id))
        srv->boot_id = (uint32_t)time(NULL) ^ (uint32_t)getpid();
}

/* The worker pools, then every daemon, then every loop's thread, so that
 * nothing runs on a half-made server (the loops may hand jobs over at
 * once). HTTP_OK, or HTTP_START_FAILED with err filled. */
static enum http_status start_threads(struct http_server *srv,
                                      const struct config *cfg, char *err,
                                      size_t errlen)
{
    if (http_jobs_start(srv, HTTP_POOL_REQUESTS, cfg->workers,
                        cfg->worker_queue) != 0 ||
        http_jobs_start(srv, HTTP_POOL_LONG, cfg->batch_workers,
                        cfg->batch_queue) != 0) {
        snprintf(err, errlen, "cannot start the worker pools' threads");
        return HTTP_START_FAILED;
    }
    for (unsigned i = 0; i < srv->nloops; i++)
        if (http_make_loop(srv, i, srv->conn_limit) != 0) {
            snprintf(err, errlen, "cannot start the HTTP event loops: %s",
                     strerror(errno));
            return HTTP_START_FAILED;
        }
    for (unsigned i = 0; i < srv->nloops; i++)
        if (http_run_loop(&srv->loops[i]) != 0) {
            snprintf(err, errlen, "cannot start the HTTP event loops' threads");
            return HTTP_START_FAILED;
        }
    return HTTP_OK;
}

enum http_status http_server_start(const struct config *cfg,
                                   struct http_server **out, char *err,
                                   size_t errlen)
{
    unsigned nloops = cfg->threads > 0 ? cfg->threads : 1;
    /* Every socket handed over needs a loop (docs/design.md). */
    if (cfg->nlisten_fds > nloops)
        nloops = cfg->nlisten_fds;
    unsigned limit = connection_limit(cfg, nloops);
    struct sockaddr_storage addr;
    socklen_t addrlen;
    struct http_server *srv;
    enum http_status st;

    if (listen_address(cfg, &addr, &addrlen) != 0) {
        snprintf(err, errlen,
                 "bind address '%s' is not an IPv4 or IPv6 address", cfg->bind);
        return HTTP_BAD_ADDRESS;
    }
    if ((srv = new_server(cfg, nloops, limit)) == NULL) {
        snprintf(err, errlen, "out of memory");
        return HTTP_NO_MEMORY;
    }
    apply_config(srv, cfg, limit);
    if (limit < cfg->max_connections + 16 + cfg->max_connections / 8) {
        struct log_line l;
        log_begin(&l, &srv->log, LOG_WARN, "connection limit lowered");
        log_str(&l, "detail",
                "the open-files limit (ulimit -n) is too low for "
                "--max-connections");
        log_num(&l, "connections", limit);
        log_end(&l, &srv->log);
    }
    if (cfg->nlisten_fds > 0) {
        srv->activated = 1;
        if (adopt_listeners(srv, cfg->listen_fds, cfg->nlisten_fds) != 0) {
            snprintf(err, errlen,
                     "cannot use the sockets systemd handed over: %s",
                     strerror(errno));
            free_server(srv);
            return HTTP_START_FAILED;
        }
    } else if (http_open_listeners(srv, (const struct sockaddr *)&addr,
                                   addrlen) != 0) {
        snprintf(err, errlen,
                 "cannot listen on %s port %u: %s (in use, or not "
                 "an address of this machine?)",
                 cfg->bind, (unsigned)cfg->port, strerror(errno));
        free_server(srv);
        return HTTP_START_FAILED;
    }
    srv->port = http_bound_port(srv->loops[0].listen_fd);
    if ((st = start_threads(srv, cfg, err, errlen)) != HTTP_OK) {
        free_server(srv);
        return st;
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

long http_server_alive(struct http_server *srv, unsigned timeout_ms)
{
    const struct timespec tick = {0, 1000 * 1000};
    unsigned long seen[64];
    unsigned n = srv->nloops < 64 ? srv->nloops : 64;
    long stuck = 0;

    /* Each loop is woken and must come round once; an idle loop is
     * waiting in epoll_wait and does so at once. */
    for (unsigned i = 0; i < n; i++) {
        seen[i] = atomic_load(&srv->loops[i].rounds);
        http_loop_wake(&srv->loops[i]);
    }
    for (unsigned waited = 0;; waited++) {
        stuck = 0;
        for (unsigned i = 0; i < n; i++)
            stuck += atomic_load(&srv->loops[i].rounds) == seen[i];
        if (stuck == 0 || waited >= timeout_ms)
            return stuck;
        nanosleep(&tick, NULL);
    }
}

long http_server_connections(const struct http_server *srv)
{
    return atomic_load(&srv->connections);
}

/* Makes the kernel drop new connection requests (a TCP segment with SYN
 * and without ACK) to a listening socket, so the backlog stops growing
 * while it is taken in; handshakes already under way still complete into
 * it. Without this a client whose handshake completed between the last
 * accept and the shutdown was reset with its request already sent (now
 * and then in the SIGTERM load test). A client dropped here retries its SYN and
 * is then refused. The filter sees each segment from its TCP header on: byte 13
 * holds the flags. The window is kept very short (0.2 ms, room for a handshake
 * on loopback): a gateway whose connect lands in it waits for its connect
 * timeout and marks the replica failed, and with 5 ms that happened often
 * enough in the gateway test's rolling restart to leave nginx with no live
 * upstream for a moment. */
static void refuse_new(int fd)
{
    struct sock_filter syn_only[] = {
        BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 13),
        BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0x12), /* SYN | ACK */
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x02, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, 0),           /* SYN alone: dropped */
        BPF_STMT(BPF_RET | BPF_K, 0xFFFFFFFFu), /* the rest: kept */
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
            h->fd = accept4(listen_fd, (struct sockaddr *)&h->addr, &h->len,
                            SOCK_NONBLOCK | SOCK_CLOEXEC);
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
    if (!srv->draining_started && srv->activated) {
        /* The sockets are systemd's and outlive us: the loops only stop
         * accepting, and what waits in the backlog (or arrives from now on)
         * is left there for the next sudokud. No filter, no shutdown: both
         * would act on the socket itself, for every later process too. */
        srv->draining_started = 1;
        quiesce_all(srv);
    }
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
