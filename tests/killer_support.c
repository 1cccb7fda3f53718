/* killer_support.c - helpers of the killer suite's parts (see
 * killer_support.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "killer.h"
#include "killer_support.h"
#include "sudoku.h"
#include "support.h"

#define ROW9 "........."
const char kt_blank[] = ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ROW9 ROW9;

/* Reads tests/data/killer_puzzles once per test that needs it. */
size_t kt_load_set(struct kt_puzzle *out, size_t max)
{
    char line[4096];
    size_t n = 0;
    FILE *f = support_open_data("killer_puzzles");

    while (n < max && fgets(line, sizeof(line), f)) {
        size_t len = strcspn(line, "\r\n");
        char *bar;
        if (len == 0 || line[0] == '#')
            continue;
        line[len] = '\0';
        bar = strrchr(line, '|');
        assert_true(len > SUDOKU_CELLS && line[SUDOKU_CELLS] == '|');
        assert_int_equal(sudoku_parse(line, SUDOKU_CELLS, &out[n].puzzle, NULL),
                         SUDOKU_OK);
        assert_int_equal(killer_parse(line + SUDOKU_CELLS + 1,
                                      len - SUDOKU_CELLS - 1, &out[n].cages,
                                      NULL),
                         KILLER_OK);
        assert_int_equal(
            sudoku_parse(bar + 1, strlen(bar + 1), &out[n].solution, NULL),
            SUDOKU_OK);
        out[n].givens = 0;
        for (int x = 0; x < SUDOKU_CELLS; x++)
            out[n].givens += out[n].puzzle.cell[x] != 0;
        n++;
    }
    fclose(f);
    return n;
}

struct sudoku_grid kt_grid_of(const char *text)
{
    struct sudoku_grid g;
    assert_int_equal(sudoku_parse(text, SUDOKU_CELLS, &g, NULL), SUDOKU_OK);
    return g;
}

void kt_parse_ok(const char *text, struct killer_cages *k)
{
    size_t bad = 999;
    if (killer_parse(text, strlen(text), k, &bad) != KILLER_OK)
        fail_msg("'%s' did not parse (bad at %zu)", text, bad);
}

void kt_cages_json(const struct killer_cages *k, char *out, size_t size)
{
    size_t len = (size_t)snprintf(out, size, "[");

    for (unsigned c = 0; c < k->ncages && len < size; c++) {
        len +=
            (size_t)snprintf(out + len, size - len, "%s{\"sum\":%d,\"cells\":[",
                             c ? "," : "", k->cage[c].sum);
        for (unsigned i = 0; i < k->cage[c].ncells && len < size; i++)
            len += (size_t)snprintf(out + len, size - len, "%s[%d,%d]",
                                    i ? "," : "", k->row[k->cage[c].first + i],
                                    k->col[k->cage[c].first + i]);
        if (len < size)
            len += (size_t)snprintf(out + len, size - len, "]}");
    }
    assert_true(len + 1 < size);
    snprintf(out + len, size - len, "]");
}
