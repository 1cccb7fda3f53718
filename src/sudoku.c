/* sudoku.c - parsing, rule checks and the solver behind include/sudoku.h.
 * The solver is a backtracking search over per-digit bitboards: it propagates
 * constraints to a fixpoint before every branch and copies its 120-byte state
 * per branch instead of undoing moves. No static mutable state: reentrant.
 *
 * Method
 * ------
 * State (struct bb, bit layout drawn below it): for every digit, the set of
 * cells where it may still stand (a cell holding that digit stays in its
 * set), plus the set of unsolved cells. Placing digit d in cell x clears x
 * from the other eight digits' sets and x's 20 peers from d's set: about a
 * dozen word operations, no loop over peers.
 *
 * Propagation, cheapest rule first, repeated until nothing changes; when a
 * dearer rule finds something for one digit, the cheaper ones run again
 * before it looks at the next digit. Every rule is sound, so the search
 * stays complete and counts stay exact:
 *  1. naked singles: bit-sliced counting over the nine digit sets of a band
 *     gives its cells with no candidate (dead end) and with one (placed);
 *  2. hidden singles, for each digit whose set changed: a row, column or box
 *     where the set is empty is a dead end, one where it has a single cell
 *     places the digit there;
 *  3. locked candidates: a digit fills a band (three rows) in exactly three
 *     cells, one per row and per box, so the 3x3 "triads" (one row of one
 *     box) holding it must contain one of the six 3x3 permutation patterns.
 *     Triads outside every pattern that fits are cleared; the same for the
 *     column triads of a stack. This covers pointing and claiming and more.
 * Branching: the unsolved cell with the fewest candidates (the first cell
 * with two when there is one); every candidate but the last is tried on a
 * copy of the state, the last one in place. A node is the root or one
 * tentative placement; the node budget is checked before each node.
 */
#include "sudoku.h"

#include <string.h>

/* ========================================================================
 * Text and rules
 * ===================================================================== */

enum sudoku_status sudoku_parse(const char *text, size_t len,
                                struct sudoku_grid *out, size_t *bad_index)
{
    struct sudoku_grid g;

    if (len != SUDOKU_CELLS)
        return SUDOKU_BAD_LENGTH;
    for (size_t i = 0; i < SUDOKU_CELLS; i++) {
        char ch = text[i];
        if (ch == '.' || ch == '0') {
            g.cell[i] = 0;
        } else if (ch >= '1' && ch <= '9') {
            g.cell[i] = (uint8_t)(ch - '0');
        } else {
            if (bad_index)
                *bad_index = i;
            return SUDOKU_BAD_CHAR;
        }
    }
    *out = g;
    return SUDOKU_OK;
}

void sudoku_format(const struct sudoku_grid *g, char out[SUDOKU_CELLS + 1])
{
    for (size_t i = 0; i < SUDOKU_CELLS; i++) {
        uint8_t v = g->cell[i];
        out[i] = (v >= 1 && v <= 9) ? (char)('0' + v) : '.';
    }
    out[SUDOKU_CELLS] = '\0';
}

/* Cell number `i` (0-8) of unit `index` of type `unit`. */
static unsigned unit_cell(enum sudoku_unit unit, unsigned index, unsigned i)
{
    switch (unit) {
    case SUDOKU_ROW:
        return index * 9 + i;
    case SUDOKU_COLUMN:
        return i * 9 + index;
    default:
        return (index / 3 * 3 + i / 3) * 9 + index % 3 * 3 + i % 3;
    }
}

/* The quick test: 1 when some digit repeats in a unit, else 0. */
static int has_repeat(const struct sudoku_grid *g)
{
    uint16_t rows[9] = {0}, cols[9] = {0}, boxes[9] = {0};

    for (unsigned r = 0; r < 9; r++) {
        for (unsigned c = 0; c < 9; c++) {
            unsigned v = g->cell[r * 9 + c], b = r / 3 * 3 + c / 3;
            if (v == 0 || v > 9)
                continue;
            uint16_t bit = (uint16_t)(1u << v);
            if ((rows[r] | cols[c] | boxes[b]) & bit)
                return 1;
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
    }
    return 0;
}

size_t sudoku_conflicts(const struct sudoku_grid *g,
                        struct sudoku_conflict *out, size_t max)
{
    static const enum sudoku_unit units[3] = {SUDOKU_ROW, SUDOKU_COLUMN,
                                              SUDOKU_BOX};
    size_t total = 0;

    if (!has_repeat(g))
        return 0;
    for (unsigned u = 0; u < 3; u++) {
        for (unsigned index = 0; index < 9; index++) {
            for (unsigned digit = 1; digit <= 9; digit++) {
                struct sudoku_conflict c = {
                    units[u], (uint8_t)index, (uint8_t)digit, 0, {0}};
                /* Unit cells come in increasing cell order for all three
                 * unit types, so `cells` ends up sorted. */
                for (unsigned i = 0; i < 9; i++) {
                    unsigned cell = unit_cell(units[u], index, i);
                    if (g->cell[cell] == digit)
                        c.cells[c.ncells++] = (uint8_t)cell;
                }
                if (c.ncells < 2)
                    continue;
                if (total < max)
                    out[total] = c;
                total++;
            }
        }
    }
    return total;
}

int sudoku_is_solution_of(const struct sudoku_grid *puzzle,
                          const struct sudoku_grid *solution)
{
    for (unsigned i = 0; i < SUDOKU_CELLS; i++) {
        uint8_t v = solution->cell[i];
        if (v < 1 || v > 9)
            return 0;
        if (puzzle->cell[i] != 0 && puzzle->cell[i] != v)
            return 0;
    }
    return sudoku_conflicts(solution, NULL, 0) == 0;
}

/* ========================================================================
 * Bitboards
 *
 * A band is three rows; cell (r, c) is bit (r % 3) * 9 + c of band r / 3,
 * so cell index i = 27 * band + bit:
 *
 *    bit  26 ......... 18 | 17 ......... 9 | 8 .......... 0
 *         row 3b+2, c8-c0 | row 3b+1       | row 3b, c8-c0
 *
 * cand[b][0..8] are the nine digits' cells in band b, next to each other so
 * that clearing a cell from all digits touches one cache line. A "triad" is
 * the three cells of one row inside one box; its lowest bit is
 * 9 * row + 3 * box, so TRIAD_LOW marks the nine triads of a band.
 * ===================================================================== */

#define BAND_ALL 0x7FFFFFFu  /* 27 cells */
#define ROW_BITS 0x1FFu      /* row 0 of a band */
#define COL_BITS 0x40201u    /* column 0 of a band: bits 0, 9, 18 */
#define BOX_BITS 0x1C0E07u   /* box 0 of a band */
#define TRIAD_LOW 0x1249249u /* bits 0, 3, ..., 24 */

struct bb {
    uint32_t cand[3][9]; /* cand[b][d]: cells of band b where digit d+1 may
                            stand, its placed cell included */
    uint32_t unsolved[3];
    uint32_t pad; /* keeps the size a multiple of 8: 120 bytes */
};

/* The peers of a cell inside its own band (row, box and column, the cell
 * itself included), by bit number. */
#define OWN(r, c)                                                              \
    ((COL_BITS << (c)) | (ROW_BITS << (9 * (r))) |                             \
     (BOX_BITS << (3 * ((c) / 3))))
#define OWN_ROW(r)                                                             \
    OWN(r, 0), OWN(r, 1), OWN(r, 2), OWN(r, 3), OWN(r, 4), OWN(r, 5),          \
        OWN(r, 6), OWN(r, 7), OWN(r, 8)
static const uint32_t own_peers[27] = {OWN_ROW(0), OWN_ROW(1), OWN_ROW(2)};

#define COL_ROW                                                                \
    COL_BITS, COL_BITS << 1, COL_BITS << 2, COL_BITS << 3, COL_BITS << 4,      \
        COL_BITS << 5, COL_BITS << 6, COL_BITS << 7, COL_BITS << 8
static const uint32_t col_peers[27] = {COL_ROW, COL_ROW, COL_ROW};

/* The six ways a digit can fill a band: one triad per row and per box. */
#define PERM(a, b, c)                                                          \
    ((1u << (3 * (a))) | (1u << (9 + 3 * (b))) | (1u << (18 + 3 * (c))))
static const uint32_t band_perms[6] = {PERM(0, 1, 2), PERM(0, 2, 1),
                                       PERM(1, 0, 2), PERM(1, 2, 0),
                                       PERM(2, 0, 1), PERM(2, 1, 0)};

/* The six ways a digit can fill a stack: bit 3 * band + column in stack. */
#define SPERM(a, b, c) ((1u << (a)) | (1u << (3 + (b))) | (1u << (6 + (c))))
static const uint32_t stack_perms[6] = {SPERM(0, 1, 2), SPERM(0, 2, 1),
                                        SPERM(1, 0, 2), SPERM(1, 2, 0),
                                        SPERM(2, 0, 1), SPERM(2, 1, 0)};

static inline unsigned ctz32(uint32_t x)
{
    return (unsigned)__builtin_ctz(x);
}

/* Places digit d (0-8) in cell `bit` of band k when no other digit's set
 * holds the cell (a naked single, or after bb_place has cleared it): only
 * d's set changes. */
static inline void bb_place_only(struct bb *s, unsigned d, unsigned k,
                                 unsigned bit)
{
    uint32_t b = 1u << bit;
    uint32_t col = col_peers[bit];

    s->cand[0][d] &= ~col;
    s->cand[1][d] &= ~col;
    s->cand[2][d] &= ~col;
    s->cand[k][d] &= ~own_peers[bit];
    s->cand[k][d] |= b;
    s->unsolved[k] &= ~b;
}

/* Places digit d (0-8) in cell `bit` of band k. The caller has checked that
 * d is still a candidate there. Returns the digits whose sets changed. */
static inline unsigned bb_place(struct bb *s, unsigned d, unsigned k,
                                unsigned bit)
{
    uint32_t b = 1u << bit;
    unsigned changed = 1u << d;

#pragma GCC unroll 9
    for (unsigned e = 0; e < 9; e++) {
        changed |= ((s->cand[k][e] >> bit) & 1u) << e;
        s->cand[k][e] &= ~b;
    }
    bb_place_only(s, d, k, bit);
    return changed;
}

/* ========================================================================
 * Propagation
 * ===================================================================== */

/* Places every naked single. Returns -1 on a dead end, else the number of
 * cells placed; *dirty collects the digits whose sets changed. The singles
 * of a band are placed digit by digit: placing d touches only d's set, so
 * the other digits' singles stay as found; two singles of d that see each
 * other clear one another, which the check after the placements catches.
 * All nine digits are looked at, unrolled: stopping once the band's singles
 * were all placed cost more in branches than it saved. */
static int naked_singles(struct bb *s, unsigned *dirty)
{
    int placed = 0;

    for (unsigned k = 0; k < 3; k++) {
        const uint32_t *c = s->cand[k];
        uint32_t one = c[0], two = 0;
        two |= one & c[1], one |= c[1];
        two |= one & c[2], one |= c[2];
        two |= one & c[3], one |= c[3];
        two |= one & c[4], one |= c[4];
        two |= one & c[5], one |= c[5];
        two |= one & c[6], one |= c[6];
        two |= one & c[7], one |= c[7];
        two |= one & c[8], one |= c[8];
        if (s->unsolved[k] & ~one)
            return -1;
        uint32_t single = s->unsolved[k] & ~two;
        if (!single)
            continue;
#pragma GCC unroll 9
        for (unsigned d = 0; d < 9; d++) {
            uint32_t m = single & s->cand[k][d];
            if (!m)
                continue;
            for (uint32_t x = m; x; x &= x - 1, placed++)
                bb_place_only(s, d, k, ctz32(x));
            if ((s->cand[k][d] & m) != m)
                return -1;
            *dirty |= 1u << d;
        }
    }
    return placed;
}

/* x when it has exactly one bit, else 0 (x == 0 gives 0). */
static inline uint32_t lone(uint32_t x)
{
    return (x & (x - 1)) ? 0 : x;
}

/* Hidden singles of digit d. Returns -1 on a dead end, else the number of
 * cells placed. Branch-free up to the placements: the data decides too
 * many branches here for a predictor to learn. */
static int hidden_singles(struct bb *s, unsigned d, unsigned *dirty)
{
    uint32_t hs[3], one = 0, two = 0, empty = 0;

#pragma GCC unroll 3
    for (unsigned k = 0; k < 3; k++) {
        uint32_t w = s->cand[k][d];
        uint32_t r0 = w & ROW_BITS, r1 = (w >> 9) & ROW_BITS, r2 = w >> 18;
        uint32_t b0 = w & BOX_BITS, b1 = w & (BOX_BITS << 3),
                 b2 = w & (BOX_BITS << 6);
        empty |= !r0 | !r1 | !r2 | !b0 | !b1 | !b2;
        hs[k] = lone(r0) | (lone(r1) << 9) | (lone(r2) << 18) | lone(b0) |
                lone(b1) | lone(b2);
        two |= one & r0, one |= r0;
        two |= one & r1, one |= r1;
        two |= one & r2, one |= r2;
    }
    if (empty | (one != ROW_BITS))
        return -1;
    uint32_t cols = (one & ~two) * COL_BITS;

    int placed = 0;
    for (unsigned k = 0; k < 3; k++) {
        uint32_t m = (hs[k] | (s->cand[k][d] & cols)) & s->unsolved[k];
        while (m) {
            unsigned bit = ctz32(m);
            m &= m - 1;
            /* An earlier placement may have cleared this cell for d, or
             * filled it: the next pass then finds the dead end, if any. */
            if ((s->cand[k][d] & s->unsolved[k]) >> bit & 1u) {
                *dirty |= bb_place(s, d, k, bit);
                placed++;
            }
        }
    }
    return placed;
}

/* Band locked candidates of digit d. Returns -1 on a dead end, else 1 when
 * it cleared a candidate, 0 when not. */
static int band_locked(struct bb *s, unsigned d)
{
    int changed = 0;

    for (unsigned k = 0; k < 3; k++) {
        uint32_t w = s->cand[k][d];
        uint32_t occ = (w | (w >> 1) | (w >> 2)) & TRIAD_LOW;
        uint32_t fit = 0;
        for (unsigned p = 0; p < 6; p++)
            if ((occ & band_perms[p]) == band_perms[p])
                fit |= band_perms[p];
        if (!fit)
            return -1;
        if (occ != fit) {
            s->cand[k][d] = w & (fit * 7u);
            changed = 1;
        }
    }
    /* The same in the stacks (three columns): cell (band k, column 3j+t)
     * of the 3x3 pattern of stack j is bit 3k+t. */
    uint32_t colocc[3];
    for (unsigned k = 0; k < 3; k++) {
        uint32_t w = s->cand[k][d];
        colocc[k] = (w | (w >> 9) | (w >> 18)) & ROW_BITS;
    }
    for (unsigned j = 0; j < 3; j++) {
        uint32_t occ = ((colocc[0] >> (3 * j)) & 7u) |
                       (((colocc[1] >> (3 * j)) & 7u) << 3) |
                       (((colocc[2] >> (3 * j)) & 7u) << 6);
        uint32_t fit = 0;
        for (unsigned p = 0; p < 6; p++)
            if ((occ & stack_perms[p]) == stack_perms[p])
                fit |= stack_perms[p];
        if (!fit)
            return -1;
        if (occ == fit)
            continue;
        changed = 1;
        for (unsigned k = 0; k < 3; k++) {
            uint32_t gone = (occ & ~fit) >> (3 * k) & 7u;
            for (; gone; gone &= gone - 1)
                s->cand[k][d] &= ~(COL_BITS << (3 * j + ctz32(gone)));
        }
    }
    return changed;
}

/* Runs the rules to a fixpoint, cheapest first: naked singles until none,
 * then hidden singles, then locked candidates, each time only for the
 * digits whose sets changed since that rule last looked at them (`dirty` at
 * the start). The first digit for which a dearer rule finds something sends
 * the loop back to the cheaper ones, the digits not yet looked at staying
 * due: what one placement sets off is mostly naked singles, and looking at
 * every due digit first was wasted work (on the core issue's example, 25
 * calls of hidden_singles of which 19 placed nothing; now 8, and the solve
 * takes a third less time). Returns 0 on a dead end, else 1. */
static int bb_propagate(struct bb *s, unsigned dirty)
{
    unsigned hidden_todo = dirty, locked_todo = dirty;

    for (;;) {
        unsigned changed = 0;
        int n = naked_singles(s, &changed);
        if (n < 0)
            return 0;
        hidden_todo |= changed;
        locked_todo |= changed;
        /* Solved: every placement kept the rules (a cell is placed only
         * while its digit is a candidate), so nothing more can be found. */
        if (!(s->unsolved[0] | s->unsolved[1] | s->unsolved[2]))
            return 1;
        if (n > 0)
            continue;
        n = 0;
        while (hidden_todo && n == 0) {
            unsigned d = ctz32(hidden_todo);
            hidden_todo &= hidden_todo - 1;
            n = hidden_singles(s, d, &changed);
            if (n < 0)
                return 0;
        }
        if (n > 0) {
            hidden_todo |= changed;
            locked_todo |= changed;
            continue;
        }
        while (locked_todo && n == 0) {
            unsigned d = ctz32(locked_todo);
            locked_todo &= locked_todo - 1;
            n = band_locked(s, d);
            if (n < 0)
                return 0;
            if (n > 0) {
                hidden_todo |= 1u << d;
                locked_todo |= 1u << d;
            }
        }
        if (n == 0)
            return 1;
    }
}

/* ========================================================================
 * Search
 * ===================================================================== */

struct search {
    unsigned limit;
    unsigned count;
    int out_of_budget;
    uint64_t max_nodes; /* 0: no bound */
    uint64_t nodes;
    uint64_t guesses;
    struct sudoku_grid *solution;
};

static void bb_extract(const struct bb *s, struct sudoku_grid *g)
{
    for (unsigned d = 0; d < 9; d++)
        for (unsigned k = 0; k < 3; k++)
            for (uint32_t w = s->cand[k][d]; w; w &= w - 1)
                g->cell[27 * k + ctz32(w)] = (uint8_t)(d + 1);
}

/* Picks the unsolved cell with the fewest candidates; returns its digit mask
 * and stores its place in *band, *bit. The state has at least one unsolved
 * cell and none without candidates. */
static unsigned bb_choose(const struct bb *s, unsigned *band, unsigned *bit)
{
    uint32_t one[3], two[3], three[3];

    for (unsigned k = 0; k < 3; k++) {
        one[k] = two[k] = three[k] = 0;
        for (unsigned d = 0; d < 9; d++) {
            uint32_t x = s->cand[k][d];
            three[k] |= two[k] & x;
            two[k] |= one[k] & x;
            one[k] |= x;
        }
    }
    unsigned best = 10, bk = 0, bb = 0;
    for (unsigned k = 0; k < 3; k++) {
        uint32_t pair = s->unsolved[k] & ~three[k];
        if (pair) {
            best = 2, bk = k, bb = ctz32(pair);
            break;
        }
    }
    for (unsigned k = 0; k < 3 && best > 2; k++) {
        for (uint32_t m = s->unsolved[k]; m; m &= m - 1) {
            unsigned b = ctz32(m), n = 0;
            for (unsigned d = 0; d < 9; d++)
                n += (s->cand[k][d] >> b) & 1u;
            if (n < best)
                best = n, bk = k, bb = b;
        }
    }
    unsigned digits = 0;
    for (unsigned d = 0; d < 9; d++)
        digits |= ((s->cand[bk][d] >> bb) & 1u) << d;
    *band = bk;
    *bit = bb;
    return digits;
}

static int search_done(const struct search *sr)
{
    return sr->count >= sr->limit || sr->out_of_budget;
}

/* Searches below the propagated state s, which it may overwrite. */
static void search(struct search *sr, struct bb *s)
{
    for (;;) {
        if (!(s->unsolved[0] | s->unsolved[1] | s->unsolved[2])) {
            if (sr->count++ == 0 && sr->solution)
                bb_extract(s, sr->solution);
            return;
        }
        unsigned k, bit;
        unsigned digits = bb_choose(s, &k, &bit);
        if (digits & (digits - 1))
            sr->guesses++;
        for (;;) {
            unsigned d = ctz32(digits);
            digits &= digits - 1;
            if (sr->max_nodes && sr->nodes >= sr->max_nodes) {
                sr->out_of_budget = 1;
                return;
            }
            sr->nodes++;
            if (!digits) { /* the last candidate: no copy needed */
                unsigned dirty = bb_place(s, d, k, bit);
                if (!bb_propagate(s, dirty))
                    return;
                break;
            }
            struct bb t = *s;
            unsigned dirty = bb_place(&t, d, k, bit);
            if (bb_propagate(&t, dirty)) {
                search(sr, &t);
                if (search_done(sr))
                    return;
            }
        }
    }
}

enum sudoku_status sudoku_count(const struct sudoku_grid *puzzle,
                                unsigned limit, uint64_t max_nodes,
                                struct sudoku_grid *solution, unsigned *count,
                                struct sudoku_stats *stats)
{
    struct search sr = {limit ? limit : 1, 0, 0, max_nodes, 1, 0, solution};
    struct bb s;
    uint32_t taken[3] = {0, 0, 0}, mine[3][9] = {{0}};
    int alive = 1;

    for (unsigned d = 0; d < 9; d++)
        for (unsigned k = 0; k < 3; k++)
            s.cand[k][d] = BAND_ALL;
    s.unsolved[0] = s.unsolved[1] = s.unsolved[2] = BAND_ALL;
    s.pad = 0;
    /* The givens: each clears its peers from its digit's set (a digit a
     * peer already holds, or one outside 1-9, breaks a rule and leaves no
     * solution); then every given cell is cleared from the other digits'
     * sets at once. */
    for (unsigned k = 0; k < 3 && alive; k++) {
        const uint8_t *cell = puzzle->cell + 27 * k;
        for (unsigned bit = 0; bit < 27; bit++) {
            unsigned v = cell[bit];
            if (v == 0)
                continue;
            unsigned d = v - 1;
            if (v > 9 || !((s.cand[k][d] >> bit) & 1u)) {
                alive = 0;
                break;
            }
            bb_place_only(&s, d, k, bit);
            taken[k] |= 1u << bit;
            mine[k][d] |= 1u << bit;
        }
    }
    for (unsigned k = 0; k < 3; k++)
        for (unsigned d = 0; d < 9; d++)
            s.cand[k][d] &= ~taken[k] | mine[k][d];
    if (alive && bb_propagate(&s, 0x1FF))
        search(&sr, &s);

    *count = sr.count;
    if (stats) {
        stats->nodes = sr.nodes;
        stats->guesses = sr.guesses;
    }
    return sr.out_of_budget ? SUDOKU_BUDGET : SUDOKU_OK;
}

enum sudoku_status sudoku_solve(const struct sudoku_grid *puzzle,
                                uint64_t max_nodes,
                                struct sudoku_grid *solution, int *solved,
                                struct sudoku_stats *stats)
{
    unsigned count = 0;
    enum sudoku_status st =
        sudoku_count(puzzle, 1, max_nodes, solution, &count, stats);
    *solved = count > 0;
    return st;
}
