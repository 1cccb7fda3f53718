/* test_api_routes.c - part of the api suite (test_api.c): the routes but
 * /solve: the web assets, 404 and 405 with Allow, OPTIONS, /livez,
 * /readyz, /openapi.yaml, a request the http module refused, and freeing
 * a response. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/api/assets.h"
#include "api.h"
#include "api_support.h"
#include "sudoku.h"
#include "support.h"
#include "tests.h"

/* The demo page, its two files and its icon: embedded, with a strict CSP.
 * `start` is how the body begins (`len` bytes; an ICO header has NULs). */
static void route_assets(void **state)
{
    static const struct {
        const char *path, *type, *start;
        size_t len;
    } want[] = {
        {"/", "text/html; charset=utf-8", "<!doctype html>", 15},
        {"/app.js", "text/javascript; charset=utf-8", NULL, 0},
        {"/app.css", "text/css; charset=utf-8", NULL, 0},
        {"/favicon.ico", "image/x-icon", "\0\0\1\0", 4},
    };
    struct api_response resp;

    (void)state;
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        const char *csp = NULL;
        at_call(&at_default_ctx, "GET", want[i].path, NULL, NULL, &resp);
        assert_int_equal(resp.status, 200);
        assert_string_equal(resp.content_type, want[i].type);
        assert_false(resp.body_owned);
        assert_true(resp.body_len > want[i].len);
        if (want[i].start)
            assert_memory_equal(resp.body, want[i].start, want[i].len);
        for (size_t h = 0; h < resp.nheaders; h++)
            if (strcmp(resp.headers[h].name, "Content-Security-Policy") == 0)
                csp = resp.headers[h].value;
        assert_non_null(csp);
        assert_non_null(strstr(csp, "default-src 'none'"));
        assert_null(strstr(csp, "unsafe-inline"));
        api_response_free(&resp);
    }
}

static void route_not_found(void **state)
{
    static const char *const paths[] = {
        "/index.html", "",         "/solve/",       "/SOLVE",   "/app.js/",
        "/solver",     "/livez/x", "/openapi.json", "/readyz/", "solve",
    };
    static const char *const methods[] = {"GET", "POST", "OPTIONS"};
    struct api_response resp;
    cJSON *root;

    (void)state;
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        for (size_t m = 0; m < sizeof(methods) / sizeof(methods[0]); m++) {
            at_call(&at_default_ctx, methods[m], paths[i], AT_JSON, "{}",
                    &resp);
            if (resp.status != 404)
                fail_msg("%s '%s' gave %d", methods[m], paths[i], resp.status);
            root = at_problem(&resp, 404, "not_found");
            assert_null(resp.allow);
            cJSON_Delete(root);
            api_response_free(&resp);
        }
    }
}

static void route_method_not_allowed(void **state)
{
    static const struct {
        const char *method, *path, *allow;
    } cases[] = {
        {"GET", "/solve", "POST, OPTIONS"},
        {"HEAD", "/solve", "POST, OPTIONS"},
        {"PUT", "/solve", "POST, OPTIONS"},
        {"post", "/solve", "POST, OPTIONS"},
        {"POST", "/livez", "GET, HEAD, OPTIONS"},
        {"DELETE", "/livez", "GET, HEAD, OPTIONS"},
        {"POST", "/readyz", "GET, HEAD, OPTIONS"},
        {"PATCH", "/openapi.yaml", "GET, HEAD, OPTIONS"},
        {"get", "/openapi.yaml", "GET, HEAD, OPTIONS"},
    };
    char body[256];
    struct api_response resp;
    cJSON *root;

    (void)state;
    at_rows_body(body, sizeof(body), support_example_rows, SUDOKU_SIZE);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        at_call(&at_default_ctx, cases[i].method, cases[i].path, AT_JSON, body,
                &resp);
        if (resp.status != 405)
            fail_msg("%s %s gave %d", cases[i].method, cases[i].path,
                     resp.status);
        root = at_problem(&resp, 405, "method_not_allowed");
        assert_non_null(resp.allow);
        assert_string_equal(resp.allow, cases[i].allow);
        cJSON_Delete(root);
        api_response_free(&resp);
    }
}

static void route_options(void **state)
{
    static const struct {
        const char *path, *allow;
    } cases[] = {
        {"/solve", "POST, OPTIONS"},
        {"/livez", "GET, HEAD, OPTIONS"},
        {"/readyz", "GET, HEAD, OPTIONS"},
        {"/openapi.yaml", "GET, HEAD, OPTIONS"},
    };
    struct api_response resp;

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        at_call(&at_default_ctx, "OPTIONS", cases[i].path, NULL, NULL, &resp);
        at_expect_status(&resp, 204);
        assert_non_null(resp.allow);
        assert_string_equal(resp.allow, cases[i].allow);
        assert_null(resp.body);
        assert_int_equal(resp.body_len, 0);
        assert_int_equal(resp.body_owned, 0);
        api_response_free(&resp);
    }
}

static void expect_status_body(const char *method, const char *path,
                               int draining, const char *word)
{
    struct api_request req = {
        .method = method, .path = path, .draining = draining};
    struct api_response resp;
    cJSON *root;

    at_call_req(&at_default_ctx, &req, NULL, 0, &resp);
    at_expect_status(&resp, 200);
    assert_non_null(resp.content_type);
    assert_string_equal(resp.content_type, AT_JSON);
    assert_int_equal(resp.body_owned, 1);
    root = at_body_json(&resp);
    assert_int_equal(cJSON_GetArraySize(root), 1);
    assert_string_equal(support_str(root, "status"), word);
    cJSON_Delete(root);
    api_response_free(&resp);
}

static void route_livez(void **state)
{
    (void)state;
    expect_status_body("GET", "/livez", 0, "ok");
    expect_status_body("HEAD", "/livez", 0, "ok");
    /* Alive while draining: only readiness changes. */
    expect_status_body("GET", "/livez", 1, "ok");
}

static void route_readyz(void **state)
{
    static const char *const methods[] = {"GET", "HEAD"};
    struct api_request req = {.path = "/readyz", .draining = 1};
    struct api_response resp;
    cJSON *root;

    (void)state;
    expect_status_body("GET", "/readyz", 0, "ready");
    expect_status_body("HEAD", "/readyz", 0, "ready");
    for (size_t i = 0; i < 2; i++) {
        req.method = methods[i];
        at_call_req(&at_default_ctx, &req, NULL, 0, &resp);
        root = at_problem(&resp, 503, "draining");
        cJSON_Delete(root);
        api_response_free(&resp);
    }
}

static void route_openapi(void **state)
{
    static const char *const methods[] = {"GET", "HEAD"};
    size_t size = (size_t)(api_openapi_yaml_end - api_openapi_yaml);
    struct api_response resp;

    (void)state;
    assert_true(size > 0);
    assert_int_equal(api_openapi_yaml_end[0], '\0');
    for (size_t i = 0; i < 2; i++) {
        at_call(&at_default_ctx, methods[i], "/openapi.yaml", NULL, NULL,
                &resp);
        at_expect_status(&resp, 200);
        assert_non_null(resp.content_type);
        assert_string_equal(resp.content_type, "application/yaml");
        assert_int_equal(resp.body_owned, 0);
        assert_ptr_equal(resp.body, api_openapi_yaml);
        assert_int_equal(resp.body_len, size);
        assert_int_equal(strncmp(resp.body, "openapi:", 8), 0);
        assert_int_equal(strlen(resp.body), size);
        /* A static body is not freed (ASan would see it), just dropped. */
        api_response_free(&resp);
        assert_null(resp.body);
        assert_int_equal(resp.body_owned, 0);
        assert_int_equal(strncmp(api_openapi_yaml, "openapi:", 8), 0);
    }
}

static void response_free_owned(void **state)
{
    struct api_response resp;

    (void)state;
    at_call(&at_default_ctx, "GET", "/nowhere", NULL, NULL, &resp);
    assert_int_equal(resp.body_owned, 1);
    assert_non_null(resp.body);
    api_response_free(&resp);
    assert_null(resp.body);
    assert_int_equal(resp.body_owned, 0);
    api_response_free(&resp); /* twice is harmless */
}

/* A request the http module refused is answered with that problem and
 * nothing else: before the route (a valid /solve body is not solved), the
 * path (an unknown one is not 404), the media type and the job queue; with
 * the request's id in the body. */
static void route_refused(void **state)
{
    static const struct api_refusal refusal = {
        400, "bad_framing", "Ambiguous message length", "two lengths"};
    static const char *const paths[] = {"/solve", "/nope", "/livez"};
    struct api_request req = {.method = "POST",
                              .content_type = "text/plain",
                              .request_id = "rid-1",
                              .queue_full = 1,
                              .refused = &refusal};
    struct api_response resp;
    cJSON *root;

    (void)state;
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        req.path = paths[i];
        at_call_req(&at_default_ctx, &req, SUPPORT_EXAMPLE_BODY,
                    strlen(SUPPORT_EXAMPLE_BODY), &resp);
        root = at_problem(&resp, 400, "bad_framing");
        assert_string_equal(support_str(root, "title"), refusal.title);
        assert_string_equal(support_str(root, "detail"), refusal.detail);
        assert_string_equal(support_str(root, "request_id"), "rid-1");
        assert_int_equal(resp.retry_after, 0);
        cJSON_Delete(root);
        api_response_free(&resp);
    }
}

int test_api_routes(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(route_assets),
        cmocka_unit_test(route_not_found),
        cmocka_unit_test(route_method_not_allowed),
        cmocka_unit_test(route_options),
        cmocka_unit_test(route_livez),
        cmocka_unit_test(route_readyz),
        cmocka_unit_test(route_openapi),
        cmocka_unit_test(route_refused),
        cmocka_unit_test(response_free_owned),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("api_routes", tests, NULL, NULL);
}
