/* teach_explain.c - a step of the general engine in plain English, for a
 * player. Cells are [row,column] and units "row 3", "box 4", "cage 7",
 * all 0-based like the API. Reads the step and the puzzle only. */
#include "teach_internal.h"
#include "text.h"

static void put_cell(struct text *t, const struct teach_puzzle *p,
                     unsigned cell)
{
    text_put(t, "[%u,%u]", cell / p->n, cell % p->n);
}

static void put_cells(struct text *t, const struct teach_puzzle *p,
                      const uint16_t *cells, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        text_put(t, "%s", text_sep(i, n));
        put_cell(t, p, cells[i]);
    }
}

static void put_digits(struct text *t, uint32_t mask, const char *join)
{
    unsigned n = (unsigned)teach_popcount(mask), i = 0;

    for (; mask; mask &= mask - 1, i++)
        text_put(t, "%s%d",
                 i == 0       ? ""
                 : join       ? join
                 : i == n - 1 ? " and "
                              : ", ",
                 teach_low_digit(mask));
}

static void put_unit(struct text *t, const struct teach_puzzle *p, unsigned u)
{
    const struct teach_unit *x = &p->unit[u];

    if (x->kind == TEACH_DIAGONAL)
        text_put(t, "the %s diagonal", x->index == 0 ? "main" : "anti");
    else if (x->kind == TEACH_EXTRA)
        text_put(t, "extra region %u", x->index);
    else if (x->kind == TEACH_CAGE)
        text_put(t, "cage %u (sum %u)", x->index, x->sum);
    else
        text_put(t, "%s %u", teach_unit_kind_name(x->kind), x->index);
}

/* The step's units from..to-1: "rows 3 and 4", "box 4", "boxes 1 and 2". */
static void put_units(struct text *t, const struct teach_puzzle *p,
                      const struct teach_step *s, unsigned from, unsigned to)
{
    if (to - from > 1 && p->unit[s->units[from]].kind != TEACH_CAGE &&
        p->unit[s->units[from]].kind <= TEACH_REGION) {
        unsigned kind = p->unit[s->units[from]].kind;
        text_put(t, "%s ",
                 kind == TEACH_ROW      ? "rows"
                 : kind == TEACH_COLUMN ? "columns"
                 : kind == TEACH_BOX    ? "boxes"
                                        : "regions");
        for (unsigned i = from; i < to; i++)
            text_put(t, "%s%u", text_sep(i - from, to - from),
                     p->unit[s->units[i]].index);
        return;
    }
    for (unsigned i = from; i < to; i++) {
        text_put(t, "%s", text_sep(i - from, to - from));
        put_unit(t, p, s->units[i]);
    }
}

/* The eliminations, grouped by cell: "[0,1] loses 3 and 4, [2,2] loses 3". */
static void put_eliminations(struct text *t, const struct teach_puzzle *p,
                             const struct teach_step *s)
{
    unsigned groups = 0;

    for (unsigned i = 0; i < s->neliminations; i++) {
        uint32_t mask = 0;
        unsigned cell = s->eliminations[i].cell, first = 1;
        for (unsigned j = 0; j < i && first; j++)
            first = s->eliminations[j].cell != cell;
        if (!first)
            continue;
        groups++;
        for (unsigned j = i; j < s->neliminations; j++)
            if (s->eliminations[j].cell == cell)
                mask |= 1u << (s->eliminations[j].digit - 1);
        text_put(t, "%s", groups > 1 ? "; " : "");
        put_cell(t, p, cell);
        text_put(t, " loses ");
        put_digits(t, mask, NULL);
    }
}

static const char *sees_words(const struct teach_puzzle *p)
{
    return p->anti_knight && p->anti_king
               ? " (shares a unit, a knight's or a king's move with each)"
           : p->anti_knight ? " (shares a unit or a knight's move with each)"
           : p->anti_king   ? " (shares a unit or a king's move with each)"
                            : "";
}

static void combos(struct text *t, const struct teach_step *s)
{
    for (unsigned i = 0; i < s->ncombos; i++) {
        text_put(t, "%s", i == 0 ? "" : i + 1 == s->ncombos ? " or " : ", ");
        put_digits(t, s->combos[i], "+");
    }
}

/* cells[from..to) joined by `op`: "[0,1] + [2,3]". */
static void put_terms(struct text *t, const struct teach_puzzle *p,
                      const struct teach_step *s, unsigned from, unsigned to,
                      const char *op)
{
    for (unsigned i = from; i < to; i++) {
        text_put(t, "%s", i == from ? "" : op);
        put_cell(t, p, s->cells[i]);
    }
}

/* Innies and outies together: "The cells of box 4 sum to 45; the cages
 * inside it sum to 31 and cage 12 (sum 13), sticking out, adds 13; so its
 * other cells less the cells sticking out make 1: [4,3] - [3,6] = 1, so
 * ...". */
static void mixed_rule(struct text *t, const struct teach_puzzle *p,
                       const struct teach_step *s)
{
    unsigned nu = 0, nout;
    int outsum = 0;

    while (nu < s->nunits && p->unit[s->units[nu]].kind != TEACH_CAGE)
        nu++;
    nout = s->nunits - nu;
    for (unsigned i = nu; i < s->nunits; i++)
        outsum += p->unit[s->units[i]].sum;
    text_put(t, "The cells of ");
    put_units(t, p, s, 0, nu);
    text_put(t, " sum to %u; ", s->total);
    if (s->known) /* a cage's sum is at least 1 */
        text_put(t, "the cages inside %s sum to %u", nu > 1 ? "them" : "it",
                 s->known);
    else
        text_put(t, "no cage lies inside %s", nu > 1 ? "them" : "it");
    if (nout) {
        text_put(t, "%s", s->known ? " and " : "; ");
        put_units(t, p, s, nu, s->nunits);
        text_put(t, ", sticking out, %s %d", nout > 1 ? "add" : "adds", outsum);
    }
    text_put(t, "; so %s other cells%s make %d", nu > 1 ? "their" : "its",
             nout ? " less the cells sticking out" : "",
             (int)s->total - (int)s->known - outsum);
    if (s->net_placed)
        text_put(t, ", %d without the placed ones", s->net);
    text_put(t, ": ");
    if (s->ninnies == 0) {
        put_terms(t, p, s, 0, s->ncells, " + ");
        text_put(t, " = %d", -s->net);
    } else {
        put_terms(t, p, s, 0, s->ninnies, " + ");
        if (s->ninnies < s->ncells) {
            text_put(t, " - ");
            put_terms(t, p, s, s->ninnies, s->ncells, " - ");
        }
        text_put(t, " = %d", s->net);
    }
    text_put(t, ", so ");
    put_eliminations(t, p, s);
    text_put(t, ".");
}

static void sum_rule(struct text *t, const struct teach_puzzle *p,
                     const struct teach_step *s)
{
    int outies = s->technique == TEACH_OUTIES;
    unsigned nu = s->nunits;

    text_put(t, "The cells of ");
    put_units(t, p, s, 0, nu);
    text_put(t, " sum to %u; the cages %s %s sum to %u", s->total,
             outies ? "that lie in or stick out of" : "inside",
             nu > 1 ? "them" : "it", s->known);
    if (outies)
        text_put(t, ", so the cells sticking out of %s add up to %u",
                 nu > 1 ? "them" : "it", s->known - s->total);
    else if (s->placed)
        text_put(t, " and %s placed cells outside those cages to %u",
                 nu > 1 ? "their" : "its", s->placed);
    if (outies && s->placed)
        text_put(t, "; %u of that is placed", s->placed);
    text_put(t, ", so ");
    if (s->nplacements) {
        put_cell(t, p, s->placements[0].cell);
        text_put(t, " is %u.", s->placements[0].digit);
        return;
    }
    put_cells(t, p, s->cells, s->ncells);
    text_put(t, " sum to %u: ", s->sum);
    put_eliminations(t, p, s);
    text_put(t, ".");
}

/* AIC node `node` (its cells from *i on): "[3,0] is not 1", "[3,0] is 1";
 * a group: "none of [3,0], [4,0] is 1", "one of [3,0], [4,0] is 1". */
static void aic_node(struct text *t, const struct teach_puzzle *p,
                     const struct teach_step *s, unsigned *i, unsigned node,
                     int truth)
{
    unsigned from = *i, n = 0;

    while (*i < s->ncells && s->chain_node[*i] == node)
        (*i)++, n++;
    if (n > 1)
        text_put(t, truth ? "one of " : "none of ");
    put_cells(t, p, s->cells + from, n);
    text_put(t, "%s %u", truth || n > 1 ? " is" : " is not",
             s->chain_digits[from]);
}

/* "If [a] is not 7, then [b] is 7, so [c] is not 7, then [c] is 2, ...":
 * the nodes alternate false and true, from the first. */
static void aic(struct text *t, const struct teach_puzzle *p,
                const struct teach_step *s)
{
    unsigned i = 0, node = 0, last_from = 0;

    text_put(t, "Chain of either-or links: ");
    for (; i < s->ncells; node++) {
        text_put(t, "%s", node == 0 ? "if " : node % 2 ? ", then " : ", so ");
        last_from = i;
        aic_node(t, p, s, &i, node, (int)(node % 2));
    }
    text_put(t,
             " (\"then\": the cell's only other candidate, or the "
             "digit's only other place or places in a unit%s; \"so\": the "
             "same cell, or cells that see it). So ",
             p->killer ? " or in a cage every fitting set of which holds it"
                       : "");
    i = 0;
    aic_node(t, p, s, &i, 0, 1); /* the first node read as true */
    text_put(t, " or ");
    i = last_from;
    aic_node(t, p, s, &i, node - 1, 1);
    text_put(t, ", and what either rules out goes: ");
    put_eliminations(t, p, s);
    text_put(t, ".");
}

size_t teach_explain(const struct teach_puzzle *p, const struct teach_step *s,
                     char *buf, size_t size)
{
    struct text t = {buf, size, 0};
    unsigned half = s->nunits / 2;

    if (size > 0)
        buf[0] = '\0';
    switch (s->technique) {
    case TEACH_HIDDEN_SINGLE:
        text_put(&t, "In ");
        put_unit(&t, p, s->units[0]);
        text_put(&t, ", %u can only go in ", s->placements[0].digit);
        put_cell(&t, p, s->placements[0].cell);
        text_put(&t, ".");
        break;
    case TEACH_NAKED_SINGLE:
        put_cell(&t, p, s->placements[0].cell);
        text_put(&t, " has one candidate left: %u.", s->placements[0].digit);
        break;
    case TEACH_CAGE_COMBINATION:
        if (p->unit[s->units[0]].ncells == 1) {
            text_put(&t, "Cage %u is one cell with sum %u, so ",
                     p->unit[s->units[0]].index, s->sum);
            put_eliminations(&t, p, s);
            text_put(&t, ".");
            break;
        }
        text_put(&t,
                 "Cage %u has %u cells that sum to %u; with what its cells "
                 "can still hold, its digits are ",
                 p->unit[s->units[0]].index, p->unit[s->units[0]].ncells,
                 s->sum);
        combos(&t, s);
        text_put(&t, ", so ");
        put_eliminations(&t, p, s);
        text_put(&t, ".");
        break;
    case TEACH_INNIES:
    case TEACH_OUTIES:
        sum_rule(&t, p, s);
        break;
    case TEACH_INNIES_OUTIES:
        mixed_rule(&t, p, s);
        break;
    case TEACH_LOCKED_CANDIDATES:
        text_put(&t, "In ");
        put_unit(&t, p, s->units[0]);
        text_put(&t, ", %d can only go in ", teach_low_digit(s->digits));
        put_cells(&t, p, s->cells, s->ncells);
        if (s->nunits > 1) {
            text_put(&t, ", all in ");
            put_unit(&t, p, s->units[1]);
        }
        text_put(&t,
                 "; whichever holds it, a cell that sees them all%s cannot: ",
                 sees_words(p));
        put_eliminations(&t, p, s);
        text_put(&t, ".");
        break;
    case TEACH_CAGE_LOCKED:
        text_put(&t, "Every digit set that fits ");
        put_unit(&t, p, s->units[0]);
        text_put(&t, " (");
        combos(&t, s);
        text_put(&t, ") holds %d, and only ", teach_low_digit(s->digits));
        put_cells(&t, p, s->cells, s->ncells);
        text_put(&t, " of it can take it; a cell that sees them all%s cannot: ",
                 sees_words(p));
        put_eliminations(&t, p, s);
        text_put(&t, ".");
        break;
    case TEACH_NAKED_PAIR:
    case TEACH_NAKED_TRIPLE:
    case TEACH_NAKED_QUAD:
        text_put(&t, "In ");
        put_unit(&t, p, s->units[0]);
        text_put(&t, ", ");
        put_cells(&t, p, s->cells, s->ncells);
        text_put(&t, " hold only ");
        put_digits(&t, s->digits, NULL);
        text_put(&t, " between them, so those digits are theirs: ");
        put_eliminations(&t, p, s);
        text_put(&t, ".");
        break;
    case TEACH_HIDDEN_PAIR:
    case TEACH_HIDDEN_TRIPLE:
    case TEACH_HIDDEN_QUAD:
        text_put(&t, "In ");
        put_unit(&t, p, s->units[0]);
        text_put(&t, ", ");
        put_digits(&t, s->digits, NULL);
        text_put(&t, " can only go in ");
        put_cells(&t, p, s->cells, s->ncells);
        text_put(&t, ", so those cells hold nothing else: ");
        put_eliminations(&t, p, s);
        text_put(&t, ".");
        break;
    case TEACH_X_WING:
    case TEACH_SWORDFISH:
    case TEACH_JELLYFISH:
        text_put(&t, "In ");
        put_units(&t, p, s, 0, half);
        text_put(&t, ", %d can only go in ", teach_low_digit(s->digits));
        put_units(&t, p, s, half, s->nunits);
        text_put(&t, "; those lines take it there, so the rest of ");
        put_units(&t, p, s, half, s->nunits);
        text_put(&t, " cannot: ");
        put_eliminations(&t, p, s);
        text_put(&t, ".");
        break;
    case TEACH_X_CHAIN:
        text_put(&t, "X-chain on %d: ", teach_low_digit(s->digits));
        for (unsigned i = 0; i < s->ncells; i++) {
            text_put(&t, "%s", i == 0 ? "if " : i % 2 ? ", then " : ", so ");
            put_cell(&t, p, s->cells[i]);
            text_put(&t, i % 2 ? " is" : " is not");
            if (i == 0)
                text_put(&t, " %d", teach_low_digit(s->digits));
        }
        text_put(&t, " (\"then\": the only other place in a unit; \"so\": the "
                     "two cells see each other); one of ");
        put_cell(&t, p, s->cells[0]);
        text_put(&t, " and ");
        put_cell(&t, p, s->cells[s->ncells - 1]);
        text_put(&t, " holds it, so a cell that sees both cannot: ");
        put_eliminations(&t, p, s);
        text_put(&t, ".");
        break;
    case TEACH_AIC:
        aic(&t, p, s);
        break;
    case TEACH_XY_WING:
    case TEACH_XY_CHAIN:
        if (s->technique == TEACH_XY_WING) {
            text_put(&t, "XY-wing with pivot ");
            put_cell(&t, p, s->cells[1]);
            text_put(&t, ": if ");
        } else {
            text_put(&t, "XY-chain through two-candidate cells: if ");
        }
        put_cell(&t, p, s->cells[0]);
        text_put(&t, " is not %d it is %u", teach_low_digit(s->digits),
                 s->chain_digits[0]);
        for (unsigned i = 1; i < s->ncells; i++) {
            text_put(&t, ", so ");
            put_cell(&t, p, s->cells[i]);
            text_put(&t, " is %u", s->chain_digits[i]);
        }
        text_put(&t, "; one of ");
        put_cell(&t, p, s->cells[0]);
        text_put(&t, " and ");
        put_cell(&t, p, s->cells[s->ncells - 1]);
        text_put(&t, " is %d, so a cell that sees both cannot be: ",
                 teach_low_digit(s->digits));
        put_eliminations(&t, p, s);
        text_put(&t, ".");
        break;
    case TEACH_FORCING_CHAIN:
    case TEACH_FORCING_NET:
        text_put(&t, "If ");
        put_cell(&t, p, s->eliminations[0].cell);
        text_put(&t,
                 " were %u, the singles, locked candidates%s that follow%s (%u "
                 "placements) leave ",
                 s->eliminations[0].digit, p->killer ? " and cage sums" : "",
                 s->technique == TEACH_FORCING_NET
                     ? ", with every candidate of a two-candidate cell that "
                       "would itself lead to a contradiction removed,"
                     : "",
                 s->chain_length);
        if (!s->contradiction_unit) {
            put_cell(&t, p, s->contradiction);
            text_put(&t, " with no candidate");
        } else if (p->unit[s->contradiction].kind == TEACH_CAGE) {
            put_unit(&t, p, s->contradiction);
            text_put(&t, " with no digits that fit");
        } else {
            put_unit(&t, p, s->contradiction);
            text_put(&t, " with no place for a digit it needs");
        }
        text_put(&t, ": a contradiction, so ");
        put_cell(&t, p, s->eliminations[0].cell);
        text_put(&t, " is not %u.", s->eliminations[0].digit);
        break;
    default:
        text_put(&t, "A step.");
        break;
    }
    return t.len;
}
