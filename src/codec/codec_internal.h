/* codec_internal.h - what the files of the codec module share (they alone
 * may include cJSON); not a contract for any other module. */
#ifndef CODEC_INTERNAL_H
#define CODEC_INTERNAL_H

#include <cjson/cJSON.h>
#include <string.h>

#include "codec.h"

/* Fills *err (pointer, row, a printf-style detail) and returns st. */
enum codec_status codec_fail(struct codec_error *err, enum codec_status st,
                             const char *pointer, int row, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Parses a request body of len bytes (not NUL-terminated) into *root: it
 * must be UTF-8 without raw control characters, one JSON value, nothing
 * after it but whitespace. On failure *root is NULL and *err says where
 * (CODEC_INVALID_JSON with err->offset, or CODEC_NO_MEMORY). The caller
 * frees *root with cJSON_Delete. */
enum codec_status codec_parse(const char *body, size_t len, cJSON **root,
                              struct codec_error *err);

/* codec_parse, and the value must be an object: else *root is NULL and the
 * answer CODEC_INVALID_REQUEST with `detail` (what the body must be). */
enum codec_status codec_parse_object(const char *body, size_t len, cJSON **root,
                                     struct codec_error *err,
                                     const char *detail);

/* Decodes one board value (a string of 81, or an array of 9 strings of 9)
 * found at JSON pointer `at`. */
enum codec_status codec_board_value(const cJSON *board, const char *at,
                                    struct codec_board *out,
                                    struct codec_error *err);

/* The body nearly every client sends, {"board": [9 strings of 9]} or
 * {"board": "81 characters"}, with only digits and dots in the board and
 * JSON whitespace between the tokens, read straight from the bytes: no
 * cJSON tree, no allocation, and the grid read in the same pass (has_grid
 * set). Returns 1 with *out filled when the body is
 * exactly that (codec_board_general would then give the same board), else
 * 0: anything else (other members, escapes, bad characters, broken JSON)
 * takes the general path, which decides and explains. */
int codec_board_fast(const char *body, size_t len, struct codec_board *out);

/* codec_decode_board through cJSON, for any body. */
enum codec_status codec_board_general(const char *body, size_t len,
                                      struct codec_board *out,
                                      struct codec_error *err);

/* codec_fast.c: the hand readers and writer. */

/* Past JSON's four whitespace characters. */
static inline const char *codec_skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        p++;
    return p;
}

/* A JSON string of exactly n printable ASCII characters, none a quote or a
 * backslash, after whitespace at p: cJSON and codec_copy_chars would read
 * the same n bytes. Copies them to text and reads them into cell as
 * sudoku_parse would ('.' and '0' blank, any other non-digit 0 too);
 * *only_digits says whether all were digits and dots. Returns the byte
 * after the string, or NULL.
 *
 * `digits_only` (a constant at each call, so each caller gets its own
 * loop) picks one of two loops. Set: the string must be digits and dots,
 * and the loop stops at the first other character (the /solve fast path,
 * where anything else goes to cJSON). Clear: any printable character is
 * taken, and the loop has no branch per cell (a batch's boards mix
 * digits and dots unpredictably): a cell is its digit or 0, and `other`
 * notes whether anything else was seen; only then are the characters
 * looked at again. */
static inline const char *codec_board_string(const char *p, const char *end,
                                             size_t n, int digits_only,
                                             char *text, uint8_t *cell,
                                             int *only_digits)
{
    unsigned other = 0;

    p = codec_skip_ws(p, end);
    if ((size_t)(end - p) < n + 2 || p[0] != '"' || p[n + 1] != '"')
        return NULL;
    p++;
    for (size_t i = 0; digits_only && i < n; i++) {
        char c = p[i];
        if (c == '.')
            cell[i] = 0;
        else if (c >= '0' && c <= '9')
            cell[i] = (uint8_t)(c - '0');
        else
            return NULL;
        text[i] = c;
    }
    for (size_t i = 0; !digits_only && i < n; i++) {
        unsigned v = (unsigned char)p[i] - (unsigned)'0';
        cell[i] = (uint8_t)(v <= 9 ? v : 0);
        other |= (unsigned)(v > 9) & (unsigned)(p[i] != '.');
    }
    for (size_t i = 0; other && i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c < 0x20 || c > 0x7e || c == '"' || c == '\\')
            return NULL;
    }
    if (!digits_only)
        memcpy(text, p, n);
    *only_digits = !other;
    return p + n + 1;
}

/* Writes v in decimal at p (20 bytes of room); returns the new end. */
static inline char *codec_put_decimal(char *p, uint64_t v)
{
    char tmp[20];
    int n = 0;

    do
        tmp[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n > 0)
        *p++ = tmp[--n];
    return p;
}

/* Prints obj (when ok) and frees it: the answer as a heap string (length
 * in *len), or NULL when !ok or out of memory. */
char *codec_finish(cJSON *obj, int ok, size_t *len);

/* [row, column] of `cell` in a grid n cells wide; NULL when out of
 * memory. */
cJSON *codec_cell_pair(unsigned cell, unsigned n);

/* Appends {"cell": [row, column], "digit": digit} to list (cell in a grid
 * n wide): the item, for more members, or NULL when out of memory. */
cJSON *codec_add_cell_digit(cJSON *list, unsigned cell, unsigned n, int digit);

/* A hint's "next_placement": {"cell", "digit", "technique", "steps"}, the
 * first placement its walk reaches, after `steps` steps. 0 when out of
 * memory. */
int codec_add_next_placement(cJSON *obj, unsigned cell, unsigned n, int digit,
                             const char *technique, unsigned steps);

/* Adds `text` (n * n characters, row-major) under `name`: one string in
 * CODEC_SHAPE_LINE, else an array of n strings of n. 0 when out of
 * memory. Boards of every size and region maps share it. */
int codec_add_grid(cJSON *obj, const char *name, const char *text, unsigned n,
                   enum codec_shape shape);

/* Adds the seed of a generated puzzle under "seed", in digits: through a
 * double cJSON would print 8000000000000001 as 8e+15 (15 significant
 * digits when they compare equal within its epsilon), and that seed
 * replayed is another puzzle. 0 when out of memory. */
int codec_add_seed(cJSON *obj, uint64_t seed);

/* {"valid", "solutions", "complete"} of a /validate answer, or NULL when
 * out of memory; the caller adds "conflicts" and finishes it. */
cJSON *codec_validate_begin(int valid, unsigned solutions, int complete);

/* Counts the characters (UTF-8 code points) of s and copies up to `max` of
 * them into out, one byte each (CODEC_NON_ASCII for non-ASCII ones). */
size_t codec_copy_chars(const char *s, char *out, size_t max);

/* "conflicts": [...] of the generic engine's units under r. 0, or -1 when
 * out of memory. */
int codec_add_cover_conflicts(cJSON *obj, const struct cover_rules *r,
                              const struct cover_conflict *c, size_t n);

/* Has the object a rule member of CODEC_VARIANT_MEMBERS? */
int codec_has_rule_member(const cJSON *obj);

/* One puzzle value of any size found at `at` (a batch item): a board, or
 * an object with "board" and its own rule members. */
enum codec_status codec_variant_value(const cJSON *item, const char *at,
                                      struct codec_variant *out,
                                      struct codec_error *err);

/* codec_variant.c: "size" (default 9) and the rule members of a /generate
 * object, as codec_decode_variant_options reads them. */
enum codec_status codec_variant_options(const cJSON *root,
                                        struct codec_variant *out,
                                        struct codec_error *err);

/* codec_killer.c: the value of a "cages" member into *out (emptied first);
 * CODEC_INVALID_REQUEST with a pointer such as /cages/3/cells/1 when it is
 * not a non-empty array of {"sum": n, "cells": [[row, column], ...]}. The
 * values are not checked (killer_check does). */
enum codec_status codec_cages_value(const cJSON *cages,
                                    struct killer_cages *out,
                                    struct codec_error *err);

/* codec_teach.c: "difficulty" (w's level), "attempts" and "grade" (as
 * /grade answers it) into obj; 0 when out of memory. */
struct teach_walk;
int codec_teach_add_level(cJSON *obj, const struct teach_walk *w,
                          unsigned attempts);

#endif
