/* test_api_batch.c - POST /solve/batch as a plain function: both input
 * forms, results in input order with solutions or problems, the caps, the
 * media types, and a full queue. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "support.h"
#include "tests.h"

#define EXAMPLE SUPPORT_EXAMPLE
#define SOLUTION SUPPORT_EXAMPLE_SOLUTION
#define CONFLICT "99.7....6824.3......1..9..2.9...2.18...4....51325.8......687.........8.9.4.9...5."
#define EMPTY "................................................................................."

static const struct api_context ctx = {
    .max_nodes = 100000, .max_body = 16384, .max_batch = 6,
    .max_batch_body = 1 << 20};

static void post(const char *type, const char *body, struct api_response *r,
                 int queue_full, int too_large)
{
    struct api_request req = {
        .method = "POST", .path = "/solve/batch", .content_type = type,
        .body = body, .body_len = strlen(body), .queue_full = queue_full,
        .body_too_large = too_large, .request_id = "t-1"};

    api_handle(&ctx, &req, r);
}

/* The code of result i's problem, or NULL; its solution string if solved. */
static const char *result_code(const cJSON *item, const char **solution)
{
    const cJSON *p = cJSON_GetObjectItem(item, "problem");
    const cJSON *s = cJSON_GetObjectItem(item, "solution");

    *solution = cJSON_IsString(s) ? s->valuestring : NULL;
    return p ? cJSON_GetObjectItem(p, "code")->valuestring : NULL;
}

static void test_json_form(void **state)
{
    struct api_response r;
    const char *sol;
    cJSON *root, *results, *item;
    int i = 0;

    (void)state;
    post("application/json",
         "{\"boards\": [\"" EXAMPLE "\", \"" CONFLICT "\", \"xyz\", 7, \"" EMPTY
         "\"], \"ignored\": 1}",
         &r, 0, 0);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.content_type, "application/json");
    root = cJSON_ParseWithLength(r.body, r.body_len);
    assert_non_null(root);
    results = cJSON_GetObjectItem(root, "results");
    assert_int_equal(cJSON_GetArraySize(results), 5);
    cJSON_ArrayForEach(item, results) {
        const char *code = result_code(item, &sol);
        assert_int_equal(cJSON_GetObjectItem(item, "index")->valueint, i);
        switch (i++) {
        case 0: assert_null(code); assert_string_equal(sol, SOLUTION); break;
        case 1: assert_string_equal(code, "conflict"); break;
        case 2: assert_string_equal(code, "invalid_board"); break;
        case 3: assert_string_equal(code, "invalid_request"); break;
        case 4: assert_string_equal(code, "multiple_solutions"); break;
        }
    }
    item = cJSON_GetObjectItem(cJSON_GetArrayItem(results, 2), "problem");
    assert_string_equal(cJSON_GetObjectItem(item, "pointer")->valuestring, "/boards/2");
    item = cJSON_GetObjectItem(root, "stats");
    assert_int_equal(cJSON_GetObjectItem(item, "puzzles")->valueint, 5);
    assert_int_equal(cJSON_GetObjectItem(item, "solved")->valueint, 1);
    assert_int_equal(cJSON_GetObjectItem(item, "failed")->valueint, 4);
    cJSON_Delete(root);
    api_response_free(&r);
}

static void test_rows_shape_and_bad_char_location(void **state)
{
    struct api_response r;
    cJSON *root, *p;

    (void)state;
    post("application/json; charset=utf-8",
         "{\"boards\": [[\"9.7.....6\", \"824.3....\", \"..1..9..2\", \".9...2.18\","
         " \"...4....5\", \"1325.8...\", \"...687...\", \"......8.9\", \".4.9...5.\"],"
         " [\"9.7.....6\", \"824.3....\", \"..1..9..2\", \".9...2.18\","
         " \"...4....5\", \"1325.8...\", \"...6x7...\", \"......8.9\", \".4.9...5.\"]]}",
         &r, 0, 0);
    assert_int_equal(r.status, 200);
    root = cJSON_ParseWithLength(r.body, r.body_len);
    p = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "results"), 0), "solution");
    assert_true(cJSON_IsArray(p));
    assert_string_equal(cJSON_GetArrayItem(p, 8)->valuestring, "648923157");
    p = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "results"), 1), "problem");
    assert_string_equal(cJSON_GetObjectItem(p, "pointer")->valuestring, "/boards/1/6");
    assert_int_equal(cJSON_GetObjectItem(p, "row")->valueint, 6);
    assert_int_equal(cJSON_GetObjectItem(p, "column")->valueint, 4);
    cJSON_Delete(root);
    api_response_free(&r);
}

static void test_ndjson(void **state)
{
    struct api_response r;
    char *line, *save = NULL;
    int n = 0;

    (void)state;
    post("application/x-ndjson",
         "\"" EXAMPLE "\"\n\r\n{\"board\": \"" EXAMPLE "\"}\n{nope\n{\"x\":1}\n\"" CONFLICT "\"\n"
         "{\"board\": \"" EXAMPLE "\", \"cages\": [{\"sum\": 3, \"cells\": [[0,1],[0,2]]}]}",
         &r, 0, 0);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.content_type, "application/x-ndjson");
    assert_int_equal(r.body[r.body_len - 1], '\n');
    for (line = strtok_r(r.body, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        cJSON *item = cJSON_Parse(line);
        const char *sol, *code;
        assert_non_null(item);
        assert_int_equal(cJSON_GetObjectItem(item, "index")->valueint, n);
        code = result_code(item, &sol);
        switch (n++) {
        case 0: case 1: assert_string_equal(sol, SOLUTION); break;
        case 2: assert_string_equal(code, "invalid_json"); break;
        case 3: assert_string_equal(code, "invalid_request"); break;
        case 4: assert_string_equal(code, "conflict"); break;
        case 5: assert_string_equal(code, "invalid_request"); break; /* cages */
        }
        cJSON_Delete(item);
    }
    assert_int_equal(n, 6);
    api_response_free(&r);
}

static void expect_problem(const char *type, const char *body, int queue_full,
                           int too_large, int status, const char *code)
{
    struct api_response r;
    char want[64];

    post(type, body, &r, queue_full, too_large);
    assert_int_equal(r.status, status);
    assert_string_equal(r.content_type, "application/problem+json");
    snprintf(want, sizeof(want), "\"code\":\"%s\"", code);
    if (strstr(r.body, want) == NULL)
        fail_msg("expected %s in %s", want, r.body);
    if (status == 503)
        assert_int_equal(r.retry_after, 1);
    api_response_free(&r);
}

static void test_limits_and_errors(void **state)
{
    (void)state;
    /* ctx.max_batch is 6 */
    expect_problem("application/json", "{\"boards\":[1,2,3,4,5,6,7]}", 0, 0, 413,
                   "batch_too_large");
    expect_problem("application/x-ndjson", "1\n2\n3\n4\n5\n6\n7\n", 0, 0, 413,
                   "batch_too_large");
    expect_problem("application/json", "{\"x\":[[1,2]],\"boards\":[1,[2,3],{\"a\":[4]},\"5,]\",6,7,8]}",
                   0, 0, 413, "batch_too_large");
    expect_problem("application/json", "{}", 0, 1, 413, "body_too_large");
    expect_problem("text/plain", "{}", 0, 0, 415, "unsupported_media_type");
    expect_problem("application/json", "{\"boards\": 3}", 0, 0, 400, "invalid_request");
    expect_problem("application/json", "[", 0, 0, 400, "invalid_json");
    expect_problem("application/json", "{\"boards\":[]}", 1, 0, 503, "busy");
}

/* The early count (before the tree is built) counts the boards only: not
 * other arrays, not commas inside strings or nested values. */
static void test_count_is_exact(void **state)
{
    static const char *const fine[] = {
        "{\"other\":[1,2,3,4,5,6,7,8],\"boards\":[1]}",
        "{\"boards\":[\"a,b,c,d,e,f,g\"]}",
        "{\"boards\":[[1,2,3,4,5,6,7], 2, 3, 4, 5]}",
        "{\"boards\" : [ 1 , 2 , 3 , 4 , 5 ] }",
        "{\"boardz\":[1,2,3,4,5,6],\"boards\":[]}",
    };
    struct api_response r;

    (void)state;
    for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++) {
        post("application/json", fine[i], &r, 0, 0);
        if (r.status != 200)
            fail_msg("%s: %d %s", fine[i], r.status, r.body);
        api_response_free(&r);
    }
}

static void test_empty_batches(void **state)
{
    struct api_response r;

    (void)state;
    post("application/json", "{\"boards\": []}", &r, 0, 0);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "\"results\":[]"));
    api_response_free(&r);
    post("application/x-ndjson", "\n\n", &r, 0, 0);
    assert_int_equal(r.status, 200);
    assert_int_equal(r.body_len, 0);
    api_response_free(&r);
}

static void test_routing_and_limits(void **state)
{
    (void)state;
    assert_true(api_is_job("POST", "/solve/batch"));
    assert_false(api_is_job("GET", "/solve/batch"));
    assert_false(api_is_job("POST", "/solve"));
    assert_true(api_is_job("POST", "/generate"));
    assert_int_equal(api_body_limit(&ctx, "/solve/batch"), 1 << 20);
    assert_int_equal(api_body_limit(&ctx, "/solve"), 16384);
}

int test_api_batch(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_form),
        cmocka_unit_test(test_rows_shape_and_bad_char_location),
        cmocka_unit_test(test_ndjson),
        cmocka_unit_test(test_limits_and_errors),
        cmocka_unit_test(test_count_is_exact),
        cmocka_unit_test(test_empty_batches),
        cmocka_unit_test(test_routing_and_limits),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("api_batch", tests, NULL, NULL);
}
