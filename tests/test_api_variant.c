/* test_api_variant.c - cmocka tests of other sizes and variant rules on the
 * routes (src/api/api_intake.c, api_judge.c, api_generate.c), called directly
 * with request values. Every solution is checked by a rule verifier written
 * independently of the engine (tests/variant_support.c) (rows, columns, boxes
 * or regions, diagonals, extra regions, knight and king moves), and must keep
 * the puzzle's givens. Puzzles come from a formula (a grid that obeys the boxes
 * by construction, one blank per row) and from POST /generate, whose answers
 * are verified the same way and counted unique with cover_count. */
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
#include "cover.h"
#include "support.h"
#include "variant_support.h"
#include "tests.h"

#define JSON "application/json"

/* ------------------------------------------------------------------------
 * Every size, from a formula
 * ------------------------------------------------------------------------ */

static const struct variant_rules boxes[] = {
    {4, 2, NULL, 0, 0, 0, 0},  {6, 2, NULL, 0, 0, 0, 0},
    {8, 2, NULL, 0, 0, 0, 0},  {9, 3, NULL, 0, 0, 0, 0},
    {12, 3, NULL, 0, 0, 0, 0}, {16, 4, NULL, 0, 0, 0, 0},
    {25, 5, NULL, 0, 0, 0, 0},
};

static void solve_every_size(void **state)
{
    static char body[16384], grid[COVER_MAX_CELLS], puzzle[COVER_MAX_CELLS],
        sol[COVER_MAX_CELLS];

    (void)state;
    for (size_t k = 0; k < sizeof(boxes) / sizeof(boxes[0]); k++) {
        const struct variant_rules *r = &boxes[k];
        variant_formula(r, grid);
        variant_verify(r, grid, grid); /* the formula against the verifier */
        memcpy(puzzle, grid, r->n * r->n);
        for (unsigned row = 0; row < r->n; row++) /* 7 is prime to n */
            puzzle[row * r->n + (row * 7 + 3) % r->n] = row % 2 ? '0' : '.';
        for (unsigned i = 0; i < r->n * r->n; i++) /* letters in any case */
            if (puzzle[i] >= 'A' && i % 2)
                puzzle[i] = (char)(puzzle[i] + 32);
        for (int rows = 0; rows < 2; rows++) {
            cJSON *root;
            variant_body_of(r, puzzle, rows, body, sizeof(body));
            assert_true(strlen(body) < variant_ctx.max_body);
            root = variant_post("/solve", body, 200);
            variant_board_text(
                cJSON_GetObjectItemCaseSensitive(root, "solution"), r->n, rows,
                sol);
            cJSON_Delete(root);
            variant_verify(r, puzzle, sol);
            assert_memory_equal(sol, grid, r->n * r->n);
        }
    }
}

/* ------------------------------------------------------------------------
 * Every variant, from POST /generate
 * ------------------------------------------------------------------------ */

/* 9x9 boxes with two pairs of cells swapped between neighbours: every
 * region still 9 connected cells. */
#define JIGSAW9                                                                \
    "AAAABBCCCAAABBBCCCAABBBBCCCDDDEEEEFFDDDEEFFFFDDDEEEFFFGGGHHHIIIGGGHHHIII" \
    "GGGHHHIII"

static const struct variant_rules variants[] = {
    {4, 2, NULL, 0, 0, 0, 0},  {6, 2, NULL, 0, 0, 0, 0},
    {6, 3, NULL, 0, 0, 0, 0},  {8, 2, NULL, 1, 0, 0, 0},
    {9, 3, NULL, 1, 0, 0, 0},  {9, 3, NULL, 0, 1, 0, 0},
    {9, 3, NULL, 0, 0, 1, 0},  {9, 3, JIGSAW9, 0, 0, 0, 0},
    {9, 3, NULL, 0, 0, 0, 1},  {9, 3, JIGSAW9, 1, 0, 0, 0},
    {12, 3, NULL, 0, 0, 0, 0}, {16, 4, NULL, 0, 0, 0, 0},
    {16, 4, NULL, 1, 0, 0, 0}, {25, 5, NULL, 0, 0, 0, 0},
};

/* The rules of r for cover_count, built from the test's own view. */
static void cover_rules_of(const struct variant_rules *r, struct cover_rules *c)
{
    assert_int_equal(cover_rules_init(c, r->n), COVER_OK);
    c->box_rows = (uint8_t)r->box_rows;
    c->box_cols = (uint8_t)(r->n / r->box_rows);
    c->diagonals = r->diagonals;
    c->anti_knight = r->knight;
    c->anti_king = r->king;
    if (r->regions != NULL) {
        c->has_regions = 1;
        for (unsigned i = 0; i < r->n * r->n; i++)
            c->region[i] = (uint8_t)(r->regions[i] - 'A');
    }
    for (unsigned i = 0; r->windoku && i < 81; i++) {
        int w = variant_window_of(r, i);
        if (w >= 0)
            c->extra[w].cell[c->extra[w].ncells++] = (uint16_t)i;
    }
    c->nextra = r->windoku ? 4 : 0;
    assert_int_equal(cover_rules_check(c, NULL, NULL, 0), COVER_OK);
}

/* POST /generate for r with `seed`: the puzzle and solution (lines). */
static void generate(const struct variant_rules *r, unsigned seed, char *puzzle,
                     char *sol)
{
    char body[8192], more[4096];
    cJSON *root;

    variant_members(r, more, sizeof(more));
    snprintf(body, sizeof(body), "{\"size\":%u,\"seed\":%u%s}", r->n, seed,
             more);
    root = variant_post("/generate", body, 200);
    assert_true(support_num(root, "size") == r->n);
    assert_true(support_num(root, "seed") == seed);
    variant_board_text(cJSON_GetObjectItemCaseSensitive(root, "puzzle"), r->n,
                       0, puzzle);
    variant_board_text(cJSON_GetObjectItemCaseSensitive(root, "solution"), r->n,
                       0, sol);
    cJSON_Delete(root);
}

static void generate_solve_round_trip(void **state)
{
    static char body[16384], puzzle[COVER_MAX_CELLS], gen[COVER_MAX_CELLS],
        sol[COVER_MAX_CELLS], again[COVER_MAX_CELLS];
    struct cover_rules c;
    struct cover_grid g;
    unsigned count = 0;
    size_t bad;

    (void)state;
    for (size_t k = 0; k < sizeof(variants) / sizeof(variants[0]); k++) {
        const struct variant_rules *r = &variants[k];
        cJSON *root;
        generate(r, 7 + (unsigned)k, puzzle, gen);
        variant_verify(r, puzzle, gen);
        /* unique, by the engine's own count */
        cover_rules_of(r, &c);
        assert_int_equal(cover_parse(puzzle, r->n * r->n, r->n, &g, &bad),
                         COVER_OK);
        assert_int_equal(cover_count(&c, &g, 2, 0, NULL, &count, NULL),
                         COVER_OK);
        assert_int_equal(count, 1);
        variant_body_of(r, puzzle, k % 2, body, sizeof(body));
        root = variant_post("/solve", body, 200);
        variant_board_text(cJSON_GetObjectItemCaseSensitive(root, "solution"),
                           r->n, k % 2, sol);
        cJSON_Delete(root);
        variant_verify(r, puzzle, sol);
        assert_memory_equal(sol, gen, r->n * r->n);
    }
    /* seeded: the same seed gives the same puzzle */
    generate(&variants[11], 99, puzzle, gen);
    generate(&variants[11], 99, again, sol);
    assert_memory_equal(puzzle, again, 256);
}

/* ------------------------------------------------------------------------
 * Verdicts: conflicts per unit, several solutions
 * ------------------------------------------------------------------------ */

/* A blank n x n board with `digit` at the cells (r, c) of `at`. */
static void two_givens(unsigned n, char digit, const int at[2][2], char *out)
{
    memset(out, '.', n * n);
    out[n * n] = '\0';
    for (int k = 0; k < 2; k++)
        out[at[k][0] * (int)n + at[k][1]] = digit;
}

struct unit_case {
    struct variant_rules r;
    char digit;
    int at[2][2];
    const char *unit;
    int index;
};

static void conflicts_per_unit(void **state)
{
    static const struct unit_case cases[] = {
        {{16, 4, NULL, 0, 0, 0, 0}, 'G', {{0, 0}, {0, 5}}, "row", 0},
        {{9, 3, NULL, 1, 0, 0, 0}, '5', {{0, 0}, {4, 4}}, "diagonal", 0},
        {{9, 3, NULL, 1, 0, 0, 0}, '5', {{0, 8}, {4, 4}}, "diagonal", 1},
        {{4, 2, "AAABACBBCCDBCDDD", 0, 0, 0, 0},
         '1',
         {{0, 2}, {1, 0}},
         "region",
         0},
        {{9, 3, NULL, 0, 1, 0, 0}, '3', {{0, 2}, {2, 3}}, "knight", 0},
        {{9, 3, NULL, 0, 0, 1, 0}, '4', {{2, 2}, {3, 3}}, "king", 0},
        {{9, 3, NULL, 0, 0, 0, 1}, '2', {{1, 1}, {3, 3}}, "extra", 0},
    };
    static char board[COVER_MAX_CELLS + 1], body[8192];

    (void)state;
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        const struct unit_case *u = &cases[k];
        int digit = variant_value_of(u->digit);
        const cJSON *list;
        cJSON *root;
        two_givens(u->r.n, u->digit, u->at, board);
        variant_body_of(&u->r, board, 1, body, sizeof(body));
        root = variant_post("/solve", body, 422);
        assert_string_equal(support_str(root, "code"), "conflict");
        list = cJSON_GetObjectItemCaseSensitive(root, "conflicts");
        assert_int_equal(cJSON_GetArraySize(list), 1);
        support_check_conflict(cJSON_GetArrayItem(list, 0), u->unit, u->index,
                               digit, u->at, 2);
        cJSON_Delete(root);
        root = variant_post("/validate", body, 200);
        assert_true(cJSON_IsFalse(cJSON_GetObjectItem(root, "valid")));
        assert_true(support_num(root, "solutions") == 0);
        list = cJSON_GetObjectItemCaseSensitive(root, "conflicts");
        assert_int_equal(cJSON_GetArraySize(list), 1);
        support_check_conflict(cJSON_GetArrayItem(list, 0), u->unit, u->index,
                               digit, u->at, 2);
        cJSON_Delete(root);
    }
}

/* A board with two solutions gets the code a classic one gets. */
static void several_solutions(void **state)
{
    static char body[4096], classic_code[64];
    static const struct variant_rules r4 = {4, 2, NULL, 0, 0, 0, 0};
    cJSON *root;
    char blank[17];

    (void)state;
    root = variant_post("/solve",
                        "{\"board\":\"" /* classic, empty */
                        ".................................................."
                        "...............................\"}",
                        422);
    snprintf(classic_code, sizeof(classic_code), "%s",
             support_str(root, "code"));
    cJSON_Delete(root);
    memset(blank, '.', 16);
    blank[16] = '\0';
    variant_body_of(&r4, blank, 0, body, sizeof(body));
    variant_problem("/solve", body, 422, classic_code, NULL);
    root = variant_post("/validate", body, 200);
    assert_true(support_num(root, "solutions") == 2);
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(root, "valid")));
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(root, "complete")));
    cJSON_Delete(root);
}

/* /validate of a generated puzzle: valid, one solution. */
static void validate_unique(void **state)
{
    static char body[16384], puzzle[COVER_MAX_CELLS], sol[COVER_MAX_CELLS];
    cJSON *root;

    (void)state;
    generate(&variants[7], 5, puzzle, sol); /* jigsaw */
    variant_body_of(&variants[7], puzzle, 1, body, sizeof(body));
    root = variant_post("/validate", body, 200);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(root, "valid")));
    assert_true(support_num(root, "solutions") == 1);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "conflicts")),
                     0);
    cJSON_Delete(root);
    variant_body_of(&variants[7], sol, 0, body, sizeof(body));
    root = variant_post("/validate", body, 200);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(root, "complete")));
    cJSON_Delete(root);
}

/* ------------------------------------------------------------------------
 * Malformed members, and routes that take classic boards only
 * ------------------------------------------------------------------------ */

#define B4 "{\"board\":[\"1...\",\"....\",\"....\",\"....\"]"

static void malformed_members(void **state)
{
    static const struct {
        const char *path, *body;
        int status;
        const char *code, *pointer;
    } cases[] = {
        {"/solve", "{\"board\":\"1...............\",\"diagonals\":\"yes\"}",
         400, "invalid_request", "/diagonals"},
        {"/solve", "{\"board\":[\"1...\",\"....\",\"..5.\",\"....\"]}", 422,
         "invalid_board", "/board/2"},
        {"/solve", "{\"board\":\"...........G....\"}", 422, "invalid_board",
         "/board"},
        {"/solve",
         "{\"board\":\"" /* 10x10 */
         "...................................................."
         "................................................\"}",
         422, "invalid_board", "/board"},
        {"/solve", B4 ",\"regions\":\"AABBCCDD\"}", 422, "invalid_regions",
         "/regions"},
        {"/solve", B4 ",\"regions\":[\"AABB\",\"AABB\",\"CCDD\",\"CCDE\"]}",
         422, "invalid_regions", "/regions/3"},
        {"/solve", B4 ",\"regions\":[\"AABB\",\"AABB\",\"CCDD\",\"CDCD\"]}",
         422, "invalid_regions", "/regions"},
        {"/solve", B4 ",\"regions\":[\"AAAB\",\"AABB\",\"CCDD\",\"CCDD\"]}",
         422, "invalid_regions", "/regions"},
        {"/solve", B4 ",\"box\":{\"rows\":3,\"columns\":2}}", 422,
         "invalid_box", "/box"},
        {"/solve", B4 ",\"extra_regions\":[[[0,0],[0,4]]]}", 422,
         "invalid_extra_regions", "/extra_regions/0/1"},
        {"/validate", B4 ",\"extra_regions\":[[[0,0],[0,0]]]}", 422,
         "invalid_extra_regions", "/extra_regions/0"},
        {"/solve", B4 ",\"cages\":[{\"sum\":3,\"cells\":[[0,0]]}]}", 422,
         "unsupported_variant", "/cages"},
        {"/generate", "{\"size\":10}", 422, "invalid_size", "/size"},
        {"/generate", "{\"size\":16,\"min_rating\":2.0}", 422,
         "unsupported_variant", "/min_rating"},
        {"/generate", "{\"size\":4,\"difficulty\":\"medium\"}", 422,
         "level_not_offered", "/difficulty"},
        {"/generate", "{\"size\":6,\"difficulty\":\"x\"}", 422,
         "invalid_difficulty", "/difficulty"},
        {"/generate", "{\"size\":4,\"regions\":\"AABBAABBCCDDCDCD\"}", 422,
         "invalid_regions", "/regions"},
        {"/generate", "{\"size\":6,\"symmetry\":\"diagonal\"}", 422,
         "unsupported_variant", "/symmetry"},
    };

    (void)state;
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
        variant_problem(cases[k].path, cases[k].body, cases[k].status,
                        cases[k].code, cases[k].pointer);
}

/* The logic routes take every size (the general engine, api_teach.c):
 * a 16x16 with one blank gets a 200; tests/test_api_teach.c checks the
 * answers. */
static void logic_routes_take_every_size(void **state)
{
    static const char *const paths[] = {"/hint", "/grade", "/explain"};
    static char body[4096], grid[COVER_MAX_CELLS];

    (void)state;
    variant_formula(&boxes[5], grid);
    grid[0] = '.';
    variant_body_of(&boxes[5], grid, 1, body, sizeof(body));
    for (size_t k = 0; k < 3; k++) {
        cJSON_Delete(variant_post(paths[k], body, 200));
        cJSON_Delete(variant_post(paths[k], SUPPORT_EXAMPLE_BODY, 200));
        /* A malformed body is not a variant to refuse: it gets the problem
         * /solve gives it (4 characters are a board of no size). */
        variant_problem(paths[k], "{\"board\": \"1234\"}", 422, "invalid_board",
                        "/board");
        variant_problem(paths[k], "{\"board\": \"1234\", \"diagonals\": 1}",
                        422, "invalid_board", "/board");
    }
    variant_problem("/solve", "{\"board\": \"1234\"}", 422, "invalid_board",
                    "/board");
    variant_problem("/solve", "{\"board\": \"1234\", \"diagonals\": 1}", 422,
                    "invalid_board", "/board");
}

/* The biggest body: 25x25 in rows with a region map in rows and every
 * flag, inside the default --max-body. */
static void largest_body_fits(void **state)
{
    static const struct variant_rules r = {25, 5, NULL, 0, 0, 0, 0};
    static char grid[COVER_MAX_CELLS], body[16384];
    size_t len;
    cJSON *root;

    (void)state;
    variant_formula(&r, grid);
    grid[0] = '.';
    variant_body_of(&r, grid, 1, body, sizeof(body));
    len = strlen(body) - 1; /* without the closing brace */
    len += (size_t)snprintf(body + len, sizeof(body) - len, ",\"regions\":[");
    for (unsigned i = 0; i < 625; i++)
        len += (size_t)snprintf(body + len, sizeof(body) - len, "%s%c%s",
                                i % 25 ? ""
                                : i    ? ",\""
                                       : "\"",
                                'A' + variant_region_of(&r, i),
                                i % 25 == 24 ? "\"" : "");
    snprintf(body + len, sizeof(body) - len,
             "],\"diagonals\":false,\"anti_knight\":false,"
             "\"anti_king\":false}");
    assert_true(strlen(body) < variant_ctx.max_body);
    root = variant_post("/solve", body, 200);
    cJSON_Delete(root);
}

/* A batch mixes sizes and rules per board; each result is the one /solve
 * gives for that board alone, pointers under the board's place. */
static void batch_per_item(void **state)
{
    static char body[16384], grid[COVER_MAX_CELLS], sol[COVER_MAX_CELLS];
    const cJSON *results, *item;
    size_t len;
    cJSON *root;

    (void)state;
    variant_formula(&boxes[5], grid); /* 16x16 */
    grid[17] = '.';
    len =
        (size_t)snprintf(body, sizeof(body), "{\"boards\":[\"%.256s\",", grid);
    len += (size_t)snprintf(body + len, sizeof(body) - len,
                            "{\"board\":\"................\",\"regions\":"
                            "\"AABBAABBCCDDCDCD\"},"
                            "{\"board\":\"1...............\",\"box\":5},"
                            "\"%s\"]}",
                            SUPPORT_EXAMPLE);
    assert_true(len < sizeof(body));
    root = variant_post("/solve/batch", body, 200);
    results = cJSON_GetObjectItemCaseSensitive(root, "results");
    assert_int_equal(cJSON_GetArraySize(results), 4);
    item = cJSON_GetArrayItem(results, 0);
    variant_board_text(cJSON_GetObjectItemCaseSensitive(item, "solution"), 16,
                       0, sol);
    variant_verify(&boxes[5], grid, sol);
    item = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(results, 1),
                                            "problem");
    assert_string_equal(support_str(item, "code"), "invalid_regions");
    assert_string_equal(support_str(item, "pointer"), "/boards/1/regions");
    item = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(results, 2),
                                            "problem");
    assert_string_equal(support_str(item, "code"), "invalid_request");
    assert_string_equal(support_str(item, "pointer"), "/boards/2/box");
    item = cJSON_GetArrayItem(results, 3);
    assert_string_equal(support_str(item, "solution"),
                        SUPPORT_EXAMPLE_SOLUTION);
    cJSON_Delete(root);
}

/* symmetry "rotational": a blank's mirror about the centre is blank. */
static void generate_rotational(void **state)
{
    static const struct variant_rules r = {9, 3, NULL, 1, 0, 0, 0};
    char puzzle[82], sol[82];
    cJSON *root = variant_post("/generate",
                               "{\"diagonals\":true,\"seed\":11,\"symmetry\":"
                               "\"rotational\"}",
                               200);

    (void)state;
    assert_string_equal(support_str(root, "symmetry"), "rotational");
    variant_board_text(cJSON_GetObjectItemCaseSensitive(root, "puzzle"), 9, 0,
                       puzzle);
    variant_board_text(cJSON_GetObjectItemCaseSensitive(root, "solution"), 9, 0,
                       sol);
    cJSON_Delete(root);
    variant_verify(&r, puzzle, sol);
    for (int i = 0; i < 81; i++)
        assert_int_equal(puzzle[i] == '.', puzzle[80 - i] == '.');
}

/* The 4x4 jigsaw AAAB/ACBB/CCDB/CDDD, counted here by brute force: every
 * grid whose rows, columns and regions hold 1-4 once. */
static unsigned count_jigsaw4(const char *map, int *cell, int i)
{
    unsigned n = 0;

    if (i == 16)
        return 1;
    for (int d = 1; d <= 4; d++) {
        int ok = 1;
        for (int j = 0; j < i && ok; j++)
            ok = cell[j] != d ||
                 !(j / 4 == i / 4 || j % 4 == i % 4 || map[j] == map[i]);
        if (ok) {
            cell[i] = d;
            n += count_jigsaw4(map, cell, i + 1);
        }
    }
    return n;
}

/* Rules no grid obeys: /solve says no_solution (no conflict among no
 * givens), /generate the same, with or without a difficulty; a search cut
 * by the budget: search_limit. */
static void no_solution_and_budget(void **state)
{
    static const char map[] = "AAABACBBCCDBCDDD";
    static const struct api_context small = {.max_nodes = 1000,
                                             .max_body = 16 * 1024};
    struct api_request req = {
        .method = "POST", .path = "/solve", .content_type = JSON};
    struct api_response resp;
    static char body[1024];
    int cell[16];
    cJSON *root;

    (void)state;
    assert_int_equal(count_jigsaw4(map, cell, 0), 0);
    snprintf(body, sizeof(body),
             "{\"board\":\"................\",\"regions\":\"%s\"}", map);
    variant_problem("/solve", body, 422, "no_solution", NULL);
    snprintf(body, sizeof(body), "{\"size\":4,\"regions\":\"%s\"}", map);
    variant_problem("/generate", body, 422, "no_solution", NULL);
    /* at a level too: the fill proves it (no 2 s wait, no 503) */
    snprintf(body, sizeof(body),
             "{\"size\":4,\"regions\":\"%s\",\"difficulty\":\"easy\"}", map);
    variant_problem("/generate", body, 422, "no_solution", NULL);
    /* 16x16 blank with diagonals, anti-knight and anti-king: no verdict in
     * 1000 nodes (the verdict does not matter, the budget does). */
    snprintf(body, sizeof(body),
             "{\"board\":\"%0256d\",\"diagonals\":true,"
             "\"anti_knight\":true,\"anti_king\":true}",
             0);
    req.body = body;
    req.body_len = strlen(body);
    api_handle(&small, &req, &resp);
    root = cJSON_ParseWithLength(resp.body, resp.body_len);
    api_response_free(&resp);
    assert_non_null(root);
    assert_string_equal(support_str(root, "code"), "search_limit");
    assert_true(support_num(root, "limit") == 1000);
    cJSON_Delete(root);
}

int test_api_variant(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(solve_every_size),
        cmocka_unit_test(generate_solve_round_trip),
        cmocka_unit_test(generated_rules_and_puzzle_solve_uniquely),
        cmocka_unit_test(conflicts_per_unit),
        cmocka_unit_test(several_solutions),
        cmocka_unit_test(validate_unique),
        cmocka_unit_test(malformed_members),
        cmocka_unit_test(logic_routes_take_every_size),
        cmocka_unit_test(largest_body_fits),
        cmocka_unit_test(batch_per_item),
        cmocka_unit_test(generate_rotational),
        cmocka_unit_test(no_solution_and_budget),
    };
    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("api_variant", tests, NULL, NULL);
}
