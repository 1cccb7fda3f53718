/* teach_killer.c - the killer techniques: cage combinations (which digit
 * sets of the cage's size add up to its sum, narrowed by its placed digits
 * and its cells' marks), digits every such set holds (locked like a unit's),
 * the 45 rule over one to three whole rows, columns or boxes (innies:
 * the cells of the units outside the cages inside them; outies: the cells
 * of the cages that stick out), and innies and outies together (their
 * difference, with the cages the region splits; see its section).
 *
 * A cage's completions are searched cell by cell with the set of digits
 * used so far as the state (2^9 of them at 9x9): a state seen once is not
 * searched again, and a cell's digit is possible when it leads from a
 * reachable state to a completing one. */
#include <string.h>

#include "teach_internal.h"

/* ------------------------------------------------------------------------
 * A cage's completions
 * ------------------------------------------------------------------------ */

struct cage_search {
    const struct teach_grid *g;
    unsigned blank[TEACH_MAX_N], m; /* the blank cells, as cage positions */
    const struct teach_unit *u;
    int target;
    uint32_t placed;
    uint8_t memo[SUDOKU_SIZE + 1][1u << SUDOKU_SIZE]; /* 0 ?, 1 no, 2 yes */
    struct teach_cage_info *out;
};

static int complete(struct cage_search *cs, unsigned i, uint32_t used, int sum)
{
    int ok = 0;

    if (cs->memo[i][used])
        return cs->memo[i][used] == 2;
    if (i == cs->m) {
        ok = sum == cs->target;
        if (ok) {
            struct teach_cage_info *o = cs->out;
            uint32_t set = used | cs->placed;
            if (o->ncombos < TEACH_MAX_COMBOS)
                o->combos[o->ncombos] = (uint16_t)set;
            o->ncombos++;
            o->required &= set;
        }
    } else {
        unsigned k = cs->blank[i];
        uint32_t c = cs->g->cand[cs->u->cell[k]] & ~used & ~cs->placed;
        for (; c; c &= c - 1) {
            int d = teach_low_digit(c);
            if (sum + d > cs->target)
                break; /* digits come in increasing order */
            if (complete(cs, i + 1, used | (1u << (d - 1)), sum + d)) {
                ok = 1;
                cs->out->poss[k] |= 1u << (d - 1);
            }
        }
    }
    cs->memo[i][used] = ok ? 2 : 1;
    return ok;
}

static int cage_options(const struct teach_puzzle *p,
                        const struct teach_grid *g, unsigned u,
                        struct teach_cage_info *out)
{
    struct cage_search cs;
    const struct teach_unit *cage = &p->unit[u];
    int placed_sum = 0;

    memset(out, 0, sizeof(*out));
    out->required = ~0u;
    if (p->n > SUDOKU_SIZE)
        return 0; /* cages are 9x9 only */
    cs.g = g;
    cs.u = cage;
    cs.m = 0;
    cs.placed = 0;
    cs.out = out;
    for (unsigned k = 0; k < cage->ncells; k++) {
        unsigned v = g->value[cage->cell[k]];
        if (v == 0) {
            cs.blank[cs.m++] = k;
        } else {
            if (cs.placed & (1u << (v - 1)))
                return -1;
            cs.placed |= 1u << (v - 1);
            placed_sum += (int)v;
        }
    }
    cs.target = (int)cage->sum - placed_sum;
    if (cs.target < 0)
        return -1;
    for (unsigned i = 0; i <= cs.m; i++)
        memset(cs.memo[i], 0, sizeof(cs.memo[i]));
    if (!complete(&cs, 0, 0, 0)) {
        out->required = 0;
        return -1;
    }
    return 0;
}

/* The options of a cage depend on nothing but its sum and its cells'
 * values and candidates, in order, so they are kept per thread, keyed by
 * exactly that: a walk asks again for every cage at every step (cage
 * combinations, cage-locked digits, the 45 rule) and most cages have not
 * changed since (the search was 45% of the killer generator's time). The
 * cache is a pure memo: any thread, any puzzle, the same answers. */
#define CAGE_CACHE 2048u
struct cage_key {
    uint16_t sum;
    uint8_t ncells, valid;
    uint8_t value[SUDOKU_SIZE];
    uint16_t cand[SUDOKU_SIZE];
};
struct cage_memo {
    struct cage_key key;
    int status;
    struct teach_cage_info info;
};
static _Thread_local struct cage_memo cage_cache[CAGE_CACHE];

int teach_cage_options(const struct teach_puzzle *p, const struct teach_grid *g,
                       unsigned u, struct teach_cage_info *out)
{
    const struct teach_unit *cage = &p->unit[u];
    struct cage_key key;
    struct cage_memo *m;
    uint32_t h = 2166136261u;

    if (p->n > SUDOKU_SIZE || cage->ncells > SUDOKU_SIZE)
        return cage_options(p, g, u, out);
    memset(&key, 0, sizeof(key));
    key.sum = cage->sum;
    key.ncells = cage->ncells;
    key.valid = 1;
    for (unsigned k = 0; k < cage->ncells; k++) {
        key.value[k] = g->value[cage->cell[k]];
        key.cand[k] = (uint16_t)g->cand[cage->cell[k]];
    }
    for (size_t i = 0; i < sizeof(key); i++)
        h = (h ^ ((const uint8_t *)&key)[i]) * 16777619u;
    m = &cage_cache[h % CAGE_CACHE];
    if (memcmp(&m->key, &key, sizeof(key)) != 0) {
        m->key = key;
        m->status = cage_options(p, g, u, &m->info);
    }
    *out = m->info;
    return m->status;
}

/* What a cage step records of its cage: the unit, the sum, the digit sets
 * that fit. */
static void cage_facts(struct teach_step *s, unsigned ui,
                       const struct teach_unit *u,
                       const struct teach_cage_info *info)
{
    teach_step_unit(s, ui);
    s->sum = u->sum;
    s->ncombos = (uint8_t)(info->ncombos < TEACH_MAX_COMBOS ? info->ncombos
                                                            : TEACH_MAX_COMBOS);
    memcpy(s->combos, info->combos, sizeof(s->combos));
}

enum teach_status teach_find_cage_combination(const struct teach_puzzle *p,
                                              const struct teach_grid *g,
                                              struct teach_step *s)
{
    struct teach_cage_info info;

    for (unsigned ui = 0; ui < p->nunits; ui++) {
        const struct teach_unit *u = &p->unit[ui];
        uint32_t uni = 0;
        if (u->kind != TEACH_CAGE)
            continue;
        if (teach_cage_options(p, g, ui, &info) != 0)
            return TEACH_CONTRADICTION;
        for (unsigned k = 0; k < u->ncells; k++)
            uni |= info.poss[k];
        teach_step_start(s, TEACH_CAGE_COMBINATION, uni);
        for (unsigned k = 0; k < u->ncells; k++) {
            unsigned c = u->cell[k];
            if (g->value[c] != 0)
                continue;
            for (uint32_t o = g->cand[c] & ~info.poss[k]; o; o &= o - 1)
                teach_step_elim(s, g, c, (unsigned)teach_low_digit(o));
        }
        if (s->neliminations == 0)
            continue;
        for (unsigned k = 0; k < u->ncells; k++)
            teach_step_cell(s, u->cell[k]);
        cage_facts(s, ui, u, &info);
        return TEACH_OK;
    }
    return TEACH_STUCK;
}

/* A digit that every completion of a cage holds must go in one of the
 * cage's cells that may take it: the cells that see all of those lose it. */
enum teach_status teach_find_cage_locked(const struct teach_puzzle *p,
                                         const struct teach_grid *g,
                                         struct teach_step *s)
{
    struct teach_cage_info info;

    for (unsigned ui = 0; ui < p->nunits; ui++) {
        const struct teach_unit *u = &p->unit[ui];
        if (u->kind != TEACH_CAGE)
            continue;
        if (teach_cage_options(p, g, ui, &info) != 0)
            return TEACH_CONTRADICTION;
        for (uint32_t req = info.required & ~teach_placed_in(u, g); req;
             req &= req - 1) {
            unsigned d = (unsigned)teach_low_digit(req), npos = 0;
            uint16_t pos[TEACH_MAX_N];
            for (unsigned k = 0; k < u->ncells; k++)
                if (g->cand[u->cell[k]] & (1u << (d - 1)))
                    pos[npos++] = u->cell[k];
            if (npos < 2)
                continue;
            teach_step_start(s, TEACH_CAGE_LOCKED, 1u << (d - 1));
            if (teach_sees_all(p, g, pos, npos, d, s) == 0)
                continue;
            for (unsigned k = 0; k < npos; k++)
                teach_step_cell(s, pos[k]);
            cage_facts(s, ui, u, &info);
            return TEACH_OK;
        }
    }
    return TEACH_STUCK;
}

/* ------------------------------------------------------------------------
 * The 45 rule
 * ------------------------------------------------------------------------ */

#define MAX_SUM_CELLS 4   /* innies or outies looked at, at most */
#define MAX_MIXED_CELLS 5 /* innies and outies together, at most */
/* Innies and outies together of more cells than this are searched only
 * when the sum's range alone rules out a candidate: searching them all
 * cost 6.5 ms a call against 0.7 ms (docs/performance.md). */
#define MIXED_WIDE 3
/* Regions of up to this many rows, columns or boxes: up to 4 cost 0.7 ms
 * a call against 0.3 ms and solved no more of the killer set. */
#define MIXED_MAX_UNITS 2
/* Cages counted by their outies, at most: on the generator's nearly full
 * grids every choice had few blank cells and all of them were searched. */
#define MIXED_MAX_OUTS 2

/* The regions of whole units: 1-3 adjacent rows, 1-3 adjacent columns, a
 * box, two boxes side by side. units[] gets unit indexes; returns how many
 * (0 past the last region). */
static unsigned region_units(unsigned r, unsigned *units)
{
    /* rows: 9 + 8 + 7 regions, then as many of columns */
    for (unsigned line = 0; line < 2; line++)
        for (unsigned k = 1; k <= 3; k++) {
            unsigned count = SUDOKU_SIZE + 1 - k;
            if (r < count) {
                for (unsigned i = 0; i < k; i++)
                    units[i] = line * SUDOKU_SIZE + r + i;
                return k;
            }
            r -= count;
        }
    if (r < SUDOKU_SIZE) {
        units[0] = 2 * SUDOKU_SIZE + r;
        return 1;
    }
    r -= SUDOKU_SIZE;
    if (r < 6) { /* side by side in a band */
        unsigned b = r / 2 * 3 + r % 2;
        units[0] = 2 * SUDOKU_SIZE + b;
        units[1] = 2 * SUDOKU_SIZE + b + 1;
        return 2;
    }
    r -= 6;
    if (r < 6) { /* one above the other in a stack */
        units[0] = 2 * SUDOKU_SIZE + r;
        units[1] = 2 * SUDOKU_SIZE + r + 3;
        return 2;
    }
    return 0;
}

struct sum_search {
    const struct teach_puzzle *p;
    const struct teach_grid *g;
    const uint16_t *cells;
    unsigned ncells;
    int target;
    const int8_t *sign; /* +1 or -1 per cell; NULL: all +1 */
    /* the cells' cages (NO_CAGE: none); ncages 0: not looked at */
    uint16_t cage[MAX_MIXED_CELLS], cage_unit[MAX_MIXED_CELLS];
    unsigned ncages;
    uint32_t cage_placed[MAX_MIXED_CELLS];
    const struct teach_cage_info *cage_info[MAX_MIXED_CELLS];
    uint8_t searched[SUDOKU_CELLS];
    int full;      /* nothing left to eliminate: the search stopped */
    unsigned wide; /* more cells than this: searched only when the sum's
                      range alone cuts something */
    int lo[MAX_MIXED_CELLS + 1], hi[MAX_MIXED_CELLS + 1]; /* cells i.. */
    uint8_t digit[MAX_MIXED_CELLS];
    uint32_t poss[MAX_MIXED_CELLS];
    uint32_t rest[SUDOKU_CELLS]; /* with cage: what the cages' cells can
                                    hold in the fitting assignments */
};

#define NO_CAGE 0xffffu

/* Does every cage of the cells keep a fitting digit set with the digits
 * given them, the rest of the set having a place in its other cells? (A
 * cage split by the region is two virtual cages: the digits of the part
 * assigned here fix the rest's.) When they all do, what the cages' other
 * cells may then hold joins ss->rest. A cage with more sets than
 * TEACH_MAX_COMBOS is not looked at. */
static int cages_fit(struct sum_search *ss)
{
    uint32_t rest[MAX_MIXED_CELLS][TEACH_MAX_N];

    for (unsigned i = 0; i < ss->ncages; i++) {
        const struct teach_unit *u = &ss->p->unit[ss->cage_unit[i]];
        const struct teach_cage_info *info = ss->cage_info[i];
        uint32_t fixed = 0;
        int fits = 0;
        memset(rest[i], 0, sizeof(rest[i]));
        if (info->ncombos > TEACH_MAX_COMBOS)
            continue;
        for (unsigned k = 0; k < ss->ncells; k++)
            if (ss->cage[k] == ss->cage_unit[i])
                fixed |= 1u << (ss->digit[k] - 1);
        for (unsigned j = 0; j < info->ncombos; j++) {
            uint32_t left = info->combos[j] & ~fixed & ~ss->cage_placed[i];
            uint32_t got[TEACH_MAX_N], all = 0;
            int ok = (info->combos[j] & fixed) == fixed;
            for (unsigned k = 0; ok && k < u->ncells; k++) {
                unsigned c = u->cell[k];
                got[k] = ss->g->value[c] || ss->searched[c]
                             ? 0
                             : ss->g->cand[c] & left;
                ok = ss->g->value[c] || ss->searched[c] || got[k] != 0;
                all |= got[k];
            }
            if (!ok || all != left)
                continue;
            fits = 1;
            for (unsigned k = 0; k < u->ncells; k++)
                rest[i][k] |= got[k];
        }
        if (!fits)
            return 0;
    }
    for (unsigned i = 0; i < ss->ncages; i++) {
        const struct teach_unit *u = &ss->p->unit[ss->cage_unit[i]];
        for (unsigned k = 0; k < u->ncells; k++)
            ss->rest[u->cell[k]] |= ss->cage_info[i]->ncombos > TEACH_MAX_COMBOS
                                        ? ss->g->cand[u->cell[k]]
                                        : rest[i][k];
    }
    return 1;
}

static int sign_of(const struct sum_search *ss, unsigned k)
{
    return ss->sign ? ss->sign[k] : 1;
}

/* Has every candidate the search looks at been found possible? Then
 * nothing is left to eliminate and the search may stop. */
static int saturated(const struct sum_search *ss)
{
    for (unsigned k = 0; k < ss->ncells; k++)
        if (ss->poss[k] != ss->g->cand[ss->cells[k]])
            return 0;
    for (unsigned i = 0; i < ss->ncages; i++) {
        const struct teach_unit *u = &ss->p->unit[ss->cage_unit[i]];
        for (unsigned k = 0; k < u->ncells; k++) {
            unsigned c = u->cell[k];
            if (!ss->g->value[c] && !ss->searched[c] &&
                ss->rest[c] != ss->g->cand[c])
                return 0;
        }
    }
    return 1;
}

/* Every assignment of the cells' candidates, peers distinct, whose signed
 * sum is the target: each digit used in one is possible for its cell. The
 * bounds of what the cells left can add prune the search; it stops once
 * everything is possible. */
static int sum_fill(struct sum_search *ss, unsigned i, int sum)
{
    int ok = 0, sg;

    if (ss->full)
        return 1;
    if (sum + ss->lo[i] > ss->target || sum + ss->hi[i] < ss->target)
        return 0;
    if (i == ss->ncells) {
        if (ss->ncages && !cages_fit(ss))
            return 0;
        for (unsigned k = 0; k < i; k++)
            ss->poss[k] |= 1u << (ss->digit[k] - 1);
        ss->full = saturated(ss);
        return 1;
    }
    sg = sign_of(ss, i);
    for (uint32_t c = ss->g->cand[ss->cells[i]]; c; c &= c - 1) {
        int d = teach_low_digit(c), clash = 0;
        for (unsigned k = 0; k < i && !clash; k++)
            clash = ss->digit[k] == d &&
                    teach_is_peer(ss->p, ss->cells[k], ss->cells[i]);
        if (clash)
            continue;
        ss->digit[i] = (uint8_t)d;
        ok |= sum_fill(ss, i + 1, sum + sg * d);
    }
    return ok;
}

/* Does the sum's range alone, each cell against what the others can add,
 * rule out some candidate? (Called after sum_search_run set lo and hi.) */
static int bounds_cut(const struct sum_search *ss)
{
    for (unsigned k = 0; k < ss->ncells; k++) {
        uint32_t c = ss->g->cand[ss->cells[k]];
        int low = teach_low_digit(c), high = 32 - __builtin_clz(c);
        int sg = sign_of(ss, k);
        int lo = ss->lo[0] - (sg > 0 ? low : -high);
        int hi = ss->hi[0] - (sg > 0 ? high : -low);
        for (; c; c &= c - 1) {
            int v = sg * teach_low_digit(c);
            if (v + lo > ss->target || v + hi < ss->target)
                return 1;
        }
    }
    return 0;
}

/* Searches: 1 with ss->poss[] filled, 0 when no assignment fits. */
static int sum_search_run(struct sum_search *ss)
{
    ss->lo[ss->ncells] = ss->hi[ss->ncells] = 0;
    for (unsigned k = ss->ncells; k-- > 0;) {
        uint32_t c = ss->g->cand[ss->cells[k]];
        int low = teach_low_digit(c), high = 32 - __builtin_clz(c);
        int sg = sign_of(ss, k);
        ss->lo[k] = ss->lo[k + 1] + (sg > 0 ? low : -high);
        ss->hi[k] = ss->hi[k + 1] + (sg > 0 ? high : -low);
        ss->poss[k] = 0;
    }
    memset(ss->rest, 0, sizeof(ss->rest));
    ss->full = 0;
    if (ss->ncells > ss->wide && !bounds_cut(ss))
        return 2;
    return sum_fill(ss, 0, 0);
}

/* The eliminations of a finished search: each cell's candidates no
 * fitting assignment uses. */
static void sum_eliminations(const struct sum_search *ss, struct teach_step *s)
{
    for (unsigned k = 0; k < ss->ncells; k++)
        for (uint32_t o = ss->g->cand[ss->cells[k]] & ~ss->poss[k]; o;
             o &= o - 1)
            teach_step_elim(s, ss->g, ss->cells[k],
                            (unsigned)teach_low_digit(o));
}

/* The step of the innies or outies `cells` that add up to `target`. */
static enum teach_status sum_step(const struct teach_puzzle *p,
                                  const struct teach_grid *g,
                                  const uint16_t *cells, unsigned ncells,
                                  int target, struct teach_step *s)
{
    struct sum_search ss;

    memset(&ss, 0, sizeof(ss));
    ss.p = p;
    ss.g = g;
    ss.cells = cells;
    ss.ncells = ncells;
    ss.target = target;
    ss.wide = MAX_MIXED_CELLS;
    if (target <= 0 || !sum_search_run(&ss))
        return TEACH_CONTRADICTION;
    if (ncells == 1) {
        teach_step_place(s, cells[0], (unsigned)target);
        s->digits = 1u << (target - 1);
        return TEACH_OK;
    }
    sum_eliminations(&ss, s);
    return s->neliminations ? TEACH_OK : TEACH_STUCK;
}

/* 81 cells as a bit set: two words. */
struct cell_set {
    uint64_t w[2];
};

static void set_add(struct cell_set *m, unsigned c)
{
    m->w[c / 64] |= 1ull << (c % 64);
}

static int set_has(const struct cell_set *m, unsigned c)
{
    return (int)((m->w[c / 64] >> (c % 64)) & 1u);
}

/* The 45 rule over each region: its units' cells and the cages' cells as
 * bit sets, made once per call (the region-by-cage scan of cell arrays
 * was a fifth of the killer generator's time). */
enum teach_status teach_find_innies_outies(const struct teach_puzzle *p,
                                           const struct teach_grid *g,
                                           int outies, struct teach_step *s)
{
    struct cell_set cage_set[SUDOKU_CELLS], caged = {{0, 0}};
    unsigned cage_unit[SUDOKU_CELLS], ncages = 0, units[3], nu;

    if (!p->killer)
        return TEACH_STUCK;
    for (unsigned ui = 0; ui < p->nunits && ncages < SUDOKU_CELLS; ui++) {
        const struct teach_unit *u = &p->unit[ui];
        if (u->kind != TEACH_CAGE)
            continue;
        cage_set[ncages].w[0] = cage_set[ncages].w[1] = 0;
        for (unsigned k = 0; k < u->ncells; k++) {
            set_add(&cage_set[ncages], u->cell[k]);
            set_add(&caged, u->cell[k]);
        }
        cage_unit[ncages++] = ui;
    }
    for (unsigned r = 0; (nu = region_units(r, units)) > 0; r++) {
        struct cell_set in = {{0, 0}}, inner = {{0, 0}};
        uint16_t cells[MAX_SUM_CELLS];
        unsigned ncells = 0, too_many = 0, uncaged_blank = 0;
        int total = 45 * (int)nu, known = 0, placed = 0, uncaged_placed = 0;
        enum teach_status st;

        for (unsigned i = 0; i < nu; i++)
            for (unsigned k = 0; k < SUDOKU_SIZE; k++)
                set_add(&in, p->unit[units[i]].cell[k]);
        for (unsigned i = 0; i < ncages && !too_many; i++) {
            const struct teach_unit *u = &p->unit[cage_unit[i]];
            uint64_t w0 = cage_set[i].w[0] & in.w[0];
            uint64_t w1 = cage_set[i].w[1] & in.w[1];
            if ((w0 | w1) == 0)
                continue;
            if (w0 == cage_set[i].w[0] && w1 == cage_set[i].w[1]) {
                known += u->sum; /* inside */
                inner.w[0] |= w0;
                inner.w[1] |= w1;
                continue;
            }
            if (!outies)
                continue;
            known += u->sum; /* sticks out */
            for (unsigned k = 0; k < u->ncells; k++) {
                unsigned c = u->cell[k];
                if (set_has(&in, c))
                    continue;
                if (g->value[c])
                    placed += g->value[c];
                else if (ncells < MAX_SUM_CELLS)
                    cells[ncells++] = (uint16_t)c;
                else
                    too_many = 1;
            }
        }
        for (unsigned w = 0; w < 2 && !too_many; w++) {
            /* innies: the region's cells outside the inner cages; outies:
             * its cells in no cage (they must be placed) */
            uint64_t rest = in.w[w] & ~(outies ? caged.w[w] : inner.w[w]);
            for (; rest; rest &= rest - 1) {
                unsigned c = w * 64 + (unsigned)__builtin_ctzll(rest);
                if (outies) {
                    if (g->value[c])
                        uncaged_placed += g->value[c];
                    else
                        uncaged_blank = 1;
                } else if (g->value[c])
                    placed += g->value[c];
                else if (ncells < MAX_SUM_CELLS)
                    cells[ncells++] = (uint16_t)c;
                else
                    too_many = 1;
            }
        }
        if (too_many || uncaged_blank || ncells == 0)
            continue;
        teach_step_start(s, outies ? TEACH_OUTIES : TEACH_INNIES, 0);
        st = sum_step(p, g, cells, ncells,
                      outies ? known + uncaged_placed - total - placed
                             : total - known - placed,
                      s);
        if (st == TEACH_STUCK)
            continue;
        if (st != TEACH_OK)
            return st;
        if (ncells > 1)
            s->rating = 30;
        for (unsigned i = 0; i < nu; i++)
            teach_step_unit(s, units[i]);
        for (unsigned k = 0; k < ncells; k++)
            teach_step_cell(s, cells[k]);
        s->total = (uint16_t)total;
        s->known = (uint16_t)(known + (outies ? uncaged_placed : 0));
        s->placed = (uint16_t)placed;
        s->sum = (uint16_t)(outies ? known + uncaged_placed - total - placed
                                   : total - known - placed);
        return TEACH_OK;
    }
    return TEACH_STUCK;
}

/* ------------------------------------------------------------------------
 * Innies and outies together
 * ------------------------------------------------------------------------
 * A region of one or two whole rows, columns or boxes (any two, not only
 * adjacent ones) holds 45 per unit. Each cage that sticks out of it
 * is counted one of two ways: by its cells inside (innies, +) or, its sum
 * being known, by its cells outside (outies, -). Whatever the choice,
 *   innies - outies = 45 * units - cages inside - sums of the cages
 *                     counted by their outies,
 * and cells outside every cage are innies. Choices with 1 to
 * MAX_MIXED_CELLS blank cells and at most MIXED_MAX_OUTS cages counted
 * by their outies are tried, fewest cells first; the signed sum, peers
 * distinct, keeps each cell's digits that fit (one innie and one outie:
 * innie - outie is a constant). A cage split by the region must keep a
 * digit set that holds its cells' digits (cages_fit): what its other
 * cells can then hold narrows them too. */

#define MAX_PARTS 16 /* cages sticking out of a region, at most */

/* The cages' completions, searched once per call of the finder: slot[u]
 * is 0 before, then 1 + the index in info[] (or 255: no completion). */
struct cage_cache {
    uint8_t slot[TEACH_MAX_UNITS];
    unsigned n;
    struct teach_cage_info info[SUDOKU_CELLS];
};

static const struct teach_cage_info *cage_cached(const struct teach_puzzle *p,
                                                 const struct teach_grid *g,
                                                 struct cage_cache *cc,
                                                 unsigned u)
{
    if (cc->slot[u] == 0) {
        if (cc->n == SUDOKU_CELLS ||
            teach_cage_options(p, g, u, &cc->info[cc->n]) != 0)
            cc->slot[u] = 255;
        else
            cc->slot[u] = (uint8_t)(1 + cc->n++);
    }
    return cc->slot[u] == 255 ? NULL : &cc->info[cc->slot[u] - 1];
}

struct mixed_region {
    struct cage_cache *cache;
    unsigned units[MIXED_MAX_UNITS], nu;
    int total, known; /* 45 per unit; the cages inside */
    uint8_t in[SUDOKU_CELLS];
    unsigned npart, uncaged; /* cages sticking out; blank uncaged cells */
    uint16_t part[MAX_PARTS];
    uint8_t blank_in[MAX_PARTS], blank_out[MAX_PARTS];
};

/* The region of `mask` (bits 0-8) over family f (0 rows, 1 columns,
 * 2 boxes): 0 when it has too many cages sticking out. */
static int mixed_region_of(const struct teach_puzzle *p,
                           const struct teach_grid *g, unsigned f,
                           unsigned mask, struct mixed_region *r)
{
    uint8_t caged[SUDOKU_CELLS] = {0};

    struct cage_cache *cache = r->cache;

    memset(r, 0, sizeof(*r));
    r->cache = cache;
    for (unsigned i = 0; i < SUDOKU_SIZE; i++)
        if (mask & (1u << i)) {
            const struct teach_unit *u = &p->unit[f * SUDOKU_SIZE + i];
            if (!u->full || u->ncells != SUDOKU_SIZE)
                return 0;
            r->units[r->nu++] = f * SUDOKU_SIZE + i;
            for (unsigned k = 0; k < SUDOKU_SIZE; k++)
                r->in[u->cell[k]] = 1;
        }
    r->total = 45 * (int)r->nu;
    for (unsigned ui = 0; ui < p->nunits; ui++) {
        const struct teach_unit *u = &p->unit[ui];
        unsigned count = 0, bin = 0, bout = 0;
        if (u->kind != TEACH_CAGE)
            continue;
        for (unsigned k = 0; k < u->ncells; k++) {
            unsigned c = u->cell[k];
            caged[c] = 1;
            count += r->in[c];
            if (g->value[c] == 0) {
                bin += r->in[c];
                bout += !r->in[c];
            }
        }
        if (count == u->ncells)
            r->known += u->sum;
        else if (count > 0) {
            if (r->npart == MAX_PARTS)
                return 0;
            r->part[r->npart] = (uint16_t)ui;
            r->blank_in[r->npart] = (uint8_t)bin;
            r->blank_out[r->npart++] = (uint8_t)bout;
        }
    }
    for (unsigned c = 0; c < SUDOKU_CELLS; c++)
        if (r->in[c] && !caged[c] && g->value[c] == 0)
            r->uncaged++;
    return 1;
}

/* The step of the choice `outs` (bit i: part[i] counted by its outies). */
static enum teach_status mixed_step(const struct teach_puzzle *p,
                                    const struct teach_grid *g,
                                    const struct mixed_region *r, uint32_t outs,
                                    struct teach_step *s)
{
    uint16_t cells[MAX_MIXED_CELLS];
    int8_t sign[MAX_MIXED_CELLS];
    unsigned n = 0, nin;
    int target = r->total - r->known, placed = 0;
    struct sum_search ss;
    uint8_t counted[SUDOKU_CELLS] = {0};

    for (unsigned i = 0; i < r->npart; i++)
        if (outs & (1u << i))
            target -= p->unit[r->part[i]].sum;
    /* innies first: the uncaged cells and the parts counted inside */
    for (unsigned c = 0; c < SUDOKU_CELLS; c++)
        counted[c] = r->in[c];
    for (unsigned ui = 0; ui < p->nunits; ui++)
        if (p->unit[ui].kind == TEACH_CAGE) {
            unsigned all = 1;
            for (unsigned k = 0; k < p->unit[ui].ncells; k++)
                all &= r->in[p->unit[ui].cell[k]];
            for (unsigned k = 0; all && k < p->unit[ui].ncells; k++)
                counted[p->unit[ui].cell[k]] = 0; /* a cage inside */
        }
    for (unsigned i = 0; i < r->npart; i++) {
        const struct teach_unit *u = &p->unit[r->part[i]];
        for (unsigned k = 0; k < u->ncells; k++) {
            unsigned c = u->cell[k];
            if (outs & (1u << i))
                counted[c] = r->in[c] ? 0 : 2;
        }
    }
    for (int want = 1; want <= 2; want++)
        for (unsigned c = 0; c < SUDOKU_CELLS; c++) {
            if (counted[c] != want)
                continue;
            if (g->value[c]) {
                placed += want == 1 ? g->value[c] : -(int)g->value[c];
                continue;
            }
            if (n == MAX_MIXED_CELLS)
                return TEACH_STUCK;
            sign[n] = want == 1 ? 1 : -1;
            cells[n++] = (uint16_t)c;
        }
    for (nin = 0; nin < n && sign[nin] > 0; nin++)
        ;
    memset(&ss, 0, sizeof(ss));
    ss.p = p;
    ss.g = g;
    ss.cells = cells;
    ss.ncells = n;
    ss.target = target - placed;
    ss.sign = sign;
    ss.wide = MIXED_WIDE;
    for (unsigned k = 0; k < n; k++) {
        unsigned first = 1;
        ss.cage[k] = NO_CAGE;
        ss.searched[cells[k]] = 1;
        for (unsigned j = 0; j < p->nunits_of[cells[k]]; j++)
            if (p->unit[p->units_of[cells[k]][j]].kind == TEACH_CAGE)
                ss.cage[k] = p->units_of[cells[k]][j];
        for (unsigned j = 0; j < k && first; j++)
            first = ss.cage[j] != ss.cage[k];
        if (ss.cage[k] == NO_CAGE || !first)
            continue;
        if ((ss.cage_info[ss.ncages] =
                 cage_cached(p, g, r->cache, ss.cage[k])) == NULL)
            return TEACH_CONTRADICTION;
        ss.cage_placed[ss.ncages] = teach_placed_in(&p->unit[ss.cage[k]], g);
        ss.cage_unit[ss.ncages++] = ss.cage[k];
    }
    switch (sum_search_run(&ss)) {
    case 0:
        return TEACH_CONTRADICTION;
    case 2:
        return TEACH_STUCK;
    }
    teach_step_start(s, TEACH_INNIES_OUTIES, 0);
    sum_eliminations(&ss, s);
    for (unsigned k = 0; k < ss.ncages; k++) /* the split cages' others */
        for (unsigned i = 0; i < p->unit[ss.cage_unit[k]].ncells; i++) {
            unsigned c = p->unit[ss.cage_unit[k]].cell[i];
            if (ss.searched[c] || g->value[c])
                continue;
            for (uint32_t o = g->cand[c] & ~ss.rest[c]; o; o &= o - 1)
                teach_step_elim(s, g, c, (unsigned)teach_low_digit(o));
        }
    if (s->neliminations == 0)
        return TEACH_STUCK;
    for (unsigned i = 0; i < r->nu; i++)
        teach_step_unit(s, r->units[i]);
    for (unsigned i = 0; i < r->npart; i++)
        if (outs & (1u << i))
            teach_step_unit(s, r->part[i]);
    for (unsigned k = 0; k < n; k++)
        teach_step_cell(s, cells[k]);
    s->ninnies = (uint8_t)nin;
    s->total = (uint16_t)r->total;
    s->known = (uint16_t)r->known;
    s->net_placed = (int16_t)placed;
    s->net = (int16_t)ss.target;
    return TEACH_OK;
}

/* Tries the choices of the parts from i on that add up to `want` blank
 * cells (with `have` so far). */
static enum teach_status mixed_choices(const struct teach_puzzle *p,
                                       const struct teach_grid *g,
                                       const struct mixed_region *r, unsigned i,
                                       uint32_t outs, unsigned have,
                                       unsigned want, struct teach_step *s)
{
    enum teach_status st;

    if (have > want || teach_popcount(outs) > MIXED_MAX_OUTS)
        return TEACH_STUCK;
    if (i == r->npart) {
        if (have != want ||
            r->nu + (unsigned)teach_popcount(outs) > TEACH_MAX_STEP_UNITS)
            return TEACH_STUCK;
        return mixed_step(p, g, r, outs, s);
    }
    st = mixed_choices(p, g, r, i + 1, outs, have + r->blank_in[i], want, s);
    if (st != TEACH_STUCK || (r->blank_in[i] == 0 && r->blank_out[i] == 0))
        return st; /* all placed: counted either way, the same sum */
    return mixed_choices(p, g, r, i + 1, outs | (1u << i),
                         have + r->blank_out[i], want, s);
}

enum teach_status teach_find_innies_outies_mixed(const struct teach_puzzle *p,
                                                 const struct teach_grid *g,
                                                 struct teach_step *s)
{
    struct mixed_region r;
    struct cage_cache cache;

    if (!p->killer || p->n != SUDOKU_SIZE)
        return TEACH_STUCK;
    memset(cache.slot, 0, sizeof(cache.slot));
    cache.n = 0;
    r.cache = &cache;
    for (unsigned nu = 1; nu <= MIXED_MAX_UNITS; nu++)
        for (unsigned f = 0; f < 3; f++)
            for (unsigned mask = 1; mask < (1u << SUDOKU_SIZE); mask++) {
                if ((unsigned)teach_popcount(mask) != nu ||
                    !mixed_region_of(p, g, f, mask, &r))
                    continue;
                for (unsigned want = 1; want <= MAX_MIXED_CELLS; want++) {
                    enum teach_status st =
                        mixed_choices(p, g, &r, 0, 0, r.uncaged, want, s);
                    if (st != TEACH_STUCK)
                        return st;
                }
            }
    return TEACH_STUCK;
}
