/* sudoku.c - parsing, rule checks and the solver behind
 * include/engine/sudoku.h. The solver is a backtracking search over per-digit
 * bitboards: it propagates constraints to a fixpoint before every branch and
 * copies its 160-byte state per branch instead of undoing moves. No static
 * mutable state: reentrant.
 *
 * Method
 * ------
 * State (struct bb, with its bit layout, in sudoku_bits.h): for every
 * digit, the set of cells where it may still stand (a cell holding that
 * digit stays in its set), plus the set of unsolved cells, each a vector of
 * three band words. Placing digit d in cell x clears x from the other eight
 * digits' sets and x's 20 peers from d's set: one vector operation per
 * digit, no loop over peers; the counting rules below work on all three
 * bands at once.
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
 *     Puzzles given with 31 cells or more skip this rule: they need a few
 *     guesses either way, and the rule costs them more than it saves.
 * Branching: a digit fills a band in one of six patterns (one triad per
 * row and per box), and a stack likewise. The search takes the band or
 * stack with the fewest patterns left over all digits, and in it the digit
 * with the fewest (two when there is one); each pattern is one alternative:
 * the digit's cells there are kept to the pattern's three triads. Before
 * branching, the triads are counted, since each holds exactly three
 * digits: one where fewer than three can stand, or more than three must
 * (a digit must when the triad is its only one in its row, column or box),
 * is a dead end; one where three must and more can loses the others (a
 * hidden triad), and propagation runs again before the branch is chosen.
 * This cut the nodes by a third on the hardest sets.
 * Sparse states (over 62 unsolved cells) branch on the cell with the fewest
 * candidates instead, and so do dense puzzles (46 unsolved cells or fewer
 * after the root's propagation) whenever a cell has two. Every alternative but
 * the last is tried on a copy of the state, the last one in place. A node is
 * the root or one alternative tried; the node budget is checked before each
 * node.
 *
 * Kernels: everything from "Propagation" down is built once per instruction
 * set (sudoku_avx2.c, sudoku_avx512.c; see "Dispatch" at the end). The
 * AVX2 build does the triad check's and locked candidates' table lookups as
 * byte shuffles of whole vectors, the AVX-512 build the triad check's work
 * per digit four digits at a time, and it looks for the hidden singles and
 * the locked candidates of every due digit at once (three 512-bit passes
 * each, lane helpers in sudoku_lanes.h) where the others stop at the
 * first digit that has one, and places all the hidden singles it found
 * in one step. The rules are the same and each one only
 * clears candidates that every solution lacks, so propagation reaches the
 * same fixpoint in any order: every path visits the same nodes.
 */
#include "sudoku.h"

#include <stdlib.h>
#include <string.h>

#include "grid.h"
#include "sudoku_bits.h"
#if defined(__AVX512BW__) && defined(__AVX512VL__)
#include "sudoku_lanes.h"
#endif

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The kernel (propagation and search, the sections below "Text and rules")
 * is built once per instruction set: sudoku_avx2.c and sudoku_avx512.c
 * include this file with SUDOKU_KERNEL naming their entry point, and the
 * Makefile gives each its -m flags, so the compiler spends the width and
 * instructions it has (three-input logic, masks, popcount) on the same code:
 * the same nodes and guesses on every path. This build is the baseline
 * (SSE2 on x86-64) and holds the rest of the library and the dispatch. */
#ifndef SUDOKU_KERNEL
#define SUDOKU_KERNEL sudoku_kernel_sse2
#define SUDOKU_BASELINE 1
#else
#define SUDOKU_BASELINE 0
#endif

/* The kernels' entry points, one per path (sudoku_count's contract). */
#define SUDOKU_KERNEL_ARGS                                                     \
    const struct sudoku_grid *puzzle, unsigned limit, uint64_t max_nodes,      \
        struct sudoku_grid *solution, unsigned *count,                         \
        struct sudoku_stats *stats
enum sudoku_status sudoku_kernel_sse2(SUDOKU_KERNEL_ARGS);
enum sudoku_status sudoku_kernel_avx2(SUDOKU_KERNEL_ARGS);
enum sudoku_status sudoku_kernel_avx512(SUDOKU_KERNEL_ARGS);

#if SUDOKU_BASELINE

/* ========================================================================
 * Text and rules
 * ===================================================================== */

enum sudoku_status sudoku_parse(const char *text, size_t len,
                                struct sudoku_grid *out, size_t *bad_index)
{
    struct sudoku_grid g;
    unsigned bad = 0;

    if (len != SUDOKU_CELLS)
        return SUDOKU_BAD_LENGTH;
    /* Sixteen characters at a time (the CLI parses every line it reads),
     * no branch per character: the cells, and a flag for any character
     * that is neither '.' nor a digit; the place of the first such one is
     * looked for only when there is one. */
    typedef uint8_t vbytes __attribute__((vector_size(16)));
    vbytes any = {0};
    for (size_t i = 0; i < 80; i += 16) {
        vbytes ch, v;
        memcpy(&ch, text + i, 16);
        v = ch - '0';
        vbytes digit = (vbytes)(v <= 9);
        any |= ~digit & (vbytes)(ch != '.');
        v &= digit;
        memcpy(g.cell + i, &v, 16);
    }
    {
        unsigned v = (unsigned)(unsigned char)text[80] - '0';
        g.cell[80] = (uint8_t)(v <= 9 ? v : 0);
        bad = (unsigned)(v > 9) & (unsigned)(text[80] != '.');
    }
    for (unsigned k = 0; k < 16; k++)
        bad |= any[k];
    if (bad) {
        size_t i = 0;
        while (text[i] == '.' || (text[i] >= '0' && text[i] <= '9'))
            i++;
        if (bad_index)
            *bad_index = i;
        return SUDOKU_BAD_CHAR;
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
                    unsigned cell =
                        (unsigned)grid_unit_cell((int)(u * 9 + index), (int)i);
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

#endif /* SUDOKU_BASELINE */

/* ========================================================================
 * Propagation
 * ===================================================================== */

/* Places the naked singles x of one 64-bit half of the bands (bit j is
 * cell base + j - 5 (j / 32): bands 0 and 1, or band 2 and the phantom),
 * each cell's digit read from the planes p0-p3 (bit q of the digit's
 * number). Returns the digits placed; *placed counts the cells. */
static inline unsigned place_naked(struct bb *s, uint64_t x, uint64_t p0,
                                   uint64_t p1, uint64_t p2, uint64_t p3,
                                   unsigned base, int *placed)
{
    unsigned digits = 0;

    for (; x; x &= x - 1, ++*placed) {
        unsigned bit = (unsigned)__builtin_ctzll(x);
        unsigned i = base + bit - 5 * (bit >> 5);
        unsigned d =
            (unsigned)(((p0 >> bit) & 1u) | ((p1 >> bit) & 1u) << 1 |
                       ((p2 >> bit) & 1u) << 2 | ((p3 >> bit) & 1u) << 3);
        s->cand[d] &= ~cell_others[i];
        digits |= 1u << d;
    }
    return digits;
}

/* Places every naked single. Returns -1 on a dead end, else the number of
 * cells placed; *dirty collects the digits whose sets changed. The singles
 * of a band are placed cell by cell, each cell's digit read from four
 * words that hold the bits of the digit's number (a single has one digit
 * set, so the OR of the sets of digits with bit j gives bit j): no branch
 * per digit, which the data decides too often for a predictor. Placing d
 * touches only d's set, so the other digits' singles stay as found; two
 * singles of d that see each other clear one another, which the check
 * before each placement catches. */
static int naked_singles(struct bb *s, unsigned *dirty)
{
    const vband *c = s->cand;
    vband one = c[0], two = one & c[1];
    one |= c[1];
    two |= one & c[2], one |= c[2];
    two |= one & c[3], one |= c[3];
    two |= one & c[4], one |= c[4];
    two |= one & c[5], one |= c[5];
    two |= one & c[6], one |= c[6];
    two |= one & c[7], one |= c[7];
    two |= one & c[8], one |= c[8];
    if (vany(s->unsolved & ~one))
        return -1;
    vband single = s->unsolved & ~two;
    if (!vany(single))
        return 0;
    vband b0 = c[1] | c[3] | c[5] | c[7], b1 = c[2] | c[3] | c[6] | c[7];
    vband b2 = c[4] | c[5] | c[6] | c[7], b3 = c[8];
    /* Two 64-bit halves (bands 0 and 1, band 2 and the phantom, which has
     * no singles) rather than three bands: one loop exit fewer for the
     * predictor to miss. Each half its own loop on words held in
     * registers (a loop over the two halves kept the planes on the
     * stack and read them back through pointers). */
    vhalves sh = (vhalves)single, h0 = (vhalves)b0, h1 = (vhalves)b1;
    vhalves h2 = (vhalves)b2, h3 = (vhalves)b3;
    int placed = 0;
    /* not *dirty directly: it may alias the sets */
    unsigned placed_digits =
        place_naked(s, sh[0], h0[0], h1[0], h2[0], h3[0], 0, &placed) |
        place_naked(s, sh[1], h0[1], h1[1], h2[1], h3[1], 54, &placed);
    *dirty |= placed_digits;
    s->unsolved &= ~single;
    /* Two singles of one digit that see each other: the second placed
     * cleared the first from the digit's set, its only candidate. */
    one = c[0] | c[1] | c[2] | c[3] | c[4] | c[5] | c[6] | c[7] | c[8];
    return vany(single & ~one) ? -1 : placed;
}

/* Each lane of x when it has exactly one bit, else 0. */
static inline vband lone(vband x)
{
    return x & (vband)((x & (x - 1)) == 0);
}

#if !defined(__AVX512BW__) || !defined(__AVX512VL__)
/* Places digit d in the cells m (its hidden singles) that are still
 * unsolved and hold it. Returns the number placed; *dirty collects the
 * digits whose sets changed. */
static int place_hidden(struct bb *s, unsigned d, vband m, unsigned *dirty)
{
    int placed = 0;
    unsigned changed = 0;
    vhalves mh = (vhalves)m; /* two halves, as in naked_singles */
    for (unsigned h = 0; h < 2; h++) {
        for (uint64_t x = mh[h]; x; x &= x - 1) {
            unsigned j = (unsigned)__builtin_ctzll(x);
            unsigned k = 2 * h + (j >> 5), bit = j & 31u;
            /* An earlier placement may have cleared this cell for d, or
             * filled it: the next pass then finds the dead end, if any. */
            if ((s->cand[d][k] & s->unsolved[k]) >> bit & 1u) {
                changed |= bb_place(s, d, k, bit);
                placed++;
            }
        }
    }
    *dirty |= changed;
    return placed;
}

/* Hidden singles of digit d. Returns -1 on a dead end, else the number of
 * cells placed. Branch-free up to the placements: the data decides too
 * many branches here for a predictor to learn. */
static int hidden_singles(struct bb *s, unsigned d, unsigned *dirty)
{
    vband w = s->cand[d];
    vband r0 = w & ROW_BITS, r1 = (w >> 9) & ROW_BITS, r2 = w >> 18;
    vband x0 = w & BOX_BITS, x1 = w & (BOX_BITS << 3), x2 = w & (BOX_BITS << 6);
    vband empty = (vband)((r0 == 0) | (r1 == 0) | (r2 == 0) | (x0 == 0) |
                          (x1 == 0) | (x2 == 0));
    vband hs = lone(r0) | (lone(r1) << 9) | (lone(r2) << 18) | lone(x0) |
               lone(x1) | lone(x2);
    /* The columns: which hold d in one row of the nine, which in two. */
    vband one = r0 | r1 | r2, two = (r0 & r1) | ((r0 | r1) & r2);
    uint32_t all = one[0] | one[1] | one[2];
    uint32_t more = two[0] | two[1] | two[2] | (one[0] & one[1]) |
                    ((one[0] | one[1]) & one[2]);
    if (vany(empty) | (all != ROW_BITS))
        return -1;
    vband m = (hs | (w & ((all & ~more) * COL_BITS))) & s->unsolved;
    if (!vany(m))
        return 0;
    return place_hidden(s, d, m, dirty);
}
#else
/* Hidden singles of every digit in `todo` at once, four digits a vector,
 * each the one-digit rule above on its own 128-bit lane: the cells found
 * go to m[d] (zero for a digit not in todo) and the digits with any to the
 * result; *dead is set when a todo digit has a unit without a cell. A
 * digit not in todo reads as full sets, which find nothing. */
static unsigned hidden_find_all(const struct bb *s, unsigned todo, vband m[12],
                                int *dead)
{
    const vquad full = {BAND_ALL, BAND_ALL, BAND_ALL, BAND_ALL,
                        BAND_ALL, BAND_ALL, BAND_ALL, BAND_ALL,
                        BAND_ALL, BAND_ALL, BAND_ALL, BAND_ALL,
                        BAND_ALL, BAND_ALL, BAND_ALL, BAND_ALL};
    const vquad unsolved = (vquad)_mm512_broadcast_i32x4((__m128i)s->unsolved);
    unsigned found = 0;
    __mmask16 empty = 0;

    for (unsigned d0 = 0; d0 < 9; d0 += 4) {
        unsigned q = (todo >> d0) & 0xFu;
        /* each digit's bit of todo over its four lanes */
        __mmask16 lanes = (__mmask16)_pdep_u32(q, 0x1111u) * 0xFu;
        if (!q) {
            _mm512_storeu_si512(&m[d0], _mm512_setzero_si512());
            continue;
        }
        vquad w =
            (vquad)_mm512_mask_loadu_epi32((__m512i)full, lanes, &s->cand[d0]);
        vquad r0 = w & ROW_BITS, r1 = (w >> 9) & ROW_BITS, r2 = w >> 18;
        vquad x0 = w & BOX_BITS, x1 = w & (BOX_BITS << 3),
              x2 = w & (BOX_BITS << 6);
        empty |= _mm512_testn_epi32_mask((__m512i)r0, (__m512i)r0) |
                 _mm512_testn_epi32_mask((__m512i)r1, (__m512i)r1) |
                 _mm512_testn_epi32_mask((__m512i)r2, (__m512i)r2) |
                 _mm512_testn_epi32_mask((__m512i)x0, (__m512i)x0) |
                 _mm512_testn_epi32_mask((__m512i)x1, (__m512i)x1) |
                 _mm512_testn_epi32_mask((__m512i)x2, (__m512i)x2);
#define QUAD_LONE(x) ((x) & (vquad)(((x) & ((x)-1)) == 0))
        vquad hs = QUAD_LONE(r0) | (QUAD_LONE(r1) << 9) |
                   (QUAD_LONE(r2) << 18) | QUAD_LONE(x0) | QUAD_LONE(x1) |
                   QUAD_LONE(x2);
#undef QUAD_LONE
        /* the columns over the three bands (every band's lane gets them) */
        vquad one = r0 | r1 | r2, two = (r0 & r1) | ((r0 | r1) & r2);
        vquad on = QUAD_NEXT(one), op = QUAD_PREV(one);
        vquad all = one | on | op;
        vquad more = two | QUAD_NEXT(two) | QUAD_PREV(two) | (one & on) |
                     ((one | on) & op);
        empty |=
            _mm512_cmpneq_epi32_mask((__m512i)all, _mm512_set1_epi32(ROW_BITS));
        vquad col = all & ~more;
        vquad mq = (hs | (w & (col | (col << 9) | (col << 18)))) & unsolved;
        _mm512_storeu_si512(&m[d0], (__m512i)mq);
        __mmask16 any = _mm512_test_epi32_mask((__m512i)mq, (__m512i)mq);
        found |= _pext_u32(any, 0x1111u) << d0 | _pext_u32(any, 0x2222u) << d0 |
                 _pext_u32(any, 0x4444u) << d0;
    }
    *dead = empty != 0;
    return found & todo;
}

/* Places the hidden singles m[d] of every digit d in `found` at once
 * (m as hidden_find_all leaves it: zero for the other digits). A cell
 * that two digits need is a dead end (-1). Else each placed cell leaves
 * the other digits' sets, three vector operations for all of them, and
 * then its peers leave its digit's set, cell by cell; two singles of one
 * digit that see each other clear each other there: a dead end (-1),
 * as the one-digit path finds a pass later. Returns the
 * number of cells placed; *dirty collects the digits whose sets
 * changed. */
static int place_hidden_all(struct bb *s, unsigned found, const vband m[12],
                            unsigned *dirty)
{
    __m512i m0 = _mm512_loadu_si512(&m[0]), m4 = _mm512_loadu_si512(&m[4]);
    __m512i c0 = _mm512_loadu_si512(&s->cand[0]);
    __m512i c4 = _mm512_loadu_si512(&s->cand[4]);
    vband m8 = m[8];

    /* the cells of any digit (one) and of two or more (two), folded from
     * digits q and q + 4 in each 128-bit lane to one lane */
    __m512i one4 = _mm512_or_si512(m0, m4), two4 = _mm512_and_si512(m0, m4);
    __m256i one2lo = _mm512_castsi512_si256(one4),
            one2hi = _mm512_extracti64x4_epi64(one4, 1);
    __m256i two2 =
        _mm256_or_si256(_mm256_or_si256(_mm512_castsi512_si256(two4),
                                        _mm512_extracti64x4_epi64(two4, 1)),
                        _mm256_and_si256(one2lo, one2hi));
    __m256i one2 = _mm256_or_si256(one2lo, one2hi);
    vband lo = (vband)_mm256_castsi256_si128(one2);
    vband hi = (vband)_mm256_extracti128_si256(one2, 1);
    vband two = (vband)_mm256_castsi256_si128(two2) |
                (vband)_mm256_extracti128_si256(two2, 1) | (lo & hi);
    vband one = lo | hi;
    two |= one & m8;
    one |= m8;
    if (vany(two))
        return -1;

    /* the placed cells out of the other digits' sets (m[d] is in d's) */
    __m512i all = _mm512_broadcast_i32x4((__m128i)one);
    __m512i n0 = _mm512_or_si512(_mm512_andnot_si512(all, c0), m0);
    __m512i n4 = _mm512_or_si512(_mm512_andnot_si512(all, c4), m4);
    unsigned changed = quad_digits(_mm512_cmpneq_epi32_mask(n0, c0)) |
                       quad_digits(_mm512_cmpneq_epi32_mask(n4, c4)) << 4 |
                       (unsigned)vany(s->cand[8] & one & ~m8) << 8 | found;
    _mm512_storeu_si512(&s->cand[0], n0);
    _mm512_storeu_si512(&s->cand[4], n4);
    s->cand[8] = (s->cand[8] & ~one) | m8;
    s->unsolved &= ~one;

    for (; found; found &= found - 1) {
        unsigned d = ctz32(found);
        vhalves mh = (vhalves)m[d]; /* two halves, as in naked_singles */
        for (uint64_t x = mh[0]; x; x &= x - 1) {
            unsigned j = (unsigned)__builtin_ctzll(x);
            s->cand[d] &= ~cell_others[j - 5 * (j >> 5)];
        }
        for (uint64_t x = mh[1]; x; x &= x - 1)
            s->cand[d] &= ~cell_others[54 + __builtin_ctzll(x)];
        if (vany(m[d] & ~s->cand[d]))
            return -1;
    }
    *dirty |= changed;
    vhalves oh = (vhalves)one;
    return (int)(__builtin_popcountll(oh[0]) + __builtin_popcountll(oh[1]));
}
#endif

#ifdef __AVX2__
/* ------------------------------------------------------------------------
 * Byte-shuffle lookups for the AVX kernels: each lane's index in its low
 * byte and its other bytes 0 (entry 0 of every table is 0, so they stay 0).
 * ------------------------------------------------------------------------ */

/* fits3 of each lane: the patterns that fit triad sets g0, g1, g2. */
static inline vband fits3_v(vband g0, vband g1, vband g2)
{
    const __m128i t0 = _mm_loadl_epi64((const __m128i *)perm_by_row[0]);
    const __m128i t1 = _mm_loadl_epi64((const __m128i *)perm_by_row[1]);
    const __m128i t2 = _mm_loadl_epi64((const __m128i *)perm_by_row[2]);

    return (vband)_mm_shuffle_epi8(t0, (__m128i)g0) &
           (vband)_mm_shuffle_epi8(t1, (__m128i)g1) &
           (vband)_mm_shuffle_epi8(t2, (__m128i)g2);
}

/* npat of each lane (a pattern set, under 64). */
static inline vband npat_v(vband f)
{
    const __m128i pop4 =
        _mm_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    return (vband)_mm_add_epi8(_mm_shuffle_epi8(pop4, (__m128i)(f & 15u)),
                               _mm_shuffle_epi8(pop4, (__m128i)(f >> 4)));
}

/* pattern_union of each lane's pattern set f: the union of patterns 0-3
 * and of patterns 4-5, each a 16-entry table (bit 8 only ever comes from
 * patterns 0-3): entries 0-15 of pattern_union, and 0, 16, 32, 48. The
 * path test holds the AVX paths to the baseline node for node. */
static inline vband union_v(vband f)
{
    const __m128i lo = _mm_setr_epi8(
        0x00, 0x11, (char)0xA1, (char)0xB1, 0x0A, 0x1B, (char)0xAB, (char)0xBB,
        0x62, 0x73, (char)0xE3, (char)0xF3, 0x6A, 0x7B, (char)0xEB, (char)0xFB);
    const __m128i lo8 =
        _mm_setr_epi8(0, 1, 0, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1);
    const __m128i hi = _mm_setr_epi8(0x00, (char)0x8C, 0x54, (char)0xDC, 0, 0,
                                     0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    __m128i a = (__m128i)(f & 15u), b = (__m128i)(f >> 4);

    return (vband)_mm_or_si128(_mm_shuffle_epi8(lo, a),
                               _mm_shuffle_epi8(hi, b)) |
           ((vband)_mm_shuffle_epi8(lo8, a) << 8);
}

/* Lane j of *g0, *g1, *g2: bits 3j..3j+2 of lanes 0, 1, 2 of c (stack j's
 * columns in bands 0, 1, 2); lane 3 gets 0. */
static inline void by_stack(vband c, vband *g0, vband *g1, vband *g2)
{
    const __m128i shift = _mm_setr_epi32(0, 3, 6, 32);
    *g0 =
        (vband)_mm_srlv_epi32(_mm_shuffle_epi32((__m128i)c, 0x00), shift) & 7u;
    *g1 =
        (vband)_mm_srlv_epi32(_mm_shuffle_epi32((__m128i)c, 0x55), shift) & 7u;
    *g2 =
        (vband)_mm_srlv_epi32(_mm_shuffle_epi32((__m128i)c, 0xAA), shift) & 7u;
}

#if !defined(__AVX512BW__) || !defined(__AVX512VL__)
/* Band locked candidates as below, the three bands and the three stacks
 * each at once (the AVX-512 build does four digits at once: locked_all). */
static int band_locked(struct bb *s, unsigned d)
{
    const vband bands = {~0u, ~0u, ~0u, 0};
    const __m128i spread =
        _mm_setr_epi8(0, 1, 8, 9, 64, 65, 72, 73, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m128i by_band = _mm_setr_epi32(0, 3, 6, 32);
    vband w = s->cand[d];
    vband o = (w | (w >> 1) | (w >> 2)) & TRIAD_LOW;
    vband x = (o | (o << 2) | (o << 4)) >> 4;
    vband fit = union_v(fits3_v(x & 7u, (x >> 9) & 7u, (x >> 18) & 7u));

    if (vany((vband)(fit == 0)))
        return -1;
    /* the triads of fit (bit 3r + b) back at bits 9r + 3b, then cells */
    vband t = (vband)_mm_shuffle_epi8(spread, (__m128i)(fit & 7u)) |
              (vband)_mm_shuffle_epi8(spread, (__m128i)((fit >> 3) & 7u)) << 9 |
              (vband)_mm_shuffle_epi8(spread, (__m128i)(fit >> 6)) << 18;
    w &= t | (t << 1) | (t << 2);

    vband c = (w | (w >> 9) | (w >> 18)) & ROW_BITS, g0, g1, g2;
    by_stack(c, &g0, &g1, &g2);
    vband sfit = union_v(fits3_v(g0, g1, g2));
    if (vany((vband)(sfit == 0) & bands))
        return -1;
    /* lane j: stack j's triads to clear, bit 3k + column of band k; moved
     * to lane k, bit 3j + column */
    vband gone = (g0 | (g1 << 3) | (g2 << 6)) & ~sfit & bands;
    vband h = ((vband)_mm_srlv_epi32(_mm_shuffle_epi32((__m128i)gone, 0x00),
                                     by_band) &
               7u) |
              ((vband)_mm_srlv_epi32(_mm_shuffle_epi32((__m128i)gone, 0x55),
                                     by_band) &
               7u) << 3 |
              ((vband)_mm_srlv_epi32(_mm_shuffle_epi32((__m128i)gone, 0xAA),
                                     by_band) &
               7u) << 6;
    w &= ~(h | (h << 9) | (h << 18));
    int changed = vany(w ^ s->cand[d]);
    s->cand[d] = w;
    return changed;
}
#endif
#else
/* Band locked candidates of digit d: its occupied triads of each band and
 * stack (3x3, bit 3r + b) are cut to the union of the patterns that fit
 * them. Returns -1 on a dead end, else 1 when it cleared a candidate, 0
 * when not. */
static int band_locked(struct bb *s, unsigned d)
{
    int changed = 0;
    uint32_t c[3];

    for (unsigned k = 0; k < 3; k++) {
        uint32_t w = s->cand[d][k];
        uint32_t x = (((w | (w >> 1) | (w >> 2)) & TRIAD_LOW) * 0x15u) >> 4;
        unsigned occ = (x & 7u) | ((x >> 6) & 0x38u) | ((x >> 12) & 0x1C0u);
        unsigned fit =
            pattern_union[fits3(x & 7u, (x >> 9) & 7u, (x >> 18) & 7u)];
        if (!fit)
            return -1;
        if (occ != fit) {
            uint32_t t = spread3[fit & 7u] | spread3[(fit >> 3) & 7u] << 9 |
                         spread3[fit >> 6] << 18;
            s->cand[d][k] = w &= t * 7u;
            changed = 1;
        }
        c[k] = w | (w >> 9) | (w >> 18);
    }
    for (unsigned j = 0; j < 3; j++) {
        unsigned g0 = (c[0] >> (3 * j)) & 7u, g1 = (c[1] >> (3 * j)) & 7u,
                 g2 = (c[2] >> (3 * j)) & 7u;
        unsigned occ = g0 | g1 << 3 | g2 << 6;
        unsigned fit = pattern_union[fits3(g0, g1, g2)];
        if (!fit)
            return -1;
        if (occ == fit)
            continue;
        changed = 1;
        for (unsigned k = 0; k < 3; k++) {
            uint32_t gone = (occ & ~fit) >> (3 * k) & 7u;
            for (; gone; gone &= gone - 1)
                s->cand[d][k] &= ~(COL_BITS << (3 * j + ctz32(gone)));
        }
    }
    return changed;
}

#endif /* __AVX2__ */

#if defined(__AVX512BW__) && defined(__AVX512VL__)
/* Band locked candidates (band_locked above) of every digit in `todo` at
 * once, four digits a vector, each on its own 128-bit lane. Returns the
 * digits whose sets it cut; *dead is set when a todo digit has a band or
 * stack that no pattern fits. A digit not in todo reads as full sets,
 * which every pattern fits and nothing cuts, and is not stored back. */
static unsigned locked_all(struct bb *s, unsigned todo, int *dead)
{
    const vquad full = {BAND_ALL, BAND_ALL, BAND_ALL, BAND_ALL,
                        BAND_ALL, BAND_ALL, BAND_ALL, BAND_ALL,
                        BAND_ALL, BAND_ALL, BAND_ALL, BAND_ALL,
                        BAND_ALL, BAND_ALL, BAND_ALL, BAND_ALL};
    const vquad spread = quad_bytes(
        _mm_setr_epi8(0, 1, 8, 9, 64, 65, 72, 73, 0, 0, 0, 0, 0, 0, 0, 0));
    const __m512i by_band = _mm512_broadcast_i32x4(_mm_setr_epi32(0, 3, 6, 32));
    const __mmask16 bands = 0x7777;
    unsigned changed = 0;
    __mmask16 none = 0;

    for (unsigned d0 = 0; d0 < 9; d0 += 4) {
        unsigned q = (todo >> d0) & 0xFu;
        if (!q)
            continue;
        __mmask16 lanes = quad_lanes(q);
        vquad w0 =
            (vquad)_mm512_mask_loadu_epi32((__m512i)full, lanes, &s->cand[d0]);
        vquad o = (w0 | (w0 >> 1) | (w0 >> 2)) & TRIAD_LOW;
        vquad x = (o | (o << 2) | (o << 4)) >> 4;
        vquad fit =
            quad_union(quad_fits3(x & 7u, (x >> 9) & 7u, (x >> 18) & 7u));
        none |= _mm512_testn_epi32_mask((__m512i)fit, (__m512i)fit);
        /* the triads of fit (bit 3r + b) back at bits 9r + 3b, then cells */
        vquad t = quad_shuffle(spread, fit & 7u) |
                  quad_shuffle(spread, (fit >> 3) & 7u) << 9 |
                  quad_shuffle(spread, fit >> 6) << 18;
        vquad w = w0 & (t | (t << 1) | (t << 2));

        vquad c = (w | (w >> 9) | (w >> 18)) & ROW_BITS, g0, g1, g2;
        quad_by_stack(c, &g0, &g1, &g2);
        vquad sfit = quad_union(quad_fits3(g0, g1, g2));
        none |=
            _mm512_mask_testn_epi32_mask(bands, (__m512i)sfit, (__m512i)sfit);
        /* word j: stack j's triads to clear, bit 3k + column of band k;
         * moved to word k, bit 3j + column */
        vquad gone = (g0 | (g1 << 3) | (g2 << 6)) & ~sfit;
        gone = (vquad)_mm512_maskz_mov_epi32(bands, (__m512i)gone);
        vquad h =
            ((vquad)_mm512_srlv_epi32(_mm512_shuffle_epi32((__m512i)gone, 0x00),
                                      by_band) &
             7u) |
            ((vquad)_mm512_srlv_epi32(_mm512_shuffle_epi32((__m512i)gone, 0x55),
                                      by_band) &
             7u) << 3 |
            ((vquad)_mm512_srlv_epi32(_mm512_shuffle_epi32((__m512i)gone, 0xAA),
                                      by_band) &
             7u) << 6;
        w &= ~(h | (h << 9) | (h << 18));
        __mmask16 cut =
            _mm512_mask_cmpneq_epi32_mask(lanes, (__m512i)w, (__m512i)w0);
        _mm512_mask_storeu_epi32(&s->cand[d0], cut, (__m512i)w);
        changed |= quad_digits(cut) << d0;
    }
    *dead = none != 0;
    return changed;
}
#endif

/* Runs the rules to a fixpoint, cheapest first: naked singles until none,
 * then hidden singles, then locked candidates, each time only for the
 * digits whose sets changed since that rule last looked at them (`dirty` at
 * the start). The first digit for which a dearer rule finds something sends
 * the loop back to the cheaper ones, the digits not yet looked at staying
 * due: what one placement sets off is mostly naked singles, and looking at
 * every due digit first was wasted work (on the core issue's example, 25
 * calls of hidden_singles of which 19 placed nothing; now 8, and the solve
 * takes a third less time). Locked candidates run only when `locked` is
 * set. Returns 0 on a dead end, else 1. */
static int bb_propagate(struct bb *s, unsigned dirty, int locked)
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
        if (!vany(s->unsolved))
            return 1;
        if (n > 0)
            continue;
        n = 0;
#if defined(__AVX512BW__) && defined(__AVX512VL__)
        if (hidden_todo) {
            vband m[12];
            int dead;
            unsigned found = hidden_find_all(s, hidden_todo, m, &dead);
            if (dead)
                return 0;
            hidden_todo = 0;
            if (found) {
                n = place_hidden_all(s, found, m, &changed);
                if (n < 0)
                    return 0;
            }
        }
#else
        while (hidden_todo && n == 0) {
            unsigned d = ctz32(hidden_todo);
            hidden_todo &= hidden_todo - 1;
            n = hidden_singles(s, d, &changed);
            if (n < 0)
                return 0;
        }
#endif
        if (n > 0) {
            hidden_todo |= changed;
            locked_todo |= changed;
            continue;
        }
#if defined(__AVX512BW__) && defined(__AVX512VL__)
        if (locked && locked_todo) {
            int dead;
            unsigned cut = locked_all(s, locked_todo, &dead);
            if (dead)
                return 0;
            /* a cut digit may be cut again (its stacks after its bands) */
            hidden_todo |= cut;
            locked_todo = cut;
            n = cut != 0;
        }
#else
        while (locked && locked_todo && n == 0) {
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
#endif
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
    int dense; /* the root state has 46 unsolved cells or fewer */
};

/* Eight bits of x (bits 0-7) as eight bytes of 0 or 1, bit j in byte j. */
static inline uint64_t spread8(uint64_t x)
{
#ifdef __BMI2__
    return _pdep_u64(x, 0x0101010101010101u);
#else
    /* x in every byte, byte j kept to bit j, then bit j moved to bit 0 of
     * its byte by adding 0x7F (no carry leaves a byte) */
    uint64_t b = ((x & 0xFFu) * 0x0101010101010101u) & 0x8040201008040201u;
    return ((b + 0x7F7F7F7F7F7F7F7Fu) >> 7) & 0x0101010101010101u;
#endif
}

/* The solved state s as a grid. Each cell is in one digit's set, so the
 * four bits of its digit's number are the ORs of the sets with that bit
 * (as in naked_singles); the grid's cells are the bands' bits in order
 * (cell 27k + bit), so each bit plane is one 81-bit row-major number,
 * turned into bytes eight cells a step (where a loop over the placed
 * cells cost 700 instructions a solution). */
static void bb_extract(const struct bb *s, struct sudoku_grid *g)
{
    const vband *c = s->cand;
    vband plane[4] = {c[1] | c[3] | c[5] | c[7], c[2] | c[3] | c[6] | c[7],
                      c[4] | c[5] | c[6] | c[7], c[8]};
    uint64_t lo[4], hi[4];

    for (unsigned q = 0; q < 4; q++) {
        vband w = plane[q];
        lo[q] = w[0] | (uint64_t)w[1] << 27 | (uint64_t)w[2] << 54;
        hi[q] = w[2] >> 10; /* cells 64-80 */
    }
#pragma GCC unroll 10
    for (unsigned j = 0; j < 80; j += 8) {
        uint64_t v = 0x0101010101010101u; /* digit d is d + 1 */
#pragma GCC unroll 4
        for (unsigned q = 0; q < 4; q++)
            v += spread8(j < 64 ? lo[q] >> j : hi[q] >> (j - 64)) << q;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = __builtin_bswap64(v); /* byte b of the grid: bits 8b-8b+7 */
#endif
        memcpy(g->cell + j, &v, 8);
    }
    g->cell[80] = (uint8_t)(1 + (hi[0] >> 16 & 1u) + (hi[1] >> 15 & 2u) +
                            (hi[2] >> 14 & 4u) + (hi[3] >> 13 & 8u));
}

/* The cells where at least two digits can stand, and at least three. */
static vband two_or_more(const struct bb *s, vband *three)
{
    vband one = s->cand[0], two = {0, 0, 0, 0};

    *three = two;
    for (unsigned d = 1; d < 9; d++) {
        vband x = s->cand[d];
        *three |= two & x;
        two |= one & x;
        one |= x;
    }
    return two;
}

/* The digits that can stand in cell `bit` of band k. */
static unsigned cell_digits(const struct bb *s, unsigned k, unsigned bit)
{
    unsigned digits = 0;
    for (unsigned d = 0; d < 9; d++)
        digits |= ((s->cand[d][k] >> bit) & 1u) << d;
    return digits;
}

/* The number of unsolved cells. */
static unsigned unsolved_cells(const struct bb *s)
{
    return pop32(s->unsolved[0]) + pop32(s->unsolved[1]) +
           pop32(s->unsolved[2]);
}

/* Picks the unsolved cell with the fewest candidates; returns its digit mask
 * and stores its place in *band, *bit. The state has at least one unsolved
 * cell and none without candidates. */
static unsigned bb_choose(const struct bb *s, unsigned *band, unsigned *bit)
{
    vband three;
    unsigned best = 10, bk = 0, bb = 0;

    two_or_more(s, &three);
    vband pair = s->unsolved & ~three;
    for (unsigned k = 0; k < 3; k++) {
        if (pair[k]) {
            best = 2, bk = k, bb = ctz32(pair[k]);
            break;
        }
    }
    for (unsigned k = 0; k < 3 && best > 2; k++) {
        for (uint32_t m = s->unsolved[k]; m; m &= m - 1) {
            unsigned b = ctz32(m), n = 0;
            for (unsigned d = 0; d < 9; d++)
                n += (s->cand[d][k] >> b) & 1u;
            if (n < best)
                best = n, bk = k, bb = b;
        }
    }
    *band = bk;
    *bit = bb;
    return cell_digits(s, bk, bb);
}

/* A branch point: the unsolved cell `pos` of band `index` and its digits
 * (kind BR_CELL), or digit `pos` of band or stack `index` and its fitting
 * placement patterns (BR_BAND, BR_STACK; bit p for band_perms[p] or
 * stack_perms[p]). `alts` holds the alternatives, more than one. */
enum { BR_CELL, BR_BAND, BR_STACK };
struct branch {
    unsigned kind, index, pos, alts;
};

/* Hidden triads: a triad holds three digits, so when three digits must
 * stand in it, the others leave its cells. in[d], cin[d]: the row triads
 * (at their lowest bits) and column triads (bit c) digit d must stand in;
 * rows, cols: the triads where three must stand and more can. Returns the
 * digits whose sets changed. */
static unsigned hidden_triads(struct bb *s, const vband in[9],
                              const vband cin[9], vband rows, vband cols)
{
    unsigned dirty = 0;

    for (unsigned d = 0; d < 9; d++) {
        vband t = rows & ~in[d], c = cols & ~cin[d];
        vband gone = s->cand[d] &
                     ((t | (t << 1) | (t << 2)) | (c | (c << 9) | (c << 18)));
        if (vany(gone)) {
            s->cand[d] &= ~gone;
            dirty |= 1u << d;
        }
    }
    return dirty;
}

/* The patterns that fit each digit in each band and stack (bit p for
 * band_perms[p] or stack_perms[p]), and their numbers summed over the
 * digits; b 0-2 are the bands, 3-5 the stacks. Vectors of three lanes
 * where the kernel fills them as vectors (AVX2), else plain words: the
 * baseline has no cheap way to set one lane of a vector. */
struct fits {
#ifdef __AVX2__
    vband of[2][9]; /* digit d in band or stack b: of[b / 3][d][b % 3] */
#else
    unsigned of[6][9]; /* of[b][d] */
#endif
    unsigned total[6];
};

static inline unsigned fits_of(const struct fits *f, unsigned b, unsigned d)
{
#ifdef __AVX2__
    return f->of[b / 3][d][b % 3];
#else
    return f->of[b][d];
#endif
}

#ifdef __AVX2__
/* The patterns that fit digit d in the three bands (lanes 0-2 of *band)
 * and the three stacks (*stack), from its row triads o (at their lowest
 * bits) and column triads c (bit c) per band, and their numbers added to
 * *nband and *nstack: the lookups of perm_by_row as byte shuffles. */
static inline void digit_fits(vband o, vband c, vband *band, vband *stack,
                              vband *nband, vband *nstack)
{
    /* row r's three triads gathered at bits 9r..9r+2 (o's bits are 3
     * apart, so the shifts do not overlap) */
    vband x = (o | (o << 2) | (o << 4)) >> 4, g0, g1, g2;

    by_stack(c, &g0, &g1, &g2);
    *band = fits3_v(x & 7u, (x >> 9) & 7u, (x >> 18) & 7u);
    *stack = fits3_v(g0, g1, g2);
    *nband += npat_v(*band);
    *nstack += npat_v(*stack);
}
#endif

#if defined(__AVX512BW__) && defined(__AVX512VL__)
/* all_fits' work for digits d0..d0+3 at once (only d0 when `lanes` is
 * 0xF): their row triads o and column triads c, the triads each must
 * stand in (in, cin), their patterns (fits) and the patterns' numbers,
 * added per lane to *nb and *ns. The same operations as the one-digit
 * code, on four times the width. */
static inline void quad_fits(const struct bb *s, unsigned d0, __mmask16 lanes,
                             vband o[9], vband c[9], vband in[9], vband cin[9],
                             struct fits *f, vquad *nb, vquad *ns)
{
    const vquad bands = {~0u, ~0u, ~0u, 0, ~0u, ~0u, ~0u, 0,
                         ~0u, ~0u, ~0u, 0, ~0u, ~0u, ~0u, 0};
    const vquad pop4 = quad_bytes(
        _mm_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4));
    vquad w = (vquad)_mm512_maskz_loadu_epi32(lanes, &s->cand[d0]);
    vquad ow = (w | (w >> 1) | (w >> 2)) & TRIAD_LOW;
    vquad cw = (w | (w >> 9) | (w >> 18)) & ROW_BITS;
    vquad row_mates = ((ow << 3) & (0x48u * COL_BITS)) |
                      ((ow << 6) & (0x40u * COL_BITS)) |
                      ((ow >> 3) & (0x09u * COL_BITS)) | ((ow >> 6) & COL_BITS);
    vquad box_mates =
        ((ow << 9) | (ow << 18) | (ow >> 9) | (ow >> 18)) & TRIAD_LOW;
    vquad m = ow & ~(row_mates & box_mates);
    /* the columns held in two bands or more, in every band's lane */
    vquad next = QUAD_NEXT(cw), prev = QUAD_PREV(cw);
    vquad twice = (cw & next) | (cw & prev) | (next & prev);
    vquad stack_mates = ((cw << 1) & 0x1B6u) | ((cw << 2) & 0x124u) |
                        ((cw >> 1) & 0x0DBu) | ((cw >> 2) & 0x049u);
    vquad n = cw & ~(twice & stack_mates) & bands;
    vquad x = (ow | (ow << 2) | (ow << 4)) >> 4, g0, g1, g2;
    quad_by_stack(cw, &g0, &g1, &g2);
    vquad fb = quad_fits3(x & 7u, (x >> 9) & 7u, (x >> 18) & 7u);
    vquad fs = quad_fits3(g0, g1, g2);
    *nb += quad_shuffle(pop4, fb & 15u) + quad_shuffle(pop4, fb >> 4);
    *ns += quad_shuffle(pop4, fs & 15u) + quad_shuffle(pop4, fs >> 4);
    _mm512_mask_storeu_epi32(&o[d0], lanes, (__m512i)ow);
    _mm512_mask_storeu_epi32(&c[d0], lanes, (__m512i)cw);
    _mm512_mask_storeu_epi32(&in[d0], lanes, (__m512i)m);
    _mm512_mask_storeu_epi32(&cin[d0], lanes, (__m512i)n);
    _mm512_mask_storeu_epi32(&f->of[0][d0], lanes, (__m512i)fb);
    _mm512_mask_storeu_epi32(&f->of[1][d0], lanes, (__m512i)fs);
}

#endif

/* Fills *f: the patterns that fit each digit in each band and stack, and
 * their numbers summed over the digits.
 * Returns 0 on a dead end: a triad (three cells of a row, or of a column,
 * in one box) where fewer than three digits can stand, or more than three
 * must; it holds three. Without this check the pattern branches wander
 * through huge dead subtrees on sparse boards. A digit must stand in a
 * triad when it is the digit's only one in its row (column) or box: after
 * locked candidates, exactly when every pattern left to it holds the
 * triad. Returns 2 when hidden triads cleared candidates (*dirty: their
 * digits), else 1. */
static int all_fits(struct bb *s, struct fits *f, unsigned *dirty)
{
    /* Counts to four, bit-sliced over the digits, per band: the row
     * triads at their lowest bits, the column triads at bit c; r and c
     * count the digits that can stand there, i and j those that must. */
    vband r1 = {0, 0, 0, 0}, r2 = r1, r3 = r1, r4 = r1;
    vband c1 = r1, c2 = r1, c3 = r1, c4 = r1;
    vband i1 = r1, i2 = r1, i3 = r1, i4 = r1, j1 = r1, j2 = r1, j3 = r1,
          j4 = r1;
    vband in[9], cin[9];

#if defined(__AVX512BW__) && defined(__AVX512VL__)
    /* the work per digit four digits at a time, then the counts */
    vband o[9], c[9];
    vquad nb = {0}, ns = {0};
    quad_fits(s, 0, 0xFFFF, o, c, in, cin, f, &nb, &ns);
    quad_fits(s, 4, 0xFFFF, o, c, in, cin, f, &nb, &ns);
    quad_fits(s, 8, 0x000F, o, c, in, cin, f, &nb, &ns);
    vband nband = quad_sum(nb), nstack = quad_sum(ns);
    for (unsigned d = 0; d < 9; d++) {
        vband m = in[d], n = cin[d];
        r4 |= r3 & o[d], r3 |= r2 & o[d], r2 |= r1 & o[d], r1 |= o[d];
        c4 |= c3 & c[d], c3 |= c2 & c[d], c2 |= c1 & c[d], c1 |= c[d];
        i4 |= i3 & m, i3 |= i2 & m, i2 |= i1 & m, i1 |= m;
        j4 |= j3 & n, j3 |= j2 & n, j2 |= j1 & n, j1 |= n;
    }
#else
    const vband bands = {~0u, ~0u, ~0u, 0};
#ifdef __AVX2__
    vband nband = r1, nstack = r1;
#else
    for (unsigned b = 0; b < 6; b++)
        f->total[b] = 0;
#endif
    for (unsigned d = 0; d < 9; d++) {
        vband w = s->cand[d];
        vband o = (w | (w >> 1) | (w >> 2)) & TRIAD_LOW;
        r4 |= r3 & o, r3 |= r2 & o, r2 |= r1 & o, r1 |= o;
        vband c = (w | (w >> 9) | (w >> 18)) & ROW_BITS;
        c4 |= c3 & c, c3 |= c2 & c, c2 |= c1 & c, c1 |= c;
        /* the triads alone in their row of boxes or in their box: o less
         * those with a mate in both (shifts kept inside rows and bands) */
        vband row_mates =
            ((o << 3) & (0x48u * COL_BITS)) | ((o << 6) & (0x40u * COL_BITS)) |
            ((o >> 3) & (0x09u * COL_BITS)) | ((o >> 6) & COL_BITS);
        vband box_mates =
            ((o << 9) | (o << 18) | (o >> 9) | (o >> 18)) & TRIAD_LOW;
        vband m = o & ~(row_mates & box_mates);
        uint32_t twice = (c[0] & c[1]) | (c[0] & c[2]) | (c[1] & c[2]);
        /* the same for the column triads: alone in their band's stack,
         * or in their column of bands */
        vband stack_mates = ((c << 1) & 0x1B6u) | ((c << 2) & 0x124u) |
                            ((c >> 1) & 0x0DBu) | ((c >> 2) & 0x049u);
        vband n = c & ~(twice & stack_mates) & bands;
        in[d] = m, cin[d] = n;
        i4 |= i3 & m, i3 |= i2 & m, i2 |= i1 & m, i1 |= m;
        j4 |= j3 & n, j3 |= j2 & n, j2 |= j1 & n, j1 |= n;
#ifdef __AVX2__
        digit_fits(o, c, &f->of[0][d], &f->of[1][d], &nband, &nstack);
#else
        /* row r's three triads gathered at bits 9r..9r+2 (o's bits are
         * 3 apart, so the shifts do not overlap) */
        vband x = (o | (o << 2) | (o << 4)) >> 4;
#pragma GCC unroll 3
        for (unsigned k = 0; k < 3; k++) {
            f->of[k][d] = fits3(x[k] & 7u, (x[k] >> 9) & 7u, (x[k] >> 18) & 7u);
            f->total[k] += npat(f->of[k][d]);
        }
#pragma GCC unroll 3
        for (unsigned j = 0; j < 3; j++) {
            unsigned fit = fits3((c[0] >> (3 * j)) & 7u, (c[1] >> (3 * j)) & 7u,
                                 (c[2] >> (3 * j)) & 7u);
            f->of[3 + j][d] = fit;
            f->total[3 + j] += npat(fit);
        }
#endif
    }
#endif
#ifdef __AVX2__
    for (unsigned k = 0; k < 3; k++) {
        f->total[k] = nband[k];
        f->total[3 + k] = nstack[k];
    }
#endif
    if (vany((r3 ^ TRIAD_LOW) | (c3 ^ ROW_BITS) | i4 | j4))
        return 0;
    vband rows = i3 & r4, cols = j3 & c4;
    if (!vany(rows | cols))
        return 1;
    *dirty = hidden_triads(s, in, cin, rows, cols);
    return 2;
}

/* Finds an unsolved cell with exactly two candidates and fills br with it;
 * returns 0 when there is none. */
static int pair_cell(const struct bb *s, struct branch *br)
{
    vband three;
    vband pair = s->unsolved & two_or_more(s, &three) & ~three;

    for (unsigned k = 0; k < 3; k++) {
        if (pair[k]) {
            br->kind = BR_CELL;
            br->index = k;
            br->pos = ctz32(pair[k]);
            br->alts = cell_digits(s, k, br->pos);
            return 1;
        }
    }
    return 0;
}

/* Picks the band or stack with the fewest patterns over its nine digits
 * (more than nine: not every digit fixed there), and in it the digit with
 * the fewest patterns, two when there is one. A pattern fixes a digit in
 * three triads at once, which prunes far more than a digit in a cell on
 * hard puzzles. The cell with the fewest candidates is kept for sparse
 * states and for a state where no digit has two patterns left (propagation
 * leaves none; the search must not depend on that). */
static int choose_branch(struct bb *s, struct branch *br, int dense,
                         unsigned *dirty)
{
    struct fits f;
    unsigned best, fewest = 1000u << 3;

    /* Dense puzzles (46 unsolved cells or fewer after the root's
     * propagation) branch on a cell with two candidates when there is one,
     * without the triad check: their trees are shallow, so the cost of a
     * node decides, and this one costs a third less. Puzzles that start
     * sparser keep the patterns all the way down. */
    if (dense && pair_cell(s, br))
        return 1;
    int fit = all_fits(s, &f, dirty);
    if (fit != 1)
        return fit;
    /* Sparse states (more than 62 unsolved cells, an empty board at the
     * extreme) branch on a cell: they have many solutions, and a digit in a
     * cell reaches one far sooner than a pattern does. */
    if (unsolved_cells(s) > 62) {
        br->kind = BR_CELL;
        br->alts = bb_choose(s, &br->index, &br->pos);
        return 1;
    }
    /* The fewest first, the lowest index among equals: the minimum of
     * count * 8 + index (16 for the digits), taken without a branch the
     * data decides. */
    for (unsigned b = 0; b < 6; b++) {
        unsigned key = f.total[b] > 9 ? f.total[b] << 3 | b : 1000u << 3;
        fewest = key < fewest ? key : fewest;
    }
    best = fewest < (1000u << 3) ? (fewest & 7u) : 6;
    unsigned digit = 9;
    if (best < 6) {
        unsigned least = 7u << 4;
        for (unsigned d = 0; d < 9; d++) {
            unsigned m = npat(fits_of(&f, best, d));
            unsigned key = m >= 2 ? m << 4 | d : 7u << 4;
            least = key < least ? key : least;
        }
        digit = least < (7u << 4) ? (least & 15u) : 9;
    }
    if (digit < 9) {
        br->kind = best < 3 ? BR_BAND : BR_STACK;
        br->index = best % 3;
        br->pos = digit;
        br->alts = fits_of(&f, best, digit);
        return 1;
    }
    br->kind = BR_CELL;
    br->alts = bb_choose(s, &br->index, &br->pos);
    return 1;
}

/* Takes alternative a of br in s: places the digit, or keeps the digit's
 * cells of the band or stack to the pattern's triads. Returns the digits
 * whose sets changed. */
static unsigned apply_branch(struct bb *s, const struct branch *br, unsigned a)
{
    if (br->kind == BR_CELL)
        return bb_place(s, a, br->index, br->pos);
    unsigned d = br->pos;
    if (br->kind == BR_BAND) {
        s->cand[d][br->index] &= band_perms[a] * 7u;
    } else {
        unsigned j = br->index;
        for (unsigned k = 0; k < 3; k++) {
            unsigned gone = ~(stack_perms[a] >> (3 * k)) & 7u;
            for (; gone; gone &= gone - 1)
                s->cand[d][k] &= ~(COL_BITS << (3 * j + ctz32(gone)));
        }
    }
    return 1u << d;
}

static int search_done(const struct search *sr)
{
    return sr->count >= sr->limit || sr->out_of_budget;
}

/* Searches below the propagated state s, which it may overwrite. */
static void search(struct search *sr, struct bb *s, int locked)
{
    for (;;) {
        if (!vany(s->unsolved)) {
            if (sr->count++ == 0 && sr->solution)
                bb_extract(s, sr->solution);
            return;
        }
        struct branch br;
        unsigned cleared = 0;
        int chosen = choose_branch(s, &br, sr->dense, &cleared);
        if (!chosen)
            return;
        if (chosen == 2) { /* hidden triads cleared candidates */
            if (!bb_propagate(s, cleared, locked))
                return;
            continue;
        }
        unsigned alts = br.alts;
        if (alts & (alts - 1))
            sr->guesses++;
        for (;;) {
            unsigned a = ctz32(alts);
            alts &= alts - 1;
            if (sr->max_nodes && sr->nodes >= sr->max_nodes) {
                sr->out_of_budget = 1;
                return;
            }
            sr->nodes++;
            if (!alts) { /* the last alternative: no copy needed */
                unsigned dirty = apply_branch(s, &br, a);
                if (!bb_propagate(s, dirty, locked))
                    return;
                break;
            }
            struct bb t = *s;
            unsigned dirty = apply_branch(&t, &br, a);
            if (bb_propagate(&t, dirty, locked)) {
                search(sr, &t, locked);
                if (search_done(sr))
                    return;
            }
        }
    }
}

/* The cells of `p` that hold a value, row-major: bit i of *lo (cells
 * 0-63) or bit i - 64 of *hi (64-80). Returns 0, or -1 when a cell holds
 * a value over 9. Sixteen cells a step where there are SSE2 byte compares
 * (every x86-64 path), else cell by cell. */
static int given_cells(const struct sudoku_grid *p, uint64_t *lo, uint32_t *hi)
{
#ifdef __SSE2__
    const __m128i zero = _mm_setzero_si128(), nine = _mm_set1_epi8(9);
    unsigned blank[5], over = p->cell[80] > 9;

#pragma GCC unroll 5
    for (unsigned k = 0; k < 5; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p->cell + 16 * k));
        blank[k] = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero));
        /* 0xFFFF when no byte of v is over 9 */
        over |= (unsigned)_mm_movemask_epi8(
                    _mm_cmpeq_epi8(_mm_subs_epu8(v, nine), zero)) ^
                0xFFFFu;
    }
    if (over)
        return -1;
    *lo = ~((uint64_t)blank[0] | (uint64_t)blank[1] << 16 |
            (uint64_t)blank[2] << 32 | (uint64_t)blank[3] << 48);
    *hi = (~blank[4] & 0xFFFFu) | (uint32_t)(p->cell[80] != 0) << 16;
#else
    *lo = 0, *hi = 0;
    for (unsigned i = 0; i < SUDOKU_CELLS; i++) {
        unsigned v = p->cell[i];
        if (v > 9)
            return -1;
        if (v != 0 && i < 64)
            *lo |= (uint64_t)1 << i;
        else if (v != 0)
            *hi |= 1u << (i - 64);
    }
#endif
    return 0;
}

/* The root state of `puzzle`: each given clears its peers from its
 * digit's set, then every given cell leaves the other digits' sets at
 * once. Returns 0 when the givens break a rule (a digit a peer already
 * holds, or a value over 9: no solution), else 1. Only the given cells
 * are visited (where a loop over all 81 and a lane picked by the cell's
 * band cost 1,600 instructions a puzzle of 25 givens). */
static int bb_givens(struct bb *s, const struct sudoku_grid *puzzle)
{
    vband taken = {0, 0, 0, 0}, mine[9];
    uint64_t lo;
    uint32_t hi;

    for (unsigned d = 0; d < 9; d++) {
        s->cand[d] = (vband){BAND_ALL, BAND_ALL, BAND_ALL, BAND_ALL};
        mine[d] = taken;
    }
    s->unsolved = (vband){BAND_ALL, BAND_ALL, BAND_ALL, 0};
    if (given_cells(puzzle, &lo, &hi) != 0)
        return 0;
    for (unsigned h = 0; h < 2; h++) {
        for (uint64_t x = h ? hi : lo; x; x &= x - 1) {
            unsigned i = 64 * h + (unsigned)__builtin_ctzll(x);
            unsigned d = puzzle->cell[i] - 1u;
            if (!vany(s->cand[d] & cell_vec[i]))
                return 0;
            bb_place_only(s, d, i);
            taken |= cell_vec[i];
            mine[d] |= cell_vec[i];
        }
    }
    for (unsigned d = 0; d < 9; d++)
        s->cand[d] &= ~taken | mine[d];
    return 1;
}

enum sudoku_status SUDOKU_KERNEL(SUDOKU_KERNEL_ARGS)
{
    struct search sr = {limit ? limit : 1, 0, 0, max_nodes, 1, 0, solution, 0};
    struct bb s;
    int alive = bb_givens(&s, puzzle);

    /* Puzzles given with 31 cells or more need few guesses, and locked
     * candidates cost them more than they save: singles only. */
    int locked = unsolved_cells(&s) > 50;
    if (alive && bb_propagate(&s, 0x1FF, locked)) {
        sr.dense = unsolved_cells(&s) <= 46;
        search(&sr, &s, locked);
    }

    *count = sr.count;
    if (stats) {
        stats->nodes = sr.nodes;
        stats->guesses = sr.guesses;
    }
    return sr.out_of_budget ? SUDOKU_BUDGET : SUDOKU_OK;
}

#if SUDOKU_BASELINE
/* ========================================================================
 * Dispatch
 * ===================================================================== */

typedef enum sudoku_status sudoku_kernel_fn(SUDOKU_KERNEL_ARGS);

/* The AVX kernels exist where sudoku_avx2.c and sudoku_avx512.c build
 * them: x86-64 with GCC or Clang (their -m flags and, without glibc's
 * feature table, their __builtin_cpu_supports). */
#if defined(__x86_64__) && defined(__GNUC__)
#define SUDOKU_ISA_KERNELS 1
#else
#define SUDOKU_ISA_KERNELS 0
#endif

static sudoku_kernel_fn *const isa_kernels[SUDOKU_ISA_COUNT] = {
    sudoku_kernel_sse2,
#if SUDOKU_ISA_KERNELS
    sudoku_kernel_avx2, sudoku_kernel_avx512
#else
    sudoku_kernel_sse2, sudoku_kernel_sse2
#endif
};

const char *sudoku_isa_name(enum sudoku_isa isa)
{
    switch (isa) {
    case SUDOKU_ISA_AVX2:
        return "avx2";
    case SUDOKU_ISA_AVX512:
        return "avx512";
    default:
        return SUDOKU_ISA_KERNELS ? "sse2" : "generic";
    }
}

#if SUDOKU_ISA_KERNELS && defined(__GLIBC__) && __has_include(<sys/platform/x86.h>)
/* glibc's loader has read the CPU's features (and the OS's register state)
 * before main: reading its table costs no cpuid, which in a virtual
 * machine traps to the hypervisor (about 10 us each on the machine of
 * docs/performance.md; libgcc's __builtin_cpu_init issues a dozen). The
 * header's own CPU_FEATURE_ACTIVE shifts a signed 1 by up to 31. */
#include <sys/platform/x86.h>
#define ISA_GLIBC 1
static int isa_active(unsigned index)
{
    const struct cpuid_feature *f = __x86_get_cpuid_feature_leaf(index / 128);
    return (f->active_array[(index % 128) / 32] >> (index % 32)) & 1u;
}
#define ISA_HAS(name, gcc_name) isa_active(x86_cpu_##name)
#elif SUDOKU_ISA_KERNELS
#define ISA_GLIBC 0
#define ISA_HAS(name, gcc_name) __builtin_cpu_supports(gcc_name)
#endif

int sudoku_isa_supported(enum sudoku_isa isa)
{
#if SUDOKU_ISA_KERNELS
    /* Every extension the Makefile enables for the file, since the
     * compiler may use any of them; the OS must save the registers
     * (glibc's, libgcc's and compiler-rt's checks read XCR0 for AVX and
     * AVX-512). */
#if !ISA_GLIBC
    __builtin_cpu_init();
#endif
    int avx2 = ISA_HAS(AVX2, "avx2") && ISA_HAS(BMI1, "bmi") &&
               ISA_HAS(BMI2, "bmi2") && ISA_HAS(POPCNT, "popcnt");
    switch (isa) {
    case SUDOKU_ISA_SSE2:
        return 1;
    case SUDOKU_ISA_AVX2:
        return avx2;
    case SUDOKU_ISA_AVX512:
        return avx2 && ISA_HAS(AVX512F, "avx512f") &&
               ISA_HAS(AVX512BW, "avx512bw") && ISA_HAS(AVX512VL, "avx512vl") &&
               ISA_HAS(AVX512_VBMI, "avx512vbmi");
    }
    return 0;
#else
    return isa == SUDOKU_ISA_SSE2;
#endif
}

/* The best path the CPU has (each needs what the one below it needs). */
static enum sudoku_isa isa_best(void)
{
    for (int i = SUDOKU_ISA_COUNT - 1; i > 0; i--)
        if (sudoku_isa_supported((enum sudoku_isa)i))
            return (enum sudoku_isa)i;
    return SUDOKU_ISA_SSE2;
}

/* The path SUDOKUD_ISA names when the CPU has it, else the best it has. */
static enum sudoku_isa isa_pick(void)
{
    const char *want = getenv("SUDOKUD_ISA");

    for (int i = SUDOKU_ISA_COUNT - 1; want && i >= 0; i--)
        if (strcmp(want, sudoku_isa_name((enum sudoku_isa)i)) == 0 &&
            sudoku_isa_supported((enum sudoku_isa)i))
            return (enum sudoku_isa)i;
    return isa_best();
}

/* The path sudoku_count takes and the best one, chosen once by the
 * constructor below. They are the library's only statics that are
 * written: once, before main and so before any thread exists, and only read
 * afterwards, so every caller sees one value with no lock and no atomics on
 * the solver's path. -1 until then: a call from another constructor that
 * runs first decides on the spot (the same way) without storing it. */
static int isa_chosen = -1, isa_top = -1;

__attribute__((constructor)) static void isa_init(void)
{
    isa_top = (int)isa_best();
    isa_chosen = (int)isa_pick();
}

enum sudoku_isa sudoku_isa_current(void)
{
    return isa_chosen >= 0 ? (enum sudoku_isa)isa_chosen : isa_pick();
}

enum sudoku_status sudoku_count_isa(enum sudoku_isa isa,
                                    const struct sudoku_grid *puzzle,
                                    unsigned limit, uint64_t max_nodes,
                                    struct sudoku_grid *solution,
                                    unsigned *count, struct sudoku_stats *stats)
{
    int top = isa_top >= 0 ? isa_top : (int)isa_best();

    if ((unsigned)isa >= SUDOKU_ISA_COUNT || (int)isa > top)
        isa = SUDOKU_ISA_SSE2;
    return isa_kernels[isa](puzzle, limit, max_nodes, solution, count, stats);
}

enum sudoku_status sudoku_count(const struct sudoku_grid *puzzle,
                                unsigned limit, uint64_t max_nodes,
                                struct sudoku_grid *solution, unsigned *count,
                                struct sudoku_stats *stats)
{
    return isa_kernels[sudoku_isa_current()](puzzle, limit, max_nodes, solution,
                                             count, stats);
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
#endif /* SUDOKU_BASELINE */
