/* sudoku.h - the solver library: 9x9 grids, the rules, solving and counting.
 * Knows nothing of HTTP, JSON, threads or config. Fully reentrant: every
 * function works only on its arguments, so any number of threads may call
 * it at once. */
#ifndef SUDOKU_H
#define SUDOKU_H

#include <stddef.h>
#include <stdint.h>

#define SUDOKU_SIZE 9
#define SUDOKU_CELLS 81

/* A board, row-major: cell[r * 9 + c]. 0 is a blank, 1-9 a digit. */
struct sudoku_grid {
    uint8_t cell[SUDOKU_CELLS];
};

enum sudoku_status {
    SUDOKU_OK = 0,
    SUDOKU_BAD_LENGTH, /* text is not exactly 81 characters */
    SUDOKU_BAD_CHAR,   /* a character other than '.', '0' or '1'-'9' */
    SUDOKU_BUDGET,     /* the node budget ran out before the search ended */
};

enum sudoku_unit { SUDOKU_ROW = 0, SUDOKU_COLUMN, SUDOKU_BOX };

/* One rule broken: `digit` occurs `ncells` (2-9) times in unit `unit` number
 * `index` (0-8; boxes numbered left to right, top to bottom). `cells` holds
 * the cell indices (0-80, row-major) in increasing order. */
struct sudoku_conflict {
    enum sudoku_unit unit;
    uint8_t index;
    uint8_t digit;
    uint8_t ncells;
    uint8_t cells[SUDOKU_SIZE];
};

/* What one search did. `nodes` counts every search state entered (the root
 * and each alternative tried at a branch point: a digit in a cell, or a
 * digit's placement pattern in a band or stack), `guesses` the branch points
 * where more than one alternative had to be tried. */
struct sudoku_stats {
    uint64_t nodes;
    uint64_t guesses;
};

/* Parses `len` characters of `text` ('.' or '0' blank, '1'-'9' digit) into
 * *out. Returns SUDOKU_BAD_LENGTH unless len == 81, SUDOKU_BAD_CHAR with the
 * index of the first bad character in *bad_index (if not NULL). *out is only
 * written on SUDOKU_OK. Does not check the rules. */
enum sudoku_status sudoku_parse(const char *text, size_t len,
                                struct sudoku_grid *out, size_t *bad_index);

/* Writes the board as 81 characters ('.' for blanks, digits otherwise) plus a
 * terminating NUL into out. */
void sudoku_format(const struct sudoku_grid *g, char out[SUDOKU_CELLS + 1]);

/* Finds every (unit, digit) pair where a digit occurs more than once in a
 * row, column or box, in the order rows, columns, boxes, then digit. Stores
 * up to `max` of them in out and returns how many there are in all (27 * 9
 * at most). A board with no conflict returns 0. */
size_t sudoku_conflicts(const struct sudoku_grid *g,
                        struct sudoku_conflict *out, size_t max);

/* Searches the solutions of `puzzle`, stopping once `limit` (>= 1) have been
 * found. *count receives the number found (0..limit); the first one is
 * written to *solution when solution is not NULL and *count > 0. A puzzle
 * that breaks the rules has 0 solutions. `max_nodes` bounds the work (0 means
 * no bound): when it runs out, SUDOKU_BUDGET is returned and *count holds
 * what was found so far. stats may be NULL. Returns SUDOKU_OK when the search
 * finished. */
enum sudoku_status sudoku_count(const struct sudoku_grid *puzzle,
                                unsigned limit, uint64_t max_nodes,
                                struct sudoku_grid *solution, unsigned *count,
                                struct sudoku_stats *stats);

/* The solver's kernel is built for several instruction sets and one is
 * chosen once, at start: the best the CPU has, or the one the environment
 * variable SUDOKUD_ISA names ("sse2", "avx2", "avx512") when the CPU has it
 * (an unknown or unsupported name is ignored: the best is used). Every path
 * gives the same solutions, counts, nodes and guesses; only time differs.
 * Off x86-64 there is one path, named "generic". */
enum sudoku_isa { SUDOKU_ISA_SSE2 = 0, SUDOKU_ISA_AVX2, SUDOKU_ISA_AVX512 };
#define SUDOKU_ISA_COUNT 3

/* The name of a path: "sse2" (or "generic"), "avx2", "avx512". */
const char *sudoku_isa_name(enum sudoku_isa isa);

/* 1 when this build has the path and the CPU (and OS) can run it, else 0. */
int sudoku_isa_supported(enum sudoku_isa isa);

/* The path sudoku_count and sudoku_solve take. */
enum sudoku_isa sudoku_isa_current(void);

/* sudoku_count on path `isa` (the baseline when it is not supported): for
 * tests and benchmarks that compare the paths in one process. */
enum sudoku_status sudoku_count_isa(enum sudoku_isa isa,
                                    const struct sudoku_grid *puzzle,
                                    unsigned limit, uint64_t max_nodes,
                                    struct sudoku_grid *solution,
                                    unsigned *count,
                                    struct sudoku_stats *stats);

/* sudoku_count with limit 1: *solved is 1 when *solution holds a solution. */
enum sudoku_status sudoku_solve(const struct sudoku_grid *puzzle,
                                uint64_t max_nodes,
                                struct sudoku_grid *solution, int *solved,
                                struct sudoku_stats *stats);

/* Returns 1 when `solution` is complete, obeys the rules and keeps every
 * given of `puzzle`, else 0. */
int sudoku_is_solution_of(const struct sudoku_grid *puzzle,
                          const struct sudoku_grid *solution);

#endif
