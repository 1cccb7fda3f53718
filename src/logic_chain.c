/* logic_chain.c - chains of strong and weak links.
 * A strong link joins two candidates of which at least one is true (the
 * only two places of a digit in a unit, or the two digits of a bivalue
 * cell); a weak link two that cannot both be true (one digit in cells that
 * see each other, or two digits of one cell). A chain that starts and ends
 * with a strong link and alternates proves that one of its two ends is true,
 * so a candidate that sees both ends is false.
 * The named four-node patterns (skyscraper, two-string kite, empty
 * rectangle) and the W-wing are matched directly; X-chains, XY-chains and
 * general AICs come from one breadth-first search per start node over a
 * graph of candidates and grouped nodes (one digit in 2-3 cells of a box
 * and a line), so the first chain found from a start is a shortest one and
 * the search keeps the shortest over all starts. */
#include <stdlib.h>
#include <string.h>

#include "logic_internal.h"

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

static unsigned positions(const struct logic_grid *g, int u, int d)
{
    unsigned m = 0, bit = 1u << (d - 1);

    for (int k = 0; k < 9; k++)
        if (g->cand[logic_unit_cell(u, k)] & bit)
            m |= 1u << k;
    return m;
}

/* Removes d from every cell with it that sees both a and b. */
static void elim_seeing_both(const struct logic_grid *g, int a, int b, int d,
                             struct logic_step *out)
{
    for (int c = 0; c < SUDOKU_CELLS; c++)
        if ((g->cand[c] & (1u << (d - 1))) && logic_sees(c, a) &&
            logic_sees(c, b))
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
        unsigned p1 = positions(g, kind * 9 + l1, d);
        if (logic_popcount(p1) != 2)
            continue;
        for (int l2 = l1 + 1; l2 < 9; l2++) {
            unsigned p2 = positions(g, kind * 9 + l2, d), same = p1 & p2;
            if (logic_popcount(p2) != 2 || logic_popcount(same) != 1)
                continue;
            int base = __builtin_ctz(same);
            int t1 = __builtin_ctz(p1 & ~same), t2 = __builtin_ctz(p2 & ~same);
            int cells[4] = {logic_unit_cell(kind * 9 + l1, t1),
                            logic_unit_cell(kind * 9 + l1, base),
                            logic_unit_cell(kind * 9 + l2, base),
                            logic_unit_cell(kind * 9 + l2, t2)};
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
        unsigned pr = positions(g, r, d);
        if (logic_popcount(pr) != 2)
            continue;
        for (int c = 0; c < 9; c++) {
            unsigned pc = positions(g, 9 + c, d);
            if (logic_popcount(pc) != 2)
                continue;
            for (int i = 0; i < 2; i++)
                for (int j = 0; j < 2; j++) {
                    int rk[2] = {__builtin_ctz(pr), 31 - __builtin_clz(pr)};
                    int ck[2] = {__builtin_ctz(pc), 31 - __builtin_clz(pc)};
                    int rin = r * 9 + rk[i], rout = r * 9 + rk[1 - i];
                    int cin = ck[j] * 9 + c, cout = ck[1 - j] * 9 + c;
                    int cells[4] = {rout, rin, cin, cout};
                    if (rin == cin || rout == cin || cout == rin ||
                        logic_box(rin) != logic_box(cin) ||
                        logic_box(rout) == logic_box(rin) ||
                        logic_box(cout) == logic_box(cin))
                        continue;
                    logic_step_start(out, LOGIC_TWO_STRING_KITE,
                                     (uint16_t)(1u << (d - 1)));
                    elim_seeing_both(g, rout, cout, d, out);
                    if (out->neliminations == 0)
                        continue;
                    link4(out, cells, d);
                    logic_step_unit(out, r);
                    logic_step_unit(out, 9 + c);
                    logic_step_unit(out, 18 + logic_box(rin));
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
                l->cells[l->ncells++] = (uint8_t)logic_unit_cell(18 + b, q);
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
        unsigned pb = positions(g, 18 + b, d);
        if (logic_popcount(pb) < 2)
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
                        unsigned p = positions(g, u, d);
                        int near, far, target;
                        if (logic_popcount(p) != 2 ||
                            (swap ? line / 3 == b / 3 : line / 3 == b % 3))
                            continue;
                        for (int e = 0; e < 2; e++) {
                            int k =
                                e ? 31 - __builtin_clz(p) : __builtin_ctz(p);
                            int ko =
                                e ? __builtin_ctz(p) : 31 - __builtin_clz(p);
                            near = logic_unit_cell(u, k);
                            far = logic_unit_cell(u, ko);
                            if (swap ? logic_col(near) != C
                                     : logic_row(near) != R)
                                continue;
                            target = swap ? R * 9 + logic_col(far)
                                          : logic_row(far) * 9 + C;
                            if (logic_box(target) == b || target == far ||
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
                                                    logic_unit_cell(18 + b, q));
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
        if (g->value[a] || logic_popcount(pair) != 2)
            continue;
        for (int b = a + 1; b < SUDOKU_CELLS; b++) {
            if (g->cand[b] != pair || logic_sees(a, b))
                continue;
            for (int yi = 0; yi < 2; yi++) {
                unsigned ybit = yi ? pair & (pair - 1) : pair & -pair;
                int y = __builtin_ctz(ybit) + 1;
                int x = __builtin_ctz(pair & ~ybit) + 1;
                for (int u = 0; u < LOGIC_NUNITS; u++) {
                    unsigned p = positions(g, u, y);
                    int p1, p2;
                    if (logic_popcount(p) != 2)
                        continue;
                    p1 = logic_unit_cell(u, __builtin_ctz(p));
                    p2 = logic_unit_cell(u, 31 - __builtin_clz(p));
                    if (p1 == a || p1 == b || p2 == a || p2 == b)
                        continue;
                    if (!(logic_sees(p1, a) && logic_sees(p2, b))) {
                        int t = p1;
                        p1 = p2;
                        p2 = t;
                        if (!(logic_sees(p1, a) && logic_sees(p2, b)))
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

/* ------------------------------------------------------------------------
 * The chain search
 * ------------------------------------------------------------------------ */

#define MAX_NODES 1024
#define MAX_STRONG 8192
#define MAX_WEAK 65536
#define MAX_CHAIN 24 /* nodes; longer chains are left to forcing */

struct node {
    uint8_t digit, ncells;
    uint8_t cells[3];
    struct logic_cells set, seen; /* its cells; the cells seeing them all */
};

struct graph {
    int n;
    struct node node[MAX_NODES];
    int16_t single[SUDOKU_CELLS][9];
    uint16_t bydigit[9][MAX_NODES]; /* the nodes of each digit */
    int nbydigit[9];
    uint32_t soff[MAX_NODES + 1], woff[MAX_NODES + 1];
    uint16_t strong[MAX_STRONG], weak[MAX_WEAK];
    /* search state, per node and parity */
    int16_t parent[MAX_NODES * 2];
    uint8_t depth[MAX_NODES * 2];
    uint16_t queue[MAX_NODES * 2];
};

/* A 128-bit view of a cell set: row r is 9 bits at 9r, column c every
 * ninth bit from c, box b a 3x3 block. Peers are three shifts. */
__extension__ typedef unsigned __int128 cells128;

struct logic_cells logic_peers(int cell)
{
    static const cells128 row = 0x1FF;
    const cells128 col = (cells128)0x8040201008040201ull | ((cells128)1 << 72);
    const cells128 box = 0x7 | (0x7 << 9) | (0x7 << 18);
    int r = logic_row(cell), c = logic_col(cell);
    cells128 m =
        (row << (9 * r)) | (col << c) | (box << (27 * (r / 3) + 3 * (c / 3)));
    struct logic_cells s;

    m &= ~((cells128)1 << cell);
    s.w[0] = (uint64_t)m;
    s.w[1] = (uint64_t)(m >> 64);
    return s;
}

static int add_node(struct graph *gr, int d, const int *cells, int n)
{
    struct node *nd;

    if (gr->n >= MAX_NODES)
        return -1;
    nd = &gr->node[gr->n];
    memset(nd, 0, sizeof(*nd));
    nd->digit = (uint8_t)d;
    nd->ncells = (uint8_t)n;
    nd->seen.w[0] = nd->seen.w[1] = ~0ull;
    for (int i = 0; i < n; i++) {
        nd->cells[i] = (uint8_t)cells[i];
        logic_cells_add(&nd->set, cells[i]);
        nd->seen = logic_cells_and(nd->seen, logic_peers(cells[i]));
    }
    return gr->n++;
}

/* The node of digit d at exactly the cells of unit u in mask m (one cell,
 * or 2-3 cells of a box and a line), or -1. */
static int find_node(const struct graph *gr, int d, int u, unsigned m)
{
    struct logic_cells s = {{0, 0}};

    if (logic_popcount(m) == 1)
        return gr->single[logic_unit_cell(u, __builtin_ctz(m))][d - 1];
    for (int k = 0; k < 9; k++)
        if (m & (1u << k))
            logic_cells_add(&s, logic_unit_cell(u, k));
    for (int k = 0; k < gr->nbydigit[d - 1]; k++) {
        int i = gr->bydigit[d - 1][k];
        if (gr->node[i].ncells > 1 && gr->node[i].set.w[0] == s.w[0] &&
            gr->node[i].set.w[1] == s.w[1])
            return i;
    }
    return -1;
}

static int subset(const struct logic_cells *a, const struct logic_cells *b)
{
    return (a->w[0] & ~b->w[0]) == 0 && (a->w[1] & ~b->w[1]) == 0;
}

/* The nodes allowed by `kind` (digit: X chains only): single candidates,
 * then grouped ones (d in 2-3 cells of a box and a line); indexed by
 * digit. -1 when the graph is full. */
static int add_nodes(struct graph *gr, const struct logic_grid *g,
                     enum logic_chain_kind kind, int digit)
{
    gr->n = 0;
    memset(gr->single, 0xFF, sizeof(gr->single));
    for (int c = 0; c < SUDOKU_CELLS; c++) {
        if (g->value[c] ||
            (kind == LOGIC_CHAIN_XY && logic_popcount(g->cand[c]) != 2))
            continue;
        for (int d = 1; d <= 9; d++)
            if ((g->cand[c] & (1u << (d - 1))) &&
                (kind != LOGIC_CHAIN_X || d == digit)) {
                int one[1] = {c};
                if ((gr->single[c][d - 1] = (int16_t)add_node(gr, d, one, 1)) <
                    0)
                    return -1;
            }
    }
    if (kind != LOGIC_CHAIN_XY)
        for (int d = 1; d <= 9; d++) {
            if (kind == LOGIC_CHAIN_X && d != digit)
                continue;
            for (int b = 0; b < 9; b++)
                for (int line = 0; line < 6; line++) {
                    int cells[3], n = 0;
                    for (int k = 0; k < 3; k++) {
                        int r = line < 3 ? (b / 3) * 3 + line : (b / 3) * 3 + k;
                        int c =
                            line < 3 ? (b % 3) * 3 + k : (b % 3) * 3 + line - 3;
                        if (g->cand[r * 9 + c] & (1u << (d - 1)))
                            cells[n++] = r * 9 + c;
                    }
                    if (n >= 2 && add_node(gr, d, cells, n) < 0)
                        return -1;
                }
        }
    memset(gr->nbydigit, 0, sizeof(gr->nbydigit));
    for (int i = 0; i < gr->n; i++) {
        int d = gr->node[i].digit - 1;
        gr->bydigit[d][gr->nbydigit[d]++] = (uint16_t)i;
    }
    return 0;
}

/* Node i's strong links: the rest of its digit in a unit holding all of
 * its cells, and the other digit of its bivalue cell. */
static void add_strong(struct graph *gr, const struct logic_grid *g,
                       enum logic_chain_kind kind, int i, uint32_t *ns)
{
    const struct node *a = &gr->node[i];

    if (kind != LOGIC_CHAIN_XY)
        for (int q = 0; q < 3; q++) {
            /* only the row, column and box of its first cell can hold
             * all of its cells */
            int u = q == 0   ? logic_row(a->cells[0])
                    : q == 1 ? 9 + logic_col(a->cells[0])
                             : 18 + logic_box(a->cells[0]);
            unsigned p = 0, mine = 0;
            int m;
            for (int k = 0; k < 9; k++) {
                int c = logic_unit_cell(u, k);
                if (g->cand[c] & (1u << (a->digit - 1)))
                    p |= 1u << k;
                if (logic_cells_has(&a->set, c))
                    mine |= 1u << k;
            }
            if (logic_popcount(mine) != a->ncells || (p & ~mine) == 0)
                continue;
            m = find_node(gr, a->digit, u, p & ~mine);
            if (m >= 0 && *ns < MAX_STRONG)
                gr->strong[(*ns)++] = (uint16_t)m;
        }
    if (a->ncells == 1 && kind != LOGIC_CHAIN_X &&
        logic_popcount(g->cand[a->cells[0]]) == 2) {
        int other =
            __builtin_ctz(g->cand[a->cells[0]] & ~(1u << (a->digit - 1))) + 1;
        int m = gr->single[a->cells[0]][other - 1];
        if (m >= 0 && *ns < MAX_STRONG)
            gr->strong[(*ns)++] = (uint16_t)m;
    }
}

/* Node i's weak links: its digit in cells that see all of its cells, and
 * (AIC) the other digits of its cell. */
static void add_weak(struct graph *gr, enum logic_chain_kind kind, int i,
                     uint32_t *nw)
{
    const struct node *a = &gr->node[i];

    for (int k = 0; k < gr->nbydigit[a->digit - 1]; k++) {
        int j = gr->bydigit[a->digit - 1][k];
        if (j != i && subset(&gr->node[j].set, &a->seen) && *nw < MAX_WEAK)
            gr->weak[(*nw)++] = (uint16_t)j;
    }
    if (a->ncells == 1 && kind == LOGIC_CHAIN_AIC)
        for (int d = 1; d <= 9; d++) {
            int m = gr->single[a->cells[0]][d - 1];
            if (d != a->digit && m >= 0 && *nw < MAX_WEAK)
                gr->weak[(*nw)++] = (uint16_t)m;
        }
}

/* Builds the nodes and links allowed by `kind` (digit: X chains only). */
static int build(struct graph *gr, const struct logic_grid *g,
                 enum logic_chain_kind kind, int digit)
{
    uint32_t ns = 0, nw = 0;

    if (add_nodes(gr, g, kind, digit) < 0)
        return -1;
    for (int i = 0; i < gr->n; i++) {
        gr->soff[i] = ns;
        add_strong(gr, g, kind, i, &ns);
        gr->woff[i] = nw;
        add_weak(gr, kind, i, &nw);
    }
    gr->soff[gr->n] = ns;
    gr->woff[gr->n] = nw;
    return 0;
}

/* What a chain from node s to node e (both ends true-or) removes; the
 * eliminations go into out. Returns their number (a placement counts 1). */
static int conclude(const struct graph *gr, const struct logic_grid *g, int s,
                    int e, struct logic_step *out)
{
    const struct node *a = &gr->node[s], *b = &gr->node[e];

    out->neliminations = 0;
    out->nplacements = 0;
    if (s == e) {
        if (a->ncells != 1)
            return 0;
        out->placements[0] = (struct logic_move){a->cells[0], a->digit};
        out->nplacements = 1;
        return 1;
    }
    if (a->digit == b->digit) {
        struct logic_cells t = logic_cells_and(a->seen, b->seen);
        for (int c = 0; c < SUDOKU_CELLS; c++)
            if (logic_cells_has(&t, c) && (g->cand[c] & (1u << (a->digit - 1))))
                logic_step_elim(out, c, a->digit);
        return out->neliminations;
    }
    if (a->ncells != 1 || b->ncells != 1)
        return 0;
    if (a->cells[0] == b->cells[0]) {
        for (int d = 1; d <= 9; d++)
            if (d != a->digit && d != b->digit &&
                (g->cand[a->cells[0]] & (1u << (d - 1))))
                logic_step_elim(out, a->cells[0], d);
    } else if (logic_sees(a->cells[0], b->cells[0])) {
        if (g->cand[a->cells[0]] & (1u << (b->digit - 1)))
            logic_step_elim(out, a->cells[0], b->digit);
        if (g->cand[b->cells[0]] & (1u << (a->digit - 1)))
            logic_step_elim(out, b->cells[0], a->digit);
    }
    return out->neliminations;
}

/* Breadth-first from node s; returns the end state of the first chain
 * (shortest) with a conclusion shorter than `limit` nodes, or -1. */
static int search_from(struct graph *gr, const struct logic_grid *g, int s,
                       int limit, struct logic_step *scratch)
{
    int head = 0, tail = 0;

    memset(gr->depth, 0, (size_t)gr->n * 2);
    gr->depth[s * 2] = 1;
    gr->parent[s * 2] = -1;
    gr->queue[tail++] = (uint16_t)(s * 2);
    while (head < tail) {
        int st = gr->queue[head++], n = st / 2, p = st % 2;
        int dep = gr->depth[st];
        uint32_t lo = p ? gr->woff[n] : gr->soff[n];
        uint32_t hi = p ? gr->woff[n + 1] : gr->soff[n + 1];
        if (dep + 1 >= limit)
            break;
        for (uint32_t k = lo; k < hi; k++) {
            int m = p ? gr->weak[k] : gr->strong[k], ms = m * 2 + !p;
            if (gr->depth[ms])
                continue;
            gr->depth[ms] = (uint8_t)(dep + 1);
            gr->parent[ms] = (int16_t)st;
            gr->queue[tail++] = (uint16_t)ms;
            if (!p && dep + 1 >= 4 && conclude(gr, g, s, m, scratch) > 0)
                return ms;
        }
    }
    return -1;
}

static void put_link(struct logic_step *out, const struct node *nd, int kind)
{
    struct logic_link *l;

    if (out->nlinks >= LOGIC_MAX_LINKS)
        return;
    l = &out->links[out->nlinks++];
    memset(l, 0, sizeof(*l));
    memcpy(l->cells, nd->cells, 3);
    l->ncells = nd->ncells;
    l->digit = nd->digit;
    l->link = (uint8_t)kind;
}

/* Fills out with the chain ending in state `end` (from start s). */
static void emit(const struct graph *gr, const struct logic_grid *g, int s,
                 int end, enum logic_chain_kind kind, struct logic_step *out)
{
    int path[MAX_CHAIN + 1], n = 0, grouped = 0, remote = 1;
    unsigned digits = 0;
    enum logic_technique t;
    struct logic_step tmp;

    for (int st = end; st >= 0 && n <= MAX_CHAIN; st = gr->parent[st])
        path[n++] = st / 2;
    for (int i = 0; i < n; i++) {
        const struct node *nd = &gr->node[path[i]];
        digits |= 1u << (nd->digit - 1);
        grouped |= nd->ncells > 1;
        if (nd->ncells == 1 &&
            g->cand[nd->cells[0]] != g->cand[gr->node[path[0]].cells[0]])
            remote = 0;
    }
    if (kind == LOGIC_CHAIN_X)
        t = LOGIC_X_CHAIN;
    else if (kind == LOGIC_CHAIN_XY)
        t = remote && n >= 8 &&
                    gr->node[path[0]].digit == gr->node[path[n - 1]].digit
                ? LOGIC_REMOTE_PAIRS
                : LOGIC_XY_CHAIN;
    else
        t = LOGIC_AIC;
    logic_step_start(&tmp, t, (uint16_t)digits);
    conclude(gr, g, s, end / 2, &tmp);
    tmp.chain_length = (uint8_t)n;
    tmp.rating =
        (uint8_t)(logic_technique_rating(t) + logic_chain_bonus((unsigned)n));
    tmp.depth = (uint8_t)grouped;
    /* path runs end -> start: emit start first */
    for (int i = n - 1; i >= 0; i--) {
        const struct node *nd = &gr->node[path[i]];
        int kindl = i == 0                 ? LOGIC_LINK_END
                    : (n - 1 - i) % 2 == 0 ? LOGIC_LINK_STRONG
                                           : LOGIC_LINK_WEAK;
        put_link(&tmp, nd, kindl);
        for (int k = 0; k < nd->ncells; k++) {
            int dup = 0;
            for (int q = 0; q < tmp.ncells; q++)
                dup |= tmp.cells[q] == nd->cells[k];
            if (!dup)
                logic_step_cell(&tmp, nd->cells[k]);
        }
    }
    *out = tmp;
}

int logic_find_chain(const struct logic_grid *g, enum logic_chain_kind kind,
                     const struct logic_budget *b, struct logic_step *out)
{
    struct graph *gr = malloc(sizeof(*gr));
    struct logic_step scratch;
    int best_len = MAX_CHAIN + 1, best_s = -1, best_end = -1, found = 0;
    int result = 0;

    if (gr == NULL)
        return 0;
    for (int d = 1; d <= (kind == LOGIC_CHAIN_X ? 9 : 1); d++) {
        if (build(gr, g, kind, d) != 0)
            continue;
        for (int s = 0; s < gr->n; s++) {
            int end;
            if (gr->soff[s] == gr->soff[s + 1])
                continue;
            if ((s & 31) == 0 && logic_expired(b)) {
                result = -1;
                goto out;
            }
            end = search_from(gr, g, s, best_len, &scratch);
            if (end >= 0) {
                int len = gr->depth[end];
                if (len < best_len) {
                    best_len = len;
                    best_s = s;
                    best_end = end;
                    found = 1;
                }
            }
        }
        if (found && kind == LOGIC_CHAIN_X) {
            /* the graph of this digit is still built: emit now (after
             * searching from the best start again, as later starts
             * overwrote its parents) */
            best_end = search_from(gr, g, best_s, best_len + 1, &scratch);
            emit(gr, g, best_s, best_end, kind, out);
            result = 1;
            goto out;
        }
    }
    if (found) {
        best_end = search_from(gr, g, best_s, best_len + 1, &scratch);
        emit(gr, g, best_s, best_end, kind, out);
        result = 1;
    }
out:
    free(gr);
    return result;
}
