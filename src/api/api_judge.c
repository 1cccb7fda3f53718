/* api_killer.c - killer sudoku on POST /solve and /validate: a body with a
 * "cages" member next to its board. After the shared board intake: the
 * cages' JSON shape (400), the 9x9 rules of the givens, the cages
 * (killer_check: 422 cage_* problems), then killer_count up to 2. */
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "api_internal.h"
#include "codec.h"
#include "killer.h"
#include "metrics.h"
#include "sudoku.h"

/* The problem of each killer_check status: code (stable) and title. */
static const struct {
    const char *code, *title;
} cage_problems[] = {
    [KILLER_CELL_OUT_OF_RANGE] = {"cage_cell_out_of_range",
                                  "Cage cell outside the grid"},
    [KILLER_OVERLAP] = {"cage_overlap", "Cell in more than one cage"},
    [KILLER_NOT_CONNECTED] = {"cage_not_connected", "Cage not connected"},
    [KILLER_SUM_IMPOSSIBLE] = {"cage_sum_impossible", "Impossible cage sum"},
    [KILLER_TOTAL_NOT_405] = {"cage_total_not_405",
                              "Cage sums do not total 405"},
    [KILLER_GIVEN_CONFLICT] = {"cage_given_conflict", "Givens break a cage"},
};

/* The cages of the body into *k. Returns 1 when there are some, 0 when the
 * body has none, -1 when resp holds the problem (400, or 500). */
static int read_cages(const struct api_request *req, struct api_response *resp,
                      struct killer_cages *k)
{
    struct codec_error err;
    struct codec_problem p;
    enum codec_status st;
    int present = 0;

    st = codec_decode_cages(req->body, req->body_len, k, &present, &err);
    if (st == CODEC_OK)
        return present;
    api_decode_problem(st, &err, &p);
    api_respond_problem(resp, &p);
    return -1;
}

/* The 422 answer for a killer_check problem. */
static void respond_cages(struct api_response *resp, enum killer_status st,
                          const struct killer_error *err)
{
    struct codec_problem p;
    char detail[400], pointer[24];

    killer_describe(st, err, 0, detail, sizeof(detail));
    codec_problem_init(&p, 422, cage_problems[st].code, cage_problems[st].title,
                       detail);
    p.cage = err->cage;
    p.other_cage = st == KILLER_OVERLAP ? err->other_cage : -1;
    p.cell_rows = err->row;
    p.cell_cols = err->col;
    p.ncells = err->ncells;
    snprintf(pointer, sizeof(pointer), "/cages/%d", err->cage);
    p.pointer = err->cage >= 0 ? pointer : "/cages";
    api_respond_problem(resp, &p);
}

int api_solve_killer(const struct api_context *ctx,
                     const struct api_request *req, struct api_response *resp,
                     const struct codec_board *board,
                     const struct sudoku_grid *puzzle, struct api_verdict *v)
{
    struct killer_cages k;
    struct killer_error err;
    struct killer_stats stats = {0, 0};
    enum killer_status st;
    unsigned count = 0;
    uint64_t t0;
    int has = board->only_board ? 0 : read_cages(req, resp, &k);

    if (has <= 0)
        return has < 0;
    v->result = API_INVALID;
    v->nconflicts = sudoku_conflicts(
        puzzle, v->conflicts, sizeof(v->conflicts) / sizeof(v->conflicts[0]));
    if (v->nconflicts > 0) {
        api_respond_conflicts(resp, v->conflicts, v->nconflicts);
        return 1;
    }
    if ((st = killer_check(puzzle, &k, &err)) != KILLER_OK) {
        respond_cages(resp, st, &err);
        return 1;
    }
    t0 = api_now_us();
    st = killer_count(puzzle, &k, 2, ctx->max_killer_nodes, &v->solution,
                      &count, &stats);
    v->took_us = api_now_us() - t0;
    v->stats.nodes = stats.nodes;
    v->stats.guesses = stats.guesses;
    if (st == KILLER_BUDGET) {
        api_respond_search_limit(resp, ctx->max_killer_nodes);
        v->result = API_SEARCH_LIMIT;
    } else if (count == 0) {
        api_respond_simple(resp, 422, "no_solution", "No solution",
                           "the board and the cages obey the rules but "
                           "cannot be completed");
        v->result = API_NO_SOLUTION;
    } else if (count > 1) {
        api_respond_simple(resp, 422, "multiple_solutions",
                           "Multiple solutions",
                           "the board and the cages have more than one "
                           "solution; a valid puzzle has exactly one, so "
                           "add cages or givens");
        v->result = API_MULTIPLE_SOLUTIONS;
    } else {
        api_respond_solution(req, resp, &v->solution, board->shape, &v->stats,
                             v->took_us);
        if (resp->status == 200) /* not out of memory */
            v->result = API_SOLVED;
    }
    return 1;
}

int api_validate_killer(const struct api_context *ctx,
                        const struct api_request *req,
                        struct api_response *resp,
                        const struct sudoku_grid *puzzle)
{
    struct sudoku_conflict conflicts[3 * SUDOKU_SIZE * SUDOKU_SIZE];
    struct killer_cages k;
    struct killer_error err;
    enum killer_status st;
    unsigned count = 0;
    size_t n, len = 0;
    int complete = 1;
    char *body;
    int has = read_cages(req, resp, &k);

    if (has <= 0)
        return has < 0;
    n = sudoku_conflicts(puzzle, conflicts,
                         sizeof(conflicts) / sizeof(conflicts[0]));
    st = killer_check(puzzle, &k, &err);
    /* Givens that break the 9x9 rules are this route's answer (200,
     * "conflicts"), even when they break a cage too. */
    if (st != KILLER_OK && !(st == KILLER_GIVEN_CONFLICT && n > 0)) {
        respond_cages(resp, st, &err);
        return 1;
    }
    if (n == 0 && st == KILLER_OK &&
        killer_count(puzzle, &k, 2, ctx->max_killer_nodes, NULL, &count,
                     NULL) == KILLER_BUDGET) {
        api_respond_search_limit(resp, ctx->max_killer_nodes);
        return 1;
    }
    for (int i = 0; i < SUDOKU_CELLS; i++)
        complete &= puzzle->cell[i] != 0;
    body = codec_encode_validate(n == 0 && count == 1, count, complete,
                                 conflicts, n, &len);
    api_respond_json(resp, body, len);
    return 1;
}
