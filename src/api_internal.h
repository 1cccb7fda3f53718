/* api_internal.h - what the files of the api module share with each other;
 * not a contract for any other module (include/api.h is). */
#ifndef API_INTERNAL_H
#define API_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "codec.h"
#include "sudoku.h"

#define API_JSON_TYPE "application/json"
#define API_PROBLEM_TYPE "application/problem+json"

/* Sets status, type and body (owned by resp when body is not NULL). */
void api_respond_body(struct api_response *resp, int status, const char *type,
                      char *body, size_t len);

/* Sends p as problem+json, with the request's id; an empty 500 if that
 * cannot be allocated. */
void api_respond_problem(struct api_response *resp,
                         const struct codec_problem *p);

/* A problem with no location members. */
void api_respond_simple(struct api_response *resp, int status,
                        const char *code, const char *title,
                        const char *detail);

/* 422 conflict listing the n conflicts c (n >= 1). */
void api_respond_conflicts(struct api_response *resp,
                           const struct sudoku_conflict *c, size_t n);

/* Reads the board of a puzzle route's JSON body: size limit, media type,
 * JSON and shape (codec), characters. On success fills *board (the text and
 * its shape) and *puzzle and returns 0; otherwise resp holds the problem
 * (413, 415, 400 or 422 invalid_board) and -1 is returned. The rules are
 * not checked: that is the caller's to do or report. */
int api_read_board(const struct api_context *ctx,
                   const struct api_request *req, struct api_response *resp,
                   struct codec_board *board, struct sudoku_grid *puzzle);

/* Microseconds on the monotonic clock. */
uint64_t api_now_us(void);

/* The route handlers of api_solve.c. */
void api_handle_solve(const struct api_context *ctx,
                      const struct api_request *req, struct api_response *resp);

#endif
