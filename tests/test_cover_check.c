/* test_cover_check.c - the generic engine tests' own rules: an
 * independent verifier (simple loops over every unit and every knight and
 * king pair, never cover_conflicts), a uniqueness proof by deduction, and
 * the fixed variant maps the tests and tests/data/cover/ use. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "cover.h"
#include "test_cover.h"

static int all_different(const uint8_t *g, const uint16_t *cells, unsigned k)
{
    uint32_t seen = 0;
    for (unsigned i = 0; i < k; i++) {
        uint32_t bit = 1u << g[cells[i]];
        if (g[cells[i]] && (seen & bit))
            return 0;
        seen |= bit;
    }
    return 1;
}

/* The region of a cell, computed here from the box shape, not taken from
 * r->region (which cover_rules_check fills). */
unsigned tc_region_of(const struct cover_rules *r, unsigned c)
{
    unsigned n = r->n, row = c / n, col = c % n;
    if (r->has_regions)
        return r->region[c];
    return row / r->box_rows * (n / r->box_cols) + col / r->box_cols;
}

static int moves_differ(const struct cover_rules *r, const uint8_t *g,
                        const int (*mv)[2], unsigned nmv)
{
    int n = r->n;
    for (int row = 0; row < n; row++)
        for (int col = 0; col < n; col++)
            for (unsigned m = 0; m < nmv; m++) {
                int r2 = row + mv[m][0], c2 = col + mv[m][1];
                if (r2 >= 0 && c2 >= 0 && r2 < n && c2 < n &&
                    g[row * n + col] == g[r2 * n + c2])
                    return 0;
            }
    return 1;
}

int tc_verify(const struct cover_rules *r, const struct cover_grid *grid)
{
    static const int knight[8][2] = {{1, 2},  {2, 1},  {-1, 2},  {-2, 1},
                                     {1, -2}, {2, -1}, {-1, -2}, {-2, -1}};
    static const int king[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    unsigned n = r->n;
    uint16_t row[COVER_MAX_N], col[COVER_MAX_N], d1[COVER_MAX_N],
        d2[COVER_MAX_N];
    const uint8_t *g = grid->cell;

    if (grid->n != n)
        return 0;
    for (unsigned c = 0; c < n * n; c++)
        if (g[c] < 1 || g[c] > n)
            return 0;
    for (unsigned i = 0; i < n; i++) {
        uint16_t reg[COVER_MAX_N];
        unsigned k = 0;
        for (unsigned j = 0; j < n; j++) {
            row[j] = (uint16_t)(i * n + j);
            col[j] = (uint16_t)(j * n + i);
        }
        for (unsigned c = 0; c < n * n; c++)
            if (tc_region_of(r, c) == i)
                reg[k++] = (uint16_t)c;
        if (k != n || !all_different(g, row, n) || !all_different(g, col, n) ||
            !all_different(g, reg, n))
            return 0;
        d1[i] = (uint16_t)(i * n + i);
        d2[i] = (uint16_t)(i * n + n - 1 - i);
    }
    if (r->diagonals && (!all_different(g, d1, n) || !all_different(g, d2, n)))
        return 0;
    for (unsigned e = 0; e < r->nextra; e++)
        if (!all_different(g, r->extra[e].cell, r->extra[e].ncells))
            return 0;
    if (r->anti_knight && !moves_differ(r, g, knight, 8))
        return 0;
    if (r->anti_king && !moves_differ(r, g, king, 4))
        return 0;
    return 1;
}

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

void tc_jigsaw_map(struct cover_rules *r)
{
    static const char map[] = "AAABBBBCC"
                              "AAABBBCCC"
                              "AAABBECFC"
                              "DDEEEEEFC"
                              "DDDDEFFFC"
                              "DGDDEFIFF"
                              "GGGGEIIFI"
                              "GHHGHHIII"
                              "GGHHHHHII";
    r->has_regions = 1;
    for (unsigned c = 0; c < 81; c++)
        r->region[c] = (uint8_t)(map[c] - 'A');
}

/* Windoku: four extra 3x3 groups at rows and columns 2-4 and 6-8. */
void tc_hyper_groups(struct cover_rules *r)
{
    r->nextra = 4;
    for (unsigned e = 0; e < 4; e++) {
        unsigned r0 = e / 2 ? 5 : 1, c0 = e % 2 ? 5 : 1;
        r->extra[e].ncells = 9;
        for (unsigned i = 0; i < 9; i++)
            r->extra[e].cell[i] = (uint16_t)((r0 + i / 3) * 9 + c0 + i % 3);
    }
}
