/* test_api_slice.c - the event loops' slice (part of the api suite): with
 * api_context.slice set, /solve and /validate answer a classic board that
 * settles within API_SLICE_NODES, and hand back anything dearer (a
 * variant, a killer, a classic board that needs more nodes) as
 * resp->defer with nothing else set and nothing counted; without it the
 * same requests are answered. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_support.h"
#include "metrics.h"
#include "sudoku.h"
#include "tests.h"

#define EXAMPLE                                                                \
    "9.7.....6824.3......1..9..2.9...2.18...4....51325.8......687"             \
    ".........8.9.4.9...5."
/* Its solution begins 957: the cage below, r1c2 and r1c3, sums to 12. */

/* 17 givens and no solution, shown only after 200,998 nodes (the
 * costliest classic board the tests know): far past a slice. */
#define HARD                                                                   \
    "41...9.8...................3..1.8........47.........69.47....3..83.4...." \
    "1........"

static const char *const variant_body =
    "{\"board\": \"................\"}"; /* 4x4: the generic engine */
static const char *const killer_body =
    "{\"board\": \"" EXAMPLE "\", \"cages\": [{\"sum\": 12, \"cells\": "
    "[[0, 1], [0, 2]]}]}";

static struct api_context sliced(void)
{
    struct api_context c = at_default_ctx;

    c.slice = 1;
    return c;
}

static void call(const struct api_context *c, const char *path,
                 const char *body, struct api_response *r)
{
    at_call(c, "POST", path, AT_JSON, body, r);
}

/* A deferred answer carries nothing the http module could send. */
static void expect_deferred(const struct api_response *r)
{
    assert_int_equal(r->defer, 1);
    assert_int_equal(r->status, 0);
    assert_null(r->body);
    assert_null(r->stream);
}

static void slice_answers_an_easy_classic_board(void **state)
{
    struct api_context c = sliced();
    struct api_response r;
    char body[256];

    (void)state;
    at_line_body(body, sizeof(body), EXAMPLE);
    call(&c, "/solve", body, &r);
    assert_int_equal(r.defer, 0);
    at_expect_status(&r, 200);
    api_response_free(&r);
    call(&c, "/validate", body, &r);
    assert_int_equal(r.defer, 0);
    at_expect_status(&r, 200);
    api_response_free(&r);
}

static void slice_defers_a_classic_board_past_its_nodes(void **state)
{
    struct api_context c = sliced();
    struct api_response r;
    char body[256];

    (void)state;
    at_line_body(body, sizeof(body), HARD);
    call(&c, "/solve", body, &r);
    expect_deferred(&r);
    call(&c, "/validate", body, &r);
    expect_deferred(&r);
    /* Without the slice the same board gets the full budget's verdict. */
    call(&at_default_ctx, "/solve", body, &r);
    assert_int_equal(r.defer, 0);
    assert_true(r.status == 422 || r.status == 200);
    api_response_free(&r);
}

static void slice_defers_variants_and_killers(void **state)
{
    struct api_context c = sliced();
    struct api_response r;

    (void)state;
    call(&c, "/solve", variant_body, &r);
    expect_deferred(&r);
    call(&c, "/validate", variant_body, &r);
    expect_deferred(&r);
    call(&c, "/solve", killer_body, &r);
    expect_deferred(&r);
    call(&at_default_ctx, "/solve", variant_body, &r);
    assert_int_equal(r.defer, 0);
    at_expect_status(&r, 422); /* a blank 4x4 has many solutions */
    api_response_free(&r);
}

static void slice_answers_bad_bodies_at_once(void **state)
{
    struct api_context c = sliced();
    struct api_response r;

    (void)state;
    call(&c, "/solve", "{\"board\": \"12\"}", &r);
    assert_int_equal(r.defer, 0);
    at_expect_status(&r, 422);
    api_response_free(&r);
    call(&c, "/solve", "{\"board\": [", &r);
    assert_int_equal(r.defer, 0);
    at_expect_status(&r, 400);
    api_response_free(&r);
}

static void deferred_puzzle_is_not_counted(void **state)
{
    struct api_context c = sliced();
    struct api_response r;
    size_t len;
    char *text;

    (void)state;
    c.metrics = metrics_create(api_route_label, API_NROUTES, "test");
    assert_non_null(c.metrics);
    call(&c, "/solve", variant_body, &r);
    expect_deferred(&r);
    text = metrics_render(c.metrics, &len);
    assert_non_null(text);
    assert_non_null(strstr(text, "sudoku_puzzles_total{result=\"solved\"} 0"));
    assert_non_null(
        strstr(text, "sudoku_puzzles_total{result=\"multiple_solutions\"} 0"));
    free(text);
    metrics_destroy(c.metrics);
}

int test_api_slice(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(slice_answers_an_easy_classic_board),
        cmocka_unit_test(slice_defers_a_classic_board_past_its_nodes),
        cmocka_unit_test(slice_defers_variants_and_killers),
        cmocka_unit_test(slice_answers_bad_bodies_at_once),
        cmocka_unit_test(deferred_puzzle_is_not_counted),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("api_slice", tests, NULL, NULL);
}
