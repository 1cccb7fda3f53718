/* cli.c - `sudoku`, the command-line front end of the solver library and
 * the logic engine. Each input is read whole, its puzzles are worked on by N
 * threads into a result array (so the output keeps input order), then
 * printed in order. `generate` writes puzzles instead of reading them. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_variant.h"
#include "config.h" /* SUDOKUD_VERSION, the one version of the project */
#include "generate.h"
#include "killer.h"
#include "logic.h"
#include "sudoku.h"

#define CLI_CHUNK 64 /* puzzles a thread takes at a time */

#define CLI_COMMANDS "solve, count, validate, hint, grade, explain or generate"

static const char usage[] =
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
    "  grade   print the level (easy, medium, hard, expert, extreme), the\n"
    "          hardest technique needed ('-' for none), the number of steps,\n"
    "          whether the engine stopped before the end ('guessing=yes':\n"
    "          only when the time budget ran out) and the rating (1.0-12.0,\n"
    "          on Sudoku Explainer's scale: the hardest step's).\n"
    "  explain print every step from the puzzle to its solution, one per\n"
    "          line: 'N. technique (rating): explanation', then a line\n"
    "          'level L rating R steps N' (and 'stopped: time budget' when\n"
    "          the budget ran out), then an empty line.\n"
    "          hint, grade and explain need a puzzle with exactly one\n"
    "          solution, like solve, and report others on stderr.\n"
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
    "  -h, --help          show this help\n"
    "      --version       print the version\n"
    "\n"
    "exit status: 0 all puzzles answered, 1 some puzzle reported on stderr,\n"
    "2 bad usage (the one thing wrong is said on stderr) or an unreadable\n"
    "file.\n";

enum cli_mode {
    CLI_SOLVE,
    CLI_COUNT,
    CLI_VALIDATE,
    CLI_HINT,
    CLI_GRADE,
    CLI_EXPLAIN
};

struct cli_options {
    enum cli_mode mode;
    unsigned threads;
    uint64_t max_nodes;
    uint64_t max_logic_ms;
};

/* The outcome of one puzzle line. */
enum cli_verdict {
    CLI_SOLVED, /* unique solution (solve) or counted (count) */
    CLI_MALFORMED,
    CLI_CONFLICT,
    CLI_NONE,
    CLI_MULTIPLE,
    CLI_BUDGET,
    CLI_CAGES, /* killer: cages malformed or wrong; see cages_msg */
};

struct cli_item {
    const char *text; /* the line, not NUL-terminated */
    size_t len;
    unsigned lineno;
    enum cli_verdict verdict;
    unsigned count;
    size_t bad_index; /* CLI_MALFORMED with a bad character */
    struct sudoku_conflict conflict;
    struct sudoku_grid solution;
    size_t nconflicts;        /* validate */
    int complete;             /* validate */
    struct logic_grade grade; /* grade */
    char hint[512];           /* hint: "technique: explanation" */
    char cages_msg[200];      /* CLI_CAGES */
};

struct cli_batch {
    const struct cli_options *opt;
    struct cli_item *items;
    size_t n;
    atomic_size_t next;
};

/* "technique: explanation" for the simplest step, or a cell of the
 * solution when the engine is stuck. */
static void cli_hint(const struct sudoku_grid *g, const struct sudoku_grid *sol,
                     uint64_t max_ms, char *out, size_t size)
{
    struct logic_grid lg;
    struct logic_step s;
    struct logic_budget b = {max_ms ? logic_now_us() + max_ms * 1000 : 0, 0};
    int n, cell = -1;

    logic_init(&lg, g);
    switch (logic_step_budget(&lg, &b, &s)) {
    case LOGIC_OK:
        n = snprintf(out, size, "%s: ", logic_technique_name(s.technique));
        if (n > 0 && (size_t)n < size)
            logic_explain(&s, out + n, size - (size_t)n);
        return;
    case LOGIC_SOLVED:
        snprintf(out, size, "solved: no blank cell is left");
        return;
    default:
        for (int i = 0; i < SUDOKU_CELLS; i++)
            if (lg.value[i] == 0 &&
                (cell < 0 || __builtin_popcount(lg.cand[i]) <
                                 __builtin_popcount(lg.cand[cell])))
                cell = i;
        snprintf(out, size,
                 "from_solution: no step was found within the "
                 "time budget; in the solution, cell [%d,%d] is %d",
                 cell / 9, cell % 9, sol->cell[cell]);
    }
}

/* A killer line: the board g, then '|' and the cages at it->text[81]. */
static void cli_run_killer(const struct cli_options *opt, struct cli_item *it,
                           const struct sudoku_grid *g)
{
    struct killer_cages k;
    struct killer_error err;
    enum killer_status st;
    size_t bad = 0;
    int n;

    it->verdict = CLI_CAGES;
    if (opt->mode != CLI_SOLVE && opt->mode != CLI_COUNT) {
        snprintf(it->cages_msg, sizeof(it->cages_msg),
                 "killer puzzles "
                 "(cages after '|') are read by solve and count only");
        return;
    }
    if (killer_parse(it->text + SUDOKU_CELLS + 1, it->len - SUDOKU_CELLS - 1,
                     &k, &bad) != KILLER_OK) {
        snprintf(it->cages_msg, sizeof(it->cages_msg),
                 "malformed cages at "
                 "column %zu: want SUM:RC,RC,...;SUM:RC,... (RC: row and "
                 "column digits 1-9)",
                 SUDOKU_CELLS + 2 + bad);
        return;
    }
    if ((it->nconflicts = sudoku_conflicts(g, &it->conflict, 1)) > 0) {
        it->verdict = opt->mode == CLI_COUNT ? CLI_SOLVED : CLI_CONFLICT;
        it->count = 0;
        return;
    }
    if ((st = killer_check(g, &k, &err)) != KILLER_OK) {
        n = snprintf(it->cages_msg, sizeof(it->cages_msg), "bad cages: ");
        killer_describe(st, &err, 1, it->cages_msg + n,
                        sizeof(it->cages_msg) - (size_t)n);
        return;
    }
    if (killer_count(g, &k, 2, opt->max_nodes, &it->solution, &it->count,
                     NULL) != KILLER_OK) {
        it->verdict = CLI_BUDGET;
        return;
    }
    if (opt->mode == CLI_COUNT || it->count == 1)
        it->verdict = CLI_SOLVED;
    else
        it->verdict = it->count == 0 ? CLI_NONE : CLI_MULTIPLE;
}

static void cli_run_item(const struct cli_options *opt, struct cli_item *it)
{
    struct sudoku_grid g;
    size_t len = it->len < SUDOKU_CELLS ? it->len : SUDOKU_CELLS;

    if (sudoku_parse(it->text, len, &g, &it->bad_index) != SUDOKU_OK) {
        it->verdict = CLI_MALFORMED;
        return;
    }
    if (it->len > SUDOKU_CELLS && it->text[SUDOKU_CELLS] == '|') {
        cli_run_killer(opt, it, &g);
        return;
    }
    it->complete = 1;
    for (int i = 0; i < SUDOKU_CELLS; i++)
        it->complete &= g.cell[i] != 0;
    if ((it->nconflicts = sudoku_conflicts(&g, &it->conflict, 1)) > 0) {
        it->verdict = opt->mode == CLI_COUNT || opt->mode == CLI_VALIDATE
                          ? CLI_SOLVED
                          : CLI_CONFLICT;
        it->count = 0;
        return;
    }
    if (sudoku_count(&g, 2, opt->max_nodes, &it->solution, &it->count, NULL) !=
        SUDOKU_OK) {
        it->verdict = CLI_BUDGET;
        return;
    }
    if (opt->mode == CLI_COUNT || opt->mode == CLI_VALIDATE || it->count == 1)
        it->verdict = CLI_SOLVED;
    else
        it->verdict = it->count == 0 ? CLI_NONE : CLI_MULTIPLE;
    if (it->verdict == CLI_SOLVED && opt->mode == CLI_GRADE) {
        struct logic_limits lim = {opt->max_logic_ms * 1000, 0, 0};
        logic_grade_budget(&g, &lim, &it->grade, NULL);
    }
    if (it->verdict == CLI_SOLVED && opt->mode == CLI_HINT)
        cli_hint(&g, &it->solution, opt->max_logic_ms, it->hint,
                 sizeof(it->hint));
}

static void *cli_worker(void *arg)
{
    struct cli_batch *b = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&b->next, CLI_CHUNK);
        if (i >= b->n)
            return NULL;
        size_t end = b->n - i < CLI_CHUNK ? b->n : i + CLI_CHUNK;
        for (; i < end; i++)
            cli_run_item(b->opt, &b->items[i]);
    }
}

/* Solves every item with up to opt->threads threads, this one included;
 * when a thread cannot be started the others do its share. */
static void cli_run_batch(const struct cli_options *opt, struct cli_item *items,
                          size_t n)
{
    struct cli_batch b = {opt, items, n, 0};
    pthread_t tids[64];
    unsigned started = 0;
    unsigned want = opt->threads;

    if (want > 64)
        want = 64;
    if ((size_t)want > n / CLI_CHUNK + 1)
        want = (unsigned)(n / CLI_CHUNK + 1);
    for (; started + 1 < want; started++)
        if (pthread_create(&tids[started], NULL, cli_worker, &b) != 0)
            break;
    cli_worker(&b);
    for (unsigned t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
}

/* `sudoku explain` for one puzzle (run while printing, so in input order):
 * the steps, one per line, then the summary line and an empty line. */
static void cli_explain(const struct cli_options *opt, const char *text,
                        const struct sudoku_grid *sol)
{
    struct sudoku_grid g;
    struct logic_grid lg;
    struct logic_step s;
    struct logic_budget b = {
        opt->max_logic_ms ? logic_now_us() + opt->max_logic_ms * 1000 : 0, 0};
    enum logic_status st;
    unsigned n = 0, rating = 10;
    char line[2048];

    (void)sol;
    sudoku_parse(text, SUDOKU_CELLS, &g, NULL);
    logic_init(&lg, &g);
    while ((st = logic_step_budget(&lg, &b, &s)) == LOGIC_OK) {
        logic_explain(&s, line, sizeof(line));
        printf("%u. %s (%.1f): %s\n", ++n, logic_technique_name(s.technique),
               s.rating / 10.0, line);
        if (s.rating > rating)
            rating = s.rating;
        logic_apply(&lg, &s);
    }
    printf("level %s rating %.1f steps %u%s\n\n",
           logic_level_name(st == LOGIC_SOLVED
                                ? (n ? logic_rating_level(rating) : LOGIC_EASY)
                                : LOGIC_EXTREME),
           rating / 10.0, n, st == LOGIC_BUDGET ? " stopped: time budget" : "");
}

static const char *const unit_names[] = {"row", "column", "box"};

/* Prints one item; returns 1 when it was reported as a failure. */
static int cli_print_item(const struct cli_options *opt, const char *name,
                          const struct cli_item *it)
{
    char out[SUDOKU_CELLS + 1];

    switch (it->verdict) {
    case CLI_SOLVED:
        if (opt->mode == CLI_VALIDATE) {
            printf("%s %u %s",
                   it->nconflicts == 0 && it->count == 1 ? "valid" : "invalid",
                   it->nconflicts ? 0 : it->count,
                   it->complete ? "complete" : "incomplete");
            if (it->nconflicts)
                printf(" conflict: %u appears %u times in %s %u",
                       it->conflict.digit, it->conflict.ncells,
                       unit_names[it->conflict.unit], it->conflict.index + 1u);
            printf("\n");
        } else if (opt->mode == CLI_HINT) {
            printf("%s\n", it->hint);
        } else if (opt->mode == CLI_GRADE) {
            printf("%s %s steps=%u guessing=%s rating=%.1f\n",
                   logic_level_name(it->grade.level),
                   it->grade.hardest < 0
                       ? "-"
                       : logic_technique_name(
                             (enum logic_technique)it->grade.hardest),
                   it->grade.steps, it->grade.needs_guessing ? "yes" : "no",
                   it->grade.rating / 10.0);
        } else if (opt->mode == CLI_EXPLAIN) {
            cli_explain(opt, it->text, &it->solution);
        } else if (opt->mode == CLI_COUNT) {
            printf("%s\n", it->count == 0 ? "0" : it->count == 1 ? "1" : "2+");
        } else {
            sudoku_format(&it->solution, out);
            printf("%s\n", out);
        }
        return 0;
    case CLI_MALFORMED:
        if (it->len < SUDOKU_CELLS)
            fprintf(stderr, "%s:%u: malformed: %zu characters, need 81\n", name,
                    it->lineno, it->len);
        else
            fprintf(
                stderr, "%s:%u: malformed: bad character '%c' at column %zu\n",
                name, it->lineno, it->text[it->bad_index], it->bad_index + 1);
        return 1;
    case CLI_CONFLICT:
        fprintf(stderr,
                "%s:%u: breaks the rules: %u appears %u times in %s %u\n", name,
                it->lineno, it->conflict.digit, it->conflict.ncells,
                unit_names[it->conflict.unit], it->conflict.index + 1u);
        return 1;
    case CLI_NONE:
        fprintf(stderr, "%s:%u: no solution\n", name, it->lineno);
        return 1;
    case CLI_MULTIPLE:
        fprintf(stderr, "%s:%u: more than one solution\n", name, it->lineno);
        return 1;
    case CLI_BUDGET:
        fprintf(stderr, "%s:%u: gave up after %llu search nodes\n", name,
                it->lineno, (unsigned long long)opt->max_nodes);
        return 1;
    case CLI_CAGES:
        fprintf(stderr, "%s:%u: %s\n", name, it->lineno, it->cages_msg);
        return 1;
    }
    return 1;
}

/* Reads all of f into a NUL-terminated heap buffer; NULL on failure. */
static char *cli_slurp(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);

    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            return NULL;
        }
        buf = bigger;
        cap *= 2;
    }
    if (!buf || ferror(f)) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Splits buf into puzzle items (skipping comments and empty lines).
 * Returns the array (caller frees) and its size in *n; NULL when out of
 * memory. */
static struct cli_item *cli_split(const char *buf, size_t len, size_t *n)
{
    size_t cap = 1024, count = 0;
    unsigned lineno = 0;
    struct cli_item *items = malloc(cap * sizeof *items);

    for (size_t pos = 0; items && pos < len;) {
        const char *line = buf + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t l = nl ? (size_t)(nl - line) : len - pos;
        pos += l + 1;
        lineno++;
        while (l > 0 && (line[l - 1] == '\r' || line[l - 1] == ' ' ||
                         line[l - 1] == '\t'))
            l--;
        if (l == 0 || line[0] == '#')
            continue;
        if (count == cap) {
            struct cli_item *bigger = realloc(items, 2 * cap * sizeof *items);
            if (!bigger) {
                free(items);
                return NULL;
            }
            items = bigger;
            cap *= 2;
        }
        items[count++] =
            (struct cli_item){.text = line, .len = l, .lineno = lineno};
    }
    *n = count;
    return items;
}

/* Runs one input. Returns 0 when every puzzle was answered, 1 when some
 * was reported, 2 when the input could not be read. */
static int cli_run_file(const struct cli_options *opt, const char *path)
{
    int is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    FILE *f = is_stdin ? stdin : fopen(path, "r");
    size_t len = 0, n = 0;
    int rc = 0;

    if (!f) {
        fprintf(stderr, "sudoku: %s: %s\n", path, strerror(errno));
        return 2;
    }
    char *buf = cli_slurp(f, &len);
    if (!is_stdin)
        fclose(f);
    if (!buf) {
        fprintf(stderr, "sudoku: %s: cannot read\n", name);
        return 2;
    }
    struct cli_item *items = cli_split(buf, len, &n);
    if (!items) {
        fprintf(stderr, "sudoku: %s: out of memory\n", name);
        free(buf);
        return 2;
    }
    cli_run_batch(opt, items, n);
    for (size_t i = 0; i < n; i++)
        rc |= cli_print_item(opt, name, &items[i]);
    free(items);
    free(buf);
    return rc;
}

/* A usage error: says the one thing that is wrong, points to --help, and
 * gives the exit status for it (2). */
static int cli_bad_usage(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static int cli_bad_usage(const char *fmt, ...)
{
    va_list ap;

    fputs("sudoku: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nTry 'sudoku --help' for more information.\n", stderr);
    return 2;
}

/* The words `name(i)` gives for i < n, as "a, b, c" (into buf). */
static const char *cli_words(char *buf, size_t cap, unsigned n,
                             const char *(*name)(unsigned))
{
    size_t len = 0;

    buf[0] = '\0';
    for (unsigned i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "",
                                name(i));
    return buf;
}

static const char *cli_level_name(unsigned i)
{
    return logic_level_name((enum logic_level)i);
}

static const char *cli_symmetry_name(unsigned i)
{
    return generate_symmetry_name((enum generate_symmetry)i);
}

/* Reads option `flag`'s value v as a whole number from min to max: 0, or
 * the usage error's status. */
static int cli_option_number(const char *flag, const char *v,
                             unsigned long long min, unsigned long long max,
                             unsigned long long *out);

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

static int cli_option_number(const char *flag, const char *v,
                             unsigned long long min, unsigned long long max,
                             unsigned long long *out)
{
    if (v == NULL)
        return cli_bad_usage("%s: needs a value", flag);
    if (cli_number(v, max, out) != 0 || *out < min)
        return cli_bad_usage("%s: '%s' is not a whole number from %llu to %llu",
                             flag, v, min, max);
    return 0;
}

/* `sudoku generate`: argv holds the arguments after the word. */
static int cli_generate(int argc, char **argv)
{
    struct generate_options o;
    enum logic_level level = LOGIC_EXTREME;
    enum generate_symmetry sym = GENERATE_NONE;
    unsigned long long seed = 1, count = 1;
    int have_level = 0, rc = 0;

    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char words[128];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(a, "--difficulty") || !strcmp(a, "--symmetry")) {
            int level_flag = a[2] == 'd';
            if (v == NULL)
                return cli_bad_usage("%s: needs a value", a);
            if (level_flag ? logic_level_parse(v, &level) != 0
                           : generate_symmetry_parse(v, &sym) != 0)
                return cli_bad_usage(
                    "%s: '%s' is not one of %s", a, v,
                    level_flag
                        ? cli_words(words, sizeof(words), LOGIC_NLEVELS,
                                    cli_level_name)
                        : cli_words(words, sizeof(words), GENERATE_NSYMMETRIES,
                                    cli_symmetry_name));
            have_level |= level_flag;
        } else if (!strcmp(a, "--seed")) {
            if (cli_option_number(a, v, 0, ULLONG_MAX, &seed))
                return 2;
        } else if (!strcmp(a, "--count")) {
            if (cli_option_number(a, v, 1, 1000000, &count))
                return 2;
        } else {
            return cli_bad_usage("generate: '%s' is not an option of "
                                 "generate",
                                 a);
        }
        i++;
    }
    if (!have_level)
        return cli_bad_usage("generate: --difficulty LEVEL is required");
    for (unsigned long long k = 0; k < count; k++) {
        struct generate_result r;
        char puzzle[SUDOKU_CELLS + 1], solution[SUDOKU_CELLS + 1];
        generate_options_init(&o, level, seed + k);
        o.symmetry = sym;
        if (generate_puzzle(&o, &r) != GENERATE_OK) {
            fprintf(stderr,
                    "sudoku: seed %llu: no %s puzzle within the "
                    "budget; printing the closest (%s)\n",
                    seed + k, logic_level_name(level),
                    logic_level_name(r.grade.level));
            rc = 1;
        }
        sudoku_format(&r.puzzle, puzzle);
        sudoku_format(&r.solution, solution);
        printf("%s:1:%s\n", puzzle, solution);
    }
    return rc;
}

int main(int argc, char **argv)
{
    struct cli_options opt = {CLI_SOLVE, 1, 0, 1000};
    int first_file = 0, have_mode = 0, rc = cli_variant_main(argc, argv);

    if (rc >= 0) /* other sizes and variants: cli_variant.c */
        return rc;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        unsigned long long v;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(a, "--version")) {
            printf("sudoku %s\n", SUDOKUD_VERSION);
            return 0;
        } else if (!strcmp(a, "-t") || !strcmp(a, "--threads")) {
            if (cli_option_number(a, i + 1 < argc ? argv[++i] : NULL, 1, 1024,
                                  &v))
                return 2;
            opt.threads = (unsigned)v;
        } else if (!strcmp(a, "-n") || !strcmp(a, "--max-nodes")) {
            if (cli_option_number(a, i + 1 < argc ? argv[++i] : NULL, 0,
                                  ULLONG_MAX, &v))
                return 2;
            opt.max_nodes = v;
        } else if (!have_mode && !strcmp(a, "solve")) {
            opt.mode = CLI_SOLVE, have_mode = 1;
        } else if (!have_mode && !strcmp(a, "count")) {
            opt.mode = CLI_COUNT, have_mode = 1;
        } else if (!have_mode && !strcmp(a, "validate")) {
            opt.mode = CLI_VALIDATE, have_mode = 1;
        } else if (!have_mode && !strcmp(a, "hint")) {
            opt.mode = CLI_HINT, have_mode = 1;
        } else if (!have_mode && !strcmp(a, "grade")) {
            opt.mode = CLI_GRADE, have_mode = 1;
        } else if (!have_mode && !strcmp(a, "explain")) {
            opt.mode = CLI_EXPLAIN, have_mode = 1;
        } else if (!strcmp(a, "-m") || !strcmp(a, "--max-logic-ms")) {
            if (cli_option_number(a, i + 1 < argc ? argv[++i] : NULL, 0,
                                  3600000, &v))
                return 2;
            opt.max_logic_ms = v;
        } else if (!have_mode && !strcmp(a, "generate")) {
            return cli_generate(argc - i - 1, argv + i + 1);
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_bad_usage("'%s' is not an option", a);
        } else if (have_mode) {
            if (!first_file)
                first_file = i;
        } else {
            return cli_bad_usage("'%s' is not a command (%s)", a, CLI_COMMANDS);
        }
    }
    if (!have_mode)
        return cli_bad_usage("no command given (%s)", CLI_COMMANDS);
    /* Options may follow the files too: run every argument after the mode
     * word that is not an option or an option's value. */
    for (int i = first_file ? first_file : argc; i < argc; i++) {
        if (!strcmp(argv[i], "-t") || !strcmp(argv[i], "--threads") ||
            !strcmp(argv[i], "-n") || !strcmp(argv[i], "--max-nodes") ||
            !strcmp(argv[i], "-m") || !strcmp(argv[i], "--max-logic-ms")) {
            i++;
            continue;
        }
        int r = cli_run_file(&opt, argv[i]);
        if (r > rc)
            rc = r;
        fflush(stdout);
    }
    if (!first_file)
        rc = cli_run_file(&opt, "-");
    return rc;
}
