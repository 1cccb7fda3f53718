/* test_cover_data.c - the generic engine on shared data and its own data
 * sets: both engines agree on classic puzzles, the generator makes unique,
 * seed-determined puzzles, and every puzzle of tests/data/cover/ has one
 * solution that the independent verifier accepts. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cover.h"
#include "cover_support.h"

/* ---------------------------------------------- both engines agree */

/* Every puzzle of two shared-data samples: cover_count and sudoku_count
 * give the same count (to 2) and, when unique, the same solution. */
static void agree_on(const char *path)
{
    char line[256];
    unsigned lines = 0;
    struct cover_rules r;
    FILE *f = fopen(path, "r");

    if (!f)
        fail_msg("cannot open %s (run from the repository root)", path);
    cover_rules_init(&r, 9);
    tc_check_rules(&r);
    while (fgets(line, sizeof(line), f)) {
        struct sudoku_grid sp, ss;
        struct cover_grid cp, cs;
        unsigned sc = 9, cc = 9;
        if (line[0] == '#' || strcspn(line, "\r\n") != 81)
            continue;
        assert_int_equal(sudoku_parse(line, 81, &sp, NULL), SUDOKU_OK);
        line[81] = '\0';
        cp = tc_grid(9, line);
        assert_int_equal(sudoku_count(&sp, 2, 0, &ss, &sc, NULL), SUDOKU_OK);
        assert_int_equal(cover_count(&r, &cp, 2, 0, &cs, &cc, NULL), COVER_OK);
        assert_int_equal(cc, sc);
        if (sc == 1)
            assert_memory_equal(cs.cell, ss.cell, 81);
        lines++;
    }
    fclose(f);
    assert_true(lines >= 100);
}

void tc_cover_and_sudoku_count_agree_on_shared_samples(void **state)
{
    (void)state;
    agree_on("tests/data/puzzles2_17_clue");
    agree_on("tests/data/puzzles7_serg_benchmark");
    agree_on("tests/data/puzzles5_forum_hardest_1905_11+");
}

/* ------------------------------------------------------------ generation */

static void generate_one(struct cover_rules *r, uint64_t seed)
{
    struct cover_grid p, s, p2, s2, found;
    unsigned count = 0, n = r->n;

    tc_check_rules(r);
    assert_int_equal(cover_generate(r, seed, 0, &p, &s), COVER_OK);
    assert_true(tc_verify(r, &s));
    for (unsigned c = 0; c < n * n; c++)
        assert_true(p.cell[c] == 0 || p.cell[c] == s.cell[c]);
    assert_int_equal(cover_count(r, &p, 2, 0, &found, &count, NULL), COVER_OK);
    assert_int_equal(count, 1);
    assert_memory_equal(found.cell, s.cell, n * n);
    /* the same seed, the same puzzle */
    assert_int_equal(cover_generate(r, seed, 0, &p2, &s2), COVER_OK);
    assert_memory_equal(p2.cell, p.cell, n * n);
    assert_memory_equal(s2.cell, s.cell, n * n);
}

void tc_generated_puzzles_are_unique_and_replay_their_seed(void **state)
{
    struct cover_rules r;

    (void)state;
    cover_rules_init(&r, 4);
    generate_one(&r, 1);
    cover_rules_init(&r, 6);
    generate_one(&r, 2);
    cover_rules_init(&r, 8);
    r.anti_king = 1;
    generate_one(&r, 3);
    cover_rules_init(&r, 9);
    r.diagonals = 1;
    tc_jigsaw_map(&r);
    generate_one(&r, 4);
    cover_rules_init(&r, 9);
    tc_hyper_groups(&r);
    r.anti_knight = 1;
    generate_one(&r, 5);
}

/* symmetric: a cell is blank exactly when its mirror is */
void tc_symmetric_puzzle_blanks_mirror_cells(void **state)
{
    struct cover_rules r;
    struct cover_grid p, s;
    unsigned count = 0;

    (void)state;
    cover_rules_init(&r, 12);
    tc_check_rules(&r);
    assert_int_equal(cover_generate_symmetric(&r, 6, 0, &p, &s), COVER_OK);
    for (unsigned c = 0; c < 144; c++)
        assert_int_equal(p.cell[c] == 0, p.cell[143 - c] == 0);
    assert_true(tc_verify(&r, &s));
    assert_int_equal(cover_count(&r, &p, 2, 0, NULL, &count, NULL), COVER_OK);
    assert_int_equal(count, 1);
}

/* r2c1 must differ from all of row 1 (its column and box hold r1c1
 * and r1c2, the extra group r1c3 and r1c4): five cells, four digits */
void tc_impossible_rules_generate_no_solution(void **state)
{
    struct cover_rules r;
    struct cover_grid p, s;

    (void)state;
    cover_rules_init(&r, 4);
    r.nextra = 1;
    r.extra[0].ncells = 3;
    r.extra[0].cell[0] = 4, r.extra[0].cell[1] = 2, r.extra[0].cell[2] = 3;
    tc_check_rules(&r);
    assert_int_equal(cover_generate(&r, 1, 0, &p, &s), COVER_NO_SOLUTION);
}

/* The same on a 16x16 (r2c1 against row 1 through box and a 13-cell
 * group) is too deep for a fill to prove: the fills give up, no time
 * bound needed. */
void tc_impossible_16x16_rules_give_up_on_budget(void **state)
{
    struct cover_rules r;
    struct cover_grid p, s;

    (void)state;
    cover_rules_init(&r, 16);
    r.nextra = 1;
    r.extra[0].ncells = 13;
    r.extra[0].cell[0] = 16;
    for (unsigned i = 0; i < 12; i++)
        r.extra[0].cell[i + 1] = (uint16_t)(4 + i);
    tc_check_rules(&r);
    assert_int_equal(cover_generate(&r, 1, 0, &p, &s), COVER_BUDGET);
}

/* ------------------------------------------------------------ data sets */

#define SET_DIR "tests/data/cover/"
#define SET_MIN 200 /* puzzles a set holds at least */

/* Every puzzle of the set: exactly one solution (counted to 2), which the
 * independent verifier accepts and which keeps the givens. */
static unsigned check_set(const char *name)
{
    char path[128], line[1024];
    struct cover_rules r;
    unsigned k = 0;
    FILE *f;

    snprintf(path, sizeof(path), SET_DIR "%s", name);
    assert_true(tc_set_rules(name, &r));
    f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s (run from the repository root)", path);
    while (fgets(line, sizeof(line), f)) {
        struct cover_grid p, s;
        unsigned count = 0;
        line[strcspn(line, "\r\n")] = '\0';
        p = tc_grid(r.n, line);
        assert_int_equal(cover_count(&r, &p, 2, 0, &s, &count, NULL), COVER_OK);
        if (count != 1)
            fail_msg("%s:%u: %u solutions", path, k + 1, count);
        assert_true(tc_verify(&r, &s));
        assert_true(cover_is_solution_of(&r, &p, &s));
        k++;
    }
    fclose(f);
    return k;
}

void tc_every_data_set_puzzle_is_unique_and_verified(void **state)
{
    (void)state;
    for (unsigned i = 0; tc_set_name(i); i++) {
        unsigned k = check_set(tc_set_name(i));
        if (k < SET_MIN)
            fail_msg("%s: %u puzzles, fewer than %u", tc_set_name(i), k,
                     SET_MIN);
    }
}

/* ----------------------------------------------------------- reentrancy */

struct job {
    const struct cover_rules *r;
    struct cover_grid puzzle, solution;
    unsigned count;
    int rounds;
};

static void *count_rounds(void *arg)
{
    struct job *j = arg;
    for (int i = 0; i < j->rounds; i++) {
        struct cover_grid s;
        unsigned count = 0;
        cover_count(j->r, &j->puzzle, 2, 0, &s, &count, NULL);
        if (count != j->count || s.n != j->solution.n ||
            memcmp(s.cell, j->solution.cell, (size_t)s.n * s.n) != 0)
            return (void *)1;
    }
    return NULL;
}

/* Two threads count different puzzles under the same rules at once and
 * always get the answers one thread got alone. */
void tc_two_threads_count_as_one_does(void **state)
{
    struct cover_rules r;
    struct job job[2];
    pthread_t t[2];
    void *res[2];
    struct cover_grid p[2];

    (void)state;
    assert_true(tc_set_rules("size16", &r));
    for (int i = 0; i < 2; i++) {
        struct cover_grid s;
        assert_int_equal(cover_generate(&r, (uint64_t)i + 77, 0, &p[i], &s),
                         COVER_OK);
        job[i].r = &r;
        job[i].puzzle = p[i];
        job[i].rounds = 20;
        assert_int_equal(
            cover_count(&r, &p[i], 2, 0, &job[i].solution, &job[i].count, NULL),
            COVER_OK);
        assert_int_equal(job[i].count, 1);
    }
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, count_rounds, &job[i]), 0);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(pthread_join(t[i], &res[i]), 0);
        assert_null(res[i]);
    }
}
