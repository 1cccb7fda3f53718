/* serate.h - Sudoku Explainer's ratings: ER, EP and ED exactly as SE 1.2.1.3
 * (gsf's serate, the rater the forum's lists use) computes them, one step
 * at a time in SE's technique order. No allocation beyond a bounded work
 * area per call, no global state: reentrant. Method: docs/rating.md. */
#ifndef SERATE_H
#define SERATE_H

#include <stddef.h>
#include <stdint.h>

enum serate_status {
    SERATE_OK = 0,
    SERATE_INVALID, /* breaks the rules, or not exactly one solution */
    SERATE_NOMEM,   /* the work area could not be allocated */
};

/* What SE took for one step: its technique name ("Hidden Single", "Forcing
 * X-Chain", "Dynamic Forcing Chains (+)"...), its rating in tenths and, for
 * a step that places a digit, the cell (0-80, row-major) and the digit;
 * cell is -1 for an elimination. */
struct serate_step {
    char name[72];
    uint8_t rating;
    int8_t cell;   /* the cell placed (0-80), -1 for none */
    uint8_t digit; /* the digit placed, 0 for none */
    /* The candidates the step takes away that the grid still had, per
     * cell: bit d - 1 for digit d (SE's direct hints only place). */
    uint16_t removed[81];
};

struct serate_options {
    /* CPU budget in milliseconds (CLOCK_THREAD_CPUTIME_ID); 0: no limit.
     * Past it the rating stops and the result is a lower bound. */
    long max_ms;
    /* Deepest chaining level tried: 0 dynamic chains (<= 9.0), 1 dynamic
     * chains (+), 2-5 SE's nested chains. SERATE_LEVEL_ALL is SE's own. */
    int max_level;
    /* Where to record the steps (NULL: not wanted) and how many fit; the
     * steps past max_steps are counted but not stored. */
    struct serate_step *steps;
    size_t max_steps;
};

#define SERATE_LEVEL_ALL 5

/* SE's three numbers, in tenths (ER 1.0-12.0 is 10-120). */
struct serate_result {
    int er; /* the hardest step on the way to the solution */
    int ep; /* pearl: the hardest step up to the first placement */
    int ed; /* diamond: the rating of the first step */
    /* 1 when the budget ran out (or a needed level was off): er is then
     * the hardest step taken so far, a lower bound, and ep (ed) stays 0
     * if no placement (no step) was reached. */
    int lower_bound;
    size_t nsteps; /* steps taken (all, even past max_steps) */
    /* SE's name of the hardest step (the first step rated er), "" when no
     * step was taken. */
    char hardest[72];
};

/* Fills *opt with the defaults: no time limit, every level, no steps. */
void serate_options_init(struct serate_options *opt);

/* Rates the puzzle `cells` (row-major, 0 blank, 1-9 a digit) as SE 1.2.1.3
 * does. opt may be NULL (the defaults); opt->steps stays the caller's and
 * receives at most max_steps entries. Returns SERATE_INVALID unless the
 * puzzle has exactly one solution, SERATE_NOMEM when the work area (about
 * 8 MB at most) cannot be allocated; *res is then zeroed. Everything the
 * call allocates is freed before it returns. */
enum serate_status serate_rate(const uint8_t cells[81],
                               const struct serate_options *opt,
                               struct serate_result *res);

#endif
