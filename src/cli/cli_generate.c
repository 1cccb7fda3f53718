/* cli_generate.c - `sudoku generate`: COUNT puzzles of a level, puzzle i
 * from seed N+i, so that the output is the same on every run. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli_internal.h"
#include "generate.h"
#include "logic.h"
#include "sudoku.h"

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

/* `sudoku generate`: argv holds the arguments after the word. */
int cli_generate(int argc, char **argv)
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
            cli_print_usage();
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
                    logic_level_name(r.level));
            rc = 1;
        }
        sudoku_format(&r.puzzle, puzzle);
        sudoku_format(&r.solution, solution);
        printf("%s:1:%s\n", puzzle, solution);
    }
    return rc;
}
