/* test_killer_solve.c - part of the killer suite (test_killer.c): the
 * solver on tests/data/killer_puzzles, each answer checked by an
 * independent verifier; cages dropped, no solution, partial covers, the
 * node budget, and several threads at once. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "killer.h"
#include "killer_support.h"
#include "sudoku.h"
#include "tests.h"

/* The independent check: rules, givens, and every cage distinct with the
 * right sum. */
static int killer_ok(const struct sudoku_grid *puzzle,
                     const struct killer_cages *k, const struct sudoku_grid *s)
{
    if (!sudoku_is_solution_of(puzzle, s))
        return 0;
    for (unsigned c = 0; c < k->ncages; c++) {
        unsigned seen = 0;
        int sum = 0;
        for (unsigned i = 0; i < k->cage[c].ncells; i++) {
            unsigned d = s->cell[k->row[k->cage[c].first + i] * 9 +
                                 k->col[k->cage[c].first + i]];
            if (seen & (1u << d))
                return 0;
            seen |= 1u << d;
            sum += (int)d;
        }
        if (sum != k->cage[c].sum)
            return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------- solve */

static void every_killer_of_the_set_has_one_solution(void **state)
{
    struct kt_puzzle *set = malloc(KT_MAX_PUZZLES * sizeof(*set));
    size_t n, blanks = 0, with_givens = 0;

    (void)state;
    assert_non_null(set);
    n = kt_load_set(set, KT_MAX_PUZZLES);
    assert_true(n >= 50);
    for (size_t i = 0; i < n; i++) {
        struct sudoku_grid sol;
        struct sudoku_stats st;
        unsigned count = 0;
        assert_int_equal(killer_count(&set[i].puzzle, &set[i].cages, 2, 0, &sol,
                                      &count, &st),
                         KILLER_OK);
        if (count != 1)
            fail_msg("puzzle %zu: %u solutions", i + 1, count);
        assert_memory_equal(&sol, &set[i].solution, sizeof(sol));
        assert_true(killer_ok(&set[i].puzzle, &set[i].cages, &sol));
        assert_true(st.nodes >= 1);
        blanks += set[i].givens == 0;
        with_givens += set[i].givens > 0;
    }
    assert_true(blanks >= 20);
    assert_true(with_givens >= 10);
    free(set);
}

/* Dropping cages never loses the solution; dropping enough of them lets in
 * a second one (one cage alone is often implied by the rule of 45). */
static void dropping_cages_keeps_the_solution_and_lets_in_others(void **state)
{
    struct kt_puzzle *set = malloc(KT_MAX_PUZZLES * sizeof(*set));
    unsigned drop, count = 0;

    (void)state;
    assert_non_null(set);
    assert_true(kt_load_set(set, 1) == 1);
    for (drop = 1; drop <= set[0].cages.ncages; drop++) {
        struct killer_cages k;
        struct sudoku_grid sol;
        killer_init(&k);
        for (unsigned c = drop; c < set[0].cages.ncages; c++) {
            const struct killer_cage *cg = &set[0].cages.cage[c];
            killer_add_cage(&k, cg->sum);
            for (unsigned i = 0; i < cg->ncells; i++)
                killer_add_cell(&k, set[0].cages.row[cg->first + i],
                                set[0].cages.col[cg->first + i]);
        }
        assert_int_equal(
            killer_count(&set[0].puzzle, &k, 2, 0, &sol, &count, NULL),
            KILLER_OK);
        assert_true(count >= 1);
        assert_true(killer_ok(&set[0].puzzle, &k, &sol));
        if (count == 2)
            break;
    }
    assert_int_equal(count, 2);
    assert_true(drop < set[0].cages.ncages);
    free(set);
}

/* three 1+2 pairs in box 0: fine cage by cage, impossible together */
static void cages_impossible_together_count_0(void **state)
{
    struct sudoku_grid g = kt_grid_of(kt_blank), sol;
    struct killer_cages k;
    struct sudoku_stats st;
    unsigned count = 9;

    (void)state;
    kt_parse_ok("3:11,12;3:21,22;3:31,32", &k);
    assert_int_equal(killer_count(&g, &k, 2, 0, &sol, &count, &st), KILLER_OK);
    assert_int_equal(count, 0);
}

/* a row filled by cages totalling 46 (rule of 45): no search at all */
static void cages_breaking_the_rule_of_45_count_0_unsearched(void **state)
{
    struct sudoku_grid g = kt_grid_of(kt_blank), sol;
    struct killer_cages k;
    struct sudoku_stats st;
    unsigned count = 9;

    (void)state;
    kt_parse_ok("6:11,12,13;16:14,15,16;24:17,18,19", &k);
    assert_int_equal(killer_count(&g, &k, 2, 0, &sol, &count, &st), KILLER_OK);
    assert_int_equal(count, 0);
    assert_int_equal(st.nodes, 0);
}

/* givens that break the 9x9 rules */
static void givens_breaking_the_rules_count_0_with_cages(void **state)
{
    struct sudoku_grid g = kt_grid_of(kt_blank), sol;
    struct killer_cages k;
    struct sudoku_stats st;
    unsigned count = 9;
    char board[SUDOKU_CELLS + 1];

    (void)state;
    memcpy(board, kt_blank, sizeof(board));
    board[0] = board[80] = '5';
    board[8] = '5';
    g = kt_grid_of(board);
    kt_parse_ok("10:55,56", &k);
    assert_int_equal(killer_count(&g, &k, 2, 0, &sol, &count, &st), KILLER_OK);
    assert_int_equal(count, 0);
}

/* bad cages: the check's status, nothing searched */
static void bad_cages_answer_the_check_status_unsearched(void **state)
{
    struct sudoku_grid g = kt_grid_of(kt_blank), sol;
    struct killer_cages k;
    struct sudoku_stats st;
    unsigned count = 9;

    (void)state;
    g = kt_grid_of(kt_blank);
    kt_parse_ok("3:11,13", &k);
    count = 9;
    assert_int_equal(killer_count(&g, &k, 2, 0, &sol, &count, &st),
                     KILLER_NOT_CONNECTED);
    assert_int_equal(count, 0);
    assert_int_equal(st.nodes, 0);
}

static void partial_cover_and_single_cells(void **state)
{
    struct kt_puzzle *set = malloc(KT_MAX_PUZZLES * sizeof(*set));
    struct sudoku_grid g = kt_grid_of(kt_blank), sol;
    struct killer_cages k;
    unsigned count = 0;

    (void)state;
    assert_non_null(set);
    assert_true(kt_load_set(set, 1) == 1);
    /* one cage over part of a blank grid: many solutions, each obeys it */
    kt_parse_ok("24:11,12,13", &k);
    assert_int_equal(killer_count(&g, &k, 2, 0, &sol, &count, NULL), KILLER_OK);
    assert_int_equal(count, 2);
    assert_true(killer_ok(&g, &k, &sol));
    assert_int_equal(sol.cell[0] + sol.cell[1] + sol.cell[2], 24);
    /* one-cell cages act as givens */
    killer_init(&k);
    for (int x = 0; x < SUDOKU_CELLS; x++) {
        if ((x / 9 + x) % 3 == 0) /* (columns 0, 3, 6 would leave two) */
            continue;
        killer_add_cage(&k, set[0].solution.cell[x]);
        killer_add_cell(&k, x / 9, x % 9);
    }
    assert_int_equal(killer_count(&g, &k, 2, 0, &sol, &count, NULL), KILLER_OK);
    assert_int_equal(count, 1);
    assert_memory_equal(&sol, &set[0].solution, sizeof(sol));
    free(set);
}

/* The set, and in *hard a puzzle of it (not the first) that takes more
 * than 5 nodes. */
static struct kt_puzzle *set_with_hard(size_t *hard)
{
    struct kt_puzzle *set = malloc(KT_MAX_PUZZLES * sizeof(*set));
    size_t n;
    struct sudoku_stats st;
    unsigned count = 0;

    assert_non_null(set);
    *hard = 0;
    n = kt_load_set(set, KT_MAX_PUZZLES);
    for (size_t i = 1; i < n; i++) {
        killer_count(&set[i].puzzle, &set[i].cages, 2, 0, NULL, &count, &st);
        if (st.nodes > 5)
            *hard = i;
    }
    assert_true(*hard > 0);
    return set;
}

static void budget_of_5_nodes_stops_a_harder_killer(void **state)
{
    size_t hard;
    struct kt_puzzle *set = set_with_hard(&hard);
    struct sudoku_stats st;
    struct sudoku_grid sol;
    unsigned count = 0;

    (void)state;
    assert_int_equal(killer_count(&set[hard].puzzle, &set[hard].cages, 2, 5,
                                  &sol, &count, &st),
                     KILLER_BUDGET);
    assert_int_equal(st.nodes, 5);
    assert_true(count <= 1);
    free(set);
}

/* 0 is no bound */
static void budget_0_is_no_bound_for_a_killer(void **state)
{
    size_t hard;
    struct kt_puzzle *set = set_with_hard(&hard);
    struct sudoku_stats st;
    struct sudoku_grid sol;
    unsigned count = 0;

    (void)state;
    assert_int_equal(killer_count(&set[hard].puzzle, &set[hard].cages, 2, 0,
                                  &sol, &count, &st),
                     KILLER_OK);
    assert_int_equal(count, 1);
    free(set);
}

struct job {
    const struct kt_puzzle *set;
    size_t n;
    int ok;
};

static void *solve_all(void *arg)
{
    struct job *j = arg;

    j->ok = 1;
    for (size_t i = 0; i < j->n; i++) {
        struct sudoku_grid sol;
        unsigned count = 0;
        if (killer_count(&j->set[i].puzzle, &j->set[i].cages, 2, 0, &sol,
                         &count, NULL) != KILLER_OK ||
            count != 1 || memcmp(&sol, &j->set[i].solution, sizeof(sol)) != 0)
            j->ok = 0;
    }
    return NULL;
}

static void four_threads_solve_the_killer_set_at_once(void **state)
{
    struct kt_puzzle *set = malloc(KT_MAX_PUZZLES * sizeof(*set));
    struct job jobs[4];
    pthread_t th[4];
    size_t n;

    (void)state;
    assert_non_null(set);
    n = kt_load_set(set, 40);
    for (int t = 0; t < 4; t++) {
        jobs[t] = (struct job){set, n, 0};
        assert_int_equal(pthread_create(&th[t], NULL, solve_all, &jobs[t]), 0);
    }
    for (int t = 0; t < 4; t++) {
        pthread_join(th[t], NULL);
        assert_true(jobs[t].ok);
    }
    free(set);
}

int test_killer_solve(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_killer_of_the_set_has_one_solution),
        cmocka_unit_test(dropping_cages_keeps_the_solution_and_lets_in_others),
        cmocka_unit_test(cages_impossible_together_count_0),
        cmocka_unit_test(cages_breaking_the_rule_of_45_count_0_unsearched),
        cmocka_unit_test(givens_breaking_the_rules_count_0_with_cages),
        cmocka_unit_test(bad_cages_answer_the_check_status_unsearched),
        cmocka_unit_test(partial_cover_and_single_cells),
        cmocka_unit_test(budget_of_5_nodes_stops_a_harder_killer),
        cmocka_unit_test(budget_0_is_no_bound_for_a_killer),
        cmocka_unit_test(four_threads_solve_the_killer_set_at_once),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("killer_solve", tests, NULL, NULL);
}
