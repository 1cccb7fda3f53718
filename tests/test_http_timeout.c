/* test_http_timeout.c - part of the HTTP suite (test_http.c): how long the
 * server keeps a connection: the idle timeout, silent connections by the
 * hundred, slow headers and slow bodies, and the drain at shutdown. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <curl/curl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "http.h"
#include "http_support.h"
#include "support.h"
#include "tests.h"

/* A silent client is dropped after the idle timeout (1 s here). */
static void silent_client_is_dropped_after_the_idle_timeout(void **state)
{
    struct ht_server *s;
    struct pollfd p;
    char c;

    assert_int_equal(ht_start((void **)&s, 2, 1), 0);
    p.fd = support_connect(s->port);
    assert_true(p.fd >= 0);
    p.events = POLLIN;
    assert_int_equal(poll(&p, 1, 300), 0);     /* still open at 0.3 s */
    assert_int_equal(poll(&p, 1, 5000), 1);    /* closed well before 5 s */
    assert_int_equal(recv(p.fd, &c, 1, 0), 0); /* EOF, no bytes */
    close(p.fd);
    (void)state;
    /* Closed by the server's own sweep (the header deadline is 10 s),
     * and counted as such. */
    assert_true(
        ht_scrape(
            s, "http_connections_closed_total{reason=\"idle_timeout\"}") == 1);
    ht_teardown((void **)&s);
}

/* A body that stops halfway, with no rate floor, is closed after the idle
 * timeout (1 s) of silence, and counted. */
static void silent_body_is_closed_after_the_idle_timeout(void **state)
{
    static const char head[] = "POST /solve HTTP/1.1\r\nHost: t\r\n"
                               "Content-Type: application/json\r\n"
                               "Content-Length: 100\r\n\r\n{\"board\":";
    struct ht_server *s;
    struct config cfg;
    struct pollfd p;
    char buf[512];

    (void)state;
    ht_config(&cfg, 2, 1);
    cfg.body_min_rate = 0;
    assert_int_equal(ht_start_with((void **)&s, &cfg), 0);
    p.fd = support_connect(s->port);
    assert_true(p.fd >= 0);
    p.events = POLLIN;
    send(p.fd, head, strlen(head), MSG_NOSIGNAL);
    assert_int_equal(poll(&p, 1, 5000), 1); /* closed well before 5 s */
    assert_true(recv(p.fd, buf, sizeof(buf), 0) <= 0); /* without an answer */
    close(p.fd);
    assert_true(
        ht_scrape(
            s, "http_connections_closed_total{reason=\"idle_timeout\"}") == 1);
    ht_teardown((void **)&s);
}

struct close_wait {
    struct ht_server *s;
    const char *reason;
    double n;
};

/* Has the server counted n closes for the reason? */
static int closed_for(void *arg)
{
    const struct close_wait *w = arg;
    char series[96];

    snprintf(series, sizeof(series),
             "http_connections_closed_total{reason=\"%s\"}", w->reason);
    return ht_scrape(w->s, series) >= w->n;
}

/* A client that reads none of a long answer (a batch of boards that break
 * the rules: about 8 MB of problems, more than the sockets' buffers) is closed
 * once the answer has stalled for the idle timeout (1 s), and counted as
 * send_timeout. */
static void unread_answer_is_closed_after_the_idle_timeout(void **state)
{
    enum { N = 10000 };
    struct ht_server *s;
    char head[256], *body = malloc(N * 90 + 16);
    size_t len = 0;
    int fd, rcv = 4096;

    (void)state;
    assert_non_null(body);
    for (int i = 0; i < N; i++) /* nine 1s in the first row */
        len += (size_t)sprintf(body + len, "\"111111111%072d\"\n", 0);
    assert_int_equal(ht_start((void **)&s, 2, 1), 0);
    fd = support_connect(s->port);
    assert_true(fd >= 0);
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
    snprintf(head, sizeof(head),
             "POST /solve/batch HTTP/1.1\r\nHost: t\r\n"
             "Content-Type: application/x-ndjson\r\n"
             "Content-Length: %zu\r\n\r\n",
             len);
    send(fd, head, strlen(head), MSG_NOSIGNAL);
    send(fd, body, len, MSG_NOSIGNAL);
    assert_true(support_wait_until(
        closed_for, &(struct close_wait){s, "send_timeout", 1}, 20000));
    close(fd);
    free(body);
    ht_teardown((void **)&s);
}

/* A client that sends requests and reads none of the answers, each of
 * them small (GET /livez, sent many at once): once the answers fill the
 * sockets' buffers the one queued stalls, and after the idle timeout (1 s)
 * the connection is closed and counted as send_timeout, though its next
 * requests wait unread (those do not excuse a client that reads nothing). */
static void unread_small_answers_are_closed_after_the_idle_timeout(void **state)
{
    static const char req[] = "GET /livez HTTP/1.1\r\nHost: t\r\n\r\n";
    enum { N = 20000 };
    struct ht_server *s;
    char *burst = malloc(N * (sizeof(req) - 1));
    size_t len = 0, sent = 0;
    int fd, rcv = 4096;
    ssize_t n;
    struct sockaddr_in a = {.sin_family = AF_INET};

    (void)state;
    assert_non_null(burst);
    for (int i = 0; i < N; i++, len += sizeof(req) - 1)
        memcpy(burst + len, req, sizeof(req) - 1);
    assert_int_equal(ht_start((void **)&s, 2, 1), 0);
    a.sin_port = htons((uint16_t)s->port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    /* The small receive buffer set before connecting, so that the window
     * the server sees is small from the start. */
    fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
    assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
    /* As much as the sockets take: the server stops reading once its
     * answers cannot go out. */
    while (sent < len && (n = send(fd, burst + sent, len - sent,
                                   MSG_NOSIGNAL | MSG_DONTWAIT)) > 0)
        sent += (size_t)n;
    assert_true(support_wait_until(
        closed_for, &(struct close_wait){s, "send_timeout", 1}, 20000));
    close(fd);
    free(burst);
    ht_teardown((void **)&s);
}

/* Several hundred silent connections: a normal client is still served at
 * once, and the silent ones are closed at the idle timeout (1 s). */
static void idle_connections_do_not_block(void **state)
{
    enum { N = 300 };
    struct ht_server *s;
    CURL *curl = curl_easy_init();
    int fd[N], closed = 0;
    double took = 0;

    (void)state;
    assert_int_equal(ht_start((void **)&s, 2, 1), 0);
    ht_open_idle(s, fd, N);
    ht_solve_example(s->port, curl);
    curl_easy_getinfo(curl, CURLINFO_TOTAL_TIME, &took);
    assert_true(took < 0.5); /* generous bound; typically well under 10 ms */
    for (int i = 0; i < N; i++) {
        struct pollfd p = {.fd = fd[i], .events = POLLIN};
        char c;
        if (poll(&p, 1, 5000) == 1 && recv(fd[i], &c, 1, 0) == 0)
            closed++;
        close(fd[i]);
    }
    assert_int_equal(closed, N);
    curl_easy_cleanup(curl);
    ht_teardown((void **)&s);
}

/* Sends `chunk` on fd every 50 ms until the server closes the connection
 * (5 s at most); the seconds that took, or -1 if it never did. */
static double trickle_until_closed(int fd, const char *chunk)
{
    struct timespec t0, t1;
    char buf[256];

    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < 100; i++) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        send(fd, chunk, strlen(chunk), MSG_NOSIGNAL);
        if (poll(&p, 1, 50) == 1 && recv(fd, buf, sizeof(buf), 0) <= 0) {
            clock_gettime(CLOCK_MONOTONIC, &t1);
            return (double)(t1.tv_sec - t0.tv_sec) +
                   (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        }
    }
    return -1;
}

/* Starts a server with cfg, sends `head` on a connection, then `drip`
 * every 50 ms: the seconds until the server closed it (-1: never). */
static double slow_client(struct ht_server **s, const struct config *cfg,
                          const char *head, const char *drip)
{
    int fd;
    double took;

    assert_int_equal(ht_start_with((void **)s, cfg), 0);
    fd = support_connect((*s)->port);
    assert_true(fd >= 0);
    send(fd, head, strlen(head), MSG_NOSIGNAL);
    took = trickle_until_closed(fd, drip);
    close(fd);
    return took;
}

/* Headers a byte at a time (20 bytes/s) never complete, and libmicrohttpd's
 * idle timeout (10 s) never fires on a connection that keeps sending: the
 * header deadline (1 s) closes it, and counts it. */
static void slow_headers_closed(void **state)
{
    struct ht_server *s;
    struct config cfg;
    double took;

    (void)state;
    ht_config(&cfg, 2, 10);
    cfg.header_timeout = 1;
    took = slow_client(&s, &cfg, "GET /livez HTTP/1.1\r\nX-Slow: ", "a");
    assert_true(took > 0.5 && took < 3);
    assert_true(
        ht_scrape(s,
                  "http_connections_closed_total{reason=\"header_timeout\"}") ==
        1);
    ht_teardown((void **)&s);
}

/* A body at 100 bytes/s where 1,000 are required after the grace (the
 * header timeout, 1 s) is closed, and counted. */
static void slow_body_closed(void **state)
{
    struct ht_server *s;
    struct config cfg;
    double took;

    (void)state;
    ht_config(&cfg, 2, 10);
    cfg.header_timeout = 1;
    cfg.body_min_rate = 1000;
    took = slow_client(&s, &cfg,
                       "POST /solve/batch HTTP/1.1\r\nHost: t\r\n"
                       "Content-Type: application/json\r\n"
                       "Content-Length: 100000\r\n\r\n",
                       "aaaaa"); /* 5 bytes / 50 ms */
    /* Behind from the grace's end: 1 s + a sweep (0.25 s) or so. */
    assert_true(took > 0.9 && took < 3);
    assert_true(
        ht_scrape(
            s, "http_connections_closed_total{reason=\"body_too_slow\"}") == 1);
    assert_true(
        ht_scrape(s,
                  "http_connections_closed_total{reason=\"header_timeout\"}") ==
        0);
    ht_teardown((void **)&s);
}

/* Drain: readyz turns 503 on a kept-alive connection and asks to close it;
 * new connections are refused once the listener is quiesced. */
static void
drain_answers_the_request_under_way_503_and_refuses_new_ones(void **state)
{
    static const char head[] = "GET /readyz HTTP/1.1\r\nHost: t\r\n"
                               "Expect: 100-continue\r\n"
                               "Content-Length: 2\r\n\r\n";
    struct ht_server *s;
    CURL *curl = curl_easy_init();
    struct ht_reply r;
    char buf[1024];
    ssize_t n;
    int fd, busy;

    (void)state;
    assert_int_equal(ht_start((void **)&s, 2, 10), 0);
    ht_request(curl, s->port, "GET", "/readyz", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 200);
    /* A request under way (headers in, body not) when the drain begins. */
    busy = support_connect(s->port);
    assert_true(busy >= 0);
    send(busy, head, strlen(head), MSG_NOSIGNAL);
    /* Its headers are in when the server says "100 Continue". */
    n = recv(busy, buf, sizeof(buf) - 1, 0);
    assert_true(n > 0);
    assert_memory_equal(buf, "HTTP/1.1 100", 12);
    assert_int_equal(http_server_connections(s->srv),
                     2); /* curl's kept alive */
    assert_int_equal(http_server_drain(s->srv, 0), 1);
    /* It is answered, 503 draining, and its connection closed after. */
    send(busy, "{}", 2, MSG_NOSIGNAL);
    n = recv(busy, buf, sizeof(buf) - 1, MSG_WAITALL);
    assert_true(n > 0);
    buf[n] = '\0';
    assert_memory_equal(buf, "HTTP/1.1 503", 12);
    assert_non_null(strstr(buf, "Connection: close"));
    assert_non_null(strstr(buf, "\"code\":\"draining\""));
    close(busy);
    /* The idle kept-alive connection is closed by the server, not left to
     * the idle timeout; a new one is refused. */
    ht_wait_all_closed(s);
    assert_true(
        ht_scrape(s, "http_connections_closed_total{reason=\"shutdown\"}") >=
        1);
    fd = support_connect(s->port);
    assert_int_equal(fd, -1);
    curl_easy_cleanup(curl);
    ht_teardown((void **)&s);
}

/* SIGTERM with idle kept-alive clients (docker stop): the drain ends as
 * soon as they are closed, within a second, not at the idle timeout
 * (10 s here) that it used to wait for. */
static void drain_closes_idle(void **state)
{
    enum { N = 8 };
    struct ht_server *s;
    CURL *curl[N];
    struct ht_reply r;
    struct timespec t0, t1;
    double took;

    (void)state;
    assert_int_equal(ht_start((void **)&s, 2, 10), 0);
    for (int i = 0; i < N; i++) {
        curl[i] = curl_easy_init();
        ht_request(curl[i], s->port, "GET", "/livez", NULL, NULL, 0, &r);
        assert_int_equal(r.status, 200);
    }
    assert_int_equal(ht_wait_until(http_server_connections, s->srv, N), N);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(http_server_drain(s->srv, 10000), 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    took = (double)(t1.tv_sec - t0.tv_sec) +
           (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    print_message("drain with %d idle clients: %.3f s\n", N, took);
    assert_true(took < 1.0);
    assert_int_equal(http_server_connections(s->srv), 0);
    for (int i = 0; i < N; i++)
        curl_easy_cleanup(curl[i]);
    ht_teardown((void **)&s);
}

int test_http_timeout(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(silent_client_is_dropped_after_the_idle_timeout),
        cmocka_unit_test(silent_body_is_closed_after_the_idle_timeout),
        cmocka_unit_test(unread_answer_is_closed_after_the_idle_timeout),
        cmocka_unit_test(
            unread_small_answers_are_closed_after_the_idle_timeout),
        cmocka_unit_test(idle_connections_do_not_block),
        cmocka_unit_test(slow_headers_closed),
        cmocka_unit_test(slow_body_closed),
        cmocka_unit_test(
            drain_answers_the_request_under_way_503_and_refuses_new_ones),
        cmocka_unit_test(drain_closes_idle),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("http_timeout", tests, NULL, NULL);
}
