/* main.c - the sudokud daemon: configuration, start, wait for SIGTERM or
 * SIGINT, drain, stop. The signals are blocked in every thread and taken
 * with sigwait here, so no handler runs inside a worker. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "config.h"
#include "http.h"

#ifndef SUDOKUD_VERSION
#define SUDOKUD_VERSION "0.1.0"
#endif

/* One JSON line on stdout: {"time":..., "level":..., "msg":..., extra}. */
static void log_line(const char *level, const char *msg, const char *extra)
{
    struct timeval tv;
    struct tm tm;
    char stamp[32];

    gettimeofday(&tv, NULL);
    gmtime_r(&tv.tv_sec, &tm);
    strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S", &tm);
    printf("{\"time\":\"%s.%03ldZ\",\"level\":\"%s\",\"msg\":\"%s\"%s%s}\n",
           stamp, (long)(tv.tv_usec / 1000), level, msg, extra ? "," : "",
           extra ? extra : "");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    struct config cfg;
    struct http_server *srv;
    char err[256], extra[256];
    sigset_t stop;
    int sig = 0;
    long left;

    config_init(&cfg);
    switch (config_parse(&cfg, argc, argv, err, sizeof(err))) {
    case CONFIG_HELP:
        config_usage(stdout, argv[0]);
        return 0;
    case CONFIG_VERSION:
        printf("sudokud %s\n", SUDOKUD_VERSION);
        return 0;
    case CONFIG_ERROR:
        fprintf(stderr, "sudokud: %s\n", err);
        return 2;
    case CONFIG_OK:
        break;
    }

    signal(SIGPIPE, SIG_IGN);
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, NULL); /* inherited by every thread */

    if (http_server_start(&cfg, &srv, err, sizeof(err)) != HTTP_OK) {
        fprintf(stderr, "sudokud: %s\n", err);
        return 1;
    }
    snprintf(extra, sizeof(extra),
             "\"version\":\"%s\",\"bind\":\"%s\",\"port\":%u,\"threads\":%u,"
             "\"max_body\":%zu,\"max_nodes\":%llu,\"timeout_s\":%u",
             SUDOKUD_VERSION, cfg.bind, (unsigned)http_server_port(srv),
             cfg.threads, cfg.max_body, (unsigned long long)cfg.max_nodes,
             cfg.timeout);
    log_line("info", "listening", extra);

    sigwait(&stop, &sig);
    snprintf(extra, sizeof(extra), "\"signal\":\"%s\",\"in_flight\":%ld",
             sig == SIGTERM ? "SIGTERM" : "SIGINT", http_server_in_flight(srv));
    log_line("info", "draining", extra);
    left = http_server_drain(srv, cfg.drain_timeout * 1000u);
    http_server_stop(srv);
    snprintf(extra, sizeof(extra), "\"abandoned\":%ld", left);
    log_line(left ? "warn" : "info", "stopped", extra);
    return 0;
}
