/* daemon_support.c - helpers of the daemon suite's parts (see
 * daemon_support.h): the built binary started in a child process, its
 * stdout read for log lines, and raw HTTP/1.1 over a socket to it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon_support.h"
#include "support.h"

static const char *binary(void)
{
    const char *b = getenv("SUDOKUD_BIN");
    return b ? b : "build/sudokud";
}

/* In a child forked by the runner: the child is killed when the runner
 * ends, so a test that fails (cmocka leaves the test function at the
 * failed assertion, before its kill) leaves no daemon running. */
void daemon_child_dies_with_runner(pid_t runner)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != runner) /* the runner ended before the prctl */
        _exit(127);
}

/* Starts the daemon with extra arguments (NULL-terminated). */
void daemon_spawn(struct daemon *d, const char *const *args)
{
    const char *argv[16] = {binary()};
    int out[2], err[2], n = 1;
    pid_t runner = getpid();

    for (; args && *args && n < 15; args++)
        argv[n++] = *args;
    argv[n] = NULL;
    memset(d, 0, sizeof(*d));
    assert_int_equal(pipe(out), 0);
    assert_int_equal(pipe(err), 0);
    d->pid = fork();
    assert_true(d->pid >= 0);
    if (d->pid == 0) {
        daemon_child_dies_with_runner(runner);
        dup2(out[1], 1);
        dup2(err[1], 2);
        close(out[0]), close(err[0]);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(out[1]), close(err[1]);
    d->out = out[0];
    d->err = err[0];
}

/* Reads the daemon's stdout until `word` shows up or timeout_ms passes. */
int daemon_wait_log(struct daemon *d, const char *word, int timeout_ms)
{
    struct pollfd p = {.fd = d->out, .events = POLLIN};

    while (strstr(d->log, word) == NULL) {
        ssize_t n;
        if (poll(&p, 1, timeout_ms) != 1)
            return 0;
        n = read(d->out, d->log + d->loglen, sizeof(d->log) - 1 - d->loglen);
        if (n <= 0)
            return 0;
        d->loglen += (size_t)n;
        d->log[d->loglen] = '\0';
    }
    return 1;
}

/* Starts the daemon with args that include "--port 0" and reads the port
 * it picked from its "listening" line. */
void daemon_spawn_on_free_port(struct daemon *d, const char *const *args)
{
    const char *p;

    daemon_spawn(d, args);
    assert_true(daemon_wait_log(d, "\"msg\":\"listening\"", 5000));
    p = strstr(d->log, "\"port\":");
    assert_non_null(p);
    d->port = (unsigned)atoi(p + 7);
    assert_true(d->port > 0);
}

/* Starts the daemon on a free port. With the access log on, a test that
 * sends many requests without reading d->log fills the pipe, and the
 * daemon then drops access lines (stdout_blocked_keeps_serving). */
void daemon_spawn_listening_with(struct daemon *d, int access_log)
{
    static const char *const args[] = {"--port",    "0", "--bind", "127.0.0.1",
                                       "--threads", "2", NULL};
    static const char *const quiet[] = {"--port",       "0",         "--bind",
                                        "127.0.0.1",    "--threads", "2",
                                        "--access-log", "off",       NULL};

    daemon_spawn_on_free_port(d, access_log ? args : quiet);
}

void daemon_spawn_listening(struct daemon *d)
{
    daemon_spawn_listening_with(d, 1);
}

/* Waits up to timeout_ms for the daemon to exit; returns its wait status
 * or -1 if it is still running. */
struct exit_wait {
    pid_t pid;
    int status;
};

static int has_exited(void *arg)
{
    struct exit_wait *w = arg;

    return waitpid(w->pid, &w->status, WNOHANG) == w->pid;
}

int daemon_wait_exit(struct daemon *d, int timeout_ms)
{
    struct exit_wait w = {d->pid, 0};

    return support_wait_until(has_exited, &w, timeout_ms) ? w.status : -1;
}

void daemon_send_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t k = send(fd, s, n, MSG_NOSIGNAL);
        assert_true(k > 0);
        s += k, n -= (size_t)k;
    }
}

/* Reads until the peer closes or a full response (by Content-Length) is in. */
size_t daemon_read_response(int fd, char *buf, size_t cap)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    size_t len = 0;

    while (len < cap - 1 && poll(&p, 1, 5000) == 1) {
        ssize_t n = recv(fd, buf + len, cap - 1 - len, 0);
        const char *head, *cl;
        if (n <= 0)
            break;
        len += (size_t)n;
        buf[len] = '\0';
        head = strstr(buf, "\r\n\r\n");
        cl = strstr(buf, "Content-Length: ");
        if (head && cl &&
            len >= (size_t)(head + 4 - buf) + (size_t)atol(cl + 16))
            break;
    }
    buf[len] = '\0';
    return len;
}

long daemon_now_ms(void)
{
    return support_now_ms();
}

/* Sends req on a new connection and reads the answer into resp. */
void daemon_exchange(unsigned port, const char *req, char *resp, size_t cap)
{
    int fd = support_connect(port);

    assert_true(fd >= 0);
    daemon_send_all(fd, req, strlen(req));
    daemon_read_response(fd, resp, cap);
    close(fd);
}

/* GET path on a new connection; the answer in resp (NUL-terminated), and
 * how long it took in *took_ms. */
void daemon_get_on_new_connection(unsigned port, const char *path, char *resp,
                                  size_t cap, long *took_ms)
{
    char req[256];
    long t0 = daemon_now_ms();

    snprintf(req, sizeof(req), "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path);
    daemon_exchange(port, req, resp, cap);
    *took_ms = daemon_now_ms() - t0;
}

/* The value of a series of the daemon's GET /metrics, scraped on a new
 * connection (which http_connections_open counts); -1 when absent. */
double daemon_metric(unsigned port, const char *series)
{
    static char resp[256 * 1024];
    long took;

    daemon_get_on_new_connection(port, "/metrics", resp, sizeof(resp), &took);
    assert_memory_equal(resp, "HTTP/1.1 200", 12);
    return support_sample(resp, series);
}

/* Waits (5 s at most) until the daemon's `series` reaches at least min. */
struct metric_wait {
    unsigned port;
    const char *series;
    double min;
};

static int metric_reached(void *arg)
{
    const struct metric_wait *w = arg;

    return daemon_metric(w->port, w->series) >= w->min;
}

int daemon_metric_reaches(unsigned port, const char *series, double min)
{
    struct metric_wait w = {port, series, min};

    return support_wait_until(metric_reached, &w, 5000);
}
