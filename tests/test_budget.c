/* test_budget.c - searches bounded by CPU time (include/engine/budget.h):
 * the generic and killer searches stop at their deadline on the thread's
 * CPU clock, and a batch of heavy boards stops at its CPU budget and
 * answers the rest batch_budget_exhausted. CPU use is read with
 * getrusage(RUSAGE_THREAD), not the clock the engine reads, and never the
 * wall clock, so a loaded machine does not make these fail. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "api.h"
#include "budget.h"
#include "cover.h"
#include "killer.h"
#include "tests.h"

/* Node bounds far past what the deadline leaves (the heavy rules' nodes
 * cost about 4.6 us, killer's about 2 us): they end a search that ignored
 * its deadline, and the test fails instead of hanging. */
#define BACKSTOP_NODES 300000

/* A deadline generous enough for one clock read in 256 nodes of the
 * costliest node (about 10 us under the sanitizers), and the multiple of
 * it a search may use at most. */
#define DEADLINE_MS 60
#define SLACK 3

/* This thread's CPU time in ms, user and system. */
static double thread_cpu_ms(void)
{
    struct rusage ru;

    assert_int_equal(getrusage(RUSAGE_THREAD, &ru), 0);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

/* The costliest 25x25 rules found (docs/operations.md, "CPU of one
 * search"): 32 extra regions of 25 cells that share 24 cells, each with one
 * cell of its own. Every own cell must then hold the one digit the shared
 * cells lack, and 32 cells cannot share a digit on 25 rows, so there is
 * no solution; the search cannot see it and every node propagates through
 * 32 full groups. The cells come from a fixed pseudo-random walk over the
 * grid (the one tests/tools/budget_climb.py starts from). */
static void heavy_rules(struct cover_rules *r)
{
    uint8_t used[COVER_MAX_CELLS] = {0};
    uint16_t cell[24 + COVER_MAX_EXTRA];
    uint32_t x = 12345;

    assert_int_equal(cover_rules_init(r, 25), COVER_OK);
    for (unsigned k = 0; k < 24 + COVER_MAX_EXTRA;) {
        x = x * 1103515245u + 12345u;
        unsigned c = (x >> 8) % COVER_MAX_CELLS;
        if (!used[c]) {
            used[c] = 1;
            cell[k++] = (uint16_t)c;
        }
    }
    r->nextra = COVER_MAX_EXTRA;
    for (unsigned g = 0; g < COVER_MAX_EXTRA; g++) {
        r->extra[g].ncells = 25;
        memcpy(r->extra[g].cell, cell, 24 * sizeof(cell[0]));
        r->extra[g].cell[24] = cell[24 + g];
    }
    assert_int_equal(cover_rules_check(r, NULL, NULL, 0), COVER_OK);
}

/* With no node bound short of a second's work, only the CPU deadline can
 * end the search of the heavy rules on an empty board: it does, after the
 * deadline and within a few times it. */
static void
cover_search_of_the_costliest_rules_stops_at_its_cpu_deadline(void **state)
{
    struct cover_rules r;
    struct cover_grid empty = {.n = 25};
    struct sudoku_stats st;
    struct search_budget b;
    unsigned count = 9;
    double t0, used;

    (void)state;
    heavy_rules(&r);
    t0 = thread_cpu_ms();
    b = search_budget_make(BACKSTOP_NODES, DEADLINE_MS * 1000000ull);
    assert_int_equal(cover_count_budget(&r, &empty, 2, &b, NULL, &count, &st),
                     COVER_BUDGET);
    used = thread_cpu_ms() - t0;
    assert_int_equal(count, 0);
    assert_true(st.nodes > 0);
    assert_false(search_budget_by_nodes(&b, st.nodes));
    if (used < DEADLINE_MS - 5 || used > SLACK * DEADLINE_MS)
        fail_msg("the search used %.1f ms of CPU for a deadline of %d ms", used,
                 DEADLINE_MS);
}

/* A killer search that cannot end (one cage on an empty grid, every
 * solution counted) stops at its CPU deadline too. */
static void killer_search_without_end_stops_at_its_cpu_deadline(void **state)
{
    struct sudoku_grid empty = {{0}};
    struct killer_cages k;
    struct sudoku_stats st;
    struct search_budget b;
    unsigned count = 0;
    double t0, used;

    (void)state;
    killer_init(&k);
    killer_add_cage(&k, 3);
    killer_add_cell(&k, 0, 0);
    killer_add_cell(&k, 0, 1);
    t0 = thread_cpu_ms();
    b = search_budget_make(BACKSTOP_NODES, DEADLINE_MS * 1000000ull);
    assert_int_equal(
        killer_count_budget(&empty, &k, 0xFFFFFFFFu, &b, NULL, &count, &st),
        KILLER_BUDGET);
    used = thread_cpu_ms() - t0;
    assert_true(count > 0); /* it was finding solutions all along */
    assert_false(search_budget_by_nodes(&b, st.nodes));
    if (used < DEADLINE_MS - 5 || used > SLACK * DEADLINE_MS)
        fail_msg("the search used %.1f ms of CPU for a deadline of %d ms", used,
                 DEADLINE_MS);
}

/* A deadline already past stops a search at its root, before any node;
 * the node bound alone still gives its exact count. */
static void past_deadline_stops_at_the_root_and_nodes_stay_exact(void **state)
{
    struct cover_rules r;
    struct cover_grid empty = {.n = 25};
    struct sudoku_stats st;
    struct search_budget past = {BACKSTOP_NODES, 1}, nodes = {1000, 0};
    unsigned count = 0;

    (void)state;
    heavy_rules(&r);
    assert_int_equal(
        cover_count_budget(&r, &empty, 2, &past, NULL, &count, &st),
        COVER_BUDGET);
    assert_int_equal(st.nodes, 0);
    assert_int_equal(count, 0);
    assert_int_equal(
        cover_count_budget(&r, &empty, 2, &nodes, NULL, &count, &st),
        COVER_BUDGET);
    assert_int_equal(st.nodes, 1000);
    assert_true(search_budget_by_nodes(&nodes, st.nodes));
}

/* NDJSON lines of the batch: an empty 25x25 board with diagonals
 * and anti-knight, whose search runs until a budget stops it. */
#define HEAVY_LINE                                                             \
    "{\"diagonals\": true, \"anti_knight\": true, \"board\": \"%s\"}\n"
#define NLINES 40
#define BATCH_MS 240
#define SEARCH_MS 40

static char *heavy_batch(void)
{
    char dots[626], *body = malloc(NLINES * 700), *at = body;

    memset(dots, '.', 625);
    dots[625] = '\0';
    for (int i = 0; i < NLINES; i++)
        at += sprintf(at, HEAVY_LINE, dots);
    return body;
}

/* A batch of 40 boards that each could search for ever, with 240 ms for
 * the batch and 40 ms for a search (only a backstop of nodes): about
 * six are searched, each stopped by its own CPU budget (search_limit,
 * saying so) or by what the batch had left; every later one is
 * batch_budget_exhausted naming --max-batch-ms; the whole call stays
 * within a few times the batch's budget. */
static void batch_of_heavy_boards_stops_at_its_cpu_budget(void **state)
{
    static const struct api_context c = {.max_nodes = UINT32_MAX,
                                         .max_body = 16384,
                                         .max_batch = 100,
                                         .max_batch_body = 1 << 20,
                                         .max_batch_nodes = BACKSTOP_NODES,
                                         .max_search_ms = SEARCH_MS,
                                         .max_batch_ms = BATCH_MS};
    char *body = heavy_batch();
    struct api_request req = {.method = "POST",
                              .path = "/solve/batch",
                              .content_type = "application/x-ndjson",
                              .body = body,
                              .body_len = strlen(body)};
    struct api_response r;
    int limited = 0, exhausted = 0, i = 0;
    double t0, used;

    (void)state;
    memset(&r, 0, sizeof(r));
    t0 = thread_cpu_ms();
    api_handle(&c, &req, &r);
    used = thread_cpu_ms() - t0;
    free(body);
    assert_int_equal(r.status, 200);
    for (char *line = strtok(r.body, "\n"); line; line = strtok(NULL, "\n")) {
        cJSON *item = cJSON_Parse(line),
              *p = cJSON_GetObjectItem(item, "problem");
        const char *code = cJSON_GetObjectItem(p, "code")->valuestring;
        const char *detail = cJSON_GetObjectItem(p, "detail")->valuestring;
        assert_int_equal(cJSON_GetObjectItem(item, "index")->valueint, i++);
        if (strcmp(code, "search_limit") == 0) {
            assert_int_equal(exhausted, 0); /* none after the first */
            assert_non_null(strstr(detail, "ms of CPU time (--max-search-ms)"));
            assert_true(cJSON_GetObjectItem(p, "limit")->valueint == SEARCH_MS);
            limited++;
        } else {
            assert_string_equal(code, "batch_budget_exhausted");
            assert_non_null(strstr(detail, "ms of CPU time (--max-batch-ms)"));
            assert_true(cJSON_GetObjectItem(p, "limit")->valueint == BATCH_MS);
            exhausted++;
        }
        cJSON_Delete(item);
    }
    api_response_free(&r);
    assert_int_equal(i, NLINES);
    /* 240 / 40: six searches fit, the sixth maybe cut by the batch; one
     * more when the parse and setup took little. */
    if (limited < 4 || limited > 7)
        fail_msg("%d boards searched to their own limit", limited);
    assert_true(exhausted >= NLINES - 7);
    if (used < BATCH_MS - 10 || used > SLACK * BATCH_MS)
        fail_msg("the batch used %.1f ms of CPU for a budget of %d ms", used,
                 BATCH_MS);
}

/* The tests' 17-given classic board without a solution: 200,998 nodes
 * to refute, about 50 ms. */
#define HARD                                                                   \
    "\"41...9.8...................3..1.8........47.........69.47....3..83.4"   \
    "....1........\"\n"

/* The classic solver reads no clock; in a batch its nodes are cut to what
 * the batch's CPU has left (2,000 a ms): with 20 ms for the batch, the
 * first hard board is cut short by the batch, and every board answers
 * batch_budget_exhausted naming --max-batch-ms. */
static void classic_batch_stops_at_its_cpu_budget(void **state)
{
    static const struct api_context c = {.max_nodes = 10000000,
                                         .max_body = 16384,
                                         .max_batch = 100,
                                         .max_batch_body = 1 << 20,
                                         .max_search_ms = 450,
                                         .max_batch_ms = 20};
    char body[20 * 90] = "";
    struct api_request req = {.method = "POST",
                              .path = "/solve/batch",
                              .content_type = "application/x-ndjson",
                              .body = body};
    struct api_response r;
    int n = 0;
    double t0, used;

    (void)state;
    for (int i = 0; i < 20; i++)
        strcat(body, HARD);
    req.body_len = strlen(body);
    memset(&r, 0, sizeof(r));
    t0 = thread_cpu_ms();
    api_handle(&c, &req, &r);
    used = thread_cpu_ms() - t0;
    assert_int_equal(r.status, 200);
    for (char *line = strtok(r.body, "\n"); line; line = strtok(NULL, "\n")) {
        cJSON *item = cJSON_Parse(line),
              *p = cJSON_GetObjectItem(item, "problem");
        assert_string_equal(cJSON_GetObjectItem(p, "code")->valuestring,
                            "batch_budget_exhausted");
        assert_non_null(strstr(cJSON_GetObjectItem(p, "detail")->valuestring,
                               "--max-batch-ms"));
        cJSON_Delete(item);
        n++;
    }
    api_response_free(&r);
    assert_int_equal(n, 20);
    if (used > SLACK * 20 + 10)
        fail_msg("the batch used %.1f ms of CPU for a budget of 20 ms", used);
}

int test_budget(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            cover_search_of_the_costliest_rules_stops_at_its_cpu_deadline),
        cmocka_unit_test(killer_search_without_end_stops_at_its_cpu_deadline),
        cmocka_unit_test(past_deadline_stops_at_the_root_and_nodes_stay_exact),
        cmocka_unit_test(batch_of_heavy_boards_stops_at_its_cpu_budget),
        cmocka_unit_test(classic_batch_stops_at_its_cpu_budget),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("budget", tests, NULL, NULL);
}
