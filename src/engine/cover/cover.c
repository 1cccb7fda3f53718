/* cover.c - the generic engine's search: Algorithm X over bitsets. The
 * columns are the cells and the (unit, digit) pairs; each node takes the
 * column with the fewest options (a cell with the fewest candidates, or a
 * digit with the fewest places in a unit). Place masks kept per (unit,
 * digit) make the propagation incremental: naked singles, hidden singles,
 * locked candidates and naked pairs are queued as the masks shrink, not
 * found by sweeps. Changes go on an undo trail, so the state is one set of
 * masks per call (struct cover_ws, cover_internal.h; built in
 * cover_build.c). Method and figures: docs/performance.md. */
#include <string.h>

#include "cover_internal.h"
#include "grid.h"

static unsigned ctz32(uint32_t m)
{
    return (unsigned)__builtin_ctz(m);
}

static int two_bits(uint32_t m)
{
    uint32_t rest = m & (m - 1);
    return rest && !(rest & (rest - 1));
}

/* ---- places and queues ---------------------------------------------- */

/* Queues entry e once (flag[e] says it is queued). */
static void push(uint8_t *flag, uint32_t *q, unsigned *nq, uint32_t e)
{
    if (!flag[e]) {
        flag[e] = 1;
        q[(*nq)++] = e;
    }
}

/* Cell c lost digit d (0-based): its positions leave d's places in its
 * units, and what that makes forced is queued: d down to one place, or
 * confined to the cells a unit shares with another (only sides that hold
 * its lowest place can contain them all). Returns 0 when a unit has no
 * place left for d; the places are complete either way, so that undo stays
 * exact. */
static inline int lose_one(struct cover_ws *w, unsigned c, unsigned d)
{
    uint32_t *restrict place = w->place;
    const uint32_t *restrict smask = w->side_mask, *restrict sstart =
                                                       w->side_start;
    const uint16_t *restrict side_of = w->side_of;
    uint32_t end = w->uo_start[c + 1];
    int ok = 1;

    for (uint32_t i = w->uo_start[c]; i < end; i++) {
        unsigned base = w->uo_base[i], e = base + d;
        uint32_t m = place[e] & ~w->uo_bit[i];
        place[e] = m;
        if (!(m & (m - 1))) {
            if (m)
                push(w->hidden_flag, w->hidden, &w->nhidden, e);
            else
                ok = 0;
            continue;
        }
        unsigned q = base + ctz32(m);
        if (m & ~w->reach[q])
            continue;
        for (uint32_t j = sstart[q]; j < sstart[q + 1]; j++)
            if (!(m & ~smask[j]))
                push(w->lock_flag, w->lock, &w->nlock, side_of[j] * w->n + d);
    }
    return ok;
}

/* lose_one for each digit of `gone`. */
static int lose(struct cover_ws *w, unsigned c, uint32_t gone)
{
    int ok = 1;

    for (; gone; gone &= gone - 1)
        ok &= lose_one(w, c, ctz32(gone));
    return ok;
}

/* The reverse of lose, for undo. */
static void regain(struct cover_ws *w, unsigned c, uint32_t back)
{
    uint32_t *restrict place = w->place;
    const uint32_t *restrict bits = w->uo_bit;
    const uint16_t *restrict bases = w->uo_base;
    uint32_t end = w->uo_start[c + 1];

    for (uint32_t i = w->uo_start[c]; i < end; i++)
        for (uint32_t g = back; g; g &= g - 1)
            place[bases[i] + ctz32(g)] |= bits[i];
}

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
        unsigned c = t->cell;
        regain(w, c, t->mask & ~w->cand[c]);
        if (w->val[c] && !t->val)
            w->nfilled--;
        w->cand[c] = t->mask;
        w->val[c] = t->val;
    }
}

static void clear_queues(struct cover_ws *w)
{
    w->nqueue = w->ntwos = 0;
    while (w->nhidden)
        w->hidden_flag[w->hidden[--w->nhidden]] = 0;
    while (w->nlock)
        w->lock_flag[w->lock[--w->nlock]] = 0;
}

/* ---- placements and eliminations ------------------------------------ */

/* Removes the digit of `bit` (one bit) from cell c; 0 on a contradiction.
 * Queues the cell when that leaves it one digit (a naked single) or two
 * (a naked pair to look for). */
static int eliminate(struct cover_ws *w, unsigned c, uint32_t bit)
{
    uint32_t m = w->cand[c];

    if (!(m & bit))
        return 1;
    if (w->val[c] || m == bit)
        return 0;
    save(w, c);
    m &= ~bit;
    w->cand[c] = m;
    if (!(m & (m - 1)))
        w->queue[w->nqueue++] = (uint16_t)c;
    else if (two_bits(m))
        w->twos[w->ntwos++] = (uint16_t)c;
    return lose_one(w, c, ctz32(bit));
}

/* Places digit d (1..n) in cell c and removes it from the peers: the other
 * cells of c's units still open to it (their places say which), then the
 * other peers. 0 on a contradiction. */
static int assign(struct cover_ws *w, unsigned c, unsigned d)
{
    uint32_t bit = 1u << (d - 1), m = w->cand[c];

    if (w->val[c])
        return w->val[c] == d;
    if (!(m & bit))
        return 0;
    save(w, c);
    w->cand[c] = bit;
    w->val[c] = (uint8_t)d;
    w->nfilled++;
    if (!lose(w, c, m & ~bit))
        return 0;
    for (uint32_t i = w->uo_start[c]; i < w->uo_start[c + 1]; i++) {
        const uint16_t *cell = w->unit + w->uo_base[i];
        uint32_t p = w->place[w->uo_base[i] + d - 1] & ~w->uo_bit[i];
        for (; p; p &= p - 1)
            if (!eliminate(w, cell[ctz32(p)], bit))
                return 0;
    }
    for (uint32_t i = w->other_start[c]; i < w->other_start[c + 1]; i++)
        if ((w->cand[w->other[i]] & bit) && !eliminate(w, w->other[i], bit))
            return 0;
    return 1;
}

/* Unit-digit entry e has one place left (or none): fill it. */
static int hidden_single(struct cover_ws *w, uint32_t e)
{
    unsigned n = w->n;
    uint32_t m = w->place[e];

    if (!m || (m & (m - 1)))
        return m != 0;
    return assign(w, w->unit[e - e % n + ctz32(m)], e % n + 1);
}

/* Lock entry e (side s, digit d): if s's unit still has d only in the
 * shared cells, the other unit's own cells lose it. */
static int apply_lock(struct cover_ws *w, uint32_t e)
{
    unsigned n = w->n, s = e / n, d = e % n;
    unsigned u = w->pair_unit[s], v = w->pair_unit[s ^ 1];
    uint32_t mu = w->place[u * n + d];
    uint32_t mv = w->place[v * n + d] & ~w->pair_shared[s ^ 1];

    if (!mu || (mu & ~w->pair_shared[s]) || !mv)
        return 1;
    for (; mv; mv &= mv - 1)
        if (!eliminate(w, w->unit[v * n + ctz32(mv)], 1u << d))
            return 0;
    return 1;
}

/* Cell c is down to two digits: if another cell of one of its units has
 * the same two, the unit's other cells lose both (a naked pair). The
 * places of the two digits name the candidates for the partner and the
 * cells to clear. */
static int naked_pair(struct cover_ws *w, unsigned c)
{
    uint32_t m = w->cand[c], hi = m & (m - 1), lo = m & ~hi;
    unsigned d1, d2;

    if (w->val[c] || !two_bits(m))
        return 1;
    d1 = ctz32(lo);
    d2 = ctz32(hi);
    for (uint32_t i = w->uo_start[c]; i < w->uo_start[c + 1]; i++) {
        const uint32_t *place = w->place + w->uo_base[i];
        const uint16_t *cell = w->unit + w->uo_base[i];
        uint32_t both = place[d1] & place[d2] & ~w->uo_bit[i], rest;
        while (both && w->cand[cell[ctz32(both)]] != m)
            both &= both - 1;
        if (!both)
            continue;
        rest = (place[d1] | place[d2]) & ~(w->uo_bit[i] | (both & -both));
        for (; rest; rest &= rest - 1) {
            unsigned x = cell[ctz32(rest)];
            if (!eliminate(w, x, lo) || !eliminate(w, x, hi))
                return 0;
        }
    }
    return 1;
}

/* Empties the queues, most forcing first; 0 on a contradiction. */
static int propagate(struct cover_ws *w)
{
    for (;;) {
        int ok = 1;
        if (w->nqueue) {
            unsigned c = w->queue[--w->nqueue];
            if (!w->val[c])
                ok = assign(w, c, ctz32(w->cand[c]) + 1);
        } else if (w->nhidden) {
            uint32_t e = w->hidden[--w->nhidden];
            w->hidden_flag[e] = 0;
            ok = hidden_single(w, e);
        } else if (w->nlock) {
            uint32_t e = w->lock[--w->nlock];
            w->lock_flag[e] = 0;
            ok = apply_lock(w, e);
        } else if (w->ntwos) {
            ok = naked_pair(w, w->twos[--w->ntwos]);
        } else {
            return 1;
        }
        if (!ok) {
            clear_queues(w);
            return 0;
        }
    }
}

/* ---- the search ------------------------------------------------------ */

/* The column with the fewest options: fills cell[]/digit[] with them and
 * returns how many (at least 2 after propagation). */
static unsigned choose(const struct cover_ws *w, uint16_t *cell, uint8_t *digit)
{
    unsigned n = w->n, best = n + 1, bc = 0, be = 0, k = 0;
    int by_unit = 0;

    /* Open cells have two candidates or more: the first with two, if any,
     * is the answer; a bit test finds it. */
    for (unsigned c = 0; c < w->ncells && best > 2; c++) {
        uint32_t m = w->cand[c] & (w->cand[c] - 1);
        if (!w->val[c] && !(m & (m - 1))) {
            best = 2;
            bc = c;
        }
    }
    for (unsigned c = 0; c < w->ncells && best > 2; c++)
        if (!w->val[c] && (unsigned)grid_popcount(w->cand[c]) < best) {
            best = (unsigned)grid_popcount(w->cand[c]);
            bc = c;
        }
    for (unsigned e = 0; e < w->nunits * n && best > 2; e++) {
        unsigned pc = (unsigned)grid_popcount(w->place[e]);
        if (pc >= 2 && pc < best) {
            best = pc;
            be = e;
            by_unit = 1;
        }
    }
    if (by_unit) {
        const uint16_t *u = w->unit + (be / n) * n;
        for (uint32_t m = w->place[be]; m; m &= m - 1) {
            cell[k] = u[ctz32(m)];
            digit[k++] = (uint8_t)(be % n + 1);
        }
        return k;
    }
    for (uint32_t m = w->cand[bc]; m; m &= m - 1) {
        cell[k] = (uint16_t)bc;
        digit[k++] = (uint8_t)(ctz32(m) + 1);
    }
    return k;
}

static void shuffle(struct rng *rng, uint16_t *cell, uint8_t *digit, unsigned k)
{
    for (unsigned i = k; i > 1; i--) {
        unsigned j = rng_below(rng, i);
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
        if (search_budget_out(&w->budget, w->nodes)) {
            w->out_of_budget = 1;
            return;
        }
        w->nodes++;
        if (assign(w, cell[i], digit[i]) && propagate(w))
            search(w);
        else
            clear_queues(w);
        undo(w, mark);
        if (done(w))
            return;
    }
}

static void reset(struct cover_ws *w)
{
    unsigned n = w->n;

    for (unsigned c = 0; c < w->ncells; c++)
        w->cand[c] = w->all;
    memset(w->val, 0, w->ncells);
    for (unsigned e = 0; e < w->nunits * n; e++)
        w->place[e] = w->all;
    memset(w->hidden_flag, 0, (size_t)w->nunits * n);
    memset(w->lock_flag, 0, (size_t)w->npairs * 2 * n);
    w->nfilled = 0;
    w->ntrail = 0;
    w->nqueue = w->nhidden = w->nlock = w->ntwos = 0;
    w->count = 0;
    w->nodes = w->guesses = 0;
    w->out_of_budget = 0;
}

enum cover_status cover_ws_count(struct cover_ws *w,
                                 const struct cover_grid *puzzle,
                                 unsigned limit,
                                 const struct search_budget *budget,
                                 struct rng *rng, struct cover_grid *solution,
                                 unsigned *count, struct sudoku_stats *stats)
{
    int alive = 1;

    *count = 0;
    if (stats)
        stats->nodes = stats->guesses = 0;
    if (puzzle->n != w->n)
        return COVER_BAD_SIZE;
    reset(w);
    w->limit = limit ? limit : 1;
    w->budget = *budget;
    w->rng = rng;
    w->solution = solution;
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

enum cover_status
cover_count_budget(const struct cover_rules *r, const struct cover_grid *puzzle,
                   unsigned limit, const struct search_budget *budget,
                   struct cover_grid *solution, unsigned *count,
                   struct sudoku_stats *stats)
{
    struct cover_ws *w;
    enum cover_status st;

    *count = 0;
    if (stats)
        stats->nodes = stats->guesses = 0;
    if ((w = cover_ws_new(r)) == NULL)
        return COVER_NO_MEMORY;
    st = cover_ws_count(w, puzzle, limit, budget, NULL, solution, count, stats);
    cover_ws_free(w);
    return st;
}

enum cover_status cover_count(const struct cover_rules *r,
                              const struct cover_grid *puzzle, unsigned limit,
                              uint64_t max_nodes, struct cover_grid *solution,
                              unsigned *count, struct sudoku_stats *stats)
{
    struct search_budget b = {max_nodes, 0};

    return cover_count_budget(r, puzzle, limit, &b, solution, count, stats);
}
