/* teach_build.c - the general puzzle as units and peers, its pencil marks,
 * and the small parts every technique uses (step building, names, ratings).
 * A unit is any set of cells whose digits differ; two cells are peers when
 * a unit holds both or a knight's or king's move joins them under
 * anti-knight or anti-king. */
#include <string.h>

#include "clock.h"
#include "teach_internal.h"

/* ------------------------------------------------------------------------
 * Units and peers
 * ------------------------------------------------------------------------ */

static void set_peer(struct teach_puzzle *p, unsigned a, unsigned b)
{
    if (a == b)
        return;
    p->peer[a][b >> 6] |= 1ull << (b & 63);
    p->peer[b][a >> 6] |= 1ull << (a & 63);
}

/* Starts unit kind/index; its cells are added with add_cell. */
static struct teach_unit *new_unit(struct teach_puzzle *p, unsigned kind,
                                   unsigned index, unsigned sum)
{
    struct teach_unit *u = &p->unit[p->nunits++];

    u->kind = (uint8_t)kind;
    u->index = (uint8_t)index;
    u->ncells = 0;
    u->full = 0;
    u->sum = (uint16_t)sum;
    return u;
}

static void add_cell(struct teach_puzzle *p, struct teach_unit *u,
                     unsigned cell)
{
    unsigned ui = (unsigned)(u - p->unit);

    for (unsigned k = 0; k < u->ncells; k++)
        set_peer(p, u->cell[k], cell);
    u->cell[u->ncells++] = (uint16_t)cell;
    if (p->nunits_of[cell] < TEACH_MAX_UNITS_OF)
        p->units_of[cell][p->nunits_of[cell]++] = (uint8_t)ui;
}

static void close_unit(struct teach_puzzle *p, struct teach_unit *u)
{
    u->full = u->kind != TEACH_CAGE && u->ncells == p->n;
}

static void start(struct teach_puzzle *p, unsigned n)
{
    p->n = (uint8_t)n;
    p->ncells = (uint16_t)(n * n);
    p->nwords = (uint8_t)((n * n + 63) / 64);
    p->nunits = 0;
    p->killer = 0;
    memset(p->nunits_of, 0, sizeof(p->nunits_of));
    memset(p->peer, 0, sizeof(p->peer));
}

/* Rows and columns, then the boxes or regions of region[]. */
static void lines_and_boxes(struct teach_puzzle *p, const uint8_t *region,
                            int jigsaw)
{
    unsigned n = p->n;

    for (unsigned kind = TEACH_ROW; kind <= TEACH_COLUMN; kind++)
        for (unsigned i = 0; i < n; i++) {
            struct teach_unit *u = new_unit(p, kind, i, 0);
            for (unsigned j = 0; j < n; j++)
                add_cell(p, u, kind == TEACH_ROW ? i * n + j : j * n + i);
            close_unit(p, u);
        }
    for (unsigned b = 0; b < n; b++) {
        struct teach_unit *u =
            new_unit(p, jigsaw ? TEACH_REGION : TEACH_BOX, b, 0);
        for (unsigned c = 0; c < p->ncells; c++)
            if (region[c] == b)
                add_cell(p, u, c);
        close_unit(p, u);
    }
}

/* The cells a move of (dr, dc) away, both signs, become peers. */
static void moves(struct teach_puzzle *p, int dr, int dc)
{
    int n = p->n;

    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            for (int s = 0; s < 4; s++) {
                int r2 = r + (s & 1 ? -dr : dr), c2 = c + (s & 2 ? -dc : dc);
                if (r2 >= 0 && r2 < n && c2 >= 0 && c2 < n)
                    set_peer(p, (unsigned)(r * n + c), (unsigned)(r2 * n + c2));
            }
}

void teach_from_cover(struct teach_puzzle *p, const struct cover_rules *r)
{
    unsigned n = r->n;

    start(p, n);
    p->box_rows = r->box_rows;
    p->box_cols = r->box_cols;
    p->has_regions = (uint8_t)(r->has_regions != 0);
    p->anti_knight = (uint8_t)(r->anti_knight != 0);
    p->anti_king = (uint8_t)(r->anti_king != 0);
    lines_and_boxes(p, r->region, r->has_regions);
    if (r->diagonals)
        for (unsigned d = 0; d < 2; d++) {
            struct teach_unit *u = new_unit(p, TEACH_DIAGONAL, d, 0);
            for (unsigned i = 0; i < n; i++)
                add_cell(p, u, d == 0 ? i * n + i : i * n + n - 1 - i);
            close_unit(p, u);
        }
    for (unsigned e = 0; e < r->nextra && e < COVER_MAX_EXTRA; e++) {
        struct teach_unit *u = new_unit(p, TEACH_EXTRA, e, 0);
        for (unsigned k = 0; k < r->extra[e].ncells; k++)
            add_cell(p, u, r->extra[e].cell[k]);
        close_unit(p, u);
    }
    if (p->anti_knight) {
        moves(p, 1, 2);
        moves(p, 2, 1);
    }
    if (p->anti_king)
        moves(p, 1, 1);
}

void teach_from_killer(struct teach_puzzle *p, const struct killer_cages *k)
{
    uint8_t region[SUDOKU_CELLS];

    start(p, SUDOKU_SIZE);
    p->box_rows = p->box_cols = 3;
    p->has_regions = 0;
    p->anti_knight = p->anti_king = 0;
    p->killer = 1;
    for (unsigned c = 0; c < SUDOKU_CELLS; c++)
        region[c] = (uint8_t)(c / 27 * 3 + c % 9 / 3);
    lines_and_boxes(p, region, 0);
    for (unsigned i = 0; i < k->ncages && i < SUDOKU_CELLS; i++) {
        const struct killer_cage *cg = &k->cage[i];
        struct teach_unit *u = new_unit(p, TEACH_CAGE, i, (unsigned)cg->sum);
        for (unsigned j = 0; j < cg->ncells && j < SUDOKU_SIZE; j++)
            add_cell(p, u,
                     (unsigned)(k->row[cg->first + j] * SUDOKU_SIZE +
                                k->col[cg->first + j]));
        close_unit(p, u);
    }
}

/* ------------------------------------------------------------------------
 * Pencil marks
 * ------------------------------------------------------------------------ */

/* Removes `digit` from the candidates of cell's peers. */
static void clear_peers(const struct teach_puzzle *p, struct teach_grid *g,
                        unsigned cell, unsigned digit)
{
    uint32_t bit = 1u << (digit - 1);

    for (unsigned w = 0; w < p->nwords; w++) {
        uint64_t m = p->peer[cell][w];
        while (m) {
            unsigned c = w * 64 + (unsigned)__builtin_ctzll(m);
            m &= m - 1;
            g->cand[c] &= ~bit;
        }
    }
}

enum teach_status teach_init(const struct teach_puzzle *p, struct teach_grid *g,
                             const uint8_t *givens)
{
    uint32_t all = p->n >= 32 ? ~0u : (1u << p->n) - 1;
    enum teach_status st = TEACH_OK;

    for (unsigned c = 0; c < p->ncells; c++) {
        g->value[c] = givens[c];
        g->cand[c] = givens[c] ? 0 : all;
    }
    for (unsigned c = 0; c < p->ncells; c++) {
        if (givens[c] == 0)
            continue;
        for (unsigned w = 0; w < p->nwords; w++) {
            uint64_t m = p->peer[c][w];
            while (m) {
                unsigned o = w * 64 + (unsigned)__builtin_ctzll(m);
                m &= m - 1;
                if (givens[o] == givens[c])
                    st = TEACH_CONTRADICTION;
            }
        }
        clear_peers(p, g, c, givens[c]);
    }
    for (unsigned c = 0; c < p->ncells; c++)
        if (g->value[c] == 0 && g->cand[c] == 0)
            st = TEACH_CONTRADICTION;
    return st;
}

void teach_place(const struct teach_puzzle *p, struct teach_grid *g,
                 unsigned cell, unsigned digit)
{
    g->value[cell] = (uint8_t)digit;
    g->cand[cell] = 0;
    clear_peers(p, g, cell, digit);
}

void teach_apply(const struct teach_puzzle *p, struct teach_grid *g,
                 const struct teach_step *s)
{
    for (unsigned i = 0; i < s->nplacements; i++)
        teach_place(p, g, s->placements[i].cell, s->placements[i].digit);
    for (unsigned i = 0; i < s->neliminations; i++)
        g->cand[s->eliminations[i].cell] &=
            ~(1u << (s->eliminations[i].digit - 1));
}

/* ------------------------------------------------------------------------
 * Steps, names, ratings
 * ------------------------------------------------------------------------ */

void teach_step_start(struct teach_step *s, enum teach_technique t,
                      uint32_t digits)
{
    memset(s, 0, offsetof(struct teach_step, combos));
    s->technique = t;
    s->digits = digits;
    s->rating = (uint8_t)teach_technique_rating(t);
}

void teach_step_elim(struct teach_step *s, const struct teach_grid *g,
                     unsigned cell, unsigned digit)
{
    if (!(g->cand[cell] & (1u << (digit - 1))) ||
        s->neliminations >= TEACH_MAX_ELIMINATIONS)
        return;
    for (unsigned i = 0; i < s->neliminations; i++)
        if (s->eliminations[i].cell == cell &&
            s->eliminations[i].digit == digit)
            return;
    s->eliminations[s->neliminations].cell = (uint16_t)cell;
    s->eliminations[s->neliminations++].digit = (uint8_t)digit;
}

void teach_step_cell(struct teach_step *s, unsigned cell)
{
    if (s->ncells < TEACH_MAX_STEP_CELLS)
        s->cells[s->ncells++] = (uint16_t)cell;
}

void teach_step_unit(struct teach_step *s, unsigned u)
{
    if (s->nunits < TEACH_MAX_STEP_UNITS)
        s->units[s->nunits++] = (uint8_t)u;
}

void teach_step_place(struct teach_step *s, unsigned cell, unsigned digit)
{
    s->nplacements = 1;
    s->placements[0].cell = (uint16_t)cell;
    s->placements[0].digit = (uint8_t)digit;
}

int teach_expired(const struct teach_budget *b)
{
    return b != NULL && b->deadline_us != 0 && clock_now_us() >= b->deadline_us;
}

static const struct {
    const char *name;
    unsigned rating;
} techniques[TEACH_NTECHNIQUES] = {
    [TEACH_HIDDEN_SINGLE] = {"hidden_single", 15},
    [TEACH_CAGE_COMBINATION] = {"cage_combination", 20},
    [TEACH_NAKED_SINGLE] = {"naked_single", 23},
    [TEACH_INNIES] = {"innies", 25},
    [TEACH_OUTIES] = {"outies", 25},
    [TEACH_LOCKED_CANDIDATES] = {"locked_candidates", 26},
    [TEACH_CAGE_LOCKED] = {"cage_locked_candidates", 28},
    [TEACH_NAKED_PAIR] = {"naked_pair", 30},
    [TEACH_X_WING] = {"x_wing", 32},
    [TEACH_HIDDEN_PAIR] = {"hidden_pair", 34},
    [TEACH_NAKED_TRIPLE] = {"naked_triple", 36},
    [TEACH_SWORDFISH] = {"swordfish", 38},
    [TEACH_HIDDEN_TRIPLE] = {"hidden_triple", 40},
    [TEACH_XY_WING] = {"xy_wing", 42},
    [TEACH_NAKED_QUAD] = {"naked_quad", 50},
    [TEACH_JELLYFISH] = {"jellyfish", 52},
    [TEACH_HIDDEN_QUAD] = {"hidden_quad", 54},
    [TEACH_INNIES_OUTIES] = {"innies_outies", 56},
    [TEACH_X_CHAIN] = {"x_chain", 65},
    [TEACH_XY_CHAIN] = {"xy_chain", 66},
    [TEACH_AIC] = {"aic", 70},
    [TEACH_FORCING_CHAIN] = {"forcing_chain", 80},
    [TEACH_FORCING_NET] = {"forcing_net", 90},
};

unsigned teach_technique_rating(enum teach_technique t)
{
    return (unsigned)t < TEACH_NTECHNIQUES ? techniques[t].rating : 0;
}

const char *teach_technique_name(enum teach_technique t)
{
    return (unsigned)t < TEACH_NTECHNIQUES ? techniques[t].name : NULL;
}

const char *teach_unit_kind_name(unsigned kind)
{
    static const char *const names[] = {
        "row", "column", "box", "region", "diagonal", "extra_region", "cage"};
    return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "unit";
}
