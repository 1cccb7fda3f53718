/* test_api.c - cmocka tests of the routes (src/api.c), called directly with
 * request values, no socket. Bodies are passed as exact-size heap copies
 * freed before the response is read, so neither a read past body_len nor a
 * response that points into the request goes unnoticed under ASan. Reads
 * tests/data/, so run from the repository root. */
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
#include "sudoku.h"
#include "support.h"
#include "tests.h"

#define JSON "application/json"
#define PROBLEM "application/problem+json"
#define DATA_FILE "tests/data/test_puzzles_with_solutions"

static const struct api_context default_ctx = {.max_nodes = 200000,
                                               .max_body = 16 * 1024};

/* The example of the issue and its solution. */
static const char *const example_rows[SUDOKU_SIZE] = {
    "9.7.....6", "824.3....", "..1..9..2", ".9...2.18", "...4....5",
    "1325.8...", "...687...", "......8.9", ".4.9...5.",
};
static const char *const solution_rows[SUDOKU_SIZE] = {
    "957214386", "824736591", "361859742", "495372618", "786491235",
    "132568974", "519687423", "273145869", "648923157",
};

/* First puzzle of tests/data/puzzles5_forum_hardest_1905_11+: needs many
 * search nodes. */
static const char hard_puzzle[] =
    "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8."
    "..52....6";

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

static void call_req(const struct api_context *ctx, struct api_request *req,
                     const char *body, size_t len, struct api_response *resp)
{
    char *copy = NULL;

    if (body != NULL) {
        copy = malloc(len ? len : 1);
        assert_non_null(copy);
        memcpy(copy, body, len);
    }
    req->body = copy;
    req->body_len = len;
    /* Junk first: api_handle must set every member itself. */
    memset(resp, 0x5a, sizeof(*resp));
    api_handle(ctx, req, resp);
    free(copy);
    req->body = NULL;
}

static void call(const struct api_context *ctx, const char *method,
                 const char *path, const char *type, const char *body,
                 struct api_response *resp)
{
    struct api_request req = {
        .method = method, .path = path, .content_type = type};

    call_req(ctx, &req, body, body ? strlen(body) : 0, resp);
}

static void solve(const char *body, struct api_response *resp)
{
    call(&default_ctx, "POST", "/solve", JSON, body, resp);
}

static void rows_body(char *buf, size_t size, const char *const *rows, size_t n)
{
    size_t len = (size_t)snprintf(buf, size, "{\"board\": [");

    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s\"%s\"",
                                i ? ", " : "", rows[i]);
    snprintf(buf + len, size - len, "]}");
    assert_true(len + 2 < size);
}

static void line_body(char *buf, size_t size, const char *line)
{
    assert_true((size_t)snprintf(buf, size, "{\"board\": \"%s\"}", line) <
                size);
}

static void join_rows(const char *const *rows, char out[SUDOKU_CELLS + 1])
{
    for (int r = 0; r < SUDOKU_SIZE; r++)
        memcpy(out + r * SUDOKU_SIZE, rows[r], SUDOKU_SIZE);
    out[SUDOKU_CELLS] = '\0';
}

static cJSON *body_json(const struct api_response *resp)
{
    cJSON *root;

    assert_non_null(resp->body);
    assert_true(resp->body_len > 0);
    root = cJSON_ParseWithLength(resp->body, resp->body_len);
    if (root == NULL)
        fail_msg("body is not JSON: %.*s", (int)resp->body_len, resp->body);
    return root;
}

static void expect_status(const struct api_response *resp, int status)
{
    if (resp->status != status)
        fail_msg("status %d, expected %d; body: %.*s", resp->status, status,
                 resp->body ? (int)resp->body_len : 0,
                 resp->body ? resp->body : "");
}

static void absent(const cJSON *obj, const char *name)
{
    if (cJSON_GetObjectItemCaseSensitive(obj, name) != NULL)
        fail_msg("member '%s' should be absent", name);
}

/* Checks an RFC 9457 problem answer and returns its parsed body. */
static cJSON *problem(const struct api_response *resp, int status,
                      const char *code)
{
    char type[96];
    cJSON *root;

    expect_status(resp, status);
    assert_non_null(resp->content_type);
    assert_string_equal(resp->content_type, PROBLEM);
    assert_int_equal(resp->body_owned, 1);
    root = body_json(resp);
    assert_true(cJSON_IsObject(root));
    snprintf(type, sizeof(type), "urn:sudokud:problem:%s", code);
    assert_string_equal(support_str(root, "type"), type);
    assert_string_equal(support_str(root, "code"), code);
    assert_true(support_num(root, "status") == status);
    assert_true(strlen(support_str(root, "title")) > 0);
    assert_true(strlen(support_str(root, "detail")) > 0);
    return root;
}

/* problem() for POST /solve, then frees everything but the tree. */
static cJSON *solve_problem(const char *body, int status, const char *code)
{
    struct api_response resp;
    cJSON *root;

    solve(body, &resp);
    root = problem(&resp, status, code);
    api_response_free(&resp);
    return root;
}

/* Solves body, expects 200 and returns the parsed answer. */
static cJSON *solve_ok(const struct api_context *ctx, const char *body)
{
    struct api_response resp;
    cJSON *root;
    const cJSON *stats;

    call(ctx, "POST", "/solve", JSON, body, &resp);
    expect_status(&resp, 200);
    assert_non_null(resp.content_type);
    assert_string_equal(resp.content_type, JSON);
    assert_int_equal(resp.body_owned, 1);
    root = body_json(&resp);
    stats = cJSON_GetObjectItemCaseSensitive(root, "stats");
    assert_true(cJSON_IsObject(stats));
    assert_true(support_num(stats, "guesses") >= 0);
    assert_true(support_num(stats, "nodes") >= 1);
    assert_true(support_num(stats, "solve_us") >= 0);
    api_response_free(&resp);
    return root;
}

static void assert_solution_rows(const cJSON *root)
{
    const cJSON *sol = cJSON_GetObjectItemCaseSensitive(root, "solution"), *r;
    int i = 0;

    assert_true(cJSON_IsArray(sol));
    assert_int_equal(cJSON_GetArraySize(sol), SUDOKU_SIZE);
    cJSON_ArrayForEach(r, sol)
    {
        assert_true(cJSON_IsString(r));
        assert_string_equal(r->valuestring, solution_rows[i]);
        i++;
    }
}

/* ------------------------------------------------------------------------
 * POST /solve: success
 * ------------------------------------------------------------------------ */

static void solve_example_rows(void **state)
{
    char body[256], expect[256];
    struct api_response resp;
    size_t n = 0;
    cJSON *root;

    (void)state;
    rows_body(body, sizeof(body), example_rows, SUDOKU_SIZE);
    solve(body, &resp);
    expect_status(&resp, 200);
    assert_string_equal(resp.content_type, JSON);
    assert_int_equal(resp.body_owned, 1);
    assert_int_equal(strlen(resp.body), resp.body_len);
    /* The solution's bytes exactly. */
    n += (size_t)snprintf(expect, sizeof(expect), "{\"solution\":[");
    for (int r = 0; r < SUDOKU_SIZE; r++)
        n += (size_t)snprintf(expect + n, sizeof(expect) - n, "%s\"%s\"",
                              r ? "," : "", solution_rows[r]);
    n += (size_t)snprintf(expect + n, sizeof(expect) - n, "],");
    if (strncmp(resp.body, expect, n) != 0)
        fail_msg("body %s does not start with %s", resp.body, expect);
    api_response_free(&resp);

    root = solve_ok(&default_ctx, body);
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
    join_rows(example_rows, line);
    join_rows(solution_rows, solved);
    line_body(body, sizeof(body), line);
    solve(body, &resp);
    expect_status(&resp, 200);
    snprintf(expect, sizeof(expect), "{\"solution\":\"%s\",", solved);
    assert_true(strncmp(resp.body, expect, strlen(expect)) == 0);
    api_response_free(&resp);

    root = solve_ok(&default_ctx, body);
    assert_string_equal(support_str(root, "solution"), solved);
    cJSON_Delete(root);
}

/* With room for the answer in the request (as the http module gives it),
 * a solution is written there and not owned by the response; the bytes are
 * those of the heap answer. A problem still comes as a heap string. */
static void solve_into_answer_room(void **state)
{
    struct api_request req = {
        .method = "POST", .path = "/solve", .content_type = JSON};
    char body[512], line[SUDOKU_CELLS + 1];
    char *room = malloc(API_ANSWER_MAX);
    struct api_response heap, resp;

    (void)state;
    assert_non_null(room);
    join_rows(example_rows, line);
    for (int shape = 0; shape < 2; shape++) {
        if (shape == 0)
            rows_body(body, sizeof(body), example_rows, SUDOKU_SIZE);
        else
            line_body(body, sizeof(body), line);
        req.answer = NULL;
        call_req(&default_ctx, &req, body, strlen(body), &heap);
        req.answer = room;
        call_req(&default_ctx, &req, body, strlen(body), &resp);
        expect_status(&resp, 200);
        assert_string_equal(resp.content_type, JSON);
        assert_ptr_equal(resp.body, room);
        assert_int_equal(resp.body_owned, 0);
        assert_int_equal(resp.body_len, heap.body_len);
        /* solve_us may differ: compare up to the stats */
        assert_memory_equal(
            resp.body, heap.body,
            (size_t)(strstr(heap.body, "\"solve_us\"") - heap.body));
        assert_int_equal(heap.body_owned, 1);
        api_response_free(&heap);
        api_response_free(&resp); /* frees nothing: not owned */
    }
    call_req(&default_ctx, &req, "{\"board\": 1}", 12, &resp);
    expect_status(&resp, 400);
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
            rows[r][c] = example_rows[r][c] == '.' ? '0' : example_rows[r][c];
        rows[r][SUDOKU_SIZE] = '\0';
        rowp[r] = rows[r];
    }
    rows_body(body, sizeof(body), rowp, SUDOKU_SIZE);
    root = solve_ok(&default_ctx, body);
    assert_solution_rows(root);
    cJSON_Delete(root);

    /* One line mixing '0' and '.' blanks. */
    join_rows(example_rows, line);
    for (int i = 0; i < SUDOKU_CELLS; i += 2)
        if (line[i] == '.')
            line[i] = '0';
    line_body(body, sizeof(body), line);
    root = solve_ok(&default_ctx, body);
    join_rows(solution_rows, solved);
    assert_string_equal(support_str(root, "solution"), solved);
    cJSON_Delete(root);
}

static void solve_ignores_unknown_members(void **state)
{
    char line[SUDOKU_CELLS + 1], body[512];
    cJSON *root;

    (void)state;
    join_rows(example_rows, line);
    snprintf(body, sizeof(body),
             "{\"id\": \"abc\", \"options\": {\"board\": [1], \"x\": null}, "
             "\"board\": [\"%.9s\", \"%.9s\", \"%.9s\", \"%.9s\", \"%.9s\", "
             "\"%.9s\", \"%.9s\", \"%.9s\", \"%.9s\"], \"after\": [true, 1.5]}",
             line, line + 9, line + 18, line + 27, line + 36, line + 45,
             line + 54, line + 63, line + 72);
    root = solve_ok(&default_ctx, body);
    assert_solution_rows(root);
    absent(root, "id");
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
    rows_body(body, sizeof(body), example_rows, SUDOKU_SIZE);
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        call(&default_ctx, "POST", "/solve", types[i], body, &resp);
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
        .method = "POST", .path = "/solve", .content_type = JSON};
    char line[SUDOKU_CELLS + 1], json[256], solved[SUDOKU_CELLS + 1];
    char *body = malloc(ctx.max_body);
    struct api_response resp;
    cJSON *root;
    int n;

    (void)state;
    assert_non_null(body);
    join_rows(example_rows, line);
    join_rows(solution_rows, solved);
    n = snprintf(json, sizeof(json), "{\"board\":\"%s\"}", line);
    memset(body, ' ', ctx.max_body);
    memcpy(body, json, (size_t)n);
    body[ctx.max_body - 1] = '\n';

    call_req(&ctx, &req, body, ctx.max_body, &resp);
    expect_status(&resp, 200);
    root = body_json(&resp);
    assert_string_equal(support_str(root, "solution"), solved);
    cJSON_Delete(root);
    api_response_free(&resp);

    /* One byte more: http marks it and keeps nothing. */
    req.body_too_large = 1;
    call_req(&ctx, &req, NULL, 0, &resp);
    root = problem(&resp, 413, "body_too_large");
    assert_true(support_num(root, "limit") == 4096);
    cJSON_Delete(root);
    api_response_free(&resp);
    free(body);
}

/* ------------------------------------------------------------------------
 * POST /solve: request errors
 * ------------------------------------------------------------------------ */

static void solve_body_too_large(void **state)
{
    struct api_context ctx = {.max_nodes = 200000, .max_body = 1234};
    struct api_request req = {.method = "POST",
                              .path = "/solve",
                              .content_type = JSON,
                              .body_too_large = 1};
    char body[256];
    struct api_response resp;
    cJSON *root;

    (void)state;
    /* Whatever part of the body is there, the flag decides. */
    rows_body(body, sizeof(body), example_rows, SUDOKU_SIZE);
    call_req(&ctx, &req, body, strlen(body), &resp);
    root = problem(&resp, 413, "body_too_large");
    assert_true(support_num(root, "limit") == 1234);
    assert_non_null(strstr(support_str(root, "detail"), "1234"));
    absent(root, "pointer");
    absent(root, "offset");
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
    rows_body(body, sizeof(body), example_rows, SUDOKU_SIZE);
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        call(&default_ctx, "POST", "/solve", types[i], body, &resp);
        if (resp.status != 415)
            fail_msg("Content-Type '%s' gave %d",
                     types[i] ? types[i] : "(none)", resp.status);
        root = problem(&resp, 415, "unsupported_media_type");
        absent(root, "pointer");
        cJSON_Delete(root);
        api_response_free(&resp);
    }
}

static void expect_invalid_json(const char *body, long offset)
{
    struct api_response resp;
    struct api_request req = {
        .method = "POST", .path = "/solve", .content_type = JSON};
    cJSON *root;

    call_req(&default_ctx, &req, body, body ? strlen(body) : 0, &resp);
    root = problem(&resp, 400, "invalid_json");
    if (support_num(root, "offset") != offset)
        fail_msg("body '%s': offset %g, expected %ld", body ? body : "(null)",
                 support_num(root, "offset"), offset);
    absent(root, "pointer");
    absent(root, "row");
    absent(root, "column");
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
    join_rows(example_rows, line);
    n = snprintf(body, sizeof(body), "{\"board\":\"%s\"}]", line);
    expect_invalid_json(body, n - 1);
}

static void expect_invalid_request(const char *body, const char *pointer)
{
    cJSON *root = solve_problem(body, 400, "invalid_request");

    assert_string_equal(support_str(root, "pointer"), pointer);
    absent(root, "offset");
    absent(root, "column");
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

/* ------------------------------------------------------------------------
 * POST /solve: board errors
 * ------------------------------------------------------------------------ */

static void solve_invalid_board_shape(void **state)
{
    const char *rows[10];
    char body[256], line[SUDOKU_CELLS + 1];
    cJSON *root;

    (void)state;
    for (int r = 0; r < SUDOKU_SIZE; r++)
        rows[r] = example_rows[r];
    rows[9] = ".........";

    /* Wrong number of rows: the location is the whole board. */
    rows_body(body, sizeof(body), rows, 8);
    root = solve_problem(body, 422, "invalid_board");
    assert_string_equal(support_str(root, "pointer"), "/board");
    absent(root, "row");
    absent(root, "column");
    cJSON_Delete(root);
    rows_body(body, sizeof(body), rows, 10);
    root = solve_problem(body, 422, "invalid_board");
    assert_string_equal(support_str(root, "pointer"), "/board");
    cJSON_Delete(root);

    /* A row of the wrong length: that row. */
    rows[3] = ".9...2.1";
    rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    root = solve_problem(body, 422, "invalid_board");
    assert_string_equal(support_str(root, "pointer"), "/board/3");
    assert_true(support_num(root, "row") == 3);
    absent(root, "column");
    cJSON_Delete(root);
    rows[3] = example_rows[3];
    rows[8] = ".4.9...5.7";
    rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    root = solve_problem(body, 422, "invalid_board");
    assert_string_equal(support_str(root, "pointer"), "/board/8");
    assert_true(support_num(root, "row") == 8);
    cJSON_Delete(root);

    /* A line of the wrong length. */
    join_rows(example_rows, line);
    snprintf(body, sizeof(body), "{\"board\": \"%.80s\"}", line);
    root = solve_problem(body, 422, "invalid_board");
    assert_string_equal(support_str(root, "pointer"), "/board");
    absent(root, "row");
    absent(root, "column");
    cJSON_Delete(root);
    snprintf(body, sizeof(body), "{\"board\": \"%s1\"}", line);
    root = solve_problem(body, 422, "invalid_board");
    assert_string_equal(support_str(root, "pointer"), "/board");
    cJSON_Delete(root);
}

/* A member that may be absent: -1 then. */
static double opt_num(const cJSON *obj, const char *name)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, name);

    return cJSON_IsNumber(m) ? m->valuedouble : -1;
}

/* Replaces row r, column c of the example with `ch` (any UTF-8 text or a
 * JSON escape), expects invalid_board there and copies the detail into
 * `detail`. The tree is freed before the location is checked, so a failure
 * leaks nothing. */
static void bad_cell(int shape_rows, int r, int c, const char *ch, char *detail,
                     size_t size)
{
    char line[SUDOKU_CELLS + 1], body[512], pointer[16], got[32];
    int i = r * SUDOKU_SIZE + c;
    double row, column;
    cJSON *root;

    join_rows(example_rows, line);
    snprintf(body, sizeof(body), "{\"board\": %s", shape_rows ? "[" : "\"");
    for (int k = 0; k < SUDOKU_CELLS; k++) {
        size_t n = strlen(body);
        if (shape_rows && k % SUDOKU_SIZE == 0)
            snprintf(body + n, sizeof(body) - n, "%s\"", k ? ", " : "");
        n = strlen(body);
        if (k == i)
            snprintf(body + n, sizeof(body) - n, "%s", ch);
        else
            snprintf(body + n, sizeof(body) - n, "%c", line[k]);
        n = strlen(body);
        if (shape_rows && k % SUDOKU_SIZE == SUDOKU_SIZE - 1)
            snprintf(body + n, sizeof(body) - n, "\"");
    }
    strcat(body, shape_rows ? "]}" : "\"}");

    root = solve_problem(body, 422, "invalid_board");
    snprintf(got, sizeof(got), "%s", support_str(root, "pointer"));
    snprintf(detail, size, "%s", support_str(root, "detail"));
    row = opt_num(root, "row");
    column = opt_num(root, "column");
    cJSON_Delete(root);

    if (shape_rows)
        snprintf(pointer, sizeof(pointer), "/board/%d", r);
    else
        snprintf(pointer, sizeof(pointer), "/board");
    assert_string_equal(got, pointer);
    if (row != r || column != c)
        fail_msg("'%s' at row %d column %d reported at row %g column %g (%s)",
                 ch, r, c, row, column, detail);
}

static void solve_bad_character(void **state)
{
    char detail[256];

    (void)state;
    bad_cell(1, 2, 5, "x", detail, sizeof(detail));
    assert_non_null(strstr(detail, "'x'"));
    bad_cell(1, 0, 0, "-", detail, sizeof(detail));
    bad_cell(1, 8, 8, " ", detail, sizeof(detail));
    bad_cell(0, 4, 4, "a", detail, sizeof(detail));
    bad_cell(0, 8, 8, "*", detail, sizeof(detail));
    bad_cell(1, 5, 1, "\\t", detail, sizeof(detail));
    assert_non_null(strstr(detail, "control character"));
}

/* "é" counts as one character and is reported in its own column, in both
 * shapes, whether sent raw or escaped. */
static void solve_non_ascii_character(void **state)
{
    char detail[256];

    (void)state;
    bad_cell(1, 6, 3, "\xc3\xa9", detail, sizeof(detail));
    assert_non_null(strstr(detail, "non-ASCII"));
    bad_cell(1, 7, 8, "\xc3\xa9", detail, sizeof(detail));
    bad_cell(1, 0, 0, "\\u00e9", detail, sizeof(detail));
    bad_cell(0, 8, 8, "\xc3\xa9", detail, sizeof(detail));
    bad_cell(0, 1, 2, "\xe2\x82\xac", detail, sizeof(detail));     /* U+20AC */
    bad_cell(0, 3, 7, "\xf0\x9f\x98\x80", detail, sizeof(detail)); /* U+1F600 */
}

/* DEL (0x7f) is ASCII; the detail must not call it non-ASCII. */
/* The first bad character is reported, whether ASCII or not. */
static void solve_first_bad_character_wins(void **state)
{
    static const char body[] =
        "{\"board\":[\".5x.83.17\",\"...1..4..\",\"3.4..56.8\",\"....3...9\","
        "\".9.8\xc3\xa9"
        "45..\",\"..6....7.\",\"..9....5.\",\"..729..86\","
        "\"1.36.72.4\"]}";
    cJSON *root = solve_problem(body, 422, "invalid_board");

    (void)state;
    assert_true(opt_num(root, "row") == 0);
    assert_true(opt_num(root, "column") == 2);
    assert_non_null(strstr(support_str(root, "detail"), "'x'"));
    cJSON_Delete(root);
}

static void solve_del_is_not_non_ascii(void **state)
{
    char detail[256];

    (void)state;
    bad_cell(1, 2, 2, "\x7f", detail, sizeof(detail));
    if (strstr(detail, "non-ASCII") != NULL)
        fail_msg("detail for U+007F: %s", detail);
}

/* "\u0000" is one character in column 4, and not allowed. */
static void solve_escaped_nul_character(void **state)
{
    char detail[256];

    (void)state;
    bad_cell(1, 0, 4, "\\u0000", detail, sizeof(detail));
}

/* ------------------------------------------------------------------------
 * POST /solve: rule conflicts and search outcomes
 * ------------------------------------------------------------------------ */

/* An empty board with `digit` placed at each (r, c) of cells. */
static cJSON *conflict_board(const int (*cells)[3], int n, int nconflicts)
{
    char line[SUDOKU_CELLS + 1], body[256];
    const cJSON *list;
    cJSON *root;

    memset(line, '.', SUDOKU_CELLS);
    line[SUDOKU_CELLS] = '\0';
    for (int k = 0; k < n; k++)
        line[cells[k][0] * SUDOKU_SIZE + cells[k][1]] =
            (char)('0' + cells[k][2]);
    line_body(body, sizeof(body), line);
    root = solve_problem(body, 422, "conflict");
    list = cJSON_GetObjectItemCaseSensitive(root, "conflicts");
    assert_true(cJSON_IsArray(list));
    assert_int_equal(cJSON_GetArraySize(list), nconflicts);
    return root;
}

static void solve_conflict_row(void **state)
{
    static const int placed[][3] = {{4, 1, 2}, {4, 7, 2}};
    static const int cells[][2] = {{4, 1}, {4, 7}};
    cJSON *root;

    (void)state;
    root = conflict_board(placed, 2, 1);
    support_check_conflict(
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "conflicts"),
                           0),
        "row", 4, 2, cells, 2);
    absent(root, "pointer");
    cJSON_Delete(root);
}

static void solve_conflict_column(void **state)
{
    static const int placed[][3] = {{0, 3, 7}, {5, 3, 7}, {8, 3, 7}};
    static const int cells[][2] = {{0, 3}, {5, 3}, {8, 3}};
    cJSON *root;

    (void)state;
    root = conflict_board(placed, 3, 1);
    support_check_conflict(
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "conflicts"),
                           0),
        "column", 3, 7, cells, 3);
    cJSON_Delete(root);
}

static void solve_conflict_box(void **state)
{
    static const int placed[][3] = {{7, 8, 9}, {6, 6, 9}};
    static const int cells[][2] = {{6, 6}, {7, 8}};
    cJSON *root;

    (void)state;
    root = conflict_board(placed, 2, 1);
    support_check_conflict(
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "conflicts"),
                           0),
        "box", 8, 9, cells, 2);
    cJSON_Delete(root);
}

/* Several at once, listed rows, then columns, then boxes. Two 1s side by
 * side in row 0 break both row 0 and box 0. */
static void solve_conflict_several(void **state)
{
    static const int placed[][3] = {
        {0, 0, 1}, {0, 1, 1}, {2, 8, 5}, {7, 8, 5}, {4, 4, 3}};
    static const int row_cells[][2] = {{0, 0}, {0, 1}};
    static const int col_cells[][2] = {{2, 8}, {7, 8}};
    const cJSON *list;
    cJSON *root;

    (void)state;
    root = conflict_board(placed, 5, 3);
    list = cJSON_GetObjectItemCaseSensitive(root, "conflicts");
    support_check_conflict(cJSON_GetArrayItem(list, 0), "row", 0, 1, row_cells,
                           2);
    support_check_conflict(cJSON_GetArrayItem(list, 1), "column", 8, 5,
                           col_cells, 2);
    support_check_conflict(cJSON_GetArrayItem(list, 2), "box", 0, 1, row_cells,
                           2);
    cJSON_Delete(root);
}

static void solve_no_solution(void **state)
{
    char body[256];
    cJSON *root;

    (void)state;
    /* tests/data/test_puzzles_with_solutions, first line with count 0. */
    line_body(body, sizeof(body),
              "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9..."
              "15...1...3...8...4.");
    root = solve_problem(body, 422, "no_solution");
    absent(root, "conflicts");
    absent(root, "solution");
    cJSON_Delete(root);
}

static void solve_multiple_solutions(void **state)
{
    char line[SUDOKU_CELLS + 1], body[256];
    const char *rows[SUDOKU_SIZE];
    cJSON *root;

    (void)state;
    memset(line, '.', SUDOKU_CELLS);
    line[SUDOKU_CELLS] = '\0';
    line_body(body, sizeof(body), line);
    root = solve_problem(body, 422, "multiple_solutions");
    absent(root, "solution");
    cJSON_Delete(root);

    for (int r = 0; r < SUDOKU_SIZE; r++)
        rows[r] = "000000000";
    rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    cJSON_Delete(solve_problem(body, 422, "multiple_solutions"));
}

static void solve_search_limit(void **state)
{
    static const uint64_t budgets[] = {1, 2, 50};
    struct api_response resp;
    struct api_context ctx = default_ctx;
    struct sudoku_grid puzzle, solution;
    char body[256];
    const char *sol;
    cJSON *root;

    (void)state;
    line_body(body, sizeof(body), hard_puzzle);
    for (size_t i = 0; i < sizeof(budgets) / sizeof(budgets[0]); i++) {
        ctx.max_nodes = budgets[i];
        call(&ctx, "POST", "/solve", JSON, body, &resp);
        root = problem(&resp, 422, "search_limit");
        assert_true(support_num(root, "limit") == (double)budgets[i]);
        absent(root, "solution");
        cJSON_Delete(root);
        api_response_free(&resp);
    }

    /* No budget (0): the same puzzle is solved. */
    ctx.max_nodes = 0;
    root = solve_ok(&ctx, body);
    sol = support_str(root, "solution");
    assert_int_equal(strlen(sol), SUDOKU_CELLS);
    assert_int_equal(sudoku_parse(hard_puzzle, SUDOKU_CELLS, &puzzle, NULL),
                     SUDOKU_OK);
    assert_int_equal(sudoku_parse(sol, SUDOKU_CELLS, &solution, NULL),
                     SUDOKU_OK);
    assert_true(sudoku_is_solution_of(&puzzle, &solution));
    cJSON_Delete(root);
}

/* Every line of the data file, puzzle:count[:solution], gets the answer
 * its count calls for. */
static void solve_data_file_agrees(void **state)
{
    FILE *f = fopen(DATA_FILE, "r");
    char line[512], body[256];
    unsigned seen[3] = {0, 0, 0};

    (void)state;
    if (f == NULL)
        fail_msg("cannot open %s (run from the repository root)", DATA_FILE);
    while (fgets(line, sizeof(line), f) != NULL) {
        char *count = strchr(line, ':'), *sol;
        unsigned long n;

        line[strcspn(line, "\r\n")] = '\0';
        if (count == NULL || count - line != SUDOKU_CELLS)
            continue;
        *count++ = '\0';
        n = strtoul(count, &sol, 10);
        line_body(body, sizeof(body), line);
        if (n == 0) {
            cJSON_Delete(solve_problem(body, 422, "no_solution"));
            seen[0]++;
        } else if (n > 1) {
            cJSON_Delete(solve_problem(body, 422, "multiple_solutions"));
            seen[2]++;
        } else {
            cJSON *root = solve_ok(&default_ctx, body);
            assert_int_equal(*sol, ':');
            assert_string_equal(support_str(root, "solution"), sol + 1);
            cJSON_Delete(root);
            seen[1]++;
        }
    }
    fclose(f);
    assert_true(seen[0] >= 1 && seen[1] >= 1 && seen[2] >= 1);
}

/* ------------------------------------------------------------------------
 * Other routes
 * ------------------------------------------------------------------------ */

/* The demo page, its two files and its icon: embedded, with a strict CSP.
 * `start` is how the body begins (`len` bytes; an ICO header has NULs). */
static void route_assets(void **state)
{
    static const struct {
        const char *path, *type, *start;
        size_t len;
    } want[] = {
        {"/", "text/html; charset=utf-8", "<!doctype html>", 15},
        {"/app.js", "text/javascript; charset=utf-8", NULL, 0},
        {"/app.css", "text/css; charset=utf-8", NULL, 0},
        {"/favicon.ico", "image/x-icon", "\0\0\1\0", 4},
    };
    struct api_response resp;

    (void)state;
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        const char *csp = NULL;
        call(&default_ctx, "GET", want[i].path, NULL, NULL, &resp);
        assert_int_equal(resp.status, 200);
        assert_string_equal(resp.content_type, want[i].type);
        assert_false(resp.body_owned);
        assert_true(resp.body_len > want[i].len);
        if (want[i].start)
            assert_memory_equal(resp.body, want[i].start, want[i].len);
        for (size_t h = 0; h < resp.nheaders; h++)
            if (strcmp(resp.headers[h].name, "Content-Security-Policy") == 0)
                csp = resp.headers[h].value;
        assert_non_null(csp);
        assert_non_null(strstr(csp, "default-src 'none'"));
        assert_null(strstr(csp, "unsafe-inline"));
        api_response_free(&resp);
    }
}

static void route_not_found(void **state)
{
    static const char *const paths[] = {
        "/index.html", "",         "/solve/",       "/SOLVE",   "/app.js/",
        "/solver",     "/livez/x", "/openapi.json", "/readyz/", "solve",
    };
    static const char *const methods[] = {"GET", "POST", "OPTIONS"};
    struct api_response resp;
    cJSON *root;

    (void)state;
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        for (size_t m = 0; m < sizeof(methods) / sizeof(methods[0]); m++) {
            call(&default_ctx, methods[m], paths[i], JSON, "{}", &resp);
            if (resp.status != 404)
                fail_msg("%s '%s' gave %d", methods[m], paths[i], resp.status);
            root = problem(&resp, 404, "not_found");
            assert_null(resp.allow);
            cJSON_Delete(root);
            api_response_free(&resp);
        }
    }
}

static void route_method_not_allowed(void **state)
{
    static const struct {
        const char *method, *path, *allow;
    } cases[] = {
        {"GET", "/solve", "POST, OPTIONS"},
        {"HEAD", "/solve", "POST, OPTIONS"},
        {"PUT", "/solve", "POST, OPTIONS"},
        {"post", "/solve", "POST, OPTIONS"},
        {"POST", "/livez", "GET, HEAD, OPTIONS"},
        {"DELETE", "/livez", "GET, HEAD, OPTIONS"},
        {"POST", "/readyz", "GET, HEAD, OPTIONS"},
        {"PATCH", "/openapi.yaml", "GET, HEAD, OPTIONS"},
        {"get", "/openapi.yaml", "GET, HEAD, OPTIONS"},
    };
    char body[256];
    struct api_response resp;
    cJSON *root;

    (void)state;
    rows_body(body, sizeof(body), example_rows, SUDOKU_SIZE);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        call(&default_ctx, cases[i].method, cases[i].path, JSON, body, &resp);
        if (resp.status != 405)
            fail_msg("%s %s gave %d", cases[i].method, cases[i].path,
                     resp.status);
        root = problem(&resp, 405, "method_not_allowed");
        assert_non_null(resp.allow);
        assert_string_equal(resp.allow, cases[i].allow);
        cJSON_Delete(root);
        api_response_free(&resp);
    }
}

static void route_options(void **state)
{
    static const struct {
        const char *path, *allow;
    } cases[] = {
        {"/solve", "POST, OPTIONS"},
        {"/livez", "GET, HEAD, OPTIONS"},
        {"/readyz", "GET, HEAD, OPTIONS"},
        {"/openapi.yaml", "GET, HEAD, OPTIONS"},
    };
    struct api_response resp;

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        call(&default_ctx, "OPTIONS", cases[i].path, NULL, NULL, &resp);
        expect_status(&resp, 204);
        assert_non_null(resp.allow);
        assert_string_equal(resp.allow, cases[i].allow);
        assert_null(resp.body);
        assert_int_equal(resp.body_len, 0);
        assert_int_equal(resp.body_owned, 0);
        api_response_free(&resp);
    }
}

static void expect_status_body(const char *method, const char *path,
                               int draining, const char *word)
{
    struct api_request req = {
        .method = method, .path = path, .draining = draining};
    struct api_response resp;
    cJSON *root;

    call_req(&default_ctx, &req, NULL, 0, &resp);
    expect_status(&resp, 200);
    assert_non_null(resp.content_type);
    assert_string_equal(resp.content_type, JSON);
    assert_int_equal(resp.body_owned, 1);
    root = body_json(&resp);
    assert_int_equal(cJSON_GetArraySize(root), 1);
    assert_string_equal(support_str(root, "status"), word);
    cJSON_Delete(root);
    api_response_free(&resp);
}

static void route_livez(void **state)
{
    (void)state;
    expect_status_body("GET", "/livez", 0, "ok");
    expect_status_body("HEAD", "/livez", 0, "ok");
    /* Alive while draining: only readiness changes. */
    expect_status_body("GET", "/livez", 1, "ok");
}

static void route_readyz(void **state)
{
    static const char *const methods[] = {"GET", "HEAD"};
    struct api_request req = {.path = "/readyz", .draining = 1};
    struct api_response resp;
    cJSON *root;

    (void)state;
    expect_status_body("GET", "/readyz", 0, "ready");
    expect_status_body("HEAD", "/readyz", 0, "ready");
    for (size_t i = 0; i < 2; i++) {
        req.method = methods[i];
        call_req(&default_ctx, &req, NULL, 0, &resp);
        root = problem(&resp, 503, "draining");
        cJSON_Delete(root);
        api_response_free(&resp);
    }
}

static void route_openapi(void **state)
{
    static const char *const methods[] = {"GET", "HEAD"};
    size_t size = (size_t)(api_openapi_yaml_end - api_openapi_yaml);
    struct api_response resp;

    (void)state;
    assert_true(size > 0);
    assert_int_equal(api_openapi_yaml_end[0], '\0');
    for (size_t i = 0; i < 2; i++) {
        call(&default_ctx, methods[i], "/openapi.yaml", NULL, NULL, &resp);
        expect_status(&resp, 200);
        assert_non_null(resp.content_type);
        assert_string_equal(resp.content_type, "application/yaml");
        assert_int_equal(resp.body_owned, 0);
        assert_ptr_equal(resp.body, api_openapi_yaml);
        assert_int_equal(resp.body_len, size);
        assert_int_equal(strncmp(resp.body, "openapi:", 8), 0);
        assert_int_equal(strlen(resp.body), size);
        /* A static body is not freed (ASan would see it), just dropped. */
        api_response_free(&resp);
        assert_null(resp.body);
        assert_int_equal(resp.body_owned, 0);
        assert_int_equal(strncmp(api_openapi_yaml, "openapi:", 8), 0);
    }
}

static void response_free_owned(void **state)
{
    struct api_response resp;

    (void)state;
    call(&default_ctx, "GET", "/nowhere", NULL, NULL, &resp);
    assert_int_equal(resp.body_owned, 1);
    assert_non_null(resp.body);
    api_response_free(&resp);
    assert_null(resp.body);
    assert_int_equal(resp.body_owned, 0);
    api_response_free(&resp); /* twice is harmless */
}

/* A request the http module refused is answered with that problem and
 * nothing else: before the route (a valid /solve body is not solved), the
 * path (an unknown one is not 404), the media type and the job queue; with
 * the request's id in the body. */
static void route_refused(void **state)
{
    static const struct api_refusal refusal = {
        400, "bad_framing", "Ambiguous message length", "two lengths"};
    static const char *const paths[] = {"/solve", "/nope", "/livez"};
    struct api_request req = {.method = "POST",
                              .content_type = "text/plain",
                              .request_id = "rid-1",
                              .queue_full = 1,
                              .refused = &refusal};
    struct api_response resp;
    cJSON *root;

    (void)state;
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        req.path = paths[i];
        call_req(&default_ctx, &req, SUPPORT_EXAMPLE_BODY,
                 strlen(SUPPORT_EXAMPLE_BODY), &resp);
        root = problem(&resp, 400, "bad_framing");
        assert_string_equal(support_str(root, "title"), refusal.title);
        assert_string_equal(support_str(root, "detail"), refusal.detail);
        assert_string_equal(support_str(root, "request_id"), "rid-1");
        assert_int_equal(resp.retry_after, 0);
        cJSON_Delete(root);
        api_response_free(&resp);
    }
}

int test_api(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
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
        cmocka_unit_test(solve_invalid_board_shape),
        cmocka_unit_test(solve_bad_character),
        cmocka_unit_test(solve_non_ascii_character),
        cmocka_unit_test(solve_del_is_not_non_ascii),
        cmocka_unit_test(solve_first_bad_character_wins),
        cmocka_unit_test(solve_escaped_nul_character),
        cmocka_unit_test(solve_conflict_row),
        cmocka_unit_test(solve_conflict_column),
        cmocka_unit_test(solve_conflict_box),
        cmocka_unit_test(solve_conflict_several),
        cmocka_unit_test(solve_no_solution),
        cmocka_unit_test(solve_multiple_solutions),
        cmocka_unit_test(solve_search_limit),
        cmocka_unit_test(solve_data_file_agrees),
        cmocka_unit_test(route_assets),
        cmocka_unit_test(route_not_found),
        cmocka_unit_test(route_method_not_allowed),
        cmocka_unit_test(route_options),
        cmocka_unit_test(route_livez),
        cmocka_unit_test(route_readyz),
        cmocka_unit_test(route_openapi),
        cmocka_unit_test(route_refused),
        cmocka_unit_test(response_free_owned),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("api", tests, NULL, NULL);
}
