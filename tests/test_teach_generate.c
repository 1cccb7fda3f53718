/* test_teach_generate.c - cmocka tests of teach_generate_variant: puzzles
 * of every size and rule at a level. Each generated puzzle's solution is
 * verified by the tests' own rule checker (tc_verify), its givens are the
 * solution's, it has one solution, and its level is confirmed by the
 * tests' own logic solver (level_check.c, which shares nothing with the
 * engine): the level's techniques solve it and the level below's do not.
 * Every step of the engine's walk is checked against the solution. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "clock.h"
#include "cover.h"
#include "cover_support.h"
#include "killer.h"
#include "level_check.h"
#include "logic.h"
#include "teach.h"
#include "tests.h"

/* One puzzle of rules at a time: the value is about 100 KB. */
static struct teach_puzzle scratch;

enum rule { PLAIN, JIGSAW, DIAGONAL, WINDOKU, KNIGHT, KING };

static struct cover_rules rules_of(unsigned n, enum rule rule)
{
    struct cover_rules r;

    assert_int_equal(cover_rules_init(&r, n), COVER_OK);
    if (rule == JIGSAW)
        tc_jigsaw_map(&r);
    r.diagonals = rule == DIAGONAL;
    if (rule == WINDOKU)
        tc_hyper_groups(&r);
    r.anti_knight = rule == KNIGHT;
    r.anti_king = rule == KING;
    tc_check_rules(&r);
    return r;
}

/* Every step of the walk agrees with the solution; 1 when it used the
 * last resort (a forcing chain or net). */
static int walk_checked(const struct cover_grid *puzzle,
                        const struct cover_grid *solution)
{
    struct teach_grid g;
    struct teach_step s;
    int forced = 0;

    assert_int_equal(teach_init(&scratch, &g, puzzle->cell), TEACH_OK);
    while (teach_step(&scratch, &g, NULL, &s) == TEACH_OK) {
        for (unsigned i = 0; i < s.nplacements; i++)
            assert_int_equal(s.placements[i].digit,
                             solution->cell[s.placements[i].cell]);
        for (unsigned i = 0; i < s.neliminations; i++)
            assert_int_not_equal(s.eliminations[i].digit,
                                 solution->cell[s.eliminations[i].cell]);
        forced |= s.technique >= TEACH_FORCING_CHAIN;
        teach_apply(&scratch, &g, &s);
    }
    for (unsigned c = 0; c < scratch.ncells; c++)
        assert_int_equal(g.value[c], solution->cell[c]);
    return forced;
}

/* Generates at `level` from `seed` (a 30 s cap: a bound on a broken
 * generator, not a timing) and confirms the puzzle as the file's header
 * says. */
static void check_generated(unsigned n, enum rule rule, unsigned level,
                            uint64_t seed)
{
    struct cover_rules r = rules_of(n, rule);
    struct teach_variant v;
    struct lc_puzzle *lc;
    unsigned count = 0, blanks = 0;

    assert_true(teach_variant_levels(n) & (1u << level));
    assert_int_equal(
        teach_generate_variant(&r, seed, level, 0, 30000000u, &scratch, &v),
        TEACH_OK);
    assert_true(tc_verify(&r, &v.solution));
    for (unsigned c = 0; c < n * n; c++) {
        if (v.puzzle.cell[c])
            assert_int_equal(v.puzzle.cell[c], v.solution.cell[c]);
        blanks += v.puzzle.cell[c] == 0;
    }
    assert_int_equal(v.givens, n * n - blanks);
    assert_int_equal(cover_count(&r, &v.puzzle, 2, 0, NULL, &count, NULL),
                     COVER_OK);
    assert_int_equal(count, 1);
    assert_int_equal(v.grade.level, level);
    lc = lc_from_rules(&r);
    if (level <= LOGIC_HARD)
        assert_true(
            lc_solves(lc, v.puzzle.cell, v.solution.cell, (enum lc_set)level));
    else /* expert and extreme need more than the hard techniques */
        assert_false(lc_solves(lc, v.puzzle.cell, v.solution.cell, LC_HARD));
    if (level > LOGIC_EASY && level <= LOGIC_HARD)
        assert_false(lc_solves(lc, v.puzzle.cell, v.solution.cell,
                               (enum lc_set)(level - 1)));
    lc_free(lc);
    /* extreme, and only extreme, takes the last resort */
    assert_int_equal(walk_checked(&v.puzzle, &v.solution),
                     level == LOGIC_EXTREME);
}

static void
variant_puzzles_are_generated_at_each_level_of_their_size(void **state)
{
    static const struct {
        unsigned n;
        enum rule rule;
        unsigned level;
    } cases[] = {
        {4, PLAIN, LOGIC_EASY},     {6, PLAIN, LOGIC_MEDIUM},
        {8, PLAIN, LOGIC_EXPERT},   {12, PLAIN, LOGIC_EASY},
        {16, PLAIN, LOGIC_EASY},    {16, PLAIN, LOGIC_EXTREME},
        {9, JIGSAW, LOGIC_HARD},    {9, JIGSAW, LOGIC_EXTREME},
        {9, DIAGONAL, LOGIC_EASY},  {9, DIAGONAL, LOGIC_EXPERT},
        {9, WINDOKU, LOGIC_MEDIUM}, {9, KNIGHT, LOGIC_MEDIUM},
        {9, KNIGHT, LOGIC_EXTREME}, {9, KING, LOGIC_HARD},
        {9, KING, LOGIC_EXPERT},    {25, PLAIN, LOGIC_HARD},
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_generated(cases[i].n, cases[i].rule, cases[i].level, 7 + i);
}

/* The same seed and level give the same puzzle (no time cap cuts in). */
static void a_variant_seed_replays_its_puzzle(void **state)
{
    struct cover_rules r = rules_of(9, DIAGONAL);
    static struct teach_variant a, b;

    (void)state;
    assert_int_equal(
        teach_generate_variant(&r, 99, LOGIC_MEDIUM, 1, 0, &scratch, &a),
        TEACH_OK);
    assert_int_equal(
        teach_generate_variant(&r, 99, LOGIC_MEDIUM, 1, 0, &scratch, &b),
        TEACH_OK);
    assert_memory_equal(a.puzzle.cell, b.puzzle.cell, 81);
    for (unsigned c = 0; c < 81; c++) /* rotational: blanks in pairs */
        assert_int_equal(a.puzzle.cell[c] == 0, a.puzzle.cell[80 - c] == 0);
}

/* Rows, columns, boxes and cage sums of a killer solution, by a loop of
 * this file's own. */
static int obeys_killer(const struct sudoku_grid *s,
                        const struct killer_cages *k)
{
    for (unsigned u = 0; u < 27; u++) {
        unsigned seen = 0;
        for (unsigned i = 0; i < 9; i++) {
            unsigned r = u < 9 ? u : u < 18 ? i : (u - 18) / 3 * 3 + i / 3;
            unsigned c = u < 9 ? i : u < 18 ? u - 9 : (u - 18) % 3 * 3 + i % 3;
            seen |= 1u << s->cell[r * 9 + c];
        }
        if (seen != 0x3feu)
            return 0;
    }
    for (unsigned i = 0; i < k->ncages; i++) {
        int sum = 0;
        for (unsigned j = 0; j < k->cage[i].ncells; j++)
            sum += s->cell[k->row[k->cage[i].first + j] * 9 +
                           k->col[k->cage[i].first + j]];
        if (sum != k->cage[i].sum)
            return 0;
    }
    return 1;
}

/* A killer at `level` from `seed`: its cages and solution agree (this
 * file's loop), the givens are the solution's, the killer search counts
 * one solution, every walk step agrees with the solution (a forcing step
 * taken at extreme only), and the tests' own solver confirms the level: up to
 * hard, its techniques of the level solve it and those of the level below do
 * not (the 45 rule is medium there, as in the engine); expert and up, its hard
 * set does not. */
static void check_killer(uint64_t seed, unsigned level)
{
    static struct teach_killer k;
    struct lc_puzzle *lc;
    struct sudoku_grid found;
    unsigned count = 0;
    struct cover_grid pz, sol;

    assert_int_equal(
        teach_generate_killer(seed, level, 30000000u, &scratch, &k), TEACH_OK);
    assert_int_equal(k.grade.level, level);
    assert_true(obeys_killer(&k.solution, &k.cages));
    for (unsigned c = 0; c < 81; c++)
        assert_true(k.puzzle.cell[c] == 0 ||
                    k.puzzle.cell[c] == k.solution.cell[c]);
    assert_int_equal(
        killer_count(&k.puzzle, &k.cages, 2, 0, &found, &count, NULL),
        KILLER_OK);
    assert_int_equal(count, 1);
    assert_memory_equal(found.cell, k.solution.cell, 81);
    lc = lc_from_killer(&k.cages);
    if (level <= LOGIC_HARD) {
        assert_true(
            lc_solves(lc, k.puzzle.cell, k.solution.cell, (enum lc_set)level));
        if (level > LOGIC_EASY)
            assert_false(lc_solves(lc, k.puzzle.cell, k.solution.cell,
                                   (enum lc_set)(level - 1)));
    } else {
        assert_false(lc_solves(lc, k.puzzle.cell, k.solution.cell, LC_HARD));
    }
    lc_free(lc);
    teach_from_killer(&scratch, &k.cages);
    pz.n = sol.n = 9;
    memcpy(pz.cell, k.puzzle.cell, 81);
    memcpy(sol.cell, k.solution.cell, 81);
    /* only extreme needs a forcing step */
    assert_int_equal(walk_checked(&pz, &sol), level == LOGIC_EXTREME);
}

static void
a_medium_killer_needs_the_45_rule_or_pairs_and_is_unique(void **state)
{
    (void)state;
    check_killer(3, LOGIC_MEDIUM);
}

static void a_hard_killer_needs_triples_or_wings_and_is_unique(void **state)
{
    (void)state;
    check_killer(2, LOGIC_HARD);
}

static void an_expert_killer_is_unique_and_needs_more_than_subsets(void **state)
{
    (void)state;
    check_killer(5, LOGIC_EXPERT);
}

static void an_extreme_killer_is_unique_and_beyond_the_hard_set(void **state)
{
    (void)state;
    check_killer(4, LOGIC_EXTREME);
}

/* The levels a size offers: each size at least easy, 9x9 all five, and
 * nothing for a size the service does not take. */
static void every_size_offers_easy_and_nine_offers_every_level(void **state)
{
    static const unsigned sizes[] = {4, 6, 8, 9, 12, 16, 25};

    (void)state;
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        assert_true(teach_variant_levels(sizes[i]) & (1u << LOGIC_EASY));
    assert_int_equal(teach_variant_levels(9), (1u << LOGIC_NLEVELS) - 1);
    assert_int_equal(teach_variant_levels(10), 0);
}

int test_teach_generate(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            variant_puzzles_are_generated_at_each_level_of_their_size),
        cmocka_unit_test(a_variant_seed_replays_its_puzzle),
        cmocka_unit_test(
            a_medium_killer_needs_the_45_rule_or_pairs_and_is_unique),
        cmocka_unit_test(a_hard_killer_needs_triples_or_wings_and_is_unique),
        cmocka_unit_test(
            an_expert_killer_is_unique_and_needs_more_than_subsets),
        cmocka_unit_test(an_extreme_killer_is_unique_and_beyond_the_hard_set),
        cmocka_unit_test(every_size_offers_easy_and_nine_offers_every_level),
    };
    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("teach_generate", tests, NULL, NULL);
}
