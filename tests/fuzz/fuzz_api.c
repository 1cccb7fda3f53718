/* fuzz_api.c - libFuzzer target for the request path without sockets: the
 * input is the body of POST /solve, handed to api_handle (codec + sudoku +
 * metrics), and the answer is checked against the documented pipeline;
 * /validate, /hint and /grade get the same body and must agree on intake.
 * Each input is also sent wrapped as {"board":"<bytes>"} and as
 * {"board":["<9 bytes>", ...]} so the board checks are reached often. Every
 * body the codec's hand reader takes must decode the same through cJSON. This
 * harness parses answers with cJSON: it is a test, not the codec module. */
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "codec.h"
#include "../../src/codec/codec_internal.h" /* the hand reader against cJSON */
#include "metrics.h"
#include "sudoku.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A small budget keeps one input around a millisecond. */
#define FUZZ_MAX_NODES 20000
#define FUZZ_MAX_BODY 16384 /* the daemon's default --max-body */
#define WRAP_MAX 200        /* longest input also sent wrapped */
#define REQUEST_ID "fuzz-42"
#define FUZZ_MAX_BATCH 64
#define FUZZ_BATCH_SEARCHES 3 /* the batch budget, in whole searches */

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond))                                                           \
            __builtin_trap();                                                  \
    } while (0)

static struct api_context ctx;
static unsigned long calls;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    ctx.max_nodes = FUZZ_MAX_NODES;
    ctx.max_killer_nodes = FUZZ_MAX_NODES;
    ctx.max_body = FUZZ_MAX_BODY;
    ctx.max_batch = FUZZ_MAX_BATCH;
    ctx.max_batch_body = FUZZ_MAX_BODY;
    ctx.max_batch_nodes = FUZZ_BATCH_SEARCHES * FUZZ_MAX_NODES;
    ctx.cors_origins = NULL;
    ctx.metrics = metrics_create(api_route_label, API_NROUTES, "fuzz");
    if (ctx.metrics == NULL)
        abort();
    return 0;
}

/* ------------------------------------------------------------------------
 * What the answer must be
 * ------------------------------------------------------------------------ */

/* The status and code that codec + sudoku predict for a body; code NULL
 * when the board reaches the search (any search outcome is then fine). A
 * killer body (a "cages" member) is judged on its board the same way; past
 * that, its cages may still be refused (400 or 422 cage_*). */
struct expect {
    int status;
    const char *code;
    int decoded;               /* codec_decode_board said OK */
    int killer;                /* decoded, with a "cages" member */
    int board_stage;           /* code is from sudoku_parse/conflicts */
    int variant;               /* a body for the generic engine (cover.h) */
    struct codec_board board;  /* valid when decoded */
    struct sudoku_grid puzzle; /* valid when code is NULL or "conflict" */
};

/* A body that is not {"board": 9x9} alone may be one of another size or
 * with rule members, as api_read_puzzle decides. 1 with *e set when it is:
 * a malformed one must get its decoding's problem on every route, a
 * well-formed one anything a search may answer (checked loosely). */
static int predict_variant(const char *body, size_t len, struct expect *e)
{
    static const struct {
        enum codec_status st;
        int status;
        const char *code;
    } map[] = {
        {CODEC_OK, 0, NULL},
        {CODEC_INVALID_JSON, 400, "invalid_json"},
        {CODEC_INVALID_REQUEST, 400, "invalid_request"},
        {CODEC_INVALID_BOARD, 422, "invalid_board"},
        {CODEC_INVALID_BOX, 422, "invalid_box"},
        {CODEC_INVALID_REGIONS, 422, "invalid_regions"},
        {CODEC_INVALID_EXTRA, 422, "invalid_extra_regions"},
    };
    struct codec_variant *v = malloc(sizeof(*v));
    struct codec_error err;
    enum codec_status st;
    size_t i = 0;

    CHECK(v != NULL);
    st = codec_decode_variant(body, len, v, &err);
    e->variant = v->is_variant;
    free(v);
    if (!e->variant)
        return 0;
    while (i < sizeof(map) / sizeof(map[0]) && map[i].st != st)
        i++;
    CHECK(i < sizeof(map) / sizeof(map[0])); /* no other failure */
    e->status = map[i].status;
    e->code = map[i].code;
    return 1;
}

static void predict(const char *body, size_t len, struct expect *e)
{
    struct codec_error err;
    size_t bad = 0;

    memset(e, 0, sizeof(*e));
    enum codec_status st = codec_decode_board(body, len, &e->board, &err);
    if (!(st == CODEC_OK && e->board.only_board) &&
        predict_variant(body, len, e))
        return;
    switch (st) {
    case CODEC_OK:
        e->decoded = 1;
        break;
    case CODEC_INVALID_JSON:
        CHECK(err.offset >= 0 && (size_t)err.offset <= len);
        e->status = 400, e->code = "invalid_json";
        return;
    case CODEC_INVALID_REQUEST:
        e->status = 400, e->code = "invalid_request";
        return;
    case CODEC_INVALID_BOARD:
        CHECK(strncmp(err.pointer, "/board", 6) == 0);
        CHECK(err.row < 9 && err.column < 9);
        e->status = 422, e->code = "invalid_board";
        return;
    default: /* CODEC_NO_MEMORY: not under the fuzzer */
        CHECK(0);
    }
    CHECK(e->board.shape == CODEC_SHAPE_ROWS ||
          e->board.shape == CODEC_SHAPE_LINE);
    cJSON *root = cJSON_ParseWithLength(body, len);
    e->killer = cJSON_GetObjectItemCaseSensitive(root, "cages") != NULL;
    cJSON_Delete(root);
    if (sudoku_parse(e->board.text, SUDOKU_CELLS, &e->puzzle, &bad) !=
        SUDOKU_OK) {
        CHECK(bad < SUDOKU_CELLS);
        e->status = 422, e->code = "invalid_board", e->board_stage = 1;
    } else if (sudoku_conflicts(&e->puzzle, NULL, 0) > 0) {
        e->status = 422, e->code = "conflict", e->board_stage = 1;
    }
}

static const char *str_member(const cJSON *obj, const char *name)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, name);

    return cJSON_IsString(m) ? m->valuestring : NULL;
}

static double num_member(const cJSON *obj, const char *name)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, name);

    CHECK(cJSON_IsNumber(m));
    return m->valuedouble;
}

/* Does a problem answer the prediction? Malformed cages are a shape error,
 * checked before the characters and rules of the board. */
static int matches(const struct expect *e, int status, const char *code)
{
    if (status == e->status && strcmp(code, e->code) == 0)
        return 1;
    return e->killer && e->board_stage && status == 400 &&
           strcmp(code, "invalid_request") == 0;
}

/* The 200 answer: a solution of the puzzle, in the shape it came in. */
static void check_solution(const cJSON *root, const struct expect *e)
{
    const cJSON *sol = cJSON_GetObjectItemCaseSensitive(root, "solution");
    const cJSON *stats = cJSON_GetObjectItemCaseSensitive(root, "stats");
    struct sudoku_grid grid;
    char text[SUDOKU_CELLS];

    if (e->board.shape == CODEC_SHAPE_LINE) {
        CHECK(cJSON_IsString(sol) && strlen(sol->valuestring) == SUDOKU_CELLS);
        memcpy(text, sol->valuestring, SUDOKU_CELLS);
    } else {
        const cJSON *row;
        int r = 0;
        CHECK(cJSON_IsArray(sol) && cJSON_GetArraySize(sol) == SUDOKU_SIZE);
        cJSON_ArrayForEach(row, sol)
        {
            CHECK(cJSON_IsString(row) &&
                  strlen(row->valuestring) == SUDOKU_SIZE);
            memcpy(text + r++ * SUDOKU_SIZE, row->valuestring, SUDOKU_SIZE);
        }
    }
    CHECK(sudoku_parse(text, SUDOKU_CELLS, &grid, NULL) == SUDOKU_OK);
    CHECK(sudoku_is_solution_of(&e->puzzle, &grid));
    CHECK(cJSON_IsObject(stats));
    double nodes = num_member(stats, "nodes");
    CHECK(nodes >= 1 && nodes <= FUZZ_MAX_NODES);
    CHECK(num_member(stats, "guesses") <= nodes);
    CHECK(num_member(stats, "solve_us") >= 0);
}

/* A problem: RFC 9457 members, our code, and where it points. */
static void check_problem(const cJSON *root, const struct api_response *resp,
                          const struct expect *e)
{
    const char *code = str_member(root, "code");
    const char *type = str_member(root, "type");
    const char *prefix = "urn:sudokud:problem:";
    const cJSON *list;

    CHECK(code != NULL && type != NULL);
    CHECK(strncmp(type, prefix, strlen(prefix)) == 0);
    CHECK(strcmp(type + strlen(prefix), code) == 0);
    CHECK(num_member(root, "status") == resp->status);
    CHECK(str_member(root, "title") != NULL && str_member(root, "detail"));
    CHECK(str_member(root, "request_id") != NULL &&
          strcmp(str_member(root, "request_id"), REQUEST_ID) == 0);
    if (e->code != NULL) {
        CHECK(matches(e, resp->status, code));
    } else if (e->variant) { /* the rules, the characters or the search */
        CHECK(resp->status == 422);
    } else if (e->killer) {
        CHECK(
            (resp->status == 400 && strcmp(code, "invalid_request") == 0) ||
            (resp->status == 422 && (strncmp(code, "cage_", 5) == 0 ||
                                     strcmp(code, "no_solution") == 0 ||
                                     strcmp(code, "multiple_solutions") == 0 ||
                                     strcmp(code, "search_limit") == 0)));
    } else {
        CHECK(resp->status == 422);
        CHECK(strcmp(code, "no_solution") == 0 ||
              strcmp(code, "multiple_solutions") == 0 ||
              strcmp(code, "search_limit") == 0);
        if (strcmp(code, "search_limit") == 0)
            CHECK(num_member(root, "limit") == FUZZ_MAX_NODES);
    }
    if (strcmp(code, "invalid_board") == 0) {
        const char *ptr = str_member(root, "pointer");
        CHECK(ptr != NULL && strncmp(ptr, "/board", 6) == 0);
    }
    if (strcmp(code, "conflict") != 0)
        return;
    list = cJSON_GetObjectItemCaseSensitive(root, "conflicts");
    CHECK(cJSON_IsArray(list) && cJSON_GetArraySize(list) >= 1);
    if (e->variant) /* another size or rule set: e->puzzle is not it */
        return;
    CHECK((size_t)cJSON_GetArraySize(list) ==
          sudoku_conflicts(&e->puzzle, NULL, 0));
    const cJSON *c;
    cJSON_ArrayForEach(c, list)
    {
        const char *unit = str_member(c, "unit");
        double digit = num_member(c, "digit"), index = num_member(c, "index");
        const cJSON *cells = cJSON_GetObjectItemCaseSensitive(c, "cells");
        const cJSON *rc;
        CHECK(unit != NULL &&
              (strcmp(unit, "row") == 0 || strcmp(unit, "column") == 0 ||
               strcmp(unit, "box") == 0));
        CHECK(index >= 0 && index <= 8 && digit >= 1 && digit <= 9);
        CHECK(cJSON_IsArray(cells) && cJSON_GetArraySize(cells) >= 2);
        cJSON_ArrayForEach(rc, cells)
        {
            CHECK(cJSON_IsArray(rc) && cJSON_GetArraySize(rc) == 2);
            int r = cJSON_GetArrayItem(rc, 0)->valueint;
            int col = cJSON_GetArrayItem(rc, 1)->valueint;
            CHECK(r >= 0 && r < 9 && col >= 0 && col < 9);
            CHECK(e->puzzle.cell[r * 9 + col] == (uint8_t)digit);
        }
    }
}

/* ------------------------------------------------------------------------
 * One request
 * ------------------------------------------------------------------------ */

/* /validate, /hint and /grade share the intake of /solve: a malformed body
 * gets the same problem there, a well-formed one a 200 or a 422 problem. */
static void check_same_intake(const char *path, const char *body, size_t len,
                              const struct expect *e)
{
    struct api_request req;
    struct api_response resp;
    cJSON *root;

    memset(&req, 0, sizeof(req));
    req.method = "POST";
    req.path = path;
    req.content_type = "application/json";
    req.body = body;
    req.body_len = len;
    req.request_id = REQUEST_ID;
    api_handle(&ctx, &req, &resp);
    CHECK(resp.route < API_NROUTES &&
          strcmp(api_route_label(resp.route), path) == 0);
    CHECK(resp.body != NULL && strlen(resp.body) == resp.body_len);
    root = cJSON_ParseWithLength(resp.body, resp.body_len);
    CHECK(cJSON_IsObject(root));
    int intake = e->code != NULL && strcmp(e->code, "conflict") != 0;
    if (e->variant && !intake) { /* /validate answers it, the others refuse */
        const char *code = str_member(root, "code");
        CHECK(resp.status == 422 ||
              (resp.status == 200 && strcmp(path, "/validate") == 0));
        CHECK(resp.status == 200 || code != NULL);
    } else if (intake) {
        const char *code = str_member(root, "code");
        CHECK(code != NULL && matches(e, resp.status, code));
    } else {
        CHECK(resp.status == 200 || resp.status == 422 ||
              (e->killer && resp.status == 400));
        if (resp.status != 200) {
            const char *code = str_member(root, "code");
            CHECK(code != NULL && str_member(root, "detail") != NULL);
            CHECK(num_member(root, "status") == resp.status);
        }
    }
    cJSON_Delete(root);
    api_response_free(&resp);
}

/* The hand reader takes a body only when cJSON's path gives the same
 * board. */
static void check_fast(const char *body, size_t len)
{
    struct codec_board fast, general;
    struct codec_error err;
    struct sudoku_grid grid;

    if (!codec_board_fast(body, len, &fast))
        return;
    CHECK(codec_board_general(body, len, &general, &err) == CODEC_OK);
    CHECK(memcmp(fast.text, general.text, SUDOKU_CELLS) == 0);
    CHECK(fast.shape == general.shape);
    CHECK(fast.has_grid && !general.has_grid);
    CHECK(sudoku_parse(general.text, SUDOKU_CELLS, &grid, NULL) == SUDOKU_OK);
    CHECK(memcmp(fast.grid.cell, grid.cell, SUDOKU_CELLS) == 0);
}

static void check_solve(const char *body, size_t len)
{
    struct api_request req;
    struct api_response resp;
    struct expect e;
    cJSON *root;

    check_fast(body, len);
    predict(body, len, &e);
    memset(&req, 0, sizeof(req));
    req.method = "POST";
    req.path = "/solve";
    req.content_type = "application/json";
    req.body = body;
    req.body_len = len;
    req.request_id = REQUEST_ID;

    metrics_request_begin(ctx.metrics);
    api_handle(&ctx, &req, &resp);
    metrics_request_end(ctx.metrics, req.method, resp.route, resp.status, 1);

    CHECK(resp.route == 0);
    CHECK(resp.status == 200 || resp.status == 400 || resp.status == 422);
    CHECK(resp.body != NULL && resp.body_owned);
    CHECK(resp.body[resp.body_len] == '\0' &&
          strlen(resp.body) == resp.body_len);
    CHECK(resp.content_type != NULL &&
          strcmp(resp.content_type, resp.status == 200
                                        ? "application/json"
                                        : "application/problem+json") == 0);
    root = cJSON_ParseWithLength(resp.body, resp.body_len);
    CHECK(cJSON_IsObject(root));
    if (resp.status == 200) {
        /* JSON has no place for a raw NUL byte, inside a string or out */
        CHECK(memchr(body, '\0', len) == NULL);
        CHECK(e.code == NULL);
        if (e.variant)
            CHECK(cJSON_GetObjectItemCaseSensitive(root, "solution"));
        else {
            CHECK(e.decoded);
            check_solution(root, &e);
        }
    } else {
        check_problem(root, &resp, &e);
    }
    cJSON_Delete(root);
    api_response_free(&resp);
    CHECK(resp.body == NULL);
    check_same_intake("/validate", body, len, &e);
    check_same_intake("/hint", body, len, &e);
    check_same_intake("/grade", body, len, &e);
}

/* Appends the bytes as the inside of a JSON string: every byte that is not
 * printable ASCII, and '"' and '\\', as \u00XX, so the result is always
 * valid JSON and each input byte is one character of the decoded string. */
static char *put_string(char *p, const uint8_t *s, size_t n)
{
    *p++ = '"';
    for (size_t i = 0; i < n; i++) {
        if (s[i] < 0x20 || s[i] >= 0x7f || s[i] == '"' || s[i] == '\\')
            p += sprintf(p, "\\u%04x", s[i]);
        else
            *p++ = (char)s[i];
    }
    *p++ = '"';
    return p;
}

/* What codec_decode_board must make of one wrapped byte: itself if ASCII,
 * CODEC_NON_ASCII if not. \u0000 cannot live in a C string: the codec
 * turns it into U+0001. */
static int same_char(char got, uint8_t sent)
{
    if (sent >= 0x80)
        return got == CODEC_NON_ASCII;
    return (uint8_t)got == (sent ? sent : 1);
}

/* {"board":"<all bytes>"}: a board exactly when there are 81 of them. */
static void check_line(const uint8_t *data, size_t size, char *buf)
{
    struct codec_board board;
    struct codec_error err;
    char *p = buf + sprintf(buf, "{\"board\":");
    enum codec_status st;

    p = put_string(p, data, size);
    p += sprintf(p, "}");
    st = codec_decode_board(buf, (size_t)(p - buf), &board, &err);
    if (size == SUDOKU_CELLS) {
        CHECK(st == CODEC_OK && board.shape == CODEC_SHAPE_LINE);
        for (size_t i = 0; i < SUDOKU_CELLS; i++)
            CHECK(same_char(board.text[i], data[i]));
    } else {
        CHECK(st == CODEC_INVALID_BOARD);
        CHECK(strcmp(err.pointer, "/board") == 0);
    }
    check_solve(buf, (size_t)(p - buf));
}

/* {"board":["<9 bytes>", ...]}: consecutive chunks of 9, the last one
 * possibly shorter, up to 11 rows so wrong row counts show up too. */
static void check_rows(const uint8_t *data, size_t size, char *buf)
{
    struct codec_board board;
    struct codec_error err;
    char *p = buf + sprintf(buf, "{\"board\":[");
    size_t nrows = (size + SUDOKU_SIZE - 1) / SUDOKU_SIZE;
    enum codec_status st;

    if (nrows > 11)
        nrows = 11;
    for (size_t r = 0; r < nrows; r++) {
        size_t from = r * SUDOKU_SIZE;
        size_t n = size - from < SUDOKU_SIZE ? size - from : SUDOKU_SIZE;
        if (r > 0)
            *p++ = ',';
        p = put_string(p, data + from, n);
    }
    p += sprintf(p, "]}");
    st = codec_decode_board(buf, (size_t)(p - buf), &board, &err);
    if (nrows == SUDOKU_SIZE && size == SUDOKU_CELLS) {
        CHECK(st == CODEC_OK && board.shape == CODEC_SHAPE_ROWS);
        for (size_t i = 0; i < SUDOKU_CELLS; i++)
            CHECK(same_char(board.text[i], data[i]));
    } else {
        CHECK(st == CODEC_INVALID_BOARD);
        CHECK(strncmp(err.pointer, "/board", 6) == 0);
    }
    check_solve(buf, (size_t)(p - buf));
}

/* ------------------------------------------------------------------------
 * Batches
 * ------------------------------------------------------------------------ */

/* The items and keys of a cJSON tree: what parsing it cost. */
static size_t tree_values(const cJSON *item)
{
    size_t n = 0;

    for (; item != NULL; item = item->next)
        n += 1 + (item->string != NULL) + tree_values(item->child);
    return n;
}

/* One batch result: index i, a solution or a problem. Returns its code
 * (NULL for a solution). */
static const char *check_batch_result(const cJSON *item, size_t i)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(item, "problem");

    CHECK(cJSON_IsObject(item) && num_member(item, "index") == (double)i);
    if (p == NULL) {
        CHECK(cJSON_GetObjectItemCaseSensitive(item, "solution") != NULL);
        return NULL;
    }
    CHECK(str_member(p, "code") != NULL && str_member(p, "detail") != NULL);
    CHECK(num_member(p, "status") >= 400);
    return str_member(p, "code");
}

/* The batch's node budget holds: at most FUZZ_BATCH_SEARCHES searches use
 * a whole --max-nodes, and once one puzzle found the budget spent, no
 * later one is searched. */
static void check_budget(const char *code, int *limits, int *spent)
{
    int searched = code == NULL || strcmp(code, "conflict") == 0 ||
                   strcmp(code, "no_solution") == 0 ||
                   strcmp(code, "multiple_solutions") == 0 ||
                   strcmp(code, "search_limit") == 0;

    *limits += code != NULL && strcmp(code, "search_limit") == 0;
    CHECK(*limits <= FUZZ_BATCH_SEARCHES);
    CHECK(!(*spent && searched));
    if (code != NULL && strcmp(code, "batch_budget_exhausted") == 0)
        *spent = 1;
}

/* The input as a batch body, in either form: a whole answer (every result
 * in order, budget kept) or a problem; a JSON body that is parsed holds
 * no more values than its boards may have. */
static void check_batch(const char *body, size_t len, int ndjson)
{
    struct api_request req;
    struct api_response resp;
    cJSON *root;
    int limits = 0, spent = 0;
    size_t i = 0;

    memset(&req, 0, sizeof(req));
    req.method = "POST";
    req.path = "/solve/batch";
    req.content_type = ndjson ? "application/x-ndjson" : "application/json";
    req.body = body;
    req.body_len = len;
    req.request_id = REQUEST_ID;
    api_handle(&ctx, &req, &resp);
    CHECK(resp.status == 200 || resp.status == 400 || resp.status == 413);
    CHECK(resp.body != NULL || (resp.status == 200 && resp.body_len == 0));
    if (resp.status != 200) {
        root = cJSON_ParseWithLength(resp.body, resp.body_len);
        CHECK(cJSON_IsObject(root) && str_member(root, "code") != NULL);
        cJSON_Delete(root);
        api_response_free(&resp);
        return;
    }
    if (ndjson) {
        for (const char *p = resp.body, *end = p + resp.body_len; p < end;) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            CHECK(nl != NULL);
            root = cJSON_ParseWithLength(p, (size_t)(nl - p));
            check_budget(check_batch_result(root, i++), &limits, &spent);
            cJSON_Delete(root);
            p = nl + 1;
        }
    } else {
        const cJSON *item, *results;
        cJSON *sent = cJSON_ParseWithLength(body, len);
        CHECK(sent != NULL);
        CHECK(tree_values(sent) <= 10 * FUZZ_MAX_BATCH + 32);
        cJSON_Delete(sent);
        root = cJSON_ParseWithLength(resp.body, resp.body_len);
        results = cJSON_GetObjectItemCaseSensitive(root, "results");
        CHECK(cJSON_IsArray(results));
        cJSON_ArrayForEach(item, results)
            check_budget(check_batch_result(item, i++), &limits, &spent);
        CHECK(num_member(cJSON_GetObjectItemCaseSensitive(root, "stats"),
                         "puzzles") == (double)i);
        cJSON_Delete(root);
    }
    CHECK(i <= FUZZ_MAX_BATCH);
    api_response_free(&resp);
}

/* GET /metrics now and then, so rendering sees the counters move. */
static void check_metrics(void)
{
    struct api_request req;
    struct api_response resp;

    memset(&req, 0, sizeof(req));
    req.method = "GET";
    req.path = "/metrics";
    api_handle(&ctx, &req, &resp);
    CHECK(resp.status == 200 && resp.body != NULL && resp.body_len > 0);
    CHECK(strlen(resp.body) == resp.body_len);
    api_response_free(&resp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* "{"board":[" + 11 rows of 9 bytes at 6 each, quotes, commas + "]}" */
    static char buf[32 + WRAP_MAX * 6 + 11 * 3];

    if (size > FUZZ_MAX_BODY) /* the http module answers 413 instead */
        return 0;
    check_solve((const char *)data, size);
    check_batch((const char *)data, size, 0);
    check_batch((const char *)data, size, 1);
    if (size <= WRAP_MAX) {
        check_line(data, size, buf);
        check_rows(data, size, buf);
    }
    if (++calls % 4096 == 0)
        check_metrics();
    return 0;
}
