/* test_http_batch.c - part of the HTTP suite (test_http.c): batches and
 * /generate run on the job pool with the connection suspended meanwhile:
 * other requests flow, a full queue answers 503, clients that leave and a
 * stop with batches queued leak nothing. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "config.h"
#include "http.h"
#include "../src/http/http_internal.h" /* the job pool's counts */
#include "http_support.h"
#include "support.h"
#include "tests.h"

/* Waits (10 s at most) until the job pool has `queued` jobs waiting and
 * `running` taken by a worker; 1 when it came to that. */
struct jobs_wait {
    struct http_jobs *j;
    unsigned queued, running;
};

static int jobs_there(void *arg)
{
    struct jobs_wait *w = arg;
    int there;

    pthread_mutex_lock(&w->j->lock);
    there = w->j->reserved == w->queued && w->j->running == w->running;
    pthread_mutex_unlock(&w->j->lock);
    return there;
}

static int jobs_reach(struct ht_server *s, unsigned queued, unsigned running)
{
    struct jobs_wait w = {&s->srv->pools[HTTP_POOL_LONG], queued, running};

    return support_wait_until(jobs_there, &w, 10000);
}

/* {"boards": [...]} with n forum-hardest puzzles (the sample, repeated). */
static char *hard_batch(int n, size_t *len)
{
    FILE *f = fopen("tests/data/puzzles5_forum_hardest_1905_11+", "r");
    char lines[200][82], line[256];
    int have = 0;
    char *body, *p;

    assert_non_null(f);
    while (have < 200 && fgets(line, sizeof(line), f))
        if (line[0] != '#' && strlen(line) >= 81) {
            memcpy(lines[have], line, 81);
            lines[have++][81] = '\0';
        }
    fclose(f);
    body = malloc((size_t)n * 86 + 32);
    p = body + sprintf(body, "{\"boards\":[");
    for (int i = 0; i < n; i++)
        p += sprintf(p, "%s\"%s\"", i ? "," : "", lines[i % have]);
    p += sprintf(p, "]}");
    *len = (size_t)(p - body);
    return body;
}

struct batch_call {
    uint16_t port;
    const char *body;
    size_t len;
    long status;
    double seconds, first_byte;
    size_t results;
};

/* Collects a whole answer, however long. */
struct grow_buf {
    char *data;
    size_t len;
};

static size_t on_grow(char *p, size_t size, size_t n, void *userdata)
{
    struct grow_buf *g = userdata;
    char *q = realloc(g->data, g->len + size * n + 1);

    if (q == NULL)
        return 0;
    memcpy(q + g->len, p, size * n);
    g->data = q;
    g->len += size * n;
    g->data[g->len] = '\0';
    return size * n;
}

static void *batch_thread(void *arg)
{
    struct batch_call *b = arg;
    CURL *curl = curl_easy_init();
    struct curl_slist *hdrs =
        curl_slist_append(NULL, "Content-Type: application/json");
    struct grow_buf g = {NULL, 0};
    char url[64];

    snprintf(url, sizeof(url), "http://127.0.0.1:%u/solve/batch",
             (unsigned)b->port);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, hdrs);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, b->body);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)b->len);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_grow);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &g);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 60L);
    curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &b->status);
    curl_easy_getinfo(curl, CURLINFO_TOTAL_TIME, &b->seconds);
    curl_easy_getinfo(curl, CURLINFO_STARTTRANSFER_TIME, &b->first_byte);
    b->results = 0;
    for (const char *p = g.data; p && (p = strstr(p, "\"index\":")) != NULL;
         p++)
        b->results++;
    free(g.data);
    curl_slist_free_all(hdrs);
    curl_easy_cleanup(curl);
    return NULL;
}

static void batch_over_http(void **state)
{
    struct ht_server *s = *state;
    CURL *curl = curl_easy_init();
    struct ht_reply r;
    static const char ndjson[] = "\"9.7.....6824.3......1..9..2.9...2.18...4..."
                                 ".51325.8......687.........8.9.4.9...5.\"\n"
                                 "\"x\"\n";

    ht_request(
        curl, s->port, "POST", "/solve/batch", "application/json",
        "{\"boards\":[\"9.7.....6824.3......1..9..2.9...2.18...4....51325."
        "8......687.........8.9.4.9...5.\"]}",
        96, &r);
    assert_int_equal(r.status, 200);
    assert_non_null(
        strstr(r.body, "{\"results\":[{\"index\":0,\"solution\":\"957214386"));
    ht_request(curl, s->port, "POST", "/solve/batch", "application/x-ndjson",
               ndjson, strlen(ndjson), &r);
    assert_int_equal(r.status, 200);
    assert_true(ht_has_header(&r, "Content-Type: application/x-ndjson"));
    assert_non_null(strstr(r.body, "\n{\"index\":1,\"problem\":{"));
    /* A long Content-Type (parameters) reaches the job whole. */
    {
        char type[400];
        snprintf(type, sizeof(type),
                 "application/json; charset=utf-8; x=%0300d", 7);
        ht_request(curl, s->port, "POST", "/solve/batch", type,
                   "{\"boards\":[]}", 13, &r);
        assert_int_equal(r.status, 200);
    }
    /* /generate runs on the job pool too. */
    ht_request(curl, s->port, "POST", "/generate", "application/json",
               "{\"difficulty\":\"easy\",\"seed\":7}", 30, &r);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "\"puzzle\":"));
    /* Its own body limit (4 MiB by default), not /solve's 16 KiB. */
    {
        size_t len;
        char *body = hard_batch(1000, &len); /* about 85 KB */
        ht_request(curl, s->port, "POST", "/solve/batch", "application/json",
                   body, len, &r);
        assert_int_equal(r.status, 200);
        free(body);
    }
    curl_easy_cleanup(curl);
}

/* A long batch does not hold up short requests on other connections. */
static void batch_leaves_others_flowing(void **state)
{
    struct ht_server *s;
    struct config cfg;
    struct batch_call b;
    pthread_t t;
    CURL *curl = curl_easy_init();
    double worst = 0;
    size_t len;
    char *body = hard_batch(3000, &len);

    (void)state;
    ht_config(&cfg, 2, 10);
    assert_int_equal(ht_start_with((void **)&s, &cfg), 0);
    b = (struct batch_call){.port = s->port, .body = body, .len = len};
    assert_int_equal(pthread_create(&t, NULL, batch_thread, &b), 0);
    assert_true(jobs_reach(s, 0, 1)); /* the batch is being solved now */
    for (int i = 0; i < 20; i++) {
        double took = 0;
        ht_solve_example(s->port, curl);
        curl_easy_getinfo(curl, CURLINFO_TOTAL_TIME, &took);
        if (took > worst)
            worst = took;
    }
    pthread_join(t, NULL);
    assert_int_equal(b.status, 200);
    assert_int_equal(b.results, 3000);
    print_message("batch of 3000 forum-hardest puzzles: first results after "
                  "%.0f ms, all after %.0f ms; slowest of 20 /solve requests "
                  "meanwhile: %.1f ms\n",
                  b.first_byte * 1e3, b.seconds * 1e3, worst * 1e3);
    /* The short requests did not wait for the batch, and the answer was
     * streamed: its first results came long before its last. */
    assert_true(worst < b.seconds / 2);
    assert_true(b.first_byte < b.seconds / 2);
    free(body);
    curl_easy_cleanup(curl);
    ht_teardown((void **)&s);
}

/* One worker, a queue of one: a third concurrent batch is refused with 503
 * and Retry-After, at once; the others complete. */
static void batch_queue_full(void **state)
{
    enum { N = 4 };
    struct ht_server *s;
    struct config cfg;
    struct batch_call b[N];
    pthread_t t[N];
    size_t len;
    char *body = hard_batch(1500, &len);
    int ok = 0, busy = 0;

    (void)state;
    ht_config(&cfg, 4, 10);
    cfg.batch_workers = 1;
    cfg.batch_queue = 1;
    assert_int_equal(ht_start_with((void **)&s, &cfg), 0);
    for (int i = 0; i < N; i++) {
        b[i] = (struct batch_call){.port = s->port, .body = body, .len = len};
        assert_int_equal(pthread_create(&t[i], NULL, batch_thread, &b[i]), 0);
    }
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        ok += b[i].status == 200 && b[i].results == 1500;
        busy += b[i].status == 503;
    }
    assert_int_equal(ok + busy, N);
    assert_true(ok >= 1);
    assert_true(busy >= 1);
    free(body);
    ht_teardown((void **)&s);
}

/* Clients that send a batch and leave before its answer starts: nothing
 * may leak (the sanitizer build's leak check runs at exit) and the server
 * goes on. */
static void batch_client_gone(void **state)
{
    struct ht_server *s;
    CURL *curl = curl_easy_init();
    size_t len;
    char *body = hard_batch(1500, &len), head[256];

    (void)state;
    assert_int_equal(ht_start((void **)&s, 2, 10), 0);
    snprintf(head, sizeof(head),
             "POST /solve/batch HTTP/1.1\r\nHost: x\r\nContent-Type: "
             "application/json\r\nContent-Length: %zu\r\n\r\n",
             len);
    for (int i = 0; i < 6; i++) {
        int fd = support_connect(s->port);
        assert_true(fd >= 0);
        assert_int_equal(send(fd, head, strlen(head), MSG_NOSIGNAL),
                         (ssize_t)strlen(head));
        assert_int_equal(send(fd, body, len, MSG_NOSIGNAL), (ssize_t)len);
        usleep((unsigned)(i % 3) * 20 * 1000);
        close(fd);
    }
    /* The worker runs the batches nobody waits for, to the last. */
    assert_true(jobs_reach(s, 0, 0));
    ht_solve_example(s->port, curl);
    free(body);
    curl_easy_cleanup(curl);
    ht_teardown((void **)&s);
}

/* Stopping with batches queued: those not started are answered 503 at
 * once, the running one finishes, and the stop does not wait for them all. */
struct stopper {
    struct http_server *srv;
    long cut;
};

static void *stop_thread(void *arg)
{
    struct stopper *st = arg;

    st->cut = http_server_stop(st->srv);
    return NULL;
}

static void stop_with_queued_batches(void **state)
{
    enum { N = 3 };
    struct ht_server *s;
    struct config cfg;
    struct batch_call b[N];
    pthread_t t[N], stopper_t;
    struct stopper st;
    size_t len;
    char *body = hard_batch(3000, &len);
    int ok = 0, busy = 0;

    (void)state;
    ht_config(&cfg, 4, 10);
    cfg.batch_workers = 1;
    cfg.batch_queue = 4;
    assert_int_equal(ht_start_with((void **)&s, &cfg), 0);
    for (int i = 0; i < N; i++) {
        b[i] = (struct batch_call){.port = s->port, .body = body, .len = len};
        assert_int_equal(pthread_create(&t[i], NULL, batch_thread, &b[i]), 0);
    }
    assert_true(jobs_reach(s, 2, 1)); /* one batch runs, two wait */
    http_server_drain(s->srv, 0);
    st.srv = s->srv;
    assert_int_equal(pthread_create(&stopper_t, NULL, stop_thread, &st), 0);
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        ok += b[i].status == 200 && b[i].results == 3000;
        busy += b[i].status == 503;
    }
    pthread_join(stopper_t, NULL);
    print_message("stop with 3 batches: %d answered in full, %d refused 503, "
                  "%ld cut\n",
                  ok, busy, st.cut);
    assert_int_equal(ok + busy, N);
    assert_true(ok >= 1);
    assert_true(busy >= 1);
    assert_int_equal(st.cut, 0);
    free(body);
    free(s);
}

int test_http_batch(unsigned *ntests)
{
    static const struct CMUnitTest tests[] = {
        cmocka_unit_test(batch_over_http),
        cmocka_unit_test(batch_leaves_others_flowing),
        cmocka_unit_test(batch_queue_full),
        cmocka_unit_test(batch_client_gone),
        cmocka_unit_test(stop_with_queued_batches),
    };

    *ntests = TESTS_COUNT(tests);
    return cmocka_run_group_tests_name("http_batch", tests, ht_setup,
                                       ht_teardown);
}
