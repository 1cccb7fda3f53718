/* systemd.c - sd_notify and sd_listen_fds in a few lines each, as
 * sd_notify(3) and sd_listen_fds(3) describe the wire format: a notification
 * is one datagram of NAME=VALUE lines; handed sockets start at descriptor 3
 * (SD_LISTEN_FDS_START) and are meant for the process named in LISTEN_PID. */
#include "systemd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/socket.h>
#include <sys/un.h>

#define LISTEN_FDS_START 3

int systemd_notify(const char *state)
{
    const char *path = getenv("NOTIFY_SOCKET");
    struct sockaddr_un sun = {.sun_family = AF_UNIX};
    size_t n, len = strlen(state);
    socklen_t salen;
    ssize_t sent;
    int fd, e;

    if (path == NULL || path[0] == '\0')
        return 0;
    n = strlen(path);
    if ((path[0] != '/' && path[0] != '@') || n >= sizeof(sun.sun_path)) {
        errno = EINVAL;
        return -1;
    }
    memcpy(sun.sun_path, path, n);
    if (path[0] == '@') /* abstract: a leading NUL, no terminating one */
        sun.sun_path[0] = '\0';
    salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n +
                        (path[0] == '/'));
    if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
        return -1;
    do
        sent = sendto(fd, state, len, MSG_NOSIGNAL, (struct sockaddr *)&sun,
                      salen);
    while (sent < 0 && errno == EINTR);
    e = errno;
    close(fd);
    errno = e;
    return sent == (ssize_t)len ? 1 : -1;
}

int systemd_notifyf(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return systemd_notify(msg);
}

/* A decimal number with nothing around it; -1 when it is not one. */
static long long parse_decimal(const char *s)
{
    char *end;
    long long v;

    if (s == NULL || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    v = strtoll(s, &end, 10);
    return errno == 0 && *end == '\0' ? v : -1;
}

uint64_t systemd_watchdog_usec(void)
{
    long long usec = parse_decimal(getenv("WATCHDOG_USEC"));
    const char *pid = getenv("WATCHDOG_PID");

    if (usec <= 0 || (pid != NULL && parse_decimal(pid) != (long long)getpid()))
        return 0;
    return (uint64_t)usec;
}

int systemd_listen_fds(int *fds, size_t cap, char *err, size_t errlen)
{
    long long pid = parse_decimal(getenv("LISTEN_PID"));
    const char *nfds = getenv("LISTEN_FDS");
    long long n = parse_decimal(nfds);
    int status = 0;

    if (nfds == NULL || pid != (long long)getpid())
        goto out; /* not for us (a parent's), or nothing handed over */
    if (n < 0 || (size_t)n > cap) {
        snprintf(err, errlen,
                 "LISTEN_FDS='%s': expected a number of sockets from 0 to %zu",
                 nfds, cap);
        status = -1;
        goto out;
    }
    for (int i = 0; i < (int)n; i++) {
        int fd = LISTEN_FDS_START + i, type = 0, listening = 0;
        socklen_t len = sizeof(type);
        struct sockaddr_storage ss;
        socklen_t sslen = sizeof(ss);

        if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 ||
            type != SOCK_STREAM ||
            getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening,
                       &(socklen_t){sizeof(listening)}) != 0 ||
            !listening ||
            getsockname(fd, (struct sockaddr *)&ss, &sslen) != 0 ||
            (ss.ss_family != AF_INET && ss.ss_family != AF_INET6)) {
            snprintf(err, errlen,
                     "socket activation: descriptor %d is not a listening "
                     "TCP socket (ListenStream= with an IP address and port)",
                     fd);
            status = -1;
            goto out;
        }
        fcntl(fd, F_SETFD, FD_CLOEXEC);
        fds[i] = fd;
    }
    status = (int)n;
out:
    unsetenv("LISTEN_PID");
    unsetenv("LISTEN_FDS");
    unsetenv("LISTEN_FDNAMES");
    return status;
}
