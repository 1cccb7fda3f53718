/* codec.h - the JSON wire format: decoding request bodies, encoding answers
 * and RFC 9457 problem details. The only module that knows cJSON; no cJSON
 * type appears here. Encoders return heap strings the caller frees. */
#ifndef CODEC_H
#define CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "sudoku.h"

/* How the board came in, so the answer can go out the same way. */
enum codec_shape {
    CODEC_SHAPE_ROWS = 0,  /* ["9.7.....6", ...]: 9 strings of 9 */
    CODEC_SHAPE_LINE,      /* "9.7.....6824.3....": one string of 81 */
};

enum codec_status {
    CODEC_OK = 0,
    CODEC_INVALID_JSON,     /* not JSON at all; err->offset says where */
    CODEC_INVALID_REQUEST,  /* JSON, but not {"board": string|array} */
    CODEC_INVALID_BOARD,    /* wrong number of rows or row length */
    CODEC_NO_MEMORY,
};

/* Where decoding failed. Fields that do not apply are -1. */
struct codec_error {
    long offset;       /* byte offset where JSON parsing stopped */
    int row;           /* 0-based row of the board */
    int column;        /* 0-based column, for a bad character */
    char pointer[32];  /* RFC 6901 JSON pointer of the bad member */
    char detail[160];  /* one sentence for a person */
};

/* Stands for any character outside ASCII in a decoded board: it is never a
 * valid cell, and one byte per character keeps every column in place. */
#define CODEC_NON_ASCII '\x80'

/* A decoded board: 81 characters as sent (CODEC_NON_ASCII for non-ASCII
 * ones), not yet checked. */
struct codec_board {
    char text[SUDOKU_CELLS];
    enum codec_shape shape;
};

/* Decodes a /solve body of `len` bytes (need not be NUL-terminated): an
 * object whose "board" member is 9 strings of 9 characters or one string of
 * 81. Other members are ignored. On failure *err says what and where. */
enum codec_status codec_decode_board(const char *body, size_t len,
                                     struct codec_board *out,
                                     struct codec_error *err);

/* Encodes {"solution": ..., "stats": {...}} with the solution in `shape`.
 * Returns a NUL-terminated heap string (length in *len) or NULL when out of
 * memory. */
char *codec_encode_solution(const struct sudoku_grid *solution,
                            enum codec_shape shape,
                            const struct sudoku_stats *stats,
                            uint64_t solve_us, size_t *len);

/* An RFC 9457 problem. `code` is the stable machine-readable name and also
 * the tail of `type` (urn:sudokud:problem:<code>). Members that do not apply
 * are -1, NULL or 0. */
struct codec_problem {
    int status;
    const char *code;
    const char *title;
    const char *detail;
    const char *pointer;  /* JSON pointer into the request body */
    long offset;          /* byte offset in the body */
    int row, column;      /* 0-based board position */
    long long limit;      /* the limit that was hit (bytes, nodes) */
    const char *request_id; /* the X-Request-Id of the request */
    const struct sudoku_conflict *conflicts;
    size_t nconflicts;
};

/* Sets every optional member of *p to "absent". */
void codec_problem_init(struct codec_problem *p, int status, const char *code,
                        const char *title, const char *detail);

/* Encodes *p as application/problem+json. Returns a heap string (length in
 * *len) or NULL when out of memory. */
char *codec_encode_problem(const struct codec_problem *p, size_t *len);

/* Encodes {"status": "<status>"} for the health endpoints. */
char *codec_encode_status(const char *status, size_t *len);

#endif
