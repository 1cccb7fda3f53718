/* serate_chain.c - SE's Chaining producer: X/Y cycles and forcing chains
 * (6.5-7.x), Nishio (7.5), multiple (8.0), dynamic (8.5) and the nested
 * levels (9.0-11.x), each hint rated by its base plus SE's length step
 * over its "complexity" (the distinct candidates in its chains).
 *
 * Method: a chain is SE's breadth-first propagation of "on"/"off"
 * candidates. A run keeps every candidate it derived as a node with its
 * parents, so the complexity is the size of a node's ancestor closure.
 * Nodes are identified by pid = (cell * 9 + v - 1) * 2 + on. A run stores
 * at most one node per pid (SE's LinkedSet keeps the first), except the
 * cycle search, which like SE keeps every path to an "off" candidate.
 * Two shortcuts keep every hint as SE's: static searches that the
 * implication graph's components show cannot end are not run
 * ("Reachability"), and the nested rules' outcome at a top-level run's
 * fixed point is kept per grid for the step (advanced()). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serate_internal.h"

#define BIT(v) ((uint16_t)(1u << (v)))
#define NCV 729
#define NPID 1458
#define MAX_DEPTH 8
#define RUNS_PER_DEPTH 20

enum { C_NONE = 0, C_NAKED, C_BLOCK, C_ROW, C_COL, C_ADV };

struct cnode {
    uint64_t anc; /* static chains: 1 << (pid % 64) of every ancestor */
    int32_t par;  /* first parent in the run's pool */
    int32_t npar;
    int32_t nested; /* nested chain record, -1 none */
    int32_t cnt;    /* ancestor count, -1 not yet known */
    uint16_t depth; /* first-parent depth (static chains: path length) */
    uint16_t pid;
    uint8_t cause;
};

struct run {
    struct cnode *nodes;
    int n, cap;
    int32_t *pool;
    int np, pcap;
    int16_t at[2][NCV]; /* [on][cell * 9 + v - 1]: the stored node, -1 */
    int16_t list[2][NCV];
    int nl[2];
    int32_t *q[2]; /* pending queues, FIFO */
    int qh[2], qt[2], qcap;
    int oom;
    int absurd, abs[2]; /* a cached run's do_chaining result */
    uint32_t stamp;     /* the producer call that cached it */
    int clean;          /* it ended at a fixed point (see run_from) */
};

/* What a nested chain contributes to the chains that use it. */
struct nested_rec {
    int complexity;
    uint64_t finger;
};

/* The implications of a grid that does not change while a static (non
 * dynamic) producer runs, listed once per producer call in SE's order. */
struct link {
    uint16_t cv;
    uint8_t cause;
};

struct links {
    uint8_t ny[NCV], nx[NCV], nox[NCV];
    int16_t oy[NCV];
    uint16_t y[NCV][8];
    struct link x[NCV][20];
    struct link ox[NCV][3];
};

/* The static implication graph of loops()' XY pass over the candidates
 * of a grid (the X and the Y passes' graphs are parts of it), with its
 * strongly connected components ("Reachability" below). */
struct reach_pass {
    int16_t comp[NPID];  /* component, numbered sinks first */
    int16_t csize[NPID]; /* nodes in each component */
    /* lowest component number reachable from each component: a walk
     * from component a to b needs b <= a and low[a] <= low[b] (the DFS
     * postorder interval of GRAIL's reachability labels) */
    int16_t low[NPID];
    int32_t adj_start[NPID];
    uint8_t adj_n[NPID];
    int16_t adj[NCV * 32];
};

struct reach {
    struct reach_pass xy;
    /* known[cv] bit on: reach_path from on (1) / off (0) was asked;
     * found[cv] the same bits: its answer (the X and XY passes ask the
     * same questions of the one graph). */
    uint8_t known[NCV], found[NCV];
    int16_t present[NPID]; /* the pids of the grid's candidates */
    int npresent;
    /* Scratch for Tarjan's algorithm and the searches. */
    int16_t idx[NPID], low[NPID], stack[NPID], call[NPID];
    uint8_t edge[NPID], onstack[NPID];
    uint32_t seen[NPID];
    uint32_t stamp;
};

/* What getAdvancedPotentials' rules gave at a fixed point of a top-level
 * run, kept for the step (see advanced()). A rule's outcome is a list of
 * records in pool: nested, np, nrem, then np parent and nrem removed
 * candidates (cell * 9 + v - 1). */
enum { ADV_RULES = 8, ADV_SLOTS = 1024, ADV_POOL = 1 << 18 };

struct adv_entry {
    uint64_t hash; /* 0: free */
    uint16_t cand[81];
    int8_t state[ADV_RULES]; /* 0 not asked, 1 nothing, 2 found */
    int32_t off[ADV_RULES], n[ADV_RULES];
};

struct adv_cache {
    uint16_t top[81]; /* the step's grid */
    int valid;
    struct adv_entry slot[ADV_SLOTS];
    int32_t *pool;
    int used;
};

struct se_chain_mem {
    struct links *links;
    struct adv_cache *adv;
    struct reach *reach;
    /* The multiple/dynamic producers' runs from (cell, v, on) at each
     * depth, [depth][on][cell * 9 + v - 1]: an on-run is shared by the
     * cell's own binary chaining and its region chainings; at the top
     * the off-runs are kept too, and the next level resumes both kinds
     * (run_from). */
    struct run *(*cache[MAX_DEPTH])[NCV]; /* allocated when first used */
    uint32_t call;
    /* The last top-level caching call: a dynamic multiple one (valid),
     * its level, grid and stamp. */
    int last_valid, last_level;
    uint32_t last_stamp;
    uint16_t last_grid[81];
    struct run *runs[MAX_DEPTH][RUNS_PER_DEPTH];
    int used[MAX_DEPTH];
    int depth;
    uint32_t seen[NPID];
    uint32_t stamp;
    int32_t *stack;
    int scap;
    int32_t *order; /* closure(): the nodes it visited, in order */
    int ocap;
    struct nested_rec *nrec;
    int nn, ncap;
    uint64_t zob[NPID];
};

/* ------------------------------------------------------------------ */
/* Runs                                                                 */
/* ------------------------------------------------------------------ */

static int grow(void **p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return 0;
    int nc = *cap ? *cap : 256;
    while (nc < need)
        nc *= 2;
    void *q = realloc(*p, (size_t)nc * size);
    if (!q)
        return -1;
    *p = q;
    *cap = nc;
    return 0;
}

static void run_reset(struct run *r)
{
    /* Only the stored entries are set: clear those (at[] starts all -1). */
    for (int on = 0; on < 2; on++)
        for (int k = 0; k < r->nl[on]; k++)
            r->at[on][r->list[on][k]] = -1;
    r->n = 0;
    r->np = 0;
    r->nl[0] = r->nl[1] = 0;
    r->qh[0] = r->qh[1] = r->qt[0] = r->qt[1] = 0;
    r->oom = 0;
}

static struct run *run_get(struct se_ctx *ctx)
{
    struct se_chain_mem *m = ctx->chain;
    int d = m->depth;

    if (d >= MAX_DEPTH || m->used[d] >= RUNS_PER_DEPTH)
        return NULL;
    struct run **slot = &m->runs[d][m->used[d]];
    if (!*slot) {
        *slot = calloc(1, sizeof **slot);
        if (!*slot)
            return NULL;
        memset((*slot)->at, 0xff, sizeof(*slot)->at);
    }
    m->used[d]++;
    run_reset(*slot);
    return *slot;
}

static void runs_release(struct se_ctx *ctx, int mark)
{
    ctx->chain->used[ctx->chain->depth] = mark;
}

/* Most nodes have one parent: inline, with that case copied by hand
 * (the runs make millions of nodes a second). */
static inline int new_node(struct run *r, int pid, int cause,
                           const int32_t *par, int npar)
{
    if ((r->n >= r->cap &&
         grow((void **)&r->nodes, &r->cap, r->n + 1, sizeof *r->nodes)) ||
        (r->np + npar + 64 > r->pcap &&
         grow((void **)&r->pool, &r->pcap, r->np + npar + 64,
              sizeof *r->pool))) {
        r->oom = 1;
        return -1;
    }
    struct cnode *nd = &r->nodes[r->n];
    nd->pid = (uint16_t)pid;
    nd->cause = (uint8_t)cause;
    nd->par = r->np;
    nd->npar = npar;
    nd->nested = -1;
    nd->cnt = -1;
    if (npar) {
        const struct cnode *p0 = &r->nodes[par[0]];
        nd->depth = (uint16_t)(p0->depth + 1);
        nd->anc = p0->anc | 1ull << (p0->pid & 63);
        if (npar == 1)
            r->pool[r->np] = par[0];
        else
            memcpy(r->pool + r->np, par, sizeof *par * (size_t)npar);
    } else {
        nd->depth = 0;
        nd->anc = 0;
    }
    r->np += npar;
    return r->n++;
}

static void node_drop(struct run *r, int idx)
{
    if (idx == r->n - 1) {
        r->np = r->nodes[idx].par;
        r->n--;
    }
}

static void store(struct run *r, int idx)
{
    int pid = r->nodes[idx].pid, on = pid & 1;
    r->at[on][pid >> 1] = (int16_t)idx;
    r->list[on][r->nl[on]++] = (int16_t)(pid >> 1);
}

static int push_grow(struct run *r);

static inline int push(struct run *r, int on, int idx)
{
    if (r->qt[on] >= r->qcap && push_grow(r))
        return -1;
    r->q[on][r->qt[on]++] = idx;
    return 0;
}

static int push_grow(struct run *r)
{
    int nc = r->qcap ? r->qcap * 2 : 1024;
    for (int k = 0; k < 2; k++) {
        int32_t *q = realloc(r->q[k], sizeof *q * (size_t)nc);
        if (!q) {
            r->oom = 1;
            return -1;
        }
        r->q[k] = q;
    }
    r->qcap = nc;
    return 0;
}

static int cv_of(int cell, int v)
{
    return cell * 9 + v - 1;
}

/* The node r->nodes[idx] and its ancestors, one node per candidate (pid),
 * depth first with the parents in their order: their indices in
 * m->order[0..n-1]. Returns n, or -1 out of memory. Each pid is pushed at
 * most once, so a stack of r->n + 1 entries is enough. */
static int closure(struct se_chain_mem *m, const struct run *r, int idx)
{
    int sp = 0, n = 0;

    if (grow((void **)&m->stack, &m->scap, r->n + 1, sizeof *m->stack) ||
        grow((void **)&m->order, &m->ocap, r->n + 1, sizeof *m->order))
        return -1;
    if (++m->stamp == 0) {
        memset(m->seen, 0, sizeof m->seen);
        m->stamp = 1;
    }
    m->stack[sp++] = idx;
    m->seen[r->nodes[idx].pid] = m->stamp;
    while (sp) {
        int j = m->stack[--sp];
        const struct cnode *nd = &r->nodes[j];
        m->order[n++] = j;
        for (int k = 0; k < nd->npar; k++) {
            int p = r->pool[nd->par + k];
            if (m->seen[r->nodes[p].pid] == m->stamp)
                continue;
            m->seen[r->nodes[p].pid] = m->stamp;
            m->stack[sp++] = p;
        }
    }
    return n;
}

/* Distinct candidates among a node and its ancestors (getAncestorCount). */
static int ancestors(struct se_ctx *ctx, struct run *r, int idx)
{
    int count;

    if (r->nodes[idx].cnt >= 0)
        return r->nodes[idx].cnt;
    if ((count = closure(ctx->chain, r, idx)) < 0)
        return 0;
    r->nodes[idx].cnt = count;
    return count;
}

/* ------------------------------------------------------------------ */
/* SE's implications: getOnToOff and getOffToOn                         */
/* ------------------------------------------------------------------ */

struct imp {
    int cv;
    int cause;
};

static int on_to_off(const struct se_ctx *ctx, const struct se_grid *g, int pid,
                     int ylinks, struct imp *out, const struct links *L)
{
    int cv = pid >> 1, cell = cv / 9, v = cv % 9 + 1, n = 0;

    if (L) {
        if (ylinks)
            for (int i = 0; i < L->ny[cv]; i++)
                out[n++] = (struct imp){L->y[cv][i], C_NAKED};
        for (int i = 0; i < L->nx[cv]; i++)
            out[n++] = (struct imp){L->x[cv][i].cv, L->x[cv][i].cause};
        return n;
    }

    if (ylinks)
        for (unsigned m = g->cand[cell] & ~BIT(v); m; m &= m - 1)
            out[n++] = (struct imp){cell * 9 + __builtin_ctz(m) - 1, C_NAKED};
    /* The house in SE's order: block, then the row and the column outside
     * the block (each cell once, named by the first region that has it). */
    int x = cell % 9, y = cell / 9;
    const uint8_t *reg = ctx->t.creg[cell];
    unsigned pb =
        g->pos[reg[SE_BLOCK]][v] & ~(1u << ctx->t.cidx[cell][SE_BLOCK]);
    unsigned pr = g->pos[reg[SE_ROW]][v] & ~(7u << (x / 3 * 3));
    unsigned pc = g->pos[reg[SE_COL]][v] & ~(7u << (y / 3 * 3));
    for (; pb; pb &= pb - 1)
        out[n++] = (struct imp){
            cv_of(ctx->t.rcell[reg[SE_BLOCK]][__builtin_ctz(pb)], v), C_BLOCK};
    for (; pr; pr &= pr - 1)
        out[n++] = (struct imp){cv_of(y * 9 + __builtin_ctz(pr), v), C_ROW};
    for (; pc; pc &= pc - 1)
        out[n++] = (struct imp){cv_of(__builtin_ctz(pc) * 9 + x, v), C_COL};
    return n;
}

/* Makes the "on" nodes an "off" node implies; hidden parents (the run's
 * earlier removals SE lists as parents too) only when src is given. */
/* An "on" already derived (and not contradicted) is a no-op for every
 * caller but the one watching for keep_cv: such nodes are not made. */
static int useless_on(const struct run *r, int cv, int keep_cv)
{
    return r->at[1][cv] >= 0 && r->at[0][cv] < 0 && cv != keep_cv;
}

/* The static links' case, inline: the static searches call it for
 * every "off" node they make. */
static inline int off_to_on_static(struct run *r, int pidx, int ylinks,
                                   int xlinks, int *out, const struct links *L,
                                   int keep_cv)
{
    int cv = r->nodes[pidx].pid >> 1, n = 0;
    int32_t par = pidx;
    if (ylinks && L->oy[cv] >= 0 && !useless_on(r, L->oy[cv], keep_cv)) {
        int idx = new_node(r, L->oy[cv] * 2 + 1, C_NAKED, &par, 1);
        if (idx < 0)
            return n;
        out[n++] = idx;
    }
    if (xlinks)
        for (int i = 0; i < L->nox[cv]; i++) {
            if (useless_on(r, L->ox[cv][i].cv, keep_cv))
                continue;
            int idx = new_node(r, L->ox[cv][i].cv * 2 + 1, L->ox[cv][i].cause,
                               &par, 1);
            if (idx < 0)
                return n;
            out[n++] = idx;
        }
    return n;
}

static int off_to_on_dyn(struct se_ctx *ctx, struct run *r,
                         const struct se_grid *g, int pidx, int ylinks,
                         int xlinks, const struct se_grid *src, int *out,
                         int keep_cv);

static inline int off_to_on(struct se_ctx *ctx, struct run *r,
                            const struct se_grid *g, int pidx, int ylinks,
                            int xlinks, const struct se_grid *src, int *out,
                            const struct links *L, int keep_cv)
{
    if (L && !src)
        return off_to_on_static(r, pidx, ylinks, xlinks, out, L, keep_cv);
    return off_to_on_dyn(ctx, r, g, pidx, ylinks, xlinks, src, out, keep_cv);
}

static int off_to_on_dyn(struct se_ctx *ctx, struct run *r,
                         const struct se_grid *g, int pidx, int ylinks,
                         int xlinks, const struct se_grid *src, int *out,
                         int keep_cv)
{
    int pid = r->nodes[pidx].pid, cv = pid >> 1, cell = cv / 9, v = cv % 9 + 1;
    int n = 0;
    int32_t par[32];

    if (ylinks && se_popcount(g->cand[cell]) == 2 &&
        !useless_on(r, cv_of(cell, se_first_bit(g->cand[cell] & ~BIT(v))),
                    keep_cv)) {
        int w = se_first_bit(g->cand[cell] & ~BIT(v));
        int np = 0;
        par[np++] = pidx;
        if (src) {
            unsigned gone = src->cand[cell] & ~g->cand[cell];
            for (int u = 1; u <= 9; u++)
                if (gone & BIT(u)) {
                    int s = r->at[0][cv_of(cell, u)];
                    if (s >= 0 && np < 32)
                        par[np++] = s;
                }
        }
        int idx = new_node(r, cv_of(cell, w) * 2 + 1, C_NAKED, par, np);
        if (idx < 0)
            return n;
        out[n++] = idx;
    }
    if (xlinks)
        for (int ty = 0; ty < 3; ty++) {
            int reg = ctx->t.creg[cell][ty];
            unsigned pos = (unsigned)se_region_positions(ctx, g, reg, v);
            if (se_popcount(pos) != 2)
                continue;
            pos &= ~(1u << ctx->t.cidx[cell][ty]);
            int other = ctx->t.rcell[reg][se_first_bit(pos)];
            int opid = cv_of(other, v) * 2 + 1, dup = 0;
            for (int k = 0; k < n; k++)
                dup |= r->nodes[out[k]].pid == opid;
            if (dup || useless_on(r, opid >> 1, keep_cv))
                continue;
            int np = 0;
            par[np++] = pidx;
            if (src) {
                unsigned gone =
                    (unsigned)se_region_positions(ctx, src, reg, v) &
                    ~(unsigned)se_region_positions(ctx, g, reg, v);
                for (int k = 0; k < 9; k++)
                    if (gone >> k & 1) {
                        int s = r->at[0][cv_of(ctx->t.rcell[reg][k], v)];
                        if (s >= 0 && np < 32)
                            par[np++] = s;
                    }
            }
            int idx = new_node(r, opid, C_BLOCK + ty, par, np);
            if (idx < 0)
                return n;
            out[n++] = idx;
        }
    return n;
}

/* ------------------------------------------------------------------ */
/* Hints                                                                */
/* ------------------------------------------------------------------ */

/* The producer's state: the rule, the best hint so far (top level) or
 * the list of all (nested use, which needs them sorted). */
struct chainer {
    struct se_ctx *ctx;
    struct se_grid *g;
    struct se_acc *acc;
    int multiple, dynamic, nishio, level;
    const struct links *L; /* static producers only */
    /* Dynamic producers: the grid as the call found it. Each run changes
     * it and puts it back, so every run starts from (and reads as it
     * was) this grid. */
    struct se_grid orig;
    struct reach *R; /* loops(): which searches can find anything */
    int cache;       /* keep the runs for the call (run_from) */
    int resume;      /* runs of call resume_stamp may be resumed */
    uint32_t resume_stamp;
    int seq; /* static searches: SE order of the current one */
    uint32_t stamp;
    double base;
    struct se_hint best;
    int have_best;
    struct se_hint *list;
    int nlist, lcap;
    int stop;
};

static double length_diff(int complexity)
{
    double added = 0.0;
    int ceil = 4, length = complexity - 2, odd = 0;

    while (length > ceil) {
        added += 0.1;
        ceil = odd ? (ceil * 4) / 3 : (ceil * 3) / 2;
        odd = !odd;
    }
    return added;
}

struct target {
    struct run *r;
    int idx;
};

/* Nested complexity and SE's collectRuleParents over the targets. */
static int nested_complexity(struct se_ctx *ctx, const struct target *t, int nt)
{
    struct se_chain_mem *m = ctx->chain;
    uint64_t seen_f[64];
    int nf = 0, sum = 0;

    for (int i = 0; i < nt; i++) {
        struct run *r = t[i].r;
        int any = 0;
        for (int k = 0; k < r->n && !any; k++)
            any = r->nodes[k].nested >= 0;
        if (!any)
            continue;
        int n = closure(m, r, t[i].idx);
        if (n < 0)
            return sum;
        for (int j = 0; j < n; j++) {
            const struct cnode *nd = &r->nodes[m->order[j]];
            if (nd->nested >= 0) {
                const struct nested_rec *nr = &m->nrec[nd->nested];
                int dup = 0;
                for (int f = 0; f < nf; f++)
                    dup |= seen_f[f] == nr->finger;
                if (!dup) {
                    if (nf < 64)
                        seen_f[nf++] = nr->finger;
                    sum += nr->complexity;
                }
            }
        }
    }
    return sum;
}

/* A fingerprint standing for SE's FullChain equality: the targets and the
 * candidates of their chains. */
static uint64_t fingerprint(struct se_ctx *ctx, const struct target *t, int nt)
{
    struct se_chain_mem *m = ctx->chain;
    uint64_t f = 0x9e3779b97f4a7c15ull;

    for (int i = 0; i < nt; i++) {
        struct run *r = t[i].r;
        uint64_t h = 0;
        int n = closure(m, r, t[i].idx);
        for (int j = 0; j < n; j++)
            h += m->zob[r->nodes[m->order[j]].pid];
        f = (f ^ h ^ m->zob[r->nodes[t[i].idx].pid]) * 0x100000001b3ull;
    }
    return f;
}

/* collectRuleParents: the candidates whose removal the chains relied on
 * (for a hint used inside a nested chain). */
static void rule_parents(struct chainer *ch, const struct target *t, int nt,
                         int root_cause, uint16_t *rp)
{
    struct se_ctx *ctx = ch->ctx;
    struct se_chain_mem *m = ctx->chain;
    const struct se_grid *init = ch->acc->source, *cur = ch->g;

    for (int i = 0; i < nt; i++) {
        struct run *r = t[i].r;
        int n = closure(m, r, t[i].idx);
        for (int j = 0; j < n; j++) {
            const struct cnode *nd = &r->nodes[m->order[j]];
            int cause = nd->cause;
            if (cause == C_NONE)
                cause = root_cause;
            if ((nd->pid & 1) && cause != C_NONE && cause != C_ADV) {
                int cv = nd->pid >> 1, cell = cv / 9, v = cv % 9 + 1;
                if (cause == C_NAKED) {
                    rp[cell] |= init->cand[cell] & (uint16_t)~cur->cand[cell];
                } else {
                    int reg = ctx->t.creg[cell][cause - C_BLOCK];
                    for (int k = 0; k < 9; k++) {
                        int c = ctx->t.rcell[reg][k];
                        if ((init->cand[c] & BIT(v)) &&
                            !(cur->cand[c] & BIT(v)))
                            rp[c] |= BIT(v);
                    }
                }
            }
        }
    }
}

static int hint_less(const struct se_hint *a, const struct se_hint *b)
{
    if (a->diff != b->diff)
        return a->diff < b->diff;
    if (a->complexity != b->complexity)
        return a->complexity < b->complexity;
    if (a->sortkey != b->sortkey)
        return a->sortkey < b->sortkey;
    return a->seq < b->seq;
}

/* Top level only (SE keeps just the first hint of the sorted list): can
 * a hint of this base, complexity >= cplx and sort key still come first?
 * Lets the static chain searches stop early; ratings are unchanged. */
static int hopeless(const struct chainer *ch, double base, int cplx, int key,
                    int seq)
{
    if (ch->acc->want_rp || !ch->have_best)
        return 0;
    double d = base + length_diff(cplx);
    if (d != ch->best.diff)
        return d > ch->best.diff;
    if (cplx != ch->best.complexity)
        return cplx > ch->best.complexity;
    if (key != ch->best.sortkey)
        return key > ch->best.sortkey;
    return seq >= ch->best.seq;
}

/* Records one hint: rem/cell already set in *h; computes the rating. */
static void emit(struct chainer *ch, struct se_hint *h, double base,
                 const struct target *t, int nt, int root_cause)
{
    struct se_ctx *ctx = ch->ctx;
    int flat = 0;

    for (int i = 0; i < nt; i++)
        flat += ancestors(ctx, t[i].r, t[i].idx);
    int nested = ch->level > 0 ? nested_complexity(ctx, t, nt) : 0;
    h->complexity = flat + nested;
    h->diff = base + length_diff(h->complexity);
    if (!ch->acc->want_rp) {
        if (!ch->have_best || hint_less(h, &ch->best)) {
            ch->best = *h;
            ch->have_best = 1;
        }
        return;
    }
    memset(h->rp, 0, sizeof h->rp);
    rule_parents(ch, t, nt, root_cause, h->rp);
    struct se_chain_mem *m = ctx->chain;
    if (grow((void **)&m->nrec, &m->ncap, m->nn + 1, sizeof *m->nrec) ||
        grow((void **)&ch->list, &ch->lcap, ch->nlist + 1, sizeof *ch->list))
        return;
    /* A hint resting on no removal of the run is kept (it may hide an
     * equal later one from SE's LinkedHashSet) but never used as a
     * parent, so it needs no nested record. */
    int any = 0;
    for (int c = 0; c < 81 && !any; c++)
        any = h->rp[c] != 0;
    if (any) {
        m->nrec[m->nn].complexity = h->complexity;
        m->nrec[m->nn].finger = fingerprint(ctx, t, nt);
        h->nested = m->nn++;
    }
    ch->list[ch->nlist++] = *h;
}

static int rem_any(const struct se_hint *h)
{
    for (int c = 0; c < 81; c++)
        if (h->rem[c])
            return 1;
    return 0;
}

static const char *suffix(int level)
{
    switch (level) {
    case 0:
        return " Chains";
    case 1:
        return " Chains (+)";
    case 2:
        return " Chains (+ Forcing Chains)";
    case 3:
        return " Chains (+ Multiple Forcing Chains)";
    case 4:
        return " Chains (+ Dynamic Forcing Chains)";
    default:
        return " Chains (+ Dynamic Forcing Chains (+))";
    }
}

static void chain_name(struct chainer *ch, struct se_hint *h, const char *what)
{
    const char *prefix = ch->level > 0 ? "Dynamic "
                         : ch->nishio  ? "Nishio "
                         : ch->dynamic ? "Dynamic "
                                       : "";
    snprintf(h->name, sizeof h->name, "%s%s%s", prefix, what,
             suffix(ch->level));
}

/* ------------------------------------------------------------------ */
/* doChaining: propagate to a contradiction or a fixed point            */
/* ------------------------------------------------------------------ */

static void advanced(struct chainer *ch, struct run *r);

/* Returns 1 on a contradiction, with the two nodes in abs[0] (on) and
 * abs[1] (off); 0 at the fixed point. The grid is restored. With resume,
 * r is a run a lower level left at its last fixed point (run_from). */
static int do_chaining(struct chainer *ch, struct run *r, int *abs, int resume)
{
    struct se_ctx *ctx = ch->ctx;
    struct se_grid *g = ch->g;
    int ylinks = !ch->nishio, result = 0;
    struct imp imp[32];
    int ons[8];

    if (resume) {
        /* Back to that fixed point: every "off" of the run was removed. */
        for (int k = 0; k < r->nl[0]; k++) {
            int cv = r->list[0][k];
            se_remove(ctx, g, cv / 9, BIT(cv % 9 + 1));
        }
        advanced(ch, r);
    } else {
        for (int on = 0; on < 2; on++)
            for (int k = 0; k < r->nl[on]; k++)
                push(r, on, r->at[on][r->list[on][k]]);
    }
    while (r->qh[0] < r->qt[0] || r->qh[1] < r->qt[1]) {
        if (r->oom || se_time_up(ctx))
            break;
        if (r->qh[1] < r->qt[1]) {
            int p = r->q[1][r->qh[1]++];
            int n = on_to_off(ctx, g, r->nodes[p].pid, ylinks, imp, ch->L);
            for (int i = 0; i < n; i++) {
                int cv = imp[i].cv;
                if (r->at[1][cv] >= 0) {
                    int32_t par = p;
                    abs[0] = r->at[1][cv];
                    abs[1] = new_node(r, cv * 2, imp[i].cause, &par, 1);
                    result = abs[1] >= 0;
                    goto done;
                }
                if (r->at[0][cv] < 0) {
                    int32_t par = p;
                    int idx = new_node(r, cv * 2, imp[i].cause, &par, 1);
                    if (idx < 0)
                        goto done;
                    store(r, idx);
                    push(r, 0, idx);
                }
            }
        } else {
            int p = r->q[0][r->qh[0]++];
            int n = off_to_on(ctx, r, g, p, ylinks, 1,
                              ch->dynamic ? &ch->orig : NULL, ons, ch->L, -1);
            if (ch->dynamic) {
                int cv = r->nodes[p].pid >> 1;
                se_remove(ctx, g, cv / 9, BIT(cv % 9 + 1));
            }
            for (int i = 0; i < n; i++) {
                int cv = r->nodes[ons[i]].pid >> 1;
                if (r->at[0][cv] >= 0) {
                    abs[0] = ons[i];
                    abs[1] = r->at[0][cv];
                    result = 1;
                    goto done;
                }
                if (r->at[1][cv] < 0) {
                    store(r, ons[i]);
                    push(r, 1, ons[i]);
                }
            }
        }
        if (r->qh[0] == r->qt[0] && r->qh[1] == r->qt[1] && ch->level > 0)
            advanced(ch, r);
    }
done:
    if (ch->dynamic)
        *g = ch->orig;
    return result;
}

/* ------------------------------------------------------------------ */
/* Nested rules (getAdvancedPotentials)                                 */
/* ------------------------------------------------------------------ */

struct adv_acc {
    struct se_acc acc;
    struct run *r;
    int found;
    struct adv_cache *rec; /* record the hints added here, or NULL */
    int rec_n, rec_fail;
};

/* Appends one record (adv_add's parents and removals) to the cache. */
static void adv_record(struct adv_acc *aa, const struct se_hint *h,
                       const int32_t *par, int np)
{
    struct adv_cache *C = aa->rec;
    struct run *r = aa->r;
    int nrem = 0;

    for (int c = 0; c < 81; c++)
        nrem += se_popcount(h->rem[c]);
    if (C->used + 3 + np + nrem > ADV_POOL) {
        aa->rec_fail = 1;
        return;
    }
    int32_t *p = C->pool + C->used;
    *p++ = h->nested;
    *p++ = np;
    *p++ = nrem;
    for (int i = 0; i < np; i++)
        *p++ = r->nodes[par[i]].pid >> 1;
    for (int c = 0; c < 81; c++)
        for (unsigned m = h->rem[c]; m; m &= m - 1)
            *p++ = cv_of(c, __builtin_ctz(m));
    C->used = (int)(p - C->pool);
    aa->rec_n++;
}

/* Adds the removals of one hint whose parents are par[0..np). */
static int adv_apply(struct run *r, const int32_t *rem, int nrem,
                     const int32_t *par, int np, int nested)
{
    for (int i = 0; i < nrem; i++) {
        int cv = rem[i];
        if (r->at[0][cv] >= 0)
            continue;
        int idx = new_node(r, cv * 2, C_ADV, par, np);
        if (idx < 0)
            return 1;
        r->nodes[idx].nested = nested;
        store(r, idx);
        push(r, 0, idx);
    }
    return 0;
}

/* SE adds every removal of a hint that has rule parents, each parent
 * being the run's own "off" node for it. */
static int adv_add(struct se_acc *a, struct se_hint *h)
{
    struct adv_acc *aa = (struct adv_acc *)a;
    struct run *r = aa->r;
    int32_t par[729];
    int np = 0;

    for (int c = 0; c < 81; c++)
        for (unsigned m = h->rp[c]; m; m &= m - 1) {
            int s = r->at[0][cv_of(c, __builtin_ctz(m))];
            if (s >= 0)
                par[np++] = s;
        }
    if (!np)
        return 0;
    aa->found = 1;
    if (aa->rec && !aa->rec_fail)
        adv_record(aa, h, par, np);
    int32_t rem[729];
    int nrem = 0;
    for (int c = 0; c < 81; c++)
        for (unsigned m = h->rem[c]; m; m &= m - 1)
            rem[nrem++] = cv_of(c, __builtin_ctz(m));
    return adv_apply(r, rem, nrem, par, np, h->nested);
}

/* Replays a rule's recorded hints on run r (same grid, same removals,
 * so the same "off" nodes stand for the parents). */
static void adv_replay(struct run *r, const struct adv_cache *C, int off, int n)
{
    const int32_t *p = C->pool + off;
    int32_t par[729];

    for (int k = 0; k < n; k++) {
        int nested = p[0], np = p[1], nrem = p[2], m = 0;
        p += 3;
        for (int i = 0; i < np; i++)
            if (r->at[0][p[i]] >= 0)
                par[m++] = r->at[0][p[i]];
        p += np;
        if (m && adv_apply(r, p, nrem, par, m, nested))
            return;
        p += nrem;
    }
}

/* The step's cache entry for grid g; NULL when the table is full. */
static struct adv_entry *adv_lookup(struct adv_cache *C,
                                    const struct se_grid *g)
{
    uint64_t hv = 0xcbf29ce484222325ull;

    for (int c = 0; c < 81; c++)
        hv = (hv ^ g->cand[c]) * 0x100000001b3ull;
    hv |= 1;
    for (unsigned i = 0, k = (unsigned)(hv >> 32) & (ADV_SLOTS - 1);
         i < ADV_SLOTS / 4; i++, k = (k + 1) & (ADV_SLOTS - 1)) {
        struct adv_entry *e = &C->slot[k];
        if (!e->hash) {
            e->hash = hv;
            memcpy(e->cand, g->cand, sizeof e->cand);
            memset(e->state, 0, sizeof e->state);
            return e;
        }
        if (e->hash == hv && !memcmp(e->cand, g->cand, sizeof e->cand))
            return e;
    }
    return NULL;
}

/* getAdvancedPotentials: the first of the nested rules that gives a hint
 * resting on the run's removals contributes all its hints. */
static void advanced(struct chainer *ch, struct run *r)
{
    struct se_ctx *ctx = ch->ctx;
    struct se_chain_mem *m = ctx->chain;
    struct se_grid *g = ch->g;
    struct adv_acc aa;
    int level = ch->level;

    aa.acc.add = adv_add;
    aa.acc.source = &ch->orig;
    aa.acc.want_rp = 1;
    aa.acc.data = NULL;
    aa.r = r;
    aa.found = 0;
    aa.rec = NULL;
    /* A top-level run's nested rules see the step's grid as the source
     * and the grid g of this fixed point: what they give depends on
     * nothing else, and the same g recurs (other runs reach it, and the
     * next level's runs pass the same fixed points first), so each
     * rule's outcome is kept for the step and replayed. */
    struct adv_entry *e = NULL;
    if (m->depth == 0 && m->adv && m->adv->valid)
        e = adv_lookup(m->adv, g);
    m->depth++;
    int mark = m->used[m->depth];
    for (int rule = 0; rule < 6 && !aa.found && !ctx->timed_out; rule++) {
        int key = rule < 4    ? rule
                  : rule == 4 ? (level < 2   ? -1
                                 : level < 4 ? 4
                                             : 6)
                              : (level == 3   ? 5
                                 : level >= 5 ? 7
                                              : -1);
        if (key < 0)
            continue;
        if (e && e->state[key]) {
            if (e->state[key] == 2) {
                aa.found = 1;
                adv_replay(r, m->adv, e->off[key], e->n[key]);
            }
            continue;
        }
        if (e) {
            aa.rec = m->adv;
            aa.rec_n = aa.rec_fail = 0;
            e->off[key] = m->adv->used;
        }
        switch (rule) {
        case 0:
            se_locking(ctx, g, &aa.acc, 0);
            break;
        case 1:
            se_hidden_set(ctx, g, &aa.acc, 2, 0);
            break;
        case 2:
            se_naked_set(ctx, g, &aa.acc, 2);
            break;
        case 3:
            se_fish(ctx, g, &aa.acc, 2);
            break;
        case 4:
            if (level >= 2 && level < 4)
                se_chaining(ctx, g, &aa.acc, 0, 0, 0, 0);
            else if (level >= 4)
                se_chaining(ctx, g, &aa.acc, 1, 1, 0, 0);
            break;
        default:
            if (level == 3)
                se_chaining(ctx, g, &aa.acc, 1, 0, 0, 0);
            else if (level >= 5)
                se_chaining(ctx, g, &aa.acc, 1, 1, 0, level - 3);
            break;
        }
        if (e && !aa.rec_fail && !ctx->timed_out && !r->oom) {
            e->state[key] = aa.found ? 2 : 1;
            e->n[key] = aa.rec_n;
        }
        aa.rec = NULL;
    }
    runs_release(ctx, mark);
    m->depth--;
}

/* ------------------------------------------------------------------ */
/* Multiple and dynamic chains                                          */
/* ------------------------------------------------------------------ */

/* doChaining from (cell, v, on) on the producer's grid: deterministic, so
 * a multiple or dynamic producer computes each on-run once for binary()
 * and regions() (and, at the top, each off-run once for the next level).
 *
 * Resuming: the nested rules of level L are a prefix of those of L + 1
 * (L = 0, 1, 2, 4; see advanced()), so on the same grid a level-L+1 run
 * is the level-L run up to the fixed point where L's rules found nothing
 * (where that run stopped), then L + 1's rules there and what follows.
 * Level L + 1 is asked only when level L gave no hint, so none of its
 * runs ended in a contradiction; each one that ended cleanly is taken up
 * from its fixed point instead of being run again. */
static struct run *run_from(struct chainer *ch, int cell, int v, int on)
{
    struct se_chain_mem *m = ch->ctx->chain;
    int cv = cv_of(cell, v), resume = 0;
    struct run *r;

    if (ch->cache && (on || m->depth == 0)) {
        if (!m->cache[m->depth] &&
            !(m->cache[m->depth] = calloc(2, sizeof *m->cache[m->depth])))
            return NULL;
        struct run **slot = &m->cache[m->depth][on][cv];
        r = *slot;
        if (!r) {
            r = calloc(1, sizeof *r);
            if (!r)
                return NULL;
            memset(r->at, 0xff, sizeof r->at);
            *slot = r;
        }
        if (r->stamp == ch->stamp)
            return r;
        resume = ch->resume && r->stamp == ch->resume_stamp && r->clean;
        if (!resume)
            run_reset(r);
        r->stamp = ch->stamp;
        r->clean = 0;
    } else {
        r = run_get(ch->ctx);
        if (!r)
            return NULL;
    }
    if (!resume) {
        int root = new_node(r, cv * 2 + on, C_NONE, NULL, 0);
        if (root < 0)
            return NULL;
        store(r, root);
    }
    r->absurd = do_chaining(ch, r, r->abs, resume);
    r->clean = !r->absurd && !r->oom && !ch->ctx->timed_out;
    return r;
}

static void binary(struct chainer *ch, int cell, int v, struct run *on_run)
{
    struct se_grid *g = ch->g;
    int card = se_popcount(ch->g->cand[cell]);
    int do_double = card >= 3 && !ch->nishio && ch->dynamic;
    int do_contra = ch->dynamic || ch->nishio;
    int abs[2];
    struct se_hint h;
    struct target t[2];

    if (on_run->absurd && do_contra) {
        abs[0] = on_run->abs[0];
        abs[1] = on_run->abs[1];
        se_hint_init(&h, 0, "");
        chain_name(ch, &h, ch->nishio ? "Forcing" : "Contradiction Forcing");
        h.rem[cell] = BIT(v);
        h.sortkey = 7;
        t[0] = (struct target){on_run, abs[0]};
        t[1] = (struct target){on_run, abs[1]};
        emit(ch, &h, ch->base, t, 2, C_NONE);
    }
    /* The "off" run only feeds contradiction and double chains: SE's
     * static multiple chains compute it and use neither. */
    if (!do_contra && !do_double)
        return;
    struct se_chain_mem *m = ch->ctx->chain;
    int mark = m->used[m->depth];
    struct run *off_run = run_from(ch, cell, v, 0);
    if (off_run) {
        abs[0] = off_run->abs[0];
        abs[1] = off_run->abs[1];
        if (off_run->absurd && do_contra) {
            se_hint_init(&h, 0, "");
            chain_name(ch, &h,
                       ch->nishio ? "Forcing" : "Contradiction Forcing");
            h.rem[cell] = g->cand[cell] & (uint16_t)~BIT(v);
            h.cell = cell;
            h.value = v;
            h.sortkey = 7;
            t[0] = (struct target){off_run, abs[0]};
            t[1] = (struct target){off_run, abs[1]};
            if (rem_any(&h))
                emit(ch, &h, ch->base, t, 2, C_NONE);
        }
        if (do_double) {
            for (int k = 0; k < on_run->nl[1]; k++) {
                int pcv = on_run->list[1][k];
                int o = off_run->at[1][pcv];
                if (o < 0)
                    continue;
                int pc = pcv / 9, pv = pcv % 9 + 1;
                se_hint_init(&h, 0, "");
                chain_name(ch, &h, "Double Forcing");
                h.rem[pc] = g->cand[pc] & (uint16_t)~BIT(pv);
                h.cell = pc;
                h.value = pv;
                h.sortkey = 1;
                t[0] = (struct target){on_run, on_run->at[1][pcv]};
                t[1] = (struct target){off_run, o};
                if (rem_any(&h))
                    emit(ch, &h, ch->base, t, 2, C_NONE);
            }
            for (int k = 0; k < on_run->nl[0]; k++) {
                int pcv = on_run->list[0][k];
                int o = off_run->at[0][pcv];
                if (o < 0)
                    continue;
                se_hint_init(&h, 0, "");
                chain_name(ch, &h, "Double Forcing");
                h.rem[pcv / 9] = BIT(pcv % 9 + 1);
                h.sortkey = 1;
                t[0] = (struct target){on_run, on_run->at[0][pcv]};
                t[1] = (struct target){off_run, o};
                emit(ch, &h, ch->base, t, 2, C_NONE);
            }
        }
    }
    runs_release(ch->ctx, mark);
}

/* Emits the reductions common to every run in runs[0..n). */
static void reductions(struct chainer *ch, struct run **runs, int n,
                       const char *what, int sortkey, int root_cause)
{
    struct se_grid *g = ch->g;
    struct target t[9];
    struct se_hint h;

    for (int on = 1; on >= 0; on--)
        for (int k = 0; k < runs[0]->nl[on]; k++) {
            int pcv = runs[0]->list[on][k], all = 1;
            for (int i = 1; i < n && all; i++)
                all = runs[i]->at[on][pcv] >= 0;
            if (!all)
                continue;
            int pc = pcv / 9, pv = pcv % 9 + 1;
            se_hint_init(&h, 0, "");
            chain_name(ch, &h, what);
            if (on) {
                h.rem[pc] = g->cand[pc] & (uint16_t)~BIT(pv);
                h.cell = pc;
                h.value = pv;
            } else {
                h.rem[pc] = BIT(pv);
            }
            h.sortkey = sortkey;
            for (int i = 0; i < n; i++)
                t[i] = (struct target){runs[i], runs[i]->at[on][pcv]};
            if (rem_any(&h))
                emit(ch, &h, ch->base, t, n, root_cause);
        }
}

static void regions(struct chainer *ch, int cell, int v, struct run *on_run)
{
    struct se_ctx *ctx = ch->ctx;
    struct se_grid *g = ch->g;

    for (int ty = 0; ty < 3; ty++) {
        int reg = ctx->t.creg[cell][ty];
        unsigned pos = (unsigned)se_region_positions(ctx, g, reg, v);
        int card = se_popcount(pos);
        if (!(card == 2 || (ch->multiple && card > 2)))
            continue;
        if (ctx->t.rcell[reg][se_first_bit(pos)] != cell)
            continue;
        struct se_chain_mem *m = ctx->chain;
        int mark = m->used[m->depth];
        struct run *runs[9];
        int n = 0;
        for (int k = 0; k < 9; k++) {
            if (!(pos >> k & 1))
                continue;
            int other = ctx->t.rcell[reg][k];
            if (other == cell) {
                runs[n++] = on_run;
                continue;
            }
            struct run *r = run_from(ch, other, v, 1);
            if (!r)
                break;
            runs[n++] = r;
        }
        if (n == card && !ctx->timed_out)
            reductions(ch, runs, n, "Region Forcing", 6, C_BLOCK + ty);
        runs_release(ctx, mark);
    }
}

/* Nishio's runs have no Y links: from (cell, v) they only place and
 * remove v, by SE's rules for one digit (an "on" removes v from its house,
 * a region with one place left for v puts it "on" there). Every candidate
 * a run derives is derived by this closure of the same rules over bit
 * sets too (a region the run finds down to one place is, with all the
 * run's removals, down to that place or empty), so a run can end in a
 * contradiction only if the closure does: an "on" and an "off" candidate
 * meet, or a region has no place left. Where it shows none, the run
 * cannot give a Nishio hint and is not made. */
struct nishio_digit {
    uint64_t p[2]; /* the cells that have v */
    uint32_t live; /* the regions that have v */
};

static int nishio_may_fail(const struct se_ctx *ctx,
                           const struct nishio_digit *d, int cell, int on)
{
    const uint64_t *p = d->p;
    uint64_t set[2] = {0, 0}, off[2] = {0, 0}, fresh[2] = {0, 0};

    if (on)
        fresh[cell >> 6] = 1ull << (cell & 63);
    else
        off[cell >> 6] = 1ull << (cell & 63);
    for (;;) {
        for (int w = 0; w < 2; w++)
            for (uint64_t m = fresh[w]; m; m &= m - 1) {
                int c = w * 64 + __builtin_ctzll(m);
                off[0] |= ctx->t.peers[c][0] & p[0];
                off[1] |= ctx->t.peers[c][1] & p[1];
            }
        set[0] |= fresh[0];
        set[1] |= fresh[1];
        if ((set[0] & off[0]) | (set[1] & off[1]))
            return 1;
        fresh[0] = fresh[1] = 0;
        for (uint32_t m = d->live; m; m &= m - 1) {
            const uint64_t *rm = ctx->t.rmask[__builtin_ctz(m)];
            uint64_t l0 = p[0] & ~off[0] & rm[0], l1 = p[1] & ~off[1] & rm[1];
            if (!(l0 | l1))
                return 1; /* emptied */
            if ((l0 & (l0 - 1)) || (l1 & (l1 - 1)) || (l0 && l1))
                continue;
            fresh[0] |= l0 & ~set[0];
            fresh[1] |= l1 & ~set[1];
        }
        if (!(fresh[0] | fresh[1]))
            return 0;
    }
}

static void multiple_chains(struct chainer *ch)
{
    struct se_ctx *ctx = ch->ctx;
    struct se_grid *g = ch->g;
    struct nishio_digit digit[10];

    if (ch->nishio)
        for (int v = 1; v <= 9; v++) {
            digit[v].p[0] = digit[v].p[1] = 0;
            digit[v].live = 0;
            for (int c = 0; c < 81; c++)
                if (g->cand[c] & BIT(v))
                    digit[v].p[c >> 6] |= 1ull << (c & 63);
            for (int r = 0; r < 27; r++)
                if (g->pos[r][v])
                    digit[v].live |= 1u << r;
        }

    for (int cell = 0; cell < 81 && !ctx->timed_out; cell++) {
        if (g->val[cell])
            continue;
        int card = se_popcount(g->cand[cell]);
        if (!(card > 2 || (card > 1 && ch->dynamic)))
            continue;
        struct se_chain_mem *m = ctx->chain;
        int mark = m->used[m->depth];
        struct run *runs[9];
        int n = 0;
        for (int v = 1; v <= 9; v++) {
            if (!(g->cand[cell] & BIT(v)))
                continue;
            if (ch->nishio && !nishio_may_fail(ctx, &digit[v], cell, 1) &&
                !nishio_may_fail(ctx, &digit[v], cell, 0))
                continue;
            struct run *r = run_from(ch, cell, v, 1);
            if (!r)
                break;
            runs[n++] = r;
            binary(ch, cell, v, r);
            if (!ch->nishio)
                regions(ch, cell, v, r);
        }
        if (!ch->nishio && n == card && !ctx->timed_out &&
            (card == 2 || (ch->multiple && card > 2)))
            reductions(ch, runs, n, "Cell Forcing", 5, C_NAKED);
        runs_release(ctx, mark);
    }
}

/* ------------------------------------------------------------------ */
/* Reachability: which static searches cannot find anything             */
/* ------------------------------------------------------------------ */

/* A static search (do_forcing, do_cycles) is a breadth-first walk of a
 * fixed graph of implications: the nodes are the candidates' "on" and
 * "off" (pid), the edges SE's getOnToOff / getOffToOn for the pass's
 * links. The forcing chain from "on" finds its target (its first chain)
 * iff "off" is reachable from "on" (the other way for the chain from
 * "off"); a cycle through "on" exists only if "on" lies in a strongly
 * connected component of more than one node, and stays inside it. Most
 * searches, above all inside nested chains, can find nothing. The X and
 * the Y passes' graphs are subgraphs of the XY pass's, so its graph, built
 * once per producer call, bounds all three: a search it rules out is
 * skipped, the others run as before (a cycle search only among the
 * nodes of the source's component), so every hint and rating stays the
 * same. */
static void reach_graph(struct reach *R, struct reach_pass *P,
                        const struct links *L, int y, int x)
{
    int n = 0;

    for (int i = 0; i < R->npresent; i++) {
        int pid = R->present[i], cv = pid >> 1, n0 = n;
        P->adj_start[pid] = n;
        if (pid & 1) {
            for (int k = 0; k < L->nx[cv]; k++)
                P->adj[n++] = (int16_t)(L->x[cv][k].cv * 2);
            if (y)
                for (int k = 0; k < L->ny[cv]; k++)
                    P->adj[n++] = (int16_t)(L->y[cv][k] * 2);
        } else {
            if (y && L->oy[cv] >= 0)
                P->adj[n++] = (int16_t)(L->oy[cv] * 2 + 1);
            if (x)
                for (int k = 0; k < L->nox[cv]; k++)
                    P->adj[n++] = (int16_t)(L->ox[cv][k].cv * 2 + 1);
        }
        P->adj_n[pid] = (uint8_t)(n - n0);
    }
}

/* Tarjan's algorithm, iterative. Components are numbered as they
 * complete, so every edge goes to a component numbered no higher. */
static void reach_scc(struct reach *R, struct reach_pass *P)
{
    int counter = 0, sp = 0, nscc = 0;

    for (int i = 0; i < R->npresent; i++) {
        R->idx[R->present[i]] = -1;
        R->onstack[R->present[i]] = 0;
    }
    for (int i = 0; i < R->npresent; i++) {
        int root = R->present[i], cp = 0;
        if (R->idx[root] >= 0)
            continue;
        R->call[cp] = (int16_t)root;
        R->edge[cp++] = 0;
        R->idx[root] = R->low[root] = (int16_t)counter++;
        R->stack[sp++] = (int16_t)root;
        R->onstack[root] = 1;
        while (cp) {
            int v = R->call[cp - 1];
            if (R->edge[cp - 1] < P->adj_n[v]) {
                int w = P->adj[P->adj_start[v] + R->edge[cp - 1]++];
                if (R->idx[w] < 0) {
                    R->idx[w] = R->low[w] = (int16_t)counter++;
                    R->stack[sp++] = (int16_t)w;
                    R->onstack[w] = 1;
                    R->call[cp] = (int16_t)w;
                    R->edge[cp++] = 0;
                } else if (R->onstack[w] && R->idx[w] < R->low[v]) {
                    R->low[v] = R->idx[w];
                }
                continue;
            }
            cp--;
            if (R->low[v] == R->idx[v]) {
                int w, top = sp, lowc = nscc;
                do {
                    w = R->stack[--sp];
                    R->onstack[w] = 0;
                    P->comp[w] = (int16_t)nscc;
                } while (w != v);
                /* Every successor outside is complete: its low is known. */
                for (int k = sp; k < top; k++) {
                    int u = R->stack[k];
                    for (int e = 0; e < P->adj_n[u]; e++) {
                        int c = P->comp[P->adj[P->adj_start[u] + e]];
                        if (c != nscc && P->low[c] < lowc)
                            lowc = P->low[c];
                    }
                }
                P->csize[nscc] = (int16_t)(top - sp);
                P->low[nscc++] = (int16_t)lowc;
            }
            if (cp && R->low[v] < R->low[R->call[cp - 1]])
                R->low[R->call[cp - 1]] = R->low[v];
        }
    }
}

/* The XY graph of grid g and its links L, and its components. */
static void reach_build(struct reach *R, const struct se_grid *g,
                        const struct links *L)
{
    R->npresent = 0;
    for (int cell = 0; cell < 81; cell++)
        for (unsigned m = g->cand[cell]; m; m &= m - 1) {
            int cv = cv_of(cell, __builtin_ctz(m));
            R->present[R->npresent++] = (int16_t)(cv * 2);
            R->present[R->npresent++] = (int16_t)(cv * 2 + 1);
        }
    reach_graph(R, &R->xy, L, 1, 1);
    reach_scc(R, &R->xy);
    memset(R->known, 0, sizeof R->known);
}

/* Can a walk lead from pid `from` to pid `to`? Only components numbered
 * between the two can lie on it. */
static int reach_path(struct reach *R, int from, int to)
{
    const struct reach_pass *P = &R->xy;
    int tc = P->comp[to], sp = 0;

    if (P->comp[from] == tc)
        return 1;
    if (P->comp[from] < tc || P->low[P->comp[from]] > P->low[tc])
        return 0;
    if (++R->stamp == 0) {
        memset(R->seen, 0, sizeof R->seen);
        R->stamp = 1;
    }
    R->stack[sp++] = (int16_t)from;
    R->seen[from] = R->stamp;
    while (sp) {
        int u = R->stack[--sp];
        for (int e = 0; e < P->adj_n[u]; e++) {
            int w = P->adj[P->adj_start[u] + e];
            if (P->comp[w] == tc)
                return 1;
            if (P->comp[w] < tc || P->low[P->comp[w]] > P->low[tc] ||
                R->seen[w] == R->stamp)
                continue;
            R->seen[w] = R->stamp;
            R->stack[sp++] = (int16_t)w;
        }
    }
    return 0;
}

/* Can "v on" (on 1) or "v off" (on 0), cv = cell * 9 + v - 1, lead to
 * its own negation? */
static int reach_negation(struct reach *R, int cv, int on)
{
    uint8_t bit = (uint8_t)(1u << on);

    if (!(R->known[cv] & bit)) {
        R->known[cv] |= bit;
        if (reach_path(R, cv * 2 + on, cv * 2 + !on))
            R->found[cv] |= bit;
        else
            R->found[cv] &= (uint8_t)~bit;
    }
    return (R->found[cv] & bit) != 0;
}

/* Can "on" of cv lie on a cycle? */
static int reach_cycle(const struct reach *R, int cv)
{
    const struct reach_pass *P = &R->xy;
    return P->csize[P->comp[cv * 2 + 1]] > 1;
}

/* ------------------------------------------------------------------ */
/* Cycles and forcing X/Y chains (static, single parents)               */
/* ------------------------------------------------------------------ */

static int is_parent(struct run *r, int child, int pid)
{
    int p = child;

    if (!(r->nodes[p].anc >> (pid & 63) & 1))
        return 0;
    while (r->nodes[p].npar) {
        p = r->pool[r->nodes[p].par];
        if (r->nodes[p].pid == pid)
            return 1;
    }
    return 0;
}

static void cycle_hint(struct chainer *ch, struct run *r, int dst, int y, int x)
{
    struct se_ctx *ctx = ch->ctx;
    struct se_grid *g = ch->g;
    uint64_t cells[2] = {0, 0};
    uint16_t fw[81], bw[81];
    struct se_hint h;

    memset(fw, 0, sizeof fw);
    memset(bw, 0, sizeof bw);
    int ncells = 0;
    for (int p = dst; r->nodes[p].npar; p = r->pool[r->nodes[p].par]) {
        int c = (r->nodes[p].pid >> 1) / 9;
        if (!(cells[c >> 6] >> (c & 63) & 1))
            ncells++;
        cells[c >> 6] |= 1ull << (c & 63);
    }
    for (int p = dst; r->nodes[p].npar; p = r->pool[r->nodes[p].par]) {
        int pid = r->nodes[p].pid, c = (pid >> 1) / 9, v = (pid >> 1) % 9 + 1;
        for (int i = 0; i < 20; i++) {
            int o = ctx->t.house[c][i];
            if ((cells[o >> 6] >> (o & 63) & 1) || !(g->cand[o] & BIT(v)))
                continue;
            if (pid & 1)
                fw[o] |= BIT(v);
            else
                bw[o] |= BIT(v);
        }
    }
    se_hint_init(&h, 0, "");
    for (int c = 0; c < 81; c++)
        h.rem[c] = fw[c] & bw[c];
    if (!rem_any(&h))
        return;
    strcpy(h.name, x && y        ? "Bidirectional Cycle"
                   : y           ? "Bidirectional Y-Cycle"
                   : ncells == 4 ? "Generalized X-Wing"
                                 : "Bidirectional X-Cycle");
    h.sortkey = x && y ? 4 : y ? 3 : 2;
    h.seq = ch->seq;
    struct target t = {r, dst};
    emit(ch, &h, x && y ? 7.0 : 6.5, &t, 1, C_NONE);
}

static void forcing_hint(struct chainer *ch, struct run *r, int target, int y,
                         int x)
{
    struct se_grid *g = ch->g;
    struct se_hint h;
    int pid = r->nodes[target].pid, c = (pid >> 1) / 9, v = (pid >> 1) % 9 + 1;

    se_hint_init(&h, 0, "");
    if (pid & 1) {
        h.rem[c] = g->cand[c] & (uint16_t)~BIT(v);
        h.cell = c;
        h.value = v;
    } else {
        h.rem[c] = BIT(v);
    }
    int anc = ancestors(ch->ctx, r, target);
    strcpy(h.name, x && y     ? "Forcing Chain"
                   : y        ? "Forcing Y-Chain"
                   : anc == 6 ? "Turbot Fish"
                              : "Forcing X-Chain");
    h.sortkey = x && y ? 4 : y ? 3 : 2;
    h.seq = ch->seq;
    struct target t = {r, target};
    emit(ch, &h, x && y ? 7.0 : 6.6, &t, 1, C_NONE);
}

/* Does the "off" cv imply the "on" scv (static links)? */
static int backlink(const struct links *L, int cv, int scv, int y, int x)
{
    if (!L)
        return 1;
    if (y && L->oy[cv] == scv)
        return 1;
    if (x)
        for (int k = 0; k < L->nox[cv]; k++)
            if (L->ox[cv][k].cv == scv)
                return 1;
    return 0;
}

/* doCycles: layer by layer; "off" nodes are kept once per path. */
static void do_cycles(struct chainer *ch, struct run *r, int src, int y, int x,
                      int *cyc, int *ncyc)
{
    struct se_ctx *ctx = ch->ctx;
    struct imp imp[32];
    int ons[8], length = 0;
    int srcpid = r->nodes[src].pid;
    double cbase = x && y ? 7.0 : 6.5;
    int ckey = x && y ? 4 : y ? 3 : 2;
    uint8_t seen[NCV];
    /* A cycle through the source stays in its strongly connected
     * component: nodes outside it cannot lead back, so they are not
     * made (the order and depth of those inside are unchanged). */
    const int16_t *comp = ch->R ? ch->R->xy.comp : NULL;
    int sc = comp ? comp[srcpid] : 0;

    memset(seen, 0, sizeof seen);
    push(r, 1, src);
    while (r->qh[0] < r->qt[0] || r->qh[1] < r->qt[1]) {
        if (r->oom || se_time_up(ctx))
            return;
        length++;
        while (r->qh[1] < r->qt[1]) {
            int p = r->q[1][r->qh[1]++];
            int lb = r->nodes[p].depth + 2;
            if (hopeless(ch, cbase, lb < 4 ? 4 : lb, ckey, ch->seq))
                return;
            int n = on_to_off(ctx, ch->g, r->nodes[p].pid, y, imp, ch->L);
            for (int i = 0; i < n; i++) {
                int pid = imp[i].cv * 2;
                /* A second path to an "off" can only matter if that off
                 * leads straight back to the source (a new cycle): its
                 * other consequences came with the first path. */
                if (seen[imp[i].cv] &&
                    !backlink(ch->L, imp[i].cv, srcpid >> 1, y, x))
                    continue;
                if (is_parent(r, p, pid) || (comp && comp[pid] != sc))
                    continue;
                int32_t par = p;
                int idx = new_node(r, pid, imp[i].cause, &par, 1);
                if (idx < 0 || push(r, 0, idx))
                    return;
                seen[imp[i].cv] = ch->L != NULL;
            }
        }
        length++;
        while (r->qh[0] < r->qt[0]) {
            int p = r->q[0][r->qh[0]++];
            int lb = r->nodes[p].depth + 1;
            if (hopeless(ch, cbase, lb < 4 ? 4 : lb, ckey, ch->seq))
                return;
            int n = off_to_on(ctx, r, ch->g, p, y, x, NULL, ons, ch->L,
                              srcpid >> 1);
            for (int i = 0; i < n; i++) {
                int idx = ons[i], cv = r->nodes[idx].pid >> 1;
                int keep = 0;
                if (comp && comp[r->nodes[idx].pid] != sc) {
                    node_drop(r, idx);
                    continue;
                }
                if (length >= 4 && r->nodes[idx].pid == srcpid && *ncyc < 256) {
                    cyc[(*ncyc)++] = idx;
                    keep = 1;
                }
                if (r->at[1][cv] < 0) {
                    store(r, idx);
                    push(r, 1, idx);
                    keep = 1;
                }
                if (!keep)
                    node_drop(r, idx);
            }
        }
    }
}

/* doForcingChains: the first way the source's negation is reached. */
static int do_forcing(struct chainer *ch, struct run *r, int src, int y)
{
    struct se_ctx *ctx = ch->ctx;
    struct imp imp[32];
    int ons[8], found = -1;
    int srcpid = r->nodes[src].pid;

    push(r, srcpid & 1, src);
    double fbase = y ? 7.0 : 6.6;
    int fkey = y ? 4 : 2;
    while (r->qh[0] < r->qt[0] || r->qh[1] < r->qt[1]) {
        if (r->oom || se_time_up(ctx))
            return found;
        while (r->qh[1] < r->qt[1]) {
            int p = r->q[1][r->qh[1]++];
            if (hopeless(ch, fbase, r->nodes[p].depth + 2, fkey, ch->seq))
                return -1;
            int n = on_to_off(ctx, ch->g, r->nodes[p].pid, y, imp, ch->L);
            for (int i = 0; i < n; i++) {
                int pid = imp[i].cv * 2;
                int target = (pid | 1) == srcpid;
                if (!target &&
                    (r->at[0][imp[i].cv] >= 0 || is_parent(r, p, pid)))
                    continue;
                int32_t par = p;
                int idx = new_node(r, pid, imp[i].cause, &par, 1);
                if (idx < 0)
                    return found;
                /* Only the first chain to the negation counts: stop. */
                if (target)
                    return idx;
                store(r, idx);
                push(r, 0, idx);
            }
        }
        while (r->qh[0] < r->qt[0]) {
            int p = r->q[0][r->qh[0]++];
            if (hopeless(ch, fbase, r->nodes[p].depth + 2, fkey, ch->seq))
                return -1;
            int n = off_to_on(ctx, r, ch->g, p, y, 1, NULL, ons, ch->L,
                              srcpid >> 1);
            for (int i = 0; i < n; i++) {
                int idx = ons[i], cv = r->nodes[idx].pid >> 1, keep = 0;
                if ((r->nodes[idx].pid & ~1) == srcpid)
                    return idx;
                if (r->at[1][cv] < 0) {
                    store(r, idx);
                    push(r, 1, idx);
                    keep = 1;
                }
                if (!keep)
                    node_drop(r, idx);
            }
        }
    }
    return found;
}

/* doUnaryChaining for one candidate: phase 0 as SE (cycles, then the two
 * forcing chains), 1 the forcing chains only, 2 the cycles only. SE's
 * list position of each hint is kept in seq, for the top level. */
static void unary(struct chainer *ch, int cell, int v, int y, int x, int pass,
                  int phase)
{
    struct se_ctx *ctx = ch->ctx;
    struct se_chain_mem *m = ctx->chain;
    int cv = cv_of(cell, v);
    int cyc[256], ncyc = 0;
    int base = ch->acc->want_rp ? 0 : ((pass * 81 + cell) * 10 + v) * 512;
    int step = ch->acc->want_rp ? 0 : 1;

    if (se_popcount(ch->g->cand[cell]) > 2 && !x)
        return;
    /* A search ending on "v on in cell" needs a strong link into it (the
     * cell bivalue, or v bilocal in one of its regions); without one no
     * cycle and no chain from "off" can end there: not searched. */
    int ystrong = se_popcount(ch->g->cand[cell]) == 2, xstrong = 0;
    for (int ty = 0; ty < 3; ty++)
        xstrong |= se_popcount(ch->g->pos[ctx->t.creg[cell][ty]][v]) == 2;
    struct reach *R = ch->R;
    int want_cyc = phase != 1 && ((y && ystrong) || (x && xstrong)) &&
                   (!R || reach_cycle(R, cv));
    int want_f1 = x && phase != 2 && (!R || reach_negation(R, cv, 1));
    int want_f2 = x && phase != 2 && ((y && ystrong) || xstrong) &&
                  (!R || reach_negation(R, cv, 0));
    if (!want_cyc && !want_f1 && !want_f2)
        return;
    int mark = m->used[m->depth];
    struct run *rc = run_get(ctx), *r1 = NULL, *r2 = NULL;
    if (!rc)
        return;
    int src = new_node(rc, cv * 2 + 1, C_NONE, NULL, 0);
    store(rc, src);
    ch->seq = base;
    if (want_cyc)
        do_cycles(ch, rc, src, y, x, cyc, &ncyc);
    int f1 = -1, f2 = -1;
    if (want_f1 || want_f2) {
        r1 = run_get(ctx);
        r2 = run_get(ctx);
        if (r1 && r2) {
            int s1 = new_node(r1, cv * 2 + 1, C_NONE, NULL, 0);
            store(r1, s1);
            ch->seq = base + 300 * step;
            if (want_f1)
                f1 = do_forcing(ch, r1, s1, y);
            if (want_f2) {
                int s2 = new_node(r2, cv * 2, C_NONE, NULL, 0);
                store(r2, s2);
                ch->seq = base + 301 * step;
                f2 = do_forcing(ch, r2, s2, y);
            }
        }
    }
    for (int i = 0; i < ncyc; i++) {
        ch->seq = base + i * step;
        cycle_hint(ch, rc, cyc[i], y, x);
    }
    ch->seq = base + 300 * step;
    if (f1 >= 0)
        forcing_hint(ch, r1, f1, y, x);
    ch->seq = base + 301 * step;
    if (f2 >= 0)
        forcing_hint(ch, r2, f2, y, x);
    runs_release(ctx, mark);
}

/* getLoopHintList for X, Y, then XY links. At the top level, where only
 * the first hint of SE's sorted list counts, the cheap forcing chains of
 * every pass run first: the best of them bounds the cycle searches. */
static void loops(struct chainer *ch)
{
    static const int pass[3][2] = {{0, 1}, {1, 0}, {1, 1}}; /* y, x */
    int phases = ch->acc->want_rp ? 1 : 2;
    struct se_chain_mem *m = ch->ctx->chain;

    if (ch->L && !m->reach)
        m->reach = calloc(1, sizeof *m->reach);
    if (ch->L && m->reach) {
        reach_build(m->reach, ch->g, ch->L);
        ch->R = m->reach;
    }

    for (int ph = 0; ph < phases; ph++)
        for (int p = 0; p < 3; p++)
            for (int cell = 0; cell < 81; cell++) {
                int card = se_popcount(ch->g->cand[cell]);
                /* unary() has nothing to do for such a cell (Y pass). */
                if (ch->g->val[cell] || card <= 1 || (card > 2 && !pass[p][1]))
                    continue;
                for (int v = 1; v <= 9; v++)
                    if (ch->g->cand[cell] & BIT(v))
                        unary(ch, cell, v, pass[p][0], pass[p][1], p,
                              phases == 1 ? 0 : ph + 1);
                if (ch->ctx->timed_out)
                    return;
            }
}

/* ------------------------------------------------------------------ */
/* The producer                                                         */
/* ------------------------------------------------------------------ */

/* Lists SE's getOnToOff / getOffToOn for every candidate of g. */
static void build_links(struct se_ctx *ctx, const struct se_grid *g,
                        struct links *L)
{
    struct imp tmp[32];

    for (int cell = 0; cell < 81; cell++)
        for (int v = 1; v <= 9; v++) {
            int cv = cv_of(cell, v);
            L->ny[cv] = L->nx[cv] = L->nox[cv] = 0;
            L->oy[cv] = -1;
            if (!(g->cand[cell] & BIT(v)))
                continue;
            int n = on_to_off(ctx, g, cv * 2 + 1, 1, tmp, NULL);
            for (int i = 0; i < n; i++) {
                if (tmp[i].cause == C_NAKED)
                    L->y[cv][L->ny[cv]++] = (uint16_t)tmp[i].cv;
                else
                    L->x[cv][L->nx[cv]++] = (struct link){
                        (uint16_t)tmp[i].cv, (uint8_t)tmp[i].cause};
            }
            if (se_popcount(g->cand[cell]) == 2)
                L->oy[cv] =
                    (int16_t)cv_of(cell, se_first_bit(g->cand[cell] & ~BIT(v)));
            for (int ty = 0; ty < 3; ty++) {
                int reg = ctx->t.creg[cell][ty];
                unsigned pos = g->pos[reg][v];
                if (se_popcount(pos) != 2)
                    continue;
                pos &= ~(1u << ctx->t.cidx[cell][ty]);
                int ocv = cv_of(ctx->t.rcell[reg][se_first_bit(pos)], v),
                    dup = 0;
                for (int k = 0; k < L->nox[cv]; k++)
                    dup |= L->ox[cv][k].cv == ocv;
                if (!dup)
                    L->ox[cv][L->nox[cv]++] =
                        (struct link){(uint16_t)ocv, (uint8_t)(C_BLOCK + ty)};
            }
        }
}

static double rule_base(int multiple, int dynamic, int nishio, int level)
{
    if (level >= 2)
        return 9.5 + 0.5 * (level - 2);
    if (level > 0)
        return 8.5 + 0.5 * level;
    if (nishio)
        return 7.5;
    if (dynamic)
        return 8.5;
    if (multiple)
        return 8.0;
    return 0;
}

/* Merge sort of indices by hint_less: stable, as Collections.sort. */
static void sort_hints(const struct se_hint *list, int *idx, int n)
{
    int *tmp = malloc(sizeof *tmp * (size_t)(n ? n : 1));

    if (!tmp)
        return;
    for (int w = 1; w < n; w *= 2)
        for (int lo = 0; lo < n - w; lo += 2 * w) {
            int mid = lo + w, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int a = lo, b = mid, k = lo;
            while (a < mid && b < hi)
                tmp[k++] = hint_less(&list[idx[b]], &list[idx[a]]) ? idx[b++]
                                                                   : idx[a++];
            while (a < mid)
                tmp[k++] = idx[a++];
            while (b < hi)
                tmp[k++] = idx[b++];
            memcpy(idx + lo, tmp + lo, sizeof *idx * (size_t)(hi - lo));
        }
    free(tmp);
}

static int same_rem(const struct se_hint *a, const struct se_hint *b)
{
    return memcmp(a->rem, b->rem, sizeof a->rem) == 0;
}

/* A top-level producer call: on a new step's grid the nested records
 * and the rules' cache start again (the cache's records name nested
 * records, so both live for the step). */
static void adv_step(struct se_chain_mem *m, const struct se_grid *g,
                     int nested)
{
    struct adv_cache *C = m->adv;

    if (C && C->valid && !memcmp(C->top, g->cand, sizeof C->top))
        return;
    m->nn = 0;
    if (!nested && !C)
        return;
    if (!C) {
        C = m->adv = calloc(1, sizeof *C);
        if (C && !(C->pool = malloc(sizeof *C->pool * ADV_POOL))) {
            free(C);
            C = m->adv = NULL;
        }
        if (!C)
            return;
    }
    memcpy(C->top, g->cand, sizeof C->top);
    for (int k = 0; k < ADV_SLOTS; k++)
        C->slot[k].hash = 0;
    C->used = 0;
    C->valid = 1;
}

int se_chaining(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc,
                int multiple, int dynamic, int nishio, int level)
{
    struct chainer *ch = calloc(1, sizeof *ch);
    int stop = 0;

    if (!ch)
        return 0;
    ch->ctx = ctx;
    ch->g = g;
    ch->acc = acc;
    ch->multiple = multiple;
    ch->dynamic = dynamic;
    ch->nishio = nishio;
    ch->level = level;
    ch->base = rule_base(multiple, dynamic, nishio, level);
    if (dynamic)
        ch->orig = *g;
    if (ctx->chain->depth == 0)
        adv_step(ctx->chain, g, level > 0);
    struct se_chain_mem *m = ctx->chain;
    ch->cache = multiple || dynamic;
    if (ch->cache && ++m->call == 0)
        m->call = 1;
    ch->stamp = m->call;
    /* run_from(): levels 1, 2, 3 and 5 resume the runs of the level
     * below, asked last on the same grid. */
    ch->resume = m->depth == 0 && multiple && dynamic && !nishio &&
                 m->last_valid && level == m->last_level + 1 &&
                 (level <= 3 || level == 5) &&
                 !memcmp(m->last_grid, g->cand, sizeof m->last_grid);
    ch->resume_stamp = m->last_stamp;
    if (!dynamic) {
        if (!ctx->chain->links)
            ctx->chain->links = malloc(sizeof *ctx->chain->links);
        if (ctx->chain->links) {
            build_links(ctx, g, ctx->chain->links);
            ch->L = ctx->chain->links;
        }
    }
    if (multiple || dynamic)
        multiple_chains(ch);
    else
        loops(ch);
    if (m->depth == 0 && ch->cache) {
        m->last_valid = multiple && dynamic && !nishio && !ctx->timed_out;
        m->last_level = level;
        m->last_stamp = ch->stamp;
        memcpy(m->last_grid, g->cand, sizeof m->last_grid);
    }
    if (ctx->timed_out) {
        free(ch->list);
        free(ch);
        return 0;
    }
    if (!acc->want_rp) {
        if (ch->have_best)
            stop = acc->add(acc, &ch->best);
    } else {
        /* Stable sort by (difficulty, complexity, sort key), then SE's
         * LinkedHashSet drops hints with the same removals. */
        int n = ch->nlist;
        int *idx = malloc(sizeof *idx * (size_t)(n ? n : 1));
        int hcap = 1;
        while (hcap < 2 * n)
            hcap *= 2;
        int *table = malloc(sizeof *table * (size_t)hcap);
        uint64_t *hash = malloc(sizeof *hash * (size_t)(n ? n : 1));
        if (!idx || !table || !hash) {
            free(idx);
            free(table);
            free(hash);
            free(ch->list);
            free(ch);
            return 0;
        }
        for (int i = 0; i < n; i++) {
            idx[i] = i;
            uint64_t hv = 0xcbf29ce484222325ull;
            for (int c = 0; c < 81; c++)
                hv = (hv ^ ch->list[i].rem[c]) * 0x100000001b3ull;
            hash[i] = hv;
        }
        sort_hints(ch->list, idx, n);
        for (int k = 0; k < hcap; k++)
            table[k] = -1;
        for (int k = 0; k < n && !stop; k++) {
            int i = idx[k], dup = 0;
            unsigned slot = (unsigned)hash[i] & (unsigned)(hcap - 1);
            while (table[slot] >= 0 && !dup) {
                int j = table[slot];
                dup =
                    hash[j] == hash[i] && same_rem(&ch->list[i], &ch->list[j]);
                slot = (slot + 1) & (unsigned)(hcap - 1);
            }
            if (dup)
                continue;
            table[slot] = i;
            stop = acc->add(acc, &ch->list[i]);
        }
        free(idx);
        free(table);
        free(hash);
    }
    free(ch->list);
    free(ch);
    return stop;
}

int se_chain_init(struct se_ctx *ctx)
{
    struct se_chain_mem *m = calloc(1, sizeof *m);
    uint64_t x = 0x2545f4914f6cdd1dull;

    if (!m)
        return -1;
    for (int i = 0; i < NPID; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        m->zob[i] = x;
    }
    ctx->chain = m;
    return 0;
}

static void run_free(struct run *r)
{
    if (!r)
        return;
    free(r->nodes);
    free(r->pool);
    free(r->q[0]);
    free(r->q[1]);
    free(r);
}

void se_chain_free(struct se_ctx *ctx)
{
    struct se_chain_mem *m = ctx->chain;

    if (!m)
        return;
    for (int d = 0; d < MAX_DEPTH; d++) {
        for (int i = 0; i < RUNS_PER_DEPTH; i++)
            run_free(m->runs[d][i]);
        for (int on = 0; on < 2 && m->cache[d]; on++)
            for (int i = 0; i < NCV; i++)
                run_free(m->cache[d][on][i]);
        free(m->cache[d]);
    }
    free(m->stack);
    free(m->order);
    free(m->nrec);
    free(m->links);
    free(m->reach);
    if (m->adv)
        free(m->adv->pool);
    free(m->adv);
    free(m);
    ctx->chain = NULL;
}
