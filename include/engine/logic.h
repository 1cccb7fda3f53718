/* logic.h - the logic engine: solves a board the way a person does, one
 * named technique at a time, on a grid of pencil marks (candidates). No HTTP,
 * no JSON, no allocation; reentrant (every function works on its arguments).
 * Steps are values: what a technique places or eliminates and where. */
#ifndef LOGIC_H
#define LOGIC_H

#include <stddef.h>
#include <stdint.h>

#include "sudoku.h"

/* The techniques. logic_step tries them in the order of their base
 * ratings (hidden single first), not in this order. */
enum logic_technique {
    LOGIC_NAKED_SINGLE = 0,
    LOGIC_HIDDEN_SINGLE,
    LOGIC_POINTING, /* locked candidates 1: a box's digit on one line */
    LOGIC_CLAIMING, /* locked candidates 2: a line's digit in one box */
    LOGIC_NAKED_PAIR,
    LOGIC_HIDDEN_PAIR,
    LOGIC_NAKED_TRIPLE,
    LOGIC_HIDDEN_TRIPLE,
    LOGIC_NAKED_QUAD,
    LOGIC_HIDDEN_QUAD,
    LOGIC_X_WING,
    LOGIC_SWORDFISH,
    LOGIC_XY_WING,
    LOGIC_XYZ_WING,
    LOGIC_JELLYFISH,
    /* Uniqueness: sound because every board is first proven to have exactly
     * one solution (the callers insist on it before asking for a step). */
    LOGIC_UNIQUE_RECTANGLE_1,
    LOGIC_UNIQUE_RECTANGLE_2,
    LOGIC_UNIQUE_RECTANGLE_3, /* the roof's extras in a naked subset */
    LOGIC_UNIQUE_RECTANGLE_4,
    LOGIC_BUG_PLUS_1,
    /* Single-digit chains of four nodes (turbot fish), then finned fish. */
    LOGIC_SKYSCRAPER,
    LOGIC_TWO_STRING_KITE,
    LOGIC_EMPTY_RECTANGLE,
    LOGIC_FINNED_X_WING, /* finned or sashimi */
    LOGIC_FINNED_SWORDFISH,
    LOGIC_FINNED_JELLYFISH,
    /* Chains (steps carry the chain in `links`). */
    LOGIC_W_WING,
    LOGIC_REMOTE_PAIRS,
    LOGIC_XY_CHAIN,
    LOGIC_X_CHAIN, /* X-chains and simple colouring */
    LOGIC_ALS_XZ,
    LOGIC_ALS_XY_WING, /* three almost locked sets */
    LOGIC_AIC,         /* alternating inference chain, grouped nodes */
    /* The last resort: an assumption followed to a contradiction, or every
     * candidate of a cell or of a digit in a unit followed to one common
     * conclusion. Chains propagate singles only; nets nest chains. */
    LOGIC_FORCING_CHAIN,
    LOGIC_CELL_FORCING,
    LOGIC_UNIT_FORCING,
    LOGIC_FORCING_NET,
    LOGIC_NTECHNIQUES
};

/* Difficulty levels, from the rating (see logic_rating_level): a puzzle's
 * level is its rating's, LOGIC_EXTREME when the engine stops before the end:
 *   easy     rating up to 2.3   singles
 *   medium   up to 3.4          locked candidates, naked/hidden pair, X-wing
 *   hard     up to 4.6          triples, swordfish, XY/XYZ-wing, rectangles
 *   expert   up to 7.4          quads, jellyfish, BUG, fish with fins,
 *                               chains, ALS, AICs
 *   extreme  7.5 and more       forcing chains and nets */
enum logic_level {
    LOGIC_EASY = 0,
    LOGIC_MEDIUM,
    LOGIC_HARD,
    LOGIC_EXPERT,
    LOGIC_EXTREME,
    LOGIC_NLEVELS
};

enum logic_status {
    LOGIC_OK = 0,        /* a step was found / the grade is complete */
    LOGIC_SOLVED,        /* logic_step: no blank cell is left */
    LOGIC_STUCK,         /* no implemented technique applies */
    LOGIC_CONTRADICTION, /* the board breaks the rules, a cell has no
                            candidate or a digit no place in some unit */
    LOGIC_BUDGET,        /* the time or step budget ran out first */
};

/* Pencil marks. value[i] is 0 for a blank or the digit 1-9; for a blank,
 * bit d-1 of cand[i] is set while d is still possible there (bits 0-8):
 *     cand:  . . . . . . . 9 8 7 6 5 4 3 2 1
 * A placed cell has cand 0. Cells are row-major, 0-80. */
struct logic_grid {
    uint8_t value[SUDOKU_CELLS];
    uint16_t cand[SUDOKU_CELLS];
};

/* One digit placed in, or removed from, one cell. */
struct logic_move {
    uint8_t cell;  /* 0-80 */
    uint8_t digit; /* 1-9 */
};

/* A row, column or box, numbered 0-8 like sudoku_conflict. */
struct logic_unit {
    enum sudoku_unit unit;
    uint8_t index;
};

#define LOGIC_MAX_PLACEMENTS 1
#define LOGIC_MAX_ELIMINATIONS 48
#define LOGIC_MAX_UNITS 8
#define LOGIC_MAX_CELLS 16
#define LOGIC_MAX_LINKS 40

/* One node of a chain: a digit in a cell, or in up to three cells of one
 * box and line (a grouped node, ncells > 1). `link` says how this node
 * leads to the next one: LOGIC_LINK_STRONG (if this is false, the next is
 * true), LOGIC_LINK_WEAK (if this is true, the next is false),
 * LOGIC_LINK_THEN (a forcing chain's "this is placed, so next is placed"),
 * LOGIC_LINK_END on the last node. */
enum logic_link_kind {
    LOGIC_LINK_STRONG = 0,
    LOGIC_LINK_WEAK,
    LOGIC_LINK_THEN,
    LOGIC_LINK_END,
};

struct logic_link {
    uint8_t cells[3];
    uint8_t ncells;
    uint8_t digit;
    uint8_t link; /* enum logic_link_kind */
};

/* One step. `cells` are the cells of the pattern (the single, the pair, the
 * fish's corners, the wing's pivot then pincers), `digits` the pattern's
 * digits as a candidate mask; `units` the units it reasons about (for fish:
 * the base lines, then the cover lines). Every elimination removes a digit
 * that is a candidate, so applying a step always changes the grid. */
struct logic_step {
    enum logic_technique technique;
    uint16_t digits;
    uint8_t nplacements, neliminations, nunits, ncells, nlinks;
    uint8_t rating;       /* tenths: 23 is 2.3 (see logic_step_rating) */
    uint8_t depth;        /* forcing: 0 for chains, 1+ for nested nets;
                             finned fish: 1 when sashimi */
    uint8_t chain_length; /* nodes followed (chains, forcing) */
    struct logic_move placements[LOGIC_MAX_PLACEMENTS];
    struct logic_move eliminations[LOGIC_MAX_ELIMINATIONS];
    struct logic_unit units[LOGIC_MAX_UNITS];
    uint8_t cells[LOGIC_MAX_CELLS];
    struct logic_link links[LOGIC_MAX_LINKS];
};

/* A budget for the searches: a deadline on CLOCK_MONOTONIC in
 * microseconds (0: none). The harder techniques look at the clock now and
 * then and give up with LOGIC_BUDGET once it has passed. A value the caller
 * owns, so the engine stays reentrant. */
struct logic_budget {
    uint64_t deadline_us;
    unsigned max_rating; /* tenths, 0: none; techniques rated above it are
                            not tried (the search is then LOGIC_STUCK) */
};

/* Fills *g from a board: givens placed, every blank's candidates the digits
 * that its row, column and box do not hold. Returns LOGIC_CONTRADICTION when
 * a digit occurs twice in a unit (g is filled anyway), LOGIC_OK otherwise. */
enum logic_status logic_init(struct logic_grid *g,
                             const struct sudoku_grid *board);

/* Finds the simplest step that applies to g and writes it to *out: the first
 * technique in the order of the base ratings (see enum logic_technique)
 * that changes something, scanning rows, then columns, then boxes, then
 * cells in order. Returns LOGIC_OK with *out set,
 * or LOGIC_SOLVED, LOGIC_STUCK or LOGIC_CONTRADICTION (out untouched). */
enum logic_status logic_step(const struct logic_grid *g,
                             struct logic_step *out);

/* logic_step within a budget (NULL: none): LOGIC_BUDGET when the deadline
 * passed before a step was found. */
enum logic_status logic_step_budget(const struct logic_grid *g,
                                    const struct logic_budget *b,
                                    struct logic_step *out);

/* Applies a step: places its placements (removing the digit from the peers'
 * candidates) and removes its eliminations. */
void logic_apply(struct logic_grid *g, const struct logic_step *s);

/* Writes the cells of g into *board (blanks as 0). */
void logic_board(const struct logic_grid *g, struct sudoku_grid *board);

/* What solving a board by logic alone took. */
struct logic_grade {
    unsigned counts[LOGIC_NTECHNIQUES]; /* steps of each technique */
    unsigned steps;                     /* all steps */
    int hardest;        /* enum logic_technique, -1 when no step was needed */
    int needs_guessing; /* the engine got stuck before the end */
    enum logic_level level;
    unsigned blanks_left; /* blank cells when the engine stopped */
    unsigned rating;      /* tenths: the hardest step's rating (10 when no
                             step was needed) */
    int budget_out;       /* the budget (time or steps) ended the grade */
};

/* Applies logic_step until the board is solved or the engine is stuck, and
 * fills *out. Returns LOGIC_OK (solved or stuck: see out->needs_guessing)
 * or LOGIC_CONTRADICTION for a board that breaks the rules or has no
 * solution that logic could reach (out then holds the counts so far).
 * When `end` is not NULL it receives the grid as the engine left it. */
enum logic_status logic_grade(const struct sudoku_grid *board,
                              struct logic_grade *out, struct logic_grid *end);

/* logic_grade within limits: at most max_us microseconds and max_steps
 * steps (0: no bound). When either runs out, out->budget_out and
 * out->needs_guessing are set and the level is extreme; the return is
 * LOGIC_BUDGET. max_rating (tenths, 0: none) leaves out the techniques
 * rated above it: the grade is then "stuck" where they would be needed
 * (the generator uses it to dig for a level without paying for the
 * forcing searches). */
struct logic_limits {
    uint64_t max_us;
    unsigned max_steps;
    unsigned max_rating;
};
enum logic_status logic_grade_budget(const struct sudoku_grid *board,
                                     const struct logic_limits *lim,
                                     struct logic_grade *out,
                                     struct logic_grid *end);

/* The step a hint falls back on when no technique finds one (in time): the
 * blank of g with the fewest candidates (the first such in row-major
 * order: the cell a person would most likely try), with its digit from
 * `solution`, which must be g's solution. *out is zeroed, then holds that
 * one placement, its cell and its digit mask; technique and rating stay 0
 * and mean nothing (callers name the step "from the solution"). Returns 0,
 * or -1 when g has no blank (out untouched). */
int logic_fallback_step(const struct logic_grid *g,
                        const struct sudoku_grid *solution,
                        struct logic_step *out);

/* No walk takes more steps than this: each step removes at least one of
 * the 729 candidates. */
#define LOGIC_WALK_MAX_STEPS (SUDOKU_CELLS * SUDOKU_SIZE)

/* What a walk (logic_walk) did. */
struct logic_walk {
    size_t nsteps;            /* steps taken, in steps[0..nsteps-1] */
    enum logic_status status; /* why it stopped: LOGIC_SOLVED, LOGIC_STUCK,
                                 LOGIC_BUDGET, LOGIC_CONTRADICTION, or
                                 LOGIC_OK when max_steps came first */
    unsigned rating;          /* tenths: the hardest step's, 10 without
                                 steps */
    int hardest;              /* enum logic_technique of that step (the
                                 later technique on a tie), -1 without steps */
    enum logic_level level;   /* the rating's when solved (easy without
                                 steps), LOGIC_EXTREME otherwise */
};

/* The explain walk: from the board's candidates, takes logic_step_budget's
 * step and applies it, up to max_steps steps (LOGIC_WALK_MAX_STEPS: all),
 * writing each to steps[]; then fills *out. b (NULL: none) is the budget of
 * the whole walk. rating, hardest and level follow logic_grade's rules, so
 * a walk that solves the board agrees with logic_grade. Returns
 * out->status. No allocation: the caller owns steps[]. */
enum logic_status logic_walk(const struct sudoku_grid *board,
                             const struct logic_budget *b,
                             struct logic_step *steps, size_t max_steps,
                             struct logic_walk *out);

/* The level of a rating in tenths (see enum logic_level), and the highest
 * rating of a level. */
enum logic_level logic_rating_level(unsigned rating);
unsigned logic_level_max_rating(enum logic_level l);

/* snake_case names: "naked_single", "locked_candidates_pointing", ...;
 * "easy" ... "extreme". NULL when out of range. */
const char *logic_technique_name(enum logic_technique t);
const char *logic_level_name(enum logic_level l);

/* The level a technique belongs to: its base rating's level. */
enum logic_level logic_technique_level(enum logic_technique t);

/* Parses a level name; returns 0 and sets *out, or -1 for an unknown name. */
int logic_level_parse(const char *name, enum logic_level *out);

/* Writes a plain-English sentence or two about the step into buf (always
 * NUL-terminated when size > 0). Rows, columns, boxes and cells are 0-based,
 * cells as [row,column], as everywhere in the API. Returns the length the
 * full text has (like snprintf). */
size_t logic_explain(const struct logic_step *s, char *buf, size_t size);

#endif
