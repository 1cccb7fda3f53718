/* problems.h - every RFC 9457 problem the service answers, in one list: its
 * HTTP status, its stable `code` (also the tail of its type URN) and its
 * title. The list generates enum codec_problem_id and the table of types;
 * docs/api.md and openapi.yaml list the same codes (a test holds them to it).
 * One code may have several entries when its title says more (busy). */
#ifndef CODEC_PROBLEMS_H
#define CODEC_PROBLEMS_H

#define CODEC_PROBLEMS(X)                                                      \
    X(INVALID_JSON, 400, "invalid_json", "Body is not JSON")                   \
    X(INVALID_REQUEST, 400, "invalid_request", "Malformed request")            \
    X(NOT_FOUND, 404, "not_found", "Not found")                                \
    X(METHOD_NOT_ALLOWED, 405, "method_not_allowed", "Method not allowed")     \
    X(BODY_TOO_LARGE, 413, "body_too_large", "Body too large")                 \
    X(BATCH_TOO_LARGE, 413, "batch_too_large", "Batch too large")              \
    X(BATCH_TOO_COMPLEX, 413, "batch_too_complex", "Batch too complex")        \
    X(UNSUPPORTED_MEDIA_TYPE, 415, "unsupported_media_type",                   \
      "Unsupported media type")                                                \
    X(INVALID_BOARD, 422, "invalid_board", "Malformed board")                  \
    X(CONFLICT, 422, "conflict", "Board breaks the rules")                     \
    X(NO_SOLUTION, 422, "no_solution", "No solution")                          \
    X(MULTIPLE_SOLUTIONS, 422, "multiple_solutions", "Multiple solutions")     \
    X(SEARCH_LIMIT, 422, "search_limit", "Search limit reached")               \
    X(BATCH_BUDGET_EXHAUSTED, 422, "batch_budget_exhausted",                   \
      "Batch budget exhausted")                                                \
    X(SHUTTING_DOWN, 503, "shutting_down", "Shutting down")                    \
    X(CAGE_CELL_OUT_OF_RANGE, 422, "cage_cell_out_of_range",                   \
      "Cage cell outside the grid")                                            \
    X(CAGE_OVERLAP, 422, "cage_overlap", "Cell in more than one cage")         \
    X(CAGE_NOT_CONNECTED, 422, "cage_not_connected", "Cage not connected")     \
    X(CAGE_SUM_IMPOSSIBLE, 422, "cage_sum_impossible", "Impossible cage sum")  \
    X(CAGE_TOTAL_NOT_405, 422, "cage_total_not_405",                           \
      "Cage sums do not total 405")                                            \
    X(CAGE_GIVEN_CONFLICT, 422, "cage_given_conflict", "Givens break a cage")  \
    X(ALREADY_SOLVED, 422, "already_solved", "Already solved")                 \
    X(CAGES_NOT_SUPPORTED, 422, "cages_not_supported",                         \
      "Killer cages are not supported here")                                   \
    X(INVALID_DIFFICULTY, 422, "invalid_difficulty", "Unknown difficulty")     \
    X(INVALID_RATING, 422, "invalid_rating", "Empty rating range")             \
    X(INVALID_BOX, 422, "invalid_box", "Box does not tile the board")          \
    X(INVALID_REGIONS, 422, "invalid_regions", "Malformed region map")         \
    X(INVALID_EXTRA_REGIONS, 422, "invalid_extra_regions",                     \
      "Malformed extra region")                                                \
    X(INVALID_SIZE, 422, "invalid_size", "No such size")                       \
    X(UNSUPPORTED_VARIANT, 422, "unsupported_variant",                         \
      "Not supported for this size or variant")                                \
    X(LEVEL_NOT_OFFERED, 422, "level_not_offered",                             \
      "Level not offered for this size")                                       \
    X(GENERATION_TIMEOUT, 503, "generation_timeout",                           \
      "Generation budget exhausted")                                           \
    X(INTERNAL_ERROR, 500, "internal_error", "Internal error")                 \
    X(DRAINING, 503, "draining", "Shutting down")                              \
    X(OVERLOADED, 503, "overloaded", "Too many connections")                   \
    X(BUSY_QUEUE, 503, "busy", "Job queue full")                               \
    X(BUSY_MEMORY, 503, "busy", "Too many bodies held")                        \
    /* The http module's refusals of a request's framing (http_framing.c       \
     * holds their titles as well, until it takes them from here). */          \
    X(BAD_FRAMING, 400, "bad_framing", "Ambiguous message length")             \
    X(BAD_REQUEST_LINE, 400, "bad_request_line", "Bad request line")           \
    X(BAD_HEADER, 400, "bad_header", "Bad header")                             \
    X(MISSING_HOST, 400, "missing_host", "Missing Host header")                \
    X(URI_TOO_LONG, 414, "uri_too_long", "URI too long")                       \
    X(UNSUPPORTED_TRANSFER_CODING, 501, "unsupported_transfer_coding",         \
      "Unsupported transfer coding")

enum codec_problem_id {
#define CODEC_PROBLEM_ENUM(id, status, code, title) CODEC_PROBLEM_##id,
    CODEC_PROBLEMS(CODEC_PROBLEM_ENUM)
#undef CODEC_PROBLEM_ENUM
        CODEC_NPROBLEMS
};

/* What every occurrence of one problem shares. */
struct codec_problem_type {
    int status;
    const char *code;
    const char *title;
};

/* The table, indexed by enum codec_problem_id. */
extern const struct codec_problem_type codec_problem_types[CODEC_NPROBLEMS];

#endif
