/* teach_walk.c - the order the techniques are tried in (their base
 * ratings), the last resort, and the walk that grades and explains. The
 * last resort, a forcing chain, assumes one candidate (cells with two
 * candidates first), follows naked and hidden singles and the cage sums
 * from it until nothing more follows, and eliminates the candidate when
 * that ends in a cell with no candidate, a unit with no place for a digit
 * or a cage that cannot be completed. It never guesses a digit in: every
 * step it gives is a proof. */
#include <string.h>

#include "logic.h" /* the levels */
#include "teach_internal.h"

/* ------------------------------------------------------------------------
 * The forcing chain
 * ------------------------------------------------------------------------ */

/* Follows singles and cage sums in g until nothing changes. Returns -1,
 * or what broke: a cell, or p->ncells + a unit index. *placed counts the
 * placements made. */
/* Locked candidates inside a propagation: a full unit's digit confined to
 * cells that all see some others removes it from those. 1 when it removed
 * something. */
static int lock(const struct teach_puzzle *p, struct teach_grid *g)
{
    int changed = 0;

    for (unsigned ui = 0; ui < p->nunits; ui++) {
        const struct teach_unit *u = &p->unit[ui];
        if (!u->full)
            continue;
        for (unsigned d = 1; d <= p->n; d++) {
            uint32_t bit = 1u << (d - 1);
            uint64_t common[TEACH_WORDS];
            unsigned npos = 0;
            for (unsigned k = 0; k < u->ncells; k++) {
                unsigned c = u->cell[k];
                if (!(g->cand[c] & bit))
                    continue;
                if (npos++ == 0)
                    memcpy(common, p->peer[c], sizeof(common));
                else
                    for (unsigned w = 0; w < p->nwords; w++)
                        common[w] &= p->peer[c][w];
            }
            if (npos < 2)
                continue;
            for (unsigned w = 0; w < p->nwords; w++)
                for (uint64_t m = common[w]; m; m &= m - 1) {
                    unsigned c = w * 64 + (unsigned)__builtin_ctzll(m);
                    if (g->cand[c] & bit) {
                        g->cand[c] &= ~bit;
                        changed = 1;
                    }
                }
        }
    }
    return changed;
}

/* A cage's cells as one number: when it has not changed since the cage's
 * completions were last searched, searching again finds nothing new. */
static uint64_t cage_state(const struct teach_unit *u,
                           const struct teach_grid *g)
{
    uint64_t h = 1469598103934665603ull;

    for (unsigned k = 0; k < u->ncells; k++)
        h = (h ^ (g->cand[u->cell[k]] | (uint64_t)g->value[u->cell[k]] << 32)) *
            1099511628211ull;
    return h;
}

static int propagate(const struct teach_puzzle *p, struct teach_grid *g,
                     unsigned *placed)
{
    uint64_t searched[TEACH_MAX_UNITS];
    int progress = 1;

    /* 0 is taken for "never searched": a state hashing to 0 is searched
     * every pass, which is only slower. */
    memset(searched, 0, p->nunits * sizeof(searched[0]));
    while (progress) {
        progress = 0;
        for (unsigned c = 0; c < p->ncells; c++) {
            if (g->value[c] != 0)
                continue;
            if (g->cand[c] == 0)
                return (int)c;
            if (teach_popcount(g->cand[c]) == 1) {
                teach_place(p, g, c, (unsigned)teach_low_digit(g->cand[c]));
                (*placed)++;
                progress = 1;
            }
        }
        for (unsigned ui = 0; ui < p->nunits; ui++) {
            const struct teach_unit *u = &p->unit[ui];
            uint32_t seen = 0, once = 0, twice = 0, placed_here = 0;
            uint32_t all = (1u << p->n) - 1;
            if (u->kind == TEACH_CAGE) {
                struct teach_cage_info info;
                uint64_t state = cage_state(u, g);
                if (state != 0 && state == searched[ui])
                    continue;
                if (teach_cage_options(p, g, ui, &info) != 0)
                    return (int)(p->ncells + ui);
                for (unsigned k = 0; k < u->ncells; k++) {
                    unsigned c = u->cell[k];
                    if (g->value[c] == 0 && (g->cand[c] & ~info.poss[k])) {
                        g->cand[c] &= info.poss[k];
                        progress = 1;
                    }
                }
                searched[ui] = cage_state(u, g);
                continue;
            }
            if (!u->full)
                continue;
            for (unsigned k = 0; k < u->ncells; k++) {
                unsigned c = u->cell[k];
                uint32_t m = g->cand[c];
                if (g->value[c])
                    placed_here |= 1u << (g->value[c] - 1);
                twice |= once & m;
                once |= m;
                seen |= m;
            }
            if ((seen | placed_here) != all)
                return (int)(p->ncells + ui);
            for (uint32_t h = once & ~twice & ~placed_here; h; h &= h - 1) {
                unsigned d = (unsigned)teach_low_digit(h);
                for (unsigned k = 0; k < u->ncells; k++)
                    if (g->cand[u->cell[k]] & (1u << (d - 1))) {
                        teach_place(p, g, u->cell[k], d);
                        (*placed)++;
                        progress = 1;
                        break;
                    }
            }
        }
        if (!progress)
            progress = lock(p, g);
    }
    return -1;
}

/* Propagates t; at depth 1, also removes each candidate of a two-candidate
 * cell whose own assumption breaks (at depth 0) and propagates again, until
 * nothing more follows. Returns what broke, or -1. */
static int follow(const struct teach_puzzle *p, struct teach_grid *t, int depth,
                  const struct teach_budget *b, unsigned *placed)
{
    struct teach_grid u;
    int broke, found = 1;

    if ((broke = propagate(p, t, placed)) >= 0 || depth == 0)
        return broke;
    while (found) {
        found = 0;
        if (teach_expired(b))
            return -1;
        for (unsigned c = 0; c < p->ncells && !found; c++) {
            if (t->value[c] != 0 || teach_popcount(t->cand[c]) != 2)
                continue;
            for (uint32_t m = t->cand[c]; m && !found; m &= m - 1) {
                unsigned d = (unsigned)teach_low_digit(m), inner = 0;
                memcpy(u.value, t->value, p->ncells);
                memcpy(u.cand, t->cand, p->ncells * sizeof(u.cand[0]));
                teach_place(p, &u, c, d);
                if (propagate(p, &u, &inner) < 0)
                    continue;
                t->cand[c] &= ~(1u << (d - 1));
                found = 1;
                if ((broke = propagate(p, t, placed)) >= 0)
                    return broke;
            }
        }
    }
    return -1;
}

enum teach_status teach_find_forcing(const struct teach_puzzle *p,
                                     const struct teach_grid *g,
                                     const struct teach_budget *b,
                                     struct teach_step *s)
{
    struct teach_grid t;

    for (int depth = 0; depth < 2; depth++)
        for (int want = 2; want <= p->n; want++) {
            for (unsigned c = 0; c < p->ncells; c++) {
                if (g->value[c] != 0 || teach_popcount(g->cand[c]) != want)
                    continue;
                if (teach_expired(b))
                    return TEACH_BUDGET;
                for (uint32_t m = g->cand[c]; m; m &= m - 1) {
                    unsigned d = (unsigned)teach_low_digit(m), count = 0;
                    int broke;
                    memcpy(t.value, g->value, p->ncells);
                    memcpy(t.cand, g->cand, p->ncells * sizeof(t.cand[0]));
                    teach_place(p, &t, c, d);
                    if ((broke = follow(p, &t, depth, b, &count)) < 0)
                        continue;
                    teach_step_start(
                        s, depth ? TEACH_FORCING_NET : TEACH_FORCING_CHAIN,
                        1u << (d - 1));
                    teach_step_elim(s, g, c, d);
                    teach_step_cell(s, c);
                    s->chain_length = (uint16_t)count;
                    if (broke >= p->ncells) {
                        s->contradiction = (uint16_t)(broke - p->ncells);
                        s->contradiction_unit = 1;
                        teach_step_unit(s, s->contradiction);
                    } else {
                        s->contradiction = (uint16_t)broke;
                        teach_step_cell(s, (unsigned)broke);
                    }
                    return TEACH_OK;
                }
            }
        }
    return TEACH_STUCK;
}

/* ------------------------------------------------------------------------
 * The order of the techniques
 * ------------------------------------------------------------------------ */

static int allowed(const struct teach_budget *b, enum teach_technique t)
{
    return b == NULL || b->max_rating == 0 ||
           teach_technique_rating(t) <= b->max_rating;
}

enum teach_status teach_step(const struct teach_puzzle *p,
                             const struct teach_grid *g,
                             const struct teach_budget *b,
                             struct teach_step *out)
{
    enum teach_status st;
    unsigned blanks = 0;

    for (unsigned c = 0; c < p->ncells; c++)
        blanks += g->value[c] == 0;
    if (blanks == 0)
        return TEACH_SOLVED;
    for (int t = 0; t < TEACH_NTECHNIQUES; t++) {
        if (!allowed(b, (enum teach_technique)t))
            continue;
        switch ((enum teach_technique)t) {
        case TEACH_HIDDEN_SINGLE:
            st = teach_find_singles(p, g, 1, out);
            break;
        case TEACH_NAKED_SINGLE:
            st = teach_find_singles(p, g, 0, out);
            break;
        case TEACH_CAGE_COMBINATION:
            st = p->killer ? teach_find_cage_combination(p, g, out)
                           : TEACH_STUCK;
            break;
        case TEACH_INNIES:
        case TEACH_OUTIES:
            st = teach_find_innies_outies(p, g, t == TEACH_OUTIES, out);
            break;
        case TEACH_INNIES_OUTIES:
            st = teach_find_innies_outies_mixed(p, g, out);
            break;
        case TEACH_LOCKED_CANDIDATES:
            st = teach_find_locked(p, g, out);
            break;
        case TEACH_CAGE_LOCKED:
            st = p->killer ? teach_find_cage_locked(p, g, out) : TEACH_STUCK;
            break;
        case TEACH_NAKED_PAIR:
        case TEACH_NAKED_TRIPLE:
        case TEACH_NAKED_QUAD:
            st = teach_find_naked(p, g,
                                  t == TEACH_NAKED_PAIR     ? 2
                                  : t == TEACH_NAKED_TRIPLE ? 3
                                                            : 4,
                                  b, out);
            break;
        case TEACH_XY_WING:
            st = teach_find_xy_wing(p, g, b, out);
            break;
        case TEACH_HIDDEN_PAIR:
        case TEACH_HIDDEN_TRIPLE:
        case TEACH_HIDDEN_QUAD:
            st = teach_find_hidden(p, g,
                                   t == TEACH_HIDDEN_PAIR     ? 2
                                   : t == TEACH_HIDDEN_TRIPLE ? 3
                                                              : 4,
                                   b, out);
            break;
        case TEACH_X_WING:
        case TEACH_SWORDFISH:
        case TEACH_JELLYFISH:
            st = teach_find_fish(p, g,
                                 t == TEACH_X_WING      ? 2
                                 : t == TEACH_SWORDFISH ? 3
                                                        : 4,
                                 out);
            break;
        case TEACH_X_CHAIN:
        case TEACH_XY_CHAIN:
            st = teach_find_chain(p, g, t == TEACH_XY_CHAIN, b, out);
            break;
        case TEACH_AIC:
            st = teach_find_aic(p, g, b, out);
            break;
        case TEACH_FORCING_CHAIN:
            st = teach_find_forcing(p, g, b, out);
            break;
        case TEACH_FORCING_NET: /* found with the chains, one search */
            st = TEACH_STUCK;
            break;
        default:
            st = TEACH_STUCK;
            break;
        }
        if (st != TEACH_STUCK)
            return st;
        if (t >= TEACH_NAKED_PAIR && teach_expired(b))
            return TEACH_BUDGET;
    }
    return TEACH_STUCK;
}

/* ------------------------------------------------------------------------
 * The walk
 * ------------------------------------------------------------------------ */

enum teach_status teach_walk(const struct teach_puzzle *p, struct teach_grid *g,
                             const struct teach_budget *b,
                             struct teach_step *steps, size_t max_steps,
                             struct teach_walk *out)
{
    struct teach_step s;

    memset(out, 0, sizeof(*out));
    out->rating = 10;
    out->hardest = -1;
    for (;;) {
        enum teach_status st;
        if (steps != NULL && out->nsteps >= max_steps) {
            out->status = TEACH_OK;
            break;
        }
        st = teach_step(p, g, b, &s);
        if (st != TEACH_OK) {
            out->status = st;
            break;
        }
        if (steps != NULL)
            steps[out->nsteps] = s;
        out->nsteps++;
        out->counts[s.technique]++;
        if (s.rating >= out->rating) {
            out->rating = s.rating;
            out->hardest = (int)s.technique;
        }
        teach_apply(p, g, &s);
    }
    for (unsigned c = 0; c < p->ncells; c++)
        out->blanks_left += g->value[c] == 0;
    out->level = out->status == TEACH_SOLVED
                     ? (unsigned)logic_rating_level(out->rating)
                     : (unsigned)LOGIC_EXTREME;
    return out->status;
}
