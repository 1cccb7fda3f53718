/* api_validate.c - POST /validate, for every kind of puzzle: the broken
 * rules and the count of solutions (up to 2) in a 200 answer, so a bad
 * puzzle is reported rather than refused. A killer's cages must be sound
 * (their problems are 422s) unless its givens already break the rules. */
#include "api_internal.h"
#include "codec.h"
#include "killer.h"

void api_handle_validate(const struct api_context *ctx,
                         const struct api_request *req,
                         struct api_response *resp)
{
    struct api_puzzle pz;
    struct api_verdict v;
    const struct api_givens *g = &pz.givens;
    enum killer_status ks = KILLER_OK;
    enum api_count_status st = API_COUNT_OK;
    struct search_budget budget;
    unsigned count = 0;
    size_t n, len = 0;
    char *body;

    if (api_read_puzzle(ctx, req, resp, API_TAKES_VARIANT | API_TAKES_CAGES,
                        &pz) != 0)
        return;
    n = api_find_conflicts(g, &v);
    if (g->kind == CODEC_KILLER) {
        ks = killer_check(g->grid, g->cages, &v.cage_error);
        /* Givens that break the 9x9 rules are this route's answer (200,
         * "conflicts"), even when they break a cage too. */
        if (ks != KILLER_OK && !(ks == KILLER_GIVEN_CONFLICT && n > 0)) {
            api_cage_problem(ks, &v);
            api_respond_problem(resp, &v.problem);
            return;
        }
    }
    if (n == 0 && ks == KILLER_OK) {
        budget = api_search_budget(ctx, g->kind, ctx->max_nodes);
        if (api_slice(ctx, g->kind, &budget)) {
            resp->defer = 1;
            return;
        }
        st = api_count(g, &budget, &v, &count);
    }
    if (st == API_COUNT_BUDGET && ctx->slice) {
        resp->defer = 1;
        return;
    }
    if (st == API_COUNT_BUDGET) {
        struct api_problem_text t;
        struct codec_problem p;
        api_search_limit_problem(budget.max_nodes,
                                 v.cpu_out ? ctx->max_search_ms : 0, &p, &t);
        api_respond_problem(resp, &p);
        return;
    }
    if (st == API_COUNT_NO_MEMORY) {
        api_respond_no_memory(resp);
        return;
    }
    body = codec_encode_variant_validate(
        n == 0 && count == 1, count, api_givens_complete(g),
        api_conflict_rules(g, &v), v.conflicts, n, &len);
    api_respond_json(resp, body, len);
}
