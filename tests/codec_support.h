/* codec_support.h - what the parts of the codec suite (test_codec*.c)
 * share: decoding a body from an exact-size heap copy with no NUL after
 * it (so that ASan sees a read past len) and checking the error found. */
#ifndef CODEC_SUPPORT_H
#define CODEC_SUPPORT_H

#include <stddef.h>

#include "codec.h"

/* codec_decode_board on a heap copy of the first len bytes of json (of
 * strlen(json) for ct_decode); *out and *err are filled with junk first. */
enum codec_status ct_decode_n(const char *json, size_t len,
                              struct codec_board *out, struct codec_error *err);
enum codec_status ct_decode(const char *json, struct codec_board *out,
                            struct codec_error *err);

/* Writes {"board":["r0","r1",...]} with the n rows given into buf. */
void ct_rows_body(char *buf, size_t size, const char *const *rows, size_t n);

/* Asserts that json decodes to CODEC_INVALID_BOARD at pointer and row, with
 * detail_part in its detail. */
void ct_assert_board_error(const char *json, const char *pointer, int row,
                           const char *detail_part);

#endif
