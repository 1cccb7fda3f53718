/* test_api_grade.c - cmocka tests of Sudoku Explainer's numbers over the
 * api (POST /grade and /explain's "engine": "se" path, src/api/api_hint.c),
 * called through api_handle, no socket. The expected ER/EP/ED are SE
 * 1.2.1.3's own output (tests/data/se/, SE ran on them; not ours), and the
 * SE path is checked against the solver's solution. Reads tests/data/. */
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
#include "se_support.h"
#include "sudoku.h"
#include "support.h"
#include "tests.h"

/* The default budget (1 s), one that fits a forum-hardest rating (SE's
 * 11+ puzzles take the rater 1-4 s of CPU), and one nothing fits in. */
static const struct api_context ctx = {.max_nodes = 200000,
                                       .max_body = 16 * 1024};
static const struct api_context roomy = {
    .max_nodes = 200000, .max_body = 16 * 1024, .max_logic_ms = 120000};
static const struct api_context tight = {
    .max_nodes = 200000, .max_body = 16 * 1024, .max_logic_ms = 1};

#define SCALE_MAX 80

/* POSTs {"board": puzzle} (plus `extra` members, "" for none) and returns
 * the parsed 200 answer. */
static cJSON *post(const struct api_context *c, const char *path,
                   const char *puzzle, const char *extra)
{
    struct api_response resp;
    char body[256];
    cJSON *root;

    snprintf(body, sizeof body, "{\"board\": \"%s\"%s}", puzzle, extra);
    at_call(c, "POST", path, AT_JSON, body, &resp);
    if (resp.status != 200)
        fail_msg("%s %s: status %d: %.*s", path, puzzle, resp.status,
                 (int)resp.body_len, resp.body);
    root = at_body_json(&resp);
    api_response_free(&resp);
    return root;
}

static const cJSON *member(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

    if (v == NULL)
        fail_msg("no member \"%s\"", name);
    return v;
}

/* A number of the answer in tenths, -1 for null. */
static int tenths(const cJSON *o, const char *name)
{
    const cJSON *v = member(o, name);

    if (cJSON_IsNull(v))
        return -1;
    assert_true(cJSON_IsNumber(v));
    return (int)(v->valuedouble * 10 + 0.5); /* ratings are >= 0 */
}

/* SE's ER, EP and ED (tests/data/se/), /grade's rating, pearl and diamond,
 * its level from the ER's band and the reference named; the technique
 * counts come from the logic engine, which solves these too. */
static void check_grade(const struct api_context *c, const struct se_rated *p)
{
    cJSON *r = post(c, "/grade", p->puzzle, "");

    if (tenths(r, "rating") != p->er || tenths(r, "pearl") != p->ep ||
        tenths(r, "diamond") != p->ed)
        fail_msg("%s: SE %d/%d/%d, /grade %d/%d/%d", p->puzzle, p->er, p->ep,
                 p->ed, tenths(r, "rating"), tenths(r, "pearl"),
                 tenths(r, "diamond"));
    assert_true(cJSON_IsFalse(member(r, "rating_lower_bound")));
    assert_true(cJSON_IsFalse(member(r, "budget_exhausted")));
    assert_string_equal(support_str(r, "level"), se_level_of(p->er));
    assert_string_equal(support_str(r, "rated_by"),
                        "Sudoku Explainer 1.2.1.3 (gsf's serate)");
    assert_true(cJSON_IsString(member(r, "se_hardest")));
    assert_true(support_num(r, "se_steps") > 0);
    assert_true(cJSON_IsFalse(member(r, "needs_guessing")));
    assert_int_equal((int)support_num(r, "blanks_left"), 0);
    cJSON_Delete(r);
}

static void
grade_answers_se_er_ep_ed_on_53_puzzles_across_the_scale(void **state)
{
    struct se_rated *p = calloc(SCALE_MAX, sizeof(*p));
    size_t n;
    int lo = 120, hi = 0;

    (void)state;
    assert_non_null(p);
    n = se_read_file("tests/data/se/scale", p, SCALE_MAX);
    assert_true(n >= 40);
    for (size_t i = 0; i < n; i++) {
        check_grade(&ctx, &p[i]);
        lo = p[i].er < lo ? p[i].er : lo;
        hi = p[i].er > hi ? p[i].er : hi;
    }
    /* The file spans the scale below the forum's chains. */
    assert_true(lo <= 12 && hi >= 90);
    free(p);
}

/* One of the forum's 11+ puzzles (SE took minutes on it), within a budget
 * the rater fits in: SE's numbers exactly. */
static void grade_of_a_forum_hardest_is_se_given_the_time(void **state)
{
    struct se_rated p[16];
    size_t n = se_read_file("tests/data/se/forum", p, 16), fastest = 3;

    (void)state;
    assert_true(n > fastest);
    /* The fourth line: SE's 11.1/11.1/2.6, the rater's quickest there. */
    assert_int_equal(p[fastest].er, 111);
    check_grade(&roomy, &p[fastest]);
}

/* Out of budget: a 200 whose rating is a lower bound of SE's. */
static void grade_out_of_budget_answers_a_lower_bound(void **state)
{
    struct se_rated p[16];
    size_t n = se_read_file("tests/data/se/forum", p, 16);
    cJSON *r;

    (void)state;
    assert_true(n > 0);
    r = post(&tight, "/grade", p[0].puzzle, "");
    assert_true(cJSON_IsTrue(member(r, "rating_lower_bound")));
    assert_true(cJSON_IsTrue(member(r, "budget_exhausted")));
    assert_string_equal(support_str(r, "level"), "extreme");
    assert_true(tenths(r, "rating") >= 10 && tenths(r, "rating") <= p[0].er);
    assert_true(tenths(r, "pearl") <= p[0].ep);
    assert_true(tenths(r, "diamond") <= p[0].ed);
    cJSON_Delete(r);
}

/* A full board needs no step: rating 1.0 (the API's floor, as before),
 * pearl and diamond null, no SE step, easy. */
static void grade_of_a_full_board_is_easy_with_no_pearl_or_diamond(void **state)
{
    cJSON *r = post(&ctx, "/grade", SUPPORT_EXAMPLE_SOLUTION, "");

    (void)state;
    assert_string_equal(support_str(r, "level"), "easy");
    assert_int_equal(tenths(r, "rating"), 10);
    assert_int_equal(tenths(r, "pearl"), -1);
    assert_int_equal(tenths(r, "diamond"), -1);
    assert_true(cJSON_IsNull(member(r, "se_hardest")));
    assert_int_equal((int)support_num(r, "se_steps"), 0);
    assert_true(cJSON_IsFalse(member(r, "rating_lower_bound")));
    cJSON_Delete(r);
}

/* Applies an SE path's placements to the puzzle: each lands on a blank
 * with the solution's digit; returns the hardest step's rating (tenths). */
static int apply_se_steps(const cJSON *r, const char *puzzle,
                          const char *solution, char *board, int *eliminations)
{
    const cJSON *step;
    int hardest = 0;

    memcpy(board, puzzle, 82);
    cJSON_ArrayForEach(step, member(r, "steps"))
    {
        const cJSON *m, *moves = member(step, "placements");
        int rating = tenths(step, "rating");
        assert_true(strlen(support_str(step, "technique")) > 3);
        assert_true(rating >= 10 && rating <= 120);
        hardest = rating > hardest ? rating : hardest;
        assert_true(cJSON_GetArraySize(moves) <= 1);
        /* every candidate a step removes is one the solution does not
         * have, in a cell still blank */
        cJSON_ArrayForEach(m, member(step, "eliminations"))
        {
            const cJSON *cell = member(m, "cell");
            int c = cJSON_GetArrayItem(cell, 0)->valueint * 9 +
                    cJSON_GetArrayItem(cell, 1)->valueint;
            int d = (int)support_num(m, "digit");
            assert_true(c >= 0 && c < 81 && d >= 1 && d <= 9);
            assert_int_equal(board[c], '.');
            assert_int_not_equal(d, solution[c] - '0');
            (*eliminations)++;
        }
        cJSON_ArrayForEach(m, moves)
        {
            const cJSON *cell = member(m, "cell");
            int c = cJSON_GetArrayItem(cell, 0)->valueint * 9 +
                    cJSON_GetArrayItem(cell, 1)->valueint;
            int d = (int)support_num(m, "digit");
            assert_true(c >= 0 && c < 81);
            assert_int_equal(board[c], '.');
            assert_int_equal(d, solution[c] - '0');
            board[c] = (char)('0' + d);
        }
    }
    return hardest;
}

/* "engine": "se": the steps SE takes, each named and rated by SE, whose
 * placements fill every blank with the solution's digit and whose
 * eliminations are never the solution's; the hardest step is SE's ER, the
 * answer's rating/pearl/diamond SE's three numbers. */
static void
explain_se_path_reaches_the_solution_and_peaks_at_the_er(void **state)
{
    struct se_rated *p = calloc(SCALE_MAX, sizeof(*p));
    size_t n;
    int eliminations = 0;

    (void)state;
    assert_non_null(p);
    n = se_read_file("tests/data/se/scale", p, SCALE_MAX);
    assert_true(n >= 40);
    for (size_t i = 0; i < n; i++) {
        struct sudoku_grid g, sol;
        char solution[82], board[82];
        int solved = 0;
        cJSON *r = post(&ctx, "/explain", p[i].puzzle, ", \"engine\": \"se\"");
        assert_int_equal(sudoku_parse(p[i].puzzle, 81, &g, NULL), SUDOKU_OK);
        sudoku_solve(&g, 0, &sol, &solved, NULL);
        assert_true(solved);
        sudoku_format(&sol, solution);
        assert_string_equal(support_str(r, "engine"), "se");
        assert_true(cJSON_IsTrue(member(r, "complete")));
        assert_true(cJSON_IsNull(member(r, "stopped")));
        assert_int_equal(
            apply_se_steps(r, p[i].puzzle, solution, board, &eliminations),
            p[i].er);
        assert_string_equal(board, solution);
        assert_int_equal(tenths(r, "rating"), p[i].er);
        assert_int_equal(tenths(r, "pearl"), p[i].ep);
        assert_int_equal(tenths(r, "diamond"), p[i].ed);
        assert_string_equal(support_str(r, "level"), se_level_of(p[i].er));
        cJSON_Delete(r);
    }
    /* SE's own steps on these 53 puzzles remove 1,119 candidates the
     * grid still had (tests/tools/SeSteps.java on each; scale_steps holds
     * 24 of the lists, tests/data/se/README.md) */
    assert_int_equal(eliminations, 1119);
    free(p);
}

/* Out of budget the SE path stops, says so, and what it lists is sound. */
static void explain_se_out_of_budget_stops_with_a_lower_bound(void **state)
{
    struct se_rated p[16];
    size_t n = se_read_file("tests/data/se/forum", p, 16);
    struct sudoku_grid g, sol;
    char solution[82], board[82];
    int solved = 0;
    cJSON *r;

    (void)state;
    assert_true(n > 0);
    r = post(&tight, "/explain", p[0].puzzle, ", \"engine\": \"se\"");
    assert_int_equal(sudoku_parse(p[0].puzzle, 81, &g, NULL), SUDOKU_OK);
    sudoku_solve(&g, 0, &sol, &solved, NULL);
    sudoku_format(&sol, solution);
    assert_true(cJSON_IsFalse(member(r, "complete")));
    assert_string_equal(support_str(r, "stopped"), "time_budget");
    assert_true(cJSON_IsTrue(member(r, "rating_lower_bound")));
    int eliminations = 0;
    assert_true(apply_se_steps(r, p[0].puzzle, solution, board,
                               &eliminations) <= p[0].er);
    assert_string_not_equal(board, solution);
    cJSON_Delete(r);
}

/* The default path stays the logic engine's; a bad engine is a 400. */
static void explain_engine_member_is_logic_or_se(void **state)
{
    struct api_response resp;
    cJSON *r;

    (void)state;
    r = post(&ctx, "/explain", SUPPORT_EXAMPLE, "");
    assert_string_equal(support_str(r, "engine"), "logic");
    assert_string_equal(
        support_str(cJSON_GetArrayItem(member(r, "steps"), 0), "technique"),
        "hidden_single");
    cJSON_Delete(r);
    r = post(&ctx, "/explain", SUPPORT_EXAMPLE, ", \"engine\": \"logic\"");
    assert_string_equal(support_str(r, "engine"), "logic");
    cJSON_Delete(r);
    at_call(&ctx, "POST", "/explain", AT_JSON,
            "{\"board\": \"" SUPPORT_EXAMPLE "\", \"engine\": \"hodoku\"}",
            &resp);
    r = at_problem(&resp, 400, "invalid_request");
    assert_string_equal(support_str(r, "pointer"), "/engine");
    cJSON_Delete(r);
    api_response_free(&resp);
}

int test_api_grade(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            grade_answers_se_er_ep_ed_on_53_puzzles_across_the_scale),
        cmocka_unit_test(grade_of_a_forum_hardest_is_se_given_the_time),
        cmocka_unit_test(grade_out_of_budget_answers_a_lower_bound),
        cmocka_unit_test(
            grade_of_a_full_board_is_easy_with_no_pearl_or_diamond),
        cmocka_unit_test(
            explain_se_path_reaches_the_solution_and_peaks_at_the_er),
        cmocka_unit_test(explain_se_out_of_budget_stops_with_a_lower_bound),
        cmocka_unit_test(explain_engine_member_is_logic_or_se),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("api_grade", tests, NULL, NULL);
}
