/* test_logic.c - cmocka tests of the logic engine (src/logic*.c).
 * Each technique is shown on a board where it is the simplest step (so no
 * simpler technique applies), and its result is checked against a known
 * answer and against the board's unique solution. Reads tests/data/. */
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
#include "support.h"
#include "tests.h"

static struct sudoku_grid grid_of(const char *text)
{
    struct sudoku_grid g;

    assert_int_equal(sudoku_parse(text, strlen(text), &g, NULL), SUDOKU_OK);
    return g;
}

/* The first 81 characters of a data-file line. */
static struct sudoku_grid grid_of_prefix(const char *line)
{
    struct sudoku_grid g;

    assert_int_equal(sudoku_parse(line, SUDOKU_CELLS, &g, NULL), SUDOKU_OK);
    return g;
}

static struct sudoku_grid solution_of(const struct sudoku_grid *g)
{
    struct sudoku_grid s;
    unsigned count = 0;

    assert_int_equal(sudoku_count(g, 2, 0, &s, &count, NULL), SUDOKU_OK);
    assert_int_equal(count, 1);
    return s;
}

/* A step is sound: it places solution digits and removes only digits that
 * are candidates and not the solution's. */
static void assert_sound(const struct logic_grid *g, const struct logic_step *s,
                         const struct sudoku_grid *sol)
{
    for (int i = 0; i < s->nplacements; i++) {
        assert_int_equal(g->value[s->placements[i].cell], 0);
        assert_int_equal(s->placements[i].digit,
                         sol->cell[s->placements[i].cell]);
    }
    for (int i = 0; i < s->neliminations; i++) {
        const struct logic_move *m = &s->eliminations[i];
        assert_true(g->cand[m->cell] & (1u << (m->digit - 1)));
        assert_int_not_equal(m->digit, sol->cell[m->cell]);
    }
    assert_true(s->nplacements + s->neliminations > 0);
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
    struct sudoku_grid board = grid_of(tc->board);
    struct logic_grid g;
    struct logic_step s;
    struct expected e;
    char text[1024];
    int n = 0;

    (void)solution_of(&board); /* one solution */
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

static void test_each_technique(void **state)
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
static void test_hidden_quad(void **state)
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
static void test_naked_quad(void **state)
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

/* ----------------------------------------------------------------- grid */

static void test_init_candidates(void **state)
{
    struct sudoku_grid b = grid_of(
        "9.7.....6824.3......1..9..2.9...2.18...4....51325.8......687........."
        "8.9.4.9...5.");
    struct logic_grid g;

    (void)state;
    assert_int_equal(logic_init(&g, &b), LOGIC_OK);
    assert_int_equal(g.value[0], 9);
    assert_int_equal(g.cand[0], 0);
    /* [0,1]: row has 9 7 6, column 2 9 3 4, box 9 7 8 2 4 1 */
    assert_int_equal(g.cand[1], 1u << 4);
}

static void test_init_conflict(void **state)
{
    struct sudoku_grid b = grid_of("99........................................."
                                   ".............................."
                                   "........");
    struct logic_grid g;
    struct logic_step s;

    (void)state;
    assert_int_equal(logic_init(&g, &b), LOGIC_CONTRADICTION);
    b = grid_of("12345678.........9..........................................."
                "....................");
    assert_int_equal(logic_init(&g, &b), LOGIC_OK);
    /* [0,8] can be nothing: 1-8 in its row, 9 in its column. */
    assert_int_equal(logic_step(&g, &s), LOGIC_CONTRADICTION);
}

static void test_solved_board(void **state)
{
    struct sudoku_grid b = grid_of(
        "957214386824736591361859742495372618786491235132568974519687423273145"
        "869648923157");
    struct logic_grid g;
    struct logic_step s;
    struct logic_grade gr;

    (void)state;
    logic_init(&g, &b);
    assert_int_equal(logic_step(&g, &s), LOGIC_SOLVED);
    assert_int_equal(logic_grade(&b, &gr, NULL), LOGIC_OK);
    assert_int_equal(gr.steps, 0);
    assert_int_equal(gr.hardest, -1);
    assert_int_equal(gr.level, LOGIC_EASY);
}

/* An empty board has no unique solution, so the last resort (which needs
 * one) runs on until the budget stops it: a documented answer, no hang. */
static void test_empty_board_budget(void **state)
{
    struct sudoku_grid b;
    struct logic_grade gr;
    struct logic_limits lim = {20000, 0, 0};
    uint64_t t0 = logic_now_us();

    (void)state;
    memset(&b, 0, sizeof(b));
    assert_int_equal(logic_grade_budget(&b, &lim, &gr, NULL), LOGIC_BUDGET);
    assert_true(logic_now_us() - t0 < 2000000);
    assert_true(gr.needs_guessing);
    assert_true(gr.budget_out);
    assert_int_equal(gr.level, LOGIC_EXTREME);
    assert_int_equal(gr.blanks_left, 81);
}

/* -------------------------------------------------------------- grading */

static void test_grade_easy(void **state)
{
    struct sudoku_grid b = grid_of(
        "9.7.....6824.3......1..9..2.9...2.18...4....51325.8......687........."
        "8.9.4.9...5.");
    struct logic_grade gr;
    struct logic_grid end;
    struct sudoku_grid done, sol = solution_of(&b);

    (void)state;
    assert_int_equal(logic_grade(&b, &gr, &end), LOGIC_OK);
    assert_int_equal(gr.level, LOGIC_EASY);
    assert_false(gr.needs_guessing);
    assert_int_equal(gr.blanks_left, 0);
    assert_int_equal(gr.counts[LOGIC_NAKED_SINGLE] +
                         gr.counts[LOGIC_HIDDEN_SINGLE],
                     gr.steps);
    assert_int_equal(gr.steps, 52); /* one step per blank */
    logic_board(&end, &done);
    assert_memory_equal(done.cell, sol.cell, SUDOKU_CELLS);
}

/* A forum-hardest puzzle (SE 11+) needs the last resort: solved by logic
 * to the end, extreme, rated 9.5 or more (a forcing net). */
static void test_grade_forum_hardest(void **state)
{
    struct sudoku_grid b = grid_of(
        "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5"
        ".8...52....6");
    struct logic_grade gr;

    (void)state;
    assert_int_equal(logic_grade(&b, &gr, NULL), LOGIC_OK);
    assert_false(gr.needs_guessing);
    assert_int_equal(gr.level, LOGIC_EXTREME);
    assert_int_equal(gr.blanks_left, 0);
    assert_true(gr.rating >= 95);
    assert_true(gr.counts[LOGIC_FORCING_NET] >= 1);
}

struct walk {
    unsigned puzzles, steps, extreme, below_expert;
    int monotone;
};

/* Walks every step of a puzzle, checking each against the solution; then
 * adds the solution's digits one by one: the level may never rise. */
static void walk_puzzle(const char *line, struct walk *w, int monotone)
{
    struct sudoku_grid b = grid_of_prefix(line), sol;
    struct logic_grid g;
    struct logic_step s;
    struct logic_grade gr, more;
    enum logic_status st;
    unsigned count = 0;

    sudoku_count(&b, 2, 0, &sol, &count, NULL);
    if (count != 1)
        return;
    w->puzzles++;
    logic_init(&g, &b);
    while ((st = logic_step(&g, &s)) == LOGIC_OK) {
        assert_sound(&g, &s, &sol);
        logic_apply(&g, &s);
        w->steps++;
    }
    assert_int_not_equal(st, LOGIC_CONTRADICTION);
    assert_int_equal(logic_grade(&b, &gr, NULL), LOGIC_OK);
    assert_int_equal(gr.needs_guessing, st == LOGIC_STUCK);
    w->extreme += gr.level == LOGIC_EXTREME;
    w->below_expert += gr.level < LOGIC_EXPERT;
    if (!monotone)
        return;
    for (int i = 0; i < SUDOKU_CELLS; i += 3) {
        if (b.cell[i])
            continue;
        b.cell[i] = sol.cell[i];
        assert_int_equal(logic_grade(&b, &more, NULL), LOGIC_OK);
        if (more.level > gr.level)
            fail_msg("%.81s: adding [%d,%d] raised the level %s -> %s", line,
                     i / 9, i % 9, logic_level_name(gr.level),
                     logic_level_name(more.level));
        gr = more;
    }
}

static void walk_file(const char *name, struct walk *w, int monotone)
{
    char line[512];
    FILE *f;

    f = support_open_data(name);
    while (fgets(line, sizeof(line), f))
        if (line[0] != '#' && strlen(line) >= SUDOKU_CELLS)
            walk_puzzle(line, w, monotone);
    fclose(f);
}

static void test_steps_agree_with_solutions(void **state)
{
    struct walk w = {0};

    (void)state;
    walk_file("test_puzzles_with_solutions", &w, 1);
    walk_file("puzzles2_17_clue", &w, 1);
    walk_file("puzzles3_magictour_top1465", &w, 1);
    assert_true(w.puzzles > 300);
    assert_true(w.steps > 10000);
}

static void test_forum_hardest_sample_is_extreme(void **state)
{
    struct walk w = {0};

    (void)state;
    walk_file("puzzles5_forum_hardest_1905_11+", &w, 0);
    assert_int_equal(w.puzzles, 150);
    assert_int_equal(w.below_expert, 0);
    assert_int_equal(w.extreme, 150);
}

/* ---------------------------------------------------------- names, text */

static void test_names(void **state)
{
    enum logic_level l;

    (void)state;
    for (int t = 0; t < LOGIC_NTECHNIQUES; t++) {
        const char *n = logic_technique_name((enum logic_technique)t);
        assert_non_null(n);
        assert_int_equal(strspn(n, "abcdefghijklmnopqrstuvwxyz_0123456789"),
                         strlen(n));
        for (int u = 0; u < t; u++)
            assert_string_not_equal(
                n, logic_technique_name((enum logic_technique)u));
        assert_true(logic_technique_level((enum logic_technique)t) <
                    LOGIC_NLEVELS);
    }
    assert_null(logic_technique_name(LOGIC_NTECHNIQUES));
    assert_string_equal(logic_technique_name(LOGIC_X_WING), "x_wing");
    for (int i = 0; i < LOGIC_NLEVELS; i++) {
        assert_int_equal(
            logic_level_parse(logic_level_name((enum logic_level)i), &l), 0);
        assert_int_equal(l, i);
    }
    assert_int_equal(logic_level_parse("Easy", &l), -1);
    assert_int_equal(logic_level_parse("", &l), -1);
}

static void test_explain_truncates(void **state)
{
    struct sudoku_grid b = grid_of(cases[1].board);
    struct logic_grid g;
    struct logic_step s;
    char full[512], small[16];
    size_t n;

    (void)state;
    logic_init(&g, &b);
    assert_int_equal(logic_step(&g, &s), LOGIC_OK);
    n = logic_explain(&s, full, sizeof(full));
    assert_int_equal(n, strlen(full));
    assert_string_equal(full,
                        "In box 2, 2 can only go in [1,6] and [2,6], all of "
                        "them in column 6. So the 2 of column 6 is one of "
                        "these cells: remove 2 from [3,6] and [4,6].");
    assert_int_equal(logic_explain(&s, small, sizeof(small)), n);
    assert_int_equal(strlen(small), sizeof(small) - 1);
    assert_int_equal(logic_explain(&s, NULL, 0), n);
}

int test_logic(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_technique),
        cmocka_unit_test(test_hidden_quad),
        cmocka_unit_test(test_naked_quad),
        cmocka_unit_test(test_init_candidates),
        cmocka_unit_test(test_init_conflict),
        cmocka_unit_test(test_solved_board),
        cmocka_unit_test(test_empty_board_budget),
        cmocka_unit_test(test_grade_easy),
        cmocka_unit_test(test_grade_forum_hardest),
        cmocka_unit_test(test_steps_agree_with_solutions),
        cmocka_unit_test(test_forum_hardest_sample_is_extreme),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_explain_truncates),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("logic", tests, NULL, NULL);
}
