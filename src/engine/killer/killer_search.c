/* killer_search.c - the killer sudoku solver behind killer_count; it
 * prunes with killer_combinations (killer.c), the digit sets per (cage
 * size, sum).
 * Backtracking over per-cell candidate masks; the state is copied per branch
 * (about 470 bytes) instead of undone. No static mutable state: reentrant.
 *
 * Method
 * ------
 * Constraints: the 27 units of the 9x9 rules, and "groups": sets of cells
 * whose digits are distinct and add up to a sum. Every cage is a group, and
 * so is, by the rule of 45, the rest of a row, column or box once the cages
 * lying wholly inside it are taken out (its sum is 45 minus theirs; a unit
 * that such cages fill exactly must have sums totalling 45).
 * State (struct state): cand[x], bit d-1 set when digit d may still stand in
 * cell x (only its own digit once placed); value[x], 0 for a blank; per
 * group the sum and the number of cells still open.
 * Placing d in x clears d from x's 20 peers and from the other cells of
 * x's cage, and takes d and one cell off each of x's groups.
 * Propagation, repeated until nothing changes (every rule is sound, so
 * counts stay exact):
 *  1. naked singles; a cell with no candidate is a dead end;
 *  2. hidden singles in rows, columns and boxes; a digit with no place left
 *     in a unit is a dead end;
 *  3. groups: of the digit sets that the table lists for (open cells, sum
 *     left), keep those inside the union of the open cells' candidates that
 *     meet every open cell's candidates. None left: dead end (this is also
 *     the sum bound: the sum left must be reachable with the cells left and
 *     the digits still possible). Each open cell keeps only digits of a
 *     kept set; a digit in every kept set must go in the group: with one
 *     cell left for it, it is placed there, and when the group lies inside
 *     a row, column or box it is cleared from the rest of that unit.
 * Branching: the blank cell with the fewest candidates; each candidate is
 * tried on a copy. A node is the root or one tentative placement; the node
 * budget (nodes, and the thread's CPU clock every SEARCH_BUDGET_EVERY
 * nodes) is checked before each node.
 */
#include "budget.h"
#include "grid.h"
#include "killer.h"

#include <string.h>

/* ========================================================================
 * Search state
 * ===================================================================== */

#define ALL_DIGITS 0x1ffu
/* Cages (at most 81 once checked) and rule-of-45 rests (at most 27). */
#define MAX_GROUPS (SUDOKU_CELLS + 27)
#define NO_UNIT 0xff

/* A group, read-only during the search. Units are numbered 0-8 rows, 9-17
 * columns, 18-26 boxes; `unit` lists those holding every cell. */
struct group {
    uint8_t ncells, sum, is_cage;
    uint8_t cell[SUDOKU_SIZE];
    uint8_t unit[3];
};

/* One search, shared by every node. */
struct search {
    struct group group[MAX_GROUPS];
    unsigned ngroups;
    uint8_t groups_of[SUDOKU_CELLS][4]; /* a cage and up to 3 rests */
    uint8_t ngroups_of[SUDOKU_CELLS];
    unsigned limit, count;
    struct search_budget budget;
    uint64_t nodes, guesses;
    int out_of_budget;
    struct sudoku_grid *solution;
};

/* What a node owns; copied per branch. */
struct state {
    uint16_t cand[SUDOKU_CELLS];
    uint8_t value[SUDOKU_CELLS];
    uint8_t sum_left[MAX_GROUPS], open[MAX_GROUPS];
    uint8_t placed;
    uint32_t dirty[(MAX_GROUPS + 31) / 32]; /* groups to look at again */
};

static void mark_groups(const struct search *sr, struct state *s, unsigned x)
{
    for (unsigned i = 0; i < sr->ngroups_of[x]; i++)
        s->dirty[sr->groups_of[x][i] / 32] |= 1u << (sr->groups_of[x][i] % 32);
}

/* Keeps only the candidates `keep` of cell x; its groups are marked when
 * that changes anything. */
static void narrow(const struct search *sr, struct state *s, unsigned x,
                   unsigned keep)
{
    if (s->cand[x] & ~keep) {
        s->cand[x] = (uint16_t)(s->cand[x] & keep);
        mark_groups(sr, s, x);
    }
}

/* The cells of each unit: rows 0-8, columns 9-17, boxes 18-26. */
#define ROW(r)                                                                 \
    {                                                                          \
        9 * r, 9 * r + 1, 9 * r + 2, 9 * r + 3, 9 * r + 4, 9 * r + 5,          \
            9 * r + 6, 9 * r + 7, 9 * r + 8                                    \
    }
#define COL(c)                                                                 \
    {                                                                          \
        c, c + 9, c + 18, c + 27, c + 36, c + 45, c + 54, c + 63, c + 72       \
    }
#define BOX(b)                                                                 \
    {                                                                          \
        BOX0(b), BOX0(b) + 1, BOX0(b) + 2, BOX0(b) + 9, BOX0(b) + 10,          \
            BOX0(b) + 11, BOX0(b) + 18, BOX0(b) + 19, BOX0(b) + 20             \
    }
#define BOX0(b) (b / 3 * 27 + b % 3 * 3)
static const uint8_t unit_cells[27][9] = {
    ROW(0), ROW(1), ROW(2), ROW(3), ROW(4), ROW(5), ROW(6), ROW(7), ROW(8),
    COL(0), COL(1), COL(2), COL(3), COL(4), COL(5), COL(6), COL(7), COL(8),
    BOX(0), BOX(1), BOX(2), BOX(3), BOX(4), BOX(5), BOX(6), BOX(7), BOX(8),
};

/* Places digit d in blank cell x. Returns 0 when d is not a candidate there
 * or a group's sum goes below zero. */
static int place(const struct search *sr, struct state *s, unsigned x,
                 unsigned d)
{
    unsigned bit = 1u << (d - 1), keep = ALL_DIGITS & ~bit;
    unsigned r = x / 9, c = x % 9, b = (unsigned)grid_box((int)x);

    if (s->value[x] || !(s->cand[x] & bit))
        return 0;
    s->cand[x] = 0; /* so that x is not narrowed as its own peer */
    for (unsigned i = 0; i < 9; i++) {
        narrow(sr, s, unit_cells[r][i], keep);
        narrow(sr, s, unit_cells[9 + c][i], keep);
        narrow(sr, s, unit_cells[18 + b][i], keep);
    }
    for (unsigned i = 0; i < sr->ngroups_of[x]; i++) {
        unsigned g = sr->groups_of[x][i];
        if (s->sum_left[g] < d)
            return 0;
        s->sum_left[g] = (uint8_t)(s->sum_left[g] - d);
        s->open[g]--;
        if (sr->group[g].is_cage)
            for (unsigned j = 0; j < sr->group[g].ncells; j++)
                narrow(sr, s, sr->group[g].cell[j], keep);
    }
    mark_groups(sr, s, x);
    s->cand[x] = (uint16_t)bit;
    s->value[x] = (uint8_t)d;
    s->placed++;
    return 1;
}

/* ========================================================================
 * Propagation
 * ===================================================================== */

/* Rule 1. Returns -1 on a dead end, else whether anything was placed. */
static int naked_singles(const struct search *sr, struct state *s)
{
    int changed = 0;

    for (unsigned x = 0; x < SUDOKU_CELLS; x++) {
        unsigned m = s->cand[x];
        if (s->value[x])
            continue;
        if (m == 0)
            return -1;
        if ((m & (m - 1)) == 0) {
            if (!place(sr, s, x, (unsigned)__builtin_ctz(m) + 1))
                return -1;
            changed = 1;
        }
    }
    return changed;
}

/* Rule 2. */
static int hidden_singles(const struct search *sr, struct state *s)
{
    int changed = 0;

    for (unsigned u = 0; u < 27; u++) {
        unsigned once = 0, twice = 0, done = 0, single;
        for (unsigned i = 0; i < 9; i++) {
            unsigned x = unit_cells[u][i], m = s->cand[x];
            if (s->value[x]) {
                done |= m;
                continue;
            }
            twice |= once & m;
            once |= m;
        }
        if ((once | done) != ALL_DIGITS)
            return -1;
        single = once & ~twice & ~done;
        while (single) {
            unsigned d = (unsigned)__builtin_ctz(single);
            single &= single - 1;
            for (unsigned i = 0; i < 9; i++) {
                unsigned x = unit_cells[u][i];
                if (!s->value[x] && (s->cand[x] & (1u << d))) {
                    if (!place(sr, s, x, d + 1))
                        return -1;
                    changed = 1;
                    break;
                }
            }
        }
    }
    return changed;
}

/* The cells of a triad, the three cells one line shares with one box:
 * row r in box column k (cols = 0), or column r in box row k (cols = 1). */
static unsigned triad_cell(int cols, unsigned r, unsigned k, unsigned i)
{
    return cols ? (k * 3 + i) * 9 + r : r * 9 + k * 3 + i;
}

/* Rule 2b, locked candidates: a digit that a box holds only in one triad
 * leaves the rest of that line, and one that a line holds only in one
 * triad leaves the rest of that box. Returns whether anything changed. */
static int locked_candidates(const struct search *sr, struct state *s)
{
    int changed = 0;

    for (int cols = 0; cols < 2; cols++) {
        unsigned t[9][3];
        for (unsigned r = 0; r < 9; r++)
            for (unsigned k = 0; k < 3; k++) {
                t[r][k] = 0;
                for (unsigned i = 0; i < 3; i++) {
                    unsigned x = triad_cell(cols, r, k, i);
                    if (!s->value[x])
                        t[r][k] |= s->cand[x];
                }
            }
        for (unsigned r = 0; r < 9; r++)
            for (unsigned k = 0; k < 3; k++) {
                unsigned band = r / 3 * 3, o1 = band + (r + 1) % 3,
                         o2 = band + (r + 2) % 3;
                /* pointing: only line r holds these digits in box k */
                unsigned point = t[r][k] & ~t[o1][k] & ~t[o2][k];
                /* claiming: only box k holds these digits in line r */
                unsigned claim =
                    t[r][k] & ~t[r][(k + 1) % 3] & ~t[r][(k + 2) % 3];
                for (unsigned j = 1; j < 3 && point; j++)
                    if (t[r][(k + j) % 3] & point) {
                        for (unsigned i = 0; i < 3; i++)
                            narrow(sr, s, triad_cell(cols, r, (k + j) % 3, i),
                                   ~point);
                        changed = 1;
                    }
                for (unsigned j = 1; j < 3 && claim; j++)
                    if (t[band + (r + j) % 3][k] & claim) {
                        for (unsigned i = 0; i < 3; i++)
                            narrow(sr, s,
                                   triad_cell(cols, band + (r + j) % 3, k, i),
                                   ~claim);
                        changed = 1;
                    }
            }
    }
    return changed;
}

static int in_group(const struct search *sr, unsigned x, unsigned g)
{
    for (unsigned i = 0; i < sr->ngroups_of[x]; i++)
        if (sr->groups_of[x][i] == g)
            return 1;
    return 0;
}

/* Rule 3 on group g. */
static int group_rule(const struct search *sr, struct state *s, unsigned g)
{
    const struct group *gr = &sr->group[g];
    unsigned open[SUDOKU_SIZE], n = 0, any = 0, allowed = 0,
                                required = ALL_DIGITS, nsets;
    const uint16_t *sets;
    int changed = 0;

    if (s->open[g] == 0)
        return s->sum_left[g] == 0 ? 0 : -1;
    for (unsigned i = 0; i < gr->ncells; i++)
        if (!s->value[gr->cell[i]]) {
            open[n++] = gr->cell[i];
            any |= s->cand[gr->cell[i]];
        }
    nsets = killer_combinations((int)n, s->sum_left[g], &sets);
    for (unsigned k = 0; k < nsets; k++) {
        unsigned m = sets[k], i = 0;
        if (m & ~any)
            continue;
        while (i < n && (s->cand[open[i]] & m))
            i++;
        if (i < n)
            continue;
        allowed |= m;
        required &= m;
    }
    if (allowed == 0)
        return -1;
    for (unsigned i = 0; i < n; i++) {
        unsigned m = s->cand[open[i]] & allowed;
        if (m == 0)
            return -1;
        if (m != s->cand[open[i]]) {
            narrow(sr, s, open[i], m);
            changed = 1;
        }
    }
    for (unsigned rq = required; rq; rq &= rq - 1) {
        unsigned bit = rq & -rq, where = 0, count = 0;
        for (unsigned i = 0; i < n; i++)
            if (s->cand[open[i]] & bit)
                where = open[i], count++;
        if (count == 0)
            return -1;
        if (count == 1 && s->cand[where] != bit) {
            narrow(sr, s, where, bit);
            changed = 1;
        }
    }
    for (unsigned j = 0; j < 3 && required; j++) {
        if (gr->unit[j] == NO_UNIT)
            continue;
        for (unsigned i = 0; i < 9; i++) {
            unsigned x = unit_cells[gr->unit[j]][i];
            if (!s->value[x] && (s->cand[x] & required) &&
                !in_group(sr, x, g)) {
                narrow(sr, s, x, ~required);
                changed = 1;
            }
        }
    }
    return changed;
}

/* Rules 1-3 to a fixpoint, cheapest first, going back to the singles
 * after any change: rule 3 runs on the groups marked since it last looked
 * at them, rule 2b only when rule 3 changed nothing. Returns 0 on a dead
 * end. */
static int propagate(const struct search *sr, struct state *s)
{
    for (;;) {
        int r = naked_singles(sr, s), changed = 0;
        if (r < 0)
            return 0;
        if (r > 0)
            continue;
        if ((r = hidden_singles(sr, s)) < 0)
            return 0;
        if (r > 0)
            continue;
        for (unsigned w = 0; w < (MAX_GROUPS + 31) / 32; w++) {
            uint32_t bits = s->dirty[w];
            s->dirty[w] = 0;
            for (; bits; bits &= bits - 1) {
                r = group_rule(sr, s, w * 32 + (unsigned)__builtin_ctz(bits));
                if (r < 0)
                    return 0;
                changed |= r;
            }
        }
        if (!changed && !locked_candidates(sr, s))
            return 1;
    }
}

/* ========================================================================
 * Search
 * ===================================================================== */

static int search_done(const struct search *sr)
{
    return sr->count >= sr->limit || sr->out_of_budget;
}

/* Searches below state s (not yet propagated), which it may overwrite. */
static void search(struct search *sr, struct state *s)
{
    unsigned best = SUDOKU_CELLS, fewest = 10;

    if (search_budget_out(&sr->budget, sr->nodes)) {
        sr->out_of_budget = 1;
        return;
    }
    sr->nodes++;
    if (!propagate(sr, s))
        return;
    if (s->placed == SUDOKU_CELLS) {
        if (sr->count++ == 0 && sr->solution)
            memcpy(sr->solution->cell, s->value, SUDOKU_CELLS);
        return;
    }
    for (unsigned x = 0; x < SUDOKU_CELLS && fewest > 2; x++) {
        unsigned k = (unsigned)grid_popcount(s->cand[x]);
        if (!s->value[x] && k < fewest)
            best = x, fewest = k;
    }
    unsigned digits = s->cand[best];
    sr->guesses++;
    while (digits) {
        unsigned d = (unsigned)__builtin_ctz(digits) + 1;
        digits &= digits - 1;
        if (!digits) { /* the last candidate: no copy needed */
            if (place(sr, s, best, d))
                search(sr, s);
            return;
        }
        struct state t = *s;
        if (place(sr, &t, best, d)) {
            search(sr, &t);
            if (search_done(sr))
                return;
        }
    }
}

/* ========================================================================
 * Setup
 * ===================================================================== */

/* Adds a group of n cells; fills its units. */
static void add_group(struct search *sr, const uint8_t *cells, unsigned n,
                      unsigned sum, int is_cage)
{
    struct group *g = &sr->group[sr->ngroups];
    unsigned first = cells[0];

    g->ncells = (uint8_t)n;
    g->sum = (uint8_t)sum;
    g->is_cage = (uint8_t)is_cage;
    memcpy(g->cell, cells, n);
    g->unit[0] = (uint8_t)(first / 9);
    g->unit[1] = (uint8_t)(9 + first % 9);
    g->unit[2] = (uint8_t)(18 + grid_box(first));
    for (unsigned i = 1; i < n; i++) {
        if (cells[i] / 9 != first / 9)
            g->unit[0] = NO_UNIT;
        if (cells[i] % 9 != first % 9)
            g->unit[1] = NO_UNIT;
        if (grid_box(cells[i]) != grid_box(first))
            g->unit[2] = NO_UNIT;
    }
    for (unsigned i = 0; i < n; i++)
        sr->groups_of[cells[i]][sr->ngroups_of[cells[i]]++] =
            (uint8_t)sr->ngroups;
    sr->ngroups++;
}

/* The rule of 45: for each unit with cages wholly inside it, the rest of
 * the unit becomes a group. Returns 0 when some unit cannot add up to 45. */
static int add_rests(struct search *sr, unsigned ncages)
{
    for (unsigned u = 0; u < 27; u++) {
        uint8_t rest[SUDOKU_SIZE], inside[SUDOKU_CELLS] = {0};
        unsigned n = 0, ninside = 0;
        int sum = 45;
        for (unsigned c = 0; c < ncages; c++) {
            const struct group *g = &sr->group[c];
            if (g->unit[0] != u && g->unit[1] != u && g->unit[2] != u)
                continue;
            sum -= g->sum;
            ninside++;
            for (unsigned i = 0; i < g->ncells; i++)
                inside[g->cell[i]] = 1;
        }
        if (ninside == 0)
            continue;
        for (unsigned i = 0; i < 9; i++)
            if (!inside[unit_cells[u][i]])
                rest[n++] = (uint8_t)unit_cells[u][i];
        if (sum < 0 || (n == 0 && sum != 0))
            return 0;
        if (n > 0)
            add_group(sr, rest, n, (unsigned)sum, 0);
    }
    return 1;
}

/* Fills the search's groups and the root state; 0 when the cages or the
 * givens already rule out every solution. */
static int setup(struct search *sr, struct state *s,
                 const struct sudoku_grid *puzzle, const struct killer_cages *k)
{
    sr->ngroups = 0;
    memset(sr->ngroups_of, 0, sizeof(sr->ngroups_of));
    for (unsigned c = 0; c < k->ncages; c++) {
        const struct killer_cage *cg = &k->cage[c];
        uint8_t cells[SUDOKU_SIZE];
        for (unsigned i = 0; i < cg->ncells; i++)
            cells[i] =
                (uint8_t)(k->row[cg->first + i] * 9 + k->col[cg->first + i]);
        add_group(sr, cells, cg->ncells, (unsigned)cg->sum, 1);
    }
    if (!add_rests(sr, k->ncages))
        return 0;
    for (unsigned x = 0; x < SUDOKU_CELLS; x++) {
        s->cand[x] = ALL_DIGITS;
        s->value[x] = 0;
    }
    for (unsigned g = 0; g < sr->ngroups; g++) {
        s->sum_left[g] = sr->group[g].sum;
        s->open[g] = sr->group[g].ncells;
    }
    s->placed = 0;
    memset(s->dirty, 0, sizeof(s->dirty));
    for (unsigned g = 0; g < sr->ngroups; g++)
        s->dirty[g / 32] |= 1u << (g % 32);
    for (unsigned x = 0; x < SUDOKU_CELLS; x++)
        if (puzzle->cell[x] >= 1 && puzzle->cell[x] <= 9 &&
            !place(sr, s, x, puzzle->cell[x]))
            return 0;
    return 1;
}

enum killer_status killer_count_budget(
    const struct sudoku_grid *puzzle, const struct killer_cages *k,
    unsigned limit, const struct search_budget *budget,
    struct sudoku_grid *solution, unsigned *count, struct sudoku_stats *stats)
{
    struct search sr;
    struct state root;
    enum killer_status st;

    *count = 0;
    if (stats)
        stats->nodes = stats->guesses = 0;
    if ((st = killer_check(puzzle, k, NULL)) != KILLER_OK)
        return st;
    sr.limit = limit ? limit : 1;
    sr.count = 0;
    sr.budget = *budget;
    sr.nodes = sr.guesses = 0;
    sr.out_of_budget = 0;
    sr.solution = solution;
    if (setup(&sr, &root, puzzle, k))
        search(&sr, &root);
    *count = sr.count;
    if (stats) {
        stats->nodes = sr.nodes;
        stats->guesses = sr.guesses;
    }
    return sr.out_of_budget ? KILLER_BUDGET : KILLER_OK;
}

enum killer_status killer_count(const struct sudoku_grid *puzzle,
                                const struct killer_cages *k, unsigned limit,
                                uint64_t max_nodes,
                                struct sudoku_grid *solution, unsigned *count,
                                struct sudoku_stats *stats)
{
    struct search_budget b = {max_nodes, 0};

    return killer_count_budget(puzzle, k, limit, &b, solution, count, stats);
}
