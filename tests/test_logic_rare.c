/* test_logic_rare.c - cmocka tests of the techniques that real solving
 * paths almost never reach as their simplest step (cell forcing chains,
 * unique rectangle type 3, ALS-XY-wing): each on a candidate grid built by
 * hand around the pattern, where everything outside it keeps all nine
 * candidates, so nothing simpler applies. The expected eliminations are
 * worked out from the pattern in the comments; every step is judged by
 * logic_check.c's brute force on the candidate grid itself, and the same
 * grid with one link of the pattern broken must not give the step. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "../src/engine/logic/logic_internal.h"
#include "logic.h"
#include "logic_check.h"
#include "tests.h"

#define D(d) (1u << ((d)-1))
#define CELL(r, c) ((r)*9 + (c))

struct marked {
    int cell;
    uint16_t cand;
};

/* Every cell blank with all nine candidates but the `n` listed ones. */
static void build(struct logic_grid *g, const struct marked *m, int n)
{
    memset(g, 0, sizeof(*g));
    for (int i = 0; i < SUDOKU_CELLS; i++)
        g->cand[i] = 0x1FF;
    for (int i = 0; i < n; i++)
        g->cand[m[i].cell] = m[i].cand;
}

static int sees(int a, int b)
{
    return a != b && (a / 9 == b / 9 || a % 9 == b % 9 ||
                      (a / 27 == b / 27 && (a % 9) / 3 == (b % 9) / 3));
}

/* Does the step remove exactly the candidates flagged in want[cell * 9 +
 * digit - 1]? */
static int removes_exactly(const struct logic_step *s, const uint8_t *want)
{
    int n = 0;

    for (int i = 0; i < SUDOKU_CELLS * 9; i++)
        n += want[i];
    if (s->nplacements != 0 || s->neliminations != n)
        return 0;
    for (int i = 0; i < s->neliminations; i++)
        if (!want[s->eliminations[i].cell * 9 + s->eliminations[i].digit - 1])
            return 0;
    return 1;
}

/* Judges a step on its grid (fails the test when it is unsound). */
typedef void judge_fn(const struct logic_grid *g, const struct logic_step *s);

/* The step the engine gives first on g must be `t` removing exactly
 * `want`, sound by `judge`, with a sentence; on `broken` (tried below
 * the nets, whose search on a near-empty grid is long) it must not be. */
static void check_rare(const struct logic_grid *g,
                       const struct logic_grid *broken, enum logic_technique t,
                       const uint8_t *want, judge_fn *judge)
{
    struct logic_budget below_nets = {0, 94};
    struct logic_step s;
    char text[2048];

    assert_int_equal(logic_step(g, &s), LOGIC_OK);
    if (s.technique != t)
        fail_msg("%s: found %s", logic_technique_name(t),
                 logic_technique_name(s.technique));
    judge(g, &s);
    if (!removes_exactly(&s, want))
        fail_msg("%s: eliminations differ from the pattern's",
                 logic_technique_name(t));
    assert_true(s.rating >= logic_technique_rating(t) && s.rating <= 120);
    assert_true(logic_explain(&s, text, sizeof(text)) > 40);
    assert_null(strstr(text, "Unknown"));
    if (logic_step_budget(broken, &below_nets, &s) != LOGIC_OK)
        return;
    judge(broken, &s);
    if (s.technique == t && removes_exactly(&s, want))
        fail_msg("%s still fires on the broken pattern",
                 logic_technique_name(t));
}

/* ------------------------------------------------------- cell forcing */

/* A = [0,0] {1,2}. If A is 1: P = [0,4] {1,9} (row 0) is 9 and R = [4,0]
 * {1,8} (column 0) is 8, so S = [4,4] {7,8,9}, which sees both, is 7. If A
 * is 2: Q = [1,1] {2,6} (box 0) is 6 and U = [7,0] {2,5} (column 0) is 5,
 * so T = [7,1] {5,6,7}, which sees both, is 7. Either way 7 is at S or T,
 * so it leaves the cells that see both: [4,1] (row 4, column 1) and [7,4]
 * (row 7, column 4). Nothing else is common: branch 1 places 1, 9, 8 and
 * branch 2 places 2, 6, 5 elsewhere, and no other cell sees both 7s.
 * Why nothing simpler finds it: S and T are placed by two links each (a
 * net, no chain), and every other cell holds all nine digits, so no digit
 * has a strong link through S or T; the bivalue cells make no wing (no
 * pincer shares a digit with another outside A's). Why the contradiction
 * search, tried first, does not: assuming 7 at [4,1] only takes 7 out of
 * S and T, and singles stop there; every other assumption also ends
 * without a contradiction (at most one of each branch's cells is
 * placed against it, and each such cell keeps a candidate).
 * Broken: T also holds 4, so branch 2 leaves T {4,7} unplaced and the two
 * branches share no conclusion. */
static void cell_forcing(void **state)
{
    static const struct marked m[] = {
        {CELL(0, 0), D(1) | D(2)},        {CELL(0, 4), D(1) | D(9)},
        {CELL(4, 0), D(1) | D(8)},        {CELL(4, 4), D(7) | D(8) | D(9)},
        {CELL(1, 1), D(2) | D(6)},        {CELL(7, 0), D(2) | D(5)},
        {CELL(7, 1), D(5) | D(6) | D(7)},
    };
    struct logic_grid g, broken;
    uint8_t want[SUDOKU_CELLS * 9] = {0};

    (void)state;
    build(&g, m, 7);
    for (int c = 0; c < SUDOKU_CELLS; c++)
        if (sees(c, CELL(4, 4)) && sees(c, CELL(7, 1)) && (g.cand[c] & D(7)))
            want[c * 9 + 6] = 1;
    assert_true(want[CELL(4, 1) * 9 + 6] && want[CELL(7, 4) * 9 + 6]);
    broken = g;
    broken.cand[CELL(7, 1)] |= D(4);
    check_rare(&g, &broken, LOGIC_CELL_FORCING, want, logic_check_sound);
}

/* ------------------------------------------------- unique rectangle 3 */

/* The rectangle of unique_rectangle_3: its roof cells and digits. */
static const int ur_roof[2] = {CELL(0, 0), CELL(0, 3)};
#define UR_AB (D(1) | D(2))

/* A uniqueness step is sound when every solution holding an eliminated
 * candidate completes the deadly pattern (the whole rectangle 1 or 2),
 * which a puzzle with one solution cannot: so brute force must find no
 * solution with the candidate and either roof cell outside {1,2}. Other
 * steps (on the broken grid) are judged on the grid itself. */
static void judge_unique(const struct logic_grid *g, const struct logic_step *s)
{
    if (s->technique != LOGIC_UNIQUE_RECTANGLE_3) {
        logic_check_sound(g, s);
        return;
    }
    for (int r = 0; r < 2; r++) {
        struct logic_grid h = *g;
        h.cand[ur_roof[r]] &= (uint16_t)~UR_AB;
        for (int i = 0; i < s->neliminations; i++)
            if (logic_check_possible(&h, s->eliminations[i].cell,
                                     s->eliminations[i].digit))
                fail_msg("%d at [%d,%d] fits a solution that breaks the "
                         "rectangle",
                         s->eliminations[i].digit, s->eliminations[i].cell / 9,
                         s->eliminations[i].cell % 9);
    }
}

/* Floor [1,0] and [1,3] hold only {1,2} (row 1's other cells lose 1 and
 * 2, else the floor is a naked pair); roof [0,0] {1,2,3} and [0,3]
 * {1,2,4}, in boxes 0 and 1. If the roof held only 1 and 2, they could
 * swap in the four cells: two solutions. So one roof cell is 3 or 4: the
 * roof acts in row 0 as one cell {3,4}, and with [0,7] {3,4} it is a
 * naked pair of row 0. 3 and 4 leave row 0's other cells: [0,1], [0,2],
 * [0,4], [0,5], [0,6], [0,8], twelve eliminations; rated 4.5 + 0.1 for
 * the pair. Nothing simpler: no other cell is short of candidates but
 * row 1's (which lack only 1 and 2, so 1 and 2 are confined to row 1's
 * floor in no box or line but the row itself), types 1, 2 and 4 need
 * three floors, one extra digit, or a digit confined to the roof.
 * Broken: [0,7] also holds 5, so {3,4} and {3,4,5} are no subset. */
static void unique_rectangle_3(void **state)
{
    struct logic_grid g, broken;
    struct logic_step s;
    uint8_t want[SUDOKU_CELLS * 9] = {0};
    int n = 0;

    (void)state;
    build(&g, NULL, 0);
    for (int c = 9; c < 18; c++)
        g.cand[c] &= (uint16_t)~UR_AB;
    g.cand[CELL(1, 0)] = g.cand[CELL(1, 3)] = UR_AB;
    g.cand[ur_roof[0]] = UR_AB | D(3);
    g.cand[ur_roof[1]] = UR_AB | D(4);
    g.cand[CELL(0, 7)] = D(3) | D(4);
    for (int c = 0; c < 9; c++)
        if (c != ur_roof[0] && c != ur_roof[1] && c != CELL(0, 7)) {
            want[c * 9 + 2] = want[c * 9 + 3] = 1;
            n += 2;
        }
    assert_int_equal(n, 12);
    broken = g;
    broken.cand[CELL(0, 7)] |= D(5);
    check_rare(&g, &broken, LOGIC_UNIQUE_RECTANGLE_3, want, judge_unique);
    assert_int_equal(logic_step(&g, &s), LOGIC_OK);
    assert_int_equal(s.rating, 46);
}

/* ------------------------------------------------------- ALS-XY-wing */

/* Three almost locked sets (n cells, n + 1 digits): C = [4,4] {1,2};
 * A = [0,4] {1,3,9} and [0,6] {3,9} (row 0); B = [4,0] {2,5,9} and [6,0]
 * {5,9} (column 0). A's only 1 is [0,4], which sees C (column 4); B's only
 * 2 is [4,0], which sees C (row 4). C is 1 or 2: if 1, A has no 1 and its
 * two cells hold 3 and 9; if 2, B has no 2 and holds 5 and 9. So 9 is in
 * A ([0,4] or [0,6]) or in B ([4,0] or [6,0]), and the one cell that sees
 * all four, [0,0] (row 0, column 0), loses 9. Rated 7.0 and SE's length
 * bonus for six nodes: 7.1. Nothing simpler: no set shares a unit with C,
 * so no two of them make one ALS (no ALS-XZ: A and B share only 9, C and
 * either one digit); the bivalue cells C, [0,6], [6,0] see each other
 * nowhere (no wing or XY-chain), and every other cell holds all nine
 * digits, so no digit has a strong link in any unit.
 * Broken: C also holds 4, so it is no ALS and 9 stays at [0,0]. */
static void als_xy_wing(void **state)
{
    static const struct marked m[] = {
        {CELL(4, 4), D(1) | D(2)}, {CELL(0, 4), D(1) | D(3) | D(9)},
        {CELL(0, 6), D(3) | D(9)}, {CELL(4, 0), D(2) | D(5) | D(9)},
        {CELL(6, 0), D(5) | D(9)},
    };
    static const int zs[4] = {CELL(0, 4), CELL(0, 6), CELL(4, 0), CELL(6, 0)};
    struct logic_grid g, broken;
    struct logic_step s;
    uint8_t want[SUDOKU_CELLS * 9] = {0};

    (void)state;
    build(&g, m, 5);
    for (int c = 0; c < SUDOKU_CELLS; c++) {
        int all = (g.cand[c] & D(9)) != 0;
        for (int k = 0; k < 4; k++)
            all &= sees(c, zs[k]);
        want[c * 9 + 8] = (uint8_t)all;
    }
    assert_true(want[CELL(0, 0) * 9 + 8]);
    broken = g;
    broken.cand[CELL(4, 4)] |= D(4);
    check_rare(&g, &broken, LOGIC_ALS_XY_WING, want, logic_check_sound);
    assert_int_equal(logic_step(&g, &s), LOGIC_OK);
    assert_int_equal(s.rating, 71);
    assert_int_equal(s.ncells, 5);
    assert_int_equal(s.digits, D(1) | D(2) | D(9));
}

int test_logic_rare(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cell_forcing),
        cmocka_unit_test(unique_rectangle_3),
        cmocka_unit_test(als_xy_wing),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("logic_rare", tests, NULL, NULL);
}
