/* api_support.c - helpers of the api suite's parts (see api_support.h). */
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
#include "support.h"

const struct api_context at_default_ctx = {.max_nodes = 200000,
                                           .max_body = 16 * 1024};

void at_call_req(const struct api_context *ctx, struct api_request *req,
                 const char *body, size_t len, struct api_response *resp)
{
    char *copy = NULL;

    if (body != NULL) {
        copy = malloc(len ? len : 1);
        assert_non_null(copy);
        memcpy(copy, body, len);
    }
    req->body = copy;
    req->body_len = len;
    /* Junk first: api_handle must set every member itself. */
    memset(resp, 0x5a, sizeof(*resp));
    api_handle(ctx, req, resp);
    free(copy);
    req->body = NULL;
}

void at_call(const struct api_context *ctx, const char *method,
             const char *path, const char *type, const char *body,
             struct api_response *resp)
{
    struct api_request req = {
        .method = method, .path = path, .content_type = type};

    at_call_req(ctx, &req, body, body ? strlen(body) : 0, resp);
}

void at_solve(const char *body, struct api_response *resp)
{
    at_call(&at_default_ctx, "POST", "/solve", AT_JSON, body, resp);
}

void at_rows_body(char *buf, size_t size, const char *const *rows, size_t n)
{
    size_t len = (size_t)snprintf(buf, size, "{\"board\": [");

    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s\"%s\"",
                                i ? ", " : "", rows[i]);
    snprintf(buf + len, size - len, "]}");
    assert_true(len + 2 < size);
}

void at_line_body(char *buf, size_t size, const char *line)
{
    assert_true((size_t)snprintf(buf, size, "{\"board\": \"%s\"}", line) <
                size);
}

cJSON *at_body_json(const struct api_response *resp)
{
    cJSON *root;

    assert_non_null(resp->body);
    assert_true(resp->body_len > 0);
    root = cJSON_ParseWithLength(resp->body, resp->body_len);
    if (root == NULL)
        fail_msg("body is not JSON: %.*s", (int)resp->body_len, resp->body);
    return root;
}

void at_expect_status(const struct api_response *resp, int status)
{
    if (resp->status != status)
        fail_msg("status %d, expected %d; body: %.*s", resp->status, status,
                 resp->body ? (int)resp->body_len : 0,
                 resp->body ? resp->body : "");
}

void at_absent(const cJSON *obj, const char *name)
{
    if (cJSON_GetObjectItemCaseSensitive(obj, name) != NULL)
        fail_msg("member '%s' should be absent", name);
}

/* Checks an RFC 9457 problem answer and returns its parsed body. */
cJSON *at_problem(const struct api_response *resp, int status, const char *code)
{
    char type[96];
    cJSON *root;

    at_expect_status(resp, status);
    assert_non_null(resp->content_type);
    assert_string_equal(resp->content_type, AT_PROBLEM);
    assert_int_equal(resp->body_owned, 1);
    root = at_body_json(resp);
    assert_true(cJSON_IsObject(root));
    snprintf(type, sizeof(type), "urn:sudokud:problem:%s", code);
    assert_string_equal(support_str(root, "type"), type);
    assert_string_equal(support_str(root, "code"), code);
    assert_true(support_num(root, "status") == status);
    assert_true(strlen(support_str(root, "title")) > 0);
    assert_true(strlen(support_str(root, "detail")) > 0);
    return root;
}

/* at_problem() for POST /solve, then frees everything but the tree. */
cJSON *at_solve_problem(const char *body, int status, const char *code)
{
    struct api_response resp;
    cJSON *root;

    at_solve(body, &resp);
    root = at_problem(&resp, status, code);
    api_response_free(&resp);
    return root;
}

/* Solves body, expects 200 and returns the parsed answer. */
cJSON *at_solve_ok(const struct api_context *ctx, const char *body)
{
    struct api_response resp;
    cJSON *root;
    const cJSON *stats;

    at_call(ctx, "POST", "/solve", AT_JSON, body, &resp);
    at_expect_status(&resp, 200);
    assert_non_null(resp.content_type);
    assert_string_equal(resp.content_type, AT_JSON);
    assert_int_equal(resp.body_owned, 1);
    root = at_body_json(&resp);
    stats = cJSON_GetObjectItemCaseSensitive(root, "stats");
    assert_true(cJSON_IsObject(stats));
    assert_true(support_num(stats, "guesses") >= 0);
    assert_true(support_num(stats, "nodes") >= 1);
    assert_true(support_num(stats, "solve_us") >= 0);
    api_response_free(&resp);
    return root;
}

/* Atomic: the http suites run the daemon's threads in this process. */
static _Atomic unsigned long parses;

unsigned long at_parses(void)
{
    return parses;
}

cJSON *__wrap_cJSON_ParseWithLengthOpts(const char *value, size_t length,
                                        const char **end,
                                        cJSON_bool require_null)
{
    parses++;
    return __real_cJSON_ParseWithLengthOpts(value, length, end, require_null);
}
