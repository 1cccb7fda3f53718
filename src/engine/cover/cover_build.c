/* cover_build.c - the generic engine's work space (struct cover_ws in
 * cover_internal.h), built from checked rules: the groups, the units and
 * their pairs, the peers no unit covers, all in one block sized for the
 * rules (for 25x25 without variants about 400 KB: a third the undo trail,
 * a fifth the other-peer list, sized by every peer as an upper bound). */
#include <stdlib.h>
#include <string.h>

#include "cover_internal.h"

#define WORDS ((COVER_MAX_CELLS + 63) / 64)

/* ---- what the rules need, before the block is sized ----------------- */

struct plan {
    unsigned n, ncells, ngroups, nunits, npairs;
    size_t npeers; /* peer entries */
    struct cover_group g[COVER_MAX_GROUPS];
    uint8_t unit_group[COVER_MAX_GROUPS]; /* the group of each unit */
    uint64_t *bits;                       /* the peers, a row per cell */
    uint8_t *meet;                        /* cells units u < v share */
};

static void set_pair(uint64_t *bits, unsigned a, unsigned b)
{
    bits[a * WORDS + b / 64] |= 1ull << (b % 64);
    bits[b * WORDS + a / 64] |= 1ull << (a % 64);
}

static void set_moves(uint64_t *bits, unsigned n, const int (*mv)[2],
                      unsigned nmv)
{
    for (unsigned row = 0; row < n; row++)
        for (unsigned col = 0; col < n; col++)
            for (unsigned m = 0; m < nmv; m++) {
                int r2 = (int)row + mv[m][0], c2 = (int)col + mv[m][1];
                if (r2 >= 0 && c2 >= 0 && r2 < (int)n && c2 < (int)n)
                    set_pair(bits, row * n + col, (unsigned)(r2 * (int)n + c2));
            }
}

/* The peer relation and the units; 0 when out of memory. */
static int plan_peers(const struct cover_rules *r, struct plan *pl)
{
    pl->n = r->n;
    pl->ncells = pl->n * pl->n;
    pl->ngroups = cover_groups(r, pl->g);
    pl->bits = calloc((size_t)pl->ncells * WORDS, sizeof(uint64_t));
    if (!pl->bits)
        return 0;
    for (unsigned i = 0; i < pl->ngroups; i++) {
        const struct cover_group *g = &pl->g[i];
        for (unsigned a = 0; a < g->ncells; a++)
            for (unsigned b = a + 1; b < g->ncells; b++)
                set_pair(pl->bits, g->cell[a], g->cell[b]);
        if (g->ncells == pl->n)
            pl->unit_group[pl->nunits++] = (uint8_t)i;
    }
    if (r->anti_knight)
        set_moves(pl->bits, pl->n, cover_knight, 8);
    if (r->anti_king)
        set_moves(pl->bits, pl->n, cover_king, 4);
    for (size_t i = 0; i < (size_t)pl->ncells * WORDS; i++)
        pl->npeers += (size_t)__builtin_popcountll(pl->bits[i]);
    return 1;
}

/* How many cells each two units share; 0 when out of memory. */
static int plan_pairs(struct plan *pl)
{
    unsigned nu = pl->nunits, n = pl->n;
    uint8_t *first = malloc(pl->ncells);

    pl->meet = calloc((size_t)nu * nu, 1);
    if (!first || !pl->meet) {
        free(first);
        return 0;
    }
    for (unsigned u = 0; u < nu; u++) {
        memset(first, 0xFF, pl->ncells);
        for (unsigned i = 0; i < n; i++)
            first[pl->g[pl->unit_group[u]].cell[i]] = 0;
        for (unsigned v = u + 1; v < nu; v++) {
            unsigned k = 0;
            for (unsigned i = 0; i < n; i++)
                k += first[pl->g[pl->unit_group[v]].cell[i]] == 0;
            pl->meet[u * nu + v] = (uint8_t)k;
            pl->npairs += k >= 2;
        }
    }
    free(first);
    return 1;
}

/* ---- the block ------------------------------------------------------- */

/* Carves `size` bytes (8-aligned) at *off from base; with base NULL it only
 * counts. */
static void *take(char *base, size_t *off, size_t size)
{
    void *p = base ? base + *off : NULL;
    *off += (size + 7) & ~(size_t)7;
    return p;
}

/* Points every array of w into base (or, with base NULL, sums the sizes);
 * returns the bytes. */
static size_t layout(struct cover_ws *w, const struct plan *pl, char *base)
{
    size_t off = 0, nc = pl->ncells, nun = (size_t)pl->nunits * pl->n,
           np = pl->npairs, n = pl->n;

    w->other_start = take(base, &off, (nc + 1) * 4);
    w->uo_start = take(base, &off, (nc + 1) * 4);
    w->side_start = take(base, &off, (nun + 1) * 4);
    w->cand = take(base, &off, nc * 4);
    w->place = take(base, &off, nun * 4);
    w->uo_bit = take(base, &off, nun * 4);
    w->pair_shared = take(base, &off, np * 2 * 4);
    w->side_mask = take(base, &off, np * 2 * n * 4);
    w->reach = take(base, &off, nun * 4);
    w->hidden = take(base, &off, nun * 4);
    w->lock = take(base, &off, np * 2 * n * 4);
    w->trail = take(base, &off, nc * (n + 1) * sizeof(struct cover_trail));
    w->other = take(base, &off, pl->npeers * 2);
    w->unit = take(base, &off, nun * 2);
    w->uo_base = take(base, &off, nun * 2);
    w->side_of = take(base, &off, np * 2 * n * 2);
    w->queue = take(base, &off, nc * 2);
    w->twos = take(base, &off, nc * 2);
    w->pair_unit = take(base, &off, np * 2);
    w->val = take(base, &off, nc);
    w->hidden_flag = take(base, &off, nun);
    w->lock_flag = take(base, &off, np * 2 * n);
    return off;
}

/* Counting sort of lists: counts at start[i + 1] become offsets. */
static void prefix(uint32_t *start, unsigned k)
{
    start[0] = 0;
    for (unsigned i = 0; i < k; i++)
        start[i + 1] += start[i];
}

/* After a fill that advanced start[i] past list i: back to the starts. */
static void unshift(uint32_t *start, unsigned k)
{
    for (unsigned i = k; i > 0; i--)
        start[i] = start[i - 1];
    start[0] = 0;
}

/* The units' cells, each cell's units (base, position bit), then the
 * peers no unit of the cell covers (taken out of pl->bits). */
static void fill_units(struct cover_ws *w, const struct plan *pl)
{
    unsigned n = pl->n;
    size_t no = 0;

    memset(w->uo_start, 0, (pl->ncells + 1) * 4);
    for (unsigned u = 0; u < pl->nunits; u++) {
        memcpy(w->unit + u * n, pl->g[pl->unit_group[u]].cell, n * 2);
        for (unsigned i = 0; i < n; i++)
            w->uo_start[w->unit[u * n + i] + 1]++;
    }
    prefix(w->uo_start, pl->ncells);
    for (unsigned u = 0; u < pl->nunits; u++)
        for (unsigned i = 0; i < n; i++) {
            uint32_t k = w->uo_start[w->unit[u * n + i]]++;
            w->uo_base[k] = (uint16_t)(u * n);
            w->uo_bit[k] = 1u << i;
        }
    unshift(w->uo_start, pl->ncells);
    for (unsigned c = 0; c < pl->ncells; c++) {
        uint64_t *row = pl->bits + (size_t)c * WORDS;
        for (uint32_t k = w->uo_start[c]; k < w->uo_start[c + 1]; k++)
            for (unsigned i = 0; i < n; i++) {
                unsigned x = w->unit[w->uo_base[k] + i];
                row[x / 64] &= ~(1ull << (x % 64));
            }
        w->other_start[c] = (uint32_t)no;
        for (unsigned x = 0; x < WORDS; x++)
            for (uint64_t m = row[x]; m; m &= m - 1)
                w->other[no++] =
                    (uint16_t)(x * 64 + (unsigned)__builtin_ctzll(m));
    }
    w->other_start[pl->ncells] = (uint32_t)no;
}

/* The positions in unit a of the cells it shares with unit b; pos is
 * scratch of a cell each, all 0, and is left so. */
static uint32_t shared_in(const struct cover_ws *w, unsigned a, unsigned b,
                          uint8_t *pos)
{
    unsigned n = w->n;
    uint32_t m = 0;

    for (unsigned i = 0; i < n; i++)
        pos[w->unit[b * n + i]] = 1;
    for (unsigned i = 0; i < n; i++)
        if (pos[w->unit[a * n + i]])
            m |= 1u << i;
    for (unsigned i = 0; i < n; i++)
        pos[w->unit[b * n + i]] = 0;
    return m;
}

static void fill_pairs(struct cover_ws *w, const struct plan *pl)
{
    unsigned nu = pl->nunits, n = pl->n, p = 0;
    uint8_t pos[COVER_MAX_CELLS] = {0};

    for (unsigned u = 0; u < nu; u++)
        for (unsigned v = u + 1; v < nu; v++) {
            if (pl->meet[u * nu + v] < 2)
                continue;
            w->pair_unit[2 * p] = (uint8_t)u;
            w->pair_unit[2 * p + 1] = (uint8_t)v;
            w->pair_shared[2 * p] = shared_in(w, u, v, pos);
            w->pair_shared[2 * p + 1] = shared_in(w, v, u, pos);
            p++;
        }
    memset(w->side_start, 0, (nu * n + 1) * 4);
    for (unsigned s = 0; s < 2 * pl->npairs; s++)
        for (uint32_t m = w->pair_shared[s]; m; m &= m - 1)
            w->side_start[w->pair_unit[s] * n + __builtin_ctz(m) + 1]++;
    prefix(w->side_start, nu * n);
    memset(w->reach, 0, (size_t)nu * n * 4);
    for (unsigned s = 0; s < 2 * pl->npairs; s++)
        for (uint32_t m = w->pair_shared[s]; m; m &= m - 1) {
            unsigned q = w->pair_unit[s] * n + (unsigned)__builtin_ctz(m);
            w->side_mask[w->side_start[q]] = w->pair_shared[s];
            w->side_of[w->side_start[q]++] = (uint16_t)s;
            w->reach[q] |= w->pair_shared[s];
        }
    unshift(w->side_start, nu * n);
}

struct cover_ws *cover_ws_new(const struct cover_rules *r)
{
    struct plan *pl = calloc(1, sizeof(*pl));
    struct cover_ws *w = NULL;

    if (!pl || !plan_peers(r, pl) || !plan_pairs(pl))
        goto done;
    w = calloc(1, sizeof(*w));
    if (!w)
        goto done;
    w->block = malloc(layout(w, pl, NULL));
    if (!w->block) {
        free(w);
        w = NULL;
        goto done;
    }
    layout(w, pl, w->block);
    w->n = pl->n;
    w->ncells = pl->ncells;
    w->nunits = pl->nunits;
    w->npairs = pl->npairs;
    w->all = (1u << pl->n) - 1;
    fill_units(w, pl);
    fill_pairs(w, pl);
done:
    if (pl) {
        free(pl->bits);
        free(pl->meet);
    }
    free(pl);
    return w;
}

void cover_ws_free(struct cover_ws *w)
{
    if (w)
        free(w->block);
    free(w);
}
