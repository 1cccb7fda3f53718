/* http_support.c - helpers of the HTTP suite's parts (see http_support.h):
 * a test server on port 0, a libcurl request and its answer, waiting on the
 * server's counts. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "config.h"
#include "http.h"
#include "metrics.h"
#include "../src/http/http_internal.h" /* the server's metrics, read in process */
#include "http_support.h"
#include "support.h"

#define EXAMPLE SUPPORT_EXAMPLE_BODY
#define EXAMPLE_SOLUTION SUPPORT_EXAMPLE_SOLUTION_ROWS

/* The settings of a test server: loopback, port 0, no access log (the
 * black-box tests in test_main.c read the access log of the binary). */
void ht_config(struct config *cfg, unsigned threads, unsigned timeout)
{
    config_init(cfg);
    cfg->port = 0;
    strcpy(cfg->bind, "127.0.0.1");
    cfg->threads = threads;
    cfg->timeout = timeout;
    cfg->access_log = 0;
    cfg->log_level = LOG_ERROR; /* keep the test output readable */
}

int ht_start_with(void **state, const struct config *cfg)
{
    struct ht_server *s = calloc(1, sizeof(*s));
    char err[256];

    if (s == NULL ||
        http_server_start(cfg, &s->srv, err, sizeof(err)) != HTTP_OK) {
        fprintf(stderr, "server did not start: %s\n", err);
        free(s);
        return -1;
    }
    s->port = http_server_port(s->srv);
    *state = s;
    return 0;
}

int ht_start(void **state, unsigned threads, unsigned timeout)
{
    struct config cfg;

    ht_config(&cfg, threads, timeout);
    return ht_start_with(state, &cfg);
}

int ht_setup(void **state)
{
    return ht_start(state, 4, 10);
}

int ht_teardown(void **state)
{
    struct ht_server *s = *state;

    http_server_stop(s->srv);
    free(s);
    return 0;
}

size_t ht_on_body(char *p, size_t size, size_t n, void *userdata)
{
    struct ht_reply *r = userdata;
    size_t len = size * n, room = sizeof(r->body) - 1 - r->len;

    memcpy(r->body + r->len, p, len < room ? len : room);
    r->len += len < room ? len : room;
    r->body[r->len] = '\0';
    return len;
}

static size_t on_header(char *p, size_t size, size_t n, void *userdata)
{
    struct ht_reply *r = userdata;
    size_t len = size * n, room = sizeof(r->headers) - 1 - r->hlen;

    memcpy(r->headers + r->hlen, p, len < room ? len : room);
    r->hlen += len < room ? len : room;
    r->headers[r->hlen] = '\0';
    return len;
}

/* Performs one request on `curl` (reused for keep-alive); returns the
 * curl result. type may be NULL (no Content-Type header). */
CURLcode ht_request(CURL *curl, uint16_t port, const char *method,
                    const char *path, const char *type, const char *body,
                    size_t len, struct ht_reply *r)
{
    char url[128], ct[128];
    struct curl_slist *hdrs = NULL;
    CURLcode rc;

    memset(r, 0, sizeof(*r));
    snprintf(url, sizeof(url), "http://127.0.0.1:%u%s", (unsigned)port, path);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(curl, CURLOPT_NOBODY,
                     strcmp(method, "HEAD") == 0 ? 1L : 0L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, ht_on_body);
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
        curl_easy_setopt(curl, CURLOPT_HTTPGET,
                         strcmp(method, "GET") == 0 ? 1L : 0L);
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    }
    rc = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &r->status);
    curl_slist_free_all(hdrs);
    return rc;
}

/* A header line "Name: value" present in the reply (case-insensitive). */
int ht_has_header(const struct ht_reply *r, const char *line)
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

void ht_solve_example(uint16_t port, CURL *curl)
{
    struct ht_reply r;

    assert_int_equal(ht_request(curl, port, "POST", "/solve",
                                "application/json", EXAMPLE, strlen(EXAMPLE),
                                &r),
                     CURLE_OK);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "{\"solution\":" EXAMPLE_SOLUTION));
}

/* Waits (5 s at most) until get(srv) reaches n; returns the last value. */
struct count_wait {
    long (*get)(const struct http_server *);
    const struct http_server *srv;
    long n, v;
};

static int count_reached(void *arg)
{
    struct count_wait *w = arg;

    w->v = w->get(w->srv);
    return w->v >= w->n;
}

long ht_wait_until(long (*get)(const struct http_server *),
                   const struct http_server *srv, long n)
{
    struct count_wait w = {get, srv, n, 0};

    support_wait_until(count_reached, &w, 5000);
    return w.v;
}

/* The value of a metrics series now (-1 when absent), as GET /metrics
 * would render it; read in the process, so that it also works on a server
 * that no longer accepts, or has no connection to spare. */
double ht_scrape(struct ht_server *s, const char *series)
{
    size_t len;
    char *text = metrics_render(s->srv->metrics, &len);
    double v;

    assert_non_null(text);
    v = support_sample(text, series);
    free(text);
    return v;
}

/* The value of header `name` in the reply, copied into out ("" if absent). */
const char *ht_header_value(const struct ht_reply *r, const char *name,
                            char *out, size_t cap)
{
    const char *p = r->headers;
    size_t n = strlen(name);

    out[0] = '\0';
    while ((p = strchr(p, '\n')) != NULL) {
        p++;
        if (strncasecmp(p, name, n) == 0 && p[n] == ':') {
            size_t k = strcspn(p + n + 2, "\r\n");
            snprintf(out, cap, "%.*s", (int)k, p + n + 2);
            break;
        }
    }
    return out;
}

/* Like ht_request() with extra header lines. */
CURLcode ht_request_h(CURL *curl, uint16_t port, const char *method,
                      const char *path, const char *const *extra,
                      const char *body, struct ht_reply *r)
{
    char url[128];
    struct curl_slist *hdrs =
        curl_slist_append(NULL, "Content-Type: application/json");
    CURLcode rc;

    memset(r, 0, sizeof(*r));
    for (; extra && *extra; extra++)
        hdrs = curl_slist_append(hdrs, *extra);
    snprintf(url, sizeof(url), "http://127.0.0.1:%u%s", (unsigned)port, path);
    curl_easy_reset(curl);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdrs);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, ht_on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, r);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, r);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 10L);
    if (body != NULL)
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    rc = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &r->status);
    curl_slist_free_all(hdrs);
    return rc;
}

/* n connections that send nothing, once the server has taken them all in. */
void ht_open_idle(struct ht_server *s, int *fd, int n)
{
    long before = http_server_connections(s->srv);

    for (int i = 0; i < n; i++) {
        fd[i] = support_connect(s->port);
        assert_true(fd[i] >= 0);
    }
    assert_int_equal(ht_wait_until(http_server_connections, s->srv, before + n),
                     before + n);
}

/* n connections in the middle of a request: its headers sent, its body
 * not. With --body-min-rate 0 the server neither times them out nor
 * evicts them for new clients, as it does idle ones. */
void ht_open_busy(struct ht_server *s, int *fd, int n)
{
    static const char head[] = "POST /solve HTTP/1.1\r\nHost: t\r\n"
                               "Content-Type: application/json\r\n"
                               "Content-Length: 1000\r\n\r\n";
    long before = http_server_in_flight(s->srv);

    for (int i = 0; i < n; i++) {
        fd[i] = support_connect(s->port);
        assert_true(fd[i] >= 0);
        assert_int_equal(send(fd[i], head, strlen(head), MSG_NOSIGNAL),
                         (ssize_t)strlen(head));
    }
    assert_int_equal(ht_wait_until(http_server_in_flight, s->srv, before + n),
                     before + n);
}

/* Waits until the server has no connection open. */
static int none_open(void *arg)
{
    return http_server_connections(arg) == 0;
}

void ht_wait_all_closed(struct ht_server *s)
{
    support_wait_until(none_open, s->srv, 5000);
    assert_int_equal(http_server_connections(s->srv), 0);
}
