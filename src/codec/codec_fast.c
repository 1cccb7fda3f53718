/* codec_fast.c - the bytes read and written by hand, without cJSON: the body
 * nearly every client sends ({"board": ...} with digits and dots), the plain
 * boards of a batch, and decimals. One reader of a board string serves both
 * fast paths; anything it does not take goes to cJSON, which decides and
 * explains. */
#include <string.h>

#include "codec_internal.h"

const char *codec_skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        p++;
    return p;
}

/* p at `c` (after whitespace)? Returns the byte after it, or NULL. */
static const char *expect(const char *p, const char *end, char c)
{
    p = codec_skip_ws(p, end);
    return p < end && *p == c ? p + 1 : NULL;
}

/* The loop has no branch per cell: a cell is its digit, or 0 for anything
 * else, and `other` notes whether anything else than digits and dots was
 * seen; only then are the characters looked at again. */
const char *codec_board_string(const char *p, const char *end, size_t n,
                               char *text, uint8_t *cell, int *only_digits)
{
    unsigned other = 0;

    p = codec_skip_ws(p, end);
    if ((size_t)(end - p) < n + 2 || p[0] != '"' || p[n + 1] != '"')
        return NULL;
    p++;
    for (size_t i = 0; i < n; i++) {
        unsigned v = (unsigned char)p[i] - (unsigned)'0';
        cell[i] = (uint8_t)(v <= 9 ? v : 0);
        other |= (unsigned)(v > 9) & (unsigned)(p[i] != '.');
    }
    for (size_t i = 0; other && i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c < 0x20 || c > 0x7e || c == '"' || c == '\\')
            return NULL;
    }
    memcpy(text, p, n);
    *only_digits = !other;
    return p + n + 1;
}

/* A board string of n digits and dots, or NULL. */
static const char *cells(const char *p, const char *end, char *text,
                         uint8_t *cell, size_t n)
{
    int digits = 0;

    p = codec_board_string(p, end, n, text, cell, &digits);
    return digits ? p : NULL;
}

int codec_board_fast(const char *body, size_t len, struct codec_board *out)
{
    const char *end = body + len, *p, *value;
    char text[SUDOKU_CELLS];
    struct sudoku_grid grid;
    enum codec_shape shape = CODEC_SHAPE_ROWS;

    if (body == NULL || !(p = expect(body, end, '{')))
        return 0;
    p = codec_skip_ws(p, end);
    if ((size_t)(end - p) < 7 || memcmp(p, "\"board\"", 7) != 0 ||
        !(value = expect(p + 7, end, ':')))
        return 0;
    if ((p = expect(value, end, '[')) != NULL) {
        for (size_t r = 0; p && r < SUDOKU_SIZE; r++) {
            if (r > 0)
                p = expect(p, end, ',');
            if (p)
                p = cells(p, end, text + r * SUDOKU_SIZE,
                          grid.cell + r * SUDOKU_SIZE, SUDOKU_SIZE);
        }
        if (p)
            p = expect(p, end, ']');
    } else {
        p = cells(value, end, text, grid.cell, SUDOKU_CELLS);
        shape = CODEC_SHAPE_LINE;
    }
    if (!p || !(p = expect(p, end, '}')) || codec_skip_ws(p, end) != end)
        return 0;
    memcpy(out->text, text, sizeof(text));
    out->grid = grid;
    out->has_grid = 1;
    out->shape = shape;
    return 1;
}

char *codec_put_decimal(char *p, uint64_t v)
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
