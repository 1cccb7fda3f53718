/* logic_chain.c - chains of strong and weak links.
 * A strong link joins two candidates of which at least one is true (the
 * only two places of a digit in a unit, or the two digits of a bivalue
 * cell); a weak link two that cannot both be true (one digit in cells that
 * see each other, or two digits of one cell). A chain that starts and ends
 * with a strong link and alternates proves that one of its two ends is true,
 * so a candidate that sees both ends is false.
 * X-chains, XY-chains and general AICs come from one breadth-first search
 * per start node over a graph of candidates and grouped nodes (one digit in
 * 2-3 cells of a box and a line), so the first chain found from a start is
 * a shortest one and the search keeps the shortest over all starts. The
 * named four-node patterns and the W-wing are in logic_turbot.c. */
#include <stdlib.h>
#include <string.h>

#include "logic_internal.h"

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
    int r = grid_row(cell), c = grid_col(cell);
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

    if (grid_popcount(m) == 1)
        return gr->single[grid_unit_cell(u, __builtin_ctz(m))][d - 1];
    for (int k = 0; k < 9; k++)
        if (m & (1u << k))
            logic_cells_add(&s, grid_unit_cell(u, k));
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
            (kind == LOGIC_CHAIN_XY && grid_popcount(g->cand[c]) != 2))
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
            int u = q == 0   ? grid_row(a->cells[0])
                    : q == 1 ? 9 + grid_col(a->cells[0])
                             : 18 + grid_box(a->cells[0]);
            unsigned p = 0, mine = 0;
            int m;
            for (int k = 0; k < 9; k++) {
                int c = grid_unit_cell(u, k);
                if (g->cand[c] & (1u << (a->digit - 1)))
                    p |= 1u << k;
                if (logic_cells_has(&a->set, c))
                    mine |= 1u << k;
            }
            if (grid_popcount(mine) != a->ncells || (p & ~mine) == 0)
                continue;
            m = find_node(gr, a->digit, u, p & ~mine);
            if (m >= 0 && *ns < MAX_STRONG)
                gr->strong[(*ns)++] = (uint16_t)m;
        }
    if (a->ncells == 1 && kind != LOGIC_CHAIN_X &&
        grid_popcount(g->cand[a->cells[0]]) == 2) {
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
    } else if (grid_sees(a->cells[0], b->cells[0])) {
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
