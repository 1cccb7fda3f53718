/* generate.h - puzzle generation: a random full grid, holes dug while the
 * solution stays unique (and, below extreme, while the logic engine rates
 * it within the level), then rated by the SE rater (serate.h) until SE's
 * ER falls in the requested level or range. Deterministic for a seed and
 * options (unless the time bound cuts in), reentrant: the random state is a
 * value the caller owns. */
#ifndef GENERATE_H
#define GENERATE_H

#include <stdint.h>

#include "logic.h"
#include "rng.h"
#include "serate.h"
#include "sudoku.h"

/* Which cells are blanked together. */
enum generate_symmetry {
    GENERATE_NONE = 0,
    GENERATE_ROTATIONAL, /* [r,c] with [8-r,8-c] (180 degrees) */
    GENERATE_DIAGONAL,   /* [r,c] with [c,r] (main diagonal) */
    GENERATE_NSYMMETRIES
};

enum generate_status {
    GENERATE_OK = 0, /* out->puzzle has the requested level (SE's ER) */
    GENERATE_MISSED, /* the attempt or time budget ran out: out holds the
                        puzzle whose level came closest */
};

/* Levels and ratings are SE's ER (serate.h), in the bands of
 * logic_rating_level. */
struct generate_options {
    enum logic_level level; /* LOGIC_NLEVELS: any, the ratings decide */
    uint64_t seed;
    enum generate_symmetry symmetry;
    unsigned min_rating;   /* tenths of SE's ER; 0: the level's lowest */
    unsigned max_rating;   /* tenths of SE's ER; 0: the level's highest */
    unsigned max_attempts; /* full grids tried at most (deterministic) */
    uint64_t max_us;       /* wall-clock bound in microseconds, 0: none */
};

/* Defaults: 2000 attempts, 2 seconds. */
void generate_options_init(struct generate_options *o, enum logic_level level,
                           uint64_t seed);

struct generate_result {
    struct sudoku_grid puzzle, solution;
    struct serate_result se;  /* SE's ER/EP/ED of puzzle */
    enum logic_level level;   /* SE's ER's level (extreme if a bound) */
    struct logic_grade grade; /* the logic engine's counts of puzzle */
    unsigned attempts;        /* full grids tried */
    unsigned givens;
    uint64_t took_us;
    int timed_out; /* the time bound ended the search */
};

/* Generates a puzzle with exactly one solution. Returns GENERATE_OK when
 * SE's ER puts it in opt->level and within [min_rating, max_rating] (where
 * set), GENERATE_MISSED with the closest one found (always a valid unique
 * puzzle) when the budget ran out. */
enum generate_status generate_puzzle(const struct generate_options *opt,
                                     struct generate_result *out);

/* A random complete grid (valid solution) drawn from r. */
void generate_full_grid(struct rng *r, struct sudoku_grid *out);

/* "none", "rotational", "diagonal"; parse returns 0 or -1 when unknown. */
const char *generate_symmetry_name(enum generate_symmetry s);
int generate_symmetry_parse(const char *name, enum generate_symmetry *out);

#endif
