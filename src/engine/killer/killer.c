/* killer.c - killer sudoku cage lists: building them, checking them against
 * a board (killer_check, in the order its contract gives, first problem
 * wins), saying what is wrong in one sentence, and the table of digit
 * combinations per (cage size, sum) that the check and the search
 * (killer_search.c) both use. */
#include "killer.h"

#include <stdio.h>
#include <string.h>

/* ========================================================================
 * Building a list
 * ===================================================================== */

void killer_init(struct killer_cages *k)
{
    k->ncages = 0;
    k->ncells = 0;
    k->truncated = 0;
}

void killer_add_cage(struct killer_cages *k, int sum)
{
    if (k->ncages == KILLER_MAX_CELLS) {
        k->truncated = 1;
        return;
    }
    k->cage[k->ncages++] = (struct killer_cage){sum, k->ncells, 0};
}

void killer_add_cell(struct killer_cages *k, int row, int col)
{
    if (k->ncages == 0 || k->ncells == KILLER_MAX_CELLS || k->truncated) {
        k->truncated = 1;
        return;
    }
    k->row[k->ncells] = row;
    k->col[k->ncells] = col;
    k->ncells++;
    k->cage[k->ncages - 1].ncells++;
}

/* ========================================================================
 * Digit combinations
 * ===================================================================== */

/* Every non-empty set of digits (bit d-1 for d), ordered by size, then sum:
 * generated, and checked whole by tests/test_killer.c. */
static const uint16_t combo_mask[511] = {
    0x001, 0x002, 0x004, 0x008, 0x010, 0x020, 0x040, 0x080, 0x100, 0x003, 0x005,
    0x006, 0x009, 0x00a, 0x011, 0x00c, 0x012, 0x021, 0x014, 0x022, 0x041, 0x018,
    0x024, 0x042, 0x081, 0x028, 0x044, 0x082, 0x101, 0x030, 0x048, 0x084, 0x102,
    0x050, 0x088, 0x104, 0x060, 0x090, 0x108, 0x0a0, 0x110, 0x0c0, 0x120, 0x140,
    0x180, 0x007, 0x00b, 0x00d, 0x013, 0x00e, 0x015, 0x023, 0x016, 0x019, 0x025,
    0x043, 0x01a, 0x026, 0x029, 0x045, 0x083, 0x01c, 0x02a, 0x031, 0x046, 0x049,
    0x085, 0x103, 0x02c, 0x032, 0x04a, 0x051, 0x086, 0x089, 0x105, 0x034, 0x04c,
    0x052, 0x061, 0x08a, 0x091, 0x106, 0x109, 0x038, 0x054, 0x062, 0x08c, 0x092,
    0x0a1, 0x10a, 0x111, 0x058, 0x064, 0x094, 0x0a2, 0x0c1, 0x10c, 0x112, 0x121,
    0x068, 0x098, 0x0a4, 0x0c2, 0x114, 0x122, 0x141, 0x070, 0x0a8, 0x0c4, 0x118,
    0x124, 0x142, 0x181, 0x0b0, 0x0c8, 0x128, 0x144, 0x182, 0x0d0, 0x130, 0x148,
    0x184, 0x0e0, 0x150, 0x188, 0x160, 0x190, 0x1a0, 0x1c0, 0x00f, 0x017, 0x01b,
    0x027, 0x01d, 0x02b, 0x047, 0x01e, 0x02d, 0x033, 0x04b, 0x087, 0x02e, 0x035,
    0x04d, 0x053, 0x08b, 0x107, 0x036, 0x039, 0x04e, 0x055, 0x063, 0x08d, 0x093,
    0x10b, 0x03a, 0x056, 0x059, 0x065, 0x08e, 0x095, 0x0a3, 0x10d, 0x113, 0x03c,
    0x05a, 0x066, 0x069, 0x096, 0x099, 0x0a5, 0x0c3, 0x10e, 0x115, 0x123, 0x05c,
    0x06a, 0x071, 0x09a, 0x0a6, 0x0a9, 0x0c5, 0x116, 0x119, 0x125, 0x143, 0x06c,
    0x072, 0x09c, 0x0aa, 0x0b1, 0x0c6, 0x0c9, 0x11a, 0x126, 0x129, 0x145, 0x183,
    0x074, 0x0ac, 0x0b2, 0x0ca, 0x0d1, 0x11c, 0x12a, 0x131, 0x146, 0x149, 0x185,
    0x078, 0x0b4, 0x0cc, 0x0d2, 0x0e1, 0x12c, 0x132, 0x14a, 0x151, 0x186, 0x189,
    0x0b8, 0x0d4, 0x0e2, 0x134, 0x14c, 0x152, 0x161, 0x18a, 0x191, 0x0d8, 0x0e4,
    0x138, 0x154, 0x162, 0x18c, 0x192, 0x1a1, 0x0e8, 0x158, 0x164, 0x194, 0x1a2,
    0x1c1, 0x0f0, 0x168, 0x198, 0x1a4, 0x1c2, 0x170, 0x1a8, 0x1c4, 0x1b0, 0x1c8,
    0x1d0, 0x1e0, 0x01f, 0x02f, 0x037, 0x04f, 0x03b, 0x057, 0x08f, 0x03d, 0x05b,
    0x067, 0x097, 0x10f, 0x03e, 0x05d, 0x06b, 0x09b, 0x0a7, 0x117, 0x05e, 0x06d,
    0x073, 0x09d, 0x0ab, 0x0c7, 0x11b, 0x127, 0x06e, 0x075, 0x09e, 0x0ad, 0x0b3,
    0x0cb, 0x11d, 0x12b, 0x147, 0x076, 0x079, 0x0ae, 0x0b5, 0x0cd, 0x0d3, 0x11e,
    0x12d, 0x133, 0x14b, 0x187, 0x07a, 0x0b6, 0x0b9, 0x0ce, 0x0d5, 0x0e3, 0x12e,
    0x135, 0x14d, 0x153, 0x18b, 0x07c, 0x0ba, 0x0d6, 0x0d9, 0x0e5, 0x136, 0x139,
    0x14e, 0x155, 0x163, 0x18d, 0x193, 0x0bc, 0x0da, 0x0e6, 0x0e9, 0x13a, 0x156,
    0x159, 0x165, 0x18e, 0x195, 0x1a3, 0x0dc, 0x0ea, 0x0f1, 0x13c, 0x15a, 0x166,
    0x169, 0x196, 0x199, 0x1a5, 0x1c3, 0x0ec, 0x0f2, 0x15c, 0x16a, 0x171, 0x19a,
    0x1a6, 0x1a9, 0x1c5, 0x0f4, 0x16c, 0x172, 0x19c, 0x1aa, 0x1b1, 0x1c6, 0x1c9,
    0x0f8, 0x174, 0x1ac, 0x1b2, 0x1ca, 0x1d1, 0x178, 0x1b4, 0x1cc, 0x1d2, 0x1e1,
    0x1b8, 0x1d4, 0x1e2, 0x1d8, 0x1e4, 0x1e8, 0x1f0, 0x03f, 0x05f, 0x06f, 0x09f,
    0x077, 0x0af, 0x11f, 0x07b, 0x0b7, 0x0cf, 0x12f, 0x07d, 0x0bb, 0x0d7, 0x137,
    0x14f, 0x07e, 0x0bd, 0x0db, 0x0e7, 0x13b, 0x157, 0x18f, 0x0be, 0x0dd, 0x0eb,
    0x13d, 0x15b, 0x167, 0x197, 0x0de, 0x0ed, 0x0f3, 0x13e, 0x15d, 0x16b, 0x19b,
    0x1a7, 0x0ee, 0x0f5, 0x15e, 0x16d, 0x173, 0x19d, 0x1ab, 0x1c7, 0x0f6, 0x0f9,
    0x16e, 0x175, 0x19e, 0x1ad, 0x1b3, 0x1cb, 0x0fa, 0x176, 0x179, 0x1ae, 0x1b5,
    0x1cd, 0x1d3, 0x0fc, 0x17a, 0x1b6, 0x1b9, 0x1ce, 0x1d5, 0x1e3, 0x17c, 0x1ba,
    0x1d6, 0x1d9, 0x1e5, 0x1bc, 0x1da, 0x1e6, 0x1e9, 0x1dc, 0x1ea, 0x1f1, 0x1ec,
    0x1f2, 0x1f4, 0x1f8, 0x07f, 0x0bf, 0x0df, 0x13f, 0x0ef, 0x15f, 0x0f7, 0x16f,
    0x19f, 0x0fb, 0x177, 0x1af, 0x0fd, 0x17b, 0x1b7, 0x1cf, 0x0fe, 0x17d, 0x1bb,
    0x1d7, 0x17e, 0x1bd, 0x1db, 0x1e7, 0x1be, 0x1dd, 0x1eb, 0x1de, 0x1ed, 0x1f3,
    0x1ee, 0x1f5, 0x1f6, 0x1f9, 0x1fa, 0x1fc, 0x0ff, 0x17f, 0x1bf, 0x1df, 0x1ef,
    0x1f7, 0x1fb, 0x1fd, 0x1fe, 0x1ff,
};

/* combo_first[k][s]: index in combo_mask of the first set of k digits
 * adding up to s (s = 0..45); the sets end at combo_first[k][s + 1]. */
static const uint16_t combo_first[10][47] = {
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
     0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
     9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9},
    {9,  9,  9,  9,  10, 11, 13, 15, 18, 21, 25, 29, 33, 36, 39, 41,
     43, 44, 45, 45, 45, 45, 45, 45, 45, 45, 45, 45, 45, 45, 45, 45,
     45, 45, 45, 45, 45, 45, 45, 45, 45, 45, 45, 45, 45, 45, 45},
    {45,  45,  45,  45,  45,  45,  45,  46,  47,  49,  52,  56,
     61,  68,  75,  83,  91,  99,  106, 113, 118, 122, 125, 127,
     128, 129, 129, 129, 129, 129, 129, 129, 129, 129, 129, 129,
     129, 129, 129, 129, 129, 129, 129, 129, 129, 129, 129},
    {129, 129, 129, 129, 129, 129, 129, 129, 129, 129, 129, 130,
     131, 133, 136, 141, 147, 155, 164, 175, 186, 198, 209, 220,
     229, 237, 243, 248, 251, 253, 254, 255, 255, 255, 255, 255,
     255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255},
    {255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
     255, 255, 255, 255, 256, 257, 259, 262, 267, 273, 281, 290,
     301, 312, 324, 335, 346, 355, 363, 369, 374, 377, 379, 380,
     381, 381, 381, 381, 381, 381, 381, 381, 381, 381, 381},
    {381, 381, 381, 381, 381, 381, 381, 381, 381, 381, 381, 381,
     381, 381, 381, 381, 381, 381, 381, 381, 381, 381, 382, 383,
     385, 388, 392, 397, 404, 411, 419, 427, 435, 442, 449, 454,
     458, 461, 463, 464, 465, 465, 465, 465, 465, 465, 465},
    {465, 465, 465, 465, 465, 465, 465, 465, 465, 465, 465, 465,
     465, 465, 465, 465, 465, 465, 465, 465, 465, 465, 465, 465,
     465, 465, 465, 465, 465, 466, 467, 469, 471, 474, 477, 481,
     485, 489, 492, 495, 497, 499, 500, 501, 501, 501, 501},
    {501, 501, 501, 501, 501, 501, 501, 501, 501, 501, 501, 501,
     501, 501, 501, 501, 501, 501, 501, 501, 501, 501, 501, 501,
     501, 501, 501, 501, 501, 501, 501, 501, 501, 501, 501, 501,
     501, 502, 503, 504, 505, 506, 507, 508, 509, 510, 510},
    {510, 510, 510, 510, 510, 510, 510, 510, 510, 510, 510, 510,
     510, 510, 510, 510, 510, 510, 510, 510, 510, 510, 510, 510,
     510, 510, 510, 510, 510, 510, 510, 510, 510, 510, 510, 510,
     510, 510, 510, 510, 510, 510, 510, 510, 510, 510, 511},
};

unsigned killer_combinations(int size, int sum, const uint16_t **out)
{
    *out = combo_mask;
    if (size < 1 || size > 9 || sum < 0 || sum > 45)
        return 0;
    *out = combo_mask + combo_first[size][sum];
    return (unsigned)(combo_first[size][sum + 1] - combo_first[size][sum]);
}

/* ========================================================================
 * Checking
 * ===================================================================== */

static enum killer_status found(struct killer_error *err, enum killer_status st,
                                int cage)
{
    err->cage = cage;
    return st;
}

static void add_cell(struct killer_error *err, int row, int col)
{
    if (err->ncells < KILLER_MAX_CELLS) {
        err->row[err->ncells] = row;
        err->col[err->ncells] = col;
        err->ncells++;
    }
}

/* The cells of cage c that cannot be reached from its first cell by steps
 * between side-by-side cells of the cage go into err; returns how many.
 * The cells are in range and distinct (checked before). */
static unsigned cut_off(const struct killer_cages *k, unsigned c,
                        struct killer_error *err)
{
    const struct killer_cage *cg = &k->cage[c];
    uint8_t in[SUDOKU_CELLS] = {0}, stack[SUDOKU_CELLS];
    unsigned top = 0, reached = 1, missing = 0;

    for (unsigned i = 0; i < cg->ncells; i++)
        in[k->row[cg->first + i] * 9 + k->col[cg->first + i]] = 1;
    stack[top++] = (uint8_t)(k->row[cg->first] * 9 + k->col[cg->first]);
    in[stack[0]] = 2;
    while (top > 0) {
        unsigned x = stack[--top], r = x / 9, col = x % 9;
        unsigned next[4], n = 0;
        if (r > 0)
            next[n++] = x - 9;
        if (r < 8)
            next[n++] = x + 9;
        if (col > 0)
            next[n++] = x - 1;
        if (col < 8)
            next[n++] = x + 1;
        for (unsigned j = 0; j < n; j++)
            if (in[next[j]] == 1) {
                in[next[j]] = 2;
                stack[top++] = (uint8_t)next[j];
                reached++;
            }
    }
    if (reached == cg->ncells)
        return 0;
    for (unsigned i = 0; i < cg->ncells; i++) {
        int r = k->row[cg->first + i], col = k->col[cg->first + i];
        if (in[r * 9 + col] == 1) {
            add_cell(err, r, col);
            missing++;
        }
    }
    return missing;
}

/* Do the givens of cage c leave it completable? On a problem the givens
 * (or the two equal ones) go into err and 0 is returned. */
static int givens_fit(const struct sudoku_grid *g, const struct killer_cages *k,
                      unsigned c, struct killer_error *err)
{
    const struct killer_cage *cg = &k->cage[c];
    unsigned used = 0, blanks = 0;
    int given_sum = 0, seen[10] = {0};
    const uint16_t *sets;

    for (unsigned i = 0; i < cg->ncells; i++) {
        unsigned x =
            (unsigned)(k->row[cg->first + i] * 9 + k->col[cg->first + i]);
        unsigned d = g->cell[x];
        if (d == 0) {
            blanks++;
            continue;
        }
        if (used & (1u << (d - 1))) {
            unsigned y = (unsigned)seen[d] - 1;
            err->digit = d;
            add_cell(err, (int)(y / 9), (int)(y % 9));
            add_cell(err, (int)(x / 9), (int)(x % 9));
            return 0;
        }
        used |= 1u << (d - 1);
        seen[d] = (int)x + 1;
        given_sum += (int)d;
    }
    if (used == 0)
        return 1;
    err->sum = cg->sum;
    unsigned n = killer_combinations((int)blanks, cg->sum - given_sum, &sets);
    for (unsigned i = 0; i < n; i++)
        if ((sets[i] & used) == 0)
            return 1;
    if (blanks == 0 && cg->sum == given_sum)
        return 1;
    for (unsigned i = 0; i < cg->ncells; i++) {
        int r = k->row[cg->first + i], col = k->col[cg->first + i];
        if (g->cell[r * 9 + col] != 0)
            add_cell(err, r, col);
    }
    return 0;
}

enum killer_status killer_check(const struct sudoku_grid *puzzle,
                                const struct killer_cages *k,
                                struct killer_error *err)
{
    struct killer_error scratch;
    int owner[SUDOKU_CELLS];
    long total = 0;

    if (err == NULL)
        err = &scratch;
    err->cage = err->other_cage = -1;
    err->sum = 0;
    err->digit = 0;
    err->total = 0;
    err->ncells = 0;
    for (unsigned c = 0; c < k->ncages; c++)
        for (unsigned i = 0; i < k->cage[c].ncells; i++) {
            int r = k->row[k->cage[c].first + i],
                col = k->col[k->cage[c].first + i];
            if (r < 0 || r > 8 || col < 0 || col > 8) {
                add_cell(err, r, col);
                return found(err, KILLER_CELL_OUT_OF_RANGE, (int)c);
            }
        }
    for (int x = 0; x < SUDOKU_CELLS; x++)
        owner[x] = -1;
    for (unsigned c = 0; c < k->ncages; c++)
        for (unsigned i = 0; i < k->cage[c].ncells; i++) {
            int r = k->row[k->cage[c].first + i],
                col = k->col[k->cage[c].first + i];
            if (owner[r * 9 + col] >= 0) {
                err->other_cage = owner[r * 9 + col];
                add_cell(err, r, col);
                return found(err, KILLER_OVERLAP, (int)c);
            }
            owner[r * 9 + col] = (int)c;
        }
    for (unsigned c = 0; c < k->ncages; c++)
        if (k->cage[c].ncells > 1 && cut_off(k, c, err) > 0)
            return found(err, KILLER_NOT_CONNECTED, (int)c);
    for (unsigned c = 0; c < k->ncages; c++) {
        const struct killer_cage *cg = &k->cage[c];
        const uint16_t *sets;
        total += cg->sum;
        if (killer_combinations((int)cg->ncells, cg->sum, &sets) == 0) {
            err->sum = cg->sum;
            for (unsigned i = 0; i < cg->ncells; i++)
                add_cell(err, k->row[cg->first + i], k->col[cg->first + i]);
            return found(err, KILLER_SUM_IMPOSSIBLE, (int)c);
        }
    }
    if (k->ncells == SUDOKU_CELLS && total != 405) {
        err->total = total;
        return found(err, KILLER_TOTAL_NOT_405, -1);
    }
    for (unsigned c = 0; c < k->ncages; c++)
        if (!givens_fit(puzzle, k, c, err))
            return found(err, KILLER_GIVEN_CONFLICT, (int)c);
    /* Unreachable through the decoders (82 cells cannot all pass the checks
     * above), but a cut list must never pass as whole. */
    if (k->truncated)
        return found(err, KILLER_OVERLAP, -1);
    return KILLER_OK;
}

/* ========================================================================
 * Messages
 * ===================================================================== */

/* Appends the cells of err to out as " [r,c]" (base 0) or " r1c1" (base 1),
 * and " ..." when they do not all fit. */
static void put_cells(const struct killer_error *err, int base, char *out,
                      size_t size)
{
    size_t len = strlen(out);

    for (unsigned i = 0; i < err->ncells; i++) {
        int n = base ? snprintf(out + len, size - len, "%s r%dc%d",
                                i ? "," : "", err->row[i] + 1, err->col[i] + 1)
                     : snprintf(out + len, size - len, "%s [%d,%d]",
                                i ? "," : "", err->row[i], err->col[i]);
        if (n < 0 || (size_t)n >= size - len) {
            out[len] = '\0';
            if (size - len > 4)
                snprintf(out + len, size - len, " ...");
            return;
        }
        len += (size_t)n;
    }
}

void killer_describe(enum killer_status st, const struct killer_error *err,
                     int base, char *out, size_t size)
{
    int cage = err->cage + base;
    size_t len;

    if (size == 0)
        return;
    switch (st) {
    case KILLER_OK:
        snprintf(out, size, "the cages are fine");
        return;
    case KILLER_CELL_OUT_OF_RANGE:
        snprintf(out, size,
                 "cage %d has a cell outside the grid (rows and "
                 "columns go from %d to %d):",
                 cage, base, 8 + base);
        break;
    case KILLER_OVERLAP:
        if (err->cage < 0)
            snprintf(out, size,
                     "the cages list more cells than the grid "
                     "has");
        else if (err->other_cage == err->cage)
            snprintf(out, size, "cage %d lists a cell twice:", cage);
        else
            snprintf(out, size,
                     "cages %d and %d share a cell:", err->other_cage + base,
                     cage);
        break;
    case KILLER_NOT_CONNECTED:
        snprintf(out, size,
                 "cage %d is not connected: these cells do not "
                 "touch the rest of it side by side:",
                 cage);
        break;
    case KILLER_SUM_IMPOSSIBLE:
        if (err->ncells > 9)
            snprintf(out, size,
                     "cage %d has %u cells; a cage holds at most "
                     "9 (its digits are distinct)",
                     cage, err->ncells);
        else if (err->ncells == 0)
            snprintf(out, size, "cage %d has no cell", cage);
        else
            snprintf(out, size,
                     "cage %d: %u distinct digits cannot add up "
                     "to %d (only %u to %u)",
                     cage, err->ncells, err->sum,
                     err->ncells * (err->ncells + 1) / 2,
                     err->ncells * (19 - err->ncells) / 2);
        return;
    case KILLER_TOTAL_NOT_405:
        snprintf(out, size,
                 "the cages cover the whole grid but their sums "
                 "total %ld; the digits of a solved grid total 405",
                 err->total);
        return;
    case KILLER_GIVEN_CONFLICT:
        if (err->digit)
            snprintf(out, size, "cage %d holds the given %u twice:", cage,
                     err->digit);
        else
            snprintf(out, size,
                     "cage %d (sum %d): no distinct digits for "
                     "its blank cells complete the sum with its givens:",
                     cage, err->sum);
        break;
    case KILLER_BUDGET:
    default:
        snprintf(out, size, "the search gave up before it ended");
        return;
    }
    len = strlen(out);
    if (len + 1 < size)
        put_cells(err, base, out, size);
}

/* ========================================================================
 * Text
 * ===================================================================== */

static size_t skip_blanks(const char *t, size_t i, size_t len)
{
    while (i < len && (t[i] == ' ' || t[i] == '\t'))
        i++;
    return i;
}

static int is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

enum killer_status killer_parse(const char *text, size_t len,
                                struct killer_cages *out, size_t *bad_index)
{
    size_t i = 0;

    killer_init(out);
    for (;;) {
        int sum = 0, ndigits = 0;
        i = skip_blanks(text, i, len);
        while (i < len && is_digit(text[i]) && ndigits < 6) {
            sum = sum * 10 + (text[i++] - '0');
            ndigits++;
        }
        if (ndigits == 0 || (i < len && is_digit(text[i])))
            goto bad; /* no sum, or one of seven digits or more */
        i = skip_blanks(text, i, len);
        if (i >= len || text[i] != ':')
            goto bad;
        killer_add_cage(out, sum);
        do {
            i = skip_blanks(text, i + 1, len);
            if (i + 1 >= len || !is_digit(text[i]) || !is_digit(text[i + 1]))
                goto bad;
            killer_add_cell(out, text[i] - '1', text[i + 1] - '1');
            i = skip_blanks(text, i + 2, len);
        } while (i < len && text[i] == ',');
        if (i >= len || text[i] == '|')
            return KILLER_OK;
        if (text[i] != ';')
            goto bad;
        i++;
        /* a ';' at the very end is fine */
        if (skip_blanks(text, i, len) >= len ||
            text[skip_blanks(text, i, len)] == '|')
            return KILLER_OK;
    }
bad:
    if (bad_index)
        *bad_index = i < len ? i : len;
    return KILLER_BAD_TEXT;
}

size_t killer_format(const struct killer_cages *k, char *out, size_t size)
{
    size_t len = 0;
    int full = 0;

    if (size > 0)
        out[0] = '\0';
    for (unsigned c = 0; c < k->ncages; c++) {
        const struct killer_cage *cg = &k->cage[c];
        char buf[24];
        int n = snprintf(buf, sizeof(buf), "%s%d:", c ? ";" : "", cg->sum);
        for (unsigned i = 0; i <= cg->ncells; i++) {
            if (i > 0) {
                int r = k->row[cg->first + i - 1],
                    col = k->col[cg->first + i - 1];
                n = snprintf(buf, sizeof(buf), "%s%d%d", i > 1 ? "," : "",
                             r >= 0 && r <= 8 ? r + 1 : 0,
                             col >= 0 && col <= 8 ? col + 1 : 0);
            }
            if (!full && n > 0 && len + (size_t)n < size)
                memcpy(out + len, buf, (size_t)n + 1);
            else
                full = 1; /* keep what fits whole, count the rest */
            len += (size_t)(n > 0 ? n : 0);
        }
    }
    return len;
}
