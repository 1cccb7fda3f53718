/* api_batch.c - POST /solve/batch: many boards in one request, as a JSON
 * object {"boards": [...]} or as NDJSON, answered in input order with one
 * result per board (a solution, or a problem with its code). The http module
 * runs this route on its job pool, not on an event loop. A batch has one
 * budget of CPU time (and one of nodes) for its parse, searches and
 * encoding, and a stop flag ends it between puzzles: what it did not judge
 * gets a problem, and the answer is still whole. */
#include <stdio.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>
#include <strings.h>

#include "api.h"
#include "api_internal.h"
#include "clock.h"
#include "codec.h"
#include "metrics.h"
#include "sudoku.h"

#define NDJSON_TYPE "application/x-ndjson"

/* A batch being answered: its puzzles, how far it has got, the answer.
 * A batch has a budget of CPU time (--max-batch-ms), counted on the
 * thread's CPU clock over every call that works on it (its decoding
 * included), and one of search nodes (--max-batch-nodes): each search gets
 * what is left of both, up to its own (--max-search-ms, --max-nodes), so
 * the whole batch never costs much more than its budget. */
struct api_batch {
    const struct api_context *ctx;
    struct codec_batch items;
    size_t next, solved;
    uint64_t solve_us;
    uint64_t nodes_left; /* of the batch's budget */
    int grew;            /* the heap: trim at the end (grew_heap) */
    uint64_t cpu_used;   /* ns of CPU the batch used in earlier calls */
    uint64_t cpu_start;  /* in this call: the thread's CPU clock when the
                            batch would have started, had it run here */
    int ndjson;
    int (*gone)(void *arg); /* the request's: has the client hung up? */
    void *gone_arg;
    uint64_t asked_us; /* when gone was last asked */
    struct codec_out out;
    struct api_verdict verdict;   /* scratch, reused for every puzzle */
    struct codec_batch_item item; /* scratch: the puzzle being judged */
    struct cover_grid cover;      /* scratch: the givens of a variant */
};

/* A batch hands the memory it freed back to the system (malloc_trim)
 * after decoding and at its end when it grew the heap: when its body was
 * parsed into a cJSON tree (up to 112 bytes a value, in small blocks) and
 * was TRIM_TREE_BYTES or more, when its records held TRIM_HELD_BYTES or
 * more in small blocks (failed items' errors, variant boards), or when its
 * body was TRIM_BYTES or more. Small blocks freed stay with the process
 * otherwise, and a worker's arena keeps the high-water mark of the largest
 * batch it ran (docs/operations.md, "Memory goes back"). */
#define TRIM_BYTES (1u << 20)
#define TRIM_TREE_BYTES (64u << 10)
#define TRIM_HELD_BYTES (64u << 10)

static int grew_heap(const struct codec_batch *items, size_t body_len)
{
    return body_len >= TRIM_BYTES ||
           (items->parsed_tree && body_len >= TRIM_TREE_BYTES) ||
           items->held_bytes >= TRIM_HELD_BYTES;
}

static void give_back_memory(int grew)
{
#ifdef __GLIBC__
    if (grew)
        malloc_trim(0);
#else
    (void)grew;
#endif
}

/* The problem of a puzzle the batch did not judge: its budget (CPU time
 * when by_cpu, else nodes) was spent, or the server is shutting down. */
static void unjudged_problem(const struct api_context *ctx, int stopping,
                             int by_cpu, struct codec_problem *p,
                             struct api_problem_text *t)
{
    if (stopping) {
        codec_problem_init(p, CODEC_PROBLEM_SHUTTING_DOWN,
                           "the server is shutting down and stopped this "
                           "batch before judging this puzzle; send it again");
        return;
    }
    if (by_cpu)
        snprintf(t->detail, sizeof(t->detail),
                 "the batch used its %u ms of CPU time (--max-batch-ms) "
                 "before settling this puzzle; send it again in another "
                 "batch",
                 ctx->max_batch_ms);
    else
        snprintf(t->detail, sizeof(t->detail),
                 "the batch used its budget of %llu search nodes "
                 "(--max-batch-nodes) before settling this puzzle; send it "
                 "again in another batch",
                 (unsigned long long)ctx->max_batch_nodes);
    codec_problem_init(p, CODEC_PROBLEM_BATCH_BUDGET_EXHAUSTED, t->detail);
    p->limit =
        by_cpu ? (long long)ctx->max_batch_ms : (long long)ctx->max_batch_nodes;
}

/* The batch's CPU deadline on this thread's clock; 0: none. */
static uint64_t batch_deadline(const struct api_batch *b)
{
    if (b->ctx->max_batch_ms == 0)
        return 0;
    return b->cpu_start + b->ctx->max_batch_ms * 1000000ull;
}

/* The budget of the next search of a puzzle of `kind` into *sb (*own:
 * its nodes before the batch's cut them): 1, or 0 (*by_cpu: which budget)
 * when the batch's budget is spent, -1 when the server is stopping the
 * batch. */
static int next_budget(const struct api_batch *b, enum codec_kind kind,
                       struct search_budget *sb, uint64_t *own, int *by_cpu)
{
    const struct api_context *ctx = b->ctx;
    uint64_t deadline = batch_deadline(b);

    if (ctx->stop != NULL &&
        atomic_load_explicit(ctx->stop, memory_order_relaxed))
        return -1;
    *sb = api_search_budget(ctx, kind, ctx->max_nodes);
    *own = sb->max_nodes;
    *by_cpu = 0;
    if (ctx->max_batch_nodes > 0) {
        if (b->nodes_left == 0)
            return 0;
        if (sb->max_nodes == 0 || sb->max_nodes > b->nodes_left)
            sb->max_nodes = b->nodes_left; /* >= 1: 0 means no bound */
    }
    if (deadline > 0) {
        *by_cpu = 1;
        if (search_budget_cpu_ns() >= deadline)
            return 0;
        if (sb->cpu_deadline_ns == 0 || sb->cpu_deadline_ns > deadline)
            sb->cpu_deadline_ns = deadline;
    }
    return 1;
}

/* Takes a search's nodes from the batch's budget; a search cut by the
 * batch's budget (of nodes or of CPU), not by its own, gets the problem
 * that says so. */
static void spend(struct api_batch *b, uint64_t own,
                  const struct search_budget *sb, const struct api_verdict *v,
                  struct codec_problem *p, struct api_problem_text *t)
{
    const struct api_context *ctx = b->ctx;

    if (ctx->max_batch_nodes > 0)
        b->nodes_left -=
            v->stats.nodes < b->nodes_left ? v->stats.nodes : b->nodes_left;
    if (v->result != API_SEARCH_LIMIT)
        return;
    if (v->cpu_out && sb->cpu_deadline_ns == batch_deadline(b))
        unjudged_problem(ctx, 0, 1, p, t);
    else if (!v->cpu_out && sb->max_nodes != own)
        unjudged_problem(ctx, 0, 0, p, t);
}

/* Judges the puzzle g with what is left of the batch's budget and
 * appends its result (its solution in `shape`); returns 1 when solved, 0
 * otherwise, -1 (budget spent; *by_cpu says which) or -2 (stopping) when
 * it was not judged (then nothing is appended). */
static int judge_puzzle(struct api_batch *b, size_t i,
                        const struct api_givens *g, enum codec_shape shape,
                        int *by_cpu)
{
    struct api_verdict *v = &b->verdict;
    struct search_budget sb;
    uint64_t own = 0;
    int go = next_budget(b, g->kind, &sb, &own, by_cpu);

    if (go <= 0)
        return go - 1; /* -1: out of budget, -2: stopping */
    api_judge_within(b->ctx, &sb, g, v);
    spend(b, own, &sb, v, &v->problem, &v->text);
    if (v->result != API_SOLVED)
        codec_out_problem(&b->out, i, &v->problem);
    else if (g->kind == CODEC_VARIANT)
        codec_out_variant_solution(&b->out, i, &v->cover_solution, shape);
    else
        codec_out_solution(&b->out, i, &v->solution, shape);
    return v->result == API_SOLVED;
}

/* The givens of item i (decoded into b->item) into *g, parsed for the
 * engine of its kind: 0, or -1 with *p (an item the codec refused, a bad
 * character, bad rules). */
static int item_givens(struct api_batch *b, size_t i, struct api_givens *g,
                       struct sudoku_grid *grid, struct codec_problem *p,
                       struct api_problem_text *t)
{
    struct codec_batch_item *it = &b->item;
    size_t bad;

    codec_batch_get(&b->items, i, it);
    *g = (struct api_givens){CODEC_CLASSIC, NULL, NULL, NULL, NULL};
    if (it->status != CODEC_OK) {
        api_decode_problem(it->status, &it->err, p);
        return -1;
    }
    if (it->is_variant) {
        g->kind = CODEC_VARIANT;
        g->rules = &it->variant.rules;
        g->cover = &b->cover;
        return api_variant_prepare(&it->variant, &b->cover, p, t);
    }
    g->grid = it->board.has_grid ? &it->board.grid : grid;
    if (!it->board.has_grid &&
        sudoku_parse(it->board.text, SUDOKU_CELLS, grid, &bad) != SUDOKU_OK) {
        api_bad_char_problem(it->board.text, SUDOKU_SIZE, it->board.shape, bad,
                             it->at, 0, p, t);
        return -1;
    }
    return 0;
}

/* Judges item i and appends its result; returns 1 when it was solved. */
static int judge_item(struct api_batch *b, size_t i)
{
    const struct codec_batch_item *it = &b->item;
    struct api_verdict *v = &b->verdict;
    struct sudoku_grid grid;
    struct api_givens g;
    struct codec_problem p;
    struct api_problem_text t;
    int solved, by_cpu = 0;

    v->result = API_INVALID;
    v->took_us = 0;
    v->stats.guesses = 0;
    if (item_givens(b, i, &g, &grid, &p, &t) != 0) {
        codec_out_problem(&b->out, i, &p);
    } else if ((solved = judge_puzzle(b, i, &g,
                                      it->is_variant ? it->variant.shape
                                                     : it->board.shape,
                                      &by_cpu)) < 0) {
        unjudged_problem(b->ctx, solved == -2, by_cpu, &p, &t);
        codec_out_problem(&b->out, i, &p);
        return 0; /* not judged: not counted as a result */
    }
    b->solve_us += v->took_us;
    api_count_puzzle(b->ctx->metrics, v->result, v->took_us, v->stats.guesses);
    return v->result == API_SOLVED;
}

/* Decodes a batch request; NULL when resp already holds the answer (an
 * error: 413, 415, 400). */
static struct api_batch *batch_open(const struct api_context *ctx,
                                    const struct api_request *req,
                                    struct api_response *resp)
{
    int ndjson = api_media_is(req->content_type, NDJSON_TYPE);
    struct api_batch *b;
    struct codec_error err;
    struct codec_problem p;
    enum codec_status st;
    uint64_t t0 = search_budget_cpu_ns();

    if (req->body_too_large) {
        api_respond_too_large(ctx, ctx->max_batch_body, resp);
        return NULL;
    }
    if (!ndjson && !api_media_is(req->content_type, API_JSON_TYPE)) {
        api_respond_bad_type(resp, "send the batch with Content-Type: "
                                   "application/json ({\"boards\": [...]}) or "
                                   "application/x-ndjson (one board per line)");
        return NULL;
    }
    if ((b = calloc(1, sizeof(*b))) == NULL) {
        api_respond_no_memory(resp);
        return NULL;
    }
    st = codec_decode_batch(req->body, req->body_len, ndjson, ctx->max_batch,
                            &b->items, &err);
    if (st != CODEC_OK) {
        if (st == CODEC_TOO_MANY) {
            codec_problem_init(&p, CODEC_PROBLEM_BATCH_TOO_LARGE, err.detail);
            p.limit = (long long)ctx->max_batch;
        } else if (st == CODEC_TOO_COMPLEX) {
            codec_problem_init(&p, CODEC_PROBLEM_BATCH_TOO_COMPLEX, err.detail);
            p.limit = err.offset;
        } else {
            api_decode_problem(st, &err, &p);
        }
        api_respond_problem(resp, &p);
        free(b);
        /* a tree may have been built */
        give_back_memory(req->body_len >= TRIM_TREE_BYTES);
        return NULL;
    }
    b->grew = grew_heap(&b->items, req->body_len);
    give_back_memory(b->items.parsed_tree && b->grew); /* the tree is gone */
    b->ctx = ctx;
    b->ndjson = ndjson;
    b->gone = req->gone;
    b->gone_arg = req->gone_arg;
    b->asked_us = clock_now_us();
    b->nodes_left = ctx->max_batch_nodes;
    b->cpu_used = search_budget_cpu_ns() - t0; /* the decoding */
    codec_out_begin(&b->out, ndjson);
    return b;
}

static const char *batch_type(const struct api_batch *b)
{
    return b->ndjson ? NDJSON_TYPE : API_JSON_TYPE;
}

/* Has the client hung up? Asked at most every API_GONE_CHECK_US, so that
 * a batch of easy boards does not pay a system call for each. */
static int client_gone(struct api_batch *b)
{
    uint64_t now;

    if (b->gone == NULL ||
        (now = clock_now_us()) - b->asked_us < API_GONE_CHECK_US)
        return 0;
    b->asked_us = now;
    return b->gone(b->gone_arg);
}

char *api_batch_next(struct api_batch *b, size_t n, size_t *len, int *done)
{
    size_t end = b->next + n < b->items.n ? b->next + n : b->items.n;
    char *piece;

    /* The calls may come from different threads: each counts its own. */
    b->cpu_start = search_budget_cpu_ns() - b->cpu_used;
    for (; b->next < end; b->next++) {
        if (client_gone(b)) { /* nobody to answer: stop here */
            *done = 1;
            return NULL;
        }
        b->solved += (size_t)judge_item(b, b->next);
    }
    *done = b->next == b->items.n;
    if (*done)
        codec_out_tail(&b->out, b->items.n, b->solved, b->solve_us);
    piece = codec_out_take(&b->out, len);
    b->cpu_used = search_budget_cpu_ns() - b->cpu_start;
    return piece;
}

void api_batch_free(struct api_batch *b)
{
    size_t len;
    int grew;

    if (b == NULL)
        return;
    grew = b->grew;
    free(codec_out_take(&b->out, &len));
    codec_batch_free(&b->items);
    free(b);
    give_back_memory(grew);
}

/* A caller that can stream gets the batch itself in resp->stream and pulls
 * the answer piece by piece; otherwise the whole answer is built here. */
void api_handle_solve_batch(const struct api_context *ctx,
                            const struct api_request *req,
                            struct api_response *resp)
{
    struct api_batch *b = batch_open(ctx, req, resp);
    struct codec_out all;
    size_t len;
    int done = 0;
    char *body;

    if (b == NULL)
        return;
    if (req->can_stream) {
        resp->status = 200;
        resp->content_type = batch_type(b);
        resp->stream = b;
        return;
    }
    codec_out_begin(&all, 1); /* a plain buffer: ndjson adds no head */
    while (!done) {
        char *chunk = api_batch_next(b, 256, &len, &done);
        if (chunk == NULL)
            break;
        codec_out_raw(&all, chunk, len);
        free(chunk);
    }
    body = done ? codec_out_take(&all, &len) : NULL;
    free(done ? NULL : codec_out_take(&all, &len));
    if (body == NULL)
        api_respond_no_memory(resp);
    else
        api_respond_body(resp, 200, batch_type(b), body, len);
    api_batch_free(b);
}
