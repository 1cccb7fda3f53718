/* killer.h - killer sudoku: cages (groups of cells whose digits are distinct
 * and add up to a given sum) on top of the 9x9 rules. Checking a cage list
 * against a board, and a solver that counts solutions like sudoku_count.
 * Knows nothing of HTTP or JSON; fully reentrant, no heap. */
#ifndef KILLER_H
#define KILLER_H

#include <stddef.h>
#include <stdint.h>

#include "budget.h"
#include "sudoku.h"

/* A list never holds more cells (of all its cages together) or cages than
 * this: one more than the grid has, so that a longer list cut here still
 * shows what is wrong with it (82 cells cannot all be distinct cells of the
 * grid, so killer_check finds one out of range or one listed twice). */
#define KILLER_MAX_CELLS (SUDOKU_CELLS + 1)

/* One cage: `ncells` cells starting at index `first` of the list's row[] and
 * col[] arrays, and the sum its digits must have. Values are kept as given
 * (a row may be 12 or -1, a sum 0 or 1000000): killer_check judges them. */
struct killer_cage {
    int sum;
    unsigned first, ncells;
};

/* A cage list, filled with killer_init, killer_add_cage, killer_add_cell.
 * Cells are 0-based [row, column] pairs as sent, not yet checked. */
struct killer_cages {
    unsigned ncages, ncells;
    int truncated; /* more was added than fits; killer_check will fail */
    struct killer_cage cage[KILLER_MAX_CELLS];
    int row[KILLER_MAX_CELLS], col[KILLER_MAX_CELLS];
};

enum killer_status {
    KILLER_OK = 0,
    KILLER_CELL_OUT_OF_RANGE, /* a row or column outside 0-8 */
    KILLER_OVERLAP,           /* a cell in two cages, or twice in one */
    KILLER_NOT_CONNECTED,     /* a cage's cells do not touch side by side */
    KILLER_SUM_IMPOSSIBLE,    /* k distinct digits cannot add up to the sum */
    KILLER_TOTAL_NOT_405,     /* the cages cover the grid; sums total != 405 */
    KILLER_GIVEN_CONFLICT,    /* a cage's givens repeat a digit or make its
                                 sum unreachable */
    KILLER_BUDGET,            /* killer_count: the budget (nodes or CPU
                                 time) ran out */
    KILLER_BAD_TEXT,          /* killer_parse: not in the text format */
};

/* What killer_check found, for the error location. `cage` is the index of
 * the offending cage (-1 for KILLER_TOTAL_NOT_405), `other_cage` for
 * KILLER_OVERLAP the cage that listed the cell first (== cage when one cage
 * lists it twice), `total` for KILLER_TOTAL_NOT_405 the sum of all cages.
 * row[]/col[] hold `ncells` cells as [row, column]: the cell out of range
 * or listed twice, the cells cut off from the cage's first cell, every
 * cell of a cage with an impossible sum, the two equal givens of a cage,
 * or all the givens of a cage whose sum they leave unreachable. */
struct killer_error {
    int cage, other_cage;
    int sum;        /* the cage's sum (SUM_IMPOSSIBLE, GIVEN_CONFLICT) */
    unsigned digit; /* GIVEN_CONFLICT: the repeated given, 0 when the
                       givens are distinct but leave the sum unreachable */
    long total;
    unsigned ncells;
    int row[KILLER_MAX_CELLS], col[KILLER_MAX_CELLS];
};

/* Empties *k. */
void killer_init(struct killer_cages *k);

/* Starts a new cage with `sum`; killer_add_cell adds cells to the last
 * cage started. When the list is full, nothing is stored and
 * k->truncated is set: keep going, killer_check reports the list. */
void killer_add_cage(struct killer_cages *k, int sum);
void killer_add_cell(struct killer_cages *k, int row, int col);

/* The text format of a cage list (the sudoku CLI's, after the board and a
 * '|'): cages separated by ';', each a sum, ':' and its cells separated by
 * ','; a cell is two digits, row then column, counting from 1 ("11" is the
 * top left cell, "99" the bottom right). Blanks around the tokens are
 * allowed. Example: "3:11,12;15:13,23,33". Parses `len` characters of
 * `text` into *out (killer_init first); the text ends at `len` or at a
 * '|'. A digit 0 as row or column is read as -1, for killer_check to
 * report. On KILLER_BAD_TEXT, *bad_index (if not NULL) is the offset of
 * the first character that does not fit. The cages are not checked. */
enum killer_status killer_parse(const char *text, size_t len,
                                struct killer_cages *out, size_t *bad_index);

/* Writes k in the text format into out (NUL-terminated; cells out of 0-8
 * are written as 0). Returns the length it needs, like snprintf. */
size_t killer_format(const struct killer_cages *k, char *out, size_t size);

/* Checks the cages against the givens of `puzzle`, in this order (the first
 * problem found is reported, in cage order): every cell in range, no cell
 * twice, each cage connected (side by side), each sum possible for its size
 * (from 1+2+...+k to 9+8+...; no cage over 9 cells), when the cages cover
 * all 81 cells the sums total 405, and each cage's givens distinct and
 * leaving a reachable sum for its blank cells. A cage with no cell is never
 * produced by the decoders; here it is KILLER_SUM_IMPOSSIBLE. Cells outside
 * every cage are fine. The 9x9 rules of the givens are not checked
 * (sudoku_conflicts does). *err (may be NULL) says where. */
enum killer_status killer_check(const struct sudoku_grid *puzzle,
                                const struct killer_cages *k,
                                struct killer_error *err);

/* Writes one sentence about (st, *err) into out (always NUL-terminated).
 * Cage numbers, rows and columns are shown counting from `base` (0 for the
 * HTTP API, 1 for the command line). */
void killer_describe(enum killer_status st, const struct killer_error *err,
                     int base, char *out, size_t size);

/* The digit sets (bit d-1 for digit d) of `size` distinct digits adding up
 * to `sum`: *out points to a static constant array of the returned count
 * (0 when there is none, or size/sum are out of range). */
unsigned killer_combinations(int size, int sum, const uint16_t **out);

/* Counts the solutions of `puzzle` under the 9x9 rules and the cages, like
 * sudoku_count: stops at `limit` (>= 1), writes the first solution to
 * *solution (may be NULL), max_nodes bounds the work (0: no bound;
 * KILLER_BUDGET when it runs out, *count holds what was found), stats may
 * be NULL. The cages are checked first with killer_check: on a problem its
 * status is returned, *count is 0 and nothing is searched. Givens that
 * break the 9x9 rules give 0 solutions. Uses about 60 KB of stack at most,
 * no heap. */
enum killer_status killer_count(const struct sudoku_grid *puzzle,
                                const struct killer_cages *k, unsigned limit,
                                uint64_t max_nodes,
                                struct sudoku_grid *solution, unsigned *count,
                                struct sudoku_stats *stats);

/* killer_count within *budget (budget.h): its nodes and its deadline on
 * the calling thread's CPU clock, KILLER_BUDGET when either runs out. */
enum killer_status killer_count_budget(
    const struct sudoku_grid *puzzle, const struct killer_cages *k,
    unsigned limit, const struct search_budget *budget,
    struct sudoku_grid *solution, unsigned *count, struct sudoku_stats *stats);

#endif
