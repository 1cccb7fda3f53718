/* codec_teach.h - the answers of /hint, /grade and /explain for killer and
 * the variants (the general logic engine, teach.h), in the shape of the
 * classic ones (codec.h): a step is {technique, rating, links, placements,
 * eliminations, units, cells, digits} plus, for cage and 45-rule steps,
 * "sum" and "combinations". Cells are [row, column], 0-based. Every builder
 * returns a heap string (length in *len) or NULL when out of memory. */
#ifndef CODEC_TEACH_H
#define CODEC_TEACH_H

#include <stddef.h>
#include <stdint.h>

#include "codec.h"
#include "teach.h"

/* The rating scale the answers name in "rating_scale": the hardest step's
 * base rating (docs/logic.md, "Variants and killer"), not Sudoku
 * Explainer's. */
#define CODEC_TEACH_SCALE "sudokud_variant"

/* POST /hint: as codec_hint. `technique` (NULL: the step's) names a step
 * that is not a deduction ("from_solution"); next (may be NULL) is the
 * first placement reached after next_steps steps. */
struct codec_teach_hint {
    const struct teach_puzzle *puzzle;
    const struct teach_step *step;
    const char *technique;
    const char *explanation;
    int stuck;
    const struct teach_step *next;
    unsigned next_steps;
};
char *codec_encode_teach_hint(const struct codec_teach_hint *h, size_t *len);

/* POST /grade: the fields of the classic grade from a walk, and
 * "rating_scale". */
char *codec_encode_teach_grade(const struct teach_walk *w, size_t *len);

/* POST /explain: as codec_explain; the solution is n * n characters
 * (cover_format's) written in `shape`. */
struct codec_teach_explain {
    const struct teach_puzzle *puzzle;
    const struct teach_step *steps;
    const char *const *explanations;
    size_t nsteps;
    int complete;
    const char *stopped;
    unsigned level; /* enum logic_level */
    unsigned rating;
    const char *solution;
    enum codec_shape shape;
    unsigned max_logic_ms;
    uint64_t explain_us;
};
char *codec_encode_teach_explain(const struct codec_teach_explain *e,
                                 size_t *len);

/* POST /generate {"killer": true}: {"puzzle" (a line), "solution", "cages"
 * ([{"sum", "cells"}], as /solve takes them), "difficulty", "seed" (all its
 * digits), "givens", "attempts", "generate_us", "grade" (as /grade)}. */
struct codec_teach_generated {
    const struct teach_killer *killer;
    uint64_t seed;
};
char *codec_encode_teach_generated(const struct codec_teach_generated *g,
                                   size_t *len);

#endif
