/* cli_variant.c - `sudoku solve|count|validate|generate` for other sizes
 * and variant rules, through the generic engine (cover.h). It takes over
 * only when a variant option is on the command line; one puzzle per line,
 * N*N characters (the size from --size, or from the line's length, up to
 * the first ':' or blank), answered in order, one line each. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_internal.h" /* cli_variant_main, cli_print_usage */
#include "cover.h"

#define SIZES "4, 6, 8, 9, 12, 16, 25"

struct variant_options {
    const char *mode; /* "solve", "count", "validate", "generate" */
    unsigned size;    /* 0: from each line */
    unsigned box_rows, box_cols;
    const char *regions; /* N*N region letters, A for region 0 */
    int diagonals, anti_knight, anti_king;
    int rotational; /* generate --symmetry rotational */
    unsigned long long max_nodes, seed, count;
};

static int bad_usage(const char *what, const char *arg)
{
    fprintf(stderr, "sudoku: %s%s%s\nTry 'sudoku --help'.\n", what,
            arg ? ": " : "", arg ? arg : "");
    return 2;
}

static int number(const char *v, unsigned long long lo, unsigned long long hi,
                  unsigned long long *out)
{
    char *end;

    if (v == NULL || *v < '0' || *v > '9')
        return -1;
    *out = strtoull(v, &end, 10);
    return *end == '\0' && *out >= lo && *out <= hi ? 0 : -1;
}

/* One option at argv[*i] (its value, if any, consumed): 1 when it is a
 * variant option, 0 when it is not one of ours, -1 (message printed) when
 * its value is bad. */
static int parse_option(int argc, char **argv, int *i,
                        struct variant_options *o)
{
    const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    unsigned long long n;

    if (!strcmp(a, "--diagonals"))
        return o->diagonals = 1;
    if (!strcmp(a, "--anti-knight"))
        return o->anti_knight = 1;
    if (!strcmp(a, "--anti-king"))
        return o->anti_king = 1;
    if (strcmp(a, "--size") && strcmp(a, "--box") && strcmp(a, "--regions"))
        return 0;
    if (v == NULL)
        return bad_usage("this option needs a value", a), -1;
    (*i)++;
    if (!strcmp(a, "--regions")) {
        o->regions = v;
    } else if (!strcmp(a, "--size")) {
        if (number(v, 4, 25, &n) != 0 || strstr(SIZES, v) == NULL ||
            strlen(v) != (n > 9 ? 2u : 1u))
            return bad_usage("--size: the sizes are " SIZES, v), -1;
        o->size = (unsigned)n;
    } else if (sscanf(v, "%ux%u", &o->box_rows, &o->box_cols) != 2) {
        return bad_usage("--box: give it as ROWSxCOLUMNS, e.g. 3x2", v), -1;
    }
    return 1;
}

/* Any variant option in argv? */
static int has_variant_option(int argc, char **argv)
{
    static const char *const flags[] = {"--size",        "--box",
                                        "--regions",     "--diagonals",
                                        "--anti-knight", "--anti-king"};

    for (int i = 1; i < argc; i++)
        for (size_t k = 0; k < sizeof(flags) / sizeof(flags[0]); k++)
            if (!strcmp(argv[i], flags[k]))
                return 1;
    return 0;
}

/* The rules of an n x n puzzle under o, checked: 0, or -1 (printed). */
static int make_rules(const struct variant_options *o, unsigned n,
                      struct cover_rules *r)
{
    char why[160] = "";
    int bad = -1;

    if (cover_rules_init(r, n) != COVER_OK) {
        fprintf(stderr, "sudoku: %ux%u is not a size (" SIZES ")\n", n, n);
        return -1;
    }
    if (o->box_rows) {
        r->box_rows = (uint8_t)o->box_rows;
        r->box_cols = (uint8_t)o->box_cols;
    }
    if (o->regions != NULL) {
        if (strlen(o->regions) != (size_t)n * n) {
            fprintf(stderr, "sudoku: --regions: a %ux%u map has %u letters\n",
                    n, n, n * n);
            return -1;
        }
        r->has_regions = 1;
        for (unsigned i = 0; i < n * n; i++)
            r->region[i] = (uint8_t)((o->regions[i] & ~0x20) - 'A');
    }
    r->diagonals = o->diagonals;
    r->anti_knight = o->anti_knight;
    r->anti_king = o->anti_king;
    if (cover_rules_check(r, &bad, why, sizeof(why)) != COVER_OK) {
        fprintf(stderr, "sudoku: the rules make no puzzle: %s\n",
                why[0] ? why : "check --box and --regions");
        return -1;
    }
    return 0;
}

/* One puzzle line: prints its answer (or a message); 0, or 1 on failure. */
static int run_line(const struct variant_options *o, const char *name,
                    unsigned lineno, const char *line)
{
    size_t len = strcspn(line, ": \t\r\n"), bad = 0;
    unsigned n = o->size ? o->size : 0, count = 0;
    struct cover_rules r;
    struct cover_grid g, sol;
    char text[COVER_MAX_CELLS + 1];
    enum cover_status st;

    if (n == 0)
        while ((size_t)(n + 1) * (n + 1) <= len)
            n++;
    if ((size_t)n * n > len || (!o->size && (size_t)n * n != len)) {
        fprintf(stderr, "%s:%u: not an N x N puzzle (%zu characters)\n", name,
                lineno, len);
        return 1;
    }
    if (make_rules(o, n, &r) != 0)
        return 1;
    if (cover_parse(line, (size_t)n * n, n, &g, &bad) != COVER_OK) {
        fprintf(stderr,
                "%s:%u: character %zu is not a blank or a digit of "
                "a %ux%u puzzle\n",
                name, lineno, bad + 1, n, n);
        return 1;
    }
    st = cover_count(&r, &g, 2, o->max_nodes, &sol, &count, NULL);
    if (st == COVER_BUDGET || st == COVER_NO_MEMORY) {
        fprintf(stderr, "%s:%u: %s\n", name, lineno,
                st == COVER_BUDGET ? "the node budget ran out"
                                   : "out of memory");
        return 1;
    }
    if (!strcmp(o->mode, "count")) {
        printf("%s\n", count > 1 ? "2+" : count ? "1" : "0");
    } else if (!strcmp(o->mode, "validate")) {
        struct cover_conflict c;
        size_t nc = cover_conflicts(&r, &g, &c, 1);
        printf("%s %u\n", nc == 0 && count == 1 ? "valid" : "invalid", count);
    } else if (count == 1) {
        cover_format(&sol, text);
        printf("%s\n", text);
    } else {
        fprintf(stderr, "%s:%u: %s\n", name, lineno,
                count ? "more than one solution" : "no solution");
        return 1;
    }
    return 0;
}

static int run_file(const struct variant_options *o, const char *path)
{
    int is_stdin = !strcmp(path, "-");
    FILE *f = is_stdin ? stdin : fopen(path, "r");
    char line[4096];
    unsigned lineno = 0;
    int rc = 0;

    if (f == NULL) {
        perror(path);
        return 2;
    }
    while (fgets(line, sizeof(line), f) != NULL) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n' || line[0] == '\r')
            continue;
        rc |= run_line(o, is_stdin ? "<stdin>" : path, lineno, line);
    }
    if (!is_stdin)
        fclose(f);
    return rc;
}

/* `generate`: COUNT puzzles from seeds SEED, SEED+1, ... as lines
 * 'puzzle:1:solution'. */
static int generate(const struct variant_options *o)
{
    char puzzle[COVER_MAX_CELLS + 1], solution[COVER_MAX_CELLS + 1];
    struct cover_rules r;
    struct cover_grid p, s;
    unsigned n = o->size ? o->size : 9;

    if (o->regions != NULL && !o->size)
        while ((size_t)(n + 1) * (n + 1) <= strlen(o->regions))
            n++;
    if (make_rules(o, n, &r) != 0)
        return 2;
    for (unsigned long long k = 0; k < o->count; k++) {
        enum cover_status st =
            (o->rotational ? cover_generate_symmetric
                           : cover_generate)(&r, o->seed + k, 0, &p, &s);
        if (st != COVER_OK) {
            fprintf(stderr, "sudoku: seed %llu: %s\n", o->seed + k,
                    st == COVER_NO_MEMORY ? "out of memory"
                                          : "no grid obeys these rules");
            return 1;
        }
        cover_format(&p, puzzle);
        cover_format(&s, solution);
        printf("%s:1:%s\n", puzzle, solution);
    }
    return 0;
}

/* The options, the mode and the first file of argv into *o. Returns the
 * index of the first file (argc: none), or -1 (message printed). */
static int parse(int argc, char **argv, struct variant_options *o)
{
    int first = argc;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int r = parse_option(argc, argv, &i, o);
        if (r < 0)
            return -1;
        if (r > 0)
            continue;
        if ((!strcmp(a, "-n") || !strcmp(a, "--max-nodes") ||
             !strcmp(a, "--seed") || !strcmp(a, "--count"))) {
            unsigned long long *to = a[2] == 's'   ? &o->seed
                                     : a[2] == 'c' ? &o->count
                                                   : &o->max_nodes;
            if (number(i + 1 < argc ? argv[++i] : NULL, 0, ULLONG_MAX, to))
                return bad_usage("this option needs a number", a), -1;
        } else if (!strcmp(a, "--symmetry")) {
            const char *v = i + 1 < argc ? argv[++i] : "";
            if (strcmp(v, "none") && strcmp(v, "rotational"))
                return bad_usage("--symmetry: with variant options, none or "
                                 "rotational",
                                 v),
                       -1;
            o->rotational = v[0] == 'r';
        } else if (o->mode == NULL &&
                   (!strcmp(a, "solve") || !strcmp(a, "count") ||
                    !strcmp(a, "validate") || !strcmp(a, "generate"))) {
            o->mode = a;
        } else if (a[0] == '-' && a[1] != '\0') {
            return bad_usage("not an option with --size and the variant "
                             "options",
                             a),
                   -1;
        } else if (o->mode == NULL) {
            return bad_usage("with variant options the commands are solve, "
                             "count, validate and generate",
                             a),
                   -1;
        } else if (first == argc) {
            first = i;
        }
    }
    return o->mode == NULL ? (bad_usage("no command given", NULL), -1) : first;
}

int cli_variant_main(int argc, char **argv)
{
    struct variant_options o = {.max_nodes = 0, .seed = 1, .count = 1};
    int first, rc = 0;

    if (!has_variant_option(argc, argv))
        return -1;
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            cli_print_usage(); /* the one help, variants included */
            return 0;
        }
    if ((first = parse(argc, argv, &o)) < 0)
        return 2;
    if (!strcmp(o.mode, "generate"))
        return generate(&o);
    if (first == argc)
        return run_file(&o, "-");
    for (int i = first; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            i += strcmp(argv[i], "--diagonals") &&
                 strcmp(argv[i], "--anti-knight") &&
                 strcmp(argv[i], "--anti-king"); /* skip its value */
            continue;
        }
        rc |= run_file(&o, argv[i]);
    }
    return rc;
}
