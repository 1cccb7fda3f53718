/* test_serate.c - cmocka tests of the SE rater (src/engine/serate/): every
 * puzzle of tests/data/se/scale must get exactly the ER/EP/ED that Sudoku
 * Explainer 1.2.1.3 itself printed for it (the file holds SE's output, not
 * ours: see tests/data/se/README.md), and so must the 500 sampled puzzles
 * of 17clue, generated and magictour, SE's own step lists on two of the
 * forum's hardest (tests/data/se/forum_steps), plus the contract: invalid
 * input, the budget's lower bound and the step list. Reads tests/data/, so run
 * from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serate.h"
#include "tests.h"

static int parse_line(const char *line, uint8_t cells[81], int r[3])
{
    int a, b, c, d, e, f;

    if (strlen(line) < 83)
        return 0;
    for (int i = 0; i < 81; i++)
        cells[i] =
            line[i] >= '1' && line[i] <= '9' ? (uint8_t)(line[i] - '0') : 0;
    if (sscanf(line + 82, "%d.%d/%d.%d/%d.%d", &a, &b, &c, &d, &e, &f) != 6)
        return 0;
    r[0] = a * 10 + b;
    r[1] = c * 10 + d;
    r[2] = e * 10 + f;
    return 1;
}

/* Every SE-rated puzzle of one file, exactly. */
static void check_file(const char *path, unsigned min_count)
{
    FILE *f = fopen(path, "r");
    char line[256];
    unsigned n = 0, bad = 0;

    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
        uint8_t cells[81];
        int want[3];
        struct serate_result res;
        if (line[0] == '#' || !parse_line(line, cells, want))
            continue;
        assert_int_equal(serate_rate(cells, NULL, &res), SERATE_OK);
        n++;
        if (res.er != want[0] || res.ep != want[1] || res.ed != want[2] ||
            res.lower_bound) {
            print_message("%.81s: SE %d/%d/%d, ours %d/%d/%d%s\n", line,
                          want[0], want[1], want[2], res.er, res.ep, res.ed,
                          res.lower_bound ? " (lower bound)" : "");
            bad++;
        }
    }
    fclose(f);
    assert_true(n >= min_count);
    assert_int_equal(bad, 0);
}

static void er_ep_ed_equal_se_on_53_puzzles_across_the_scale(void **state)
{
    (void)state;
    check_file("tests/data/se/scale", 40);
}

/* The samples `make serate-check` compares, held by the suite too: the
 * rater's shortcuts (reachability, the caches of docs/rating.md) are only
 * sound if every hint stays SE's, and a wrong one shows on a few puzzles:
 * a wrong reachability bound, written once, changed one of the 53 above
 * and eleven of these 500. */
static void er_ep_ed_equal_se_on_500_sampled_puzzles(void **state)
{
    (void)state;
    check_file("tests/data/se/17clue", 200);
    check_file("tests/data/se/generated", 150);
    check_file("tests/data/se/magictour", 150);
}

/* One puzzle of tests/data/se/forum_steps and the steps SE took. */
struct se_steps {
    char puzzle[82];
    int n;
    int removals; /* the file gives each step's removals too */
    struct serate_step step[160];
};

/* Every step SE printed (name, rating, cell, digit) is ours, in order. */
static void check_steps(const struct se_steps *want)
{
    static struct serate_step got[400];
    struct serate_options opt;
    struct serate_result res;
    uint8_t cells[81];

    for (int i = 0; i < 81; i++)
        cells[i] = want->puzzle[i] >= '1' && want->puzzle[i] <= '9'
                       ? (uint8_t)(want->puzzle[i] - '0')
                       : 0;
    serate_options_init(&opt);
    opt.steps = got;
    opt.max_steps = 400;
    assert_int_equal(serate_rate(cells, &opt, &res), SERATE_OK);
    assert_true(res.nsteps >= (size_t)want->n);
    for (int i = 0; i < want->n; i++) {
        if (strcmp(got[i].name, want->step[i].name) != 0 ||
            got[i].rating != want->step[i].rating ||
            got[i].cell != want->step[i].cell ||
            got[i].digit != want->step[i].digit)
            print_message("%.81s step %d: SE %s %d %d %d, ours %s %d %d %d\n",
                          want->puzzle, i + 1, want->step[i].name,
                          want->step[i].rating, want->step[i].cell,
                          want->step[i].digit, got[i].name, got[i].rating,
                          got[i].cell, got[i].digit);
        assert_string_equal(got[i].name, want->step[i].name);
        assert_int_equal(got[i].rating, want->step[i].rating);
        assert_int_equal(got[i].cell, want->step[i].cell);
        assert_int_equal(got[i].digit, want->step[i].digit);
        for (int c = 0; want->removals && c < 81; c++) {
            if (got[i].removed[c] != want->step[i].removed[c])
                print_message("%.81s step %d (%s), cell %d: SE removes "
                              "%#x, ours %#x\n",
                              want->puzzle, i + 1, want->step[i].name, c,
                              want->step[i].removed[c], got[i].removed[c]);
            assert_int_equal(got[i].removed[c], want->step[i].removed[c]);
        }
    }
}

/* "CELL:DIGITS,..." (or "-") into removed[81]: bit d - 1 for digit d.
 * Returns 0 if tok is not such a list. */
static int parse_removals(const char *tok, uint16_t removed[81])
{
    memset(removed, 0, 81 * sizeof(removed[0]));
    if (strcmp(tok, "-") == 0)
        return 1;
    if (strchr(tok, ':') == NULL)
        return 0;
    for (const char *p = tok; *p;) {
        char *end;
        long c = strtol(p, &end, 10);
        if (end == p || *end != ':' || c < 0 || c > 80)
            return 0;
        for (p = end + 1; *p >= '1' && *p <= '9'; p++)
            removed[c] |= (uint16_t)(1u << (*p - '1'));
        if (*p == ',')
            p++;
        else if (*p != '\0')
            return 0;
    }
    return 1;
}

/* "  12 Some Name (+ More)   10.7 -1 0 [REMOVALS]": number, name, rating,
 * cell, digit, and in files that give them the removals (*removals set). */
static int parse_step(const char *line, struct serate_step *st, int *removals)
{
    char buf[1024];
    char *tok[64];
    int n = 0, a, b;

    snprintf(buf, sizeof buf, "%s", line);
    for (char *t = strtok(buf, " \t\n"); t && n < 64; t = strtok(NULL, " \t\n"))
        tok[n++] = t;
    *removals = n >= 6 && parse_removals(tok[n - 1], st->removed);
    if (*removals)
        n--;
    if (n < 5 || sscanf(tok[n - 3], "%d.%d", &a, &b) != 2)
        return 0;
    st->rating = (uint8_t)(a * 10 + b);
    st->cell = (int8_t)atoi(tok[n - 2]);
    st->digit = (uint8_t)atoi(tok[n - 1]);
    st->name[0] = 0;
    for (int i = 1; i < n - 3; i++) {
        if (i > 1)
            strncat(st->name, " ", sizeof st->name - strlen(st->name) - 1);
        strncat(st->name, tok[i], sizeof st->name - strlen(st->name) - 1);
    }
    return 1;
}

/* Holds every puzzle of a SeSteps file (tests/data/se/README.md) to the
 * steps SE printed; returns the number of puzzles. */
static int check_steps_file(const char *path)
{
    static struct se_steps cur;
    FILE *f = fopen(path, "r");
    char line[1024];
    int puzzles = 0;

    assert_non_null(f);
    int limit = 160, next_limit = 160;
    cur.n = -1;
    while (fgets(line, sizeof line, f)) {
        int removals;
        /* "# compare N": only the first N steps of the next puzzle are
         * held to SE's (see the file's comment for why). */
        if (strncmp(line, "# compare ", 10) == 0)
            next_limit = atoi(line + 10);
        if (line[0] == '#')
            continue;
        if (strlen(line) >= 81 && line[0] != ' ') {
            if (cur.n >= 0)
                check_steps(&cur);
            memcpy(cur.puzzle, line, 81);
            cur.puzzle[81] = 0;
            cur.n = 0;
            cur.removals = 1;
            limit = next_limit;
            next_limit = 160;
            puzzles++;
        } else if (cur.n >= 0 && cur.n < limit &&
                   parse_step(line, &cur.step[cur.n], &removals)) {
            cur.removals &= removals;
            cur.n++;
        }
    }
    fclose(f);
    if (cur.n >= 0)
        check_steps(&cur);
    return puzzles;
}

/* Forum-hardest puzzles (nested chains, SE 10.1-11.1): SE's own steps. */
static void forum_hardest_steps_equal_the_steps_se_takes(void **state)
{
    (void)state;
    assert_true(check_steps_file("tests/data/se/forum_steps") >= 1);
}

/* Puzzles across the scale (ER 1.2-9.4): every step SE took, with the
 * candidates each one removed, is ours (what /explain's SE path shows). */
static void scale_steps_remove_the_candidates_se_removes(void **state)
{
    (void)state;
    assert_true(check_steps_file("tests/data/se/scale_steps") >= 20);
}

static const char *const easy = "..............1.23....45..6.......7...83......"
                                "45...9........5.81........3..2.....";

static void parse(const char *s, uint8_t cells[81])
{
    for (int i = 0; i < 81; i++)
        cells[i] = s[i] >= '1' && s[i] <= '9' ? (uint8_t)(s[i] - '0') : 0;
}

static void
puzzle_without_one_solution_or_with_bad_cells_is_invalid(void **state)
{
    uint8_t cells[81] = {0};
    struct serate_result res;

    (void)state;
    /* Empty board: many solutions. */
    assert_int_equal(serate_rate(cells, NULL, &res), SERATE_INVALID);
    assert_int_equal(res.er, 0);
    /* Two 5s in the first row. */
    parse(easy, cells);
    cells[0] = 5;
    cells[1] = 5;
    assert_int_equal(serate_rate(cells, NULL, &res), SERATE_INVALID);
    cells[0] = 10;
    assert_int_equal(serate_rate(cells, NULL, &res), SERATE_INVALID);
}

/* A magictour puzzle SE rates 9.0 (dynamic forcing chains (+)): with 1 ms it
 * cannot finish, and the partial answer says so and stays below SE's rating. */
static const char *const hard = "...213....6...9.8........9.5.84......7...8..."
                                "3.......5..1...7..2...6...1..5.3.46.";

static void a_time_or_level_cap_gives_a_lower_bound_at_most_se(void **state)
{
    struct serate_options opt;
    struct serate_result full, part;
    uint8_t cells[81];

    (void)state;
    parse(hard, cells);
    assert_int_equal(serate_rate(cells, NULL, &full), SERATE_OK);
    assert_false(full.lower_bound);
    serate_options_init(&opt);
    opt.max_ms = 1;
    assert_int_equal(serate_rate(cells, &opt, &part), SERATE_OK);
    assert_true(part.lower_bound);
    assert_true(part.er <= full.er);
    /* Levels off: the dynamic chains (+) it needs are not tried. */
    serate_options_init(&opt);
    opt.max_level = 0;
    assert_int_equal(serate_rate(cells, &opt, &part), SERATE_OK);
    assert_true(part.lower_bound || part.er == full.er);
}

static void
steps_carry_ed_first_er_as_their_maximum_and_place_every_blank(void **state)
{
    struct serate_options opt;
    struct serate_step steps[100];
    struct serate_result res;
    uint8_t cells[81];
    int max = 0, placed = 0, blanks = 0;

    (void)state;
    parse(hard, cells);
    serate_options_init(&opt);
    opt.steps = steps;
    opt.max_steps = 100;
    assert_int_equal(serate_rate(cells, &opt, &res), SERATE_OK);
    assert_true(res.nsteps > 0);
    assert_int_equal(steps[0].rating, res.ed);
    for (int c = 0; c < 81; c++)
        blanks += cells[c] == 0;
    for (size_t i = 0; i < res.nsteps && i < 100; i++) {
        assert_true(steps[i].name[0] != 0);
        if (steps[i].rating > max)
            max = steps[i].rating;
        if (steps[i].cell >= 0) {
            assert_true(steps[i].digit >= 1 && steps[i].digit <= 9);
            placed++;
        }
    }
    assert_int_equal(max, res.er);
    if (res.nsteps <= 100)
        assert_int_equal(placed, blanks);
}

int test_serate(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(er_ep_ed_equal_se_on_53_puzzles_across_the_scale),
        cmocka_unit_test(er_ep_ed_equal_se_on_500_sampled_puzzles),
        cmocka_unit_test(
            puzzle_without_one_solution_or_with_bad_cells_is_invalid),
        cmocka_unit_test(a_time_or_level_cap_gives_a_lower_bound_at_most_se),
        cmocka_unit_test(
            steps_carry_ed_first_er_as_their_maximum_and_place_every_blank),
        cmocka_unit_test(forum_hardest_steps_equal_the_steps_se_takes),
        cmocka_unit_test(scale_steps_remove_the_candidates_se_removes),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("serate", tests, NULL, NULL);
}
