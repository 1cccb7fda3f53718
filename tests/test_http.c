/* test_http.c - the HTTP suite: the real server (http_server_start on port
 * 0) driven over 127.0.0.1 with libcurl and raw sockets. This part: status
 * codes, headers, keep-alive, the 413 path, body sizes, concurrency at 128
 * and 256 connections; test_http() also runs the suite's other parts,
 * test_http_{headers,timeout,conn,batch}.c (helpers in http_support.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <curl/curl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "http.h"
#include "http_support.h"
#include "support.h"
#include "tests.h"

#define EXAMPLE SUPPORT_EXAMPLE_BODY
#define EXAMPLE_SOLUTION SUPPORT_EXAMPLE_SOLUTION_ROWS

static void solve_over_http_answers_the_example_with_200(void **state)
{
    struct ht_server *s = *state;
    CURL *curl = curl_easy_init();
    struct ht_reply r;

    assert_int_equal(ht_request(curl, s->port, "POST", "/solve",
                                "application/json; charset=utf-8", EXAMPLE,
                                strlen(EXAMPLE), &r),
                     CURLE_OK);
    assert_int_equal(r.status, 200);
    assert_true(ht_has_header(&r, "Content-Type: application/json"));
    assert_non_null(
        strstr(r.body, "{\"solution\":" EXAMPLE_SOLUTION ",\"stats\":{"));
    curl_easy_cleanup(curl);
}

static void status_codes_and_headers(void **state)
{
    struct ht_server *s = *state;
    CURL *curl = curl_easy_init();
    struct ht_reply r;

    ht_request(curl, s->port, "GET", "/nowhere", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 404);
    assert_true(ht_has_header(&r, "Content-Type: application/problem+json"));
    assert_non_null(strstr(r.body, "\"code\":\"not_found\""));

    ht_request(curl, s->port, "GET", "/solve", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 405);
    assert_true(ht_has_header(&r, "Allow: POST, OPTIONS"));
    assert_non_null(strstr(r.body, "\"code\":\"method_not_allowed\""));

    ht_request(curl, s->port, "DELETE", "/livez", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 405);
    assert_true(ht_has_header(&r, "Allow: GET, HEAD, OPTIONS"));

    ht_request(curl, s->port, "OPTIONS", "/solve", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 204);
    assert_true(ht_has_header(&r, "Allow: POST, OPTIONS"));
    assert_int_equal(r.len, 0);

    ht_request(curl, s->port, "POST", "/solve", "text/plain", EXAMPLE,
               strlen(EXAMPLE), &r);
    assert_int_equal(r.status, 415);
    assert_non_null(strstr(r.body, "\"code\":\"unsupported_media_type\""));

    ht_request(curl, s->port, "POST", "/solve", "application/json",
               "{\"board\":", 9, &r);
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(r.body, "\"code\":\"invalid_json\""));

    ht_request(curl, s->port, "GET", "/%6civez", NULL, NULL, 0,
               &r); /* %6c: l */
    assert_int_equal(r.status, 200);
    ht_request(curl, s->port, "GET", "/livez%00junk", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 404); /* a NUL does not cut the path short */

    ht_request(curl, s->port, "GET", "/livez", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 200);
    assert_true(ht_has_header(&r, "Content-Type: application/json"));
    assert_string_equal(r.body, "{\"status\":\"ok\"}");

    ht_request(curl, s->port, "HEAD", "/readyz", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 200);
    assert_int_equal(r.len, 0);

    ht_request(curl, s->port, "GET", "/openapi.yaml", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 200);
    assert_true(ht_has_header(&r, "Content-Type: application/yaml"));
    assert_memory_equal(r.body, "openapi: 3.1", 12);
    curl_easy_cleanup(curl);
}

static void connection_is_reused_even_after_an_error_answer(void **state)
{
    struct ht_server *s = *state;
    CURL *curl = curl_easy_init();
    long connects = -1;
    struct ht_reply r;

    for (int i = 0; i < 5; i++) {
        ht_solve_example(s->port, curl);
        curl_easy_getinfo(curl, CURLINFO_NUM_CONNECTS, &connects);
        assert_int_equal(connects, i == 0 ? 1 : 0); /* reused after the first */
    }
    /* An error answer keeps the connection too. */
    ht_request(curl, s->port, "POST", "/solve", "application/json", "[]", 2,
               &r);
    assert_int_equal(r.status, 400);
    ht_solve_example(s->port, curl);
    curl_easy_getinfo(curl, CURLINFO_NUM_CONNECTS, &connects);
    assert_int_equal(connects, 0);
    curl_easy_cleanup(curl);
}

/* A valid body padded with spaces to exactly `size` bytes. */
static char *padded_example(size_t size)
{
    char *body = malloc(size + 1);

    memset(body, ' ', size);
    memcpy(body, EXAMPLE, strlen(EXAMPLE));
    body[size] = '\0';
    return body;
}

/* Declares a 4 MiB body on a raw connection and sends none of it: the
 * answer is a 413 body_too_large, then the end of the stream. */
static void huge_body_answered_from_its_headers(unsigned port)
{
    static const char head[] = "POST /solve HTTP/1.1\r\nHost: x\r\n"
                               "Content-Type: application/json\r\n"
                               "Content-Length: 4194304\r\n\r\n";
    char buf[4096];
    size_t got = 0;
    int fd = support_connect(port), closed = 0;
    long deadline = support_now_ms() + 5000;

    assert_true(fd >= 0);
    assert_int_equal(write(fd, head, sizeof(head) - 1),
                     (ssize_t)sizeof(head) - 1);
    while (!closed && got < sizeof(buf) - 1 && support_now_ms() < deadline) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        ssize_t n;

        if (poll(&p, 1, 100) <= 0)
            continue;
        n = read(fd, buf + got, sizeof(buf) - 1 - got);
        if (n <= 0)
            closed = 1;
        else
            got += (size_t)n;
    }
    buf[got] = '\0';
    close(fd);
    assert_true(strncmp(buf, "HTTP/1.1 413", 12) == 0);
    assert_non_null(strstr(buf, "\"code\":\"body_too_large\""));
    assert_true(closed);
}

static void body_over_16384_bytes_is_413_and_the_server_stays_fine(void **state)
{
    struct ht_server *s = *state;
    CURL *curl = curl_easy_init();
    struct ht_reply r;
    char *at = padded_example(16384), *over = padded_example(16385);

    ht_request(curl, s->port, "POST", "/solve", "application/json", at, 16384,
               &r);
    assert_int_equal(r.status, 200);
    ht_request(curl, s->port, "POST", "/solve", "application/json", over, 16385,
               &r);
    assert_int_equal(r.status, 413);
    assert_true(ht_has_header(&r, "Content-Type: application/problem+json"));
    assert_non_null(strstr(r.body, "\"code\":\"body_too_large\""));
    assert_non_null(strstr(r.body, "\"limit\":16384"));
    /* 4 MiB declared: answered from the headers, before any of the body,
     * and the connection closed after. (Sent from a raw socket that sends
     * no body: a client still sending when the server closes may get a
     * reset before it reads the answer, which would test the kernel.) */
    huge_body_answered_from_its_headers(s->port);
    ht_solve_example(s->port, curl); /* the server is still fine */
    free(at), free(over);
    curl_easy_cleanup(curl);
}

/* Chunked upload (no Content-Length): the limit is found while reading.
 * The body is `data` (`have` bytes), then spaces up to `len`. */
struct chunked {
    const char *data;
    size_t have, len, off, step;
};

static size_t read_chunk(char *buf, size_t size, size_t n, void *userdata)
{
    struct chunked *c = userdata;
    size_t want = size * n, left = c->len - c->off;

    if (want > (c->step ? c->step : 1000))
        want = c->step ? c->step : 1000;
    if (want > left)
        want = left;
    for (size_t i = 0; i < want; i++)
        buf[i] = c->off + i < c->have ? c->data[c->off + i] : ' ';
    c->off += want;
    return want;
}

/* Sets curl up to POST *c to /solve with chunked encoding, the answer into
 * *r. Returns the header list, for the caller to free after the transfer. */
static struct curl_slist *setup_chunked(CURL *curl, uint16_t port,
                                        struct chunked *c, struct ht_reply *r)
{
    struct curl_slist *hdrs = NULL;
    char url[64];

    memset(r, 0, sizeof(*r));
    snprintf(url, sizeof(url), "http://127.0.0.1:%u/solve", (unsigned)port);
    hdrs = curl_slist_append(hdrs, "Content-Type: application/json");
    hdrs = curl_slist_append(hdrs, "Transfer-Encoding: chunked");
    hdrs = curl_slist_append(hdrs, "Expect:");
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdrs);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_chunk);
    curl_easy_setopt(curl, CURLOPT_READDATA, c);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, ht_on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, r);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 20L);
    return hdrs;
}

static void body_limit_chunked(void **state)
{
    struct ht_server *s = *state;
    CURL *curl = curl_easy_init();
    char *over = padded_example(40000);
    struct chunked c = {over, 40000, 40000, 0, 0};
    struct ht_reply r;
    struct curl_slist *hdrs = setup_chunked(curl, s->port, &c, &r);

    assert_int_equal(curl_easy_perform(curl), CURLE_OK);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &r.status);
    assert_int_equal(r.status, 413);
    assert_non_null(strstr(r.body, "\"code\":\"body_too_large\""));
    free(over);

    /* More than 1 MiB past the limit: cut off, quickly, with no answer.
     * 64 MiB: more than the socket buffers on both ends can take in (up to
     * 4 + 32 MiB here) before the server cuts it, so it must be cut short. */
    over = padded_example(40000);
    c = (struct chunked){over, 40000, 64u << 20, 0, 0}; /* curl reads c */
    memset(&r, 0, sizeof(r));
    assert_int_not_equal(curl_easy_perform(curl), CURLE_OK);
    assert_true(c.off < c.len);
    ht_solve_example(s->port, curl); /* and the server is fine */
    curl_slist_free_all(hdrs);
    free(over);
    curl_easy_cleanup(curl);
}

/* A valid body of exactly `size` bytes (at least the example's 128):
 * spaces, then the example. */
static char *example_after_spaces(size_t size)
{
    size_t n = strlen(EXAMPLE);
    char *body = malloc(size + 1);

    assert_true(size >= n);
    memset(body, ' ', size - n);
    memcpy(body + size - n, EXAMPLE, n + 1);
    return body;
}

/* POSTs body (len bytes) to /solve in chunks of `step` bytes. */
static void post_chunked(uint16_t port, CURL *curl, const char *body,
                         size_t len, size_t step, struct ht_reply *r)
{
    struct chunked c = {body, len, len, 0, step};
    struct curl_slist *hdrs = setup_chunked(curl, port, &c, r);

    assert_int_equal(curl_easy_perform(curl), CURLE_OK);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &r->status);
    curl_slist_free_all(hdrs);
}

/* A body is kept in the request while small and moved to the heap as it
 * grows: around each size where that happens, in one piece and in small
 * chunks that cross the boundaries, the whole body must arrive intact (the
 * board sits at its end, so it is in the part that was moved or added). */
static void body_sizes(void **state)
{
    static const size_t sizes[] = {128, 223,  224,  225,  256,  511,  512,
                                   513, 1023, 1024, 1025, 5000, 16384};
    static const size_t steps[] = {1, 7, 100, 300};
    struct ht_server *s = *state;
    struct ht_reply r;

    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        char *body = example_after_spaces(sizes[i]);
        CURL *curl = curl_easy_init();

        ht_request(curl, s->port, "POST", "/solve", "application/json", body,
                   sizes[i], &r);
        assert_int_equal(r.status, 200);
        assert_non_null(strstr(r.body, "{\"solution\":" EXAMPLE_SOLUTION));
        curl_easy_cleanup(curl);
        for (size_t k = 0; k < sizeof(steps) / sizeof(steps[0]); k++) {
            if (steps[k] == 1 && sizes[i] > 1100)
                continue; /* byte by byte is slow; the boundaries are covered */
            curl = curl_easy_init();
            post_chunked(s->port, curl, body, sizes[i], steps[k], &r);
            assert_int_equal(r.status, 200);
            assert_non_null(strstr(r.body, "{\"solution\":" EXAMPLE_SOLUTION));
            curl_easy_cleanup(curl);
        }
        free(body);
    }
}

struct worker {
    uint16_t port;
    int ok;
};

static void *client_thread(void *arg)
{
    struct worker *w = arg;
    CURL *curl = curl_easy_init();
    struct ht_reply r;

    for (int i = 0; i < 50; i++) {
        if (ht_request(curl, w->port, "POST", "/solve", "application/json",
                       EXAMPLE, strlen(EXAMPLE), &r) == CURLE_OK &&
            r.status == 200 && strstr(r.body, EXAMPLE_SOLUTION) != NULL)
            w->ok++;
    }
    curl_easy_cleanup(curl);
    return NULL;
}

static void concurrent_clients(void **state)
{
    struct ht_server *s = *state;
    pthread_t t[8];
    struct worker w[8];

    for (int i = 0; i < 8; i++) {
        w[i] = (struct worker){s->port, 0};
        assert_int_equal(pthread_create(&t[i], NULL, client_thread, &w[i]), 0);
    }
    for (int i = 0; i < 8; i++) {
        pthread_join(t[i], NULL);
        assert_int_equal(w[i].ok, 50);
    }
}

/* n connections open at once, each sending the example: all must be
 * answered. (libmicrohttpd 0.9.75's epoll stall at exactly 128 and 256
 * ready connections is forced deterministically in test_main.c.) */
static void many_at_once(uint16_t port, int n)
{
    CURLM *multi = curl_multi_init();
    CURL **easy = calloc((size_t)n, sizeof(*easy));
    struct ht_reply *r = calloc((size_t)n, sizeof(*r));
    struct curl_slist *hdrs =
        curl_slist_append(NULL, "Content-Type: application/json");
    char url[64];
    int running = 1, ok = 0;

    snprintf(url, sizeof(url), "http://127.0.0.1:%u/solve", (unsigned)port);
    curl_multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)n);
    for (int i = 0; i < n; i++) {
        easy[i] = curl_easy_init();
        curl_easy_setopt(easy[i], CURLOPT_URL, url);
        curl_easy_setopt(easy[i], CURLOPT_HTTPHEADER, hdrs);
        curl_easy_setopt(easy[i], CURLOPT_POSTFIELDS, EXAMPLE);
        curl_easy_setopt(easy[i], CURLOPT_WRITEFUNCTION, ht_on_body);
        curl_easy_setopt(easy[i], CURLOPT_WRITEDATA, &r[i]);
        curl_easy_setopt(easy[i], CURLOPT_TIMEOUT, 20L);
        curl_easy_setopt(easy[i], CURLOPT_FRESH_CONNECT, 1L);
        curl_multi_add_handle(multi, easy[i]);
    }
    while (running) {
        curl_multi_perform(multi, &running);
        if (running)
            curl_multi_poll(multi, NULL, 0, 100, NULL);
    }
    for (int i = 0; i < n; i++) {
        long status = 0;
        curl_easy_getinfo(easy[i], CURLINFO_RESPONSE_CODE, &status);
        ok += status == 200 && strstr(r[i].body, EXAMPLE_SOLUTION) != NULL;
        curl_multi_remove_handle(multi, easy[i]);
        curl_easy_cleanup(easy[i]);
    }
    assert_int_equal(ok, n);
    curl_slist_free_all(hdrs);
    curl_multi_cleanup(multi);
    free(easy), free(r);
}

static void connections_127_128_and_256_at_once_are_all_answered(void **state)
{
    struct ht_server *s = *state;

    many_at_once(s->port, 127);
    many_at_once(s->port, 128);
    many_at_once(s->port, 256);
}

int test_http(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(solve_over_http_answers_the_example_with_200),
        cmocka_unit_test(status_codes_and_headers),
        cmocka_unit_test(connection_is_reused_even_after_an_error_answer),
        cmocka_unit_test(
            body_over_16384_bytes_is_413_and_the_server_stays_fine),
        cmocka_unit_test(body_limit_chunked),
        cmocka_unit_test(body_sizes),
        cmocka_unit_test(concurrent_clients),
        cmocka_unit_test(connections_127_128_and_256_at_once_are_all_answered),
    };
    static int (*const parts[])(unsigned *) = {
        test_http_headers, test_http_timeout, test_http_conn, test_http_batch};
    int failed;

    *ntests = TESTS_COUNT(tests);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    failed = cmocka_run_group_tests_name("http", tests, ht_setup, ht_teardown);
    failed += support_run_parts(parts, TESTS_COUNT(parts), ntests);
    curl_global_cleanup();
    return failed;
}
