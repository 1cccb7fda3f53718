/* codec.h - the JSON wire format: decoding request bodies, encoding answers
 * and RFC 9457 problem details. The only module that knows cJSON; no cJSON
 * type appears here. Encoders return heap strings the caller frees. */
#ifndef CODEC_H
#define CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "cover.h"
#include "killer.h"
#include "problems.h"
#include "sudoku.h"

/* How the board came in, so the answer can go out the same way. */
enum codec_shape {
    CODEC_SHAPE_ROWS = 0, /* ["9.7.....6", ...]: 9 strings of 9 */
    CODEC_SHAPE_LINE,     /* "9.7.....6824.3....": one string of 81 */
};

enum codec_status {
    CODEC_OK = 0,
    CODEC_INVALID_JSON,    /* not JSON at all; err->offset says where */
    CODEC_INVALID_REQUEST, /* JSON, but not {"board": string|array} */
    CODEC_INVALID_BOARD,   /* wrong number of rows or row length */
    CODEC_NO_MEMORY,
    CODEC_TOO_MANY,        /* a batch with more puzzles than allowed */
    CODEC_TOO_COMPLEX,     /* a batch with more JSON values than its
                              boards can have (CODEC_BATCH_VALUES) */
    CODEC_INVALID_BOX,     /* "box" does not tile the board */
    CODEC_INVALID_REGIONS, /* "regions": wrong size or a letter out of range */
    CODEC_INVALID_EXTRA,   /* "extra_regions": a group off the grid, empty,
                              too long, a cell twice, too many groups */
    CODEC_INVALID_SIZE,    /* "size" (of /generate) is not a size */
};

/* Where decoding failed. Fields that do not apply are -1. */
struct codec_error {
    long offset;      /* byte offset where JSON parsing stopped */
    int row;          /* 0-based row of the board */
    int column;       /* 0-based column, for a bad character */
    char pointer[32]; /* RFC 6901 JSON pointer of the bad member */
    char detail[160]; /* one sentence for a person */
};

/* Stands for any character outside ASCII in a decoded board: it is never a
 * valid cell, and one byte per character keeps every column in place. */
#define CODEC_NON_ASCII '\x80'

/* A decoded board: 81 characters as sent (CODEC_NON_ASCII for non-ASCII
 * ones), not yet checked. When has_grid is set the text had only digits
 * and dots, and grid holds it as sudoku_parse would read it. */
struct codec_board {
    char text[SUDOKU_CELLS];
    enum codec_shape shape;
    int only_board; /* the body had no other member (the fast path) */
    int has_grid;
    struct sudoku_grid grid;
};

/* Decodes a /solve body of `len` bytes (need not be NUL-terminated): an
 * object whose "board" member is 9 strings of 9 characters or one string of
 * 81. Other members are ignored. On failure *err says what and where. */
enum codec_status codec_decode_board(const char *body, size_t len,
                                     struct codec_board *out,
                                     struct codec_error *err);

/* The longest solution answer (rows, every stat 20 digits long) with its
 * terminating NUL. */
#define CODEC_SOLUTION_MAX 225

/* Writes {"solution": ..., "stats": {...}} with the solution in `shape`,
 * NUL-terminated, into out (CODEC_SOLUTION_MAX bytes or more). Returns its
 * length. */
size_t codec_write_solution(char *out, const struct sudoku_grid *solution,
                            enum codec_shape shape,
                            const struct sudoku_stats *stats,
                            uint64_t solve_us);

/* The same answer as a heap string (length in *len), or NULL when out of
 * memory. */
char *codec_encode_solution(const struct sudoku_grid *solution,
                            enum codec_shape shape,
                            const struct sudoku_stats *stats, uint64_t solve_us,
                            size_t *len);

/* An RFC 9457 problem. `code` is the stable machine-readable name and also
 * the tail of `type` (urn:sudokud:problem:<code>). Members that do not apply
 * are -1, NULL or 0. */
struct codec_problem {
    int status;
    const char *code;
    const char *title;
    const char *detail;
    const char *pointer;    /* JSON pointer into the request body */
    long offset;            /* byte offset in the body */
    int row, column;        /* 0-based board position */
    long long limit;        /* the limit that was hit (bytes, nodes) */
    const char *request_id; /* the X-Request-Id of the request */
    const char *trace_id;   /* its W3C trace id (traceparent), or NULL */
    const struct sudoku_conflict *conflicts;
    size_t nconflicts;
    /* Killer sudoku: the cage (-1: none), the other cage of an overlap
     * (-1: none), and ncells cells as [row, column] ("cells"). */
    int cage, other_cage;
    const int *cell_rows, *cell_cols;
    size_t ncells;
    /* Sizes and variants: ncover conflicts of the generic engine under
     * cover_rules (its size; "region" for a box of a jigsaw). */
    const struct cover_conflict *cover_conflicts;
    size_t ncover;
    const struct cover_rules *cover_rules;
};

/* Sets *p to problem `id` of the table (problems.h) with `detail`, every
 * optional member "absent". */
void codec_problem_init(struct codec_problem *p, enum codec_problem_id id,
                        const char *detail);

/* The same for a type the table does not hold as a value (the http
 * module's refusals, which carry their own status, code and title). */
void codec_problem_set(struct codec_problem *p,
                       const struct codec_problem_type *type,
                       const char *detail);

/* Encodes *p as application/problem+json. Returns a heap string (length in
 * *len) or NULL when out of memory. */
char *codec_encode_problem(const struct codec_problem *p, size_t *len);

/* Encodes {"status": "<status>"} for the health endpoints. */
char *codec_encode_status(const char *status, size_t *len);

/* A puzzle body for the generic engine. `is_variant` is set when the body
 * is not plain classic: the board is not 9x9 (or is square but of no
 * known size), or one of the rule members is present. rules comes from
 * cover_rules_init(n) with the members set, not yet cover_rules_check'ed. */
struct codec_variant {
    int is_variant;
    enum codec_shape shape;
    char text[COVER_MAX_CELLS]; /* the n * n characters as sent */
    struct cover_rules rules;
    int has_box;
    char at[32];       /* JSON pointer of the puzzle: "", "/boards/3" */
    char board_at[40]; /* and of its board: "/board", "/boards/3/board" */
};

/* ------------------------------------------------------------------------
 * Batches: POST /solve/batch (codec_batch.c)
 * ------------------------------------------------------------------------ */

/* One puzzle of a batch, decoded in full (codec_batch_get): its board, or
 * why it could not be read (then err says where, with pointers such as
 * /boards/3/2). A caller keeps one as scratch; the batch itself holds each
 * puzzle in a record the size of its board (codec_batch.c). */
struct codec_batch_item {
    struct codec_board board;
    enum codec_status status;
    struct codec_error err;
    char at[32]; /* JSON pointer of the board: "/boards/3", "/board", "" */
    /* Set for a board of another size or with rule members (an element
     * {"board": ..., "diagonals": true} or a line like it): `variant` is
     * the board then, and status and err are its decoding's. */
    int is_variant;
    struct codec_variant variant;
};

/* The compact record of one puzzle (codec_batch.c). */
struct codec_batch_held;

struct codec_batch {
    struct codec_batch_held *items; /* n of them, in input order */
    size_t n, cap;
    size_t held_bytes; /* on the heap for the records' boards and errors */
    int parsed_tree;   /* the body was parsed whole into a cJSON tree */
};

/* What a batch's JSON may hold, counted before any cJSON tree is built, so
 * that parsing one batch costs a known amount (docs/operations.md, "Limits"): a
 * board is at most 10 values (an array of 9 strings), so {"boards": [...]} of n
 * boards may hold 10 n + CODEC_BATCH_SLACK values (its envelope, a few odd
 * elements), and one NDJSON line CODEC_BATCH_SLACK. A value is a string (a
 * key too), an object, an array, a number, true, false or null. */
#define CODEC_BATCH_PER_BOARD 10
#define CODEC_BATCH_SLACK 32

/* Decodes a batch body: {"boards": [board, ...]} or, when ndjson is set,
 * one board per line (a board value or {"board": ...}; empty lines are
 * skipped). A line or element that is not a board becomes a failed item;
 * the whole body fails only when it is not JSON (object form), has no
 * "boards" array (CODEC_INVALID_REQUEST), holds more than max_items
 * puzzles (CODEC_TOO_MANY), more JSON values than those puzzles can have
 * (CODEC_TOO_COMPLEX, err->offset holds the number allowed) or memory runs
 * out. An NDJSON line with more than CODEC_BATCH_SLACK values is a failed
 * item (CODEC_INVALID_REQUEST) and is not parsed. On CODEC_OK free *out
 * with codec_batch_free. */
enum codec_status codec_decode_batch(const char *body, size_t len, int ndjson,
                                     size_t max_items, struct codec_batch *out,
                                     struct codec_error *err);
void codec_batch_free(struct codec_batch *b);

/* Puzzle i (< b->n) of a decoded batch, in full, into *out. */
void codec_batch_get(const struct codec_batch *b, size_t i,
                     struct codec_batch_item *out);

/* The answer to a batch, built result by result in input order. */
struct codec_out {
    char *data;
    size_t len, cap;
    int failed;
    int ndjson;
};

void codec_out_begin(struct codec_out *o, int ndjson);
/* Appends n bytes as they are. */
void codec_out_raw(struct codec_out *o, const char *s, size_t n);
void codec_out_solution(struct codec_out *o, size_t index,
                        const struct sudoku_grid *g, enum codec_shape shape);
void codec_out_variant_solution(struct codec_out *o, size_t index,
                                const struct cover_grid *g,
                                enum codec_shape shape);
void codec_out_problem(struct codec_out *o, size_t index,
                       const struct codec_problem *p);
/* Appends the closing part (the JSON form ends with "stats"). */
void codec_out_tail(struct codec_out *o, size_t puzzles, size_t solved,
                    uint64_t solve_us);
/* Hands over what was written since the last take, as a heap string (length
 * in *len), and goes on empty: an answer can be sent in pieces. NULL once
 * memory has run out; every later take is NULL too. */
char *codec_out_take(struct codec_out *o, size_t *len);

/* ------------------------------------------------------------------------
 * The logic routes: /hint, /grade, /explain, /generate (codec_logic.c)
 * ------------------------------------------------------------------------ */

struct logic_step;
struct logic_grade;
struct serate_result;
struct serate_step;

/* The largest seed a request may give: 2^53 - 1, the last integer of the
 * range where every integer is a double (so a JSON number) of its own. */
#define CODEC_SEED_MAX 9007199254740991ULL

/* A hint: the step under its technique name (`technique` overrides the
 * step's own name when not NULL, as for the solution fallback), the
 * explanation, `stuck`, and when next is not NULL a "next_placement" member
 * {cell, digit, technique, steps}: the first placement that the engine
 * reaches after `next_steps` steps. */
struct codec_hint {
    const struct logic_step *step;
    const char *technique;
    const char *explanation;
    int stuck;
    const struct logic_step *next;
    unsigned next_steps;
};
char *codec_encode_hint(const struct codec_hint *h, size_t *len);

/* The name the answers give the rating's reference. */
#define CODEC_RATED_BY "Sudoku Explainer 1.2.1.3 (gsf's serate)"

/* A grade from the two engines: SE's numbers from the SE rater (serate.h)
 * and the technique counts from the logic engine (logic.h). Encoded as
 * {"level", "rating", "pearl", "diamond" (null when SE did not get that
 * far), "rating_lower_bound", "rated_by", "se_hardest" (null without a
 * step), "se_steps", "hardest", "needs_guessing", "steps", "blanks_left",
 * "logic_rating", "budget_exhausted", "techniques": {name: count, ...}}
 * (only the techniques used). A step (in hints and /explain) carries
 * "rating", "links" (the chain, possibly empty) and, for a forcing net,
 * "depth". */
struct codec_grade {
    int level;                      /* enum logic_level */
    const struct serate_result *se; /* rating, pearl, diamond */
    const struct logic_grade *logic;
    int budget_exhausted; /* either engine stopped by the budget */
};
char *codec_encode_grade(const struct codec_grade *g, size_t *len);

/* {"puzzle", "solution" (both in `shape`), "difficulty", "seed" (all its
 * digits), "symmetry", "givens", "attempts", "generate_us", "grade":
 * {...}}. */
struct codec_generated {
    const struct sudoku_grid *puzzle, *solution;
    enum codec_shape shape;
    const struct codec_grade *grade;
    uint64_t seed;
    const char *symmetry;
    unsigned givens, attempts;
    uint64_t generate_us;
};
char *codec_encode_generated(const struct codec_generated *g, size_t *len);

/* POST /explain: {"steps": [step, ...], "complete", "stopped" (null,
 * "time_budget" or "step_cap"), "level", "rating", "solution" (in `shape`),
 * "max_logic_ms", "explain_us", "engine": "logic"}; each step as in a
 * hint, with its "technique" and "explanation". With se_steps (the SE
 * path, "engine": "se"), steps come from there instead, each {"technique"
 * (SE's name), "rating", "placements", "explanation"}, and the answer also
 * has "pearl", "diamond" (or null), "rated_by" and "rating_lower_bound"
 * from se. */
struct codec_explain {
    const struct logic_step *steps;
    const char *const *explanations;
    size_t nsteps;
    int complete;
    const char *stopped;
    int level;       /* enum logic_level */
    unsigned rating; /* tenths */
    const struct sudoku_grid *solution;
    enum codec_shape shape;
    unsigned max_logic_ms;
    uint64_t explain_us;
    const struct serate_step *se_steps; /* NULL: the logic engine's path */
    const struct serate_result *se;
};
char *codec_encode_explain(const struct codec_explain *e, size_t *len);

/* ------------------------------------------------------------------------
 * Sizes and variant rules (codec_variant.c)
 * ------------------------------------------------------------------------ */

/* The rule members a body may carry beside its board (docs/api.md,
 * "Sizes and variants"). */
#define CODEC_VARIANT_MEMBERS                                                  \
    "box, regions, extra_regions, diagonals, anti_knight, anti_king"

/* Decodes a puzzle body of any size with its rule members. On failure
 * *err says what and where (CODEC_INVALID_REQUEST for a wrong type,
 * CODEC_INVALID_BOARD for a board of no size, CODEC_INVALID_BOX,
 * CODEC_INVALID_REGIONS, CODEC_INVALID_EXTRA); out->is_variant is still
 * set when known, so a caller can leave a classic body's errors to
 * codec_decode_board. The characters are not checked (cover_parse does). */
enum codec_status codec_decode_variant(const char *body, size_t len,
                                       struct codec_variant *out,
                                       struct codec_error *err);

/* The same members for /generate, which has no board: "size" (default 9,
 * CODEC_INVALID_SIZE when not a size) and the rule members. is_variant when
 * the size is not 9 or a rule member is present. */
enum codec_status codec_decode_variant_options(const char *body, size_t len,
                                               struct codec_variant *out,
                                               struct codec_error *err);

/* {"solution": board in `shape`, "stats": {...}} for an n x n solution. */
char *codec_encode_variant_solution(const struct cover_grid *g,
                                    enum codec_shape shape,
                                    const struct sudoku_stats *stats,
                                    uint64_t solve_us, size_t *len);

/* /validate, for every kind of puzzle: {"valid", "solutions", "complete",
 * "conflicts": [...]}, the conflicts in the generic engine's units under r
 * (a 9x9 board's are rows, columns and boxes under cover_rules_init(9)). */
char *codec_encode_variant_validate(int valid, unsigned solutions, int complete,
                                    const struct cover_rules *r,
                                    const struct cover_conflict *c, size_t n,
                                    size_t *len);

/* /generate: {"puzzle", "solution" (both in `shape`), "size", "seed",
 * "symmetry", "givens", "generate_us", "rules": {...}}. */
struct teach_walk; /* teach.h */
struct codec_variant_generated {
    const struct cover_grid *puzzle, *solution;
    const struct cover_rules *rules;
    enum codec_shape shape;
    uint64_t seed;
    const char *symmetry; /* "none" or "rotational" */
    unsigned givens;
    uint64_t generate_us;
    /* With "difficulty" (teach_generate_variant): the general engine's
     * grade of puzzle, answered as "difficulty", "attempts" and "grade"
     * (as /grade); NULL: none of them. */
    const struct teach_walk *grade;
    unsigned attempts;
};
char *codec_encode_variant_generated(const struct codec_variant_generated *g,
                                     size_t *len);

/* ------------------------------------------------------------------------
 * The intake: one body, one parse (codec_puzzle.c)
 * ------------------------------------------------------------------------ */

/* What a puzzle body is, and so which engine judges it. */
enum codec_kind {
    CODEC_CLASSIC = 0, /* 9x9, no rule member, no cages: the bitboard solver */
    CODEC_KILLER,      /* 9x9 with "cages": the killer search */
    CODEC_VARIANT,     /* another size or a rule member: exact cover */
};

/* The members of a body, as present (whatever their values). */
#define CODEC_MEMBER_CAGES 1u
#define CODEC_MEMBER_RULES 2u /* one of CODEC_VARIANT_MEMBERS */

/* The "engine" member of a puzzle body (read by /explain; the other
 * routes ignore it): absent, "logic", "se", or present but neither. */
enum codec_engine {
    CODEC_ENGINE_DEFAULT = 0,
    CODEC_ENGINE_LOGIC,
    CODEC_ENGINE_SE,
    CODEC_ENGINE_BAD,
};

/* One puzzle body, decoded once. Which members hold depends on kind; the
 * others are not even cleared, so the plain body costs what it did. */
struct codec_puzzle {
    enum codec_kind kind;
    unsigned members;         /* CODEC_MEMBER_* */
    enum codec_engine engine; /* always set */
    struct codec_board board; /* CLASSIC, KILLER: the 9x9 board */
    /* KILLER: the cages and what decoding them gave (their shape is
     * reported after the board's characters, so it is kept apart). */
    struct killer_cages cages;
    enum codec_status cages_status;
    struct codec_error cages_err;
    struct codec_variant variant; /* VARIANT: the board, size and rules */
};

/* Decodes a puzzle body (/solve, /validate, /hint, /grade, /explain) with at
 * most one cJSON parse: none for {"board": 9x9} alone (board.only_board).
 * Sets out->kind even on failure, and returns the status of the board and
 * rules (classic errors for a classic body, variant ones for a variant);
 * a killer body's cages have their own cages_status. */
enum codec_status codec_decode_puzzle(const char *body, size_t len,
                                      struct codec_puzzle *out,
                                      struct codec_error *err);

/* The body of POST /generate: {"difficulty": s, "seed": n, "symmetry": s,
 * "min_rating": x, "max_rating": x, "killer": b}, every member optional.
 * Strings are copied as sent ("" when absent); the caller checks their values.
 * Ratings (1.0-12.0) are kept in tenths, 0 when absent. */
struct codec_generate_request {
    char difficulty[16];
    char symmetry[16];
    int has_seed;
    uint64_t seed;
    unsigned min_rating, max_rating;
    int killer; /* "killer": true, a killer puzzle (api_teach.c) */
    /* "size" and the rule members, as codec_decode_variant_options reads
     * them: variant.is_variant when the generic engine is asked for. */
    struct codec_variant variant;
};

/* Decodes a /generate body in one parse; CODEC_INVALID_REQUEST (with
 * err->pointer) when a member has the wrong type, a string is too long or
 * the seed is not an integer in 0..CODEC_SEED_MAX. out->variant gets
 * "size" and the rule members too (as codec_decode_variant_options reads
 * them), whose failures come after those. */
enum codec_status codec_decode_generate(const char *body, size_t len,
                                        struct codec_generate_request *out,
                                        struct codec_error *err);

#endif
