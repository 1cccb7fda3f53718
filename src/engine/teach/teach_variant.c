/* teach_variant.c - puzzles of every size and rule at a level. Method (the
 * classic generator's, generate.c, with this engine's ladder): a random
 * full grid (a random first row completed by the exact-cover search), then
 * its cells visited in random order (by half-turn pairs when asked) and
 * blanked while the puzzle keeps one solution (cover_count to 2) and,
 * below extreme, while this engine's walk solves it with no technique
 * rated above the level (the harder ones are not even tried). The dig
 * ends on the hardest puzzle the level's techniques solve; the walk then
 * grades it in full and attempts repeat until the grade is the level.
 * Extreme digs to a minimal puzzle and takes it when the walk needs the
 * forcing steps and finishes. */
#include <string.h>

#include "clock.h"
#include "logic.h"
#include "rng.h"
#include "teach_internal.h"

/* Nodes one uniqueness count may take; a blank whose count needs more is
 * put back (the puzzle stays unique, it is only less dug). */
#define COUNT_NODES 200000u
#define FILL_NODES 20000u

/* The levels each size offers (bit l for enum logic_level l): what a dig
 * finds within the 2 s of /generate on the loaded 2-core test machine
 * (docs/logic.md, "Generation at a level"). */
unsigned teach_variant_levels(unsigned n)
{
    enum {
        E = 1u << LOGIC_EASY,
        M = 1u << LOGIC_MEDIUM,
        H = 1u << LOGIC_HARD,
        X = 1u << LOGIC_EXPERT,
        XX = 1u << LOGIC_EXTREME
    };

    switch (n) {
    case 4: /* every minimal 4x4 falls to singles */
        return E;
    case 6:
        return E | M | H | X;
    case 8:
        return E | M | H | X | XX;
    case 9:
    case 12:
        return E | M | H | X | XX;
    case 16:
        return E | M | H | X;
    case 25:
        return E;
    default:
        return 0;
    }
}

static void shuffle16(struct rng *r, uint16_t *a, unsigned n)
{
    for (unsigned i = n; i > 1; i--) {
        unsigned j = rng_below(r, i);
        uint16_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

/* A random full grid under r: row 0 a random permutation of the digits
 * (every rule lets a row hold each digit once, as no knight's or king's
 * move stays in a row), the rest completed by the search, digits then
 * relabelled at random (the rules are blind to the digits' names). 0, or
 * -1 when no fill finished within its nodes. */
static int full_grid(struct rng *rg, const struct cover_rules *r,
                     struct cover_grid *out)
{
    unsigned n = r->n;

    for (int tries = 0; tries < 16; tries++) {
        struct cover_grid seed;
        uint16_t perm[COVER_MAX_N];
        unsigned count = 0;
        memset(&seed, 0, sizeof(seed));
        seed.n = (uint8_t)n;
        for (unsigned i = 0; i < n; i++)
            perm[i] = (uint16_t)(i + 1);
        shuffle16(rg, perm, n);
        for (unsigned i = 0; i < n; i++)
            seed.cell[i] = (uint8_t)perm[i];
        if (cover_count(r, &seed, 1, FILL_NODES, out, &count, NULL) !=
                COVER_OK ||
            count != 1)
            continue;
        shuffle16(rg, perm, n);
        for (unsigned c = 0; c < n * n; c++)
            out->cell[c] = (uint8_t)perm[out->cell[c] - 1];
        return 0;
    }
    return -1;
}

static int unique(const struct cover_rules *r, const struct cover_grid *g)
{
    unsigned count = 0;

    return cover_count(r, g, 2, COUNT_NODES, NULL, &count, NULL) == COVER_OK &&
           count == 1;
}

/* The walk of g within the budget: solved, and rated at most max (tenths,
 * 0: any)? w gets the grade. */
static int walks(const struct teach_puzzle *p, const struct cover_grid *g,
                 unsigned max, uint64_t deadline, struct teach_walk *w)
{
    struct teach_grid tg;
    struct teach_budget b = {deadline, max};

    if (teach_init(p, &tg, g->cell) != TEACH_OK)
        return 0;
    teach_walk(p, &tg, &b, NULL, 0, w);
    return w->status == TEACH_SOLVED;
}

/* Digs *g (a full grid on entry) as the file's header says. */
static void dig(struct rng *rg, const struct cover_rules *r,
                const struct teach_puzzle *p, unsigned hi, int rotational,
                uint64_t end, struct cover_grid *g)
{
    unsigned ncells = (unsigned)r->n * r->n, norder = 0;
    uint16_t order[COVER_MAX_CELLS];
    struct teach_walk w;

    for (unsigned c = 0; c < ncells; c++)
        if (!rotational || ncells - 1 - c >= c)
            order[norder++] = (uint16_t)c;
    shuffle16(rg, order, norder);
    for (unsigned k = 0; k < norder; k++) {
        unsigned a = order[k], b = rotational ? ncells - 1 - a : a;
        uint8_t va = g->cell[a], vb = g->cell[b];
        if (end && clock_now_us() >= end)
            return; /* still unique: only less dug */
        g->cell[a] = 0;
        g->cell[b] = 0;
        /* A walk that solves the puzzle proves it unique (every step is
         * sound, and two solutions would keep both digits of a cell
         * where they differ), so only extreme pays for the count. */
        if (hi ? walks(p, g, hi, end, &w) : unique(r, g))
            continue;
        g->cell[a] = va;
        g->cell[b] = vb;
    }
}

static unsigned distance(unsigned a, unsigned b)
{
    return a > b ? a - b : b - a;
}

enum teach_status teach_generate_variant(const struct cover_rules *r,
                                         uint64_t seed, unsigned level,
                                         int rotational, uint64_t max_us,
                                         struct teach_puzzle *scratch,
                                         struct teach_variant *out)
{
    uint64_t t0 = clock_now_us(), end = max_us ? t0 + max_us : 0;
    /* The dig's walk stops below the AIC (expert's dig walks what it did
     * before the AIC came): its search is the costly part of a dig that
     * walks the puzzle once per cell taken out (docs/logic.md), and a
     * puzzle the cheaper techniques solve grades the same in full, the
     * walk taking the same simplest steps. */
    unsigned aic = teach_technique_rating(TEACH_AIC),
             hi = level + 1 < LOGIC_NLEVELS
                      ? logic_level_max_rating((enum logic_level)level)
                      : 0;
    struct cover_grid full, puzzle;
    struct teach_walk w;
    struct rng rg;
    int have = 0;

    if (hi >= aic)
        hi = aic - 1;
    memset(out, 0, sizeof(*out));
    teach_from_cover(scratch, r);
    rng_seed(&rg, seed);
    while (end == 0 || clock_now_us() < end) {
        out->attempts++;
        if (full_grid(&rg, r, &full) != 0)
            continue;
        puzzle = full;
        dig(&rg, r, scratch, hi, rotational, end, &puzzle);
        /* The grade in full: the dig's walk left out the harder steps. */
        if (!walks(scratch, &puzzle, 0, end, &w) && have)
            continue;
        if (!have ||
            (w.status == TEACH_SOLVED &&
             (out->grade.status != TEACH_SOLVED ||
              distance(w.level, level) < distance(out->grade.level, level)))) {
            out->puzzle = puzzle;
            out->solution = full;
            out->grade = w;
            have = 1;
        }
        if (w.status == TEACH_SOLVED && w.level == level)
            break;
    }
    out->took_us = clock_now_us() - t0;
    if (!have)
        return TEACH_STUCK;
    for (unsigned c = 0; c < (unsigned)r->n * r->n; c++)
        out->givens += out->puzzle.cell[c] != 0;
    return out->grade.status == TEACH_SOLVED && out->grade.level == level
               ? TEACH_OK
               : TEACH_BUDGET;
}
