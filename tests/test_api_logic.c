/* test_api_logic.c - cmocka tests of POST /validate, /hint, /grade,
 * /explain and /generate (src/api/api_validate.c, api_hint.c, api_generate.c),
 * called through api_handle with request values, no socket. Answers are parsed
 * back with cJSON and checked against the solver: a hint may never contradict
 * the solution. Reads tests/data/. */
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
#include "logic.h"
#include "sudoku.h"
#include "support.h"
#include "api_support.h"
#include "tests.h"

static const struct api_context ctx = {.max_nodes = 200000,
                                       .max_body = 16 * 1024};
/* A time budget no forcing net fits in. */
static const struct api_context tight = {
    .max_nodes = 200000, .max_body = 16 * 1024, .max_logic_ms = 1};

static const char example[] = SUPPORT_EXAMPLE;
static const char example_solution[] = SUPPORT_EXAMPLE_SOLUTION;
static const char forum_hardest[] =
    "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8."
    "..52....6";
static const char pointing_board[] =
    "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9..28.....5."
    "6.......2";
static const char swordfish_board[] =
    ".21.53.64.654.13.2.3462.1574.32167.52.6..543151734..26352197648678534219"
    "149862573";
/* First of tests/data/puzzles7_serg_benchmark: several solutions. */
static const char several[] =
    "8.........95.......76.........426798...571243...893165......916....3.487"
    "....1.532";

/* POSTs body (at_call: an exact-size heap copy) and parses the answer. */
static cJSON *post_ctx(const struct api_context *c, const char *path,
                       const char *type, const char *body, int want_status)
{
    struct api_response resp;
    cJSON *root;

    at_call(c, "POST", path, type, body, &resp);
    if (resp.status != want_status)
        fail_msg("%s: status %d, want %d: %.*s", path, resp.status, want_status,
                 (int)resp.body_len, resp.body);
    assert_string_equal(resp.content_type, want_status == 200
                                               ? "application/json"
                                               : "application/problem+json");
    root = cJSON_ParseWithLength(resp.body, resp.body_len);
    assert_non_null(root);
    api_response_free(&resp);
    return root;
}

static cJSON *post(const char *path, const char *type, const char *body,
                   int want_status)
{
    return post_ctx(&ctx, path, type, body, want_status);
}

static cJSON *post_board(const char *path, const char *board, int want)
{
    char body[256];

    snprintf(body, sizeof(body), "{\"board\": \"%s\"}", board);
    return post(path, "application/json", body, want);
}

static const cJSON *get(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

    if (v == NULL)
        fail_msg("no member \"%s\"", name);
    return v;
}

static void expect_code(cJSON *root, const char *code)
{
    assert_string_equal(get(root, "code")->valuestring, code);
    cJSON_Delete(root);
}

static int cell_of(const cJSON *pair)
{
    return cJSON_GetArrayItem(pair, 0)->valueint * 9 +
           cJSON_GetArrayItem(pair, 1)->valueint;
}

/* --------------------------------------------------------------- validate */

static void validate_example_is_valid_with_one_solution(void **state)
{
    cJSON *r;

    (void)state;
    r = post_board("/validate", example, 200);
    assert_true(cJSON_IsTrue(get(r, "valid")));
    assert_int_equal(get(r, "solutions")->valueint, 1);
    assert_true(cJSON_IsFalse(get(r, "complete")));
    assert_int_equal(cJSON_GetArraySize(get(r, "conflicts")), 0);
    cJSON_Delete(r);
}

static void validate_solution_is_valid_and_complete(void **state)
{
    cJSON *r;

    (void)state;
    r = post_board("/validate", example_solution,
                   200); /* checked as a solution */
    assert_true(cJSON_IsTrue(get(r, "valid")));
    assert_true(cJSON_IsTrue(get(r, "complete")));
    cJSON_Delete(r);
}

static void validate_two_solutions_is_not_valid(void **state)
{
    cJSON *r;

    (void)state;
    r = post_board("/validate", several, 200);
    assert_true(cJSON_IsFalse(get(r, "valid")));
    assert_int_equal(get(r, "solutions")->valueint, 2);
    cJSON_Delete(r);
}

/* A wrong digit in a full board: a conflict, reported in a 200. */
static void validate_wrong_digit_is_a_row_conflict_in_a_200(void **state)
{
    cJSON *r;

    (void)state;
    char wrong[82];
    memcpy(wrong, example_solution, 82);
    wrong[1] = '9';
    r = post_board("/validate", wrong, 200);
    assert_true(cJSON_IsFalse(get(r, "valid")));
    assert_int_equal(get(r, "solutions")->valueint, 0);
    assert_true(cJSON_IsTrue(get(r, "complete")));
    const cJSON *c = cJSON_GetArrayItem(get(r, "conflicts"), 0);
    assert_string_equal(get(c, "unit")->valuestring, "row");
    assert_int_equal(get(c, "digit")->valueint, 9);
    assert_int_equal(cell_of(cJSON_GetArrayItem(get(c, "cells"), 1)), 1);
    cJSON_Delete(r);
}

/* No solution although the rules hold (tests/data, count 0). */
static void validate_unsolvable_board_is_not_valid(void **state)
{
    cJSON *r;

    (void)state;
    r = post_board("/validate",
                   "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4."
                   "9...15...1...3...8...4.",
                   200);
    assert_int_equal(get(r, "solutions")->valueint, 0);
    assert_true(cJSON_IsFalse(get(r, "valid")));
    cJSON_Delete(r);
}

/* Rows shape; a malformed board is still an error. */
static void validate_takes_rows_and_refuses_malformed_boards(void **state)
{
    cJSON *r;
    char rows[256];

    (void)state;
    snprintf(rows, sizeof(rows),
             "{\"board\": [\"%.9s\", \"%.9s\", \"%.9s\", "
             "\"%.9s\", \"%.9s\", \"%.9s\", \"%.9s\", \"%.9s\", \"%.9s\"]}",
             example, example + 9, example + 18, example + 27, example + 36,
             example + 45, example + 54, example + 63, example + 72);
    r = post("/validate", "application/json", rows, 200);
    assert_true(cJSON_IsTrue(get(r, "valid")));
    cJSON_Delete(r);
    expect_code(post_board("/validate", "12x", 422), "invalid_board");
    expect_code(post("/validate", "text/plain", "{}", 415),
                "unsupported_media_type");
}

/* ------------------------------------------------------------------- hint */

/* Checks a hint answer against the solution. */
static void check_hint(cJSON *r, const char *solution)
{
    const cJSON *m;

    cJSON_ArrayForEach(m, get(r, "placements")) assert_int_equal(
        get(m, "digit")->valueint, solution[cell_of(get(m, "cell"))] - '0');
    cJSON_ArrayForEach(m, get(r, "eliminations")) assert_int_not_equal(
        get(m, "digit")->valueint, solution[cell_of(get(m, "cell"))] - '0');
    assert_true(strlen(get(r, "explanation")->valuestring) > 20);
    assert_true(cJSON_GetArraySize(get(r, "placements")) +
                    cJSON_GetArraySize(get(r, "eliminations")) >
                0);
}

static void hint_technique(void **state)
{
    struct sudoku_grid g, sol;
    char s[82];
    int ok;
    cJSON *r;

    (void)state;
    sudoku_parse(pointing_board, 81, &g, NULL);
    sudoku_solve(&g, 0, &sol, &ok, NULL);
    sudoku_format(&sol, s);
    r = post_board("/hint", pointing_board, 200);
    assert_string_equal(get(r, "technique")->valuestring,
                        "locked_candidates_pointing");
    assert_true(cJSON_IsFalse(get(r, "stuck")));
    assert_int_equal(cJSON_GetArraySize(get(r, "eliminations")), 2);
    assert_string_equal(
        get(cJSON_GetArrayItem(get(r, "units"), 0), "unit")->valuestring,
        "box");
    check_hint(r, s);
    cJSON_Delete(r);

    /* Hidden singles (SE 1.2-1.5) come before naked ones (2.3). */
    r = post_board("/hint", example, 200);
    assert_string_equal(get(r, "technique")->valuestring, "hidden_single");
    check_hint(r, example_solution);
    cJSON_Delete(r);
}

static const char forum_solution[] =
    "981752643752643819463198275514867932629431758837529164348976521296315"
    "487175284396";

/* The forum-hardest puzzle needs a forcing net at once: within the default
 * budget that is the hint, with its chain (a "then" trail from the
 * assumption); with a 1 ms budget the answer is a cell of the solution,
 * marked stuck, and says why. */
static void hint_forcing_and_budget(void **state)
{
    char body[256];
    cJSON *r, *links;

    (void)state;
    r = post_board("/hint", forum_hardest, 200);
    assert_string_equal(get(r, "technique")->valuestring, "forcing_net");
    assert_true(cJSON_IsFalse(get(r, "stuck")));
    assert_true(get(r, "rating")->valuedouble >= 9.5);
    assert_true(get(r, "depth")->valueint >= 1);
    links = (cJSON *)get(r, "links");
    assert_true(cJSON_GetArraySize(links) >= 2);
    assert_string_equal(get(cJSON_GetArrayItem(links, 0), "link")->valuestring,
                        "then");
    check_hint(r, forum_solution);
    cJSON_Delete(r);

    snprintf(body, sizeof(body), "{\"board\": \"%s\"}", forum_hardest);
    r = post_ctx(&tight, "/hint", "application/json", body, 200);
    assert_string_equal(get(r, "technique")->valuestring, "from_solution");
    assert_true(cJSON_IsTrue(get(r, "stuck")));
    assert_int_equal(cJSON_GetArraySize(get(r, "placements")), 1);
    assert_non_null(
        strstr(get(r, "explanation")->valuestring, "time budget (1 ms)"));
    check_hint(r, forum_solution);
    cJSON_Delete(r);
}

/* Every unique puzzle of tests/data/test_puzzles_with_solutions: the hint
 * agrees with the file's solution, and so does the next placement. */
static void hints_never_contradict(void **state)
{
    char line[512];
    FILE *f = fopen("tests/data/test_puzzles_with_solutions", "r");
    unsigned n = 0;

    (void)state;
    assert_non_null(f);
    while (fgets(line, sizeof(line), f)) {
        char board[82];
        cJSON *r;
        if (strncmp(line + 81, ":1:", 3) != 0)
            continue;
        memcpy(board, line, 81);
        board[81] = '\0';
        r = post_board("/hint", board, 200);
        check_hint(r, line + 84);
        const cJSON *next =
            cJSON_GetObjectItemCaseSensitive(r, "next_placement");
        if (next != NULL)
            assert_int_equal(get(next, "digit")->valueint,
                             line[84 + cell_of(get(next, "cell"))] - '0');
        cJSON_Delete(r);
        n++;
    }
    fclose(f);
    assert_int_equal(n, 18);
}

static void hint_errors(void **state)
{
    char bad[82];

    (void)state;
    memcpy(bad, example, 82);
    bad[1] = '9';
    expect_code(post_board("/hint", bad, 422), "conflict");
    expect_code(post_board("/hint", several, 422), "multiple_solutions");
    expect_code(post_board("/grade", several, 422), "multiple_solutions");
    expect_code(post_board("/hint", example_solution, 422), "already_solved");
    expect_code(post("/hint", "application/json", "{\"board\": 5}", 400),
                "invalid_request");
    expect_code(post("/grade", "application/json", "[1,", 400), "invalid_json");
}

/* ------------------------------------------------------------------ grade */

static void grade_example_is_easy_without_guessing(void **state)
{
    cJSON *r;

    (void)state;
    r = post_board("/grade", example, 200);
    assert_string_equal(get(r, "level")->valuestring, "easy");
    assert_true(cJSON_IsFalse(get(r, "needs_guessing")));
    assert_int_equal(get(r, "blanks_left")->valueint, 0);
    assert_null(
        cJSON_GetObjectItemCaseSensitive(get(r, "techniques"), "x_wing"));
    cJSON_Delete(r);
}

/* A swordfish is 3.8 on SE's scale: hard. */
static void grade_swordfish_is_hard_rated_3_8_to_4_6(void **state)
{
    cJSON *r;

    (void)state;
    r = post_board("/grade", swordfish_board, 200);
    assert_string_equal(get(r, "level")->valuestring, "hard");
    assert_int_equal(get(get(r, "techniques"), "swordfish")->valueint, 1);
    assert_true(get(r, "rating")->valuedouble >= 3.8);
    assert_true(get(r, "rating")->valuedouble <= 4.6);
    cJSON_Delete(r);
}

/* The one budget ran out in the SE rater, so the logic engine's counts
 * stop too (SE's lower bound: tests/test_api_grade.c). */
static void grade_out_of_budget_is_extreme_and_needs_guessing(void **state)
{
    cJSON *r;

    (void)state;
    r = post_ctx(&tight, "/grade", "application/json",
                 "{\"board\": \""
                 "98.7..6..75..4......3..8.7.5....7.3...94..."
                 "......2.1..3.......1.9...5.8...52....6"
                 "\"}",
                 200);
    assert_string_equal(get(r, "level")->valuestring, "extreme");
    assert_true(cJSON_IsTrue(get(r, "needs_guessing")));
    assert_true(cJSON_IsTrue(get(r, "budget_exhausted")));
    cJSON_Delete(r);
}

/* ---------------------------------------------------------------- explain */

/* Applies the steps of an /explain answer in order to the puzzle's
 * candidates: every placement is the solution's digit, every elimination
 * removes a candidate that is not; returns the number of steps. When
 * `complete`, the steps end on the solution. */
static int apply_explain(const cJSON *r, const char *puzzle,
                         const char *solution, int complete)
{
    struct sudoku_grid b;
    struct logic_grid g;
    const cJSON *step;
    int n = 0;

    assert_int_equal(sudoku_parse(puzzle, 81, &b, NULL), SUDOKU_OK);
    logic_init(&g, &b);
    cJSON_ArrayForEach(step, get(r, "steps"))
    {
        struct logic_step s;
        const cJSON *m;
        memset(&s, 0, sizeof(s));
        assert_true(strlen(get(step, "explanation")->valuestring) > 20);
        assert_non_null(logic_technique_name(0)); /* names are stable */
        cJSON_ArrayForEach(m, get(step, "placements"))
        {
            int c = cell_of(get(m, "cell")), d = get(m, "digit")->valueint;
            assert_int_equal(d, solution[c] - '0');
            assert_int_equal(g.value[c], 0);
            s.placements[s.nplacements++] =
                (struct logic_move){(uint8_t)c, (uint8_t)d};
        }
        cJSON_ArrayForEach(m, get(step, "eliminations"))
        {
            int c = cell_of(get(m, "cell")), d = get(m, "digit")->valueint;
            assert_int_not_equal(d, solution[c] - '0');
            assert_true(g.cand[c] & (1u << (d - 1)));
            s.eliminations[s.neliminations++] =
                (struct logic_move){(uint8_t)c, (uint8_t)d};
        }
        assert_true(s.nplacements + s.neliminations > 0);
        logic_apply(&g, &s);
        n++;
    }
    if (complete)
        for (int i = 0; i < SUDOKU_CELLS; i++)
            assert_int_equal(g.value[i], solution[i] - '0');
    return n;
}

static void explain_example_steps_reach_its_solution(void **state)
{
    cJSON *r;
    int n;

    (void)state;
    r = post_board("/explain", example, 200);
    assert_true(cJSON_IsTrue(get(r, "complete")));
    assert_true(cJSON_IsNull(get(r, "stopped")));
    assert_string_equal(get(r, "level")->valuestring, "easy");
    assert_string_equal(get(r, "solution")->valuestring, example_solution);
    n = apply_explain(r, example, example_solution, 1);
    assert_true(n > 0);
    cJSON_Delete(r);
}

static void explain_forum_hardest_steps_reach_its_solution(void **state)
{
    cJSON *r;

    (void)state;
    r = post_board("/explain", forum_hardest, 200);
    assert_true(cJSON_IsTrue(get(r, "complete")));
    assert_string_equal(get(r, "level")->valuestring, "extreme");
    assert_true(get(r, "rating")->valuedouble >= 9.5);
    assert_int_equal(get(r, "max_logic_ms")->valueint, 1000);
    apply_explain(r, forum_hardest, forum_solution, 1);
    cJSON_Delete(r);
}

/* Out of time: a 200 that says so, with the steps found until then. */
static void explain_out_of_time_gives_the_steps_so_far(void **state)
{
    char body[256];
    cJSON *r;

    (void)state;
    snprintf(body, sizeof(body), "{\"board\": \"%s\"}", forum_hardest);
    r = post_ctx(&tight, "/explain", "application/json", body, 200);
    assert_true(cJSON_IsFalse(get(r, "complete")));
    assert_string_equal(get(r, "stopped")->valuestring, "time_budget");
    assert_string_equal(get(r, "level")->valuestring, "extreme");
    apply_explain(r, forum_hardest, forum_solution, 0);
    cJSON_Delete(r);
}

static void explain_several_solutions_is_422(void **state)
{
    (void)state;
    expect_code(post_board("/explain", several, 422), "multiple_solutions");
}

/* --------------------------------------------------------------- generate */

/* A rating range alone, then with a difficulty: the puzzle's grade lands
 * in it (and is unique). */
static void generate_rating(void **state)
{
    static const char *const bodies[] = {
        "{\"min_rating\": 3.0, \"max_rating\": 4.4, \"seed\": 9}",
        "{\"difficulty\": \"expert\", \"max_rating\": 6.0, \"seed\": 4}",
    };
    static const double lo[] = {3.0, 4.7}, hi[] = {4.4, 6.0};
    cJSON *r;

    (void)state;
    for (int i = 0; i < 2; i++) {
        double rating;
        r = post("/generate", "application/json", bodies[i], 200);
        rating = get(get(r, "grade"), "rating")->valuedouble;
        if (rating < lo[i] - 1e-9 || rating > hi[i] + 1e-9)
            fail_msg("%s: rated %.1f", bodies[i], rating);
        cJSON_Delete(r);
    }
    r = post("/generate", "application/json",
             "{\"min_rating\": 6.0, \"max_rating\": 5.0}", 422);
    expect_code(r, "invalid_rating");
    r = post("/generate", "application/json", "{\"min_rating\": 0.5}", 400);
    assert_string_equal(get(r, "pointer")->valuestring, "/min_rating");
    expect_code(r, "invalid_request");
    expect_code(post("/generate", "application/json",
                     "{\"max_rating\": \"hard\"}", 400),
                "invalid_request");
}

static void generate_route(void **state)
{
    static const char *const levels[] = {"easy", "medium", "expert", "extreme"};
    char body[128], first[82] = "";

    (void)state;
    for (int i = 0; i < 4; i++) {
        for (int rep = 0; rep < 2; rep++) {
            struct sudoku_grid p, sol;
            unsigned count = 0;
            snprintf(body, sizeof(body),
                     "{\"difficulty\": \"%s\", \"seed\": "
                     "77, \"symmetry\": \"rotational\"}",
                     levels[i]);
            cJSON *r = post("/generate", "application/json", body, 200);
            const char *puzzle = get(r, "puzzle")->valuestring;
            assert_string_equal(get(r, "difficulty")->valuestring, levels[i]);
            assert_string_equal(get(get(r, "grade"), "level")->valuestring,
                                levels[i]);
            assert_int_equal(get(r, "seed")->valueint, 77);
            assert_int_equal(sudoku_parse(puzzle, strlen(puzzle), &p, NULL),
                             SUDOKU_OK);
            sudoku_count(&p, 2, 0, &sol, &count, NULL);
            assert_int_equal(count, 1);
            char s[82];
            sudoku_format(&sol, s);
            assert_string_equal(get(r, "solution")->valuestring, s);
            if (rep == 0)
                memcpy(first, puzzle, 82);
            else
                assert_string_equal(first, puzzle); /* same seed, same puzzle */
            cJSON_Delete(r);
        }
    }
}

static void generate_errors(void **state)
{
    cJSON *r;

    (void)state;
    r = post("/generate", "application/json", "{\"difficulty\": \"nightmare\"}",
             422);
    assert_string_equal(get(r, "pointer")->valuestring, "/difficulty");
    expect_code(r, "invalid_difficulty");
    r = post("/generate", "application/json", "{\"seed\": -1}", 400);
    assert_string_equal(get(r, "pointer")->valuestring, "/seed");
    expect_code(r, "invalid_request");
    expect_code(post("/generate", "application/json", "{\"seed\": 1.5}", 400),
                "invalid_request");
    expect_code(post("/generate", "application/json",
                     "{\"symmetry\": \"mirror\"}", 400),
                "invalid_request");
    expect_code(
        post("/generate", "application/json", "{\"difficulty\": 3}", 400),
        "invalid_request");
    expect_code(post("/generate", "application/json", "", 400), "invalid_json");
    expect_code(post("/generate", "application/json", "{} x", 400),
                "invalid_json");
    expect_code(post("/generate", "text/plain", "{}", 415),
                "unsupported_media_type");
    /* Defaults: medium, a seed from the clock that the answer reports. */
    r = post("/generate", "application/json", "{}", 200);
    assert_string_equal(get(r, "difficulty")->valuestring, "medium");
    assert_string_equal(get(r, "symmetry")->valuestring, "none");
    assert_true(cJSON_IsNumber(get(r, "seed")));
    cJSON_Delete(r);
}

/* Issue 15: a large seed comes back exactly (not 8e+15) and replaying the
 * seed from the answer gives the same puzzle; 2^53 is refused, since a
 * JSON number cannot tell it from 2^53 + 1. */
static void generate_large_seed_replays(void **state)
{
    char body[128], first[82];
    cJSON *r;

    (void)state;
    r = post("/generate", "application/json",
             "{\"difficulty\": \"easy\", \"seed\": 8000000000000001}", 200);
    assert_true(get(r, "seed")->valuedouble == 8000000000000001.0);
    snprintf(first, sizeof(first), "%s", get(r, "puzzle")->valuestring);
    snprintf(body, sizeof(body), "{\"difficulty\": \"easy\", \"seed\": %.0f}",
             get(r, "seed")->valuedouble);
    cJSON_Delete(r);
    r = post("/generate", "application/json", body, 200);
    assert_string_equal(get(r, "puzzle")->valuestring, first);
    cJSON_Delete(r);
    r = post("/generate", "application/json", "{\"seed\": 9007199254740992}",
             400);
    assert_string_equal(get(r, "pointer")->valuestring, "/seed");
    expect_code(r, "invalid_request");
}

static void routes_methods(void **state)
{
    static const char *const paths[] = {"/validate", "/hint", "/grade",
                                        "/generate", "/explain"};
    struct api_response resp;

    (void)state;
    for (int i = 0; i < 5; i++) {
        struct api_request req = {.method = "GET", .path = paths[i]};
        api_handle(&ctx, &req, &resp);
        assert_int_equal(resp.status, 405);
        assert_string_equal(resp.allow, "POST, OPTIONS");
        api_response_free(&resp);
    }
}

int test_api_logic(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(validate_example_is_valid_with_one_solution),
        cmocka_unit_test(validate_solution_is_valid_and_complete),
        cmocka_unit_test(validate_two_solutions_is_not_valid),
        cmocka_unit_test(validate_wrong_digit_is_a_row_conflict_in_a_200),
        cmocka_unit_test(validate_unsolvable_board_is_not_valid),
        cmocka_unit_test(validate_takes_rows_and_refuses_malformed_boards),
        cmocka_unit_test(hint_technique),
        cmocka_unit_test(hint_forcing_and_budget),
        cmocka_unit_test(hints_never_contradict),
        cmocka_unit_test(hint_errors),
        cmocka_unit_test(grade_example_is_easy_without_guessing),
        cmocka_unit_test(grade_swordfish_is_hard_rated_3_8_to_4_6),
        cmocka_unit_test(grade_out_of_budget_is_extreme_and_needs_guessing),
        cmocka_unit_test(explain_example_steps_reach_its_solution),
        cmocka_unit_test(explain_forum_hardest_steps_reach_its_solution),
        cmocka_unit_test(explain_out_of_time_gives_the_steps_so_far),
        cmocka_unit_test(explain_several_solutions_is_422),
        cmocka_unit_test(generate_route),
        cmocka_unit_test(generate_rating),
        cmocka_unit_test(generate_errors),
        cmocka_unit_test(generate_large_seed_replays),
        cmocka_unit_test(routes_methods),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("api_logic", tests, NULL, NULL);
}
