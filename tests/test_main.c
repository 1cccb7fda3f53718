/* test_main.c - black-box tests of the built daemon ($SUDOKUD_BIN, default
 * build/sudokud): start it on port 0, solve over a raw socket, and stop it
 * with SIGTERM (or SIGHUP) while a request is in flight; bad settings exit
 * 2; a stdout nobody reads does not stop it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probe.h"
#include "support.h"
#include "tests.h"

#define EXAMPLE SUPPORT_EXAMPLE_BODY
#define EXAMPLE_SOLUTION SUPPORT_EXAMPLE_SOLUTION_ROWS

struct daemon {
    pid_t pid;
    int out; /* read end of its stdout */
    int err; /* read end of its stderr */
    unsigned port;
    char log[8192]; /* stdout read so far */
    size_t loglen;
};

static const char *binary(void)
{
    const char *b = getenv("SUDOKUD_BIN");
    return b ? b : "build/sudokud";
}

/* Starts the daemon with extra arguments (NULL-terminated). */
static void spawn(struct daemon *d, const char *const *args)
{
    const char *argv[16] = {binary()};
    int out[2], err[2], n = 1;

    for (; args && *args && n < 15; args++)
        argv[n++] = *args;
    argv[n] = NULL;
    memset(d, 0, sizeof(*d));
    assert_int_equal(pipe(out), 0);
    assert_int_equal(pipe(err), 0);
    d->pid = fork();
    assert_true(d->pid >= 0);
    if (d->pid == 0) {
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
static int wait_log(struct daemon *d, const char *word, int timeout_ms)
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
static void spawn_on_free_port(struct daemon *d, const char *const *args)
{
    const char *p;

    spawn(d, args);
    assert_true(wait_log(d, "\"msg\":\"listening\"", 5000));
    p = strstr(d->log, "\"port\":");
    assert_non_null(p);
    d->port = (unsigned)atoi(p + 7);
    assert_true(d->port > 0);
}

/* Starts the daemon on a free port. With the access log on, a test that
 * sends many requests without reading d->log fills the pipe, and the
 * daemon then drops access lines (test_stdout_blocked_keeps_serving). */
static void spawn_listening_with(struct daemon *d, int access_log)
{
    static const char *const args[] = {"--port",    "0", "--bind", "127.0.0.1",
                                       "--threads", "2", NULL};
    static const char *const quiet[] = {"--port",       "0",         "--bind",
                                        "127.0.0.1",    "--threads", "2",
                                        "--access-log", "off",       NULL};

    spawn_on_free_port(d, access_log ? args : quiet);
}

static void spawn_listening(struct daemon *d)
{
    spawn_listening_with(d, 1);
}

/* Waits up to timeout_ms for the daemon to exit; returns its wait status
 * or -1 if it is still running. */
static int wait_exit(struct daemon *d, int timeout_ms)
{
    int status;

    for (int t = 0; t < timeout_ms; t += 10) {
        if (waitpid(d->pid, &status, WNOHANG) == d->pid)
            return status;
        usleep(10000);
    }
    return -1;
}

static void send_all(int fd, const char *s, size_t n)
{
    while (n > 0) {
        ssize_t k = send(fd, s, n, MSG_NOSIGNAL);
        assert_true(k > 0);
        s += k, n -= (size_t)k;
    }
}

/* Reads until the peer closes or a full response (by Content-Length) is in. */
static size_t read_response(int fd, char *buf, size_t cap)
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

static long now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* GET path on a new connection; the answer in resp (NUL-terminated), and
 * how long it took in *took_ms. */
static void get_on_new_connection(unsigned port, const char *path, char *resp,
                                  size_t cap, long *took_ms)
{
    char req[256];
    long t0 = now_ms();
    int fd = support_connect(port);

    assert_true(fd >= 0);
    snprintf(req, sizeof(req), "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path);
    send_all(fd, req, strlen(req));
    read_response(fd, resp, cap);
    *took_ms = now_ms() - t0;
    close(fd);
}

/* The value of a series of the daemon's GET /metrics, scraped on a new
 * connection (which http_connections_open counts); -1 when absent. */
static double metric(unsigned port, const char *series)
{
    static char resp[256 * 1024];
    long took;

    get_on_new_connection(port, "/metrics", resp, sizeof(resp), &took);
    assert_memory_equal(resp, "HTTP/1.1 200", 12);
    return support_sample(resp, series);
}

/* Reads the "100 Continue" the server sends once it has taken a request's
 * headers in (the request said Expect: 100-continue); 1 when it came
 * within 5 s. */
static int continued(int fd)
{
    static const char want[] = "HTTP/1.1 100 Continue\r\n\r\n";
    char got[sizeof(want)];
    size_t n = 0;
    struct pollfd p = {.fd = fd, .events = POLLIN};

    while (n < sizeof(want) - 1 && poll(&p, 1, 5000) == 1) {
        ssize_t r = recv(fd, got + n, sizeof(want) - 1 - n, 0);
        if (r <= 0)
            return 0;
        n += (size_t)r;
    }
    return n == sizeof(want) - 1 && memcmp(got, want, n) == 0;
}

/* Waits (5 s at most) until the daemon's `series` reaches at least min. */
static int metric_reaches(unsigned port, const char *series, double min)
{
    for (long deadline = now_ms() + 5000; now_ms() < deadline; usleep(5000))
        if (metric(port, series) >= min)
            return 1;
    return 0;
}

/* n connections taken in by a daemon with a single event loop, which is
 * then stopped (SIGSTOP) while a request is written on each, so that it
 * finds all n ready at once when it goes on (SIGCONT). libmicrohttpd
 * 0.9.75's own epoll loop then hangs at 256 ready (measured: none of 256
 * answered in 5 s; its MHD_epoll waits again, blocking, after a full batch
 * of 128 events). Every request must be answered within 10 s, where a
 * hung loop would wait for the 30 s idle timeout. Returns how many were. */
static int stopped_burst(struct daemon *d, int n)
{
    char req[512], buf[1024];
    int *fd = calloc((size_t)n, sizeof(*fd)), answered = 0;
    struct pollfd *p = calloc((size_t)n, sizeof(*p));
    int len = snprintf(
        req, sizeof(req),
        "POST /solve HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
        "Content-Length: %zu\r\n\r\n%s",
        strlen(EXAMPLE), EXAMPLE);
    long deadline;

    for (int i = 0; i < n; i++) {
        fd[i] = support_connect(d->port);
        assert_true(fd[i] >= 0);
        p[i] = (struct pollfd){.fd = fd[i], .events = POLLIN};
    }
    /* All taken in (and the scrape's own connection). */
    assert_true(metric_reaches(d->port, "http_connections_open", n + 1));
    kill(d->pid, SIGSTOP);
    for (int i = 0; i < n; i++) /* on loopback, in its buffers on return */
        send_all(fd[i], req, (size_t)len);
    kill(d->pid, SIGCONT);
    deadline = now_ms() + 10000;
    while (answered < n && now_ms() < deadline) {
        if (poll(p, (nfds_t)n, 100) <= 0)
            continue;
        for (int i = 0; i < n; i++) {
            ssize_t got;
            if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP)))
                continue;
            /* The answer is small: it comes in one piece. */
            got = recv(fd[i], buf, sizeof(buf) - 1, 0);
            buf[got > 0 ? got : 0] = '\0';
            if (strstr(buf, "HTTP/1.1 200") && strstr(buf, EXAMPLE_SOLUTION))
                answered++;
            p[i].fd = -1; /* poll skips it from now on */
        }
    }
    for (int i = 0; i < n; i++)
        close(fd[i]);
    free(fd), free(p);
    return answered;
}

static void test_many_ready_at_once(void **state)
{
    static const char *const args[] = {
        "--port",    "0",  "--bind",       "127.0.0.1", "--threads", "1",
        "--timeout", "30", "--access-log", "off",       NULL};
    static const int sizes[] = {127, 128, 129, 256, 384};
    struct daemon d;

    (void)state;
    spawn_on_free_port(&d, args);
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        assert_int_equal(stopped_burst(&d, sizes[i]), sizes[i]);
    kill(d.pid, SIGTERM);
    assert_true(WIFEXITED(wait_exit(&d, 5000)));
    close(d.out), close(d.err);
}

/* ------------------------------------------------------------------------
 * Tests
 * ------------------------------------------------------------------------ */

static void test_solve_and_sigint(void **state)
{
    struct daemon d;
    char req[1024], resp[4096];
    int fd, status;

    (void)state;
    spawn_listening(&d);
    fd = support_connect(d.port);
    assert_true(fd >= 0);
    snprintf(
        req, sizeof(req),
        "POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: %zu\r\n\r\n%s",
        strlen(EXAMPLE), EXAMPLE);
    send_all(fd, req, strlen(req));
    read_response(fd, resp, sizeof(resp));
    assert_memory_equal(resp, "HTTP/1.1 200", 12);
    assert_non_null(strstr(resp, EXAMPLE_SOLUTION));
    close(fd);
    kill(d.pid, SIGINT);
    status = wait_exit(&d, 5000);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_true(wait_log(&d, "\"msg\":\"stopped\"", 1000));
    close(d.out), close(d.err);
}

/* `sig` arrives while a request is half sent: the daemon logs the signal
 * as it drains, stops taking new connections, answers that request in
 * full (Connection: close), logs its access line before "stopped", and
 * exits 0 (a daemon killed by SIGHUP would exit 129). */
static void drain_with_request_in_flight(int sig, const char *name)
{
    struct daemon d;
    char head[256], resp[4096], want[64];
    size_t half = strlen(EXAMPLE) / 2;
    const char *access, *stopped;
    int fd, status;

    spawn_listening(&d);
    fd = support_connect(d.port);
    assert_true(fd >= 0);
    snprintf(
        head, sizeof(head),
        "POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "X-Request-Id: held-1\r\nExpect: 100-continue\r\n"
        "Content-Length: %zu\r\n\r\n",
        strlen(EXAMPLE));
    send_all(fd, head, strlen(head));
    /* The server has the headers (it says so): the request is in flight. */
    assert_true(continued(fd));
    send_all(fd, EXAMPLE, half);
    kill(d.pid, sig);
    assert_true(wait_log(&d, "\"msg\":\"draining\"", 5000));
    snprintf(want, sizeof(want), "\"signal\":\"%s\"", name);
    assert_non_null(strstr(d.log, want));
    assert_non_null(strstr(d.log, "\"in_flight\":1"));
    assert_int_equal(wait_exit(&d, 300), -1);      /* still waiting for us */
    assert_int_equal(support_connect(d.port), -1); /* but not accepting */
    send_all(fd, EXAMPLE + half, strlen(EXAMPLE) - half);
    read_response(fd, resp, sizeof(resp));
    assert_memory_equal(resp, "HTTP/1.1 200", 12);
    assert_non_null(strstr(resp, EXAMPLE_SOLUTION));
    assert_non_null(strstr(resp, "Connection: close"));
    close(fd);
    status = wait_exit(&d, 5000);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_true(wait_log(&d, "\"abandoned\":0", 1000));
    access = strstr(d.log, "\"request_id\":\"held-1\"");
    stopped = strstr(d.log, "\"msg\":\"stopped\"");
    assert_non_null(access);
    assert_non_null(stopped);
    assert_true(access < stopped);
    close(d.out), close(d.err);
}

static void test_sigterm_with_request_in_flight(void **state)
{
    (void)state;
    drain_with_request_in_flight(SIGTERM, "SIGTERM");
}

static void expect_exit(const char *const *args, int code, const char *in_err)
{
    struct daemon d;
    char err[1024] = "";
    ssize_t n;
    int status;

    spawn(&d, args);
    status = wait_exit(&d, 5000);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), code);
    n = read(d.err, err, sizeof(err) - 1);
    err[n > 0 ? n : 0] = '\0';
    if (in_err != NULL)
        assert_non_null(strstr(err, in_err));
    close(d.out), close(d.err);
}

static void test_bad_settings_exit_2(void **state)
{
    static const char *const port[] = {"--port", "70000", NULL};
    static const char *const threads[] = {"--threads", "many", NULL};
    static const char *const unknown[] = {"--colour", "red", NULL};
    static const char *const bind[] = {"--bind", "localhost:80", "--port", "0",
                                       NULL};

    (void)state;
    expect_exit(port, 2, "--port: '70000'");
    expect_exit(threads, 2, "--threads: 'many'");
    expect_exit(unknown, 2, "unknown option '--colour'");
    expect_exit(bind, 2, "not an IPv4 or IPv6 address");
}

static void test_help(void **state)
{
    static const char *const help[] = {"--help", NULL};
    struct daemon d;
    char out[4096];
    ssize_t n;
    int status;

    (void)state;
    spawn(&d, help);
    status = wait_exit(&d, 5000);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    n = read(d.out, out, sizeof(out) - 1);
    assert_true(n > 0);
    out[n] = '\0';
    assert_non_null(strstr(out, "--max-body"));
    assert_non_null(strstr(out, "MAX_BODY"));
    close(d.out), close(d.err);
}

/* A steady keep-alive load, SIGTERM in the middle: every request sent on an
 * accepted connection is answered 200; after the signal clients are told to
 * close (Connection: close) and new connections are refused. */
/* Read by the test while its thread runs: the counts are atomic. */
struct load {
    unsigned port;
    atomic_int *stop;
    atomic_int ok, failed, refused;
};

static size_t discard(char *p, size_t size, size_t n, void *userdata)
{
    (void)p, (void)userdata;
    return size * n;
}

static void *load_thread(void *arg)
{
    struct load *ld = arg;
    CURL *curl = curl_easy_init();
    struct curl_slist *hdrs =
        curl_slist_append(NULL, "Content-Type: application/json");
    char url[64];

    snprintf(url, sizeof(url), "http://127.0.0.1:%u/solve", ld->port);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdrs);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, EXAMPLE);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 10L);
    while (!atomic_load(ld->stop)) {
        long status = 0;
        CURLcode rc = curl_easy_perform(curl);
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
        if (rc == CURLE_COULDNT_CONNECT) {
            ld->refused++; /* never accepted: a gateway retries elsewhere */
            usleep(10 * 1000);
        } else if (rc == CURLE_OK && status == 200) {
            ld->ok++;
        } else {
            ld->failed++;
            fprintf(stderr, "load: curl %d, status %ld\n", (int)rc, status);
        }
    }
    curl_slist_free_all(hdrs);
    curl_easy_cleanup(curl);
    return NULL;
}

static void test_sigterm_under_load(void **state)
{
    enum { THREADS = 8 };
    struct daemon d;
    struct load ld[THREADS];
    pthread_t t[THREADS];
    atomic_int stop = 0;
    int status, ok_before = 0, ok = 0, failed = 0, refused = 0;

    (void)state;
    spawn_listening_with(&d, 0);
    for (int i = 0; i < THREADS; i++) {
        ld[i].port = d.port;
        ld[i].stop = &stop;
        atomic_init(&ld[i].ok, 0);
        atomic_init(&ld[i].failed, 0);
        atomic_init(&ld[i].refused, 0);
        assert_int_equal(pthread_create(&t[i], NULL, load_thread, &ld[i]), 0);
    }
    /* Under load: some hundreds answered. */
    for (long deadline = now_ms() + 10000;
         ok_before < 500 && now_ms() < deadline; usleep(5000)) {
        ok_before = 0;
        for (int i = 0; i < THREADS; i++)
            ok_before += atomic_load(&ld[i].ok);
    }
    kill(d.pid, SIGTERM);
    status = wait_exit(&d, 10000);
    /* Every client has found the port closed since. */
    for (long deadline = now_ms() + 5000; now_ms() < deadline; usleep(5000)) {
        int all = 1;
        for (int i = 0; i < THREADS; i++)
            all &= atomic_load(&ld[i].refused) > 0;
        if (all)
            break;
    }
    atomic_store(&stop, 1);
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        ok += atomic_load(&ld[i].ok);
        failed += atomic_load(&ld[i].failed);
    }
    for (int i = 0; i < THREADS; i++)
        refused += atomic_load(&ld[i].refused);
    print_message("SIGTERM under load: %d answered before the signal, %d in "
                  "all, %d refused after it, %d failed\n",
                  ok_before, ok, refused, failed);
    assert_true(ok_before > 0);
    assert_int_equal(failed, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_true(wait_log(&d, "\"abandoned\":0", 1000));
    close(d.out), close(d.err);
}

/* One JSON access-log line per request with the documented fields; the
 * client's X-Request-Id is kept. */
static void test_access_log(void **state)
{
    struct daemon d;
    char req[1024], resp[4096];
    int fd, status;
    const char *line;

    (void)state;
    spawn_listening(&d);
    fd = support_connect(d.port);
    assert_true(fd >= 0);
    snprintf(
        req, sizeof(req),
        "POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "User-Agent: test \"agent\"\r\nX-Request-Id: log-test-1\r\n"
        "Content-Length: %zu\r\n\r\n%s",
        strlen(EXAMPLE), EXAMPLE);
    send_all(fd, req, strlen(req));
    read_response(fd, resp, sizeof(resp));
    assert_non_null(strstr(resp, "X-Request-Id: log-test-1"));
    close(fd);
    assert_true(wait_log(&d, "\"request_id\":\"log-test-1\"", 5000));
    line = strstr(d.log, "\"msg\":\"request\"");
    assert_non_null(line);
    assert_non_null(strstr(
        line,
        "\"method\":\"POST\",\"path\":\"/solve\",\"status\":200,\"bytes\":"));
    assert_non_null(strstr(line, "\"duration_us\":"));
    assert_non_null(strstr(line, "\"remote\":\"127.0.0.1\""));
    assert_non_null(strstr(line, "\"user_agent\":\"test \\\"agent\\\"\""));
    kill(d.pid, SIGTERM);
    status = wait_exit(&d, 5000);
    assert_int_equal(WEXITSTATUS(status), 0);
    close(d.out), close(d.err);
}

static void test_access_log_off(void **state)
{
    static const char *const args[] = {
        "--port", "0", "--bind", "127.0.0.1", "--access-log", "off", NULL};
    struct daemon d;
    char req[256], resp[4096];
    int fd;

    (void)state;
    spawn_on_free_port(&d, args);
    fd = support_connect(d.port);
    snprintf(req, sizeof(req), "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n");
    send_all(fd, req, strlen(req));
    read_response(fd, resp, sizeof(resp));
    assert_memory_equal(resp, "HTTP/1.1 200", 12);
    close(fd);
    kill(d.pid, SIGTERM);
    assert_int_equal(WEXITSTATUS(wait_exit(&d, 5000)), 0);
    assert_true(wait_log(&d, "\"msg\":\"stopped\"", 1000));
    assert_null(strstr(d.log, "\"msg\":\"request\""));
    close(d.out), close(d.err);
}

/* --probe: the health check of the container image. */
static int probe(const char *url)
{
    const char *args[] = {"--probe", url, NULL};
    struct daemon d;
    int status;

    spawn(&d, args);
    status = wait_exit(&d, 5000);
    close(d.out), close(d.err);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_probe(void **state)
{
    struct daemon d;
    char url[96];

    (void)state;
    spawn_listening(&d);
    snprintf(url, sizeof(url), "http://127.0.0.1:%u/livez", d.port);
    assert_int_equal(probe(url), 0);
    snprintf(url, sizeof(url), "http://localhost:%u/readyz", d.port);
    assert_int_equal(probe(url), 0);
    snprintf(url, sizeof(url), "http://127.0.0.1:%u/no-such-path", d.port);
    assert_int_equal(probe(url), 1);
    kill(d.pid, SIGTERM);
    assert_int_equal(WEXITSTATUS(wait_exit(&d, 5000)), 0);
    close(d.out), close(d.err);
    /* The port is closed now. */
    snprintf(url, sizeof(url), "http://127.0.0.1:%u/livez", d.port);
    assert_int_equal(probe(url), 1);
    assert_int_equal(probe("http://example.org/livez"), 1); /* no DNS */
    assert_int_equal(probe("ftp://127.0.0.1/"), 1);
}

/* A fake /proc for probe_daemon_url: fake_proc(dir, pid, args, len) writes
 * DIR/PID/cmdline (NUL-separated args, len bytes). */
static void fake_proc(const char *dir, int pid, const char *args, size_t len)
{
    char path[256];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%d", dir, pid);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof(path), "%s/%d/cmdline", dir, pid);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(args, 1, len, f), len);
    fclose(f);
}

#define FAKE(dir, pid, lit) fake_proc(dir, pid, lit, sizeof(lit))

static void rm_fake_proc(const char *dir)
{
    char cmd[300];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* A bare --probe (the image's HEALTHCHECK) follows the daemon's own flags
 * and environment: `docker run sudokud --port 9000` stays healthy. */
static void test_probe_daemon_url(void **state)
{
    char dir[] = "/tmp/sudokud-fakeproc.XXXXXX", url[256], err[256];
    char args[128];
    struct daemon d;
    int n;

    (void)state;
    assert_non_null(mkdtemp(dir));
    /* Nothing that is a daemon: an init, a shell, another probe. */
    FAKE(dir, 1, "/sbin/docker-init\0--\0sudokud");
    FAKE(dir, 3, "sh\0-c\0sudokud --port 1");
    FAKE(dir, 4, "/usr/local/bin/sudokud\0--probe");
    assert_int_equal(probe_daemon_url(dir, url, sizeof(url), err, sizeof(err)),
                     -1);
    assert_non_null(strstr(err, "no sudokud daemon"));
    /* The lowest-numbered daemon wins; flags as the daemon reads them. */
    FAKE(dir, 12, "/usr/local/bin/sudokud\0--port\0009002");
    FAKE(dir, 7, "/usr/local/bin/sudokud\0--threads\0002\0--port=9001");
    assert_int_equal(probe_daemon_url(dir, url, sizeof(url), err, sizeof(err)),
                     0);
    assert_string_equal(url, "http://127.0.0.1:9001/livez");
    rm_fake_proc(dir);

    /* One daemon each: the URL its flags and environment give, or the
     * reason there is none. */
    static const struct {
        const char *args;
        size_t len;
        const char *port_env; /* PORT, or NULL */
        const char *want;     /* the URL, or a part of the error */
        int rc;
    } one[] = {
#define ONE(lit, env, want, rc) {lit, sizeof(lit), env, want, rc}
        /* No flag: PORT from the environment, else 8080. */
        ONE("sudokud", NULL, "http://127.0.0.1:8080/livez", 0),
        ONE("sudokud", "9100", "http://127.0.0.1:9100/livez", 0),
        /* IPv6 wildcard, a fixed address, port 0 and a bad flag. */
        ONE("sudokud\0--bind\0::\0--port\0009000", NULL,
            "http://[::1]:9000/livez", 0),
        ONE("sudokud\0--bind\00010.1.2.3\0--port\0009000", NULL,
            "http://10.1.2.3:9000/livez", 0),
        ONE("sudokud\0--port\0000", NULL, "port 0", -1),
        ONE("sudokud\0--no-such-flag", NULL, "", -1),
#undef ONE
    };
    for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++) {
        int rc;
        assert_non_null(mkdtemp(strcpy(dir, "/tmp/sudokud-fakeproc.XXXXXX")));
        fake_proc(dir, 1, one[i].args, one[i].len);
        if (one[i].port_env != NULL)
            setenv("PORT", one[i].port_env, 1);
        rc = probe_daemon_url(dir, url, sizeof(url), err, sizeof(err));
        unsetenv("PORT");
        rm_fake_proc(dir);
        assert_int_equal(rc, one[i].rc);
        assert_non_null(strstr(rc == 0 ? url : err, one[i].want));
        if (rc == 0)
            assert_string_equal(url, one[i].want);
    }

    /* The whole chain against a real daemon: its flags give a URL that
     * answers 200. */
    spawn_listening(&d);
    assert_non_null(mkdtemp(strcpy(dir, "/tmp/sudokud-fakeproc.XXXXXX")));
    n = snprintf(args, sizeof(args), "sudokud%c--bind%c127.0.0.1%c--port%c%u",
                 0, 0, 0, 0, d.port);
    fake_proc(dir, 1, args, (size_t)n + 1);
    assert_int_equal(probe_daemon_url(dir, url, sizeof(url), err, sizeof(err)),
                     0);
    assert_int_equal(probe_get(url, 2000, err, sizeof(err)), 200);
    rm_fake_proc(dir);
    kill(d.pid, SIGTERM);
    assert_int_equal(WEXITSTATUS(wait_exit(&d, 5000)), 0);
    close(d.out), close(d.err);
}

/* ------------------------------------------------------------------------
 * A batch's bounds: its node budget, and SIGTERM in the middle of it
 * ------------------------------------------------------------------------ */

/* A board that uses the whole default budget of 100000 nodes: issue 15's
 * board with two givens fewer. It has no solution, and the solver needs
 * several budgets to show that (issue 15's own board no longer uses one
 * up since the solver branches on band patterns). */
#define HARD_BOARD                                                             \
    ".....5.7.........3.....3.4...21........3..1............4..........4..."   \
    "37........4"

/* Sends POST /solve/batch with n copies of HARD_BOARD; returns the socket. */
static int post_hard_batch(unsigned port, size_t n)
{
    size_t cap = n * 84 + 64, len = 0;
    char *body = malloc(cap), head[256];
    int fd = support_connect(port), k;

    assert_non_null(body);
    assert_true(fd >= 0);
    len += (size_t)sprintf(body, "{\"boards\":[");
    for (size_t i = 0; i < n; i++)
        len +=
            (size_t)sprintf(body + len, "%s\"%s\"", i ? "," : "", HARD_BOARD);
    len += (size_t)sprintf(body + len, "]}");
    k = snprintf(head, sizeof(head),
                 "POST /solve/batch HTTP/1.1\r\nHost: x\r\nContent-Type: "
                 "application/json\r\nContent-Length: %zu\r\n\r\n",
                 len);
    send_all(fd, head, (size_t)k);
    send_all(fd, body, len);
    free(body);
    return fd;
}

/* Reads a chunked answer until its last chunk (or the peer closes, or
 * deadline_ms passes); returns the raw bytes read (heap, NUL-terminated). */
static char *read_chunked(int fd, long deadline_ms, size_t *rawlen)
{
    size_t cap = 1 << 16, len = 0;
    char *raw = malloc(cap);
    struct pollfd p = {.fd = fd, .events = POLLIN};

    assert_non_null(raw);
    raw[0] = '\0';
    while (now_ms() < deadline_ms) {
        ssize_t n;
        if (poll(&p, 1, 100) != 1)
            continue;
        if (len + 65536 > cap) {
            raw = realloc(raw, cap *= 2);
            assert_non_null(raw);
        }
        if ((n = recv(fd, raw + len, cap - len - 1, 0)) <= 0)
            break;
        len += (size_t)n;
        raw[len] = '\0';
        if (len >= 7 && memcmp(raw + len - 7, "\r\n0\r\n\r\n", 7) == 0)
            break;
    }
    *rawlen = len;
    return raw;
}

/* The body of a whole chunked answer (heap), or NULL if it is cut. */
static char *dechunk(const char *raw)
{
    const char *p = strstr(raw, "\r\n\r\n");
    char *body = malloc(strlen(raw) + 1);
    size_t len = 0;

    assert_non_null(body);
    if (p == NULL || strstr(raw, "Transfer-Encoding: chunked") == NULL) {
        free(body);
        return NULL;
    }
    for (p += 4;;) {
        char *end;
        unsigned long n = strtoul(p, &end, 16);
        if (end == p || strncmp(end, "\r\n", 2) != 0 ||
            strlen(end + 2) < n + 2) {
            free(body);
            return NULL;
        }
        if (n == 0) {
            body[len] = '\0';
            return body;
        }
        memcpy(body + len, end + 2, n);
        len += n;
        p = end + 2 + n + 2;
    }
}

/* Counts the results of a batch answer with problem `code`. */
static int count_code(const cJSON *results, const char *code)
{
    const cJSON *item;
    int n = 0;

    cJSON_ArrayForEach(item, results)
    {
        const cJSON *c =
            cJSON_GetObjectItem(cJSON_GetObjectItem(item, "problem"), "code");
        n += cJSON_IsString(c) && strcmp(c->valuestring, code) == 0;
    }
    return n;
}

/* 1000 boards that each use a whole search budget, with a batch budget of
 * 20 searches: exactly 20 are searched (search_limit), the 980 others get
 * batch_budget_exhausted, and the answer comes in a fraction of the 10 s
 * (here) that 1000 searches cost. */
static void test_batch_budget_bounds_time(void **state)
{
    static const char *const args[] = {
        "--port",       "0",         "--bind",
        "127.0.0.1",    "--threads", "2",
        "--access-log", "off",       "--max-batch-nodes",
        "2000000",      NULL};
    struct daemon d;
    char *raw, *body;
    size_t len;
    long t0;
    cJSON *root, *results;
    int fd;

    (void)state;
    spawn_on_free_port(&d, args);
    t0 = now_ms();
    fd = post_hard_batch(d.port, 1000);
    raw = read_chunked(fd, t0 + 20000, &len);
    print_message("1000 hard boards, budget of 20 searches: answered in "
                  "%ld ms\n",
                  now_ms() - t0);
    assert_true(now_ms() - t0 < 5000);
    assert_memory_equal(raw, "HTTP/1.1 200", 12);
    body = dechunk(raw);
    assert_non_null(body);
    root = cJSON_Parse(body);
    assert_non_null(root);
    results = cJSON_GetObjectItem(root, "results");
    assert_int_equal(cJSON_GetArraySize(results), 1000);
    assert_int_equal(count_code(results, "search_limit"), 20);
    assert_int_equal(count_code(results, "batch_budget_exhausted"), 980);
    cJSON_Delete(root);
    free(body), free(raw);
    close(fd);
    kill(d.pid, SIGTERM);
    assert_true(WIFEXITED(wait_exit(&d, 5000)));
    close(d.out), close(d.err);
}

/* SIGTERM with --drain-timeout 2 while a batch of 2000 hard boards runs
 * (20 s of searching, the batch budget lifted): the batch stops at the
 * drain deadline, its answer is sent whole (what it judged, then
 * shutting_down for the rest), and the daemon exits within 2 s and a
 * small slack, with nothing abandoned. */
static void test_sigterm_stops_batch(void **state)
{
    static const char *const args[] = {"--port",
                                       "0",
                                       "--bind",
                                       "127.0.0.1",
                                       "--threads",
                                       "2",
                                       "--access-log",
                                       "off",
                                       "--drain-timeout",
                                       "2",
                                       "--max-batch-nodes",
                                       "1000000000000",
                                       NULL};
    struct daemon d;
    struct pollfd p;
    char *raw, *body;
    size_t len;
    long t0, exited = -1;
    cJSON *root, *results;
    int fd, status = -1, judged, stopped;

    (void)state;
    spawn_on_free_port(&d, args);
    fd = post_hard_batch(d.port, 2000);
    /* The answer's head comes when a worker takes the batch: it runs. */
    p = (struct pollfd){.fd = fd, .events = POLLIN};
    assert_int_equal(poll(&p, 1, 20000), 1);
    kill(d.pid, SIGTERM);
    t0 = now_ms();
    raw = read_chunked(fd, t0 + 10000, &len);
    for (; now_ms() < t0 + 10000; usleep(10000))
        if (waitpid(d.pid, &status, WNOHANG) == d.pid) {
            exited = now_ms() - t0;
            break;
        }
    print_message("SIGTERM during a batch, --drain-timeout 2: exit after "
                  "%ld ms\n",
                  exited);
    /* The drain timeout, then a board's search, the problems of the rest
     * encoded and sent (docs/operations.md's bound: a second at most), on a
     * busy machine. */
    assert_true(exited >= 0 && exited < 4000);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_true(wait_log(&d, "\"abandoned\":0", 1000));
    body = dechunk(raw);
    assert_non_null(body);
    root = cJSON_Parse(body);
    assert_non_null(root);
    results = cJSON_GetObjectItem(root, "results");
    assert_int_equal(cJSON_GetArraySize(results), 2000);
    judged = count_code(results, "search_limit");
    stopped = count_code(results, "shutting_down");
    print_message("%d judged, %d shutting_down\n", judged, stopped);
    assert_true(judged >= 1);
    assert_true(stopped >= 1);
    assert_int_equal(judged + stopped, 2000);
    assert_int_equal(
        cJSON_GetObjectItem(cJSON_GetObjectItem(root, "stats"), "puzzles")
            ->valueint,
        2000);
    cJSON_Delete(root);
    free(body), free(raw);
    close(fd);
    close(d.out), close(d.err);
}

/* ------------------------------------------------------------------------
 * stdout that nobody reads; SIGHUP
 * ------------------------------------------------------------------------ */

/* With the daemon's stdout a pipe that the test no longer reads, sends
 * requests with a 1 KiB User-Agent (so access lines of about 1.3 KiB) on
 * one keep-alive connection until /metrics counts dropped log lines; each
 * is /livez and must be answered 200 within 1 s, and so must a /livez on a
 * new connection every 50. The pipe (64 KiB) and the log buffer (2 x 64
 * KiB) hold about 150 such lines, so a few hundred requests are enough;
 * 3000 without a drop fail. Returns the count seen. */
static double fill_stdout(struct daemon *d)
{
    char ua[1024], req[1400], resp[4096];
    double dropped = 0;
    int fd = support_connect(d->port), i;

    assert_true(fd >= 0);
    memset(ua, 'u', sizeof(ua) - 1);
    ua[sizeof(ua) - 1] = '\0';
    snprintf(req, sizeof(req),
             "GET /livez HTTP/1.1\r\nHost: x\r\nUser-Agent: %s\r\n\r\n", ua);
    for (i = 0; i < 3000 && dropped <= 0; i++) {
        long t0 = now_ms(), took;
        send_all(fd, req, strlen(req));
        read_response(fd, resp, sizeof(resp));
        took = now_ms() - t0;
        if (strncmp(resp, "HTTP/1.1 200", 12) != 0 || took >= 1000)
            fail_msg("request %d: %ld ms, answer '%.40s'", i, took, resp);
        if (i % 50 == 49) {
            get_on_new_connection(d->port, "/livez", resp, sizeof(resp), &took);
            assert_memory_equal(resp, "HTTP/1.1 200", 12);
            assert_true(took < 1000);
            dropped = metric(d->port, "sudokud_log_lines_dropped_total");
        }
    }
    close(fd);
    print_message("stdout unread: %d requests until %.0f log lines dropped\n",
                  i, dropped);
    assert_true(dropped > 0);
    return dropped;
}

/* Reads the daemon's stdout into buf (of cap bytes, len used so far) until
 * `word` shows up after `from` or 5 s pass; returns the new length. */
static size_t read_stdout_until(struct daemon *d, char *buf, size_t cap,
                                size_t len, size_t from, const char *word)
{
    struct pollfd p = {.fd = d->out, .events = POLLIN};
    long deadline = now_ms() + 5000;

    buf[len] = '\0';
    while (strstr(buf + from, word) == NULL && now_ms() < deadline &&
           poll(&p, 1, 1000) == 1) {
        ssize_t n = read(d->out, buf + len, cap - 1 - len);
        if (n <= 0)
            break;
        len += (size_t)n;
        buf[len] = '\0';
    }
    return len;
}

/* Issue 15 item 4: a full stdout pipe must not stop the service. Lines are
 * dropped and counted instead; once the pipe is read one warn line says how
 * many. */
static void test_stdout_blocked_keeps_serving(void **state)
{
    static const char *const args[] = {"--port",    "0", "--bind", "127.0.0.1",
                                       "--threads", "2", NULL};
    size_t cap = 4 << 20, len = 0;
    char *out = malloc(cap);
    const char *report, *q;
    struct daemon d;
    double first, later;
    int status;

    (void)state;
    assert_non_null(out);
    spawn_on_free_port(&d, args);
    first = fill_stdout(&d);
    /* It keeps counting while nobody reads. */
    later = fill_stdout(&d);
    assert_true(later > first);
    len =
        read_stdout_until(&d, out, cap, 0, 0, "\"msg\":\"log lines dropped\"");
    report = strstr(out, "\"msg\":\"log lines dropped\"");
    assert_non_null(report);
    assert_true(report - out > 15);
    assert_memory_equal(report - 15, "\"level\":\"warn\",", 15);
    q = strstr(report, "\"dropped_total\":");
    assert_non_null(q);
    /* Every drop counted up to the scrape is in it (the scrape's own access
     * line may have been dropped after it). */
    assert_true(atof(q + 16) >= later);
    kill(d.pid, SIGTERM);
    len = read_stdout_until(&d, out, cap, len, 0, "\"msg\":\"stopped\"");
    status = wait_exit(&d, 5000);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_non_null(strstr(out, "\"msg\":\"stopped\""));
    free(out);
    close(d.out), close(d.err);
}

/* SIGTERM while stdout is still blocked: the log gets a bounded wait at the
 * exit (1 s for the server's lines, 1 s for main's), so the daemon exits 0
 * well within 5 s instead of hanging in write(2). */
static void test_sigterm_with_stdout_blocked(void **state)
{
    static const char *const args[] = {"--port",    "0", "--bind", "127.0.0.1",
                                       "--threads", "2", NULL};
    struct daemon d;
    long t0;
    int status;

    (void)state;
    spawn_on_free_port(&d, args);
    fill_stdout(&d);
    t0 = now_ms();
    kill(d.pid, SIGTERM);
    status = wait_exit(&d, 5000);
    print_message("SIGTERM with stdout blocked: exit after %ld ms\n",
                  now_ms() - t0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    close(d.out), close(d.err);
}

/* Issue 15 item 5: SIGHUP drains exactly as SIGTERM (there is no log file
 * to reopen). */
static void test_sighup_drains_like_sigterm(void **state)
{
    (void)state;
    drain_with_request_in_flight(SIGHUP, "SIGHUP");
}

int test_main(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve_and_sigint),
        cmocka_unit_test(test_sigterm_with_request_in_flight),
        cmocka_unit_test(test_bad_settings_exit_2),
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_sigterm_under_load),
        cmocka_unit_test(test_access_log),
        cmocka_unit_test(test_access_log_off),
        cmocka_unit_test(test_probe),
        cmocka_unit_test(test_probe_daemon_url),
        cmocka_unit_test(test_many_ready_at_once),
        cmocka_unit_test(test_batch_budget_bounds_time),
        cmocka_unit_test(test_sigterm_stops_batch),
        cmocka_unit_test(test_stdout_blocked_keeps_serving),
        cmocka_unit_test(test_sigterm_with_stdout_blocked),
        cmocka_unit_test(test_sighup_drains_like_sigterm),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("main", tests, NULL, NULL);
}
