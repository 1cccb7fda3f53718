/* test_sudoku.c - cmocka tests of the solver library (src/engine/sudoku.c).
 * Puzzle samples are read from tests/data/, so the tests run with the
 * repository root as working directory. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "grid.h"
#include "sudoku.h"
#include "support.h"
#include "tests.h"

static const char example[] = SUPPORT_EXAMPLE;
static const char example_solution[] = SUPPORT_EXAMPLE_SOLUTION;

static struct sudoku_grid grid_of(const char *text)
{
    struct sudoku_grid g;
    assert_int_equal(sudoku_parse(text, strlen(text), &g, NULL), SUDOKU_OK);
    return g;
}

/* Calls fn(line, lineno, ctx) for every puzzle line of tests/data/<name>;
 * returns how many there were. */
static unsigned each_puzzle(const char *name,
                            void (*fn)(const char *, unsigned, void *),
                            void *ctx)
{
    char path[256], line[512];
    unsigned n = 0, lineno = 0;

    snprintf(path, sizeof path, "tests/data/%s", name);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s (run from the repository root)", path);
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || strlen(line) < SUDOKU_CELLS)
            continue;
        fn(line, lineno, ctx);
        n++;
    }
    fclose(f);
    return n;
}

/* ---------------------------------------------------------------- parse */

static void parse_format_round_trip(void **state)
{
    (void)state;
    struct sudoku_grid g = grid_of(example);
    char out[SUDOKU_CELLS + 1];

    assert_int_equal(g.cell[0], 9);
    assert_int_equal(g.cell[1], 0);
    assert_int_equal(g.cell[80], 0);
    assert_int_equal(g.cell[79], 5);
    sudoku_format(&g, out);
    assert_string_equal(out, example);
}

static void parse_bad_length(void **state)
{
    (void)state;
    struct sudoku_grid g;
    char text[100];

    memset(&g, 0x55, sizeof g);
    memcpy(text, example, 81);
    text[81] = '1';
    assert_int_equal(sudoku_parse(text, 80, &g, NULL), SUDOKU_BAD_LENGTH);
    assert_int_equal(sudoku_parse(text, 82, &g, NULL), SUDOKU_BAD_LENGTH);
    assert_int_equal(sudoku_parse(text, 0, &g, NULL), SUDOKU_BAD_LENGTH);
    assert_int_equal(g.cell[0], 0x55); /* untouched on error */
}

static void parse_bad_char(void **state)
{
    (void)state;
    struct sudoku_grid g;
    char text[82];
    size_t bad = 999;

    memset(&g, 0x55, sizeof g);
    memcpy(text, example, 82);
    text[40] = 'x';
    text[60] = ' ';
    assert_int_equal(sudoku_parse(text, 81, &g, &bad), SUDOKU_BAD_CHAR);
    assert_int_equal(bad, 40);
    assert_int_equal(g.cell[0], 0x55);
    text[40] = '.';
    assert_int_equal(sudoku_parse(text, 81, &g, &bad), SUDOKU_BAD_CHAR);
    assert_int_equal(bad, 60);
    text[0] = ':'; /* '0' - 1 ... */
    assert_int_equal(sudoku_parse(text, 81, &g, NULL), SUDOKU_BAD_CHAR);
    /* the last cell, outside the 16-byte steps; a byte over 127 */
    memcpy(text, example, 82);
    text[80] = '/';
    assert_int_equal(sudoku_parse(text, 81, &g, &bad), SUDOKU_BAD_CHAR);
    assert_int_equal(bad, 80);
    text[80] = '.';
    text[17] = (char)0xB1;
    assert_int_equal(sudoku_parse(text, 81, &g, &bad), SUDOKU_BAD_CHAR);
    assert_int_equal(bad, 17);
    assert_int_equal(g.cell[0], 0x55);
}

static void parse_zero_is_blank(void **state)
{
    (void)state;
    char text[82], out[82];
    memcpy(text, example, 82);
    for (int i = 0; i < 81; i++)
        if (text[i] == '.')
            text[i] = '0';
    struct sudoku_grid g = grid_of(text);
    assert_int_equal(g.cell[1], 0);
    sudoku_format(&g, out);
    assert_string_equal(out, example);
}

/* ------------------------------------------------------------ conflicts */

static void conflicts_none(void **state)
{
    (void)state;
    struct sudoku_grid g = grid_of(example);
    struct sudoku_conflict c[4];
    assert_int_equal(sudoku_conflicts(&g, c, 4), 0);
    g = grid_of(example_solution);
    assert_int_equal(sudoku_conflicts(&g, c, 4), 0);
}

static void conflicts_row(void **state)
{
    (void)state;
    struct sudoku_grid g;
    struct sudoku_conflict c[4];
    memset(&g, 0, sizeof g);
    g.cell[9 * 4 + 0] = 7; /* row 4, columns 0 and 8: boxes 3 and 5 */
    g.cell[9 * 4 + 8] = 7;
    assert_int_equal(sudoku_conflicts(&g, c, 4), 1);
    assert_int_equal(c[0].unit, SUDOKU_ROW);
    assert_int_equal(c[0].index, 4);
    assert_int_equal(c[0].digit, 7);
    assert_int_equal(c[0].ncells, 2);
    assert_int_equal(c[0].cells[0], 36);
    assert_int_equal(c[0].cells[1], 44);
}

static void conflicts_column(void **state)
{
    (void)state;
    struct sudoku_grid g;
    struct sudoku_conflict c[4];
    memset(&g, 0, sizeof g);
    g.cell[9 * 8 + 2] = 3; /* column 2, rows 0, 5 and 8 */
    g.cell[9 * 5 + 2] = 3;
    g.cell[2] = 3;
    assert_int_equal(sudoku_conflicts(&g, c, 4), 1);
    assert_int_equal(c[0].unit, SUDOKU_COLUMN);
    assert_int_equal(c[0].index, 2);
    assert_int_equal(c[0].digit, 3);
    assert_int_equal(c[0].ncells, 3);
    assert_int_equal(c[0].cells[0], 2);
    assert_int_equal(c[0].cells[1], 47);
    assert_int_equal(c[0].cells[2], 74);
}

static void conflicts_box(void **state)
{
    (void)state;
    struct sudoku_grid g;
    struct sudoku_conflict c[4];
    memset(&g, 0, sizeof g);
    g.cell[9 * 6 + 5] = 1; /* box 7: (6,5) and (8,3) */
    g.cell[9 * 8 + 3] = 1;
    assert_int_equal(sudoku_conflicts(&g, c, 4), 1);
    assert_int_equal(c[0].unit, SUDOKU_BOX);
    assert_int_equal(c[0].index, 7);
    assert_int_equal(c[0].digit, 1);
    assert_int_equal(c[0].ncells, 2);
    assert_int_equal(c[0].cells[0], 59);
    assert_int_equal(c[0].cells[1], 75);
}

static void conflicts_several_and_truncated(void **state)
{
    (void)state;
    struct sudoku_grid g;
    struct sudoku_conflict c[8];
    memset(&g, 0, sizeof g);
    g.cell[0] = 5; /* 5 at (0,0) and (0,1): row 0 and box 0 */
    g.cell[1] = 5;
    g.cell[9 * 3 + 7] = 2; /* 2 at (3,7) and (7,7): column 7 */
    g.cell[9 * 7 + 7] = 2;
    g.cell[9 * 3 + 0] = 9; /* 9 at (3,0) and (3,4): row 3 */
    g.cell[9 * 3 + 4] = 9;

    assert_int_equal(sudoku_conflicts(&g, c, 8), 4);
    /* order: rows, columns, boxes; within a type by index then digit */
    assert_int_equal(c[0].unit, SUDOKU_ROW);
    assert_int_equal(c[0].index, 0);
    assert_int_equal(c[0].digit, 5);
    assert_int_equal(c[1].unit, SUDOKU_ROW);
    assert_int_equal(c[1].index, 3);
    assert_int_equal(c[1].digit, 9);
    assert_int_equal(c[1].cells[0], 27);
    assert_int_equal(c[1].cells[1], 31);
    assert_int_equal(c[2].unit, SUDOKU_COLUMN);
    assert_int_equal(c[2].index, 7);
    assert_int_equal(c[2].digit, 2);
    assert_int_equal(c[3].unit, SUDOKU_BOX);
    assert_int_equal(c[3].index, 0);
    assert_int_equal(c[3].cells[0], 0);
    assert_int_equal(c[3].cells[1], 1);

    /* max truncates what is stored, not the total */
    memset(c, 0xAA, sizeof c);
    assert_int_equal(sudoku_conflicts(&g, c, 2), 4);
    assert_int_equal(c[1].digit, 9);
    assert_int_equal(c[2].digit, 0xAA);
    assert_int_equal(sudoku_conflicts(&g, NULL, 0), 4);
}

static void conflicts_all_same_digit(void **state)
{
    (void)state;
    struct sudoku_grid g;
    struct sudoku_conflict c[1];
    memset(&g, 4, sizeof g); /* every unit holds 4 nine times */
    assert_int_equal(sudoku_conflicts(&g, c, 1), 27);
    assert_int_equal(c[0].ncells, 9);
    assert_int_equal(c[0].cells[8], 8);
}

/* -------------------------------------------------------------- solving */

static void solve_example_gives_the_published_solution(void **state)
{
    (void)state;
    struct sudoku_grid g = grid_of(example), s;
    struct sudoku_stats st;
    char out[82];
    int solved = 0;

    assert_int_equal(sudoku_solve(&g, 0, &s, &solved, &st), SUDOKU_OK);
    assert_int_equal(solved, 1);
    sudoku_format(&s, out);
    assert_string_equal(out, example_solution);
    assert_true(st.nodes >= 1);
    assert_true(sudoku_is_solution_of(&g, &s));
}

static void check_known(const char *line, unsigned lineno, void *ctx)
{
    unsigned *nmulti = ctx;
    struct sudoku_grid g, s;
    unsigned count = 0;
    char out[82];

    assert_int_equal(sudoku_parse(line, 81, &g, NULL), SUDOKU_OK);
    assert_int_equal(line[81], ':');
    char *end;
    unsigned long want = strtoul(line + 82, &end, 10);
    assert_true(*end == ':' || *end == '\n' || *end == '\0');

    /* exact count (the file's largest is 847) */
    assert_int_equal(sudoku_count(&g, 10000, 0, &s, &count, NULL), SUDOKU_OK);
    if (count != want)
        fail_msg("line %u: %u solutions, want %lu", lineno, count, want);
    if (count > 0)
        assert_true(sudoku_is_solution_of(&g, &s));
    if (want > 1)
        (*nmulti)++;

    /* the uniqueness check */
    assert_int_equal(sudoku_count(&g, 2, 0, &s, &count, NULL), SUDOKU_OK);
    assert_int_equal(count, want > 2 ? 2 : want);

    if (*end == ':' && end[1] >= '1' && end[1] <= '9') {
        int solved = 0;
        assert_int_equal(sudoku_solve(&g, 0, &s, &solved, NULL), SUDOKU_OK);
        assert_int_equal(solved, 1);
        sudoku_format(&s, out);
        if (memcmp(out, end + 1, 81) != 0)
            fail_msg("line %u: solution %s", lineno, out);
    }
}

static void counts_match_the_data_file_on_all_43_puzzles(void **state)
{
    (void)state;
    unsigned nmulti = 0;
    assert_int_equal(
        each_puzzle("test_puzzles_with_solutions", check_known, &nmulti), 43);
    assert_true(nmulti > 0);
}

struct sample {
    unsigned want; /* count to 2 */
    uint64_t guesses;
};

static void check_sample(const char *line, unsigned lineno, void *ctx)
{
    struct sample *sm = ctx;
    struct sudoku_grid g, s;
    struct sudoku_stats st;
    unsigned count = 0;

    assert_int_equal(sudoku_parse(line, 81, &g, NULL), SUDOKU_OK);
    assert_int_equal(sudoku_count(&g, 2, 0, &s, &count, &st), SUDOKU_OK);
    if (count != sm->want)
        fail_msg("line %u: %u solutions, want %u", lineno, count, sm->want);
    if (!sudoku_is_solution_of(&g, &s))
        fail_msg("line %u: wrong solution", lineno);
    sm->guesses += st.guesses;
}

static void run_sample(const char *name, unsigned want)
{
    struct sample sm = {want, 0};
    assert_int_equal(each_puzzle(name, check_sample, &sm), 150);
}

static void every_17_clue_sample_has_one_solution(void **state)
{
    (void)state;
    run_sample("puzzles2_17_clue", 1);
}

static void every_magictour_sample_has_one_solution(void **state)
{
    (void)state;
    run_sample("puzzles3_magictour_top1465", 1);
}

static void every_forum_hardest_sample_has_one_solution(void **state)
{
    (void)state;
    run_sample("puzzles5_forum_hardest_1905_11+", 1);
}

static void every_serg_sample_has_several_solutions(void **state)
{
    (void)state;
    run_sample("puzzles7_serg_benchmark", 2);
}

static void empty_board_counts_up_to_any_limit(void **state)
{
    (void)state;
    struct sudoku_grid g, s;
    unsigned count = 0;
    memset(&g, 0, sizeof g);
    assert_int_equal(sudoku_count(&g, 2, 0, &s, &count, NULL), SUDOKU_OK);
    assert_int_equal(count, 2);
    assert_true(sudoku_is_solution_of(&g, &s));
    assert_int_equal(sudoku_count(&g, 50, 0, NULL, &count, NULL), SUDOKU_OK);
    assert_int_equal(count, 50);
    assert_int_equal(sudoku_count(&g, 1, 0, NULL, &count, NULL), SUDOKU_OK);
    assert_int_equal(count, 1);
}

/* The digits row, column and box leave cell i, as bits 1..9. */
static unsigned naive_allowed(const uint8_t *cell, unsigned i)
{
    unsigned r = i / 9, c = i % 9, b0 = r / 3 * 27 + c / 3 * 3, used = 0;
    for (unsigned k = 0; k < 9; k++)
        used |= 1u << cell[r * 9 + k] | 1u << cell[k * 9 + c] |
                1u << cell[b0 + k / 3 * 9 + k % 3];
    return ~used & 0x3FEu;
}

/* The plain count, for cross-checks: fills the blank with the fewest
 * digits its row, column and box allow with each of them, depth first, up
 * to `limit` solutions. No bitboards and no rule past the three units. */
static unsigned naive_count(uint8_t *cell, unsigned limit)
{
    unsigned best = SUDOKU_CELLS, best_n = 10, best_allowed = 0, n = 0;
    for (unsigned i = 0; i < SUDOKU_CELLS && best_n > 1; i++) {
        if (cell[i] != 0)
            continue;
        unsigned allowed = naive_allowed(cell, i);
        unsigned k = (unsigned)__builtin_popcount(allowed);
        if (k < best_n)
            best = i, best_n = k, best_allowed = allowed;
    }
    if (best == SUDOKU_CELLS)
        return 1;
    for (uint8_t v = 1; v <= 9 && n < limit; v++) {
        if (!(best_allowed >> v & 1))
            continue;
        cell[best] = v;
        n += naive_count(cell, limit - n);
        cell[best] = 0;
    }
    return n;
}

/* A number below n from the seed's next step (a plain LCG: the boards
 * stay the same from run to run). */
static unsigned next_random(uint32_t *seed, unsigned n)
{
    *seed = *seed * 1103515245u + 12345u;
    return (*seed >> 16) % n;
}

/* Blanks `blanks` random cells of g that are not blank yet. */
static void blank_cells(struct sudoku_grid *g, unsigned blanks, uint32_t *seed)
{
    for (unsigned n = 0; n < blanks;) {
        unsigned i = next_random(seed, SUDOKU_CELLS);
        n += g->cell[i] != 0;
        g->cell[i] = 0;
    }
}

/* Boards with 20 to 62 blanks cut from a solution (62 is the most the
 * pattern branches are used at; more falls back to cells): the count to 300
 * must match the plain count, and the solution must be one. */
static void counts_match_naive(void **state)
{
    (void)state;
    struct sudoku_grid full = grid_of(example_solution), g, s;
    uint32_t seed = 12345;

    for (unsigned blanks = 20; blanks <= 62; blanks += 3) {
        for (unsigned rep = 0; rep < 4; rep++) {
            g = full;
            blank_cells(&g, blanks, &seed);
            struct sudoku_grid copy = g;
            unsigned want = naive_count(copy.cell, 300), count = 0;
            assert_int_equal(sudoku_count(&g, 300, 0, &s, &count, NULL),
                             SUDOKU_OK);
            if (count != want)
                fail_msg("%u blanks: %u solutions, want %u", blanks, count,
                         want);
            assert_true(sudoku_is_solution_of(&g, &s));
        }
    }
}

/* Boards cut from a solution with one given changed to another digit
 * that breaks no rule (so most have no solution, some several): the count
 * to 2 must match the plain count. Many are refuted only by the rules past
 * singles (locked candidates, the triad checks); those with 31 givens or
 * more go without locked candidates. */
static void altered_boards_match_naive(void **state)
{
    (void)state;
    struct sudoku_grid full = grid_of(example_solution);
    uint32_t seed = 777;
    unsigned none = 0, some = 0;

    for (unsigned rep = 0; rep < 400; rep++) {
        struct sudoku_grid g = full, s;
        unsigned blanks = 36 + rep % 16;
        blank_cells(&g, blanks, &seed);
        for (int changed = 0; !changed;) {
            unsigned i = next_random(&seed, SUDOKU_CELLS);
            uint8_t was = g.cell[i], v = (uint8_t)(1 + next_random(&seed, 9));
            if (!was || v == was)
                continue;
            g.cell[i] = v;
            changed = !sudoku_conflicts(&g, NULL, 0);
            if (!changed)
                g.cell[i] = was;
        }
        struct sudoku_grid copy = g;
        unsigned want = naive_count(copy.cell, 2), count = 9;
        assert_int_equal(sudoku_count(&g, 2, 0, &s, &count, NULL), SUDOKU_OK);
        if (count != want)
            fail_msg("board %u (%u blanks): %u solutions, want %u", rep, blanks,
                     count, want);
        if (count)
            assert_true(sudoku_is_solution_of(&g, &s));
        none += want == 0, some += want > 0;
    }
    print_message("%u boards without a solution, %u with\n", none, some);
    assert_true(none > 40 && some > 40);
}

static void full_board_is_its_own_solution_in_one_node(void **state)
{
    (void)state;
    struct sudoku_grid g = grid_of(example_solution), s;
    struct sudoku_stats st;
    unsigned count = 0;
    assert_int_equal(sudoku_count(&g, 2, 0, &s, &count, &st), SUDOKU_OK);
    assert_int_equal(count, 1);
    assert_memory_equal(&g, &s, sizeof g);
    assert_int_equal(st.nodes, 1);
    assert_int_equal(st.guesses, 0);
}

static void broken_rules_have_no_solution(void **state)
{
    (void)state;
    struct sudoku_grid g = grid_of(example), s;
    struct sudoku_stats st;
    unsigned count = 9;
    int solved = 1;

    g.cell[2] = 9; /* a second 9 in row 0 (and box 0) */
    assert_int_equal(sudoku_count(&g, 2, 0, &s, &count, &st), SUDOKU_OK);
    assert_int_equal(count, 0);
    assert_int_equal(sudoku_solve(&g, 0, &s, &solved, NULL), SUDOKU_OK);
    assert_int_equal(solved, 0);

    memset(&g, 4, sizeof g); /* every cell a 4 */
    assert_int_equal(sudoku_count(&g, 2, 0, &s, &count, NULL), SUDOKU_OK);
    assert_int_equal(count, 0);

    g = grid_of(example);
    g.cell[1] = 10; /* not a digit: only reachable without sudoku_parse */
    assert_int_equal(sudoku_count(&g, 2, 0, &s, &count, NULL), SUDOKU_OK);
    assert_int_equal(count, 0);

    /* no rule broken by the givens, but cell 0 has no candidate left */
    g = grid_of("..1234567"
                "8........"
                "9........"
                "........."
                "........."
                "........."
                "........."
                "........."
                ".........");
    assert_int_equal(sudoku_count(&g, 2, 0, &s, &count, &st), SUDOKU_OK);
    assert_int_equal(count, 0);
    assert_int_equal(st.guesses, 0);
}

/* A forum-hardest puzzle that needs guessing, and the nodes counting it
 * to 2 takes without a budget (more than 10). */
static struct sudoku_grid budget_puzzle(uint64_t *need)
{
    struct sudoku_grid g = grid_of(
                           "98.7..6..75..4......3..8.7.5....7.3...94....."
                           "....2.1..3.......1.9...5.8...52....6"),
                       s;
    struct sudoku_stats st;
    unsigned count = 0;

    assert_int_equal(sudoku_count(&g, 2, 0, &s, &count, &st), SUDOKU_OK);
    assert_int_equal(count, 1);
    assert_true(st.nodes > 10);
    *need = st.nodes;
    return g;
}

/* The root's givens are read sixteen cells a step on x86-64, cells 64-80
 * apart from the rest: a broken rule or a value over 9 there leaves no
 * solution too, on every path. Each board breaks exactly one rule of the
 * example's solution, or holds one value that is not a digit. */
static void broken_rules_in_the_last_rows_leave_no_solution(void **state)
{
    (void)state;
    struct sudoku_grid sol = grid_of(example_solution), s;
    /* cells: row 8 columns 0 and 8 (a row), rows 7 and 8 column 4 of box
     * 7 (a box), row 0 and row 8 column 8 (a column across bands) */
    static const unsigned pairs[][2] = {{72, 80}, {67, 76}, {8, 80}};

    for (int isa = 0; isa < SUDOKU_ISA_COUNT; isa++) {
        if (!sudoku_isa_supported((enum sudoku_isa)isa))
            continue;
        for (unsigned k = 0; k < 3; k++) {
            struct sudoku_grid g;
            unsigned count = 9;
            memset(&g, 0, sizeof g);
            g.cell[pairs[k][0]] = 5;
            g.cell[pairs[k][1]] = 5;
            assert_int_equal(sudoku_count_isa((enum sudoku_isa)isa, &g, 2, 0,
                                              &s, &count, NULL),
                             SUDOKU_OK);
            assert_int_equal(count, 0);
        }
        for (unsigned cell = 63; cell < 81; cell++) {
            struct sudoku_grid g = sol;
            unsigned count = 9;
            g.cell[cell] = cell == 80 ? 255 : 10;
            assert_int_equal(sudoku_count_isa((enum sudoku_isa)isa, &g, 2, 0,
                                              &s, &count, NULL),
                             SUDOKU_OK);
            assert_int_equal(count, 0);
            /* the same cell blank: the one solution is found again */
            g.cell[cell] = 0;
            assert_int_equal(sudoku_count_isa((enum sudoku_isa)isa, &g, 2, 0,
                                              &s, &count, NULL),
                             SUDOKU_OK);
            assert_int_equal(count, 1);
            assert_memory_equal(&s, &sol, sizeof s);
        }
    }
}

static void budget_of_the_nodes_needed_is_enough(void **state)
{
    (void)state;
    uint64_t need;
    struct sudoku_grid g = budget_puzzle(&need), s;
    struct sudoku_stats st;
    unsigned count = 0;

    assert_int_equal(sudoku_count(&g, 2, need, &s, &count, &st), SUDOKU_OK);
}

static void budget_one_node_short_is_refused(void **state)
{
    (void)state;
    uint64_t need;
    struct sudoku_grid g = budget_puzzle(&need), s;
    struct sudoku_stats st;
    unsigned count = 0;

    assert_int_equal(sudoku_count(&g, 2, need - 1, &s, &count, &st),
                     SUDOKU_BUDGET);
    assert_true(st.nodes <= need - 1);
}

static void budget_stops_the_count_at_exactly_its_nodes(void **state)
{
    (void)state;
    uint64_t need;
    struct sudoku_grid g = budget_puzzle(&need), s;
    struct sudoku_stats st;
    unsigned count = 0;

    assert_int_equal(sudoku_count(&g, 2, 5, &s, &count, &st), SUDOKU_BUDGET);
    assert_int_equal(st.nodes, 5);
}

static void solve_on_a_two_node_budget_is_refused(void **state)
{
    (void)state;
    uint64_t need;
    struct sudoku_grid g = budget_puzzle(&need), s;

    int solved = 1;
    assert_int_equal(sudoku_solve(&g, 2, &s, &solved, NULL), SUDOKU_BUDGET);
}

/* an empty board counted far: the budget stops it, count is partial */
static void budget_stops_an_empty_board_with_a_partial_count(void **state)
{
    (void)state;
    struct sudoku_grid g;
    struct sudoku_stats st;
    unsigned count = 0;

    memset(&g, 0, sizeof g);
    assert_int_equal(sudoku_count(&g, 1000000, 10000, NULL, &count, &st),
                     SUDOKU_BUDGET);
    assert_int_equal(st.nodes, 10000);
    assert_true(count > 0 && count < 1000000);
}

/* grid.h's geometry against sudoku_conflicts' numbering: a board with one
 * repeated digit names the unit grid_unit_cell walks, by grid_unit_name. */
static void grid_units_agree_with_conflicts(void **state)
{
    (void)state;
    for (int u = 0; u < GRID_UNITS; u++) {
        struct sudoku_grid g = {{0}};
        struct sudoku_conflict c;
        int a = grid_unit_cell(u, 2), b = grid_unit_cell(u, 7);

        g.cell[a] = g.cell[b] = 5;
        assert_int_equal(grid_blanks(g.cell), SUDOKU_CELLS - 2);
        assert_true(grid_sees(a, b));
        assert_int_equal(sudoku_conflicts(&g, &c, 1), 1);
        assert_int_equal((int)c.unit * 9 + c.index, u);
        assert_string_equal(grid_unit_name(c.unit), u < 9    ? "row"
                                                    : u < 18 ? "column"
                                                             : "box");
        assert_int_equal(grid_row(a) == grid_row(b), u < 9);
        assert_int_equal(grid_col(a) == grid_col(b), u >= 9 && u < 18);
        assert_int_equal(grid_box(a), u >= 18 ? u - 18 : grid_box(a));
    }
    assert_string_equal(grid_unit_name(6), "king");
    assert_null(grid_unit_name(7));
}

/* The one clock never goes back and counts microseconds. */
static void clock_is_monotonic(void **state)
{
    uint64_t a = clock_now_us(), ms = clock_now_ms(), b = clock_now_us();

    (void)state;
    assert_true(a <= b);
    assert_true(ms >= a / 1000 && ms <= b / 1000);
}

static void is_solution_of_holds_only_for_a_solution_of_the_givens(void **state)
{
    (void)state;
    struct sudoku_grid p = grid_of(example), s = grid_of(example_solution);
    struct sudoku_grid t;

    assert_true(sudoku_is_solution_of(&p, &s));
    assert_false(sudoku_is_solution_of(&s, &p)); /* incomplete */

    t = s; /* swap two digits in row 8: breaks columns, keeps the row */
    uint8_t x = t.cell[72];
    t.cell[72] = t.cell[73];
    t.cell[73] = x;
    assert_false(sudoku_is_solution_of(&p, &t));

    /* a valid grid that ignores a given: relabel 1 <-> 2 everywhere */
    t = s;
    for (int i = 0; i < 81; i++)
        t.cell[i] = t.cell[i] == 1 ? 2 : t.cell[i] == 2 ? 1 : t.cell[i];
    assert_int_equal(sudoku_conflicts(&t, NULL, 0), 0);
    assert_false(sudoku_is_solution_of(&p, &t));
    struct sudoku_grid empty;
    memset(&empty, 0, sizeof empty);
    assert_true(sudoku_is_solution_of(&empty, &t));

    t = s;
    t.cell[40] = 10;
    assert_false(sudoku_is_solution_of(&empty, &t));
    t.cell[40] = 0;
    assert_false(sudoku_is_solution_of(&empty, &t));
}

/* Threads solving the same sample at once must each get what one thread
 * gets: the solver keeps no shared state. */
struct job {
    struct sudoku_grid puzzles[40];
    struct sudoku_grid solutions[40];
    unsigned n;
    int ok;
};

static void collect(const char *line, unsigned lineno, void *ctx)
{
    struct job *j = ctx;
    (void)lineno;
    if (j->n < 40)
        sudoku_parse(line, 81, &j->puzzles[j->n++], NULL);
}

static void *solve_all(void *arg)
{
    struct job *j = arg;
    j->ok = 1;
    for (int round = 0; round < 5; round++) {
        for (unsigned i = 0; i < j->n; i++) {
            struct sudoku_grid s;
            unsigned count = 0;
            sudoku_count(&j->puzzles[i], 2, 0, &s, &count, NULL);
            if (count != 1 || memcmp(&s, &j->solutions[i], sizeof s) != 0)
                j->ok = 0;
        }
    }
    return NULL;
}

static void four_threads_solve_the_hardest_set_as_one_does(void **state)
{
    (void)state;
    static struct job jobs[4];
    pthread_t th[4];

    jobs[0].n = 0;
    each_puzzle("puzzles5_forum_hardest_1905_11+", collect, &jobs[0]);
    assert_int_equal(jobs[0].n, 40);
    for (unsigned i = 0; i < jobs[0].n; i++) {
        int solved = 0;
        sudoku_solve(&jobs[0].puzzles[i], 0, &jobs[0].solutions[i], &solved,
                     NULL);
        assert_int_equal(solved, 1);
    }
    for (int t = 1; t < 4; t++)
        jobs[t] = jobs[0];
    for (int t = 0; t < 4; t++)
        assert_int_equal(pthread_create(&th[t], NULL, solve_all, &jobs[t]), 0);
    for (int t = 0; t < 4; t++) {
        pthread_join(th[t], NULL);
        assert_true(jobs[t].ok);
    }
}

/* ------------------------------------------------------ kernel paths */

/* One search on path isa, all it returns. */
struct path_run {
    enum sudoku_status status;
    unsigned count;
    struct sudoku_grid solution;
    struct sudoku_stats stats;
};

static struct path_run run_path(enum sudoku_isa isa,
                                const struct sudoku_grid *g, unsigned limit,
                                uint64_t max_nodes)
{
    struct path_run r;
    memset(&r, 0, sizeof r);
    r.status = sudoku_count_isa(isa, g, limit, max_nodes, &r.solution, &r.count,
                                &r.stats);
    return r;
}

/* Every path the CPU has against the baseline on board g: the same status,
 * count, first solution, nodes and guesses. */
static void compare_paths(const struct sudoku_grid *g, unsigned limit,
                          uint64_t max_nodes, unsigned lineno)
{
    struct path_run base = run_path(SUDOKU_ISA_SSE2, g, limit, max_nodes);

    for (unsigned isa = 1; isa < SUDOKU_ISA_COUNT; isa++) {
        if (!sudoku_isa_supported((enum sudoku_isa)isa))
            continue;
        struct path_run r = run_path((enum sudoku_isa)isa, g, limit, max_nodes);
        if (r.status != base.status || r.count != base.count ||
            r.stats.nodes != base.stats.nodes ||
            r.stats.guesses != base.stats.guesses ||
            (base.count > 0 &&
             memcmp(&r.solution, &base.solution, sizeof r.solution) != 0))
            fail_msg("line %u, limit %u: path %s differs from %s (count %u "
                     "against %u, nodes %llu against %llu, guesses %llu "
                     "against %llu)",
                     lineno, limit, sudoku_isa_name((enum sudoku_isa)isa),
                     sudoku_isa_name(SUDOKU_ISA_SSE2), r.count, base.count,
                     (unsigned long long)r.stats.nodes,
                     (unsigned long long)base.stats.nodes,
                     (unsigned long long)r.stats.guesses,
                     (unsigned long long)base.stats.guesses);
    }
}

/* g with one more given in its first empty cell: a digit that no given
 * among the cell's peers holds and that is not the cell's digit in
 * `solution`. Returns 0 when the cell has no such digit. */
static int add_wrong_given(struct sudoku_grid *g,
                           const struct sudoku_grid *solution)
{
    for (unsigned i = 0; i < SUDOKU_CELLS; i++) {
        if (g->cell[i] != 0)
            continue;
        unsigned r = i / 9, c = i % 9;
        for (uint8_t v = 1; v <= 9; v++) {
            int seen = v == solution->cell[i];
            for (unsigned j = 0; j < SUDOKU_CELLS && !seen; j++)
                seen = g->cell[j] == v &&
                       (j / 9 == r || j % 9 == c ||
                        (j / 27 == r / 3 && j % 9 / 3 == c / 3));
            if (!seen) {
                g->cell[i] = v;
                return 1;
            }
        }
        return 0;
    }
    return 0;
}

static void compare_line(const char *line, unsigned lineno, void *ctx)
{
    struct sudoku_grid g;
    (void)ctx;

    assert_int_equal(sudoku_parse(line, 81, &g, NULL), SUDOKU_OK);
    compare_paths(&g, 1, 0, lineno);
    compare_paths(&g, 2, 0, lineno);
    compare_paths(&g, 2, 7, lineno); /* cut short by the budget */
    /* The same board made unsolvable by a wrong given that breaks no rule
     * on its face: the search then ends in dead ends only, where two
     * digits may claim one cell as their last. A puzzle with one solution
     * has none left, on every path. */
    struct path_run one = run_path(SUDOKU_ISA_SSE2, &g, 2, 0);
    if (one.count == 1 && add_wrong_given(&g, &one.solution)) {
        assert_int_equal(run_path(SUDOKU_ISA_SSE2, &g, 2, 0).count, 0);
        compare_paths(&g, 2, 0, lineno);
    }
}

/* The 600 sample puzzles (count to 2, first solution, a budget of 7
 * nodes; and made unsolvable by one wrong given) and boards cut from a
 * solution (count to 300) on every path. */
static void
every_isa_path_gives_the_baselines_answers_nodes_and_guesses(void **state)
{
    static const char *const sets[] = {
        "puzzles2_17_clue", "puzzles3_magictour_top1465",
        "puzzles5_forum_hardest_1905_11+", "puzzles7_serg_benchmark"};
    (void)state;

    for (unsigned k = 0; k < sizeof sets / sizeof sets[0]; k++)
        assert_int_equal(each_puzzle(sets[k], compare_line, NULL), 150);
    struct sudoku_grid full = grid_of(example_solution);
    uint32_t seed = 4242;
    for (unsigned blanks = 20; blanks <= 64; blanks += 4) {
        struct sudoku_grid g = full;
        blank_cells(&g, blanks, &seed);
        compare_paths(&g, 300, 0, blanks);
    }
}

/* The chosen path is one the CPU has, and sudoku_count takes it. */
static void
current_isa_is_supported_and_an_unknown_one_runs_the_baseline(void **state)
{
    (void)state;
    enum sudoku_isa cur = sudoku_isa_current();

    assert_true(sudoku_isa_supported(SUDOKU_ISA_SSE2));
    assert_true(sudoku_isa_supported(cur));
    assert_string_equal(sudoku_isa_name(SUDOKU_ISA_AVX2), "avx2");
    assert_string_equal(sudoku_isa_name(SUDOKU_ISA_AVX512), "avx512");
    /* an unsupported or unknown path runs the baseline: no SIGILL */
    struct sudoku_grid g = grid_of(example);
    struct path_run a = run_path((enum sudoku_isa)SUDOKU_ISA_COUNT, &g, 2, 0);
    struct path_run b = run_path(cur, &g, 2, 0);
    unsigned count = 0;
    struct sudoku_grid s;
    struct sudoku_stats st;
    assert_int_equal(sudoku_count(&g, 2, 0, &s, &count, &st), SUDOKU_OK);
    assert_int_equal(count, 1);
    assert_int_equal(a.count, 1);
    assert_int_equal(b.count, 1);
    assert_memory_equal(&s, &b.solution, sizeof s);
    assert_int_equal(st.nodes, b.stats.nodes);
}

int test_sudoku(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_format_round_trip),
        cmocka_unit_test(parse_bad_length),
        cmocka_unit_test(parse_bad_char),
        cmocka_unit_test(parse_zero_is_blank),
        cmocka_unit_test(conflicts_none),
        cmocka_unit_test(conflicts_row),
        cmocka_unit_test(conflicts_column),
        cmocka_unit_test(conflicts_box),
        cmocka_unit_test(conflicts_several_and_truncated),
        cmocka_unit_test(conflicts_all_same_digit),
        cmocka_unit_test(solve_example_gives_the_published_solution),
        cmocka_unit_test(counts_match_the_data_file_on_all_43_puzzles),
        cmocka_unit_test(every_17_clue_sample_has_one_solution),
        cmocka_unit_test(every_magictour_sample_has_one_solution),
        cmocka_unit_test(every_forum_hardest_sample_has_one_solution),
        cmocka_unit_test(every_serg_sample_has_several_solutions),
        cmocka_unit_test(empty_board_counts_up_to_any_limit),
        cmocka_unit_test(counts_match_naive),
        cmocka_unit_test(altered_boards_match_naive),
        cmocka_unit_test(full_board_is_its_own_solution_in_one_node),
        cmocka_unit_test(broken_rules_have_no_solution),
        cmocka_unit_test(broken_rules_in_the_last_rows_leave_no_solution),
        cmocka_unit_test(budget_of_the_nodes_needed_is_enough),
        cmocka_unit_test(budget_one_node_short_is_refused),
        cmocka_unit_test(budget_stops_the_count_at_exactly_its_nodes),
        cmocka_unit_test(solve_on_a_two_node_budget_is_refused),
        cmocka_unit_test(budget_stops_an_empty_board_with_a_partial_count),
        cmocka_unit_test(
            is_solution_of_holds_only_for_a_solution_of_the_givens),
        cmocka_unit_test(grid_units_agree_with_conflicts),
        cmocka_unit_test(clock_is_monotonic),
        cmocka_unit_test(four_threads_solve_the_hardest_set_as_one_does),
        cmocka_unit_test(
            every_isa_path_gives_the_baselines_answers_nodes_and_guesses),
        cmocka_unit_test(
            current_isa_is_supported_and_an_unknown_one_runs_the_baseline),
    };
    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("sudoku", tests, NULL, NULL);
}
