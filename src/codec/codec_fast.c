/* codec_fast.c - the body nearly every client sends ({"board": ...} with
 * digits and dots), read by hand without cJSON. The one reader of a board
 * string (codec_board_string) and the one decimal writer
 * (codec_put_decimal) are inline in codec_internal.h, so that this fast
 * path, the batch's and the solution writer each get them unrolled;
 * anything the fast path does not take goes to cJSON, which decides and
 * explains. */
#include <string.h>

#include "codec_internal.h"

/* p at `c` (after whitespace)? Returns the byte after it, or NULL. */
static const char *expect(const char *p, const char *end, char c)
{
    p = codec_skip_ws(p, end);
    return p < end && *p == c ? p + 1 : NULL;
}

/* A board string of n digits and dots, or NULL. */
static inline const char *cells(const char *p, const char *end, char *text,
                                uint8_t *cell, size_t n)
{
    int digits;

    return codec_board_string(p, end, n, 1, text, cell, &digits);
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
