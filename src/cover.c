/* cover.c - the generic engine's search: Algorithm X over bitsets. The
 * columns are the cells and the (unit, digit) pairs; each node takes the
 * column with the fewest options (a cell with the fewest candidates, or a
 * digit with the fewest places in a unit), after naked and hidden singles
 * are propagated to a fixpoint. Changes go on an undo trail, so the state is
 * one set of masks per call (struct cover_ws in cover_internal.h). */
#include <stdlib.h>
#include <string.h>

#include "cover_internal.h"

#define WORDS ((COVER_MAX_CELLS + 63) / 64)

uint64_t cover_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static unsigned popcount32(uint32_t m)
{
    return (unsigned)__builtin_popcount(m);
}

/* ---- building the work space ---------------------------------------- */

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

static void set_pair(uint64_t *bits, unsigned a, unsigned b)
{
    bits[a * WORDS + b / 64] |= 1ull << (b % 64);
    bits[b * WORDS + a / 64] |= 1ull << (a % 64);
}

/* The knight's or the king's (diagonal) neighbours of every cell. */
static void set_moves(uint64_t *bits, unsigned n, const int (*mv)[2],
                      unsigned nmv)
{
    for (unsigned row = 0; row < n; row++)
        for (unsigned col = 0; col < n; col++)
            for (unsigned m = 0; m < nmv; m++) {
                int r2 = (int)row + mv[m][0], c2 = (int)col + mv[m][1];
                if (r2 >= 0 && c2 >= 0 && r2 < (int)n && c2 < (int)n)
                    set_pair(bits, row * n + col, (unsigned)(r2 * (int)n + c2));
            }
}

const int cover_knight[8][2] = {{-2, -1}, {-2, 1}, {-1, -2}, {-1, 2},
                                {1, -2},  {1, 2},  {2, -1},  {2, 1}};
const int cover_king[4][2] = {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}};

/* The peer relation as one bit row per cell. */
static uint64_t *peer_bits(const struct cover_rules *r,
                           const struct cover_group *g, unsigned ng)
{
    unsigned n = r->n;
    uint64_t *bits = calloc((size_t)n * n * WORDS, sizeof(*bits));

    if (!bits)
        return NULL;
    for (unsigned i = 0; i < ng; i++)
        for (unsigned a = 0; a < g[i].ncells; a++)
            for (unsigned b = a + 1; b < g[i].ncells; b++)
                set_pair(bits, g[i].cell[a], g[i].cell[b]);
    if (r->anti_knight)
        set_moves(bits, n, cover_knight, 8);
    if (r->anti_king)
        set_moves(bits, n, cover_king, 4);
    return bits;
}

/* Carves the arrays out of one block, largest alignment first. */
static struct cover_ws *ws_alloc(unsigned n, size_t npeers, unsigned nunits)
{
    size_t ncells = (size_t)n * n, trail = ncells * (n + 1);
    size_t size = sizeof(struct cover_ws) + (ncells + 1) * 4 + ncells * 4 +
                  trail * sizeof(struct cover_trail) + npeers * 2 +
                  (size_t)nunits * n * 2 + ncells * 2 + ncells;
    struct cover_ws *w = malloc(size);
    char *p;

    if (!w)
        return NULL;
    memset(w, 0, sizeof(*w));
    p = (char *)(w + 1);
    w->peer_start = (uint32_t *)p;
    p += (ncells + 1) * 4;
    w->cand = (uint32_t *)p;
    p += ncells * 4;
    w->trail = (struct cover_trail *)p;
    p += trail * sizeof(struct cover_trail);
    w->peer = (uint16_t *)p;
    p += npeers * 2;
    w->unit = (uint16_t *)p;
    p += (size_t)nunits * n * 2;
    w->queue = (uint16_t *)p;
    p += ncells * 2;
    w->val = (uint8_t *)p;
    w->n = n;
    w->ncells = (unsigned)ncells;
    w->nunits = nunits;
    w->all = n == 32 ? 0xFFFFFFFFu : (1u << n) - 1;
    return w;
}

struct cover_ws *cover_ws_new(const struct cover_rules *r)
{
    struct cover_group g[COVER_MAX_GROUPS];
    unsigned ng = cover_groups(r, g), n = r->n, ncells = n * n, nunits = 0;
    uint64_t *bits = peer_bits(r, g, ng);
    size_t npeers = 0;
    struct cover_ws *w;

    if (!bits)
        return NULL;
    for (size_t i = 0; i < (size_t)ncells * WORDS; i++)
        npeers += (size_t)__builtin_popcountll(bits[i]);
    for (unsigned i = 0; i < ng; i++)
        nunits += g[i].ncells == n;
    w = ws_alloc(n, npeers, nunits);
    if (!w) {
        free(bits);
        return NULL;
    }
    npeers = 0;
    for (unsigned c = 0; c < ncells; c++) {
        w->peer_start[c] = (uint32_t)npeers;
        for (unsigned x = 0; x < WORDS; x++)
            for (uint64_t m = bits[c * WORDS + x]; m; m &= m - 1)
                w->peer[npeers++] =
                    (uint16_t)(x * 64 + (unsigned)__builtin_ctzll(m));
    }
    w->peer_start[ncells] = (uint32_t)npeers;
    free(bits);
    nunits = 0;
    for (unsigned i = 0; i < ng; i++)
        if (g[i].ncells == n)
            memcpy(w->unit + (size_t)n * nunits++, g[i].cell, n * 2);
    return w;
}

void cover_ws_free(struct cover_ws *w)
{
    free(w);
}

/* ---- the state: placements, propagation, undo ----------------------- */

static void save(struct cover_ws *w, unsigned c)
{
    struct cover_trail *t = &w->trail[w->ntrail++];
    t->cell = (uint16_t)c;
    t->mask = w->cand[c];
    t->val = w->val[c];
}

static void undo(struct cover_ws *w, size_t mark)
{
    while (w->ntrail > mark) {
        const struct cover_trail *t = &w->trail[--w->ntrail];
        if (w->val[t->cell] && !t->val)
            w->nfilled--;
        w->cand[t->cell] = t->mask;
        w->val[t->cell] = t->val;
    }
}

/* Places digit d in cell c and removes it from the peers; 0 on a
 * contradiction. Peers left with one candidate join the queue. */
static int assign(struct cover_ws *w, unsigned c, unsigned d)
{
    uint32_t bit = 1u << (d - 1);

    if (w->val[c])
        return w->val[c] == d;
    if (!(w->cand[c] & bit))
        return 0;
    save(w, c);
    w->cand[c] = bit;
    w->val[c] = (uint8_t)d;
    w->nfilled++;
    for (uint32_t i = w->peer_start[c]; i < w->peer_start[c + 1]; i++) {
        unsigned p = w->peer[i];
        uint32_t m = w->cand[p];
        if (!(m & bit))
            continue;
        if (w->val[p] || m == bit)
            return 0;
        save(w, p);
        m &= ~bit;
        w->cand[p] = m;
        if (!(m & (m - 1)))
            w->queue[w->nqueue++] = (uint16_t)p;
    }
    return 1;
}

static int drain(struct cover_ws *w)
{
    while (w->nqueue) {
        unsigned c = w->queue[--w->nqueue];
        if (!w->val[c] &&
            !assign(w, c, (unsigned)__builtin_ctz(w->cand[c]) + 1))
            return 0;
    }
    return 1;
}

/* Hidden singles of unit u; returns -1 on a contradiction, else how many
 * digits it placed. */
static int hidden_singles(struct cover_ws *w, const uint16_t *u)
{
    uint32_t once = 0, twice = 0, placed = 0, single;
    int placed_now = 0;

    for (unsigned i = 0; i < w->n; i++) {
        uint32_t m = w->cand[u[i]];
        twice |= once & m;
        once |= m;
        if (w->val[u[i]])
            placed |= m;
    }
    if (once != w->all)
        return -1;
    for (single = once & ~twice & ~placed; single; single &= single - 1) {
        unsigned d = (unsigned)__builtin_ctz(single), i = 0;
        while (i < w->n && !(w->cand[u[i]] & (1u << d)))
            i++;
        if (i == w->n || !assign(w, u[i], d + 1))
            return -1;
        placed_now++;
    }
    return placed_now;
}

/* Naked and hidden singles to a fixpoint; 0 on a contradiction. */
static int propagate(struct cover_ws *w)
{
    int changed = 1;

    while (changed) {
        changed = 0;
        if (!drain(w))
            goto fail;
        for (unsigned u = 0; u < w->nunits; u++) {
            int k = hidden_singles(w, w->unit + (size_t)u * w->n);
            if (k < 0)
                goto fail;
            changed |= k > 0;
        }
        changed |= w->nqueue > 0;
    }
    return 1;
fail:
    w->nqueue = 0;
    return 0;
}

/* ---- the search ------------------------------------------------------ */

/* The column with the fewest options: fills cell[]/digit[] with them and
 * returns how many (at least 2 after propagation). */
static unsigned choose(const struct cover_ws *w, uint16_t *cell, uint8_t *digit)
{
    unsigned best = w->n + 1, bc = 0, bu = 0, bd = 0, unit_best = 0;

    for (unsigned c = 0; c < w->ncells && best > 2; c++)
        if (!w->val[c] && popcount32(w->cand[c]) < best) {
            best = popcount32(w->cand[c]);
            bc = c;
        }
    for (unsigned u = 0; u < w->nunits && best > 2; u++) {
        const uint16_t *cells = w->unit + (size_t)u * w->n;
        uint8_t cnt[COVER_MAX_N] = {0};
        for (unsigned i = 0; i < w->n; i++)
            if (!w->val[cells[i]])
                for (uint32_t m = w->cand[cells[i]]; m; m &= m - 1)
                    cnt[__builtin_ctz(m)]++;
        for (unsigned d = 0; d < w->n; d++)
            if (cnt[d] && cnt[d] < best) {
                best = cnt[d];
                bu = u;
                bd = d;
                unit_best = 1;
            }
    }
    unsigned k = 0;
    if (unit_best) {
        const uint16_t *cells = w->unit + (size_t)bu * w->n;
        for (unsigned i = 0; i < w->n; i++)
            if (!w->val[cells[i]] && (w->cand[cells[i]] & (1u << bd))) {
                cell[k] = cells[i];
                digit[k++] = (uint8_t)(bd + 1);
            }
        return k;
    }
    for (uint32_t m = w->cand[bc]; m; m &= m - 1) {
        cell[k] = (uint16_t)bc;
        digit[k++] = (uint8_t)(__builtin_ctz(m) + 1);
    }
    return k;
}

static void shuffle(uint64_t *rng, uint16_t *cell, uint8_t *digit, unsigned k)
{
    for (unsigned i = k; i > 1; i--) {
        unsigned j = (unsigned)(cover_rand(rng) % i);
        uint16_t c = cell[i - 1];
        uint8_t d = digit[i - 1];
        cell[i - 1] = cell[j];
        digit[i - 1] = digit[j];
        cell[j] = c;
        digit[j] = d;
    }
}

static int done(const struct cover_ws *w)
{
    return w->count >= w->limit || w->out_of_budget;
}

/* Searches below the propagated state. */
static void search(struct cover_ws *w)
{
    uint16_t cell[COVER_MAX_N];
    uint8_t digit[COVER_MAX_N];
    unsigned k;

    if (w->nfilled == w->ncells) {
        if (w->count++ == 0 && w->solution) {
            w->solution->n = (uint8_t)w->n;
            memcpy(w->solution->cell, w->val, w->ncells);
        }
        return;
    }
    k = choose(w, cell, digit);
    if (k > 1)
        w->guesses++;
    if (w->rng)
        shuffle(w->rng, cell, digit, k);
    for (unsigned i = 0; i < k; i++) {
        size_t mark = w->ntrail;
        if (w->max_nodes && w->nodes >= w->max_nodes) {
            w->out_of_budget = 1;
            return;
        }
        w->nodes++;
        if (assign(w, cell[i], digit[i]) && propagate(w))
            search(w);
        w->nqueue = 0;
        undo(w, mark);
        if (done(w))
            return;
    }
}

enum cover_status cover_ws_count(struct cover_ws *w,
                                 const struct cover_grid *puzzle,
                                 unsigned limit, uint64_t max_nodes,
                                 uint64_t *rng, struct cover_grid *solution,
                                 unsigned *count, struct sudoku_stats *stats)
{
    int alive = 1;

    *count = 0;
    if (stats)
        stats->nodes = stats->guesses = 0;
    if (puzzle->n != w->n)
        return COVER_BAD_SIZE;
    for (unsigned c = 0; c < w->ncells; c++)
        w->cand[c] = w->all;
    memset(w->val, 0, w->ncells);
    w->nfilled = 0;
    w->ntrail = w->nqueue = 0;
    w->limit = limit ? limit : 1;
    w->count = 0;
    w->max_nodes = max_nodes;
    w->nodes = w->guesses = 0;
    w->rng = rng;
    w->solution = solution;
    w->out_of_budget = 0;
    for (unsigned c = 0; c < w->ncells && alive; c++) {
        unsigned v = puzzle->cell[c];
        if (v && (v > w->n || !assign(w, c, v)))
            alive = 0;
    }
    if (alive && propagate(w))
        search(w);
    *count = w->count;
    if (stats) {
        stats->nodes = w->nodes;
        stats->guesses = w->guesses;
    }
    return w->out_of_budget ? COVER_BUDGET : COVER_OK;
}

enum cover_status cover_count(const struct cover_rules *r,
                              const struct cover_grid *puzzle, unsigned limit,
                              uint64_t max_nodes, struct cover_grid *solution,
                              unsigned *count, struct sudoku_stats *stats)
{
    struct cover_ws *w = cover_ws_new(r);
    enum cover_status st;

    *count = 0;
    if (stats)
        stats->nodes = stats->guesses = 0;
    if (!w)
        return COVER_NO_MEMORY;
    st = cover_ws_count(w, puzzle, limit, max_nodes, NULL, solution, count,
                        stats);
    cover_ws_free(w);
    return st;
}
