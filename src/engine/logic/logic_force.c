/* logic_force.c - the last resort: forcing chains and nets.
 * Method: an assumption (a digit placed in a cell) is followed with naked
 * and hidden singles until nothing more follows or a cell or a unit is left
 * without a place for some digit (a contradiction), which proves the
 * assumption false (forcing chain). Cell and unit forcing follow every
 * candidate of a cell, or every place of a digit in a unit: what all of
 * them lead to is true. When none of that finds a step, nets nest the
 * method: while following an assumption, each remaining candidate is itself
 * tried with the level below, and the ones that fail are removed (depth 1,
 * 2, 3). A board with one solution has a false candidate whose assumption
 * fails at some depth, so the depth bound and the budget are the only ways
 * this gives up. Each level is rated higher (see logic.c). */
#include <string.h>

#include "logic_internal.h"

#define MAX_DEPTH 3
#define MAX_TRAIL (LOGIC_MAX_LINKS - 2)

struct ctx {
    const struct logic_budget *b;
    unsigned calls;
    int expired;
};

/* What one followed assumption did: its placements in order and where it
 * broke. */
struct trail {
    uint8_t cell[MAX_TRAIL], digit[MAX_TRAIL];
    int n;                   /* placements recorded (at most MAX_TRAIL) */
    int total;               /* placements made */
    int bad_cell;            /* a cell left without candidates, or -1 */
    int bad_unit, bad_digit; /* a unit without a place for bad_digit */
};

static void assign(struct logic_grid *g, int c, int d)
{
    uint16_t keep = (uint16_t) ~(1u << (d - 1));
    int r = grid_row(c), col = grid_col(c), br = r / 3 * 3, bc = col / 3 * 3;

    g->value[c] = (uint8_t)d;
    g->cand[c] = 0;
    for (int k = 0; k < 9; k++) {
        g->cand[r * 9 + k] &= keep;
        g->cand[k * 9 + col] &= keep;
        g->cand[(br + k / 3) * 9 + bc + k % 3] &= keep;
    }
}

static void record(struct trail *t, int c, int d)
{
    if (t == NULL)
        return;
    if (t->n < MAX_TRAIL) {
        t->cell[t->n] = (uint8_t)c;
        t->digit[t->n++] = (uint8_t)d;
    }
    t->total++;
}

/* Naked and hidden singles until none is left. 0, or -1 on a
 * contradiction (t, when not NULL, says where). */
static int singles(struct logic_grid *g, struct trail *t)
{
    for (;;) {
        int progress = 0;
        for (int c = 0; c < SUDOKU_CELLS; c++) {
            unsigned m = g->cand[c];
            if (g->value[c])
                continue;
            if (m == 0) {
                if (t != NULL)
                    t->bad_cell = c;
                return -1;
            }
            if ((m & (m - 1)) == 0) {
                assign(g, c, __builtin_ctz(m) + 1);
                record(t, c, __builtin_ctz(m) + 1);
                progress = 1;
            }
        }
        for (int u = 0; u < GRID_UNITS; u++) {
            unsigned once = 0, twice = 0, placed = 0, hid;
            for (int k = 0; k < 9; k++) {
                int c = grid_unit_cell(u, k);
                if (g->value[c]) {
                    placed |= 1u << (g->value[c] - 1);
                } else {
                    twice |= once & g->cand[c];
                    once |= g->cand[c];
                }
            }
            if ((once | placed) != 0x1FF) {
                if (t != NULL) {
                    t->bad_unit = u;
                    t->bad_digit = __builtin_ctz(~(once | placed) & 0x1FF) + 1;
                }
                return -1;
            }
            hid = once & ~twice & ~placed;
            for (; hid; hid &= hid - 1) {
                int d = __builtin_ctz(hid) + 1, done = 0;
                for (int k = 0; k < 9 && !done; k++) {
                    int c = grid_unit_cell(u, k);
                    if (g->cand[c] & (1u << (d - 1))) {
                        assign(g, c, d);
                        record(t, c, d);
                        done = progress = 1;
                    }
                }
                if (!done) { /* taken by an earlier hidden single here */
                    if (t != NULL) {
                        t->bad_unit = u;
                        t->bad_digit = d;
                    }
                    return -1;
                }
            }
        }
        if (!progress)
            return 0;
    }
}

static int expired(struct ctx *x)
{
    if (!x->expired && (++x->calls & 63) == 0 && logic_expired(x->b))
        x->expired = 1;
    return x->expired;
}

/* Singles, and at depth > 0 every candidate tried at depth - 1 and
 * removed when it fails, until nothing changes. 0 or -1 (contradiction);
 * on budget expiry returns 0 with x->expired set. */
static int propagate(struct logic_grid *g, int depth, struct ctx *x,
                     struct trail *t)
{
    int changed = 1;

    if (singles(g, t) < 0)
        return -1;
    while (depth > 0 && changed) {
        changed = 0;
        for (int c = 0; c < SUDOKU_CELLS; c++) {
            if (g->value[c])
                continue;
            for (unsigned m = g->cand[c]; m; m &= m - 1) {
                struct logic_grid h = *g;
                int d = __builtin_ctz(m) + 1;
                if (!(g->cand[c] & (1u << (d - 1))))
                    continue;
                if (expired(x))
                    return 0;
                assign(&h, c, d);
                if (propagate(&h, depth - 1, x, NULL) < 0 && !x->expired) {
                    g->cand[c] &= (uint16_t) ~(1u << (d - 1));
                    changed = 1;
                    if (singles(g, t) < 0)
                        return -1;
                    if (g->value[c])
                        break;
                }
            }
        }
    }
    return 0;
}

/* Candidates in a good order to try: cells with fewer candidates first. */
static int order(const struct logic_grid *g, uint8_t *cells, uint8_t *digits)
{
    int n = 0;

    for (int k = 2; k <= 9; k++)
        for (int c = 0; c < SUDOKU_CELLS; c++)
            if (!g->value[c] && grid_popcount(g->cand[c]) == k)
                for (int d = 1; d <= 9; d++)
                    if (g->cand[c] & (1u << (d - 1))) {
                        cells[n] = (uint8_t)c;
                        digits[n++] = (uint8_t)d;
                    }
    return n;
}

static void trail_links(struct logic_step *s, int c, int d,
                        const struct trail *t)
{
    logic_step_link(s, c, d, t->n > 0 ? LOGIC_LINK_THEN : LOGIC_LINK_END);
    for (int i = 0; i < t->n; i++)
        logic_step_link(s, t->cell[i], t->digit[i],
                        i + 1 < t->n ? LOGIC_LINK_THEN : LOGIC_LINK_END);
}

/* Where the contradiction is: the cell (cells[1]) or the unit (units). */
static void contradiction_site(struct logic_step *s, const struct trail *t)
{
    if (t->bad_cell >= 0) {
        logic_step_cell(s, t->bad_cell);
    } else if (t->bad_unit >= 0) {
        logic_step_unit(s, t->bad_unit);
        s->digits |= (uint16_t)(1u << (t->bad_digit - 1));
    }
}

static unsigned cap(unsigned r)
{
    return r > 120 ? 120 : r;
}

/* Depth 0: the shortest assumption that fails. */
static int contradiction(const struct logic_grid *g, struct ctx *x,
                         const uint8_t *cells, const uint8_t *digits, int n,
                         struct logic_step *out)
{
    struct trail best, t;
    int bi = -1;

    for (int i = 0; i < n; i++) {
        struct logic_grid h = *g;
        memset(&t, 0, sizeof(t));
        t.bad_cell = t.bad_unit = -1;
        assign(&h, cells[i], digits[i]);
        if (singles(&h, &t) < 0 && (bi < 0 || t.total < best.total)) {
            best = t;
            bi = i;
        }
    }
    (void)x;
    if (bi < 0)
        return 0;
    logic_step_start(out, LOGIC_FORCING_CHAIN,
                     (uint16_t)(1u << (digits[bi] - 1)));
    logic_step_elim(out, cells[bi], digits[bi]);
    logic_step_cell(out, cells[bi]);
    contradiction_site(out, &best);
    trail_links(out, cells[bi], digits[bi], &best);
    out->chain_length = (uint8_t)(best.total + 1 > 255 ? 255 : best.total + 1);
    out->rating = (uint8_t)cap(logic_technique_rating(LOGIC_FORCING_CHAIN) +
                               logic_chain_bonus((unsigned)best.total + 1));
    return 1;
}

/* Cell forcing (unit < 0: the candidates of `cell`) or unit forcing (the
 * places of `digit` in `unit`): what every branch agrees on. */
static int forcing_set(const struct logic_grid *g, int cell, int unit,
                       int digit, struct logic_step *out)
{
    struct logic_grid h[9];
    int bc[9], bd[9], n = 0, longest = 0;

    if (unit < 0) {
        for (unsigned m = g->cand[cell]; m; m &= m - 1) {
            bc[n] = cell;
            bd[n++] = __builtin_ctz(m) + 1;
        }
    } else {
        for (int k = 0; k < 9; k++) {
            int c = grid_unit_cell(unit, k);
            if (g->cand[c] & (1u << (digit - 1))) {
                bc[n] = c;
                bd[n++] = digit;
            }
        }
    }
    if (n < 2 || n > 4)
        return 0;
    for (int i = 0; i < n; i++) {
        struct trail t;
        memset(&t, 0, sizeof(t));
        t.bad_cell = t.bad_unit = -1;
        h[i] = *g;
        assign(&h[i], bc[i], bd[i]);
        if (singles(&h[i], &t) < 0)
            return 0; /* a contradiction: the forcing chain's job */
        if (t.total > longest)
            longest = t.total;
    }
    logic_step_start(out, unit < 0 ? LOGIC_CELL_FORCING : LOGIC_UNIT_FORCING,
                     0);
    for (int c = 0; c < SUDOKU_CELLS && !out->nplacements; c++) {
        int v = h[0].value[c], all = !g->value[c] && v;
        for (int i = 1; i < n && all; i++)
            all = h[i].value[c] == v;
        if (all) {
            out->placements[0] = (struct logic_move){(uint8_t)c, (uint8_t)v};
            out->nplacements = 1;
            out->digits |= (uint16_t)(1u << (v - 1));
        }
    }
    if (!out->nplacements)
        for (int c = 0; c < SUDOKU_CELLS; c++)
            for (unsigned m = g->cand[c]; m; m &= m - 1) {
                unsigned bit = m & -m;
                int gone = 1;
                for (int i = 0; i < n && gone; i++)
                    gone = !(h[i].cand[c] & bit) &&
                           h[i].value[c] != __builtin_ctz(bit) + 1;
                if (gone) {
                    logic_step_elim(out, c, __builtin_ctz(bit) + 1);
                    out->digits |= (uint16_t)bit;
                }
            }
    if (!out->nplacements && !out->neliminations)
        return 0;
    for (int i = 0; i < n; i++) {
        logic_step_cell(out, bc[i]);
        logic_step_link(out, bc[i], bd[i],
                        i + 1 < n ? LOGIC_LINK_STRONG : LOGIC_LINK_END);
    }
    if (unit >= 0) {
        logic_step_unit(out, unit);
        out->digits |= (uint16_t)(1u << (digit - 1));
    } else {
        out->digits |= g->cand[cell];
    }
    out->chain_length = (uint8_t)(longest + 1 > 255 ? 255 : longest + 1);
    out->rating =
        (uint8_t)cap(out->rating + logic_chain_bonus((unsigned)longest + 1));
    return 1;
}

static int net(const struct logic_grid *g, int depth, struct ctx *x,
               const uint8_t *cells, const uint8_t *digits, int n,
               struct logic_step *out)
{
    for (int i = 0; i < n; i++) {
        struct logic_grid h = *g;
        struct trail t;
        memset(&t, 0, sizeof(t));
        t.bad_cell = t.bad_unit = -1;
        if (expired(x))
            return -1;
        assign(&h, cells[i], digits[i]);
        if (propagate(&h, depth, x, &t) < 0 && !x->expired) {
            logic_step_start(out, LOGIC_FORCING_NET,
                             (uint16_t)(1u << (digits[i] - 1)));
            logic_step_elim(out, cells[i], digits[i]);
            logic_step_cell(out, cells[i]);
            contradiction_site(out, &t);
            trail_links(out, cells[i], digits[i], &t);
            out->depth = (uint8_t)depth;
            out->chain_length =
                (uint8_t)(t.total + 1 > 255 ? 255 : t.total + 1);
            out->rating =
                (uint8_t)cap(logic_technique_rating(LOGIC_FORCING_NET) +
                             10u * (unsigned)(depth - 1) +
                             logic_chain_bonus((unsigned)t.total + 1));
            return 1;
        }
        if (x->expired)
            return -1;
    }
    return 0;
}

int logic_find_forcing(const struct logic_grid *g, const struct logic_budget *b,
                       struct logic_step *out)
{
    uint8_t cells[SUDOKU_CELLS * 9], digits[SUDOKU_CELLS * 9];
    struct ctx x = {b, 0, 0};
    int n = order(g, cells, digits);

    if (contradiction(g, &x, cells, digits, n, out))
        return 1;
    for (int c = 0; c < SUDOKU_CELLS; c++)
        if (!g->value[c] && forcing_set(g, c, -1, 0, out))
            return 1;
    for (int u = 0; u < GRID_UNITS; u++)
        for (int d = 1; d <= 9; d++)
            if (forcing_set(g, -1, u, d, out))
                return 1;
    return logic_expired(b) ? -1 : 0;
}

int logic_find_forcing_net(const struct logic_grid *g,
                           const struct logic_budget *b, struct logic_step *out)
{
    uint8_t cells[SUDOKU_CELLS * 9], digits[SUDOKU_CELLS * 9];
    struct ctx x = {b, 0, 0};
    int n = order(g, cells, digits), r;

    for (int depth = 1; depth <= MAX_DEPTH; depth++)
        if ((r = net(g, depth, &x, cells, digits, n, out)) != 0)
            return r;
    return 0;
}
