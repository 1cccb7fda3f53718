/* cover.h - the generic engine: sudoku of every size from 4x4 to 25x25 and
 * the variant rules (diagonals, jigsaw regions, extra regions, anti-knight,
 * anti-king), solved as exact cover. Classic 9x9 without variants stays with
 * sudoku.h's faster solver. Knows nothing of HTTP, JSON, threads or config;
 * reentrant: every function works only on its arguments. */
#ifndef COVER_H
#define COVER_H

#include <stddef.h>
#include <stdint.h>

#include "budget.h"
#include "sudoku.h" /* struct sudoku_stats */

#define COVER_MAX_N 25
#define COVER_MAX_CELLS (COVER_MAX_N * COVER_MAX_N)
#define COVER_MAX_EXTRA 32 /* extra all-different groups at most */

enum cover_status {
    COVER_OK = 0,
    COVER_BAD_SIZE,    /* n is not 4, 6, 8, 9, 12, 16 or 25, or the text
                          length is not n * n */
    COVER_BAD_CHAR,    /* a character that is not a blank or a digit of
                          this size */
    COVER_BAD_BOX,     /* box_rows * box_cols != n */
    COVER_BAD_REGIONS, /* a region map that is not a partition of the grid
                          into n connected regions of n cells */
    COVER_BAD_EXTRA,   /* an extra group that is empty, longer than n,
                          names a cell twice or one off the grid */
    COVER_BUDGET,      /* the budget (nodes or CPU time) ran out before the
                          search ended */
    COVER_NO_MEMORY,
    COVER_NO_SOLUTION, /* cover_generate: no grid obeys these rules (e.g.
                          4x4 with diagonals and anti-king) */
};

/* The rules of one puzzle. Fill it with cover_rules_init, then set the
 * variant members, then call cover_rules_check before any search. */
struct cover_rules {
    uint8_t n;        /* side: 4, 6, 8, 9, 12, 16 or 25 */
    uint8_t box_rows; /* box shape (rows x columns); unused when */
    uint8_t box_cols; /* has_regions is set */
    int has_regions;  /* jigsaw: region[] replaces the boxes */
    uint8_t region[COVER_MAX_CELLS]; /* region (0..n-1) of each cell,
                                        row-major; cover_rules_check fills
                                        it from the boxes otherwise */
    int diagonals;                   /* both main diagonals all different */
    int anti_knight; /* no digit a chess knight's move from itself */
    int anti_king;   /* no digit a king's move (diagonally) from itself */
    unsigned nextra;
    struct cover_group {
        uint8_t ncells; /* 1..n; with n cells it holds every digit */
        uint16_t cell[COVER_MAX_N];
    } extra[COVER_MAX_EXTRA];
};

/* n x n with the default box shape: the wider side horizontal (6: 2x3,
 * 8: 2x4, 12: 3x4), squares for 4, 9, 16, 25. No variant. Returns
 * COVER_BAD_SIZE for another n (and leaves *r unusable). */
enum cover_status cover_rules_init(struct cover_rules *r, unsigned n);

/* Checks the rules and completes them (region[] from the boxes). On a
 * failure *bad says which: the region letter, the extra group, or -1.
 * `why` (if not NULL, `why_len` bytes) gets one sentence for a person, e.g.
 * "region 'C' has 8 cells, not 9" or "region 'B' is not connected". */
enum cover_status cover_rules_check(struct cover_rules *r, int *bad, char *why,
                                    size_t why_len);

/* A board: n * n cells, row-major; 0 blank, 1..n a digit. */
struct cover_grid {
    uint8_t n;
    uint8_t cell[COVER_MAX_CELLS];
};

/* Reads n * n characters: '.' or '0' blank, '1'-'9' then 'A'-'P' (either
 * case) for 10-25, digits above n refused. *bad_index gets the first bad
 * character. Does not check the rules. */
enum cover_status cover_parse(const char *text, size_t len, unsigned n,
                              struct cover_grid *out, size_t *bad_index);

/* The digit's character: '1'-'9', 'A'.. for 10 and up; '.' for 0. */
char cover_digit_char(unsigned digit);

/* Writes n * n characters and a NUL into out (COVER_MAX_CELLS + 1 bytes). */
void cover_format(const struct cover_grid *g, char *out);

/* Which rule a conflict breaks. */
enum cover_unit {
    COVER_ROW = 0,
    COVER_COLUMN,
    COVER_BOX,      /* a box, or a jigsaw region when has_regions */
    COVER_DIAGONAL, /* index 0: top-left to bottom-right, 1: the other */
    COVER_EXTRA,    /* index: the extra group */
    COVER_KNIGHT,   /* a pair a knight's move apart; index 0 */
    COVER_KING,     /* a pair a king's move apart; index 0 */
};

/* One rule broken: `digit` occurs in `ncells` cells of unit `unit` number
 * `index` (for KNIGHT and KING: the two cells of one pair). */
struct cover_conflict {
    enum cover_unit unit;
    uint8_t index;
    uint8_t digit;
    uint8_t ncells;
    uint16_t cell[COVER_MAX_N];
};

/* Every broken rule of g under r (checked), units in the enum's order, then
 * index, then digit. Stores up to max in out, returns how many in all. */
size_t cover_conflicts(const struct cover_rules *r, const struct cover_grid *g,
                       struct cover_conflict *out, size_t max);

/* Searches the solutions of `puzzle` under `r` (checked), stopping once
 * `limit` (>= 1) are found: Algorithm X over cells and (unit, digit)
 * columns, the column with the fewest options first. As sudoku_count:
 * *count gets 0..limit, the first solution goes to *solution (may be NULL),
 * max_nodes bounds the work (0: none) and COVER_BUDGET says it ran out,
 * stats may be NULL. A puzzle that breaks the rules has 0 solutions.
 * May allocate its work space (COVER_NO_MEMORY). */
enum cover_status cover_count(const struct cover_rules *r,
                              const struct cover_grid *puzzle, unsigned limit,
                              uint64_t max_nodes, struct cover_grid *solution,
                              unsigned *count, struct sudoku_stats *stats);

/* cover_count within *budget (budget.h): its nodes and its deadline on the
 * calling thread's CPU clock, COVER_BUDGET when either runs out
 * (search_budget_by_nodes says which). */
enum cover_status
cover_count_budget(const struct cover_rules *r, const struct cover_grid *puzzle,
                   unsigned limit, const struct search_budget *budget,
                   struct cover_grid *solution, unsigned *count,
                   struct sudoku_stats *stats);

/* 1 when `solution` is complete, obeys r and keeps every given of puzzle. */
int cover_is_solution_of(const struct cover_rules *r,
                         const struct cover_grid *puzzle,
                         const struct cover_grid *solution);

/* A puzzle with exactly one solution under r (checked): a random solution
 * (seeded, deterministic for a seed and r unless max_us cuts in), then
 * blanks removed while the solution stays unique. max_us bounds the wall
 * clock (0: none); on COVER_BUDGET *out still holds a unique puzzle, with
 * more givens, unless no full grid was found first (max_us ran out, or 64
 * randomised fills of 20,000 nodes each all failed; then *puzzle is
 * untouched). COVER_NO_SOLUTION: no grid obeys r. */
enum cover_status cover_generate(const struct cover_rules *r, uint64_t seed,
                                 uint64_t max_us, struct cover_grid *puzzle,
                                 struct cover_grid *solution);

/* cover_generate with the blanks in pairs symmetric about the centre (a
 * half-turn), as printed puzzles have them; usually a few more givens. */
enum cover_status cover_generate_symmetric(const struct cover_rules *r,
                                           uint64_t seed, uint64_t max_us,
                                           struct cover_grid *puzzle,
                                           struct cover_grid *solution);

#endif
