/* teach_generate.c - killer puzzles at a level. A random full grid, carved
 * into random connected cages whose digits differ (cage sizes grow with
 * the level), the sums read off the grid. Easy and medium: givens from the
 * solution added at random until killer_count finds one solution, the
 * general engine's walk grades it. Hard, expert and extreme dig from the
 * whole solution as givens with the walk bounded at the level below, and
 * step over to the level on the first given whose removal needs it
 * (dig_to_level). Layouts are drawn until one grades at the level (or the
 * time runs out: the closest is kept). */
#include <string.h>

#include "budget.h"
#include "clock.h"
#include "generate.h"
#include "logic.h"
#include "rng.h"
#include "teach_internal.h"

/* Node budget of one uniqueness count: a layout that needs more is
 * given another given (measured: unique layouts count in far fewer). */
#define COUNT_NODES 200000u
#define MAX_GIVENS 40
#define MAX_EASING 12 /* givens added to ease a layout that is too hard */

/* The cage sizes aimed at per level: easy .. extreme. Hard: 5-9 cells
 * (seeds met with 1-9 cells: 6 of 10, 3-9: 6 of 10, 5-9: 18 of 20, 6-9:
 * 17 of 20, 7-9: 19 of 20; with smaller cages the dig's stuck puzzles
 * need chains more often than triples and XY-wings). Extreme: 3-9 (18
 * of 20; 1-6: 12, 5-9: 14). docs/performance.md has the figures. */
static const unsigned min_cage[] = {1, 1, 5, 1, 3};
static const unsigned max_cage[] = {3, 4, 9, 9, 9};

/* Random connected cages of distinct digits over the grid into *k, each
 * aiming at least..big cells (fewer where the neighbours run out). */
static void carve(struct rng *r, const struct sudoku_grid *sol, unsigned least,
                  unsigned big, struct killer_cages *k)
{
    uint8_t caged[SUDOKU_CELLS] = {0};
    unsigned order[SUDOKU_CELLS];

    for (unsigned i = 0; i < SUDOKU_CELLS; i++)
        order[i] = i;
    for (unsigned i = SUDOKU_CELLS - 1; i > 0; i--) {
        unsigned j = rng_below(r, i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    killer_init(k);
    for (unsigned i = 0; i < SUDOKU_CELLS; i++) {
        unsigned cells[9], n = 1, want = least + rng_below(r, big - least + 1),
                           sum;
        uint32_t used;
        if (caged[order[i]])
            continue;
        cells[0] = order[i];
        caged[order[i]] = 1;
        used = 1u << sol->cell[order[i]];
        while (n < want) {
            unsigned cand[36], nc = 0;
            for (unsigned c = 0; c < n; c++) {
                int row = (int)cells[c] / 9, col = (int)cells[c] % 9;
                static const int dr[] = {-1, 1, 0, 0}, dc[] = {0, 0, -1, 1};
                for (int d = 0; d < 4; d++) {
                    int r2 = row + dr[d], c2 = col + dc[d];
                    unsigned x = (unsigned)(r2 * 9 + c2);
                    if (r2 < 0 || r2 > 8 || c2 < 0 || c2 > 8 || caged[x] ||
                        (used & (1u << sol->cell[x])))
                        continue;
                    cand[nc++] = x;
                }
            }
            if (nc == 0)
                break;
            cells[n] = cand[rng_below(r, nc)];
            caged[cells[n]] = 1;
            used |= 1u << sol->cell[cells[n]];
            n++;
        }
        sum = 0;
        for (unsigned c = 0; c < n; c++)
            sum += sol->cell[cells[c]];
        killer_add_cage(k, (int)sum);
        for (unsigned c = 0; c < n; c++)
            killer_add_cell(k, (int)cells[c] / 9, (int)cells[c] % 9);
    }
}

/* Adds givens from sol at random until the puzzle is unique. 0, or -1
 * when MAX_GIVENS were not enough or the deadline `end` (0: none)
 * passed: each count may take its whole node budget, and 40 of them
 * overran /generate's 2 s (p99 4.5 s at extreme). */
static int make_unique(struct rng *r, const struct sudoku_grid *sol,
                       const struct killer_cages *k, uint64_t end,
                       struct sudoku_grid *pz, unsigned *givens)
{
    memset(pz, 0, sizeof(*pz));
    *givens = 0;
    for (;;) {
        unsigned count = 0, c;
        uint64_t now = clock_now_us();
        /* the wall time left, as a CPU deadline (CPU runs no faster) */
        struct search_budget b = search_budget_make(
            COUNT_NODES, end ? (end > now ? end - now : 1) * 1000u : 0);
        enum killer_status st =
            killer_count_budget(pz, k, 2, &b, NULL, &count, NULL);
        if (st == KILLER_OK && count == 1)
            return 0;
        if (*givens >= MAX_GIVENS || (end && clock_now_us() >= end))
            return -1;
        do
            c = rng_below(r, SUDOKU_CELLS);
        while (pz->cell[c] != 0);
        pz->cell[c] = sol->cell[c];
        (*givens)++;
    }
}

static void shuffle(struct rng *r, uint8_t *order, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        order[i] = (uint8_t)i;
    for (unsigned i = n - 1; i > 0; i--) {
        unsigned j = rng_below(r, i + 1);
        uint8_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

/* Does the walk with no technique above `hi` (tenths) solve givens? */
static int solves(const struct teach_puzzle *p, const uint8_t *givens,
                  unsigned hi, uint64_t end, struct teach_walk *w)
{
    struct teach_grid g;
    struct teach_budget b = {end, hi};

    teach_init(p, &g, givens);
    teach_walk(p, &g, &b, NULL, 0, w);
    return w->status == TEACH_SOLVED;
}

/* Does killer_count find k->puzzle unique within COUNT_NODES and the
 * deadline `end` (0: none)? The deadline is the wall time left, given as
 * CPU time (CPU runs no faster): an unbounded count took extreme to 4.5
 * s at p99 on a loaded machine. */
static int unique_by(const struct teach_killer *k, uint64_t end)
{
    uint64_t now = clock_now_us();
    unsigned count = 0;
    struct search_budget b = search_budget_make(
        COUNT_NODES, end ? (end > now ? end - now : 1) * 1000u : 0);

    return killer_count_budget(&k->puzzle, &k->cages, 2, &b, NULL, &count,
                               NULL) == KILLER_OK &&
           count == 1;
}

/* Does the walk bounded at `keep` (tenths) solve k->puzzle? 1 when it
 * does; 2 when it is stuck but the walk bounded at `over` (0: not tried;
 * OVER_ALL: no bound, within FORCING_US, on a puzzle killer_count finds
 * unique), which takes the same steps first and so goes on from where it
 * stopped, solves it; else 0. */
#define OVER_ALL 255u
#define FORCING_US 500000u
static int solves_over(const struct teach_puzzle *p,
                       const struct teach_killer *k, unsigned keep,
                       unsigned over, uint64_t end)
{
    struct teach_grid g;
    struct teach_budget b = {end, keep};
    struct teach_walk w;

    teach_init(p, &g, k->puzzle.cell);
    teach_walk(p, &g, &b, NULL, 0, &w);
    if (w.status == TEACH_SOLVED)
        return 1;
    if (w.status != TEACH_STUCK || over == 0)
        return 0;
    if (over == OVER_ALL) {
        /* The forcing steps search long for nothing on a puzzle of two
         * solutions (most of the stuck ones): count first. */
        if (!unique_by(k, end))
            return 0;
        b.deadline_us = clock_now_us() + FORCING_US;
        if (end && b.deadline_us > end)
            b.deadline_us = end;
        over = 0;
    }
    b.max_rating = over;
    teach_walk(p, &g, &b, NULL, 0, &w);
    return w.status == TEACH_SOLVED ? 2 : 0;
}

/* Takes givens out of k->puzzle (in random order) while the walk bounded
 * at `keep` still solves the puzzle (which proves it unique: every step is
 * sound). With `over` (0: none) above keep, a given whose removal leaves
 * the keep-walk stuck is taken out anyway when the walk bounded at `over`
 * solves the puzzle then; from there on the dig keeps to `over`, so it
 * ends on a puzzle that needs a step above keep and none above over.
 * 1 when that happened, 0 when not, -1 when the time ran out. */
static int dig(struct rng *r, const struct teach_puzzle *p, unsigned keep,
               unsigned over, uint64_t end, struct teach_killer *k)
{
    uint8_t order[SUDOKU_CELLS];
    int above = 0;

    shuffle(r, order, SUDOKU_CELLS);
    for (unsigned i = 0; i < SUDOKU_CELLS; i++) {
        uint8_t v = k->puzzle.cell[order[i]];
        int st;
        if (v == 0)
            continue;
        if (end && clock_now_us() >= end)
            return -1;
        k->puzzle.cell[order[i]] = 0;
        st = above ? solves_over(p, k, over, 0, end)
                   : solves_over(p, k, keep, over, end);
        if (st == 2 && over == OVER_ALL)
            return 1; /* the forcing walks cost too much to dig on */
        if (st == 2)
            above = 1;
        else if (st == 0)
            k->puzzle.cell[order[i]] = v;
    }
    return above;
}

/* Hard, expert and extreme, from the whole solution as givens: dig (above)
 * with the walk bounded at the level below, stepping over to the level's
 * own techniques (extreme: all, on a puzzle counted unique) on the first
 * given whose removal needs them; a layout where none does is dropped.
 * A dig bounded at hard alone ended on medium puzzles nearly always (1-3
 * of 20 seeds met): the cages and the 45 rule do what triples and
 * XY-wings would, and the stuck puzzles mostly need chains. 0 with k
 * graded, or -1. */
static int dig_to_level(struct rng *r, struct teach_puzzle *p, unsigned level,
                        uint64_t end, struct teach_killer *k)
{
    int st;

    k->puzzle = k->solution;
    st = dig(r, p, logic_level_max_rating((enum logic_level)(level - 1)),
             level == LOGIC_EXTREME
                 ? OVER_ALL
                 : logic_level_max_rating((enum logic_level)level),
             end, k);
    if (st != 1)
        return -1;
    k->givens = 0;
    for (unsigned i = 0; i < SUDOKU_CELLS; i++)
        k->givens += k->puzzle.cell[i] != 0;
    solves(p, k->puzzle.cell, 0, end, &k->grade);
    return unique_by(k, end) ? 0 : -1;
}

static unsigned distance(unsigned a, unsigned b)
{
    return a > b ? a - b : b - a;
}

enum teach_status teach_generate_killer(uint64_t seed, unsigned level,
                                        uint64_t max_us,
                                        struct teach_puzzle *scratch,
                                        struct teach_killer *out)
{
    uint64_t t0 = clock_now_us(), end = max_us ? t0 + max_us : 0;
    struct teach_killer cur;
    struct rng r;
    int have = 0;
    unsigned attempts = 0;

    if (level >= LOGIC_NLEVELS)
        level = LOGIC_MEDIUM;
    rng_seed(&r, seed);
    while (end == 0 || clock_now_us() < end) {
        struct teach_grid g;
        struct teach_budget b = {0, 0};
        attempts++;
        generate_full_grid(&r, &cur.solution);
        carve(&r, &cur.solution, min_cage[level], max_cage[level], &cur.cages);
        if (level >= LOGIC_HARD) {
            teach_from_killer(scratch, &cur.cages);
            if (dig_to_level(&r, scratch, level, end, &cur) != 0)
                continue;
            if (!have || distance(cur.grade.level, level) <
                             distance(out->grade.level, level)) {
                *out = cur;
                have = 1;
            }
            if (out->grade.level == level && out->grade.status == TEACH_SOLVED)
                break;
            continue;
        }
        if (make_unique(&r, &cur.solution, &cur.cages, end, &cur.puzzle,
                        &cur.givens) != 0)
            continue;
        teach_from_killer(scratch, &cur.cages);
        /* Too hard: a given more (still unique) and grade again, a few
         * times. */
        for (unsigned more = 0; more <= MAX_EASING; more++) {
            unsigned c;
            teach_init(scratch, &g, cur.puzzle.cell);
            b.deadline_us = clock_now_us() + 500000u;
            if (end && b.deadline_us > end)
                b.deadline_us = end;
            teach_walk(scratch, &g, &b, NULL, 0, &cur.grade);
            if (!have || distance(cur.grade.level, level) <
                             distance(out->grade.level, level)) {
                *out = cur;
                have = 1;
            }
            if (cur.grade.level <= level || cur.givens >= MAX_GIVENS)
                break;
            do
                c = rng_below(&r, SUDOKU_CELLS);
            while (cur.puzzle.cell[c] != 0);
            cur.puzzle.cell[c] = cur.solution.cell[c];
            cur.givens++;
        }
        if (out->grade.level == level && out->grade.status == TEACH_SOLVED)
            break;
    }
    if (!have)
        return TEACH_STUCK;
    out->attempts = attempts;
    out->took_us = clock_now_us() - t0;
    return out->grade.level == level && out->grade.status == TEACH_SOLVED
               ? TEACH_OK
               : TEACH_BUDGET;
}
