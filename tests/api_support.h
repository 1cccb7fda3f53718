/* api_support.h - what the parts of the api suite (test_api*.c) share:
 * calling api_handle with an exact-size heap copy of the body (freed
 * before the answer is read) and checking the answer. Every helper fails
 * the running test on error. */
#ifndef API_SUPPORT_H
#define API_SUPPORT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "api.h"

#define AT_JSON "application/json"
#define AT_PROBLEM "application/problem+json"

/* The daemon's defaults: 200000 search nodes, 16 KiB of body. */
extern const struct api_context at_default_ctx;

/* api_handle(ctx, req) with a heap copy of body (len bytes; NULL: none)
 * into *resp, which is filled with junk first. at_call builds the request
 * from method, path and Content-Type (NULL: none); at_solve POSTs body as
 * JSON to /solve with at_default_ctx. */
void at_call_req(const struct api_context *ctx, struct api_request *req,
                 const char *body, size_t len, struct api_response *resp);
void at_call(const struct api_context *ctx, const char *method,
             const char *path, const char *type, const char *body,
             struct api_response *resp);
void at_solve(const char *body, struct api_response *resp);

/* {"board": ["r0", "r1", ...]} with the n rows given / {"board": "line"},
 * into buf. */
void at_rows_body(char *buf, size_t size, const char *const *rows, size_t n);
void at_line_body(char *buf, size_t size, const char *line);

/* The answer's body parsed (the caller deletes it); fails if not JSON. */
cJSON *at_body_json(const struct api_response *resp);

/* Fails unless the answer has that status / obj lacks member name. */
void at_expect_status(const struct api_response *resp, int status);
void at_absent(const cJSON *obj, const char *name);

/* Checks an RFC 9457 problem answer with that status and code and returns
 * its parsed body. at_solve_problem does so for POST /solve of body and
 * frees the answer. */
cJSON *at_problem(const struct api_response *resp, int status,
                  const char *code);
cJSON *at_solve_problem(const char *body, int status, const char *code);

/* Solves body with ctx, expects 200 with stats and returns the parsed
 * answer (the caller deletes it). */
cJSON *at_solve_ok(const struct api_context *ctx, const char *body);

/* cJSON parses since the start of the runner: the test runner is linked
 * with -Wl,--wrap=cJSON_ParseWithLengthOpts (the one parse entry the codec
 * calls), and this wrapper counts each call before making it. */
unsigned long at_parses(void);
cJSON *__wrap_cJSON_ParseWithLengthOpts(const char *value, size_t length,
                                        const char **end,
                                        cJSON_bool require_null);
cJSON *__real_cJSON_ParseWithLengthOpts(const char *value, size_t length,
                                        const char **end,
                                        cJSON_bool require_null);

#endif
