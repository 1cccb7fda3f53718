/* test_log.c - the JSON line writer: fields, escaping, levels, truncation,
 * one line per write. Lines are written to a pipe and read back. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "support.h"
#include "tests.h"

/* Writes through `build` into a pipe and returns what came out. */
static size_t capture(void (*build)(const struct log_sink *), char *out,
                      size_t cap, enum log_level level)
{
    int fds[2];
    ssize_t n;
    struct log_sink sink = {.buffer = NULL};

    assert_int_equal(pipe(fds), 0);
    sink.fd = fds[1];
    sink.level = level;
    build(&sink);
    close(fds[1]);
    n = read(fds[0], out, cap - 1);
    close(fds[0]);
    out[n > 0 ? n : 0] = '\0';
    return n > 0 ? (size_t)n : 0;
}

static void build_fields(const struct log_sink *sink)
{
    struct log_line l;

    log_begin(&l, sink, LOG_INFO, "request");
    log_str(&l, "path", "/solve?\"q\"\\\n\x01");
    log_num(&l, "status", 422);
    log_str(&l, "user_agent", NULL);
    log_end(&l, sink);
}

static void fields_and_escaping(void **state)
{
    char out[4096];
    cJSON *j;

    (void)state;
    /* CLOCK_REALTIME, the clock the logger reads: time() reads the coarse
     * clock, which can lag it by a tick across a second's edge */
    struct timespec before, after;
    clock_gettime(CLOCK_REALTIME, &before);
    capture(build_fields, out, sizeof(out), LOG_INFO);
    clock_gettime(CLOCK_REALTIME, &after);
    time_t first = before.tv_sec, last = after.tv_sec;
    assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1); /* one line */
    j = cJSON_Parse(out);
    assert_non_null(j);
    assert_string_equal(cJSON_GetObjectItem(j, "level")->valuestring, "info");
    assert_string_equal(cJSON_GetObjectItem(j, "msg")->valuestring, "request");
    assert_string_equal(cJSON_GetObjectItem(j, "path")->valuestring,
                        "/solve?\"q\"\\\n\x01");
    assert_int_equal(cJSON_GetObjectItem(j, "status")->valueint, 422);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "user_agent")));
    /* time: 2026-11-29T14:53:22.823Z, a second of gmtime's between the
     * clock read before the line was made and the one after it */
    {
        const char *t = cJSON_GetObjectItem(j, "time")->valuestring;
        char want[32];
        struct tm tm;
        int seen = 0;
        assert_int_equal(strlen(t), 24);
        for (time_t s = first; s <= last && !seen; s++) {
            gmtime_r(&s, &tm);
            strftime(want, sizeof(want), "%Y-%m-%dT%H:%M:%S", &tm);
            seen = strncmp(t, want, 19) == 0;
        }
        assert_true(seen);
        assert_int_equal(t[19], '.');
        assert_int_equal(t[23], 'Z');
    }
    cJSON_Delete(j);
}

static void level_filter(void **state)
{
    char out[4096];

    (void)state;
    assert_int_equal(capture(build_fields, out, sizeof(out), LOG_WARN), 0);
    assert_true(capture(build_fields, out, sizeof(out), LOG_DEBUG) > 0);
}

static void build_long(const struct log_sink *sink)
{
    struct log_line l;
    char big[1500];

    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    log_begin(&l, sink, LOG_ERROR, "long");
    for (int i = 0; i < 5; i++)
        log_str(&l, "field", big);
    log_end(&l, sink);
}

static void truncation_keeps_json(void **state)
{
    char out[8192];
    cJSON *j;

    (void)state;
    capture(build_long, out, sizeof(out), LOG_INFO);
    assert_true(strlen(out) <= sizeof(((struct log_line *)0)->buf));
    j = cJSON_Parse(out);
    assert_non_null(j);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(j, "truncated")));
    cJSON_Delete(j);
}

static void escape_bounds(void **state)
{
    char out[8];

    (void)state;
    /* Never cuts an escape in half, always terminates. */
    assert_int_equal(log_escape("ab\"cd", out, 4), 2);
    assert_string_equal(out, "ab");
    /* plain text is cut to cap - 1 bytes, and nothing past a cut */
    assert_int_equal(log_escape("abcdef", out, 4), 3);
    assert_string_equal(out, "abc");
    assert_int_equal(log_escape("abc\\", out, 4), 3);
    assert_string_equal(out, "abc");
    assert_int_equal(log_escape("abc", out, 1), 0);
    assert_string_equal(out, "");
    assert_int_equal(log_escape("\x01", out, sizeof(out)), 6);
    assert_string_equal(out, "\\u0001");
    /* UTF-8 passes whole; bytes that are not UTF-8 become U+FFFD; a
     * character that does not fit is left out, never cut. */
    {
        char big[64];
        assert_int_equal(log_escape("a\tb/c", big, sizeof(big)), 10);
        assert_string_equal(big, "a\\u0009b/c");
        assert_int_equal(log_escape("\xc3\xa9", big, sizeof(big)), 2);
        assert_string_equal(big, "\xc3\xa9");
        log_escape("a\xff\xfe"
                   "b\xc3",
                   big, sizeof(big));
        assert_string_equal(big, "a\\ufffd\\ufffdb\\ufffd");
        log_escape("\xed\xa0\x80", big, sizeof(big)); /* a surrogate */
        assert_string_equal(big, "\\ufffd\\ufffd\\ufffd");
        assert_int_equal(log_escape("ab\xe2\x82\xac", big, 5), 2);
        assert_string_equal(big, "ab");
    }
}

static void level_names(void **state)
{
    enum log_level lv;

    (void)state;
    assert_int_equal(log_level_parse("warn", &lv), 0);
    assert_int_equal(lv, LOG_WARN);
    assert_int_equal(log_level_parse("debug", &lv), 0);
    assert_int_equal(lv, LOG_DEBUG);
    assert_int_equal(log_level_parse("verbose", &lv), -1);
}

/* Logs n lines of about 1 KiB ({"msg":"x","i":k,"pad":"aaa..."}) on its
 * own thread, so that a log_end that waited on the fd would show as a
 * deadline missed instead of a hung runner. */
struct producer {
    const struct log_sink *sink;
    int n;
    atomic_int done;
};

static void *produce(void *arg)
{
    struct producer *p = arg;
    char pad[1000];

    memset(pad, 'a', sizeof(pad) - 1);
    pad[sizeof(pad) - 1] = '\0';
    for (int i = 0; i < p->n; i++) {
        struct log_line l;
        log_begin(&l, p->sink, LOG_INFO, "x");
        log_num(&l, "i", i);
        log_str(&l, "pad", pad);
        log_end(&l, p->sink);
    }
    atomic_store(&p->done, 1);
    return NULL;
}

static int produced(void *arg)
{
    struct producer *p = arg;

    return atomic_load(&p->done);
}

/* Runs produce to the end; fails if it takes 5 s (it never waits on the
 * fd, so it takes milliseconds). */
static void produce_all(const struct log_sink *sink, int n)
{
    struct producer p = {sink, n, 0};
    pthread_t t;

    assert_int_equal(pthread_create(&t, NULL, produce, &p), 0);
    support_wait_until(produced, &p, 5000);
    assert_true(atomic_load(&p.done)); /* else log_end waited on the pipe */
    pthread_join(t, NULL);
}

/* Reads fd into out (cap bytes, *len so far, NUL-terminated) until `n`
 * lines of produce_all are accounted for (come out, or among `dropped`)
 * and, with `report`, the dropped-lines report has come too; 5 s at most.
 * Returns the lines that came out. */
static long read_lines(int fd, char *out, size_t cap, size_t *len, long n,
                       unsigned long dropped, int report)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    long received = 0, deadline = support_now_ms() + 5000;
    const char *q;

    for (q = out; (q = strstr(q, "\"msg\":\"x\"")) != NULL; q++)
        received++;
    while ((received + (long)dropped < n ||
            (report && strstr(out, "\"msg\":\"log lines dropped\"") == NULL)) &&
           support_now_ms() < deadline && poll(&p, 1, 1000) == 1) {
        ssize_t got = read(fd, out + *len, cap - 1 - *len);
        assert_true(got > 0);
        *len += (size_t)got;
        out[*len] = '\0';
        received = 0;
        for (q = out; (q = strstr(q, "\"msg\":\"x\"")) != NULL; q++)
            received++;
    }
    return received;
}

/* Nobody reads the pipe: 400 lines of 1 KiB are more than the pipe
 * (64 KiB) and the buffer's two 64 KiB halves hold, so lines are dropped,
 * never waited for. Once the pipe is read, every line logged has either
 * come out, in order, or been counted, and one warn line reports the
 * count. */
static void buffer_drops_when_nobody_reads(void **state)
{
    enum { N = 400 };
    struct log_sink sink = {.level = LOG_INFO};
    size_t cap = 1 << 20, len = 0;
    char *out = malloc(cap);
    unsigned long dropped;
    long received = 0, last = -1;
    const char *report = NULL, *q;
    int fds[2];

    (void)state;
    assert_non_null(out);
    assert_int_equal(pipe(fds), 0);
    sink.fd = fds[1];
    sink.buffer = log_buffer_start(fds[1], 0);
    assert_non_null(sink.buffer);
    produce_all(&sink, N);
    dropped = log_buffer_dropped(sink.buffer);
    assert_true(dropped > 0);
    assert_true(dropped < N);
    /* Read until every line is accounted for: come out or dropped. */
    out[0] = '\0';
    received = read_lines(fds[0], out, cap, &len, N, dropped, 0);
    assert_int_equal(received + (long)dropped, N);
    assert_int_equal(log_buffer_dropped(sink.buffer), dropped);
    log_buffer_stop(sink.buffer);
    close(fds[1]);
    /* The report may follow the last line in a write of its own, which the
     * stop has flushed: read to the end. */
    for (ssize_t n = 1; n > 0 && len < cap - 1;) {
        n = read(fds[0], out + len, cap - 1 - len);
        if (n > 0)
            len += (size_t)n;
    }
    out[len] = '\0';
    /* In order, each line whole. */
    for (q = out; (q = strstr(q, "\"msg\":\"x\",\"i\":")) != NULL; q++) {
        long i = atol(q + strlen("\"msg\":\"x\",\"i\":"));
        assert_true(i > last);
        last = i;
    }
    /* Exactly one report, with the exact count. */
    report = strstr(out, "\"msg\":\"log lines dropped\"");
    assert_non_null(report);
    assert_null(strstr(report + 1, "\"msg\":\"log lines dropped\""));
    assert_non_null(
        strstr(out, "\"level\":\"warn\",\"msg\":\"log lines dropped\""));
    q = strstr(report, "\"dropped\":");
    assert_non_null(q);
    assert_int_equal(atol(q + 10), (long)dropped);
    {
        char want[64];
        snprintf(want, sizeof(want), "\"dropped_total\":%lu}\n", dropped);
        assert_non_null(strstr(report, want));
    }
    close(fds[0]);
    free(out);
}

/* Stopping with the pipe still full returns within the bound (1 s): the
 * writer, blocked in write(2), is left to finish on its own. Once the pipe
 * is read it does, and every line is out or counted, and reported. */
static void buffer_stop_is_bounded(void **state)
{
    enum { N = 400 };
    struct log_sink sink = {.level = LOG_INFO};
    size_t cap = 1 << 20, len = 0;
    char *out = malloc(cap);
    unsigned long dropped;
    long took, received = 0;
    int fds[2];

    (void)state;
    assert_non_null(out);
    out[0] = '\0';
    assert_int_equal(pipe(fds), 0);
    sink.fd = fds[1];
    sink.buffer = log_buffer_start(fds[1], 0);
    assert_non_null(sink.buffer);
    produce_all(&sink, N);
    dropped = log_buffer_dropped(sink.buffer);
    assert_true(dropped > 0); /* so the pipe is full */
    took = support_now_ms();
    log_buffer_stop(sink.buffer);
    took = support_now_ms() - took;
    print_message("stop with a full pipe: %ld ms\n", took);
    assert_true(took < 3000);
    /* The writer is still there: read until it has written every line
     * that was not dropped and the report, so that it is done with fds[1]
     * before the test closes it. */
    received = read_lines(fds[0], out, cap, &len, N, dropped, 1);
    assert_int_equal(received + (long)dropped, N);
    assert_non_null(strstr(out, "\"msg\":\"log lines dropped\""));
    close(fds[1]);
    close(fds[0]);
    free(out);
}

/* The buffered sink: whole lines, written within the flush interval, and
 * everything written at the stop. */
static void buffered_sink_flushes_whole_lines_and_the_rest_at_stop(void **state)
{
    struct log_sink sink = {.level = LOG_INFO};
    struct log_line l;
    struct pollfd p;
    char out[8192];
    int fds[2];
    ssize_t n;

    (void)state;
    assert_int_equal(pipe(fds), 0);
    sink.fd = fds[1];
    sink.buffer = log_buffer_start(fds[1], 100);
    assert_non_null(sink.buffer);
    for (int i = 0; i < 3; i++) {
        log_begin(&l, &sink, LOG_INFO, "buffered");
        log_num(&l, "i", i);
        log_end(&l, &sink);
    }
    p = (struct pollfd){.fd = fds[0], .events = POLLIN};
    assert_int_equal(poll(&p, 1, 2000), 1); /* flushed by the thread */
    n = read(fds[0], out, sizeof(out) - 1);
    assert_true(n > 0);
    out[n] = '\0';
    assert_non_null(strstr(out, "\"i\":0}\n"));
    assert_non_null(strstr(out, "\"i\":2}\n"));
    log_begin(&l, &sink, LOG_INFO, "last");
    log_end(&l, &sink);
    log_buffer_stop(sink.buffer); /* writes what is left */
    close(fds[1]);
    n = read(fds[0], out, sizeof(out) - 1);
    assert_true(n > 0);
    out[n] = '\0';
    assert_non_null(strstr(out, "\"msg\":\"last\"}\n"));
    close(fds[0]);
}

int test_log(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(fields_and_escaping),
        cmocka_unit_test(level_filter),
        cmocka_unit_test(truncation_keeps_json),
        cmocka_unit_test(escape_bounds),
        cmocka_unit_test(level_names),
        cmocka_unit_test(
            buffered_sink_flushes_whole_lines_and_the_rest_at_stop),
        cmocka_unit_test(buffer_drops_when_nobody_reads),
        cmocka_unit_test(buffer_stop_is_bounded),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("log", tests, NULL, NULL);
}
