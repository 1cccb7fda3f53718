/* http_jobs.c - the job pool: a bounded queue of batches and a few worker
 * threads, so that a long batch never holds a connection thread and short
 * requests keep flowing. The waiting connection is suspended (libmicrohttpd
 * stops polling it) and resumed by the worker when its answer is ready. */
#include <stdlib.h>

#include "http_internal.h"

static void *worker(void *arg)
{
    struct http_server *srv = arg;
    struct http_jobs *j = &srv->jobs;

    for (;;) {
        struct request *rq;
        struct MHD_Connection *conn;

        pthread_mutex_lock(&j->lock);
        while (j->head == NULL && !j->stop)
            pthread_cond_wait(&j->ready, &j->lock);
        rq = j->head;
        if (rq == NULL) { /* stopping, and nothing left */
            pthread_mutex_unlock(&j->lock);
            return NULL;
        }
        j->head = rq->job.next;
        if (j->head == NULL)
            j->tail = NULL;
        j->reserved--;
        pthread_mutex_unlock(&j->lock);

        rq->job.api.draining =
            atomic_load_explicit(&srv->draining, memory_order_relaxed);
        api_handle(&srv->api, &rq->job.api, &rq->job.resp);
        conn = rq->job.conn;
        rq->state = REQUEST_DONE;
        /* From here on rq belongs to the connection's thread again. */
        MHD_resume_connection(conn);
    }
}

int http_jobs_start(struct http_server *srv, unsigned n, unsigned cap)
{
    struct http_jobs *j = &srv->jobs;

    j->head = j->tail = NULL;
    j->reserved = 0;
    j->cap = cap;
    j->stop = 0;
    j->nthreads = 0;
    if ((j->threads = calloc(n, sizeof(*j->threads))) == NULL)
        return -1;
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->ready, NULL);
    for (; j->nthreads < n; j->nthreads++)
        if (pthread_create(&j->threads[j->nthreads], NULL, worker, srv) != 0)
            break;
    if (j->nthreads == 0) {
        http_jobs_stop(srv);
        return -1;
    }
    return 0;
}

int http_jobs_reserve(struct http_server *srv)
{
    struct http_jobs *j = &srv->jobs;
    int ok;

    pthread_mutex_lock(&j->lock);
    ok = j->reserved < j->cap;
    if (ok)
        j->reserved++;
    pthread_mutex_unlock(&j->lock);
    return ok ? 0 : -1;
}

void http_jobs_push(struct http_server *srv, struct request *rq)
{
    struct http_jobs *j = &srv->jobs;

    rq->job.next = NULL;
    pthread_mutex_lock(&j->lock);
    if (j->tail)
        j->tail->job.next = rq;
    else
        j->head = rq;
    j->tail = rq;
    pthread_cond_signal(&j->ready);
    pthread_mutex_unlock(&j->lock);
}

void http_jobs_stop(struct http_server *srv)
{
    struct http_jobs *j = &srv->jobs;

    if (j->threads == NULL)
        return;
    pthread_mutex_lock(&j->lock);
    j->stop = 1;
    pthread_cond_broadcast(&j->ready);
    pthread_mutex_unlock(&j->lock);
    for (unsigned i = 0; i < j->nthreads; i++)
        pthread_join(j->threads[i], NULL);
    pthread_cond_destroy(&j->ready);
    pthread_mutex_destroy(&j->lock);
    free(j->threads);
    j->threads = NULL;
}
