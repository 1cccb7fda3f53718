/* test_api_board.c - part of the api suite (test_api.c): POST /solve with
 * bodies that are not a valid board (shape, characters, where the first
 * bad one is) and with boards the rules or the search refuse: conflicts,
 * no solution, several, the search limit; the data file's puzzles agree. */
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
#include "api_support.h"
#include "sudoku.h"
#include "support.h"
#include "tests.h"

#define DATA_FILE "tests/data/test_puzzles_with_solutions"

/* First puzzle of tests/data/puzzles5_forum_hardest_1905_11+: needs many
 * search nodes. */
static const char hard_puzzle[] =
    "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8."
    "..52....6";

static void solve_invalid_board_shape(void **state)
{
    const char *rows[10];
    char body[256], line[SUDOKU_CELLS + 1];
    cJSON *root;

    (void)state;
    for (int r = 0; r < SUDOKU_SIZE; r++)
        rows[r] = support_example_rows[r];
    rows[9] = ".........";

    /* Wrong number of rows: the location is the whole board. */
    at_rows_body(body, sizeof(body), rows, 8);
    root = at_solve_problem(body, 422, "invalid_board");
    assert_string_equal(support_str(root, "pointer"), "/board");
    at_absent(root, "row");
    at_absent(root, "column");
    cJSON_Delete(root);
    at_rows_body(body, sizeof(body), rows, 10);
    root = at_solve_problem(body, 422, "invalid_board");
    assert_string_equal(support_str(root, "pointer"), "/board");
    cJSON_Delete(root);

    /* A row of the wrong length: that row. */
    rows[3] = ".9...2.1";
    at_rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    root = at_solve_problem(body, 422, "invalid_board");
    assert_string_equal(support_str(root, "pointer"), "/board/3");
    assert_true(support_num(root, "row") == 3);
    at_absent(root, "column");
    cJSON_Delete(root);
    rows[3] = support_example_rows[3];
    rows[8] = ".4.9...5.7";
    at_rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    root = at_solve_problem(body, 422, "invalid_board");
    assert_string_equal(support_str(root, "pointer"), "/board/8");
    assert_true(support_num(root, "row") == 8);
    cJSON_Delete(root);

    /* A line of the wrong length. */
    support_join_rows(support_example_rows, line);
    snprintf(body, sizeof(body), "{\"board\": \"%.80s\"}", line);
    root = at_solve_problem(body, 422, "invalid_board");
    assert_string_equal(support_str(root, "pointer"), "/board");
    at_absent(root, "row");
    at_absent(root, "column");
    cJSON_Delete(root);
    snprintf(body, sizeof(body), "{\"board\": \"%s1\"}", line);
    root = at_solve_problem(body, 422, "invalid_board");
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

    support_join_rows(support_example_rows, line);
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

    root = at_solve_problem(body, 422, "invalid_board");
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
    cJSON *root = at_solve_problem(body, 422, "invalid_board");

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
    at_line_body(body, sizeof(body), line);
    root = at_solve_problem(body, 422, "conflict");
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
    at_absent(root, "pointer");
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
    at_line_body(
        body, sizeof(body),
        "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9..."
        "15...1...3...8...4.");
    root = at_solve_problem(body, 422, "no_solution");
    at_absent(root, "conflicts");
    at_absent(root, "solution");
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
    at_line_body(body, sizeof(body), line);
    root = at_solve_problem(body, 422, "multiple_solutions");
    at_absent(root, "solution");
    cJSON_Delete(root);

    for (int r = 0; r < SUDOKU_SIZE; r++)
        rows[r] = "000000000";
    at_rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    cJSON_Delete(at_solve_problem(body, 422, "multiple_solutions"));
}

static void solve_search_limit(void **state)
{
    static const uint64_t budgets[] = {1, 2, 50};
    struct api_response resp;
    struct api_context ctx = at_default_ctx;
    struct sudoku_grid puzzle, solution;
    char body[256];
    const char *sol;
    cJSON *root;

    (void)state;
    at_line_body(body, sizeof(body), hard_puzzle);
    for (size_t i = 0; i < sizeof(budgets) / sizeof(budgets[0]); i++) {
        ctx.max_nodes = budgets[i];
        at_call(&ctx, "POST", "/solve", AT_JSON, body, &resp);
        root = at_problem(&resp, 422, "search_limit");
        assert_true(support_num(root, "limit") == (double)budgets[i]);
        at_absent(root, "solution");
        cJSON_Delete(root);
        api_response_free(&resp);
    }

    /* No budget (0): the same puzzle is solved. */
    ctx.max_nodes = 0;
    root = at_solve_ok(&ctx, body);
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
        at_line_body(body, sizeof(body), line);
        if (n == 0) {
            cJSON_Delete(at_solve_problem(body, 422, "no_solution"));
            seen[0]++;
        } else if (n > 1) {
            cJSON_Delete(at_solve_problem(body, 422, "multiple_solutions"));
            seen[2]++;
        } else {
            cJSON *root = at_solve_ok(&at_default_ctx, body);
            assert_int_equal(*sol, ':');
            assert_string_equal(support_str(root, "solution"), sol + 1);
            cJSON_Delete(root);
            seen[1]++;
        }
    }
    fclose(f);
    assert_true(seen[0] >= 1 && seen[1] >= 1 && seen[2] >= 1);
}

int test_api_board(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
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
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("api_board", tests, NULL, NULL);
}
