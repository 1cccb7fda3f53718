/* test_cli_variant.c - cmocka tests of the `sudoku` command with the
 * variant options (src/cli/cli_variant.c), run as a process ($SUDOKU_BIN,
 * default build/sudoku) through the shell. Solutions are checked by the
 * verifier of tests/variant_support.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests.h"
#include "variant_support.h"

/* Runs `sudoku ARGS` with `input` on stdin (via printf) and stdout in
 * out; returns the exit status. */
static int sudoku(const char *input, const char *args, char *out, size_t cap)
{
    const char *bin = getenv("SUDOKU_BIN");
    char cmd[1024];
    size_t len = 0;
    FILE *p;
    int st;

    snprintf(cmd, sizeof(cmd), "printf '%s' | %s %s 2>/dev/null", input,
             bin ? bin : "build/sudoku", args);
    p = popen(cmd, "r");
    assert_non_null(p);
    len = fread(out, 1, cap - 1, p);
    out[len] = '\0';
    st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void solve_and_count(void **state)
{
#define SIX ".51..6........4.6.1......1.......34."
    static const char six[] = SIX;
    static const struct variant_rules six_rules = {6, 2, NULL, 0, 0, 0, 0};
    char out[4096];

    (void)state;
    assert_int_equal(sudoku(SIX "\\n", "solve --size 6", out, sizeof(out)), 0);
    assert_int_equal(strlen(out), 37);
    variant_verify(&six_rules, six, out);
    /* the size from the line's length, a rule as the trigger */
    assert_int_equal(sudoku(SIX "\\n", "count --anti-king", out, sizeof(out)),
                     0);
    assert_true(out[0] == '0' || out[0] == '1' || out[0] == '2');
    assert_int_equal(
        sudoku("................\\n", "count --size 4", out, sizeof(out)), 0);
    assert_string_equal(out, "2+\n");
}

static void generate_unique(void **state)
{
    static const struct variant_rules x16 = {16, 4, NULL, 1, 0, 0, 0};
    static char out[4096], again[4096], line[600];
    char *sol;

    (void)state;
    assert_int_equal(
        sudoku("", "generate --size 16 --diagonals --seed 3", out, sizeof(out)),
        0);
    sol = strstr(out, ":1:");
    assert_non_null(sol);
    assert_int_equal(sol - out, 256);
    variant_verify(&x16, out, sol + 3);
    assert_int_equal(sudoku("", "generate --size 16 --diagonals --seed 3",
                            again, sizeof(again)),
                     0);
    assert_string_equal(out, again); /* seeded */
    snprintf(line, sizeof(line), "%.256s\\n", out);
    assert_int_equal(sudoku(line, "count --diagonals", again, sizeof(again)),
                     0);
    assert_string_equal(again, "1\n");
}

/* --help with a variant option prints the one help, and it names every
 * variant option cli_variant.c takes. */
static void help_names_the_options(void **state)
{
    static const char *const options[] = {"--size",        "--box",
                                          "--regions",     "--diagonals",
                                          "--anti-knight", "--anti-king"};
    static char out[16384];

    (void)state;
    assert_int_equal(sudoku("", "--size 6 --help", out, sizeof(out)), 0);
    assert_non_null(strstr(out, "usage: sudoku"));
    for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
        assert_non_null(strstr(out, options[i]));
}

static void bad_options_and_lines(void **state)
{
    char out[4096];

    (void)state;
    assert_int_equal(sudoku("", "solve --size 10", out, sizeof(out)), 2);
    assert_int_equal(sudoku("1...............\\n",
                            "solve --regions AABBAABBCCDDCDCD", out,
                            sizeof(out)),
                     1);
    assert_int_equal(sudoku("1....\\n", "solve --diagonals", out, sizeof(out)),
                     1);
    /* without a variant option the classic command runs as before */
    assert_int_equal(
        sudoku("9.7.....6824.3......1..9..2.9...2.18...4....51325.8"
               "......687.........8.9.4.9...5.\\n",
               "solve", out, sizeof(out)),
        0);
    assert_int_equal(strlen(out), 82);
}

int test_cli_variant(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(solve_and_count),
        cmocka_unit_test(generate_unique),
        cmocka_unit_test(bad_options_and_lines),
        cmocka_unit_test(help_names_the_options),
    };
    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("cli_variant", tests, NULL, NULL);
}
