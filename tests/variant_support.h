/* variant_support.h - what the tests of sizes and variants share
 * (tests/test_api_variant.c, tests/test_cli_variant.c): the rules of a test
 * puzzle as the tests see them, a rule verifier written independently of
 * the engine, and requests to the api with their bodies. */
#ifndef VARIANT_SUPPORT_H
#define VARIANT_SUPPORT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "api.h"

/* The rules of a test puzzle, as the test sees them. */
struct variant_rules {
    unsigned n, box_rows; /* box_rows x (n / box_rows) boxes */
    const char *regions;  /* n * n region letters, or NULL */
    int diagonals, knight, king;
    int windoku; /* 9x9: the four extra 3x3 groups */
};

/* The context of the requests: --max-body as the daemon's default (16 KiB,
 * which a 25x25 body with a region map must fit), a generous node budget,
 * room for small batches. */
extern const struct api_context variant_ctx;

/* A digit's value ('1'-'9', 'A'-'P'; 0 for anything else) and character. */
int variant_value_of(char ch);
char variant_char_of(int d);

/* The region (box or jigsaw letter) and windoku window (-1: none) of cell i. */
int variant_region_of(const struct variant_rules *r, unsigned i);
int variant_window_of(const struct variant_rules *r, unsigned i);

/* Must cells i and j differ under r? */
int variant_see(const struct variant_rules *r, unsigned i, unsigned j);

/* Fails the test unless sol (n * n characters) is complete, obeys r and
 * keeps every given of puzzle (either case). */
void variant_verify(const struct variant_rules *r, const char *puzzle,
                    const char *sol);

/* POSTs body (an exact-size heap copy) to path and parses the answer,
 * which must have `status`; the caller frees it. */
cJSON *variant_post(const char *path, const char *body, int status);

/* Posts and expects the problem `code` at `pointer` (NULL: not checked). */
void variant_problem(const char *path, const char *body, int status,
                     const char *code, const char *pointer);

/* The rule members of r as JSON text, each with a leading comma. */
void variant_members(const struct variant_rules *r, char *out, size_t size);

/* {"board": text in rows or one line, members of r} into out. */
void variant_body_of(const struct variant_rules *r, const char *text, int rows,
                     char *out, size_t size);

/* The n * n characters of a board member (rows or a line) into out. */
void variant_board_text(const cJSON *v, unsigned n, int rows, char *out);

/* A grid that obeys r's boxes by construction, into out (n * n). */
void variant_formula(const struct variant_rules *r, char *out);

/* tests/test_api_generate_rules.c, run in the "api_variant" suite. */
void generated_rules_and_puzzle_solve_uniquely(void **state);

#endif
