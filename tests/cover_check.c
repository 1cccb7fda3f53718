/* cover_check.c - the generic engine tests' own uniqueness proof
 * (filling the last blank of a unit until nothing is left) and the helpers
 * the two test files share. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "cover.h"
#include "cover_support.h"

/* The test's own uniqueness proof: fills every blank that is the last one
 * of a row, column, region, diagonal or full extra group with the digit
 * that unit misses, until nothing changes. A puzzle this fills completely
 * has exactly one solution (each step was forced). Returns 1 then. */
static int peel_units(const struct cover_rules *r,
                      uint16_t (*unit)[COVER_MAX_N])
{
    unsigned n = r->n, k = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned kr = 0;
        for (unsigned j = 0; j < n; j++) {
            unit[k][j] = (uint16_t)(i * n + j);
            unit[k + 1][j] = (uint16_t)(j * n + i);
        }
        for (unsigned c = 0; c < n * n; c++)
            if (tc_region_of(r, c) == i)
                unit[k + 2][kr++] = (uint16_t)c;
        k += 3;
    }
    if (r->diagonals) {
        for (unsigned i = 0; i < n; i++) {
            unit[k][i] = (uint16_t)(i * n + i);
            unit[k + 1][i] = (uint16_t)(i * n + n - 1 - i);
        }
        k += 2;
    }
    for (unsigned e = 0; e < r->nextra; e++)
        if (r->extra[e].ncells == n)
            memcpy(unit[k++], r->extra[e].cell, n * sizeof(uint16_t));
    return (int)k;
}

int tc_peel(const struct cover_rules *r, const struct cover_grid *puzzle)
{
    uint16_t unit[3 * COVER_MAX_N + 2 + COVER_MAX_EXTRA][COVER_MAX_N];
    struct cover_grid g = *puzzle;
    unsigned n = r->n, nunits = (unsigned)peel_units(r, unit), changed = 1;

    while (changed) {
        changed = 0;
        for (unsigned u = 0; u < nunits; u++) {
            unsigned blanks = 0, blank = 0, sum = 0;
            for (unsigned i = 0; i < n; i++) {
                unsigned v = g.cell[unit[u][i]];
                if (v == 0) {
                    blanks++;
                    blank = unit[u][i];
                }
                sum += v;
            }
            if (blanks == 1) {
                g.cell[blank] = (uint8_t)(n * (n + 1) / 2 - sum);
                changed = 1;
            }
        }
    }
    for (unsigned c = 0; c < n * n; c++)
        if (g.cell[c] == 0)
            return 0;
    return 1;
}

/* A puzzle from a solution: cells taken in a fixed scattered order, each
 * blanked while tc_peel still completes the puzzle. */
void tc_blank(const struct cover_rules *r, const struct cover_grid *solution,
              struct cover_grid *puzzle)
{
    unsigned ncells = (unsigned)r->n * r->n;
    *puzzle = *solution;
    for (unsigned i = 0; i < ncells; i++) {
        unsigned c = (i * 7919u) % ncells;
        puzzle->cell[c] = 0;
        if (!tc_peel(r, puzzle))
            puzzle->cell[c] = solution->cell[c];
    }
}

struct cover_grid tc_grid(unsigned n, const char *text)
{
    struct cover_grid g;
    size_t bad = 0;
    if (cover_parse(text, strlen(text), n, &g, &bad) != COVER_OK)
        fail_msg("'%.40s...' does not parse (at %zu)", text, bad);
    return g;
}

void tc_check_rules(struct cover_rules *r)
{
    char why[128];
    int bad = 0;
    if (cover_rules_check(r, &bad, why, sizeof(why)) != COVER_OK)
        fail_msg("rules refused: %s", why);
}

/* The engine on a puzzle built from `solution` by tc_blank: exactly that
 * solution, counted once. */
void tc_expect_unique(struct cover_rules *r, const struct cover_grid *solution)
{
    struct cover_grid puzzle, found;
    struct sudoku_stats st;
    unsigned count = 9, blanks = 0;

    tc_check_rules(r);
    assert_true(tc_verify(r, solution));
    tc_blank(r, solution, &puzzle);
    for (unsigned c = 0; c < (unsigned)r->n * r->n; c++)
        blanks += puzzle.cell[c] == 0;
    assert_true(blanks >= r->n); /* at least a blank a row */
    assert_int_equal(cover_count(r, &puzzle, 2, 0, &found, &count, &st),
                     COVER_OK);
    assert_int_equal(count, 1);
    assert_true(tc_verify(r, &found));
    assert_memory_equal(found.cell, solution->cell, (size_t)r->n * r->n);
    assert_true(cover_is_solution_of(r, &puzzle, &found));
}
