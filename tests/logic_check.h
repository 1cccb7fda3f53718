/* logic_check.h - independent checks for the logic and generator tests:
 * a brute-force search over a candidate grid (is a step sound?) and a small
 * solver with the easy and medium techniques only. Written plainly in the
 * tests, they share no code with src/logic*.c, so they can judge it. */
#ifndef LOGIC_CHECK_H
#define LOGIC_CHECK_H

#include "logic.h"
#include "sudoku.h"

/* Is there a solution of the candidate grid g (placed cells as they are,
 * each blank one of its candidates, the rules kept) with `digit` at
 * `cell`? An exhaustive search with singles propagation. */
int logic_check_possible(const struct logic_grid *g, int cell, int digit);

/* Fails the test unless every elimination of s removes a candidate that no
 * solution of g has, and every placement puts the digit that every
 * solution of g has there (and g has one). */
void logic_check_sound(const struct logic_grid *g, const struct logic_step *s);

/* The techniques the independent solver may use: singles only (easy), or
 * also locked candidates, naked and hidden pairs and X-wings (every
 * technique rated up to 3.4, medium). */
enum logic_check_set { LOGIC_CHECK_SINGLES = 0, LOGIC_CHECK_MEDIUM };

/* 1 when the techniques of `set`, applied until none applies, solve the
 * board (a puzzle with one solution), else 0. */
int logic_check_solves(const struct sudoku_grid *board,
                       enum logic_check_set set);

#endif
