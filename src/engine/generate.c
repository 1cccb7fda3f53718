/* generate.c - puzzles of a requested level.
 * Method: one attempt = a random full grid (random digits in the three
 * independent diagonal boxes, completed by the solver, then shuffled by
 * relabelling digits and permuting bands, stacks, rows and columns), then the
 * cells are visited in random order by symmetry orbit and blanked when the
 * puzzle keeps exactly one solution (sudoku_count to 2). For easy to expert,
 * a removal is also undone when it raises the grade above the target, so the
 * dig ends on the hardest puzzle the logic engine rates at most that
 * level; extreme digs to a minimal puzzle. The SE rater then rates the
 * result, and attempts repeat until SE's ER falls in the level's range
 * (narrowed by min_rating/max_rating) or the budget ends. The logic engine
 * digs because it can leave out the techniques above a rating (no forcing
 * search is paid for on the way); the two scales agree closely enough
 * that its bound keeps most digs near the target (docs/rating.md). */
#include "generate.h"

#include <string.h>

#include "clock.h"
#include "grid.h"
#include "rng.h"

static void shuffle(struct rng *r, uint8_t *a, unsigned n)
{
    for (unsigned i = n; i > 1; i--) {
        unsigned j = rng_below(r, i);
        uint8_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

/* ------------------------------------------------------------------------
 * Full grids
 * ------------------------------------------------------------------------ */

/* A permutation of 0-8 that keeps bands of three together: the three
 * groups shuffled, and the three members of each group. */
static void band_perm(struct rng *r, uint8_t out[9])
{
    uint8_t groups[3] = {0, 1, 2};

    shuffle(r, groups, 3);
    for (int g = 0; g < 3; g++) {
        uint8_t in[3] = {0, 1, 2};
        shuffle(r, in, 3);
        for (int k = 0; k < 3; k++)
            out[g * 3 + k] = (uint8_t)(groups[g] * 3 + in[k]);
    }
}

void generate_full_grid(struct rng *r, struct sudoku_grid *out)
{
    struct sudoku_grid seed, full;
    uint8_t digits[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, rows[9], cols[9];
    int solved = 0, flip;

    memset(&seed, 0, sizeof(seed));
    for (int box = 0; box < 9; box += 4) { /* boxes 0, 4, 8 */
        shuffle(r, digits, 9);
        for (int k = 0; k < 9; k++)
            seed.cell[((box / 3) * 3 + k / 3) * 9 + (box % 3) * 3 + k % 3] =
                digits[k];
    }
    /* Three filled diagonal boxes always complete. */
    sudoku_solve(&seed, 0, &full, &solved, NULL);
    shuffle(r, digits, 9);
    band_perm(r, rows);
    band_perm(r, cols);
    flip = (int)rng_below(r, 2);
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++) {
            int src = rows[i] * 9 + cols[j];
            out->cell[flip ? j * 9 + i : i * 9 + j] =
                digits[full.cell[src] - 1];
        }
}

/* ------------------------------------------------------------------------
 * Digging
 * ------------------------------------------------------------------------ */

static const char *const symmetry_names[GENERATE_NSYMMETRIES] = {
    "none", "rotational", "diagonal"};

const char *generate_symmetry_name(enum generate_symmetry s)
{
    return (unsigned)s < GENERATE_NSYMMETRIES ? symmetry_names[s] : NULL;
}

int generate_symmetry_parse(const char *name, enum generate_symmetry *out)
{
    for (int s = 0; s < GENERATE_NSYMMETRIES; s++)
        if (strcmp(name, symmetry_names[s]) == 0) {
            *out = (enum generate_symmetry)s;
            return 0;
        }
    return -1;
}

/* The partner of a cell under the symmetry (the cell itself if none). */
static int mirror(enum generate_symmetry s, int cell)
{
    switch (s) {
    case GENERATE_ROTATIONAL:
        return 80 - cell;
    case GENERATE_DIAGONAL:
        return (cell % 9) * 9 + cell / 9;
    default:
        return cell;
    }
}

static int unique(const struct sudoku_grid *g)
{
    unsigned count = 0;

    sudoku_count(g, 2, 0, NULL, &count, NULL);
    return count == 1;
}

/* The rating range [lo, hi] (tenths) the puzzle must land in: the level's,
 * narrowed by the options' min_rating and max_rating. */
static void target(const struct generate_options *o, unsigned *lo, unsigned *hi)
{
    if ((unsigned)o->level >= LOGIC_NLEVELS) { /* any level: the range */
        *lo = o->min_rating;
        *hi = o->max_rating ? o->max_rating : 120;
        return;
    }
    *lo = o->level == LOGIC_EASY
              ? 0
              : logic_level_max_rating((enum logic_level)(o->level - 1)) + 1;
    *hi = logic_level_max_rating(o->level);
    if (o->min_rating > *lo)
        *lo = o->min_rating;
    if (o->max_rating && o->max_rating < *hi)
        *hi = o->max_rating;
}

/* Digs holes into *g (a full grid on entry). */
static void dig(struct rng *r, const struct generate_options *opt,
                struct sudoku_grid *g)
{
    uint8_t order[SUDOKU_CELLS];
    unsigned n = 0, lo, hi;
    int incremental;
    struct logic_limits lim = {0, 0, 0};
    struct logic_grade grade;

    target(opt, &lo, &hi);
    /* Below the top of the scale, a removal stays only while the puzzle
     * rates at most hi; grading while digging leaves out the techniques
     * rated above hi (a board that needs them is "stuck", which is all the
     * dig must know), so the forcing searches are never paid for. At the
     * top (extreme) the dig goes to a minimal puzzle and grades it once:
     * grading on the way, with the patterns alone, to dig toward the
     * boards they cannot solve, was measured 2.5 times slower (such
     * boards are as rare on the way as at the end). */
    incremental = hi < 120;
    lim.max_rating = incremental ? hi : 0;
    for (int i = 0; i < SUDOKU_CELLS; i++)
        if (mirror(opt->symmetry, i) >= i)
            order[n++] = (uint8_t)i;
    shuffle(r, order, n);
    for (unsigned k = 0; k < n; k++) {
        int a = order[k], b = mirror(opt->symmetry, a);
        uint8_t va = g->cell[a], vb = g->cell[b];
        g->cell[a] = 0;
        g->cell[b] = 0;
        if (unique(g)) {
            if (!incremental)
                continue;
            logic_grade_budget(g, &lim, &grade, NULL);
            if (!grade.needs_guessing && grade.rating <= hi)
                continue;
        }
        g->cell[a] = va;
        g->cell[b] = vb;
    }
}

void generate_options_init(struct generate_options *o, enum logic_level level,
                           uint64_t seed)
{
    memset(o, 0, sizeof(*o));
    o->level = level;
    o->seed = seed;
    o->symmetry = GENERATE_NONE;
    o->max_attempts = 2000;
    o->max_us = 2000000;
}

/* How far SE's ER is from the range: 0 inside, else in tenths (a rating
 * the budget cut short is farthest). */
static int distance(const struct serate_result *se, unsigned lo, unsigned hi)
{
    unsigned er = (unsigned)se->er;

    if (se->lower_bound)
        return 1000;
    return er < lo ? (int)(lo - er) : er > hi ? (int)(er - hi) : 0;
}

enum generate_status generate_puzzle(const struct generate_options *opt,
                                     struct generate_result *out)
{
    struct rng r;
    struct logic_limits lim = {1000000, 0, 0};
    uint64_t t0 = clock_now_us();
    int best = -1;
    unsigned lo, hi;

    target(opt, &lo, &hi);
    memset(out, 0, sizeof(*out));
    rng_seed(&r, opt->seed);
    while (out->attempts < (opt->max_attempts ? opt->max_attempts : 1)) {
        struct sudoku_grid full, puzzle;
        struct serate_options so;
        struct serate_result se;
        int d;

        if (out->attempts > 0 && opt->max_us &&
            clock_now_us() - t0 >= opt->max_us) {
            out->timed_out = 1;
            break;
        }
        out->attempts++;
        generate_full_grid(&r, &full);
        puzzle = full;
        dig(&r, opt, &puzzle);
        /* The server's default budget for one grade: a puzzle that needs
         * more counts as not rated (and is not handed out). */
        serate_options_init(&so);
        so.max_ms = 1000;
        if (serate_rate(puzzle.cell, &so, &se) != SERATE_OK)
            se.lower_bound = 1; /* out of memory: not rated */
        d = distance(&se, lo, hi);
        if (best < 0 || d < best) {
            best = d;
            out->puzzle = puzzle;
            out->solution = full;
            out->se = se;
            out->level = se.lower_bound ? LOGIC_EXTREME
                                        : logic_rating_level((unsigned)se.er);
        }
        if (d == 0)
            break;
    }
    /* The logic engine's counts, of the one puzzle handed out. */
    logic_grade_budget(&out->puzzle, &lim, &out->grade, NULL);
    out->givens = SUDOKU_CELLS - grid_blanks(out->puzzle.cell);
    out->took_us = clock_now_us() - t0;
    return best == 0 ? GENERATE_OK : GENERATE_MISSED;
}
