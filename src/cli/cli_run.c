/* cli_run.c - runs one input of `sudoku`: read whole, cut into chunks of
 * whole lines, each chunk judged and printed into buffers of its own by
 * whichever thread takes it, and the chunks written out in input order by
 * the main thread, which works on chunks too while it waits. Nothing is
 * kept per puzzle: a chunk's text is its answer. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_internal.h"

/* Lines in a chunk: enough to make the handing out and the writing cheap,
 * few enough that the threads finish close together. */
#define CHUNK_LINES 256
#define MAX_THREADS 64

/* Chunks are written by different threads: a cache line each. */
struct chunk {
    _Alignas(64) size_t begin, end; /* whole lines of the input */
    unsigned lineno;                /* of the first line */
    int rc;
    struct cli_buf out, err;
    atomic_int done;
};

struct pool {
    const struct cli_options *opt;
    const char *name, *buf;
    struct chunk *chunks;
    size_t n;
    atomic_size_t next; /* the next chunk nobody has taken */
    pthread_mutex_t lock;
    pthread_cond_t finished; /* a chunk is done */
};

/* Judges the lines of chunk i into its buffers. */
static void work(struct pool *p, size_t i)
{
    struct chunk *c = &p->chunks[i];
    struct cli_buf out = {0}, err = {0};
    unsigned lineno = c->lineno;
    int rc = 0;

    for (size_t pos = c->begin; pos < c->end; lineno++) {
        const char *line = p->buf + pos;
        const char *nl = memchr(line, '\n', c->end - pos);
        size_t l = nl ? (size_t)(nl - line) : c->end - pos;
        pos += l + 1;
        while (l > 0 && (line[l - 1] == '\r' || line[l - 1] == ' ' ||
                         line[l - 1] == '\t'))
            l--;
        if (l > 0 && line[0] != '#')
            rc |= cli_line(p->opt, p->name, lineno, line, l, &out, &err);
    }
    c->out = out;
    c->err = err;
    c->rc = rc;
    pthread_mutex_lock(&p->lock);
    atomic_store_explicit(&c->done, 1, memory_order_release);
    pthread_cond_broadcast(&p->finished);
    pthread_mutex_unlock(&p->lock);
}

/* Takes and works one chunk; returns 0 when none was left. */
static int work_next(struct pool *p)
{
    size_t i = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed);

    if (i >= p->n)
        return 0;
    work(p, i);
    return 1;
}

static void *worker(void *arg)
{
    while (work_next(arg))
        ;
    return NULL;
}

/* Waits until chunk i is done, working on others meanwhile, then writes it
 * and frees its buffers. Returns its rc, or 2 when out of memory. */
static int write_chunk(struct pool *p, size_t i)
{
    struct chunk *c = &p->chunks[i];
    int rc;

    while (!atomic_load_explicit(&c->done, memory_order_acquire))
        if (!work_next(p)) {
            pthread_mutex_lock(&p->lock);
            while (!atomic_load_explicit(&c->done, memory_order_acquire))
                pthread_cond_wait(&p->finished, &p->lock);
            pthread_mutex_unlock(&p->lock);
        }
    rc = c->rc;
    if (c->out.failed || c->err.failed) {
        fprintf(stderr, "sudoku: %s: out of memory\n", p->name);
        rc = 2;
    }
    if (c->out.len)
        fwrite(c->out.data, 1, c->out.len, stdout);
    if (c->err.len) {
        fflush(stdout); /* what came before, first */
        fwrite(c->err.data, 1, c->err.len, stderr);
    }
    free(c->out.data);
    free(c->err.data);
    return rc;
}

/* Chunks are aligned to their cache lines, so grown by hand. */
static struct chunk *grow(struct chunk *chunks, size_t count, size_t cap)
{
    struct chunk *bigger = aligned_alloc(64, cap * sizeof(*chunks));

    if (bigger && count)
        memcpy(bigger, chunks, count * sizeof(*chunks));
    free(chunks);
    return bigger;
}

/* Cuts buf into chunks of `lines` lines; NULL when out of memory. */
static struct chunk *cut(const char *buf, size_t len, size_t lines, size_t *n)
{
    size_t cap = len / 82 / lines + 2, count = 0, pos = 0;
    unsigned lineno = 1;
    struct chunk *chunks = grow(NULL, 0, cap);

    while (chunks && pos < len) {
        if (count == cap && (chunks = grow(chunks, count, cap *= 2)) == NULL)
            break;
        struct chunk *c = &chunks[count++];
        memset(c, 0, sizeof(*c));
        c->begin = pos;
        c->lineno = lineno;
        for (size_t k = 0; k < lines && pos < len; k++, lineno++) {
            const char *nl = memchr(buf + pos, '\n', len - pos);
            pos = nl ? (size_t)(nl - buf) + 1 : len;
        }
        c->end = pos;
    }
    *n = count;
    return chunks;
}

/* Works every chunk with up to opt->threads threads, this one included
 * (when a thread cannot be started the others do its share), writing
 * them in order. Returns the worst rc. */
static int run_chunks(struct pool *p)
{
    pthread_t tids[MAX_THREADS];
    unsigned started = 0, want = p->opt->threads;
    int rc = 0, r;

    if (want > MAX_THREADS)
        want = MAX_THREADS;
    if (want > p->n)
        want = (unsigned)p->n;
    for (; started + 1 < want; started++)
        if (pthread_create(&tids[started], NULL, worker, p) != 0)
            break;
    for (size_t i = 0; i < p->n; i++)
        if ((r = write_chunk(p, i)) > rc)
            rc = r;
    for (unsigned t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    return rc;
}

/* Reads all of fd into a heap buffer; NULL on failure. */
static char *slurp(int fd, size_t *len)
{
    struct stat st;
    size_t cap = 1 << 16, n = 0;
    char *buf = NULL, *bigger;
    ssize_t got;

    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        cap = (size_t)st.st_size + 1; /* + 1: the end is seen at once */
    for (;;) {
        if (buf == NULL || n == cap) {
            cap = buf ? 2 * cap : cap;
            if ((bigger = realloc(buf, cap)) == NULL)
                break;
            buf = bigger;
        }
        got = read(fd, buf + n, cap - n);
        if (got == 0) {
            *len = n;
            return buf;
        }
        if (got < 0 && errno != EINTR)
            break;
        n += got > 0 ? (size_t)got : 0;
    }
    free(buf);
    return NULL;
}

int cli_run_file(const struct cli_options *opt, const char *path)
{
    int is_stdin = strcmp(path, "-") == 0;
    struct pool p = {opt,
                     is_stdin ? "<stdin>" : path,
                     NULL,
                     NULL,
                     0,
                     0,
                     PTHREAD_MUTEX_INITIALIZER,
                     PTHREAD_COND_INITIALIZER};
    FILE *f = is_stdin ? stdin : fopen(path, "r");
    size_t len = 0;
    char *buf;
    int rc;

    if (!f) {
        fprintf(stderr, "sudoku: %s: %s\n", path, strerror(errno));
        return 2;
    }
    buf = slurp(fileno(f), &len);
    if (!is_stdin)
        fclose(f);
    if (!buf) {
        fprintf(stderr, "sudoku: %s: cannot read\n", p.name);
        return 2;
    }
    /* On a terminal, each line's answer and report as soon as it has one,
     * in the order of the lines. */
    p.buf = buf;
    p.chunks = cut(buf, len, isatty(STDOUT_FILENO) ? 1 : CHUNK_LINES, &p.n);
    if (!p.chunks) {
        fprintf(stderr, "sudoku: %s: out of memory\n", p.name);
        free(buf);
        return 2;
    }
    rc = run_chunks(&p);
    free(p.chunks);
    free(buf);
    return rc;
}
