/* killer.c - killer sudoku cage lists: building them, checking them against
 * a board (killer_check, in the order its contract gives, first problem
 * wins) and saying what is wrong in one sentence. The search and the
 * combination table live in killer_search.c. */
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
