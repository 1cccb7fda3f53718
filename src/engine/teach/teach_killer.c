/* teach_killer.c - the killer techniques: cage combinations (which digit
 * sets of the cage's size add up to its sum, narrowed by its placed digits
 * and its cells' marks), digits every such set holds (locked like a unit's),
 * and the 45 rule over one to three whole rows, columns or boxes (innies:
 * the cells of the units outside the cages inside them; outies: the cells
 * of the cages that stick out).
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

int teach_cage_options(const struct teach_puzzle *p, const struct teach_grid *g,
                       unsigned u, struct teach_cage_info *out)
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

#define MAX_SUM_CELLS 4 /* innies or outies looked at, at most */

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
    uint8_t digit[MAX_SUM_CELLS];
    uint32_t poss[MAX_SUM_CELLS];
};

/* Every assignment of the cells' candidates, peers distinct, adding up to
 * the target: each digit used in one is possible for its cell. */
static int sum_fill(struct sum_search *ss, unsigned i, int sum)
{
    int ok = 0;

    if (i == ss->ncells) {
        if (sum != ss->target)
            return 0;
        for (unsigned k = 0; k < i; k++)
            ss->poss[k] |= 1u << (ss->digit[k] - 1);
        return 1;
    }
    for (uint32_t c = ss->g->cand[ss->cells[i]]; c; c &= c - 1) {
        int d = teach_low_digit(c), clash = 0;
        if (sum + d > ss->target)
            break;
        for (unsigned k = 0; k < i && !clash; k++)
            clash = ss->digit[k] == d &&
                    teach_is_peer(ss->p, ss->cells[k], ss->cells[i]);
        if (clash)
            continue;
        ss->digit[i] = (uint8_t)d;
        ok |= sum_fill(ss, i + 1, sum + d);
    }
    return ok;
}

/* The step of the innies or outies `cells` that add up to `target`. */
static enum teach_status sum_step(const struct teach_puzzle *p,
                                  const struct teach_grid *g,
                                  const uint16_t *cells, unsigned ncells,
                                  int target, struct teach_step *s)
{
    struct sum_search ss = {p, g, cells, ncells, target, {0}, {0}};

    if (target <= 0 || !sum_fill(&ss, 0, 0))
        return TEACH_CONTRADICTION;
    if (ncells == 1) {
        teach_step_place(s, cells[0], (unsigned)target);
        s->digits = 1u << (target - 1);
        return TEACH_OK;
    }
    for (unsigned k = 0; k < ncells; k++)
        for (uint32_t o = g->cand[cells[k]] & ~ss.poss[k]; o; o &= o - 1)
            teach_step_elim(s, g, cells[k], (unsigned)teach_low_digit(o));
    return s->neliminations ? TEACH_OK : TEACH_STUCK;
}

enum teach_status teach_find_innies_outies(const struct teach_puzzle *p,
                                           const struct teach_grid *g,
                                           int outies, struct teach_step *s)
{
    unsigned units[3], nu;

    if (!p->killer)
        return TEACH_STUCK;
    for (unsigned r = 0; (nu = region_units(r, units)) > 0; r++) {
        uint8_t in[SUDOKU_CELLS] = {0}, caged[SUDOKU_CELLS] = {0};
        uint16_t cells[MAX_SUM_CELLS];
        unsigned ncells = 0, too_many = 0, uncaged_blank = 0;
        int total = 45 * (int)nu, known = 0, placed = 0, uncaged_placed = 0;
        enum teach_status st;

        for (unsigned i = 0; i < nu; i++)
            for (unsigned k = 0; k < SUDOKU_SIZE; k++)
                in[p->unit[units[i]].cell[k]] = 1;
        for (unsigned ui = 0; ui < p->nunits; ui++) {
            const struct teach_unit *u = &p->unit[ui];
            unsigned count = 0;
            if (u->kind != TEACH_CAGE)
                continue;
            for (unsigned k = 0; k < u->ncells; k++) {
                count += in[u->cell[k]];
                caged[u->cell[k]] = 1;
            }
            if (count == 0)
                continue;
            if (count == u->ncells) {
                known += u->sum;
                for (unsigned k = 0; k < u->ncells; k++)
                    in[u->cell[k]] = 2; /* inside a cage inside */
                continue;
            }
            if (!outies)
                continue;
            known += u->sum; /* sticks out */
            for (unsigned k = 0; k < u->ncells; k++) {
                unsigned c = u->cell[k];
                if (in[c])
                    continue;
                if (g->value[c])
                    placed += g->value[c];
                else if (ncells < MAX_SUM_CELLS)
                    cells[ncells++] = (uint16_t)c;
                else
                    too_many = 1;
            }
        }
        for (unsigned c = 0; c < SUDOKU_CELLS; c++) {
            if (in[c] != 1)
                continue;
            if (outies) {
                if (!caged[c]) {
                    if (g->value[c])
                        uncaged_placed += g->value[c];
                    else
                        uncaged_blank = 1;
                }
                continue;
            }
            if (g->value[c])
                placed += g->value[c];
            else if (ncells < MAX_SUM_CELLS)
                cells[ncells++] = (uint16_t)c;
            else
                too_many = 1;
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
