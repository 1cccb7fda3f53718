/* test_generate.c - cmocka tests of the generator (src/engine/generate.c): the
 * random source, full grids, and puzzles that are unique, of the requested
 * level (SE's ER, serate.h) and symmetry, the same for the same seed, for
 * many seeds. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "generate.h"
#include "logic.h"
#include "logic_check.h"
#include "serate.h"
#include "sudoku.h"
#include "tests.h"

static void rng_replays_its_seed_and_stays_below_its_bound(void **state)
{
    struct rng a, b, c;
    int differ = 0;

    (void)state;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    rng_seed(&c, 43);
    for (int i = 0; i < 100; i++) {
        uint64_t x = rng_next(&a);
        assert_true(x == rng_next(&b));
        differ += x != rng_next(&c);
        assert_true(rng_below(&a, 9) < 9);
        rng_below(&b, 9);
    }
    assert_true(differ > 90);
}

/* rng_below stays below n and spreads evenly: 60000 draws in 6 bins land
 * within 5% of 10000 each (the cover shuffles rely on it). */
static void rng_below_spreads_evenly(void **state)
{
    struct rng r;
    unsigned bins[6] = {0};

    (void)state;
    rng_seed(&r, 7);
    assert_int_equal(rng_below(&r, 1), 0);
    for (int i = 0; i < 60000; i++)
        bins[rng_below(&r, 6)]++;
    for (int k = 0; k < 6; k++)
        assert_true(bins[k] > 9500 && bins[k] < 10500);
}

static void full_grids(void **state)
{
    struct sudoku_grid empty, g, prev;

    (void)state;
    memset(&empty, 0, sizeof(empty));
    memset(&prev, 0, sizeof(prev));
    for (uint64_t seed = 0; seed < 200; seed++) {
        struct rng r;
        rng_seed(&r, seed);
        generate_full_grid(&r, &g);
        assert_true(sudoku_is_solution_of(&empty, &g));
        assert_memory_not_equal(g.cell, prev.cell, SUDOKU_CELLS);
        prev = g;
    }
}

/* The level (of SE's ER), judged without the engines that chose it: an
 * independent solver (tests/logic_check.c) with singles alone, then with
 * locked candidates, naked and hidden pairs and X-wings too (SE's
 * techniques rated up to 3.4 but hidden triplets). Whatever order they are
 * applied in these eliminations reach the same end, so at every step of
 * SE's path one of them applies, and SE takes the first producer in rating
 * order that has a hint:
 *   - singles alone solve it: SE takes a single (1.0-2.3) or a direct hint
 *     before it (1.7, 2.0) every time, so it is easy;
 *   - the medium set solves it: SE never goes past 3.4, at most medium;
 *   - easy (SE's steps are singles, direct pointing or claiming and direct
 *     hidden pairs, each inside the medium set): the medium set solves it.
 * Then SE's ER itself, recomputed, is in the level's band. */
static void check_level_independently(const struct sudoku_grid *puzzle,
                                      enum logic_level level)
{
    int singles = logic_check_solves(puzzle, LOGIC_CHECK_SINGLES);
    int medium = logic_check_solves(puzzle, LOGIC_CHECK_MEDIUM);
    struct serate_result se;

    if (singles)
        assert_int_equal(level, LOGIC_EASY);
    if (medium)
        assert_true(level <= LOGIC_MEDIUM);
    if (level == LOGIC_EASY)
        assert_true(medium);
    assert_int_equal(serate_rate(puzzle->cell, NULL, &se), SERATE_OK);
    assert_false(se.lower_bound);
    assert_int_equal(logic_rating_level((unsigned)se.er), level);
}

/* Generates and checks one puzzle; returns its puzzle grid. */
static struct sudoku_grid check_one(enum logic_level level, uint64_t seed,
                                    enum generate_symmetry sym)
{
    struct generate_options o;
    struct generate_result r;
    struct sudoku_grid sol;
    unsigned count = 0, givens = 0;

    generate_options_init(&o, level, seed);
    o.symmetry = sym;
    o.max_us = 0; /* deterministic: attempts only */
    if (generate_puzzle(&o, &r) != GENERATE_OK)
        fail_msg("%s seed %llu: missed (got %s after %u attempts)",
                 logic_level_name(level), (unsigned long long)seed,
                 logic_level_name(r.level), r.attempts);
    assert_int_equal(sudoku_count(&r.puzzle, 2, 0, &sol, &count, NULL),
                     SUDOKU_OK);
    assert_int_equal(count, 1);
    assert_memory_equal(sol.cell, r.solution.cell, SUDOKU_CELLS);
    assert_int_equal(r.level, level);
    check_level_independently(&r.puzzle, level);
    for (int i = 0; i < SUDOKU_CELLS; i++) {
        int m = sym == GENERATE_ROTATIONAL ? 80 - i
                : sym == GENERATE_DIAGONAL ? (i % 9) * 9 + i / 9
                                           : i;
        assert_int_equal(r.puzzle.cell[i] == 0, r.puzzle.cell[m] == 0);
        givens += r.puzzle.cell[i] != 0;
    }
    assert_int_equal(givens, r.givens);
    return r.puzzle;
}

static void levels_many_seeds(void **state)
{
    (void)state;
    for (int level = 0; level < LOGIC_NLEVELS; level++) {
        unsigned seeds = level == LOGIC_HARD ? 4 : 10;
        for (uint64_t seed = 1; seed <= seeds; seed++)
            check_one((enum logic_level)level, seed * 7919,
                      (enum generate_symmetry)(seed % GENERATE_NSYMMETRIES));
    }
}

/* A rating range alone (any level), then narrowing a level: SE's ER,
 * recomputed, lands in it. */
static void rating_range(void **state)
{
    static const struct {
        enum logic_level level;
        unsigned lo, hi;
    } want[] = {{LOGIC_NLEVELS, 30, 44},
                {LOGIC_NLEVELS, 50, 70},
                {LOGIC_EXPERT, 0, 60},
                {LOGIC_EASY, 12, 15}};

    (void)state;
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        struct generate_options o;
        struct generate_result r;
        struct serate_result se;
        unsigned lo = want[i].lo, hi = want[i].hi;
        generate_options_init(&o, want[i].level, 11 + i);
        o.min_rating = lo;
        o.max_rating = hi;
        o.max_us = 0;
        assert_int_equal(generate_puzzle(&o, &r), GENERATE_OK);
        assert_int_equal(serate_rate(r.puzzle.cell, NULL, &se), SERATE_OK);
        if (want[i].level == LOGIC_EXPERT && lo < 47)
            lo = 47; /* expert starts above 4.6 */
        if ((unsigned)se.er < lo || (unsigned)se.er > hi)
            fail_msg("range %u-%u: SE rates %d", lo, hi, se.er);
        assert_int_equal(se.er, r.se.er);
        check_level_independently(&r.puzzle,
                                  logic_rating_level((unsigned)se.er));
    }
}

static void same_seed_same_puzzle(void **state)
{
    struct sudoku_grid a, b, c;

    (void)state;
    a = check_one(LOGIC_MEDIUM, 2024, GENERATE_ROTATIONAL);
    b = check_one(LOGIC_MEDIUM, 2024, GENERATE_ROTATIONAL);
    c = check_one(LOGIC_MEDIUM, 2025, GENERATE_ROTATIONAL);
    assert_memory_equal(a.cell, b.cell, SUDOKU_CELLS);
    assert_memory_not_equal(a.cell, c.cell, SUDOKU_CELLS);
}

static void budget_bounds_time(void **state)
{
    struct generate_options o;
    struct generate_result r;
    unsigned count = 0;

    (void)state;
    generate_options_init(&o, LOGIC_HARD, 3);
    o.max_us = 1; /* one attempt, then the clock stops it */
    generate_puzzle(&o, &r);
    assert_int_equal(r.attempts, 1);
    assert_true(r.timed_out || r.level == LOGIC_HARD);
    sudoku_count(&r.puzzle, 2, 0, NULL, &count, NULL);
    assert_int_equal(count, 1); /* the best found is still a puzzle */
    generate_options_init(&o, LOGIC_HARD, 3);
    o.max_attempts = 1;
    o.max_us = 0;
    generate_puzzle(&o, &r);
    assert_int_equal(r.attempts, 1);
    assert_false(r.timed_out);
}

static void symmetry_names(void **state)
{
    enum generate_symmetry s;

    (void)state;
    for (int i = 0; i < GENERATE_NSYMMETRIES; i++) {
        assert_int_equal(
            generate_symmetry_parse(
                generate_symmetry_name((enum generate_symmetry)i), &s),
            0);
        assert_int_equal(s, i);
    }
    assert_int_equal(generate_symmetry_parse("mirror", &s), -1);
    assert_null(generate_symmetry_name(GENERATE_NSYMMETRIES));
}

int test_generate(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rng_replays_its_seed_and_stays_below_its_bound),
        cmocka_unit_test(rng_below_spreads_evenly),
        cmocka_unit_test(full_grids),
        cmocka_unit_test(levels_many_seeds),
        cmocka_unit_test(same_seed_same_puzzle),
        cmocka_unit_test(rating_range),
        cmocka_unit_test(budget_bounds_time),
        cmocka_unit_test(symmetry_names),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("generate", tests, NULL, NULL);
}
