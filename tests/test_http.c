/* test_http.c - the real server (http_server_start on port 0) driven over
 * 127.0.0.1 with libcurl and raw sockets: status codes, headers, keep-alive,
 * the 413 path, concurrency at 128 and 256 connections, idle timeout, drain. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "config.h"
#include "http.h"
#include "tests.h"

#define EXAMPLE                                                               \
    "{\"board\": [\"9.7.....6\", \"824.3....\", \"..1..9..2\", \".9...2.18\", " \
    "\"...4....5\", \"1325.8...\", \"...687...\", \"......8.9\", \".4.9...5.\"]}"
#define EXAMPLE_SOLUTION                                                     \
    "[\"957214386\",\"824736591\",\"361859742\",\"495372618\",\"786491235\","  \
    "\"132568974\",\"519687423\",\"273145869\",\"648923157\"]"

struct server {
    struct http_server *srv;
    uint16_t port;
};

struct reply {
    long status;
    char body[8192];
    size_t len;
    char headers[4096];
    size_t hlen;
};

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

static int start(void **state, unsigned threads, unsigned timeout)
{
    struct server *s = calloc(1, sizeof(*s));
    struct config cfg;
    char err[256];

    config_init(&cfg);
    cfg.port = 0;
    strcpy(cfg.bind, "127.0.0.1");
    cfg.threads = threads;
    cfg.timeout = timeout;
    cfg.access_log = 0; /* test_main reads the access log of the binary */
    if (s == NULL || http_server_start(&cfg, &s->srv, err, sizeof(err)) != HTTP_OK) {
        fprintf(stderr, "server did not start: %s\n", err);
        free(s);
        return -1;
    }
    s->port = http_server_port(s->srv);
    *state = s;
    return 0;
}

static int setup(void **state) { return start(state, 4, 10); }

static int teardown(void **state)
{
    struct server *s = *state;

    http_server_stop(s->srv);
    free(s);
    return 0;
}

static size_t on_body(char *p, size_t size, size_t n, void *userdata)
{
    struct reply *r = userdata;
    size_t len = size * n, room = sizeof(r->body) - 1 - r->len;

    memcpy(r->body + r->len, p, len < room ? len : room);
    r->len += len < room ? len : room;
    r->body[r->len] = '\0';
    return len;
}

static size_t on_header(char *p, size_t size, size_t n, void *userdata)
{
    struct reply *r = userdata;
    size_t len = size * n, room = sizeof(r->headers) - 1 - r->hlen;

    memcpy(r->headers + r->hlen, p, len < room ? len : room);
    r->hlen += len < room ? len : room;
    r->headers[r->hlen] = '\0';
    return len;
}

/* Performs one request on `curl` (reused for keep-alive); returns the
 * curl result. type may be NULL (no Content-Type header). */
static CURLcode request(CURL *curl, uint16_t port, const char *method,
                        const char *path, const char *type, const char *body,
                        size_t len, struct reply *r)
{
    char url[128], ct[128];
    struct curl_slist *hdrs = NULL;
    CURLcode rc;

    memset(r, 0, sizeof(*r));
    snprintf(url, sizeof(url), "http://127.0.0.1:%u%s", (unsigned)port, path);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(curl, CURLOPT_NOBODY, strcmp(method, "HEAD") == 0 ? 1L : 0L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, r);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, r);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 20L);
    hdrs = curl_slist_append(hdrs, "Expect:");
    snprintf(ct, sizeof(ct), "Content-Type: %s", type ? type : "");
    hdrs = curl_slist_append(hdrs, type ? ct : "Content-Type:");
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdrs);
    if (body != NULL) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
    } else {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, NULL);
        curl_easy_setopt(curl, CURLOPT_HTTPGET, strcmp(method, "GET") == 0 ? 1L : 0L);
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    }
    rc = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &r->status);
    curl_slist_free_all(hdrs);
    return rc;
}

/* A header line "Name: value" present in the reply (case-insensitive). */
static int has_header(const struct reply *r, const char *line)
{
    const char *p = r->headers;
    size_t n = strlen(line);

    while ((p = strchr(p, '\n')) != NULL) {
        p++;
        if (strncasecmp(p, line, n) == 0 && (p[n] == '\r' || p[n] == '\n'))
            return 1;
    }
    return 0;
}

static void solve_example(uint16_t port, CURL *curl)
{
    struct reply r;

    assert_int_equal(request(curl, port, "POST", "/solve", "application/json",
                             EXAMPLE, strlen(EXAMPLE), &r), CURLE_OK);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "{\"solution\":" EXAMPLE_SOLUTION));
}

/* ------------------------------------------------------------------------
 * Tests
 * ------------------------------------------------------------------------ */

static void test_solve_example(void **state)
{
    struct server *s = *state;
    CURL *curl = curl_easy_init();
    struct reply r;

    assert_int_equal(request(curl, s->port, "POST", "/solve",
                             "application/json; charset=utf-8", EXAMPLE,
                             strlen(EXAMPLE), &r), CURLE_OK);
    assert_int_equal(r.status, 200);
    assert_true(has_header(&r, "Content-Type: application/json"));
    assert_non_null(strstr(r.body, "{\"solution\":" EXAMPLE_SOLUTION ",\"stats\":{"));
    curl_easy_cleanup(curl);
}

static void test_status_codes_and_headers(void **state)
{
    struct server *s = *state;
    CURL *curl = curl_easy_init();
    struct reply r;

    request(curl, s->port, "GET", "/nowhere", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 404);
    assert_true(has_header(&r, "Content-Type: application/problem+json"));
    assert_non_null(strstr(r.body, "\"code\":\"not_found\""));

    request(curl, s->port, "GET", "/solve", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 405);
    assert_true(has_header(&r, "Allow: POST, OPTIONS"));
    assert_non_null(strstr(r.body, "\"code\":\"method_not_allowed\""));

    request(curl, s->port, "DELETE", "/livez", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 405);
    assert_true(has_header(&r, "Allow: GET, HEAD, OPTIONS"));

    request(curl, s->port, "OPTIONS", "/solve", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 204);
    assert_true(has_header(&r, "Allow: POST, OPTIONS"));
    assert_int_equal(r.len, 0);

    request(curl, s->port, "POST", "/solve", "text/plain", EXAMPLE,
            strlen(EXAMPLE), &r);
    assert_int_equal(r.status, 415);
    assert_non_null(strstr(r.body, "\"code\":\"unsupported_media_type\""));

    request(curl, s->port, "POST", "/solve", "application/json", "{\"board\":",
            9, &r);
    assert_int_equal(r.status, 400);
    assert_non_null(strstr(r.body, "\"code\":\"invalid_json\""));

    request(curl, s->port, "GET", "/livez", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 200);
    assert_true(has_header(&r, "Content-Type: application/json"));
    assert_string_equal(r.body, "{\"status\":\"ok\"}");

    request(curl, s->port, "HEAD", "/readyz", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 200);
    assert_int_equal(r.len, 0);

    request(curl, s->port, "GET", "/openapi.yaml", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 200);
    assert_true(has_header(&r, "Content-Type: application/yaml"));
    assert_memory_equal(r.body, "openapi: 3.1", 12);
    curl_easy_cleanup(curl);
}

static void test_keep_alive(void **state)
{
    struct server *s = *state;
    CURL *curl = curl_easy_init();
    long connects = -1;
    struct reply r;

    for (int i = 0; i < 5; i++) {
        solve_example(s->port, curl);
        curl_easy_getinfo(curl, CURLINFO_NUM_CONNECTS, &connects);
        assert_int_equal(connects, i == 0 ? 1 : 0); /* reused after the first */
    }
    /* An error answer keeps the connection too. */
    request(curl, s->port, "POST", "/solve", "application/json", "[]", 2, &r);
    assert_int_equal(r.status, 400);
    solve_example(s->port, curl);
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

static void test_body_limit(void **state)
{
    struct server *s = *state;
    CURL *curl = curl_easy_init();
    struct reply r;
    char *at = padded_example(16384), *over = padded_example(16385);
    char *huge = padded_example(4 << 20);

    request(curl, s->port, "POST", "/solve", "application/json", at, 16384, &r);
    assert_int_equal(r.status, 200);
    request(curl, s->port, "POST", "/solve", "application/json", over, 16385, &r);
    assert_int_equal(r.status, 413);
    assert_true(has_header(&r, "Content-Type: application/problem+json"));
    assert_non_null(strstr(r.body, "\"code\":\"body_too_large\""));
    assert_non_null(strstr(r.body, "\"limit\":16384"));
    /* 4 MiB: answered without reading it all, connection closed after. */
    assert_int_equal(request(curl, s->port, "POST", "/solve", "application/json",
                             huge, 4u << 20, &r), CURLE_OK);
    assert_int_equal(r.status, 413);
    assert_non_null(strstr(r.body, "\"code\":\"body_too_large\""));
    solve_example(s->port, curl); /* the server is still fine */
    free(at), free(over), free(huge);
    curl_easy_cleanup(curl);
}

/* Chunked upload (no Content-Length): the limit is found while reading. */
struct chunked { const char *data; size_t len, off; };

static size_t read_chunk(char *buf, size_t size, size_t n, void *userdata)
{
    struct chunked *c = userdata;
    size_t want = size * n, left = c->len - c->off;

    if (want > 1000)
        want = 1000;
    if (want > left)
        want = left;
    memcpy(buf, c->data + c->off, want);
    c->off += want;
    return want;
}

static void test_body_limit_chunked(void **state)
{
    struct server *s = *state;
    CURL *curl = curl_easy_init();
    struct curl_slist *hdrs = NULL;
    char url[64], *over = padded_example(40000);
    struct chunked c = {over, 40000, 0};
    struct reply r;

    memset(&r, 0, sizeof(r));
    snprintf(url, sizeof(url), "http://127.0.0.1:%u/solve", (unsigned)s->port);
    hdrs = curl_slist_append(hdrs, "Content-Type: application/json");
    hdrs = curl_slist_append(hdrs, "Transfer-Encoding: chunked");
    hdrs = curl_slist_append(hdrs, "Expect:");
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdrs);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_chunk);
    curl_easy_setopt(curl, CURLOPT_READDATA, &c);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &r);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 20L);
    assert_int_equal(curl_easy_perform(curl), CURLE_OK);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &r.status);
    assert_int_equal(r.status, 413);
    assert_non_null(strstr(r.body, "\"code\":\"body_too_large\""));
    curl_slist_free_all(hdrs);
    free(over);
    curl_easy_cleanup(curl);
}

struct worker { uint16_t port; int ok; };

static void *client_thread(void *arg)
{
    struct worker *w = arg;
    CURL *curl = curl_easy_init();
    struct reply r;

    for (int i = 0; i < 50; i++) {
        if (request(curl, w->port, "POST", "/solve", "application/json",
                    EXAMPLE, strlen(EXAMPLE), &r) == CURLE_OK &&
            r.status == 200 && strstr(r.body, EXAMPLE_SOLUTION) != NULL)
            w->ok++;
    }
    curl_easy_cleanup(curl);
    return NULL;
}

static void test_concurrent_clients(void **state)
{
    struct server *s = *state;
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
 * answered. Guards against libmicrohttpd 0.9.75's epoll stall at exactly
 * 128 and 256 ready connections (we use poll; this keeps it that way). */
static void many_at_once(uint16_t port, int n)
{
    CURLM *multi = curl_multi_init();
    CURL **easy = calloc((size_t)n, sizeof(*easy));
    struct reply *r = calloc((size_t)n, sizeof(*r));
    struct curl_slist *hdrs = curl_slist_append(NULL, "Content-Type: application/json");
    char url[64];
    int running = 1, ok = 0;

    snprintf(url, sizeof(url), "http://127.0.0.1:%u/solve", (unsigned)port);
    curl_multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)n);
    for (int i = 0; i < n; i++) {
        easy[i] = curl_easy_init();
        curl_easy_setopt(easy[i], CURLOPT_URL, url);
        curl_easy_setopt(easy[i], CURLOPT_HTTPHEADER, hdrs);
        curl_easy_setopt(easy[i], CURLOPT_POSTFIELDS, EXAMPLE);
        curl_easy_setopt(easy[i], CURLOPT_WRITEFUNCTION, on_body);
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

static void test_128_and_256_connections(void **state)
{
    struct server *s = *state;

    many_at_once(s->port, 127);
    many_at_once(s->port, 128);
    many_at_once(s->port, 256);
}

static int tcp_connect(uint16_t port)
{
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port)};
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* A silent client is dropped after the idle timeout (1 s here). */
static void test_idle_timeout(void **state)
{
    struct server *s;
    struct pollfd p;
    char c;

    assert_int_equal(start((void **)&s, 2, 1), 0);
    p.fd = tcp_connect(s->port);
    assert_true(p.fd >= 0);
    p.events = POLLIN;
    assert_int_equal(poll(&p, 1, 300), 0);      /* still open at 0.3 s */
    assert_int_equal(poll(&p, 1, 5000), 1);     /* closed well before 5 s */
    assert_int_equal(recv(p.fd, &c, 1, 0), 0);  /* EOF, no bytes */
    close(p.fd);
    (void)state;
    teardown((void **)&s);
}

/* Drain: readyz turns 503 on a kept-alive connection and asks to close it;
 * new connections are refused once the listener is quiesced. */
static void test_drain(void **state)
{
    struct server *s;
    CURL *curl = curl_easy_init();
    struct reply r;
    int fd;

    (void)state;
    assert_int_equal(start((void **)&s, 2, 10), 0);
    request(curl, s->port, "GET", "/readyz", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 200);
    assert_int_equal(http_server_drain(s->srv, 0), 0);
    request(curl, s->port, "GET", "/readyz", NULL, NULL, 0, &r);
    assert_int_equal(r.status, 503);
    assert_true(has_header(&r, "Connection: close"));
    assert_non_null(strstr(r.body, "\"code\":\"draining\""));
    fd = tcp_connect(s->port);
    assert_int_equal(fd, -1);
    curl_easy_cleanup(curl);
    teardown((void **)&s);
}

int test_http(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve_example),
        cmocka_unit_test(test_status_codes_and_headers),
        cmocka_unit_test(test_keep_alive),
        cmocka_unit_test(test_body_limit),
        cmocka_unit_test(test_body_limit_chunked),
        cmocka_unit_test(test_concurrent_clients),
        cmocka_unit_test(test_128_and_256_connections),
        cmocka_unit_test(test_idle_timeout),
        cmocka_unit_test(test_drain),
    };
    int failed;

    *ntests = TESTS_COUNT(tests);
    curl_global_init(CURL_GLOBAL_DEFAULT);
    failed = cmocka_run_group_tests_name("http", tests, setup, teardown);
    curl_global_cleanup();
    return failed;
}
