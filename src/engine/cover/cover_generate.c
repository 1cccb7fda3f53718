/* cover_generate.c - unique puzzles for the generic engine: a random full
 * grid (the search with its options shuffled by the seeded rng of rng.h), then
 * its cells blanked in a seeded random order, each kept blank only while
 * the puzzle still has exactly one solution. Every count has a fixed node
 * budget, so the result depends on the seed and the rules alone unless the
 * wall-clock bound max_us cuts in. */
#include "clock.h"
#include "cover_internal.h"
#include "rng.h"

/* A fill that runs past this many nodes restarts with the next random
 * state; a uniqueness count that does keeps its cell, so no puzzle made
 * here needs more to be proven unique (and a 25x25 takes about a second:
 * docs/performance.md). */
#define FILL_NODES 20000
#define FILL_TRIES 64
#define COUNT_NODES 1000

static int late(uint64_t start, uint64_t max_us)
{
    return max_us && clock_now_us() - start > max_us;
}

/* A random full grid into *solution; COVER_BUDGET when max_us ran out or
 * FILL_TRIES fills all ran past their nodes (rules whose lack of a grid
 * takes long to prove, with no time bound, must not loop for ever),
 * COVER_NO_SOLUTION when the rules leave no grid at all. */
static enum cover_status fill(struct cover_ws *w, struct rng *rng,
                              uint64_t start, uint64_t max_us,
                              struct cover_grid *solution)
{
    static const struct search_budget nodes = {FILL_NODES, 0};
    struct cover_grid empty = {.n = (uint8_t)w->n};
    unsigned count = 0;

    for (unsigned tries = 0; tries < FILL_TRIES; tries++) {
        enum cover_status st =
            cover_ws_count(w, &empty, 1, &nodes, rng, solution, &count, NULL);
        if (count == 1)
            return COVER_OK;
        if (st == COVER_OK)
            return COVER_NO_SOLUTION;
        if (late(start, max_us))
            break;
    }
    return COVER_BUDGET;
}

/* Blanks the cells of *puzzle in a seeded random order (with its mirror
 * cell when `symmetric`), keeping each blank only while the solution stays
 * unique within COUNT_NODES. */
static enum cover_status blank(struct cover_ws *w, struct rng *rng,
                               uint64_t start, uint64_t max_us, int symmetric,
                               const struct cover_grid *solution,
                               struct cover_grid *puzzle)
{
    static const struct search_budget check = {COUNT_NODES, 0};
    uint16_t order[COVER_MAX_CELLS];

    for (unsigned i = 0; i < w->ncells; i++)
        order[i] = (uint16_t)i;
    for (unsigned i = w->ncells; i > 1; i--) {
        unsigned j = rng_below(rng, i);
        uint16_t t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    for (unsigned i = 0; i < w->ncells; i++) {
        unsigned c = order[i], m = symmetric ? w->ncells - 1 - c : c;
        unsigned count = 0;
        if (late(start, max_us))
            return COVER_BUDGET;
        if (!puzzle->cell[c])
            continue; /* the mirror of one done before */
        puzzle->cell[c] = puzzle->cell[m] = 0;
        if (cover_ws_count(w, puzzle, 2, &check, NULL, NULL, &count, NULL) !=
                COVER_OK ||
            count != 1) {
            puzzle->cell[c] = solution->cell[c];
            puzzle->cell[m] = solution->cell[m];
        }
    }
    return COVER_OK;
}

static enum cover_status generate(const struct cover_rules *r, uint64_t seed,
                                  uint64_t max_us, int symmetric,
                                  struct cover_grid *puzzle,
                                  struct cover_grid *solution)
{
    uint64_t start = clock_now_us();
    struct rng rng;
    struct cover_ws *w = cover_ws_new(r);
    enum cover_status st;

    if (!w)
        return COVER_NO_MEMORY;
    rng_seed(&rng, seed);
    st = fill(w, &rng, start, max_us, solution);
    if (st == COVER_OK) {
        *puzzle = *solution;
        st = blank(w, &rng, start, max_us, symmetric, solution, puzzle);
    }
    cover_ws_free(w);
    return st;
}

enum cover_status cover_generate(const struct cover_rules *r, uint64_t seed,
                                 uint64_t max_us, struct cover_grid *puzzle,
                                 struct cover_grid *solution)
{
    return generate(r, seed, max_us, 0, puzzle, solution);
}

enum cover_status cover_generate_symmetric(const struct cover_rules *r,
                                           uint64_t seed, uint64_t max_us,
                                           struct cover_grid *puzzle,
                                           struct cover_grid *solution)
{
    return generate(r, seed, max_us, 1, puzzle, solution);
}
