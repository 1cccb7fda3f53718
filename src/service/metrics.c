/* metrics.c - lock-free counters and fixed-bucket histograms, sharded by
 * CPU and rendered in the Prometheus text format. Histogram buckets are stored
 * per bucket and summed into cumulative "le" counts when scraped, so an update
 * touches one bucket, the count and the sum. */
#include "metrics.h"

#include "log.h"

#include <stdarg.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static const char *const methods[] = {"GET", "HEAD", "POST", "OPTIONS",
                                      "other"};
#define NMETHODS (sizeof(methods) / sizeof(methods[0]))

static const int codes[] = {200, 204, 400, 404, 405, 413, 414,
                            415, 422, 431, 500, 501, 503, 505};
#define NCODES (sizeof(codes) / sizeof(codes[0]) + 1) /* + "other" */

static const char *const close_reasons[METRICS_NCLOSES] = {
    "header_timeout", "body_too_slow", "evicted", "shutdown",
    "idle_timeout",   "send_timeout",  "refused", "too_large"};

static const char *const results[METRICS_NRESULTS] = {
    "solved", "no_solution", "multiple_solutions", "invalid", "search_limit"};

/* Upper bounds in microseconds (durations) or guesses. */
static const uint64_t http_bounds[] = {
    100,   250,    500,    1000,   2500,    5000,    10000,   25000,
    50000, 100000, 250000, 500000, 1000000, 2500000, 5000000, 10000000};
static const uint64_t solve_bounds[] = {
    5,    10,   25,    50,    100,   250,    500,    1000,
    2500, 5000, 10000, 25000, 50000, 100000, 250000, 1000000};
static const uint64_t guess_bounds[] = {0,   1,   2,   5,    10,   20,   50,
                                        100, 200, 500, 1000, 5000, 20000};
#define MAX_BUCKETS 17

struct histogram {
    atomic_ulong bucket[MAX_BUCKETS]; /* the last one is +Inf */
    atomic_ulong count;
    atomic_ulong sum;
};

/* Every counter exists once per shard, and a thread adds to the shard of
 * the CPU it runs on: two threads on two CPUs then do not pull the same
 * cache lines back and forth on every request. A scrape adds the shards
 * up. Each shard is its own cache-aligned allocation. */
#define NSHARDS 8

struct shard {
    atomic_long in_flight; /* may go negative: begin and end can land
                              on different shards */
    struct histogram solve, guesses;
    atomic_ulong puzzles[METRICS_NRESULTS];
    atomic_ulong closes[METRICS_NCLOSES];
    atomic_ulong *requests;      /* [NMETHODS][nroutes + 1][NCODES] */
    struct histogram *durations; /* [nroutes + 1] */
};

struct metrics {
    const char *(*route_label)(size_t route);
    size_t nroutes;
    const char *version;
    double start_time;
    const struct log_buffer *log; /* counts its own dropped lines */
    const atomic_long *open;      /* the server's open connections, or NULL */
    struct shard *shard[NSHARDS];
};

/* n bytes of zeros on their own cache lines, or NULL. */
static void *zalloc_aligned(size_t n)
{
    n = (n + 63) / 64 * 64;
    void *p = aligned_alloc(64, n);

    if (p != NULL)
        memset(p, 0, n); /* zero bytes are valid lock-free atomics */
    return p;
}

struct metrics *metrics_create(const char *(*route_label)(size_t route),
                               size_t nroutes, const char *version)
{
    struct metrics *m = calloc(1, sizeof(*m));
    struct timeval tv;

    if (m == NULL)
        return NULL;
    m->route_label = route_label;
    m->nroutes = nroutes;
    m->version = version;
    gettimeofday(&tv, NULL);
    m->start_time = (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
    for (size_t i = 0; i < NSHARDS; i++) {
        struct shard *s = m->shard[i] = zalloc_aligned(sizeof(struct shard));
        if (s == NULL ||
            !(s->requests = zalloc_aligned(NMETHODS * (nroutes + 1) * NCODES *
                                           sizeof(atomic_ulong))) ||
            !(s->durations =
                  zalloc_aligned((nroutes + 1) * sizeof(struct histogram)))) {
            metrics_destroy(m);
            return NULL;
        }
    }
    return m;
}

void metrics_destroy(struct metrics *m)
{
    if (m == NULL)
        return;
    for (size_t i = 0; i < NSHARDS; i++) {
        if (m->shard[i] == NULL)
            continue;
        free(m->shard[i]->requests);
        free(m->shard[i]->durations);
        free(m->shard[i]);
    }
    free(m);
}

static struct shard *my_shard(struct metrics *m)
{
    int cpu = sched_getcpu(); /* glibc reads it from rseq: no system call */

    return m->shard[cpu > 0 ? (unsigned)cpu % NSHARDS : 0];
}

static void observe(struct histogram *h, const uint64_t *bounds, size_t n,
                    uint64_t value)
{
    size_t i = 0;

    while (i < n && value > bounds[i])
        i++;
    atomic_fetch_add_explicit(&h->bucket[i], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&h->count, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&h->sum, value, memory_order_relaxed);
}

void metrics_request_begin(struct metrics *m)
{
    atomic_fetch_add_explicit(&my_shard(m)->in_flight, 1, memory_order_relaxed);
}

void metrics_request_end(struct metrics *m, const char *method, size_t route,
                         int status, uint64_t duration_us)
{
    size_t mi = NMETHODS - 1, ci = NCODES - 1;

    for (size_t i = 0; i + 1 < NMETHODS; i++)
        if (method != NULL && strcmp(method, methods[i]) == 0)
            mi = i;
    for (size_t i = 0; i + 1 < NCODES; i++)
        if (codes[i] == status)
            ci = i;
    if (route > m->nroutes)
        route = m->nroutes;
    struct shard *s = my_shard(m);
    atomic_fetch_add_explicit(
        &s->requests[(mi * (m->nroutes + 1) + route) * NCODES + ci], 1,
        memory_order_relaxed);
    observe(&s->durations[route], http_bounds,
            sizeof(http_bounds) / sizeof(http_bounds[0]), duration_us);
    atomic_fetch_sub_explicit(&s->in_flight, 1, memory_order_relaxed);
}

void metrics_watch_log(struct metrics *m, const struct log_buffer *b)
{
    m->log = b;
}

void metrics_watch_connections(struct metrics *m, const atomic_long *open)
{
    m->open = open;
}

long metrics_in_flight(const struct metrics *m)
{
    long n = 0;

    for (size_t i = 0; i < NSHARDS; i++)
        n +=
            atomic_load_explicit(&m->shard[i]->in_flight, memory_order_relaxed);
    return n;
}

void metrics_puzzle(struct metrics *m, enum metrics_result result,
                    uint64_t solve_us, uint64_t guesses)
{
    struct shard *s = my_shard(m);

    atomic_fetch_add_explicit(&s->puzzles[result], 1, memory_order_relaxed);
    if (result == METRICS_INVALID)
        return;
    observe(&s->solve, solve_bounds,
            sizeof(solve_bounds) / sizeof(solve_bounds[0]), solve_us);
    observe(&s->guesses, guess_bounds,
            sizeof(guess_bounds) / sizeof(guess_bounds[0]), guesses);
}

void metrics_connection_closed(struct metrics *m, enum metrics_close why)
{
    atomic_fetch_add_explicit(&my_shard(m)->closes[why], 1,
                              memory_order_relaxed);
}

/* ------------------------------------------------------------------------
 * Rendering
 * ------------------------------------------------------------------------ */

struct out {
    char *buf;
    size_t len, cap;
    int failed;
};

static void emit(struct out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void emit(struct out *o, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (o->failed)
        return;
    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            o->failed = 1;
            return;
        }
        if ((size_t)n < o->cap - o->len) {
            o->len += (size_t)n;
            return;
        }
        char *p = realloc(o->buf, o->cap * 2 + (size_t)n);
        if (p == NULL) {
            o->failed = 1;
            return;
        }
        o->buf = p;
        o->cap = o->cap * 2 + (size_t)n;
    }
}

/* A histogram added up over the shards. */
struct histogram_total {
    unsigned long bucket[MAX_BUCKETS], count, sum;
};

static void add_histogram(struct histogram_total *t, const struct histogram *h)
{
    for (size_t i = 0; i < MAX_BUCKETS; i++)
        t->bucket[i] +=
            atomic_load_explicit(&h->bucket[i], memory_order_relaxed);
    t->count += atomic_load_explicit(&h->count, memory_order_relaxed);
    t->sum += atomic_load_explicit(&h->sum, memory_order_relaxed);
}

/* One histogram series; `labels` is "" or `key="value",`; `scale` turns
 * stored units into the metric's unit (1e-6 for microseconds to seconds). */
static void emit_histogram(struct out *o, const char *name, const char *labels,
                           const struct histogram_total *h,
                           const uint64_t *bounds, size_t n, double scale)
{
    unsigned long cum = 0;

    for (size_t i = 0; i <= n; i++) {
        cum += h->bucket[i];
        if (i < n)
            emit(o, "%s_bucket{%sle=\"%g\"} %lu\n", name, labels,
                 (double)bounds[i] * scale, cum);
        else
            emit(o, "%s_bucket{%sle=\"+Inf\"} %lu\n", name, labels, cum);
    }
    emit(o, "%s_sum%s%.*s%s %.9g\n", name, *labels ? "{" : "",
         *labels ? (int)strlen(labels) - 1 : 0, labels, *labels ? "}" : "",
         (double)h->sum * scale);
    emit(o, "%s_count%s%.*s%s %lu\n", name, *labels ? "{" : "",
         *labels ? (int)strlen(labels) - 1 : 0, labels, *labels ? "}" : "",
         h->count);
}

static const char *route_label(const struct metrics *m, size_t r)
{
    return r < m->nroutes ? m->route_label(r) : "other";
}

/* The HTTP series: requests by method, route and status; durations by
 * route. */
static void render_requests(const struct metrics *m, struct out *o)
{
    size_t nr = m->nroutes + 1;

    emit(o, "# HELP http_requests_total HTTP requests answered.\n"
            "# TYPE http_requests_total counter\n");
    for (size_t mi = 0; mi < NMETHODS; mi++)
        for (size_t r = 0; r < nr; r++)
            for (size_t ci = 0; ci < NCODES; ci++) {
                unsigned long v = 0;
                for (size_t k = 0; k < NSHARDS; k++)
                    v += atomic_load_explicit(
                        &m->shard[k]->requests[(mi * nr + r) * NCODES + ci],
                        memory_order_relaxed);
                char code[8];
                if (v == 0)
                    continue;
                if (ci + 1 < NCODES)
                    snprintf(code, sizeof(code), "%d", codes[ci]);
                else
                    snprintf(code, sizeof(code), "other");
                emit(o,
                     "http_requests_total{method=\"%s\",route=\"%s\","
                     "code=\"%s\"} %lu\n",
                     methods[mi], route_label(m, r), code, v);
            }
    emit(o, "# HELP http_request_duration_seconds Time from the request's "
            "headers to the end of its answer (a streamed batch's included).\n"
            "# TYPE http_request_duration_seconds histogram\n");
    for (size_t r = 0; r < nr; r++) {
        char labels[96];
        snprintf(labels, sizeof(labels), "route=\"%s\",", route_label(m, r));
        struct histogram_total t = {{0}, 0, 0};
        for (size_t k = 0; k < NSHARDS; k++)
            add_histogram(&t, &m->shard[k]->durations[r]);
        emit_histogram(o, "http_request_duration_seconds", labels, &t,
                       http_bounds,
                       sizeof(http_bounds) / sizeof(http_bounds[0]), 1e-6);
    }
}

/* Requests in flight and the connections: open, and closed by the server. */
static void render_connections(const struct metrics *m, struct out *o)
{
    emit(o,
         "# HELP http_requests_in_flight Requests started and not yet "
         "answered.\n# TYPE http_requests_in_flight gauge\n"
         "http_requests_in_flight %ld\n",
         metrics_in_flight(m));
    if (m->open != NULL)
        emit(o,
             "# HELP http_connections_open Connections open now (the "
             "scrape's own included).\n# TYPE http_connections_open gauge\n"
             "http_connections_open %ld\n",
             atomic_load_explicit(m->open, memory_order_relaxed));
    emit(o, "# HELP http_connections_closed_total Connections the server "
            "closed itself, by reason: slow headers, a body below the "
            "minimum rate, evicted for a new client, idle at shutdown, "
            "nothing sent for --timeout, an answer not read for --timeout, "
            "refused at accept (connection caps), a body far past its "
            "limit.\n"
            "# TYPE http_connections_closed_total counter\n");
    for (size_t i = 0; i < METRICS_NCLOSES; i++) {
        unsigned long v = 0;
        for (size_t k = 0; k < NSHARDS; k++)
            v += atomic_load_explicit(&m->shard[k]->closes[i],
                                      memory_order_relaxed);
        emit(o, "http_connections_closed_total{reason=\"%s\"} %lu\n",
             close_reasons[i], v);
    }
}

/* The solver's series: search time, guesses, puzzles by outcome. */
static void render_puzzles(const struct metrics *m, struct out *o)
{
    emit(o, "# HELP sudoku_solve_duration_seconds Search time of one "
            "puzzle (uniqueness check included).\n"
            "# TYPE sudoku_solve_duration_seconds histogram\n");
    struct histogram_total solve = {{0}, 0, 0}, guesses = {{0}, 0, 0};
    unsigned long puzzles[METRICS_NRESULTS] = {0};
    for (size_t k = 0; k < NSHARDS; k++) {
        add_histogram(&solve, &m->shard[k]->solve);
        add_histogram(&guesses, &m->shard[k]->guesses);
        for (size_t i = 0; i < METRICS_NRESULTS; i++)
            puzzles[i] += atomic_load_explicit(&m->shard[k]->puzzles[i],
                                               memory_order_relaxed);
    }
    emit_histogram(o, "sudoku_solve_duration_seconds", "", &solve, solve_bounds,
                   sizeof(solve_bounds) / sizeof(solve_bounds[0]), 1e-6);
    emit(o, "# HELP sudoku_guesses Branch points guessed at per searched "
            "puzzle.\n# TYPE sudoku_guesses histogram\n");
    emit_histogram(o, "sudoku_guesses", "", &guesses, guess_bounds,
                   sizeof(guess_bounds) / sizeof(guess_bounds[0]), 1);
    emit(o, "# HELP sudoku_puzzles_total Puzzles judged, by outcome.\n"
            "# TYPE sudoku_puzzles_total counter\n");
    for (size_t i = 0; i < METRICS_NRESULTS; i++)
        emit(o, "sudoku_puzzles_total{result=\"%s\"} %lu\n", results[i],
             puzzles[i]);
}

char *metrics_render(const struct metrics *m, size_t *len)
{
    struct out o = {malloc(8192), 0, 8192, 0};

    if (o.buf == NULL)
        return NULL;
    render_requests(m, &o);
    render_connections(m, &o);
    render_puzzles(m, &o);
    emit(&o,
         "# HELP sudokud_log_lines_dropped_total Log lines dropped "
         "because stdout did not take them in time.\n"
         "# TYPE sudokud_log_lines_dropped_total counter\n"
         "sudokud_log_lines_dropped_total %lu\n",
         log_buffer_dropped(m->log));
    emit(&o,
         "# HELP process_start_time_seconds Start time of the process "
         "since the Unix epoch.\n# TYPE process_start_time_seconds gauge\n"
         "process_start_time_seconds %.3f\n",
         m->start_time);
    emit(&o,
         "# HELP sudokud_build_info The running version.\n"
         "# TYPE sudokud_build_info gauge\n"
         "sudokud_build_info{version=\"%s\"} 1\n",
         m->version);
    if (o.failed) {
        free(o.buf);
        return NULL;
    }
    *len = o.len;
    return o.buf;
}
