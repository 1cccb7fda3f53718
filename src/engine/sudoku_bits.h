/* sudoku_bits.h - the solver's bitboards (private to src/engine/sudoku.c): the
 * state's layout, its tables and the placement of a digit. Everything here
 * is static: one translation unit uses it. */
#ifndef SUDOKU_BITS_H
#define SUDOKU_BITS_H

#include <stdint.h>

#ifdef __AVX2__
#include <immintrin.h>
#endif

/* ========================================================================
 * Bitboards
 *
 * A band is three rows; cell (r, c) is bit (r % 3) * 9 + c of band r / 3,
 * so cell index i = 27 * band + bit:
 *
 *    bit  26 ......... 18 | 17 ......... 9 | 8 .......... 0
 *         row 3b+2, c8-c0 | row 3b+1       | row 3b, c8-c0
 *
 * A "triad" is
 * the three cells of one row inside one box; its lowest bit is
 * 9 * row + 3 * box, so TRIAD_LOW marks the nine triads of a band.
 * ===================================================================== */

#define BAND_ALL 0x7FFFFFFu  /* 27 cells */
#define ROW_BITS 0x1FFu      /* row 0 of a band */
#define COL_BITS 0x40201u    /* column 0 of a band: bits 0, 9, 18 */
#define BOX_BITS 0x1C0E07u   /* box 0 of a band */
#define TRIAD_LOW 0x1249249u /* bits 0, 3, ..., 24 */

/* A digit's cells in the three bands, one band per lane (lane k: band k),
 * so that one vector operation works on the whole grid: SSE2 on x86-64,
 * NEON on arm64, plain words where the target has no vectors (GCC and
 * Clang lower the type to whatever the target has). Lane 3 is a phantom
 * band: full in every digit's set and solved, so that no test over all
 * lanes needs a mask. */
typedef uint32_t vband __attribute__((vector_size(16)));

struct bb {
    vband cand[9]; /* cand[d][b]: cells of band b where digit d+1 may
                      stand, its placed cell included */
    vband unsolved;
};

typedef uint64_t vhalves __attribute__((vector_size(16)));

/* 1 when any lane of v is not zero: one vptest on the AVX kernels, two
 * 64-bit halves elsewhere (SSE2 has no test of a whole vector). */
static inline int vany(vband v)
{
#ifdef __AVX2__
    return !_mm_testz_si128((__m128i)v, (__m128i)v);
#else
    vhalves h = (vhalves)v;
    return (h[0] | h[1]) != 0;
#endif
}

/* The peers of a cell (row, column and box, the cell itself included) and
 * the cell itself, by cell index i = 27 * band + bit. */
#define OWN(r, c)                                                              \
    ((COL_BITS << (c)) | (ROW_BITS << (9 * (r))) |                             \
     (BOX_BITS << (3 * ((c) / 3))))
#define LANE(k, j, own, other) ((k) == (j) ? (own) : (other))
#define PEERS(k, r, c)                                                         \
    {                                                                          \
        LANE(k, 0, OWN(r, c), COL_BITS << (c)),                                \
            LANE(k, 1, OWN(r, c), COL_BITS << (c)),                            \
            LANE(k, 2, OWN(r, c), COL_BITS << (c)), 0                          \
    }
#define OTHERS(k, r, c)                                                        \
    {                                                                          \
        LANE(k, 0, OWN(r, c) & ~(1u << (9 * (r) + (c))), COL_BITS << (c)),     \
            LANE(k, 1, OWN(r, c) & ~(1u << (9 * (r) + (c))), COL_BITS << (c)), \
            LANE(k, 2, OWN(r, c) & ~(1u << (9 * (r) + (c))), COL_BITS << (c)), \
            0                                                                  \
    }
#define CELL(k, r, c)                                                          \
    {                                                                          \
        LANE(k, 0, 1u << (9 * (r) + (c)), 0),                                  \
            LANE(k, 1, 1u << (9 * (r) + (c)), 0),                              \
            LANE(k, 2, 1u << (9 * (r) + (c)), 0), 0                            \
    }
#define ROW9(M, k, r)                                                          \
    M(k, r, 0), M(k, r, 1), M(k, r, 2), M(k, r, 3), M(k, r, 4), M(k, r, 5),    \
        M(k, r, 6), M(k, r, 7), M(k, r, 8)
#define BAND27(M, k) ROW9(M, k, 0), ROW9(M, k, 1), ROW9(M, k, 2)
static const vband cell_peers[81] = {BAND27(PEERS, 0), BAND27(PEERS, 1),
                                     BAND27(PEERS, 2)};
static const vband cell_others[81] = {BAND27(OTHERS, 0), BAND27(OTHERS, 1),
                                      BAND27(OTHERS, 2)};
static const vband cell_vec[81] = {BAND27(CELL, 0), BAND27(CELL, 1),
                                   BAND27(CELL, 2)};

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

/* Places digit d (0-8) in cell i when no other digit's set holds the cell
 * (a naked single, or after bb_place has cleared it): only d's set
 * changes. */
static inline void bb_place_only(struct bb *s, unsigned d, unsigned i)
{
    s->cand[d] = (s->cand[d] & ~cell_peers[i]) | cell_vec[i];
    s->unsolved &= ~cell_vec[i];
}

/* Places digit d (0-8) in cell `bit` of band k. The caller has checked that
 * d is still a candidate there. Returns the digits whose sets changed. */
static inline unsigned bb_place(struct bb *s, unsigned d, unsigned k,
                                unsigned bit)
{
    unsigned i = 27 * k + bit, changed = 1u << d;
    vband cell = cell_vec[i];

#if defined(__AVX512F__) && defined(__BMI2__)
    /* digits 0-3 and 4-7 a 512-bit vector each: the cell is in lane k
     * only, so its test bits are those of 0x1111 << k */
    __m512i c4 = _mm512_broadcast_i32x4((__m128i)cell);
    __m512i lo = _mm512_loadu_si512(&s->cand[0]);
    __m512i hi = _mm512_loadu_si512(&s->cand[4]);
    unsigned lanes = 0x1111u << k;
    changed |= _pext_u32(_mm512_test_epi32_mask(lo, c4), lanes) |
               _pext_u32(_mm512_test_epi32_mask(hi, c4), lanes) << 4 |
               (unsigned)vany(s->cand[8] & cell) << 8;
    _mm512_storeu_si512(&s->cand[0], _mm512_andnot_si512(c4, lo));
    _mm512_storeu_si512(&s->cand[4], _mm512_andnot_si512(c4, hi));
    s->cand[8] &= ~cell;
#else
#pragma GCC unroll 9
    for (unsigned e = 0; e < 9; e++) {
        changed |= ((s->cand[e][k] >> bit) & 1u) << e;
        s->cand[e] &= ~cell;
    }
#endif
    bb_place_only(s, d, i);
    return changed;
}

/* ========================================================================
 * Placement patterns (the search branches on them)
 * ===================================================================== */

/* perm_by_row[r][x]: the patterns p whose triad in row r of a band (band r
 * of a stack) lies in the set x of boxes (columns of the stack). The
 * patterns that fit a digit's triads are the AND over its three rows. */
static const uint8_t perm_by_row[3][8] = {
    {0x00, 0x03, 0x0C, 0x0F, 0x30, 0x33, 0x3C, 0x3F},
    {0x00, 0x14, 0x21, 0x35, 0x0A, 0x1E, 0x2B, 0x3F},
    {0x00, 0x28, 0x12, 0x3A, 0x05, 0x2D, 0x17, 0x3F},
};

/* Bits set in x: the instruction where the kernel's build has it (the
 * AVX paths), else a few shifts and adds (the baseline has none, and the
 * library call is slow). */
static inline unsigned pop32(uint32_t x)
{
#ifdef __POPCNT__
    return (unsigned)__builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (x * 0x01010101u) >> 24;
#endif
}

#ifndef __POPCNT__
/* Bits set in a 6-bit pattern set, for builds without the instruction. */
static const uint8_t pop6[64] = {
    0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 1, 2, 2, 3, 2, 3,
    3, 4, 2, 3, 3, 4, 3, 4, 4, 5, 1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4,
    3, 4, 4, 5, 2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6};
#endif

/* The number of patterns in the set f: pop6 or the instruction. */
static inline unsigned npat(unsigned f)
{
#ifdef __POPCNT__
    return (unsigned)__builtin_popcount(f);
#else
    return pop6[f];
#endif
}

/* The patterns that fit a digit whose triads in rows 0, 1, 2 (bands 0, 1,
 * 2 of a stack) lie in the sets r0, r1, r2 of boxes (columns). */
static inline unsigned fits3(uint32_t r0, uint32_t r1, uint32_t r2)
{
    return perm_by_row[0][r0] & perm_by_row[1][r1] & perm_by_row[2][r2];
}

/* pattern_union[f]: the triads of the patterns in the set f as a 3x3 matrix,
 * bit 3r + b for row r and box b (band r and column b of a stack). */
static const uint16_t pattern_union[64] = {
    0x000, 0x111, 0x0A1, 0x1B1, 0x10A, 0x11B, 0x1AB, 0x1BB, 0x062, 0x173, 0x0E3,
    0x1F3, 0x16A, 0x17B, 0x1EB, 0x1FB, 0x08C, 0x19D, 0x0AD, 0x1BD, 0x18E, 0x19F,
    0x1AF, 0x1BF, 0x0EE, 0x1FF, 0x0EF, 0x1FF, 0x1EE, 0x1FF, 0x1EF, 0x1FF, 0x054,
    0x155, 0x0F5, 0x1F5, 0x15E, 0x15F, 0x1FF, 0x1FF, 0x076, 0x177, 0x0F7, 0x1F7,
    0x17E, 0x17F, 0x1FF, 0x1FF, 0x0DC, 0x1DD, 0x0FD, 0x1FD, 0x1DE, 0x1DF, 0x1FF,
    0x1FF, 0x0FE, 0x1FF, 0x0FF, 0x1FF, 0x1FE, 0x1FF, 0x1FF, 0x1FF};

/* spread3[x]: the three bits of x moved to bits 0, 3, 6 (a row of triads). */
static const uint32_t spread3[8] = {0, 1, 8, 9, 64, 65, 72, 73};

#endif
