/* logic_unique.c - uniqueness techniques: unique rectangles (types 1-4)
 * and BUG+1. They are sound only for a board with exactly one solution,
 * which every caller proves before asking for steps: a "deadly pattern" of
 * two digits over four cells in two rows, two columns and two boxes could
 * swap its digits and give a second solution, so the board must break it.
 * BUG+1: if every blank but one had two candidates, each appearing twice per
 * unit, the board would have zero or two solutions; the extra cell's digit
 * that appears three times in its units must go there. */
#include <string.h>

#include "logic_internal.h"

static void rect_common(struct logic_step *out, const int *cells)
{
    for (int i = 0; i < 4; i++)
        logic_step_cell(out, cells[i]);
    logic_step_unit(out, grid_row(cells[0]));
    logic_step_unit(out, grid_row(cells[3]));
    logic_step_unit(out, 9 + grid_col(cells[0]));
    logic_step_unit(out, 9 + grid_col(cells[3]));
}

/* The unit (0-26) other than `skip` that cells a and b share, or -1. */
static int unit_of_pair(int a, int b, int skip)
{
    if (grid_row(a) == grid_row(b) && grid_row(a) != skip)
        return grid_row(a);
    if (grid_col(a) == grid_col(b) && 9 + grid_col(a) != skip)
        return 9 + grid_col(a);
    if (grid_box(a) == grid_box(b) && 18 + grid_box(a) != skip)
        return 18 + grid_box(a);
    return -1;
}

/* Type 3: the roof's extra candidates x (two or three digits) act as one
 * pseudo-cell, for one roof cell holds one of them. In unit u, which holds
 * both roof cells, k more blanks (1-3, not the roof) that make with x a set
 * of k + 1 digits are a naked subset of k + 1 "cells": its digits leave the
 * rest of u. Rated 4.5 plus 0.1 per cell of the subset past one (a pair
 * 4.6, a triple 4.7, a quad 4.8). */
static int rect_type3(const struct logic_grid *g, const int *cells,
                      const int *roof, unsigned ab, int u,
                      struct logic_step *out)
{
    unsigned x = (g->cand[roof[0]] | g->cand[roof[1]]) & ~ab;
    int others[9], m = 0, idx[3];

    for (int k = 0; k < 9; k++) {
        int c = grid_unit_cell(u, k);
        if (!g->value[c] && c != roof[0] && c != roof[1] &&
            !(g->cand[c] & ab) && grid_popcount(g->cand[c]) <= 4)
            others[m++] = c;
    }
    for (int n = 1; n <= 3 && n <= m; n++) {
        for (int i = 0; i < n; i++)
            idx[i] = i;
        do {
            unsigned set = x;
            for (int i = 0; i < n; i++)
                set |= g->cand[others[idx[i]]];
            if (grid_popcount(set) != n + 1)
                continue;
            logic_step_start(out, LOGIC_UNIQUE_RECTANGLE_3, (uint16_t)ab);
            for (int k = 0; k < 9; k++) {
                int c = grid_unit_cell(u, k), member = 0;
                for (int i = 0; i < n; i++)
                    member |= others[idx[i]] == c;
                if (member || c == roof[0] || c == roof[1])
                    continue;
                for (unsigned e = g->cand[c] & set; e; e &= e - 1)
                    logic_step_elim(out, c, __builtin_ctz(e) + 1);
            }
            if (out->neliminations == 0)
                continue;
            rect_common(out, cells);
            for (int i = 0; i < n; i++)
                logic_step_cell(out, others[idx[i]]);
            logic_step_unit(out, u);
            out->depth = (uint8_t)(n + 1); /* the subset's size */
            out->rating = (uint8_t)(out->rating + n);
            return 1;
        } while (grid_next_comb(idx, n, m));
    }
    return 0;
}

/* One rectangle [r1,c1] [r1,c2] [r2,c1] [r2,c2] with digits ab (a mask of
 * two) in every cell: the step of type `type`, or 0. */
static int try_rect(const struct logic_grid *g, const int *cells, unsigned ab,
                    int type, struct logic_step *out)
{
    int roof[4], nf = 0, nr = 0;

    for (int i = 0; i < 4; i++) {
        if (g->cand[cells[i]] == ab)
            nf++;
        else
            roof[nr++] = cells[i];
    }
    if (type == 1 && nf == 3) {
        logic_step_start(out, LOGIC_UNIQUE_RECTANGLE_1, (uint16_t)ab);
        for (int d = 1; d <= 9; d++)
            if (ab & (1u << (d - 1)))
                logic_step_elim(out, roof[0], d);
        rect_common(out, cells);
        return 1;
    }
    if (nf != 2 || nr != 2 ||
        (grid_row(roof[0]) != grid_row(roof[1]) &&
         grid_col(roof[0]) != grid_col(roof[1])))
        return 0;
    if (type == 2) {
        unsigned x = g->cand[roof[0]] & ~ab;
        if (grid_popcount(x) != 1 || (g->cand[roof[1]] & ~ab) != x)
            return 0;
        logic_step_start(out, LOGIC_UNIQUE_RECTANGLE_2, (uint16_t)(ab | x));
        for (int c = 0; c < SUDOKU_CELLS; c++)
            if ((g->cand[c] & x) && grid_sees(c, roof[0]) &&
                grid_sees(c, roof[1]))
                logic_step_elim(out, c, __builtin_ctz(x) + 1);
        if (out->neliminations == 0)
            return 0;
        rect_common(out, cells);
        return 1;
    }
    if (type == 3) {
        unsigned x = (g->cand[roof[0]] | g->cand[roof[1]]) & ~ab;
        if (grid_popcount(x) < 2 || grid_popcount(x) > 3)
            return 0;
        for (int skip = -1, u; (u = unit_of_pair(roof[0], roof[1], skip)) >= 0;
             skip = u) {
            if (rect_type3(g, cells, roof, ab, u, out))
                return 1;
            if (u >= 18)
                break;
        }
        return 0;
    }
    /* Type 4: in a unit the roof shares, one of the two digits lives only
     * in the roof, so the roof holds it; the other digit would complete the
     * pattern, so it leaves both roof cells. */
    for (int skip = -1, u; (u = unit_of_pair(roof[0], roof[1], skip)) >= 0;
         skip = u) {
        for (int d = 1; d <= 9; d++) {
            unsigned bit = 1u << (d - 1), other = ab & ~bit;
            int only = 1;
            if (!(ab & bit))
                continue;
            for (int k = 0; k < 9 && only; k++) {
                int c = grid_unit_cell(u, k);
                only = c == roof[0] || c == roof[1] || !(g->cand[c] & bit);
            }
            if (!only)
                continue;
            logic_step_start(out, LOGIC_UNIQUE_RECTANGLE_4, (uint16_t)ab);
            logic_step_elim(out, roof[0], __builtin_ctz(other) + 1);
            logic_step_elim(out, roof[1], __builtin_ctz(other) + 1);
            rect_common(out, cells);
            logic_step_unit(out, u);
            return 1;
        }
        if (u >= 18)
            break;
    }
    return 0;
}

int logic_find_unique_rectangle(const struct logic_grid *g,
                                struct logic_step *out)
{
    /* Types 1, 2, 4, then 3 (rated 4.5, 4.6, 4.6, 4.6-4.8). */
    static const int types[4] = {1, 2, 4, 3};

    for (int t = 0; t < 4; t++) {
        int type = types[t];
        for (int r1 = 0; r1 < 9; r1++)
            for (int r2 = r1 + 1; r2 < 9; r2++)
                for (int c1 = 0; c1 < 9; c1++)
                    for (int c2 = c1 + 1; c2 < 9; c2++) {
                        int cells[4] = {r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1,
                                        r2 * 9 + c2};
                        unsigned common = 0x1FF;
                        /* Two boxes exactly: one band or one stack. */
                        if ((r1 / 3 == r2 / 3) == (c1 / 3 == c2 / 3))
                            continue;
                        for (int i = 0; i < 4; i++)
                            common &=
                                g->value[cells[i]] ? 0 : g->cand[cells[i]];
                        if (grid_popcount(common) < 2)
                            continue;
                        for (unsigned a = common; a; a &= a - 1)
                            for (unsigned b = a & (a - 1); b; b &= b - 1) {
                                unsigned ab = (a & -a) | (b & -b);
                                if (try_rect(g, cells, ab, type, out))
                                    return 1;
                            }
                    }
    }
    return 0;
}

int logic_find_bug(const struct logic_grid *g, struct logic_step *out)
{
    int extra = -1, digit = 0;

    for (int c = 0; c < SUDOKU_CELLS; c++) {
        int n = g->value[c] ? 0 : grid_popcount(g->cand[c]);
        if (n == 0 || n == 2)
            continue;
        if (n != 3 || extra >= 0)
            return 0;
        extra = c;
    }
    if (extra < 0)
        return 0;
    /* The digit of the extra cell seen three times in its row. */
    for (int d = 1; d <= 9 && !digit; d++) {
        int n = 0;
        if (!(g->cand[extra] & (1u << (d - 1))))
            continue;
        for (int k = 0; k < 9; k++)
            n += (g->cand[grid_row(extra) * 9 + k] >> (d - 1)) & 1;
        if (n == 3)
            digit = d;
    }
    if (!digit)
        return 0;
    /* Without it, every digit must appear 0 or 2 times in every unit. */
    for (int u = 0; u < GRID_UNITS; u++)
        for (int d = 1; d <= 9; d++) {
            int n = 0;
            for (int k = 0; k < 9; k++) {
                int c = grid_unit_cell(u, k);
                n += (c != extra || d != digit) &&
                     (g->cand[c] & (1u << (d - 1)));
            }
            if (n != 0 && n != 2)
                return 0;
        }
    logic_step_start(out, LOGIC_BUG_PLUS_1, (uint16_t)(1u << (digit - 1)));
    out->placements[0] = (struct logic_move){(uint8_t)extra, (uint8_t)digit};
    out->nplacements = 1;
    logic_step_cell(out, extra);
    logic_step_unit(out, grid_row(extra));
    logic_step_unit(out, 9 + grid_col(extra));
    logic_step_unit(out, 18 + grid_box(extra));
    return 1;
}
