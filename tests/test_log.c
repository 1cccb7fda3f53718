/* test_log.c - the JSON line writer: fields, escaping, levels, truncation,
 * one line per write. Lines are written to a pipe and read back. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
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

static void test_fields_and_escaping(void **state)
{
    char out[4096];
    cJSON *j;

    (void)state;
    capture(build_fields, out, sizeof(out), LOG_INFO);
    assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1); /* one line */
    j = cJSON_Parse(out);
    assert_non_null(j);
    assert_string_equal(cJSON_GetObjectItem(j, "level")->valuestring, "info");
    assert_string_equal(cJSON_GetObjectItem(j, "msg")->valuestring, "request");
    assert_string_equal(cJSON_GetObjectItem(j, "path")->valuestring,
                        "/solve?\"q\"\\\n\x01");
    assert_int_equal(cJSON_GetObjectItem(j, "status")->valueint, 422);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(j, "user_agent")));
    /* time: 2026-11-29T14:53:22.823Z, the same second as gmtime (or the
     * one before, if a second boundary passed in between) */
    {
        const char *t = cJSON_GetObjectItem(j, "time")->valuestring;
        time_t now = time(NULL);
        char want[32], before[32];
        struct tm tm;
        gmtime_r(&now, &tm);
        strftime(want, sizeof(want), "%Y-%m-%dT%H:%M:%S", &tm);
        now--;
        gmtime_r(&now, &tm);
        strftime(before, sizeof(before), "%Y-%m-%dT%H:%M:%S", &tm);
        assert_int_equal(strlen(t), 24);
        assert_true(strncmp(t, want, 19) == 0 || strncmp(t, before, 19) == 0);
        assert_int_equal(t[19], '.');
        assert_int_equal(t[23], 'Z');
    }
    cJSON_Delete(j);
}

static void test_level_filter(void **state)
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

static void test_truncation_keeps_json(void **state)
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

static void test_escape_bounds(void **state)
{
    char out[8];

    (void)state;
    /* Never cuts an escape in half, always terminates. */
    assert_int_equal(log_escape("ab\"cd", out, 4), 2);
    assert_string_equal(out, "ab");
    assert_int_equal(log_escape("\x01", out, sizeof(out)), 6);
    assert_string_equal(out, "\\u0001");
    /* UTF-8 passes whole; bytes that are not UTF-8 become U+FFFD; a
     * character that does not fit is left out, never cut. */
    {
        char big[64];
        assert_int_equal(log_escape("\xc3\xa9", big, sizeof(big)), 2);
        assert_string_equal(big, "\xc3\xa9");
        log_escape("a\xff\xfe" "b\xc3", big, sizeof(big));
        assert_string_equal(big, "a\\ufffd\\ufffdb\\ufffd");
        log_escape("\xed\xa0\x80", big, sizeof(big)); /* a surrogate */
        assert_string_equal(big, "\\ufffd\\ufffd\\ufffd");
        assert_int_equal(log_escape("ab\xe2\x82\xac", big, 5), 2);
        assert_string_equal(big, "ab");
    }
}

static void test_level_names(void **state)
{
    enum log_level lv;

    (void)state;
    assert_int_equal(log_level_parse("warn", &lv), 0);
    assert_int_equal(lv, LOG_WARN);
    assert_int_equal(log_level_parse("debug", &lv), 0);
    assert_int_equal(lv, LOG_DEBUG);
    assert_int_equal(log_level_parse("verbose", &lv), -1);
}

/* The buffered sink: whole lines, written within the flush interval, and
 * everything written at the stop. */
static void test_buffer(void **state)
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
        cmocka_unit_test(test_fields_and_escaping),
        cmocka_unit_test(test_level_filter),
        cmocka_unit_test(test_truncation_keeps_json),
        cmocka_unit_test(test_escape_bounds),
        cmocka_unit_test(test_level_names),
        cmocka_unit_test(test_buffer),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("log", tests, NULL, NULL);
}
