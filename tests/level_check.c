/* level_check.c - the tests' own logic solver (level_check.h). Plain
 * loops over a candidate grid: every technique scans everything and
 * applies what it finds, and the passes repeat until none changes a
 * candidate. The techniques only ever remove candidates that no solution
 * has, so the fixpoint does not depend on the order they run in, and a
 * puzzle the set solves here is solved by any engine that has the same
 * techniques. */
#include <stdlib.h>
#include <string.h>

#include "cover_support.h"
#include "level_check.h"

#define LC_MAX_UNITS (3 * COVER_MAX_N + 2 + COVER_MAX_EXTRA + 81)

struct lc_unit {
    unsigned ncells, full, sum; /* sum: a killer cage's, else 0 */
    unsigned cell[COVER_MAX_N];
};

struct lc_puzzle {
    unsigned n, ncells, nunits, killer; /* killer: 9x9 with cages */
    struct lc_unit unit[LC_MAX_UNITS];
    uint8_t see[COVER_MAX_CELLS][COVER_MAX_CELLS];
};

/* A candidate grid: value 0 or a digit, cand bit d-1 while d may go. */
struct lc_grid {
    uint8_t value[COVER_MAX_CELLS];
    uint32_t cand[COVER_MAX_CELLS];
};

static struct lc_puzzle *lc_new(unsigned n)
{
    struct lc_puzzle *p = calloc(1, sizeof(*p));

    if (p == NULL)
        abort();
    p->n = n;
    p->ncells = n * n;
    return p;
}

static struct lc_unit *add_unit(struct lc_puzzle *p, unsigned full)
{
    struct lc_unit *u = &p->unit[p->nunits++];

    if (p->nunits > LC_MAX_UNITS)
        abort();
    u->ncells = 0;
    u->full = full;
    u->sum = 0;
    return u;
}

/* Cells sharing a unit see each other. */
static void see_units(struct lc_puzzle *p)
{
    for (unsigned k = 0; k < p->nunits; k++) {
        const struct lc_unit *u = &p->unit[k];
        for (unsigned i = 0; i < u->ncells; i++)
            for (unsigned j = 0; j < u->ncells; j++)
                if (i != j)
                    p->see[u->cell[i]][u->cell[j]] = 1;
    }
}

static void rows_and_columns(struct lc_puzzle *p)
{
    unsigned n = p->n;

    for (unsigned i = 0; i < n; i++) {
        struct lc_unit *row = add_unit(p, 1), *col;
        for (unsigned j = 0; j < n; j++)
            row->cell[row->ncells++] = i * n + j;
        col = add_unit(p, 1);
        for (unsigned j = 0; j < n; j++)
            col->cell[col->ncells++] = j * n + i;
    }
}

struct lc_puzzle *lc_from_rules(const struct cover_rules *r)
{
    struct lc_puzzle *p = lc_new(r->n);
    unsigned n = r->n;
    int n_ = (int)n;

    rows_and_columns(p);
    for (unsigned g = 0; g < n; g++) {
        struct lc_unit *u = add_unit(p, 1);
        for (unsigned c = 0; c < n * n; c++)
            if (tc_region_of(r, c) == g)
                u->cell[u->ncells++] = c;
        if (u->ncells != n)
            abort(); /* not checked rules */
    }
    if (r->diagonals) {
        struct lc_unit *a = add_unit(p, 1), *b;
        for (unsigned i = 0; i < n; i++)
            a->cell[a->ncells++] = i * n + i;
        b = add_unit(p, 1);
        for (unsigned i = 0; i < n; i++)
            b->cell[b->ncells++] = i * n + (n - 1 - i);
    }
    for (unsigned e = 0; e < r->nextra; e++) {
        struct lc_unit *u = add_unit(p, r->extra[e].ncells == n);
        for (unsigned i = 0; i < r->extra[e].ncells; i++)
            u->cell[u->ncells++] = r->extra[e].cell[i];
    }
    see_units(p);
    for (int a = 0; a < n_ * n_; a++)
        for (int b = 0; b < n_ * n_; b++) {
            int dr = abs(a / n_ - b / n_), dc = abs(a % n_ - b % n_);
            if ((r->anti_knight && dr * dc == 2) ||
                (r->anti_king && dr == 1 && dc == 1))
                p->see[a][b] = 1;
        }
    return p;
}

struct lc_puzzle *lc_from_killer(const struct killer_cages *k)
{
    struct lc_puzzle *p = lc_new(9);

    p->killer = 1;
    rows_and_columns(p);
    for (unsigned b = 0; b < 9; b++) {
        struct lc_unit *u = add_unit(p, 1);
        for (unsigned c = 0; c < 81; c++)
            if ((c / 9) / 3 * 3 + (c % 9) / 3 == b)
                u->cell[u->ncells++] = c;
    }
    for (unsigned i = 0; i < k->ncages; i++) {
        struct lc_unit *u = add_unit(p, k->cage[i].ncells == 9);
        u->sum = (unsigned)k->cage[i].sum;
        for (unsigned j = 0; j < k->cage[i].ncells; j++) {
            unsigned at = k->cage[i].first + j;
            u->cell[u->ncells++] = (unsigned)(k->row[at] * 9 + k->col[at]);
        }
    }
    see_units(p);
    return p;
}

void lc_free(struct lc_puzzle *p)
{
    free(p);
}

/* ------------------------------------------------------------------------
 * The techniques: each returns 1 when it changed the grid
 * ------------------------------------------------------------------------ */

static unsigned bits(uint32_t m)
{
    return (unsigned)__builtin_popcount(m);
}

static void place(const struct lc_puzzle *p, struct lc_grid *g, unsigned c,
                  unsigned d)
{
    g->value[c] = (uint8_t)d;
    g->cand[c] = 0;
    for (unsigned o = 0; o < p->ncells; o++)
        if (p->see[c][o])
            g->cand[o] &= ~(1u << (d - 1));
}

static int remove_cand(struct lc_grid *g, unsigned c, unsigned d)
{
    if (g->value[c] || !(g->cand[c] & (1u << (d - 1))))
        return 0;
    g->cand[c] &= ~(1u << (d - 1));
    return 1;
}

/* Removes d from every blank that sees all of cells[0..k-1] (one of them
 * holds d). */
static int remove_seen(const struct lc_puzzle *p, struct lc_grid *g,
                       const unsigned *cells, unsigned k, unsigned d)
{
    int changed = 0;

    for (unsigned o = 0; o < p->ncells; o++) {
        unsigned all = 1;
        for (unsigned i = 0; i < k && all; i++)
            all = o != cells[i] && p->see[o][cells[i]];
        if (all)
            changed |= remove_cand(g, o, d);
    }
    return changed;
}

static int singles(const struct lc_puzzle *p, struct lc_grid *g)
{
    int changed = 0;

    for (unsigned c = 0; c < p->ncells; c++)
        if (!g->value[c] && bits(g->cand[c]) == 1) {
            place(p, g, c, (unsigned)__builtin_ctz(g->cand[c]) + 1);
            changed = 1;
        }
    for (unsigned k = 0; k < p->nunits; k++) {
        const struct lc_unit *u = &p->unit[k];
        if (!u->full)
            continue;
        for (unsigned d = 1; d <= p->n; d++) {
            unsigned where = 0, count = 0, placed = 0;
            for (unsigned i = 0; i < u->ncells; i++) {
                placed |= g->value[u->cell[i]] == d;
                if (g->cand[u->cell[i]] & (1u << (d - 1))) {
                    where = u->cell[i];
                    count++;
                }
            }
            if (!placed && count == 1) {
                place(p, g, where, d);
                changed = 1;
            }
        }
    }
    return changed;
}

/* A cage's completions: which digits each cell takes in some assignment
 * of distinct digits from the candidates that makes the sum. */
static void cage_search(const struct lc_grid *g, const struct lc_unit *u,
                        unsigned i, unsigned sum, uint32_t used, unsigned *pick,
                        uint32_t *can)
{

    if (i == u->ncells) {
        if (sum == u->sum)
            for (unsigned j = 0; j < u->ncells; j++)
                can[j] |= 1u << (pick[j] - 1);
        return;
    }
    if (g->value[u->cell[i]]) {
        unsigned d = g->value[u->cell[i]];
        if (!(used & (1u << d))) {
            pick[i] = d;
            cage_search(g, u, i + 1, sum + d, used | 1u << d, pick, can);
        }
        return;
    }
    for (unsigned d = 1; d <= 9; d++)
        if ((g->cand[u->cell[i]] & (1u << (d - 1))) && !(used & (1u << d)) &&
            sum + d <= u->sum) {
            pick[i] = d;
            cage_search(g, u, i + 1, sum + d, used | 1u << d, pick, can);
        }
}

static int cage_sums(const struct lc_puzzle *p, struct lc_grid *g)
{
    int changed = 0;

    for (unsigned k = 0; k < p->nunits; k++) {
        const struct lc_unit *u = &p->unit[k];
        unsigned pick[COVER_MAX_N];
        uint32_t can[COVER_MAX_N] = {0};
        if (u->sum == 0)
            continue;
        cage_search(g, u, 0, 0, 0, pick, can);
        for (unsigned i = 0; i < u->ncells; i++)
            for (unsigned d = 1; d <= 9; d++)
                if (!(can[i] & (1u << (d - 1))))
                    changed |= remove_cand(g, u->cell[i], d);
    }
    return changed;
}

/* A full unit's places for d all see some cell: it loses d. */
static int locked(const struct lc_puzzle *p, struct lc_grid *g)
{
    int changed = 0;

    for (unsigned k = 0; k < p->nunits; k++) {
        const struct lc_unit *u = &p->unit[k];
        if (!u->full)
            continue;
        for (unsigned d = 1; d <= p->n; d++) {
            unsigned cells[COVER_MAX_N], m = 0;
            for (unsigned i = 0; i < u->ncells; i++)
                if (g->cand[u->cell[i]] & (1u << (d - 1)))
                    cells[m++] = u->cell[i];
            if (m >= 2)
                changed |= remove_seen(p, g, cells, m, d);
        }
    }
    return changed;
}

/* A digit that every completion of a cage holds (no completion is left
 * when it is taken from the cage's cells) goes in one of the cage's cells
 * that may hold it: the cells that see all of those lose it. */
static int cage_locked(const struct lc_puzzle *p, struct lc_grid *g)
{
    static __thread struct lc_grid without;
    int changed = 0;

    for (unsigned k = 0; k < p->nunits; k++) {
        const struct lc_unit *u = &p->unit[k];
        if (u->sum == 0)
            continue;
        for (unsigned d = 1; d <= 9; d++) {
            unsigned pick[COVER_MAX_N], cells[COVER_MAX_N], m = 0, placed = 0;
            uint32_t can[COVER_MAX_N] = {0}, any = 0;
            for (unsigned i = 0; i < u->ncells; i++) {
                placed |= g->value[u->cell[i]] == d;
                if (g->cand[u->cell[i]] & (1u << (d - 1)))
                    cells[m++] = u->cell[i];
            }
            if (placed || m < 2)
                continue;
            without = *g;
            for (unsigned i = 0; i < u->ncells; i++)
                without.cand[u->cell[i]] &= ~(1u << (d - 1));
            cage_search(&without, u, 0, 0, 0, pick, can);
            for (unsigned i = 0; i < u->ncells; i++)
                any |= can[i];
            if (any == 0)
                changed |= remove_seen(p, g, cells, m, d);
        }
    }
    return changed;
}

/* ------------------------------------------------------------------------
 * The 45 rule (killer): the regions of whole units looked at are 1-3
 * adjacent rows, 1-3 adjacent columns, a box, two boxes side by side or
 * one above the other; at most 4 blank cells are summed
 * ------------------------------------------------------------------------ */

#define LC_SUM_CELLS 4

/* Region r (0..) as a cell mask in in[]; 0 past the last, else its units. */
static unsigned lc_region(unsigned r, uint8_t *in)
{
    unsigned k, units;

    memset(in, 0, 81);
    for (unsigned cols = 0; cols < 2; cols++)
        for (k = 1; k <= 3; k++) {
            if (r < 10 - k) {
                for (unsigned i = 0; i < k; i++)
                    for (unsigned j = 0; j < 9; j++)
                        in[cols ? j * 9 + r + i : (r + i) * 9 + j] = 1;
                return k;
            }
            r -= 10 - k;
        }
    /* boxes: 9 alone, 6 pairs across (b, b+1), 6 pairs down (b, b+3) */
    if (r < 9)
        units = 1;
    else if (r < 15)
        units = 2;
    else if (r < 21)
        units = 2;
    else
        return 0;
    for (unsigned c = 0; c < 81; c++) {
        unsigned b = (c / 9) / 3 * 3 + (c % 9) / 3;
        if (r < 9)
            in[c] = b == r;
        else if (r < 15)
            in[c] = b == (r - 9) / 2 * 3 + (r - 9) % 2 ||
                    b == (r - 9) / 2 * 3 + (r - 9) % 2 + 1;
        else
            in[c] = b == r - 15 || b == r - 15 + 3;
    }
    return units;
}

/* Assignments of cells[0..n-1]'s candidates, seeing cells distinct, that
 * add up to target: can[i] gets each digit one of them gives cell i. */
static void sum_assign(const struct lc_puzzle *p, const struct lc_grid *g,
                       const unsigned *cells, unsigned n, unsigned i, int left,
                       unsigned *pick, uint32_t *can)
{
    if (i == n) {
        if (left == 0)
            for (unsigned j = 0; j < n; j++)
                can[j] |= 1u << (pick[j] - 1);
        return;
    }
    for (unsigned d = 1; d <= 9 && (int)d <= left; d++) {
        unsigned clash = 0;
        if (!(g->cand[cells[i]] & (1u << (d - 1))))
            continue;
        for (unsigned j = 0; j < i && !clash; j++)
            clash = pick[j] == d && p->see[cells[i]][cells[j]];
        if (clash)
            continue;
        pick[i] = d;
        sum_assign(p, g, cells, n, i + 1, left - (int)d, pick, can);
    }
}

/* Innies (outies 0): the region's cells outside the cages wholly inside
 * it add up to 45 per unit less those cages. Outies: the cells outside
 * the region of the cages that reach into it add up to those cages' sums
 * less 45 per unit (a cell of the region in no cage must be placed). */
static int sum_rule(const struct lc_puzzle *p, struct lc_grid *g, int outies)
{
    uint8_t in[81];
    int changed = 0;

    for (unsigned r = 0, nu; (nu = lc_region(r, in)) > 0; r++) {
        uint8_t inside[81] = {0}, caged[81] = {0}, mark[81] = {0};
        unsigned cells[LC_SUM_CELLS], pick[LC_SUM_CELLS], n = 0, over = 0;
        uint32_t can[LC_SUM_CELLS] = {0};
        int target = 45 * (int)nu, bad = 0;
        for (unsigned k = 0; k < p->nunits; k++) {
            const struct lc_unit *u = &p->unit[k];
            unsigned hit = 0;
            if (u->sum == 0)
                continue;
            for (unsigned i = 0; i < u->ncells; i++) {
                hit += in[u->cell[i]];
                caged[u->cell[i]] = 1;
            }
            if (hit == u->ncells)
                for (unsigned i = 0; i < u->ncells; i++)
                    inside[u->cell[i]] = 1;
            if (hit == u->ncells || (outies && hit > 0)) {
                target += outies ? (int)u->sum : -(int)u->sum;
                if (outies && hit < u->ncells)
                    for (unsigned i = 0; i < u->ncells; i++)
                        if (!in[u->cell[i]])
                            mark[u->cell[i]] = 1;
            }
        }
        if (outies) {
            /* target so far: 45 per unit and the cages' sums; the cells
             * of those cages inside the region make 45 per unit less the
             * cells in no cage */
            target -= 2 * 45 * (int)nu;
            for (unsigned c = 0; c < 81; c++)
                if (in[c] && !caged[c]) {
                    if (g->value[c])
                        target += g->value[c];
                    else
                        bad = 1;
                }
        } else
            for (unsigned c = 0; c < 81; c++)
                mark[c] = in[c] && !inside[c];
        for (unsigned c = 0; c < 81 && !bad; c++) {
            if (!mark[c])
                continue;
            if (g->value[c])
                target -= g->value[c];
            else if (n < LC_SUM_CELLS)
                cells[n++] = c;
            else
                over = 1;
        }
        if (bad || over || n == 0 || target <= 0)
            continue;
        sum_assign(p, g, cells, n, 0, target, pick, can);
        for (unsigned i = 0; i < n; i++)
            for (unsigned d = 1; d <= 9; d++)
                if (!(can[i] & (1u << (d - 1))))
                    changed |= remove_cand(g, cells[i], d);
    }
    return changed;
}

/* Visits every k-subset of 0..m-1 (k <= 3) through fn. */
typedef int (*lc_subset_fn)(const struct lc_puzzle *p, struct lc_grid *g,
                            const unsigned *pick, unsigned k, const void *arg);

static int subsets(const struct lc_puzzle *p, struct lc_grid *g, unsigned m,
                   unsigned k, lc_subset_fn fn, const void *arg)
{
    unsigned pick[3];
    int changed = 0;

    for (pick[0] = 0; pick[0] < m; pick[0]++) {
        if (k == 1) {
            changed |= fn(p, g, pick, k, arg);
            continue;
        }
        for (pick[1] = pick[0] + 1; pick[1] < m; pick[1]++) {
            if (k == 2) {
                changed |= fn(p, g, pick, k, arg);
                continue;
            }
            for (pick[2] = pick[1] + 1; pick[2] < m; pick[2]++)
                changed |= fn(p, g, pick, k, arg);
        }
    }
    return changed;
}

/* Naked: k blank cells of a unit whose candidates make k digits. */
static int naked_one(const struct lc_puzzle *p, struct lc_grid *g,
                     const unsigned *pick, unsigned k, const void *arg)
{
    const unsigned *cells = arg;
    uint32_t uni = 0;
    int changed = 0;

    for (unsigned i = 0; i < k; i++) {
        uint32_t c = g->cand[cells[pick[i]]];
        if (g->value[cells[pick[i]]] || bits(c) < 2)
            return 0;
        uni |= c;
    }
    if (bits(uni) != k)
        return 0;
    for (unsigned d = 1; d <= p->n; d++) {
        unsigned holders[3], h = 0;
        if (!(uni & (1u << (d - 1))))
            continue;
        for (unsigned i = 0; i < k; i++)
            if (g->cand[cells[pick[i]]] & (1u << (d - 1)))
                holders[h++] = cells[pick[i]];
        changed |= remove_seen(p, g, holders, h, d);
    }
    return changed;
}

/* Hidden: k digits of a full unit whose places make k cells. */
struct lc_hidden {
    const struct lc_unit *u;
    const unsigned *digit;
};

static int hidden_one(const struct lc_puzzle *p, struct lc_grid *g,
                      const unsigned *pick, unsigned k, const void *arg)
{
    const struct lc_hidden *h = arg;
    uint32_t keep = 0, where = 0;
    int changed = 0;

    (void)p;
    for (unsigned i = 0; i < k; i++)
        keep |= 1u << (h->digit[pick[i]] - 1);
    for (unsigned j = 0; j < h->u->ncells; j++)
        if (g->cand[h->u->cell[j]] & keep)
            where |= 1u << j;
    for (unsigned i = 0; i < k; i++) {
        unsigned places = 0;
        for (unsigned j = 0; j < h->u->ncells; j++)
            places += (g->cand[h->u->cell[j]] >> (h->digit[pick[i]] - 1)) & 1u;
        if (places < 2)
            return 0;
    }
    if (bits(where) != k)
        return 0;
    for (unsigned j = 0; j < h->u->ncells; j++)
        if (where & (1u << j))
            for (unsigned d = 1; d <= p->n; d++)
                if (!(keep & (1u << (d - 1))))
                    changed |= remove_cand(g, h->u->cell[j], d);
    return changed;
}

static int subset_pass(const struct lc_puzzle *p, struct lc_grid *g, unsigned k)
{
    int changed = 0;

    for (unsigned ui = 0; ui < p->nunits; ui++) {
        const struct lc_unit *u = &p->unit[ui];
        unsigned digit[COVER_MAX_N], m = 0;
        changed |= subsets(p, g, u->ncells, k, naked_one, u->cell);
        if (!u->full)
            continue;
        for (unsigned d = 1; d <= p->n; d++) {
            unsigned placed = 0;
            for (unsigned j = 0; j < u->ncells; j++)
                placed |= g->value[u->cell[j]] == d;
            if (!placed)
                digit[m++] = d;
        }
        {
            struct lc_hidden h = {u, digit};
            changed |= subsets(p, g, m, k, hidden_one, &h);
        }
    }
    return changed;
}

/* Fish: k rows (columns) whose places for d, 2 to k each, lie in k
 * columns (rows): d leaves the rest of those columns (rows). */
struct lc_fish {
    unsigned d, cols;
};

static unsigned at(unsigned n, unsigned cols, unsigned line, unsigned j)
{
    return cols ? j * n + line : line * n + j;
}

static uint32_t line_places(const struct lc_puzzle *p, const struct lc_grid *g,
                            unsigned cols, unsigned line, unsigned d)
{
    uint32_t m = 0;

    for (unsigned j = 0; j < p->n; j++)
        if (g->cand[at(p->n, cols, line, j)] & (1u << (d - 1)))
            m |= 1u << j;
    return m;
}

static int fish_one(const struct lc_puzzle *p, struct lc_grid *g,
                    const unsigned *pick, unsigned k, const void *arg)
{
    const struct lc_fish *f = arg;
    uint32_t uni = 0, base = 0;
    int changed = 0;

    for (unsigned i = 0; i < k; i++) {
        uint32_t m = line_places(p, g, f->cols, pick[i], f->d);
        if (bits(m) < 2 || bits(m) > k)
            return 0;
        uni |= m;
        base |= 1u << pick[i];
    }
    if (bits(uni) != k)
        return 0;
    for (unsigned j = 0; j < p->n; j++)
        if (uni & (1u << j))
            for (unsigned line = 0; line < p->n; line++)
                if (!(base & (1u << line)))
                    changed |= remove_cand(g, at(p->n, f->cols, line, j), f->d);
    return changed;
}

static int fish_pass(const struct lc_puzzle *p, struct lc_grid *g, unsigned k)
{
    int changed = 0;

    for (unsigned d = 1; d <= p->n; d++)
        for (unsigned cols = 0; cols < 2; cols++) {
            struct lc_fish f = {d, cols};
            changed |= subsets(p, g, p->n, k, fish_one, &f);
        }
    return changed;
}

/* XY-wing: a blank {x,y} that sees a blank {x,z} and a blank {y,z}: one
 * of those two is z, so z leaves the blanks that see both. */
static int xy_wing(const struct lc_puzzle *p, struct lc_grid *g)
{
    int changed = 0;

    for (unsigned pv = 0; pv < p->ncells; pv++) {
        if (g->value[pv] || bits(g->cand[pv]) != 2)
            continue;
        for (unsigned a = 0; a < p->ncells; a++) {
            uint32_t share = g->cand[a] & g->cand[pv];
            if (g->value[a] || !p->see[pv][a] || bits(g->cand[a]) != 2 ||
                bits(share) != 1)
                continue;
            for (unsigned b = 0; b < p->ncells; b++) {
                uint32_t z = g->cand[a] & ~share;
                uint32_t want = (g->cand[pv] & ~share) | z;
                unsigned ends[2] = {a, b};
                if (b == a || g->value[b] || !p->see[pv][b] ||
                    g->cand[b] != want || bits(want) != 2)
                    continue;
                changed |=
                    remove_seen(p, g, ends, 2, (unsigned)__builtin_ctz(z) + 1);
            }
        }
    }
    return changed;
}

/* ------------------------------------------------------------------------
 * The solver
 * ------------------------------------------------------------------------ */

int lc_solves(const struct lc_puzzle *p, const uint8_t *givens,
              const uint8_t *solution, enum lc_set set)
{
    static __thread struct lc_grid g;
    uint32_t all = (p->n == 32 ? 0 : (1u << p->n)) - 1u;
    int changed;

    for (unsigned c = 0; c < p->ncells; c++) {
        g.value[c] = 0;
        g.cand[c] = all;
    }
    for (unsigned c = 0; c < p->ncells; c++)
        if (givens[c])
            place(p, &g, c, givens[c]);
    do {
        changed = singles(p, &g) || cage_sums(p, &g);
        if (!changed && set >= LC_MEDIUM)
            changed = locked(p, &g) || subset_pass(p, &g, 2) ||
                      fish_pass(p, &g, 2) ||
                      (p->killer && (sum_rule(p, &g, 0) || sum_rule(p, &g, 1) ||
                                     cage_locked(p, &g)));
        if (!changed && set >= LC_HARD)
            changed =
                subset_pass(p, &g, 3) || fish_pass(p, &g, 3) || xy_wing(p, &g);
    } while (changed);
    for (unsigned c = 0; c < p->ncells; c++)
        if (g.value[c] == 0 || (solution && g.value[c] != solution[c]))
            return 0;
    return 1;
}
