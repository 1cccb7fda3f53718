/* codec_puzzle.c - the intake: a request body decoded once. A puzzle body
 * becomes one tagged value (struct codec_puzzle: classic, killer or
 * variant), a /generate body its options with the rule members; each from
 * one cJSON parse at most, and the plain {"board": 9x9} body from none (the
 * hand reader of codec_fast.c). The kind is decided here, once, so no later
 * step looks at the bytes again. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "codec_internal.h"

static void clear_error(struct codec_error *err)
{
    err->offset = -1;
    err->row = -1;
    err->column = -1;
    err->pointer[0] = '\0';
    err->detail[0] = '\0';
}

/* The classic board of root into out->board. */
static enum codec_status classic_board(const cJSON *root,
                                       struct codec_puzzle *out,
                                       struct codec_error *err)
{
    const cJSON *board = cJSON_GetObjectItemCaseSensitive(root, "board");

    clear_error(err);
    if (board == NULL)
        return codec_fail(err, CODEC_INVALID_REQUEST, "/board", -1,
                          "the \"board\" member is missing");
    return codec_board_value(board, "/board", &out->board, err);
}

/* The object root of a puzzle body: variant, killer or classic. */
static enum codec_status puzzle_value(const cJSON *root,
                                      struct codec_puzzle *out,
                                      struct codec_error *err)
{
    const cJSON *cages = cJSON_GetObjectItemCaseSensitive(root, "cages");
    const cJSON *engine = cJSON_GetObjectItemCaseSensitive(root, "engine");
    enum codec_status st;

    if (engine != NULL)
        out->engine = !cJSON_IsString(engine) ? CODEC_ENGINE_BAD
                      : strcmp(engine->valuestring, "se") == 0 ? CODEC_ENGINE_SE
                      : strcmp(engine->valuestring, "logic") == 0
                          ? CODEC_ENGINE_LOGIC
                          : CODEC_ENGINE_BAD;
    out->members = cages != NULL ? CODEC_MEMBER_CAGES : 0;
    if (codec_has_rule_member(root))
        out->members |= CODEC_MEMBER_RULES;
    /* The variant reading decides what the board is: another size, or a
     * 9x9 with rule members, goes to the generic engine. */
    st = codec_variant_value(root, "", &out->variant, err);
    if (out->variant.is_variant) {
        out->kind = CODEC_VARIANT;
        return st;
    }
    st = classic_board(root, out, err);
    if (cages == NULL)
        return st;
    out->kind = CODEC_KILLER;
    clear_error(&out->cages_err);
    out->cages_status = codec_cages_value(cages, &out->cages, &out->cages_err);
    return st;
}

enum codec_status codec_decode_puzzle(const char *body, size_t len,
                                      struct codec_puzzle *out,
                                      struct codec_error *err)
{
    enum codec_status st;
    cJSON *root;

    out->kind = CODEC_CLASSIC;
    out->members = 0;
    out->engine = CODEC_ENGINE_DEFAULT;
    out->board.only_board = codec_board_fast(body, len, &out->board);
    if (out->board.only_board)
        return CODEC_OK;
    out->board.has_grid = 0;
    st = codec_parse_object(
        body, len, &root, err,
        "the body must be a JSON object with a \"board\" member");
    if (st != CODEC_OK)
        return st;
    st = puzzle_value(root, out, err);
    cJSON_Delete(root);
    return st;
}

/* ------------------------------------------------------------------------
 * POST /generate
 * ------------------------------------------------------------------------ */

static enum codec_status copy_string(const cJSON *root, const char *name,
                                     char *out, size_t size,
                                     struct codec_error *err)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, name);
    char pointer[32];

    snprintf(pointer, sizeof(pointer), "/%s", name);
    out[0] = '\0';
    if (item == NULL)
        return CODEC_OK;
    if (!cJSON_IsString(item))
        return codec_fail(err, CODEC_INVALID_REQUEST, pointer, -1,
                          "\"%s\" must be a string", name);
    if (strlen(item->valuestring) >= size)
        return codec_fail(err, CODEC_INVALID_REQUEST, pointer, -1,
                          "\"%s\" is too long", name);
    strcpy(out, item->valuestring);
    return CODEC_OK;
}

enum codec_status codec_decode_generate(const char *body, size_t len,
                                        struct codec_generate_request *out,
                                        struct codec_error *err)
{
    const cJSON *seed;
    enum codec_status st;
    cJSON *root;

    memset(out, 0, offsetof(struct codec_generate_request, variant));
    st = codec_parse_object(body, len, &root, err,
                            "the body must be a JSON object");
    if (st != CODEC_OK)
        return st;
    st = copy_string(root, "difficulty", out->difficulty,
                     sizeof(out->difficulty), err);
    if (st == CODEC_OK)
        st = copy_string(root, "symmetry", out->symmetry, sizeof(out->symmetry),
                         err);
    for (int k = 0; k < 2 && st == CODEC_OK; k++) {
        const char *name = k ? "max_rating" : "min_rating";
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(root, name);
        char pointer[16];
        if (r == NULL)
            continue;
        snprintf(pointer, sizeof(pointer), "/%s", name);
        if (!cJSON_IsNumber(r) || r->valuedouble < 1.0 ||
            r->valuedouble > 12.0) {
            st = codec_fail(err, CODEC_INVALID_REQUEST, pointer, -1,
                            "\"%s\" must be a number from 1.0 to 12.0", name);
            break;
        }
        /* tenths, rounded */
        *(k ? &out->max_rating : &out->min_rating) =
            (unsigned)(r->valuedouble * 10.0 + 0.5);
    }
    if (st == CODEC_OK) {
        const cJSON *killer = cJSON_GetObjectItemCaseSensitive(root, "killer");
        if (killer != NULL && !cJSON_IsBool(killer))
            st = codec_fail(err, CODEC_INVALID_REQUEST, "/killer", -1,
                            "\"killer\" must be true or false");
        out->killer = cJSON_IsTrue(killer);
    }
    seed = cJSON_GetObjectItemCaseSensitive(root, "seed");
    if (st == CODEC_OK && seed != NULL) {
        /* Up to 2^53 - 1, the integers that every JSON number parser
         * holds exactly: 2^53 + 1 would parse as 2^53 (cJSON too), so a
         * client's seed above the bound would silently become another. */
        double v = cJSON_IsNumber(seed) ? seed->valuedouble : -1;
        if (v < 0 || v > CODEC_SEED_MAX || (double)(uint64_t)v != v) {
            st = codec_fail(err, CODEC_INVALID_REQUEST, "/seed", -1,
                            "\"seed\" must be an integer "
                            "from 0 to %llu (2^53 - 1)",
                            (unsigned long long)CODEC_SEED_MAX);
        } else {
            out->has_seed = 1;
            out->seed = (uint64_t)v;
        }
    }
    if (st == CODEC_OK) /* the same tree: /generate parses once */
        st = codec_variant_options(root, &out->variant, err);
    else
        out->variant.is_variant = 0;
    cJSON_Delete(root);
    return st;
}
