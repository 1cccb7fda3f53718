/* api_intake.c - what every JSON route checks first (size, media type) and
 * the one reading of a puzzle body: codec_decode_puzzle parses it once into
 * a tagged value, and the kind it finds (classic, killer, variant) decides
 * every later step; nothing here or after looks at the bytes again. Then
 * the characters, and a variant's rules. Order of the checks: size, media
 * type, JSON, shape, characters, rules (docs/api.md, "Problems"). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "api_internal.h"
#include "codec.h"
#include "cover.h"
#include "sudoku.h"

int api_media_is(const char *type, const char *want)
{
    size_t n = strlen(want);

    if (type == NULL)
        return 0;
    while (*type == ' ' || *type == '\t')
        type++;
    if (strncasecmp(type, want, n) != 0)
        return 0;
    type += n;
    while (*type == ' ' || *type == '\t')
        type++;
    return *type == '\0' || *type == ';';
}

int api_check_body(const struct api_context *ctx, const struct api_request *req,
                   struct api_response *resp)
{
    if (req->body_too_large) {
        api_respond_too_large(ctx, ctx->max_body, resp);
        return -1;
    }
    if (!api_media_is(req->content_type, API_JSON_TYPE)) {
        api_respond_bad_type(
            resp, "send the body with Content-Type: application/json");
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------
 * Variants: the rules and the board of the generic engine
 * ------------------------------------------------------------------------ */

/* *p for a cover_rules_check failure; pointers under b->at. */
static void rules_problem(const struct codec_variant *b, enum cover_status st,
                          int bad, const char *why, struct codec_problem *p,
                          struct api_problem_text *t)
{
    const char *at = b->at;
    enum codec_problem_id id =
        st == COVER_BAD_BOX       ? CODEC_PROBLEM_INVALID_BOX
        : st == COVER_BAD_EXTRA   ? CODEC_PROBLEM_INVALID_EXTRA_REGIONS
        : st == COVER_BAD_REGIONS ? CODEC_PROBLEM_INVALID_REGIONS
                                  : CODEC_PROBLEM_INVALID_BOARD;

    snprintf(t->detail, sizeof(t->detail), "%s",
             why[0] ? why : "the rules do not make a puzzle");
    if (id == CODEC_PROBLEM_INVALID_EXTRA_REGIONS && bad >= 0)
        snprintf(t->pointer, sizeof(t->pointer), "%s/extra_regions/%d", at,
                 bad);
    else if (id == CODEC_PROBLEM_INVALID_BOARD)
        snprintf(t->pointer, sizeof(t->pointer), "%s", b->board_at);
    else
        snprintf(t->pointer, sizeof(t->pointer), "%s%s", at,
                 id == CODEC_PROBLEM_INVALID_BOX ? "/box" : "/regions");
    codec_problem_init(p, id, t->detail);
    p->pointer = t->pointer;
}

int api_variant_rules(struct codec_variant *b, struct codec_problem *p,
                      struct api_problem_text *t)
{
    char why[160] = "";
    int which = -1;
    enum cover_status st =
        cover_rules_check(&b->rules, &which, why, sizeof(why));

    if (st == COVER_OK)
        return 0;
    rules_problem(b, st, which, why, p, t);
    return -1;
}

int api_variant_prepare(struct codec_variant *b, struct cover_grid *g,
                        struct codec_problem *p, struct api_problem_text *t)
{
    enum cover_status st;
    size_t bad = 0;

    if (api_variant_rules(b, p, t) != 0)
        return -1;
    st = cover_parse(b->text, (size_t)b->rules.n * b->rules.n, b->rules.n, g,
                     &bad);
    if (st == COVER_BAD_CHAR)
        api_bad_char_problem(b->text, b->rules.n, b->shape, bad, b->board_at, 1,
                             p, t);
    else if (st != COVER_OK)
        rules_problem(b, st, -1, "", p, t);
    return st == COVER_OK ? 0 : -1;
}

/* ------------------------------------------------------------------------
 * The intake
 * ------------------------------------------------------------------------ */

/* A variant body on a route that takes it: no cages, rules, board. 0, or
 * -1 with resp set. */
static int read_variant(struct api_response *resp, unsigned takes,
                        struct api_puzzle *pz)
{
    struct api_problem_text t;
    struct codec_problem p;

    if (!(takes & API_TAKES_VARIANT)) { /* a route of the classic engine */
        api_respond_unsupported(resp, "",
                                "this route knows classic 9x9 sudoku only; "
                                "POST /solve, /validate, /solve/batch and "
                                "/generate take other sizes and variants");
        return -1;
    }
    if (pz->body.members & CODEC_MEMBER_CAGES) {
        api_respond_unsupported(resp, "/cages",
                                "killer cages are for classic 9x9 boards "
                                "without variant rules");
        return -1;
    }
    if (api_variant_prepare(&pz->body.variant, &pz->cover, &p, &t) != 0) {
        api_respond_problem(resp, &p);
        return -1;
    }
    pz->givens.rules = &pz->body.variant.rules;
    pz->givens.cover = &pz->cover;
    return 0;
}

/* The cages of a killer body on a route that takes them: their shape was
 * read with the body. 0, or -1 with resp set. */
static int read_cages(struct api_response *resp, unsigned takes,
                      struct api_puzzle *pz)
{
    struct codec_problem p;

    if (!(takes & API_TAKES_CAGES)) {
        /* The logic engine knows classic sudoku only: a hint or a grade
         * that ignored the cages would be wrong. */
        codec_problem_init(&p, CODEC_PROBLEM_CAGES_NOT_SUPPORTED,
                           "hints and grades are for classic sudoku only; "
                           "POST /solve and /validate take killer cages");
        p.pointer = "/cages";
        api_respond_problem(resp, &p);
        return -1;
    }
    if (pz->body.cages_status != CODEC_OK) {
        api_decode_problem(pz->body.cages_status, &pz->body.cages_err, &p);
        api_respond_problem(resp, &p);
        return -1;
    }
    pz->givens.cages = &pz->body.cages;
    return 0;
}

int api_read_puzzle(const struct api_context *ctx,
                    const struct api_request *req, struct api_response *resp,
                    unsigned takes, struct api_puzzle *pz)
{
    struct codec_board *board = &pz->body.board;
    struct api_problem_text t;
    struct codec_error err;
    struct codec_problem p;
    enum codec_status st;
    size_t bad;

    if (api_check_body(ctx, req, resp) != 0)
        return -1;
    st = codec_decode_puzzle(req->body, req->body_len, &pz->body, &err);
    pz->givens = (struct api_givens){pz->body.kind, NULL, NULL, NULL, NULL};
    if (st != CODEC_OK) { /* malformed: the same problem on every route */
        api_decode_problem(st, &err, &p);
        api_respond_problem(resp, &p);
        return -1;
    }
    if (pz->body.kind == CODEC_VARIANT)
        return read_variant(resp, takes, pz);
    if (!board->has_grid) { /* the fast path read the grid with the body */
        if (sudoku_parse(board->text, SUDOKU_CELLS, &board->grid, &bad) !=
            SUDOKU_OK) {
            api_bad_char_problem(board->text, SUDOKU_SIZE, board->shape, bad,
                                 "/board", 0, &p, &t);
            api_respond_problem(resp, &p);
            return -1;
        }
        board->has_grid = 1;
    }
    pz->givens.grid = &board->grid;
    if (pz->body.kind == CODEC_KILLER)
        return read_cages(resp, takes, pz);
    return 0;
}
