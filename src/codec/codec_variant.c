/* codec_variant.c - the wire format of other sizes and variant rules: a
 * board of N strings of N characters or one string of N * N (N is 4, 6, 8,
 * 9, 12, 16 or 25, read from the shape), and the rule members beside it
 * (box, regions, extra_regions, diagonals, anti_knight, anti_king). The
 * codec checks types and shapes; the rules themselves (a region that is not
 * connected, ...) are cover_rules_check's, called by the api. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "codec_internal.h"

static const unsigned sizes[] = {4, 6, 8, 9, 12, 16, 25};

static int is_size(size_t n)
{
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        if (sizes[i] == n)
            return 1;
    return 0;
}

/* The side of a square of `cells` cells, or 0. */
static unsigned side_of(size_t cells)
{
    unsigned s = 0;

    while ((size_t)(s + 1) * (s + 1) <= cells)
        s++;
    return (size_t)s * s == cells ? s : 0;
}

static const char *const rule_members[] = {
    "box", "regions", "extra_regions", "diagonals", "anti_knight", "anti_king",
};

int codec_has_rule_member(const cJSON *root)
{
    for (size_t i = 0; i < sizeof(rule_members) / sizeof(rule_members[0]); i++)
        if (cJSON_GetObjectItemCaseSensitive(root, rule_members[i]) != NULL)
            return 1;
    return 0;
}

/* ------------------------------------------------------------------------
 * Grids of characters: the board and the region map
 * ------------------------------------------------------------------------ */

/* What a grid of characters is, for the messages and the status. */
struct grid_kind {
    const char *name; /* "board", "region map" */
    enum codec_status bad;
};

/* The rows form of a grid whose side is already known (n): n strings of n
 * characters into text. */
static enum codec_status grid_rows(const cJSON *v, const char *at, unsigned n,
                                   const struct grid_kind *k, char *text,
                                   struct codec_error *err)
{
    int r = 0, nrows = cJSON_GetArraySize(v);
    const cJSON *row;

    if (nrows != (int)n)
        return codec_fail(err, k->bad, at, -1,
                          "%s has %d row%s; it must have %u", k->name, nrows,
                          nrows == 1 ? "" : "s", n);
    cJSON_ArrayForEach(row, v)
    {
        char pointer[40];
        size_t len = 0;

        snprintf(pointer, sizeof(pointer), "%s/%d", at, r);
        if (!cJSON_IsString(row))
            return codec_fail(err, CODEC_INVALID_REQUEST, pointer, r,
                              "row %d of the %s is not a string", r, k->name);
        len = codec_copy_chars(row->valuestring, text + (size_t)r * n, n);
        if (len != n)
            return codec_fail(err, k->bad, pointer, r,
                              "row %d of the %s has %zu character%s; it must "
                              "have %u",
                              r, k->name, len, len == 1 ? "" : "s", n);
        r++;
    }
    return CODEC_OK;
}

/* A grid of side n (known) in either form; *shape gets the form. */
static enum codec_status grid_value(const cJSON *v, const char *at, unsigned n,
                                    const struct grid_kind *k, char *text,
                                    enum codec_shape *shape,
                                    struct codec_error *err)
{
    if (cJSON_IsString(v)) {
        size_t len = codec_copy_chars(v->valuestring, text, (size_t)n * n);
        *shape = CODEC_SHAPE_LINE;
        if (len != (size_t)n * n)
            return codec_fail(err, k->bad, at, -1,
                              "the %s string has %zu character%s; for a "
                              "%ux%u board it must have %u",
                              k->name, len, len == 1 ? "" : "s", n, n, n * n);
        return CODEC_OK;
    }
    *shape = CODEC_SHAPE_ROWS;
    if (cJSON_IsArray(v))
        return grid_rows(v, at, n, k, text, err);
    return codec_fail(err, CODEC_INVALID_REQUEST, at, -1,
                      "the %s must be an array of strings or one string",
                      k->name);
}

/* The side a board value says it has: its number of rows, or the side of
 * its string. 0 when it has none. *square says whether it is square at
 * all (each row as long as there are rows), for "no such size" messages. */
static unsigned board_side(const cJSON *v, int *square)
{
    const cJSON *row;
    size_t n;

    *square = 0;
    if (cJSON_IsString(v)) {
        char scratch[1];
        n = side_of(codec_copy_chars(v->valuestring, scratch, 0));
        *square = n > 0;
        return (unsigned)n;
    }
    if (!cJSON_IsArray(v))
        return 0;
    n = (size_t)cJSON_GetArraySize(v);
    *square = n > 0;
    cJSON_ArrayForEach(row, v)
    {
        char scratch[1];
        if (!cJSON_IsString(row) ||
            codec_copy_chars(row->valuestring, scratch, 0) != n)
            *square = 0;
    }
    return (unsigned)n;
}

/* Does every row of an array have the same length, other than its count?
 * (8 rows of 9: the board is not square, and no row is to blame.) */
static int rows_oblong(const cJSON *v, unsigned n)
{
    const cJSON *row;
    size_t first = 0;
    int k = 0;
    char scratch[1];

    if (!cJSON_IsArray(v))
        return 0;
    cJSON_ArrayForEach(row, v)
    {
        size_t len;
        if (!cJSON_IsString(row))
            return 0;
        len = codec_copy_chars(row->valuestring, scratch, 0);
        if (k++ == 0)
            first = len;
        else if (len != first)
            return 0;
    }
    return k > 0 && first != n;
}

static enum codec_status read_board(const cJSON *v, const char *at,
                                    struct codec_variant *out,
                                    struct codec_error *err)
{
    static const struct grid_kind kind = {"board", CODEC_INVALID_BOARD};
    int square;
    unsigned n = board_side(v, &square);

    if (!cJSON_IsString(v) && !cJSON_IsArray(v))
        return codec_fail(err, CODEC_INVALID_REQUEST, at, -1,
                          "a board must be an array of N strings of N "
                          "characters or one string of N * N");
    if (!is_size(n)) {
        if (square && n > 0)
            out->is_variant = 1;
        return codec_fail(err, CODEC_INVALID_BOARD, at, -1,
                          "%s: the sizes are 4x4, 6x6, 8x8, 9x9, 12x12, "
                          "16x16 and 25x25",
                          square && n > 0 ? "a board of no known size"
                                          : "the board is not square");
    }
    if (n != 9)
        out->is_variant = 1;
    if (rows_oblong(v, n))
        return codec_fail(err, CODEC_INVALID_BOARD, at, -1,
                          "the board has %u rows but they are not %u "
                          "characters long; it must be square",
                          n, n);
    if (cover_rules_init(&out->rules, n) != COVER_OK)
        return codec_fail(err, CODEC_INVALID_BOARD, at, -1,
                          "the engine does not take %ux%u boards", n, n);
    return grid_value(v, at, n, &kind, out->text, &out->shape, err);
}

/* ------------------------------------------------------------------------
 * The rule members
 * ------------------------------------------------------------------------ */

static enum codec_status read_flag(const cJSON *root, const char *name,
                                   int *flag, struct codec_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, name);
    char pointer[32];

    if (v == NULL)
        return CODEC_OK;
    snprintf(pointer, sizeof(pointer), "/%s", name);
    if (!cJSON_IsBool(v))
        return codec_fail(err, CODEC_INVALID_REQUEST, pointer, -1,
                          "\"%s\" must be true or false", name);
    *flag = cJSON_IsTrue(v);
    return CODEC_OK;
}

/* An integer lo..hi, else -1. */
static long integer(const cJSON *v, long lo, long hi)
{
    double d = cJSON_IsNumber(v) ? v->valuedouble : -1e300;

    if (d < (double)lo || d > (double)hi || d != (double)(long)d)
        return -1;
    return (long)d;
}

static enum codec_status read_box(const cJSON *root, struct codec_variant *out,
                                  struct codec_error *err)
{
    const cJSON *box = cJSON_GetObjectItemCaseSensitive(root, "box");
    unsigned n = out->rules.n;
    long dim[2];

    if (box == NULL)
        return CODEC_OK;
    if (!cJSON_IsObject(box))
        return codec_fail(err, CODEC_INVALID_REQUEST, "/box", -1,
                          "\"box\" must be an object {\"rows\": r, "
                          "\"columns\": c}");
    for (int k = 0; k < 2; k++) {
        const char *name = k ? "columns" : "rows";
        dim[k] = integer(cJSON_GetObjectItemCaseSensitive(box, name), 1,
                         COVER_MAX_N);
        if (dim[k] < 0)
            return codec_fail(err, CODEC_INVALID_REQUEST,
                              k ? "/box/columns" : "/box/rows", -1,
                              "\"%s\" of \"box\" must be an integer from 1 "
                              "to %d",
                              name, COVER_MAX_N);
    }
    if ((unsigned long)(dim[0] * dim[1]) != n)
        return codec_fail(err, CODEC_INVALID_BOX, "/box", -1,
                          "a %ldx%ld box does not tile a %ux%u board: rows "
                          "times columns must be %u",
                          dim[0], dim[1], n, n, n);
    out->rules.box_rows = (uint8_t)dim[0];
    out->rules.box_cols = (uint8_t)dim[1];
    out->has_box = 1;
    return CODEC_OK;
}

/* "regions": a map of region letters, A for region 0, as many letters as
 * the board is wide (A-I for 9x9, A-Y for 25x25), either case. */
static enum codec_status read_regions(const cJSON *root,
                                      struct codec_variant *out,
                                      struct codec_error *err)
{
    static const struct grid_kind kind = {"region map", CODEC_INVALID_REGIONS};
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "regions");
    unsigned n = out->rules.n;
    char text[COVER_MAX_CELLS];
    enum codec_shape shape;
    enum codec_status st;

    if (v == NULL)
        return CODEC_OK;
    if (out->has_box)
        return codec_fail(err, CODEC_INVALID_BOX, "/box", -1,
                          "\"box\" and \"regions\" exclude each other: the "
                          "regions replace the boxes");
    if ((st = grid_value(v, "/regions", n, &kind, text, &shape, err)) != 0)
        return st;
    for (unsigned i = 0; i < n * n; i++) {
        int c = toupper((unsigned char)text[i]);
        if (c < 'A' || c >= 'A' + (int)n) {
            char pointer[32] = "/regions";
            int row = (int)(i / n);
            if (shape == CODEC_SHAPE_ROWS)
                snprintf(pointer, sizeof(pointer), "/regions/%d", row);
            codec_fail(err, CODEC_INVALID_REGIONS, pointer, row,
                       "row %d, column %u of the region map: a %ux%u map "
                       "names its regions with the letters A to %c",
                       row, i % n, n, n, 'A' + n - 1);
            err->column = (int)(i % n);
            return CODEC_INVALID_REGIONS;
        }
        out->rules.region[i] = (uint8_t)(c - 'A');
    }
    out->rules.has_regions = 1;
    return CODEC_OK;
}

/* One [row, column] pair, cell k of extra group g, into *cell. */
static enum codec_status extra_cell(const cJSON *pair, unsigned n, int g, int k,
                                    int *cell, struct codec_error *err)
{
    char pointer[40];
    long r, c;

    snprintf(pointer, sizeof(pointer), "/extra_regions/%d/%d", g, k);
    if (!cJSON_IsArray(pair) || cJSON_GetArraySize(pair) != 2 ||
        !cJSON_IsNumber(cJSON_GetArrayItem(pair, 0)) ||
        !cJSON_IsNumber(cJSON_GetArrayItem(pair, 1)))
        return codec_fail(err, CODEC_INVALID_REQUEST, pointer, -1,
                          "a cell of an extra region is a pair [row, "
                          "column] of integers");
    r = integer(cJSON_GetArrayItem(pair, 0), 0, (long)n - 1);
    c = integer(cJSON_GetArrayItem(pair, 1), 0, (long)n - 1);
    if (r < 0 || c < 0)
        return codec_fail(err, CODEC_INVALID_EXTRA, pointer, -1,
                          "cell %d of extra region %d is not on the %ux%u "
                          "grid: rows and columns are integers from 0 to %u",
                          k, g, n, n, n - 1);
    *cell = (int)(r * (long)n + c);
    return CODEC_OK;
}

static enum codec_status extra_group(const cJSON *grp, int g,
                                     struct cover_group *out, unsigned n,
                                     struct codec_error *err)
{
    char pointer[32];
    const cJSON *pair;
    enum codec_status st;
    int k = 0, size = cJSON_GetArraySize(grp), cell = 0;

    snprintf(pointer, sizeof(pointer), "/extra_regions/%d", g);
    if (!cJSON_IsArray(grp))
        return codec_fail(err, CODEC_INVALID_REQUEST, pointer, -1,
                          "an extra region is an array of [row, column] "
                          "cells");
    if (size < 1 || size > (int)n)
        return codec_fail(err, CODEC_INVALID_EXTRA, pointer, -1,
                          "extra region %d has %d cells; it must have 1 to %u",
                          g, size, n);
    cJSON_ArrayForEach(pair, grp)
    {
        if ((st = extra_cell(pair, n, g, k, &cell, err)) != CODEC_OK)
            return st;
        for (int j = 0; j < k; j++)
            if (out->cell[j] == cell)
                return codec_fail(err, CODEC_INVALID_EXTRA, pointer, -1,
                                  "extra region %d names cell [%u,%u] twice", g,
                                  (unsigned)cell / n, (unsigned)cell % n);
        out->cell[k++] = (uint16_t)cell;
    }
    out->ncells = (uint8_t)k;
    return CODEC_OK;
}

static enum codec_status read_extra(const cJSON *root, struct cover_rules *r,
                                    struct codec_error *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "extra_regions");
    const cJSON *grp;
    enum codec_status st;
    int g = 0;

    if (v == NULL)
        return CODEC_OK;
    if (!cJSON_IsArray(v))
        return codec_fail(err, CODEC_INVALID_REQUEST, "/extra_regions", -1,
                          "\"extra_regions\" must be an array of regions, "
                          "each an array of [row, column] cells");
    if (cJSON_GetArraySize(v) > COVER_MAX_EXTRA)
        return codec_fail(err, CODEC_INVALID_EXTRA, "/extra_regions", -1,
                          "at most %d extra regions", COVER_MAX_EXTRA);
    cJSON_ArrayForEach(grp, v)
    {
        if ((st = extra_group(grp, g, &r->extra[g], r->n, err)) != CODEC_OK)
            return st;
        g++;
    }
    r->nextra = (unsigned)g;
    return CODEC_OK;
}

/* Every rule member of root, for a board of side out->rules.n. */
static enum codec_status read_rules(const cJSON *root,
                                    struct codec_variant *out,
                                    struct codec_error *err)
{
    enum codec_status st;

    if ((st = read_flag(root, "diagonals", &out->rules.diagonals, err)) ||
        (st = read_flag(root, "anti_knight", &out->rules.anti_knight, err)) ||
        (st = read_flag(root, "anti_king", &out->rules.anti_king, err)) ||
        (st = read_box(root, out, err)) ||
        (st = read_regions(root, out, err)) ||
        (st = read_extra(root, &out->rules, err)))
        return st;
    return CODEC_OK;
}

/* ------------------------------------------------------------------------
 * Bodies
 * ------------------------------------------------------------------------ */

static void variant_init(struct codec_variant *out, struct codec_error *err)
{
    out->is_variant = 0;
    out->has_box = 0;
    out->at[0] = '\0';
    snprintf(out->board_at, sizeof(out->board_at), "/board");
    out->shape = CODEC_SHAPE_ROWS;
    cover_rules_init(&out->rules, 9);
    err->offset = -1;
    err->row = -1;
    err->column = -1;
    err->pointer[0] = '\0';
    err->detail[0] = '\0';
}

enum codec_status codec_variant_value(const cJSON *item, const char *at,
                                      struct codec_variant *out,
                                      struct codec_error *err)
{
    char pointer[40];
    const cJSON *board = item;
    enum codec_status st;

    variant_init(out, err);
    snprintf(out->at, sizeof(out->at), "%s", at);
    snprintf(out->board_at, sizeof(out->board_at), "%s", at);
    if (cJSON_IsObject(item)) {
        out->is_variant = codec_has_rule_member(item);
        board = cJSON_GetObjectItemCaseSensitive(item, "board");
        snprintf(pointer, sizeof(pointer), "%s/board", at);
        snprintf(out->board_at, sizeof(out->board_at), "%s", pointer);
        if (board == NULL)
            return codec_fail(err, CODEC_INVALID_REQUEST, pointer, -1,
                              "the \"board\" member is missing");
        if ((st = read_board(board, pointer, out, err)) != CODEC_OK)
            return st;
        st = read_rules(item, out, err);
        if (st != CODEC_OK) { /* point into the item: at + the member */
            size_t a = strlen(at), b = strlen(err->pointer);
            if (a + b < sizeof(err->pointer)) {
                memmove(err->pointer + a, err->pointer, b + 1);
                memcpy(err->pointer, at, a);
            }
        }
        return st;
    }
    return read_board(board, at, out, err);
}

enum codec_status codec_decode_variant(const char *body, size_t len,
                                       struct codec_variant *out,
                                       struct codec_error *err)
{
    enum codec_status st;
    cJSON *root;

    variant_init(out, err);
    st = codec_parse_object(
        body, len, &root, err,
        "the body must be a JSON object with a \"board\" member");
    if (st != CODEC_OK)
        return st;
    st = codec_variant_value(root, "", out, err);
    cJSON_Delete(root);
    return st;
}

enum codec_status codec_variant_options(const cJSON *root,
                                        struct codec_variant *out,
                                        struct codec_error *err)
{
    const cJSON *size;
    long n = 9;

    variant_init(out, err);
    out->is_variant = codec_has_rule_member(root);
    if ((size = cJSON_GetObjectItemCaseSensitive(root, "size")) != NULL) {
        n = integer(size, 0, 1000000);
        out->is_variant |= n != 9;
        if (n < 0)
            return codec_fail(err, CODEC_INVALID_REQUEST, "/size", -1,
                              "\"size\" must be an integer");
        if (!is_size((size_t)n))
            return codec_fail(err, CODEC_INVALID_SIZE, "/size", -1,
                              "there are no %ldx%ld puzzles: the sizes are 4, "
                              "6, 8, 9, 12, 16 and 25",
                              n, n);
    }
    cover_rules_init(&out->rules, (unsigned)n);
    return read_rules(root, out, err);
}

enum codec_status codec_decode_variant_options(const char *body, size_t len,
                                               struct codec_variant *out,
                                               struct codec_error *err)
{
    enum codec_status st;
    cJSON *root;

    variant_init(out, err);
    st = codec_parse_object(body, len, &root, err,
                            "the body must be a JSON object");
    if (st != CODEC_OK)
        return st;
    st = codec_variant_options(root, out, err);
    cJSON_Delete(root);
    return st;
}

/* ------------------------------------------------------------------------
 * Answers
 * ------------------------------------------------------------------------ */

/* Adds grid g under `name`: n strings of n, or one string, as `shape`
 * says; 0 when out of memory. */
static int add_grid(cJSON *obj, const char *name, const struct cover_grid *g,
                    enum codec_shape shape)
{
    char text[COVER_MAX_CELLS + 1];

    cover_format(g, text);
    return codec_add_grid(obj, name, text, g->n, shape);
}

char *codec_encode_variant_solution(const struct cover_grid *g,
                                    enum codec_shape shape,
                                    const struct sudoku_stats *stats,
                                    uint64_t solve_us, size_t *len)
{
    cJSON *obj = cJSON_CreateObject(), *st;
    int ok;

    if (obj == NULL)
        return NULL;
    ok = add_grid(obj, "solution", g, shape) &&
         (st = cJSON_AddObjectToObject(obj, "stats")) != NULL &&
         cJSON_AddNumberToObject(st, "guesses", (double)stats->guesses) &&
         cJSON_AddNumberToObject(st, "nodes", (double)stats->nodes) &&
         cJSON_AddNumberToObject(st, "solve_us", (double)solve_us);
    return codec_finish(obj, ok, len);
}

char *codec_encode_variant_validate(int valid, unsigned solutions, int complete,
                                    const struct cover_rules *r,
                                    const struct cover_conflict *c, size_t n,
                                    size_t *len)
{
    cJSON *obj = codec_validate_begin(valid, solutions, complete);

    return obj ? codec_finish(obj, codec_add_cover_conflicts(obj, r, c, n) == 0,
                              len)
               : NULL;
}

/* "extra_regions": each extra group as an array of [row, column] pairs,
 * the way read_extra takes them; nothing when there is none. 0 when out of
 * memory. */
static int add_extra(cJSON *rules, const struct cover_rules *r)
{
    cJSON *all, *grp, *pair;

    if (r->nextra == 0)
        return 1;
    if ((all = cJSON_AddArrayToObject(rules, "extra_regions")) == NULL)
        return 0;
    for (unsigned g = 0; g < r->nextra; g++) {
        if ((grp = cJSON_CreateArray()) == NULL)
            return 0;
        cJSON_AddItemToArray(all, grp);
        for (unsigned k = 0; k < r->extra[g].ncells; k++) {
            if ((pair = codec_cell_pair(r->extra[g].cell[k], r->n)) == NULL)
                return 0;
            cJSON_AddItemToArray(grp, pair);
        }
    }
    return 1;
}

/* "rules": every rule a generated puzzle obeys, as a /solve body takes
 * them (the regions as a map in rows), so that "rules" plus "puzzle" is a
 * /solve body with the one solution. */
static int add_rules(cJSON *obj, const struct cover_rules *r)
{
    cJSON *rules = cJSON_AddObjectToObject(obj, "rules"), *box;
    char map[COVER_MAX_CELLS + 1];

    if (rules == NULL ||
        !cJSON_AddBoolToObject(rules, "diagonals", r->diagonals) ||
        !cJSON_AddBoolToObject(rules, "anti_knight", r->anti_knight) ||
        !cJSON_AddBoolToObject(rules, "anti_king", r->anti_king) ||
        !add_extra(rules, r))
        return 0;
    if (!r->has_regions)
        return (box = cJSON_AddObjectToObject(rules, "box")) != NULL &&
               cJSON_AddNumberToObject(box, "rows", r->box_rows) &&
               cJSON_AddNumberToObject(box, "columns", r->box_cols);
    for (unsigned i = 0; i < (unsigned)r->n * r->n; i++)
        map[i] = (char)('A' + r->region[i]);
    map[r->n * r->n] = '\0';
    return codec_add_grid(rules, "regions", map, r->n, CODEC_SHAPE_ROWS);
}

char *codec_encode_variant_generated(const struct codec_variant_generated *g,
                                     size_t *len)
{
    cJSON *obj = cJSON_CreateObject();
    int ok;

    if (obj == NULL)
        return NULL;
    ok =
        add_grid(obj, "puzzle", g->puzzle, g->shape) &&
        add_grid(obj, "solution", g->solution, g->shape) &&
        cJSON_AddNumberToObject(obj, "size", g->puzzle->n) &&
        codec_add_seed(obj, g->seed) &&
        cJSON_AddStringToObject(obj, "symmetry", g->symmetry) &&
        cJSON_AddNumberToObject(obj, "givens", g->givens) &&
        cJSON_AddNumberToObject(obj, "generate_us", (double)g->generate_us) &&
        add_rules(obj, g->rules) &&
        (g->grade == NULL || codec_teach_add_level(obj, g->grade, g->attempts));
    return codec_finish(obj, ok, len);
}
