/* teach.c - the general logic engine's figures (its own binary,
 * build/bench_teach; `make bench-teach`): per set of tests/data/cover/ and
 * for tests/data/killer_puzzles, the share of puzzles that the walk of
 * /explain takes to the solution without the last resort (forcing chain),
 * with it, and not at all; median and p99 CPU per walk; and every
 * placement and elimination of every step checked against the solution
 * (verified by the tests' own checker, never the engine): "wrong" must be 0.
 * `bench_teach generate [N] [SET]`: N puzzles (seeds 1..N) per size or
 * 9x9 rule and per level the size offers, from teach_generate_variant
 * within /generate's 2 s: the share met, generation time (wall, median and
 * p99), each level confirmed by the tests' own solver (level_check.c),
 * then the /explain walk of each, checked as above; SET "killer": the
 * killer generator at each level likewise (with CPU time and the median
 * givens; `bench_teach generate N killer LEVEL [MAX_MS]`: that level only
 * (LEVEL "all": every level; a size or rule SET takes LEVEL too), within MAX_MS
 * of wall time (0: none, so the CPU column shows what a quiet machine would
 * take)). Usage: bench_teach [SET] [MAX_MS]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cover.h"
#include "cover_support.h"
#include "killer.h"
#include "level_check.h"
#include "logic.h"
#include "teach.h"

#define MAX_PUZZLES 200

static uint64_t cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static uint64_t wall_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

struct tally {
    unsigned puzzles, plain, forced, unsolved, wrong;
    unsigned long steps, forcing_steps;
    uint64_t us[MAX_PUZZLES];
};

/* Walks one puzzle step by step, checking each against solution[]. */
static void walk(const struct teach_puzzle *p, const uint8_t *givens,
                 const uint8_t *solution, unsigned max_ms, struct tally *t)
{
    struct teach_grid g;
    struct teach_step s;
    struct teach_budget b = {0, 0};
    unsigned forcing = 0;
    uint64_t t0 = cpu_us();
    enum teach_status st;

    b.deadline_us = max_ms ? wall_us() + max_ms * 1000ull : 0;
    if (teach_init(p, &g, givens) != TEACH_OK) {
        t->wrong++;
        return;
    }
    while ((st = teach_step(p, &g, &b, &s)) == TEACH_OK) {
        for (unsigned i = 0; i < s.nplacements; i++)
            t->wrong += solution[s.placements[i].cell] != s.placements[i].digit;
        for (unsigned i = 0; i < s.neliminations; i++)
            t->wrong +=
                solution[s.eliminations[i].cell] == s.eliminations[i].digit;
        forcing += s.technique >= TEACH_FORCING_CHAIN;
        t->steps++;
        teach_apply(p, &g, &s);
    }
    t->us[t->puzzles++] = cpu_us() - t0;
    t->forcing_steps += forcing;
    if (st != TEACH_SOLVED)
        t->unsolved++;
    else if (forcing)
        t->forced++;
    else
        t->plain++;
    if (st == TEACH_SOLVED)
        for (unsigned c = 0; c < p->ncells; c++)
            t->wrong += g.value[c] != solution[c];
}

static void report(const char *name, struct tally *t)
{
    uint64_t med, p99;

    if (t->puzzles == 0)
        return;
    qsort(t->us, t->puzzles, sizeof(t->us[0]), cmp_u64);
    med = t->us[t->puzzles / 2];
    p99 = t->us[(t->puzzles * 99) / 100 < t->puzzles ? (t->puzzles * 99) / 100
                                                     : t->puzzles - 1];
    printf("%-12s %4u puzzles  no last resort %5.1f%%  with it %5.1f%%  "
           "unsolved %5.1f%%  steps %6lu (forcing %5lu)  median %7.2f ms  "
           "p99 %8.2f ms  wrong %u\n",
           name, t->puzzles, 100.0 * t->plain / t->puzzles,
           100.0 * (t->plain + t->forced) / t->puzzles,
           100.0 * t->unsolved / t->puzzles, t->steps, t->forcing_steps,
           med / 1000.0, p99 / 1000.0, t->wrong);
}

static struct teach_puzzle puzzle;

static unsigned cover_set(const char *name, unsigned max_ms)
{
    static struct tally t;
    struct cover_rules r;
    char path[256], line[1024];
    FILE *f;

    memset(&t, 0, sizeof(t));
    snprintf(path, sizeof(path), "tests/data/cover/%s", name);
    if (!tc_set_rules(name, &r) || (f = fopen(path, "r")) == NULL)
        return 1;
    teach_from_cover(&puzzle, &r);
    while (t.puzzles < MAX_PUZZLES && fgets(line, sizeof(line), f)) {
        struct cover_grid pz, sol;
        size_t len = strcspn(line, "\r\n");
        unsigned count = 0;
        if (len == 0 || line[0] == '#' ||
            cover_parse(line, len, r.n, &pz, NULL) != COVER_OK)
            continue;
        if (cover_count(&r, &pz, 2, 0, &sol, &count, NULL) != COVER_OK ||
            count != 1 || !tc_verify(&r, &sol)) {
            t.wrong++;
            continue;
        }
        walk(&puzzle, pz.cell, sol.cell, max_ms, &t);
    }
    fclose(f);
    report(name, &t);
    return t.wrong;
}

/* The killer file: board|cages|solution; the solution is checked here
 * against the rows, columns, boxes and cage sums. */
static int killer_solution_ok(const char *sol, const struct killer_cages *k)
{
    for (int u = 0; u < 27; u++) {
        unsigned seen = 0;
        for (int i = 0; i < 9; i++) {
            int r = u < 9 ? u : u < 18 ? i : (u - 18) / 3 * 3 + i / 3;
            int c = u < 9 ? i : u < 18 ? u - 9 : (u - 18) % 3 * 3 + i % 3;
            seen |= 1u << (sol[r * 9 + c] - '0');
        }
        if (seen != 0x3fe)
            return 0;
    }
    for (unsigned i = 0; i < k->ncages; i++) {
        int sum = 0;
        for (unsigned j = 0; j < k->cage[i].ncells; j++)
            sum += sol[k->row[k->cage[i].first + j] * 9 +
                       k->col[k->cage[i].first + j]] -
                   '0';
        if (sum != k->cage[i].sum)
            return 0;
    }
    return 1;
}

static unsigned killer_set(unsigned max_ms)
{
    static struct tally t;
    static struct killer_cages k;
    char line[4096];
    FILE *f = fopen("tests/data/killer_puzzles", "r");

    memset(&t, 0, sizeof(t));
    if (f == NULL)
        return 1;
    while (t.puzzles < MAX_PUZZLES && fgets(line, sizeof(line), f)) {
        uint8_t givens[81], sol[81];
        char *bar1 = strchr(line, '|'), *bar2;
        if (line[0] == '#' || bar1 == NULL || bar1 - line != 81 ||
            (bar2 = strchr(bar1 + 1, '|')) == NULL)
            continue;
        killer_init(&k);
        if (killer_parse(bar1 + 1, (size_t)(bar2 - bar1 - 1), &k, NULL) !=
                KILLER_OK ||
            !killer_solution_ok(bar2 + 1, &k)) {
            t.wrong++;
            continue;
        }
        for (int c = 0; c < 81; c++) {
            givens[c] = line[c] >= '1' && line[c] <= '9' ? line[c] - '0' : 0;
            sol[c] = (uint8_t)(bar2[1 + c] - '0');
        }
        teach_from_killer(&puzzle, &k);
        walk(&puzzle, givens, sol, max_ms, &t);
    }
    fclose(f);
    report("killer", &t);
    return t.wrong;
}

/* ------------------------------------------------------------------------
 * Generation at a level
 * ------------------------------------------------------------------------ */

static const struct gen_set {
    const char *name;
    unsigned n;
    int rule; /* 0 plain, 1 jigsaw, 2 diagonals, 3 windoku, 4 knight, 5 king */
} gen_sets[] = {
    {"size4", 4, 0},       {"size6", 6, 0},     {"size8", 8, 0},
    {"size12", 12, 0},     {"size16", 16, 0},   {"size25", 25, 0},
    {"jigsaw9", 9, 1},     {"diagonal9", 9, 2}, {"windoku9", 9, 3},
    {"antiknight9", 9, 4}, {"antiking9", 9, 5},
};

/* Is the level of v confirmed by the tests' own solver? */
static int level_confirmed(const struct cover_rules *r,
                           const struct teach_variant *v, unsigned level)
{
    struct lc_puzzle *lc = lc_from_rules(r);
    const uint8_t *pz = v->puzzle.cell, *sol = v->solution.cell;
    int ok = level <= LOGIC_HARD
                 ? lc_solves(lc, pz, sol, (enum lc_set)level) &&
                       (level == LOGIC_EASY ||
                        !lc_solves(lc, pz, sol, (enum lc_set)(level - 1)))
                 : !lc_solves(lc, pz, sol, LC_HARD);
    lc_free(lc);
    return ok;
}

static unsigned gen_set(const struct gen_set *gs, unsigned count_all,
                        int only_level)
{
    static struct tally t;
    static struct teach_variant v;
    static uint64_t took[MAX_PUZZLES];
    struct cover_rules r;
    unsigned wrong = 0;

    cover_rules_init(&r, gs->n);
    if (gs->rule == 1)
        tc_jigsaw_map(&r);
    r.diagonals = gs->rule == 2;
    if (gs->rule == 3)
        tc_hyper_groups(&r);
    r.anti_knight = gs->rule == 4;
    r.anti_king = gs->rule == 5;
    if (cover_rules_check(&r, NULL, NULL, 0) != COVER_OK)
        return 1;
    for (unsigned level = 0; level < LOGIC_NLEVELS; level++) {
        unsigned met = 0, confirmed = 0, unique = 0;
        int offered = (teach_variant_levels(gs->n) >> level) & 1u;
        /* a level not offered: a few seeds, to show why */
        unsigned count = offered || count_all < 10 ? count_all : 10;
        char name[40];
        if (only_level >= 0 && level != (unsigned)only_level)
            continue;
        memset(&t, 0, sizeof(t));
        for (unsigned seed = 1; seed <= count; seed++) {
            uint64_t t0 = wall_us();
            unsigned nsol = 0;
            enum teach_status st = teach_generate_variant(
                &r, seed, level, 0, 2000000u, &puzzle, &v);
            took[seed - 1] = wall_us() - t0;
            if (st != TEACH_OK)
                continue;
            met++;
            unique += cover_count(&r, &v.puzzle, 2, 0, NULL, &nsol, NULL) ==
                          COVER_OK &&
                      nsol == 1 && tc_verify(&r, &v.solution);
            confirmed += (unsigned)level_confirmed(&r, &v, level);
            walk(&puzzle, v.puzzle.cell, v.solution.cell, 10000, &t);
        }
        qsort(took, count, sizeof(took[0]), cmp_u64);
        printf("%-12s %-8s %-11s met %3u/%u  generate median %7.1f ms  p99 "
               "%7.1f ms  unique %u  level confirmed %u\n",
               gs->name, logic_level_name((enum logic_level)level),
               offered ? "offered" : "not offered", met, count,
               took[count / 2] / 1000.0, took[count * 99 / 100] / 1000.0,
               unique, confirmed);
        fflush(stdout);
        snprintf(name, sizeof(name), "  %s", logic_level_name(level));
        report(name, &t);
        wrong += t.wrong + (met - unique);
    }
    return wrong;
}

/* FNV-1a over a met killer puzzle (givens, cages, cells) folded into h:
 * equal digests before and after a change show the same puzzles came
 * out for the same seeds. */
static uint64_t killer_digest(uint64_t h, const struct teach_killer *k)
{
    const struct killer_cages *c = &k->cages;

    for (unsigned i = 0; i < SUDOKU_CELLS; i++)
        h = (h ^ k->puzzle.cell[i]) * 1099511628211ull;
    for (unsigned i = 0; i < c->ncages; i++)
        h = (h ^ (uint64_t)(c->cage[i].sum * 97 + (int)c->cage[i].ncells)) *
            1099511628211ull;
    for (unsigned i = 0; i < c->ncells; i++)
        h = (h ^ (uint64_t)(c->row[i] * 9 + c->col[i])) * 1099511628211ull;
    return h;
}

/* Killer at each level: the share met, time, uniqueness by the killer
 * search, the tests' own solver (easy, medium, hard: its techniques of
 * the level solve it and those of the level below do not; expert and
 * extreme: its hard set does not), the walk. */
static unsigned killer_levels(unsigned count_all, int only_level,
                              uint64_t max_us)
{
    static struct tally t;
    static struct teach_killer k;
    static uint64_t took[MAX_PUZZLES], cpu[MAX_PUZZLES], givens[MAX_PUZZLES];
    unsigned wrong = 0;

    for (unsigned level = 0; level < LOGIC_NLEVELS; level++) {
        unsigned met = 0, confirmed = 0, unique = 0, count = count_all;
        uint64_t digest = 14695981039346656037ull;
        char name[40];
        if (only_level >= 0 && level != (unsigned)only_level)
            continue;
        memset(&t, 0, sizeof(t));
        for (unsigned seed = 1; seed <= count; seed++) {
            uint64_t t0 = wall_us(), c0 = cpu_us();
            unsigned nsol = 0;
            struct lc_puzzle *lc;
            enum teach_status st =
                teach_generate_killer(seed, level, max_us, &puzzle, &k);
            took[seed - 1] = wall_us() - t0;
            cpu[seed - 1] = cpu_us() - c0;
            givens[seed - 1] = k.givens;
            if (st != TEACH_OK)
                continue;
            met++;
            digest = killer_digest(digest, &k);
            unique += killer_count(&k.puzzle, &k.cages, 2, 0, NULL, &nsol,
                                   NULL) == KILLER_OK &&
                      nsol == 1;
            lc = lc_from_killer(&k.cages);
            confirmed +=
                level <= LOGIC_HARD
                    ? lc_solves(lc, k.puzzle.cell, k.solution.cell,
                                (enum lc_set)level) &&
                          (level == LOGIC_EASY ||
                           !lc_solves(lc, k.puzzle.cell, k.solution.cell,
                                      (enum lc_set)(level - 1)))
                    : !lc_solves(lc, k.puzzle.cell, k.solution.cell, LC_HARD);
            lc_free(lc);
            teach_from_killer(&puzzle, &k.cages);
            walk(&puzzle, k.puzzle.cell, k.solution.cell, 10000, &t);
        }
        qsort(took, count, sizeof(took[0]), cmp_u64);
        qsort(cpu, count, sizeof(cpu[0]), cmp_u64);
        qsort(givens, count, sizeof(givens[0]), cmp_u64);
        printf("%-12s %-8s met %3u/%u  generate median %7.1f ms  p99 %7.1f "
               "ms  CPU median %7.1f ms  p99 %7.1f ms  givens median %2u  "
               "unique %u  level confirmed %u  digest %016llx\n",
               "killer", logic_level_name((enum logic_level)level), met, count,
               took[count / 2] / 1000.0, took[count * 99 / 100] / 1000.0,
               cpu[count / 2] / 1000.0, cpu[count * 99 / 100] / 1000.0,
               (unsigned)givens[count / 2], unique, confirmed,
               (unsigned long long)digest);
        snprintf(name, sizeof(name), "  %s", logic_level_name(level));
        report(name, &t);
        fflush(stdout);
        wrong += t.wrong + (met - unique);
    }
    return wrong;
}

/* The level named s (easy .. extreme), or -1: every level. */
static int level_named(const char *s)
{
    for (unsigned l = 0; l < LOGIC_NLEVELS; l++)
        if (strcmp(s, logic_level_name((enum logic_level)l)) == 0)
            return (int)l;
    return -1;
}

static unsigned generate_sets(int argc, char **argv)
{
    unsigned count = argc > 2 ? (unsigned)atoi(argv[2]) : 20, wrong = 0;

    if (count == 0 || count > MAX_PUZZLES)
        count = MAX_PUZZLES;
    if (argc <= 3 || strcmp(argv[3], "killer") == 0)
        wrong += killer_levels(count, argc > 4 ? level_named(argv[4]) : -1,
                               argc > 5 ? strtoull(argv[5], NULL, 10) * 1000u
                                        : 2000000u);
    for (size_t i = 0; i < sizeof(gen_sets) / sizeof(gen_sets[0]); i++)
        if (argc <= 3 || strcmp(argv[3], gen_sets[i].name) == 0)
            wrong += gen_set(&gen_sets[i], count,
                             argc > 4 ? level_named(argv[4]) : -1);
    printf("wrong in all: %u\n", wrong);
    return wrong;
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    unsigned max_ms = argc > 2 ? (unsigned)atoi(argv[2]) : 10000, wrong = 0;

    if (only && strcmp(only, "generate") == 0)
        return generate_sets(argc, argv) != 0;

    if (only == NULL || strcmp(only, "killer") == 0)
        wrong += killer_set(max_ms);
    for (unsigned i = 0; tc_set_name(i); i++)
        if (only == NULL || strcmp(only, tc_set_name(i)) == 0)
            wrong += cover_set(tc_set_name(i), max_ms);
    printf("wrong in all: %u\n", wrong);
    return wrong != 0;
}
