/* test_api_batch.c - POST /solve/batch as a plain function: both input
 * forms, results in input order with solutions or problems, the caps, the
 * media types, and a full queue. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "support.h"
#include "tests.h"

#define EXAMPLE SUPPORT_EXAMPLE
#define SOLUTION SUPPORT_EXAMPLE_SOLUTION
#define CONFLICT                                                               \
    "99.7....6824.3......1..9..2.9...2.18...4....51325.8......687.........8."  \
    "9.4.9...5."
#define EMPTY                                                                  \
    "........................................................................" \
    "........."
/* A board that uses the whole default budget of 100000 nodes (17 givens,
 * no solution, shown in 200,998 nodes), so far more than the 1000 these
 * tests give a search. */
#define HARD                                                                   \
    "41...9.8...................3..1.8........47.........69.47....3..83.4...." \
    "1........"

static const struct api_context ctx = {.max_nodes = 100000,
                                       .max_body = 16384,
                                       .max_batch = 6,
                                       .max_batch_body = 1 << 20};

static void post(const char *type, const char *body, struct api_response *r,
                 int queue_full, int too_large)
{
    struct api_request req = {.method = "POST",
                              .path = "/solve/batch",
                              .content_type = type,
                              .body = body,
                              .body_len = strlen(body),
                              .queue_full = queue_full,
                              .body_too_large = too_large,
                              .request_id = "t-1"};

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

static void json_form(void **state)
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
    cJSON_ArrayForEach(item, results)
    {
        const char *code = result_code(item, &sol);
        assert_int_equal(cJSON_GetObjectItem(item, "index")->valueint, i);
        switch (i++) {
        case 0:
            assert_null(code);
            assert_string_equal(sol, SOLUTION);
            break;
        case 1:
            assert_string_equal(code, "conflict");
            break;
        case 2:
            assert_string_equal(code, "invalid_board");
            break;
        case 3:
            assert_string_equal(code, "invalid_request");
            break;
        case 4:
            assert_string_equal(code, "multiple_solutions");
            break;
        }
    }
    item = cJSON_GetObjectItem(cJSON_GetArrayItem(results, 2), "problem");
    assert_string_equal(cJSON_GetObjectItem(item, "pointer")->valuestring,
                        "/boards/2");
    item = cJSON_GetObjectItem(root, "stats");
    assert_int_equal(cJSON_GetObjectItem(item, "puzzles")->valueint, 5);
    assert_int_equal(cJSON_GetObjectItem(item, "solved")->valueint, 1);
    assert_int_equal(cJSON_GetObjectItem(item, "failed")->valueint, 4);
    cJSON_Delete(root);
    api_response_free(&r);
}

static void rows_shape_and_bad_char_location(void **state)
{
    struct api_response r;
    cJSON *root, *p;

    (void)state;
    post("application/json; charset=utf-8",
         "{\"boards\": [[\"9.7.....6\", \"824.3....\", \"..1..9..2\", "
         "\".9...2.18\","
         " \"...4....5\", \"1325.8...\", \"...687...\", \"......8.9\", "
         "\".4.9...5.\"],"
         " [\"9.7.....6\", \"824.3....\", \"..1..9..2\", \".9...2.18\","
         " \"...4....5\", \"1325.8...\", \"...6x7...\", \"......8.9\", "
         "\".4.9...5.\"]]}",
         &r, 0, 0);
    assert_int_equal(r.status, 200);
    root = cJSON_ParseWithLength(r.body, r.body_len);
    p = cJSON_GetObjectItem(
        cJSON_GetArrayItem(cJSON_GetObjectItem(root, "results"), 0),
        "solution");
    assert_true(cJSON_IsArray(p));
    assert_string_equal(cJSON_GetArrayItem(p, 8)->valuestring, "648923157");
    p = cJSON_GetObjectItem(
        cJSON_GetArrayItem(cJSON_GetObjectItem(root, "results"), 1), "problem");
    assert_string_equal(cJSON_GetObjectItem(p, "pointer")->valuestring,
                        "/boards/1/6");
    assert_int_equal(cJSON_GetObjectItem(p, "row")->valueint, 6);
    assert_int_equal(cJSON_GetObjectItem(p, "column")->valueint, 4);
    cJSON_Delete(root);
    api_response_free(&r);
}

static void ndjson_answers_one_line_per_board_in_order(void **state)
{
    struct api_response r;
    char *line, *save = NULL;
    int n = 0;

    (void)state;
    post("application/x-ndjson",
         "\"" EXAMPLE "\"\n\r\n{\"board\": \"" EXAMPLE
         "\"}\n{nope\n{\"x\":1}\n\"" CONFLICT "\"\n"
         "{\"board\": \"" EXAMPLE
         "\", \"cages\": [{\"sum\": 3, \"cells\": [[0,1],[0,2]]}]}",
         &r, 0, 0);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.content_type, "application/x-ndjson");
    assert_int_equal(r.body[r.body_len - 1], '\n');
    for (line = strtok_r(r.body, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        cJSON *item = cJSON_Parse(line);
        const char *sol, *code;
        assert_non_null(item);
        assert_int_equal(cJSON_GetObjectItem(item, "index")->valueint, n);
        code = result_code(item, &sol);
        switch (n++) {
        case 0:
        case 1:
            assert_string_equal(sol, SOLUTION);
            break;
        case 2:
            assert_string_equal(code, "invalid_json");
            break;
        case 3:
            assert_string_equal(code, "invalid_request");
            break;
        case 4:
            assert_string_equal(code, "conflict");
            break;
        case 5:
            assert_string_equal(code, "invalid_request");
            break; /* cages */
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

static void limits_and_errors(void **state)
{
    (void)state;
    /* ctx.max_batch is 6 */
    expect_problem("application/json", "{\"boards\":[1,2,3,4,5,6,7]}", 0, 0,
                   413, "batch_too_large");
    expect_problem("application/x-ndjson", "1\n2\n3\n4\n5\n6\n7\n", 0, 0, 413,
                   "batch_too_large");
    expect_problem(
        "application/json",
        "{\"x\":[[1,2]],\"boards\":[1,[2,3],{\"a\":[4]},\"5,]\",6,7,8]}", 0, 0,
        413, "batch_too_large");
    expect_problem("application/json", "{}", 0, 1, 413, "body_too_large");
    expect_problem("text/plain", "{}", 0, 0, 415, "unsupported_media_type");
    expect_problem("application/json", "{\"boards\": 3}", 0, 0, 400,
                   "invalid_request");
    expect_problem("application/json", "[", 0, 0, 400, "invalid_json");
    expect_problem("application/json", "{\"boards\":[]}", 1, 0, 503, "busy");
}

/* The early count (before the tree is built) counts the boards only: not
 * other arrays, not commas inside strings or nested values. */
static void count_is_exact(void **state)
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

static void empty_batches(void **state)
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

/* ------------------------------------------------------------------------
 * The batch's node budget, stopping, and the cost of parsing
 * ------------------------------------------------------------------------ */

static void post_ctx(const struct api_context *c, const char *type,
                     const char *body, int can_stream, struct api_response *r)
{
    struct api_request req = {.method = "POST",
                              .path = "/solve/batch",
                              .content_type = type,
                              .body = body,
                              .body_len = strlen(body),
                              .can_stream = can_stream,
                              .request_id = "t-2"};

    memset(r, 0, sizeof(*r));
    api_handle(c, &req, r);
}

/* Expects result i of a JSON answer to have problem `code` (NULL: a
 * solution) with `status` and, when limit >= 0, that limit. */
static void expect_result(const cJSON *results, int i, const char *code,
                          int status, long long limit)
{
    const cJSON *item = cJSON_GetArrayItem(results, i), *p;
    const char *sol, *got;

    assert_non_null(item);
    assert_int_equal(cJSON_GetObjectItem(item, "index")->valueint, i);
    got = result_code(item, &sol);
    if (code == NULL) {
        if (got != NULL)
            fail_msg("result %d: %s, expected a solution", i, got);
        return;
    }
    if (got == NULL || strcmp(got, code) != 0)
        fail_msg("result %d: %s, expected %s", i, got ? got : "a solution",
                 code);
    p = cJSON_GetObjectItem(item, "problem");
    assert_int_equal(cJSON_GetObjectItem(p, "status")->valueint, status);
    if (limit >= 0)
        assert_true(cJSON_GetObjectItem(p, "limit")->valuedouble ==
                    (double)limit);
}

/* 2500 nodes for the batch, 1000 for a search: two hard boards use 2000,
 * the third gets the 500 left and is cut, and from then on nothing that
 * needs a search is judged (not even an easy board). A board that fails
 * before the search still gets its own problem. */
static void batch_budget(void **state)
{
    static const struct api_context c = {.max_nodes = 1000,
                                         .max_body = 16384,
                                         .max_batch = 10,
                                         .max_batch_body = 1 << 20,
                                         .max_batch_nodes = 2500};
    struct api_response r;
    cJSON *root, *results, *stats;

    (void)state;
    post_ctx(&c, "application/json",
             "{\"boards\": [\"" HARD "\", \"" HARD "\", \"" HARD
             "\", \"" EXAMPLE "\", \"xyz\"]}",
             0, &r);
    assert_int_equal(r.status, 200);
    root = cJSON_ParseWithLength(r.body, r.body_len);
    assert_non_null(root);
    results = cJSON_GetObjectItem(root, "results");
    assert_int_equal(cJSON_GetArraySize(results), 5);
    expect_result(results, 0, "search_limit", 422, 1000);
    expect_result(results, 1, "search_limit", 422, 1000);
    expect_result(results, 2, "batch_budget_exhausted", 422, 2500);
    expect_result(results, 3, "batch_budget_exhausted", 422, 2500);
    expect_result(results, 4, "invalid_board", 422, -1);
    stats = cJSON_GetObjectItem(root, "stats");
    assert_int_equal(cJSON_GetObjectItem(stats, "puzzles")->valueint, 5);
    assert_int_equal(cJSON_GetObjectItem(stats, "solved")->valueint, 0);
    assert_int_equal(cJSON_GetObjectItem(stats, "failed")->valueint, 5);
    cJSON_Delete(root);
    api_response_free(&r);

    /* An easy board first costs little of the budget: it is solved, and
     * two full searches still fit after it. */
    post_ctx(&c, "application/x-ndjson",
             "\"" EXAMPLE "\"\n\"" HARD "\"\n\"" HARD "\"\n\"" HARD "\"\n", 0,
             &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "{\"index\":0,\"solution\":\"" SOLUTION));
    root = cJSON_CreateArray();
    for (char *line = strtok(r.body, "\n"); line; line = strtok(NULL, "\n"))
        cJSON_AddItemToArray(root, cJSON_Parse(line));
    assert_int_equal(cJSON_GetArraySize(root), 4);
    expect_result(root, 0, NULL, 0, -1);
    expect_result(root, 1, "search_limit", 422, 1000);
    expect_result(root, 2, "search_limit", 422, 1000);
    expect_result(root, 3, "batch_budget_exhausted", 422, 2500);
    cJSON_Delete(root);
    api_response_free(&r);
}

/* Without a batch budget each search has only its own. */
static void batch_without_budget(void **state)
{
    static const struct api_context c = {.max_nodes = 1000,
                                         .max_body = 16384,
                                         .max_batch = 10,
                                         .max_batch_body = 1 << 20,
                                         .max_batch_nodes = 0};
    struct api_response r;
    cJSON *root, *results;

    (void)state;
    post_ctx(&c, "application/json",
             "{\"boards\": [\"" HARD "\", \"" HARD "\", \"" HARD
             "\", \"" EXAMPLE "\"]}",
             0, &r);
    root = cJSON_ParseWithLength(r.body, r.body_len);
    results = cJSON_GetObjectItem(root, "results");
    for (int i = 0; i < 3; i++)
        expect_result(results, i, "search_limit", 422, 1000);
    expect_result(results, 3, NULL, 0, -1);
    cJSON_Delete(root);
    api_response_free(&r);
}

/* The stop flag is read between puzzles: what was judged keeps its
 * result, every later puzzle that needs a search gets shutting_down (503),
 * and the answer is still whole. */
static void batch_stop_between_puzzles(void **state)
{
    static atomic_int stop;
    static const struct api_context c = {.max_nodes = 100000,
                                         .max_body = 16384,
                                         .max_batch = 10,
                                         .max_batch_body = 1 << 20,
                                         .max_batch_nodes = 20000000,
                                         .stop = &stop};
    struct api_response r;
    char all[8192] = "", *piece;
    size_t len;
    int done = 0;
    cJSON *root, *results, *stats;

    (void)state;
    atomic_store(&stop, 0);
    post_ctx(&c, "application/json",
             "{\"boards\": [\"" EXAMPLE "\", \"" EXAMPLE "\", \"" EXAMPLE
             "\", \"xyz\", \"" HARD "\"]}",
             1, &r);
    assert_int_equal(r.status, 200);
    assert_non_null(r.stream);
    piece = api_batch_next(r.stream, 2, &len, &done);
    assert_non_null(piece);
    assert_false(done);
    strcat(all, piece);
    free(piece);
    atomic_store(&stop, 1);
    piece = api_batch_next(r.stream, 10, &len, &done);
    assert_non_null(piece);
    assert_true(done);
    assert_true(strlen(all) + len < sizeof(all));
    strcat(all, piece);
    free(piece);
    api_batch_free(r.stream);
    root = cJSON_Parse(all);
    assert_non_null(root);
    results = cJSON_GetObjectItem(root, "results");
    assert_int_equal(cJSON_GetArraySize(results), 5);
    expect_result(results, 0, NULL, 0, -1);
    expect_result(results, 1, NULL, 0, -1);
    expect_result(results, 2, "shutting_down", 503, -1);
    expect_result(results, 3, "invalid_board", 422, -1);
    expect_result(results, 4, "shutting_down", 503, -1);
    stats = cJSON_GetObjectItem(root, "stats");
    assert_int_equal(cJSON_GetObjectItem(stats, "puzzles")->valueint, 5);
    assert_int_equal(cJSON_GetObjectItem(stats, "solved")->valueint, 2);
    cJSON_Delete(root);
    atomic_store(&stop, 0);
}

/* A body of `head`, then n copies of `each` separated by commas, then
 * `tail`; freed by the caller. */
static char *repeat(const char *head, const char *each, size_t n,
                    const char *tail)
{
    size_t len = strlen(head) + n * (strlen(each) + 1) + strlen(tail) + 1;
    char *s = malloc(len), *p = s;

    assert_non_null(s);
    p += sprintf(p, "%s", head);
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s%s", i ? "," : "", each);
    sprintf(p, "%s", tail);
    return s;
}

/* {"boards": [[0, ...k]]} holds 4 + k values (the object, its key, two
 * arrays, k numbers); one board allows 10 + 32 = 42. So k = 38 is parsed
 * (and is a board of 38 rows), k = 39 is refused before any tree. */
static void batch_value_cap(void **state)
{
    struct api_response r;
    char *body;

    (void)state;
    body = repeat("{\"boards\": [[", "0", 38, "]]}");
    post("application/json", body, &r, 0, 0);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "board has 38 rows"));
    api_response_free(&r);
    free(body);
    body = repeat("{\"boards\": [[", "0", 39, "]]}");
    post("application/json", body, &r, 0, 0);
    assert_int_equal(r.status, 413);
    assert_non_null(strstr(r.body, "\"code\":\"batch_too_complex\""));
    assert_non_null(strstr(r.body, "\"limit\":42"));
    api_response_free(&r);
    free(body);
    /* Two boards allow 52: 3 values of envelope, a string of 1, an array
     * of 1 + 47 strings; brackets and escapes inside strings are text. */
    body = repeat("{\"boards\": [\"[[{,\\\"]]\", [", "\"}\"", 47, "]]}");
    post("application/json", body, &r, 0, 0);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "board has 47 rows"));
    api_response_free(&r);
    free(body);
    /* In NDJSON the cap is per line (32 values), and a line over it is
     * that line's problem. */
    body = repeat("[", "0", 31, "]\n\"" EXAMPLE "\"\n");
    post("application/x-ndjson", body, &r, 0, 0);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "board has 31 rows"));
    assert_non_null(strstr(r.body, "{\"index\":1,\"solution\""));
    api_response_free(&r);
    free(body);
    body = repeat("[", "0", 32, "]\n\"" EXAMPLE "\"\n");
    post("application/x-ndjson", body, &r, 0, 0);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "{\"index\":0,\"problem\":{"));
    assert_non_null(strstr(r.body, "more than 32 JSON values"));
    assert_non_null(strstr(r.body, "\"code\":\"invalid_request\""));
    assert_non_null(strstr(r.body, "{\"index\":1,\"solution\""));
    api_response_free(&r);
    free(body);
}

static void routing_and_limits(void **state)
{
    (void)state;
    assert_int_equal(api_place("POST", "/solve/batch"), API_ON_LONG);
    assert_int_equal(api_place("GET", "/solve/batch"), API_ON_LOOP);
    assert_int_equal(api_place("POST", "/solve"), API_ON_LOOP);
    assert_int_equal(api_place("POST", "/generate"), API_ON_LONG);
    assert_int_equal(api_place("POST", "/hint"), API_ON_WORKER);
    assert_int_equal(api_place("POST", "/grade"), API_ON_WORKER);
    assert_int_equal(api_place("POST", "/explain"), API_ON_WORKER);
    assert_int_equal(api_place("OPTIONS", "/explain"), API_ON_LOOP);
    assert_int_equal(api_body_limit(&ctx, "/solve/batch"), 1 << 20);
    assert_int_equal(api_body_limit(&ctx, "/solve"), 16384);
}

/* The results of a batch, as a tree (the stats hold a time). */
static cJSON *results_of(const char *type, const char *body, int *status)
{
    struct api_response r;
    cJSON *root, *results;

    post(type, body, &r, 0, 0);
    *status = r.status;
    root = cJSON_ParseWithLength(r.body, r.body_len);
    api_response_free(&r);
    assert_non_null(root);
    if (strcmp(type, "application/json") != 0 || *status != 200)
        return root;
    results = cJSON_DetachItemFromObject(root, "results");
    cJSON_Delete(root);
    return results;
}

/* Plain boards are read without cJSON (codec_batch.c's fast path); the
 * same batch written so that it takes the general path (a blank after the
 * brace, an escaped first character) must get the same results. */
static void fast_path_agrees(void **state)
{
    const char *tail = EXAMPLE + 1; /* all but the first character */
    char boards[512], fast[1200], general[1200], line[128];
    cJSON *a, *b;
    int sa, sb;

    (void)state;
    snprintf(boards, sizeof(boards), "\"%s\",\"%s\",\"x%s\",\"%s\",\"%s\"",
             EXAMPLE, CONFLICT, tail, EMPTY, EXAMPLE);
    snprintf(fast, sizeof(fast), "{\"boards\":[%s]}", boards);
    snprintf(general, sizeof(general), "{ \"boards\":[%s]}", boards);
    a = results_of("application/json", fast, &sa);
    b = results_of("application/json", general, &sb);
    assert_int_equal(sa, 200);
    assert_int_equal(sb, 200);
    assert_int_equal(cJSON_GetArraySize(a), 5);
    assert_true(cJSON_Compare(a, b, 1));
    assert_string_equal(
        cJSON_GetObjectItem(
            cJSON_GetObjectItem(cJSON_GetArrayItem(a, 2), "problem"), "pointer")
            ->valuestring,
        "/boards/2");
    cJSON_Delete(a), cJSON_Delete(b);

    /* NDJSON: the same lines, the first character escaped. */
    snprintf(fast, sizeof(fast), " \"%s\"\t\r\n\"x%s\"\n", EXAMPLE, tail);
    snprintf(line, sizeof(line), "\"\\u%04x%s\"", EXAMPLE[0], tail);
    snprintf(general, sizeof(general), "%s\n\"x%s\"\n", line, tail);
    a = results_of("application/x-ndjson", fast, &sa);
    b = results_of("application/x-ndjson", general, &sb);
    assert_int_equal(sa, 200);
    assert_true(cJSON_Compare(a, b, 1));
    cJSON_Delete(a), cJSON_Delete(b);

    /* Over the cap (6 here) or cut short: the general path decides, as for
     * any body. */
    snprintf(fast, sizeof(fast), "{\"boards\":[%s,%s]}", boards, boards);
    a = results_of("application/json", fast, &sa);
    assert_int_equal(sa, 413);
    cJSON_Delete(a);
    snprintf(fast, sizeof(fast), "{\"boards\":[\"%s\"", EXAMPLE);
    a = results_of("application/json", fast, &sa);
    assert_int_equal(sa, 400);
    cJSON_Delete(a);
}

int test_api_batch(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_form),
        cmocka_unit_test(rows_shape_and_bad_char_location),
        cmocka_unit_test(ndjson_answers_one_line_per_board_in_order),
        cmocka_unit_test(limits_and_errors),
        cmocka_unit_test(count_is_exact),
        cmocka_unit_test(empty_batches),
        cmocka_unit_test(routing_and_limits),
        cmocka_unit_test(batch_budget),
        cmocka_unit_test(batch_without_budget),
        cmocka_unit_test(batch_stop_between_puzzles),
        cmocka_unit_test(batch_value_cap),
        cmocka_unit_test(fast_path_agrees),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("api_batch", tests, NULL, NULL);
}
