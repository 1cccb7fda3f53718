/* cover.c - the generic engine's figures for `make bench` (its own binary,
 * build/bench_cover): per set of tests/data/cover/, solve (limit 1) and
 * check (count to 2) CPU times and nodes, every answer verified (one
 * solution, accepted by the tests' independent verifier); then the cost of
 * a full node budget on an empty grid of each size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cover.h"
#include "test_cover.h"

#define MAX_PUZZLES 1000
/* The daemon's --max-nodes default (src/config.c). */
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
};

/* Runs every puzzle with `limit`; returns how many answers were wrong. */
static int run(const struct cover_rules *r, const struct cover_grid *p, int k,
               unsigned limit, struct figures *f)
{
    int wrong = 0;
    for (int i = 0; i < k; i++) {
        struct cover_grid sol;
        struct sudoku_stats st;
        unsigned count = 0;
        uint64_t t0 = cpu_ns();
        enum cover_status s =
            cover_count(r, &p[i], limit, 0, &sol, &count, &st);
        f->ms[i] = (double)(cpu_ns() - t0) / 1e6;
        f->nodes[i] = st.nodes;
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
           "max %llu\n",
           what, f->ms[k / 2], f->ms[p99], f->ms[k - 1],
           (unsigned long long)f->nodes[k / 2],
           (unsigned long long)f->nodes[k - 1]);
}

static int bench_set(const char *dir, const char *name, struct cover_grid *p,
                     struct figures *a, struct figures *b)
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
    if (wrong)
        printf("  FAIL: %d wrong answers\n", wrong);
    return wrong;
}

/* An empty grid counted without a limit: the search runs until the budget
 * is spent, so this is the cost of one request that exhausts it. */
static void bench_budget(void)
{
    static const unsigned sizes[] = {4, 6, 8, 9, 12, 16, 25};
    printf("\nthe default budget (%d nodes) spent on an empty grid, "
           "counted without a limit:\n",
           DEFAULT_BUDGET);
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        struct cover_rules r;
        struct cover_grid empty = {.n = (uint8_t)sizes[i]};
        struct sudoku_stats st;
        unsigned count;
        cover_rules_init(&r, sizes[i]);
        cover_rules_check(&r, NULL, NULL, 0);
        uint64_t t0 = cpu_ns();
        enum cover_status s = cover_count(&r, &empty, 0xFFFFFFFFu,
                                          DEFAULT_BUDGET, NULL, &count, &st);
        double ms = (double)(cpu_ns() - t0) / 1e6;
        printf("  %2ux%-2u %s after %llu nodes: %8.1f ms (%.2f us/node)\n",
               sizes[i], sizes[i], s == COVER_BUDGET ? "budget" : "done",
               (unsigned long long)st.nodes, ms,
               ms * 1e3 / (double)(st.nodes ? st.nodes : 1));
    }
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/data/cover";
    struct cover_grid *p = malloc(MAX_PUZZLES * sizeof(*p));
    struct figures a = {malloc(MAX_PUZZLES * sizeof(double)),
                        malloc(MAX_PUZZLES * sizeof(uint64_t))},
                   b = {malloc(MAX_PUZZLES * sizeof(double)),
                        malloc(MAX_PUZZLES * sizeof(uint64_t))};
    int wrong = 0;

    if (!p || !a.ms || !a.nodes || !b.ms || !b.nodes)
        return 2;
    printf("generic engine (cover_count), single thread, CPU time; solve = "
           "limit 1, check = count to 2; every answer verified\n");
    for (unsigned i = 0; tc_set_name(i); i++)
        wrong += argc > 2 && strcmp(argv[2], tc_set_name(i)) != 0
                     ? 0
                     : bench_set(dir, tc_set_name(i), p, &a, &b);
    bench_budget();
    printf("\ngeneric engine: %d wrong\n", wrong);
    free(p), free(a.ms), free(a.nodes), free(b.ms), free(b.nodes);
    return wrong ? 1 : 0;
}
