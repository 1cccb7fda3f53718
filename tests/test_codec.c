/* test_codec.c - cmocka tests of the JSON wire format (src/codec.c).
 * Every body is decoded from an exact-size heap copy with no NUL after it,
 * so a read past `len` shows up under -fsanitize=address. */
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
#include "../src/codec_internal.h" /* the hand reader against cJSON */
#include "logic.h"
#include "sudoku.h"
#include "support.h"
#include "tests.h"

/* The example of the issue, as rows and as one line. */
static const char *const example_rows[SUDOKU_SIZE] = {
    "9.7.....6", "824.3....", "..1..9..2", ".9...2.18", "...4....5",
    "1325.8...", "...687...", "......8.9", ".4.9...5.",
};
static const char *const solution_rows[SUDOKU_SIZE] = {
    "957214386", "824736591", "361859742", "495372618", "786491235",
    "132568974", "519687423", "273145869", "648923157",
};

/* ------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------ */

/* Decodes the first len bytes of json from a copy that has no NUL after
 * them. */
static enum codec_status decode_n(const char *json, size_t len,
                                  struct codec_board *out,
                                  struct codec_error *err)
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

static enum codec_status decode(const char *json, struct codec_board *out,
                                struct codec_error *err)
{
    return decode_n(json, strlen(json), out, err);
}

/* Writes {"board":["r0","r1",...]} with the n rows given. */
static void rows_body(char *buf, size_t size, const char *const *rows, size_t n)
{
    size_t len = (size_t)snprintf(buf, size, "{\"board\":[");

    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s\"%s\"", i ? "," : "",
                                rows[i]);
    snprintf(buf + len, size - len, "]}");
    assert_true(len + 2 < size);
}

static void join_rows(const char *const *rows, char out[SUDOKU_CELLS + 1])
{
    for (int r = 0; r < SUDOKU_SIZE; r++)
        memcpy(out + r * SUDOKU_SIZE, rows[r], SUDOKU_SIZE);
    out[SUDOKU_CELLS] = '\0';
}

static void assert_board_text(const struct codec_board *b, const char *text)
{
    assert_int_equal(strlen(text), SUDOKU_CELLS);
    assert_memory_equal(b->text, text, SUDOKU_CELLS);
}

static void assert_json_error(const char *json, long offset)
{
    struct codec_board b;
    struct codec_error e;

    assert_int_equal(decode(json, &b, &e), CODEC_INVALID_JSON);
    if (e.offset != offset)
        fail_msg("body '%s': offset %ld, expected %ld", json, e.offset, offset);
    assert_int_equal(e.row, -1);
    assert_int_equal(e.column, -1);
    assert_string_equal(e.pointer, "");
    assert_true(strlen(e.detail) > 0);
}

static void assert_request_error(const char *json, const char *pointer, int row)
{
    struct codec_board b;
    struct codec_error e;

    assert_int_equal(decode(json, &b, &e), CODEC_INVALID_REQUEST);
    assert_string_equal(e.pointer, pointer);
    assert_int_equal(e.row, row);
    assert_int_equal(e.column, -1);
    assert_int_equal(e.offset, -1);
    assert_true(strlen(e.detail) > 0);
}

static void assert_board_error(const char *json, const char *pointer, int row,
                               const char *detail_part)
{
    struct codec_board b;
    struct codec_error e;

    assert_int_equal(decode(json, &b, &e), CODEC_INVALID_BOARD);
    assert_string_equal(e.pointer, pointer);
    assert_int_equal(e.row, row);
    assert_int_equal(e.column, -1);
    assert_int_equal(e.offset, -1);
    if (strstr(e.detail, detail_part) == NULL)
        fail_msg("detail '%s' lacks '%s'", e.detail, detail_part);
}

static cJSON *parse_json(const char *text, size_t len)
{
    cJSON *root;

    assert_non_null(text);
    assert_int_equal(strlen(text), len);
    root = cJSON_ParseWithLength(text, len);
    if (root == NULL)
        fail_msg("not JSON: %s", text);
    return root;
}

static struct sudoku_grid grid_of_rows(const char *const *rows)
{
    char text[SUDOKU_CELLS + 1];
    struct sudoku_grid g;

    join_rows(rows, text);
    assert_int_equal(sudoku_parse(text, SUDOKU_CELLS, &g, NULL), SUDOKU_OK);
    return g;
}

/* ------------------------------------------------------------------------
 * Decoding: accepted bodies
 * ------------------------------------------------------------------------ */

static void decode_rows_shape(void **state)
{
    char body[256], text[SUDOKU_CELLS + 1];
    struct codec_board b;
    struct codec_error e;

    (void)state;
    rows_body(body, sizeof(body), example_rows, SUDOKU_SIZE);
    assert_int_equal(decode(body, &b, &e), CODEC_OK);
    assert_int_equal(b.shape, CODEC_SHAPE_ROWS);
    join_rows(example_rows, text);
    assert_board_text(&b, text);
}

static void decode_line_shape(void **state)
{
    char body[256], text[SUDOKU_CELLS + 1];
    struct codec_board b;
    struct codec_error e;

    (void)state;
    join_rows(example_rows, text);
    snprintf(body, sizeof(body), "{\"board\": \"%s\"}", text);
    assert_int_equal(decode(body, &b, &e), CODEC_OK);
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
    rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    assert_int_equal(decode(body, &b, &e), CODEC_OK);
    join_rows(rows, text);
    assert_board_text(&b, text);

    snprintf(body, sizeof(body), "{\"board\":\"%s\"}", text);
    assert_int_equal(decode(body, &b, &e), CODEC_OK);
    assert_int_equal(b.shape, CODEC_SHAPE_LINE);
    assert_board_text(&b, text);
}

static void decode_ignores_unknown_members(void **state)
{
    char text[SUDOKU_CELLS + 1], body[512];
    struct codec_board b;
    struct codec_error e;

    (void)state;
    join_rows(example_rows, text);
    snprintf(body, sizeof(body),
             "{\"id\": 7, \"note\": \"x\", \"opts\": {\"board\": 1, \"a\": [1, "
             "{}]}, \"board\": \"%s\", \"tail\": null, \"Board\": 3}",
             text);
    assert_int_equal(decode(body, &b, &e), CODEC_OK);
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
    join_rows(example_rows, text);
    snprintf(body, sizeof(body), " \t\r\n{ \"board\"\n:\t\"%s\" }\r\n \t",
             text);
    assert_int_equal(decode(body, &b, &e), CODEC_OK);
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
    join_rows(example_rows, text);
    n = (size_t)snprintf(json, sizeof(json), "{\"board\":\"%s\"}", text);
    /* Half the padding before, half after. */
    memset(body, ' ', LIMIT);
    memcpy(body + LIMIT / 2, json, n);
    memcpy(body + LIMIT, "garbage!", 8);

    assert_int_equal(decode_n(body, LIMIT, &b, &e), CODEC_OK);
    assert_board_text(&b, text);
    /* The same bytes with the garbage counted in are rejected. */
    assert_int_equal(decode_n(body, LIMIT + 8, &b, &e), CODEC_INVALID_JSON);
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
    join_rows(example_rows, text);
    n = (size_t)snprintf(body, sizeof(body), "{\"board\":\"%s\"}", text);
    assert_int_equal(decode_n(body, n, &b, &e), CODEC_OK);
    assert_int_equal(decode_n(body, n - 1, &b, &e), CODEC_INVALID_JSON);
}

/* A body with character `ch` (raw UTF-8 or a JSON escape) at row r, column
 * c of the example, in rows or line shape. */
static void body_with(char *buf, size_t size, int shape_rows, int r, int c,
                      const char *ch)
{
    char line[SUDOKU_CELLS + 1];
    size_t n;

    join_rows(example_rows, line);
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
    st = decode(body, &b, &e);
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
        rows[r] = example_rows[r];
    rows[3] = ".9\xc3\xa9..2.18\xc3\xa9";
    rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    assert_board_error(body, "/board/3", 3, "10 characters");
    rows[3] = ".9\xc3\xa9..2.1";
    rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    assert_board_error(body, "/board/3", 3, "8 characters");

    /* 79 ASCII characters and one "é" make a line of 80. */
    join_rows(example_rows, text);
    snprintf(body, sizeof(body), "{\"board\":\"%.79s\xc3\xa9\"}", text);
    assert_board_error(body, "/board", -1, "80 characters");
}

/* ------------------------------------------------------------------------
 * Decoding: errors and their locations
 * ------------------------------------------------------------------------ */

static void decode_empty_body(void **state)
{
    struct codec_board b;
    struct codec_error e;

    (void)state;
    assert_json_error("", 0);
    assert_int_equal(codec_decode_board(NULL, 0, &b, &e), CODEC_INVALID_JSON);
    assert_int_equal(e.offset, 0);
    assert_int_equal(codec_decode_board(NULL, 10, &b, &e), CODEC_INVALID_JSON);
    assert_int_equal(e.offset, 0);
}

static void decode_not_json(void **state)
{
    (void)state;
    assert_json_error("hello", 0);
    assert_json_error("board=1", 0);
    assert_json_error("{\"board\" 5}", 9);         /* no colon */
    assert_json_error("{\"board\": [1,, 2]}", 13); /* second comma */
    assert_json_error("{\"board\": tru}", 10);     /* bad literal */
    assert_json_error("{\"a\":1 \"b\":2}", 7);     /* no comma */
}

/* Garbage right after the value is reported where it starts. */
static void decode_trailing_garbage(void **state)
{
    char text[SUDOKU_CELLS + 1], body[256];
    int n;

    (void)state;
    join_rows(example_rows, text);
    n = snprintf(body, sizeof(body), "{\"board\":\"%s\"}x", text);
    assert_json_error(body, n - 1);
    n = snprintf(body, sizeof(body), "{\"board\":\"%s\"}{}", text);
    assert_json_error(body, n - 2);
}

/* Garbage after some whitespace: the offset must point at the garbage, not
 * at the (valid) whitespace that precedes it. */
static void decode_trailing_garbage_after_space(void **state)
{
    char text[SUDOKU_CELLS + 1], body[256];
    int n;

    (void)state;
    join_rows(example_rows, text);
    n = snprintf(body, sizeof(body), "{\"board\":\"%s\"}  \n x", text);
    assert_json_error(body, n - 1);
}

/* A body that ends too early stopped at its end: offset == len, not the
 * last (valid) byte. */
/* Where cJSON stops on a body that ends early or on a bad key is one byte
 * off from the ideal spot: it reports the last byte it looked at. The
 * contract (openapi.yaml) says `offset` is where parsing stopped; these pin
 * down what that means, so a change of parser shows up here. */
static void decode_truncated_offset(void **state)
{
    (void)state;
    assert_json_error("{\"board\":", 8); /* the last byte */
    assert_json_error("[1,2", 3);
}

static void decode_bad_key_offset(void **state)
{
    (void)state;
    assert_json_error("{'board': 1}", 2);
    assert_json_error("{board: 1}", 2);
}

static void decode_not_an_object(void **state)
{
    (void)state;
    assert_request_error("[]", "", -1);
    assert_request_error("[{\"board\": \"x\"}]", "", -1);
    assert_request_error("42", "", -1);
    assert_request_error("\"board\"", "", -1);
    assert_request_error("null", "", -1);
    assert_request_error("true", "", -1);
}

static void decode_board_missing(void **state)
{
    (void)state;
    assert_request_error("{}", "/board", -1);
    assert_request_error("{\"Board\": \"x\", \"boards\": []}", "/board", -1);
}

static void decode_board_wrong_type(void **state)
{
    (void)state;
    assert_request_error("{\"board\": 81}", "/board", -1);
    assert_request_error("{\"board\": null}", "/board", -1);
    assert_request_error("{\"board\": false}", "/board", -1);
    assert_request_error("{\"board\": {\"0\": \"9.7.....6\"}}", "/board", -1);
}

static void decode_row_not_a_string(void **state)
{
    const char *rows[SUDOKU_SIZE];
    char body[256];

    (void)state;
    for (int r = 0; r < SUDOKU_SIZE; r++)
        rows[r] = example_rows[r];
    rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    /* Replace row 4 ("...4....5") by a number. */
    {
        char *p = strstr(body, "\"...4....5\"");
        assert_non_null(p);
        memcpy(p, "123456789  ", 11);
    }
    assert_request_error(body, "/board/4", 4);

    assert_request_error(
        "{\"board\": [null, \"\", \"\", \"\", \"\", \"\", \"\", "
        "\"\", \"\"]}",
        "/board/0", 0);
    assert_request_error("{\"board\": [\"9.7.....6\", \"824.3....\", "
                         "\"..1..9..2\", \".9...2.18\", \"...4....5\", "
                         "\"1325.8...\", \"...687...\", \"......8.9\", "
                         "[\".4.9...5.\"]]}",
                         "/board/8", 8);
}

static void decode_wrong_row_count(void **state)
{
    char body[256];

    (void)state;
    rows_body(body, sizeof(body), example_rows, 8);
    assert_board_error(body, "/board", -1, "8 rows");
    rows_body(body, sizeof(body), example_rows, 1);
    assert_board_error(body, "/board", -1, "1 row;");
    assert_board_error("{\"board\": []}", "/board", -1, "0 rows");
    {
        const char *ten[10];
        for (int r = 0; r < SUDOKU_SIZE; r++)
            ten[r] = example_rows[r];
        ten[9] = ".........";
        rows_body(body, sizeof(body), ten, 10);
        assert_board_error(body, "/board", -1, "10 rows");
    }
}

static void decode_wrong_row_length(void **state)
{
    const char *rows[SUDOKU_SIZE];
    char body[256];

    (void)state;
    for (int r = 0; r < SUDOKU_SIZE; r++)
        rows[r] = example_rows[r];
    rows[2] = "..1..9..";
    rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    assert_board_error(body, "/board/2", 2, "8 characters");

    rows[2] = example_rows[2];
    rows[8] = ".4.9...5.1";
    rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    assert_board_error(body, "/board/8", 8, "10 characters");

    rows[8] = "";
    rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    assert_board_error(body, "/board/8", 8, "0 characters");
}

static void decode_wrong_line_length(void **state)
{
    char text[SUDOKU_CELLS + 1], body[256];

    (void)state;
    join_rows(example_rows, text);
    snprintf(body, sizeof(body), "{\"board\":\"%.80s\"}", text);
    assert_board_error(body, "/board", -1, "80 characters");
    snprintf(body, sizeof(body), "{\"board\":\"%s.\"}", text);
    assert_board_error(body, "/board", -1, "82 characters");
    /* Nine characters as one string is not the rows shape. */
    assert_board_error("{\"board\":\"9.7.....6\"}", "/board", -1,
                       "9 characters");
    assert_board_error("{\"board\":\"\"}", "/board", -1, "0 characters");
}

/* "\u0000" is valid JSON and one character. A row "1234\u00005678" has nine
 * characters (one of them not allowed) and must not be measured as four. */
static void decode_escaped_nul_is_one_character(void **state)
{
    const char *rows[SUDOKU_SIZE];
    char body[256];
    struct codec_board b;
    struct codec_error e;
    enum codec_status st;

    (void)state;
    for (int r = 0; r < SUDOKU_SIZE; r++)
        rows[r] = example_rows[r];
    rows[0] = "9.7.\\u0000...6";
    rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    st = decode(body, &b, &e);
    if (st != CODEC_OK)
        fail_msg("expected CODEC_OK (9 characters, one bad), got %d: %s", st,
                 e.detail);
    assert_memory_equal(b.text, "9.7.", 4);
    assert_true(b.text[4] != '.' && (b.text[4] < '0' || b.text[4] > '9'));
    assert_memory_equal(b.text + 5, "...6", 4);
}

/* A body that is not UTF-8 is not JSON (RFC 8259 section 8.1). A stray
 * continuation byte must not vanish and leave a valid-looking row. */
static void decode_invalid_utf8_rejected(void **state)
{
    const char *rows[SUDOKU_SIZE];
    char body[256];
    struct codec_board b;
    struct codec_error e;

    (void)state;
    for (int r = 0; r < SUDOKU_SIZE; r++)
        rows[r] = example_rows[r];
    rows[1] = "824.\x80"
              "3...."; /* 9 characters plus a lone 0x80 byte */
    rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    assert_int_not_equal(decode(body, &b, &e), CODEC_OK);
}

/* ------------------------------------------------------------------------
 * Encoding the solution
 * ------------------------------------------------------------------------ */

static void encode_solution_rows(void **state)
{
    struct sudoku_grid g = grid_of_rows(solution_rows);
    struct sudoku_stats stats = {.nodes = 17, .guesses = 3};
    char expect[256];
    size_t len = 0, n = 0;
    char *out;
    cJSON *root;
    const cJSON *sol, *st;
    int i = 0;

    (void)state;
    out = codec_encode_solution(&g, CODEC_SHAPE_ROWS, &stats, 42, &len);
    root = parse_json(out, len);

    /* The solution's exact bytes: nine quoted rows, no spaces. */
    n += (size_t)snprintf(expect, sizeof(expect), "{\"solution\":[");
    for (int r = 0; r < SUDOKU_SIZE; r++)
        n += (size_t)snprintf(expect + n, sizeof(expect) - n, "%s\"%s\"",
                              r ? "," : "", solution_rows[r]);
    n += (size_t)snprintf(expect + n, sizeof(expect) - n, "],");
    assert_true(strncmp(out, expect, n) == 0);

    sol = cJSON_GetObjectItemCaseSensitive(root, "solution");
    assert_true(cJSON_IsArray(sol));
    assert_int_equal(cJSON_GetArraySize(sol), SUDOKU_SIZE);
    cJSON_ArrayForEach(st, sol)
    {
        assert_true(cJSON_IsString(st));
        assert_string_equal(st->valuestring, solution_rows[i]);
        i++;
    }
    st = cJSON_GetObjectItemCaseSensitive(root, "stats");
    assert_true(cJSON_IsObject(st));
    assert_int_equal(cJSON_GetArraySize(st), 3);
    assert_true(support_num(st, "guesses") == 3);
    assert_true(support_num(st, "nodes") == 17);
    assert_true(support_num(st, "solve_us") == 42);
    assert_int_equal(cJSON_GetArraySize(root), 2);
    cJSON_Delete(root);
    free(out);
}

static void encode_solution_line(void **state)
{
    struct sudoku_grid g = grid_of_rows(solution_rows);
    struct sudoku_stats stats = {.nodes = 1, .guesses = 0};
    char line[SUDOKU_CELLS + 1], expect[128];
    size_t len = 0;
    char *out;
    cJSON *root;
    const cJSON *st;

    (void)state;
    join_rows(solution_rows, line);
    out = codec_encode_solution(&g, CODEC_SHAPE_LINE, &stats, 0, &len);
    root = parse_json(out, len);
    snprintf(expect, sizeof(expect), "{\"solution\":\"%s\",", line);
    assert_true(strncmp(out, expect, strlen(expect)) == 0);
    assert_string_equal(support_str(root, "solution"), line);
    st = cJSON_GetObjectItemCaseSensitive(root, "stats");
    assert_true(cJSON_IsObject(st));
    assert_true(support_num(st, "guesses") == 0);
    assert_true(support_num(st, "nodes") == 1);
    assert_true(support_num(st, "solve_us") == 0);
    cJSON_Delete(root);
    free(out);
}

/* 64-bit counters are written with every digit (a double would round). */
static void encode_solution_large_stats(void **state)
{
    struct sudoku_grid g = grid_of_rows(solution_rows);
    struct sudoku_stats stats = {.nodes = (1ull << 53) + 1,
                                 .guesses = UINT64_MAX};
    size_t len = 0;
    char *out;
    cJSON *root;

    (void)state;
    out = codec_encode_solution(&g, CODEC_SHAPE_ROWS, &stats, UINT64_MAX - 1,
                                &len);
    root = parse_json(out, len);
    assert_non_null(strstr(out, "\"guesses\":18446744073709551615"));
    assert_non_null(strstr(out, "\"nodes\":9007199254740993"));
    assert_non_null(strstr(out, "\"solve_us\":18446744073709551614}"));
    cJSON_Delete(root);
    free(out);
}

/* codec_write_solution gives the bytes codec_encode_solution does, and the
 * longest answer (rows, every stat 20 digits) fills CODEC_SOLUTION_MAX to
 * the last byte: a buffer of exactly that size (on the heap, so ASan sees a
 * byte past it) is enough. */
static void write_solution_fits(void **state)
{
    struct sudoku_grid g = grid_of_rows(solution_rows);
    const struct sudoku_stats big = {.nodes = UINT64_MAX,
                                     .guesses = UINT64_MAX};
    const struct sudoku_stats small = {.nodes = 1, .guesses = 0};
    char *buf = malloc(CODEC_SOLUTION_MAX), *heap;
    size_t len, heap_len = 0;

    (void)state;
    assert_non_null(buf);
    for (int shape = CODEC_SHAPE_ROWS; shape <= CODEC_SHAPE_LINE; shape++) {
        for (int k = 0; k < 2; k++) {
            const struct sudoku_stats *st = k ? &big : &small;
            uint64_t us = k ? UINT64_MAX : 7;
            len =
                codec_write_solution(buf, &g, (enum codec_shape)shape, st, us);
            heap = codec_encode_solution(&g, (enum codec_shape)shape, st, us,
                                         &heap_len);
            assert_non_null(heap);
            assert_int_equal(len, heap_len);
            assert_int_equal(len, strlen(buf));
            assert_string_equal(buf, heap);
            cJSON_Delete(parse_json(buf, len));
            if (shape == CODEC_SHAPE_ROWS && k)
                assert_int_equal(len, CODEC_SOLUTION_MAX - 1);
            else
                assert_true(len < CODEC_SOLUTION_MAX - 1);
            free(heap);
        }
    }
    free(buf);
}

/* ------------------------------------------------------------------------
 * Encoding problems and status
 * ------------------------------------------------------------------------ */

static void problem_init_sets_absent(void **state)
{
    struct codec_problem p;

    (void)state;
    memset(&p, 0x5a, sizeof(p));
    codec_problem_init(&p, 418, "teapot", "A title", "A detail");
    assert_int_equal(p.status, 418);
    assert_string_equal(p.code, "teapot");
    assert_string_equal(p.title, "A title");
    assert_string_equal(p.detail, "A detail");
    assert_null(p.pointer);
    assert_int_equal(p.offset, -1);
    assert_int_equal(p.row, -1);
    assert_int_equal(p.column, -1);
    assert_int_equal(p.limit, -1);
    assert_null(p.conflicts);
    assert_int_equal(p.nconflicts, 0);
}

static void encode_problem_minimal(void **state)
{
    static const char *const absent[] = {"pointer", "offset", "row",
                                         "column",  "limit",  "conflicts"};
    struct codec_problem p;
    size_t len = 0;
    char *out;
    cJSON *root;

    (void)state;
    codec_problem_init(&p, 404, "not_found", "Not found", "no such endpoint");
    out = codec_encode_problem(&p, &len);
    root = parse_json(out, len);
    assert_true(cJSON_IsObject(root));
    assert_string_equal(support_str(root, "type"),
                        "urn:sudokud:problem:not_found");
    assert_string_equal(support_str(root, "title"), "Not found");
    assert_true(support_num(root, "status") == 404);
    assert_string_equal(support_str(root, "detail"), "no such endpoint");
    assert_string_equal(support_str(root, "code"), "not_found");
    for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
        if (cJSON_GetObjectItemCaseSensitive(root, absent[i]) != NULL)
            fail_msg("member '%s' should be absent", absent[i]);
    assert_int_equal(cJSON_GetArraySize(root), 5);
    cJSON_Delete(root);
    free(out);
}

/* Zero is a value, not "absent"; an empty pointer is the whole document. */
static void encode_problem_all_members(void **state)
{
    struct codec_problem p;
    size_t len = 0;
    char *out;
    cJSON *root;

    (void)state;
    codec_problem_init(&p, 422, "invalid_board", "Malformed board", "d");
    p.pointer = "";
    p.offset = 0;
    p.row = 0;
    p.column = 0;
    p.limit = 0;
    out = codec_encode_problem(&p, &len);
    root = parse_json(out, len);
    assert_string_equal(support_str(root, "pointer"), "");
    assert_true(support_num(root, "offset") == 0);
    assert_true(support_num(root, "row") == 0);
    assert_true(support_num(root, "column") == 0);
    assert_true(support_num(root, "limit") == 0);
    assert_null(cJSON_GetObjectItemCaseSensitive(root, "conflicts"));
    cJSON_Delete(root);
    free(out);

    p.pointer = "/board/8";
    p.offset = 16383;
    p.row = 8;
    p.column = 7;
    p.limit = 64ll << 20;
    out = codec_encode_problem(&p, &len);
    root = parse_json(out, len);
    assert_string_equal(support_str(root, "pointer"), "/board/8");
    assert_true(support_num(root, "offset") == 16383);
    assert_true(support_num(root, "row") == 8);
    assert_true(support_num(root, "column") == 7);
    assert_true(support_num(root, "limit") == 67108864.0);
    assert_non_null(strstr(out, "\"limit\":67108864"));
    cJSON_Delete(root);
    free(out);
}

/* Strings that need escaping come back intact. */
static void encode_problem_escapes(void **state)
{
    static const char detail[] =
        "row 1: '\"' and '\\' and\ta\nnewline \xc3\xa9";
    struct codec_problem p;
    size_t len = 0;
    char *out;
    cJSON *root;

    (void)state;
    codec_problem_init(&p, 400, "invalid_json", "Body \"is\" not JSON", detail);
    p.pointer = "/a~1b/\"c\"";
    out = codec_encode_problem(&p, &len);
    root = parse_json(out, len);
    assert_string_equal(support_str(root, "detail"), detail);
    assert_string_equal(support_str(root, "title"), "Body \"is\" not JSON");
    assert_string_equal(support_str(root, "pointer"), "/a~1b/\"c\"");
    cJSON_Delete(root);
    free(out);
}

static void encode_problem_conflicts(void **state)
{
    static const struct sudoku_conflict c[3] = {
        {SUDOKU_ROW, 4, 2, 2, {37, 43}},
        {SUDOKU_COLUMN, 3, 7, 3, {3, 30, 75}},
        {SUDOKU_BOX, 8, 9, 2, {60, 80}},
    };
    static const int row_cells[][2] = {{4, 1}, {4, 7}};
    static const int col_cells[][2] = {{0, 3}, {3, 3}, {8, 3}};
    static const int box_cells[][2] = {{6, 6}, {8, 8}};
    struct codec_problem p;
    size_t len = 0;
    char *out;
    cJSON *root;
    const cJSON *list;

    (void)state;
    codec_problem_init(&p, 422, "conflict", "Board breaks the rules", "d");
    p.conflicts = c;
    p.nconflicts = 3;
    out = codec_encode_problem(&p, &len);
    root = parse_json(out, len);
    list = cJSON_GetObjectItemCaseSensitive(root, "conflicts");
    assert_true(cJSON_IsArray(list));
    assert_int_equal(cJSON_GetArraySize(list), 3);
    support_check_conflict(cJSON_GetArrayItem(list, 0), "row", 4, 2, row_cells,
                           2);
    support_check_conflict(cJSON_GetArrayItem(list, 1), "column", 3, 7,
                           col_cells, 3);
    support_check_conflict(cJSON_GetArrayItem(list, 2), "box", 8, 9, box_cells,
                           2);
    cJSON_Delete(root);
    free(out);

    /* Present but empty stays an (empty) array. */
    p.nconflicts = 0;
    out = codec_encode_problem(&p, &len);
    root = parse_json(out, len);
    list = cJSON_GetObjectItemCaseSensitive(root, "conflicts");
    assert_true(cJSON_IsArray(list));
    assert_int_equal(cJSON_GetArraySize(list), 0);
    cJSON_Delete(root);
    free(out);
}

static void encode_status_members(void **state)
{
    static const char *const words[] = {"ok", "ready", ""};
    size_t len = 0;
    char *out;
    cJSON *root;

    (void)state;
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        out = codec_encode_status(words[i], &len);
        root = parse_json(out, len);
        assert_true(cJSON_IsObject(root));
        assert_int_equal(cJSON_GetArraySize(root), 1);
        assert_string_equal(support_str(root, "status"), words[i]);
        cJSON_Delete(root);
        free(out);
    }
}

/* JSON never allows raw control characters (but tab, CR, LF): cJSON would
 * skip some as whitespace and end a string at a NUL, so they are refused
 * where they stand. */
#define EXAMPLE_LINE_REST                                                      \
    "....6824.3......1..9..2.9...2.18...4....51325.8......687.........8.9.4."  \
    "9...5."
#define EXAMPLE_LINE "9.7." EXAMPLE_LINE_REST

static void decode_raw_control_bytes(void **state)
{
    static const char lead[] = "\x01{\"board\":\"" EXAMPLE_LINE "\"}";
    static const char nul[] = "{\"board\":\"9.7.\0" EXAMPLE_LINE_REST "\"}";
    struct codec_board b;
    struct codec_error e;

    (void)state;
    assert_int_equal(decode_n(lead, sizeof(lead) - 1, &b, &e),
                     CODEC_INVALID_JSON);
    assert_int_equal(e.offset, 0);
    assert_int_equal(decode_n(nul, sizeof(nul) - 1, &b, &e),
                     CODEC_INVALID_JSON);
    assert_int_equal(e.offset, 14);
    /* Found by fuzz_api (tests/fuzz/corpus/api/nul_*.json): a NUL after
     * the value, or inside a row, once passed as whitespace or cut a row. */
    {
        static const char trailing[] = "{\"board\":\"" EXAMPLE_LINE "\"}\0";
        static const char in_row[] = "{\"board\":[\"9.7.....6\",\"824.3....\","
                                     "\"..1..9..2\",\".9...2.18\","
                                     "\"...4....5\",\"1325.8...\",\"...687..."
                                     "\",\"......8.9\",\".4.9.\0.5.\"]}";
        assert_int_equal(decode_n(trailing, sizeof(trailing) - 1, &b, &e),
                         CODEC_INVALID_JSON);
        assert_int_equal(e.offset, (long)sizeof(trailing) - 2);
        assert_int_equal(decode_n(in_row, sizeof(in_row) - 1, &b, &e),
                         CODEC_INVALID_JSON);
        assert_int_equal(e.offset,
                         (const char *)memchr(in_row, 0, sizeof(in_row) - 1) -
                             in_row);
    }
    /* Tab, CR and LF are whitespace between tokens. */
    assert_int_equal(decode("\t{\r\n\"board\":\"" EXAMPLE_LINE "\"}\n", &b, &e),
                     CODEC_OK);
}

/* The values of a batch are counted before its tree is built: a number
 * (with sign, fraction and exponent), a literal and a string are one value
 * each, whatever they hold. One board allows 10 + 32 = 42 values, and
 * {"boards": [[...k]]} holds 4 + k. */
static char *batch_of(size_t k)
{
    static const char *const each[] = {"-1.5e+3",     "true",  "null",
                                       "\"a,[\\\"\"", "false", "0"};
    char *body = malloc(32 + k * 12), *p = body;

    assert_non_null(body);
    p += sprintf(p, "{\"boards\": [[");
    for (size_t i = 0; i < k; i++)
        p += sprintf(p, "%s %s", i ? "," : "", each[i % 6]);
    sprintf(p, " ]\n]}");
    return body;
}

static void decode_batch_value_cap(void **state)
{
    struct codec_batch b;
    struct codec_error err;
    char *body;

    (void)state;
    body = batch_of(38);
    assert_int_equal(codec_decode_batch(body, strlen(body), 0, 6, &b, &err),
                     CODEC_OK);
    assert_int_equal(b.n, 1);
    assert_int_equal(b.items[0].status, CODEC_INVALID_BOARD);
    codec_batch_free(&b);
    free(body);
    body = batch_of(39);
    assert_int_equal(codec_decode_batch(body, strlen(body), 0, 6, &b, &err),
                     CODEC_TOO_COMPLEX);
    assert_int_equal(err.offset, 42);
    assert_int_equal(b.n, 0);
    free(body);
    /* A key the early count cannot see (escaped): the cap is then that of
     * the largest batch, 6 boards: 92 values. */
    body = malloc(1024);
    assert_non_null(body);
    strcpy(body, "{\"\\u0062oards\": [[0");
    for (int i = 1; i < 80; i++)
        strcat(body, ",0");
    strcat(body, "]]}");
    assert_int_equal(codec_decode_batch(body, strlen(body), 0, 6, &b, &err),
                     CODEC_OK);
    assert_int_equal(b.n, 1);
    codec_batch_free(&b);
    strcat(strcpy(body + strlen(body) - 3, ",0,0,0,0,0,0,0,0,0"), "]]}");
    assert_int_equal(codec_decode_batch(body, strlen(body), 0, 6, &b, &err),
                     CODEC_TOO_COMPLEX);
    assert_int_equal(err.offset, 92);
    free(body);
}

/* ------------------------------------------------------------------------
 * /generate's seed: every seed accepted comes back digit for digit
 * ------------------------------------------------------------------------ */

static enum codec_status decode_generate(const char *json,
                                         struct codec_generate_request *out,
                                         struct codec_error *err)
{
    size_t len = strlen(json);
    char *copy = malloc(len);
    enum codec_status st;

    assert_non_null(copy);
    memcpy(copy, json, len);
    st = codec_decode_generate(copy, len, out, err);
    free(copy);
    return st;
}

/* 2^53 - 1 is the largest integer below which every integer has a double
 * of its own: 2^53 + 1 parses as 2^53, so 2^53 and above are refused. */
static void decode_generate_seed_bounds(void **state)
{
    static const char *const refused[] = {
        "{\"seed\": 9007199254740992}",
        "{\"seed\": 9007199254740993}",
        "{\"seed\": 18446744073709551615}",
        "{\"seed\": 1e300}",
        "{\"seed\": -1}",
        "{\"seed\": 0.5}",
        "{\"seed\": \"7\"}",
    };
    struct codec_generate_request r;
    struct codec_error err;

    (void)state;
    assert_int_equal(CODEC_SEED_MAX, (1ULL << 53) - 1);
    assert_int_equal(decode_generate("{\"seed\": 9007199254740991}", &r, &err),
                     CODEC_OK);
    assert_true(r.has_seed);
    assert_true(r.seed == (1ULL << 53) - 1);
    assert_int_equal(decode_generate("{\"seed\": 8000000000000001}", &r, &err),
                     CODEC_OK);
    assert_true(r.seed == 8000000000000001ULL);
    assert_int_equal(decode_generate("{\"seed\": 0}", &r, &err), CODEC_OK);
    assert_true(r.has_seed && r.seed == 0);
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        assert_int_equal(decode_generate(refused[i], &r, &err),
                         CODEC_INVALID_REQUEST);
        assert_string_equal(err.pointer, "/seed");
        assert_non_null(strstr(err.detail, "9007199254740991"));
    }
}

/* The answer's seed is printed in full: through a double cJSON would print
 * 8000000000000001 as 8e+15 (another seed). */
static void encode_generated_seed_exact(void **state)
{
    static const unsigned long long seeds[] = {
        0, 7, 8000000000000001ULL, 9007199254740991ULL, 1234567890123457ULL};
    struct sudoku_grid puzzle, solution;
    struct logic_grade grade;

    (void)state;
    memset(&grade, 0, sizeof(grade));
    grade.hardest = -1;
    assert_int_equal(sudoku_parse(SUPPORT_EXAMPLE, 81, &puzzle, NULL),
                     SUDOKU_OK);
    assert_int_equal(
        sudoku_parse(SUPPORT_EXAMPLE_SOLUTION, 81, &solution, NULL), SUDOKU_OK);
    for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
        struct codec_generated g = {&puzzle, &solution, CODEC_SHAPE_LINE,
                                    &grade,  seeds[i],  "none",
                                    30,      1,         5};
        char want[48];
        size_t len = 0;
        char *text = codec_encode_generated(&g, &len);
        cJSON *j;

        assert_non_null(text);
        assert_int_equal(strlen(text), len);
        snprintf(want, sizeof(want), "\"seed\":%llu,", seeds[i]);
        assert_non_null(strstr(text, want));
        j = cJSON_Parse(text);
        assert_non_null(j); /* still valid JSON */
        assert_true(cJSON_GetObjectItem(j, "seed")->valuedouble ==
                    (double)seeds[i]);
        cJSON_Delete(j);
        free(text);
    }
}

int test_codec(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
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
        cmocka_unit_test(decode_raw_control_bytes),
        cmocka_unit_test(decode_non_ascii_counts_as_one),
        cmocka_unit_test(decode_empty_body),
        cmocka_unit_test(decode_not_json),
        cmocka_unit_test(decode_trailing_garbage),
        cmocka_unit_test(decode_trailing_garbage_after_space),
        cmocka_unit_test(decode_truncated_offset),
        cmocka_unit_test(decode_bad_key_offset),
        cmocka_unit_test(decode_not_an_object),
        cmocka_unit_test(decode_board_missing),
        cmocka_unit_test(decode_board_wrong_type),
        cmocka_unit_test(decode_row_not_a_string),
        cmocka_unit_test(decode_wrong_row_count),
        cmocka_unit_test(decode_wrong_row_length),
        cmocka_unit_test(decode_wrong_line_length),
        cmocka_unit_test(decode_escaped_nul_is_one_character),
        cmocka_unit_test(decode_invalid_utf8_rejected),
        cmocka_unit_test(encode_solution_rows),
        cmocka_unit_test(encode_solution_line),
        cmocka_unit_test(encode_solution_large_stats),
        cmocka_unit_test(write_solution_fits),
        cmocka_unit_test(problem_init_sets_absent),
        cmocka_unit_test(encode_problem_minimal),
        cmocka_unit_test(encode_problem_all_members),
        cmocka_unit_test(encode_problem_escapes),
        cmocka_unit_test(encode_problem_conflicts),
        cmocka_unit_test(encode_status_members),
        cmocka_unit_test(decode_batch_value_cap),
        cmocka_unit_test(decode_generate_seed_bounds),
        cmocka_unit_test(encode_generated_seed_exact),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("codec", tests, NULL, NULL);
}
