/* test_api_killer.c - cmocka tests of killer sudoku on the routes
 * (src/api/api_intake.c, api_judge.c, src/codec/codec_killer.c): POST /solve
 * and /validate with a "cages" member, called directly with request values, no
 * socket. Bodies are exact-size heap copies, so ASan sees any read past the
 * end. Reads tests/data/killer_puzzles, so run from the repository root. */
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
#include "killer.h"
#include "killer_support.h"
#include "sudoku.h"
#include "support.h"
#include "tests.h"

#define JSON "application/json"
#define ROW9 "........."
#define BLANK ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ROW9

static const struct api_context ctx = {
    .max_nodes = 200000, .max_killer_nodes = 200000, .max_body = 64 * 1024};

/* One puzzle of the set: board, cages (text format) and solution. */
struct line {
    char board[SUDOKU_CELLS + 1], cages[2048], solution[SUDOKU_CELLS + 1];
};

/* Line `which` (0-based, comments skipped) of tests/data/killer_puzzles;
 * `with_givens` picks the which-th puzzle that has givens instead. */
static void read_line(unsigned which, int with_givens, struct line *out)
{
    char buf[4096];
    FILE *f = fopen("tests/data/killer_puzzles", "r");

    if (!f)
        fail_msg("cannot open tests/data/killer_puzzles");
    while (fgets(buf, sizeof(buf), f)) {
        char *bar1 = buf + SUDOKU_CELLS, *bar2;
        int givens = 0;
        if (buf[0] == '#' || strlen(buf) < SUDOKU_CELLS + 2)
            continue;
        for (int i = 0; i < SUDOKU_CELLS; i++)
            givens += buf[i] != '.';
        if (with_givens && givens == 0)
            continue;
        if (which-- > 0)
            continue;
        bar2 = strchr(bar1 + 1, '|');
        assert_non_null(bar2);
        memcpy(out->board, buf, SUDOKU_CELLS);
        out->board[SUDOKU_CELLS] = '\0';
        snprintf(out->cages, sizeof(out->cages), "%.*s", (int)(bar2 - bar1 - 1),
                 bar1 + 1);
        snprintf(out->solution, sizeof(out->solution), "%.81s", bar2 + 1);
        fclose(f);
        return;
    }
    fclose(f);
    fail_msg("no such line");
}

/* The JSON "cages" array of a cage list in the text format. */
static void cages_json(const char *text, char *out, size_t size)
{
    struct killer_cages k;

    assert_int_equal(killer_parse(text, strlen(text), &k, NULL), KILLER_OK);
    kt_cages_json(&k, out, size);
}

static void call_into(const char *path, const char *body,
                      struct api_response *resp, const struct api_context *c,
                      char *answer)
{
    struct api_request req = {
        .method = "POST", .path = path, .content_type = JSON, .answer = answer};
    size_t len = strlen(body);
    char *copy = malloc(len ? len : 1);

    assert_non_null(copy);
    memcpy(copy, body, len);
    req.body = copy;
    req.body_len = len;
    memset(resp, 0x5a, sizeof(*resp));
    api_handle(c ? c : &ctx, &req, resp);
    free(copy);
}

static void call(const char *path, const char *body, struct api_response *resp,
                 const struct api_context *c)
{
    call_into(path, body, resp, c, NULL);
}

/* Posts {"board": board, "cages": cages_member} to path and parses the
 * answer, expecting `status`. */
static cJSON *post(const char *path, const char *board,
                   const char *cages_member, int status)
{
    static char body[32768];
    struct api_response resp;
    cJSON *root;

    snprintf(body, sizeof(body), "{\"board\": \"%s\", \"cages\": %s}", board,
             cages_member);
    call(path, body, &resp, NULL);
    if (resp.status != status)
        fail_msg("status %d, want %d: %.*s", resp.status, status,
                 resp.body ? (int)resp.body_len : 0,
                 resp.body ? resp.body : "");
    root = cJSON_ParseWithLength(resp.body, resp.body_len);
    assert_non_null(root);
    api_response_free(&resp);
    return root;
}

/* Posts text-format cages with a board; expects 422 `code` about `cage`,
 * with `ncells` cells, the first at [row, col] (row < 0: not checked). */
static cJSON *expect_cage_problem(const char *board, const char *cages,
                                  const char *code, int cage, int ncells,
                                  int row, int col)
{
    char json[16384];
    cJSON *p, *cells;

    cages_json(cages, json, sizeof(json));
    p = post("/solve", board, json, 422);
    assert_string_equal(support_str(p, "code"), code);
    assert_int_equal((int)support_num(p, "status"), 422);
    assert_non_null(strstr(support_str(p, "type"), code));
    if (cage >= 0) {
        char pointer[32];
        assert_int_equal((int)support_num(p, "cage"), cage);
        snprintf(pointer, sizeof(pointer), "/cages/%d", cage);
        assert_string_equal(support_str(p, "pointer"), pointer);
    } else {
        assert_null(cJSON_GetObjectItemCaseSensitive(p, "cage"));
    }
    cells = cJSON_GetObjectItemCaseSensitive(p, "cells");
    if (ncells == 0) {
        assert_null(cells);
    } else {
        assert_int_equal(cJSON_GetArraySize(cells), ncells);
        if (row >= 0) {
            cJSON *first = cJSON_GetArrayItem(cells, 0);
            assert_int_equal(cJSON_GetArrayItem(first, 0)->valueint, row);
            assert_int_equal(cJSON_GetArrayItem(first, 1)->valueint, col);
        }
    }
    return p;
}

/* ---------------------------------------------------------------- solve */

static void solve_killer(void **state)
{
    struct line l;
    char json[16384];
    cJSON *r;

    (void)state;
    for (unsigned i = 0; i < 3; i++) {
        for (int with_givens = 0; with_givens < 2; with_givens++) {
            read_line(i, with_givens, &l);
            cages_json(l.cages, json, sizeof(json));
            r = post("/solve", l.board, json, 200);
            assert_string_equal(support_str(r, "solution"), l.solution);
            assert_true(
                support_num(cJSON_GetObjectItemCaseSensitive(r, "stats"),
                            "nodes") >= 1);
            cJSON_Delete(r);
        }
    }
}

/* A killer solution goes into the request's answer room too. */
static void solve_killer_into_answer_room(void **state)
{
    static char body[32768];
    char json[16384], *room = malloc(API_ANSWER_MAX);
    struct api_response resp;
    struct line l;
    cJSON *r;

    (void)state;
    assert_non_null(room);
    read_line(0, 0, &l);
    cages_json(l.cages, json, sizeof(json));
    snprintf(body, sizeof(body), "{\"board\": \"%s\", \"cages\": %s}", l.board,
             json);
    call_into("/solve", body, &resp, NULL, room);
    assert_int_equal(resp.status, 200);
    assert_ptr_equal(resp.body, room);
    assert_int_equal(resp.body_owned, 0);
    r = cJSON_ParseWithLength(resp.body, resp.body_len);
    assert_non_null(r);
    assert_string_equal(support_str(r, "solution"), l.solution);
    cJSON_Delete(r);
    free(room);
}

static void solve_killer_rows_shape(void **state)
{
    static char body[32768];
    struct api_response resp;
    struct line l;
    char json[16384];
    size_t len;
    cJSON *r, *sol;

    (void)state;
    read_line(0, 0, &l);
    cages_json(l.cages, json, sizeof(json));
    /* the cages first, and the board as 9 rows */
    len = (size_t)snprintf(body, sizeof(body), "{\"cages\": %s, \"board\": [",
                           json);
    for (int r9 = 0; r9 < 9; r9++)
        len += (size_t)snprintf(body + len, sizeof(body) - len, "%s\"%.9s\"",
                                r9 ? "," : "", l.board + 9 * r9);
    snprintf(body + len, sizeof(body) - len, "]}");
    call("/solve", body, &resp, NULL);
    assert_int_equal(resp.status, 200);
    r = cJSON_ParseWithLength(resp.body, resp.body_len);
    api_response_free(&resp);
    sol = cJSON_GetObjectItemCaseSensitive(r, "solution");
    assert_int_equal(cJSON_GetArraySize(sol), 9);
    for (int r9 = 0; r9 < 9; r9++)
        assert_memory_equal(cJSON_GetArrayItem(sol, r9)->valuestring,
                            l.solution + 9 * r9, 9);
    cJSON_Delete(r);
}

static void solve_outcomes(void **state)
{
    struct api_context tight = ctx;
    struct api_response resp;
    struct line l;
    char json[16384], body[20000];
    cJSON *r;

    (void)state;
    /* too few cages: two solutions or more */
    r = post("/solve", BLANK, "[{\"sum\": 24, \"cells\": [[0,0],[0,1],[0,2]]}]",
             422);
    assert_string_equal(support_str(r, "code"), "multiple_solutions");
    cJSON_Delete(r);
    /* fine cage by cage, impossible together */
    r = post("/solve", BLANK,
             "[{\"sum\": 3, \"cells\": [[0,0],[0,1]]},"
             " {\"sum\": 3, \"cells\": [[1,0],[1,1]]},"
             " {\"sum\": 3, \"cells\": [[2,0],[2,1]]}]",
             422);
    assert_string_equal(support_str(r, "code"), "no_solution");
    cJSON_Delete(r);
    /* givens against the 9x9 rules come first */
    r = post("/solve", "55" ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ".......",
             "[{\"sum\": 3, \"cells\": [[0,0],[9,1]]}]", 422);
    assert_string_equal(support_str(r, "code"), "conflict");
    cJSON_Delete(r);
    /* the node budget */
    tight.max_killer_nodes = 1;
    for (unsigned i = 0;; i++) {
        read_line(i, 0, &l);
        cages_json(l.cages, json, sizeof(json));
        snprintf(body, sizeof(body), "{\"board\": \"%s\", \"cages\": %s}",
                 l.board, json);
        call("/solve", body, &resp, &tight);
        if (resp.status == 422)
            break;
        api_response_free(&resp);
        assert_true(i < 50);
    }
    r = cJSON_ParseWithLength(resp.body, resp.body_len);
    api_response_free(&resp);
    assert_string_equal(support_str(r, "code"), "search_limit");
    assert_int_equal((int)support_num(r, "limit"), 1);
    cJSON_Delete(r);
}

/* ------------------------------------------------------- cage problems */

static void cage_problems(void **state)
{
    cJSON *p;

    (void)state;
    p = expect_cage_problem(BLANK, "3:11,12;10:19,10", "cage_cell_out_of_range",
                            1, 1, 0, -1);
    assert_non_null(strstr(support_str(p, "detail"), "[0,-1]"));
    cJSON_Delete(p);
    p = expect_cage_problem(BLANK, "3:11,12;5:12,22", "cage_overlap", 1, 1, 0,
                            1);
    assert_int_equal((int)support_num(p, "other_cage"), 0);
    cJSON_Delete(p);
    p = expect_cage_problem(BLANK, "3:11;9:55,56,55", "cage_overlap", 1, 1, 4,
                            4);
    assert_int_equal((int)support_num(p, "other_cage"), 1);
    cJSON_Delete(p);
    cJSON_Delete(expect_cage_problem(BLANK, "3:11,22", "cage_not_connected", 0,
                                     1, 1, 1));
    cJSON_Delete(expect_cage_problem(BLANK, "3:11,12;30:21,22",
                                     "cage_sum_impossible", 1, 2, 1, 0));
    cJSON_Delete(expect_cage_problem(BLANK, "1:11,12", "cage_sum_impossible", 0,
                                     2, 0, 0));
}

static void cage_given_and_total(void **state)
{
    struct line l;
    char cages[2100];
    cJSON *p;

    (void)state;
    /* a given of 9 in a 2-cell cage of 5 */
    p = expect_cage_problem("9" ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ROW9
                            "........",
                            "5:11,12", "cage_given_conflict", 0, 1, 0, 0);
    cJSON_Delete(p);
    /* two equal givens in one cage, [0,2] and [1,3]: no row, column or box
     * in common, so only the cage is broken */
    p = expect_cage_problem("..4......"
                            "...4....." ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ROW9,
                            "15:13,14,24", "cage_given_conflict", 0, 2, 0, 2);
    assert_non_null(strstr(support_str(p, "detail"), "given 4 twice"));
    cJSON_Delete(p);
    /* equal givens in one column: the 9x9 rules are reported first */
    p = expect_cage_problem("4........4" ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ROW9
                            "........",
                            "15:11,21,31", "conflict", -1, 0, -1, -1);
    cJSON_Delete(p);
    /* the set's first puzzle covers the grid: one sum off */
    read_line(0, 0, &l);
    {
        char *colon = strchr(l.cages, ':');
        int sum = atoi(l.cages);
        snprintf(cages, sizeof(cages), "%d%s", sum + 1, colon);
    }
    p = expect_cage_problem(BLANK, cages, "cage_total_not_405", -1, 0, -1, -1);
    assert_string_equal(support_str(p, "pointer"), "/cages");
    assert_non_null(strstr(support_str(p, "detail"), "406"));
    cJSON_Delete(p);
}

/* More cages and cells than a grid has: a clear 422, not a crash. */
static void too_many_cages(void **state)
{
    char json[8192];
    size_t len = 0;
    cJSON *p;

    (void)state;
    len += (size_t)snprintf(json + len, sizeof(json) - len, "[");
    for (int i = 0; i < 100; i++)
        len += (size_t)snprintf(json + len, sizeof(json) - len,
                                "%s{\"sum\":5,\"cells\":[[%d,%d]]}",
                                i ? "," : "", i / 9 % 9, i % 9);
    snprintf(json + len, sizeof(json) - len, "]");
    p = post("/solve", BLANK, json, 422);
    assert_string_equal(support_str(p, "code"), "cage_overlap");
    assert_int_equal((int)support_num(p, "cage"), 81);
    cJSON_Delete(p);
    /* 81 one-cell cages that agree with each other: solved at once */
    len = (size_t)snprintf(json, sizeof(json), "[");
    {
        static const char grid[] =
            "534678912672195348198342567859761423426853791713924856961537284"
            "287419635345286179";
        for (int i = 0; i < 81; i++)
            len += (size_t)snprintf(json + len, sizeof(json) - len,
                                    "%s{\"sum\":%c,\"cells\":[[%d,%d]]}",
                                    i ? "," : "", grid[i], i / 9, i % 9);
        snprintf(json + len, sizeof(json) - len, "]");
        p = post("/solve", BLANK, json, 200);
        assert_string_equal(support_str(p, "solution"), grid);
        cJSON_Delete(p);
    }
}

/* ------------------------------------------------------------ the shape */

static void malformed_cages(void **state)
{
    static const struct {
        const char *cages, *pointer;
    } cases[] = {
        {"{}", "/cages"},
        {"[]", "/cages"},
        {"\"3:11,12\"", "/cages"},
        {"[5]", "/cages/0"},
        {"[{\"sum\":3,\"cells\":[[0,0],[0,1]]}, {\"cells\":[[1,1]]}]",
         "/cages/1/sum"},
        {"[{\"sum\":3.5,\"cells\":[[0,0]]}]", "/cages/0/sum"},
        {"[{\"sum\":\"3\",\"cells\":[[0,0]]}]", "/cages/0/sum"},
        {"[{\"sum\":1e300,\"cells\":[[0,0]]}]", "/cages/0/sum"},
        {"[{\"sum\":3}]", "/cages/0/cells"},
        {"[{\"sum\":3,\"cells\":[]}]", "/cages/0/cells"},
        {"[{\"sum\":3,\"cells\":{}}]", "/cages/0/cells"},
        {"[{\"sum\":3,\"cells\":[[0,0],[0]]}]", "/cages/0/cells/1"},
        {"[{\"sum\":3,\"cells\":[[0,0],[0,1,2]]}]", "/cages/0/cells/1"},
        {"[{\"sum\":3,\"cells\":[[0,0],\"01\"]}]", "/cages/0/cells/1"},
        {"[{\"sum\":3,\"cells\":[[0,0],[1,\"x\"]]}]", "/cages/0/cells/1/1"},
        {"[{\"sum\":3,\"cells\":[[0,0],[0.5,1]]}]", "/cages/0/cells/1/0"},
        {"[{\"sum\":3,\"cells\":[[0,0],[null,1]]}]", "/cages/0/cells/1/0"},
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        cJSON *p = post("/solve", BLANK, cases[i].cages, 400);
        assert_string_equal(support_str(p, "code"), "invalid_request");
        if (strcmp(support_str(p, "pointer"), cases[i].pointer) != 0)
            fail_msg("%s: pointer %s, want %s", cases[i].cages,
                     support_str(p, "pointer"), cases[i].pointer);
        cJSON_Delete(p);
    }
}

/* Only a member named "cages" makes a killer puzzle. */
static void classic_bodies(void **state)
{
    struct api_response resp;
    cJSON *r;

    (void)state;
    /* "cages" inside a string, and a board that is classic: multiple */
    call("/solve", "{\"board\": \"" BLANK "\", \"note\": \"cages\"}", &resp,
         NULL);
    assert_int_equal(resp.status, 422);
    r = cJSON_ParseWithLength(resp.body, resp.body_len);
    assert_string_equal(support_str(r, "code"), "multiple_solutions");
    cJSON_Delete(r);
    api_response_free(&resp);
    /* the name written with an escape is still the member */
    call("/solve", "{\"board\": \"" BLANK "\", \"\\u0063ages\": 5}", &resp,
         NULL);
    assert_int_equal(resp.status, 400);
    r = cJSON_ParseWithLength(resp.body, resp.body_len);
    assert_string_equal(support_str(r, "pointer"), "/cages");
    cJSON_Delete(r);
    api_response_free(&resp);
    /* the board is still required and checked first */
    call("/solve", "{\"cages\": [{\"sum\": 3, \"cells\": [[0,0],[0,1]]}]}",
         &resp, NULL);
    assert_int_equal(resp.status, 400);
    api_response_free(&resp);
    call("/solve", "{\"board\": \"x\", \"cages\": 5}", &resp, NULL);
    assert_int_equal(resp.status, 422);
    api_response_free(&resp);
}

/* ------------------------------------------------------------- validate */

static void validate_killer(void **state)
{
    struct line l;
    char json[16384];
    cJSON *r;

    (void)state;
    read_line(1, 0, &l);
    cages_json(l.cages, json, sizeof(json));
    r = post("/validate", l.board, json, 200);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "valid")));
    assert_int_equal((int)support_num(r, "solutions"), 1);
    cJSON_Delete(r);
    /* the solution itself, with its cages: complete and valid */
    r = post("/validate", l.solution, json, 200);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "valid")));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "complete")));
    cJSON_Delete(r);
    /* too few cages: not valid, two solutions */
    r = post("/validate", BLANK, "[{\"sum\": 3, \"cells\": [[0,0],[0,1]]}]",
             200);
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(r, "valid")));
    assert_int_equal((int)support_num(r, "solutions"), 2);
    cJSON_Delete(r);
    /* broken cages are a 422 here too */
    r = post("/validate", BLANK, "[{\"sum\": 3, \"cells\": [[0,0],[2,0]]}]",
             422);
    assert_string_equal(support_str(r, "code"), "cage_not_connected");
    cJSON_Delete(r);
    /* givens against the rules: the 200 answer lists the conflicts, even
     * when the same givens break their cage */
    r = post("/validate",
             "44" ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ".......",
             "[{\"sum\": 8, \"cells\": [[0,0],[0,1]]}]", 200);
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(r, "valid")));
    assert_true(cJSON_GetArraySize(
                    cJSON_GetObjectItemCaseSensitive(r, "conflicts")) >= 1);
    cJSON_Delete(r);
}

int test_api_killer(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(solve_killer),
        cmocka_unit_test(solve_killer_rows_shape),
        cmocka_unit_test(solve_killer_into_answer_room),
        cmocka_unit_test(solve_outcomes),
        cmocka_unit_test(cage_problems),
        cmocka_unit_test(cage_given_and_total),
        cmocka_unit_test(too_many_cages),
        cmocka_unit_test(malformed_cages),
        cmocka_unit_test(classic_bodies),
        cmocka_unit_test(validate_killer),
    };
    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("api_killer", tests, NULL, NULL);
}
