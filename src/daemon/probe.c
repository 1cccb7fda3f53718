/* probe.c - `sudokud --probe [URL]`: one GET, the status line read back.
 * Only literal addresses (and "localhost") are accepted: a health check
 * must not depend on DNS. Without a URL, the daemon's own command line
 * (/proc/PID/cmdline) tells the port, so no shell has to pass it. */
#include "probe.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "config.h"

/* Splits url into an address and a path. Returns 0 or -1. */
static int parse_url(const char *url, struct sockaddr_storage *sa,
                     socklen_t *salen, char *path, size_t pathcap)
{
    char host[64];
    const char *p, *slash;
    unsigned long port = 80;
    size_t n;

    if (strncmp(url, "http://", 7) != 0)
        return -1;
    p = url + 7;
    if (*p == '[') {
        const char *close = strchr(p, ']');
        if (close == NULL || (size_t)(close - p - 1) >= sizeof(host))
            return -1;
        n = (size_t)(close - p - 1);
        memcpy(host, p + 1, n);
        p = close + 1;
    } else {
        n = strcspn(p, ":/");
        if (n >= sizeof(host))
            return -1;
        memcpy(host, p, n);
        p += n;
    }
    host[n] = '\0';
    if (*p == ':') {
        char *end;
        port = strtoul(p + 1, &end, 10);
        if (end == p + 1 || port == 0 || port > 65535)
            return -1;
        p = end;
    }
    slash = *p ? p : "/";
    if (*slash != '/' || strlen(slash) >= pathcap)
        return -1;
    strcpy(path, slash);
    if (strcmp(host, "localhost") == 0)
        strcpy(host, "127.0.0.1");
    memset(sa, 0, sizeof(*sa));
    if (inet_pton(AF_INET, host, &((struct sockaddr_in *)sa)->sin_addr) == 1) {
        ((struct sockaddr_in *)sa)->sin_family = AF_INET;
        ((struct sockaddr_in *)sa)->sin_port = htons((uint16_t)port);
        *salen = sizeof(struct sockaddr_in);
    } else if (inet_pton(AF_INET6, host,
                         &((struct sockaddr_in6 *)sa)->sin6_addr) == 1) {
        ((struct sockaddr_in6 *)sa)->sin6_family = AF_INET6;
        ((struct sockaddr_in6 *)sa)->sin6_port = htons((uint16_t)port);
        *salen = sizeof(struct sockaddr_in6);
    } else {
        return -1;
    }
    return 0;
}

static long ms_since(uint64_t t0_ms)
{
    return (long)(clock_now_ms() - t0_ms);
}

/* Waits for fd to become ready for `events` before the deadline. */
static int wait_for(int fd, short events, uint64_t t0, unsigned timeout_ms)
{
    struct pollfd p = {.fd = fd, .events = events};
    long left = (long)timeout_ms - ms_since(t0);

    return left > 0 && poll(&p, 1, (int)left) == 1 ? 0 : -1;
}

int probe_get(const char *url, unsigned timeout_ms, char *err, size_t errlen)
{
    struct sockaddr_storage sa;
    socklen_t salen;
    uint64_t t0;
    char path[256], req[512], resp[256];
    size_t got = 0;
    int fd, status = -1, soerr = 0;
    socklen_t optlen = sizeof(soerr);

    if (parse_url(url, &sa, &salen, path, sizeof(path)) != 0) {
        snprintf(err, errlen,
                 "'%s' is not http://ADDRESS[:PORT]/PATH with a "
                 "literal address or localhost",
                 url);
        return -1;
    }
    t0 = clock_now_ms();
    fd = socket(sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(err, errlen, "socket: %s", strerror(errno));
        return -1;
    }
    if (connect(fd, (struct sockaddr *)&sa, salen) != 0 &&
        (errno != EINPROGRESS || wait_for(fd, POLLOUT, t0, timeout_ms) != 0 ||
         getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &optlen) != 0 || soerr)) {
        snprintf(err, errlen, "cannot connect to %s: %s", url,
                 soerr ? strerror(soerr) : "timed out or refused");
        goto out;
    }
    snprintf(req, sizeof(req),
             "GET %s HTTP/1.1\r\nHost: probe\r\n"
             "User-Agent: sudokud-probe\r\nConnection: close\r\n\r\n",
             path);
    if (send(fd, req, strlen(req), MSG_NOSIGNAL) != (ssize_t)strlen(req)) {
        snprintf(err, errlen, "cannot send to %s", url);
        goto out;
    }
    while (got < sizeof(resp) - 1 && memchr(resp, '\n', got) == NULL) {
        ssize_t n;
        if (wait_for(fd, POLLIN, t0, timeout_ms) != 0)
            break;
        n = recv(fd, resp + got, sizeof(resp) - 1 - got, 0);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    resp[got] = '\0';
    if (sscanf(resp, "HTTP/1.%*1d %3d", &status) != 1) {
        snprintf(err, errlen, "no HTTP answer from %s within %u ms", url,
                 timeout_ms);
        status = -1;
    }
out:
    close(fd);
    return status;
}

/* ------------------------------------------------------------------------
 * The daemon's own address, for a bare --probe
 * ------------------------------------------------------------------------ */

#define PROBE_CMDLINE_MAX 8192
#define PROBE_ARGS_MAX 128

/* Reads PROC/pid/cmdline into buf and splits it into argv. Returns argc, or
 * 0 when it cannot be read or is not a sudokud daemon (a --probe is not). */
static int daemon_args(const char *proc, long pid, char *buf, char **argv)
{
    char path[300];
    const char *base;
    ssize_t n, got = 0;
    int fd, argc = 0;

    snprintf(path, sizeof(path), "%s/%ld/cmdline", proc, pid);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    while (got < PROBE_CMDLINE_MAX - 1 &&
           (n = read(fd, buf + got, (size_t)(PROBE_CMDLINE_MAX - 1 - got))) > 0)
        got += n;
    close(fd);
    if (got == 0 || got == PROBE_CMDLINE_MAX - 1)
        return 0;
    buf[got] = '\0';
    for (char *p = buf; p < buf + got && argc < PROBE_ARGS_MAX - 1;
         p += strlen(p) + 1)
        argv[argc++] = p;
    argv[argc] = NULL;
    base = strrchr(argv[0], '/');
    base = base ? base + 1 : argv[0];
    if (strcmp(base, "sudokud") != 0 ||
        (argc >= 2 && strcmp(argv[1], "--probe") == 0))
        return 0;
    return argc;
}

int probe_daemon_url(const char *proc, char *url, size_t cap, char *err,
                     size_t errlen)
{
    char buf[PROBE_CMDLINE_MAX], *argv[PROBE_ARGS_MAX];
    struct config cfg;
    struct dirent *e;
    const char *host;
    long best = -1, self = (long)getpid();
    DIR *d = opendir(proc);
    int argc;

    if (d == NULL) {
        snprintf(err, errlen, "cannot read %s: %s", proc, strerror(errno));
        return -1;
    }
    while ((e = readdir(d)) != NULL) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end != '\0' || pid <= 0 || pid == self ||
            (best > 0 && pid >= best))
            continue;
        if (daemon_args(proc, pid, buf, argv) > 0)
            best = pid;
    }
    closedir(d);
    if (best < 0) {
        snprintf(err, errlen, "no sudokud daemon found in %s: give the URL",
                 proc);
        return -1;
    }
    argc = daemon_args(proc, best, buf, argv);
    config_init(&cfg);
    if (argc == 0 || config_parse(&cfg, argc, argv, err, errlen) != CONFIG_OK) {
        if (argc == 0)
            snprintf(err, errlen, "sudokud (pid %ld) went away", best);
        return -1;
    }
    if (cfg.port == 0) {
        snprintf(err, errlen,
                 "sudokud (pid %ld) picked its port at start "
                 "(port 0): give the URL",
                 best);
        return -1;
    }
    if (strcmp(cfg.bind, "0.0.0.0") == 0)
        host = "127.0.0.1";
    else if (strcmp(cfg.bind, "::") == 0)
        host = "::1";
    else
        host = cfg.bind;
    if ((size_t)snprintf(url, cap,
                         strchr(host, ':') ? "http://[%s]:%u/livez"
                                           : "http://%s:%u/livez",
                         host, (unsigned)cfg.port) >= cap) {
        snprintf(err, errlen, "the daemon's URL is too long");
        return -1;
    }
    return 0;
}
