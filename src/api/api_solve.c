/* api_solve.c - POST /solve: the puzzle read once (api_intake.c), judged
 * once by the engine its kind needs (api_judge.c), answered with the
 * solution in the board's shape or with the verdict's problem. */
#include "api_internal.h"
#include "codec.h"

void api_handle_solve(const struct api_context *ctx,
                      const struct api_request *req, struct api_response *resp)
{
    struct api_puzzle pz;
    struct api_verdict v;
    size_t len = 0;
    char *body;

    v.result = API_INVALID;
    v.took_us = 0;
    v.stats.guesses = 0;
    if (api_read_puzzle(ctx, req, resp, API_TAKES_VARIANT | API_TAKES_CAGES,
                        &pz) != 0) {
        api_count_puzzle(ctx->metrics, v.result, v.took_us, v.stats.guesses);
        return;
    }
    if (api_judge(ctx, ctx->max_nodes, &pz.givens, &v) == API_DEFER) {
        resp->defer = 1;
        return;
    }
    if (v.result != API_SOLVED) {
        api_respond_problem(resp, &v.problem);
    } else if (pz.givens.kind != CODEC_VARIANT) {
        api_respond_solution(req, resp, &v.solution, pz.body.board.shape,
                             &v.stats, v.took_us);
        if (resp->status != 200 && pz.givens.kind == CODEC_KILLER)
            v.result = API_INVALID; /* out of memory */
    } else {
        body = codec_encode_variant_solution(&v.cover_solution,
                                             pz.body.variant.shape, &v.stats,
                                             v.took_us, &len);
        api_respond_json(resp, body, len);
        if (body == NULL)
            v.result = API_INVALID;
    }
    api_count_puzzle(ctx->metrics, v.result, v.took_us, v.stats.guesses);
}
