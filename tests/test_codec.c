/* test_codec.c - the codec suite: cmocka tests of the JSON wire format
 * (src/codec*.c). Every body is decoded from an exact-size heap copy with
 * no NUL after it, so a read past `len` shows up under
 * -fsanitize=address. This part: bodies accepted; test_codec() also runs
 * the parts test_codec_{errors,encode}.c (helpers in codec_support.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "../src/codec/codec_internal.h" /* the hand reader against cJSON */
#include "codec_support.h"
#include "logic.h"
#include "sudoku.h"
#include "support.h"
#include "tests.h"

static void assert_board_text(const struct codec_board *b, const char *text)
{
    assert_int_equal(strlen(text), SUDOKU_CELLS);
    assert_memory_equal(b->text, text, SUDOKU_CELLS);
}

static void decode_rows_shape(void **state)
{
    char body[256], text[SUDOKU_CELLS + 1];
    struct codec_board b;
    struct codec_error e;

    (void)state;
    ct_rows_body(body, sizeof(body), support_example_rows, SUDOKU_SIZE);
    assert_int_equal(ct_decode(body, &b, &e), CODEC_OK);
    assert_int_equal(b.shape, CODEC_SHAPE_ROWS);
    support_join_rows(support_example_rows, text);
    assert_board_text(&b, text);
}

static void decode_line_shape(void **state)
{
    char body[256], text[SUDOKU_CELLS + 1];
    struct codec_board b;
    struct codec_error e;

    (void)state;
    support_join_rows(support_example_rows, text);
    snprintf(body, sizeof(body), "{\"board\": \"%s\"}", text);
    assert_int_equal(ct_decode(body, &b, &e), CODEC_OK);
    assert_int_equal(b.shape, CODEC_SHAPE_LINE);
    assert_board_text(&b, text);
}

/* The codec hands characters on as sent; '0' is not rewritten. */
static void decode_zero_blanks_kept(void **state)
{
    static const char *const rows[SUDOKU_SIZE] = {
        "907000006", "824030000", "001009002", "090002018", "000400005",
        "132508000", "000687000", "000000809", "040900050",
    };
    char body[256], text[SUDOKU_CELLS + 1];
    struct codec_board b;
    struct codec_error e;

    (void)state;
    ct_rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    assert_int_equal(ct_decode(body, &b, &e), CODEC_OK);
    support_join_rows(rows, text);
    assert_board_text(&b, text);

    snprintf(body, sizeof(body), "{\"board\":\"%s\"}", text);
    assert_int_equal(ct_decode(body, &b, &e), CODEC_OK);
    assert_int_equal(b.shape, CODEC_SHAPE_LINE);
    assert_board_text(&b, text);
}

static void decode_ignores_unknown_members(void **state)
{
    char text[SUDOKU_CELLS + 1], body[512];
    struct codec_board b;
    struct codec_error e;

    (void)state;
    support_join_rows(support_example_rows, text);
    snprintf(body, sizeof(body),
             "{\"id\": 7, \"note\": \"x\", \"opts\": {\"board\": 1, \"a\": [1, "
             "{}]}, \"board\": \"%s\", \"tail\": null, \"Board\": 3}",
             text);
    assert_int_equal(ct_decode(body, &b, &e), CODEC_OK);
    assert_int_equal(b.shape, CODEC_SHAPE_LINE);
    assert_board_text(&b, text);
}

/* JSON whitespace of every kind around and inside the value is fine. */
static void decode_whitespace_around(void **state)
{
    char text[SUDOKU_CELLS + 1], body[256];
    struct codec_board b;
    struct codec_error e;

    (void)state;
    support_join_rows(support_example_rows, text);
    snprintf(body, sizeof(body), " \t\r\n{ \"board\"\n:\t\"%s\" }\r\n \t",
             text);
    assert_int_equal(ct_decode(body, &b, &e), CODEC_OK);
    assert_board_text(&b, text);
}

/* The hand reader of the common body: it takes exactly the bodies made of
 * {"board": ...} with digits and dots, whitespace anywhere between tokens,
 * and then gives the board cJSON's path gives. */
static void board_fast_agrees_with_general(void **state)
{
    static const char *const bodies[] = {
        "{\"board\":[\"9.7.....6\",\"824.3....\",\"..1..9..2\",\".9...2.18\","
        "\"...4....5\",\"1325.8...\",\"...687...\",\"......8.9\",\".4.9...5.\"]"
        "}",
        " \t{ \"board\" :\n[ \"907000006\" ,\"824030000\",\"001009002\","
        "\"090002018\",\"000400005\",\"132508000\",\"000687000\","
        "\"000000809\",\"040900050\"\r\n] }\n",
        "{\"board\":\"9.7.....6824.3......1..9..2.9...2.18...4....51325.8......"
        "687.........8.9.4.9...5.\"}",
        "{\"board\":\"........................................................."
        "......................99\"}",
    };
#define ROW9 "1.3.5.7.9"
    struct codec_board fast, general;
    struct codec_error e;
    struct sudoku_grid g;

    (void)state;
    for (size_t i = 0; i < sizeof(bodies) / sizeof(bodies[0]); i++) {
        size_t len = strlen(bodies[i]);
        memset(&fast, 0, sizeof(fast));
        memset(&general, 0x55, sizeof(general));
        assert_int_equal(codec_board_fast(bodies[i], len, &fast), 1);
        assert_int_equal(codec_board_general(bodies[i], len, &general, &e),
                         CODEC_OK);
        assert_memory_equal(fast.text, general.text, SUDOKU_CELLS);
        assert_int_equal(fast.shape, general.shape);
        /* the grid read on the way is the one sudoku_parse reads */
        assert_int_equal(general.has_grid, 0);
        assert_int_equal(fast.has_grid, 1);
        assert_int_equal(sudoku_parse(general.text, SUDOKU_CELLS, &g, NULL),
                         SUDOKU_OK);
        assert_memory_equal(fast.grid.cell, g.cell, SUDOKU_CELLS);
        /* codec_decode_board takes the fast path for these */
        memset(&general, 0x55, sizeof(general));
        assert_int_equal(codec_decode_board(bodies[i], len, &general, &e),
                         CODEC_OK);
        assert_int_equal(general.has_grid, 1);
        assert_memory_equal(general.grid.cell, g.cell, SUDOKU_CELLS);
    }
    /* Another member: the general path, which leaves the grid unread. */
    memset(&general, 0x55, sizeof(general));
    assert_int_equal(codec_decode_board("{\"board\":\"" ROW9 ROW9 ROW9 ROW9 ROW9
                                            ROW9 ROW9 ROW9 ROW9 "\",\"x\":1}",
                                        strlen("{\"board\":\"\",\"x\":1}") + 81,
                                        &general, &e),
                     CODEC_OK);
    assert_int_equal(general.has_grid, 0);
}

/* Everything else is left to the general path: other members, escapes,
 * other characters, other lengths, broken or trailing JSON, a cut body. */
static void board_fast_leaves_the_rest(void **state)
{
    static const char rows[] =
        "[\"9.7.....6\",\"824.3....\",\"..1..9..2\","
        "\".9...2.18\",\"...4....5\",\"1325.8...\",\"...687...\","
        "\"......8.9\",\".4.9...5.\"]";
    static const char *const formats[] = {
        "{\"board\":%s,\"cages\":[]}", /* another member after */
        "{\"x\":1,\"board\":%s}",      /* another member before */
        "{\"board\":%s}x",             /* trailing bytes */
        "{\"board\":%s",               /* cut short */
        "{\"board\":%s}\f",            /* not JSON whitespace */
        "\xef\xbb\xbf{\"board\":%s}",  /* a byte-order mark */
        "{\"b\\u006fard\":%s}",        /* an escaped key */
        "[%s]",                        /* not an object */
        "{\"Board\":%s}",              /* another key */
    };
    static const char *const boards[] = {
        "[\"9.7.....6\",\"824.3....\",\"..1..9..2\",\".9...2.18\","
        "\"...4....5\",\"1325.8...\",\"...687...\",\"......8.9\"]",
        "[\"9.7.....6\",\"824.3....\",\"..1..9..2\",\".9...2.18\",\"...4...."
        "5\","
        "\"1325.8...\",\"...687...\",\"......8.9\",\".4.9...5x\"]",
        "[\"9.7.....6\",\"824.3....\",\"..1..9..2\",\".9...2.18\",\"...4...."
        "5\","
        "\"1325.8...\",\"...687...\",\"......8.9\",\".4.9...5\\u002e\"]",
        "[\"9.7.....6\",\"824.3....\",\"..1..9..2\",\".9...2.18\",\"...4...."
        "5\","
        "\"1325.8...\",\"...687...\",\"......8.9\",\".4.9...5.\",]",
        "\"9.7.....6824.3......1..9..2\"",
        "null",
    };
    struct codec_board b;
    char body[512];

    (void)state;
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
        int n = snprintf(body, sizeof(body), formats[i], rows);
        assert_int_equal(codec_board_fast(body, (size_t)n, &b), 0);
    }
    for (size_t i = 0; i < sizeof(boards) / sizeof(boards[0]); i++) {
        int n = snprintf(body, sizeof(body), "{\"board\":%s}", boards[i]);
        assert_int_equal(codec_board_fast(body, (size_t)n, &b), 0);
    }
    /* Every proper prefix of a good body is refused. */
    int n = snprintf(body, sizeof(body), "{\"board\":%s}", rows);
    for (int len = 0; len < n; len++)
        assert_int_equal(codec_board_fast(body, (size_t)len, &b), 0);
    assert_int_equal(codec_board_fast(body, (size_t)n, &b), 1);
    assert_int_equal(codec_board_fast(NULL, 0, &b), 0);
}

/* A body padded with whitespace to exactly the default limit decodes, and
 * only `len` bytes are read: what follows them does not matter. */
static void decode_padded_body_at_limit(void **state)
{
    enum { LIMIT = 16 * 1024 };
    char text[SUDOKU_CELLS + 1], json[256];
    char *body = malloc(LIMIT + 16);
    struct codec_board b;
    struct codec_error e;
    size_t n;

    (void)state;
    assert_non_null(body);
    support_join_rows(support_example_rows, text);
    n = (size_t)snprintf(json, sizeof(json), "{\"board\":\"%s\"}", text);
    /* Half the padding before, half after. */
    memset(body, ' ', LIMIT);
    memcpy(body + LIMIT / 2, json, n);
    memcpy(body + LIMIT, "garbage!", 8);

    assert_int_equal(ct_decode_n(body, LIMIT, &b, &e), CODEC_OK);
    assert_board_text(&b, text);
    /* The same bytes with the garbage counted in are rejected. */
    assert_int_equal(ct_decode_n(body, LIMIT + 8, &b, &e), CODEC_INVALID_JSON);
    free(body);
}

/* The body is used up to len only, even when a valid value continues. */
static void decode_respects_len(void **state)
{
    char text[SUDOKU_CELLS + 1], body[256];
    struct codec_board b;
    struct codec_error e;
    size_t n;

    (void)state;
    support_join_rows(support_example_rows, text);
    n = (size_t)snprintf(body, sizeof(body), "{\"board\":\"%s\"}", text);
    assert_int_equal(ct_decode_n(body, n, &b, &e), CODEC_OK);
    assert_int_equal(ct_decode_n(body, n - 1, &b, &e), CODEC_INVALID_JSON);
}

/* A body with character `ch` (raw UTF-8 or a JSON escape) at row r, column
 * c of the example, in rows or line shape. */
static void body_with(char *buf, size_t size, int shape_rows, int r, int c,
                      const char *ch)
{
    char line[SUDOKU_CELLS + 1];
    size_t n;

    support_join_rows(support_example_rows, line);
    n = (size_t)snprintf(buf, size, "{\"board\":%s", shape_rows ? "[" : "\"");
    for (int k = 0; k < SUDOKU_CELLS; k++) {
        if (shape_rows && k % SUDOKU_SIZE == 0)
            n += (size_t)snprintf(buf + n, size - n, "%s\"", k ? "," : "");
        if (k == r * SUDOKU_SIZE + c)
            n += (size_t)snprintf(buf + n, size - n, "%s", ch);
        else
            n += (size_t)snprintf(buf + n, size - n, "%c", line[k]);
        if (shape_rows && k % SUDOKU_SIZE == SUDOKU_SIZE - 1)
            n += (size_t)snprintf(buf + n, size - n, "\"");
    }
    n += (size_t)snprintf(buf + n, size - n, shape_rows ? "]}" : "\"}");
    assert_true(n < size);
}

/* A non-ASCII character decodes to one CODEC_NON_ASCII byte at its place,
 * so the columns after it stay where a person sees them; the board check
 * (api) then reports it. */
static void assert_non_ascii_at(int shape_rows, int r, int c, const char *ch)
{
    char body[512];
    struct codec_board b;
    struct codec_error e;
    enum codec_status st;

    body_with(body, sizeof(body), shape_rows, r, c, ch);
    st = ct_decode(body, &b, &e);
    if (st != CODEC_OK)
        fail_msg("%s: status %d (%s)", body, st, e.detail);
    for (int i = 0; i < SUDOKU_CELLS; i++)
        if ((b.text[i] == CODEC_NON_ASCII) != (i == r * SUDOKU_SIZE + c))
            fail_msg("%s: cell %d is %#x", body, i, (unsigned char)b.text[i]);
    assert_int_equal(b.shape, shape_rows ? CODEC_SHAPE_ROWS : CODEC_SHAPE_LINE);
}

/* A character outside ASCII cannot be a cell. It is reported where a person
 * sees it: "é" counts as one character, whatever its UTF-8 length or
 * whether it came escaped. */
static void decode_non_ascii_location(void **state)
{
    (void)state;
    assert_non_ascii_at(1, 3, 2, "\xc3\xa9"); /* U+00E9 */
    assert_non_ascii_at(1, 0, 0, "\xc3\xa9");
    assert_non_ascii_at(1, 5, 8, "\xf0\x9f\x98\x80"); /* U+1F600 */
    assert_non_ascii_at(1, 7, 4, "\xe2\x82\xac");     /* U+20AC */
    assert_non_ascii_at(1, 8, 8, "\\u00e9");          /* escaped */
    assert_non_ascii_at(0, 8, 8, "\xc3\xa9");
    assert_non_ascii_at(0, 0, 0, "\xc3\xa9");
    assert_non_ascii_at(0, 4, 6, "\xf0\x9f\x98\x80");
    assert_non_ascii_at(0, 2, 3, "\\u20ac");
}

/* Length is counted in characters: eight ASCII and two "é" are ten. */
static void decode_non_ascii_counts_as_one(void **state)
{
    char text[SUDOKU_CELLS + 1], body[512];
    const char *rows[SUDOKU_SIZE];

    (void)state;
    for (int r = 0; r < SUDOKU_SIZE; r++)
        rows[r] = support_example_rows[r];
    rows[3] = ".9\xc3\xa9..2.18\xc3\xa9";
    ct_rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    ct_assert_board_error(body, "/board/3", 3, "10 characters");
    rows[3] = ".9\xc3\xa9..2.1";
    ct_rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    ct_assert_board_error(body, "/board/3", 3, "8 characters");

    /* 79 ASCII characters and one "é" make a line of 80. */
    support_join_rows(support_example_rows, text);
    snprintf(body, sizeof(body), "{\"board\":\"%.79s\xc3\xa9\"}", text);
    ct_assert_board_error(body, "/board", -1, "80 characters");
}

int test_codec(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(decode_rows_shape),
        cmocka_unit_test(decode_line_shape),
        cmocka_unit_test(decode_zero_blanks_kept),
        cmocka_unit_test(decode_ignores_unknown_members),
        cmocka_unit_test(decode_whitespace_around),
        cmocka_unit_test(board_fast_agrees_with_general),
        cmocka_unit_test(board_fast_leaves_the_rest),
        cmocka_unit_test(decode_padded_body_at_limit),
        cmocka_unit_test(decode_respects_len),
        cmocka_unit_test(decode_non_ascii_location),
        cmocka_unit_test(decode_non_ascii_counts_as_one),
    };
    static int (*const parts[])(unsigned *) = {test_codec_errors,
                                               test_codec_encode};
    int failed;

    *ntests = TESTS_COUNT(tests);
    failed = cmocka_run_group_tests_name("codec", tests, NULL, NULL);
    failed += support_run_parts(parts, TESTS_COUNT(parts), ntests);
    return failed;
}
