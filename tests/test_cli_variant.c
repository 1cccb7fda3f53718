/* test_cli_variant.c - cmocka tests of the `sudoku` command with the
 * variant options (src/cli_variant.c), run as a process ($SUDOKU_BIN,
 * default build/sudoku) through the shell. Solutions are checked by a
 * verifier written here (rows, columns, boxes, diagonals, givens kept). */
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

static int value_of(char ch)
{
    return ch >= '1' && ch <= '9' ? ch - '0' : ch >= 'A' ? ch - 'A' + 10 : 0;
}

/* Fails unless sol is a complete n x n grid with br x (n/br) boxes (and
 * the diagonals when asked) that keeps the givens of puzzle. */
static void verify(unsigned n, unsigned br, int diagonals, const char *puzzle,
                   const char *sol)
{
    unsigned bc = n / br;

    for (unsigned i = 0; i < n * n; i++) {
        unsigned r = i / n, c = i % n;
        int v = value_of(sol[i]);
        if (v < 1 || v > (int)n)
            fail_msg("cell %u is '%c'", i, sol[i]);
        if (puzzle[i] != '.' && puzzle[i] != '0' && puzzle[i] != sol[i])
            fail_msg("given %u changed", i);
        for (unsigned j = 0; j < i; j++) {
            unsigned r2 = j / n, c2 = j % n;
            int see = r == r2 || c == c2 ||
                      (r / br == r2 / br && c / bc == c2 / bc) ||
                      (diagonals && ((r == c && r2 == c2) ||
                                     (r + c == n - 1 && r2 + c2 == n - 1)));
            if (see && sol[i] == sol[j])
                fail_msg("cells %u and %u both hold '%c'", j, i, sol[i]);
        }
    }
}

static void solve_and_count(void **state)
{
#define SIX ".51..6........4.6.1......1.......34."
    static const char six[] = SIX;
    char out[4096];

    (void)state;
    assert_int_equal(sudoku(SIX "\\n", "solve --size 6", out, sizeof(out)), 0);
    assert_int_equal(strlen(out), 37);
    verify(6, 2, 0, six, out);
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
    static char out[4096], again[4096], line[600];
    char *sol;

    (void)state;
    assert_int_equal(
        sudoku("", "generate --size 16 --diagonals --seed 3", out, sizeof(out)),
        0);
    sol = strstr(out, ":1:");
    assert_non_null(sol);
    assert_int_equal(sol - out, 256);
    verify(16, 4, 1, out, sol + 3);
    assert_int_equal(sudoku("", "generate --size 16 --diagonals --seed 3",
                            again, sizeof(again)),
                     0);
    assert_string_equal(out, again); /* seeded */
    snprintf(line, sizeof(line), "%.256s\\n", out);
    assert_int_equal(sudoku(line, "count --diagonals", again, sizeof(again)),
                     0);
    assert_string_equal(again, "1\n");
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
    };
    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("cli_variant", tests, NULL, NULL);
}
