/* serate_internal.h - what the files of the SE rater share (serate.c: the
 * step loop and the API; serate_basic.c: singles, intersections, subsets,
 * fish, wings; serate_unique.c: unique loops and BUG; serate_aligned.c:
 * aligned exclusion; serate_chain.c: SE's chaining). Not a contract:
 * include/engine/serate.h is. Every scan runs in SE's own order, since
 * the first hint found is the one applied and later steps depend on it. */
#ifndef SERATE_INTERNAL_H
#define SERATE_INTERNAL_H

#include <stdint.h>

#include "serate.h"

/* A grid of pencil marks as SE keeps it: val[c] 0 or 1-9; cand[c] has bit
 * v (1 << v, v = 1..9) set while v is still possible. A placed cell has no
 * candidates. Cells row-major: c = y * 9 + x. */
struct se_grid {
    uint8_t val[81];
    uint16_t cand[81];
    uint16_t pos[27][10]; /* pos[r][v] bit k: cell k of region r has v */
};

/* Regions in SE's order of region types: 0-8 blocks (row-major), 9-17
 * rows, 18-26 columns. Cell k of a block is (k / 3, k % 3) inside it. */
enum { SE_BLOCK = 0, SE_ROW = 1, SE_COL = 2 };

struct se_tables {
    uint8_t rcell[27][9];   /* cell k of region r */
    uint8_t creg[81][3];    /* region of cell c, by type */
    uint8_t cidx[81][3];    /* index of cell c in that region */
    uint8_t house[81][20];  /* SE's getHouseCells(): block, row, column */
    uint64_t peers[81][2];  /* the same 20 cells as a bit set */
    uint64_t rmask[27][2];  /* the cells of region r as a bit set */
    uint16_t inter[27][27]; /* cells of region a (bit k) also in region b */
};

/* One hint: what it removes (rem[c], candidate bits), the cell it then
 * places (-1: none), its difficulty exactly as SE's double arithmetic
 * gives it, and its name. For a hint found inside a nested chain, rp holds
 * SE's getRuleParents(): the candidates that had to go before it. */
struct se_hint {
    double diff;
    int cell;
    int value;
    uint16_t rem[81];
    uint16_t rp[81];
    char name[72];
    /* Chaining hints only: sort keys and nesting (serate_chain.c). */
    int complexity;
    int sortkey;
    int seq;    /* SE's list order where hints are made out of it (else 0) */
    int nested; /* index of the chain record in the nested store, or -1 */
};

struct se_ctx;

/* A producer hands each hint to acc->add; a nonzero return stops it (SE's
 * SingleHintAccumulator interrupts after the first hint). want_rp asks
 * the producers to fill rp against acc->source. */
struct se_acc {
    int (*add)(struct se_acc *acc, struct se_hint *h);
    const struct se_grid *source;
    int want_rp;
    void *data;
};

/* The candidates of the grid on which se_aligned(degree) last scanned
 * every set of cells and found nothing (serate_aligned.c). */
struct se_aligned_memo {
    int valid;
    uint16_t cand[81];
};

/* Where a local scan found no hint, for serate_basic.c: a region's nine
 * cells (cand, bit 0 set when placed) or a digit's nine row positions
 * (bits 10+ of the first: the digit's placed count). Two such keys, the
 * one found last first; a scan skips what it meets again. Nested chains
 * ask the same rules at many grids that differ from the step's in a few
 * regions and digits only. */
struct se_scan_memo {
    uint8_t n;
    uint16_t key[2][9];
};

struct se_ctx {
    struct se_tables t;
    struct se_aligned_memo aligned[2];    /* degree 2, 3 */
    struct se_scan_memo hidden[2][3][27]; /* [direct][degree - 2][r] */
    struct se_scan_memo naked[3][27];     /* [degree - 2][r] */
    struct se_scan_memo fish[3][2][10];   /* [degree - 2][pass][v] */
    struct se_scan_memo locking[4][10];   /* [pass][v], not direct */
    uint64_t deadline_ns;                 /* 0: none */
    int timed_out;
    long checks;
    struct se_chain_mem *chain; /* serate_chain.c's work area */
};

/* Combinations of k of n bits in SE's Permutations order (Gosper's). */
/* Bit counts of 10-bit masks (candidates use bits 1-9, positions 0-8):
 * a table, since the default target has no popcount instruction. */
#define SE_B2(n) n, n + 1, n + 1, n + 2
#define SE_B4(n) SE_B2(n), SE_B2(n + 1), SE_B2(n + 1), SE_B2(n + 2)
#define SE_B6(n) SE_B4(n), SE_B4(n + 1), SE_B4(n + 1), SE_B4(n + 2)
#define SE_B8(n) SE_B6(n), SE_B6(n + 1), SE_B6(n + 1), SE_B6(n + 2)
#define SE_B10(n) SE_B8(n), SE_B8(n + 1), SE_B8(n + 1), SE_B8(n + 2)
static const uint8_t se_bits10[1024] = {SE_B10(0)};

static inline int se_popcount(unsigned x)
{
    return x < 1024 ? se_bits10[x] : __builtin_popcount(x);
}

static inline unsigned se_perm_next(unsigned m)
{
    unsigned s = m & -m;
    unsigned r = m + s;
    return r | (((m ^ r) >> 2) / s);
}

static inline int se_first_bit(unsigned x)
{
    return x ? __builtin_ctz(x) : -1;
}

void se_hint_init(struct se_hint *h, double diff, const char *name);
void se_place(struct se_ctx *ctx, struct se_grid *g, int cell, int v);
/* Removes the candidates `bits` of `cell`, keeping pos[][] in step. */
void se_remove(const struct se_ctx *ctx, struct se_grid *g, int cell,
               unsigned bits);

static inline int se_region_positions(const struct se_ctx *ctx,
                                      const struct se_grid *g, int r, int v)
{
    (void)ctx;
    return g->pos[r][v];
}
int se_region_empty(const struct se_ctx *ctx, const struct se_grid *g, int r);
int se_time_check(struct se_ctx *ctx);

/* Has the budget run out? The clock is read once in 64 calls. */
static inline int se_time_up(struct se_ctx *ctx)
{
    if (ctx->timed_out)
        return 1;
    if (!ctx->deadline_ns || (++ctx->checks & 63))
        return 0;
    return se_time_check(ctx);
}

/* Producers: return nonzero when acc stopped them. */
int se_hidden_single(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc);
int se_naked_single(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc);
int se_locking(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc,
               int direct);
int se_hidden_set(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc,
                  int degree, int direct);
int se_naked_set(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc,
                 int degree);
int se_fish(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc,
            int degree);
int se_xywing(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc,
              int xyz);
int se_unique_loops(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc);
int se_bug(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc);
int se_aligned(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc,
               int degree);

/* SE's Chaining(isMultiple, isDynamic, isNishio, level). */
int se_chaining(struct se_ctx *ctx, struct se_grid *g, struct se_acc *acc,
                int multiple, int dynamic, int nishio, int level);
int se_chain_init(struct se_ctx *ctx);
void se_chain_free(struct se_ctx *ctx);

#endif
