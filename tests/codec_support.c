/* codec_support.c - helpers of the codec suite's parts (see
 * codec_support.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "codec_support.h"

/* Decodes the first len bytes of json from a copy that has no NUL after
 * them. */
enum codec_status ct_decode_n(const char *json, size_t len,
                              struct codec_board *out, struct codec_error *err)
{
    char *copy = malloc(len ? len : 1);
    enum codec_status st;

    assert_non_null(copy);
    memcpy(copy, json, len);
    memset(out, 0x55, sizeof(*out));
    memset(err, 0x55, sizeof(*err));
    st = codec_decode_board(copy, len, out, err);
    free(copy);
    return st;
}

enum codec_status ct_decode(const char *json, struct codec_board *out,
                            struct codec_error *err)
{
    return ct_decode_n(json, strlen(json), out, err);
}

/* Writes {"board":["r0","r1",...]} with the n rows given. */
void ct_rows_body(char *buf, size_t size, const char *const *rows, size_t n)
{
    size_t len = (size_t)snprintf(buf, size, "{\"board\":[");

    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s\"%s\"", i ? "," : "",
                                rows[i]);
    snprintf(buf + len, size - len, "]}");
    assert_true(len + 2 < size);
}

void ct_assert_board_error(const char *json, const char *pointer, int row,
                           const char *detail_part)
{
    struct codec_board b;
    struct codec_error e;

    assert_int_equal(ct_decode(json, &b, &e), CODEC_INVALID_BOARD);
    assert_string_equal(e.pointer, pointer);
    assert_int_equal(e.row, row);
    assert_int_equal(e.column, -1);
    assert_int_equal(e.offset, -1);
    if (strstr(e.detail, detail_part) == NULL)
        fail_msg("detail '%s' lacks '%s'", e.detail, detail_part);
}
