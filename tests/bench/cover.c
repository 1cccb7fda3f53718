/* cover.c - the generic engine's figures for `make bench` (its own binary,
 * build/bench_cover): per set of tests/data/cover/, solve (limit 1) and
 * check (count to 2) CPU times and nodes, every answer verified (one
 * solution, accepted by the tests' independent verifier), and the cost of
 * a request that spends the daemon's whole default node budget, and what
 * reading the CPU clock every SEARCH_BUDGET_EVERY nodes adds to it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cover.h"
#include "cover_support.h"

#define MAX_PUZZLES 1000
/* The daemon's --max-nodes default (src/service/config.c). */
#define DEFAULT_BUDGET 100000

static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Reads up to max puzzles of size n; returns how many, or -1. */
static int load(const char *path, unsigned n, struct cover_grid *p, int max)
{
    char line[1024];
    int k = 0;
    FILE *f = fopen(path, "r");

    if (!f)
        return -1;
    while (k < max && fgets(line, sizeof(line), f)) {
        size_t len = strcspn(line, "\r\n");
        if (len == 0 || line[0] == '#')
            continue;
        if (cover_parse(line, len, n, &p[k], NULL) != COVER_OK) {
            fclose(f);
            return -1;
        }
        k++;
    }
    fclose(f);
    return k;
}

struct figures {
    double *ms;
    uint64_t *nodes;
    double total_ms;
    uint64_t total_nodes;
};

/* Runs every puzzle with `limit`; returns how many answers were wrong. */
static int run(const struct cover_rules *r, const struct cover_grid *p, int k,
               unsigned limit, struct figures *f)
{
    int wrong = 0;
    f->total_ms = 0;
    f->total_nodes = 0;
    for (int i = 0; i < k; i++) {
        struct cover_grid sol;
        struct sudoku_stats st;
        unsigned count = 0;
        uint64_t t0 = cpu_ns();
        enum cover_status s =
            cover_count(r, &p[i], limit, 0, &sol, &count, &st);
        f->ms[i] = (double)(cpu_ns() - t0) / 1e6;
        f->nodes[i] = st.nodes;
        f->total_ms += f->ms[i];
        f->total_nodes += st.nodes;
        if (s != COVER_OK || count != 1 || !tc_verify(r, &sol) ||
            !cover_is_solution_of(r, &p[i], &sol))
            wrong++;
    }
    qsort(f->ms, (size_t)k, sizeof(double), cmp_double);
    qsort(f->nodes, (size_t)k, sizeof(uint64_t), cmp_u64);
    return wrong;
}

static void print(const char *what, const struct figures *f, int k)
{
    int p99 = k * 99 / 100 < k ? k * 99 / 100 : k - 1;
    printf("  %-5s median %8.3f p99 %8.3f max %8.3f ms | nodes median %llu "
           "max %llu | %.2f us/node\n",
           what, f->ms[k / 2], f->ms[p99], f->ms[k - 1],
           (unsigned long long)f->nodes[k / 2],
           (unsigned long long)f->nodes[k - 1],
           f->total_nodes ? f->total_ms * 1e3 / (double)f->total_nodes : 0.0);
}

/* One count of q without a limit within b; the CPU milliseconds. */
static double budget_run(const struct cover_rules *r,
                         const struct cover_grid *q,
                         const struct search_budget *b, enum cover_status *s,
                         struct sudoku_stats *st)
{
    unsigned count;
    uint64_t t0 = cpu_ns();

    *s = cover_count_budget(r, q, 0xFFFFFFFFu, b, NULL, &count, st);
    return (double)(cpu_ns() - t0) / 1e6;
}

/* The cost of a request that spends the whole default budget: the set's
 * first puzzle with every second given blanked (countless solutions), counted
 * without a limit; then the same with a CPU deadline an hour away, which
 * the search checks but never meets (best of 3 each, interleaved: the
 * difference is the cost of the clock). Returns the CPU milliseconds. */
static double budget_ms(const struct cover_rules *r, const struct cover_grid *p)
{
    struct cover_grid q = *p;
    struct sudoku_stats st;
    enum cover_status s = COVER_OK;
    unsigned given = 0;
    double ms = 1e30, clocked = 1e30;

    for (unsigned c = 0; c < (unsigned)q.n * q.n; c++)
        if (q.cell[c] && given++ % 2)
            q.cell[c] = 0;
    for (int i = 0; i < 3; i++) {
        struct search_budget nodes = {DEFAULT_BUDGET, 0};
        struct search_budget both =
            search_budget_make(DEFAULT_BUDGET, 3600ull * 1000000000u);
        double a = budget_run(r, &q, &nodes, &s, &st);
        double b = budget_run(r, &q, &both, &s, &st);
        ms = a < ms ? a : ms;
        clocked = b < clocked ? b : clocked;
    }
    printf("  budget: %s after %llu nodes, %.1f ms (%.2f us/node); with the "
           "CPU clock read every %u nodes %.1f ms (%+.2f%%)\n",
           s == COVER_BUDGET ? "ran out" : "search ended",
           (unsigned long long)st.nodes, ms,
           ms * 1e3 / (double)(st.nodes ? st.nodes : 1), SEARCH_BUDGET_EVERY,
           clocked, ms > 0 ? (clocked - ms) * 100 / ms : 0.0);
    return s == COVER_BUDGET ? ms : 0;
}

static int bench_set(const char *dir, const char *name, struct cover_grid *p,
                     struct figures *a, struct figures *b, double worst[2])
{
    char path[512];
    struct cover_rules r;
    int k, wrong;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if (!tc_set_rules(name, &r) || (k = load(path, r.n, p, MAX_PUZZLES)) <= 0) {
        printf("\n%s: cannot read\n", path);
        return 1;
    }
    printf("\n%s (%ux%u): %d puzzles\n", name, r.n, r.n, k);
    wrong = run(&r, p, k, 1, a) + run(&r, p, k, 2, b);
    print("solve", a, k);
    print("check", b, k);
    worst[0] = budget_ms(&r, &p[0]);
    worst[1] =
        b->total_nodes >= 1000 ? b->total_ms * 1e3 / (double)b->total_nodes : 0;
    if (wrong)
        printf("  FAIL: %d wrong answers\n", wrong);
    return wrong;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/data/cover";
    struct cover_grid *p = malloc(MAX_PUZZLES * sizeof(*p));
    struct figures a = {.ms = malloc(MAX_PUZZLES * sizeof(double)),
                        .nodes = malloc(MAX_PUZZLES * sizeof(uint64_t))},
                   b = {.ms = malloc(MAX_PUZZLES * sizeof(double)),
                        .nodes = malloc(MAX_PUZZLES * sizeof(uint64_t))};
    double spent = 0, rate = 0; /* ms; us per node */
    const char *spent_set = "", *rate_set = "";
    int wrong = 0;

    if (!p || !a.ms || !a.nodes || !b.ms || !b.nodes)
        return 2;
    printf("generic engine (cover_count), single thread, CPU time; solve = "
           "limit 1, check = count to 2; every answer verified\n");
    for (unsigned i = 0; tc_set_name(i); i++) {
        double w[2] = {0, 0};
        if (argc > 2 && strcmp(argv[2], tc_set_name(i)) != 0)
            continue;
        wrong += bench_set(dir, tc_set_name(i), p, &a, &b, w);
        if (w[0] > spent) {
            spent = w[0];
            spent_set = tc_set_name(i);
        }
        if (w[1] > rate) {
            rate = w[1];
            rate_set = tc_set_name(i);
        }
    }
    printf("\nthe default budget (%d nodes): spent in %.0f ms at most (%s); "
           "at the slowest rate of a uniqueness check, %.2f us/node (%s), "
           "%.0f ms\ngeneric engine: %d wrong\n",
           DEFAULT_BUDGET, spent, spent_set, rate, rate_set,
           rate * DEFAULT_BUDGET / 1e3, wrong);
    free(p), free(a.ms), free(a.nodes), free(b.ms), free(b.nodes);
    return wrong ? 1 : 0;
}
