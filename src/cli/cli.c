/* cli.c - `sudoku`, the command-line front end of the solver library and
 * the logic engine: the help, the options and the commands. Running an
 * input is cli_run.c's (chunks of lines on N threads, written in input
 * order), a line's answer cli_line.c's, `generate` cli_generate.c's. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_internal.h"
#include "version.h"

#define CLI_COMMANDS "solve, count, validate, hint, grade, explain or generate"

static const char usage_classic[] =
    "usage: sudoku [OPTIONS] solve [FILE...]\n"
    "       sudoku [OPTIONS] count [FILE...]\n"
    "       sudoku [OPTIONS] validate|hint|grade|explain [FILE...]\n"
    "       sudoku generate --difficulty LEVEL [--seed N] [--symmetry S]\n"
    "                       [--count N]\n"
    "\n"
    "Reads puzzles, one per line, from each FILE (standard input when there\n"
    "is none, or for '-'): 81 characters row by row, '.' or '0' for a blank,\n"
    "'1'-'9' for a given. Anything after the 81st character (such as\n"
    "':count:solution') is ignored; empty lines and lines starting with '#'\n"
    "are skipped.\n"
    "\n"
    "  solve   print the solution of each puzzle, one line of 81 digits.\n"
    "          A puzzle that is malformed, breaks the rules, has no solution\n"
    "          or more than one gets no output line but a message on stderr\n"
    "          (FILE:LINE: reason); the other puzzles are still solved and\n"
    "          the exit status is 1.\n"
    "  count   print the number of solutions of each puzzle: 0, 1 or 2+.\n"
    "          A malformed line gets a message on stderr and exit status 1.\n"
    "  validate  print 'valid' or 'invalid', the number of solutions (0, 1,\n"
    "          2 meaning two or more), 'complete' or 'incomplete', and the\n"
    "          first broken rule if any. Bad puzzles are answers here, not\n"
    "          errors: only a malformed line sets exit status 1.\n"
    "  hint    print the simplest next step: 'technique: explanation'; when\n"
    "          no step is found within the time budget, 'from_solution:\n"
    "          ...' gives one cell of the solution instead. The explanation\n"
    "          is the API's, so its rows, columns and cells count from 0.\n"
    "  grade   print the level (easy, medium, hard, expert, extreme, from\n"
    "          the rating), then from our logic engine the hardest\n"
    "          technique ('-' for none), its steps and whether it stopped\n"
    "          before the end ('guessing=yes': only when the time budget ran\n"
    "          out), then Sudoku Explainer 1.2.1.3's ratings: rating=ER\n"
    "          pearl=EP diamond=ED ('-' when not reached), and 'bound=lower'\n"
    "          when the budget cut the rating short (docs/rating.md).\n"
    "  explain print every step from the puzzle to its solution, one per\n"
    "          line: 'N. technique (rating): explanation', then a line\n"
    "          'level L rating R steps N' (and 'stopped: time budget' when\n"
    "          the budget ran out), then an empty line. With --se, the\n"
    "          steps Sudoku Explainer takes: 'N. SE name (rating)', ':\n"
    "          [r,c] is d' when it places and 'removes D... from [r,c]' for\n"
    "          each cell it takes candidates from, then 'rating R pearl P\n"
    "          diamond D steps N'.\n"
    "          hint, grade and explain need a puzzle with exactly one\n"
    "          solution, like solve, and report others on stderr.\n";

/* The rest of the classic help (one string would pass the 4,095
 * characters C promises a literal). */
static const char usage_classic_more[] =
    "  generate  print COUNT puzzles (default 1) of the level as lines\n"
    "          'puzzle:1:solution'; puzzle i uses seed N+i (default N 1), so\n"
    "          the output is the same on every run. Symmetry S: none\n"
    "          (default), rotational or diagonal. A level missed within the\n"
    "          budget prints the closest puzzle with a note on stderr and\n"
    "          exit status 1.\n"
    "\n"
    "Killer sudoku (solve and count): the board may go on with '|' and\n"
    "its cages, separated by ';': each a sum, ':' and its cells separated\n"
    "by ','; a cell is two digits, row then column, counting from 1 (11 is\n"
    "the top left cell, 99 the bottom right); blanks around them are fine\n"
    "and anything after a second '|' (such as the solution) is ignored.\n"
    "The board may be all blanks. For example (board shortened):\n"
    "  ......|3:11,12;15:13,14,24;...\n"
    "The cages are checked before the search: every cell in the grid and in\n"
    "one cage only, each cage connected side by side, each sum possible for\n"
    "its size, the sums totalling 405 when the cages cover the grid, and\n"
    "givens that fit their cage; a problem is reported on stderr.\n"
    "\n"
    "In messages, lines, columns (character positions), rows and boxes\n"
    "count from 1, as in editors; the HTTP API counts from 0.\n"
    "\n"
    "options:\n"
    "  -t, --threads N     solve with N threads (default 1); the output stays\n"
    "                      in input order\n"
    "  -n, --max-nodes N   give up on a puzzle after N search nodes and "
    "report\n"
    "                      it on stderr (default 0: no bound)\n"
    "  -m, --max-logic-ms N  time budget of hint, grade and explain for one\n"
    "                      puzzle, in ms (default 1000; 0: no bound)\n"
    "      --se            explain: list Sudoku Explainer's steps\n"
    "  -h, --help          show this help\n"
    "      --version       print the version\n"
    "\n"
    "exit status: 0 all puzzles answered, 1 some puzzle reported on stderr,\n"
    "2 bad usage (the one thing wrong is said on stderr) or an unreadable\n"
    "file.\n";

/* Printed after the rest (one string would pass the 4,095 characters C
 * promises a literal). */
static const char usage_variant[] =
    "\n"
    "Other sizes and variant rules (solve, count, validate and generate;\n"
    "docs/cli.md): --size N (4, 6, 8, 9, 12, 16 or 25; else the line's\n"
    "length says), --box RxC, --regions MAP (N*N region letters, jigsaw),\n"
    "--diagonals, --anti-knight, --anti-king. A line is N*N characters,\n"
    "'1'-'9' then 'A'-'P' for 10 and up; generate takes --size and the\n"
    "rules with --seed, --count and --symmetry none|rotational.\n";

void cli_print_usage(void)
{
    fputs(usage_classic, stdout);
    fputs(usage_classic_more, stdout);
    fputs(usage_variant, stdout);
}

int cli_bad_usage(const char *fmt, ...)
{
    va_list ap;

    fputs("sudoku: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nTry 'sudoku --help' for more information.\n", stderr);
    return 2;
}

static int cli_number(const char *s, unsigned long long max,
                      unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!s || *s < '0' || *s > '9')
        return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > max)
        return -1;
    *out = v;
    return 0;
}

int cli_option_number(const char *flag, const char *v, unsigned long long min,
                      unsigned long long max, unsigned long long *out)
{
    if (v == NULL)
        return cli_bad_usage("%s: needs a value", flag);
    if (cli_number(v, max, out) != 0 || *out < min)
        return cli_bad_usage("%s: '%s' is not a whole number from %llu to %llu",
                             flag, v, min, max);
    return 0;
}

/* The command words, in the order of enum cli_mode. */
static const char *const mode_names[] = {"solve", "count", "validate",
                                         "hint",  "grade", "explain"};

static int mode_of(const char *word)
{
    for (size_t i = 0; i < sizeof(mode_names) / sizeof(mode_names[0]); i++)
        if (!strcmp(word, mode_names[i]))
            return (int)i;
    return -1;
}

/* Is a an option that takes a value? */
static int takes_value(const char *a)
{
    return !strcmp(a, "-t") || !strcmp(a, "--threads") || !strcmp(a, "-n") ||
           !strcmp(a, "--max-nodes") || !strcmp(a, "-m") ||
           !strcmp(a, "--max-logic-ms");
}

/* Sets option a (one that takes_value) to v: 0, or the exit status. */
static int set_option(struct cli_options *opt, const char *a, const char *v)
{
    unsigned long long n;

    if (!strcmp(a, "-t") || !strcmp(a, "--threads")) {
        if (cli_option_number(a, v, 1, 1024, &n))
            return 2;
        opt->threads = (unsigned)n;
    } else if (!strcmp(a, "-n") || !strcmp(a, "--max-nodes")) {
        if (cli_option_number(a, v, 0, ULLONG_MAX, &n))
            return 2;
        opt->max_nodes = n;
    } else {
        if (cli_option_number(a, v, 0, 3600000, &n))
            return 2;
        opt->max_logic_ms = n;
    }
    return 0;
}

/* Reads the arguments into *opt, and in *first_file the first argument
 * after the command word that is neither an option nor an option's value
 * (0: none, read standard input). Returns -1 to go on, or the exit status
 * (help, version, a usage error, or generate's). */
static int parse_args(int argc, char **argv, struct cli_options *opt,
                      int *first_file)
{
    int have_mode = 0, mode;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            cli_print_usage();
            return 0;
        } else if (!strcmp(a, "--version")) {
            printf("sudoku %s\n", SUDOKUD_VERSION);
            return 0;
        } else if (takes_value(a)) {
            if (set_option(opt, a, i + 1 < argc ? argv[++i] : NULL))
                return 2;
        } else if (!strcmp(a, "--se")) {
            opt->se = 1;
        } else if (!have_mode && (mode = mode_of(a)) >= 0) {
            opt->mode = (enum cli_mode)mode, have_mode = 1;
        } else if (!have_mode && !strcmp(a, "generate")) {
            return cli_generate(argc - i - 1, argv + i + 1);
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_bad_usage("'%s' is not an option", a);
        } else if (have_mode) {
            if (!*first_file)
                *first_file = i;
        } else {
            return cli_bad_usage("'%s' is not a command (%s)", a, CLI_COMMANDS);
        }
    }
    if (!have_mode)
        return cli_bad_usage("no command given (%s)", CLI_COMMANDS);
    return -1;
}

int main(int argc, char **argv)
{
    struct cli_options opt = {CLI_SOLVE, 1, 0, 1000, 0};
    int first_file = 0, rc = cli_variant_main(argc, argv);

    if (rc >= 0) /* other sizes and variants: cli_variant.c */
        return rc;
    rc = parse_args(argc, argv, &opt, &first_file);
    if (rc >= 0)
        return rc;
    rc = 0;
    /* Options may follow the files too: run every argument after the mode
     * word that is not an option or an option's value. */
    for (int i = first_file ? first_file : argc; i < argc; i++) {
        if (takes_value(argv[i])) {
            i++;
            continue;
        }
        if (!strcmp(argv[i], "--se"))
            continue;
        int r = cli_run_file(&opt, argv[i]);
        if (r > rc)
            rc = r;
        fflush(stdout);
    }
    if (!first_file)
        rc = cli_run_file(&opt, "-");
    return rc;
}
