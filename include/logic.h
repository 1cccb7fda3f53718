/* logic.h - the logic engine: solves a board the way a person does, one
 * named technique at a time, on a grid of pencil marks (candidates). No HTTP,
 * no JSON, no allocation; reentrant (every function works on its arguments).
 * Steps are values: what a technique places or eliminates and where. */
#ifndef LOGIC_H
#define LOGIC_H

#include <stddef.h>
#include <stdint.h>

#include "sudoku.h"

/* The techniques, simplest first: logic_step tries them in this order. */
enum logic_technique {
    LOGIC_NAKED_SINGLE = 0,
    LOGIC_HIDDEN_SINGLE,
    LOGIC_POINTING,       /* locked candidates 1: a box's digit on one line */
    LOGIC_CLAIMING,       /* locked candidates 2: a line's digit in one box */
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
    LOGIC_NTECHNIQUES
};

/* Difficulty levels. A puzzle's level is the highest level among the
 * techniques it needs, LOGIC_EXTREME when the engine gets stuck:
 *   easy     naked single, hidden single
 *   medium   pointing, claiming, naked pair, hidden pair
 *   hard     naked/hidden triple, naked/hidden quad, X-wing
 *   expert   swordfish, XY-wing, XYZ-wing, jellyfish
 *   extreme  none of the above finishes the puzzle: guessing is needed */
enum logic_level {
    LOGIC_EASY = 0,
    LOGIC_MEDIUM,
    LOGIC_HARD,
    LOGIC_EXPERT,
    LOGIC_EXTREME,
    LOGIC_NLEVELS
};

enum logic_status {
    LOGIC_OK = 0,         /* a step was found / the grade is complete */
    LOGIC_SOLVED,         /* logic_step: no blank cell is left */
    LOGIC_STUCK,          /* no implemented technique applies */
    LOGIC_CONTRADICTION,  /* the board breaks the rules, a cell has no
                             candidate or a digit no place in some unit */
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
    uint8_t cell;   /* 0-80 */
    uint8_t digit;  /* 1-9 */
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

/* One step. `cells` are the cells of the pattern (the single, the pair, the
 * fish's corners, the wing's pivot then pincers), `digits` the pattern's
 * digits as a candidate mask; `units` the units it reasons about (for fish:
 * the base lines, then the cover lines). Every elimination removes a digit
 * that is a candidate, so applying a step always changes the grid. */
struct logic_step {
    enum logic_technique technique;
    uint16_t digits;
    uint8_t nplacements, neliminations, nunits, ncells;
    struct logic_move placements[LOGIC_MAX_PLACEMENTS];
    struct logic_move eliminations[LOGIC_MAX_ELIMINATIONS];
    struct logic_unit units[LOGIC_MAX_UNITS];
    uint8_t cells[LOGIC_MAX_CELLS];
};

/* Fills *g from a board: givens placed, every blank's candidates the digits
 * that its row, column and box do not hold. Returns LOGIC_CONTRADICTION when
 * a digit occurs twice in a unit (g is filled anyway), LOGIC_OK otherwise. */
enum logic_status logic_init(struct logic_grid *g,
                             const struct sudoku_grid *board);

/* Finds the simplest step that applies to g and writes it to *out: the first
 * technique in enum order that changes something, scanning rows, then
 * columns, then boxes, then cells in order. Returns LOGIC_OK with *out set,
 * or LOGIC_SOLVED, LOGIC_STUCK or LOGIC_CONTRADICTION (out untouched). */
enum logic_status logic_step(const struct logic_grid *g,
                             struct logic_step *out);

/* Applies a step: places its placements (removing the digit from the peers'
 * candidates) and removes its eliminations. */
void logic_apply(struct logic_grid *g, const struct logic_step *s);

/* Writes the cells of g into *board (blanks as 0). */
void logic_board(const struct logic_grid *g, struct sudoku_grid *board);

/* What solving a board by logic alone took. */
struct logic_grade {
    unsigned counts[LOGIC_NTECHNIQUES]; /* steps of each technique */
    unsigned steps;                      /* all steps */
    int hardest;          /* enum logic_technique, -1 when no step was needed */
    int needs_guessing;   /* the engine got stuck before the end */
    enum logic_level level;
    unsigned blanks_left; /* blank cells when the engine stopped */
};

/* Applies logic_step until the board is solved or the engine is stuck, and
 * fills *out. Returns LOGIC_OK (solved or stuck: see out->needs_guessing)
 * or LOGIC_CONTRADICTION for a board that breaks the rules or has no
 * solution that logic could reach (out then holds the counts so far).
 * When `end` is not NULL it receives the grid as the engine left it. */
enum logic_status logic_grade(const struct sudoku_grid *board,
                              struct logic_grade *out, struct logic_grid *end);

/* snake_case names: "naked_single", "locked_candidates_pointing", ...;
 * "easy" ... "extreme". NULL when out of range. */
const char *logic_technique_name(enum logic_technique t);
const char *logic_level_name(enum logic_level l);

/* The level a technique belongs to (see enum logic_level). */
enum logic_level logic_technique_level(enum logic_technique t);

/* Parses a level name; returns 0 and sets *out, or -1 for an unknown name. */
int logic_level_parse(const char *name, enum logic_level *out);

/* Writes a plain-English sentence or two about the step into buf (always
 * NUL-terminated when size > 0). Rows, columns, boxes and cells are 0-based,
 * cells as [row,column], as everywhere in the API. Returns the length the
 * full text has (like snprintf). */
size_t logic_explain(const struct logic_step *s, char *buf, size_t size);

#endif
