/* logic_turbot.c - the named short chains, matched directly: the turbot
 * fish (skyscraper, two-string kite, empty rectangle: four nodes of one
 * digit, two of them strong links) and the W-wing (two bivalue cells with
 * the same digits joined by a strong link on one of them). Each proves
 * that one of two candidates is true, so what sees both is false (see
 * logic_chain.c for the general search). */
#include <string.h>

#include "logic_internal.h"

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

/* Removes d from every cell with it that sees both a and b. */
static void elim_seeing_both(const struct logic_grid *g, int a, int b, int d,
                             struct logic_step *out)
{
    for (int c = 0; c < SUDOKU_CELLS; c++)
        if ((g->cand[c] & (1u << (d - 1))) && grid_sees(c, a) &&
            grid_sees(c, b))
            logic_step_elim(out, c, d);
}

static void link4(struct logic_step *out, const int *cells, int d)
{
    for (int i = 0; i < 4; i++) {
        logic_step_cell(out, cells[i]);
        logic_step_link(out, cells[i], d,
                        i == 3       ? LOGIC_LINK_END
                        : i % 2 == 0 ? LOGIC_LINK_STRONG
                                     : LOGIC_LINK_WEAK);
    }
    out->chain_length = 4;
}

/* ------------------------------------------------------------------------
 * Skyscraper, two-string kite, empty rectangle
 * ------------------------------------------------------------------------ */

/* Two conjugate pairs of d on lines of kind `kind` (0 rows, 1 columns)
 * sharing one end's cross line: the other two ends ("tops") hold one d. */
static int skyscraper(const struct logic_grid *g, int d, int kind,
                      struct logic_step *out)
{
    for (int l1 = 0; l1 < 9; l1++) {
        unsigned p1 = logic_positions(g, kind * 9 + l1, d);
        if (grid_popcount(p1) != 2)
            continue;
        for (int l2 = l1 + 1; l2 < 9; l2++) {
            unsigned p2 = logic_positions(g, kind * 9 + l2, d), same = p1 & p2;
            if (grid_popcount(p2) != 2 || grid_popcount(same) != 1)
                continue;
            int base = __builtin_ctz(same);
            int t1 = __builtin_ctz(p1 & ~same), t2 = __builtin_ctz(p2 & ~same);
            int cells[4] = {grid_unit_cell(kind * 9 + l1, t1),
                            grid_unit_cell(kind * 9 + l1, base),
                            grid_unit_cell(kind * 9 + l2, base),
                            grid_unit_cell(kind * 9 + l2, t2)};
            logic_step_start(out, LOGIC_SKYSCRAPER, (uint16_t)(1u << (d - 1)));
            elim_seeing_both(g, cells[0], cells[3], d, out);
            if (out->neliminations == 0)
                continue;
            link4(out, cells, d);
            logic_step_unit(out, kind * 9 + l1);
            logic_step_unit(out, kind * 9 + l2);
            return 1;
        }
    }
    return 0;
}

/* A row pair and a column pair of d with one end each in one box (not the
 * same cell): the other two ends hold one d. */
static int kite(const struct logic_grid *g, int d, struct logic_step *out)
{
    for (int r = 0; r < 9; r++) {
        unsigned pr = logic_positions(g, r, d);
        if (grid_popcount(pr) != 2)
            continue;
        for (int c = 0; c < 9; c++) {
            unsigned pc = logic_positions(g, 9 + c, d);
            if (grid_popcount(pc) != 2)
                continue;
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++) {
                    int rk[2] = {__builtin_ctz(pr), 31 - __builtin_clz(pr)};
                    int ck[2] = {__builtin_ctz(pc), 31 - __builtin_clz(pc)};
                    int rin = r * 9 + rk[i], rout = r * 9 + rk[1 - i];
                    int cin = ck[j] * 9 + c, cout = ck[1 - j] * 9 + c;
                    int cells[4] = {rout, rin, cin, cout};
                    if (rin == cin || rout == cin || cout == rin ||
                        grid_box(rin) != grid_box(cin) ||
                        grid_box(rout) == grid_box(rin) ||
                        grid_box(cout) == grid_box(cin))
                        continue;
                    logic_step_start(out, LOGIC_TWO_STRING_KITE,
                                     (uint16_t)(1u << (d - 1)));
                    elim_seeing_both(g, rout, cout, d, out);
                    if (out->neliminations == 0)
                        continue;
                    link4(out, cells, d);
                    logic_step_unit(out, r);
                    logic_step_unit(out, 9 + c);
                    logic_step_unit(out, 18 + grid_box(rin));
                    return 1;
                }
        }
    }
    return 0;
}

/* The empty rectangle's chain: far = near - the box's d in near's line
 * (`first`, as positions in box b) = the box's d in the cross line
 * (`second`). */
static void er_links(struct logic_step *out, int far, int near, int b, int d,
                     unsigned first, unsigned second, unsigned pb)
{
    logic_step_link(out, far, d, LOGIC_LINK_STRONG);
    logic_step_link(out, near, d, LOGIC_LINK_WEAK);
    for (int part = 0; part < 2; part++) {
        struct logic_link *l = &out->links[out->nlinks];
        unsigned m = pb & (part == 0 ? first : second);
        if (out->nlinks >= LOGIC_MAX_LINKS)
            break;
        memset(l, 0, sizeof(*l));
        for (int q = 0; q < 9; q++)
            if (m & (1u << q) && l->ncells < 3)
                l->cells[l->ncells++] = (uint8_t)grid_unit_cell(18 + b, q);
        l->digit = (uint8_t)d;
        l->link = part == 0 ? LOGIC_LINK_STRONG : LOGIC_LINK_END;
        out->nlinks++;
    }
    out->chain_length = 4;
}

/* Box b's d all lie in row R and column C of the box, in both. A conjugate
 * pair of d in a column c' outside the box's stack, one end in row R: if
 * that end is d, the box's d is in column C; if not, the other end [rB,c']
 * is. So [rB,C] (outside the box) is not d. The same with rows and
 * columns swapped. */
static int empty_rectangle(const struct logic_grid *g, int d,
                           struct logic_step *out)
{
    unsigned bit = 1u << (d - 1);

    for (int b = 0; b < 9; b++) {
        unsigned pb = logic_positions(g, 18 + b, d);
        if (grid_popcount(pb) < 2)
            continue;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                int R = (b / 3) * 3 + i, C = (b % 3) * 3 + j;
                unsigned rowpart = 7u << (i * 3), colpart = 0x49u << j;
                if ((pb & ~(rowpart | colpart)) || !(pb & rowpart & ~colpart) ||
                    !(pb & colpart & ~rowpart))
                    continue;
                for (int swap = 0; swap < 2; swap++)
                    for (int line = 0; line < 9; line++) {
                        /* swap 0: a column c' = line; swap 1: a row r' */
                        int u = swap ? line : 9 + line;
                        unsigned p = logic_positions(g, u, d);
                        int near, far, target;
                        if (grid_popcount(p) != 2 ||
                            (swap ? line / 3 == b / 3 : line / 3 == b % 3))
                            continue;
                        for (int e = 0; e < 2; e++) {
                            int k =
                                e ? 31 - __builtin_clz(p) : __builtin_ctz(p);
                            int ko =
                                e ? __builtin_ctz(p) : 31 - __builtin_clz(p);
                            near = grid_unit_cell(u, k);
                            far = grid_unit_cell(u, ko);
                            if (swap ? grid_col(near) != C
                                     : grid_row(near) != R)
                                continue;
                            target = swap ? R * 9 + grid_col(far)
                                          : grid_row(far) * 9 + C;
                            if (grid_box(target) == b || target == far ||
                                !(g->cand[target] & bit) || g->value[target])
                                continue;
                            logic_step_start(out, LOGIC_EMPTY_RECTANGLE,
                                             (uint16_t)bit);
                            logic_step_elim(out, target, d);
                            logic_step_cell(out, far);
                            logic_step_cell(out, near);
                            for (int q = 0; q < 9; q++)
                                if (pb & (1u << q))
                                    logic_step_cell(out,
                                                    grid_unit_cell(18 + b, q));
                            logic_step_unit(out, 18 + b);
                            logic_step_unit(out, u);
                            logic_step_unit(out, R);
                            logic_step_unit(out, 9 + C);
                            er_links(
                                out, far, near, b, d,
                                swap ? colpart & ~rowpart : rowpart & ~colpart,
                                swap ? rowpart & ~colpart : colpart & ~rowpart,
                                pb);
                            return 1;
                        }
                    }
            }
    }
    return 0;
}

int logic_find_turbot(const struct logic_grid *g, struct logic_step *out)
{
    for (int d = 1; d <= 9; d++)
        if (skyscraper(g, d, 0, out) || skyscraper(g, d, 1, out))
            return 1;
    for (int d = 1; d <= 9; d++)
        if (kite(g, d, out))
            return 1;
    for (int d = 1; d <= 9; d++)
        if (empty_rectangle(g, d, out))
            return 1;
    return 0;
}

/* ------------------------------------------------------------------------
 * W-wing
 * ------------------------------------------------------------------------ */

/* Bivalue cells A and B with the same digits {x,y} that do not see each
 * other, and a strong link on y from a cell seeing A to one seeing B: one
 * of A and B is x, so x leaves the cells that see both. */
int logic_find_w_wing(const struct logic_grid *g, struct logic_step *out)
{
    for (int a = 0; a < SUDOKU_CELLS; a++) {
        unsigned pair = g->cand[a];
        if (g->value[a] || grid_popcount(pair) != 2)
            continue;
        for (int b = a + 1; b < SUDOKU_CELLS; b++) {
            if (g->cand[b] != pair || grid_sees(a, b))
                continue;
            for (int yi = 0; yi < 2; yi++) {
                unsigned ybit = yi ? pair & (pair - 1) : pair & -pair;
                int y = __builtin_ctz(ybit) + 1;
                int x = __builtin_ctz(pair & ~ybit) + 1;
                for (int u = 0; u < GRID_UNITS; u++) {
                    unsigned p = logic_positions(g, u, y);
                    int p1, p2;
                    if (grid_popcount(p) != 2)
                        continue;
                    p1 = grid_unit_cell(u, __builtin_ctz(p));
                    p2 = grid_unit_cell(u, 31 - __builtin_clz(p));
                    if (p1 == a || p1 == b || p2 == a || p2 == b)
                        continue;
                    if (!(grid_sees(p1, a) && grid_sees(p2, b))) {
                        int t = p1;
                        p1 = p2;
                        p2 = t;
                        if (!(grid_sees(p1, a) && grid_sees(p2, b)))
                            continue;
                    }
                    logic_step_start(out, LOGIC_W_WING, (uint16_t)pair);
                    elim_seeing_both(g, a, b, x, out);
                    if (out->neliminations == 0)
                        continue;
                    logic_step_cell(out, a);
                    logic_step_cell(out, b);
                    logic_step_cell(out, p1);
                    logic_step_cell(out, p2);
                    logic_step_unit(out, u);
                    logic_step_link(out, a, x, LOGIC_LINK_STRONG);
                    logic_step_link(out, a, y, LOGIC_LINK_WEAK);
                    logic_step_link(out, p1, y, LOGIC_LINK_STRONG);
                    logic_step_link(out, p2, y, LOGIC_LINK_WEAK);
                    logic_step_link(out, b, y, LOGIC_LINK_STRONG);
                    logic_step_link(out, b, x, LOGIC_LINK_END);
                    out->chain_length = 6;
                    return 1;
                }
            }
        }
    }
    return 0;
}
