/* test_main.c - the daemon suite: black-box tests of the built daemon
 * ($SUDOKUD_BIN, default build/sudokud), started on port 0 and spoken to
 * over a raw socket. This part: solve and SIGINT, SIGTERM (or SIGHUP) with
 * a request in flight and under load, bad settings exit 2, --help, and
 * 128-384 connections ready at once; test_main() also runs the parts
 * test_main_{log,probe,batch}.c (helpers in daemon_support.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>
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
#include <unistd.h>

#include "daemon_support.h"
#include "support.h"
#include "tests.h"

#define EXAMPLE SUPPORT_EXAMPLE_BODY
#define EXAMPLE_SOLUTION SUPPORT_EXAMPLE_SOLUTION_ROWS

static void solve_and_sigint(void **state)
{
    struct daemon d;
    char req[1024], resp[4096];
    int status;

    (void)state;
    daemon_spawn_listening(&d);
    snprintf(
        req, sizeof(req),
        "POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: %zu\r\n\r\n%s",
        strlen(EXAMPLE), EXAMPLE);
    daemon_exchange(d.port, req, resp, sizeof(resp));
    assert_memory_equal(resp, "HTTP/1.1 200", 12);
    assert_non_null(strstr(resp, EXAMPLE_SOLUTION));
    kill(d.pid, SIGINT);
    status = daemon_wait_exit(&d, 5000);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_true(daemon_wait_log(&d, "\"msg\":\"stopped\"", 1000));
    close(d.out), close(d.err);
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

    daemon_spawn_listening(&d);
    fd = support_connect(d.port);
    assert_true(fd >= 0);
    snprintf(
        head, sizeof(head),
        "POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "X-Request-Id: held-1\r\nExpect: 100-continue\r\n"
        "Content-Length: %zu\r\n\r\n",
        strlen(EXAMPLE));
    daemon_send_all(fd, head, strlen(head));
    /* The server has the headers (it says so): the request is in flight. */
    assert_true(continued(fd));
    daemon_send_all(fd, EXAMPLE, half);
    kill(d.pid, sig);
    assert_true(daemon_wait_log(&d, "\"msg\":\"draining\"", 5000));
    snprintf(want, sizeof(want), "\"signal\":\"%s\"", name);
    assert_non_null(strstr(d.log, want));
    assert_non_null(strstr(d.log, "\"in_flight\":1"));
    assert_int_equal(daemon_wait_exit(&d, 300), -1); /* still waiting for us */
    assert_int_equal(support_connect(d.port), -1);   /* but not accepting */
    daemon_send_all(fd, EXAMPLE + half, strlen(EXAMPLE) - half);
    daemon_read_response(fd, resp, sizeof(resp));
    assert_memory_equal(resp, "HTTP/1.1 200", 12);
    assert_non_null(strstr(resp, EXAMPLE_SOLUTION));
    assert_non_null(strstr(resp, "Connection: close"));
    close(fd);
    status = daemon_wait_exit(&d, 5000);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_true(daemon_wait_log(&d, "\"abandoned\":0", 1000));
    access = strstr(d.log, "\"request_id\":\"held-1\"");
    stopped = strstr(d.log, "\"msg\":\"stopped\"");
    assert_non_null(access);
    assert_non_null(stopped);
    assert_true(access < stopped);
    close(d.out), close(d.err);
}

static void sigterm_with_request_in_flight(void **state)
{
    (void)state;
    drain_with_request_in_flight(SIGTERM, "SIGTERM");
}

/* Issue 15 item 5: SIGHUP drains exactly as SIGTERM (there is no log file
 * to reopen). */
static void sighup_drains_like_sigterm(void **state)
{
    (void)state;
    drain_with_request_in_flight(SIGHUP, "SIGHUP");
}

static void expect_exit(const char *const *args, int code, const char *in_err)
{
    struct daemon d;
    char err[1024] = "";
    ssize_t n;
    int status;

    daemon_spawn(&d, args);
    status = daemon_wait_exit(&d, 5000);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), code);
    n = read(d.err, err, sizeof(err) - 1);
    err[n > 0 ? n : 0] = '\0';
    if (in_err != NULL)
        assert_non_null(strstr(err, in_err));
    close(d.out), close(d.err);
}

static void bad_settings_exit_2(void **state)
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

static void help_names_options_and_variables_and_exits_0(void **state)
{
    static const char *const help[] = {"--help", NULL};
    struct daemon d;
    char out[4096];
    ssize_t n;
    int status;

    (void)state;
    daemon_spawn(&d, help);
    status = daemon_wait_exit(&d, 5000);
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

/* The n load threads, and how many answers they had at the last look. */
struct loads {
    struct load *ld;
    int n, ok;
};

static int loads_answered_500(void *arg)
{
    struct loads *l = arg;

    l->ok = 0;
    for (int i = 0; i < l->n; i++)
        l->ok += atomic_load(&l->ld[i].ok);
    return l->ok >= 500;
}

/* Has every load thread found the port closed? */
static int loads_all_refused(void *arg)
{
    const struct loads *l = arg;
    int all = 1;

    for (int i = 0; i < l->n; i++)
        all &= atomic_load(&l->ld[i].refused) > 0;
    return all;
}

static void sigterm_under_load(void **state)
{
    enum { THREADS = 8 };
    struct daemon d;
    struct load ld[THREADS];
    pthread_t t[THREADS];
    atomic_int stop = 0;
    int status, ok_before = 0, ok = 0, failed = 0, refused = 0;
    struct loads loads = {ld, THREADS, 0};

    (void)state;
    daemon_spawn_listening_with(&d, 0);
    for (int i = 0; i < THREADS; i++) {
        ld[i].port = d.port;
        ld[i].stop = &stop;
        atomic_init(&ld[i].ok, 0);
        atomic_init(&ld[i].failed, 0);
        atomic_init(&ld[i].refused, 0);
        assert_int_equal(pthread_create(&t[i], NULL, load_thread, &ld[i]), 0);
    }
    /* Under load: some hundreds answered. */
    support_wait_until(loads_answered_500, &loads, 10000);
    ok_before = loads.ok;
    kill(d.pid, SIGTERM);
    status = daemon_wait_exit(&d, 10000);
    /* Every client has found the port closed since. */
    support_wait_until(loads_all_refused, &loads, 5000);
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
    assert_true(daemon_wait_log(&d, "\"abandoned\":0", 1000));
    close(d.out), close(d.err);
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
    assert_true(daemon_metric_reaches(d->port, "http_connections_open", n + 1));
    kill(d->pid, SIGSTOP);
    for (int i = 0; i < n; i++) /* on loopback, in its buffers on return */
        daemon_send_all(fd[i], req, (size_t)len);
    kill(d->pid, SIGCONT);
    deadline = daemon_now_ms() + 10000;
    while (answered < n && daemon_now_ms() < deadline) {
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

static void many_ready_at_once(void **state)
{
    static const char *const args[] = {
        "--port",    "0",  "--bind",       "127.0.0.1", "--threads", "1",
        "--timeout", "30", "--access-log", "off",       NULL};
    static const int sizes[] = {127, 128, 129, 256, 384};
    struct daemon d;

    (void)state;
    daemon_spawn_on_free_port(&d, args);
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        assert_int_equal(stopped_burst(&d, sizes[i]), sizes[i]);
    kill(d.pid, SIGTERM);
    assert_true(WIFEXITED(daemon_wait_exit(&d, 5000)));
    close(d.out), close(d.err);
}

int test_main(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(solve_and_sigint),
        cmocka_unit_test(sigterm_with_request_in_flight),
        cmocka_unit_test(sighup_drains_like_sigterm),
        cmocka_unit_test(bad_settings_exit_2),
        cmocka_unit_test(help_names_options_and_variables_and_exits_0),
        cmocka_unit_test(sigterm_under_load),
        cmocka_unit_test(many_ready_at_once),
    };
    static int (*const parts[])(unsigned *) = {
        test_main_log, test_main_probe, test_main_batch, test_main_systemd};
    int failed;

    *ntests = TESTS_COUNT(tests);
    failed = cmocka_run_group_tests_name("main", tests, NULL, NULL);
    failed += support_run_parts(parts, TESTS_COUNT(parts), ntests);
    return failed;
}
