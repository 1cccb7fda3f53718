/* test_teach.c - cmocka tests of the general logic engine (src/engine/
 * teach/): every step of every walk on puzzles of each size (4, 6, 8, 9,
 * 12, 16) and rule (jigsaw, diagonals, windoku, anti-knight, anti-king)
 * and on the killer puzzles of tests/data checked against the solution,
 * which the tests' own checker verifies (tc_verify; the killer sums and
 * units by a loop here); then one constructed position per technique whose
 * deduction is worked out by hand in the comment above it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "codec_teach.h"
#include "cover.h"
#include "cover_support.h"
#include "killer.h"
#include "killer_support.h"
#include "support.h"
#include "teach.h"
#include "tests.h"

/* One puzzle of rules at a time: the value is about 100 KB. */
static struct teach_puzzle puzzle;

/* Walks givens to the end (10 s of budget, a cap, not a timing), failing the
 * test on a placement or elimination that the solution contradicts. Returns 1
 * when the walk solved the puzzle. */
static int walk_checked(const uint8_t *givens, const uint8_t *solution)
{
    struct teach_grid g;
    struct teach_step s;
    struct teach_budget b = {clock_now_us() + 10000000u, 0};
    enum teach_status st;

    assert_int_equal(teach_init(&puzzle, &g, givens), TEACH_OK);
    while ((st = teach_step(&puzzle, &g, &b, &s)) == TEACH_OK) {
        assert_true(s.nplacements + s.neliminations > 0);
        for (unsigned i = 0; i < s.nplacements; i++)
            assert_int_equal(s.placements[i].digit,
                             solution[s.placements[i].cell]);
        for (unsigned i = 0; i < s.neliminations; i++)
            assert_int_not_equal(s.eliminations[i].digit,
                                 solution[s.eliminations[i].cell]);
        teach_apply(&puzzle, &g, &s);
    }
    if (st != TEACH_SOLVED)
        return 0;
    for (unsigned c = 0; c < puzzle.ncells; c++)
        assert_int_equal(g.value[c], solution[c]);
    return 1;
}

/* The first `max` puzzles of a data set, walked and checked; returns how
 * many the walk solved. */
static unsigned check_set(const char *name, unsigned max)
{
    struct cover_rules r;
    struct cover_grid pz, sol;
    char path[64], line[1024];
    unsigned walked = 0, solved = 0;
    FILE *f;

    assert_true(tc_set_rules(name, &r));
    teach_from_cover(&puzzle, &r);
    snprintf(path, sizeof(path), "cover/%s", name);
    f = support_open_data(path);
    while (walked < max && fgets(line, sizeof(line), f)) {
        size_t len = strcspn(line, "\r\n");
        unsigned count = 0;
        if (len == 0 || line[0] == '#')
            continue;
        assert_int_equal(cover_parse(line, len, r.n, &pz, NULL), COVER_OK);
        assert_int_equal(cover_count(&r, &pz, 2, 0, &sol, &count, NULL),
                         COVER_OK);
        assert_int_equal(count, 1);
        assert_true(tc_verify(&r, &sol));
        solved += (unsigned)walk_checked(pz.cell, sol.cell);
        walked++;
    }
    fclose(f);
    assert_int_equal(walked, max);
    return solved;
}

static void
every_step_on_every_size_and_rule_agrees_with_the_solution(void **state)
{
    static const struct {
        const char *set;
        unsigned count, at_least_solved;
    } sets[] = {
        {"size4", 40, 40},       {"size6", 30, 30},     {"size8", 20, 20},
        {"jigsaw9", 15, 15},     {"diagonal9", 15, 15}, {"hyper9", 15, 15},
        {"antiknight9", 15, 14}, {"antiking9", 15, 15}, {"size12", 8, 8},
        {"size16", 3, 0},
    };
    (void)state;
    for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
        unsigned solved = check_set(sets[i].set, sets[i].count);
        if (solved < sets[i].at_least_solved)
            fail_msg("%s: %u of %u solved", sets[i].set, solved, sets[i].count);
    }
}

/* Rows, columns, boxes and cage sums of a killer solution, by a loop of
 * this file's own. */
static int obeys_killer(const struct sudoku_grid *s,
                        const struct killer_cages *k)
{
    for (int a = 0; a < 9; a++)
        for (int b = 0; b < 9; b++)
            for (int c = b + 1; c < 9; c++) {
                int box = a / 3 * 27 + a % 3 * 3;
                if (s->cell[a * 9 + b] == s->cell[a * 9 + c] ||
                    s->cell[b * 9 + a] == s->cell[c * 9 + a] ||
                    s->cell[box + b / 3 * 9 + b % 3] ==
                        s->cell[box + c / 3 * 9 + c % 3])
                    return 0;
            }
    for (unsigned i = 0; i < k->ncages; i++) {
        int sum = 0;
        for (unsigned j = k->cage[i].first;
             j < k->cage[i].first + k->cage[i].ncells; j++)
            sum += s->cell[k->row[j] * 9 + k->col[j]];
        if (sum != k->cage[i].sum)
            return 0;
    }
    return 1;
}

static void
every_step_on_the_killer_puzzles_agrees_with_the_solution(void **state)
{
    enum { COUNT = 40 };
    static struct kt_puzzle set[COUNT];
    size_t n = kt_load_set(set, COUNT);
    unsigned solved = 0;

    (void)state;
    assert_int_equal(n, COUNT);
    for (size_t i = 0; i < n; i++) {
        assert_true(obeys_killer(&set[i].solution, &set[i].cages));
        teach_from_killer(&puzzle, &set[i].cages);
        solved +=
            (unsigned)walk_checked(set[i].puzzle.cell, set[i].solution.cell);
    }
    /* the bench solves 100 of 100 (docs/performance.md) */
    assert_true(solved >= COUNT - 1);
}

/* ------------------------------------------------------------------------
 * One position per technique
 * ------------------------------------------------------------------------ */

static void givens_of(const char *text, uint8_t *out, unsigned n)
{
    for (unsigned c = 0; c < n * n; c++)
        out[c] = text[c] == '.' ? 0 : (uint8_t)(text[c] - '0');
}

/* Steps until a technique other than the listed ones comes; returns it in
 * *s (the grid as it was before that step in *g). */
static void step_past(struct teach_grid *g, struct teach_step *s,
                      const enum teach_technique *skip, size_t nskip)
{
    for (;;) {
        int skipped = 0;
        assert_int_equal(teach_step(&puzzle, g, NULL, s), TEACH_OK);
        for (size_t i = 0; i < nskip; i++)
            skipped |= s->technique == skip[i];
        if (!skipped)
            return;
        teach_apply(&puzzle, g, s);
    }
}

static int eliminates(const struct teach_step *s, unsigned cell, unsigned digit)
{
    for (unsigned i = 0; i < s->neliminations; i++)
        if (s->eliminations[i].cell == cell &&
            s->eliminations[i].digit == digit)
            return 1;
    return 0;
}

static struct cover_rules classic9(void)
{
    struct cover_rules r;
    assert_int_equal(cover_rules_init(&r, 9), COVER_OK);
    tc_check_rules(&r);
    return r;
}

/* 4x4 with row 0 "123.": in row 0 (the first unit tried) 4 has one
 * place left, [0,3]: a hidden single. */
static void the_last_digit_of_a_row_is_a_single(void **state)
{
    struct cover_rules r;
    uint8_t givens[16];
    struct teach_grid g;
    struct teach_step s;

    (void)state;
    assert_int_equal(cover_rules_init(&r, 4), COVER_OK);
    tc_check_rules(&r);
    teach_from_cover(&puzzle, &r);
    givens_of("123.............", givens, 4);
    assert_int_equal(teach_init(&puzzle, &g, givens), TEACH_OK);
    assert_int_equal(teach_step(&puzzle, &g, NULL, &s), TEACH_OK);
    assert_int_equal(s.technique, TEACH_HIDDEN_SINGLE);
    assert_int_equal(puzzle.unit[s.units[0]].kind, TEACH_ROW);
    assert_int_equal(s.nplacements, 1);
    assert_int_equal(s.placements[0].cell, 3);
    assert_int_equal(s.placements[0].digit, 4);
}

/* Anti-knight at 4x4: a 1 at [0,0] forbids 1 at [1,2] and [2,1] (a
 * knight's move), beside its row, column and box. */
static void anti_knight_givens_leave_the_knights_cells(void **state)
{
    struct cover_rules r;
    uint8_t givens[16] = {1};
    struct teach_grid g;

    (void)state;
    assert_int_equal(cover_rules_init(&r, 4), COVER_OK);
    r.anti_knight = 1;
    tc_check_rules(&r);
    teach_from_cover(&puzzle, &r);
    assert_int_equal(teach_init(&puzzle, &g, givens), TEACH_OK);
    assert_false(g.cand[1 * 4 + 2] & 1u);
    assert_false(g.cand[2 * 4 + 1] & 1u);
    assert_true(g.cand[2 * 4 + 2] & 1u); /* a diagonal, not a knight */
    assert_true(g.cand[3 * 4 + 3] & 1u);
}

/* Box 0 holds 2-7 in rows 1 and 2, so its 1 is in row 0, columns 0-2;
 * then no other cell of row 0 can hold 1: [0,3] .. [0,8] lose it. */
static void a_box_digit_in_one_row_leaves_the_rest_of_it(void **state)
{
    struct cover_rules r = classic9();
    uint8_t givens[81];
    struct teach_grid g;
    struct teach_step s;

    (void)state;
    teach_from_cover(&puzzle, &r);
    givens_of("........."
              "234......"
              "567......"
              "........."
              "........."
              "........."
              "........."
              "........."
              ".........",
              givens, 9);
    assert_int_equal(teach_init(&puzzle, &g, givens), TEACH_OK);
    assert_int_equal(teach_step(&puzzle, &g, NULL, &s), TEACH_OK);
    assert_int_equal(s.technique, TEACH_LOCKED_CANDIDATES);
    assert_int_equal(s.digits, 1u); /* digit 1 */
    assert_int_equal(puzzle.unit[s.units[0]].kind, TEACH_BOX);
    assert_int_equal(puzzle.unit[s.units[0]].index, 0);
    assert_int_equal(s.neliminations, 6);
    for (unsigned c = 3; c < 9; c++)
        assert_true(eliminates(&s, c, 1));
}

/* Rows 0 and 4 hold 3-9 in every column but 0 and 3, so [0,0], [4,0]
 * (and [0,3], [4,3]) can hold 1 or 2 only. In column 0 the two cells
 * [0,0] and [4,0] take 1 and 2 between them: the other seven cells of
 * column 0 lose 1 and 2 (14 eliminations). Nothing simpler applies: no
 * digit has one place in a unit, and 1's two places in row 0 see only
 * row 0 in common. */
static void a_naked_pair_clears_its_column(void **state)
{
    struct cover_rules r = classic9();
    uint8_t givens[81];
    struct teach_grid g;
    struct teach_step s;

    (void)state;
    teach_from_cover(&puzzle, &r);
    givens_of(".34.56789"
              "........."
              "........."
              "........."
              ".56.78934"
              "........."
              "........."
              "........."
              ".........",
              givens, 9);
    assert_int_equal(teach_init(&puzzle, &g, givens), TEACH_OK);
    assert_int_equal(teach_step(&puzzle, &g, NULL, &s), TEACH_OK);
    assert_int_equal(s.technique, TEACH_NAKED_PAIR);
    assert_int_equal(puzzle.unit[s.units[0]].kind, TEACH_COLUMN);
    assert_int_equal(puzzle.unit[s.units[0]].index, 0);
    assert_int_equal(s.digits, 3u); /* 1 and 2 */
    assert_int_equal(s.neliminations, 14);
    for (unsigned row = 0; row < 9; row++)
        if (row != 0 && row != 4) {
            assert_true(eliminates(&s, row * 9, 1));
            assert_true(eliminates(&s, row * 9, 2));
        }
}

/* Killer cages on an empty board. */
static void killer_of(const char *cages)
{
    static struct killer_cages k;

    killer_init(&k);
    assert_int_equal(killer_parse(cages, strlen(cages), &k, NULL), KILLER_OK);
    teach_from_killer(&puzzle, &k);
}

/* A two-cell cage of 3 can only be 1+2: its cells lose 3-9. */
static void a_cage_of_three_in_two_cells_is_one_and_two(void **state)
{
    uint8_t givens[81] = {0};
    struct teach_grid g;
    struct teach_step s;

    (void)state;
    killer_of("3:11,12");
    assert_int_equal(teach_init(&puzzle, &g, givens), TEACH_OK);
    assert_int_equal(teach_step(&puzzle, &g, NULL, &s), TEACH_OK);
    assert_int_equal(s.technique, TEACH_CAGE_COMBINATION);
    assert_int_equal(s.ncombos, 1);
    assert_int_equal(s.combos[0], 3u);
    assert_int_equal(s.neliminations, 14);
    for (unsigned d = 3; d <= 9; d++) {
        assert_true(eliminates(&s, 0, d));
        assert_true(eliminates(&s, 1, d));
    }
}

/* Box 0 (rows 0-2, columns 0-2): cages 6 on row 0, 15 on row 1 and 15 on
 * [2,0], [2,1] lie inside it; [2,2] is in a cage that sticks out. The box
 * sums to 45, the cages inside to 36, so [2,2] is 9. */
static void innies_of_a_box_place_its_last_cell(void **state)
{
    static const enum teach_technique skip[] = {
        TEACH_HIDDEN_SINGLE, TEACH_CAGE_COMBINATION, TEACH_NAKED_SINGLE};
    uint8_t givens[81] = {0};
    struct teach_grid g;
    struct teach_step s;
    char text[512];

    (void)state;
    killer_of("6:11,12,13;15:21,22,23;15:31,32;10:33,34");
    assert_int_equal(teach_init(&puzzle, &g, givens), TEACH_OK);
    step_past(&g, &s, skip, 3);
    assert_int_equal(s.technique, TEACH_INNIES);
    assert_int_equal(s.nplacements, 1);
    assert_int_equal(s.placements[0].cell, 2 * 9 + 2);
    assert_int_equal(s.placements[0].digit, 9);
    teach_explain(&puzzle, &s, text, sizeof(text));
    assert_string_equal(text, "The cells of box 0 sum to 45; the cages inside "
                              "it sum to 36, so [2,2] is 9.");
}

/* Box 0 is covered by a cage of 10 (1+2+3+4: [0,0]-[0,2], [1,0]) and one
 * of 36 that also takes [3,0]. The two cages sum to 46, one more than the
 * box: [3,0], sticking out, is 1. */
static void outies_of_a_box_place_the_cell_sticking_out(void **state)
{
    static const enum teach_technique skip[] = {
        TEACH_HIDDEN_SINGLE, TEACH_CAGE_COMBINATION, TEACH_NAKED_SINGLE};
    uint8_t givens[81] = {0};
    struct teach_grid g;
    struct teach_step s;

    (void)state;
    killer_of("10:11,12,13,21;36:22,23,31,32,33,41");
    assert_int_equal(teach_init(&puzzle, &g, givens), TEACH_OK);
    step_past(&g, &s, skip, 3);
    assert_int_equal(s.technique, TEACH_OUTIES);
    assert_int_equal(s.nplacements, 1);
    assert_int_equal(s.placements[0].cell, 3 * 9);
    assert_int_equal(s.placements[0].digit, 1);
}

/* The first anti-knight puzzle of the data set needs the last resort (the
 * bench's walk of it takes forcing chains): such a step removes exactly
 * its assumed candidate, and that digit is not the solution's. */
static void a_forcing_chain_candidate_leads_to_a_broken_rule(void **state)
{
    struct cover_rules r;
    struct cover_grid pz, sol;
    char line[1024];
    struct teach_grid g;
    struct teach_step s;
    unsigned count = 0, found = 0;
    FILE *f;

    (void)state;
    assert_true(tc_set_rules("antiknight9", &r));
    teach_from_cover(&puzzle, &r);
    f = support_open_data("cover/antiknight9");
    assert_non_null(fgets(line, sizeof(line), f));
    fclose(f);
    assert_int_equal(cover_parse(line, 81, 9, &pz, NULL), COVER_OK);
    assert_int_equal(cover_count(&r, &pz, 2, 0, &sol, &count, NULL), COVER_OK);
    assert_int_equal(teach_init(&puzzle, &g, pz.cell), TEACH_OK);
    while (!found && teach_step(&puzzle, &g, NULL, &s) == TEACH_OK) {
        if (s.technique == TEACH_FORCING_CHAIN) {
            /* the assumption, placed, with nothing else: is the digit
             * really not the solution's? */
            assert_int_equal(s.neliminations, 1);
            assert_int_not_equal(sol.cell[s.eliminations[0].cell],
                                 s.eliminations[0].digit);
            found = 1;
        }
        teach_apply(&puzzle, &g, &s);
    }
    assert_true(found);
}

/* An empty classic 9x9 whose candidates are then cut by hand: digit
 * `digit` is removed from row r's cells outside the columns in `keep`. */
static void keep_only(struct teach_grid *g, unsigned r, unsigned digit,
                      const unsigned *keep, size_t nkeep)
{
    for (unsigned c = 0; c < 9; c++) {
        int kept = 0;
        for (size_t k = 0; k < nkeep; k++)
            kept |= keep[k] == c;
        if (!kept)
            g->cand[r * 9 + c] &= ~(1u << (digit - 1));
    }
}

static void empty_classic(struct teach_grid *g)
{
    struct cover_rules r = classic9();
    uint8_t givens[81] = {0};

    teach_from_cover(&puzzle, &r);
    assert_int_equal(teach_init(&puzzle, g, givens), TEACH_OK);
}

/* In rows 0 and 4, 1 can only go in columns 0 and 3. Each row holds one
 * 1 in those columns and no two share a column, so the two 1s fill
 * columns 0 and 3: the seven other cells of each column lose 1 (14). No
 * unit has fewer than two places for 1, and the two places in a row share
 * no box, so nothing simpler applies. */
static void an_x_wing_clears_its_two_columns(void **state)
{
    static const unsigned cols[] = {0, 3};
    struct teach_grid g;
    struct teach_step s;

    (void)state;
    empty_classic(&g);
    keep_only(&g, 0, 1, cols, 2);
    keep_only(&g, 4, 1, cols, 2);
    assert_int_equal(teach_step(&puzzle, &g, NULL, &s), TEACH_OK);
    assert_int_equal(s.technique, TEACH_X_WING);
    assert_int_equal(s.neliminations, 14);
    for (unsigned r = 0; r < 9; r++)
        if (r != 0 && r != 4) {
            assert_true(eliminates(&s, r * 9 + 0, 1));
            assert_true(eliminates(&s, r * 9 + 3, 1));
        }
}

/* The same with rows 0, 3 and 6 and columns 0, 3 and 6: a swordfish,
 * whose three 1s fill the three columns; their 18 other cells lose 1. */
static void a_swordfish_clears_its_three_columns(void **state)
{
    static const unsigned cols[] = {0, 3, 6};
    struct teach_grid g;
    struct teach_step s;

    (void)state;
    empty_classic(&g);
    for (unsigned r = 0; r < 9; r += 3)
        keep_only(&g, r, 1, cols, 3);
    assert_int_equal(teach_step(&puzzle, &g, NULL, &s), TEACH_OK);
    assert_int_equal(s.technique, TEACH_SWORDFISH);
    assert_int_equal(s.neliminations, 18);
    for (unsigned r = 0; r < 9; r++)
        for (unsigned k = 0; k < 3; k++)
            if (r % 3 != 0)
                assert_true(eliminates(&s, r * 9 + cols[k], 1));
}

/* In row 0, 1 and 2 can only go in [0,0] and [0,3] (different boxes, so
 * no locked candidates): those two cells hold 1 and 2 and lose 3-9 (14
 * eliminations). */
static void a_hidden_pair_clears_its_two_cells(void **state)
{
    static const unsigned cols[] = {0, 3};
    struct teach_grid g;
    struct teach_step s;

    (void)state;
    empty_classic(&g);
    keep_only(&g, 0, 1, cols, 2);
    keep_only(&g, 0, 2, cols, 2);
    assert_int_equal(teach_step(&puzzle, &g, NULL, &s), TEACH_OK);
    assert_int_equal(s.technique, TEACH_HIDDEN_PAIR);
    assert_int_equal(s.digits, 3u);
    assert_int_equal(s.neliminations, 14);
    for (unsigned d = 3; d <= 9; d++) {
        assert_true(eliminates(&s, 0, d));
        assert_true(eliminates(&s, 3, d));
    }
}

/* A cage of 17 on [0,0], [0,1] is 8+9 (the first step takes 1-7 from
 * it). Every fitting set holds 8, which can go in either cell; both see
 * the rest of row 0 and of box 0, so those 13 cells lose 8. */
static void
a_digit_every_cage_set_holds_leaves_the_cells_seeing_it(void **state)
{
    uint8_t givens[81] = {0};
    struct teach_grid g;
    struct teach_step s;

    (void)state;
    killer_of("17:11,12");
    assert_int_equal(teach_init(&puzzle, &g, givens), TEACH_OK);
    assert_int_equal(teach_step(&puzzle, &g, NULL, &s), TEACH_OK);
    assert_int_equal(s.technique, TEACH_CAGE_COMBINATION);
    teach_apply(&puzzle, &g, &s);
    assert_int_equal(teach_step(&puzzle, &g, NULL, &s), TEACH_OK);
    assert_int_equal(s.technique, TEACH_CAGE_LOCKED);
    assert_int_equal(s.digits, 1u << 7);
    assert_int_equal(s.neliminations, 13);
    for (unsigned c = 2; c < 9; c++)
        assert_true(eliminates(&s, c, 8));
    for (unsigned c = 9; c < 27; c++)
        if (c % 9 < 3)
            assert_true(eliminates(&s, c, 8));
}

/* Digit 1 in row 0 only at [0,1] and [0,4], in row 3 only at [3,2] and
 * [3,4]. If [0,1] is not 1, [0,4] is; then [3,4] (same column) is not, so
 * [3,2] is: one of [0,1] and [3,2] is 1. The cells that see both (column
 * 1 in box 3, column 2 in box 0) with 1 as a candidate lose it: [1,2],
 * [2,2], [4,1], [5,1]. */
static void an_x_chain_clears_the_cells_seeing_both_ends(void **state)
{
    static const unsigned row0[] = {1, 4}, row3[] = {2, 4};
    struct teach_grid g;
    struct teach_step s;
    char text[512];

    (void)state;
    empty_classic(&g);
    keep_only(&g, 0, 1, row0, 2);
    keep_only(&g, 3, 1, row3, 2);
    assert_int_equal(teach_step(&puzzle, &g, NULL, &s), TEACH_OK);
    assert_int_equal(s.technique, TEACH_X_CHAIN);
    assert_int_equal(s.neliminations, 4);
    assert_true(eliminates(&s, 1 * 9 + 2, 1));
    assert_true(eliminates(&s, 2 * 9 + 2, 1));
    assert_true(eliminates(&s, 4 * 9 + 1, 1));
    assert_true(eliminates(&s, 5 * 9 + 1, 1));
    teach_explain(&puzzle, &s, text, sizeof(text));
    assert_non_null(strstr(text, "X-chain on 1"));
}

/* [0,4] is 1 or 3, [0,0] 1 or 2, [4,0] 2 or 3 (the rest of the grid
 * open): an XY-wing with pivot [0,0]. If [0,4] is not 3 it is 1, so [0,0]
 * is 2, so [4,0] is 3: one of [0,4] and [4,0] is 3, and [4,4], which sees
 * both, cannot be. */
static void an_xy_wing_clears_the_cell_seeing_both_pincers(void **state)
{
    struct teach_grid g;
    struct teach_step s;

    (void)state;
    empty_classic(&g);
    g.cand[4] = 1u | 4u;         /* 1, 3 */
    g.cand[0] = 1u | 2u;         /* 1, 2 */
    g.cand[4 * 9 + 0] = 2u | 4u; /* 2, 3 */
    assert_int_equal(teach_step(&puzzle, &g, NULL, &s), TEACH_OK);
    assert_int_equal(s.technique, TEACH_XY_WING);
    assert_int_equal(s.neliminations, 1);
    assert_true(eliminates(&s, 4 * 9 + 4, 3));
    assert_int_equal(s.ncells, 3);
    assert_int_equal(s.cells[1], 0); /* the pivot */
}

/* [0,0] {1,2}, [0,4] {2,3}, [4,4] {3,4}, [4,0] {4,1}: no pivot has two
 * pincers sharing a digit, but the chain runs: if [0,0] is not 1 it is 2,
 * so [0,4] is 3, so [4,4] is 4, so [4,0] is 1; one of [0,0] and [4,0]
 * (both in column 0) is 1, so [8,0] cannot be. */
static void an_xy_chain_clears_the_cells_seeing_both_ends(void **state)
{
    struct teach_grid g;
    struct teach_step s;

    (void)state;
    empty_classic(&g);
    g.cand[0] = 1u | 2u;
    g.cand[4] = 2u | 4u;
    g.cand[4 * 9 + 4] = 4u | 8u;
    g.cand[4 * 9 + 0] = 8u | 1u;
    assert_int_equal(teach_step(&puzzle, &g, NULL, &s), TEACH_OK);
    assert_int_equal(s.technique, TEACH_XY_CHAIN);
    assert_true(eliminates(&s, 8 * 9 + 0, 1));
    assert_int_equal(s.ncells, 4);
}

/* Digit 1 in row 0 only at [0,0] and [0,4]; [0,4] holds 1 or 2; 2 in
 * column 4 only at [0,4] and [4,4]; [4,0] holds 1 or 2 (the rest open).
 * If [0,0] is not 1, [0,4] is 1 (row 0), so it is not 2, so [4,4] is 2
 * (column 4), so [4,0] (row 4) is not 2, so it is 1. One of [0,0] and
 * [4,0] is 1: the seven other cells of column 0 lose it. One digit's
 * strong links do not join (one per digit), only two cells have two
 * candidates and they are not peers, so no X-, XY-chain or XY-wing
 * applies; the chain needs both kinds of strong link. */
static void an_aic_mixing_cells_and_units_clears_column_0(void **state)
{
    static const unsigned row0[] = {0, 4};
    struct teach_grid g;
    struct teach_step s;
    char text[1024];

    (void)state;
    empty_classic(&g);
    keep_only(&g, 0, 1, row0, 2);
    g.cand[4] = 1u | 2u;
    for (unsigned r = 1; r < 9; r++)
        if (r != 4)
            g.cand[r * 9 + 4] &= ~2u;
    g.cand[4 * 9 + 0] = 1u | 2u;
    assert_int_equal(teach_step(&puzzle, &g, NULL, &s), TEACH_OK);
    assert_int_equal(s.technique, TEACH_AIC);
    assert_int_equal(s.neliminations, 7);
    for (unsigned r = 1; r < 9; r++)
        if (r != 4)
            assert_true(eliminates(&s, r * 9 + 0, 1));
    assert_int_equal(s.ncells, 6);
    assert_int_equal(s.cells[0], 0);
    assert_int_equal(s.cells[5], 4 * 9 + 0);
    teach_explain(&puzzle, &s, text, sizeof(text));
    assert_non_null(strstr(text, "if [0,0] is not 1, then [0,4] is 1"));
    assert_non_null(strstr(text, "[1,0] loses 1"));
}

/* Digit 1 in row 0 only at [0,0] and [0,4]; in column 4 only at [0,4],
 * [3,4] and [4,4]; in box 4 only at [3,4], [4,4] and [5,3] (the rest
 * open). If [0,0] is not 1, [0,4] is (row 0), so neither [3,4] nor [4,4]
 * is (column 4), so [5,3] is (box 4): one of [0,0] and [5,3] is 1, and
 * [5,0], which sees both, loses it ([0,3], the other such cell, has no 1).
 * No unit but row 0 has two places for 1 and no cell two candidates, so
 * only the group [3,4]+[4,4] (box 4 meets column 4) joins the links. */
static void a_grouped_aic_links_through_a_box_and_column(void **state)
{
    static const unsigned row0[] = {0, 4};
    struct codec_teach_hint h = {0};
    struct teach_grid g;
    struct teach_step s;
    char text[1024], *json;
    size_t len;

    (void)state;
    empty_classic(&g);
    keep_only(&g, 0, 1, row0, 2);
    for (unsigned r = 1; r < 9; r++)
        if (r != 3 && r != 4)
            g.cand[r * 9 + 4] &= ~1u;
    for (unsigned r = 3; r < 6; r++)
        for (unsigned c = 3; c < 6; c++)
            if (r * 9 + c != 3 * 9 + 4 && r * 9 + c != 4 * 9 + 4 &&
                r * 9 + c != 5 * 9 + 3)
                g.cand[r * 9 + c] &= ~1u;
    assert_int_equal(teach_step(&puzzle, &g, NULL, &s), TEACH_OK);
    assert_int_equal(s.technique, TEACH_AIC);
    assert_int_equal(s.neliminations, 1);
    assert_true(eliminates(&s, 5 * 9 + 0, 1));
    assert_int_equal(s.chain_length, 4);
    assert_int_equal(s.ncells, 5); /* the group's two cells are one node */
    assert_int_equal(s.chain_node[2], 2);
    assert_int_equal(s.chain_node[3], 2);
    teach_explain(&puzzle, &s, text, sizeof(text));
    assert_non_null(strstr(text, "so none of [3,4] and [4,4] is 1, then "
                                 "[5,3] is 1"));
    /* the answer's links: four nodes, the group one of them with its cells,
     * its link (to [5,3]) strong */
    h.puzzle = &puzzle;
    h.step = &s;
    h.explanation = text;
    json = codec_encode_teach_hint(&h, &len);
    assert_non_null(json);
    assert_non_null(strstr(json, "\"cell\":[3,4],\"digit\":1,\"link\":"
                                 "\"strong\",\"cells\":[[3,4],[4,4]]"));
    assert_non_null(strstr(json, "\"cell\":[5,3],\"digit\":1,\"link\":"
                                 "\"end\""));
    free(json);
}

/* Killer: a cage of 6 on [0,2], [1,2], [1,3] is 1+2+3, and [1,2] holds
 * only 2 or 3, so the cage's 1 is at [0,2] or [1,3] (cells in no common
 * row, column or box: only the cage links them). The cells that see both
 * have lost 1 already (the cage-locked step), and [1,0], [1,1] their 2
 * and 3; 1 in row 5 only at [5,2] and [5,3]. If [0,2] is not 1, [1,3] is
 * (the cage), so [5,3] is not (column 3), so [5,2] is (row 5): one of
 * [0,2] and [5,2] is 1, and the rest of column 2 loses it (six cells;
 * [1,2] has no 1). No full unit but row 5 has two places for 1. */
static void an_aic_uses_the_digit_a_cage_must_hold(void **state)
{
    uint8_t givens[81] = {0};
    struct teach_grid g;
    struct teach_step s;
    char text[1024];

    (void)state;
    killer_of("6:13,23,24");
    assert_int_equal(teach_init(&puzzle, &g, givens), TEACH_OK);
    g.cand[2] = g.cand[9 + 3] = 7u; /* 1, 2, 3 */
    g.cand[9 + 2] = 6u;             /* 2, 3 */
    for (unsigned c = 3; c < 6; c++)
        g.cand[c] &= ~1u;
    g.cand[9 + 0] &= ~7u;
    g.cand[9 + 1] &= ~7u;
    for (unsigned c = 0; c < 9; c++)
        if (c != 2 && c != 3)
            g.cand[5 * 9 + c] &= ~1u;
    assert_int_equal(teach_step(&puzzle, &g, NULL, &s), TEACH_OK);
    assert_int_equal(s.technique, TEACH_AIC);
    assert_int_equal(s.neliminations, 6);
    for (unsigned r = 2; r < 9; r++)
        if (r != 5)
            assert_true(eliminates(&s, r * 9 + 2, 1));
    assert_int_equal(s.ncells, 4);
    teach_explain(&puzzle, &s, text, sizeof(text));
    assert_non_null(strstr(text, "if [0,2] is not 1, then [1,3] is 1, so "
                                 "[5,3] is not 1, then [5,2] is 1"));
}

/* Diagonals: [0,0] holds 1 or 2; on the anti-diagonal 1 can go only at
 * [0,8], [8,0], [4,4] and [3,5]; in column 5, 2 only at [0,5] and [3,5]
 * (the rest open); [0,8], which sees both (row 0, the anti-diagonal),
 * has lost its 2 to that. [0,0] sees [0,8] (row 0), [8,0] (column 0) and [4,4]
 * (the main diagonal), so: if [0,0] is not 2 it is 1, so none of those
 * three is 1, so [3,5] is (the anti-diagonal), so it is not 2, so [0,5]
 * is (column 5). One of [0,0] and [0,5] is 2: the six other cells of
 * row 0 that still have it lose it. The three cells share no unit but the
 * anti-diagonal, so only a group of the places a cell sees makes the link. */
static void an_aic_groups_the_places_a_cell_sees(void **state)
{
    static const unsigned anti[] = {8, 72, 40, 32};
    struct cover_rules r;
    uint8_t givens[81] = {0};
    struct teach_grid g;
    struct teach_step s;
    char text[1024];

    (void)state;
    assert_true(tc_set_rules("diagonal9", &r));
    teach_from_cover(&puzzle, &r);
    assert_int_equal(teach_init(&puzzle, &g, givens), TEACH_OK);
    g.cand[0] = 3u;
    for (unsigned row = 0; row < 9; row++) {
        unsigned c = row * 9 + 8 - row, keep = 0;
        for (unsigned i = 0; i < 4; i++)
            keep |= anti[i] == c;
        if (!keep)
            g.cand[c] &= ~1u;
        if (row != 0 && row != 3)
            g.cand[row * 9 + 5] &= ~2u;
    }
    g.cand[8] &= ~2u;
    assert_int_equal(teach_step(&puzzle, &g, NULL, &s), TEACH_OK);
    assert_int_equal(s.technique, TEACH_AIC);
    assert_int_equal(s.neliminations, 6);
    for (unsigned c = 1; c < 8; c++)
        if (c != 5)
            assert_true(eliminates(&s, c, 2));
    assert_int_equal(s.chain_length, 6);
    teach_explain(&puzzle, &s, text, sizeof(text));
    assert_non_null(strstr(text, "so none of [0,8], [4,4] and [8,0] is 1, "
                                 "then [3,5] is 1"));
}

/* Walks a killer puzzle of tests/data to its first innies_outies step of
 * one innie and one outie: *s, with *g the grid before it. */
static void walk_to_innie_outie(const struct kt_puzzle *kp,
                                struct teach_grid *g, struct teach_step *s)
{
    teach_from_killer(&puzzle, &kp->cages);
    assert_int_equal(teach_init(&puzzle, g, kp->puzzle.cell), TEACH_OK);
    for (;;) {
        assert_int_equal(teach_step(&puzzle, g, NULL, s), TEACH_OK);
        if (s->technique == TEACH_INNIES_OUTIES && s->ncells == 2 &&
            s->ninnies == 1)
            return;
        teach_apply(&puzzle, g, s);
    }
}

/* Killer puzzle 43 of tests/data (0-based), walked to its first
 * innies_outies step with two cells. Column 0 sums to 45; the cages wholly
 * inside it (summed here from the cage list) make 28; cage 0 (sum 10:
 * [0,0], [1,0] in the column, [0,1] sticking out) counted whole leaves
 * [6,0], in no cage inside: [6,0] - [0,1] = 45 - 28 - 10 = 7. With [6,0]
 * in {6,7,8,9} and [0,1] in {1,2,3,5,6,7}, only [0,1] = 1 or 2 with
 * [6,0] = 8 or 9 fit: [6,0] loses 6 and 7, [0,1] loses 3, 5, 6 and 7. */
static void an_innie_less_an_outie_is_a_constant(void **state)
{
    enum { COUNT = 44 };
    static struct kt_puzzle set[COUNT];
    const struct killer_cages *k = &set[43].cages;
    struct teach_grid g;
    struct teach_step s;
    unsigned inside = 0;
    char text[512];

    (void)state;
    assert_int_equal(kt_load_set(set, COUNT), COUNT);
    for (unsigned i = 0; i < k->ncages; i++) {
        unsigned in_col0 = 0;
        for (unsigned j = 0; j < k->cage[i].ncells; j++)
            in_col0 += k->col[k->cage[i].first + j] == 0;
        if (in_col0 == k->cage[i].ncells)
            inside += k->cage[i].sum;
    }
    assert_int_equal(inside, 28);
    walk_to_innie_outie(&set[43], &g, &s);
    assert_int_equal(g.cand[6 * 9 + 0], 0x1e0u); /* 6-9 */
    assert_int_equal(g.cand[0 * 9 + 1], 0x77u);  /* 1-3, 5-7 */
    assert_int_equal(s.ninnies, 1);
    assert_int_equal(s.cells[0], 6 * 9 + 0);
    assert_int_equal(s.cells[1], 0 * 9 + 1);
    assert_int_equal(s.net, 7);
    assert_int_equal(s.neliminations, 6);
    assert_true(eliminates(&s, 6 * 9 + 0, 6));
    assert_true(eliminates(&s, 6 * 9 + 0, 7));
    for (unsigned d = 3; d <= 7; d++)
        if (d != 4)
            assert_true(eliminates(&s, 0 * 9 + 1, d));
    teach_explain(&puzzle, &s, text, sizeof(text));
    assert_string_equal(text,
                        "The cells of column 0 sum to 45; the cages inside "
                        "it sum to 28 and cage 0 (sum 10), sticking out, "
                        "adds 10; so its other cells less the cells sticking "
                        "out make 7: [6,0] - [0,1] = 7, so [6,0] loses 6 and "
                        "7; [0,1] loses 3, 5, 6 and 7.");
}

/* Killer puzzle 55 of tests/data, at its first step of one innie and one
 * outie: box 8 and cage 21 (sum 32, [5,8] sticking out) give
 * [8,6] - [5,8] = 4; with [8,6] in {4,5,7,9} and [5,8] in {2,3,4,5,7}
 * only 7 - 3 and 9 - 5 fit. [8,6] is also the part inside box 8 of cage
 * 25 (sum 17), split: its other cells [7,5] {3,4,5,6,7}, [8,5] {1,4,5,7}
 * and [8,4] {1,2,4,7} add 10 (1+4+5, 2+3+5) or 8 (1+2+5, 1+3+4). In those
 * sets [7,5] can only be 3, 4 or 5 ({1,3,6} does not fit their marks),
 * [8,5] 1, 4 or 5, [8,4] 1, 2 or 4: they lose 6 and 7, 7, and 7. */
static void a_split_cage_keeps_what_its_other_part_can_add(void **state)
{
    enum { COUNT = 56 };
    static struct kt_puzzle set[COUNT];
    struct teach_grid g;
    struct teach_step s;
    static const struct {
        unsigned cell, digit;
    } lost[] = {{8 * 9 + 6, 4}, {8 * 9 + 6, 5}, {5 * 9 + 8, 2},
                {5 * 9 + 8, 4}, {5 * 9 + 8, 7}, {7 * 9 + 5, 6},
                {7 * 9 + 5, 7}, {8 * 9 + 5, 7}, {8 * 9 + 4, 7}};

    (void)state;
    assert_int_equal(kt_load_set(set, COUNT), COUNT);
    walk_to_innie_outie(&set[55], &g, &s);
    assert_int_equal(g.cand[8 * 9 + 6], 0x158u); /* 4, 5, 7, 9 */
    assert_int_equal(g.cand[5 * 9 + 8], 0x5eu);  /* 2-5, 7 */
    assert_int_equal(g.cand[7 * 9 + 5], 0x7cu);  /* 3-7 */
    assert_int_equal(g.cand[8 * 9 + 5], 0x59u);  /* 1, 4, 5, 7 */
    assert_int_equal(g.cand[8 * 9 + 4], 0x4bu);  /* 1, 2, 4, 7 */
    assert_int_equal(s.cells[0], 8 * 9 + 6);
    assert_int_equal(s.cells[1], 5 * 9 + 8);
    assert_int_equal(s.net, 4);
    for (size_t i = 0; i < sizeof(lost) / sizeof(lost[0]); i++)
        assert_true(eliminates(&s, lost[i].cell, lost[i].digit));
}

int test_teach(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            every_step_on_every_size_and_rule_agrees_with_the_solution),
        cmocka_unit_test(
            every_step_on_the_killer_puzzles_agrees_with_the_solution),
        cmocka_unit_test(the_last_digit_of_a_row_is_a_single),
        cmocka_unit_test(anti_knight_givens_leave_the_knights_cells),
        cmocka_unit_test(a_box_digit_in_one_row_leaves_the_rest_of_it),
        cmocka_unit_test(a_naked_pair_clears_its_column),
        cmocka_unit_test(a_cage_of_three_in_two_cells_is_one_and_two),
        cmocka_unit_test(innies_of_a_box_place_its_last_cell),
        cmocka_unit_test(outies_of_a_box_place_the_cell_sticking_out),
        cmocka_unit_test(a_forcing_chain_candidate_leads_to_a_broken_rule),
        cmocka_unit_test(an_x_wing_clears_its_two_columns),
        cmocka_unit_test(an_x_chain_clears_the_cells_seeing_both_ends),
        cmocka_unit_test(an_xy_wing_clears_the_cell_seeing_both_pincers),
        cmocka_unit_test(an_xy_chain_clears_the_cells_seeing_both_ends),
        cmocka_unit_test(an_aic_mixing_cells_and_units_clears_column_0),
        cmocka_unit_test(a_grouped_aic_links_through_a_box_and_column),
        cmocka_unit_test(an_aic_uses_the_digit_a_cage_must_hold),
        cmocka_unit_test(an_aic_groups_the_places_a_cell_sees),
        cmocka_unit_test(a_swordfish_clears_its_three_columns),
        cmocka_unit_test(a_hidden_pair_clears_its_two_cells),
        cmocka_unit_test(
            a_digit_every_cage_set_holds_leaves_the_cells_seeing_it),
        cmocka_unit_test(an_innie_less_an_outie_is_a_constant),
        cmocka_unit_test(a_split_cage_keeps_what_its_other_part_can_add),
    };
    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("teach", tests, NULL, NULL);
}
