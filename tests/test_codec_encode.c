/* test_codec_encode.c - part of the codec suite (test_codec.c): the answers
 * encoded: solutions in both shapes, problems (RFC 9457) with every
 * member, status bodies, and /generate's seed read and written exactly. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "codec_support.h"
#include "logic.h"
#include "serate.h"
#include "sudoku.h"
#include "support.h"
#include "tests.h"

static cJSON *parse_json(const char *text, size_t len)
{
    cJSON *root;

    assert_non_null(text);
    assert_int_equal(strlen(text), len);
    root = cJSON_ParseWithLength(text, len);
    if (root == NULL)
        fail_msg("not JSON: %s", text);
    return root;
}

static struct sudoku_grid grid_of_rows(const char *const *rows)
{
    char text[SUDOKU_CELLS + 1];
    struct sudoku_grid g;

    support_join_rows(rows, text);
    assert_int_equal(sudoku_parse(text, SUDOKU_CELLS, &g, NULL), SUDOKU_OK);
    return g;
}

static void encode_solution_rows(void **state)
{
    struct sudoku_grid g = grid_of_rows(support_solution_rows);
    struct sudoku_stats stats = {.nodes = 17, .guesses = 3};
    char expect[256];
    size_t len = 0, n = 0;
    char *out;
    cJSON *root;
    const cJSON *sol, *st;
    int i = 0;

    (void)state;
    out = codec_encode_solution(&g, CODEC_SHAPE_ROWS, &stats, 42, &len);
    root = parse_json(out, len);

    /* The solution's exact bytes: nine quoted rows, no spaces. */
    n += (size_t)snprintf(expect, sizeof(expect), "{\"solution\":[");
    for (int r = 0; r < SUDOKU_SIZE; r++)
        n += (size_t)snprintf(expect + n, sizeof(expect) - n, "%s\"%s\"",
                              r ? "," : "", support_solution_rows[r]);
    n += (size_t)snprintf(expect + n, sizeof(expect) - n, "],");
    assert_true(strncmp(out, expect, n) == 0);

    sol = cJSON_GetObjectItemCaseSensitive(root, "solution");
    assert_true(cJSON_IsArray(sol));
    assert_int_equal(cJSON_GetArraySize(sol), SUDOKU_SIZE);
    cJSON_ArrayForEach(st, sol)
    {
        assert_true(cJSON_IsString(st));
        assert_string_equal(st->valuestring, support_solution_rows[i]);
        i++;
    }
    st = cJSON_GetObjectItemCaseSensitive(root, "stats");
    assert_true(cJSON_IsObject(st));
    assert_int_equal(cJSON_GetArraySize(st), 3);
    assert_true(support_num(st, "guesses") == 3);
    assert_true(support_num(st, "nodes") == 17);
    assert_true(support_num(st, "solve_us") == 42);
    assert_int_equal(cJSON_GetArraySize(root), 2);
    cJSON_Delete(root);
    free(out);
}

static void encode_solution_line(void **state)
{
    struct sudoku_grid g = grid_of_rows(support_solution_rows);
    struct sudoku_stats stats = {.nodes = 1, .guesses = 0};
    char line[SUDOKU_CELLS + 1], expect[128];
    size_t len = 0;
    char *out;
    cJSON *root;
    const cJSON *st;

    (void)state;
    support_join_rows(support_solution_rows, line);
    out = codec_encode_solution(&g, CODEC_SHAPE_LINE, &stats, 0, &len);
    root = parse_json(out, len);
    snprintf(expect, sizeof(expect), "{\"solution\":\"%s\",", line);
    assert_true(strncmp(out, expect, strlen(expect)) == 0);
    assert_string_equal(support_str(root, "solution"), line);
    st = cJSON_GetObjectItemCaseSensitive(root, "stats");
    assert_true(cJSON_IsObject(st));
    assert_true(support_num(st, "guesses") == 0);
    assert_true(support_num(st, "nodes") == 1);
    assert_true(support_num(st, "solve_us") == 0);
    cJSON_Delete(root);
    free(out);
}

/* 64-bit counters are written with every digit (a double would round). */
static void encode_solution_large_stats(void **state)
{
    struct sudoku_grid g = grid_of_rows(support_solution_rows);
    struct sudoku_stats stats = {.nodes = (1ull << 53) + 1,
                                 .guesses = UINT64_MAX};
    size_t len = 0;
    char *out;
    cJSON *root;

    (void)state;
    out = codec_encode_solution(&g, CODEC_SHAPE_ROWS, &stats, UINT64_MAX - 1,
                                &len);
    root = parse_json(out, len);
    assert_non_null(strstr(out, "\"guesses\":18446744073709551615"));
    assert_non_null(strstr(out, "\"nodes\":9007199254740993"));
    assert_non_null(strstr(out, "\"solve_us\":18446744073709551614}"));
    cJSON_Delete(root);
    free(out);
}

/* codec_write_solution gives the bytes codec_encode_solution does, and the
 * longest answer (rows, every stat 20 digits) fills CODEC_SOLUTION_MAX to
 * the last byte: a buffer of exactly that size (on the heap, so ASan sees a
 * byte past it) is enough. */
static void write_solution_fits(void **state)
{
    struct sudoku_grid g = grid_of_rows(support_solution_rows);
    const struct sudoku_stats big = {.nodes = UINT64_MAX,
                                     .guesses = UINT64_MAX};
    const struct sudoku_stats small = {.nodes = 1, .guesses = 0};
    char *buf = malloc(CODEC_SOLUTION_MAX), *heap;
    size_t len, heap_len = 0;

    (void)state;
    assert_non_null(buf);
    for (int shape = CODEC_SHAPE_ROWS; shape <= CODEC_SHAPE_LINE; shape++) {
        for (int k = 0; k < 2; k++) {
            const struct sudoku_stats *st = k ? &big : &small;
            uint64_t us = k ? UINT64_MAX : 7;
            len =
                codec_write_solution(buf, &g, (enum codec_shape)shape, st, us);
            heap = codec_encode_solution(&g, (enum codec_shape)shape, st, us,
                                         &heap_len);
            assert_non_null(heap);
            assert_int_equal(len, heap_len);
            assert_int_equal(len, strlen(buf));
            assert_string_equal(buf, heap);
            cJSON_Delete(parse_json(buf, len));
            if (shape == CODEC_SHAPE_ROWS && k)
                assert_int_equal(len, CODEC_SOLUTION_MAX - 1);
            else
                assert_true(len < CODEC_SOLUTION_MAX - 1);
            free(heap);
        }
    }
    free(buf);
}

static void problem_init_sets_absent(void **state)
{
    struct codec_problem p;

    (void)state;
    memset(&p, 0x5a, sizeof(p));
    static const struct codec_problem_type teapot = {418, "teapot", "A title"};
    codec_problem_set(&p, &teapot, "A detail");
    assert_int_equal(p.status, 418);
    assert_string_equal(p.code, "teapot");
    assert_string_equal(p.title, "A title");
    assert_string_equal(p.detail, "A detail");
    assert_null(p.pointer);
    assert_int_equal(p.offset, -1);
    assert_int_equal(p.row, -1);
    assert_int_equal(p.column, -1);
    assert_int_equal(p.limit, -1);
    assert_null(p.conflicts);
    assert_int_equal(p.nconflicts, 0);
}

static void encode_problem_minimal(void **state)
{
    static const char *const absent[] = {"pointer", "offset", "row",
                                         "column",  "limit",  "conflicts"};
    struct codec_problem p;
    size_t len = 0;
    char *out;
    cJSON *root;

    (void)state;
    codec_problem_init(&p, CODEC_PROBLEM_NOT_FOUND, "no such endpoint");
    out = codec_encode_problem(&p, &len);
    root = parse_json(out, len);
    assert_true(cJSON_IsObject(root));
    assert_string_equal(support_str(root, "type"),
                        "urn:sudokud:problem:not_found");
    assert_string_equal(support_str(root, "title"), "Not found");
    assert_true(support_num(root, "status") == 404);
    assert_string_equal(support_str(root, "detail"), "no such endpoint");
    assert_string_equal(support_str(root, "code"), "not_found");
    for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
        if (cJSON_GetObjectItemCaseSensitive(root, absent[i]) != NULL)
            fail_msg("member '%s' should be absent", absent[i]);
    assert_int_equal(cJSON_GetArraySize(root), 5);
    cJSON_Delete(root);
    free(out);
}

/* Zero is a value, not "absent"; an empty pointer is the whole document. */
static void encode_problem_all_members(void **state)
{
    struct codec_problem p;
    size_t len = 0;
    char *out;
    cJSON *root;

    (void)state;
    codec_problem_init(&p, CODEC_PROBLEM_INVALID_BOARD, "d");
    p.pointer = "";
    p.offset = 0;
    p.row = 0;
    p.column = 0;
    p.limit = 0;
    out = codec_encode_problem(&p, &len);
    root = parse_json(out, len);
    assert_string_equal(support_str(root, "pointer"), "");
    assert_true(support_num(root, "offset") == 0);
    assert_true(support_num(root, "row") == 0);
    assert_true(support_num(root, "column") == 0);
    assert_true(support_num(root, "limit") == 0);
    assert_null(cJSON_GetObjectItemCaseSensitive(root, "conflicts"));
    cJSON_Delete(root);
    free(out);

    p.pointer = "/board/8";
    p.offset = 16383;
    p.row = 8;
    p.column = 7;
    p.limit = 64ll << 20;
    out = codec_encode_problem(&p, &len);
    root = parse_json(out, len);
    assert_string_equal(support_str(root, "pointer"), "/board/8");
    assert_true(support_num(root, "offset") == 16383);
    assert_true(support_num(root, "row") == 8);
    assert_true(support_num(root, "column") == 7);
    assert_true(support_num(root, "limit") == 67108864.0);
    assert_non_null(strstr(out, "\"limit\":67108864"));
    cJSON_Delete(root);
    free(out);
}

/* Strings that need escaping come back intact. */
static void encode_problem_escapes(void **state)
{
    static const char detail[] =
        "row 1: '\"' and '\\' and\ta\nnewline \xc3\xa9";
    struct codec_problem p;
    size_t len = 0;
    char *out;
    cJSON *root;

    (void)state;
    static const struct codec_problem_type quoted = {400, "invalid_json",
                                                     "Body \"is\" not JSON"};
    codec_problem_set(&p, &quoted, detail);
    p.pointer = "/a~1b/\"c\"";
    out = codec_encode_problem(&p, &len);
    root = parse_json(out, len);
    assert_string_equal(support_str(root, "detail"), detail);
    assert_string_equal(support_str(root, "title"), "Body \"is\" not JSON");
    assert_string_equal(support_str(root, "pointer"), "/a~1b/\"c\"");
    cJSON_Delete(root);
    free(out);
}

static void encode_problem_conflicts(void **state)
{
    static const struct sudoku_conflict c[3] = {
        {SUDOKU_ROW, 4, 2, 2, {37, 43}},
        {SUDOKU_COLUMN, 3, 7, 3, {3, 30, 75}},
        {SUDOKU_BOX, 8, 9, 2, {60, 80}},
    };
    static const int row_cells[][2] = {{4, 1}, {4, 7}};
    static const int col_cells[][2] = {{0, 3}, {3, 3}, {8, 3}};
    static const int box_cells[][2] = {{6, 6}, {8, 8}};
    struct codec_problem p;
    size_t len = 0;
    char *out;
    cJSON *root;
    const cJSON *list;

    (void)state;
    codec_problem_init(&p, CODEC_PROBLEM_CONFLICT, "d");
    p.conflicts = c;
    p.nconflicts = 3;
    out = codec_encode_problem(&p, &len);
    root = parse_json(out, len);
    list = cJSON_GetObjectItemCaseSensitive(root, "conflicts");
    assert_true(cJSON_IsArray(list));
    assert_int_equal(cJSON_GetArraySize(list), 3);
    support_check_conflict(cJSON_GetArrayItem(list, 0), "row", 4, 2, row_cells,
                           2);
    support_check_conflict(cJSON_GetArrayItem(list, 1), "column", 3, 7,
                           col_cells, 3);
    support_check_conflict(cJSON_GetArrayItem(list, 2), "box", 8, 9, box_cells,
                           2);
    cJSON_Delete(root);
    free(out);

    /* Present but empty stays an (empty) array. */
    p.nconflicts = 0;
    out = codec_encode_problem(&p, &len);
    root = parse_json(out, len);
    list = cJSON_GetObjectItemCaseSensitive(root, "conflicts");
    assert_true(cJSON_IsArray(list));
    assert_int_equal(cJSON_GetArraySize(list), 0);
    cJSON_Delete(root);
    free(out);
}

static void encode_status_members(void **state)
{
    static const char *const words[] = {"ok", "ready", ""};
    size_t len = 0;
    char *out;
    cJSON *root;

    (void)state;
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        out = codec_encode_status(words[i], &len);
        root = parse_json(out, len);
        assert_true(cJSON_IsObject(root));
        assert_int_equal(cJSON_GetArraySize(root), 1);
        assert_string_equal(support_str(root, "status"), words[i]);
        cJSON_Delete(root);
        free(out);
    }
}

static enum codec_status decode_generate(const char *json,
                                         struct codec_generate_request *out,
                                         struct codec_error *err)
{
    size_t len = strlen(json);
    char *copy = malloc(len);
    enum codec_status st;

    assert_non_null(copy);
    memcpy(copy, json, len);
    st = codec_decode_generate(copy, len, out, err);
    free(copy);
    return st;
}

/* 2^53 - 1 is the largest integer below which every integer has a double
 * of its own: 2^53 + 1 parses as 2^53, so 2^53 and above are refused. */
static void decode_generate_seed_bounds(void **state)
{
    static const char *const refused[] = {
        "{\"seed\": 9007199254740992}",
        "{\"seed\": 9007199254740993}",
        "{\"seed\": 18446744073709551615}",
        "{\"seed\": 1e300}",
        "{\"seed\": -1}",
        "{\"seed\": 0.5}",
        "{\"seed\": \"7\"}",
    };
    struct codec_generate_request r;
    struct codec_error err;

    (void)state;
    assert_int_equal(CODEC_SEED_MAX, (1ULL << 53) - 1);
    assert_int_equal(decode_generate("{\"seed\": 9007199254740991}", &r, &err),
                     CODEC_OK);
    assert_true(r.has_seed);
    assert_true(r.seed == (1ULL << 53) - 1);
    assert_int_equal(decode_generate("{\"seed\": 8000000000000001}", &r, &err),
                     CODEC_OK);
    assert_true(r.seed == 8000000000000001ULL);
    assert_int_equal(decode_generate("{\"seed\": 0}", &r, &err), CODEC_OK);
    assert_true(r.has_seed && r.seed == 0);
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        assert_int_equal(decode_generate(refused[i], &r, &err),
                         CODEC_INVALID_REQUEST);
        assert_string_equal(err.pointer, "/seed");
        assert_non_null(strstr(err.detail, "9007199254740991"));
    }
}

/* The answer's seed is printed in full: through a double cJSON would print
 * 8000000000000001 as 8e+15 (another seed). */
static void encode_generated_seed_exact(void **state)
{
    static const unsigned long long seeds[] = {
        0, 7, 8000000000000001ULL, 9007199254740991ULL, 1234567890123457ULL};
    struct sudoku_grid puzzle, solution;
    struct logic_grade lg;
    struct serate_result se;
    struct codec_grade grade = {0, &se, &lg, 0};

    (void)state;
    memset(&lg, 0, sizeof(lg));
    memset(&se, 0, sizeof(se));
    lg.hardest = -1;
    assert_int_equal(sudoku_parse(SUPPORT_EXAMPLE, 81, &puzzle, NULL),
                     SUDOKU_OK);
    assert_int_equal(
        sudoku_parse(SUPPORT_EXAMPLE_SOLUTION, 81, &solution, NULL), SUDOKU_OK);
    for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
        struct codec_generated g = {&puzzle, &solution, CODEC_SHAPE_LINE,
                                    &grade,  seeds[i],  "none",
                                    30,      1,         5};
        char want[48];
        size_t len = 0;
        char *text = codec_encode_generated(&g, &len);
        cJSON *j;

        assert_non_null(text);
        assert_int_equal(strlen(text), len);
        snprintf(want, sizeof(want), "\"seed\":%llu,", seeds[i]);
        assert_non_null(strstr(text, want));
        j = cJSON_Parse(text);
        assert_non_null(j); /* still valid JSON */
        assert_true(cJSON_GetObjectItem(j, "seed")->valuedouble ==
                    (double)seeds[i]);
        cJSON_Delete(j);
        free(text);
    }
}

int test_codec_encode(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(encode_solution_rows),
        cmocka_unit_test(encode_solution_line),
        cmocka_unit_test(encode_solution_large_stats),
        cmocka_unit_test(write_solution_fits),
        cmocka_unit_test(problem_init_sets_absent),
        cmocka_unit_test(encode_problem_minimal),
        cmocka_unit_test(encode_problem_all_members),
        cmocka_unit_test(encode_problem_escapes),
        cmocka_unit_test(encode_problem_conflicts),
        cmocka_unit_test(encode_status_members),
        cmocka_unit_test(decode_generate_seed_bounds),
        cmocka_unit_test(encode_generated_seed_exact),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("codec_encode", tests, NULL, NULL);
}
