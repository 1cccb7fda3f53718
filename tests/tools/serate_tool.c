/* serate_tool.c - rates puzzles (one 81-character line each, '.' or '0'
 * blank) with serate_rate and prints "puzzle ER/EP/ED ms" like SE's
 * serate --format='%g %r/%p/%d': the bench and the oracle comparison. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "serate.h"

static double cpu_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* As tests/tools/SeSteps.java prints a step: number, SE name, rating,
 * placed cell (-1: none), digit, and the candidates taken away as
 * CELL:DIGITS,... ("-" for none). */
static void print_step(size_t n, const struct serate_step *s)
{
    const char *sep = " ";

    printf("  %2zu %-44s %d.%d %d %d", n, s->name, s->rating / 10,
           s->rating % 10, s->cell, s->digit);
    for (int c = 0; c < 81; c++) {
        if (s->removed[c] == 0)
            continue;
        printf("%s%d:", sep, c);
        for (int d = 1; d <= 9; d++)
            if (s->removed[c] >> (d - 1) & 1)
                putchar('0' + d);
        sep = ",";
    }
    puts(*sep == ' ' ? " -" : "");
}

int main(int argc, char **argv)
{
    struct serate_options opt;
    struct serate_step steps[200];
    char line[256];
    int verbose = 0;

    serate_options_init(&opt);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v"))
            verbose = 1;
        else if (!strncmp(argv[i], "--max-ms=", 9))
            opt.max_ms = atol(argv[i] + 9);
        else if (!strncmp(argv[i], "--level=", 8))
            opt.max_level = atoi(argv[i] + 8);
    }
    if (verbose) {
        opt.steps = steps;
        opt.max_steps = 200;
    }
    while (fgets(line, sizeof line, stdin)) {
        uint8_t cells[81];
        struct serate_result res;
        if (strlen(line) < 81)
            continue;
        for (int c = 0; c < 81; c++)
            cells[c] =
                line[c] >= '1' && line[c] <= '9' ? (uint8_t)(line[c] - '0') : 0;
        double t = cpu_ms();
        enum serate_status st = serate_rate(cells, &opt, &res);
        t = cpu_ms() - t;
        if (st != SERATE_OK) {
            printf("%.81s invalid\n", line);
            continue;
        }
        printf("%.81s %d.%d/%d.%d/%d.%d %.2f%s\n", line, res.er / 10,
               res.er % 10, res.ep / 10, res.ep % 10, res.ed / 10, res.ed % 10,
               t, res.lower_bound ? " lower" : "");
        if (verbose)
            for (size_t i = 0; i < res.nsteps && i < opt.max_steps; i++)
                print_step(i + 1, &steps[i]);
        fflush(stdout);
    }
    return 0;
}
