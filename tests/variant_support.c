/* variant_support.c - the helpers of variant_support.h. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_support.h"
#include "support.h"
#include "variant_support.h"
/* --max-body as the daemon's default (16 KiB): a 25x25 body with a region
 * map must fit in it. */
const struct api_context variant_ctx = {.max_nodes = 5000000,
                                        .max_body = 16 * 1024,
                                        .max_logic_ms = 1000,
                                        .max_batch = 100,
                                        .max_batch_body = 1 << 20};

/* ------------------------------------------------------------------------
 * The verifier
 * ------------------------------------------------------------------------ */

int variant_value_of(char ch) /* answers are upper case */
{
    if (ch >= '1' && ch <= '9')
        return ch - '0';
    if (ch >= 'A' && ch <= 'P')
        return ch - 'A' + 10;
    return 0;
}

char variant_char_of(int d)
{
    return (char)(d == 0 ? '.' : d <= 9 ? '0' + d : 'A' + d - 10);
}

int variant_region_of(const struct variant_rules *r, unsigned i)
{
    unsigned n = r->n, br = r->box_rows, bc = n / br;

    if (r->regions != NULL)
        return r->regions[i] - 'A';
    return (int)((i / n / br) * (n / bc) + (i % n) / bc);
}

/* The windoku group (0-3) of cell i, or -1. */
int variant_window_of(const struct variant_rules *r, unsigned i)
{
    unsigned row = i / 9, col = i % 9;

    if (!r->windoku || row % 4 == 0 || col % 4 == 0)
        return -1;
    return (int)((row / 4) * 2 + col / 4);
}

/* Do cells i and j see each other under r (they must differ)? */
int variant_see(const struct variant_rules *r, unsigned i, unsigned j)
{
    int n = (int)r->n, dr = (int)(i / r->n) - (int)(j / r->n);
    int dc = (int)(i % r->n) - (int)(j % r->n);
    int adr = dr < 0 ? -dr : dr, adc = dc < 0 ? -dc : dc;

    if (dr == 0 || dc == 0 ||
        variant_region_of(r, i) == variant_region_of(r, j))
        return 1;
    if (r->diagonals && ((dr == dc && i / r->n == i % r->n) ||
                         (dr == -dc && (int)(i / r->n + i % r->n) == n - 1)))
        return 1;
    if (variant_window_of(r, i) >= 0 &&
        variant_window_of(r, i) == variant_window_of(r, j))
        return 1;
    if (r->knight && adr * adc == 2)
        return 1;
    return r->king && adr == 1 && adc == 1;
}

/* Fails the test unless sol (n * n characters) is complete, obeys r and
 * keeps every given of puzzle. */
void variant_verify(const struct variant_rules *r, const char *puzzle,
                    const char *sol)
{
    unsigned cells = r->n * r->n;

    for (unsigned i = 0; i < cells; i++) {
        int v = variant_value_of(sol[i]);
        if (v < 1 || v > (int)r->n)
            fail_msg("cell %u is '%c'", i, sol[i]);
        char given = puzzle[i] >= 'a' ? (char)(puzzle[i] - 32) : puzzle[i];
        if (given != '.' && given != '0' && given != sol[i])
            fail_msg("given %u ('%c') became '%c'", i, puzzle[i], sol[i]);
        for (unsigned j = 0; j < i; j++)
            if (sol[j] == sol[i] && variant_see(r, i, j))
                fail_msg("cells %u and %u both hold '%c'", j, i, sol[i]);
    }
}

/* ------------------------------------------------------------------------
 * Requests
 * ------------------------------------------------------------------------ */

cJSON *variant_post(const char *path, const char *body, int status)
{
    struct api_response resp;
    cJSON *root;

    at_call(&variant_ctx, "POST", path, AT_JSON, body, &resp);
    root = cJSON_ParseWithLength(resp.body, resp.body_len);
    if (resp.status != status)
        fail_msg("%s answered %d, want %d: %.*s", path, resp.status, status,
                 (int)resp.body_len, resp.body);
    api_response_free(&resp);
    assert_non_null(root);
    return root;
}

/* Posts and expects the problem `code` at `pointer` (NULL: not checked). */
void variant_problem(const char *path, const char *body, int status,
                     const char *code, const char *pointer)
{
    cJSON *root = variant_post(path, body, status);
    char got[64], at[64] = "";

    snprintf(got, sizeof(got), "%s", support_str(root, "code"));
    if (pointer != NULL)
        snprintf(at, sizeof(at), "%s", support_str(root, "pointer"));
    cJSON_Delete(root);
    assert_string_equal(got, code);
    if (pointer != NULL)
        assert_string_equal(at, pointer);
}

/* The rule members of r as JSON text, each with a leading comma. */
void variant_members(const struct variant_rules *r, char *out, size_t size)
{
    size_t len = 0;

    out[0] = '\0';
    if (r->diagonals)
        len += (size_t)snprintf(out + len, size - len, ",\"diagonals\":true");
    if (r->knight)
        len += (size_t)snprintf(out + len, size - len, ",\"anti_knight\":true");
    if (r->king)
        len += (size_t)snprintf(out + len, size - len, ",\"anti_king\":true");
    if (r->regions)
        len += (size_t)snprintf(out + len, size - len, ",\"regions\":\"%s\"",
                                r->regions);
    if (r->windoku) {
        len += (size_t)snprintf(out + len, size - len, ",\"extra_regions\":[");
        for (int g = 0; g < 4; g++) {
            len += (size_t)snprintf(out + len, size - len, "%s[", g ? "," : "");
            for (int k = 0; k < 9; k++)
                len += (size_t)snprintf(out + len, size - len, "%s[%d,%d]",
                                        k ? "," : "", 1 + (g / 2) * 4 + k / 3,
                                        1 + (g % 2) * 4 + k % 3);
            len += (size_t)snprintf(out + len, size - len, "]");
        }
        len += (size_t)snprintf(out + len, size - len, "]");
    }
    if (r->regions == NULL && r->box_rows > r->n / r->box_rows) /* not the
                                                                   default */
        snprintf(out + len, size - len, ",\"box\":{\"rows\":%u,\"columns\":%u}",
                 r->box_rows, r->n / r->box_rows);
    assert_true(strlen(out) + 1 < size);
}

/* {"board": text in rows or one line, members of r}. */
void variant_body_of(const struct variant_rules *r, const char *text, int rows,
                     char *out, size_t size)
{
    char more[4096];
    size_t len = (size_t)snprintf(out, size, "{\"board\":%s", rows ? "[" : "");

    for (unsigned i = 0; rows && i < r->n; i++)
        len += (size_t)snprintf(out + len, size - len, "%s\"%.*s\"",
                                i ? "," : "", (int)r->n, text + i * r->n);
    if (!rows)
        len += (size_t)snprintf(out + len, size - len, "\"%.*s\"",
                                (int)(r->n * r->n), text);
    variant_members(r, more, sizeof(more));
    snprintf(out + len, size - len, "%s%s}", rows ? "]" : "", more);
    assert_true(strlen(out) + 1 < size);
}

/* The n * n characters of a board member (rows or a line) into out. */
void variant_board_text(const cJSON *v, unsigned n, int rows, char *out)
{
    const cJSON *row;
    unsigned r = 0;

    if (!rows) {
        assert_true(cJSON_IsString(v));
        assert_int_equal(strlen(v->valuestring), n * n);
        memcpy(out, v->valuestring, n * n);
        return;
    }
    assert_true(cJSON_IsArray(v));
    assert_int_equal(cJSON_GetArraySize(v), n);
    cJSON_ArrayForEach(row, v)
    {
        assert_true(cJSON_IsString(row));
        assert_int_equal(strlen(row->valuestring), n);
        memcpy(out + r++ * n, row->valuestring, n);
    }
}

/* A grid that obeys the boxes by construction: cell (r, c) holds
 * (bc * (r mod br) + r div br + c) mod n + 1. Rows are shifts of one
 * another, a column meets every (r mod br, r div br) once, a box every
 * (r mod br, c mod bc) once. */
void variant_formula(const struct variant_rules *r, char *out)
{
    unsigned n = r->n, br = r->box_rows, bc = n / br;

    for (unsigned i = 0; i < n * n; i++) {
        unsigned row = i / n, col = i % n;
        out[i] =
            variant_char_of((int)((bc * (row % br) + row / br + col) % n + 1));
    }
}
