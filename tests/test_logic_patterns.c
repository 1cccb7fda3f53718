/* test_logic_patterns.c - cmocka tests of the logic engine's techniques
 * up to the jellyfish: each on a board where it is the simplest step (so no
 * simpler technique applies). The test states the pattern, checks it on the
 * candidates, works the expected step out from it and compares; every step
 * is also judged by the brute-force search of logic_check.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logic.h"
#include "logic_check.h"
#include "sudoku.h"
#include "tests.h"

static struct sudoku_grid grid_of(const char *text)
{
    struct sudoku_grid g;
    unsigned count = 0;

    assert_int_equal(sudoku_parse(text, strlen(text), &g, NULL), SUDOKU_OK);
    assert_int_equal(sudoku_count(&g, 2, 0, NULL, &count, NULL), SUDOKU_OK);
    assert_int_equal(count, 1);
    return g;
}

/* ------------------------------------------------------------ techniques */

/* Units by number, as the checks below count them. */
#define ROW(r) (r)
#define COL(c) (9 + (c))
#define BOX(b) (18 + (b))

/* How a case's expected step follows from its pattern (see check_case):
 *   PAT_SINGLE  units[0] holds `digits` in one cell only: it goes there;
 *   PAT_LOCKED  in units[0] the digit lies only in cells of units[1]: it
 *               leaves the rest of units[1];
 *   PAT_NAKED   `cells` of units[0] hold only as many digits as there are
 *               cells: those digits leave the rest of the unit;
 *   PAT_HIDDEN  `digits` of units[0] fit in only as many cells: the other
 *               digits leave those cells;
 *   PAT_FISH    the digit of the n base lines units[0..n-1] lies only in
 *               the n cover lines units[n..2n-1]: it leaves the rest of
 *               the cover lines;
 *   PAT_WING    cells[0] is the pivot, cells[1..] the pincers, `digits`
 *               the one digit z the wing removes: from every cell that
 *               sees all of cells[start..] (the pincers for an XY-wing,
 *               pivot and pincers for an XYZ-wing). */
enum pattern_kind {
    PAT_SINGLE,
    PAT_LOCKED,
    PAT_NAKED,
    PAT_HIDDEN,
    PAT_FISH,
    PAT_WING
};

struct technique_case {
    enum logic_technique technique;
    const char *board;
    enum pattern_kind kind;
    uint16_t digits; /* candidate mask: bit d-1 for digit d */
    int units[8], nunits;
    int cells[4], ncells;
};

#define D(d) (1u << ((d)-1))

/* Boards from tests/data (values only, candidates from the givens) whose
 * simplest step is the technique; each has one solution. The comments
 * state the pattern; check_case verifies it on the candidates and works
 * out the step from it. */
static const struct technique_case cases[] = {
    /* Column 8 has 2 only at [1,8]. */
    {LOGIC_HIDDEN_SINGLE,
     "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1....."
     "2.4.5.....3",
     PAT_SINGLE,
     D(2),
     {COL(8)},
     1,
     {0},
     0},
    /* Box 2 has 2 only in column 6: 2 leaves column 6 outside box 2. */
    {LOGIC_POINTING,
     "..2...7...1.....6.5......18....37.......49.....41.23....3.2.9..28....."
     "5.6.......2",
     PAT_LOCKED,
     D(2),
     {BOX(2), COL(6)},
     2,
     {0},
     0},
    /* Row 8 has 9 only in box 7: 9 leaves box 7 outside row 8. */
    {LOGIC_CLAIMING,
     "..7..8.....6.2.3...3......9.1..5..6.....1.....7.9..1.2........4.83..4."
     "..264...51.",
     PAT_LOCKED,
     D(9),
     {ROW(8), BOX(7)},
     2,
     {0},
     0},
    /* [0,3] and [0,6] hold only 3 and 8: the rest of row 0 loses them. */
    {LOGIC_NAKED_PAIR,
     "679.12...845.67.12123.45...237491568561278...49865312778.13.2..31.52.."
     "..952786431",
     PAT_NAKED,
     D(3) | D(8),
     {ROW(0)},
     1,
     {3, 6},
     2},
    /* Row 3 has 5 and 6 only in [3,3] and [3,4]: those lose the rest. */
    {LOGIC_HIDDEN_PAIR,
     "..2......1..49.2.5.4.....9..8...14....63..5.75......6.6...8.3.....7..1"
     ".63......5.",
     PAT_HIDDEN,
     D(5) | D(6),
     {ROW(3)},
     1,
     {0},
     0},
    /* [3,6], [4,6], [6,6] hold only 1, 7, 8: the rest of column 6 loses
     * them. */
    {LOGIC_NAKED_TRIPLE,
     "..3.8.95.8...9.......7.3..123.....46..8.4..2.7....25..3.26.4......9..3"
     "..59.......",
     PAT_NAKED,
     D(1) | D(7) | D(8),
     {COL(6)},
     1,
     {33, 42, 60},
     3},
    /* Row 0 has 4, 5, 9 only in three cells: those lose the rest. */
    {LOGIC_HIDDEN_TRIPLE,
     "1....2...9......122.31.4..5352741689647589123819263547738916254426...7"
     "91591427...",
     PAT_HIDDEN,
     D(4) | D(5) | D(9),
     {ROW(0)},
     1,
     {0},
     0},
    /* X-wing on 9: columns 0 and 7 have it only in rows 2 and 7, so 9
     * leaves the other cells of rows 2 and 7. */
    {LOGIC_X_WING,
     "58..1..3434.5.8.12..1.345.84..186357718345..9653...84183.9614.5.6485.1"
     ".31.54.3.86",
     PAT_FISH,
     D(9),
     {COL(0), COL(7), ROW(2), ROW(7)},
     4,
     {0},
     0},
    /* Swordfish on 8: rows 0, 2, 5 have it only in columns 0, 5, 6. */
    {LOGIC_SWORDFISH,
     ".21.53.64.654.13.2.3462.1574.32167.52.6..543151734..26352197648678534"
     "219149862573",
     PAT_FISH,
     D(8),
     {ROW(0), ROW(2), ROW(5), COL(0), COL(5), COL(6)},
     6,
     {0},
     0},
    /* XY-wing: pivot [4,6] {2,9}, pincers [4,1] {2,6} and [5,8] {6,9}; one
     * pincer is 6, so 6 leaves the cells that see both pincers. */
    {LOGIC_XY_WING,
     ".3....6.7.7.....24..4..1....9......3....1..8.....5.7..6125.4....532.84"
     "61.4.1..5.2",
     PAT_WING,
     D(6),
     {0},
     0,
     {42, 37, 53},
     3},
    /* XYZ-wing: pivot [3,4] {4,7,8}, pincers [3,1] and [4,5], each 4 and
     * one of 7, 8; one of the three is 4: it leaves the cells seeing all
     * three. */
    {LOGIC_XYZ_WING,
     ".23..6.41.....1.23.14325.78..2..316.....1.23.137692485391268754.56.398"
     "122.815.396",
     PAT_WING,
     D(4),
     {0},
     0,
     {31, 28, 41},
     3},
    /* Jellyfish on 8: rows 1, 3, 4, 7 have it only in columns 2, 4, 5,
     * 7. */
    {LOGIC_JELLYFISH,
     "642..5.13.5.3.14621.3642.5..3.26.1.55214.36.78.615.3242..536.41.1.72.5"
     "36365.1427.",
     PAT_FISH,
     D(8),
     {ROW(1), ROW(3), ROW(4), ROW(7), COL(2), COL(4), COL(5), COL(7)},
     8,
     {0},
     0},
};

static int in_unit(int u, int cell)
{
    return u < 9    ? cell / 9 == u
           : u < 18 ? cell % 9 == u - 9
                    : (cell / 27) * 3 + (cell % 9) / 3 == u - 18;
}

static int sees_cell(int a, int b)
{
    return a != b && (a / 9 == b / 9 || a % 9 == b % 9 ||
                      (a / 27 == b / 27 && (a % 9) / 3 == (b % 9) / 3));
}

static int has(const struct logic_grid *g, int cell, uint16_t digits)
{
    return (g->cand[cell] & digits) != 0;
}

static int bit_count(unsigned m)
{
    int n = 0;

    for (; m; m &= m - 1)
        n++;
    return n;
}

/* The expected eliminations, 81 x 9 flags: want[cell * 9 + d - 1]. */
struct expected {
    uint8_t want[SUDOKU_CELLS * 9];
    int place_cell, place_digit;
};

static void want_digits(const struct logic_grid *g, struct expected *e,
                        int cell, uint16_t digits)
{
    for (int d = 1; d <= 9; d++)
        if (g->cand[cell] & digits & D(d))
            e->want[cell * 9 + d - 1] = 1;
}

/* A wing: the pincers are bivalue, each z and one of the pivot's other
 * digits (a different one each), and both see the pivot, which holds the
 * two others (XY-wing) or those and z (XYZ-wing). */
static void check_wing(const struct technique_case *tc,
                       const struct logic_grid *g)
{
    int pivot = tc->cells[0];
    uint16_t z = tc->digits, xy = g->cand[pivot] & (uint16_t)~z;

    assert_int_equal(tc->ncells, 3);
    assert_int_equal(bit_count(xy), 2);
    for (int k = 1; k < 3; k++) {
        int p = tc->cells[k];
        assert_true(sees_cell(pivot, p));
        assert_int_equal(bit_count(g->cand[p]), 2);
        assert_true(has(g, p, z));
        assert_int_equal(bit_count(g->cand[p] & xy), 1);
    }
    assert_int_not_equal(g->cand[tc->cells[1]], g->cand[tc->cells[2]]);
}

/* Checks the pattern of tc on g and works out its step into *e. */
static void expect_pattern(const struct technique_case *tc,
                           const struct logic_grid *g, struct expected *e)
{
    const int *u = tc->units;
    int n = 0, found = -1;

    memset(e, 0, sizeof(*e));
    e->place_cell = -1;
    for (int c = 0; c < SUDOKU_CELLS; c++) {
        int in_pattern = 0, inside = 0, sees_all = 1;
        switch (tc->kind) {
        case PAT_SINGLE:
            if (in_unit(u[0], c) && has(g, c, tc->digits)) {
                n++;
                found = c;
            }
            break;
        case PAT_LOCKED:
            if (in_unit(u[0], c) && has(g, c, tc->digits))
                assert_true(in_unit(u[1], c));
            else if (in_unit(u[1], c))
                want_digits(g, e, c, tc->digits);
            break;
        case PAT_NAKED:
            for (int k = 0; k < tc->ncells; k++)
                in_pattern |= tc->cells[k] == c;
            if (in_pattern)
                assert_int_equal(g->cand[c] & ~tc->digits, 0);
            else if (in_unit(u[0], c))
                want_digits(g, e, c, tc->digits);
            break;
        case PAT_HIDDEN:
            if (in_unit(u[0], c) && has(g, c, tc->digits)) {
                n++;
                want_digits(g, e, c, (uint16_t)~tc->digits);
            }
            break;
        case PAT_FISH:
            for (int k = 0; k < tc->nunits / 2; k++)
                in_pattern |= in_unit(u[k], c);
            for (int k = tc->nunits / 2; k < tc->nunits; k++)
                inside |= in_unit(u[k], c);
            if (in_pattern && has(g, c, tc->digits))
                assert_true(inside);
            else if (inside && !in_pattern)
                want_digits(g, e, c, tc->digits);
            break;
        case PAT_WING:
            for (int k = 0; k < tc->ncells; k++) {
                in_pattern |= tc->cells[k] == c;
                /* An XY-wing's pivot lacks z: its pincers decide. */
                if (k > 0 || has(g, tc->cells[0], tc->digits))
                    sees_all &= sees_cell(c, tc->cells[k]);
            }
            if (!in_pattern && sees_all)
                want_digits(g, e, c, tc->digits);
            break;
        }
    }
    if (tc->kind == PAT_SINGLE) {
        assert_int_equal(n, 1);
        e->place_cell = found;
        e->place_digit = __builtin_ctz(tc->digits) + 1;
    }
    if (tc->kind == PAT_NAKED)
        assert_int_equal(bit_count(tc->digits), tc->ncells);
    if (tc->kind == PAT_HIDDEN)
        assert_int_equal(n, bit_count(tc->digits));
    if (tc->kind == PAT_WING)
        check_wing(tc, g);
}

static void check_case(const struct technique_case *tc)
{
    struct sudoku_grid board = grid_of(tc->board); /* one solution */
    struct logic_grid g;
    struct logic_step s;
    struct expected e;
    char text[1024];
    int n = 0;

    assert_int_equal(logic_init(&g, &board), LOGIC_OK);
    expect_pattern(tc, &g, &e);
    assert_int_equal(logic_step(&g, &s), LOGIC_OK);
    if (s.technique != tc->technique)
        fail_msg("%s: found %s", logic_technique_name(tc->technique),
                 logic_technique_name(s.technique));
    logic_check_sound(&g, &s);
    if (e.place_cell >= 0) {
        assert_int_equal(s.nplacements, 1);
        assert_int_equal(s.placements[0].cell, e.place_cell);
        assert_int_equal(s.placements[0].digit, e.place_digit);
    } else {
        assert_int_equal(s.nplacements, 0);
    }
    for (int i = 0; i < SUDOKU_CELLS * 9; i++)
        n += e.want[i];
    assert_int_equal(s.neliminations, n);
    for (int i = 0; i < s.neliminations; i++)
        if (!e.want[s.eliminations[i].cell * 9 + s.eliminations[i].digit - 1])
            fail_msg("%s: %d at [%d,%d] is not the pattern's",
                     logic_technique_name(tc->technique),
                     s.eliminations[i].digit, s.eliminations[i].cell / 9,
                     s.eliminations[i].cell % 9);
    assert_true(s.nunits >= 1);
    assert_true(logic_explain(&s, text, sizeof(text)) < sizeof(text));
    assert_true(strlen(text) > 20);
    /* The grade of a board needs at least the level of its first step. */
    struct logic_grade gr;
    assert_int_equal(logic_grade(&board, &gr, NULL), LOGIC_OK);
    assert_true(gr.level >= logic_technique_level(tc->technique));
    assert_true(gr.counts[tc->technique] >= 1);
}

static void each_technique(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_case(&cases[i]);
}

/* The hidden quad is too rare on real boards to be the first step of one, so
 * it is shown on a candidate grid built by hand: everything blank with all
 * nine candidates, except row 0, where 1-4 fit only in cells 0-3 and 5-9
 * fill cells 4-8. No cell has under five candidates and no digit is locked
 * in one box or line, so nothing simpler applies. */
static void hidden_quad(void **state)
{
    static const uint16_t row0[9] = {0x1F9, 0x1FA, 0x1FC, 0x1FF, 0x1F0,
                                     0x1F0, 0x1F0, 0x1F0, 0x1F0};
    struct logic_grid g;
    struct logic_step s;
    char text[512];

    (void)state;
    memset(&g, 0, sizeof(g));
    for (int i = 0; i < SUDOKU_CELLS; i++)
        g.cand[i] = i < 9 ? row0[i] : 0x1FF;
    assert_int_equal(logic_step(&g, &s), LOGIC_OK);
    assert_int_equal(s.technique, LOGIC_HIDDEN_QUAD);
    logic_check_sound(&g, &s);
    assert_int_equal(s.digits, 0x0F);
    assert_int_equal(s.ncells, 4);
    assert_int_equal(s.neliminations, 20); /* 5-9 from cells 0-3 */
    for (int i = 0; i < s.neliminations; i++) {
        assert_true(s.eliminations[i].cell < 4);
        assert_true(s.eliminations[i].digit >= 5);
    }
    logic_apply(&g, &s);
    for (int i = 0; i < 4; i++)
        assert_int_equal(g.cand[i], row0[i] & 0x0F);
    logic_explain(&s, text, sizeof(text));
    assert_non_null(strstr(text, "the digits 1, 2, 3 and 4 fit only in"));
}

/* The naked quad by hand (on real boards an XY-wing, rated lower, comes
 * first): row 0's cells 0-3 hold {1,2,3}, {1,2,4}, {1,3,4}, {2,3,4}, every
 * other cell all nine digits. Any three of the four cover all of 1-4, so
 * there is no triple; the four fill 1-4, which leave cells 4-8 of the row:
 * 5 cells x 4 digits = 20 eliminations. No digit is confined anywhere else. */
static void naked_quad(void **state)
{
    static const uint16_t row0[4] = {0x07, 0x0B, 0x0D, 0x0E};
    struct logic_grid g;
    struct logic_step s;

    (void)state;
    memset(&g, 0, sizeof(g));
    for (int i = 0; i < SUDOKU_CELLS; i++)
        g.cand[i] = i < 4 ? row0[i] : 0x1FF;
    assert_int_equal(logic_step(&g, &s), LOGIC_OK);
    assert_int_equal(s.technique, LOGIC_NAKED_QUAD);
    logic_check_sound(&g, &s);
    assert_int_equal(s.digits, 0x0F);
    assert_int_equal(s.neliminations, 20);
    for (int i = 0; i < s.neliminations; i++) {
        assert_true(s.eliminations[i].cell >= 4 && s.eliminations[i].cell < 9);
        assert_true(s.eliminations[i].digit <= 4);
    }
}

int test_logic_patterns(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_technique),
        cmocka_unit_test(hidden_quad),
        cmocka_unit_test(naked_quad),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("logic_patterns", tests, NULL, NULL);
}
