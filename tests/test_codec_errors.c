/* test_codec_errors.c - part of the codec suite (test_codec.c): bodies the
 * decoder refuses, and where it says the fault is: not JSON (with the
 * offset), not the request's shape (with the pointer), not a board (with
 * the row); raw control bytes; the value cap of a batch. */
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
#include "codec_support.h"
#include "logic.h"
#include "sudoku.h"
#include "support.h"
#include "tests.h"

static void assert_json_error(const char *json, long offset)
{
    struct codec_board b;
    struct codec_error e;

    assert_int_equal(ct_decode(json, &b, &e), CODEC_INVALID_JSON);
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

    assert_int_equal(ct_decode(json, &b, &e), CODEC_INVALID_REQUEST);
    assert_string_equal(e.pointer, pointer);
    assert_int_equal(e.row, row);
    assert_int_equal(e.column, -1);
    assert_int_equal(e.offset, -1);
    assert_true(strlen(e.detail) > 0);
}

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
    support_join_rows(support_example_rows, text);
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
    support_join_rows(support_example_rows, text);
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
        rows[r] = support_example_rows[r];
    ct_rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
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
    ct_rows_body(body, sizeof(body), support_example_rows, 8);
    ct_assert_board_error(body, "/board", -1, "8 rows");
    ct_rows_body(body, sizeof(body), support_example_rows, 1);
    ct_assert_board_error(body, "/board", -1, "1 row;");
    ct_assert_board_error("{\"board\": []}", "/board", -1, "0 rows");
    {
        const char *ten[10];
        for (int r = 0; r < SUDOKU_SIZE; r++)
            ten[r] = support_example_rows[r];
        ten[9] = ".........";
        ct_rows_body(body, sizeof(body), ten, 10);
        ct_assert_board_error(body, "/board", -1, "10 rows");
    }
}

static void decode_wrong_row_length(void **state)
{
    const char *rows[SUDOKU_SIZE];
    char body[256];

    (void)state;
    for (int r = 0; r < SUDOKU_SIZE; r++)
        rows[r] = support_example_rows[r];
    rows[2] = "..1..9..";
    ct_rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    ct_assert_board_error(body, "/board/2", 2, "8 characters");

    rows[2] = support_example_rows[2];
    rows[8] = ".4.9...5.1";
    ct_rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    ct_assert_board_error(body, "/board/8", 8, "10 characters");

    rows[8] = "";
    ct_rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    ct_assert_board_error(body, "/board/8", 8, "0 characters");
}

static void decode_wrong_line_length(void **state)
{
    char text[SUDOKU_CELLS + 1], body[256];

    (void)state;
    support_join_rows(support_example_rows, text);
    snprintf(body, sizeof(body), "{\"board\":\"%.80s\"}", text);
    ct_assert_board_error(body, "/board", -1, "80 characters");
    snprintf(body, sizeof(body), "{\"board\":\"%s.\"}", text);
    ct_assert_board_error(body, "/board", -1, "82 characters");
    /* Nine characters as one string is not the rows shape. */
    ct_assert_board_error("{\"board\":\"9.7.....6\"}", "/board", -1,
                          "9 characters");
    ct_assert_board_error("{\"board\":\"\"}", "/board", -1, "0 characters");
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
        rows[r] = support_example_rows[r];
    rows[0] = "9.7.\\u0000...6";
    ct_rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    st = ct_decode(body, &b, &e);
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
        rows[r] = support_example_rows[r];
    rows[1] = "824.\x80"
              "3...."; /* 9 characters plus a lone 0x80 byte */
    ct_rows_body(body, sizeof(body), rows, SUDOKU_SIZE);
    assert_int_not_equal(ct_decode(body, &b, &e), CODEC_OK);
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
    assert_int_equal(ct_decode_n(lead, sizeof(lead) - 1, &b, &e),
                     CODEC_INVALID_JSON);
    assert_int_equal(e.offset, 0);
    assert_int_equal(ct_decode_n(nul, sizeof(nul) - 1, &b, &e),
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
        assert_int_equal(ct_decode_n(trailing, sizeof(trailing) - 1, &b, &e),
                         CODEC_INVALID_JSON);
        assert_int_equal(e.offset, (long)sizeof(trailing) - 2);
        assert_int_equal(ct_decode_n(in_row, sizeof(in_row) - 1, &b, &e),
                         CODEC_INVALID_JSON);
        assert_int_equal(e.offset,
                         (const char *)memchr(in_row, 0, sizeof(in_row) - 1) -
                             in_row);
    }
    /* Tab, CR and LF are whitespace between tokens. */
    assert_int_equal(
        ct_decode("\t{\r\n\"board\":\"" EXAMPLE_LINE "\"}\n", &b, &e),
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
    static struct codec_batch_item item;
    struct codec_batch b;
    struct codec_error err;
    char *body;

    (void)state;
    body = batch_of(38);
    assert_int_equal(codec_decode_batch(body, strlen(body), 0, 6, &b, &err),
                     CODEC_OK);
    assert_int_equal(b.n, 1);
    codec_batch_get(&b, 0, &item);
    assert_int_equal(item.status, CODEC_INVALID_BOARD);
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

int test_codec_errors(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(decode_raw_control_bytes),
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
        cmocka_unit_test(decode_batch_value_cap),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("codec_errors", tests, NULL, NULL);
}
