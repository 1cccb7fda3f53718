/* runner.c - the one test runner: runs every suite (or those named on the
 * command line, or all but those named "-NAME") and ends with the line
 * "N passed, N failed". */
#include <stdio.h>
#include <string.h>

#include "tests.h"

struct suite {
    const char *name;
    int (*run)(unsigned *ntests);
};

static const struct suite suites[] = {
    {"sudoku", test_sudoku},
    {"codec", test_codec},
    {"config", test_config},
    {"log", test_log},
    {"metrics", test_metrics},
    {"api", test_api},
    {"api_batch", test_api_batch},
    {"http", test_http},
    {"main", test_main},
    {"cli", test_cli},
    {"logic", test_logic},
    {"logic_ladder", test_logic_ladder},
    {"generate", test_generate},
    {"api_logic", test_api_logic},
    {"api_grade", test_api_grade},
    {"killer", test_killer},
    {"api_killer", test_api_killer},
    {"api_variant", test_api_variant},
    {"codec_variant", test_codec_variant},
    {"cover", test_cover},
    {"cli_variant", test_cli_variant},
    {"layers", test_layers},
    {"serate", test_serate},
    {"teach", test_teach},
    {"api_teach", test_api_teach},
    {"teach_generate", test_teach_generate},
    {"budget", test_budget},
};

/* Named on the command line, or none named? "-NAME" leaves suite NAME
 * out; a line of only such names runs every other suite. */
static int wanted(const char *name, int argc, char **argv)
{
    int any = 0;

    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && strcmp(argv[i] + 1, name) == 0)
            return 0;
        any |= argv[i][0] != '-';
    }
    if (!any)
        return 1;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return 0;
}

#define NSUITES (sizeof(suites) / sizeof(suites[0]))

/* Every name on the command line is a suite? Else says which is not, and
 * lists them: a typo must not pass as "0 passed, 0 failed". */
static int names_known(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        size_t k = 0;
        const char *name = argv[i][0] == '-' ? argv[i] + 1 : argv[i];
        while (k < NSUITES && strcmp(name, suites[k].name) != 0)
            k++;
        if (k == NSUITES) {
            fprintf(stderr,
                    "test_runner: '%s' is not a suite; the suites:", argv[i]);
            for (k = 0; k < NSUITES; k++)
                fprintf(stderr, " %s", suites[k].name);
            fputc('\n', stderr);
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv)
{
    unsigned total = 0, failed = 0;

    if (!names_known(argc, argv))
        return 2;

    for (size_t i = 0; i < NSUITES; i++) {
        unsigned n = 0;
        if (!wanted(suites[i].name, argc, argv))
            continue;
        int f = suites[i].run(&n);
        total += n;
        failed += f > 0 ? (unsigned)f : 0;
    }
    fflush(stderr);
    printf("%u passed, %u failed\n", total - failed, failed);
    return failed == 0 ? 0 : 1;
}
