/* killer.c - the killer sudoku figures for `make bench`: solve (first
 * solution) and check (count to 2) times over tests/data/killer_puzzles
 * (board|cages|solution lines, each with exactly one solution, built by
 * tests/tools/killer_gen.c), every answer verified against the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "killer.h"

struct kpuzzle {
    struct sudoku_grid puzzle, solution;
    struct killer_cages cages;
    unsigned lineno, givens;
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Reads the set; returns how many puzzles (or -1), malformed lines count
 * into *bad. */
static int load(const char *path, struct kpuzzle **out, size_t *bad)
{
    char line[4096];
    size_t cap = 64, n = 0;
    unsigned lineno = 0;
    struct kpuzzle *p = malloc(cap * sizeof(*p));
    FILE *f = fopen(path, "r");

    if (!f || !p) {
        if (f)
            fclose(f);
        free(p);
        return -1;
    }
    while (fgets(line, sizeof(line), f)) {
        size_t len = strcspn(line, "\r\n");
        char *bar;
        lineno++;
        if (len == 0 || line[0] == '#')
            continue;
        if (n == cap) {
            struct kpuzzle *bigger = realloc(p, 2 * cap * sizeof(*p));
            if (!bigger)
                break;
            p = bigger;
            cap *= 2;
        }
        line[len] = '\0';
        bar = strrchr(line, '|');
        if (len < SUDOKU_CELLS + 1 || line[SUDOKU_CELLS] != '|' || !bar ||
            sudoku_parse(line, SUDOKU_CELLS, &p[n].puzzle, NULL) != SUDOKU_OK ||
            killer_parse(line + SUDOKU_CELLS + 1, len - SUDOKU_CELLS - 1,
                         &p[n].cages, NULL) != KILLER_OK ||
            sudoku_parse(bar + 1, strlen(bar + 1), &p[n].solution, NULL) !=
                SUDOKU_OK) {
            printf("  FAIL %s:%u: malformed\n", path, lineno);
            (*bad)++;
            continue;
        }
        p[n].lineno = lineno;
        p[n].givens = 0;
        for (int x = 0; x < SUDOKU_CELLS; x++)
            p[n].givens += p[n].puzzle.cell[x] != 0;
        n++;
    }
    fclose(f);
    *out = p;
    return (int)n;
}

/* Times every puzzle with `limit`; prints one line and returns the number
 * of wrong answers. */
static size_t run(const struct kpuzzle *p, size_t n, unsigned limit,
                  const char *what)
{
    double *us = malloc(n * sizeof(*us)), sum = 0;
    uint64_t nodes = 0, max_nodes = 0, guesses = 0;
    size_t wrong = 0;

    if (!us)
        return n;
    for (size_t i = 0; i < n; i++) {
        struct sudoku_grid sol;
        struct sudoku_stats st;
        unsigned count = 0;
        uint64_t c0 = bench_cpu_ns();
        enum killer_status ks = killer_count(&p[i].puzzle, &p[i].cages, limit,
                                             0, &sol, &count, &st);
        us[i] = (double)(bench_cpu_ns() - c0) / 1e3;
        sum += us[i];
        nodes += st.nodes;
        guesses += st.guesses;
        if (st.nodes > max_nodes)
            max_nodes = st.nodes;
        if (ks != KILLER_OK || count != 1 ||
            memcmp(&sol, &p[i].solution, sizeof(sol)) != 0 ||
            !sudoku_is_solution_of(&p[i].puzzle, &sol)) {
            printf("  FAIL line %u (limit %u): status %d, %u solutions\n",
                   p[i].lineno, limit, (int)ks, count);
            wrong++;
        }
    }
    qsort(us, n, sizeof(*us), cmp_double);
    printf("  %-6s mean %8.1f median %8.1f p99 %8.1f max %8.1f us | nodes "
           "mean %.1f max %llu | guesses mean %.1f | %.0f nodes/s\n",
           what, sum / (double)n, us[n / 2],
           us[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1], us[n - 1],
           (double)nodes / (double)n, (unsigned long long)max_nodes,
           (double)guesses / (double)n, (double)nodes / (sum / 1e6));
    free(us);
    return wrong;
}

/* Cost of the node budget: each puzzle with one cage sum raised by 1 and
 * another lowered by 1 (total still 405; most have no solution, some
 * take long to refute), counted to 2 within `budget` nodes. */
static void run_perturbed(const struct kpuzzle *p, size_t n, uint64_t budget)
{
    uint64_t nodes = 0, most = 0, c_total = 0, worst_ns = 0;
    size_t runs = 0, hit = 0;

    for (size_t i = 0; i < n; i++) {
        struct killer_cages k = p[i].cages;
        struct sudoku_stats st;
        unsigned count;
        k.cage[0].sum++;
        k.cage[k.ncages - 1].sum--;
        if (killer_check(&p[i].puzzle, &k, NULL) != KILLER_OK)
            continue;
        uint64_t c0 = bench_cpu_ns();
        hit += killer_count(&p[i].puzzle, &k, 2, budget, NULL, &count, &st) ==
               KILLER_BUDGET;
        uint64_t ns = bench_cpu_ns() - c0;
        c_total += ns;
        worst_ns = ns > worst_ns ? ns : worst_ns;
        nodes += st.nodes;
        most = st.nodes > most ? st.nodes : most;
        runs++;
    }
    if (runs == 0)
        return;
    printf("  perturbed sums (%zu puzzles, budget %llu): nodes mean %.0f max "
           "%llu, %zu hit the budget, %.0f nodes/s, worst %.1f ms\n",
           runs, (unsigned long long)budget, (double)nodes / (double)runs,
           (unsigned long long)most, hit,
           (double)nodes / ((double)c_total / 1e9), (double)worst_ns / 1e6);
}

int bench_killer(const char *path)
{
    struct kpuzzle *p = NULL;
    size_t bad = 0, wrong, blank = 0;
    int n = load(path, &p, &bad);

    printf("\nkiller sudoku (%s): ", path);
    if (n <= 0) {
        printf("cannot read or empty\n");
        free(p);
        return 1;
    }
    for (int i = 0; i < n; i++)
        blank += p[i].givens == 0;
    printf("%d puzzles (%zu without givens), CPU of this thread\n", n, blank);
    wrong = run(p, (size_t)n, 1, "solve");
    wrong += run(p, (size_t)n, 2, "check");
    run_perturbed(p, (size_t)n, 100000);
    printf("  verified %d killer puzzles: %zu wrong\n", n, wrong + bad);
    free(p);
    return wrong + bad ? 1 : 0;
}
