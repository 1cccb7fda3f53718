/* test_main_log.c - part of the daemon suite (test_main.c): the access log
 * of the built binary, on and off, and a stdout that nobody reads: the
 * daemon keeps serving, counts the lines it drops and still exits at
 * SIGTERM. */
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

/* One JSON access-log line per request with the documented fields; the
 * client's X-Request-Id is kept. Two requests on one keep-alive
 * connection: each line has the client's address. */
static void access_log(void **state)
{
    struct daemon d;
    char req[1024], resp[4096];
    int status, fd;
    const char *line;

    (void)state;
    daemon_spawn_listening(&d);
    fd = support_connect(d.port);
    assert_true(fd >= 0);
    for (int k = 1; k <= 2; k++) {
        snprintf(req, sizeof(req),
                 "POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: "
                 "application/json\r\nUser-Agent: test \"agent\"\r\n"
                 "X-Request-Id: log-test-%d\r\nContent-Length: %zu\r\n\r\n%s",
                 k, strlen(EXAMPLE), EXAMPLE);
        daemon_send_all(fd, req, strlen(req));
        daemon_read_response(fd, resp, sizeof(resp));
        assert_memory_equal(resp, "HTTP/1.1 200", 12);
        snprintf(req, sizeof(req), "X-Request-Id: log-test-%d", k);
        assert_non_null(strstr(resp, req));
    }
    close(fd);
    assert_true(daemon_wait_log(&d, "\"request_id\":\"log-test-2\"", 5000));
    for (int k = 1; k <= 2; k++) {
        snprintf(req, sizeof(req), "\"request_id\":\"log-test-%d\"", k);
        line = strstr(d.log, req);
        assert_non_null(line);
        assert_non_null(strstr(line, "\"method\":\"POST\",\"path\":\"/solve\","
                                     "\"status\":200,\"bytes\":"));
        assert_non_null(strstr(line, "\"duration_us\":"));
        assert_non_null(strstr(line, "\"remote\":\"127.0.0.1\""));
        assert_non_null(strstr(line, "\"user_agent\":\"test \\\"agent\\\"\""));
    }
    kill(d.pid, SIGTERM);
    status = daemon_wait_exit(&d, 5000);
    assert_int_equal(WEXITSTATUS(status), 0);
    close(d.out), close(d.err);
}

static void access_log_off_writes_no_request_lines(void **state)
{
    static const char *const args[] = {
        "--port", "0", "--bind", "127.0.0.1", "--access-log", "off", NULL};
    struct daemon d;
    char resp[4096];
    long took;

    (void)state;
    daemon_spawn_on_free_port(&d, args);
    daemon_get_on_new_connection(d.port, "/livez", resp, sizeof(resp), &took);
    assert_memory_equal(resp, "HTTP/1.1 200", 12);
    kill(d.pid, SIGTERM);
    assert_int_equal(WEXITSTATUS(daemon_wait_exit(&d, 5000)), 0);
    assert_true(daemon_wait_log(&d, "\"msg\":\"stopped\"", 1000));
    assert_null(strstr(d.log, "\"msg\":\"request\""));
    close(d.out), close(d.err);
}

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
        long t0 = daemon_now_ms(), took;
        daemon_send_all(fd, req, strlen(req));
        daemon_read_response(fd, resp, sizeof(resp));
        took = daemon_now_ms() - t0;
        if (strncmp(resp, "HTTP/1.1 200", 12) != 0 || took >= 1000)
            fail_msg("request %d: %ld ms, answer '%.40s'", i, took, resp);
        if (i % 50 == 49) {
            daemon_get_on_new_connection(d->port, "/livez", resp, sizeof(resp),
                                         &took);
            assert_memory_equal(resp, "HTTP/1.1 200", 12);
            assert_true(took < 1000);
            dropped = daemon_metric(d->port, "sudokud_log_lines_dropped_total");
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
    long deadline = daemon_now_ms() + 5000;

    buf[len] = '\0';
    while (strstr(buf + from, word) == NULL && daemon_now_ms() < deadline &&
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
static void stdout_blocked_keeps_serving(void **state)
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
    daemon_spawn_on_free_port(&d, args);
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
    status = daemon_wait_exit(&d, 5000);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    assert_non_null(strstr(out, "\"msg\":\"stopped\""));
    free(out);
    close(d.out), close(d.err);
}

/* SIGTERM while stdout is still blocked: the log gets a bounded wait at the
 * exit (1 s for the server's lines, 1 s for main's), so the daemon exits 0
 * well within 5 s instead of hanging in write(2). */
static void sigterm_with_stdout_blocked(void **state)
{
    static const char *const args[] = {"--port",    "0", "--bind", "127.0.0.1",
                                       "--threads", "2", NULL};
    struct daemon d;
    long t0;
    int status;

    (void)state;
    daemon_spawn_on_free_port(&d, args);
    fill_stdout(&d);
    t0 = daemon_now_ms();
    kill(d.pid, SIGTERM);
    status = daemon_wait_exit(&d, 5000);
    print_message("SIGTERM with stdout blocked: exit after %ld ms\n",
                  daemon_now_ms() - t0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    close(d.out), close(d.err);
}

int test_main_log(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(access_log),
        cmocka_unit_test(access_log_off_writes_no_request_lines),
        cmocka_unit_test(stdout_blocked_keeps_serving),
        cmocka_unit_test(sigterm_with_stdout_blocked),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("main_log", tests, NULL, NULL);
}
