/* test_codec_variant.c - cmocka tests of the wire format of other sizes and
 * variant rules (src/codec/codec_variant.c): boards of every size in both
 * shapes, the rule members, and every malformed member with its status and JSON
 * pointer. Bodies are decoded from exact-size heap copies (no NUL after
 * them), so ASan sees a read past the end. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "cover.h"
#include "tests.h"

static const unsigned sizes[] = {4, 6, 8, 9, 12, 16, 25};
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

typedef enum codec_status (*decoder)(const char *, size_t,
                                     struct codec_variant *,
                                     struct codec_error *);

/* Decodes json with `d` from an exact-size copy (no NUL after it). */
static enum codec_status decode_with(decoder d, const char *json,
                                     struct codec_variant *out,
                                     struct codec_error *err)
{
    size_t len = strlen(json);
    char *copy = malloc(len ? len : 1);
    enum codec_status st;

    assert_non_null(copy);
    memcpy(copy, json, len);
    memset(out, 0x55, sizeof(*out));
    st = d(copy, len, out, err);
    free(copy);
    return st;
}

static enum codec_status decode(const char *json, struct codec_variant *out,
                                struct codec_error *err)
{
    return decode_with(codec_decode_variant, json, out, err);
}

static enum codec_status decode_options(const char *json,
                                        struct codec_variant *out,
                                        struct codec_error *err)
{
    return decode_with(codec_decode_variant_options, json, out, err);
}

/* The character of cell i of an n x n test board: a digit or a blank,
 * cycling through every character the size allows, in mixed case. */
static char cell_char(unsigned n, unsigned i)
{
    unsigned d = i % (n + 1); /* 0: blank */

    if (d == 0)
        return i % 2 ? '.' : '0';
    if (d <= 9)
        return (char)('0' + d);
    return (char)((i % 2 ? 'a' : 'A') + (d - 10));
}

/* {"board": ...} of an n x n board in rows or as one line, then `more`. */
static void board_body(char *out, size_t size, unsigned n, int rows,
                       const char *more)
{
    size_t len =
        (size_t)snprintf(out, size, "{\"board\":%s", rows ? "[" : "\"");

    for (unsigned i = 0; i < n * n; i++) {
        if (rows && i % n == 0)
            len +=
                (size_t)snprintf(out + len, size - len, "%s\"", i ? "," : "");
        out[len++] = cell_char(n, i);
        if (rows && i % n == n - 1)
            out[len++] = '"';
    }
    snprintf(out + len, size - len, "%s%s}", rows ? "]" : "\"", more);
}

/* ------------------------------------------------------------------------
 * Boards of every size
 * ------------------------------------------------------------------------ */

static void every_size_both_shapes(void **state)
{
    static char body[4096];
    struct codec_variant v;
    struct codec_error err;
    unsigned box_rows[] = {2, 2, 2, 3, 3, 4, 5};

    (void)state;
    for (size_t k = 0; k < NSIZES; k++) {
        unsigned n = sizes[k];
        for (int rows = 0; rows < 2; rows++) {
            board_body(body, sizeof(body), n, rows, "");
            assert_int_equal(decode(body, &v, &err), CODEC_OK);
            assert_int_equal(v.rules.n, n);
            assert_int_equal(v.is_variant, n != 9);
            assert_int_equal(v.shape,
                             rows ? CODEC_SHAPE_ROWS : CODEC_SHAPE_LINE);
            /* the wider side horizontal */
            assert_int_equal(v.rules.box_rows, box_rows[k]);
            assert_int_equal(v.rules.box_cols, n / box_rows[k]);
            for (unsigned i = 0; i < n * n; i++)
                assert_int_equal(v.text[i], cell_char(n, i));
        }
    }
}

/* A classic 9x9 body is not a variant; any rule member makes it one. */
static void classic_and_members(void **state)
{
    static char body[4096];
    struct codec_variant v;
    struct codec_error err;

    (void)state;
    board_body(body, sizeof(body), 9, 1, ",\"cages\":[]");
    assert_int_equal(decode(body, &v, &err), CODEC_OK);
    assert_false(v.is_variant);
    board_body(body, sizeof(body), 9, 1,
               ",\"diagonals\":true,\"anti_knight\":true,\"anti_king\":false");
    assert_int_equal(decode(body, &v, &err), CODEC_OK);
    assert_true(v.is_variant);
    assert_true(v.rules.diagonals);
    assert_true(v.rules.anti_knight);
    assert_false(v.rules.anti_king);
    board_body(body, sizeof(body), 6, 0, ",\"box\":{\"rows\":3,\"columns\":2}");
    assert_int_equal(decode(body, &v, &err), CODEC_OK);
    assert_int_equal(v.rules.box_rows, 3);
    assert_int_equal(v.rules.box_cols, 2);
    assert_true(v.has_box);
}

static void regions_and_extras(void **state)
{
    static char body[4096];
    struct codec_variant v;
    struct codec_error err;

    (void)state;
    board_body(body, sizeof(body), 4, 1,
               ",\"regions\":[\"AABB\",\"aAbb\",\"CCDD\",\"ccdD\"],"
               "\"extra_regions\":[[[0,0],[1,1],[2,2],[3,3]],[[0,3]]]");
    assert_int_equal(decode(body, &v, &err), CODEC_OK);
    assert_true(v.rules.has_regions);
    for (unsigned i = 0; i < 16; i++)
        assert_int_equal(v.rules.region[i], (i / 8) * 2 + (i % 4) / 2);
    assert_int_equal(v.rules.nextra, 2);
    assert_int_equal(v.rules.extra[0].ncells, 4);
    assert_int_equal(v.rules.extra[0].cell[2], 10);
    assert_int_equal(v.rules.extra[1].ncells, 1);
    assert_int_equal(v.rules.extra[1].cell[0], 3);
    /* the map as one line */
    board_body(body, sizeof(body), 4, 0, ",\"regions\":\"AABBAABBCCDDCCDD\"");
    assert_int_equal(decode(body, &v, &err), CODEC_OK);
    assert_int_equal(v.rules.region[15], 3);
}

/* ------------------------------------------------------------------------
 * Malformed bodies
 * ------------------------------------------------------------------------ */

struct bad {
    unsigned n;       /* board size; 0: the body is `more` alone */
    const char *more; /* members after the board */
    enum codec_status st;
    const char *pointer;
};

static void malformed_members(void **state)
{
    static const struct bad cases[] = {
        {4, ",\"diagonals\":1", CODEC_INVALID_REQUEST, "/diagonals"},
        {4, ",\"anti_knight\":\"yes\"", CODEC_INVALID_REQUEST, "/anti_knight"},
        {4, ",\"anti_king\":null", CODEC_INVALID_REQUEST, "/anti_king"},
        {6, ",\"box\":[2,3]", CODEC_INVALID_REQUEST, "/box"},
        {6, ",\"box\":{\"rows\":2}", CODEC_INVALID_REQUEST, "/box/columns"},
        {6, ",\"box\":{\"rows\":1.5,\"columns\":4}", CODEC_INVALID_REQUEST,
         "/box/rows"},
        {6, ",\"box\":{\"rows\":2,\"columns\":2}", CODEC_INVALID_BOX, "/box"},
        {4,
         ",\"box\":{\"rows\":2,\"columns\":2},\"regions\":\"AABBAABBCCDDCCDD\"",
         CODEC_INVALID_BOX, "/box"},
        {4, ",\"regions\":7", CODEC_INVALID_REQUEST, "/regions"},
        {4, ",\"regions\":\"AABBAABBCCDD\"", CODEC_INVALID_REGIONS, "/regions"},
        {4, ",\"regions\":[\"AABB\",\"AABB\",\"CCDD\"]", CODEC_INVALID_REGIONS,
         "/regions"},
        {4, ",\"regions\":[\"AABB\",\"AABB\",\"CCD\",\"CCDD\"]",
         CODEC_INVALID_REGIONS, "/regions/2"},
        {4, ",\"regions\":[\"AABB\",\"AABB\",\"CCDD\",\"CCDE\"]",
         CODEC_INVALID_REGIONS, "/regions/3"},
        {4, ",\"regions\":[\"AABB\",5,\"CCDD\",\"CCDD\"]",
         CODEC_INVALID_REQUEST, "/regions/1"},
        {4, ",\"regions\":\"AABBAABBCC1DCCDD\"", CODEC_INVALID_REGIONS,
         "/regions"},
        {4, ",\"extra_regions\":{}", CODEC_INVALID_REQUEST, "/extra_regions"},
        {4, ",\"extra_regions\":[[]]", CODEC_INVALID_EXTRA, "/extra_regions/0"},
        {4, ",\"extra_regions\":[[[0,0]],[[0,0],[1,1],[2,2],[3,3],[0,1]]]",
         CODEC_INVALID_EXTRA, "/extra_regions/1"},
        {4, ",\"extra_regions\":[[[0,0],[4,0]]]", CODEC_INVALID_EXTRA,
         "/extra_regions/0/1"},
        {4, ",\"extra_regions\":[[[0,0],[0,-1]]]", CODEC_INVALID_EXTRA,
         "/extra_regions/0/1"},
        {4, ",\"extra_regions\":[[[0,0],[1]]]", CODEC_INVALID_REQUEST,
         "/extra_regions/0/1"},
        {4, ",\"extra_regions\":[[[0,0],[0,0]]]", CODEC_INVALID_EXTRA,
         "/extra_regions/0"},
        {4, ",\"extra_regions\":[\"A\"]", CODEC_INVALID_REQUEST,
         "/extra_regions/0"},
        {0, "{\"board\":[\"1234\",\"1234\",\"1234\"],\"diagonals\":true}",
         CODEC_INVALID_BOARD, "/board"},
        {0, "{\"board\":[\"1234\",\"123\",\"1234\",\"1234\"]}",
         CODEC_INVALID_BOARD, "/board/1"},
        {0, "{\"board\":[\"1234\",12,\"1234\",\"1234\"]}",
         CODEC_INVALID_REQUEST, "/board/1"},
        {0, "{\"board\":\"1234123412341234\",\"diagonals\":true,\"box\":5}",
         CODEC_INVALID_REQUEST, "/box"},
        {0,
         "{\"board\":\"" /* 100 characters: 10x10 is no size */
         "1234567890123456789012345678901234567890"
         "1234567890123456789012345678901234567890"
         "12345678901234567890\"}",
         CODEC_INVALID_BOARD, "/board"},
        {0, "{\"board\":7}", CODEC_INVALID_REQUEST, "/board"},
        {0, "{\"diagonals\":true}", CODEC_INVALID_REQUEST, "/board"},
        {0, "[1]", CODEC_INVALID_REQUEST, ""},
    };
    static char body[4096];
    struct codec_variant v;
    struct codec_error err;

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct bad *c = &cases[i];
        enum codec_status st;
        if (c->n)
            board_body(body, sizeof(body), c->n, 1, c->more);
        else
            snprintf(body, sizeof(body), "%s", c->more);
        st = decode(body, &v, &err);
        if (st != c->st || strcmp(err.pointer, c->pointer) != 0)
            fail_msg("case %zu (%s): status %d at '%s', want %d at '%s' (%s)",
                     i, c->more, st, err.pointer, c->st, c->pointer,
                     err.detail);
        assert_true(strlen(err.detail) > 10);
    }
}

/* A 10x10 board is square: the body is known to be meant as a variant, so
 * the caller reports this decoder's problem. 8 rows of 9 is not. */
static void no_such_size_is_variant(void **state)
{
    static char body[4096];
    struct codec_variant v;
    struct codec_error err;
    size_t len = (size_t)snprintf(body, sizeof(body), "{\"board\":[");

    (void)state;
    for (int r = 0; r < 10; r++)
        len += (size_t)snprintf(body + len, sizeof(body) - len, "%s\"%s\"",
                                r ? "," : "", "1234567890");
    snprintf(body + len, sizeof(body) - len, "]}");
    assert_int_equal(decode(body, &v, &err), CODEC_INVALID_BOARD);
    assert_true(v.is_variant);
    assert_string_equal(err.pointer, "/board");
    assert_non_null(strstr(err.detail, "16x16"));
    assert_int_equal(decode("{\"board\":[\"123456789\",\"123456789\","
                            "\"123456789\",\"123456789\",\"123456789\","
                            "\"123456789\",\"123456789\",\"123456789\"]}",
                            &v, &err),
                     CODEC_INVALID_BOARD);
    assert_string_equal(err.pointer, "/board");
}

static void generate_options(void **state)
{
    struct codec_variant v;
    struct codec_error err;

    (void)state;
    assert_int_equal(decode_options("{\"seed\":3}", &v, &err), CODEC_OK);
    assert_false(v.is_variant);
    assert_int_equal(v.rules.n, 9);
    assert_int_equal(decode_options("{\"size\":9}", &v, &err), CODEC_OK);
    assert_false(v.is_variant);
    assert_int_equal(
        decode_options("{\"size\":16,\"diagonals\":true}", &v, &err), CODEC_OK);
    assert_true(v.is_variant);
    assert_int_equal(v.rules.n, 16);
    assert_true(v.rules.diagonals);
    assert_int_equal(decode_options("{\"size\":10}", &v, &err),
                     CODEC_INVALID_SIZE);
    assert_string_equal(err.pointer, "/size");
    assert_int_equal(decode_options("{\"size\":\"16\"}", &v, &err),
                     CODEC_INVALID_REQUEST);
    assert_string_equal(err.pointer, "/size");
    assert_int_equal(
        decode_options("{\"size\":4,\"regions\":\"AABB\"}", &v, &err),
        CODEC_INVALID_REGIONS);
    assert_string_equal(err.pointer, "/regions");
}

/* ------------------------------------------------------------------------
 * Answers
 * ------------------------------------------------------------------------ */

static void solution_keeps_shape_upper_case(void **state)
{
    struct cover_grid g = {.n = 16};
    struct sudoku_stats stats = {.nodes = 7, .guesses = 3};
    char *out, want[512];
    size_t len = 0, k;

    (void)state;
    for (unsigned i = 0; i < 256; i++)
        g.cell[i] = (uint8_t)((i + i / 16 * 4 + i / 64) % 16 + 1);
    out = codec_encode_variant_solution(&g, CODEC_SHAPE_ROWS, &stats, 5, &len);
    assert_non_null(out);
    assert_int_equal(len, strlen(out));
    k = (size_t)snprintf(want, sizeof(want), "{\"solution\":[");
    for (unsigned r = 0; r < 16; r++) {
        want[k++] = '"';
        for (unsigned c = 0; c < 16; c++) {
            unsigned d = g.cell[r * 16 + c];
            want[k++] = (char)(d <= 9 ? '0' + d : 'A' + d - 10);
        }
        want[k++] = '"';
        want[k++] = r < 15 ? ',' : ']';
    }
    snprintf(want + k, sizeof(want) - k,
             ",\"stats\":{\"guesses\":3,\"nodes\":7,\"solve_us\":5}}");
    assert_string_equal(out, want);
    free(out);
    out = codec_encode_variant_solution(&g, CODEC_SHAPE_LINE, &stats, 5, &len);
    assert_non_null(out);
    assert_int_equal(strncmp(out, "{\"solution\":\"", 13), 0);
    assert_int_equal(out[13 + 256], '"');
    free(out);
}

/* The fields of two decoded variants that the engine and the answers
 * read are equal. */
static void expect_same_variant(const struct codec_variant *a,
                                const struct codec_variant *b)
{
    const struct cover_rules *ra = &a->rules, *rb = &b->rules;
    size_t cells = (size_t)ra->n * ra->n;

    assert_int_equal(a->is_variant, b->is_variant);
    assert_int_equal(a->shape, b->shape);
    assert_int_equal(a->has_box, b->has_box);
    assert_string_equal(a->at, b->at);
    assert_string_equal(a->board_at, b->board_at);
    assert_int_equal(ra->n, rb->n);
    assert_memory_equal(a->text, b->text, cells);
    assert_int_equal(ra->box_rows, rb->box_rows);
    assert_int_equal(ra->box_cols, rb->box_cols);
    assert_int_equal(ra->has_regions, rb->has_regions);
    if (ra->has_regions)
        assert_memory_equal(ra->region, rb->region, cells);
    assert_int_equal(ra->diagonals, rb->diagonals);
    assert_int_equal(ra->anti_knight, rb->anti_knight);
    assert_int_equal(ra->anti_king, rb->anti_king);
    assert_int_equal(ra->nextra, rb->nextra);
    for (unsigned g = 0; g < ra->nextra; g++) {
        assert_int_equal(ra->extra[g].ncells, rb->extra[g].ncells);
        assert_memory_equal(ra->extra[g].cell, rb->extra[g].cell,
                            ra->extra[g].ncells * sizeof(uint16_t));
    }
}

/* A batch holds each puzzle in a record the size of its board; read back
 * with codec_batch_get, every line is what /solve's decoder makes of the
 * same body (its board, rules and pointers, or its error), and the heap
 * it holds is the size of the boards, not of the largest one. */
static void batch_records_read_back_as_decoded(void **state)
{
    static char lines[8][2048], body[16384];
    static struct codec_variant direct;
    static struct codec_batch_item item;
    struct codec_batch b;
    struct codec_error err, derr;
    enum codec_status st;
    size_t len = 0, nlines = 0;
    char board[626], map[626];

    (void)state;
    for (unsigned i = 0; i < 625; i++) {
        board[i] = cell_char(25, i);
        map[i] = (char)('A' + (i / 25 / 5) * 5 + i % 25 / 5);
    }
    board[625] = map[625] = '\0';
    snprintf(lines[nlines++], sizeof(lines[0]),
             "{\"board\":\"%s\",\"regions\":\"%s\",\"diagonals\":true,"
             "\"anti_king\":true,\"extra_regions\":[[[0,0],[1,1],[24,3]],"
             "[[24,24]]]}",
             board, map);
    snprintf(lines[nlines++], sizeof(lines[0]),
             "{\"board\":[\"1.....\",\"......\",\"..3...\",\"......\","
             "\"......\",\".....6\"],\"box\":{\"rows\":3,\"columns\":2},"
             "\"anti_knight\":true}");
    snprintf(lines[nlines++], sizeof(lines[0]), "\"1..2............\"");
    snprintf(lines[nlines++], sizeof(lines[0]), "\"1\"");
    snprintf(lines[nlines++], sizeof(lines[0]),
             "{\"board\":\"%.81s\",\"extra_regions\":[[[0,0],[9,1]]]}", board);
    snprintf(lines[nlines++], sizeof(lines[0]),
             "{\"board\":\"%.81s\",\"regions\":\"AB\"}", board);
    for (size_t i = 0; i < nlines; i++)
        len +=
            (size_t)snprintf(body + len, sizeof(body) - len, "%s\n", lines[i]);
    assert_int_equal(codec_decode_batch(body, len, 1, 100, &b, &err), CODEC_OK);
    assert_int_equal(b.n, nlines);
    for (size_t i = 0; i < nlines; i++) {
        /* a line that is only a board is /solve's {"board": line}, with
         * the pointers one member up */
        int bare = lines[i][0] == '"';
        static char wrapped[sizeof(lines[0]) + 16];
        size_t ll = strlen(lines[i]);
        assert_true(ll + 11 < sizeof(wrapped));
        memcpy(wrapped, "{\"board\":", 9);
        memcpy(wrapped + 9, lines[i], ll);
        memcpy(wrapped + 9 + ll, "}", 2);
        st = decode(bare ? wrapped : lines[i], &direct, &derr);
        if (bare) {
            direct.board_at[0] = '\0';
            if (strncmp(derr.pointer, "/board", 6) == 0)
                memmove(derr.pointer, derr.pointer + 6,
                        strlen(derr.pointer) - 5);
        }
        codec_batch_get(&b, i, &item);
        assert_int_equal(item.status, st);
        if (st != CODEC_OK) {
            assert_string_equal(item.err.pointer, derr.pointer);
            assert_string_equal(item.err.detail, derr.detail);
            assert_int_equal(item.err.row, derr.row);
            assert_int_equal(item.err.column, derr.column);
            continue;
        }
        assert_true(item.is_variant);
        expect_same_variant(&item.variant, &direct);
    }
    /* the boards' own bytes and a few dozen more each, not 3 KB apiece */
    assert_true(b.held_bytes < len + 300 * nlines);
    codec_batch_free(&b);

    /* in the JSON form the pointers name the element */
    len = (size_t)snprintf(body, sizeof(body), "{\"boards\":[\"%.81s\",%s]}",
                           board, lines[1]);
    assert_int_equal(codec_decode_batch(body, len, 0, 100, &b, &err), CODEC_OK);
    assert_int_equal(b.n, 2);
    codec_batch_get(&b, 1, &item);
    assert_int_equal(item.status, CODEC_OK);
    assert_string_equal(item.variant.at, "/boards/1");
    assert_string_equal(item.variant.board_at, "/boards/1/board");
    codec_batch_get(&b, 0, &item);
    assert_false(item.is_variant);
    assert_string_equal(item.at, "/boards/0");
    assert_memory_equal(item.board.text, board, 81); /* not only digits */
    codec_batch_free(&b);
}

int test_codec_variant(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_size_both_shapes),
        cmocka_unit_test(classic_and_members),
        cmocka_unit_test(regions_and_extras),
        cmocka_unit_test(malformed_members),
        cmocka_unit_test(no_such_size_is_variant),
        cmocka_unit_test(generate_options),
        cmocka_unit_test(solution_keeps_shape_upper_case),
        cmocka_unit_test(batch_records_read_back_as_decoded),
    };
    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("codec_variant", tests, NULL, NULL);
}
