/* logic_fish.c - the logic engine's harder techniques: basic fish (X-wing,
 * swordfish, jellyfish) and the bivalue wings (XY-wing, XYZ-wing).
 * Fish: for one digit, n base lines (rows, or columns) whose candidates all
 * lie in n cover lines (columns, or rows); each base line needs the digit
 * once, so the n placements fill the cover lines and the digit leaves the
 * rest of them. Wings: a pivot cell and two pincers it sees, each with two
 * or three candidates, force digit z into one of the pincers. */
#include <string.h>

#include "logic_internal.h"

/* Cell of line `line` (0-8) at position k, rows when by_row else columns. */
static int line_cell(int by_row, int line, int k)
{
    return by_row ? line * 9 + k : k * 9 + line;
}

int logic_find_fish(const struct logic_grid *g, int size,
                    struct logic_step *out)
{
    static const enum logic_technique kinds[5] = {
        0, 0, LOGIC_X_WING, LOGIC_SWORDFISH, LOGIC_JELLYFISH};

    for (int d = 1; d <= 9; d++) {
        unsigned bit = 1u << (d - 1);
        for (int by_row = 1; by_row >= 0; by_row--) {
            unsigned mask[9];
            int lines[9], m = 0, idx[4];
            for (int line = 0; line < 9; line++) {
                unsigned p = 0;
                for (int k = 0; k < 9; k++)
                    if (g->cand[line_cell(by_row, line, k)] & bit)
                        p |= 1u << k;
                if (grid_popcount(p) >= 2 && grid_popcount(p) <= size) {
                    mask[m] = p;
                    lines[m++] = line;
                }
            }
            if (m < size)
                continue;
            for (int i = 0; i < size; i++)
                idx[i] = i;
            do {
                unsigned cover = 0, base = 0;
                for (int i = 0; i < size; i++) {
                    cover |= mask[idx[i]];
                    base |= 1u << lines[idx[i]];
                }
                if (grid_popcount(cover) == size) {
                    logic_step_start(out, kinds[size], (uint16_t)bit);
                    for (int line = 0; line < 9; line++) {
                        if (!(cover & (1u << line)))
                            continue;
                        for (int k = 0; k < 9; k++) {
                            int c = line_cell(!by_row, line, k);
                            if (!(base & (1u << k)) && (g->cand[c] & bit))
                                logic_step_elim(out, c, d);
                        }
                    }
                    if (out->neliminations > 0) {
                        for (int i = 0; i < size; i++)
                            logic_step_unit(out,
                                            (by_row ? 0 : 9) + lines[idx[i]]);
                        for (int line = 0; line < 9; line++)
                            if (cover & (1u << line))
                                logic_step_unit(out, (by_row ? 9 : 0) + line);
                        for (int i = 0; i < size; i++)
                            for (int k = 0; k < 9; k++)
                                if (mask[idx[i]] & (1u << k))
                                    logic_step_cell(
                                        out,
                                        line_cell(by_row, lines[idx[i]], k));
                        return 1;
                    }
                }
            } while (grid_next_comb(idx, size, m));
        }
    }
    return 0;
}

/* The first unit (row, column, box) that cells a and b share, 0-26. */
static int shared_unit(int a, int b)
{
    if (grid_row(a) == grid_row(b))
        return grid_row(a);
    if (grid_col(a) == grid_col(b))
        return 9 + grid_col(a);
    return 18 + grid_box(a);
}

/* Removes z from every cell that sees all of the given cells (n of them);
 * returns the number of eliminations. */
static int eliminate_seen(const struct logic_grid *g, const int *cells, int n,
                          unsigned z, struct logic_step *out)
{
    for (int c = 0; c < SUDOKU_CELLS; c++) {
        int all = (g->cand[c] & z) != 0;
        for (int i = 0; i < n && all; i++)
            all = grid_sees(c, cells[i]);
        if (all)
            logic_step_elim(out, c, __builtin_ctz(z) + 1);
    }
    return out->neliminations;
}

static void wing_pattern(struct logic_step *out, int p, int a, int b)
{
    logic_step_cell(out, p);
    logic_step_cell(out, a);
    logic_step_cell(out, b);
    logic_step_unit(out, shared_unit(p, a));
    logic_step_unit(out, shared_unit(p, b));
}

/* Pivot {x,y}, pincers {x,z} and {y,z}: z leaves the cells seeing both
 * pincers. */
int logic_find_xy_wing(const struct logic_grid *g, struct logic_step *out)
{
    for (int p = 0; p < SUDOKU_CELLS; p++) {
        unsigned pc = g->cand[p];
        if (grid_popcount(pc) != 2)
            continue;
        for (int a = 0; a < SUDOKU_CELLS; a++) {
            unsigned ac = g->cand[a];
            if (!grid_sees(p, a) || grid_popcount(ac) != 2 ||
                grid_popcount(ac & pc) != 1)
                continue;
            unsigned z = ac & ~pc, want = (pc & ~ac) | z;
            for (int b = 0; b < SUDOKU_CELLS; b++) {
                int pincers[2] = {a, b};
                if (b == a || g->cand[b] != want || !grid_sees(p, b))
                    continue;
                logic_step_start(out, LOGIC_XY_WING, (uint16_t)(pc | z));
                if (eliminate_seen(g, pincers, 2, z, out) > 0) {
                    wing_pattern(out, p, a, b);
                    return 1;
                }
            }
        }
    }
    return 0;
}

/* Pivot {x,y,z}, pincers {x,z} and {y,z}: z leaves the cells seeing all
 * three. */
int logic_find_xyz_wing(const struct logic_grid *g, struct logic_step *out)
{
    for (int p = 0; p < SUDOKU_CELLS; p++) {
        unsigned pc = g->cand[p];
        if (grid_popcount(pc) != 3)
            continue;
        for (int a = 0; a < SUDOKU_CELLS; a++) {
            unsigned ac = g->cand[a];
            if (!grid_sees(p, a) || grid_popcount(ac) != 2 || (ac & ~pc))
                continue;
            for (int b = a + 1; b < SUDOKU_CELLS; b++) {
                unsigned bc = g->cand[b], z = ac & bc;
                int trio[3] = {p, a, b};
                if (!grid_sees(p, b) || grid_popcount(bc) != 2 || (bc & ~pc) ||
                    bc == ac || grid_popcount(z) != 1)
                    continue;
                logic_step_start(out, LOGIC_XYZ_WING, (uint16_t)pc);
                if (eliminate_seen(g, trio, 3, z, out) > 0) {
                    wing_pattern(out, p, a, b);
                    return 1;
                }
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * Finned and sashimi fish
 * ------------------------------------------------------------------------ */

/* n base lines whose candidates lie in n cover lines except for some
 * "fins", all in one box. Either a fin is the digit, or the fish is; both
 * rule the digit out of the cover-line cells in the fin's box that are not
 * in a base line. Sashimi: a base line keeps a single cell in the covers. */
struct finned {
    const struct logic_grid *g;
    int size, by_row, d;
    unsigned mask[9]; /* places of d in each candidate base line */
    int lines[9], m;  /* those lines */
    int idx[4];       /* the base lines tried: indices into lines */
};

/* The box every fin of the base lines lies in (outside `cover`), or -1
 * when there is no fin, the fins span boxes or a base line has no cell in
 * the cover. *sashimi: a base line keeps one cell in the cover. */
static int fin_box(const struct finned *f, unsigned cover, int *sashimi)
{
    int finbox = -1;

    *sashimi = 0;
    for (int i = 0; i < f->size; i++) {
        unsigned in = f->mask[f->idx[i]] & cover;
        unsigned fins = f->mask[f->idx[i]] & ~cover;
        if (in == 0)
            return -1;
        *sashimi |= grid_popcount(in) == 1 && fins;
        for (unsigned rest = fins; rest; rest &= rest - 1) {
            int c =
                line_cell(f->by_row, f->lines[f->idx[i]], __builtin_ctz(rest));
            if (finbox >= 0 && grid_box(c) != finbox)
                return -1;
            finbox = grid_box(c);
        }
    }
    return finbox;
}

/* The step of a fish with its fins in `finbox`: 1 when it eliminates. */
static int finned_step(const struct finned *f, unsigned base, unsigned cover,
                       int finbox, int sashimi, struct logic_step *out)
{
    static const enum logic_technique kinds[5] = {0, 0, LOGIC_FINNED_X_WING,
                                                  LOGIC_FINNED_SWORDFISH,
                                                  LOGIC_FINNED_JELLYFISH};
    unsigned bit = 1u << (f->d - 1);

    /* along a cover line, the fin box holds positions k0..k0+2 */
    int k0 = f->by_row ? (finbox / 3) * 3 : (finbox % 3) * 3;

    logic_step_start(out, kinds[f->size], (uint16_t)bit);
    for (int line = 0; line < 9; line++) {
        if (!(cover & (1u << line)))
            continue;
        for (int k = k0; k < k0 + 3; k++) {
            int c = line_cell(!f->by_row, line, k);
            if (!(base & (1u << k)) && (f->g->cand[c] & bit) &&
                grid_box(c) == finbox)
                logic_step_elim(out, c, f->d);
        }
    }
    if (out->neliminations == 0)
        return 0;
    out->depth = (uint8_t)sashimi;
    for (int i = 0; i < f->size; i++)
        logic_step_unit(out, (f->by_row ? 0 : 9) + f->lines[f->idx[i]]);
    for (int line = 0; line < 9; line++)
        if (cover & (1u << line))
            logic_step_unit(out, (f->by_row ? 9 : 0) + line);
    /* the fish's cells, then the fins */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < f->size; i++)
            for (int k = 0; k < 9; k++)
                if (f->mask[f->idx[i]] & (1u << k) &&
                    (!(cover & (1u << k))) == pass)
                    logic_step_cell(
                        out, line_cell(f->by_row, f->lines[f->idx[i]], k));
    return 1;
}

/* The base lines f->idx: a cover and fins that give a step? */
static int try_bases(const struct finned *f, struct logic_step *out)
{
    unsigned uni = 0, base = 0;

    for (int i = 0; i < f->size; i++) {
        uni |= f->mask[f->idx[i]];
        base |= 1u << f->lines[f->idx[i]];
    }
    if (grid_popcount(uni) <= f->size || grid_popcount(uni) > f->size + 3)
        return 0;
    /* The fins lie in one box, so in one stack of three lines s: the
     * cover holds every line of the union outside s, and the rest of its
     * lines from inside. */
    for (int st = 0; st < 3; st++) {
        unsigned outside = uni & ~(7u << (3 * st));
        unsigned inside = (uni >> (3 * st)) & 7u;
        int need = f->size - grid_popcount(outside);
        for (unsigned sub = 0; need >= 0 && sub < 8; sub++) {
            unsigned cover = outside | (sub << (3 * st));
            int finbox, sashimi;
            if ((sub & ~inside) || grid_popcount(sub) != need)
                continue;
            finbox = fin_box(f, cover, &sashimi);
            if (finbox >= 0 &&
                finned_step(f, base, cover, finbox, sashimi, out))
                return 1;
        }
    }
    return 0;
}

int logic_find_finned_fish(const struct logic_grid *g, int size,
                           struct logic_step *out)
{
    struct finned f = {.g = g, .size = size};

    for (f.d = 1; f.d <= 9; f.d++) {
        unsigned bit = 1u << (f.d - 1);
        for (f.by_row = 1; f.by_row >= 0; f.by_row--) {
            f.m = 0;
            for (int line = 0; line < 9; line++) {
                unsigned p = 0;
                for (int k = 0; k < 9; k++)
                    if (g->cand[line_cell(f.by_row, line, k)] & bit)
                        p |= 1u << k;
                if (grid_popcount(p) >= 1 && grid_popcount(p) <= size + 3) {
                    f.mask[f.m] = p;
                    f.lines[f.m++] = line;
                }
            }
            if (f.m < size)
                continue;
            for (int i = 0; i < size; i++)
                f.idx[i] = i;
            do
                if (try_bases(&f, out))
                    return 1;
            while (grid_next_comb(f.idx, size, f.m));
        }
    }
    return 0;
}
