/* test_killer.c - cmocka tests of killer sudoku (src/killer.c and
 * src/killer_search.c): the combination table, the text format, every kind
 * of cage problem, and the solver on tests/data/killer_puzzles (run from
 * the repository root), checked by an independent verifier. */
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
#include "sudoku.h"
#include "tests.h"

#define KILLER_FILE "tests/data/killer_puzzles"
#define MAX_PUZZLES 200

struct kp {
    struct sudoku_grid puzzle, solution;
    struct killer_cages cages;
    unsigned givens;
};

#define ROW9 "........."
static const char blank[] = ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ROW9;

/* Reads tests/data/killer_puzzles once per test that needs it. */
static size_t load_set(struct kp *out, size_t max)
{
    char line[4096];
    size_t n = 0;
    FILE *f = fopen(KILLER_FILE, "r");

    if (!f)
        fail_msg("cannot open %s (run from the repository root)", KILLER_FILE);
    while (n < max && fgets(line, sizeof(line), f)) {
        size_t len = strcspn(line, "\r\n");
        char *bar;
        if (len == 0 || line[0] == '#')
            continue;
        line[len] = '\0';
        bar = strrchr(line, '|');
        assert_true(len > SUDOKU_CELLS && line[SUDOKU_CELLS] == '|');
        assert_int_equal(sudoku_parse(line, SUDOKU_CELLS, &out[n].puzzle, NULL),
                         SUDOKU_OK);
        assert_int_equal(killer_parse(line + SUDOKU_CELLS + 1,
                                      len - SUDOKU_CELLS - 1, &out[n].cages,
                                      NULL),
                         KILLER_OK);
        assert_int_equal(
            sudoku_parse(bar + 1, strlen(bar + 1), &out[n].solution, NULL),
            SUDOKU_OK);
        out[n].givens = 0;
        for (int x = 0; x < SUDOKU_CELLS; x++)
            out[n].givens += out[n].puzzle.cell[x] != 0;
        n++;
    }
    fclose(f);
    return n;
}

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

static struct sudoku_grid grid_of(const char *text)
{
    struct sudoku_grid g;
    assert_int_equal(sudoku_parse(text, SUDOKU_CELLS, &g, NULL), SUDOKU_OK);
    return g;
}

static void parse_ok(const char *text, struct killer_cages *k)
{
    size_t bad = 999;
    if (killer_parse(text, strlen(text), k, &bad) != KILLER_OK)
        fail_msg("'%s' did not parse (bad at %zu)", text, bad);
}

static enum killer_status check_text(const char *board, const char *cages,
                                     struct killer_error *err)
{
    struct killer_cages k;
    struct sudoku_grid g = grid_of(board);

    parse_ok(cages, &k);
    return killer_check(&g, &k, err);
}

/* ------------------------------------------------------- combinations */

static void test_combination_table(void **state)
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

static void test_parse_and_format(void **state)
{
    struct killer_cages k;
    char out[256];

    (void)state;
    parse_ok(" 3 : 11 , 12 ; 15:13,23,33 ;", &k);
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
    parse_ok("7:99|123", &k);
    assert_int_equal(k.ncages, 1);
    assert_int_equal(k.row[0], 8);
    /* digit 0 is kept as -1 for killer_check; sums are as written */
    parse_ok("999999:01", &k);
    assert_int_equal(k.row[0], -1);
    assert_int_equal(k.col[0], 0);
    assert_int_equal(k.cage[0].sum, 999999);
    /* a short buffer keeps whole pieces only, and says what it needs */
    parse_ok("3:11,12;15:13,23,33", &k);
    assert_int_equal(killer_format(&k, out, 10), 19);
    assert_string_equal(out, "3:11,12");
}

static void test_parse_errors(void **state)
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

static void test_check_out_of_range(void **state)
{
    struct killer_error err;
    struct killer_cages k;
    struct sudoku_grid g = grid_of(blank);
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

static void test_check_overlap(void **state)
{
    struct killer_error err;
    char msg[200];

    (void)state;
    assert_int_equal(check_text(blank, "3:11,12;9:21;5:12,22", &err),
                     KILLER_OVERLAP);
    assert_int_equal(err.cage, 2);
    assert_int_equal(err.other_cage, 0);
    assert_int_equal(err.ncells, 1);
    assert_int_equal(err.row[0], 0);
    assert_int_equal(err.col[0], 1);
    killer_describe(KILLER_OVERLAP, &err, 0, msg, sizeof(msg));
    assert_string_equal(msg, "cages 0 and 2 share a cell: [0,1]");
    /* the same cell twice in one cage */
    assert_int_equal(check_text(blank, "3:11;7:55,56,55", &err),
                     KILLER_OVERLAP);
    assert_int_equal(err.cage, 1);
    assert_int_equal(err.other_cage, 1);
    killer_describe(KILLER_OVERLAP, &err, 1, msg, sizeof(msg));
    assert_string_equal(msg, "cage 2 lists a cell twice: r5c5");
}

static void test_check_not_connected(void **state)
{
    struct killer_error err;

    (void)state;
    /* diagonal neighbours do not connect */
    assert_int_equal(check_text(blank, "3:11,22", &err), KILLER_NOT_CONNECTED);
    assert_int_equal(err.cage, 0);
    assert_int_equal(err.ncells, 1);
    assert_int_equal(err.row[0], 1);
    assert_int_equal(err.col[0], 1);
    /* two groups: the one away from the first cell is reported */
    assert_int_equal(check_text(blank, "5:44;15:11,12,19,29", &err),
                     KILLER_NOT_CONNECTED);
    assert_int_equal(err.cage, 1);
    assert_int_equal(err.ncells, 2);
    assert_int_equal(err.col[0], 8);
    assert_int_equal(err.col[1], 8);
    /* row ends do not wrap around */
    assert_int_equal(check_text(blank, "10:19,21", &err), KILLER_NOT_CONNECTED);
    /* a snake through a box is fine */
    assert_int_equal(check_text(blank, "30:11,12,13,23,22,21", &err),
                     KILLER_OK);
}

static void test_check_sum_impossible(void **state)
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
    struct sudoku_grid g = grid_of(blank);
    char msg[200];

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        if (bad[i][0] == '-') {
            killer_init(&k);
            killer_add_cage(&k, -1);
            killer_add_cell(&k, 0, 0);
        } else {
            parse_ok(bad[i], &k);
        }
        if (killer_check(&g, &k, &err) != KILLER_SUM_IMPOSSIBLE)
            fail_msg("'%s' passed", bad[i]);
        assert_int_equal(err.cage, 0);
        assert_int_equal(err.ncells, k.cage[0].ncells);
    }
    assert_int_equal(check_text(blank, "17:11,12", &err), KILLER_OK);
    assert_int_equal(check_text(blank, "45:11,12,13,14,15,16,17,18,19", &err),
                     KILLER_OK);
    assert_int_equal(check_text(blank, "3:11,12;30:21,22", &err),
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

static void test_check_total_405(void **state)
{
    struct sudoku_grid g = grid_of(blank), sol;
    struct killer_cages k;
    struct killer_error err;
    struct killer_stats st;
    unsigned count = 9;
    struct kp *set = malloc(MAX_PUZZLES * sizeof(*set));

    (void)state;
    assert_non_null(set);
    assert_true(load_set(set, 1) == 1);
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

static void test_check_given_conflict(void **state)
{
    struct killer_error err;
    char board[SUDOKU_CELLS + 1];
    char msg[300];

    (void)state;
    memcpy(board, blank, sizeof(board));
    /* 2 and 2 in one cage (also a row conflict, not checked here) */
    board[0] = '2';
    board[1] = '2';
    assert_int_equal(check_text(board, "4:11,12", &err), KILLER_GIVEN_CONFLICT);
    assert_int_equal(err.digit, 2);
    assert_int_equal(err.ncells, 2);
    killer_describe(KILLER_GIVEN_CONFLICT, &err, 0, msg, sizeof(msg));
    assert_string_equal(msg, "cage 0 holds the given 2 twice: [0,0], [0,1]");
    /* a given bigger than the cage allows */
    memcpy(board, blank, sizeof(board));
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

static void test_check_order_and_truncation(void **state)
{
    struct killer_error err;
    struct killer_cages k;
    struct sudoku_grid g = grid_of(blank);

    (void)state;
    /* range is checked over every cage before overlap */
    assert_int_equal(check_text(blank, "3:11,12;3:11;30:00", &err),
                     KILLER_CELL_OUT_OF_RANGE);
    assert_int_equal(err.cage, 2);
    /* overlap before connection, connection before sums */
    assert_int_equal(check_text(blank, "99:11,33;3:55,55", &err),
                     KILLER_OVERLAP);
    assert_int_equal(check_text(blank, "99:11,12;3:55,57", &err),
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

/* ---------------------------------------------------------------- solve */

static void test_solve_set(void **state)
{
    struct kp *set = malloc(MAX_PUZZLES * sizeof(*set));
    size_t n, blanks = 0, with_givens = 0;

    (void)state;
    assert_non_null(set);
    n = load_set(set, MAX_PUZZLES);
    assert_true(n >= 50);
    for (size_t i = 0; i < n; i++) {
        struct sudoku_grid sol;
        struct killer_stats st;
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
static void test_removing_cages(void **state)
{
    struct kp *set = malloc(MAX_PUZZLES * sizeof(*set));
    unsigned drop, count = 0;

    (void)state;
    assert_non_null(set);
    assert_true(load_set(set, 1) == 1);
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

static void test_no_solution(void **state)
{
    struct sudoku_grid g = grid_of(blank), sol;
    struct killer_cages k;
    struct killer_stats st;
    unsigned count = 9;
    char board[SUDOKU_CELLS + 1];

    (void)state;
    /* three 1+2 pairs in box 0: fine cage by cage, impossible together */
    parse_ok("3:11,12;3:21,22;3:31,32", &k);
    assert_int_equal(killer_count(&g, &k, 2, 0, &sol, &count, &st), KILLER_OK);
    assert_int_equal(count, 0);
    /* a row filled by cages totalling 46 (rule of 45): no search at all */
    parse_ok("6:11,12,13;16:14,15,16;24:17,18,19", &k);
    assert_int_equal(killer_count(&g, &k, 2, 0, &sol, &count, &st), KILLER_OK);
    assert_int_equal(count, 0);
    assert_int_equal(st.nodes, 0);
    /* givens that break the 9x9 rules */
    memcpy(board, blank, sizeof(board));
    board[0] = board[80] = '5';
    board[8] = '5';
    g = grid_of(board);
    parse_ok("10:55,56", &k);
    assert_int_equal(killer_count(&g, &k, 2, 0, &sol, &count, &st), KILLER_OK);
    assert_int_equal(count, 0);
    /* bad cages: the check's status, nothing searched */
    g = grid_of(blank);
    parse_ok("3:11,13", &k);
    count = 9;
    assert_int_equal(killer_count(&g, &k, 2, 0, &sol, &count, &st),
                     KILLER_NOT_CONNECTED);
    assert_int_equal(count, 0);
    assert_int_equal(st.nodes, 0);
}

static void test_partial_cover_and_single_cells(void **state)
{
    struct kp *set = malloc(MAX_PUZZLES * sizeof(*set));
    struct sudoku_grid g = grid_of(blank), sol;
    struct killer_cages k;
    unsigned count = 0;

    (void)state;
    assert_non_null(set);
    assert_true(load_set(set, 1) == 1);
    /* one cage over part of a blank grid: many solutions, each obeys it */
    parse_ok("24:11,12,13", &k);
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

static void test_budget(void **state)
{
    struct kp *set = malloc(MAX_PUZZLES * sizeof(*set));
    size_t n, hard = 0;
    struct killer_stats st;
    struct sudoku_grid sol;
    unsigned count = 0;

    (void)state;
    assert_non_null(set);
    n = load_set(set, MAX_PUZZLES);
    for (size_t i = 1; i < n; i++) {
        killer_count(&set[i].puzzle, &set[i].cages, 2, 0, NULL, &count, &st);
        if (st.nodes > 5)
            hard = i;
    }
    assert_true(hard > 0);
    assert_int_equal(killer_count(&set[hard].puzzle, &set[hard].cages, 2, 5,
                                  &sol, &count, &st),
                     KILLER_BUDGET);
    assert_int_equal(st.nodes, 5);
    assert_true(count <= 1);
    /* 0 is no bound */
    assert_int_equal(killer_count(&set[hard].puzzle, &set[hard].cages, 2, 0,
                                  &sol, &count, &st),
                     KILLER_OK);
    assert_int_equal(count, 1);
    free(set);
}

struct job {
    const struct kp *set;
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

static void test_threads(void **state)
{
    struct kp *set = malloc(MAX_PUZZLES * sizeof(*set));
    struct job jobs[4];
    pthread_t th[4];
    size_t n;

    (void)state;
    assert_non_null(set);
    n = load_set(set, 40);
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

int test_killer(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_combination_table),
        cmocka_unit_test(test_parse_and_format),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_check_out_of_range),
        cmocka_unit_test(test_check_overlap),
        cmocka_unit_test(test_check_not_connected),
        cmocka_unit_test(test_check_sum_impossible),
        cmocka_unit_test(test_check_total_405),
        cmocka_unit_test(test_check_given_conflict),
        cmocka_unit_test(test_check_order_and_truncation),
        cmocka_unit_test(test_solve_set),
        cmocka_unit_test(test_removing_cages),
        cmocka_unit_test(test_no_solution),
        cmocka_unit_test(test_partial_cover_and_single_cells),
        cmocka_unit_test(test_budget),
        cmocka_unit_test(test_threads),
    };
    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("killer", tests, NULL, NULL);
}
