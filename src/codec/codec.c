/* codec.c - JSON in and out, on cJSON.
 * Parsing uses cJSON_ParseWithLengthOpts with an end pointer, never
 * cJSON_GetErrorPtr (a global, unsafe with threads). The common /solve body
 * ({"board": ...} and nothing else) is read by hand before any cJSON tree
 * is built (codec_fast.c), and the fixed-shape success answer is written
 * directly; problems, whose strings need escaping, are built as cJSON trees,
 * with the generic builders every answer of the codec shares. */
#include "codec.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec_internal.h"
#include "grid.h"

enum codec_status codec_fail(struct codec_error *err, enum codec_status st,
                             const char *pointer, int row, const char *fmt, ...)
{
    va_list ap;

    snprintf(err->pointer, sizeof(err->pointer), "%s", pointer);
    err->row = row;
    if (row < 0)
        err->column = -1;
    va_start(ap, fmt);
    vsnprintf(err->detail, sizeof(err->detail), fmt, ap);
    va_end(ap);
    return st;
}

/* Counts the characters (UTF-8 code points) of s and copies up to `max` of
 * them into out, one byte each: ASCII as is, anything else as
 * CODEC_NON_ASCII. So a row is measured as a person sees it ("é" is one
 * character) and the board check reports the first bad character, of
 * either kind, at its real column. */
size_t codec_copy_chars(const char *s, char *out, size_t max)
{
    size_t n = 0;

    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p & 0xC0) == 0x80)
            continue; /* continuation byte (the body is valid UTF-8) */
        if (n < max)
            out[n] = *p < 0x80 ? (char)*p : CODEC_NON_ASCII;
        n++;
    }
    return n;
}

static enum codec_status decode_rows(const cJSON *board, const char *at,
                                     struct codec_board *out,
                                     struct codec_error *err)
{
    int nrows = cJSON_GetArraySize(board);
    int r = 0;
    const cJSON *row;

    if (nrows != SUDOKU_SIZE)
        return codec_fail(err, CODEC_INVALID_BOARD, at, -1,
                          "board has %d row%s; it must have 9", nrows,
                          nrows == 1 ? "" : "s");
    cJSON_ArrayForEach(row, board)
    {
        char pointer[40];
        size_t n = 0;

        if (cJSON_IsString(row))
            n = codec_copy_chars(row->valuestring, out->text + r * SUDOKU_SIZE,
                                 SUDOKU_SIZE);
        if (n != SUDOKU_SIZE) { /* the pointer is only made for an error */
            snprintf(pointer, sizeof(pointer), "%s/%d", at, r);
            if (!cJSON_IsString(row))
                return codec_fail(err, CODEC_INVALID_REQUEST, pointer, r,
                                  "row %d is not a string", r);
            return codec_fail(err, CODEC_INVALID_BOARD, pointer, r,
                              "row %d has %zu character%s; it must have 9", r,
                              n, n == 1 ? "" : "s");
        }
        r++;
    }
    out->shape = CODEC_SHAPE_ROWS;
    return CODEC_OK;
}

/* Offset of the first byte that breaks UTF-8 (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF) or that is a control character
 * JSON never allows raw (anything below 0x20 but tab, CR and LF; cJSON
 * would take some for whitespace and end strings at a NUL), or -1. */
static long utf8_error(const unsigned char *s, size_t len)
{
    size_t i = 0;

    while (i < len) {
        unsigned char c = s[i];
        size_t n;
        unsigned lo = 0x80, hi = 0xBF; /* bounds of the second byte */

        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            return (long)i;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF)
            n = 1;
        else if (c >= 0xE0 && c <= 0xEF)
            n = 2, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        else if (c >= 0xF0 && c <= 0xF4)
            n = 3, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        else
            return (long)i;
        if (i + n >= len) /* cut short by the end of the body */
            return (long)i;
        for (size_t k = 1; k <= n; k++) {
            unsigned char b = s[i + k];
            if (k == 1 ? (b < lo || b > hi) : (b & 0xC0) != 0x80)
                return (long)(i + k);
        }
        i += n + 1;
    }
    return -1;
}

/* cJSON turns the escape \u0000 into a NUL that ends its C string, which
 * would silently shorten a row. Returns a copy of the body with each such
 * escape changed to \u0001 (same length, a control character the board
 * check reports at its real position), or NULL when there is none or no
 * memory (*nomem tells which). */
static char *without_nul_escapes(const char *body, size_t len, int *nomem)
{
    char *copy = NULL;

    *nomem = 0;
    for (size_t i = 0; i + 5 < len; i++) {
        if (body[i] != '\\')
            continue;
        if (body[i + 1] == 'u' && memcmp(body + i + 2, "0000", 4) == 0) {
            if (copy == NULL) {
                if ((copy = malloc(len)) == NULL) {
                    *nomem = 1;
                    return NULL;
                }
                memcpy(copy, body, len);
            }
            copy[i + 5] = '1';
        }
        i++; /* skip the escaped character */
    }
    return copy;
}

enum codec_status codec_parse(const char *body, size_t len, cJSON **root,
                              struct codec_error *err)
{
    const char *end = NULL;
    char *fixed;
    long bad;
    int nomem;

    *root = NULL;
    err->offset = -1;
    err->row = -1;
    err->column = -1;
    err->pointer[0] = '\0';
    if (len == 0 || body == NULL) {
        err->offset = 0;
        return codec_fail(err, CODEC_INVALID_JSON, "", -1,
                          "the body is empty; send a JSON object");
    }
    if ((bad = utf8_error((const unsigned char *)body, len)) >= 0) {
        err->offset = bad;
        return codec_fail(err, CODEC_INVALID_JSON, "", -1,
                          "the body is not valid UTF-8 JSON text: byte %ld is "
                          "out of place",
                          bad);
    }
    fixed = without_nul_escapes(body, len, &nomem);
    if (nomem)
        return CODEC_NO_MEMORY;
    *root = cJSON_ParseWithLengthOpts(fixed ? fixed : body, len, &end, 0);
    if (fixed != NULL && end != NULL)
        end = body + (end - fixed);
    free(fixed);
    if (*root != NULL && end != NULL) {
        while (end < body + len && strchr(" \t\r\n", *end) != NULL)
            end++;
        if (end < body + len) { /* something after the value */
            cJSON_Delete(*root);
            *root = NULL;
        }
    }
    if (*root == NULL) {
        err->offset = end ? (long)(end - body) : 0;
        return codec_fail(err, CODEC_INVALID_JSON, "", -1,
                          "the body is not valid JSON: parsing stopped at "
                          "byte %ld",
                          err->offset);
    }
    return CODEC_OK;
}

enum codec_status codec_parse_object(const char *body, size_t len, cJSON **root,
                                     struct codec_error *err,
                                     const char *detail)
{
    enum codec_status st = codec_parse(body, len, root, err);

    if (st != CODEC_OK || cJSON_IsObject(*root))
        return st;
    cJSON_Delete(*root);
    *root = NULL;
    return codec_fail(err, CODEC_INVALID_REQUEST, "", -1, "%s", detail);
}

enum codec_status codec_board_value(const cJSON *board, const char *at,
                                    struct codec_board *out,
                                    struct codec_error *err)
{
    out->has_grid = 0;
    if (cJSON_IsString(board)) {
        size_t n =
            codec_copy_chars(board->valuestring, out->text, SUDOKU_CELLS);
        if (n != SUDOKU_CELLS)
            return codec_fail(err, CODEC_INVALID_BOARD, at, -1,
                              "board string has %zu character%s; it must "
                              "have 81 for 9x9, or N * N for N = 4, 6, 8, "
                              "12, 16 or 25 (or be an array of N rows of N)",
                              n, n == 1 ? "" : "s");
        out->shape = CODEC_SHAPE_LINE;
        return CODEC_OK;
    }
    if (cJSON_IsArray(board))
        return decode_rows(board, at, out, err);
    return codec_fail(err, CODEC_INVALID_REQUEST, at, -1,
                      "a board must be an array of 9 strings or one string "
                      "of 81 characters");
}

enum codec_status codec_board_general(const char *body, size_t len,
                                      struct codec_board *out,
                                      struct codec_error *err)
{
    cJSON *root;
    const cJSON *board;
    enum codec_status st;

    st = codec_parse_object(
        body, len, &root, err,
        "the body must be a JSON object with a \"board\" member");
    if (st != CODEC_OK)
        return st;
    board = cJSON_GetObjectItemCaseSensitive(root, "board");
    if (board == NULL)
        st = codec_fail(err, CODEC_INVALID_REQUEST, "/board", -1,
                        "the \"board\" member is missing");
    else
        st = codec_board_value(board, "/board", out, err);
    cJSON_Delete(root);
    return st;
}

enum codec_status codec_decode_board(const char *body, size_t len,
                                     struct codec_board *out,
                                     struct codec_error *err)
{
    out->only_board = codec_board_fast(body, len, out);
    if (out->only_board)
        return CODEC_OK;
    out->has_grid = 0;
    return codec_board_general(body, len, out, err);
}

/* Appends s (a literal) at p; returns the new end. */
static char *put_str(char *p, const char *s)
{
    size_t n = strlen(s);

    memcpy(p, s, n);
    return p + n;
}

/* Appends the n cells as digits at p; returns the new end. A cell holds
 * 0-9, so '0' is added to eight cells at once in a 64-bit word: no byte's
 * sum carries into the next one, whatever the byte order. */
static char *put_digits(char *p, const uint8_t *cell, size_t n)
{
    size_t i = 0;

    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, cell + i, 8);
        w += 0x3030303030303030u;
        memcpy(p + i, &w, 8);
    }
    for (; i < n; i++)
        p[i] = (char)('0' + cell[i]);
    return p + n;
}

/* The answer is written by hand, not through a cJSON tree or printf: its
 * shape is fixed, it needs no escaping, and it is on the hot path. */
size_t codec_write_solution(char *out, const struct sudoku_grid *solution,
                            enum codec_shape shape,
                            const struct sudoku_stats *stats, uint64_t solve_us)
{
    char *p = out;

    if (shape == CODEC_SHAPE_LINE) {
        p = put_str(p, "{\"solution\":\"");
        p = put_digits(p, solution->cell, SUDOKU_CELLS);
        *p++ = '"';
    } else {
        p = put_str(p, "{\"solution\":[");
        for (int r = 0; r < SUDOKU_SIZE; r++) {
            *p++ = '"';
            p = put_digits(p, solution->cell + r * SUDOKU_SIZE, SUDOKU_SIZE);
            *p++ = '"';
            *p++ = r < SUDOKU_SIZE - 1 ? ',' : ']';
        }
    }
    p = put_str(p, ",\"stats\":{\"guesses\":");
    p = codec_put_decimal(p, stats->guesses);
    p = put_str(p, ",\"nodes\":");
    p = codec_put_decimal(p, stats->nodes);
    p = put_str(p, ",\"solve_us\":");
    p = codec_put_decimal(p, solve_us);
    p = put_str(p, "}}");
    *p = '\0';
    return (size_t)(p - out);
}

char *codec_encode_solution(const struct sudoku_grid *solution,
                            enum codec_shape shape,
                            const struct sudoku_stats *stats, uint64_t solve_us,
                            size_t *len)
{
    char *buf = malloc(CODEC_SOLUTION_MAX);

    if (buf != NULL)
        *len = codec_write_solution(buf, solution, shape, stats, solve_us);
    return buf;
}

/* ------------------------------------------------------------------------
 * Problems (RFC 9457)
 * ------------------------------------------------------------------------ */

const struct codec_problem_type codec_problem_types[CODEC_NPROBLEMS] = {
#define CODEC_PROBLEM_TYPE(id, status, code, title)                            \
    [CODEC_PROBLEM_##id] = {status, code, title},
    CODEC_PROBLEMS(CODEC_PROBLEM_TYPE)
#undef CODEC_PROBLEM_TYPE
};

void codec_problem_set(struct codec_problem *p,
                       const struct codec_problem_type *type,
                       const char *detail)
{
    memset(p, 0, sizeof(*p));
    p->status = type->status;
    p->code = type->code;
    p->title = type->title;
    p->detail = detail;
    p->offset = -1;
    p->row = -1;
    p->column = -1;
    p->limit = -1;
    p->cage = -1;
    p->other_cage = -1;
}

void codec_problem_init(struct codec_problem *p, enum codec_problem_id id,
                        const char *detail)
{
    codec_problem_set(p, &codec_problem_types[id], detail);
}

static int add_conflicts(cJSON *obj, const struct codec_problem *p)
{
    cJSON *list = cJSON_AddArrayToObject(obj, "conflicts");

    if (list == NULL)
        return -1;
    for (size_t i = 0; i < p->nconflicts; i++) {
        const struct sudoku_conflict *c = &p->conflicts[i];
        cJSON *item = cJSON_CreateObject(), *cells;

        if (item == NULL)
            return -1;
        cJSON_AddItemToArray(list, item);
        if (!cJSON_AddStringToObject(item, "unit", grid_unit_name(c->unit)) ||
            !cJSON_AddNumberToObject(item, "index", c->index) ||
            !cJSON_AddNumberToObject(item, "digit", c->digit) ||
            !(cells = cJSON_AddArrayToObject(item, "cells")))
            return -1;
        for (int k = 0; k < c->ncells; k++) {
            cJSON *pair = codec_cell_pair(c->cells[k], SUDOKU_SIZE);
            if (pair == NULL)
                return -1;
            cJSON_AddItemToArray(cells, pair);
        }
    }
    return 0;
}

/* "cells": [[row, column], ...] of a killer problem. */
static int add_cells(cJSON *obj, const struct codec_problem *p)
{
    cJSON *list = cJSON_AddArrayToObject(obj, "cells");

    if (list == NULL)
        return -1;
    for (size_t i = 0; i < p->ncells; i++) {
        int rc[2] = {p->cell_rows[i], p->cell_cols[i]};
        cJSON *pair = cJSON_CreateIntArray(rc, 2);
        if (pair == NULL)
            return -1;
        cJSON_AddItemToArray(list, pair);
    }
    return 0;
}

char *codec_encode_problem(const struct codec_problem *p, size_t *len)
{
    char type[64];
    cJSON *obj = cJSON_CreateObject();
    char *out = NULL;
    int ok;

    if (obj == NULL)
        return NULL;
    snprintf(type, sizeof(type), "urn:sudokud:problem:%s", p->code);
    ok = cJSON_AddStringToObject(obj, "type", type) &&
         cJSON_AddStringToObject(obj, "title", p->title) &&
         cJSON_AddNumberToObject(obj, "status", p->status) &&
         cJSON_AddStringToObject(obj, "detail", p->detail) &&
         cJSON_AddStringToObject(obj, "code", p->code);
    if (ok && p->pointer != NULL)
        ok = cJSON_AddStringToObject(obj, "pointer", p->pointer) != NULL;
    if (ok && p->offset >= 0)
        ok = cJSON_AddNumberToObject(obj, "offset", (double)p->offset) != NULL;
    if (ok && p->row >= 0)
        ok = cJSON_AddNumberToObject(obj, "row", p->row) != NULL;
    if (ok && p->column >= 0)
        ok = cJSON_AddNumberToObject(obj, "column", p->column) != NULL;
    if (ok && p->limit >= 0)
        ok = cJSON_AddNumberToObject(obj, "limit", (double)p->limit) != NULL;
    if (ok && p->conflicts != NULL)
        ok = add_conflicts(obj, p) == 0;
    if (ok && p->cage >= 0)
        ok = cJSON_AddNumberToObject(obj, "cage", p->cage) != NULL;
    if (ok && p->other_cage >= 0)
        ok = cJSON_AddNumberToObject(obj, "other_cage", p->other_cage) != NULL;
    if (ok && p->ncells > 0)
        ok = add_cells(obj, p) == 0;
    if (ok && p->cover_conflicts != NULL)
        ok = codec_add_cover_conflicts(obj, p->cover_rules, p->cover_conflicts,
                                       p->ncover) == 0;
    if (ok && p->request_id != NULL)
        ok = cJSON_AddStringToObject(obj, "request_id", p->request_id) != NULL;
    if (ok && p->trace_id != NULL)
        ok = cJSON_AddStringToObject(obj, "trace_id", p->trace_id) != NULL;
    if (ok)
        out = cJSON_PrintUnformatted(obj);
    cJSON_Delete(obj);
    if (out != NULL)
        *len = strlen(out);
    return out;
}

char *codec_encode_status(const char *status, size_t *len)
{
    size_t n = strlen(status) + sizeof("{\"status\":\"\"}");
    char *buf = malloc(n);

    if (buf == NULL)
        return NULL;
    *len = (size_t)snprintf(buf, n, "{\"status\":\"%s\"}", status);
    return buf;
}

/* ------------------------------------------------------------------------
 * Builders shared by every answer
 * ------------------------------------------------------------------------ */

char *codec_finish(cJSON *obj, int ok, size_t *len)
{
    char *out = ok ? cJSON_PrintUnformatted(obj) : NULL;

    cJSON_Delete(obj);
    if (out != NULL)
        *len = strlen(out);
    return out;
}

cJSON *codec_cell_pair(unsigned cell, unsigned n)
{
    int rc[2] = {(int)(cell / n), (int)(cell % n)};

    return cJSON_CreateIntArray(rc, 2);
}

cJSON *codec_add_cell_digit(cJSON *list, unsigned cell, unsigned n, int digit)
{
    cJSON *item = cJSON_CreateObject(), *pair = codec_cell_pair(cell, n);

    if (item == NULL || pair == NULL) {
        cJSON_Delete(item);
        cJSON_Delete(pair);
        return NULL;
    }
    cJSON_AddItemToArray(list, item);
    cJSON_AddItemToObject(item, "cell", pair);
    return cJSON_AddNumberToObject(item, "digit", digit) ? item : NULL;
}

int codec_add_next_placement(cJSON *obj, unsigned cell, unsigned n, int digit,
                             const char *technique, unsigned steps)
{
    cJSON *next = cJSON_CreateObject(), *pair = codec_cell_pair(cell, n);

    if (next == NULL || pair == NULL) {
        cJSON_Delete(next);
        cJSON_Delete(pair);
        return 0;
    }
    cJSON_AddItemToObject(obj, "next_placement", next);
    cJSON_AddItemToObject(next, "cell", pair);
    return cJSON_AddNumberToObject(next, "digit", digit) &&
           cJSON_AddStringToObject(next, "technique", technique) &&
           cJSON_AddNumberToObject(next, "steps", steps);
}

int codec_add_grid(cJSON *obj, const char *name, const char *text, unsigned n,
                   enum codec_shape shape)
{
    char row[COVER_MAX_N + 1];
    cJSON *rows;

    if (shape == CODEC_SHAPE_LINE)
        return cJSON_AddStringToObject(obj, name, text) != NULL;
    if ((rows = cJSON_AddArrayToObject(obj, name)) == NULL)
        return 0;
    for (unsigned r = 0; r < n; r++) {
        cJSON *s;
        memcpy(row, text + r * n, n);
        row[n] = '\0';
        if ((s = cJSON_CreateString(row)) == NULL)
            return 0;
        cJSON_AddItemToArray(rows, s);
    }
    return 1;
}

int codec_add_seed(cJSON *obj, uint64_t seed)
{
    char digits[24];

    snprintf(digits, sizeof(digits), "%llu", (unsigned long long)seed);
    return cJSON_AddRawToObject(obj, "seed", digits) != NULL;
}

cJSON *codec_validate_begin(int valid, unsigned solutions, int complete)
{
    cJSON *obj = cJSON_CreateObject();

    if (obj != NULL && !(cJSON_AddBoolToObject(obj, "valid", valid) &&
                         cJSON_AddNumberToObject(obj, "solutions", solutions) &&
                         cJSON_AddBoolToObject(obj, "complete", complete))) {
        cJSON_Delete(obj);
        obj = NULL;
    }
    return obj;
}

int codec_add_cover_conflicts(cJSON *obj, const struct cover_rules *r,
                              const struct cover_conflict *c, size_t n)
{
    cJSON *list = cJSON_AddArrayToObject(obj, "conflicts");

    if (list == NULL)
        return -1;
    for (size_t i = 0; i < n; i++) {
        cJSON *item = cJSON_CreateObject(), *cells;
        const char *unit = c[i].unit == COVER_BOX && r->has_regions
                               ? "region"
                               : grid_unit_name(c[i].unit);

        if (item == NULL)
            return -1;
        cJSON_AddItemToArray(list, item);
        if (!cJSON_AddStringToObject(item, "unit", unit) ||
            !cJSON_AddNumberToObject(item, "index", c[i].index) ||
            !cJSON_AddNumberToObject(item, "digit", c[i].digit) ||
            !(cells = cJSON_AddArrayToObject(item, "cells")))
            return -1;
        for (int k = 0; k < c[i].ncells; k++) {
            cJSON *pair = codec_cell_pair(c[i].cell[k], r->n);
            if (pair == NULL)
                return -1;
            cJSON_AddItemToArray(cells, pair);
        }
    }
    return 0;
}
