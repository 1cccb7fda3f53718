/* teach_chain.c - chains over the peer graph, found by breadth-first
 * search so the shortest comes first.
 *
 * X-chain (one digit d): a node is a cell with its d either false or true.
 * From "A is not d" a strong link (A and B are the only two places for d
 * in some full unit) gives "B is d"; from "B is d" a weak link (any peer C
 * with d as a candidate) gives "C is not d". Reaching "E is d" from "A is
 * not d" means A or E holds d: a cell that sees both loses it.
 *
 * XY-chain: a node is a two-candidate cell with the digit it would hold.
 * From "A is not x" A is its other digit y; a two-candidate peer B holding
 * y is then its other digit z, and so on. Reaching a cell E that would be
 * x means A or E is x: a cell that sees both loses x. */
#include <string.h>

#include "teach_internal.h"

#define MAX_STRONG 16 /* strong links per cell kept */

struct chain_search {
    const struct teach_puzzle *p;
    const struct teach_grid *g;
    unsigned nnodes;
    int16_t parent[TEACH_MAX_CELLS * TEACH_MAX_N];
    uint8_t seen[TEACH_MAX_CELLS * TEACH_MAX_N];
    uint16_t queue[TEACH_MAX_CELLS * TEACH_MAX_N];
    uint16_t strong[TEACH_MAX_CELLS][MAX_STRONG];
    uint8_t nstrong[TEACH_MAX_CELLS];
};

/* The strong links of digit d: pairs of a full unit's only two places. */
static void strong_links(struct chain_search *cs, unsigned d)
{
    const struct teach_puzzle *p = cs->p;
    uint32_t bit = 1u << (d - 1);

    memset(cs->nstrong, 0, p->ncells);
    for (unsigned ui = 0; ui < p->nunits; ui++) {
        const struct teach_unit *u = &p->unit[ui];
        unsigned pos[2], n = 0;
        if (!u->full)
            continue;
        for (unsigned k = 0; k < u->ncells && n <= 2; k++)
            if (cs->g->cand[u->cell[k]] & bit) {
                if (n < 2)
                    pos[n] = u->cell[k];
                n++;
            }
        if (n != 2)
            continue;
        for (int e = 0; e < 2; e++) {
            unsigned a = pos[e], b = pos[1 - e];
            if (cs->nstrong[a] < MAX_STRONG)
                cs->strong[a][cs->nstrong[a]++] = (uint16_t)b;
        }
    }
}

/* Records the path ending at node `end` (node ids: cell * width + k) into
 * s->cells and s->chain_digits, from the start. */
static void record(const struct chain_search *cs, struct teach_step *s, int end,
                   unsigned width, int xy, unsigned d)
{
    uint16_t cells[TEACH_MAX_STEP_CELLS];
    uint8_t digits[TEACH_MAX_STEP_CELLS];
    unsigned n = 0, len = 0;

    for (int v = end; v >= 0; v = cs->parent[v]) {
        len++;
        if (n < TEACH_MAX_STEP_CELLS) {
            cells[n] = (uint16_t)((unsigned)v / width);
            digits[n++] = (uint8_t)(xy ? (unsigned)v % width + 1 : d);
        }
    }
    s->ncells = 0;
    for (unsigned i = n; i-- > 0;) {
        s->chain_digits[s->ncells] = digits[i];
        teach_step_cell(s, cells[i]);
    }
    s->chain_length = (uint16_t)len;
}

/* One breadth-first search from `start` (a node id); 1 when it found a
 * chain with eliminations (s holds the step). */
static int search(struct chain_search *cs, int xy, unsigned d, unsigned a,
                  int start, unsigned x, struct teach_step *s)
{
    const struct teach_puzzle *p = cs->p;
    const struct teach_grid *g = cs->g;
    unsigned width = xy ? p->n : 2, head = 0, tail = 0;

    memset(cs->seen, 0, cs->nnodes);
    cs->seen[start] = 1;
    cs->parent[start] = -1;
    cs->queue[tail++] = (uint16_t)start;
    while (head < tail) {
        unsigned v = cs->queue[head++], c = v / width, k = v % width;
        unsigned next[TEACH_MAX_CELLS > 64 ? 64 : TEACH_MAX_CELLS], nn = 0;
        if (!xy && k == 0) { /* c is not d: its strong partners are */
            for (unsigned i = 0; i < cs->nstrong[c] && nn < 64; i++)
                next[nn++] = cs->strong[c][i] * 2u + 1;
        } else {
            /* xy: c holds digit k+1; x: c holds d. Its peers... */
            uint32_t bit = xy ? 1u << k : 1u << (d - 1);
            for (unsigned w = 0; w < p->nwords && nn < 64; w++)
                for (uint64_t m = p->peer[c][w]; m && nn < 64; m &= m - 1) {
                    unsigned o = w * 64 + (unsigned)__builtin_ctzll(m);
                    if (g->value[o] || !(g->cand[o] & bit))
                        continue;
                    if (!xy) {
                        next[nn++] = o * 2u; /* ... are not d */
                    } else if (teach_popcount(g->cand[o]) == 2) {
                        /* ... with two candidates are their other one */
                        unsigned other =
                            (unsigned)teach_low_digit(g->cand[o] & ~bit);
                        next[nn++] = o * width + other - 1;
                    }
                }
        }
        for (unsigned i = 0; i < nn; i++) {
            unsigned u = next[i], uc = u / width;
            uint16_t ends[2];
            if (cs->seen[u])
                continue;
            cs->seen[u] = 1;
            cs->parent[u] = (int16_t)v;
            cs->queue[tail++] = (uint16_t)u;
            /* an end: "uc is x" (xy) or "uc is d" (x), another cell */
            if (uc == a || (xy ? u % width + 1 != x : u % 2 != 1))
                continue;
            ends[0] = (uint16_t)a;
            ends[1] = (uint16_t)uc;
            teach_step_start(s, xy ? TEACH_XY_CHAIN : TEACH_X_CHAIN,
                             1u << ((xy ? x : d) - 1));
            if (teach_sees_all(p, g, ends, 2, xy ? x : d, s) == 0)
                continue;
            record(cs, s, (int)u, width, xy, d);
            return 1;
        }
    }
    return 0;
}

/* Two-candidate peers of the pivot: A {x,z} and B {y,z}. If the pivot is
 * x, B is z; if it is y, A is z: a cell that sees both A and B is not z.
 * (The shortest XY-chain, A -> pivot -> B, named and rated apart.) */
enum teach_status teach_find_xy_wing(const struct teach_puzzle *p,
                                     const struct teach_grid *g,
                                     const struct teach_budget *b,
                                     struct teach_step *s)
{
    for (unsigned pv = 0; pv < p->ncells; pv++) {
        uint32_t m = g->cand[pv];
        if (g->value[pv] || teach_popcount(m) != 2)
            continue;
        if ((pv & 63) == 0 && teach_expired(b))
            return TEACH_BUDGET;
        for (int e = 0; e < 2; e++) {
            unsigned x = (unsigned)teach_low_digit(e ? m & (m - 1) : m),
                     y = (unsigned)teach_low_digit(m & ~(1u << (x - 1)));
            for (unsigned a = 0; a < p->ncells; a++) {
                uint32_t ma = g->cand[a], zbit;
                if (g->value[a] || teach_popcount(ma) != 2 ||
                    !(ma & (1u << (x - 1))) || (ma & (1u << (y - 1))) ||
                    !teach_is_peer(p, pv, a))
                    continue;
                zbit = ma & ~(1u << (x - 1));
                for (unsigned c = 0; c < p->ncells; c++) {
                    uint16_t ends[2] = {(uint16_t)a, (uint16_t)c};
                    unsigned z = (unsigned)teach_low_digit(zbit);
                    if (c == a || g->value[c] ||
                        g->cand[c] != ((1u << (y - 1)) | zbit) ||
                        !teach_is_peer(p, pv, c))
                        continue;
                    teach_step_start(s, TEACH_XY_WING, zbit);
                    if (teach_sees_all(p, g, ends, 2, z, s) == 0)
                        continue;
                    teach_step_cell(s, a);
                    teach_step_cell(s, pv);
                    teach_step_cell(s, c);
                    /* a is not z: it is x, so the pivot is y, so c is z */
                    s->chain_digits[0] = (uint8_t)x;
                    s->chain_digits[1] = (uint8_t)y;
                    s->chain_digits[2] = (uint8_t)z;
                    return TEACH_OK;
                }
            }
        }
    }
    return TEACH_STUCK;
}

enum teach_status teach_find_chain(const struct teach_puzzle *p,
                                   const struct teach_grid *g, int xy,
                                   const struct teach_budget *b,
                                   struct teach_step *s)
{
    /* About 100 KB of stack: the nodes of a 25x25 search. */
    struct chain_search cs;

    cs.p = p;
    cs.g = g;
    cs.nnodes = p->ncells * (xy ? p->n : 2u);
    if (xy) {
        for (unsigned a = 0; a < p->ncells; a++) {
            uint32_t m = g->cand[a];
            if (g->value[a] || teach_popcount(m) != 2)
                continue;
            if (teach_expired(b))
                return TEACH_BUDGET;
            for (int e = 0; e < 2; e++) {
                unsigned x = (unsigned)teach_low_digit(e ? m & (m - 1) : m),
                         y = (unsigned)teach_low_digit(m & ~(1u << (x - 1)));
                if (search(&cs, 1, 0, a, (int)(a * p->n + y - 1), x, s))
                    return TEACH_OK;
            }
        }
        return TEACH_STUCK;
    }
    for (unsigned d = 1; d <= p->n; d++) {
        strong_links(&cs, d);
        for (unsigned a = 0; a < p->ncells; a++) {
            if (cs.nstrong[a] == 0)
                continue;
            if ((a & 63) == 0 && teach_expired(b))
                return TEACH_BUDGET;
            if (search(&cs, 0, d, a, (int)(a * 2), 0, s))
                return TEACH_OK;
        }
    }
    return TEACH_STUCK;
}
