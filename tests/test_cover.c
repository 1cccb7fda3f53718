/* test_cover.c - cmocka tests of the generic engine (src/cover*.c): every
 * size and variant on a puzzle whose solution is built independently (a
 * formula, a published grid, or a separate backtracking script), checked by
 * the independent verifier of tests/cover_check.c, with uniqueness
 * proven there by deduction; two-solution counts, the budget, every rule
 * error, the text and the rule breaks. The shared-data agreement, the
 * generator and the data sets: tests/test_cover_data.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "cover.h"
#include "cover_support.h"
#include "tests.h"

/* ------------------------------------------------------------ the sizes */

/* The shifted-pattern Latin square: row r is the first row moved left by
 * (r mod box_rows) * box_cols + r / box_rows. */
static struct cover_grid shifted(unsigned n, unsigned br, unsigned bc)
{
    struct cover_grid g = {.n = (uint8_t)n};
    for (unsigned row = 0; row < n; row++)
        for (unsigned col = 0; col < n; col++)
            g.cell[row * n + col] =
                (uint8_t)(((row % br) * bc + row / br + col) % n + 1);
    return g;
}

static void every_size(void **state)
{
    static const unsigned sizes[][3] = {
        {4, 2, 2},  {6, 2, 3}, {8, 2, 4}, {9, 3, 3},  {12, 3, 4}, {16, 4, 4},
        {25, 5, 5}, {6, 3, 2}, {8, 4, 2}, {12, 4, 3}, {12, 2, 6}, {16, 2, 8}};
    (void)state;
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        struct cover_rules r;
        unsigned n = sizes[i][0];
        assert_int_equal(cover_rules_init(&r, n), COVER_OK);
        if (i < 7) { /* the default shape: the wider side horizontal */
            assert_int_equal(r.box_rows, sizes[i][1]);
            assert_int_equal(r.box_cols, sizes[i][2]);
        }
        r.box_rows = (uint8_t)sizes[i][1];
        r.box_cols = (uint8_t)sizes[i][2];
        struct cover_grid s = shifted(n, sizes[i][1], sizes[i][2]);
        tc_expect_unique(&r, &s);
    }
}

/* The example of Wikipedia's "Sudoku" article (the puzzle by Tim Stellmach,
 * public domain) and its published solution. */
#define WIKI_PUZZLE                                                            \
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5" \
    "....8..79"
#define WIKI_SOLUTION                                                          \
    "534678912672195348198342567859761423426853791713924856961537284287419635" \
    "345286179"

static void published_9x9_has_its_published_solution(void **state)
{
    struct cover_rules r;
    struct cover_grid p = tc_grid(9, WIKI_PUZZLE),
                      s = tc_grid(9, WIKI_SOLUTION), found;
    unsigned count = 0;

    (void)state;
    cover_rules_init(&r, 9);
    tc_check_rules(&r);
    assert_true(tc_verify(&r, &s));
    assert_int_equal(cover_count(&r, &p, 2, 0, &found, &count, NULL), COVER_OK);
    assert_int_equal(count, 1);
    assert_memory_equal(found.cell, s.cell, 81);
}

/* ------------------------------------------------------------ variants */

/* Found by a separate backtracking script (not this engine) and checked by
 * tc_verify here. */
#define DIAG_SOLUTION                                                          \
    "639251748458367912172849365967435281824176593315928476796583124"          \
    "541692837283714659"
#define HYPER_SOLUTION                                                         \
    "491827563723546189586139472847915236132674895965382741218463957"          \
    "379258614654791328"
#define JIGSAW_SOLUTION                                                        \
    "214879356598426137736154298345281769682937514167598423851763942"          \
    "479312685923645871"

/* v = (r mod 3) + 3 (r div 3) + 3 (c mod 3) + (c div 3), mod 9: a grid with
 * no digit a knight's or a king's move from itself. */
static struct cover_grid chess_grid(void)
{
    struct cover_grid g = {.n = 9};
    for (unsigned row = 0; row < 9; row++)
        for (unsigned col = 0; col < 9; col++)
            g.cell[row * 9 + col] =
                (uint8_t)((row % 3 + 3 * (row / 3) + 3 * (col % 3) + col / 3) %
                              9 +
                          1);
    return g;
}

static void diagonal_puzzle_has_its_one_solution(void **state)
{
    struct cover_rules r;
    struct cover_grid s;

    (void)state;
    cover_rules_init(&r, 9);
    r.diagonals = 1;
    s = tc_grid(9, DIAG_SOLUTION);
    tc_expect_unique(&r, &s);
}

static void hyper_puzzle_has_its_one_solution(void **state)
{
    struct cover_rules r;
    struct cover_grid s;

    (void)state;
    cover_rules_init(&r, 9);
    tc_hyper_groups(&r);
    s = tc_grid(9, HYPER_SOLUTION);
    tc_expect_unique(&r, &s);
}

static void jigsaw_puzzle_has_its_one_solution(void **state)
{
    struct cover_rules r;
    struct cover_grid s;

    (void)state;
    cover_rules_init(&r, 9);
    tc_jigsaw_map(&r);
    s = tc_grid(9, JIGSAW_SOLUTION);
    tc_expect_unique(&r, &s);
}

static void anti_knight_puzzle_has_its_one_solution(void **state)
{
    struct cover_rules r;
    struct cover_grid s;

    (void)state;
    s = chess_grid();
    cover_rules_init(&r, 9);
    r.anti_knight = 1;
    tc_expect_unique(&r, &s);
}

static void anti_king_puzzle_has_its_one_solution(void **state)
{
    struct cover_rules r;
    struct cover_grid s;

    (void)state;
    s = chess_grid();
    cover_rules_init(&r, 9);
    r.anti_king = 1;
    tc_expect_unique(&r, &s);
}

static void group_of_three_cells_holds_each_digit_once(void **state)
{
    struct cover_rules r;
    struct cover_grid s;

    (void)state;
    s = chess_grid();
    cover_rules_init(&r, 9);
    r.anti_king = 1;
    r.anti_knight = 1;
    /* a group of fewer than n cells: each digit at most once */
    r.nextra = 1;
    r.extra[0].ncells = 3;
    r.extra[0].cell[0] = 0;
    r.extra[0].cell[1] = 40;
    r.extra[0].cell[2] = 80;
    tc_expect_unique(&r, &s);
}

/* Each variant rule changes the answer: the classic grid that breaks it is
 * refused by the verifier, cover_is_solution_of and cover_count. */
static void
each_variant_rule_refuses_the_classic_grid_that_breaks_it(void **state)
{
    struct cover_grid classic = tc_grid(9, WIKI_SOLUTION), found;
    unsigned count = 9;

    (void)state;
    for (int v = 0; v < 4; v++) {
        struct cover_rules r;
        cover_rules_init(&r, 9);
        r.diagonals = v == 0;
        r.anti_knight = v == 1;
        r.anti_king = v == 2;
        if (v == 3)
            tc_hyper_groups(&r);
        tc_check_rules(&r);
        assert_false(tc_verify(&r, &classic));
        assert_false(cover_is_solution_of(&r, &classic, &classic));
        assert_int_equal(cover_count(&r, &classic, 2, 0, &found, &count, NULL),
                         COVER_OK);
        assert_int_equal(count, 0);
    }
}

/* ------------------------------------------------- counting and budget */

/* A deadly rectangle: cells (r1,c1) (r1,c2) (r2,c1) (r2,c2) holding a b / b a
 * in exactly two boxes. With every other cell given, blanking the four
 * leaves exactly two solutions: the grid and the one with a and b swapped. */
static int find_rectangle(const struct cover_rules *r,
                          const struct cover_grid *s, unsigned *cells)
{
    unsigned n = r->n;
    for (unsigned r1 = 0; r1 < n; r1++)
        for (unsigned r2 = r1 + 1; r2 < n; r2++)
            for (unsigned c1 = 0; c1 < n; c1++)
                for (unsigned c2 = c1 + 1; c2 < n; c2++) {
                    unsigned a = r1 * n + c1, b = r1 * n + c2, c = r2 * n + c1,
                             d = r2 * n + c2;
                    unsigned boxes =
                        1 + (tc_region_of(r, b) != tc_region_of(r, a)) +
                        (tc_region_of(r, c) != tc_region_of(r, a));
                    if (s->cell[a] == s->cell[d] && s->cell[b] == s->cell[c] &&
                        boxes == 2 &&
                        tc_region_of(r, a) != tc_region_of(r, d)) {
                        cells[0] = a, cells[1] = b, cells[2] = c, cells[3] = d;
                        return 1;
                    }
                }
    return 0;
}

static void two_solutions(void **state)
{
    static const unsigned sizes[] = {4, 6, 9, 12, 16, 25};
    (void)state;
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        struct cover_rules r;
        unsigned n = sizes[i], cells[4] = {0, 0, 0, 0}, count = 0;
        cover_rules_init(&r, n);
        tc_check_rules(&r);
        struct cover_grid empty = {.n = (uint8_t)n}, s, p, found, other;
        /* any solution with a rectangle will do: the shifted pattern has
         * none, the engine's first fill of an empty grid has */
        assert_int_equal(cover_count(&r, &empty, 1, 0, &s, &count, NULL),
                         COVER_OK);
        assert_true(tc_verify(&r, &s));
        assert_true(find_rectangle(&r, &s, cells));
        p = other = s;
        for (int k = 0; k < 4; k++)
            p.cell[cells[k]] = 0;
        other.cell[cells[0]] = s.cell[cells[1]];
        other.cell[cells[1]] = s.cell[cells[0]];
        other.cell[cells[2]] = s.cell[cells[3]];
        other.cell[cells[3]] = s.cell[cells[2]];
        assert_true(tc_verify(&r, &other));
        assert_int_equal(cover_count(&r, &p, 2, 0, &found, &count, NULL),
                         COVER_OK);
        assert_int_equal(count, 2);
        assert_true(memcmp(found.cell, s.cell, n * n) == 0 ||
                    memcmp(found.cell, other.cell, n * n) == 0);
        assert_int_equal(cover_count(&r, &p, 5, 0, NULL, &count, NULL),
                         COVER_OK);
        assert_int_equal(count, 2); /* all of them, below the limit */
        assert_int_equal(cover_count(&r, &p, 1, 0, NULL, &count, NULL),
                         COVER_OK);
        assert_int_equal(count, 1);
    }
}

/* An empty grid has countless solutions: counting to 2 needs more
 * than 10 nodes (no placement is forced at the root). */
static void budget_stops_an_empty_16x16_at_10_nodes(void **state)
{
    struct cover_rules r;
    struct cover_grid empty = {.n = 16};
    struct sudoku_stats st;
    unsigned count = 9;

    (void)state;
    cover_rules_init(&r, 16);
    tc_check_rules(&r);
    assert_int_equal(cover_count(&r, &empty, 2, 10, NULL, &count, &st),
                     COVER_BUDGET);
    assert_int_equal(st.nodes, 10);
    assert_true(count < 2);
}

static void no_budget_counts_an_empty_16x16_to_2_by_guessing(void **state)
{
    struct cover_rules r;
    struct cover_grid empty = {.n = 16};
    struct sudoku_stats st;
    unsigned count = 9;

    (void)state;
    cover_rules_init(&r, 16);
    tc_check_rules(&r);
    assert_int_equal(cover_count(&r, &empty, 2, 0, NULL, &count, &st),
                     COVER_OK);
    assert_int_equal(count, 2);
    assert_true(st.guesses >= 1 && st.nodes >= st.guesses);
}

/* Givens that break a rule: no solution, no search. */
static void broken_givens_count_0_and_a_wrong_size_is_refused(void **state)
{
    struct cover_rules r;
    struct cover_grid p = {.n = 6};
    unsigned count = 9;

    (void)state;
    cover_rules_init(&r, 6);
    tc_check_rules(&r);
    p.cell[0] = p.cell[7] = 3; /* one 2x3 box */
    assert_int_equal(cover_count(&r, &p, 2, 0, NULL, &count, NULL), COVER_OK);
    assert_int_equal(count, 0);
    p.n = 9; /* a grid of another size */
    assert_int_equal(cover_count(&r, &p, 2, 0, NULL, &count, NULL),
                     COVER_BAD_SIZE);
}

/* ------------------------------------------------------------ the rules */

static void expect_refused(struct cover_rules *r, enum cover_status want,
                           int want_bad, const char *sentence)
{
    char why[128] = "untouched";
    int bad = 99;
    assert_int_equal(cover_rules_check(r, &bad, why, sizeof(why)), want);
    assert_int_equal(bad, want_bad);
    assert_string_equal(why, sentence);
}

static void bad_size_or_boxes_are_refused_with_a_message(void **state)
{
    struct cover_rules r;

    (void)state;
    assert_int_equal(cover_rules_init(&r, 10), COVER_BAD_SIZE);
    assert_int_equal(cover_rules_init(&r, 0), COVER_BAD_SIZE);
    cover_rules_init(&r, 9);
    r.n = 7;
    expect_refused(&r, COVER_BAD_SIZE, -1,
                   "size 7 is not one of 4, 6, 8, 9, 12, 16 and 25");
    cover_rules_init(&r, 12);
    r.box_rows = 2, r.box_cols = 4;
    expect_refused(&r, COVER_BAD_BOX, -1,
                   "boxes of 2 x 4 cells do not tile a 12 x 12 grid");

    /* region C (index 2) gives its cell r1c8 to B: C 8 cells, B 10 */
    cover_rules_init(&r, 9);
    tc_jigsaw_map(&r);
    r.region[7] = 1;
    expect_refused(&r, COVER_BAD_REGIONS, 1, "region 'B' has 10 cells, not 9");
    /* swap r1c1 (A) with r9c9 (I): both keep 9 cells, neither connected */
    tc_jigsaw_map(&r);
    r.region[0] = 8, r.region[80] = 0;
    expect_refused(&r, COVER_BAD_REGIONS, 0, "region 'A' is not connected");
    tc_jigsaw_map(&r);
    r.region[40] = 9;
    expect_refused(
        &r, COVER_BAD_REGIONS, 9,
        "cell r5c5 names region 'J'; a 9 x 9 grid has regions 'A' to 'I'");
    /* eight cells: A gives r1c1 to the region 'J' beyond the size */
    tc_jigsaw_map(&r);
    r.region[0] = 9;
    expect_refused(
        &r, COVER_BAD_REGIONS, 9,
        "cell r1c1 names region 'J'; a 9 x 9 grid has regions 'A' to 'I'");
    /* A with 8 cells: its r3c3 given to E, which then has 10 */
    tc_jigsaw_map(&r);
    r.region[20] = 4;
    expect_refused(&r, COVER_BAD_REGIONS, 0, "region 'A' has 8 cells, not 9");
}

static void bad_extra_groups_are_refused_with_a_message(void **state)
{
    struct cover_rules r;

    (void)state;
    cover_rules_init(&r, 9);
    tc_hyper_groups(&r);
    r.extra[2].ncells = 0;
    expect_refused(&r, COVER_BAD_EXTRA, 2, "extra group 2 is empty");
    tc_hyper_groups(&r);
    r.extra[1].ncells = 10;
    expect_refused(&r, COVER_BAD_EXTRA, 1,
                   "extra group 1 has 10 cells, more than 9");
    tc_hyper_groups(&r);
    r.extra[3].cell[4] = r.extra[3].cell[1];
    expect_refused(&r, COVER_BAD_EXTRA, 3, "extra group 3 names cell 51 twice");
    tc_hyper_groups(&r);
    r.extra[0].cell[8] = 81;
    expect_refused(&r, COVER_BAD_EXTRA, 0,
                   "extra group 0 names cell 81, off the grid");
    r.nextra = COVER_MAX_EXTRA + 1;
    expect_refused(&r, COVER_BAD_EXTRA, -1, "33 extra groups, more than 32");
    /* NULL buffers are fine */
    r.nextra = 0;
    r.n = 5;
    assert_int_equal(cover_rules_check(&r, NULL, NULL, 0), COVER_BAD_SIZE);
}

/* ------------------------------------------------------------ the text */

static void parse_format(void **state)
{
    struct cover_grid g;
    char out[COVER_MAX_CELLS + 1];
    char text[COVER_MAX_CELLS + 1];
    size_t bad = 0;

    (void)state;
    /* 16x16: digits 1-9, A-G either case; '0' and '.' blank */
    memset(text, '.', 256);
    memcpy(text, "123456789ABCDEFG", 16);
    memcpy(text + 16, "abcdefg0", 8);
    assert_int_equal(cover_parse(text, 256, 16, &g, &bad), COVER_OK);
    assert_int_equal(g.n, 16);
    for (unsigned i = 0; i < 16; i++)
        assert_int_equal(g.cell[i], i + 1);
    for (unsigned i = 0; i < 7; i++)
        assert_int_equal(g.cell[16 + i], 10 + i);
    assert_int_equal(g.cell[23], 0);
    cover_format(&g, out);
    assert_int_equal(strlen(out), 256);
    assert_memory_equal(out, "123456789ABCDEFGABCDEFG.", 24);

    /* 'H' is 17, beyond 16; ':' no digit at all */
    text[30] = 'H';
    assert_int_equal(cover_parse(text, 256, 16, &g, &bad), COVER_BAD_CHAR);
    assert_int_equal(bad, 30);
    text[30] = '.';
    text[3] = ':';
    assert_int_equal(cover_parse(text, 256, 16, &g, &bad), COVER_BAD_CHAR);
    assert_int_equal(bad, 3);
    /* 25x25 takes up to 'P'/'p' */
    memset(text, 'p', 625);
    assert_int_equal(cover_parse(text, 625, 25, &g, &bad), COVER_OK);
    assert_int_equal(g.cell[624], 25);
    text[7] = 'Q';
    assert_int_equal(cover_parse(text, 625, 25, &g, &bad), COVER_BAD_CHAR);
    assert_int_equal(bad, 7);
    /* a 4x4 refuses 5; lengths other than n * n, sizes that do not exist */
    assert_int_equal(cover_parse("1234341221434321", 16, 4, &g, &bad),
                     COVER_OK);
    assert_int_equal(cover_parse("1234341221434325", 16, 4, &g, &bad),
                     COVER_BAD_CHAR);
    assert_int_equal(bad, 15);
    assert_int_equal(cover_parse("123434122143432", 15, 4, &g, &bad),
                     COVER_BAD_SIZE);
    assert_int_equal(cover_parse(text, 100, 10, &g, &bad), COVER_BAD_SIZE);
    assert_int_equal(cover_digit_char(0), '.');
    assert_int_equal(cover_digit_char(9), '9');
    assert_int_equal(cover_digit_char(10), 'A');
    assert_int_equal(cover_digit_char(25), 'P');
}

/* ------------------------------------------------------------ conflicts */

static void expect_conflict(const struct cover_conflict *c,
                            enum cover_unit unit, unsigned index,
                            unsigned digit, unsigned a, unsigned b)
{
    assert_int_equal(c->unit, unit);
    assert_int_equal(c->index, index);
    assert_int_equal(c->digit, digit);
    assert_int_equal(c->ncells, 2);
    assert_int_equal(c->cell[0], a);
    assert_int_equal(c->cell[1], b);
}

/* Fives at r1c1 (0), r1c5 (4), r2c3 (11), r5c5 (40) and a 7 at r9c9 and
 * r8c8 (80, 70) under every rule: each rule broken once or more. */
static void conflict_board(struct cover_rules *r, struct cover_grid *g)
{
    cover_rules_init(r, 9);
    r->diagonals = r->anti_knight = r->anti_king = 1;
    r->nextra = 1;
    r->extra[0].ncells = 3;
    r->extra[0].cell[0] = 0, r->extra[0].cell[1] = 40, r->extra[0].cell[2] = 79;
    tc_check_rules(r);
    *g = (struct cover_grid){.n = 9};
    g->cell[0] = g->cell[4] = g->cell[11] = g->cell[40] = 5;
    g->cell[80] = g->cell[70] = 7;
}

/* Listed in the contract's order (unit kind, index, digit). */
static void conflicts_list_every_broken_rule_in_contract_order(void **state)
{
    struct cover_rules r;
    struct cover_grid g;
    struct cover_conflict c[16];

    (void)state;
    conflict_board(&r, &g);
    assert_int_equal(cover_conflicts(&r, &g, c, 16), 10);
    expect_conflict(&c[0], COVER_ROW, 0, 5, 0, 4);
    expect_conflict(&c[1], COVER_COLUMN, 4, 5, 4, 40);
    expect_conflict(&c[2], COVER_BOX, 0, 5, 0, 11);
    expect_conflict(&c[3], COVER_BOX, 8, 7, 70, 80);
    expect_conflict(&c[4], COVER_DIAGONAL, 0, 5, 0, 40);
    expect_conflict(&c[5], COVER_DIAGONAL, 0, 7, 70, 80);
    expect_conflict(&c[6], COVER_EXTRA, 0, 5, 0, 40);
    expect_conflict(&c[7], COVER_KNIGHT, 0, 5, 0, 11);
    expect_conflict(&c[8], COVER_KNIGHT, 0, 5, 4, 11);
    expect_conflict(&c[9], COVER_KING, 0, 7, 70, 80);
}

static void conflicts_past_max_are_only_counted(void **state)
{
    struct cover_rules r;
    struct cover_grid g;
    struct cover_conflict c[16];

    (void)state;
    conflict_board(&r, &g);
    memset(c, 0, sizeof(c));
    assert_int_equal(cover_conflicts(&r, &g, c, 2), 10);
    assert_int_equal(c[1].unit, COVER_COLUMN);
    assert_int_equal(c[2].ncells, 0);
    assert_int_equal(cover_conflicts(&r, &g, NULL, 0), 10);
}

static void without_anti_knight_its_two_conflicts_go(void **state)
{
    struct cover_rules r;
    struct cover_grid g;
    struct cover_conflict c[16];

    (void)state;
    conflict_board(&r, &g);
    r.anti_knight = 0;
    assert_int_equal(cover_conflicts(&r, &g, c, 16), 8);
    assert_false(cover_is_solution_of(&r, &g, &g));
}
int test_cover(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_size),
        cmocka_unit_test(published_9x9_has_its_published_solution),
        cmocka_unit_test(diagonal_puzzle_has_its_one_solution),
        cmocka_unit_test(hyper_puzzle_has_its_one_solution),
        cmocka_unit_test(jigsaw_puzzle_has_its_one_solution),
        cmocka_unit_test(anti_knight_puzzle_has_its_one_solution),
        cmocka_unit_test(anti_king_puzzle_has_its_one_solution),
        cmocka_unit_test(group_of_three_cells_holds_each_digit_once),
        cmocka_unit_test(
            each_variant_rule_refuses_the_classic_grid_that_breaks_it),
        cmocka_unit_test(two_solutions),
        cmocka_unit_test(budget_stops_an_empty_16x16_at_10_nodes),
        cmocka_unit_test(no_budget_counts_an_empty_16x16_to_2_by_guessing),
        cmocka_unit_test(broken_givens_count_0_and_a_wrong_size_is_refused),
        cmocka_unit_test(bad_size_or_boxes_are_refused_with_a_message),
        cmocka_unit_test(bad_extra_groups_are_refused_with_a_message),
        cmocka_unit_test(parse_format),
        cmocka_unit_test(conflicts_list_every_broken_rule_in_contract_order),
        cmocka_unit_test(conflicts_past_max_are_only_counted),
        cmocka_unit_test(without_anti_knight_its_two_conflicts_go),
        cmocka_unit_test(tc_cover_and_sudoku_count_agree_on_shared_samples),
        cmocka_unit_test(tc_generated_puzzles_are_unique_and_replay_their_seed),
        cmocka_unit_test(tc_symmetric_puzzle_blanks_mirror_cells),
        cmocka_unit_test(tc_impossible_rules_generate_no_solution),
        cmocka_unit_test(tc_impossible_16x16_rules_give_up_on_budget),
        cmocka_unit_test(tc_every_data_set_puzzle_is_unique_and_verified),
        cmocka_unit_test(tc_two_threads_count_as_one_does),
        cmocka_unit_test(tc_counts_match_a_brute_force),
    };
    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("cover", tests, NULL, NULL);
}
