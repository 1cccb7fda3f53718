/* test_http_headers.c - part of the HTTP suite (test_http.c): what the
 * server reads from and writes into headers on a real connection: request
 * ids, header names in any case, the header budget, CORS, the metrics
 * scrape and the logic budget flag. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "config.h"
#include "http.h"
#include "http_support.h"
#include "support.h"
#include "tests.h"

#define EXAMPLE SUPPORT_EXAMPLE_BODY
#define EXAMPLE_SOLUTION SUPPORT_EXAMPLE_SOLUTION_ROWS

static void request_id_is_echoed_or_replaced_when_not_sane(void **state)
{
    struct ht_server *s = *state;
    CURL *curl = curl_easy_init();
    static const char *const given[] = {"X-Request-Id: trace-42.abc", NULL};
    static const char *const spaced[] = {"X-Request-Id: has space", NULL};
    char long_id[200], long_hdr[240], v1[160], v2[160];
    const char *longer[] = {long_hdr, NULL};
    struct ht_reply r;

    ht_request_h(curl, s->port, "POST", "/solve", given, "{}", &r);
    assert_int_equal(r.status, 400);
    assert_string_equal(ht_header_value(&r, "X-Request-Id", v1, sizeof(v1)),
                        "trace-42.abc");
    assert_non_null(strstr(r.body, "\"request_id\":\"trace-42.abc\""));

    /* Not sane (a space; too long): a fresh 16-hex-digit id instead. */
    ht_request_h(curl, s->port, "GET", "/livez", spaced, NULL, &r);
    ht_header_value(&r, "X-Request-Id", v1, sizeof(v1));
    assert_int_equal(strlen(v1), 16);
    assert_int_equal(strspn(v1, "0123456789abcdef"), 16);
    memset(long_id, 'a', 129);
    long_id[129] = '\0';
    snprintf(long_hdr, sizeof(long_hdr), "X-Request-Id: %s", long_id);
    ht_request_h(curl, s->port, "GET", "/nope", longer, NULL, &r);
    ht_header_value(&r, "X-Request-Id", v2, sizeof(v2));
    assert_int_equal(strlen(v2), 16);
    assert_string_not_equal(v1, v2); /* every request gets its own */
    assert_non_null(strstr(r.body, v2));
    curl_easy_cleanup(curl);
}

/* Sends a raw request on a new connection and reads the whole answer
 * (the request asks to close) into out. */
static void raw_exchange(uint16_t port, const char *req, char *out, size_t cap)
{
    int fd = support_connect(port);
    size_t len = 0, n = strlen(req);
    ssize_t got;

    assert_true(fd >= 0);
    assert_int_equal(send(fd, req, n, 0), (ssize_t)n);
    while (len + 1 < cap && (got = recv(fd, out + len, cap - 1 - len, 0)) > 0)
        len += (size_t)got;
    out[len] = '\0';
    close(fd);
}

/* The headers the server reads are found whatever the case of their
 * names, and of a repeated one the first counts (as libmicrohttpd's own
 * lookup would have it). */
static void header_names(void **state)
{
    struct ht_server *s = *state;
    char req[1024], out[4096];

    snprintf(req, sizeof(req),
             "POST /solve HTTP/1.1\r\nHost: x\r\n"
             "x-REQUEST-id: first-id\r\nX-Request-Id: second-id\r\n"
             "content-TYPE: application/json\r\n"
             "Content-Type: text/plain\r\n"
             "content-length: %zu\r\nConnection: close\r\n\r\n%s",
             strlen(EXAMPLE), EXAMPLE);
    raw_exchange(s->port, req, out, sizeof(out));
    assert_true(strncmp(out, "HTTP/1.1 200", 12) == 0);
    assert_non_null(strstr(out, "X-Request-Id: first-id\r\n"));
    assert_non_null(strstr(out, "{\"solution\":" EXAMPLE_SOLUTION));
    /* Content-Length in lower case, over the limit: 413 before the body. */
    raw_exchange(s->port,
                 "POST /solve HTTP/1.1\r\nHost: x\r\n"
                 "content-type: application/json\r\n"
                 "CONTENT-LENGTH: 16385\r\nConnection: close\r\n\r\n",
                 out, sizeof(out));
    assert_true(strncmp(out, "HTTP/1.1 413", 12) == 0);
}

/* The 8 KiB connection buffer holds about 7.5 KiB of request headers: 6 KiB
 * of them (a large token, say) still reach the solver; 10 KiB get
 * libmicrohttpd's 431. */
static void header_budget(void **state)
{
    struct ht_server *s = *state;
    CURL *curl = curl_easy_init();
    char *line = malloc(10 * 1024 + 16);
    const char *extra[] = {line, NULL};
    struct ht_reply r;

    assert_non_null(line);
    memcpy(line, "X-Pad: ", 7);
    memset(line + 7, 'a', 6 * 1024);
    line[7 + 6 * 1024] = '\0';
    assert_int_equal(
        ht_request_h(curl, s->port, "POST", "/solve", extra, EXAMPLE, &r),
        CURLE_OK);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "{\"solution\":" EXAMPLE_SOLUTION));
    memset(line + 7, 'a', 10 * 1024);
    line[7 + 10 * 1024] = '\0';
    assert_int_equal(
        ht_request_h(curl, s->port, "GET", "/livez", extra, NULL, &r),
        CURLE_OK);
    assert_int_equal(r.status, 431);
    free(line);
    curl_easy_cleanup(curl);
}

static void metrics_scrape(void **state)
{
    struct ht_server *s;
    CURL *curl = curl_easy_init();
    struct ht_reply r;
    char type[128], conflict[128];

    (void)state;
    assert_int_equal(ht_start((void **)&s, 2, 10), 0);
    for (int i = 0; i < 3; i++)
        ht_solve_example(s->port, curl);
    snprintf(conflict, sizeof(conflict), "{\"board\":\"11%079d\"}", 0);
    ht_request(curl, s->port, "POST", "/solve", "application/json", conflict,
               strlen(conflict), &r);
    assert_int_equal(r.status, 422);
    ht_request(curl, s->port, "GET", "/user-secret-path", NULL, NULL, 0, &r);
    ht_request(curl, s->port, "GET", "/metrics", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(ht_header_value(&r, "Content-Type", type, sizeof(type)),
                        "text/plain; version=0.0.4; charset=utf-8");
    assert_true(support_sample(r.body, "http_requests_total{method=\"POST\","
                                       "route=\"/solve\",code=\"200\"}") == 3);
    assert_true(support_sample(r.body, "http_requests_total{method=\"POST\","
                                       "route=\"/solve\",code=\"422\"}") == 1);
    assert_true(support_sample(r.body, "http_requests_total{method=\"GET\","
                                       "route=\"other\",code=\"404\"}") == 1);
    assert_null(
        strstr(r.body, "user-secret-path")); /* no user input in labels */
    assert_true(
        support_sample(r.body, "sudoku_puzzles_total{result=\"solved\"}") == 3);
    assert_true(support_sample(
                    r.body, "sudoku_puzzles_total{result=\"invalid\"}") == 1);
    assert_true(support_sample(r.body, "sudoku_solve_duration_seconds_count") ==
                3);
    assert_true(support_sample(r.body, "sudoku_guesses_bucket{le=\"+Inf\"}") ==
                3);
    assert_true(
        support_sample(
            r.body, "http_request_duration_seconds_count{route=\"/solve\"}") ==
        4);
    assert_true(support_sample(r.body, "http_requests_in_flight") ==
                1); /* this scrape */
    assert_true(support_sample(r.body, "process_start_time_seconds") > 1.7e9);
    assert_true(support_sample(r.body,
                               "sudokud_build_info{version=\"" SUDOKUD_VERSION
                               "\"}") == 1);
    curl_easy_cleanup(curl);
    ht_teardown((void **)&s);
}

static void cors_any_origin(void **state)
{
    struct ht_server *s = *state;
    CURL *curl = curl_easy_init();
    static const char *const origin[] = {"Origin: https://app.example", NULL};
    static const char *const preflight[] = {
        "Origin: https://app.example", "Access-Control-Request-Method: POST",
        "Access-Control-Request-Headers: content-type", NULL};
    static const char *const preflight_cased[] = {
        "oRIGIN: https://app.example", "access-control-request-method: POST",
        NULL};
    struct ht_reply r;
    char v[160];

    ht_request_h(curl, s->port, "POST", "/solve", origin, EXAMPLE, &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(
        ht_header_value(&r, "Access-Control-Allow-Origin", v, sizeof(v)), "*");
    assert_string_equal(
        ht_header_value(&r, "Access-Control-Expose-Headers", v, sizeof(v)),
        "X-Request-Id");
    assert_false(ht_has_header(&r, "Vary: Origin"));
    ht_request_h(curl, s->port, "OPTIONS", "/solve", preflight, NULL, &r);
    assert_int_equal(r.status, 204);
    assert_string_equal(
        ht_header_value(&r, "Access-Control-Allow-Origin", v, sizeof(v)), "*");
    assert_string_equal(
        ht_header_value(&r, "Access-Control-Allow-Methods", v, sizeof(v)),
        "POST, OPTIONS");
    assert_non_null(strstr(
        ht_header_value(&r, "Access-Control-Allow-Headers", v, sizeof(v)),
        "Content-Type"));
    assert_non_null(strstr(v, "X-Request-Id"));
    assert_string_equal(
        ht_header_value(&r, "Access-Control-Max-Age", v, sizeof(v)), "600");
    /* Header names are matched in any case. */
    ht_request_h(curl, s->port, "OPTIONS", "/solve", preflight_cased, NULL, &r);
    assert_int_equal(r.status, 204);
    assert_string_equal(
        ht_header_value(&r, "Access-Control-Allow-Methods", v, sizeof(v)),
        "POST, OPTIONS");
    /* Errors carry CORS too, so a page can read the problem. */
    ht_request_h(curl, s->port, "GET", "/nope", origin, NULL, &r);
    assert_int_equal(r.status, 404);
    assert_string_equal(
        ht_header_value(&r, "Access-Control-Allow-Origin", v, sizeof(v)), "*");
    curl_easy_cleanup(curl);
}

static void cors_origin_list(void **state)
{
    struct ht_server *s;
    struct config cfg;
    CURL *curl = curl_easy_init();
    static const char *const good[] = {"Origin: http://localhost:3000",
                                       "Access-Control-Request-Method: POST",
                                       NULL};
    static const char *const bad[] = {"Origin: https://evil.example",
                                      "Access-Control-Request-Method: POST",
                                      NULL};
    static const char *const good_post[] = {"Origin: https://app.example",
                                            NULL};
    struct ht_reply r;
    char v[160];

    (void)state;
    ht_config(&cfg, 2, 10);
    strcpy(cfg.cors_origins, "https://app.example,http://localhost:3000");
    assert_int_equal(ht_start_with((void **)&s, &cfg), 0);
    ht_request_h(curl, s->port, "OPTIONS", "/livez", good, NULL, &r);
    assert_int_equal(r.status, 204);
    assert_string_equal(
        ht_header_value(&r, "Access-Control-Allow-Origin", v, sizeof(v)),
        "http://localhost:3000");
    assert_string_equal(
        ht_header_value(&r, "Access-Control-Allow-Methods", v, sizeof(v)),
        "GET, HEAD, OPTIONS");
    assert_true(ht_has_header(&r, "Vary: Origin"));
    ht_request_h(curl, s->port, "POST", "/solve", good_post, EXAMPLE, &r);
    assert_int_equal(r.status, 200);
    assert_string_equal(
        ht_header_value(&r, "Access-Control-Allow-Origin", v, sizeof(v)),
        "https://app.example");
    assert_true(ht_has_header(&r, "Vary: Origin"));
    ht_request_h(curl, s->port, "OPTIONS", "/solve", bad, NULL, &r);
    assert_int_equal(r.status, 204);
    assert_string_equal(
        ht_header_value(&r, "Access-Control-Allow-Origin", v, sizeof(v)), "");
    assert_string_equal(
        ht_header_value(&r, "Access-Control-Allow-Methods", v, sizeof(v)), "");
    curl_easy_cleanup(curl);
    ht_teardown((void **)&s);
}

/* --max-logic-ms reaches the logic routes: with 1 ms, grading one of the
 * hardest puzzles (tens of milliseconds of forcing nets) runs out of its
 * budget and says so, 200 all the same. */
static void logic_budget_flag(void **state)
{
    static const char body[] =
        "{\"board\": \"98.7..6..7..5..4......8....5....7.6.."
        "49..57.....9.....4..6..5....3.....6.....2.1.\"}";
    struct ht_server *s;
    struct config cfg;
    CURL *curl = curl_easy_init();
    struct ht_reply r;

    (void)state;
    ht_config(&cfg, 2, 10);
    cfg.max_logic_ms = 1;
    assert_int_equal(ht_start_with((void **)&s, &cfg), 0);
    ht_request(curl, s->port, "POST", "/grade", "application/json", body,
               strlen(body), &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "\"budget_exhausted\":true"));
    curl_easy_cleanup(curl);
    ht_teardown((void **)&s);
}

int test_http_headers(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(request_id_is_echoed_or_replaced_when_not_sane),
        cmocka_unit_test(header_names),
        cmocka_unit_test(header_budget),
        cmocka_unit_test(metrics_scrape),
        cmocka_unit_test(cors_any_origin),
        cmocka_unit_test(cors_origin_list),
        cmocka_unit_test(logic_budget_flag),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("http_headers", tests, ht_setup,
                                       ht_teardown);
}
