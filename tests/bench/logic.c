/* logic.c - the logic engine's and the generator's figures for `make bench`:
 * the level distribution of every data set (and the check that no
 * forum-hardest puzzle grades below expert), then the time to generate a
 * puzzle of each level over many seeds (median, p99, max). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "generate.h"
#include "logic.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Grades every puzzle of one file that has exactly one solution. Returns
 * the number graded below expert when `min_expert` is set, else 0. */
static size_t grade_set(const char *dir, const char *name, int min_expert)
{
    char path[4096], line[1024];
    unsigned long levels[LOGIC_NLEVELS] = {0}, n = 0, skipped = 0;
    size_t below = 0;
    uint64_t t0 = bench_cpu_ns();
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if ((f = fopen(path, "r")) == NULL)
        return 0;
    while (fgets(line, sizeof(line), f)) {
        struct sudoku_grid g;
        struct logic_grade gr;
        unsigned count = 0;
        if (line[0] == '#' || strcspn(line, "\r\n") < SUDOKU_CELLS ||
            sudoku_parse(line, SUDOKU_CELLS, &g, NULL) != SUDOKU_OK)
            continue;
        sudoku_count(&g, 2, 0, NULL, &count, NULL);
        if (count != 1) {
            skipped++;
            continue;
        }
        logic_grade(&g, &gr, NULL);
        levels[gr.level]++;
        n++;
        if (min_expert && gr.level < LOGIC_EXPERT) {
            below++;
            if (below <= 3)
                printf("  BELOW EXPERT (%s): %.81s\n",
                       logic_level_name(gr.level), line);
        }
    }
    fclose(f);
    printf("  %-34s %6lu graded", name, n);
    for (int l = 0; l < LOGIC_NLEVELS; l++)
        printf(" %s %4.1f%%", logic_level_name((enum logic_level)l),
               n ? 100.0 * (double)levels[l] / (double)n : 0.0);
    printf("  (%.0f us each%s)\n",
           n ? (double)(bench_cpu_ns() - t0) / 1e3 / (double)n : 0.0,
           skipped ? ", puzzles without one solution skipped" : "");
    return below;
}

int bench_logic(const char *dir)
{
    static const char *const sets[] = {
        "test_puzzles_with_solutions", "puzzles2_17_clue",
        "puzzles3_magictour_top1465", "puzzles5_forum_hardest_1905_11+"};
    static const unsigned seeds[LOGIC_NLEVELS] = {200, 200, 60, 200, 200};
    size_t below;
    int bad = 0;

    printf("\ngrade calibration: level of every puzzle with one solution\n");
    for (size_t i = 0; i + 1 < sizeof(sets) / sizeof(sets[0]); i++)
        grade_set(dir, sets[i], 0);
    below = grade_set(dir, sets[3], 1);
    printf("  forum-hardest graded below expert: %zu%s\n", below,
           below ? "  FAIL" : "");
    bad |= below > 0;

    printf("\ngeneration time per level (symmetry none, seeds 1..N, "
           "2000 attempts / 2 s budget)\n");
    for (int l = 0; l < LOGIC_NLEVELS; l++) {
        uint64_t *us = malloc(seeds[l] * sizeof(*us));
        unsigned matched = 0, attempts = 0;
        if (us == NULL)
            return 1;
        for (unsigned s = 0; s < seeds[l]; s++) {
            struct generate_options o;
            struct generate_result r;
            generate_options_init(&o, (enum logic_level)l, s + 1);
            matched += generate_puzzle(&o, &r) == GENERATE_OK;
            us[s] = r.took_us;
            attempts += r.attempts;
        }
        qsort(us, seeds[l], sizeof(*us), cmp_u64);
        printf("  %-8s %4u seeds: median %7.1f ms  p99 %7.1f ms  max %7.1f ms"
               "  attempts %5.1f avg  matched %u/%u\n",
               logic_level_name((enum logic_level)l), seeds[l],
               (double)us[seeds[l] / 2] / 1e3,
               (double)us[(seeds[l] * 99) / 100] / 1e3,
               (double)us[seeds[l] - 1] / 1e3,
               (double)attempts / seeds[l], matched, seeds[l]);
        bad |= matched != seeds[l];
        free(us);
    }
    return bad;
}
