/* test_cli.c - black-box tests of the `sudoku` command-line tool
 * ($SUDOKU_BIN, default build/sudoku): input formats, messages naming the
 * file and line, exit statuses, and --threads keeping the input order. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "se_support.h"
#include "support.h"
#include "tests.h"

#define EXAMPLE SUPPORT_EXAMPLE
#define EXAMPLE_ZEROS                                                          \
    "907000006824030000001009002090002018000400005132508000000687000000000809" \
    "040900050"
#define CONFLICT_LINE                                                          \
    "99.7....6824.3......1..9..2.9...2.18...4....51325.8......687.........8."  \
    "9.4.9...5."
#define SOLUTION SUPPORT_EXAMPLE_SOLUTION

struct run {
    int status;        /* exit status, or -1 */
    char out[1 << 20]; /* stdout */
    char err[8192];    /* stderr */
};

static const char *binary(void)
{
    const char *b = getenv("SUDOKU_BIN");
    return b ? b : "build/sudoku";
}

/* Reads all of fd into buf (cap bytes, NUL-terminated). */
static void slurp(int fd, char *buf, size_t cap)
{
    size_t len = 0;
    ssize_t n;

    while (len < cap - 1 && (n = read(fd, buf + len, cap - 1 - len)) > 0)
        len += (size_t)n;
    buf[len] = '\0';
}

/* Runs the tool with args (NULL-terminated) and `input` on stdin. */
static void run(struct run *r, const char *input, const char *const *args)
{
    char in_path[] = "/tmp/sudoku-cli-in-XXXXXX";
    char out_path[] = "/tmp/sudoku-cli-out-XXXXXX";
    char err_path[] = "/tmp/sudoku-cli-err-XXXXXX";
    int in = mkstemp(in_path), out = mkstemp(out_path), err = mkstemp(err_path);
    const char *argv[16] = {binary()};
    int n = 1, status;
    pid_t pid;

    assert_true(in >= 0 && out >= 0 && err >= 0);
    assert_int_equal(write(in, input, strlen(input)), (ssize_t)strlen(input));
    lseek(in, 0, SEEK_SET);
    for (; *args && n < 15; args++)
        argv[n++] = *args;
    argv[n] = NULL;
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(in, 0), dup2(out, 1), dup2(err, 2);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    lseek(out, 0, SEEK_SET);
    lseek(err, 0, SEEK_SET);
    slurp(out, r->out, sizeof(r->out));
    slurp(err, r->err, sizeof(r->err));
    close(in), close(out), close(err);
    unlink(in_path), unlink(out_path), unlink(err_path);
}

static struct run *new_run(void)
{
    struct run *r = malloc(sizeof(*r));
    assert_non_null(r);
    return r;
}

static void solve_stdin_formats(void **state)
{
    static const char *const args[] = {"solve", NULL};
    struct run *r = new_run();

    (void)state;
    run(r,
        "# a comment\n"
        "\n" EXAMPLE "\n" EXAMPLE_ZEROS ":1:" SOLUTION "\n" EXAMPLE "\r\n",
        args);
    assert_int_equal(r->status, 0);
    assert_string_equal(r->out, SOLUTION "\n" SOLUTION "\n" SOLUTION "\n");
    assert_string_equal(r->err, "");
    free(r);
}

static void solve_reports_bad_puzzles(void **state)
{
    static const char *const args[] = {"solve", NULL};
    struct run *r = new_run();

    (void)state;
    run(r,
        EXAMPLE "\n" /* line 1: solved */
                "99.7....6824.3......1..9..2.9...2.18...4....51325.8......687.."
                ".......8.9.4.9...5.\n"
                "abc\n" /* line 3 */
                ".............................................................."
                "....................\n"
                ".............................................................."
                "...................\n"
                "x" EXAMPLE "\n" /* bad first char */
        EXAMPLE "\n",            /* line 7: solved */
        args);
    assert_int_equal(r->status, 1);
    assert_string_equal(r->out, SOLUTION "\n" SOLUTION "\n");
    assert_non_null(strstr(
        r->err, "<stdin>:2: breaks the rules: 9 appears 2 times in row 1"));
    assert_non_null(strstr(r->err, "<stdin>:3: malformed: 3 characters"));
    assert_non_null(strstr(r->err, "<stdin>:5: more than one solution"));
    assert_non_null(
        strstr(r->err, "<stdin>:6: malformed: bad character 'x' at column 1"));
    free(r);
}

static void count_prints_0_1_or_2plus_per_puzzle(void **state)
{
    static const char *const args[] = {
        "count", "tests/data/test_puzzles_with_solutions", NULL};
    struct run *r = new_run();
    FILE *f = fopen("tests/data/test_puzzles_with_solutions", "r");
    char line[512], want[4096] = "";

    (void)state;
    assert_non_null(f);
    while (fgets(line, sizeof(line), f)) {
        const char *c = strchr(line, ':');
        long n;
        if (line[0] == '#' || c == NULL)
            continue;
        n = strtol(c + 1, NULL, 10);
        strcat(want, n == 0 ? "0\n" : n == 1 ? "1\n" : "2+\n");
    }
    fclose(f);
    run(r, "", args);
    assert_int_equal(r->status, 0);
    assert_string_equal(r->out, want);
    free(r);
}

static void threads_keep_order(void **state)
{
    static const char *const one[] = {
        "solve", "tests/data/puzzles5_forum_hardest_1905_11+", NULL};
    static const char *const two[] = {
        "solve", "--threads", "2", "tests/data/puzzles5_forum_hardest_1905_11+",
        NULL};
    struct run *a = new_run(), *b = new_run();

    (void)state;
    run(a, "", one);
    run(b, "", two);
    assert_int_equal(a->status, 0);
    assert_int_equal(b->status, 0);
    assert_true(strlen(a->out) > 100 * 82);
    assert_string_equal(a->out, b->out);
    free(a), free(b);
}

/* A usage error names the one thing wrong (the flag, the value, what it
 * may be: the five levels, the three symmetries, the number's range, the
 * commands), points to --help, prints no help, and exits 2. */
static void usage_errors(void **state)
{
    static const struct {
        const char *args[6];
        const char *says;
    } bad[] = {
        {{"generate", "--difficulty", "insane"},
         "sudoku: --difficulty: 'insane' is not one of easy, medium, hard, "
         "expert, extreme\n"},
        {{"--threads", "0", "solve"},
         "sudoku: --threads: '0' is not a whole number from 1 to 1024\n"},
        {{"--bogus"}, "sudoku: '--bogus' is not an option\n"},
        {{"--colour", "solve"}, "sudoku: '--colour' is not an option\n"},
        {{"generate", "--difficulty", "easy", "--seed", "-3"},
         "sudoku: --seed: '-3' is not a whole number from 0 to "
         "18446744073709551615\n"},
        {{"generate", "--difficulty", "easy", "--symmetry", "spiral"},
         "sudoku: --symmetry: 'spiral' is not one of none, rotational, "
         "diagonal\n"},
        {{"generate", "--difficulty"}, "sudoku: --difficulty: needs a value\n"},
        {{"generate"}, "sudoku: generate: --difficulty LEVEL is required\n"},
        {{"frobnicate"},
         "sudoku: 'frobnicate' is not a command (solve, count, "
         "validate, hint, grade, explain or generate)\n"},
        {{NULL},
         "sudoku: no command given (solve, count, validate, hint, "
         "grade, explain or generate)\n"},
    };
    static const char *const help[] = {"--help", NULL};
    static const char *const version[] = {"--version", NULL};
    static const char *const missing[] = {"solve", "/nonexistent/puzzles",
                                          NULL};
    struct run *r = new_run();
    char want[512];

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        run(r, "", bad[i].args);
        assert_int_equal(r->status, 2);
        snprintf(want, sizeof(want),
                 "%sTry 'sudoku --help' for more "
                 "information.\n",
                 bad[i].says);
        assert_string_equal(r->err, want);
        assert_string_equal(r->out, "");
    }
    run(r, "", help);
    assert_int_equal(r->status, 0);
    assert_non_null(strstr(r->out, "--threads"));
    assert_non_null(strstr(r->out, "--version"));
    run(r, "", version);
    assert_int_equal(r->status, 0);
    assert_string_equal(r->out, "sudoku " SUDOKUD_VERSION "\n");
    run(r, "", missing);
    assert_int_equal(r->status, 2);
    assert_non_null(strstr(r->err, "/nonexistent/puzzles"));
    free(r);
}

static void logic_subcommands(void **state)
{
    static const char *const validate[] = {"validate", NULL};
    static const char *const hint[] = {"hint", NULL};
    static const char *const grade[] = {"grade", NULL};
    static const char *const explain[] = {"explain", NULL};
    struct run *r = new_run();

    (void)state;
    run(r, EXAMPLE "\n" CONFLICT_LINE "\n", validate);
    assert_int_equal(r->status, 0); /* bad puzzles are answers here */
    assert_non_null(strstr(r->out, "valid 1 incomplete\n"));
    assert_non_null(strstr(r->out, "invalid 0 incomplete"));
    run(r, EXAMPLE "\n", hint);
    assert_int_equal(r->status, 0);
    /* Hidden singles (SE 1.2-1.5) are tried before naked ones. */
    assert_memory_equal(r->out, "hidden_single: In ", 18);
    run(r, EXAMPLE "\n", grade);
    assert_int_equal(r->status, 0);
    assert_memory_equal(r->out, "easy ", 5);
    assert_non_null(strstr(r->out, " guessing=no rating="));
    /* explain: numbered steps, then the summary and an empty line. */
    run(r, EXAMPLE "\n", explain);
    assert_int_equal(r->status, 0);
    assert_memory_equal(r->out, "1. hidden_single (", 18);
    assert_non_null(strstr(r->out, "\nlevel easy rating "));
    assert_int_equal(r->out[strlen(r->out) - 2], '\n');
    free(r);
}

/* A rating printed as "R.r" in tenths, or -1 for "-". */
static int printed_tenths(const char *line, const char *key)
{
    const char *p = strstr(line, key);
    int a, b;

    assert_non_null(p);
    p += strlen(key);
    if (*p == '-')
        return -1;
    assert_int_equal(sscanf(p, "%d.%d", &a, &b), 2);
    return a * 10 + b;
}

/* `sudoku grade` prints SE's own ER/EP/ED (tests/data/se/scale, SE's
 * output) and the level of the ER's band, one line per puzzle in input
 * order; `explain --se` ends on the same numbers; with a 1 ms budget the
 * rating is marked a lower bound. */
static void grade_prints_se_er_ep_ed_across_the_scale(void **state)
{
    static const char *const grade[] = {"grade", NULL};
    static const char *const explain_se[] = {"explain", "--se", NULL};
    static const char *const tight[] = {"-m", "1", "grade", NULL};
    struct se_rated *p = calloc(80, sizeof(*p)), forum[1];
    struct run *r = new_run();
    char *input = malloc(80 * 82 + 1), *line, want[160];
    size_t n;

    (void)state;
    assert_true(p && input);
    n = se_read_file("tests/data/se/scale", p, 80);
    assert_true(n >= 40);
    input[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        strcat(input, p[i].puzzle);
        strcat(input, "\n");
    }
    run(r, input, grade);
    assert_int_equal(r->status, 0);
    line = r->out;
    for (size_t i = 0; i < n; i++) {
        char *end = strchr(line, '\n');
        assert_non_null(end);
        *end = '\0';
        if (printed_tenths(line, " rating=") != p[i].er ||
            printed_tenths(line, " pearl=") != p[i].ep ||
            printed_tenths(line, " diamond=") != p[i].ed)
            fail_msg("%s: SE %d/%d/%d, printed %s", p[i].puzzle, p[i].er,
                     p[i].ep, p[i].ed, line);
        assert_memory_equal(line, se_level_of(p[i].er),
                            strlen(se_level_of(p[i].er)));
        assert_null(strstr(line, "bound=lower"));
        line = end + 1;
    }
    assert_string_equal(line, "");
    memcpy(input, p[n - 1].puzzle, 81);
    memcpy(input + 81, "\n", 2);
    run(r, input, explain_se);
    assert_int_equal(r->status, 0);
    assert_memory_equal(r->out, "1. ", 3);
    /* SE's second step on this puzzle (tests/tools/SeSteps.java): Turbot
     * Fish, 6.6, removing 9 from cell 39, row 4 column 3 from 0 */
    assert_non_null(
        strstr(r->out, "\n2. Turbot Fish (6.6): removes 9 from [4,3]\n"));
    snprintf(want, sizeof want, "\nrating %d.%d pearl %d.%d diamond %d.%d ",
             p[n - 1].er / 10, p[n - 1].er % 10, p[n - 1].ep / 10,
             p[n - 1].ep % 10, p[n - 1].ed / 10, p[n - 1].ed % 10);
    assert_non_null(strstr(r->out, want));
    assert_int_equal(se_read_file("tests/data/se/forum", forum, 1), 1);
    memcpy(input, forum[0].puzzle, 81);
    memcpy(input + 81, "\n", 2);
    run(r, input, tight);
    assert_int_equal(r->status, 0);
    assert_memory_equal(r->out, "extreme ", 8);
    assert_non_null(strstr(r->out, " bound=lower\n"));
    assert_true(printed_tenths(r->out, " rating=") <= forum[0].er);
    free(p), free(r), free(input);
}

/* generate: the same seed gives the same puzzles, each unique and of the
 * level asked for (checked back through the tool itself). */
static void generate_lines(void **state)
{
    static const char *const gen[] = {
        "generate", "--difficulty", "medium", "--seed",
        "11",       "--count",      "3",      NULL};
    static const char *const count[] = {"count", NULL};
    static const char *const grade[] = {"grade", NULL};
    struct run *a = new_run(), *b = new_run(), *c = new_run();
    char puzzles[4 * 82 + 1] = "", *line, *save = NULL, copy[1 << 12] = "";

    (void)state;
    run(a, "", gen);
    run(b, "", gen);
    assert_int_equal(a->status, 0);
    assert_string_equal(a->out, b->out);
    assert_true(strlen(a->out) < sizeof(copy));
    memcpy(copy, a->out, strlen(a->out) + 1);
    for (line = strtok_r(copy, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        assert_true(strlen(line) == 2 * 81 + 3 && line[81] == ':');
        strncat(puzzles, line, 81);
        strcat(puzzles, "\n");
    }
    run(c, puzzles, count);
    assert_string_equal(c->out, "1\n1\n1\n");
    run(c, puzzles, grade);
    for (line = c->out; *line; line = strchr(line, '\n') + 1)
        assert_memory_equal(line, "medium ", 7);
    free(a), free(b), free(c);
}

static void killer_lines(void **state)
{
    static const char *const solve[] = {"solve", NULL};
    struct run *r = new_run();
    FILE *f = fopen("tests/data/killer_puzzles", "r");
    char line[2048], want[100];
    const char *sol;

    (void)state;
    assert_non_null(f);
    do
        assert_non_null(fgets(line, sizeof(line), f));
    while (line[0] == '#');
    fclose(f);
    sol = strrchr(line, '|') + 1;
    snprintf(want, sizeof(want), "%.81s\n", sol);
    *strrchr(line, '|') = '\0'; /* the solution is not given to the tool */
    strcat(line, "\n");
    run(r, line, solve);
    assert_int_equal(r->status, 0);
    assert_string_equal(r->out, want);
    /* A cage that breaks the rules of cages is reported. */
    run(r,
        "......................................................................"
        "............|3:11,12;3:12,13\n",
        solve);
    assert_int_equal(r->status, 1);
    assert_non_null(strstr(r->err, "<stdin>:1:"));
    free(r);
}

/* The lines of tests/data/test_puzzles_with_solutions ("puzzle:count:
 * solution") into lines[], their counts into counts[]; returns how many. */
static size_t read_counted(char lines[][256], long *counts, size_t max)
{
    FILE *f = fopen("tests/data/test_puzzles_with_solutions", "r");
    size_t n = 0;

    assert_non_null(f);
    while (n < max && fgets(lines[n], sizeof(lines[n]), f)) {
        const char *c = strchr(lines[n], ':');
        if (lines[n][0] == '#' || c == NULL)
            continue;
        lines[n][strcspn(lines[n], "\n")] = '\0';
        counts[n++] = strtol(c + 1, NULL, 10);
    }
    fclose(f);
    return n;
}

/* Many copies of the counted puzzles, with malformed, empty, blank and
 * comment lines, CRLF endings, a very long line and no newline at the
 * end: every answer and every report in input order, the same with any
 * number of threads. The expected text is made along with the input. */
static void order_and_line_forms(void **state)
{
    static char lines[64][256];
    static long counts[64];
    static const char *const threads[] = {"1", "2", "5", "16"};
    size_t n = read_counted(lines, counts, 64), cap = 1 << 20, len = 0;
    char *in = malloc(cap), *want = malloc(1 << 16), *want_err = malloc(8192);
    struct run *r = new_run();
    unsigned lineno = 0;

    (void)state;
    assert_true(n > 10 && in && want && want_err);
    want[0] = want_err[0] = '\0';
    for (size_t k = 0; k < 60; k++) {
        for (size_t j = 0; j < n; j++) {
            len += (size_t)sprintf(in + len, "%s%s", lines[j],
                                   (k + j) % 5 ? "\n" : " \r\n");
            lineno++;
            strcat(want, counts[j] == 0   ? "0\n"
                         : counts[j] == 1 ? "1\n"
                                          : "2+\n");
            if (j != k % n)
                continue;
            /* A short line of k + 1 dots, then lines that are skipped. */
            memset(in + len, '.', k + 1);
            len += k + 1;
            len += (size_t)sprintf(in + len, "\n\n \t\r\n# comment %zu\n", k);
            sprintf(want_err + strlen(want_err),
                    "<stdin>:%u: malformed: %zu characters, need 81\n",
                    lineno + 1, k + 1);
            lineno += 4;
        }
    }
    /* A very long line: only its first 81 characters are the puzzle. */
    len += (size_t)sprintf(in + len, "%s:", EXAMPLE);
    memset(in + len, 'x', 200000);
    len += 200000;
    len += (size_t)sprintf(in + len, "\n%s", EXAMPLE); /* no newline */
    strcat(want, "1\n1\n");
    assert_true(len < cap);
    for (size_t t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
        const char *args[] = {"--threads", threads[t], "count", NULL};
        run(r, in, args);
        assert_int_equal(r->status, 1);
        assert_string_equal(r->out, want);
        assert_string_equal(r->err, want_err);
    }
    free(in), free(want), free(want_err), free(r);
}

/* Input with no puzzle at all: no output, nothing reported. */
static void no_puzzles(void **state)
{
    static const char *const args[] = {"--threads", "4", "solve", NULL};
    struct run *r = new_run();

    (void)state;
    run(r, "", args);
    assert_int_equal(r->status, 0);
    assert_string_equal(r->out, "");
    assert_string_equal(r->err, "");
    run(r, "\n# only a comment\r\n\n", args);
    assert_int_equal(r->status, 0);
    assert_string_equal(r->out, "");
    assert_string_equal(r->err, "");
    free(r);
}

int test_cli(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(solve_stdin_formats),
        cmocka_unit_test(solve_reports_bad_puzzles),
        cmocka_unit_test(count_prints_0_1_or_2plus_per_puzzle),
        cmocka_unit_test(threads_keep_order),
        cmocka_unit_test(usage_errors),
        cmocka_unit_test(logic_subcommands),
        cmocka_unit_test(grade_prints_se_er_ep_ed_across_the_scale),
        cmocka_unit_test(generate_lines),
        cmocka_unit_test(killer_lines),
        cmocka_unit_test(order_and_line_forms),
        cmocka_unit_test(no_puzzles),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
