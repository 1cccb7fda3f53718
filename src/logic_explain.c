/* logic_explain.c - a step in plain English, written into a caller buffer.
 * Positions are 0-based like everywhere in the API: "row 3", cell [3,4].
 * The text only reads the step value, so it says what the step itself holds. */
#include <stdarg.h>
#include <stdio.h>

#include "logic_internal.h"

struct text {
    char *buf;
    size_t size, len;
};

static void put(struct text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void put(struct text *t, const char *fmt, ...)
{
    va_list ap;
    size_t room = t->len < t->size ? t->size - t->len : 0;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(room ? t->buf + t->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->len += (size_t)n;
}

static const char *const unit_words[] = {"row", "column", "box"};

static void put_unit(struct text *t, const struct logic_unit *u)
{
    put(t, "%s %d", unit_words[u->unit], u->index);
}

static void put_cell(struct text *t, int cell)
{
    put(t, "[%d,%d]", cell / 9, cell % 9);
}

/* "a", "a and b", "a, b and c" separators for item i of n. */
static const char *sep(int i, int n)
{
    return i == 0 ? "" : i == n - 1 ? " and " : ", ";
}

static void put_cells(struct text *t, const uint8_t *cells, int n)
{
    for (int i = 0; i < n; i++) {
        put(t, "%s", sep(i, n));
        put_cell(t, cells[i]);
    }
}

static void put_digits(struct text *t, unsigned mask)
{
    int n = logic_popcount(mask), i = 0;

    for (int d = 1; d <= 9; d++)
        if (mask & (1u << (d - 1)))
            put(t, "%s%d", sep(i++, n), d);
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
        put(t, "%sremove %d from ", first ? "" : "; ", d);
        put_cells(t, cells, n);
        first = 0;
    }
    put(t, ".");
}

static void put_units(struct text *t, const struct logic_unit *u, int n)
{
    for (int i = 0; i < n; i++) {
        put(t, "%s", sep(i, n));
        put_unit(t, &u[i]);
    }
}

size_t logic_explain(const struct logic_step *s, char *buf, size_t size)
{
    static const char *const fish_names[] = {"", "", "X-wing", "swordfish",
                                             "jellyfish"};
    struct text t = {buf, size, 0};
    int n = s->nunits / 2, d = s->digits ? __builtin_ctz(s->digits) + 1 : 0;
    unsigned z = 0;

    if (size > 0)
        buf[0] = '\0';
    switch (s->technique) {
    case LOGIC_NAKED_SINGLE:
        put(&t, "Cell ");
        put_cell(&t, s->placements[0].cell);
        put(&t, " can only be %d: every other digit is already in its row, "
                "column or box.", s->placements[0].digit);
        break;
    case LOGIC_HIDDEN_SINGLE:
        put(&t, "In ");
        put_unit(&t, &s->units[0]);
        put(&t, ", %d fits only in cell ", s->placements[0].digit);
        put_cell(&t, s->placements[0].cell);
        put(&t, ", so it goes there.");
        break;
    case LOGIC_POINTING:
    case LOGIC_CLAIMING:
        put(&t, "In ");
        put_unit(&t, &s->units[0]);
        put(&t, ", %d can only go in ", d);
        put_cells(&t, s->cells, s->ncells);
        put(&t, ", all of them in ");
        put_unit(&t, &s->units[1]);
        put(&t, ". So the %d of ", d);
        put_unit(&t, &s->units[1]);
        put(&t, " is one of these cells: ");
        put_eliminations(&t, s);
        break;
    case LOGIC_NAKED_PAIR:
    case LOGIC_NAKED_TRIPLE:
    case LOGIC_NAKED_QUAD:
        put(&t, "In ");
        put_unit(&t, &s->units[0]);
        put(&t, ", cells ");
        put_cells(&t, s->cells, s->ncells);
        put(&t, " can only hold ");
        put_digits(&t, s->digits);
        put(&t, ". These %d digits must fill these %d cells, so no other "
                "cell of the %s can have them: ", s->ncells, s->ncells,
            unit_words[s->units[0].unit]);
        put_eliminations(&t, s);
        break;
    case LOGIC_HIDDEN_PAIR:
    case LOGIC_HIDDEN_TRIPLE:
    case LOGIC_HIDDEN_QUAD:
        put(&t, "In ");
        put_unit(&t, &s->units[0]);
        put(&t, ", the digits ");
        put_digits(&t, s->digits);
        put(&t, " fit only in cells ");
        put_cells(&t, s->cells, s->ncells);
        put(&t, ". These %d cells must hold these %d digits, so nothing else "
                "goes there: ", s->ncells, s->ncells);
        put_eliminations(&t, s);
        break;
    case LOGIC_X_WING:
    case LOGIC_SWORDFISH:
    case LOGIC_JELLYFISH:
        put(&t, "%s%s on %d: in ", fish_names[n][0] == 'X' ? "" : "A ",
            fish_names[n], d);
        put_units(&t, s->units, n);
        put(&t, ", %d can only go in ", d);
        put_units(&t, s->units + n, n);
        put(&t, ". Each of the %d %ss needs one %d, so the %d %ss get theirs "
                "from those %ss: ", n, unit_words[s->units[0].unit], d, n,
            unit_words[s->units[n].unit], unit_words[s->units[0].unit]);
        put_eliminations(&t, s);
        break;
    case LOGIC_XY_WING:
    case LOGIC_XYZ_WING:
        z = s->neliminations ? 1u << (s->eliminations[0].digit - 1) : 0;
        put(&t, "%s: pivot ", s->technique == LOGIC_XY_WING ? "XY-wing"
                                                            : "XYZ-wing");
        put_cell(&t, s->cells[0]);
        put(&t, " can only be ");
        put_digits(&t, s->technique == LOGIC_XY_WING ? s->digits & ~z
                                                     : s->digits);
        put(&t, "; it sees ");
        put_cell(&t, s->cells[1]);
        put(&t, " and ");
        put_cell(&t, s->cells[2]);
        put(&t, ", each of which is %d or one of the pivot's digits. "
                "Whatever the pivot is, one of ",
            s->neliminations ? s->eliminations[0].digit : 0);
        put(&t, s->technique == LOGIC_XY_WING ? "the two pincers is %d, so "
                "a cell that sees both cannot be: "
                : "the three cells is %d, so a cell that sees all three "
                "cannot be: ",
            s->neliminations ? s->eliminations[0].digit : 0);
        put_eliminations(&t, s);
        break;
    default:
        put(&t, "Unknown step.");
        break;
    }
    return t.len;
}
