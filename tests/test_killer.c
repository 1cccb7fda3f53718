/* test_killer.c - the killer suite: cmocka tests of killer sudoku
 * (src/engine/killer/killer.c and src/engine/killer/killer_search.c). This
 * part: the combination table, the text format and every kind of cage problem;
 * test_killer() also runs the part test_killer_solve.c (helpers in
 * killer_support.c). */
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

static enum killer_status check_text(const char *board, const char *cages,
                                     struct killer_error *err)
{
    struct killer_cages k;
    struct sudoku_grid g = kt_grid_of(board);

    kt_parse_ok(cages, &k);
    return killer_check(&g, &k, err);
}

/* ------------------------------------------------------- combinations */

static void every_digit_set_is_listed_once_under_its_size_and_sum(void **state)
{
    unsigned seen[512] = {0}, total = 0;
    const uint16_t *sets;

    (void)state;
    for (int size = 1; size <= 9; size++)
        for (int sum = 0; sum <= 45; sum++) {
            unsigned n = killer_combinations(size, sum, &sets);
            int lo = size * (size + 1) / 2, hi = size * (19 - size) / 2;
            /* every sum between the least and the most is reachable */
            assert_int_equal(n > 0, sum >= lo && sum <= hi);
            for (unsigned i = 0; i < n; i++) {
                int s = 0;
                assert_int_equal(__builtin_popcount(sets[i]), size);
                for (int d = 1; d <= 9; d++)
                    s += sets[i] & (1u << (d - 1)) ? d : 0;
                assert_int_equal(s, sum);
                assert_true(sets[i] > 0 && sets[i] < 512);
                seen[sets[i]]++;
                total++;
            }
        }
    assert_int_equal(total, 511);
    for (int m = 1; m < 512; m++)
        assert_int_equal(seen[m], 1);
    assert_int_equal(killer_combinations(2, 3, &sets), 1);
    assert_int_equal(sets[0], 0x003); /* {1,2} */
    assert_int_equal(killer_combinations(2, 17, &sets), 1);
    assert_int_equal(sets[0], 0x180); /* {8,9} */
    assert_int_equal(killer_combinations(2, 10, &sets), 4);
    assert_int_equal(killer_combinations(3, 15, &sets), 8);
    assert_int_equal(killer_combinations(4, 20, &sets), 12);
    assert_int_equal(killer_combinations(9, 45, &sets), 1);
    assert_int_equal(sets[0], 0x1ff);
    assert_int_equal(killer_combinations(0, 0, &sets), 0);
    assert_int_equal(killer_combinations(10, 45, &sets), 0);
    assert_int_equal(killer_combinations(2, -1, &sets), 0);
    assert_int_equal(killer_combinations(2, 46, &sets), 0);
    assert_int_equal(killer_combinations(1, 1000000, &sets), 0);
}

/* ---------------------------------------------------------------- text */

static void parse_and_format(void **state)
{
    struct killer_cages k;
    char out[256];

    (void)state;
    kt_parse_ok(" 3 : 11 , 12 ; 15:13,23,33 ;", &k);
    assert_int_equal(k.ncages, 2);
    assert_int_equal(k.ncells, 5);
    assert_int_equal(k.cage[0].sum, 3);
    assert_int_equal(k.cage[1].sum, 15);
    assert_int_equal(k.cage[1].first, 2);
    assert_int_equal(k.cage[1].ncells, 3);
    assert_int_equal(k.row[4], 2);
    assert_int_equal(k.col[4], 2);
    assert_int_equal(killer_format(&k, out, sizeof(out)), 19);
    assert_string_equal(out, "3:11,12;15:13,23,33");
    /* the text stops at '|' */
    kt_parse_ok("7:99|123", &k);
    assert_int_equal(k.ncages, 1);
    assert_int_equal(k.row[0], 8);
    /* digit 0 is kept as -1 for killer_check; sums are as written */
    kt_parse_ok("999999:01", &k);
    assert_int_equal(k.row[0], -1);
    assert_int_equal(k.col[0], 0);
    assert_int_equal(k.cage[0].sum, 999999);
    /* a short buffer keeps whole pieces only, and says what it needs */
    kt_parse_ok("3:11,12;15:13,23,33", &k);
    assert_int_equal(killer_format(&k, out, 10), 19);
    assert_string_equal(out, "3:11,12");
}

static void parse_errors_point_at_the_bad_character(void **state)
{
    static const struct {
        const char *text;
        size_t bad;
    } cases[] = {
        {"", 0},        {"3", 1},          {"3:", 2},    {":11", 0},
        {"3:1", 2},     {"3:1x", 2},       {"3:11,", 5}, {"3:11;;4:22", 5},
        {"3:11 12", 5}, {"1234567:11", 6}, {"3:111", 4}, {"x", 0},
    };
    struct killer_cages k;

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        size_t bad = 999;
        if (killer_parse(cases[i].text, strlen(cases[i].text), &k, &bad) !=
            KILLER_BAD_TEXT)
            fail_msg("'%s' parsed", cases[i].text);
        if (bad != cases[i].bad)
            fail_msg("'%s': bad at %zu, want %zu", cases[i].text, bad,
                     cases[i].bad);
    }
}

/* --------------------------------------------------------------- checks */

static void check_out_of_range(void **state)
{
    struct killer_error err;
    struct killer_cages k;
    struct sudoku_grid g = kt_grid_of(kt_blank);
    char msg[200];

    (void)state;
    killer_init(&k);
    killer_add_cage(&k, 3);
    killer_add_cell(&k, 0, 0);
    killer_add_cage(&k, 10);
    killer_add_cell(&k, 0, 8);
    killer_add_cell(&k, 0, 9);
    assert_int_equal(killer_check(&g, &k, &err), KILLER_CELL_OUT_OF_RANGE);
    assert_int_equal(err.cage, 1);
    assert_int_equal(err.ncells, 1);
    assert_int_equal(err.row[0], 0);
    assert_int_equal(err.col[0], 9);
    killer_describe(KILLER_CELL_OUT_OF_RANGE, &err, 0, msg, sizeof(msg));
    assert_non_null(strstr(msg, "cage 1"));
    assert_non_null(strstr(msg, "[0,9]"));
    killer_describe(KILLER_CELL_OUT_OF_RANGE, &err, 1, msg, sizeof(msg));
    assert_non_null(strstr(msg, "cage 2"));
    assert_non_null(strstr(msg, "r1c10"));
    /* negative too, and range comes before every other check */
    killer_init(&k);
    killer_add_cage(&k, 1000);
    killer_add_cell(&k, 4, 4);
    killer_add_cell(&k, 4, 4);
    killer_add_cell(&k, -1, 3);
    assert_int_equal(killer_check(&g, &k, &err), KILLER_CELL_OUT_OF_RANGE);
    assert_int_equal(err.row[0], -1);
}

static void check_overlap(void **state)
{
    struct killer_error err;
    char msg[200];

    (void)state;
    assert_int_equal(check_text(kt_blank, "3:11,12;9:21;5:12,22", &err),
                     KILLER_OVERLAP);
    assert_int_equal(err.cage, 2);
    assert_int_equal(err.other_cage, 0);
    assert_int_equal(err.ncells, 1);
    assert_int_equal(err.row[0], 0);
    assert_int_equal(err.col[0], 1);
    killer_describe(KILLER_OVERLAP, &err, 0, msg, sizeof(msg));
    assert_string_equal(msg, "cages 0 and 2 share a cell: [0,1]");
    /* the same cell twice in one cage */
    assert_int_equal(check_text(kt_blank, "3:11;7:55,56,55", &err),
                     KILLER_OVERLAP);
    assert_int_equal(err.cage, 1);
    assert_int_equal(err.other_cage, 1);
    killer_describe(KILLER_OVERLAP, &err, 1, msg, sizeof(msg));
    assert_string_equal(msg, "cage 2 lists a cell twice: r5c5");
}

static void check_not_connected(void **state)
{
    struct killer_error err;

    (void)state;
    /* diagonal neighbours do not connect */
    assert_int_equal(check_text(kt_blank, "3:11,22", &err),
                     KILLER_NOT_CONNECTED);
    assert_int_equal(err.cage, 0);
    assert_int_equal(err.ncells, 1);
    assert_int_equal(err.row[0], 1);
    assert_int_equal(err.col[0], 1);
    /* two groups: the one away from the first cell is reported */
    assert_int_equal(check_text(kt_blank, "5:44;15:11,12,19,29", &err),
                     KILLER_NOT_CONNECTED);
    assert_int_equal(err.cage, 1);
    assert_int_equal(err.ncells, 2);
    assert_int_equal(err.col[0], 8);
    assert_int_equal(err.col[1], 8);
    /* row ends do not wrap around */
    assert_int_equal(check_text(kt_blank, "10:19,21", &err),
                     KILLER_NOT_CONNECTED);
    /* a snake through a box is fine */
    assert_int_equal(check_text(kt_blank, "30:11,12,13,23,22,21", &err),
                     KILLER_OK);
}

static void check_sum_impossible(void **state)
{
    static const char *const bad[] = {
        "2:11,12",  /* least for 2 cells is 3 */
        "18:11,12", /* most is 17 */
        "0:11",     /* one cell: 1-9 */
        "10:11",
        "-1:11",
        "46:11,12,13,14,15,16,17,18,19",
        "44:11,12,13,14,15,16,17,18,19",
        "999999:11,12,13",
        "45:11,12,13,14,15,16,17,18,19,29", /* 10 cells */
    };
    struct killer_error err;
    struct killer_cages k;
    struct sudoku_grid g = kt_grid_of(kt_blank);
    char msg[200];

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (bad[i][0] == '-') {
            killer_init(&k);
            killer_add_cage(&k, -1);
            killer_add_cell(&k, 0, 0);
        } else {
            kt_parse_ok(bad[i], &k);
        }
        if (killer_check(&g, &k, &err) != KILLER_SUM_IMPOSSIBLE)
            fail_msg("'%s' passed", bad[i]);
        assert_int_equal(err.cage, 0);
        assert_int_equal(err.ncells, k.cage[0].ncells);
    }
    assert_int_equal(check_text(kt_blank, "17:11,12", &err), KILLER_OK);
    assert_int_equal(
        check_text(kt_blank, "45:11,12,13,14,15,16,17,18,19", &err), KILLER_OK);
    assert_int_equal(check_text(kt_blank, "3:11,12;30:21,22", &err),
                     KILLER_SUM_IMPOSSIBLE);
    killer_describe(KILLER_SUM_IMPOSSIBLE, &err, 0, msg, sizeof(msg));
    assert_string_equal(msg, "cage 1: 2 distinct digits cannot add up to 30 "
                             "(only 3 to 17)");
    /* a cage with no cell (never made by the decoders) */
    killer_init(&k);
    killer_add_cage(&k, 5);
    assert_int_equal(killer_check(&g, &k, &err), KILLER_SUM_IMPOSSIBLE);
}

/* 81 one-cell cages of grid s, with `delta` added to the first sum. */
static void single_cages(const struct sudoku_grid *s, int delta,
                         struct killer_cages *k)
{
    killer_init(k);
    for (int x = 0; x < SUDOKU_CELLS; x++) {
        killer_add_cage(k, s->cell[x] + (x == 0 ? delta : 0));
        killer_add_cell(k, x / 9, x % 9);
    }
}

static void check_total_405(void **state)
{
    struct sudoku_grid g = kt_grid_of(kt_blank), sol;
    struct killer_cages k;
    struct killer_error err;
    struct sudoku_stats st;
    unsigned count = 9;
    struct kt_puzzle *set = malloc(KT_MAX_PUZZLES * sizeof(*set));

    (void)state;
    assert_non_null(set);
    assert_true(kt_load_set(set, 1) == 1);
    /* 81 one-cell cages, one sum off: each is possible, the total is not */
    int delta = set[0].solution.cell[0] == 9 ? -1 : 1;
    single_cages(&set[0].solution, delta, &k);
    assert_int_equal(killer_check(&g, &k, &err), KILLER_TOTAL_NOT_405);
    assert_int_equal(err.cage, -1);
    assert_int_equal(err.total, 405 + delta);
    /* right: the grid itself, found without a guess */
    single_cages(&set[0].solution, 0, &k);
    assert_int_equal(killer_count(&g, &k, 2, 0, &sol, &count, &st), KILLER_OK);
    assert_int_equal(count, 1);
    assert_memory_equal(&sol, &set[0].solution, sizeof(sol));
    assert_int_equal(st.guesses, 0);
    /* the puzzle's own cages cover the grid and total 405 */
    assert_int_equal(set[0].cages.ncells, 81);
    assert_int_equal(killer_check(&set[0].puzzle, &set[0].cages, NULL),
                     KILLER_OK);
    free(set);
}

static void check_given_conflict(void **state)
{
    struct killer_error err;
    char board[SUDOKU_CELLS + 1];
    char msg[300];

    (void)state;
    memcpy(board, kt_blank, sizeof(board));
    /* 2 and 2 in one cage (also a row conflict, not checked here) */
    board[0] = '2';
    board[1] = '2';
    assert_int_equal(check_text(board, "4:11,12", &err), KILLER_GIVEN_CONFLICT);
    assert_int_equal(err.digit, 2);
    assert_int_equal(err.ncells, 2);
    killer_describe(KILLER_GIVEN_CONFLICT, &err, 0, msg, sizeof(msg));
    assert_string_equal(msg, "cage 0 holds the given 2 twice: [0,0], [0,1]");
    /* a given bigger than the cage allows */
    memcpy(board, kt_blank, sizeof(board));
    board[10] = '9';
    assert_int_equal(check_text(board, "3:11;5:21,22", &err),
                     KILLER_GIVEN_CONFLICT);
    assert_int_equal(err.cage, 1);
    assert_int_equal(err.digit, 0);
    assert_int_equal(err.ncells, 1);
    assert_int_equal(err.row[0], 1);
    assert_int_equal(err.col[0], 1);
    /* 1 given in a 3-cell cage of 8: the others would need 7 = 3+4, 2+5,
     * 1+6; fine. With 4 given: 4 = 1+3 only: fine. With 5: 3 = 1+2: fine.
     * With 6: 2 = no two distinct digits: broken. */
    board[10] = '6';
    assert_int_equal(check_text(board, "8:21,22,23", &err),
                     KILLER_GIVEN_CONFLICT);
    board[10] = '5';
    assert_int_equal(check_text(board, "8:21,22,23", &err), KILLER_OK);
    /* a full cage with the wrong total */
    board[10] = '5';
    board[11] = '4';
    assert_int_equal(check_text(board, "8:22,23", &err), KILLER_GIVEN_CONFLICT);
    assert_int_equal(check_text(board, "9:22,23", &err), KILLER_OK);
    /* 5 and 8 given in a 3-cell cage: of 14 the last cell is 1, fine; of
     * 12 it would be -1. */
    board[11] = '8';
    assert_int_equal(check_text(board, "14:22,23,24", &err), KILLER_OK);
    assert_int_equal(check_text(board, "12:22,23,24", &err),
                     KILLER_GIVEN_CONFLICT);
}

static void check_order_and_truncation(void **state)
{
    struct killer_error err;
    struct killer_cages k;
    struct sudoku_grid g = kt_grid_of(kt_blank);

    (void)state;
    /* range is checked over every cage before overlap */
    assert_int_equal(check_text(kt_blank, "3:11,12;3:11;30:00", &err),
                     KILLER_CELL_OUT_OF_RANGE);
    assert_int_equal(err.cage, 2);
    /* overlap before connection, connection before sums */
    assert_int_equal(check_text(kt_blank, "99:11,33;3:55,55", &err),
                     KILLER_OVERLAP);
    assert_int_equal(check_text(kt_blank, "99:11,12;3:55,57", &err),
                     KILLER_NOT_CONNECTED);
    /* more cells than the list holds: never accepted */
    killer_init(&k);
    for (int i = 0; i < 90; i++) {
        killer_add_cage(&k, 5);
        killer_add_cell(&k, i / 9 % 9, i % 9);
    }
    assert_true(k.truncated);
    assert_int_equal(k.ncells, KILLER_MAX_CELLS);
    assert_int_equal(killer_check(&g, &k, &err), KILLER_OVERLAP);
    assert_int_equal(err.cage, 81);
    killer_init(&k);
    killer_add_cage(&k, 45);
    for (int i = 0; i < 100; i++)
        killer_add_cell(&k, i / 9, i % 9);
    assert_int_equal(killer_check(&g, &k, &err), KILLER_CELL_OUT_OF_RANGE);
    /* cells before any cage */
    killer_init(&k);
    killer_add_cell(&k, 0, 0);
    assert_true(k.truncated);
}

int test_killer(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_digit_set_is_listed_once_under_its_size_and_sum),
        cmocka_unit_test(parse_and_format),
        cmocka_unit_test(parse_errors_point_at_the_bad_character),
        cmocka_unit_test(check_out_of_range),
        cmocka_unit_test(check_overlap),
        cmocka_unit_test(check_not_connected),
        cmocka_unit_test(check_sum_impossible),
        cmocka_unit_test(check_total_405),
        cmocka_unit_test(check_given_conflict),
        cmocka_unit_test(check_order_and_truncation),
    };
    unsigned n = 0;
    int failed;

    failed = cmocka_run_group_tests_name("killer", tests, NULL, NULL);
    failed += test_killer_solve(&n);
    *ntests = TESTS_COUNT(tests) + n;
    return failed;
}
