/* cover_rules.c - the generic engine's rules and text: sizes and box shapes,
 * the checks of jigsaw regions (a partition into n 4-connected regions of n
 * cells) and extra groups, the board text, and the rule breaks of a board
 * (cover_conflicts), which the search does not need: it never breaks one. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cover_internal.h"

static int size_ok(unsigned n)
{
    return n == 4 || n == 6 || n == 8 || n == 9 || n == 12 || n == 16 ||
           n == 25;
}

enum cover_status cover_rules_init(struct cover_rules *r, unsigned n)
{
    static const uint8_t rows[26] = {
        [4] = 2, [6] = 2, [8] = 2, [9] = 3, [12] = 3, [16] = 4, [25] = 5};
    if (!size_ok(n))
        return COVER_BAD_SIZE;
    memset(r, 0, sizeof(*r));
    r->n = (uint8_t)n;
    r->box_rows = rows[n];
    r->box_cols = (uint8_t)(n / rows[n]);
    return COVER_OK;
}

__attribute__((format(printf, 6, 7))) static enum cover_status
fail(enum cover_status st, int *bad, int which, char *why, size_t why_len,
     const char *fmt, ...)
{
    va_list ap;

    if (bad)
        *bad = which;
    if (why && why_len) {
        va_start(ap, fmt);
        vsnprintf(why, why_len, fmt, ap);
        va_end(ap);
    }
    return st;
}

/* A region's name for people: its letter, 'A' for region 0. */
static char region_letter(unsigned reg)
{
    return reg < 26 ? (char)('A' + reg) : '?';
}

/* Cells reached from `start` through 4-neighbours of the same region. */
static unsigned flood(const struct cover_rules *r, unsigned start)
{
    unsigned n = r->n, reg = r->region[start], nstack = 1, reached = 1;
    uint16_t stack[COVER_MAX_CELLS];
    uint8_t seen[COVER_MAX_CELLS] = {0};

    stack[0] = (uint16_t)start;
    seen[start] = 1;
    while (nstack) {
        unsigned c = stack[--nstack], row = c / n, col = c % n;
        unsigned next[4], k = 0;
        if (row > 0)
            next[k++] = c - n;
        if (row + 1 < n)
            next[k++] = c + n;
        if (col > 0)
            next[k++] = c - 1;
        if (col + 1 < n)
            next[k++] = c + 1;
        for (unsigned i = 0; i < k; i++)
            if (!seen[next[i]] && r->region[next[i]] == reg) {
                seen[next[i]] = 1;
                stack[nstack++] = (uint16_t)next[i];
                reached++;
            }
    }
    return reached;
}

static enum cover_status check_regions(const struct cover_rules *r, int *bad,
                                       char *why, size_t why_len)
{
    unsigned n = r->n, size[COVER_MAX_N] = {0}, first[COVER_MAX_N];

    for (unsigned c = 0; c < n * n; c++) {
        unsigned reg = r->region[c];
        if (reg >= n)
            return fail(COVER_BAD_REGIONS, bad, (int)reg, why, why_len,
                        "cell r%uc%u names region '%c'; a %u x %u grid has "
                        "regions 'A' to '%c'",
                        c / n + 1, c % n + 1, region_letter(reg), n, n,
                        region_letter(n - 1));
        if (size[reg]++ == 0)
            first[reg] = c;
    }
    for (unsigned reg = 0; reg < n; reg++)
        if (size[reg] != n)
            return fail(COVER_BAD_REGIONS, bad, (int)reg, why, why_len,
                        "region '%c' has %u cells, not %u", region_letter(reg),
                        size[reg], n);
    for (unsigned reg = 0; reg < n; reg++)
        if (flood(r, first[reg]) != n)
            return fail(COVER_BAD_REGIONS, bad, (int)reg, why, why_len,
                        "region '%c' is not connected", region_letter(reg));
    return COVER_OK;
}

static enum cover_status check_extra(const struct cover_rules *r, int *bad,
                                     char *why, size_t why_len)
{
    unsigned n = r->n;

    if (r->nextra > COVER_MAX_EXTRA)
        return fail(COVER_BAD_EXTRA, bad, -1, why, why_len,
                    "%u extra groups, more than %u", r->nextra,
                    COVER_MAX_EXTRA);
    for (unsigned e = 0; e < r->nextra; e++) {
        const struct cover_group *g = &r->extra[e];
        if (g->ncells == 0)
            return fail(COVER_BAD_EXTRA, bad, (int)e, why, why_len,
                        "extra group %u is empty", e);
        if (g->ncells > n)
            return fail(COVER_BAD_EXTRA, bad, (int)e, why, why_len,
                        "extra group %u has %u cells, more than %u", e,
                        g->ncells, n);
        for (unsigned i = 0; i < g->ncells; i++) {
            if (g->cell[i] >= n * n)
                return fail(COVER_BAD_EXTRA, bad, (int)e, why, why_len,
                            "extra group %u names cell %u, off the grid", e,
                            g->cell[i]);
            for (unsigned j = 0; j < i; j++)
                if (g->cell[j] == g->cell[i])
                    return fail(COVER_BAD_EXTRA, bad, (int)e, why, why_len,
                                "extra group %u names cell %u twice", e,
                                g->cell[i]);
        }
    }
    return COVER_OK;
}

enum cover_status cover_rules_check(struct cover_rules *r, int *bad, char *why,
                                    size_t why_len)
{
    unsigned n = r->n;
    enum cover_status st;

    if (bad)
        *bad = -1;
    if (why && why_len)
        why[0] = '\0';
    if (!size_ok(n))
        return fail(COVER_BAD_SIZE, bad, -1, why, why_len,
                    "size %u is not one of 4, 6, 8, 9, 12, 16 and 25", n);
    if (r->has_regions) {
        st = check_regions(r, bad, why, why_len);
        if (st != COVER_OK)
            return st;
    } else {
        unsigned br = r->box_rows, bc = r->box_cols;
        if (br * bc != n)
            return fail(COVER_BAD_BOX, bad, -1, why, why_len,
                        "boxes of %u x %u cells do not tile a %u x %u grid", br,
                        bc, n, n);
        for (unsigned c = 0; c < n * n; c++)
            r->region[c] = (uint8_t)((c / n) / br * (n / bc) + (c % n) / bc);
    }
    return check_extra(r, bad, why, why_len);
}

/* ---- the board's text ------------------------------------------------ */

/* A character's digit: 0 blank, 1..25, or -1 for anything else. */
static int char_digit(char ch)
{
    if (ch == '.' || ch == '0')
        return 0;
    if (ch >= '1' && ch <= '9')
        return ch - '0';
    if (ch >= 'A' && ch <= 'P')
        return ch - 'A' + 10;
    if (ch >= 'a' && ch <= 'p')
        return ch - 'a' + 10;
    return -1;
}

enum cover_status cover_parse(const char *text, size_t len, unsigned n,
                              struct cover_grid *out, size_t *bad_index)
{
    struct cover_grid g;

    if (!size_ok(n) || len != (size_t)n * n)
        return COVER_BAD_SIZE;
    g.n = (uint8_t)n;
    for (size_t i = 0; i < len; i++) {
        int d = char_digit(text[i]);
        if (d < 0 || d > (int)n) {
            if (bad_index)
                *bad_index = i;
            return COVER_BAD_CHAR;
        }
        g.cell[i] = (uint8_t)d;
    }
    memcpy(out->cell, g.cell, len);
    out->n = g.n;
    return COVER_OK;
}

char cover_digit_char(unsigned digit)
{
    if (digit == 0)
        return '.';
    if (digit <= 9)
        return (char)('0' + digit);
    if (digit <= COVER_MAX_N)
        return (char)('A' + digit - 10);
    return '?';
}

void cover_format(const struct cover_grid *g, char *out)
{
    size_t ncells = (size_t)g->n * g->n;

    for (size_t i = 0; i < ncells; i++)
        out[i] = cover_digit_char(g->cell[i]);
    out[ncells] = '\0';
}

/* ---- rule breaks ----------------------------------------------------- */

struct sink {
    struct cover_conflict *out;
    size_t max, total;
};

static void emit(struct sink *s, enum cover_unit unit, unsigned index,
                 unsigned digit, const uint16_t *cell, unsigned ncells)
{
    if (s->total < s->max) {
        struct cover_conflict *c = &s->out[s->total];
        c->unit = unit;
        c->index = (uint8_t)index;
        c->digit = (uint8_t)digit;
        c->ncells = (uint8_t)ncells;
        memcpy(c->cell, cell, ncells * sizeof(*cell));
    }
    s->total++;
}

/* Each digit that occurs twice or more in group g. */
static void group_conflicts(struct sink *s, const struct cover_grid *grid,
                            const struct cover_group *g, enum cover_unit unit,
                            unsigned index)
{
    for (unsigned d = 1; d <= grid->n; d++) {
        uint16_t cell[COVER_MAX_N];
        unsigned k = 0;
        for (unsigned i = 0; i < g->ncells; i++)
            if (grid->cell[g->cell[i]] == d)
                cell[k++] = g->cell[i];
        if (k > 1)
            emit(s, unit, index, d, cell, k);
    }
}

/* The pairs a move apart (each once, the first cell lower) holding one
 * digit, by digit then cells. */
static void move_conflicts(struct sink *s, const struct cover_grid *grid,
                           enum cover_unit unit, const int (*mv)[2],
                           unsigned nmv)
{
    int n = grid->n;

    for (int d = 1; d <= n; d++)
        for (int a = 0; a < n * n; a++) {
            if (grid->cell[a] != d)
                continue;
            uint16_t pairs[8];
            unsigned k = 0;
            for (unsigned m = 0; m < nmv; m++) {
                int r2 = a / n + mv[m][0], c2 = a % n + mv[m][1];
                int b = r2 * n + c2;
                if (r2 >= 0 && c2 >= 0 && r2 < n && c2 < n && b > a &&
                    grid->cell[b] == d)
                    pairs[k++] = (uint16_t)b;
            }
            /* The moves are listed row by row, so b ascends already. */
            for (unsigned i = 0; i < k; i++) {
                uint16_t two[2] = {(uint16_t)a, pairs[i]};
                emit(s, unit, 0, (unsigned)d, two, 2);
            }
        }
}

size_t cover_conflicts(const struct cover_rules *r, const struct cover_grid *g,
                       struct cover_conflict *out, size_t max)
{
    struct cover_group grp[COVER_MAX_GROUPS];
    unsigned ng = cover_groups(r, grp), n = r->n, first_extra;
    struct sink s = {out, out ? max : 0, 0};

    if (g->n != n)
        return 0;
    for (unsigned i = 0; i < 3 * n; i++)
        group_conflicts(&s, g, &grp[i], (enum cover_unit)(i / n), i % n);
    first_extra = 3 * n;
    if (r->diagonals) {
        group_conflicts(&s, g, &grp[3 * n], COVER_DIAGONAL, 0);
        group_conflicts(&s, g, &grp[3 * n + 1], COVER_DIAGONAL, 1);
        first_extra += 2;
    }
    for (unsigned i = first_extra; i < ng; i++)
        group_conflicts(&s, g, &grp[i], COVER_EXTRA, i - first_extra);
    if (r->anti_knight)
        move_conflicts(&s, g, COVER_KNIGHT, cover_knight, 8);
    if (r->anti_king)
        move_conflicts(&s, g, COVER_KING, cover_king, 4);
    return s.total;
}

int cover_is_solution_of(const struct cover_rules *r,
                         const struct cover_grid *puzzle,
                         const struct cover_grid *solution)
{
    unsigned n = r->n;

    if (puzzle->n != n || solution->n != n)
        return 0;
    for (unsigned c = 0; c < n * n; c++) {
        unsigned v = solution->cell[c];
        if (v == 0 || v > n || (puzzle->cell[c] && puzzle->cell[c] != v))
            return 0;
    }
    return cover_conflicts(r, solution, NULL, 0) == 0;
}
