/* sudoku_lanes.h - the AVX-512 kernel's lane helpers (private to
 * src/engine/sudoku.c, included only where the build has AVX-512 BW and
 * VL): four digits' sets in one 512-bit vector, a digit per 128-bit lane,
 * so that a rule written for one digit's vband runs on four at once. */
#ifndef SUDOKU_LANES_H
#define SUDOKU_LANES_H

#include <immintrin.h>
#include <stdint.h>

#include "sudoku_bits.h"

/* Four digits' sets, one per 128-bit lane (lane q: digit d0 + q); within a
 * lane the bands as in vband (word k: band k, word 3 the phantom band):
 *
 *    word  15 14 13 12 | 11 10  9  8 |  7  6  5  4 |  3  2  1  0
 *          d0+3        | d0+2        | d0+1        | d0: ph b2 b1 b0
 *
 * Byte shuffles and 32-bit shuffles work inside a 128-bit lane, so the
 * one-digit code's lookups and band moves carry over unchanged. */
typedef uint32_t vquad __attribute__((vector_size(64)));

/* Lanes 0-2 of each 128-bit lane of v moved one lane on (0xC9: 1, 2, 0)
 * or back (0xD2: 2, 0, 1); lane 3 stays. */
#define QUAD_NEXT(v) ((vquad)_mm512_shuffle_epi32((__m512i)(v), 0xC9))
#define QUAD_PREV(v) ((vquad)_mm512_shuffle_epi32((__m512i)(v), 0xD2))

/* The lanes (words) of the digits of q (bits 0-3: digits d0..d0+3). */
static inline __mmask16 quad_lanes(unsigned q)
{
    return (__mmask16)(_pdep_u32(q, 0x1111u) * 0xFu);
}

/* The digits (bits 0-3) that have a word set in the 16-lane mask m. */
static inline unsigned quad_digits(__mmask16 m)
{
    unsigned x = m;
    x |= x >> 1;
    x |= x >> 2;
    return _pext_u32(x, 0x1111u);
}

/* Byte lookup per 128-bit lane: table[idx] for each byte of idx under 16
 * (each lane's index sits in its low byte, its other bytes 0 read entry 0,
 * which every table keeps 0). */
static inline vquad quad_shuffle(vquad table, vquad idx)
{
    return (vquad)_mm512_shuffle_epi8((__m512i)table, (__m512i)idx);
}

/* A 16-byte table in every 128-bit lane. */
static inline vquad quad_bytes(__m128i x)
{
    return (vquad)_mm512_broadcast_i32x4(x);
}

/* The sum of v's four 128-bit lanes. */
static inline vband quad_sum(vquad v)
{
    __m512i x = (__m512i)v;
    return (vband)_mm_add_epi32(_mm_add_epi32(_mm512_castsi512_si128(x),
                                              _mm512_extracti32x4_epi32(x, 1)),
                                _mm_add_epi32(_mm512_extracti32x4_epi32(x, 2),
                                              _mm512_extracti32x4_epi32(x, 3)));
}

/* fits3 of each word: the patterns that fit triad sets g0, g1, g2 (each
 * under 8). */
static inline vquad quad_fits3(vquad g0, vquad g1, vquad g2)
{
    const vquad t0 =
        quad_bytes(_mm_loadl_epi64((const __m128i *)perm_by_row[0]));
    const vquad t1 =
        quad_bytes(_mm_loadl_epi64((const __m128i *)perm_by_row[1]));
    const vquad t2 =
        quad_bytes(_mm_loadl_epi64((const __m128i *)perm_by_row[2]));

    return quad_shuffle(t0, g0) & quad_shuffle(t1, g1) & quad_shuffle(t2, g2);
}

/* Word j of each lane of *g0, *g1, *g2: bits 3j..3j+2 of words 0, 1, 2
 * of c's lane (stack j's columns in bands 0, 1, 2), as by_stack in
 * sudoku.c; word 3 gets 0. */
static inline void quad_by_stack(vquad c, vquad *g0, vquad *g1, vquad *g2)
{
    const __m512i shift = _mm512_broadcast_i32x4(_mm_setr_epi32(0, 3, 6, 32));
    *g0 = (vquad)_mm512_srlv_epi32(_mm512_shuffle_epi32((__m512i)c, 0x00),
                                   shift) &
          7u;
    *g1 = (vquad)_mm512_srlv_epi32(_mm512_shuffle_epi32((__m512i)c, 0x55),
                                   shift) &
          7u;
    *g2 = (vquad)_mm512_srlv_epi32(_mm512_shuffle_epi32((__m512i)c, 0xAA),
                                   shift) &
          7u;
}

/* pattern_union of each word's pattern set f (under 64), as union_v in
 * sudoku.c: patterns 0-3 and 4-5 from two 16-entry tables, bit 8 from a
 * third. */
static inline vquad quad_union(vquad f)
{
    const vquad lo = quad_bytes(
        _mm_setr_epi8(0x00, 0x11, (char)0xA1, (char)0xB1, 0x0A, 0x1B,
                      (char)0xAB, (char)0xBB, 0x62, 0x73, (char)0xE3,
                      (char)0xF3, 0x6A, 0x7B, (char)0xEB, (char)0xFB));
    const vquad lo8 = quad_bytes(
        _mm_setr_epi8(0, 1, 0, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1));
    const vquad hi =
        quad_bytes(_mm_setr_epi8(0x00, (char)0x8C, 0x54, (char)0xDC, 0, 0, 0, 0,
                                 0, 0, 0, 0, 0, 0, 0, 0));
    vquad a = f & 15u, b = f >> 4;

    return quad_shuffle(lo, a) | quad_shuffle(hi, b) |
           (quad_shuffle(lo8, a) << 8);
}

#endif
