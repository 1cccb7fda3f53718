/* teach_variant.c - puzzles of every size and rule at a level. Method (the
 * classic generator's, generate.c, with this engine's ladder): a random
 * full grid (a random first row completed by the exact-cover search), then
 * its cells visited in random order (by half-turn pairs when asked) and
 * blanked while the puzzle keeps one solution (cover_count to 2) and,
 * below extreme, while this engine's walk solves it with no technique
 * rated above the level (the harder ones are not even tried). The dig
 * ends on the hardest puzzle the level's techniques solve (25x25: on the
 * first puzzle graded at the level); the walk then grades it in full and
 * attempts repeat until the grade is the level. The dig's own walk takes
 * singles in rounds and every locked candidate of a pass at once, the
 * same end as /explain's walk at a fraction of its cost (dig_solves).
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

/* From this size up the dig stops at the first puzzle graded at the level
 * (dig): a 25x25 dig to the end, a walk for each of the hundreds of
 * givens that singles cannot do without, does not fit in /generate's 2 s
 * (docs/logic.md, "Generation at a level"). */
#define EARLY_N 25

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
    case 4: /* every 4x4 puzzle falls to singles (shidoku_singles.c) */
        return E;
    case 6: /* extreme: rarely met in 2 s under load (docs/logic.md) */
        return E | M | H | X;
    case 8:
    case 9:
    case 12:
    case 16:
        return E | M | H | X | XX;
    case 25: /* extreme: the step over falls short in 2 s (docs/logic.md) */
        return E | M | H | X;
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
 * relabelled at random (the rules are blind to the digits' names). 0, 1
 * when a fill ran to its end and found none (no grid obeys the rules: any
 * grid, its digits renamed, has this row 0), or -1 when no fill finished
 * within its nodes. */
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
        if (cover_count(r, &seed, 1, FILL_NODES, out, &count, NULL) != COVER_OK)
            continue;
        if (count == 0)
            return 1;
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

/* ------------------------------------------------------------------------
 * The dig's walk: singles by rounds, the other techniques between them
 * ------------------------------------------------------------------------ */

/* Takes naked and hidden singles in rounds (every single a round finds)
 * until none is left: 1 solved, 0 stuck, -1 a contradiction. */
static int singles_run(const struct teach_puzzle *p, struct teach_grid *g)
{
    unsigned blanks = 0, progress;

    for (unsigned c = 0; c < p->ncells; c++)
        blanks += g->value[c] == 0;
    while (blanks != 0) {
        progress = 0;
        for (unsigned c = 0; c < p->ncells; c++) {
            if (g->value[c] != 0)
                continue;
            if (g->cand[c] == 0)
                return -1;
            if ((g->cand[c] & (g->cand[c] - 1)) == 0) {
                teach_place(p, g, c, (unsigned)__builtin_ctz(g->cand[c]) + 1);
                blanks--;
                progress = 1;
            }
        }
        for (unsigned ui = 0; ui < p->nunits; ui++) {
            const struct teach_unit *u = &p->unit[ui];
            uint32_t none, lone;
            if (!u->full)
                continue;
            lone = teach_unit_singles(p, u, g, &none);
            if (none != 0)
                return -1; /* a digit with nowhere to go */
            for (; lone; lone &= lone - 1) {
                uint32_t bit = lone & -lone;
                for (unsigned k = 0; k < u->ncells; k++) {
                    unsigned c = u->cell[k];
                    if (g->cand[c] & bit) {
                        teach_place(p, g, c, (unsigned)__builtin_ctz(bit) + 1);
                        blanks--;
                        progress = 1;
                        break;
                    }
                }
            }
        }
        if (!progress)
            return 0;
    }
    return 1;
}

/* Does a walk with nothing rated above hi solve g? 0 no, 1 by singles
 * alone, 2 with more than singles. The walk of /explain
 * scans the whole grid for each of its steps, hundreds of them on a big
 * grid, most of them singles; this one takes singles in rounds and asks
 * for every locked candidate of a pass at once, and asks teach_step only
 * where those run out. Singles are always tried first and every
 * technique here keeps its pattern when other sound steps remove
 * marks, so both walks end in the same place; where one did not (a
 * search cut by its bounds), the dig only keeps a given more or fewer,
 * and the grade, which is the real walk's, decides. Every step is sound,
 * so a walk that solves proves the puzzle unique. */
static int dig_solves(const struct teach_puzzle *p, const struct cover_grid *g,
                      unsigned hi, uint64_t end)
{
    struct teach_budget b = {end, hi};
    struct teach_grid tg;
    struct teach_step s;
    int more = 0;

    if (teach_init(p, &tg, g->cell) != TEACH_OK)
        return 0;
    for (;;) {
        int r = singles_run(p, &tg);
        if (r != 0)
            return r > 0 ? 1 + more : 0;
        if (hi <= teach_technique_rating(TEACH_NAKED_SINGLE))
            return 0;
        more = 1;
        if (hi >= teach_technique_rating(TEACH_LOCKED_CANDIDATES) &&
            teach_locked_all(p, &tg) != 0)
            continue;
        if (teach_step(p, &tg, &b, &s) != TEACH_OK)
            return 0;
        teach_apply(p, &tg, &s);
    }
}

/* Digs *g (a full grid on entry) as the file's header says. With
 * stop_level a level, the dig ends once the puzzle's grade is that level:
 * after a given went that singles alone could not do without, the puzzle
 * is graded by the real walk (the dig's tests are cheaper walks). */
static void dig(struct rng *rg, const struct cover_rules *r,
                const struct teach_puzzle *p, unsigned hi, unsigned stop_level,
                int rotational, uint64_t end, struct cover_grid *g)
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
        int took;
        if (end && clock_now_us() >= end)
            return; /* still unique: only less dug */
        g->cell[a] = 0;
        g->cell[b] = 0;
        /* A walk that solves the puzzle proves it unique (every step is
         * sound, and two solutions would keep both digits of a cell
         * where they differ), so only extreme pays for the count. */
        took = hi ? dig_solves(p, g, hi, end) : unique(r, g);
        if (took == 2 && stop_level < LOGIC_NLEVELS &&
            walks(p, g, 0, end, &w) && w.level == stop_level)
            return;
        if (took)
            continue;
        g->cell[a] = va;
        g->cell[b] = vb;
    }
}

/* Extreme from an expert dig (*g, solved by the walk capped at hi): each
 * given in random order is taken out where the capped walk then gets
 * stuck (every given left is such a one, or the dig would have taken
 * it), the puzzle is still unique (counted to two: the only counts of
 * the dig) and the full walk solves it. A removal graded extreme ends
 * it (1); one graded lower is kept and the walk goes on, as the puzzle
 * only gets harder. 0 when no given gave extreme before the deadline. */
static int step_over(struct rng *rg, const struct cover_rules *r,
                     const struct teach_puzzle *p, unsigned hi, uint64_t end,
                     struct cover_grid *g, struct teach_walk *w)
{
    unsigned ncells = (unsigned)r->n * r->n, norder = 0;
    uint16_t order[COVER_MAX_CELLS];

    for (unsigned c = 0; c < ncells; c++)
        if (g->cell[c] != 0)
            order[norder++] = (uint16_t)c;
    shuffle16(rg, order, norder);
    for (unsigned k = 0; k < norder; k++) {
        unsigned c = order[k];
        uint8_t v = g->cell[c];
        if (end && clock_now_us() >= end)
            return 0;
        g->cell[c] = 0;
        if (dig_solves(p, g, hi, end) == 0 && unique(r, g) &&
            walks(p, g, 0, end, w)) {
            if (w->level == LOGIC_EXTREME)
                return 1;
            continue;
        }
        g->cell[c] = v;
    }
    return 0;
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

    unsigned xhi = logic_level_max_rating(LOGIC_EXPERT);

    if (hi >= aic)
        hi = aic - 1;
    if (xhi >= aic)
        xhi = aic - 1;
    memset(out, 0, sizeof(*out));
    teach_from_cover(scratch, r);
    rng_seed(&rg, seed);
    while (end == 0 || clock_now_us() < end) {
        int filled;

        out->attempts++;
        filled = full_grid(&rg, r, &full);
        if (filled > 0)
            return TEACH_CONTRADICTION;
        if (filled < 0)
            continue;
        puzzle = full;
        if (level == LOGIC_EXTREME && !rotational && r->n >= 16) {
            /* Expert first (no counts: a solved walk proves it unique),
             * then over the step (step_over): a dig by counts at every
             * cell does not fit in 2 s from 16x16 up. */
            dig(&rg, r, scratch, xhi,
                r->n >= EARLY_N ? LOGIC_EXPERT : LOGIC_NLEVELS, 0, end,
                &puzzle);
            if (step_over(&rg, r, scratch, xhi, end, &puzzle, &w)) {
                out->puzzle = puzzle;
                out->solution = full;
                out->grade = w;
                have = 1;
                break;
            }
        } else
            dig(&rg, r, scratch, hi, r->n >= EARLY_N ? level : LOGIC_NLEVELS,
                rotational, end, &puzzle);
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
