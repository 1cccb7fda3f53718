/* api_variant.c - other sizes and variant rules on the puzzle routes, through
 * the generic exact-cover engine (cover.h). A body reaches this file only
 * when it is not the plain classic one (api_read_board decides): its rules
 * are checked, then the search counts to 2 within --max-nodes, as for a
 * classic board, and the answers keep the board's shape and characters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_internal.h"
#include "codec.h"
#include "cover.h"
#include "killer.h"

void api_respond_unsupported(struct api_response *resp, const char *pointer,
                             const char *detail)
{
    struct codec_problem p;

    codec_problem_init(&p, 422, "unsupported_variant",
                       "Not supported for this size or variant", detail);
    p.pointer = pointer;
    api_respond_problem(resp, &p);
}

void api_variant_decode_problem(enum codec_status st,
                                const struct codec_error *err,
                                struct codec_problem *p)
{
    static const struct {
        enum codec_status st;
        const char *code, *title;
    } map[] = {
        {CODEC_INVALID_BOX, "invalid_box", "Box does not tile the board"},
        {CODEC_INVALID_REGIONS, "invalid_regions", "Malformed region map"},
        {CODEC_INVALID_EXTRA, "invalid_extra_regions",
         "Malformed extra region"},
        {CODEC_INVALID_SIZE, "invalid_size", "No such size"},
    };
    size_t i = 0;

    while (i + 1 < sizeof(map) / sizeof(map[0]) && map[i].st != st)
        i++;
    codec_problem_init(p, 422, map[i].code, map[i].title, err->detail);
    p->pointer = err->pointer;
    p->row = err->row;
    p->column = err->column;
}

/* var->problem for a cover_rules_check failure; pointers under body.at. */
static void rules_problem(struct api_variant *var, enum cover_status st,
                          int bad, const char *why)
{
    struct codec_error err = {.offset = -1, .row = -1, .column = -1};
    const char *at = var->body.at;
    enum codec_status as = st == COVER_BAD_BOX       ? CODEC_INVALID_BOX
                           : st == COVER_BAD_EXTRA   ? CODEC_INVALID_EXTRA
                           : st == COVER_BAD_REGIONS ? CODEC_INVALID_REGIONS
                                                     : CODEC_INVALID_BOARD;

    snprintf(var->text.detail, sizeof(var->text.detail), "%s",
             why[0] ? why : "the rules do not make a puzzle");
    if (as == CODEC_INVALID_EXTRA && bad >= 0)
        snprintf(var->text.pointer, sizeof(var->text.pointer),
                 "%s/extra_regions/%d", at, bad);
    else if (as == CODEC_INVALID_BOARD)
        snprintf(var->text.pointer, sizeof(var->text.pointer), "%s",
                 var->body.board_at);
    else
        snprintf(var->text.pointer, sizeof(var->text.pointer), "%s%s", at,
                 as == CODEC_INVALID_BOX ? "/box" : "/regions");
    if (as == CODEC_INVALID_BOARD)
        codec_problem_init(&var->problem, 422, "invalid_board",
                           "Malformed board", var->text.detail);
    else
        api_variant_decode_problem(as, &err, &var->problem);
    var->problem.detail = var->text.detail;
    var->problem.pointer = var->text.pointer;
}

/* var->problem: 422 invalid_board for the bad character at `index`. */
static void bad_char(struct api_variant *var, size_t index)
{
    const struct codec_variant *b = &var->body;
    unsigned n = b->rules.n;
    int row = (int)(index / n), col = (int)(index % n);
    char shown[32];

    api_shown_char(b->text[index], shown, sizeof(shown));
    snprintf(var->text.detail, sizeof(var->text.detail),
             "row %d, column %d: %s is not allowed; a %ux%u board takes '.' "
             "or '0' for a blank and %c to %c for a digit",
             row, col, shown, n, n, cover_digit_char(1), cover_digit_char(n));
    if (b->shape == CODEC_SHAPE_ROWS)
        snprintf(var->text.pointer, sizeof(var->text.pointer), "%s/%d",
                 b->board_at, row);
    else
        snprintf(var->text.pointer, sizeof(var->text.pointer), "%s",
                 b->board_at);
    codec_problem_init(&var->problem, 422, "invalid_board", "Malformed board",
                       var->text.detail);
    var->problem.pointer = var->text.pointer;
    var->problem.row = row;
    var->problem.column = col;
}

/* cover_rules_check of var's rules: 0, or -1 with var->problem. */
static int check_rules(struct api_variant *var)
{
    char why[160] = "";
    int which = -1;
    enum cover_status st =
        cover_rules_check(&var->body.rules, &which, why, sizeof(why));

    if (st == COVER_OK)
        return 0;
    rules_problem(var, st, which, why);
    return -1;
}

int api_variant_prepare(struct api_variant *var)
{
    struct codec_variant *b = &var->body;
    enum cover_status st;
    size_t bad = 0;

    var->result = API_INVALID;
    var->took_us = 0;
    var->stats.nodes = var->stats.guesses = 0;
    if (check_rules(var) != 0)
        return -1;
    st = cover_parse(b->text, (size_t)b->rules.n * b->rules.n, b->rules.n,
                     &var->puzzle, &bad);
    if (st == COVER_BAD_CHAR)
        bad_char(var, bad);
    else if (st != COVER_OK)
        rules_problem(var, st, -1, "");
    return st == COVER_OK ? 0 : -1;
}

/* Killer cages are the 9x9 solver's: refused beside variants. */
static int has_cages(const struct api_request *req, struct api_response *resp)
{
    struct killer_cages *k = malloc(sizeof(*k));
    struct codec_error err;
    int present = 0;

    if (k == NULL) {
        api_respond_no_memory(resp);
        return 1;
    }
    codec_decode_cages(req->body, req->body_len, k, &present, &err);
    free(k);
    if (present)
        api_respond_unsupported(resp, "/cages",
                                "killer cages are for classic 9x9 boards "
                                "without variant rules");
    return present;
}

int api_variant_check(const struct api_request *req, struct api_response *resp,
                      struct api_variant *var)
{
    if (has_cages(req, resp))
        return -1;
    if (api_variant_prepare(var) != 0) {
        api_respond_problem(resp, &var->problem);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * The verdict: POST /solve, /validate and batch items
 * ------------------------------------------------------------------------ */

static const char *unit_word(const struct cover_rules *r, enum cover_unit u)
{
    static const char *const words[] = {
        [COVER_ROW] = "row",
        [COVER_COLUMN] = "column",
        [COVER_BOX] = "box",
        [COVER_DIAGONAL] = "diagonal",
        [COVER_EXTRA] = "extra region",
        [COVER_KNIGHT] = "knight's move",
        [COVER_KING] = "king's move",
    };

    return u == COVER_BOX && r->has_regions ? "region" : words[u];
}

/* var->problem: 422 conflict listing var's conflicts (at least one). */
static void conflict_problem(struct api_variant *var)
{
    const struct cover_rules *r = &var->body.rules;
    const struct cover_conflict *c = var->conflicts;
    char *detail = var->text.detail;
    size_t cap = sizeof(var->text.detail), total = var->total;
    int len;

    if (c[0].unit == COVER_KNIGHT || c[0].unit == COVER_KING)
        len = snprintf(detail, cap, "digit %c is a %s from itself (cells",
                       cover_digit_char(c[0].digit), unit_word(r, c[0].unit));
    else
        len = snprintf(detail, cap, "digit %c appears %d times in %s %d (cells",
                       cover_digit_char(c[0].digit), c[0].ncells,
                       unit_word(r, c[0].unit), c[0].index);
    for (int k = 0; k < c[0].ncells && len < (int)cap; k++)
        len += snprintf(detail + len, cap - (size_t)len, "%s [%u,%u]",
                        k ? "," : "", c[0].cell[k] / r->n, c[0].cell[k] % r->n);
    if (len < (int)cap)
        snprintf(detail + len, cap - (size_t)len,
                 total > 1 ? "), and %zu more conflict%s" : ")", total - 1,
                 total > 2 ? "s" : "");
    codec_problem_init(&var->problem, 422, "conflict", "Board breaks the rules",
                       detail);
    var->problem.cover_conflicts = c;
    var->problem.ncover = var->nconflicts;
    var->problem.cover_rules = r;
}

static void find_conflicts(struct api_variant *var)
{
    var->total = cover_conflicts(&var->body.rules, &var->puzzle, var->conflicts,
                                 API_VARIANT_CONFLICTS);
    var->nconflicts =
        var->total < API_VARIANT_CONFLICTS ? var->total : API_VARIANT_CONFLICTS;
}

enum api_result api_variant_judge(uint64_t max_nodes, struct api_variant *var)
{
    enum cover_status st;
    unsigned count = 0;
    uint64_t t0 = api_now_us();

    var->nconflicts = var->total = 0;
    st = cover_count(&var->body.rules, &var->puzzle, 2, max_nodes,
                     &var->solution, &count, &var->stats);
    var->took_us = api_now_us() - t0;
    if (st == COVER_NO_MEMORY) {
        codec_problem_init(&var->problem, 500, "internal_error",
                           "Internal error",
                           "the server ran out of memory; try again");
        return var->result = API_INVALID;
    }
    if (st == COVER_BUDGET) {
        api_search_limit_problem(max_nodes, &var->problem, &var->text);
        return var->result = API_SEARCH_LIMIT;
    }
    if (count == 0 && (find_conflicts(var), var->nconflicts > 0)) {
        conflict_problem(var);
        return var->result = API_INVALID;
    }
    return var->result = api_count_result(count, &var->problem);
}

void api_solve_variant(const struct api_context *ctx, struct api_response *resp,
                       struct api_variant *var)
{
    size_t len = 0;
    char *body;

    if (api_variant_judge(ctx->max_nodes, var) != API_SOLVED) {
        api_respond_problem(resp, &var->problem);
        return;
    }
    body = codec_encode_variant_solution(&var->solution, var->body.shape,
                                         &var->stats, var->took_us, &len);
    api_respond_json(resp, body, len);
    if (body == NULL)
        var->result = API_INVALID;
}

void api_validate_variant(const struct api_context *ctx,
                          struct api_response *resp, struct api_variant *var)
{
    const struct cover_rules *r = &var->body.rules;
    size_t len = 0;
    unsigned count = 0;
    int complete = 1;
    enum cover_status st = COVER_OK;
    char *body;

    find_conflicts(var);
    if (var->nconflicts == 0)
        st =
            cover_count(r, &var->puzzle, 2, ctx->max_nodes, NULL, &count, NULL);
    if (st == COVER_BUDGET) {
        api_respond_search_limit(resp, ctx->max_nodes);
        return;
    }
    if (st == COVER_NO_MEMORY) {
        api_respond_no_memory(resp);
        return;
    }
    for (unsigned i = 0; i < (unsigned)r->n * r->n; i++)
        complete &= var->puzzle.cell[i] != 0;
    body = codec_encode_variant_validate(var->nconflicts == 0 && count == 1,
                                         count, complete, r, var->conflicts,
                                         var->nconflicts, &len);
    api_respond_json(resp, body, len);
}

/* ------------------------------------------------------------------------
 * POST /generate
 * ------------------------------------------------------------------------ */

/* The symmetry a variant puzzle can have: "none" (also when absent) or
 * "rotational" (cover_generate_symmetric); NULL for another. */
static const char *symmetry_of(const struct codec_generate_request *o)
{
    if (o->symmetry[0] == '\0' || strcmp(o->symmetry, "none") == 0)
        return "none";
    return strcmp(o->symmetry, "rotational") == 0 ? "rotational" : NULL;
}

/* The classic members the generic engine cannot honour: 422 at the first
 * one present. 0, or -1 with resp set. */
static int refuse_classic_members(const struct codec_generate_request *o,
                                  struct api_response *resp)
{
    const char *pointer = o->difficulty[0]         ? "/difficulty"
                          : o->min_rating          ? "/min_rating"
                          : o->max_rating          ? "/max_rating"
                          : symmetry_of(o) == NULL ? "/symmetry"
                                                   : NULL;

    if (pointer == NULL)
        return 0;
    api_respond_unsupported(resp, pointer,
                            "difficulty and ratings come from the logic "
                            "engine, which knows classic 9x9 sudoku only; "
                            "other sizes and variants take \"seed\", "
                            "\"symmetry\" none or rotational, and the rule "
                            "members");
    return -1;
}

/* cover_generate, and the answer when it found no puzzle: COVER_OK when
 * *puzzle holds one (maybe with more givens, after the time budget). */
static enum cover_status generate(const struct codec_variant *b, uint64_t seed,
                                  int rotational, struct cover_grid *puzzle,
                                  struct cover_grid *solution,
                                  struct api_response *resp)
{
    struct codec_problem p;
    enum cover_status st;

    puzzle->n = 0; /* untouched when no full grid was found in time */
    st = (rotational ? cover_generate_symmetric : cover_generate)(
        &b->rules, seed, API_GENERATE_MAX_US, puzzle, solution);
    if (st == COVER_OK || (st == COVER_BUDGET && puzzle->n != 0))
        return COVER_OK;
    if (st == COVER_NO_MEMORY) {
        api_respond_no_memory(resp);
    } else if (st == COVER_BUDGET) {
        codec_problem_init(&p, 503, "generation_timeout",
                           "Generation budget exhausted",
                           "no grid obeying these rules was found within the "
                           "time budget; try another seed or fewer rules");
        p.limit = (long long)(API_GENERATE_MAX_US / 1000);
        api_respond_problem(resp, &p);
    } else {
        codec_problem_init(&p, 422, "no_solution", "No solution",
                           "no grid obeys these rules together, so there is "
                           "no puzzle to make");
        api_respond_problem(resp, &p);
    }
    return st;
}

int api_generate_variant(const struct api_context *ctx,
                         const struct api_request *req,
                         struct api_response *resp,
                         const struct codec_generate_request *o)
{
    struct codec_variant_generated out;
    struct api_variant *v = malloc(sizeof(*v));
    struct codec_variant *b = &v->body;
    struct cover_grid puzzle, solution;
    struct codec_error err;
    struct codec_problem p;
    enum codec_status st;
    uint64_t t0 = api_now_us();
    uint64_t seed = o->has_seed ? o->seed : t0 & CODEC_SEED_MAX;
    size_t len = 0;
    char *body;

    (void)ctx;
    if (v == NULL) {
        api_respond_no_memory(resp);
        return 1;
    }
    st = codec_decode_variant_options(req->body, req->body_len, b, &err);
    if (!b->is_variant) {
        free(v);
        return 0;
    }
    if (st != CODEC_OK) {
        api_decode_problem(st, &err, &p);
        api_respond_problem(resp, &p);
    } else if (refuse_classic_members(o, resp) == 0) {
        if (check_rules(v) != 0)
            api_respond_problem(resp, &v->problem);
        else if (generate(b, seed, symmetry_of(o)[0] == 'r', &puzzle, &solution,
                          resp) == COVER_OK) {
            out = (struct codec_variant_generated){
                &puzzle, &solution,      &b->rules, CODEC_SHAPE_LINE,
                seed,    symmetry_of(o), 0,         api_now_us() - t0};
            for (unsigned i = 0; i < (unsigned)puzzle.n * puzzle.n; i++)
                out.givens += puzzle.cell[i] != 0;
            body = codec_encode_variant_generated(&out, &len);
            api_respond_json(resp, body, len);
        }
    }
    free(v);
    return 1;
}
