/* teach_aic.c - alternating inference chains (AIC) over the peer graph,
 * found breadth-first from every candidate, the shortest kept.
 *
 * A node is a candidate (cell c, digit d) assumed false or true. From
 * "c is not d" a strong link gives "c is e" (e the cell's only other
 * candidate) or "o is d" (o the only other place for d in a unit holding
 * c that holds d once for sure: a full unit, or a cage whose every
 * fitting digit set holds d). From "c is d" a weak link gives "c is not
 * e" (any other candidate of the cell) or "o is not d" (any peer o: a
 * unit, or the knight's or king's move). Every link is an implication,
 * so reaching "Y is true" from "X is false" proves X or Y true: a
 * candidate that either would rule out (a weak link to both) is false.
 * X-chains (one digit) and XY-chains (two-candidate cells only) are the
 * special cases tried before; this search mixes both kinds of link.
 *
 * Grouped nodes: two or more places of a digit taken as one node, "one
 * of them is d" or "none is": where two units overlap (a box and a row, a
 * region and a column, ...), and, made on the way, the places in a unit
 * that a true node sees when the unit's other places are one cell or
 * group (so "c is d" gives "o is d" through them). A unit whose places for
 * d are one cell or group and one more gives a strong link between them;
 * a node that sees every cell of a group is weakly linked to it.
 *
 * Node ids: ((cell * n) + digit - 1) * 2 + truth for a candidate, then
 * base + group * 2 + truth. Each search is bounded by the shortest chain
 * found so far, so the later searches stay short. */
#include <string.h>

#include "teach_internal.h"

/* The largest side searched: on 16x16 and 25x25 the search took more of
 * the budget the forcing chain needs than it gave (docs/performance.md). */
#define AIC_MAX_N 12
#define AIC_MAX_GROUPS 1024
#define AIC_NODES (AIC_MAX_N * AIC_MAX_N * AIC_MAX_N * 2 + AIC_MAX_GROUPS * 2)
#define AIC_UNSEEN 0xffffu
#define AIC_NO_UNIT 0xffffu
#define AIC_MAX_LINKS (TEACH_MAX_CELLS + AIC_MAX_GROUPS + TEACH_MAX_N)

/* A group: digit d's places (two or more) in the overlap of units u and
 * v; `seen` the cells that see all of them (not themselves). */
struct aic_group {
    uint8_t digit, ncells;
    uint16_t u, v;
    uint16_t cell[AIC_MAX_N];
    uint64_t seen[TEACH_WORDS];
};

struct aic_search {
    const struct teach_puzzle *p;
    const struct teach_grid *g;
    unsigned base, ngroups; /* base: the first group node id */
    unsigned nstatic;       /* groups[nstatic..]: made by the searches */
    uint16_t first[TEACH_MAX_N + 1]; /* digit d's groups: first[d-1].. */
    uint32_t holds[TEACH_MAX_UNITS]; /* digits a unit surely holds once */
    /* bit k of places[u][d-1]: unit u's k-th cell may hold d */
    uint32_t places[TEACH_MAX_UNITS][TEACH_MAX_N];
    struct aic_group group[AIC_MAX_GROUPS];
    uint16_t parent[AIC_NODES];
    uint8_t depth[AIC_NODES];
    uint16_t queue[AIC_NODES];
    struct teach_step best;
    unsigned best_nodes; /* 0: none yet */
};

static int in_set(const uint64_t *set, unsigned c)
{
    return (int)((set[c >> 6] >> (c & 63)) & 1u);
}

static int is_group(const struct aic_search *as, unsigned v)
{
    return v >= as->base;
}

static const struct aic_group *group_of(const struct aic_search *as, unsigned v)
{
    return &as->group[(v - as->base) / 2];
}

static unsigned node_cell(const struct aic_search *as, unsigned v)
{
    return is_group(as, v) ? group_of(as, v)->cell[0] : v / 2 / as->p->n;
}

static unsigned node_digit(const struct aic_search *as, unsigned v)
{
    return is_group(as, v) ? group_of(as, v)->digit : v / 2 % as->p->n + 1;
}

static unsigned node_of(const struct aic_search *as, unsigned cell,
                        unsigned digit, unsigned truth)
{
    return (cell * as->p->n + digit - 1) * 2 + truth;
}

/* Does unit u hold cell c? */
static int unit_has(const struct teach_puzzle *p, unsigned u, unsigned c)
{
    for (unsigned k = 0; k < p->nunits_of[c]; k++)
        if (p->units_of[c][k] == u)
            return 1;
    return 0;
}

/* ------------------------------------------------------------------------
 * What the grid holds: the units' sure digits and places, the groups
 * ------------------------------------------------------------------------ */

/* Which digits each unit holds exactly once: all of a full unit's, and a
 * cage's digits that every set fitting it holds. */
static void find_holds(struct aic_search *as)
{
    const struct teach_puzzle *p = as->p;
    uint32_t all = (1u << p->n) - 1;

    for (unsigned u = 0; u < p->nunits; u++) {
        const struct teach_unit *x = &p->unit[u];
        struct teach_cage_info info;
        for (unsigned d = 0; d < p->n; d++) {
            as->places[u][d] = 0;
            for (unsigned k = 0; k < x->ncells; k++)
                if (!as->g->value[x->cell[k]] &&
                    (as->g->cand[x->cell[k]] & (1u << d)))
                    as->places[u][d] |= 1u << k;
        }
        as->holds[u] = p->unit[u].full ? all : 0;
        if (p->unit[u].kind == TEACH_CAGE &&
            teach_cage_options(p, as->g, u, &info) == 0)
            as->holds[u] = info.required & all;
    }
}

/* The groups of the grid: for each digit and each two units that hold
 * some digit for sure and overlap in two or more cells, the digit's places in
 * the overlap when there are two or more, digit by digit (first[d-1] ..
 * first[d]). Past AIC_MAX_GROUPS the rest are left out: fewer links, still
 * sound. */
static void find_groups(struct aic_search *as)
{
    const struct teach_puzzle *p = as->p;
    const struct teach_grid *g = as->g;
    static const unsigned max_pairs = 512;
    struct {
        uint16_t u, v, n;
        uint16_t cell[TEACH_MAX_N];
    } pair[512];
    unsigned npairs = 0;

    for (unsigned u = 0; u < p->nunits && npairs < max_pairs; u++) {
        const struct teach_unit *a = &p->unit[u];
        if (!as->holds[u])
            continue;
        for (unsigned v = u + 1; v < p->nunits && npairs < max_pairs; v++) {
            if (!as->holds[v])
                continue;
            pair[npairs].n = 0;
            for (unsigned k = 0; k < a->ncells; k++)
                if (unit_has(p, v, a->cell[k]))
                    pair[npairs].cell[pair[npairs].n++] = a->cell[k];
            if (pair[npairs].n < 2)
                continue;
            pair[npairs].u = (uint16_t)u;
            pair[npairs++].v = (uint16_t)v;
        }
    }
    as->ngroups = 0;
    for (unsigned d = 1; d <= p->n; d++) {
        uint32_t bit = 1u << (d - 1);
        as->first[d - 1] = (uint16_t)as->ngroups;
        for (unsigned i = 0; i < npairs && as->ngroups < AIC_MAX_GROUPS; i++) {
            struct aic_group *gr = &as->group[as->ngroups];
            gr->ncells = 0;
            for (unsigned k = 0; k < pair[i].n; k++)
                if (!g->value[pair[i].cell[k]] &&
                    (g->cand[pair[i].cell[k]] & bit))
                    gr->cell[gr->ncells++] = pair[i].cell[k];
            if (gr->ncells < 2 ||
                !((as->holds[pair[i].u] | as->holds[pair[i].v]) & bit))
                continue;
            gr->digit = (uint8_t)d;
            gr->u = pair[i].u;
            gr->v = pair[i].v;
            memcpy(gr->seen, p->peer[gr->cell[0]], sizeof(gr->seen));
            for (unsigned k = 1; k < gr->ncells; k++)
                for (unsigned w = 0; w < p->nwords; w++)
                    gr->seen[w] &= p->peer[gr->cell[k]][w];
            as->ngroups++;
        }
    }
    as->first[p->n] = (uint16_t)as->ngroups;
    as->nstatic = as->ngroups;
}

/* Are a[] and b[] (distinct cells each) the same set? */
static int same_cells(const uint16_t *a, const uint16_t *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned found = 0;
        for (unsigned j = 0; j < n && !found; j++)
            found = a[i] == b[j];
        if (!found)
            return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------------
 * Links
 * ------------------------------------------------------------------------ */

/* The true node "the rest of unit u's places for d is d" when, without
 * gone[] (a cell or a group), those places are one cell or one group; -1
 * otherwise. */
static int rest_of(const struct aic_search *as, unsigned u, unsigned d,
                   const uint16_t *gone, unsigned ngone)
{
    const struct teach_unit *x = &as->p->unit[u];
    uint16_t rest[TEACH_MAX_N];
    unsigned nrest = 0;
    uint32_t bit = 1u << (d - 1);

    if (!(as->holds[u] & bit))
        return -1;
    for (uint32_t m = as->places[u][d - 1]; m; m &= m - 1) {
        unsigned c = x->cell[__builtin_ctz(m)], out = 0;
        for (unsigned i = 0; i < ngone && !out; i++)
            out = gone[i] == c;
        if (!out)
            rest[nrest++] = (uint16_t)c;
    }
    if (nrest == 1)
        return (int)node_of(as, rest[0], d, 1);
    if (nrest < 2)
        return -1;
    for (unsigned gi = as->first[d - 1]; gi < as->first[d]; gi++) {
        const struct aic_group *gr = &as->group[gi];
        if ((gr->u == u || gr->v == u) && gr->ncells == nrest &&
            same_cells(gr->cell, rest, nrest))
            return (int)(as->base + gi * 2 + 1);
    }
    return -1;
}

/* The group of digit d on cells[] (distinct), made if new (u: the unit
 * whose other places it leaves); -1 when the groups are full. */
static int group_on(struct aic_search *as, unsigned d, unsigned u,
                    const uint16_t *cells, unsigned n)
{
    const struct teach_puzzle *p = as->p;
    struct aic_group *gr;

    for (unsigned gi = as->first[d - 1]; gi < as->ngroups; gi++) {
        if (gi == as->first[d])
            gi = as->nstatic;
        if (gi >= as->ngroups)
            break;
        gr = &as->group[gi];
        if (gr->digit == d && gr->ncells == n && same_cells(gr->cell, cells, n))
            return (int)gi;
    }
    if (as->ngroups >= AIC_MAX_GROUPS)
        return -1;
    gr = &as->group[as->ngroups];
    gr->digit = (uint8_t)d;
    gr->ncells = (uint8_t)n;
    gr->u = (uint16_t)u;
    gr->v = AIC_NO_UNIT;
    memcpy(gr->cell, cells, n * sizeof(cells[0]));
    memcpy(gr->seen, p->peer[cells[0]], sizeof(gr->seen));
    for (unsigned k = 1; k < n; k++)
        for (unsigned w = 0; w < p->nwords; w++)
            gr->seen[w] &= p->peer[cells[k]][w];
    return (int)as->ngroups++;
}

/* "v is true" (seen: what it rules out; anchor: one of its cells) in a
 * unit u that holds d once and not the anchor: the places for d it sees,
 * two or more, are none of them d, so the rest (one cell or a group) is.
 * Adds the group of the places seen as a node, so that link can follow. */
static unsigned seen_places(struct aic_search *as, unsigned d,
                            const uint64_t *seen, unsigned anchor,
                            uint16_t *next)
{
    const struct teach_puzzle *p = as->p;
    uint32_t bit = 1u << (d - 1);
    unsigned nn = 0;

    for (unsigned u = 0; u < p->nunits; u++) {
        const struct teach_unit *x = &p->unit[u];
        uint16_t in[TEACH_MAX_N];
        unsigned nin = 0, nout = 0;
        int gi;
        if (!(as->holds[u] & bit) || teach_popcount(as->places[u][d - 1]) < 3 ||
            unit_has(p, u, anchor))
            continue;
        for (uint32_t m = as->places[u][d - 1]; m; m &= m - 1) {
            unsigned c = x->cell[__builtin_ctz(m)];
            if (in_set(seen, c))
                in[nin++] = (uint16_t)c;
            else
                nout++;
        }
        if (nin < 2 || nout == 0 || rest_of(as, u, d, in, nin) < 0 ||
            (gi = group_on(as, d, u, in, nin)) < 0)
            continue;
        next[nn++] = (uint16_t)(as->base + (unsigned)gi * 2);
    }
    return nn;
}

/* The nodes one link from v, into next[] (room for AIC_MAX_LINKS). */
static unsigned links(struct aic_search *as, unsigned v, uint16_t *next)
{
    const struct teach_puzzle *p = as->p;
    const struct teach_grid *g = as->g;
    unsigned d = node_digit(as, v), nn = 0;
    uint32_t bit = 1u << (d - 1);
    const uint64_t *seen;

    if (is_group(as, v)) {
        const struct aic_group *gr = group_of(as, v);
        if (v % 2 == 0) { /* none of the group is d */
            for (int e = 0; e < 2; e++) {
                int r = (e ? gr->v : gr->u) == AIC_NO_UNIT
                            ? -1
                            : rest_of(as, e ? gr->v : gr->u, d, gr->cell,
                                      gr->ncells);
                if (r >= 0)
                    next[nn++] = (uint16_t)r;
            }
            return nn;
        }
        seen = gr->seen;
    } else {
        unsigned c = node_cell(as, v);
        uint16_t self = (uint16_t)c;
        if (v % 2 == 0) { /* c is not d: strong links */
            if (teach_popcount(g->cand[c]) == 2)
                next[nn++] = (uint16_t)node_of(
                    as, c, (unsigned)teach_low_digit(g->cand[c] & ~bit), 1);
            for (unsigned k = 0; k < p->nunits_of[c]; k++) {
                unsigned u = p->units_of[c][k];
                int r;
                if ((r = rest_of(as, u, d, &self, 1)) >= 0)
                    next[nn++] = (uint16_t)r;
            }
            return nn;
        }
        /* c is d: the cell's other candidates are not */
        for (uint32_t m = g->cand[c] & ~bit; m; m &= m - 1)
            next[nn++] =
                (uint16_t)node_of(as, c, (unsigned)teach_low_digit(m), 0);
        seen = p->peer[c];
    }
    nn += seen_places(as, d, seen, node_cell(as, v), next + nn);
    /* v is true: every cell and group that sees all of it is not d */
    for (unsigned w = 0; w < p->nwords; w++)
        for (uint64_t m = seen[w]; m; m &= m - 1) {
            unsigned o = w * 64 + (unsigned)__builtin_ctzll(m);
            if (!g->value[o] && (g->cand[o] & bit))
                next[nn++] = (uint16_t)node_of(as, o, d, 0);
        }
    for (unsigned gi = as->first[d - 1]; gi < as->first[d]; gi++) {
        const struct aic_group *gr = &as->group[gi];
        unsigned all = 1;
        for (unsigned k = 0; k < gr->ncells && all; k++)
            all = in_set(seen, gr->cell[k]);
        if (all)
            next[nn++] = (uint16_t)(as->base + gi * 2);
    }
    return nn;
}

/* ------------------------------------------------------------------------
 * Chains: what they remove, and the search
 * ------------------------------------------------------------------------ */

/* Is candidate (c, d) ruled out by node v being true? (A weak link.) */
static int ruled_out(const struct aic_search *as, unsigned c, unsigned d,
                     unsigned v)
{
    unsigned dv = node_digit(as, v);

    if (is_group(as, v))
        return d == dv && in_set(group_of(as, v)->seen, c);
    return c == node_cell(as, v)
               ? d != dv
               : d == dv && teach_is_peer(as->p, c, node_cell(as, v));
}

/* The candidates weak-linked to both ends (nodes x and y), into s: of the
 * digit both hold, the cells that see both; of another, the ends' own
 * cells. */
static void eliminations(const struct aic_search *as, unsigned x, unsigned y,
                         struct teach_step *s)
{
    const struct teach_puzzle *p = as->p;
    const struct teach_grid *g = as->g;
    unsigned dx = node_digit(as, x), dy = node_digit(as, y);

    if (dx == dy) {
        for (unsigned c = 0; c < p->ncells; c++)
            if (!g->value[c] && (g->cand[c] & (1u << (dx - 1))) &&
                ruled_out(as, c, dx, x) && ruled_out(as, c, dx, y))
                teach_step_elim(s, g, c, dx);
        return;
    }
    for (int e = 0; e < 2; e++) {
        unsigned v = e ? y : x, c = node_cell(as, v);
        if (is_group(as, v))
            continue;
        for (uint32_t m = g->cand[c]; m; m &= m - 1) {
            unsigned d = (unsigned)teach_low_digit(m);
            if (ruled_out(as, c, d, x) && ruled_out(as, c, d, y))
                teach_step_elim(s, g, c, d);
        }
    }
}

/* Adds node v's cells to the step as node `node` of the chain. */
static void put_node(const struct aic_search *as, unsigned v, unsigned node,
                     struct teach_step *s)
{
    unsigned n = is_group(as, v) ? group_of(as, v)->ncells : 1;

    for (unsigned k = 0; k < n && s->ncells < TEACH_MAX_STEP_CELLS; k++) {
        s->chain_digits[s->ncells] = (uint8_t)node_digit(as, v);
        s->chain_node[s->ncells] = (uint8_t)node;
        teach_step_cell(s, is_group(as, v) ? group_of(as, v)->cell[k]
                                           : node_cell(as, v));
    }
}

/* Writes the chain ending at v into as->best when it is simple (no node
 * twice, whatever its truth), short enough to draw and removes
 * something. */
static void consider(struct aic_search *as, unsigned start, unsigned v)
{
    unsigned nodes = (unsigned)as->depth[v] + 1, i = nodes, width = 0;
    uint16_t path[TEACH_MAX_STEP_CELLS];
    struct teach_step s;

    if (as->best_nodes && nodes >= as->best_nodes)
        return;
    for (unsigned u = v; i-- > 0; u = as->parent[u]) {
        path[i] = (uint16_t)u;
        width += is_group(as, u) ? group_of(as, u)->ncells : 1;
    }
    if (width > TEACH_MAX_STEP_CELLS)
        return;
    for (unsigned a = 0; a < nodes; a++)
        for (unsigned b = a + 1; b < nodes; b++)
            if (path[a] / 2 == path[b] / 2)
                return;
    teach_step_start(&s, TEACH_AIC, 1u << (node_digit(as, start) - 1));
    eliminations(as, start, v, &s);
    if (s.neliminations == 0)
        return;
    for (unsigned a = 0; a < nodes; a++)
        put_node(as, path[a], a, &s);
    s.chain_length = (uint16_t)nodes;
    as->best = s;
    as->best_nodes = nodes;
}

/* Breadth-first from "start is false" (start: a node id of truth 0), no
 * deeper than a chain shorter than the best so far. parent[] is all
 * AIC_UNSEEN before and after: the nodes seen (the queue) are reset. */
static void search(struct aic_search *as, unsigned start)
{
    unsigned head = 0, tail = 0;

    as->parent[start] = (uint16_t)start;
    as->depth[start] = 0;
    as->queue[tail++] = (uint16_t)start;
    while (head < tail) {
        unsigned v = as->queue[head++], nn;
        uint16_t next[AIC_MAX_LINKS];
        /* a child at depth + 1 makes a chain of depth + 2 nodes */
        if (as->best_nodes && as->depth[v] + 2u >= as->best_nodes)
            break;
        if (as->depth[v] + 2u > TEACH_MAX_STEP_CELLS)
            break;
        nn = links(as, v, next);
        for (unsigned i = 0; i < nn; i++) {
            unsigned u = next[i];
            if (as->parent[u] != AIC_UNSEEN)
                continue;
            as->parent[u] = (uint16_t)v;
            as->depth[u] = (uint8_t)(as->depth[v] + 1);
            as->queue[tail++] = (uint16_t)u;
            if (u % 2 == 1 && u / 2 != start / 2)
                consider(as, start, u);
        }
    }
    for (unsigned i = 0; i < tail; i++)
        as->parent[as->queue[i]] = AIC_UNSEEN;
}

enum teach_status teach_find_aic(const struct teach_puzzle *p,
                                 const struct teach_grid *g,
                                 const struct teach_budget *b,
                                 struct teach_step *s)
{
    /* About 170 KB of stack: the nodes and groups of a 12x12 search. */
    static const unsigned shortest = 4; /* X = A - B = Y */
    struct aic_search store, *as = &store;
    unsigned nnodes, starts = 0;

    as->p = p;
    as->g = g;
    if (p->n > AIC_MAX_N)
        return TEACH_STUCK;
    as->best_nodes = 0;
    as->base = p->ncells * p->n * 2u;
    find_holds(as);
    find_groups(as);
    nnodes = as->base + AIC_MAX_GROUPS * 2; /* groups are made on the way */
    memset(as->parent, 0xff, nnodes * sizeof(as->parent[0]));
    for (unsigned c = 0; c < p->ncells; c++) {
        if (g->value[c])
            continue;
        for (uint32_t m = g->cand[c]; m; m &= m - 1) {
            if ((starts++ & 15) == 0 && teach_expired(b))
                return TEACH_BUDGET;
            search(as, node_of(as, c, (unsigned)teach_low_digit(m), 0));
            if (as->best_nodes == shortest)
                break;
        }
        if (as->best_nodes == shortest)
            break;
    }
    if (as->best_nodes == 0)
        return TEACH_STUCK;
    *s = as->best;
    return TEACH_OK;
}
