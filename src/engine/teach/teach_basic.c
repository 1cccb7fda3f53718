/* teach_basic.c - the techniques of every rule set, stated over units and
 * peers: singles, locked candidates (a unit's digit confined to cells that
 * all see the same others: pointing and claiming, and their knight's and
 * king's move forms), naked and hidden subsets, and fish over rows and
 * columns. A "full" unit (n cells) holds every digit; the hidden techniques
 * use only those, the naked ones any unit. */
#include <string.h>

#include "teach_internal.h"

unsigned teach_sees_all(const struct teach_puzzle *p,
                        const struct teach_grid *g, const uint16_t *cells,
                        unsigned ncells, unsigned digit, struct teach_step *s)
{
    uint64_t common[TEACH_WORDS];
    uint32_t bit = 1u << (digit - 1);
    unsigned before = s->neliminations;

    if (ncells == 0)
        return 0;
    memcpy(common, p->peer[cells[0]], sizeof(common));
    for (unsigned k = 1; k < ncells; k++)
        for (unsigned w = 0; w < p->nwords; w++)
            common[w] &= p->peer[cells[k]][w];
    for (unsigned w = 0; w < p->nwords; w++) {
        uint64_t m = common[w];
        while (m) {
            unsigned c = w * 64 + (unsigned)__builtin_ctzll(m);
            m &= m - 1;
            if (g->cand[c] & bit)
                teach_step_elim(s, g, c, digit);
        }
    }
    return s->neliminations - before;
}

/* Bit k when cell k of u has the digit as a candidate. */
static uint32_t positions(const struct teach_unit *u,
                          const struct teach_grid *g, unsigned digit)
{
    uint32_t m = 0, bit = 1u << (digit - 1);

    for (unsigned k = 0; k < u->ncells; k++)
        if (g->cand[u->cell[k]] & bit)
            m |= 1u << k;
    return m;
}

/* ------------------------------------------------------------------------
 * Singles
 * ------------------------------------------------------------------------ */

enum teach_status teach_find_singles(const struct teach_puzzle *p,
                                     const struct teach_grid *g, int hidden,
                                     struct teach_step *s)
{
    if (!hidden) {
        for (unsigned c = 0; c < p->ncells; c++) {
            if (g->value[c] != 0)
                continue;
            if (g->cand[c] == 0)
                return TEACH_CONTRADICTION;
            if (teach_popcount(g->cand[c]) == 1) {
                teach_step_start(s, TEACH_NAKED_SINGLE, g->cand[c]);
                teach_step_place(s, c, (unsigned)teach_low_digit(g->cand[c]));
                teach_step_cell(s, c);
                return TEACH_OK;
            }
        }
        return TEACH_STUCK;
    }
    /* Per unit, the digits with one place and those with none, all
     * digits at once; the first of either in digit order is the answer
     * (a digit-by-digit scan's). */
    for (unsigned ui = 0; ui < p->nunits; ui++) {
        const struct teach_unit *u = &p->unit[ui];
        uint32_t none, lone, bit;
        if (!u->full)
            continue;
        lone = teach_unit_singles(p, u, g, &none);
        if ((none | lone) == 0)
            continue;
        bit = (none | lone) & -(none | lone);
        if (none & bit)
            return TEACH_CONTRADICTION;
        for (unsigned k = 0; k < u->ncells; k++) {
            unsigned c = u->cell[k], d = (unsigned)teach_low_digit(bit);
            if (!(g->cand[c] & bit))
                continue;
            teach_step_start(s, TEACH_HIDDEN_SINGLE, bit);
            teach_step_place(s, c, d);
            teach_step_cell(s, c);
            teach_step_unit(s, ui);
            return TEACH_OK;
        }
    }
    return TEACH_STUCK;
}

/* ------------------------------------------------------------------------
 * Locked candidates
 * ------------------------------------------------------------------------ */

/* Another unit than `not` that holds every cell of cells[], or -1. */
static int common_unit(const struct teach_puzzle *p, const uint16_t *cells,
                       unsigned ncells, unsigned not )
{
    for (unsigned k = 0; k < p->nunits_of[cells[0]]; k++) {
        unsigned ui = p->units_of[cells[0]][k], all = 1;
        if (ui == not )
            continue;
        for (unsigned i = 1; i < ncells && all; i++) {
            unsigned found = 0;
            for (unsigned j = 0; j < p->nunits_of[cells[i]]; j++)
                found |= p->units_of[cells[i]][j] == ui;
            all = found;
        }
        if (all)
            return (int)ui;
    }
    return -1;
}

/* has[d-1]: the cells with candidate d, as a bit set over the cells. */
static void digit_cells(const struct teach_puzzle *p,
                        const struct teach_grid *g,
                        uint64_t has[TEACH_MAX_N][TEACH_WORDS])
{
    memset(has, 0, sizeof(uint64_t) * TEACH_MAX_N * TEACH_WORDS);
    for (unsigned c = 0; c < p->ncells; c++)
        for (uint32_t m = g->cand[c]; m; m &= m - 1)
            has[__builtin_ctz(m)][c >> 6] |= 1ull << (c & 63);
}

/* place[d-1]: bit k when cell k of u has candidate d (a placed digit has
 * none). Every digit in one pass over the cells. */
static void unit_places(const struct teach_unit *u, const struct teach_grid *g,
                        uint32_t place[TEACH_MAX_N])
{
    memset(place, 0, sizeof(uint32_t) * TEACH_MAX_N);
    for (unsigned k = 0; k < u->ncells; k++)
        for (uint32_t m = g->cand[u->cell[k]]; m; m &= m - 1)
            place[__builtin_ctz(m)] |= 1u << k;
}

/* common[]: the cells of has[] (those with the digit) that see every one
 * of cells[]; nonzero when there is one. Most sets of a digit's places
 * see none, and the intersection is empty after a cell or two. */
static int seen_by_all(const struct teach_puzzle *p, const uint64_t *has,
                       const uint16_t *cells, unsigned ncells, uint64_t *common)
{
    uint64_t any = 0;

    for (unsigned w = 0; w < p->nwords; w++)
        common[w] = has[w] & p->peer[cells[0]][w];
    for (unsigned k = 1; k < ncells; k++) /* they are peers of each other */
        common[cells[k] >> 6] &= ~(1ull << (cells[k] & 63));
    for (unsigned w = 0; w < p->nwords; w++)
        any |= common[w];
    for (unsigned k = 1; k < ncells && any; k++) {
        any = 0;
        for (unsigned w = 0; w < p->nwords; w++)
            any |= common[w] &= p->peer[cells[k]][w];
    }
    return any != 0;
}

/* The cells of u (their indices in place's bits) in cells[]; their count. */
static unsigned unit_cells(const struct teach_unit *u, uint32_t place,
                           uint16_t *cells)
{
    unsigned n = 0;

    for (; place; place &= place - 1)
        cells[n++] = u->cell[teach_low_digit(place) - 1];
    return n;
}

/* The scan of both forms below: in each full unit, each digit with two or
 * more places, all of which see some other cell with the digit. With s,
 * the first set that teach_sees_all makes a step of becomes it
 * (TEACH_OK). With out (g itself, for the dig's walk), every set found
 * leaves out at once and *removed counts the marks. */
static enum teach_status locked_scan(const struct teach_puzzle *p,
                                     const struct teach_grid *g,
                                     struct teach_step *s,
                                     struct teach_grid *out, unsigned *removed)
{
    uint64_t has[TEACH_MAX_N][TEACH_WORDS], common[TEACH_WORDS];

    digit_cells(p, g, has);
    for (unsigned ui = 0; ui < p->nunits; ui++) {
        const struct teach_unit *u = &p->unit[ui];
        uint32_t place[TEACH_MAX_N];
        if (!u->full)
            continue;
        unit_places(u, g, place);
        for (unsigned d = 1; d <= p->n; d++) {
            uint16_t cells[TEACH_MAX_N];
            unsigned ncells;
            int other;
            if ((place[d - 1] & (place[d - 1] - 1)) == 0)
                continue; /* placed, or a single's */
            ncells = unit_cells(u, place[d - 1], cells);
            if (!seen_by_all(p, has[d - 1], cells, ncells, common))
                continue;
            if (out != NULL) {
                for (unsigned w = 0; w < p->nwords; w++) {
                    for (uint64_t m = common[w]; m; m &= m - 1) {
                        unsigned c = w * 64 + (unsigned)__builtin_ctzll(m);
                        out->cand[c] &= ~(1u << (d - 1));
                        (*removed)++;
                    }
                    has[d - 1][w] &= ~common[w];
                }
                continue;
            }
            teach_step_start(s, TEACH_LOCKED_CANDIDATES, 1u << (d - 1));
            if (teach_sees_all(p, g, cells, ncells, d, s) == 0)
                continue;
            teach_step_unit(s, ui);
            if ((other = common_unit(p, cells, ncells, ui)) >= 0)
                teach_step_unit(s, (unsigned)other);
            for (unsigned k = 0; k < ncells; k++)
                teach_step_cell(s, cells[k]);
            return TEACH_OK;
        }
    }
    return TEACH_STUCK;
}

enum teach_status teach_find_locked(const struct teach_puzzle *p,
                                    const struct teach_grid *g,
                                    struct teach_step *s)
{
    return locked_scan(p, g, s, NULL, NULL);
}

unsigned teach_locked_all(const struct teach_puzzle *p, struct teach_grid *g)
{
    unsigned removed = 0;

    locked_scan(p, g, NULL, g, &removed);
    return removed;
}

/* ------------------------------------------------------------------------
 * Naked and hidden subsets
 * ------------------------------------------------------------------------ */

static const enum teach_technique naked_of[] = {
    TEACH_NAKED_SINGLE, TEACH_NAKED_SINGLE, TEACH_NAKED_PAIR,
    TEACH_NAKED_TRIPLE, TEACH_NAKED_QUAD};
static const enum teach_technique hidden_of[] = {
    TEACH_HIDDEN_SINGLE, TEACH_HIDDEN_SINGLE, TEACH_HIDDEN_PAIR,
    TEACH_HIDDEN_TRIPLE, TEACH_HIDDEN_QUAD};

/* k cells of a unit with k candidates between them hold those k digits:
 * each digit leaves every cell that sees all the subset's cells where it
 * may go (the rest of the unit, and beyond). */
enum teach_status teach_find_naked(const struct teach_puzzle *p,
                                   const struct teach_grid *g, int k,
                                   const struct teach_budget *b,
                                   struct teach_step *s)
{
    for (unsigned ui = 0; ui < p->nunits; ui++) {
        const struct teach_unit *u = &p->unit[ui];
        unsigned cand[TEACH_MAX_N], m = 0;
        uint32_t sets[TEACH_MAX_N], uni;
        int idx[4];
        if ((ui & 15) == 0 && teach_expired(b))
            return TEACH_BUDGET;
        for (unsigned i = 0; i < u->ncells; i++) {
            unsigned c = u->cell[i];
            int pc = teach_popcount(g->cand[c]);
            if (g->value[c] == 0 && pc >= 2 && pc <= k) {
                sets[m] = g->cand[c];
                cand[m++] = c;
            }
        }
        for (int more = teach_next_subset(sets, (int)m, k, idx, 1, &uni); more;
             more = teach_next_subset(sets, (int)m, k, idx, 0, &uni)) {
            teach_step_start(s, naked_of[k], uni);
            for (uint32_t ds = uni; ds; ds &= ds - 1) {
                unsigned d = (unsigned)teach_low_digit(ds), nh = 0;
                uint16_t holders[4];
                for (int i = 0; i < k; i++)
                    if (g->cand[cand[idx[i]]] & (1u << (d - 1)))
                        holders[nh++] = (uint16_t)cand[idx[i]];
                teach_sees_all(p, g, holders, nh, d, s);
            }
            if (s->neliminations == 0)
                continue;
            teach_step_unit(s, ui);
            for (int i = 0; i < k; i++)
                teach_step_cell(s, cand[idx[i]]);
            return TEACH_OK;
        }
    }
    return TEACH_STUCK;
}

/* k digits of a full unit with k cells between them fill those cells: the
 * cells' other candidates go. */
enum teach_status teach_find_hidden(const struct teach_puzzle *p,
                                    const struct teach_grid *g, int k,
                                    const struct teach_budget *b,
                                    struct teach_step *s)
{
    for (unsigned ui = 0; ui < p->nunits; ui++) {
        const struct teach_unit *u = &p->unit[ui];
        unsigned digit[TEACH_MAX_N], m = 0;
        uint32_t pos[TEACH_MAX_N], placed, uni;
        int idx[4];
        if (!u->full)
            continue;
        if ((ui & 15) == 0 && teach_expired(b))
            return TEACH_BUDGET;
        placed = teach_placed_in(u, g);
        for (unsigned d = 1; d <= p->n; d++) {
            uint32_t ps;
            int pc;
            if (placed & (1u << (d - 1)))
                continue;
            ps = positions(u, g, d);
            pc = teach_popcount(ps);
            if (pc >= 2 && pc <= k) {
                digit[m] = d;
                pos[m++] = ps;
            }
        }
        for (int more = teach_next_subset(pos, (int)m, k, idx, 1, &uni); more;
             more = teach_next_subset(pos, (int)m, k, idx, 0, &uni)) {
            uint32_t ds = 0;
            for (int i = 0; i < k; i++)
                ds |= 1u << (digit[idx[i]] - 1);
            teach_step_start(s, hidden_of[k], ds);
            for (uint32_t cs = uni; cs; cs &= cs - 1) {
                unsigned c = u->cell[teach_low_digit(cs) - 1];
                for (uint32_t o = g->cand[c] & ~ds; o; o &= o - 1)
                    teach_step_elim(s, g, c, (unsigned)teach_low_digit(o));
            }
            if (s->neliminations == 0)
                continue;
            teach_step_unit(s, ui);
            for (uint32_t cs = uni; cs; cs &= cs - 1)
                teach_step_cell(s, u->cell[teach_low_digit(cs) - 1]);
            return TEACH_OK;
        }
    }
    return TEACH_STUCK;
}

/* ------------------------------------------------------------------------
 * Fish: k rows whose places for a digit lie in k columns (or the other
 * way round) hold it once in each of those columns.
 * ------------------------------------------------------------------------ */

static const enum teach_technique fish_of[] = {
    TEACH_X_WING, TEACH_X_WING, TEACH_X_WING, TEACH_SWORDFISH, TEACH_JELLYFISH};

enum teach_status teach_find_fish(const struct teach_puzzle *p,
                                  const struct teach_grid *g, int k,
                                  struct teach_step *s)
{
    unsigned n = p->n;

    for (unsigned d = 1; d <= n; d++) {
        uint32_t bit = 1u << (d - 1);
        for (int cols = 0; cols < 2; cols++) {
            /* base line i: cell (i, j) is i * n + j for rows, j * n + i
             * for columns; units 0..n-1 rows, n..2n-1 columns */
            uint32_t mask[TEACH_MAX_N], uni;
            unsigned line[TEACH_MAX_N], m = 0;
            int idx[4];
            for (unsigned i = 0; i < n; i++) {
                uint32_t ms = 0;
                for (unsigned j = 0; j < n; j++)
                    if (g->cand[cols ? j * n + i : i * n + j] & bit)
                        ms |= 1u << j;
                if (teach_popcount(ms) >= 2 && teach_popcount(ms) <= k) {
                    line[m] = i;
                    mask[m++] = ms;
                }
            }
            for (int more = teach_next_subset(mask, (int)m, k, idx, 1, &uni);
                 more;
                 more = teach_next_subset(mask, (int)m, k, idx, 0, &uni)) {
                uint32_t base = 0;
                for (int i = 0; i < k; i++)
                    base |= 1u << line[idx[i]];
                teach_step_start(s, fish_of[k], bit);
                for (uint32_t js = uni; js; js &= js - 1) {
                    unsigned j = (unsigned)teach_low_digit(js) - 1;
                    for (unsigned i = 0; i < n; i++)
                        if (!(base & (1u << i)))
                            teach_step_elim(s, g, cols ? j * n + i : i * n + j,
                                            d);
                }
                if (s->neliminations == 0)
                    continue;
                for (int i = 0; i < k; i++)
                    teach_step_unit(s, (cols ? n : 0) + line[idx[i]]);
                for (uint32_t js = uni; js; js &= js - 1)
                    teach_step_unit(s, (cols ? 0 : n) +
                                           (unsigned)teach_low_digit(js) - 1);
                for (int i = 0; i < k; i++)
                    for (uint32_t js = mask[idx[i]]; js; js &= js - 1) {
                        unsigned j = (unsigned)teach_low_digit(js) - 1;
                        teach_step_cell(s, cols ? j * n + line[idx[i]]
                                                : line[idx[i]] * n + j);
                    }
                return TEACH_OK;
            }
        }
    }
    return TEACH_STUCK;
}
