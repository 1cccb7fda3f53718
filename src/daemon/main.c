/* main.c - the sudokud daemon: configuration, start, wait for SIGTERM,
 * SIGINT or SIGHUP (all three drain alike: the logs go to stdout, there is
 * no file to reopen), drain, stop. The signals are blocked in every thread
 * and taken with sigwait here, so no handler runs inside a worker. Under
 * systemd (systemd.h) it serves the sockets handed over, says READY=1 once
 * every loop listens, STOPPING=1 when the drain begins, and pings the
 * watchdog from this thread while it waits for a signal, as long as every
 * event loop still comes round. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "config.h"
#include "http.h"
#include "log.h"
#include "probe.h"
#include "systemd.h"

/* The configuration from argv and the environment. Returns -1 to go on
 * serving, or the exit status when there is nothing to serve: --help,
 * --version, --probe, a bad setting. */
static int configure(struct config *cfg, int argc, char **argv)
{
    char err[256];

    config_init(cfg);
    switch (config_parse(cfg, argc, argv, err, sizeof(err))) {
    case CONFIG_HELP:
        config_usage(stdout, argv[0]);
        return 0;
    case CONFIG_VERSION:
        printf("sudokud %s\n", cfg->version);
        return 0;
    case CONFIG_PROBE: {
        int status = -1;
        if (cfg->probe_url[0] != '\0' ||
            probe_daemon_url("/proc", cfg->probe_url, sizeof(cfg->probe_url),
                             err, sizeof(err)) == 0)
            status = probe_get(cfg->probe_url, 2000, err, sizeof(err));
        if (status < 0)
            fprintf(stderr, "sudokud: %s\n", err);
        else
            printf("%d\n", status);
        return status == 200 ? 0 : 1;
    }
    case CONFIG_ERROR:
        fprintf(stderr, "sudokud: %s\n", err);
        return 2;
    case CONFIG_OK:
        break;
    }
    return -1;
}

static void log_listening(struct log_sink *sink, const struct config *cfg,
                          const struct http_server *srv)
{
    struct log_line l;

    log_begin(&l, sink, LOG_INFO, "listening");
    log_str(&l, "version", cfg->version);
    log_str(&l, "bind", cfg->bind);
    log_num(&l, "port", http_server_port(srv));
    log_num(&l, "threads", cfg->threads);
    log_num(&l, "socket_activated", cfg->nlisten_fds);
    log_num(&l, "max_body", (long long)cfg->max_body);
    log_num(&l, "max_nodes", (long long)cfg->max_nodes);
    log_num(&l, "max_search_ms", cfg->max_search_ms);
    log_num(&l, "max_batch_ms", cfg->max_batch_ms);
    log_num(&l, "timeout_s", cfg->timeout);
    log_num(&l, "max_connections", cfg->max_connections);
    log_str(&l, "cors_origins", cfg->cors_origins);
    log_end(&l, sink);
}

/* Waits for SIGTERM, SIGINT or SIGHUP, drains and stops srv. */
static void serve_until_signal(struct log_sink *sink, const struct config *cfg,
                               struct http_server *srv, sigset_t *stop)
{
    struct log_line l;
    int sig = 0;
    long left;

    uint64_t watchdog = systemd_watchdog_usec();

    if (watchdog == 0) {
        sigwait(stop, &sig);
    } else {
        /* WATCHDOG=1 at half the interval systemd asked for, as
         * sd_watchdog_enabled(3) recommends. */
        const struct timespec half = {(time_t)(watchdog / 2000000u),
                                      (long)(watchdog / 2 % 1000000u) * 1000};
        while ((sig = sigtimedwait(stop, NULL, &half)) < 0) {
            long stuck;
            if (errno != EAGAIN)
                continue;
            /* Only while every event loop comes round: a stuck loop (the
             * library's epoll stall, a deadlock) then gets the service
             * restarted, and its clients wait in the socket's backlog. */
            if ((stuck = http_server_alive(srv, 1000)) == 0) {
                systemd_notify("WATCHDOG=1");
                continue;
            }
            log_begin(&l, sink, LOG_ERROR, "event loop stuck");
            log_num(&l, "loops", stuck);
            log_str(&l, "detail",
                    "no WATCHDOG=1: systemd restarts the service");
            log_end(&l, sink);
        }
    }
    systemd_notifyf("STOPPING=1\nSTATUS=draining (%s): %ld requests in "
                    "flight, %ld connections; up to %u s",
                    sig == SIGTERM  ? "SIGTERM"
                    : sig == SIGINT ? "SIGINT"
                                    : "SIGHUP",
                    http_server_in_flight(srv), http_server_connections(srv),
                    cfg->drain_timeout);
    log_begin(&l, sink, LOG_INFO, "draining");
    log_str(&l, "signal",
            sig == SIGTERM  ? "SIGTERM"
            : sig == SIGINT ? "SIGINT"
                            : "SIGHUP");
    log_num(&l, "in_flight", http_server_in_flight(srv));
    log_num(&l, "connections", http_server_connections(srv));
    log_end(&l, sink);
    http_server_drain(srv, cfg->drain_timeout * 1000u);
    left = http_server_stop(srv);
    log_begin(&l, sink, left ? LOG_WARN : LOG_INFO, "stopped");
    log_num(&l, "abandoned", left);
    log_end(&l, sink);
}

int main(int argc, char **argv)
{
    struct config cfg;
    struct http_server *srv;
    struct log_sink sink = {.fd = 1, .level = LOG_INFO, .buffer = NULL};
    struct log_line l;
    char err[256];
    sigset_t stop;
    int status;

#ifdef __GLIBC__
    /* A fixed threshold: blocks of 128 KiB and more (batch bodies and
     * answers) get mappings of their own, given back when freed. glibc's
     * default threshold grows to the largest block freed, after which a
     * 4 MiB body stayed in the heap for good (docs/operations.md, "Limits"). */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
    if ((status = configure(&cfg, argc, argv)) >= 0)
        return status;
    sink.level = cfg.log_level;

    signal(SIGPIPE, SIG_IGN);
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &stop, NULL); /* inherited by every thread */
    /* Our lines too go through a writer thread (at once: flush_ms 0), so
     * that a stdout nobody reads cannot hold the drain at "draining". */
    sink.buffer = log_buffer_start(1, 0);

    if ((status = systemd_listen_fds(cfg.listen_fds, CONFIG_LISTEN_MAX, err,
                                     sizeof(err))) < 0) {
        fprintf(stderr, "sudokud: %s\n", err);
        log_buffer_stop(sink.buffer);
        return 2;
    }
    cfg.nlisten_fds = (unsigned)status;
    if (http_server_start(&cfg, &srv, err, sizeof(err)) != HTTP_OK) {
        systemd_notifyf("STATUS=cannot start: %s", err);
        log_begin(&l, &sink, LOG_ERROR, "cannot start");
        log_str(&l, "error", err);
        log_end(&l, &sink);
        fprintf(stderr, "sudokud: %s\n", err);
        log_buffer_stop(sink.buffer);
        return 1;
    }
    for (unsigned i = 0; i < cfg.nlisten_fds; i++)
        close(cfg.listen_fds[i]); /* each loop holds a copy of its own */
    log_listening(&sink, &cfg, srv);
    /* http_server_start returns once every loop's socket listens and its
     * thread runs: a client that connects now is served. */
    systemd_notifyf(
        "READY=1\nMAINPID=%ld\nSTATUS=serving on %s port %u, %u "
        "event loops%s",
        (long)getpid(), cfg.nlisten_fds ? "systemd's sockets," : cfg.bind,
        (unsigned)http_server_port(srv),
        cfg.threads > cfg.nlisten_fds ? cfg.threads : cfg.nlisten_fds,
        cfg.nlisten_fds ? " (socket activation)" : "");
    serve_until_signal(&sink, &cfg, srv, &stop);
    systemd_notify("STATUS=stopped");
    log_buffer_stop(sink.buffer);
    return 0;
}
