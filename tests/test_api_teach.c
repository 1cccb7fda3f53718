/* test_api_teach.c - cmocka tests of /hint, /grade and /explain for killer
 * and for every size and rule (src/api/api_teach.c, src/codec/
 * codec_teach.c), called directly with request values, no socket: 200s in
 * the classic answers' shape, every placement and elimination checked
 * against the solution (the killer file's, checked here by sums and
 * units; a variant's by the tests' own verifier). Reads tests/data, so run
 * from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "killer_support.h"
#include "support.h"
#include "tests.h"
#include "variant_support.h"

static const char *str(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    assert_true(cJSON_IsString(v));
    return v->valuestring;
}

static const cJSON *member(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    assert_non_null(v);
    return v;
}

/* Every move of a step's "placements" (want 1) or "eliminations" (want
 * 0) agrees with sol (n * n characters): a placement is the solution's
 * digit, an elimination never is. Returns how many moves there were. */
static unsigned moves_agree(const cJSON *step, const char *name, int want,
                            const char *sol, unsigned n)
{
    const cJSON *m;
    unsigned count = 0;

    cJSON_ArrayForEach(m, member(step, name))
    {
        const cJSON *cell = member(m, "cell");
        int r = cJSON_GetArrayItem(cell, 0)->valueint,
            c = cJSON_GetArrayItem(cell, 1)->valueint,
            d = member(m, "digit")->valueint;
        assert_true(r >= 0 && r < (int)n && c >= 0 && c < (int)n);
        assert_int_equal(variant_value_of(sol[r * (int)n + c]) == d, want);
        count++;
    }
    return count;
}

/* The checks of one step object of a hint or an explanation. */
static void step_agrees(const cJSON *step, const char *sol, unsigned n)
{
    unsigned moves = moves_agree(step, "placements", 1, sol, n) +
                     moves_agree(step, "eliminations", 0, sol, n);

    assert_true(moves > 0);
    assert_true(strlen(str(step, "technique")) > 0);
    assert_true(strlen(str(step, "explanation")) > 0);
    assert_true(cJSON_IsArray(member(step, "units")));
    assert_true(cJSON_IsArray(member(step, "cells")));
    assert_true(cJSON_IsArray(member(step, "digits")));
    assert_true(cJSON_IsNumber(member(step, "rating")));
}

/* /hint, /grade and /explain of body: 200s, the steps agree with sol, the
 * explanation reaches sol (the walk must solve it when `must_solve`). */
static void three_routes(const char *body, const char *sol, unsigned n,
                         int must_solve)
{
    static const char *const levels[] = {"easy", "medium", "hard", "expert",
                                         "extreme"};
    cJSON *hint = variant_post("/hint", body, 200);
    cJSON *grade = variant_post("/grade", body, 200);
    cJSON *ex = variant_post("/explain", body, 200);
    const cJSON *s;
    char solution[26 * 26];
    int level_known = 0, complete;

    step_agrees(hint, sol, n);
    assert_string_equal(str(hint, "rating_scale"), "sudokud_variant");
    for (size_t i = 0; i < 5; i++)
        level_known |= strcmp(str(grade, "level"), levels[i]) == 0;
    assert_true(level_known);
    assert_true(member(grade, "rating")->valuedouble >= 1.0);
    assert_true(cJSON_IsObject(member(grade, "techniques")));
    assert_string_equal(str(grade, "rating_scale"), "sudokud_variant");
    cJSON_ArrayForEach(s, member(ex, "steps")) step_agrees(s, sol, n);
    variant_board_text(member(ex, "solution"), n, 0, solution);
    assert_memory_equal(solution, sol, n * n);
    complete = cJSON_IsTrue(member(ex, "complete"));
    assert_int_equal(complete, !cJSON_IsTrue(member(grade, "needs_guessing")));
    if (must_solve)
        assert_true(complete);
    cJSON_Delete(hint);
    cJSON_Delete(grade);
    cJSON_Delete(ex);
}

/* ------------------------------------------------------------------------
 * Killer
 * ------------------------------------------------------------------------ */

static void killer_puzzles_get_hints_grades_and_explanations(void **state)
{
    enum { COUNT = 5 };
    static struct kt_puzzle set[COUNT];
    static char cages[16384], body[20000];
    size_t n = kt_load_set(set, COUNT);

    (void)state;
    assert_int_equal(n, COUNT);
    for (size_t i = 0; i < n; i++) {
        char board[82], sol[82];
        sudoku_format(&set[i].puzzle, board);
        sudoku_format(&set[i].solution, sol);
        kt_cages_json(&set[i].cages, cages, sizeof(cages));
        snprintf(body, sizeof(body), "{\"board\": \"%s\", \"cages\": %s}",
                 board, cages);
        three_routes(body, sol, 9, 1);
    }
}

/* The killer steps of an explanation name their cage ("unit": "cage"),
 * carry its sum and the digit sets that fit; the 45-rule steps their sum.
 * The first puzzle of the file has no givens, so its walk must start from
 * the cages alone. */
static void killer_steps_name_their_cage_and_sum(void **state)
{
    static struct kt_puzzle set[1];
    static char cages[16384], body[20000];
    unsigned cage_steps = 0;
    const cJSON *s;
    cJSON *ex;
    char board[82];

    (void)state;
    assert_int_equal(kt_load_set(set, 1), 1);
    sudoku_format(&set[0].puzzle, board);
    kt_cages_json(&set[0].cages, cages, sizeof(cages));
    snprintf(body, sizeof(body), "{\"board\": \"%s\", \"cages\": %s}", board,
             cages);
    ex = variant_post("/explain", body, 200);
    cJSON_ArrayForEach(s, member(ex, "steps"))
    {
        const char *t = str(s, "technique");
        if (strcmp(t, "cage_combination") == 0) {
            const cJSON *u = cJSON_GetArrayItem(member(s, "units"), 0);
            int index = member(u, "index")->valueint;
            assert_string_equal(str(u, "unit"), "cage");
            assert_int_equal(member(s, "sum")->valueint,
                             set[0].cages.cage[index].sum);
            assert_true(cJSON_GetArraySize(member(s, "combinations")) > 0);
            cage_steps++;
        }
        if (strcmp(t, "innies") == 0 || strcmp(t, "outies") == 0)
            assert_true(cJSON_IsNumber(member(s, "sum")));
    }
    assert_true(cage_steps > 0);
    cJSON_Delete(ex);
}

/* ------------------------------------------------------------------------
 * Every size and rule, from POST /generate
 * ------------------------------------------------------------------------ */

#define JIGSAW9                                                                \
    "AAAABBCCCAAABBBCCCAABBBBCCCDDDEEEEFFDDDEEFFFFDDDEEEFFFGGGHHHIIIGGGHHHIII" \
    "GGGHHHIII"

static void every_size_and_rule_gets_hints_grades_and_explanations(
    void **state)
{
    static const struct variant_rules rules[] = {
        {4, 2, NULL, 0, 0, 0, 0},   {6, 2, NULL, 0, 0, 0, 0},
        {8, 2, NULL, 1, 0, 0, 0},   {9, 3, NULL, 1, 0, 0, 0},
        {9, 3, NULL, 0, 1, 0, 0},   {9, 3, NULL, 0, 0, 1, 0},
        {9, 3, JIGSAW9, 0, 0, 0, 0}, {9, 3, NULL, 0, 0, 0, 1},
        {12, 3, NULL, 0, 0, 0, 0},  {16, 4, NULL, 0, 0, 0, 0},
    };
    static char gen[8192], more[4096], body[16384], puzzle[700], sol[700];

    (void)state;
    for (size_t k = 0; k < sizeof(rules) / sizeof(rules[0]); k++) {
        const struct variant_rules *r = &rules[k];
        cJSON *root;
        variant_members(r, more, sizeof(more));
        snprintf(gen, sizeof(gen), "{\"size\":%u,\"seed\":%u%s}", r->n,
                 11 + (unsigned)k, more);
        root = variant_post("/generate", gen, 200);
        variant_board_text(member(root, "puzzle"), r->n, 0, puzzle);
        variant_board_text(member(root, "solution"), r->n, 0, sol);
        cJSON_Delete(root);
        variant_verify(r, puzzle, sol);
        variant_body_of(r, puzzle, 0, body, sizeof(body));
        /* 16x16 may run out of the 1 s budget: a 200 that says so */
        three_routes(body, sol, r->n, r->n < 16);
    }
}

/* A solved variant board gets the classic 422 already_solved from /hint. */
static void a_solved_variant_board_gets_already_solved(void **state)
{
    static const struct variant_rules r = {6, 2, NULL, 0, 0, 0, 0};
    static char grid[64], body[1024];

    (void)state;
    variant_formula(&r, grid);
    variant_body_of(&r, grid, 0, body, sizeof(body));
    variant_problem("/hint", body, 422, "already_solved", NULL);
}

int test_api_teach(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(killer_puzzles_get_hints_grades_and_explanations),
        cmocka_unit_test(killer_steps_name_their_cage_and_sum),
        cmocka_unit_test(
            every_size_and_rule_gets_hints_grades_and_explanations),
        cmocka_unit_test(a_solved_variant_board_gets_already_solved),
    };
    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("api_teach", tests, NULL, NULL);
}
