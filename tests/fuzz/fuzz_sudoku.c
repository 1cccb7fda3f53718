/* fuzz_sudoku.c - libFuzzer target for the solver library
 * (include/engine/sudoku.h). Every input is read three ways: as raw text for
 * sudoku_parse, as a board (its first 81 bytes mapped onto '.', '0'-'9')
 * checked against the contract and against a small independent solver, and,
 * past byte 81, as raw cell values 0-15. Any broken invariant is
 * __builtin_trap(). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sudoku.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Small enough that one input stays around a millisecond even when it uses
 * the whole budget: every puzzle of tests/data counts to two in at most
 * 2,054 nodes, so real puzzles still finish inside it. */
#define FUZZ_MAX_NODES 10000
#define REF_MAX_NODES 10000

/* The reference checks are plain code, not the code under test: keeping
 * coverage instrumentation out of them keeps them fast and keeps their
 * branches out of the fuzzer's idea of progress (noinline: an inlined copy
 * would be instrumented as part of its caller). */
#define NOT_FUZZED __attribute__((noinline, no_sanitize("coverage")))

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond))                                                           \
            __builtin_trap();                                                  \
    } while (0)

static int valid_char(uint8_t ch)
{
    return ch == '.' || (ch >= '0' && ch <= '9');
}

/* ------------------------------------------------------------------------
 * Reference: a plain bitmask backtracking counter, nothing shared with
 * src/engine/sudoku.c but the grid type. Fewest-candidates cell first; gives up
 * (returns -1) after REF_MAX_NODES placements so slow boards are skipped.
 * ------------------------------------------------------------------------ */

struct ref {
    uint8_t cell[SUDOKU_CELLS];
    uint16_t row[9], col[9], box[9]; /* bit d: digit d is used */
    unsigned nodes, count, limit;
};

static unsigned box_of(unsigned i)
{
    return i / 27 * 3 + i % 9 / 3;
}

NOT_FUZZED static int ref_search(struct ref *r)
{
    unsigned best = SUDOKU_CELLS, best_n = 10;
    uint16_t best_free = 0;

    for (unsigned i = 0; i < SUDOKU_CELLS; i++) {
        if (r->cell[i])
            continue;
        uint16_t free =
            (uint16_t)(~(r->row[i / 9] | r->col[i % 9] | r->box[box_of(i)]) &
                       0x3FE);
        unsigned n = (unsigned)__builtin_popcount(free);
        if (n < best_n) {
            best = i, best_n = n, best_free = free;
            if (n == 0)
                return 0;
        }
    }
    if (best == SUDOKU_CELLS)
        return ++r->count >= r->limit;
    for (unsigned d = 1; d <= 9; d++) {
        uint16_t bit = (uint16_t)(1u << d);
        if (!(best_free & bit))
            continue;
        if (++r->nodes > REF_MAX_NODES)
            return -1;
        r->cell[best] = (uint8_t)d;
        r->row[best / 9] |= bit, r->col[best % 9] |= bit;
        r->box[box_of(best)] |= bit;
        int done = ref_search(r);
        r->row[best / 9] &= (uint16_t)~bit, r->col[best % 9] &= (uint16_t)~bit;
        r->box[box_of(best)] &= (uint16_t)~bit;
        r->cell[best] = 0;
        if (done)
            return done;
    }
    return 0;
}

/* Solutions of a conflict-free board, up to 2; -1 when out of budget. */
NOT_FUZZED static int ref_count(const struct sudoku_grid *g)
{
    struct ref r;

    memset(&r, 0, sizeof(r));
    r.limit = 2;
    for (unsigned i = 0; i < SUDOKU_CELLS; i++) {
        unsigned d = g->cell[i];
        if (d == 0)
            continue;
        r.cell[i] = (uint8_t)d;
        r.row[i / 9] |= (uint16_t)(1u << d);
        r.col[i % 9] |= (uint16_t)(1u << d);
        r.box[box_of(i)] |= (uint16_t)(1u << d);
    }
    return ref_search(&r) < 0 ? -1 : (int)r.count;
}

/* ------------------------------------------------------------------------
 * Checks
 * ------------------------------------------------------------------------ */

/* sudoku_parse on bytes as they come: length rule, first bad index, and
 * *out untouched on failure. */
static void check_parse_raw(const uint8_t *data, size_t size)
{
    struct sudoku_grid g, canary;
    size_t bad = (size_t)-1;
    enum sudoku_status st;

    memset(&canary, 0xA5, sizeof(canary));
    g = canary;
    st = sudoku_parse((const char *)data, size, &g, &bad);
    if (size != SUDOKU_CELLS) {
        CHECK(st == SUDOKU_BAD_LENGTH);
        CHECK(memcmp(&g, &canary, sizeof(g)) == 0);
        return;
    }
    size_t first = SUDOKU_CELLS;
    for (size_t i = 0; i < SUDOKU_CELLS && first == SUDOKU_CELLS; i++)
        if (!valid_char(data[i]))
            first = i;
    if (first < SUDOKU_CELLS) {
        CHECK(st == SUDOKU_BAD_CHAR && bad == first);
        CHECK(memcmp(&g, &canary, sizeof(g)) == 0);
        CHECK(sudoku_parse((const char *)data, size, &g, NULL) ==
              SUDOKU_BAD_CHAR);
        return;
    }
    CHECK(st == SUDOKU_OK);
    for (size_t i = 0; i < SUDOKU_CELLS; i++)
        CHECK(g.cell[i] == (data[i] == '.' ? 0 : data[i] - '0'));
}

/* Conflicts as the header defines them: (unit, index, digit) triples that
 * hold a digit twice or more, tallied cell by cell. */
NOT_FUZZED static size_t naive_conflicts(const struct sudoku_grid *g)
{
    unsigned k[3][9][10];
    size_t n = 0;

    memset(k, 0, sizeof(k));
    for (unsigned i = 0; i < SUDOKU_CELLS; i++) {
        k[0][i / 9][g->cell[i]]++;
        k[1][i % 9][g->cell[i]]++;
        k[2][box_of(i)][g->cell[i]]++;
    }
    for (unsigned u = 0; u < 3; u++)
        for (unsigned idx = 0; idx < 9; idx++)
            for (unsigned d = 1; d <= 9; d++)
                n += k[u][idx][d] >= 2;
    return n;
}

static size_t check_conflicts(const struct sudoku_grid *g)
{
    struct sudoku_conflict all[3 * 9 * 9], one[1];
    size_t n = sudoku_conflicts(g, all, sizeof(all) / sizeof(all[0]));

    CHECK(n == naive_conflicts(g));
    CHECK(sudoku_conflicts(g, NULL, 0) == n);
    CHECK(sudoku_conflicts(g, one, 1) == n);
    if (n > 0)
        CHECK(memcmp(&one[0], &all[0], sizeof(one[0])) == 0);
    for (size_t k = 0; k < n; k++) {
        const struct sudoku_conflict *c = &all[k];
        CHECK(c->unit <= SUDOKU_BOX && c->index < 9);
        CHECK(c->digit >= 1 && c->digit <= 9);
        CHECK(c->ncells >= 2 && c->ncells <= 9);
        if (k > 0) { /* rows, columns, boxes, then digit */
            const struct sudoku_conflict *p = &all[k - 1];
            CHECK(p->unit < c->unit ||
                  (p->unit == c->unit &&
                   (p->index < c->index ||
                    (p->index == c->index && p->digit < c->digit))));
        }
        for (unsigned j = 0; j < c->ncells; j++) {
            unsigned i = c->cells[j];
            unsigned unit = c->unit == SUDOKU_ROW      ? i / 9
                            : c->unit == SUDOKU_COLUMN ? i % 9
                                                       : box_of(i);
            CHECK(i < SUDOKU_CELLS && g->cell[i] == c->digit);
            CHECK(unit == c->index);
            CHECK(j == 0 || c->cells[j - 1] < i);
        }
    }
    return n;
}

/* A complete solution stops being one when any single cell changes. */
static void check_solution_is_tight(const struct sudoku_grid *puzzle,
                                    const struct sudoku_grid *sol,
                                    unsigned cell)
{
    struct sudoku_grid t = *sol;

    CHECK(sudoku_is_solution_of(puzzle, sol));
    CHECK(sudoku_is_solution_of(sol, sol));
    t.cell[cell] = 0;
    CHECK(!sudoku_is_solution_of(puzzle, &t));
    t.cell[cell] = (uint8_t)(sol->cell[cell] % 9 + 1);
    CHECK(!sudoku_is_solution_of(puzzle, &t));
}

static void check_board(const struct sudoku_grid *g, unsigned pick)
{
    struct sudoku_grid sol, sol1, again;
    struct sudoku_stats stats = {0, 0}, stats1 = {0, 0};
    unsigned count = 99, blanks = 0;
    enum sudoku_status st;
    char text[SUDOKU_CELLS + 1];
    int solved = -1;

    /* format and parse are inverses */
    sudoku_format(g, text);
    CHECK(text[SUDOKU_CELLS] == '\0');
    CHECK(sudoku_parse(text, SUDOKU_CELLS, &again, NULL) == SUDOKU_OK);
    CHECK(memcmp(&again, g, sizeof(again)) == 0);
    for (unsigned i = 0; i < SUDOKU_CELLS; i++)
        blanks += g->cell[i] == 0;

    if (check_conflicts(g) > 0) {
        st = sudoku_count(g, 2, FUZZ_MAX_NODES, &sol, &count, &stats);
        CHECK(st == SUDOKU_OK && count == 0);
        CHECK(!sudoku_is_solution_of(g, g));
        return;
    }
    st = sudoku_count(g, 2, FUZZ_MAX_NODES, &sol, &count, &stats);
    CHECK(st == SUDOKU_OK || st == SUDOKU_BUDGET);
    CHECK(count <= 2);
    CHECK(stats.nodes >= 1 && stats.nodes <= FUZZ_MAX_NODES);
    CHECK(stats.guesses <= stats.nodes);
    if (blanks == 0) /* a full conflict-free board is its own only solution */
        CHECK(st == SUDOKU_OK && count == 1 &&
              memcmp(&sol, g, sizeof(sol)) == 0);
    if (count > 0)
        check_solution_is_tight(g, &sol, pick % SUDOKU_CELLS);

    /* limit 1 follows the same path and stops at the same first solution */
    enum sudoku_status st1 =
        sudoku_solve(g, FUZZ_MAX_NODES, &sol1, &solved, &stats1);
    if (count > 0) {
        CHECK(st1 == SUDOKU_OK && solved == 1);
        CHECK(memcmp(&sol1, &sol, sizeof(sol)) == 0);
        CHECK(stats1.nodes <= stats.nodes);
    } else if (st == SUDOKU_OK) {
        CHECK(st1 == SUDOKU_OK && solved == 0);
    }

    /* no budget at all vs a budget of 1 node: the root alone */
    if (st == SUDOKU_OK && stats.nodes == 1) {
        unsigned c1 = 99;
        CHECK(sudoku_count(g, 2, 1, NULL, &c1, NULL) == SUDOKU_OK);
        CHECK(c1 == count);
    }

    /* a unique solution, solved again, is unique too */
    if (st == SUDOKU_OK && count == 1) {
        unsigned c2 = 99;
        CHECK(sudoku_count(&sol, 2, FUZZ_MAX_NODES, NULL, &c2, NULL) ==
                  SUDOKU_OK &&
              c2 == 1);
    }

    /* differential: an exact count from the reference must agree */
    if (st == SUDOKU_OK) {
        int ref = ref_count(g);
        if (ref >= 0)
            CHECK((unsigned)ref == count);
    }
}

/* Cell values straight from the bytes, 0-15: sudoku_count documents that
 * a value outside 1-9 leaves the puzzle without solutions. */
static void check_raw_cells(const uint8_t *data)
{
    struct sudoku_grid g, sol;
    unsigned count = 99, out_of_range = 0;
    enum sudoku_status st;

    for (unsigned i = 0; i < SUDOKU_CELLS; i++) {
        g.cell[i] = (uint8_t)(data[i] & 0x0F);
        out_of_range += g.cell[i] > 9;
    }
    st = sudoku_count(&g, 2, FUZZ_MAX_NODES, &sol, &count, NULL);
    CHECK(st == SUDOKU_OK || st == SUDOKU_BUDGET);
    if (out_of_range) {
        CHECK(count == 0);
        CHECK(!sudoku_is_solution_of(&g, &g));
    }
    if (count > 0)
        CHECK(sudoku_is_solution_of(&g, &sol));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sudoku_grid g;
    char text[SUDOKU_CELLS];
    unsigned pick = 0;

    check_parse_raw(data, size);
    if (size < SUDOKU_CELLS)
        return 0;
    check_parse_raw(data, SUDOKU_CELLS);

    /* Board characters are kept; any other byte becomes '0' (a blank) or a
     * digit, so both sparse and crowded boards are reachable. */
    for (unsigned i = 0; i < SUDOKU_CELLS; i++) {
        text[i] =
            valid_char(data[i]) ? (char)data[i] : (char)('0' + data[i] % 10);
        pick += data[i];
    }
    CHECK(sudoku_parse(text, SUDOKU_CELLS, &g, NULL) == SUDOKU_OK);
    check_board(&g, pick);

    if (size >= 2 * SUDOKU_CELLS)
        check_raw_cells(data + SUDOKU_CELLS);
    return 0;
}
