/* logic.c - the logic engine's core: pencil marks, the simple techniques
 * (singles, locked candidates, naked and hidden subsets), and grading.
 * Method: every technique is a pure search over the candidate grid that
 * returns the first pattern (units in order rows, columns, boxes; cells and
 * digits ascending) that removes at least one candidate. logic_step tries the
 * techniques simplest first, so repeating step + apply is how a careful
 * person solves, and the hardest technique that loop needed is the grade. */
#include "clock.h"
#include "logic.h"

#include <string.h>

#include "logic_internal.h"

#define ALL_DIGITS 0x1FFu

static const char *const technique_names[LOGIC_NTECHNIQUES] = {
    "naked_single",
    "hidden_single",
    "locked_candidates_pointing",
    "locked_candidates_claiming",
    "naked_pair",
    "hidden_pair",
    "naked_triple",
    "hidden_triple",
    "naked_quad",
    "hidden_quad",
    "x_wing",
    "swordfish",
    "xy_wing",
    "xyz_wing",
    "jellyfish",
    "unique_rectangle_1",
    "unique_rectangle_2",
    "unique_rectangle_3",
    "unique_rectangle_4",
    "bug_plus_1",
    "skyscraper",
    "two_string_kite",
    "empty_rectangle",
    "finned_x_wing",
    "finned_swordfish",
    "finned_jellyfish",
    "w_wing",
    "remote_pairs",
    "xy_chain",
    "x_chain",
    "als_xz",
    "als_xy_wing",
    "aic",
    "forcing_chain",
    "cell_forcing_chain",
    "unit_forcing_chain",
    "forcing_net",
};

static const char *const level_names[LOGIC_NLEVELS] = {"easy", "medium", "hard",
                                                       "expert", "extreme"};

const char *logic_technique_name(enum logic_technique t)
{
    return (unsigned)t < LOGIC_NTECHNIQUES ? technique_names[t] : NULL;
}

const char *logic_level_name(enum logic_level l)
{
    return (unsigned)l < LOGIC_NLEVELS ? level_names[l] : NULL;
}

enum logic_level logic_rating_level(unsigned rating)
{
    return rating <= 23   ? LOGIC_EASY
           : rating <= 34 ? LOGIC_MEDIUM
           : rating <= 46 ? LOGIC_HARD
           : rating <= 74 ? LOGIC_EXPERT
                          : LOGIC_EXTREME;
}

unsigned logic_level_max_rating(enum logic_level l)
{
    static const uint8_t top[LOGIC_NLEVELS] = {23, 34, 46, 74, 120};

    return (unsigned)l < LOGIC_NLEVELS ? top[l] : 120;
}

enum logic_level logic_technique_level(enum logic_technique t)
{
    return (unsigned)t < LOGIC_NTECHNIQUES
               ? logic_rating_level(logic_technique_rating(t))
               : LOGIC_EXTREME;
}

int logic_level_parse(const char *name, enum logic_level *out)
{
    for (int l = 0; l < LOGIC_NLEVELS; l++) {
        if (strcmp(name, level_names[l]) == 0) {
            *out = (enum logic_level)l;
            return 0;
        }
    }
    return -1;
}

/* ------------------------------------------------------------------------
 * The grid
 * ------------------------------------------------------------------------ */

static void place(struct logic_grid *g, int cell, int digit)
{
    uint16_t keep = (uint16_t) ~(1u << (digit - 1));
    int r = grid_row(cell), c = grid_col(cell);
    int br = r / 3 * 3, bc = c / 3 * 3;

    g->value[cell] = (uint8_t)digit;
    g->cand[cell] = 0;
    for (int k = 0; k < 9; k++) { /* the row, the column and the box */
        g->cand[r * 9 + k] &= keep;
        g->cand[k * 9 + c] &= keep;
        g->cand[(br + k / 3) * 9 + bc + k % 3] &= keep;
    }
}

enum logic_status logic_init(struct logic_grid *g,
                             const struct sudoku_grid *board)
{
    memset(g, 0, sizeof(*g));
    for (int i = 0; i < SUDOKU_CELLS; i++)
        g->cand[i] = board->cell[i] ? 0 : ALL_DIGITS;
    for (int i = 0; i < SUDOKU_CELLS; i++)
        if (board->cell[i] >= 1 && board->cell[i] <= 9)
            place(g, i, board->cell[i]);
    return sudoku_conflicts(board, NULL, 0) > 0 ? LOGIC_CONTRADICTION
                                                : LOGIC_OK;
}

void logic_apply(struct logic_grid *g, const struct logic_step *s)
{
    for (int i = 0; i < s->nplacements; i++)
        place(g, s->placements[i].cell, s->placements[i].digit);
    for (int i = 0; i < s->neliminations; i++)
        g->cand[s->eliminations[i].cell] &=
            (uint16_t) ~(1u << (s->eliminations[i].digit - 1));
}

void logic_board(const struct logic_grid *g, struct sudoku_grid *board)
{
    memcpy(board->cell, g->value, SUDOKU_CELLS);
}

/* Every blank keeps a candidate and every unit can still get each digit
 * (one pass over the cells, every unit's digits gathered at once). */
static int consistent(const struct logic_grid *g)
{
    unsigned rows[9] = {0}, cols[9] = {0}, boxes[9] = {0}, all = ALL_DIGITS;

    for (int i = 0; i < SUDOKU_CELLS; i++) {
        unsigned m = g->value[i] ? 1u << (g->value[i] - 1) : g->cand[i];
        if (m == 0)
            return 0;
        rows[grid_row(i)] |= m;
        cols[grid_col(i)] |= m;
        boxes[grid_box(i)] |= m;
    }
    for (int k = 0; k < 9; k++)
        all &= rows[k] & cols[k] & boxes[k];
    return all == ALL_DIGITS;
}

static int placed_in(const struct logic_grid *g, int u, int digit)
{
    for (int k = 0; k < 9; k++)
        if (g->value[grid_unit_cell(u, k)] == digit)
            return 1;
    return 0;
}

/* ------------------------------------------------------------------------
 * Singles
 * ------------------------------------------------------------------------ */

static void single(struct logic_step *out, enum logic_technique t, int cell,
                   int digit)
{
    logic_step_start(out, t, (uint16_t)(1u << (digit - 1)));
    out->placements[0] = (struct logic_move){(uint8_t)cell, (uint8_t)digit};
    out->nplacements = 1;
    logic_step_cell(out, cell);
}

static int naked_single(const struct logic_grid *g, struct logic_step *out)
{
    for (int i = 0; i < SUDOKU_CELLS; i++) {
        if (g->value[i] || grid_popcount(g->cand[i]) != 1)
            continue;
        single(out, LOGIC_NAKED_SINGLE, i, __builtin_ctz(g->cand[i]) + 1);
        logic_step_unit(out, grid_row(i));
        logic_step_unit(out, 9 + grid_col(i));
        logic_step_unit(out, 18 + grid_box(i));
        return 1;
    }
    return 0;
}

static int hidden_single(const struct logic_grid *g, struct logic_step *out)
{
    for (int u = 0; u < GRID_UNITS; u++) {
        /* the digits with exactly one place in the unit, in one pass */
        unsigned once = 0, twice = 0;
        for (int k = 0; k < 9; k++) {
            unsigned c = g->cand[grid_unit_cell(u, k)];
            twice |= once & c;
            once |= c;
        }
        for (unsigned h = once & ~twice; h; h &= h - 1) {
            int d = __builtin_ctz(h) + 1;
            unsigned m = logic_positions(g, u, d);
            single(out, LOGIC_HIDDEN_SINGLE,
                   grid_unit_cell(u, __builtin_ctz(m)), d);
            logic_step_unit(out, u);
            if (u >= 18)
                out->rating = 12; /* SE: a hidden single in a box is 1.2 */
            return 1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * Locked candidates
 * ------------------------------------------------------------------------ */

/* The candidates `digit` of unit `from` all lie in unit `to`: remove the
 * digit from the cells of `to` outside `from`. Returns 1 when that removed
 * something (out filled). */
static int locked(const struct logic_grid *g, enum logic_technique t, int from,
                  int to, int digit, struct logic_step *out)
{
    unsigned bit = 1u << (digit - 1);

    logic_step_start(out, t, (uint16_t)bit);
    for (int k = 0; k < 9; k++) {
        int c = grid_unit_cell(to, k), inside = 0;
        for (int j = 0; j < 9; j++)
            inside |= grid_unit_cell(from, j) == c;
        if (!inside && (g->cand[c] & bit))
            logic_step_elim(out, c, digit);
    }
    if (out->neliminations == 0)
        return 0;
    for (int k = 0; k < 9; k++)
        if (g->cand[grid_unit_cell(from, k)] & bit)
            logic_step_cell(out, grid_unit_cell(from, k));
    logic_step_unit(out, from);
    logic_step_unit(out, to);
    return 1;
}

/* The one unit of kind `kind` (0 row, 1 column, 2 box) that holds every
 * candidate `digit` of unit u, or -1. */
static int common_unit(const struct logic_grid *g, int u, int digit, int kind)
{
    int found = -1;

    for (int k = 0; k < 9; k++) {
        int c = grid_unit_cell(u, k), w;
        if (!(g->cand[c] & (1u << (digit - 1))))
            continue;
        w = kind == 0   ? grid_row(c)
            : kind == 1 ? 9 + grid_col(c)
                        : 18 + grid_box(c);
        if (found >= 0 && found != w)
            return -1;
        found = w;
    }
    return found;
}

static int pointing(const struct logic_grid *g, struct logic_step *out)
{
    for (int u = 18; u < GRID_UNITS; u++)
        for (int d = 1; d <= 9; d++)
            for (int kind = 0; kind < 2; kind++) {
                int line = common_unit(g, u, d, kind);
                if (line >= 0 && locked(g, LOGIC_POINTING, u, line, d, out))
                    return 1;
            }
    return 0;
}

static int claiming(const struct logic_grid *g, struct logic_step *out)
{
    for (int u = 0; u < 18; u++)
        for (int d = 1; d <= 9; d++) {
            int box = common_unit(g, u, d, 2);
            if (box >= 0 && locked(g, LOGIC_CLAIMING, u, box, d, out))
                return 1;
        }
    return 0;
}

/* ------------------------------------------------------------------------
 * Naked and hidden subsets
 * ------------------------------------------------------------------------ */

static const enum logic_technique naked_kind[5] = {
    0, 0, LOGIC_NAKED_PAIR, LOGIC_NAKED_TRIPLE, LOGIC_NAKED_QUAD};
static const enum logic_technique hidden_kind[5] = {
    0, 0, LOGIC_HIDDEN_PAIR, LOGIC_HIDDEN_TRIPLE, LOGIC_HIDDEN_QUAD};

/* n cells of a unit whose candidates together are n digits: those digits
 * go nowhere else in the unit. */
static int naked_subset(const struct logic_grid *g, int n,
                        struct logic_step *out)
{
    for (int u = 0; u < GRID_UNITS; u++) {
        int cells[9], m = 0, idx[4];
        for (int k = 0; k < 9; k++) {
            int c = grid_unit_cell(u, k), pc = grid_popcount(g->cand[c]);
            if (g->value[c] == 0 && pc >= 2 && pc <= n)
                cells[m++] = c;
        }
        if (m < n)
            continue;
        for (int i = 0; i < n; i++)
            idx[i] = i;
        do {
            unsigned uni = 0;
            for (int i = 0; i < n; i++)
                uni |= g->cand[cells[idx[i]]];
            if (grid_popcount(uni) != n)
                continue;
            logic_step_start(out, naked_kind[n], (uint16_t)uni);
            for (int k = 0; k < 9; k++) {
                int c = grid_unit_cell(u, k), member = 0;
                for (int i = 0; i < n; i++)
                    member |= cells[idx[i]] == c;
                if (member)
                    continue;
                for (int d = 1; d <= 9; d++)
                    if (g->cand[c] & uni & (1u << (d - 1)))
                        logic_step_elim(out, c, d);
            }
            if (out->neliminations == 0)
                continue;
            for (int i = 0; i < n; i++)
                logic_step_cell(out, cells[idx[i]]);
            logic_step_unit(out, u);
            return 1;
        } while (grid_next_comb(idx, n, m));
    }
    return 0;
}

/* n digits of a unit that together fit in only n cells: those cells hold
 * nothing else. */
static int hidden_subset(const struct logic_grid *g, int n,
                         struct logic_step *out)
{
    for (int u = 0; u < GRID_UNITS; u++) {
        int digits[9], m = 0, idx[4];
        unsigned pos[9];
        for (int d = 1; d <= 9; d++) {
            unsigned p = logic_positions(g, u, d);
            int pc = grid_popcount(p);
            if (pc >= 2 && pc <= n && !placed_in(g, u, d)) {
                pos[m] = p;
                digits[m++] = d;
            }
        }
        if (m < n)
            continue;
        for (int i = 0; i < n; i++)
            idx[i] = i;
        do {
            unsigned where = 0, set = 0;
            for (int i = 0; i < n; i++) {
                where |= pos[idx[i]];
                set |= 1u << (digits[idx[i]] - 1);
            }
            if (grid_popcount(where) != n)
                continue;
            logic_step_start(out, hidden_kind[n], (uint16_t)set);
            for (int k = 0; k < 9; k++) {
                int c = grid_unit_cell(u, k);
                if (!(where & (1u << k)))
                    continue;
                for (int d = 1; d <= 9; d++)
                    if (g->cand[c] & ~set & (1u << (d - 1)))
                        logic_step_elim(out, c, d);
            }
            if (out->neliminations == 0)
                continue;
            for (int k = 0; k < 9; k++)
                if (where & (1u << k))
                    logic_step_cell(out, grid_unit_cell(u, k));
            logic_step_unit(out, u);
            return 1;
        } while (grid_next_comb(idx, n, m));
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * Stepping and grading
 * ------------------------------------------------------------------------ */

enum logic_status logic_step(const struct logic_grid *g, struct logic_step *out)
{
    return logic_step_budget(g, NULL, out);
}

/* The techniques up to the chains, simplest first (without the forcing
 * ones, which logic_step_budget tries last). 1 with *s set, 0 when none
 * applies, -1 when the budget ran out. */
static int find_pattern(const struct logic_grid *g,
                        const struct logic_budget *b, struct logic_step *s)
{
    unsigned cap = b != NULL && b->max_rating ? b->max_rating : 255;
    int r;

/* Tries one technique unless its base rating is over the cap. */
#define TRY(t, call)                                                           \
    do {                                                                       \
        if (logic_technique_rating(t) <= cap && (r = (call)) != 0)             \
            return r;                                                          \
    } while (0)

    /* In the order of the base ratings (SE's "simplest first"). */
    TRY(LOGIC_HIDDEN_SINGLE, hidden_single(g, s));
    TRY(LOGIC_NAKED_SINGLE, naked_single(g, s));
    TRY(LOGIC_POINTING, pointing(g, s));
    TRY(LOGIC_CLAIMING, claiming(g, s));
    TRY(LOGIC_NAKED_PAIR, naked_subset(g, 2, s));
    TRY(LOGIC_X_WING, logic_find_fish(g, 2, s));
    TRY(LOGIC_HIDDEN_PAIR, hidden_subset(g, 2, s));
    TRY(LOGIC_NAKED_TRIPLE, naked_subset(g, 3, s));
    TRY(LOGIC_SWORDFISH, logic_find_fish(g, 3, s));
    TRY(LOGIC_HIDDEN_TRIPLE, hidden_subset(g, 3, s));
    TRY(LOGIC_XY_WING, logic_find_xy_wing(g, s));
    TRY(LOGIC_XYZ_WING, logic_find_xyz_wing(g, s));
    TRY(LOGIC_UNIQUE_RECTANGLE_1, logic_find_unique_rectangle(g, s));
    TRY(LOGIC_NAKED_QUAD, naked_subset(g, 4, s));
    TRY(LOGIC_JELLYFISH, logic_find_fish(g, 4, s));
    TRY(LOGIC_HIDDEN_QUAD, hidden_subset(g, 4, s));
    TRY(LOGIC_BUG_PLUS_1, logic_find_bug(g, s));
    TRY(LOGIC_SKYSCRAPER, logic_find_turbot(g, s));
    TRY(LOGIC_FINNED_X_WING, logic_find_finned_fish(g, 2, s));
    TRY(LOGIC_W_WING, logic_find_w_wing(g, s));
    if (logic_expired(b))
        return -1;
    TRY(LOGIC_XY_CHAIN, logic_find_chain(g, LOGIC_CHAIN_XY, b, s));
    TRY(LOGIC_X_CHAIN, logic_find_chain(g, LOGIC_CHAIN_X, b, s));
    TRY(LOGIC_FINNED_SWORDFISH, logic_find_finned_fish(g, 3, s));
    TRY(LOGIC_FINNED_JELLYFISH, logic_find_finned_fish(g, 4, s));
    TRY(LOGIC_ALS_XZ, logic_find_als_xz(g, s));
    if (logic_expired(b))
        return -1;
    TRY(LOGIC_AIC, logic_find_chain(g, LOGIC_CHAIN_AIC, b, s));
    TRY(LOGIC_ALS_XY_WING, logic_find_als_xy_wing(g, s));
    TRY(LOGIC_FORCING_CHAIN, logic_find_forcing(g, b, s));
    TRY(LOGIC_FORCING_NET, logic_find_forcing_net(g, b, s));
#undef TRY
    return 0;
}

enum logic_status logic_step_budget(const struct logic_grid *g,
                                    const struct logic_budget *b,
                                    struct logic_step *out)
{
    struct logic_step s;
    int r;

    if (!consistent(g))
        return LOGIC_CONTRADICTION;
    if (grid_blanks(g->value) == 0)
        return LOGIC_SOLVED;
    r = find_pattern(g, b, &s);
    if (r < 0)
        return LOGIC_BUDGET;
    if (r == 0)
        return LOGIC_STUCK;
    *out = s;
    return LOGIC_OK;
}

enum logic_status logic_grade(const struct sudoku_grid *board,
                              struct logic_grade *out, struct logic_grid *end)
{
    return logic_grade_budget(board, NULL, out, end);
}

enum logic_status logic_grade_budget(const struct sudoku_grid *board,
                                     const struct logic_limits *lim,
                                     struct logic_grade *out,
                                     struct logic_grid *end)
{
    uint64_t max_us = lim ? lim->max_us : 0;
    unsigned max_steps = lim ? lim->max_steps : 0;
    struct logic_grid g;
    struct logic_step s;
    struct logic_budget b = {max_us ? clock_now_us() + max_us : 0,
                             lim ? lim->max_rating : 0};
    enum logic_status st;

    memset(out, 0, sizeof(*out));
    out->hardest = -1;
    out->rating = 10;
    st = logic_init(&g, board);
    /* Every step removes at least one candidate, so this ends. */
    while (st == LOGIC_OK) {
        if (max_steps && out->steps >= max_steps) {
            st = LOGIC_BUDGET;
            break;
        }
        if ((st = logic_step_budget(&g, &b, &s)) != LOGIC_OK)
            break;
        out->counts[s.technique]++;
        out->steps++;
        if (s.rating > out->rating ||
            (s.rating == out->rating && (int)s.technique > out->hardest)) {
            out->rating = s.rating;
            out->hardest = (int)s.technique;
        }
        logic_apply(&g, &s);
    }
    if (st == LOGIC_SOLVED && out->hardest < 0)
        out->rating = 10;
    out->budget_out = st == LOGIC_BUDGET;
    out->needs_guessing = st == LOGIC_STUCK || st == LOGIC_BUDGET;
    out->level = logic_rating_level(out->rating);
    if (out->hardest < 0)
        out->level = LOGIC_EASY;
    if (out->needs_guessing)
        out->level = LOGIC_EXTREME;
    out->blanks_left = grid_blanks(g.value);
    if (end != NULL)
        *end = g;
    return st == LOGIC_CONTRADICTION ? LOGIC_CONTRADICTION
           : st == LOGIC_BUDGET      ? LOGIC_BUDGET
                                     : LOGIC_OK;
}

/* ------------------------------------------------------------------------
 * The hint's fallback and the explain walk
 * ------------------------------------------------------------------------ */

int logic_fallback_step(const struct logic_grid *g,
                        const struct sudoku_grid *solution,
                        struct logic_step *out)
{
    int best = -1;

    for (int i = 0; i < SUDOKU_CELLS; i++)
        if (g->value[i] == 0 && (best < 0 || grid_popcount(g->cand[i]) <
                                                 grid_popcount(g->cand[best])))
            best = i;
    if (best < 0)
        return -1;
    memset(out, 0, sizeof(*out));
    out->nplacements = 1;
    out->placements[0].cell = (uint8_t)best;
    out->placements[0].digit = solution->cell[best];
    out->digits = (uint16_t)(1u << (solution->cell[best] - 1));
    out->ncells = 1;
    out->cells[0] = (uint8_t)best;
    return 0;
}

enum logic_status logic_walk(const struct sudoku_grid *board,
                             const struct logic_budget *b,
                             struct logic_step *steps, size_t max_steps,
                             struct logic_walk *out)
{
    struct logic_grid g;
    enum logic_status st = LOGIC_OK;
    size_t n = 0;

    out->rating = 10;
    out->hardest = -1;
    logic_init(&g, board); /* a conflict: the first step says so */
    while (n < max_steps &&
           (st = logic_step_budget(&g, b, &steps[n])) == LOGIC_OK) {
        const struct logic_step *s = &steps[n++];
        if (s->rating > out->rating ||
            (s->rating == out->rating && (int)s->technique > out->hardest)) {
            out->rating = s->rating;
            out->hardest = (int)s->technique;
        }
        logic_apply(&g, s);
    }
    out->nsteps = n;
    out->status = st;
    out->level = st != LOGIC_SOLVED ? LOGIC_EXTREME
                 : out->hardest < 0 ? LOGIC_EASY
                                    : logic_rating_level(out->rating);
    return st;
}
