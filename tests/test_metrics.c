/* test_metrics.c - counters, histograms and the text format, including
 * updates from many threads at once (no update may be lost). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "metrics.h"
#include "support.h"
#include "tests.h"

static const char *routes(size_t r)
{
    static const char *const path[] = {"/solve", "/livez"};

    return path[r];
}

static void requests_and_histogram(void **state)
{
    struct metrics *m = metrics_create(routes, 2, "9.9.9");
    size_t len = 0;
    char *text;

    (void)state;
    metrics_request_begin(m);
    metrics_request_end(m, "POST", 0, 200, 300); /* 0.3 ms */
    metrics_request_begin(m);
    metrics_request_end(m, "POST", 0, 200, 7000); /* 7 ms */
    metrics_request_begin(m);
    metrics_request_end(m, "BREW", 5, 418, 50); /* unknown everything */
    metrics_request_begin(m);                   /* still in flight */
    text = metrics_render(m, &len);
    assert_non_null(text);
    assert_int_equal(strlen(text), len);
    assert_true(support_sample(text, "http_requests_total{method=\"POST\","
                                     "route=\"/solve\",code=\"200\"}") == 2);
    assert_true(support_sample(text, "http_requests_total{method=\"other\","
                                     "route=\"other\",code=\"other\"}") == 1);
    /* No label takes the unknown method or status (a number such as the
     * start time may hold the digits 418: look at the labels only). */
    assert_null(strstr(text, "BREW"));
    assert_null(strstr(text, "code=\"418\""));
    /* Cumulative buckets: 0.3 ms is in le=0.0005, 7 ms from le=0.01 on. */
    assert_true(support_sample(text, "http_request_duration_seconds_bucket{"
                                     "route=\"/solve\",le=\"0.00025\"}") == 0);
    assert_true(support_sample(text, "http_request_duration_seconds_bucket{"
                                     "route=\"/solve\",le=\"0.0005\"}") == 1);
    assert_true(support_sample(text, "http_request_duration_seconds_bucket{"
                                     "route=\"/solve\",le=\"0.005\"}") == 1);
    assert_true(support_sample(text, "http_request_duration_seconds_bucket{"
                                     "route=\"/solve\",le=\"0.01\"}") == 2);
    assert_true(support_sample(text, "http_request_duration_seconds_bucket{"
                                     "route=\"/solve\",le=\"+Inf\"}") == 2);
    assert_true(
        support_sample(
            text, "http_request_duration_seconds_count{route=\"/solve\"}") ==
        2);
    assert_true(
        support_sample(text,
                       "http_request_duration_seconds_sum{route=\"/solve\"}") >
        0.0072);
    assert_true(
        support_sample(text,
                       "http_request_duration_seconds_sum{route=\"/solve\"}") <
        0.0074);
    assert_true(support_sample(text, "http_requests_in_flight") == 1);
    assert_int_equal(metrics_in_flight(m), 1);
    assert_true(support_sample(text, "sudokud_build_info{version=\"9.9.9\"}") ==
                1);
    assert_non_null(
        strstr(text, "# TYPE http_request_duration_seconds histogram\n"));
    free(text);
    metrics_destroy(m);
}

static void puzzles_counted_by_result_and_invalid_ones_not_timed(void **state)
{
    struct metrics *m = metrics_create(routes, 2, "x");
    size_t len;
    char *text;

    (void)state;
    metrics_puzzle(m, METRICS_SOLVED, 20, 0);
    metrics_puzzle(m, METRICS_SOLVED, 2000, 7);
    metrics_puzzle(m, METRICS_MULTIPLE_SOLUTIONS, 30, 1);
    metrics_puzzle(m, METRICS_INVALID, 0, 0);
    text = metrics_render(m, &len);
    assert_true(
        support_sample(text, "sudoku_puzzles_total{result=\"solved\"}") == 2);
    assert_true(
        support_sample(
            text, "sudoku_puzzles_total{result=\"multiple_solutions\"}") == 1);
    assert_true(support_sample(
                    text, "sudoku_puzzles_total{result=\"no_solution\"}") == 0);
    assert_true(
        support_sample(text, "sudoku_puzzles_total{result=\"invalid\"}") == 1);
    /* Invalid boards were never searched: 3 observations, not 4. */
    assert_true(support_sample(text, "sudoku_solve_duration_seconds_count") ==
                3);
    assert_true(support_sample(text, "sudoku_guesses_bucket{le=\"0\"}") == 1);
    assert_true(support_sample(text, "sudoku_guesses_bucket{le=\"5\"}") == 2);
    assert_true(support_sample(text, "sudoku_guesses_bucket{le=\"10\"}") == 3);
    assert_true(support_sample(text, "sudoku_guesses_sum") == 8);
    free(text);
    metrics_destroy(m);
}

struct hammer {
    struct metrics *m;
    cpu_set_t cpus; /* where the test may run */
};

/* Moves the calling thread to the k-th (modulo) CPU of `cpus`. */
static void move_to(const cpu_set_t *cpus, int k)
{
    cpu_set_t one;
    int n = CPU_COUNT(cpus);

    k = n > 0 ? k % n : 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, cpus) && k-- == 0) {
            CPU_ZERO(&one);
            CPU_SET(c, &one);
            sched_setaffinity(0, sizeof(one), &one);
            return;
        }
}

/* Counters are sharded by CPU: the threads hop between CPUs, now and then
 * between a request's begin and its end, so the shards must add up. */
static void *hammer_thread(void *arg)
{
    const struct hammer *h = arg;

    for (int i = 0; i < 100000; i++) {
        metrics_request_begin(h->m);
        if (i % 5000 == 0)
            move_to(&h->cpus, i / 5000);
        metrics_request_end(h->m, "GET", 1, 200, 10);
        metrics_puzzle(h->m, METRICS_SOLVED, 7, 0);
    }
    return NULL;
}

static void no_lost_updates(void **state)
{
    struct hammer h = {metrics_create(routes, 2, "x"), {{0}}};
    pthread_t t[4];
    size_t len;
    char *text;

    (void)state;
    assert_int_equal(sched_getaffinity(0, sizeof(h.cpus), &h.cpus), 0);
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, hammer_thread, &h);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    text = metrics_render(h.m, &len);
    assert_true(support_sample(text, "http_requests_total{method=\"GET\",route="
                                     "\"/livez\",code=\"200\"}") == 400000);
    assert_true(
        support_sample(
            text, "http_request_duration_seconds_count{route=\"/livez\"}") ==
        400000);
    assert_true(support_sample(text, "http_requests_in_flight") == 0);
    assert_true(support_sample(
                    text, "sudoku_puzzles_total{result=\"solved\"}") == 400000);
    assert_true(support_sample(text, "sudoku_solve_duration_seconds_sum") >
                2.79);
    assert_true(support_sample(text, "sudoku_solve_duration_seconds_sum") <
                2.81);
    free(text);
    metrics_destroy(h.m);
}

static double dropped_sample(const struct metrics *m)
{
    size_t len;
    char *text = metrics_render(m, &len);
    double v;

    assert_non_null(text);
    v = support_sample(text, "sudokud_log_lines_dropped_total");
    free(text);
    return v;
}

static int three_dropped(void *buffer)
{
    return log_buffer_dropped(buffer) >= 3;
}

/* sudokud_log_lines_dropped_total is the watched log's own count: 0 with
 * no log, then every line the log could not write (here /dev/full, where
 * every write fails with ENOSPC). */
static void log_lines_dropped(void **state)
{
    struct metrics *m = metrics_create(routes, 2, "9.9.9");
    struct log_sink sink = {.level = LOG_INFO};
    int fd = open("/dev/full", O_WRONLY | O_CLOEXEC);

    (void)state;
    assert_true(fd >= 0);
    assert_true(dropped_sample(m) == 0);
    sink.fd = fd;
    sink.buffer = log_buffer_start(fd, 0);
    assert_non_null(sink.buffer);
    metrics_watch_log(m, sink.buffer);
    for (int i = 0; i < 3; i++) {
        struct log_line l;
        log_begin(&l, &sink, LOG_INFO, "lost");
        log_end(&l, &sink);
    }
    support_wait_until(three_dropped, sink.buffer, 5000);
    assert_int_equal(log_buffer_dropped(sink.buffer), 3);
    assert_true(dropped_sample(m) == 3);
    log_buffer_stop(sink.buffer);
    close(fd);
    metrics_destroy(m);
}

int test_metrics(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(requests_and_histogram),
        cmocka_unit_test(puzzles_counted_by_result_and_invalid_ones_not_timed),
        cmocka_unit_test(no_lost_updates),
        cmocka_unit_test(log_lines_dropped),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("metrics", tests, NULL, NULL);
}
