/* http_jobs.c - the worker pools: for each, a bounded queue and a few
 * threads, so that work longer than a slice never holds an event loop and
 * short requests keep flowing. One pool takes requests of up to about a
 * second (/hint, /grade, /explain, what a loop's slice deferred), the
 * other long jobs (batches, generation), so neither waits behind the
 * other. The waiting connection is suspended (libmicrohttpd stops polling
 * it) and resumed by the worker when its answer starts; a batch's answer
 * is then streamed as the worker produces it, a few dozen puzzles at a
 * time (http_stream), the worker waiting while the client is behind. A
 * client that hangs up stops its batch within API_GONE_CHECK_US of work
 * (and a queued job is not run). At the drain deadline http_jobs_halt
 * makes running batches end at once. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http_internal.h"

#define STREAM_STEP 64 /* puzzles judged between two pieces of the answer */
/* The worker waits while more than this much of the answer is not sent
 * yet, so a client that reads slowly (or not at all) holds at most this
 * plus one piece, not the whole answer. */
#define STREAM_HIGH (256u << 10)

/* ------------------------------------------------------------------------
 * Streams
 * ------------------------------------------------------------------------ */

static struct http_stream *stream_new(struct http_request *rq)
{
    struct http_stream *st = calloc(1, sizeof(*st));

    if (st == NULL)
        return NULL;
    pthread_mutex_init(&st->lock, NULL);
    pthread_cond_init(&st->drained, NULL);
    st->refs = 2; /* the worker and the response */
    st->conn = rq->job->conn;
    st->fd = rq->job->fd;
    st->loop = rq->loop;
    st->sent = &rq->bytes;
    return st;
}

static void stream_release(struct http_stream *st)
{
    int last;

    pthread_mutex_lock(&st->lock);
    last = --st->refs == 0;
    pthread_mutex_unlock(&st->lock);
    if (last) {
        pthread_cond_destroy(&st->drained);
        pthread_mutex_destroy(&st->lock);
        free(st->data);
        free(st);
    }
}

/* Appends a piece (the last one when done); wakes a waiting reader. Then
 * waits while more than STREAM_HIGH bytes are unsent, unless the jobs are
 * told to stop (*halt; looked at every 100 ms), when the rest goes out
 * as fast as it is made. Returns 0, or -1 when nobody listens any more. */
static int stream_append(struct http_stream *st, const char *p, size_t n,
                         int done, const atomic_int *halt)
{
    int gone;

    pthread_mutex_lock(&st->lock);
    gone = st->gone;
    if (!gone && n > 0) {
        if (st->pos == st->len)
            st->pos = st->len = 0;
        if (st->len + n > st->cap) {
            size_t cap = st->cap ? st->cap : 16384;
            char *q;
            while (cap < st->len + n)
                cap *= 2;
            if ((q = realloc(st->data, cap)) == NULL) {
                done = st->failed = 1; /* the answer is cut short */
            } else {
                st->data = q;
                st->cap = cap;
            }
        }
        if (st->len + n <= st->cap) {
            memcpy(st->data + st->len, p, n);
            st->len += n;
        }
    }
    if (done)
        st->done = 1;
    if (st->waiting && !gone) {
        st->waiting = 0;
        http_resume(st->loop, st->conn);
    }
    while (!done && !st->gone && st->len - st->pos > STREAM_HIGH &&
           !atomic_load(halt)) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000L)
            until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&st->drained, &st->lock, &until);
    }
    gone = st->gone;
    pthread_mutex_unlock(&st->lock);
    return gone ? -1 : 0;
}

static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    struct http_stream *st = cls;
    ssize_t n;

    (void)pos;
    pthread_mutex_lock(&st->lock);
    if (st->pos < st->len) {
        size_t k = st->len - st->pos < max ? st->len - st->pos : max;
        memcpy(buf, st->data + st->pos, k);
        st->pos += k;
        *st->sent += k;
        n = (ssize_t)k;
        pthread_cond_signal(&st->drained);
    } else if (st->done) {
        /* A cut answer must not look whole: the connection is closed
         * without the last chunk, so the client sees the error. */
        n = st->failed ? MHD_CONTENT_READER_END_WITH_ERROR
                       : MHD_CONTENT_READER_END_OF_STREAM;
    } else {
        /* Nothing to send yet: sleep until the worker appends. */
        st->waiting = 1;
        MHD_suspend_connection(st->conn);
        n = 0;
    }
    pthread_mutex_unlock(&st->lock);
    return n;
}

void http_stream_drop(void *cls)
{
    struct http_stream *st = cls;

    pthread_mutex_lock(&st->lock);
    st->gone = 1;
    pthread_cond_signal(&st->drained);
    pthread_mutex_unlock(&st->lock);
    stream_release(st);
}

struct MHD_Response *http_stream_response(struct http_request *rq)
{
    struct MHD_Response *resp =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384, stream_read,
                                          rq->job->stream, http_stream_drop);

    if (resp == NULL) /* no response will let go of the stream: do it now */
        http_stream_drop(rq->job->stream);
    return resp;
}

/* What a job's api_request.gone looks at: the suspended connection's
 * socket until its answer starts, then the stream (whose lock keeps
 * libmicrohttpd from closing the socket while it is looked at: it lets go
 * of the response, setting `gone`, before it closes the socket). */
struct gone_check {
    int fd;
    struct http_stream *st; /* NULL until the answer is streamed */
};

int http_peer_gone(int fd)
{
    char c;
    ssize_t n;

    if (fd < 0) /* not known: assume it is there */
        return 0;
    n = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return n == 0 ||
           (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

static int job_client_gone(void *arg)
{
    struct gone_check *gc = arg;
    int gone;

    if (gc->st == NULL)
        return http_peer_gone(gc->fd);
    pthread_mutex_lock(&gc->st->lock);
    gone = gc->st->gone || http_peer_gone(gc->fd);
    pthread_mutex_unlock(&gc->st->lock);
    return gone;
}

/* Runs a batch whose answer is streamed: the connection is resumed as soon
 * as the answer can start, then pieces follow. */
static void run_stream(struct http_request *rq, struct gone_check *gc)
{
    struct api_batch *b = rq->job->resp.stream;
    struct MHD_Connection *conn = rq->job->conn;
    struct http_loop *loop = rq->loop;
    struct http_stream *st = stream_new(rq);
    int done = 0;

    rq->job->stream = st;
    gc->st = st;      /* from here on the stream says whether the client went */
    if (st == NULL) { /* no memory: an empty 500 */
        rq->job->resp.stream = NULL;
        rq->job->resp.status = 500;
        rq->job->resp.content_type = NULL;
        api_batch_free(b);
        rq->state = HTTP_REQUEST_DONE;
        http_resume(rq->loop, conn);
        return;
    }
    rq->state = HTTP_REQUEST_DONE;
    http_resume(loop, conn); /* from here on rq is not ours */
    while (!done) {
        size_t len = 0;
        char *piece = api_batch_next(b, STREAM_STEP, &len, &done);
        if (piece == NULL) { /* no memory: the answer is cut */
            pthread_mutex_lock(&st->lock);
            st->failed = 1;
            pthread_mutex_unlock(&st->lock);
        }
        if (stream_append(st, piece, piece ? len : 0, done || !piece,
                          &loop->srv->halt) != 0 ||
            piece == NULL)
            done = 1;
        free(piece);
    }
    api_batch_free(b);
    stream_release(st);
}

/* ------------------------------------------------------------------------
 * The pools
 * ------------------------------------------------------------------------ */

/* Lowers the calling thread's priority (Linux: nice is per thread); a
 * system that refuses leaves it as it is. */
static void lower_priority(void)
{
#ifdef __linux__
    (void)setpriority(PRIO_PROCESS, (id_t)gettid(), HTTP_WORKER_NICE);
#endif
}

static void *worker(void *arg)
{
    struct http_jobs *j = arg;
    struct http_server *srv = j->srv;

    lower_priority();
    for (;;) {
        struct http_request *rq;
        struct MHD_Connection *conn;
        struct http_loop *loop;
        struct gone_check gc = {-1, NULL};
        int stopping;

        pthread_mutex_lock(&j->lock);
        /* A reserved slot is a job on its way: keep serving until none. */
        while (j->head == NULL && !(j->stop && j->reserved == 0))
            pthread_cond_wait(&j->ready, &j->lock);
        rq = j->head;
        if (rq == NULL) { /* stopping, and nothing left or coming */
            pthread_mutex_unlock(&j->lock);
            return NULL;
        }
        j->head = rq->job->next;
        if (j->head == NULL)
            j->tail = NULL;
        j->reserved--;
        j->running++;
        stopping = j->stop;
        pthread_mutex_unlock(&j->lock);

        gc.fd = rq->job->fd;
        rq->job->api.draining =
            atomic_load_explicit(&srv->draining, memory_order_relaxed);
        rq->job->api.can_stream = 1;
        rq->job->api.gone = job_client_gone;
        rq->job->api.gone_arg = &gc;
        /* Stopping: a job not started yet is answered 503 at once (a
         * gateway retries it elsewhere) rather than run past the drain.
         * A client that hung up while its job waited gets the same cheap
         * answer, which nobody reads, instead of the work. */
        rq->job->api.queue_full = stopping || http_peer_gone(gc.fd);
        api_handle(&srv->api, &rq->job->api, &rq->job->resp);
        if (rq->job->resp.stream != NULL) {
            run_stream(rq, &gc);
        } else {
            conn = rq->job->conn;
            loop = rq->loop;
            rq->state = HTTP_REQUEST_DONE;
            /* From here on rq belongs to the connection's thread again. */
            http_resume(loop, conn);
        }
        pthread_mutex_lock(&j->lock);
        j->running--;
        pthread_mutex_unlock(&j->lock);
    }
}

int http_jobs_start(struct http_server *srv, enum http_pool_kind kind,
                    unsigned n, unsigned cap)
{
    struct http_jobs *j = &srv->pools[kind];

    j->srv = srv;
    j->head = j->tail = NULL;
    j->reserved = 0;
    j->running = 0;
    j->cap = cap;
    j->stop = 0;
    srv->api.stop = &srv->halt; /* the api layer reads it between puzzles */
    j->nthreads = 0;
    if ((j->threads = calloc(n, sizeof(*j->threads))) == NULL)
        return -1;
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->ready, NULL);
    j->initialised = 1;
    for (; j->nthreads < n; j->nthreads++)
        if (pthread_create(&j->threads[j->nthreads], NULL, worker, j) != 0)
            break;
    return j->nthreads == 0 ? -1 : 0;
}

int http_jobs_reserve(struct http_server *srv, enum http_pool_kind kind)
{
    struct http_jobs *j = &srv->pools[kind];
    int ok;

    pthread_mutex_lock(&j->lock);
    ok = !j->stop && j->reserved < j->cap;
    if (ok)
        j->reserved++;
    pthread_mutex_unlock(&j->lock);
    return ok ? 0 : -1;
}

void http_jobs_push(struct http_server *srv, enum http_pool_kind kind,
                    struct http_request *rq)
{
    struct http_jobs *j = &srv->pools[kind];

    rq->job->next = NULL;
    pthread_mutex_lock(&j->lock);
    if (j->tail)
        j->tail->job->next = rq;
    else
        j->head = rq;
    j->tail = rq;
    pthread_cond_signal(&j->ready);
    pthread_mutex_unlock(&j->lock);
}

/* Tells pool j to stop: its queued jobs are answered 503, reserve fails. */
static void pool_tell_stop(struct http_jobs *j)
{
    if (j->threads == NULL)
        return;
    pthread_mutex_lock(&j->lock);
    j->stop = 1;
    pthread_cond_broadcast(&j->ready);
    pthread_mutex_unlock(&j->lock);
}

static void pool_join(struct http_jobs *j)
{
    if (j->threads == NULL)
        return;
    for (unsigned i = 0; i < j->nthreads; i++)
        pthread_join(j->threads[i], NULL);
    free(j->threads);
    j->threads = NULL;
    j->nthreads = 0;
}

void http_jobs_stop(struct http_server *srv)
{
    /* Every pool is told before any is waited for, so that no queued job
     * starts while another pool's running ones finish. */
    for (int k = 0; k < HTTP_NPOOLS; k++)
        pool_tell_stop(&srv->pools[k]);
    for (int k = 0; k < HTTP_NPOOLS; k++)
        pool_join(&srv->pools[k]);
}

void http_jobs_halt(struct http_server *srv)
{
    atomic_store(&srv->halt, 1);
}

void http_jobs_free(struct http_server *srv)
{
    for (int k = 0; k < HTTP_NPOOLS; k++) {
        struct http_jobs *j = &srv->pools[k];
        if (!j->initialised)
            continue;
        pool_tell_stop(j);
        pool_join(j);
        pthread_cond_destroy(&j->ready);
        pthread_mutex_destroy(&j->lock);
        j->initialised = 0;
    }
}
