/* http_support.h - what the parts of the HTTP suite (test_http*.c) share:
 * a real server started in process on 127.0.0.1, port 0, and requests to
 * it with libcurl. Every helper fails the running test on error. */
#ifndef HTTP_SUPPORT_H
#define HTTP_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include <curl/curl.h>

#include "config.h"
#include "http.h"

/* A server under test and the port it bound. */
struct ht_server {
    struct http_server *srv;
    uint16_t port;
};

/* One answer: its status, body and header lines (each NUL-terminated,
 * cut at the buffer's size). */
struct ht_reply {
    long status;
    char body[65536];
    size_t len;
    char headers[4096];
    size_t hlen;
};

/* The settings of a test server: loopback, port 0, no access log, errors
 * only in the log. */
void ht_config(struct config *cfg, unsigned threads, unsigned timeout);

/* Starts a server (cfg, or ht_config's with threads and timeout) into
 * *state as a heap struct ht_server; 0, or -1 when it did not start.
 * ht_teardown stops and frees it. ht_setup and ht_teardown are cmocka
 * group fixtures: a server of 4 threads, 10 s idle timeout. */
int ht_start_with(void **state, const struct config *cfg);
int ht_start(void **state, unsigned threads, unsigned timeout);
int ht_setup(void **state);
int ht_teardown(void **state);

/* A CURLOPT_WRITEFUNCTION that appends to the struct ht_reply's body. */
size_t ht_on_body(char *p, size_t size, size_t n, void *userdata);

/* Performs one request on `curl` (reused for keep-alive) into *r; returns
 * the curl result. type may be NULL (no Content-Type header). */
CURLcode ht_request(CURL *curl, uint16_t port, const char *method,
                    const char *path, const char *type, const char *body,
                    size_t len, struct ht_reply *r);

/* Like ht_request with Content-Type: application/json and the extra header
 * lines of the NULL-terminated list extra (which may be NULL). */
CURLcode ht_request_h(CURL *curl, uint16_t port, const char *method,
                      const char *path, const char *const *extra,
                      const char *body, struct ht_reply *r);

/* A header line "Name: value" present in the reply (case-insensitive). */
int ht_has_header(const struct ht_reply *r, const char *line);

/* The value of header `name` in the reply, copied into out ("" if absent);
 * returns out. */
const char *ht_header_value(const struct ht_reply *r, const char *name,
                            char *out, size_t cap);

/* POSTs the example to /solve and asserts its solution comes back. */
void ht_solve_example(uint16_t port, CURL *curl);

/* Waits (5 s at most) until get(srv) reaches n; returns the last value. */
long ht_wait_until(long (*get)(const struct http_server *),
                   const struct http_server *srv, long n);

/* The value of a metrics series now (-1 when absent), as GET /metrics
 * would render it, read in the process. */
double ht_scrape(struct ht_server *s, const char *series);

/* n connections that send nothing / that sent a request's headers and not
 * its body, once the server has taken them all in; their sockets in fd. */
void ht_open_idle(struct ht_server *s, int *fd, int n);
void ht_open_busy(struct ht_server *s, int *fd, int n);

/* Waits (5 s at most) until the server has no connection open. */
void ht_wait_all_closed(struct ht_server *s);

#endif
