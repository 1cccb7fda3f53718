/* cover_text.c - the generic engine's board text (cover_parse,
 * cover_format: '.' for a blank, 1-9 then A-P) and the rule breaks of a
 * board (cover_conflicts, cover_is_solution_of), which the search does
 * not need: it never breaks one. Reads the groups of cover_rules.c. */
#include <string.h>

#include "cover_internal.h"

/* ---- the board's text ------------------------------------------------ */

/* A character's digit: 0 blank, 1..25, or -1 for anything else. */
static int char_digit(char ch)
{
    if (ch == '.' || ch == '0')
        return 0;
    if (ch >= '1' && ch <= '9')
        return ch - '0';
    if (ch >= 'A' && ch <= 'P')
        return ch - 'A' + 10;
    if (ch >= 'a' && ch <= 'p')
        return ch - 'a' + 10;
    return -1;
}

enum cover_status cover_parse(const char *text, size_t len, unsigned n,
                              struct cover_grid *out, size_t *bad_index)
{
    struct cover_grid g;

    if (!cover_size_ok(n) || len != (size_t)n * n)
        return COVER_BAD_SIZE;
    g.n = (uint8_t)n;
    for (size_t i = 0; i < len; i++) {
        int d = char_digit(text[i]);
        if (d < 0 || d > (int)n) {
            if (bad_index)
                *bad_index = i;
            return COVER_BAD_CHAR;
        }
        g.cell[i] = (uint8_t)d;
    }
    memcpy(out->cell, g.cell, len);
    out->n = g.n;
    return COVER_OK;
}

char cover_digit_char(unsigned digit)
{
    if (digit == 0)
        return '.';
    if (digit <= 9)
        return (char)('0' + digit);
    if (digit <= COVER_MAX_N)
        return (char)('A' + digit - 10);
    return '?';
}

void cover_format(const struct cover_grid *g, char *out)
{
    size_t ncells = (size_t)g->n * g->n;

    for (size_t i = 0; i < ncells; i++)
        out[i] = cover_digit_char(g->cell[i]);
    out[ncells] = '\0';
}

/* ---- rule breaks ----------------------------------------------------- */

struct sink {
    struct cover_conflict *out;
    size_t max, total;
};

static void emit(struct sink *s, enum cover_unit unit, unsigned index,
                 unsigned digit, const uint16_t *cell, unsigned ncells)
{
    if (s->total < s->max) {
        struct cover_conflict *c = &s->out[s->total];
        c->unit = unit;
        c->index = (uint8_t)index;
        c->digit = (uint8_t)digit;
        c->ncells = (uint8_t)ncells;
        memcpy(c->cell, cell, ncells * sizeof(*cell));
    }
    s->total++;
}

/* Each digit that occurs twice or more in group g. */
static void group_conflicts(struct sink *s, const struct cover_grid *grid,
                            const struct cover_group *g, enum cover_unit unit,
                            unsigned index)
{
    for (unsigned d = 1; d <= grid->n; d++) {
        uint16_t cell[COVER_MAX_N];
        unsigned k = 0;
        for (unsigned i = 0; i < g->ncells; i++)
            if (grid->cell[g->cell[i]] == d)
                cell[k++] = g->cell[i];
        if (k > 1)
            emit(s, unit, index, d, cell, k);
    }
}

/* The pairs a move apart (each once, the first cell lower) holding one
 * digit, by digit then cells. */
static void move_conflicts(struct sink *s, const struct cover_grid *grid,
                           enum cover_unit unit, const int (*mv)[2],
                           unsigned nmv)
{
    int n = grid->n;

    for (int d = 1; d <= n; d++)
        for (int a = 0; a < n * n; a++) {
            if (grid->cell[a] != d)
                continue;
            uint16_t pairs[8];
            unsigned k = 0;
            for (unsigned m = 0; m < nmv; m++) {
                int r2 = a / n + mv[m][0], c2 = a % n + mv[m][1];
                int b = r2 * n + c2;
                if (r2 >= 0 && c2 >= 0 && r2 < n && c2 < n && b > a &&
                    grid->cell[b] == d)
                    pairs[k++] = (uint16_t)b;
            }
            /* The moves are listed row by row, so b ascends already. */
            for (unsigned i = 0; i < k; i++) {
                uint16_t two[2] = {(uint16_t)a, pairs[i]};
                emit(s, unit, 0, (unsigned)d, two, 2);
            }
        }
}

size_t cover_conflicts(const struct cover_rules *r, const struct cover_grid *g,
                       struct cover_conflict *out, size_t max)
{
    struct cover_group grp[COVER_MAX_GROUPS];
    unsigned ng = cover_groups(r, grp), n = r->n, first_extra;
    struct sink s = {out, out ? max : 0, 0};

    if (g->n != n)
        return 0;
    for (unsigned i = 0; i < 3 * n; i++)
        group_conflicts(&s, g, &grp[i], (enum cover_unit)(i / n), i % n);
    first_extra = 3 * n;
    if (r->diagonals) {
        group_conflicts(&s, g, &grp[3 * n], COVER_DIAGONAL, 0);
        group_conflicts(&s, g, &grp[3 * n + 1], COVER_DIAGONAL, 1);
        first_extra += 2;
    }
    for (unsigned i = first_extra; i < ng; i++)
        group_conflicts(&s, g, &grp[i], COVER_EXTRA, i - first_extra);
    if (r->anti_knight)
        move_conflicts(&s, g, COVER_KNIGHT, cover_knight, 8);
    if (r->anti_king)
        move_conflicts(&s, g, COVER_KING, cover_king, 4);
    return s.total;
}

int cover_is_solution_of(const struct cover_rules *r,
                         const struct cover_grid *puzzle,
                         const struct cover_grid *solution)
{
    unsigned n = r->n;

    if (puzzle->n != n || solution->n != n)
        return 0;
    for (unsigned c = 0; c < n * n; c++) {
        unsigned v = solution->cell[c];
        if (v == 0 || v > n || (puzzle->cell[c] && puzzle->cell[c] != v))
            return 0;
    }
    return cover_conflicts(r, solution, NULL, 0) == 0;
}
