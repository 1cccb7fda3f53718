/* logic.c - the logic engine's and the generator's figures for `make bench`:
 * for every data set, each puzzle with one solution graded within the
 * server's default budget (1000 ms, as POST /grade): the share per level,
 * how many stopped before the end (budget), the rating median and p90, the
 * share rated 9.0 or more, and the grade time median/p99/max (CPU time of
 * this thread); then the time to generate a puzzle of each level for seeds
 * 1..200 (median, p99, max; CPU time too, so that other work on the
 * machine does not count). Forum-hardest is sampled (every
 * LOGIC_FORUM_STEP-th puzzle, default 16: the whole set takes about an
 * hour); LOGIC_FORUM_STEP=1 grades all of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "generate.h"
#include "logic.h"

#define BUDGET_US 1000000u

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_uint(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

/* Grades every `step`-th puzzle of one file that has exactly one solution.
 * Returns the number graded below expert when `min_expert` is set, plus
 * the number the budget stopped. */
static size_t grade_set(const char *dir, const char *name, int min_expert,
                        unsigned step)
{
    char path[4096], line[1024];
    unsigned long levels[LOGIC_NLEVELS] = {0}, n = 0, skipped = 0, lineno = 0;
    unsigned long stopped = 0, nine = 0;
    size_t below = 0, cap = 1024;
    uint64_t *ns = malloc(cap * sizeof(*ns));
    unsigned *ratings = malloc(cap * sizeof(*ratings));
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if (ns == NULL || ratings == NULL || (f = fopen(path, "r")) == NULL) {
        free(ns);
        free(ratings);
        return 0;
    }
    while (fgets(line, sizeof(line), f)) {
        struct sudoku_grid g;
        struct logic_grade gr;
        struct logic_limits lim = {BUDGET_US, 0, 0};
        unsigned count = 0;
        uint64_t t0;
        if (line[0] == '#' || strcspn(line, "\r\n") < SUDOKU_CELLS ||
            sudoku_parse(line, SUDOKU_CELLS, &g, NULL) != SUDOKU_OK)
            continue;
        if (lineno++ % step != 0)
            continue;
        sudoku_count(&g, 2, 0, NULL, &count, NULL);
        if (count != 1) {
            skipped++;
            continue;
        }
        t0 = bench_cpu_ns();
        logic_grade_budget(&g, &lim, &gr, NULL);
        if (n == cap) {
            cap *= 2;
            ns = realloc(ns, cap * sizeof(*ns));
            ratings = realloc(ratings, cap * sizeof(*ratings));
            if (ns == NULL || ratings == NULL)
                exit(1);
        }
        ns[n] = bench_cpu_ns() - t0;
        ratings[n] = gr.rating;
        levels[gr.level]++;
        stopped += gr.needs_guessing;
        nine += gr.rating >= 90;
        n++;
        if (gr.needs_guessing && stopped <= 3)
            printf("  STOPPED (budget): %.81s\n", line);
        if (min_expert && gr.level < LOGIC_EXPERT && ++below <= 3)
            printf("  BELOW EXPERT (%s): %.81s\n", logic_level_name(gr.level),
                   line);
    }
    fclose(f);
    if (n == 0) {
        free(ns);
        free(ratings);
        return 0;
    }
    qsort(ns, n, sizeof(*ns), cmp_u64);
    qsort(ratings, n, sizeof(*ratings), cmp_uint);
    printf("  %s%s: %lu graded%s\n", name, step > 1 ? " (sample)" : "", n,
           skipped ? ", puzzles without one solution skipped" : "");
    printf("    levels:");
    for (int l = 0; l < LOGIC_NLEVELS; l++)
        printf(" %s %.1f%%", logic_level_name((enum logic_level)l),
               100.0 * (double)levels[l] / (double)n);
    printf("\n    stopped by the budget %lu (%.2f%%); rating median %.1f "
           "p90 %.1f, 9.0 or more %.1f%%\n",
           stopped, 100.0 * (double)stopped / (double)n, ratings[n / 2] / 10.0,
           ratings[n * 9 / 10] / 10.0, 100.0 * (double)nine / (double)n);
    printf("    grade time: median %.3f ms  p99 %.3f ms  max %.1f ms\n",
           (double)ns[n / 2] / 1e6, (double)ns[n * 99 / 100] / 1e6,
           (double)ns[n - 1] / 1e6);
    free(ns);
    free(ratings);
    return below + stopped;
}

int bench_logic(const char *dir)
{
    static const char *const sets[] = {
        "test_puzzles_with_solutions", "puzzles2_17_clue",
        "puzzles3_magictour_top1465", "puzzles5_forum_hardest_1905_11+"};
    const char *env = getenv("LOGIC_FORUM_STEP");
    unsigned forum_step = env && atoi(env) > 0 ? (unsigned)atoi(env) : 16;
    const unsigned seeds = 200;
    size_t bad_sets = 0, forum;
    int bad = 0;

    printf("\ngrade calibration: every puzzle with one solution, %u ms "
           "budget each\n",
           BUDGET_US / 1000);
    for (size_t i = 0; i + 1 < sizeof(sets) / sizeof(sets[0]); i++)
        bad_sets += grade_set(dir, sets[i], 0, 1);
    forum = grade_set(dir, sets[3], 1, forum_step);
    printf("  stopped or below expert: %zu on the first sets, %zu on "
           "forum-hardest%s\n",
           bad_sets, forum, bad_sets ? "  FAIL" : "");
    bad |= bad_sets > 0;

    printf("\ngeneration time per level (CPU time of this thread; symmetry "
           "none, seeds 1..%u, 2000 attempts / 2 s budget)\n",
           seeds);
    for (int l = 0; l < LOGIC_NLEVELS; l++) {
        uint64_t *us = malloc(seeds * sizeof(*us));
        unsigned matched = 0, attempts = 0;
        if (us == NULL)
            return 1;
        for (unsigned s = 0; s < seeds; s++) {
            struct generate_options o;
            struct generate_result r;
            uint64_t t0 = bench_cpu_ns();
            generate_options_init(&o, (enum logic_level)l, s + 1);
            matched += generate_puzzle(&o, &r) == GENERATE_OK;
            us[s] = (bench_cpu_ns() - t0) / 1000u;
            attempts += r.attempts;
        }
        qsort(us, seeds, sizeof(*us), cmp_u64);
        printf(
            "  %-8s median %7.1f ms  p99 %7.1f ms  max %7.1f ms"
            "  attempts %5.1f avg  matched %u/%u\n",
            logic_level_name((enum logic_level)l), (double)us[seeds / 2] / 1e3,
            (double)us[(seeds * 99) / 100] / 1e3, (double)us[seeds - 1] / 1e3,
            (double)attempts / seeds, matched, seeds);
        bad |= matched != seeds;
        free(us);
    }
    return bad;
}
