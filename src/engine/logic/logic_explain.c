/* logic_explain.c - a step in plain English, written into a caller buffer.
 * Positions are 0-based like everywhere in the API: "row 3", cell [3,4].
 * The text only reads the step value, so it says what the step itself holds. */
#include "logic_internal.h"
#include "text.h"

static void put_unit(struct text *t, const struct logic_unit *u)
{
    text_put(t, "%s %d", grid_unit_name(u->unit), u->index);
}

static void put_cell(struct text *t, int cell)
{
    text_put(t, "[%d,%d]", cell / 9, cell % 9);
}

static void put_cells(struct text *t, const uint8_t *cells, int n)
{
    for (int i = 0; i < n; i++) {
        text_put(t, "%s", text_sep(i, n));
        put_cell(t, cells[i]);
    }
}

static void put_digits(struct text *t, unsigned mask)
{
    int n = grid_popcount(mask), i = 0;

    for (int d = 1; d <= 9; d++)
        if (mask & (1u << (d - 1)))
            text_put(t, "%s%d", text_sep(i++, n), d);
}

/* "remove 5 from [1,2] and [1,3]; remove 7 from [4,4]". */
static void put_eliminations(struct text *t, const struct logic_step *s)
{
    int first = 1;

    for (int d = 1; d <= 9; d++) {
        uint8_t cells[LOGIC_MAX_ELIMINATIONS];
        int n = 0;
        for (int i = 0; i < s->neliminations; i++)
            if (s->eliminations[i].digit == d)
                cells[n++] = s->eliminations[i].cell;
        if (n == 0)
            continue;
        text_put(t, "%sremove %d from ", first ? "" : "; ", d);
        put_cells(t, cells, n);
        first = 0;
    }
    text_put(t, ".");
}

static void put_units(struct text *t, const struct logic_unit *u, int n)
{
    for (int i = 0; i < n; i++) {
        text_put(t, "%s", text_sep(i, n));
        put_unit(t, &u[i]);
    }
}

/* ------------------------------------------------------------------------
 * Chains, uniqueness, forcing
 * ------------------------------------------------------------------------ */

static void put_node(struct text *t, const struct logic_link *l)
{
    text_put(t, "%d", l->digit);
    text_put(t, "[");
    for (int i = 0; i < l->ncells; i++)
        text_put(t, "%s%d,%d", i ? "|" : "", l->cells[i] / 9, l->cells[i] % 9);
    text_put(t, "]");
}

/* "5[1,2] = 5[1,7] - 5[4,7] = 5[4,4]" */
static void put_chain(struct text *t, const struct logic_step *s)
{
    for (int i = 0; i < s->nlinks; i++) {
        put_node(t, &s->links[i]);
        if (s->links[i].link == LOGIC_LINK_STRONG)
            text_put(t, " = ");
        else if (s->links[i].link == LOGIC_LINK_WEAK)
            text_put(t, " - ");
    }
}

static void put_conclusion(struct text *t, const struct logic_step *s)
{
    if (s->nplacements > 0) {
        text_put(t, "place %d in ", s->placements[0].digit);
        put_cell(t, s->placements[0].cell);
        text_put(t, ".");
    } else {
        put_eliminations(t, s);
    }
}

static const char *const chain_names[] = {
    [LOGIC_SKYSCRAPER] = "Skyscraper",
    [LOGIC_TWO_STRING_KITE] = "Two-string kite",
    [LOGIC_EMPTY_RECTANGLE] = "Empty rectangle",
    [LOGIC_W_WING] = "W-wing",
    [LOGIC_REMOTE_PAIRS] = "Remote pairs",
    [LOGIC_XY_CHAIN] = "XY-chain",
    [LOGIC_X_CHAIN] = "X-chain",
    [LOGIC_AIC] = "Alternating inference chain",
};

static void explain_chain(struct text *t, const struct logic_step *s)
{
    const struct logic_link *a = &s->links[0], *b = &s->links[s->nlinks - 1];

    text_put(t, "%s: ", chain_names[s->technique]);
    put_chain(t, s);
    text_put(t,
             ". Each '=' joins two candidates of which at least one is true, "
             "each '-' two that cannot both be true; so if ");
    put_node(t, a);
    text_put(t, " is false, ");
    put_node(t, b);
    text_put(t, " is true: one of the two ends is true");
    if (s->technique == LOGIC_EMPTY_RECTANGLE)
        text_put(t, " (the box's %d is in one of its two lines)", a->digit);
    text_put(t, ", and whatever sees both ends cannot be it: ");
    put_conclusion(t, s);
}

static void explain_rectangle(struct text *t, const struct logic_step *s)
{
    unsigned ab = s->technique == LOGIC_UNIQUE_RECTANGLE_2
                      ? s->digits & ~(1u << (s->eliminations[0].digit - 1))
                      : s->digits;

    text_put(t, "Unique rectangle (type %c): cells ",
             s->technique == LOGIC_UNIQUE_RECTANGLE_1   ? '1'
             : s->technique == LOGIC_UNIQUE_RECTANGLE_2 ? '2'
             : s->technique == LOGIC_UNIQUE_RECTANGLE_3 ? '3'
                                                        : '4');
    put_cells(t, s->cells, 4);
    text_put(t,
             " lie in two rows, two columns and two boxes and could all be ");
    put_digits(t, ab);
    text_put(t,
             ". If they held only those two digits, the digits could swap "
             "places and the puzzle would have two solutions; this puzzle has "
             "exactly one (that is checked before any step), so ");
    switch (s->technique) {
    case LOGIC_UNIQUE_RECTANGLE_1:
        text_put(t,
                 "the one cell with other candidates must take one of them: ");
        break;
    case LOGIC_UNIQUE_RECTANGLE_2:
        text_put(t,
                 "one of the two cells with the extra %d must be %d, and a "
                 "cell that sees both cannot: ",
                 s->eliminations[0].digit, s->eliminations[0].digit);
        break;
    case LOGIC_UNIQUE_RECTANGLE_3:
        text_put(t, "one of the two cells with other candidates holds one of "
                    "them. Counted as one cell, those two make with ");
        put_cells(t, s->cells + 4, s->ncells - 4);
        text_put(t, " a naked set of %d in ", s->depth);
        put_unit(t, &s->units[s->nunits - 1]);
        text_put(t,
                 ": as many digits as cells, so those digits go nowhere else "
                 "in it: ");
        break;
    default:
        text_put(t, "as ");
        put_unit(t, &s->units[s->nunits - 1]);
        text_put(t, " puts one of the pair in ");
        put_cell(t, s->eliminations[0].cell);
        text_put(t, " or ");
        put_cell(t, s->eliminations[1].cell);
        text_put(t, ", the other digit can be in neither: ");
        break;
    }
    put_eliminations(t, s);
}

static void explain_finned(struct text *t, const struct logic_step *s)
{
    static const char *const names[] = {"X-wing", "swordfish", "jellyfish"};
    int n = s->nunits / 2, d = __builtin_ctz(s->digits) + 1, nf = 0;
    uint8_t fins[LOGIC_MAX_CELLS];

    for (int i = 0; i < s->ncells; i++) {
        int c = s->cells[i], in = 0;
        for (int k = n; k < s->nunits; k++)
            in |= s->units[k].unit == SUDOKU_ROW ? c / 9 == s->units[k].index
                                                 : c % 9 == s->units[k].index;
        if (!in)
            fins[nf++] = (uint8_t)c;
    }
    text_put(t, "%s %s on %d: in ", s->depth ? "Sashimi" : "Finned",
             names[n - 2], d);
    put_units(t, s->units, n);
    text_put(t, ", %d can only go in ", d);
    put_units(t, s->units + n, n);
    text_put(t, ", apart from the fin%s ", nf > 1 ? "s" : "");
    put_cells(t, fins, nf);
    text_put(t,
             ". If no fin is %d, the %s fills those %ss with %d; if a fin "
             "is, it rules %d out of its box. Either way, the cells of the "
             "%ss inside the fin's box that are not in a base %s lose %d: ",
             d, names[n - 2], grid_unit_name(s->units[n].unit), d, d,
             grid_unit_name(s->units[n].unit), grid_unit_name(s->units[0].unit),
             d);
    put_eliminations(t, s);
}

/* "cells [0,4] and [0,6] (in row 0)": one almost locked set. */
static void put_set(struct text *t, const uint8_t *cells, int n,
                    const struct logic_unit *u)
{
    text_put(t, "cells ");
    put_cells(t, cells, n);
    text_put(t, " (in ");
    put_unit(t, u);
    text_put(t, ")");
}

static void explain_als(struct text *t, const struct logic_step *s)
{
    int z = s->eliminations[0].digit;
    int x = __builtin_ctz(s->digits & ~(1u << (z - 1))) + 1;

    text_put(t, "Almost locked sets: ");
    put_set(t, s->cells, s->depth, &s->units[0]);
    text_put(t, " and ");
    put_set(t, s->cells + s->depth, s->ncells - s->depth, &s->units[1]);
    text_put(t,
             " each hold one digit more than they have cells. Every %d of "
             "one sees every %d of the other, so at most one set has %d, and "
             "the other is then locked and must hold %d. So %d is in one of "
             "the sets, and a cell that sees all of their %ds cannot be %d: ",
             x, x, x, z, z, z, z);
    put_eliminations(t, s);
}

/* Cells: A (depth of them), B (up to chain_length), then C; x (the A-C
 * common) is the smaller of the two digits other than z. */
static void explain_als_wing(struct text *t, const struct logic_step *s)
{
    int z = s->eliminations[0].digit, a = s->depth, ab = s->chain_length;
    unsigned xy = s->digits & ~(1u << (z - 1));
    int x = __builtin_ctz(xy) + 1, y = __builtin_ctz(xy & (xy - 1)) + 1;

    text_put(t, "ALS-XY-wing: ");
    put_set(t, s->cells + ab, s->ncells - ab, &s->units[2]);
    text_put(t, ", ");
    put_set(t, s->cells, a, &s->units[0]);
    text_put(t, " and ");
    put_set(t, s->cells + a, ab - a, &s->units[1]);
    text_put(
        t,
        " each hold one digit more than they have cells. Every %d of the "
        "first set sees every %d of the second, every %d of the first "
        "every %d of the third. The first set lacks at most one digit, so "
        "it holds %d or %d; then the second or the third has none of it "
        "and is locked, holding %d. So %d is in one of the two, and a cell "
        "that sees all of their %ds cannot be %d: ",
        x, x, y, y, x, y, z, z, z, z);
    put_eliminations(t, s);
}

static void put_trail(struct text *t, const struct logic_step *s)
{
    int shown = s->nlinks - 1 < 12 ? s->nlinks - 1 : 12;

    if (s->nlinks <= 1) {
        text_put(t, "at once");
        return;
    }
    text_put(t, "singles follow: ");
    for (int i = 1; i <= shown; i++) {
        text_put(t, "%s", i > 1 ? ", " : "");
        put_cell(t, s->links[i].cells[0]);
        text_put(t, "=%d", s->links[i].digit);
    }
    if (s->chain_length > shown + 1)
        text_put(t, " and %d more", s->chain_length - 1 - shown);
}

static void put_contradiction(struct text *t, const struct logic_step *s)
{
    if (s->ncells > 1) {
        text_put(t, "cell ");
        put_cell(t, s->cells[1]);
        text_put(t, " is left without a candidate");
    } else if (s->nunits > 0) {
        /* the unit's missing digit is the step's other digit, or the
         * assumed one itself */
        unsigned bit = 1u << (s->eliminations[0].digit - 1);
        unsigned other = s->digits & ~bit;
        text_put(t, "%d has no place left in ",
                 other ? __builtin_ctz(other) + 1 : s->eliminations[0].digit);
        put_unit(t, &s->units[0]);
    } else {
        text_put(t, "the rules are broken");
    }
}

static void explain_forcing(struct text *t, const struct logic_step *s)
{
    const struct logic_move *m = &s->eliminations[0];

    switch (s->technique) {
    case LOGIC_FORCING_CHAIN:
    case LOGIC_FORCING_NET:
        text_put(t, "Forcing %s: suppose ",
                 s->technique == LOGIC_FORCING_NET ? "net" : "chain");
        put_cell(t, m->cell);
        text_put(t, " were %d. Then ", m->digit);
        put_trail(t, s);
        if (s->technique == LOGIC_FORCING_NET)
            text_put(t,
                     " (also removing every candidate that fails when it is "
                     "tried in turn, nested %d level%s deep)",
                     s->depth, s->depth > 1 ? "s" : "");
        text_put(t, ", until ");
        put_contradiction(t, s);
        text_put(t, ". So ");
        put_cell(t, m->cell);
        text_put(t, " is not %d: ", m->digit);
        put_eliminations(t, s);
        break;
    default:
        if (s->technique == LOGIC_CELL_FORCING) {
            text_put(t, "Cell forcing chains: whichever digit cell ");
            put_cell(t, s->links[0].cells[0]);
            text_put(t, " takes (");
        } else {
            text_put(t, "Unit forcing chains: wherever %d goes in ",
                     s->links[0].digit);
            put_unit(t, &s->units[0]);
            text_put(t, " (");
        }
        for (int i = 0; i < s->nlinks; i++) {
            text_put(t, "%s", text_sep(i, s->nlinks));
            if (s->technique == LOGIC_CELL_FORCING)
                text_put(t, "%d", s->links[i].digit);
            else
                put_cell(t, s->links[i].cells[0]);
        }
        text_put(t, "), following it with singles leads to the same result: ");
        put_conclusion(t, s);
        break;
    }
}

/* Singles, locked candidates and subsets: the unit and what is confined in
 * it. */
static void explain_single(struct text *t, const struct logic_step *s)
{
    if (s->technique == LOGIC_NAKED_SINGLE) {
        text_put(t, "Cell ");
        put_cell(t, s->placements[0].cell);
        text_put(t,
                 " can only be %d: every other digit is already in its row, "
                 "column or box.",
                 s->placements[0].digit);
        return;
    }
    text_put(t, "In ");
    put_unit(t, &s->units[0]);
    text_put(t, ", %d fits only in cell ", s->placements[0].digit);
    put_cell(t, s->placements[0].cell);
    text_put(t, ", so it goes there.");
}

static void explain_locked(struct text *t, const struct logic_step *s, int d)
{
    text_put(t, "In ");
    put_unit(t, &s->units[0]);
    text_put(t, ", %d can only go in ", d);
    put_cells(t, s->cells, s->ncells);
    text_put(t, ", all of them in ");
    put_unit(t, &s->units[1]);
    text_put(t, ". So the %d of ", d);
    put_unit(t, &s->units[1]);
    text_put(t, " is one of these cells: ");
    put_eliminations(t, s);
}

static void explain_subset(struct text *t, const struct logic_step *s,
                           int naked)
{
    text_put(t, "In ");
    put_unit(t, &s->units[0]);
    if (naked) {
        text_put(t, ", cells ");
        put_cells(t, s->cells, s->ncells);
        text_put(t, " can only hold ");
        put_digits(t, s->digits);
        text_put(t,
                 ". These %d digits must fill these %d cells, so no other "
                 "cell of the %s can have them: ",
                 s->ncells, s->ncells, grid_unit_name(s->units[0].unit));
    } else {
        text_put(t, ", the digits ");
        put_digits(t, s->digits);
        text_put(t, " fit only in cells ");
        put_cells(t, s->cells, s->ncells);
        text_put(t,
                 ". These %d cells must hold these %d digits, so nothing else "
                 "goes there: ",
                 s->ncells, s->ncells);
    }
    put_eliminations(t, s);
}

static void explain_fish(struct text *t, const struct logic_step *s, int d)
{
    static const char *const fish_names[] = {"", "", "X-wing", "swordfish",
                                             "jellyfish"};
    int n = s->nunits / 2;

    text_put(t, "%s%s on %d: in ", fish_names[n][0] == 'X' ? "" : "A ",
             fish_names[n], d);
    put_units(t, s->units, n);
    text_put(t, ", %d can only go in ", d);
    put_units(t, s->units + n, n);
    text_put(t,
             ". Each of the %d %ss needs one %d, so the %d %ss get theirs "
             "from those %ss: ",
             n, grid_unit_name(s->units[0].unit), d, n,
             grid_unit_name(s->units[n].unit),
             grid_unit_name(s->units[0].unit));
    put_eliminations(t, s);
}

static void explain_wing(struct text *t, const struct logic_step *s)
{
    int xy = s->technique == LOGIC_XY_WING;
    int zd = s->neliminations ? s->eliminations[0].digit : 0;
    unsigned z = zd ? 1u << (zd - 1) : 0;

    text_put(t, "%s: pivot ", xy ? "XY-wing" : "XYZ-wing");
    put_cell(t, s->cells[0]);
    text_put(t, " can only be ");
    put_digits(t, xy ? s->digits & ~z : s->digits);
    text_put(t, "; it sees ");
    put_cell(t, s->cells[1]);
    text_put(t, " and ");
    put_cell(t, s->cells[2]);
    text_put(t,
             ", each of which is %d or one of the pivot's digits. "
             "Whatever the pivot is, one of ",
             zd);
    text_put(t,
             xy ? "the two pincers is %d, so "
                  "a cell that sees both cannot be: "
                : "the three cells is %d, so a cell that sees all three "
                  "cannot be: ",
             zd);
    put_eliminations(t, s);
}

static void explain_bug(struct text *t, const struct logic_step *s)
{
    text_put(t, "BUG+1: every blank cell but ");
    put_cell(t, s->placements[0].cell);
    text_put(t,
             " has exactly two candidates. If it were not %d, every "
             "candidate left would appear exactly twice in each row, "
             "column and box, a pattern with no solution or with two; "
             "this puzzle has exactly one (that is checked before any "
             "step), so ",
             s->placements[0].digit);
    put_conclusion(t, s);
}

size_t logic_explain(const struct logic_step *s, char *buf, size_t size)
{
    struct text t = {buf, size, 0};
    int d = s->digits ? __builtin_ctz(s->digits) + 1 : 0;

    if (size > 0)
        buf[0] = '\0';
    switch (s->technique) {
    case LOGIC_NAKED_SINGLE:
    case LOGIC_HIDDEN_SINGLE:
        explain_single(&t, s);
        break;
    case LOGIC_POINTING:
    case LOGIC_CLAIMING:
        explain_locked(&t, s, d);
        break;
    case LOGIC_NAKED_PAIR:
    case LOGIC_NAKED_TRIPLE:
    case LOGIC_NAKED_QUAD:
        explain_subset(&t, s, 1);
        break;
    case LOGIC_HIDDEN_PAIR:
    case LOGIC_HIDDEN_TRIPLE:
    case LOGIC_HIDDEN_QUAD:
        explain_subset(&t, s, 0);
        break;
    case LOGIC_X_WING:
    case LOGIC_SWORDFISH:
    case LOGIC_JELLYFISH:
        explain_fish(&t, s, d);
        break;
    case LOGIC_XY_WING:
    case LOGIC_XYZ_WING:
        explain_wing(&t, s);
        break;
    case LOGIC_UNIQUE_RECTANGLE_1:
    case LOGIC_UNIQUE_RECTANGLE_2:
    case LOGIC_UNIQUE_RECTANGLE_3:
    case LOGIC_UNIQUE_RECTANGLE_4:
        explain_rectangle(&t, s);
        break;
    case LOGIC_BUG_PLUS_1:
        explain_bug(&t, s);
        break;
    case LOGIC_SKYSCRAPER:
    case LOGIC_TWO_STRING_KITE:
    case LOGIC_EMPTY_RECTANGLE:
    case LOGIC_W_WING:
    case LOGIC_REMOTE_PAIRS:
    case LOGIC_XY_CHAIN:
    case LOGIC_X_CHAIN:
    case LOGIC_AIC:
        explain_chain(&t, s);
        break;
    case LOGIC_FINNED_X_WING:
    case LOGIC_FINNED_SWORDFISH:
    case LOGIC_FINNED_JELLYFISH:
        explain_finned(&t, s);
        break;
    case LOGIC_ALS_XZ:
        explain_als(&t, s);
        break;
    case LOGIC_ALS_XY_WING:
        explain_als_wing(&t, s);
        break;
    case LOGIC_FORCING_CHAIN:
    case LOGIC_CELL_FORCING:
    case LOGIC_UNIT_FORCING:
    case LOGIC_FORCING_NET:
        explain_forcing(&t, s);
        break;
    default:
        text_put(&t, "Unknown step.");
        break;
    }
    return t.len;
}
