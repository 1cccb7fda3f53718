/* cover_rules.c - the generic engine's rules: sizes and box shapes, the
 * checks of jigsaw regions (a partition into n 4-connected regions of n
 * cells) and extra groups, and what the rules make of a grid: its
 * all-different groups and the knight's and king's moves. The board text
 * and the rule breaks are in cover_text.c, the work space in
 * cover_build.c; both read this file, it reads neither. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cover_internal.h"

int cover_size_ok(unsigned n)
{
    return n == 4 || n == 6 || n == 8 || n == 9 || n == 12 || n == 16 ||
           n == 25;
}

enum cover_status cover_rules_init(struct cover_rules *r, unsigned n)
{
    static const uint8_t rows[26] = {
        [4] = 2, [6] = 2, [8] = 2, [9] = 3, [12] = 3, [16] = 4, [25] = 5};
    if (!cover_size_ok(n))
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
    if (!cover_size_ok(n))
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

/* ---- the groups and moves the rules make ---------------------------- */

const int cover_knight[8][2] = {{-2, -1}, {-2, 1}, {-1, -2}, {-1, 2},
                                {1, -2},  {1, 2},  {2, -1},  {2, 1}};
const int cover_king[4][2] = {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}};

unsigned cover_groups(const struct cover_rules *r, struct cover_group *g)
{
    unsigned n = r->n, k = 0;

    for (unsigned i = 0; i < 3 * n; i++)
        g[i].ncells = 0;
    for (unsigned row = 0; row < n; row++)
        for (unsigned col = 0; col < n; col++) {
            uint16_t c = (uint16_t)(row * n + col);
            g[row].cell[g[row].ncells++] = c;
            g[n + col].cell[g[n + col].ncells++] = c;
            struct cover_group *reg = &g[2 * n + r->region[c]];
            reg->cell[reg->ncells++] = c;
        }
    k = 3 * n;
    if (r->diagonals) {
        g[k].ncells = g[k + 1].ncells = (uint8_t)n;
        for (unsigned i = 0; i < n; i++) {
            g[k].cell[i] = (uint16_t)(i * n + i);
            g[k + 1].cell[i] = (uint16_t)(i * n + (n - 1 - i));
        }
        k += 2;
    }
    for (unsigned e = 0; e < r->nextra; e++)
        g[k++] = r->extra[e];
    return k;
}
