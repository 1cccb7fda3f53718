/* test_api.c - the api suite: cmocka tests of the routes (src/api/),
 * called directly with request values, no socket. Bodies are passed as
 * exact-size heap copies freed before the response is read, so neither a
 * read past body_len nor a response that points into the request goes
 * unnoticed under ASan. Reads tests/data/, so run from the repository
 * root. This part: POST /solve answered, and its request errors;
 * test_api() also runs the parts test_api_{board,routes,intake}.c (helpers in
 * api_support.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_support.h"
#include "sudoku.h"
#include "support.h"
#include "tests.h"

static void assert_solution_rows(const cJSON *root)
{
    const cJSON *sol = cJSON_GetObjectItemCaseSensitive(root, "solution"), *r;
    int i = 0;

    assert_true(cJSON_IsArray(sol));
    assert_int_equal(cJSON_GetArraySize(sol), SUDOKU_SIZE);
    cJSON_ArrayForEach(r, sol)
    {
        assert_true(cJSON_IsString(r));
        assert_string_equal(r->valuestring, support_solution_rows[i]);
        i++;
    }
}

static void solve_example_rows(void **state)
{
    char body[256], expect[256];
    struct api_response resp;
    size_t n = 0;
    cJSON *root;

    (void)state;
    at_rows_body(body, sizeof(body), support_example_rows, SUDOKU_SIZE);
    at_solve(body, &resp);
    at_expect_status(&resp, 200);
    assert_string_equal(resp.content_type, AT_JSON);
    assert_int_equal(resp.body_owned, 1);
    assert_int_equal(strlen(resp.body), resp.body_len);
    /* The solution's bytes exactly. */
    n += (size_t)snprintf(expect, sizeof(expect), "{\"solution\":[");
    for (int r = 0; r < SUDOKU_SIZE; r++)
        n += (size_t)snprintf(expect + n, sizeof(expect) - n, "%s\"%s\"",
                              r ? "," : "", support_solution_rows[r]);
    n += (size_t)snprintf(expect + n, sizeof(expect) - n, "],");
    if (strncmp(resp.body, expect, n) != 0)
        fail_msg("body %s does not start with %s", resp.body, expect);
    api_response_free(&resp);

    root = at_solve_ok(&at_default_ctx, body);
    assert_solution_rows(root);
    cJSON_Delete(root);
}

static void solve_example_line(void **state)
{
    char body[256], line[SUDOKU_CELLS + 1], solved[SUDOKU_CELLS + 1];
    struct api_response resp;
    char expect[128];
    cJSON *root;

    (void)state;
    support_join_rows(support_example_rows, line);
    support_join_rows(support_solution_rows, solved);
    at_line_body(body, sizeof(body), line);
    at_solve(body, &resp);
    at_expect_status(&resp, 200);
    snprintf(expect, sizeof(expect), "{\"solution\":\"%s\",", solved);
    assert_true(strncmp(resp.body, expect, strlen(expect)) == 0);
    api_response_free(&resp);

    root = at_solve_ok(&at_default_ctx, body);
    assert_string_equal(support_str(root, "solution"), solved);
    cJSON_Delete(root);
}

/* Two answers to one puzzle are the same bytes but for the digits of
 * "solve_us", whose count can differ (99 us against 100 us). */
static void expect_same_but_solve_us(const struct api_response *a,
                                     const struct api_response *b)
{
    static const char key[] = "\"solve_us\":";
    const char *ka = memmem(a->body, a->body_len, key, sizeof(key) - 1);
    const char *kb = memmem(b->body, b->body_len, key, sizeof(key) - 1);
    size_t ia, ib;

    assert_non_null(ka);
    assert_non_null(kb);
    ia = (size_t)(ka - a->body) + sizeof(key) - 1;
    ib = (size_t)(kb - b->body) + sizeof(key) - 1;
    assert_int_equal(ia, ib);
    assert_memory_equal(a->body, b->body, ia);
    while (ia < a->body_len && isdigit((unsigned char)a->body[ia]))
        ia++;
    while (ib < b->body_len && isdigit((unsigned char)b->body[ib]))
        ib++;
    assert_true(ia > (size_t)(ka - a->body) + sizeof(key) - 1);
    assert_int_equal(a->body_len - ia, b->body_len - ib);
    assert_memory_equal(a->body + ia, b->body + ib, a->body_len - ia);
}

/* With room for the answer in the request (as the http module gives it),
 * a solution is written there and not owned by the response; the bytes are
 * those of the heap answer. A problem still comes as a heap string. */
static void solve_into_answer_room(void **state)
{
    struct api_request req = {
        .method = "POST", .path = "/solve", .content_type = AT_JSON};
    char body[512], line[SUDOKU_CELLS + 1];
    char *room = malloc(API_ANSWER_MAX);
    struct api_response heap, resp;

    (void)state;
    assert_non_null(room);
    support_join_rows(support_example_rows, line);
    for (int shape = 0; shape < 2; shape++) {
        if (shape == 0)
            at_rows_body(body, sizeof(body), support_example_rows, SUDOKU_SIZE);
        else
            at_line_body(body, sizeof(body), line);
        req.answer = NULL;
        at_call_req(&at_default_ctx, &req, body, strlen(body), &heap);
        req.answer = room;
        at_call_req(&at_default_ctx, &req, body, strlen(body), &resp);
        at_expect_status(&resp, 200);
        assert_string_equal(resp.content_type, AT_JSON);
        assert_ptr_equal(resp.body, room);
        assert_int_equal(resp.body_owned, 0);
        expect_same_but_solve_us(&resp, &heap);
        assert_int_equal(heap.body_owned, 1);
        api_response_free(&heap);
        api_response_free(&resp); /* frees nothing: not owned */
    }
    at_call_req(&at_default_ctx, &req, "{\"board\": 1}", 12, &resp);
    at_expect_status(&resp, 400);
    assert_true(resp.body != room && resp.body_owned);
    api_response_free(&resp);
    free(room);
}

static void solve_zero_blanks(void **state)
{
    char rows[SUDOKU_SIZE][SUDOKU_SIZE + 1], line[SUDOKU_CELLS + 1];
    char solved[SUDOKU_CELLS + 1], body[256];
    const char *rowp[SUDOKU_SIZE];
    cJSON *root;

    (void)state;
    for (int r = 0; r < SUDOKU_SIZE; r++) {
        for (int c = 0; c < SUDOKU_SIZE; c++)
            rows[r][c] = support_example_rows[r][c] == '.'
                             ? '0'
                             : support_example_rows[r][c];
        rows[r][SUDOKU_SIZE] = '\0';
        rowp[r] = rows[r];
    }
    at_rows_body(body, sizeof(body), rowp, SUDOKU_SIZE);
    root = at_solve_ok(&at_default_ctx, body);
    assert_solution_rows(root);
    cJSON_Delete(root);

    /* One line mixing '0' and '.' blanks. */
    support_join_rows(support_example_rows, line);
    for (int i = 0; i < SUDOKU_CELLS; i += 2)
        if (line[i] == '.')
            line[i] = '0';
    at_line_body(body, sizeof(body), line);
    root = at_solve_ok(&at_default_ctx, body);
    support_join_rows(support_solution_rows, solved);
    assert_string_equal(support_str(root, "solution"), solved);
    cJSON_Delete(root);
}

static void solve_ignores_unknown_members(void **state)
{
    char line[SUDOKU_CELLS + 1], body[512];
    cJSON *root;

    (void)state;
    support_join_rows(support_example_rows, line);
    snprintf(body, sizeof(body),
             "{\"id\": \"abc\", \"options\": {\"board\": [1], \"x\": null}, "
             "\"board\": [\"%.9s\", \"%.9s\", \"%.9s\", \"%.9s\", \"%.9s\", "
             "\"%.9s\", \"%.9s\", \"%.9s\", \"%.9s\"], \"after\": [true, 1.5]}",
             line, line + 9, line + 18, line + 27, line + 36, line + 45,
             line + 54, line + 63, line + 72);
    root = at_solve_ok(&at_default_ctx, body);
    assert_solution_rows(root);
    at_absent(root, "id");
    cJSON_Delete(root);
}

static void solve_accepts_json_variants(void **state)
{
    static const char *const types[] = {
        "application/json",
        "application/json; charset=utf-8",
        "Application/JSON",
        "APPLICATION/JSON;charset=UTF-8",
        "application/json ; charset=utf-8",
    };
    char body[256];
    struct api_response resp;

    (void)state;
    at_rows_body(body, sizeof(body), support_example_rows, SUDOKU_SIZE);
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        at_call(&at_default_ctx, "POST", "/solve", types[i], body, &resp);
        if (resp.status != 200)
            fail_msg("Content-Type '%s' gave %d", types[i], resp.status);
        api_response_free(&resp);
    }
}

/* http keeps at most max_body bytes; a body of exactly that size arrives
 * with body_too_large clear and is decoded like any other. */
static void solve_body_at_limit(void **state)
{
    struct api_context ctx = {.max_nodes = 200000, .max_body = 4096};
    struct api_request req = {
        .method = "POST", .path = "/solve", .content_type = AT_JSON};
    char line[SUDOKU_CELLS + 1], json[256], solved[SUDOKU_CELLS + 1];
    char *body = malloc(ctx.max_body);
    struct api_response resp;
    cJSON *root;
    int n;

    (void)state;
    assert_non_null(body);
    support_join_rows(support_example_rows, line);
    support_join_rows(support_solution_rows, solved);
    n = snprintf(json, sizeof(json), "{\"board\":\"%s\"}", line);
    memset(body, ' ', ctx.max_body);
    memcpy(body, json, (size_t)n);
    body[ctx.max_body - 1] = '\n';

    at_call_req(&ctx, &req, body, ctx.max_body, &resp);
    at_expect_status(&resp, 200);
    root = at_body_json(&resp);
    assert_string_equal(support_str(root, "solution"), solved);
    cJSON_Delete(root);
    api_response_free(&resp);

    /* One byte more: http marks it and keeps nothing. */
    req.body_too_large = 1;
    at_call_req(&ctx, &req, NULL, 0, &resp);
    root = at_problem(&resp, 413, "body_too_large");
    assert_true(support_num(root, "limit") == 4096);
    cJSON_Delete(root);
    api_response_free(&resp);
    free(body);
}

static void solve_body_too_large(void **state)
{
    struct api_context ctx = {.max_nodes = 200000, .max_body = 1234};
    struct api_request req = {.method = "POST",
                              .path = "/solve",
                              .content_type = AT_JSON,
                              .body_too_large = 1};
    char body[256];
    struct api_response resp;
    cJSON *root;

    (void)state;
    /* Whatever part of the body is there, the flag decides. */
    at_rows_body(body, sizeof(body), support_example_rows, SUDOKU_SIZE);
    at_call_req(&ctx, &req, body, strlen(body), &resp);
    root = at_problem(&resp, 413, "body_too_large");
    assert_true(support_num(root, "limit") == 1234);
    assert_non_null(strstr(support_str(root, "detail"), "1234"));
    at_absent(root, "pointer");
    at_absent(root, "offset");
    cJSON_Delete(root);
    api_response_free(&resp);
}

static void solve_unsupported_media_type(void **state)
{
    static const char *const types[] = {
        NULL,
        "",
        "text/plain",
        "text/json",
        "application/jsonp",
        "application/json-patch+json",
        "application/problem+json",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
    };
    char body[256];
    struct api_response resp;
    cJSON *root;

    (void)state;
    at_rows_body(body, sizeof(body), support_example_rows, SUDOKU_SIZE);
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        at_call(&at_default_ctx, "POST", "/solve", types[i], body, &resp);
        if (resp.status != 415)
            fail_msg("Content-Type '%s' gave %d",
                     types[i] ? types[i] : "(none)", resp.status);
        root = at_problem(&resp, 415, "unsupported_media_type");
        at_absent(root, "pointer");
        cJSON_Delete(root);
        api_response_free(&resp);
    }
}

static void expect_invalid_json(const char *body, long offset)
{
    struct api_response resp;
    struct api_request req = {
        .method = "POST", .path = "/solve", .content_type = AT_JSON};
    cJSON *root;

    at_call_req(&at_default_ctx, &req, body, body ? strlen(body) : 0, &resp);
    root = at_problem(&resp, 400, "invalid_json");
    if (support_num(root, "offset") != offset)
        fail_msg("body '%s': offset %g, expected %ld", body ? body : "(null)",
                 support_num(root, "offset"), offset);
    at_absent(root, "pointer");
    at_absent(root, "row");
    at_absent(root, "column");
    cJSON_Delete(root);
    api_response_free(&resp);
}

static void solve_invalid_json(void **state)
{
    char line[SUDOKU_CELLS + 1], body[256];
    int n;

    (void)state;
    expect_invalid_json(NULL, 0);
    expect_invalid_json("", 0);
    expect_invalid_json("board=1", 0);
    expect_invalid_json("{\"board\": tru}", 10);
    expect_invalid_json("{\"board\" \"x\"}", 9);
    support_join_rows(support_example_rows, line);
    n = snprintf(body, sizeof(body), "{\"board\":\"%s\"}]", line);
    expect_invalid_json(body, n - 1);
}

static void expect_invalid_request(const char *body, const char *pointer)
{
    cJSON *root = at_solve_problem(body, 400, "invalid_request");

    assert_string_equal(support_str(root, "pointer"), pointer);
    at_absent(root, "offset");
    at_absent(root, "column");
    cJSON_Delete(root);
}

static void solve_invalid_request(void **state)
{
    (void)state;
    expect_invalid_request("[]", "");
    expect_invalid_request("\"9.7.....6\"", "");
    expect_invalid_request("17", "");
    expect_invalid_request("null", "");
    expect_invalid_request("{}", "/board");
    expect_invalid_request("{\"grid\": []}", "/board");
    expect_invalid_request("{\"board\": 5}", "/board");
    expect_invalid_request("{\"board\": null}", "/board");
    expect_invalid_request("{\"board\": {}}", "/board");
    expect_invalid_request("{\"board\": true}", "/board");
    expect_invalid_request("{\"board\": [\"9.7.....6\", \"824.3....\", "
                           "\"..1..9..2\", 3, \"...4....5\", \"1325.8...\", "
                           "\"...687...\", \"......8.9\", \".4.9...5.\"]}",
                           "/board/3");
    expect_invalid_request("{\"board\": [\"9.7.....6\", \"824.3....\", "
                           "\"..1..9..2\", \".9...2.18\", \"...4....5\", "
                           "\"1325.8...\", \"...687...\", \"......8.9\", "
                           "{\"row\": \".4.9...5.\"}]}",
                           "/board/8");
}

int test_api(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(solve_example_rows),
        cmocka_unit_test(solve_example_line),
        cmocka_unit_test(solve_into_answer_room),
        cmocka_unit_test(solve_zero_blanks),
        cmocka_unit_test(solve_ignores_unknown_members),
        cmocka_unit_test(solve_accepts_json_variants),
        cmocka_unit_test(solve_body_at_limit),
        cmocka_unit_test(solve_body_too_large),
        cmocka_unit_test(solve_unsupported_media_type),
        cmocka_unit_test(solve_invalid_json),
        cmocka_unit_test(solve_invalid_request),
    };
    static int (*const parts[])(unsigned *) = {test_api_board, test_api_routes,
                                               test_api_intake, test_api_slice};
    int failed;

    *ntests = TESTS_COUNT(tests);
    failed = cmocka_run_group_tests_name("api", tests, NULL, NULL);
    failed += support_run_parts(parts, TESTS_COUNT(parts), ntests);
    return failed;
}
