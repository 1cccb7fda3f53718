/* grid.h - the 9x9 geometry every engine file and layer shares, written
 * once: cells are 0-80 row-major; the 27 units are numbered 0-8 rows, 9-17
 * columns, 18-26 boxes (boxes left to right, top to bottom, each read
 * row-major). Also one popcount, the blank count, the unit names and the
 * k-combinations every subset search walks (any size). */
#ifndef GRID_H
#define GRID_H

#include <stdint.h>

#include "sudoku.h"

#define GRID_UNITS 27

static inline int grid_row(int cell)
{
    return cell / 9;
}
static inline int grid_col(int cell)
{
    return cell % 9;
}
static inline int grid_box(int cell)
{
    return (cell / 27) * 3 + (cell % 9) / 3;
}

/* Cell k (0-8) of unit u (0-26): along a row or column, boxes row-major. */
static inline int grid_unit_cell(int u, int k)
{
    int i = u % 9;

    switch (u / 9) {
    case 0:
        return i * 9 + k;
    case 1:
        return k * 9 + i;
    default:
        return ((i / 3) * 3 + k / 3) * 9 + (i % 3) * 3 + k % 3;
    }
}

/* Do two different cells share a row, column or box? */
static inline int grid_sees(int a, int b)
{
    return a != b && (grid_row(a) == grid_row(b) ||
                      grid_col(a) == grid_col(b) || grid_box(a) == grid_box(b));
}

/* Bits set in x. Written out because the default build has no popcnt
 * instruction, and libgcc's call was 6% of grading time. */
static inline int grid_popcount(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
}

/* The next n-combination of 0..m-1 in idx (lexicographic, starting from
 * 0, 1, ..., n-1); 0 when there is none. The subset searches of both
 * logic engines walk them. */
static inline int grid_next_comb(int *idx, int n, int m)
{
    int i = n - 1;

    while (i >= 0 && idx[i] == m - n + i)
        i--;
    if (i < 0)
        return 0;
    idx[i]++;
    for (int j = i + 1; j < n; j++)
        idx[j] = idx[j - 1] + 1;
    return 1;
}

/* The blanks (zeros) among the 81 cells of a board or a logic grid's
 * values: 0 means the grid is complete. */
static inline unsigned grid_blanks(const uint8_t cell[SUDOKU_CELLS])
{
    unsigned n = 0;

    for (int i = 0; i < SUDOKU_CELLS; i++)
        n += cell[i] == 0;
    return n;
}

/* The name of a kind of unit, as the API and the CLI spell it: "row",
 * "column", "box" for enum sudoku_unit and the first three of enum
 * cover_unit (which share their numbers), then the cover engine's
 * "diagonal", "extra", "knight", "king". NULL when out of range. */
const char *grid_unit_name(unsigned kind);

#endif
