/* test_api_intake.c - part of the api suite: the intake decodes each body
 * once. Every puzzle route and /generate is called directly (no socket)
 * and the cJSON parses it made are counted through the link-time wrapper
 * of api_support.c; each answer is checked too, so a request that failed
 * early cannot pass for a cheap one. Also: every problem code of the table
 * (problems.h) is in docs/api.md and openapi.yaml, and every code those
 * list is in the table. Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_support.h"
#include "codec.h"
#include "killer.h"
#include "killer_support.h"
#include "support.h"
#include "tests.h"

static const struct api_context ctx = {
    .max_nodes = 200000, .max_killer_nodes = 200000, .max_body = 64 * 1024};

/* POSTs body to path, expects `status`, and returns the parses it made.
 * The answer is kept in *resp when resp is not NULL (the caller frees
 * it). */
static unsigned long post_counted(const char *path, const char *body,
                                  int status, struct api_response *resp)
{
    struct api_response own;
    struct api_request req = {
        .method = "POST", .path = path, .content_type = "application/json"};
    struct api_response *r = resp ? resp : &own;
    unsigned long before;

    before = at_parses();
    at_call_req(&ctx, &req, body, strlen(body), r);
    before = at_parses() - before;
    if (r->status != status)
        fail_msg("%s: status %d, want %d: %.*s", path, r->status, status,
                 r->body ? (int)r->body_len : 0, r->body ? r->body : "");
    if (resp == NULL)
        api_response_free(&own);
    return before;
}

/* The "puzzle" string of a /generate answer to body, into out. */
static unsigned long generated(const char *body, char *out, size_t size)
{
    struct api_response resp;
    unsigned long n = post_counted("/generate", body, 200, &resp);
    cJSON *root = at_body_json(&resp);

    snprintf(out, size, "%s", support_str(root, "puzzle"));
    cJSON_Delete(root);
    api_response_free(&resp);
    return n;
}

static void plain_solve_parses_nothing(void **state)
{
    (void)state;
    assert_int_equal(post_counted("/solve", SUPPORT_EXAMPLE_BODY, 200, NULL),
                     0);
}

static void solve_with_an_unknown_member_parses_the_body_once(void **state)
{
    (void)state;
    /* Exactly one: the wrapper is linked and counts. */
    assert_int_equal(post_counted("/solve",
                                  "{\"board\": \"" SUPPORT_EXAMPLE
                                  "\", \"client\": \"x\"}",
                                  200, NULL),
                     1);
}

/* A body {"board": ..., "cages": [...]} of the first killer puzzle. */
static void killer_body(char *out, size_t size)
{
    char buf[4096], *bar;
    struct killer_cages k;
    FILE *f = fopen("tests/data/killer_puzzles", "r");
    size_t len;

    assert_non_null(f);
    while (fgets(buf, sizeof(buf), f) && buf[0] == '#')
        ;
    fclose(f);
    bar = strchr(buf + SUDOKU_CELLS + 1, '|');
    assert_non_null(bar);
    assert_int_equal(killer_parse(buf + SUDOKU_CELLS + 1,
                                  (size_t)(bar - buf) - SUDOKU_CELLS - 1, &k,
                                  NULL),
                     KILLER_OK);
    len =
        (size_t)snprintf(out, size, "{\"board\": \"%.81s\", \"cages\": ", buf);
    assert_true(len < size);
    kt_cages_json(&k, out + len, size - len - 1);
    strcat(out, "}");
}

static void killer_solve_parses_the_body_once(void **state)
{
    static char body[16384];

    (void)state;
    killer_body(body, sizeof(body));
    assert_true(post_counted("/solve", body, 200, NULL) <= 1);
}

static void killer_validate_parses_the_body_once(void **state)
{
    static char body[16384];

    (void)state;
    killer_body(body, sizeof(body));
    assert_true(post_counted("/validate", body, 200, NULL) <= 1);
}

static void six_by_six_generate_and_solve_parse_once_each(void **state)
{
    char puzzle[64], body[128];

    (void)state;
    assert_true(
        generated("{\"size\": 6, \"seed\": 1}", puzzle, sizeof(puzzle)) <= 1);
    assert_int_equal(strlen(puzzle), 36);
    snprintf(body, sizeof(body), "{\"board\": \"%s\"}", puzzle);
    assert_true(post_counted("/solve", body, 200, NULL) <= 1);
}

static void solve_with_a_rule_flag_parses_the_body_once(void **state)
{
    char puzzle[128], body[192];

    (void)state;
    assert_true(generated("{\"diagonals\": true, \"seed\": 3}", puzzle,
                          sizeof(puzzle)) <= 1);
    snprintf(body, sizeof(body), "{\"board\": \"%s\", \"diagonals\": true}",
             puzzle);
    assert_true(post_counted("/solve", body, 200, NULL) <= 1);
}

static void classic_generate_parses_the_body_once(void **state)
{
    char puzzle[128];

    (void)state;
    assert_true(generated("{\"difficulty\": \"easy\", \"seed\": 7}", puzzle,
                          sizeof(puzzle)) <= 1);
}

static void plain_validate_hint_grade_explain_parse_at_most_once(void **state)
{
    static const char *const paths[] = {"/validate", "/hint", "/grade",
                                        "/explain"};
    static const char *const bodies[] = {
        SUPPORT_EXAMPLE_BODY,
        "{\"board\": \"" SUPPORT_EXAMPLE "\", \"client\": \"x\"}",
    };

    (void)state;
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
        for (size_t b = 0; b < 2; b++)
            if (post_counted(paths[i], bodies[b], 200, NULL) > 1)
                fail_msg("%s parsed body %zu more than once", paths[i], b);
}

/* ------------------------------------------------------------------------
 * The problem table and the documents
 * ------------------------------------------------------------------------ */

/* The whole file, NUL-terminated (the caller frees it). */
static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;

    if (f == NULL)
        fail_msg("cannot open %s (run from the repository root)", path);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int in_table(const char *code, size_t len)
{
    for (size_t i = 0; i < CODEC_NPROBLEMS; i++)
        if (strlen(codec_problem_types[i].code) == len &&
            memcmp(codec_problem_types[i].code, code, len) == 0)
            return 1;
    return 0;
}

/* The codes of docs/api.md's problem table, each `code` of the second
 * column of a row that begins with a status: "| 422 | `a`, `b` | ...". */
static size_t docs_codes(const char *md, char codes[][48], size_t max)
{
    size_t n = 0;

    for (const char *line = md; line && *line;
         line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *col, *end, *p;
        if (strncmp(line, "| ", 2) != 0 || line[2] < '1' || line[2] > '5' ||
            line[5] != ' ')
            continue;
        col = strchr(line + 1, '|');
        end = col ? strchr(col + 1, '|') : NULL;
        for (p = col; p && end && (p = memchr(p, '`', (size_t)(end - p)));) {
            const char *q = memchr(p + 1, '`', (size_t)(end - p - 1));
            assert_non_null(q);
            assert_true(n < max && (size_t)(q - p - 1) < 48);
            snprintf(codes[n++], 48, "%.*s", (int)(q - p - 1), p + 1);
            p = q + 1;
        }
    }
    return n;
}

/* The codes of openapi.yaml's Problem `code` enum: the "- name" lines
 * after the "enum:" under "The stable name of the problem". */
static size_t openapi_codes(const char *yaml, char codes[][48], size_t max)
{
    const char *p = strstr(yaml, "The stable name of the problem");
    size_t n = 0;

    assert_non_null(p);
    p = strstr(p, "enum:");
    assert_non_null(p);
    p = strchr(p, '\n') + 1;
    for (;;) {
        const char *s = p, *eol = strchr(p, '\n');
        while (*s == ' ')
            s++;
        if (strncmp(s, "- ", 2) != 0 || eol == NULL)
            break;
        assert_true(n < max && (size_t)(eol - s - 2) < 48);
        snprintf(codes[n++], 48, "%.*s", (int)(eol - s - 2), s + 2);
        p = eol + 1;
    }
    return n;
}

static int listed(char codes[][48], size_t n, const char *code)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(codes[i], code) == 0)
            return 1;
    return 0;
}

static void problem_codes_agree_with_the_docs_both_ways(void **state)
{
    static char md_codes[128][48], yaml_codes[128][48];
    char *md = read_all("docs/api.md"), *yaml = read_all("openapi.yaml");
    size_t nmd = docs_codes(md, md_codes, 128);
    size_t nyaml = openapi_codes(yaml, yaml_codes, 128);

    (void)state;
    assert_true(nmd > 10 && nyaml > 10);
    for (size_t i = 0; i < CODEC_NPROBLEMS; i++) {
        const char *code = codec_problem_types[i].code;
        if (!listed(md_codes, nmd, code))
            fail_msg("%s is not in docs/api.md's problem table", code);
        if (!listed(yaml_codes, nyaml, code))
            fail_msg("%s is not in openapi.yaml's Problem code enum", code);
    }
    for (size_t i = 0; i < nmd; i++)
        if (!in_table(md_codes[i], strlen(md_codes[i])))
            fail_msg("docs/api.md lists %s, which problems.h has not",
                     md_codes[i]);
    for (size_t i = 0; i < nyaml; i++)
        if (!in_table(yaml_codes[i], strlen(yaml_codes[i])))
            fail_msg("openapi.yaml lists %s, which problems.h has not",
                     yaml_codes[i]);
    free(md);
    free(yaml);
}

int test_api_intake(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_solve_parses_nothing),
        cmocka_unit_test(solve_with_an_unknown_member_parses_the_body_once),
        cmocka_unit_test(killer_solve_parses_the_body_once),
        cmocka_unit_test(killer_validate_parses_the_body_once),
        cmocka_unit_test(six_by_six_generate_and_solve_parse_once_each),
        cmocka_unit_test(solve_with_a_rule_flag_parses_the_body_once),
        cmocka_unit_test(classic_generate_parses_the_body_once),
        cmocka_unit_test(plain_validate_hint_grade_explain_parse_at_most_once),
        cmocka_unit_test(problem_codes_agree_with_the_docs_both_ways),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("api_intake", tests, NULL, NULL);
}
