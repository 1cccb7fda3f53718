/* metrics.h - Prometheus metrics of the service. Every update is a relaxed
 * atomic add on a counter of its own (no lock on the hot path); a scrape
 * reads them all and renders the text exposition format 0.0.4. Labels come
 * only from fixed tables (methods, route templates, status codes, results),
 * never from user input. */
#ifndef METRICS_H
#define METRICS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct metrics;
struct log_buffer;

/* Outcome of one puzzle sent to /solve. */
enum metrics_result {
    METRICS_SOLVED = 0,
    METRICS_NO_SOLUTION,
    METRICS_MULTIPLE_SOLUTIONS,
    METRICS_INVALID, /* rejected before the search: shape, characters, rules */
    METRICS_SEARCH_LIMIT, /* the node budget ran out */
    METRICS_NRESULTS
};

/* Why the server closed a connection itself: every close it makes. */
enum metrics_close {
    METRICS_CLOSE_HEADER_TIMEOUT = 0, /* headers not complete in time */
    METRICS_CLOSE_BODY_TOO_SLOW,      /* body below the minimum rate */
    METRICS_CLOSE_EVICTED,      /* idle longest when connections ran out */
    METRICS_CLOSE_SHUTDOWN,     /* idle when the server began to drain */
    METRICS_CLOSE_IDLE_TIMEOUT, /* nothing came for --timeout (before the
                                   header deadline, or within a body) */
    METRICS_CLOSE_SEND_TIMEOUT, /* the client read none of its answer for
                                   --timeout */
    METRICS_CLOSE_REFUSED,      /* at accept: the connection or per-IP cap */
    METRICS_CLOSE_TOO_LARGE,    /* a body far past its limit, not read on */
    METRICS_NCLOSES
};

/* Creates the metrics of a server with nroutes routes, route r labelled
 * route_label(r) (a route template; requests outside them are counted as
 * "other"). The labels must outlive the metrics. Returns NULL when out of
 * memory. */
struct metrics *metrics_create(const char *(*route_label)(size_t route),
                               size_t nroutes, const char *version);
void metrics_destroy(struct metrics *m);

/* A request started / ended. `route` is an index into the route table, or
 * nroutes for any other path. */
void metrics_request_begin(struct metrics *m);
void metrics_request_end(struct metrics *m, const char *method, size_t route,
                         int status, uint64_t duration_us);
long metrics_in_flight(const struct metrics *m);

/* A puzzle was judged; duration and guesses count only for searched ones. */
void metrics_puzzle(struct metrics *m, enum metrics_result result,
                    uint64_t solve_us, uint64_t guesses);

/* The server closed a connection for `why`. */
void metrics_connection_closed(struct metrics *m, enum metrics_close why);

/* The log whose dropped lines sudokud_log_lines_dropped_total reports
 * (log_buffer_dropped); NULL or never set: 0. Set it before any scrape; b
 * must outlive the scrapes. */
void metrics_watch_log(struct metrics *m, const struct log_buffer *b);

/* The count of open connections that http_connections_open reports; NULL
 * or never set: not reported. `open` must outlive the scrapes. */
void metrics_watch_connections(struct metrics *m, const atomic_long *open);

/* Renders every metric. Returns a heap string (length in *len) or NULL when
 * out of memory. */
char *metrics_render(const struct metrics *m, size_t *len);

#endif
