/* cover_support.c - the generic engine's test rules, shared by the
 * tests, tests/tools/cover_gen.c and tests/bench/cover.c: the independent
 * verifier (simple loops over every unit and every knight and king pair,
 * never cover_conflicts) and the rules of each set of tests/data/cover/. */
#include <string.h>

#include "cover_support.h"

static int all_different(const uint8_t *g, const uint16_t *cells, unsigned k)
{
    uint32_t seen = 0;
    for (unsigned i = 0; i < k; i++) {
        uint32_t bit = 1u << g[cells[i]];
        if (g[cells[i]] && (seen & bit))
            return 0;
        seen |= bit;
    }
    return 1;
}

/* The region of a cell, computed here from the box shape, not taken from
 * r->region (which cover_rules_check fills). */
unsigned tc_region_of(const struct cover_rules *r, unsigned c)
{
    unsigned n = r->n, row = c / n, col = c % n;
    if (r->has_regions)
        return r->region[c];
    return row / r->box_rows * (n / r->box_cols) + col / r->box_cols;
}

static int moves_differ(const struct cover_rules *r, const uint8_t *g,
                        const int (*mv)[2], unsigned nmv)
{
    int n = r->n;
    for (int row = 0; row < n; row++)
        for (int col = 0; col < n; col++)
            for (unsigned m = 0; m < nmv; m++) {
                int r2 = row + mv[m][0], c2 = col + mv[m][1];
                if (r2 >= 0 && c2 >= 0 && r2 < n && c2 < n &&
                    g[row * n + col] == g[r2 * n + c2])
                    return 0;
            }
    return 1;
}

int tc_verify(const struct cover_rules *r, const struct cover_grid *grid)
{
    static const int knight[8][2] = {{1, 2},  {2, 1},  {-1, 2},  {-2, 1},
                                     {1, -2}, {2, -1}, {-1, -2}, {-2, -1}};
    static const int king[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    unsigned n = r->n;
    uint16_t row[COVER_MAX_N], col[COVER_MAX_N], d1[COVER_MAX_N],
        d2[COVER_MAX_N];
    const uint8_t *g = grid->cell;

    if (grid->n != n)
        return 0;
    for (unsigned c = 0; c < n * n; c++)
        if (g[c] < 1 || g[c] > n)
            return 0;
    for (unsigned i = 0; i < n; i++) {
        uint16_t reg[COVER_MAX_N];
        unsigned k = 0;
        for (unsigned j = 0; j < n; j++) {
            row[j] = (uint16_t)(i * n + j);
            col[j] = (uint16_t)(j * n + i);
        }
        for (unsigned c = 0; c < n * n; c++)
            if (tc_region_of(r, c) == i)
                reg[k++] = (uint16_t)c;
        if (k != n || !all_different(g, row, n) || !all_different(g, col, n) ||
            !all_different(g, reg, n))
            return 0;
        d1[i] = (uint16_t)(i * n + i);
        d2[i] = (uint16_t)(i * n + n - 1 - i);
    }
    if (r->diagonals && (!all_different(g, d1, n) || !all_different(g, d2, n)))
        return 0;
    for (unsigned e = 0; e < r->nextra; e++)
        if (!all_different(g, r->extra[e].cell, r->extra[e].ncells))
            return 0;
    if (r->anti_knight && !moves_differ(r, g, knight, 8))
        return 0;
    if (r->anti_king && !moves_differ(r, g, king, 4))
        return 0;
    return 1;
}

void tc_jigsaw_map(struct cover_rules *r)
{
    static const char map[] = "AAABBBBCC"
                              "AAABBBCCC"
                              "AAABBECFC"
                              "DDEEEEEFC"
                              "DDDDEFFFC"
                              "DGDDEFIFF"
                              "GGGGEIIFI"
                              "GHHGHHIII"
                              "GGHHHHHII";
    r->has_regions = 1;
    for (unsigned c = 0; c < 81; c++)
        r->region[c] = (uint8_t)(map[c] - 'A');
}

/* Windoku: four extra 3x3 groups at rows and columns 2-4 and 6-8. */
void tc_hyper_groups(struct cover_rules *r)
{
    r->nextra = 4;
    for (unsigned e = 0; e < 4; e++) {
        unsigned r0 = e / 2 ? 5 : 1, c0 = e % 2 ? 5 : 1;
        r->extra[e].ncells = 9;
        for (unsigned i = 0; i < 9; i++)
            r->extra[e].cell[i] = (uint16_t)((r0 + i / 3) * 9 + c0 + i % 3);
    }
}

/* The sets of tests/data/cover/: file name, size, variant. */
static const struct {
    const char *name;
    unsigned n;
    const char *variant;
} sets[] = {
    {"size4", 4, ""},
    {"size6", 6, ""},
    {"size8", 8, ""},
    {"size12", 12, ""},
    {"size16", 16, ""},
    {"size25", 25, ""},
    {"diagonal9", 9, "diagonals"},
    {"jigsaw9", 9, "jigsaw"},
    {"hyper9", 9, "hyper"},
    {"antiknight9", 9, "anti_knight"},
    {"antiking9", 9, "anti_king"},
};

#define NSETS (sizeof(sets) / sizeof(sets[0]))

const char *tc_set_name(unsigned i)
{
    return i < NSETS ? sets[i].name : NULL;
}

int tc_set_rules(const char *name, struct cover_rules *r)
{
    for (unsigned i = 0; i < NSETS; i++) {
        const char *v = sets[i].variant;
        if (strcmp(name, sets[i].name) != 0)
            continue;
        if (cover_rules_init(r, sets[i].n) != COVER_OK)
            return 0;
        r->diagonals = strcmp(v, "diagonals") == 0;
        r->anti_knight = strcmp(v, "anti_knight") == 0;
        r->anti_king = strcmp(v, "anti_king") == 0;
        if (strcmp(v, "jigsaw") == 0)
            tc_jigsaw_map(r);
        if (strcmp(v, "hyper") == 0)
            tc_hyper_groups(r);
        return cover_rules_check(r, NULL, NULL, 0) == COVER_OK;
    }
    return 0;
}
