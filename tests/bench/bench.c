/* bench.c - `bench_sudoku DATA_DIR [CAP_SECONDS]`: times the solver on every
 * data set on one thread (CPU time of this thread and wall time), verifies
 * every answer against the rules, the givens and the known counts, races the
 * write-up's textbook search under a per-set time cap, and calibrates the
 * node budget. Exit status 1 when any answer is wrong. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

/* ========================================================================
 * Clocks and data
 * ===================================================================== */

static uint64_t ns_of(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t bench_cpu_ns(void)
{
    return ns_of(CLOCK_THREAD_CPUTIME_ID);
}

uint64_t bench_wall_ns(void)
{
    return ns_of(CLOCK_MONOTONIC);
}

struct puzzle {
    struct sudoku_grid grid;
    unsigned lineno;
    int want;         /* solutions known from the file, or -1 */
    int has_solution; /* the file gives the solution */
    struct sudoku_grid solution;
};

struct set {
    char name[256];
    struct puzzle *p;
    size_t n;
    size_t malformed;
    unsigned default_want; /* count to 2 when the file says nothing */
};

static int load_set(const char *dir, const char *name, struct set *s)
{
    char path[4096], line[1024];
    size_t cap = 1024;
    unsigned lineno = 0;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    /* The serg benchmark is the set of puzzles with several solutions. */
    s->default_want = strstr(name, "serg") ? 2 : 1;
    s->p = malloc(cap * sizeof *s->p);
    while (s->p && fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strcspn(line, "\r\n");
        if (len == 0 || line[0] == '#')
            continue;
        if (s->n == cap) {
            struct puzzle *bigger = realloc(s->p, 2 * cap * sizeof *s->p);
            if (!bigger)
                break;
            s->p = bigger;
            cap *= 2;
        }
        struct puzzle *p = &s->p[s->n];
        if (len < SUDOKU_CELLS ||
            sudoku_parse(line, SUDOKU_CELLS, &p->grid, NULL) != SUDOKU_OK) {
            fprintf(stderr, "%s:%u: malformed\n", name, lineno);
            s->malformed++;
            continue;
        }
        p->lineno = lineno;
        p->want = -1;
        p->has_solution = 0;
        if (line[SUDOKU_CELLS] == ':') {
            char *end;
            p->want = (int)strtol(line + SUDOKU_CELLS + 1, &end, 10);
            if (*end == ':' && strspn(end + 1, "123456789") >= SUDOKU_CELLS)
                p->has_solution = sudoku_parse(end + 1, SUDOKU_CELLS,
                                               &p->solution, NULL) == SUDOKU_OK;
        }
        s->n++;
    }
    fclose(f);
    return s->p ? 0 : -1;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The data set files of dir, sorted; *n receives how many. */
static char **list_sets(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    char **names = NULL;
    size_t count = 0;
    struct dirent *e;

    if (!d)
        return NULL;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strstr(e->d_name, "README") ||
            strchr(e->d_name, '.'))
            continue;
        char **bigger = realloc(names, (count + 1) * sizeof *names);
        if (!bigger)
            break;
        names = bigger;
        names[count++] = strdup(e->d_name);
    }
    closedir(d);
    if (names)
        qsort(names, count, sizeof *names, cmp_name);
    *n = count;
    return names;
}

/* ========================================================================
 * Timing our solver
 * ===================================================================== */

struct figures {
    double per_sec;                /* puzzles per second, untimed batch, wall */
    double batch_cpu_us;           /* mean CPU per puzzle, untimed batch */
    double mean, median, p99, max; /* CPU us per puzzle, timed one by one */
    double wall_mean;
    double guesses; /* mean per puzzle */
    uint64_t max_nodes;
    double nodes_per_s; /* all nodes over all CPU, timed pass */
    unsigned worst_line, max_nodes_line;
    size_t wrong;
    double *cpu_us; /* per puzzle, for the textbook comparison */
};

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Checks one answer; prints and returns 1 when it is wrong. */
static int check(const struct set *s, const struct puzzle *p, unsigned limit,
                 unsigned count, const struct sudoku_grid *sol)
{
    unsigned want = p->want >= 0 ? (unsigned)p->want : s->default_want;
    if (want > limit)
        want = limit;
    const char *why = NULL;
    if (count != want)
        why = "wrong number of solutions";
    else if (count > 0 && !sudoku_is_solution_of(&p->grid, sol))
        why = "solution breaks the rules or the givens";
    else if (count > 0 && p->has_solution && p->want == 1 &&
             memcmp(sol, &p->solution, sizeof *sol) != 0)
        why = "solution differs from the file's";
    if (!why)
        return 0;
    printf("  FAIL %s:%u (limit %u): %s (found %u, want %u)\n", s->name,
           p->lineno, limit, why, count, want);
    return 1;
}

static void run_ours(const struct set *s, unsigned limit, struct figures *f)
{
    double *sorted = malloc(s->n * sizeof *sorted);
    uint64_t guesses = 0, nodes = 0;
    double wall_total = 0, cpu_total = 0;
    size_t worst = 0;

    memset(f, 0, sizeof *f);
    f->cpu_us = malloc(s->n * sizeof *f->cpu_us);
    if (!sorted || !f->cpu_us) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < s->n; i++) {
        struct sudoku_grid sol;
        struct sudoku_stats st;
        unsigned count = 0;
        uint64_t w0 = bench_wall_ns(), c0 = bench_cpu_ns();
        sudoku_count(&s->p[i].grid, limit, 0, &sol, &count, &st);
        uint64_t c1 = bench_cpu_ns(), w1 = bench_wall_ns();
        f->cpu_us[i] = (double)(c1 - c0) / 1e3;
        wall_total += (double)(w1 - w0) / 1e3;
        guesses += st.guesses;
        nodes += st.nodes;
        cpu_total += f->cpu_us[i];
        if (st.nodes > f->max_nodes) {
            f->max_nodes = st.nodes;
            f->max_nodes_line = s->p[i].lineno;
        }
        if (f->cpu_us[i] > f->cpu_us[worst])
            worst = i;
        f->wrong += (size_t)check(s, &s->p[i], limit, count, &sol);
    }
    /* Again without a clock around each puzzle: reading the thread CPU
     * clock costs about as much as an easy solve. */
    uint64_t w0 = bench_wall_ns(), c0 = bench_cpu_ns();
    for (size_t i = 0; i < s->n; i++) {
        struct sudoku_grid sol;
        unsigned count;
        sudoku_count(&s->p[i].grid, limit, 0, &sol, &count, NULL);
    }
    uint64_t c1 = bench_cpu_ns(), w1 = bench_wall_ns();

    memcpy(sorted, f->cpu_us, s->n * sizeof *sorted);
    qsort(sorted, s->n, sizeof *sorted, cmp_double);
    double sum = 0;
    for (size_t i = 0; i < s->n; i++)
        sum += sorted[i];
    f->mean = sum / (double)s->n;
    f->median = sorted[s->n / 2];
    f->p99 = sorted[(s->n * 99) / 100 < s->n ? (s->n * 99) / 100 : s->n - 1];
    f->max = sorted[s->n - 1];
    f->worst_line = s->p[worst].lineno;
    f->wall_mean = wall_total / (double)s->n;
    f->guesses = (double)guesses / (double)s->n;
    f->nodes_per_s = (double)nodes / (cpu_total / 1e6);
    f->batch_cpu_us = (double)(c1 - c0) / 1e3 / (double)s->n;
    f->per_sec = (double)s->n / ((double)(w1 - w0) / 1e9);
    free(sorted);
}

static void print_figures(const char *what, const struct figures *f)
{
    printf("  %-6s %9.0f/s  cpu mean %8.2f | per puzzle: mean %8.2f "
           "median %8.2f p99 %8.2f max %9.1f (line %u)  wall mean %8.2f  "
           "guesses %7.2f  max nodes %llu\n",
           what, f->per_sec, f->batch_cpu_us, f->mean, f->median, f->p99,
           f->max, f->worst_line, f->wall_mean, f->guesses,
           (unsigned long long)f->max_nodes);
}

/* ========================================================================
 * The textbook reference
 * ===================================================================== */

/* Solves the set in file order with the textbook search until cap_s seconds
 * of CPU are spent; compares with our solve times on the same puzzles. */
static void run_textbook(const struct set *s, double cap_s,
                         const struct figures *ours, size_t *wrong)
{
    uint64_t start = bench_cpu_ns();
    uint64_t deadline = start + (uint64_t)(cap_s * 1e9);
    double total = 0, ours_total = 0, max = 0;
    uint64_t nodes_total = 0;
    size_t done = 0;

    for (size_t i = 0; i < s->n; i++) {
        struct sudoku_grid sol;
        uint64_t nodes = 0;
        uint64_t c0 = bench_cpu_ns();
        int r = textbook_solve(&s->p[i].grid, &sol, deadline, &nodes);
        uint64_t c1 = bench_cpu_ns();
        if (r < 0)
            break;
        double us = (double)(c1 - c0) / 1e3;
        total += us;
        if (us > max)
            max = us;
        ours_total += ours->cpu_us[i];
        nodes_total += nodes;
        done++;
        *wrong += (size_t)check(s, &s->p[i], 1, (unsigned)r, &sol);
        if (c1 > deadline)
            break;
    }
    if (done == 0) {
        printf("  textbook: no puzzle finished within %.1f s\n", cap_s);
        return;
    }
    printf(
        "  textbook: %zu/%zu puzzles in %.1f s cap, mean %.1f us, max %.1f us,"
        " %.0f nodes/puzzle | ours on the same: mean %.2f us -> "
        "speed-up x%.0f\n",
        done, s->n, cap_s, total / (double)done, max,
        (double)nodes_total / (double)done, ours_total / (double)done,
        total / ours_total);
}

/* ========================================================================
 * Main
 * ===================================================================== */

/* ========================================================================
 * Kernel paths
 * ===================================================================== */

/* Which path the solver took, and why, when SUDOKUD_ISA asked for another
 * one (unknown name, or one this CPU lacks). */
static void print_path(void)
{
    enum sudoku_isa cur = sudoku_isa_current();
    const char *want = getenv("SUDOKUD_ISA");

    printf("solver path: %s (this CPU has:", sudoku_isa_name(cur));
    for (unsigned i = 0; i < SUDOKU_ISA_COUNT; i++)
        if (sudoku_isa_supported((enum sudoku_isa)i))
            printf(" %s", sudoku_isa_name((enum sudoku_isa)i));
    printf(")");
    if (want && *want && strcmp(want, sudoku_isa_name(cur)) != 0)
        printf("; SUDOKUD_ISA=%s is unknown or not supported here, so the "
               "best path is used",
               want);
    else if (want && *want)
        printf(", forced by SUDOKUD_ISA");
    printf("\n");
}

/* Count to 2 over the set on every path the CPU has, the paths
 * interleaved over 3 rounds; prints each path's mean CPU time per puzzle
 * (the best round) and 1 when their nodes differ (they must not). */
static int time_paths(const struct set *s)
{
    double best[SUDOKU_ISA_COUNT];
    uint64_t nodes[SUDOKU_ISA_COUNT] = {0};
    int differ = 0;

    for (unsigned i = 0; i < SUDOKU_ISA_COUNT; i++)
        best[i] = 1e300;
    for (unsigned round = 0; round < 3; round++) {
        for (unsigned i = 0; i < SUDOKU_ISA_COUNT; i++) {
            if (!sudoku_isa_supported((enum sudoku_isa)i))
                continue;
            uint64_t n = 0, c0 = bench_cpu_ns();
            for (size_t j = 0; j < s->n; j++) {
                struct sudoku_grid sol;
                struct sudoku_stats st;
                unsigned count;
                sudoku_count_isa((enum sudoku_isa)i, &s->p[j].grid, 2, 0, &sol,
                                 &count, &st);
                n += st.nodes;
            }
            double us = (double)(bench_cpu_ns() - c0) / 1e3 / (double)s->n;
            if (us < best[i])
                best[i] = us;
            nodes[i] = n;
        }
    }
    printf("  check by path (cpu mean, best of 3 interleaved):");
    for (unsigned i = 0; i < SUDOKU_ISA_COUNT; i++) {
        if (!sudoku_isa_supported((enum sudoku_isa)i))
            continue;
        printf(" %s %.2f", sudoku_isa_name((enum sudoku_isa)i), best[i]);
        differ |= nodes[i] != nodes[0];
    }
    printf("%s\n", differ ? "  NODES DIFFER" : "");
    return differ;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s DATA_DIR [TEXTBOOK_CAP_SECONDS]\n", argv[0]);
        return 2;
    }
    const char *dir = argv[1];
    double cap_s = argc == 3 ? atof(argv[2]) : 3.0;
    size_t nsets = 0, wrong = 0, total = 0;
    char **names = list_sets(dir, &nsets);
    uint64_t max_nodes = 0;
    double slowest_rate = 1e12;
    const char *max_set = "";
    unsigned max_line = 0;

    if (!names || nsets == 0) {
        fprintf(stderr, "%s: no data sets\n", dir);
        return 2;
    }
    printf("single thread; times in microseconds of CPU of the solving "
           "thread unless marked wall\n"
           "solve = first solution (limit 1), check = uniqueness check "
           "(count to 2); every answer verified\n");
    print_path();
    for (size_t k = 0; k < nsets; k++) {
        struct set s;
        struct figures solve, count2;
        if (load_set(dir, names[k], &s) != 0 || s.n == 0) {
            printf("\n%s: cannot read or empty\n", names[k]);
            continue;
        }
        printf("\n%s: %zu puzzles\n", s.name, s.n);
        run_ours(&s, 1, &solve);
        run_ours(&s, 2, &count2);
        print_figures("solve", &solve);
        print_figures("check", &count2);
        printf("  check/solve cpu ratio %.2f\n",
               count2.batch_cpu_us / solve.batch_cpu_us);
        wrong += (size_t)time_paths(&s);
        run_textbook(&s, cap_s, &solve, &wrong);
        wrong += solve.wrong + count2.wrong + s.malformed;
        total += s.n;
        /* Sets solved mostly by propagation say little about the rate of
         * the search itself. */
        if (count2.guesses >= 10 && count2.nodes_per_s < slowest_rate)
            slowest_rate = count2.nodes_per_s;
        if (count2.max_nodes > max_nodes) {
            max_nodes = count2.max_nodes;
            max_set = names[k];
            max_line = count2.max_nodes_line;
        }
        free(solve.cpu_us);
        free(count2.cpu_us);
        free(s.p);
    }
    printf("\nmax nodes of a uniqueness check over all sets: %llu (%s:%u)\n",
           (unsigned long long)max_nodes, max_set, max_line);
    bench_budget(max_nodes, slowest_rate);
    printf("\nverified %zu puzzles: %zu wrong\n", total, wrong);
    wrong += (size_t)bench_logic(argv[1]);
    wrong += (size_t)bench_killer("tests/data/killer_puzzles");
    for (size_t k = 0; k < nsets; k++)
        free(names[k]);
    free(names);
    return wrong ? 1 : 0;
}
