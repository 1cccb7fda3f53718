/* log.c - JSON lines on a file descriptor. A line is formatted in the
 * caller's buffer and then either written with one write(2) (unbuffered
 * sinks) or appended to a log_buffer, whose own thread is the only one that
 * ever waits on the fd: serving threads never block on a slow or stuck
 * stdout, they drop the line and count it instead. */
#include "log.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const level_names[] = {"debug", "info", "warn", "error"};

static void close_line(struct log_line *l);

/* ------------------------------------------------------------------------
 * The buffer and its writer thread
 *
 * Two halves of LOG_BUFFER_SIZE: producers append whole lines to `fill`
 * under the lock (a memcpy, never a system call); the writer swaps `fill`
 * with its own half under the lock and writes that half without it. When
 * the fd does not take lines as fast as they come (nobody reads the pipe),
 * `fill` runs full and further lines are dropped and counted; after the
 * next write that succeeds the writer adds one warn line saying how many.
 * At the stop the writer gets LOG_STOP_MS to write what is left; if it is
 * still blocked in write(2) then, it is left behind (detached; it frees
 * the buffer itself if it ever gets out), so a stuck stdout cannot hold
 * the process's exit. Not pthread_cancel: ASan reports a false
 * stack-buffer-underflow on every cancelled thread (google/sanitizers
 * issue 1399), and the sanitizer build must pass.
 * ------------------------------------------------------------------------ */

#define LOG_BUFFER_SIZE (64 * 1024)
#define LOG_STOP_MS 1000

struct log_buffer {
    pthread_mutex_t lock;
    pthread_cond_t wake; /* lines came, half full, or stop */
    pthread_cond_t gone; /* the writer is done */
    pthread_t thread;
    int fd;
    int fifo; /* a pipe: write at most PIPE_BUF at once */
    unsigned flush_ms;
    int stop;               /* under lock */
    int done;               /* under lock: the writer has finished */
    int abandoned;          /* under lock: the writer frees b */
    char *fill;             /* under lock: producers append here */
    size_t len;             /* under lock */
    atomic_ulong dropped;   /* lines dropped since the start */
    unsigned long reported; /* writer only: of those, already reported */
    char half[2][LOG_BUFFER_SIZE];
};

/* Writes p[0..n) whole, or returns -1 on an error (a closed pipe: nowhere
 * to report it). On a pipe each write(2) is at most PIPE_BUF bytes ending
 * at a line's end, so that it is atomic and lines from another writer on
 * the same pipe (main's own buffer) never land inside ours. */
static int write_all(int fd, int fifo, const char *p, size_t n)
{
    while (n > 0) {
        size_t k = n;
        if (fifo && k > PIPE_BUF) {
            const char *nl = memrchr(p, '\n', PIPE_BUF);
            k = nl != NULL ? (size_t)(nl - p) + 1 : PIPE_BUF;
        }
        ssize_t w = write(fd, p, k);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static unsigned long count_lines(const char *p, size_t n)
{
    unsigned long c = 0;

    for (const char *e = p + n; (p = memchr(p, '\n', (size_t)(e - p))); p++)
        c++;
    return c;
}

/* Writes a half out from the writer thread (without the lock), then
 * reports drops not yet reported, now that the fd takes lines again. */
static void write_half(struct log_buffer *b, const char *p, size_t n)
{
    unsigned long dropped;

    if (write_all(b->fd, b->fifo, p, n) != 0) {
        atomic_fetch_add_explicit(&b->dropped, count_lines(p, n),
                                  memory_order_relaxed);
        return;
    }
    dropped = atomic_load_explicit(&b->dropped, memory_order_relaxed);
    if (dropped != b->reported) {
        struct log_sink sink = {.fd = b->fd, .level = LOG_WARN};
        struct log_line l;
        log_begin(&l, &sink, LOG_WARN, "log lines dropped");
        log_str(&l, "detail",
                "stdout did not take the log as fast as it "
                "came (nobody reading?)");
        log_num(&l, "dropped", (long long)(dropped - b->reported));
        log_num(&l, "dropped_total", (long long)dropped);
        close_line(&l);
        if (write_all(b->fd, b->fifo, l.buf, l.len) == 0)
            b->reported = dropped;
    }
}

static void free_buffer(struct log_buffer *b)
{
    pthread_cond_destroy(&b->wake);
    pthread_cond_destroy(&b->gone);
    pthread_mutex_destroy(&b->lock);
    free(b);
}

static void *writer(void *arg)
{
    struct log_buffer *b = arg;
    char *mine = b->half[1];
    int abandoned;

    pthread_mutex_lock(&b->lock);
    for (;;) {
        while (b->len == 0 && !b->stop)
            pthread_cond_wait(&b->wake, &b->lock);
        /* Gather lines for flush_ms after the first, so that a busy log
         * costs a write per flush_ms (or per half buffer), not per line. */
        if (b->len > 0 && !b->stop && b->flush_ms > 0) {
            struct timespec until;
            clock_gettime(CLOCK_MONOTONIC, &until);
            until.tv_nsec += (long)(b->flush_ms % 1000) * 1000000L;
            until.tv_sec += b->flush_ms / 1000 + until.tv_nsec / 1000000000L;
            until.tv_nsec %= 1000000000L;
            while (!b->stop && b->len < LOG_BUFFER_SIZE / 2 &&
                   pthread_cond_timedwait(&b->wake, &b->lock, &until) == 0)
                ;
        }
        if (b->len == 0)
            break; /* stopping, and all is out */
        char *full = b->fill;
        size_t n = b->len;
        b->fill = mine;
        b->len = 0;
        mine = full;
        pthread_mutex_unlock(&b->lock);
        write_half(b, full, n);
        pthread_mutex_lock(&b->lock);
    }
    b->done = 1;
    abandoned = b->abandoned;
    pthread_cond_signal(&b->gone);
    pthread_mutex_unlock(&b->lock);
    if (abandoned) /* log_buffer_stop has returned long ago */
        free_buffer(b);
    return NULL;
}

struct log_buffer *log_buffer_start(int fd, unsigned flush_ms)
{
    struct log_buffer *b = malloc(sizeof(*b));
    pthread_condattr_t attr;
    struct stat st;

    if (b == NULL)
        return NULL;
    b->fd = fd;
    b->fifo = fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
    b->flush_ms = flush_ms;
    b->stop = 0;
    b->done = 0;
    b->abandoned = 0;
    b->fill = b->half[0];
    b->len = 0;
    atomic_init(&b->dropped, 0);
    b->reported = 0;
    pthread_mutex_init(&b->lock, NULL);
    /* The monotonic clock: a step of the wall clock must not hold logs. */
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&b->wake, &attr);
    pthread_cond_init(&b->gone, &attr);
    pthread_condattr_destroy(&attr);
    if (pthread_create(&b->thread, NULL, writer, b) != 0) {
        pthread_cond_destroy(&b->wake);
        pthread_cond_destroy(&b->gone);
        pthread_mutex_destroy(&b->lock);
        free(b);
        return NULL;
    }
    return b;
}

unsigned long log_buffer_dropped(const struct log_buffer *b)
{
    return b ? atomic_load_explicit(&b->dropped, memory_order_relaxed) : 0;
}

void log_buffer_stop(struct log_buffer *b)
{
    struct timespec until;
    pthread_t thread;
    int done;

    if (b == NULL)
        return;
    thread = b->thread; /* b may be gone once the writer is abandoned */
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += LOG_STOP_MS / 1000;
    until.tv_nsec += (long)(LOG_STOP_MS % 1000) * 1000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    pthread_mutex_lock(&b->lock);
    b->stop = 1;
    pthread_cond_signal(&b->wake);
    while (!b->done &&
           pthread_cond_timedwait(&b->gone, &b->lock, &until) != ETIMEDOUT)
        ;
    done = b->done;
    b->abandoned = !done;
    pthread_mutex_unlock(&b->lock);
    if (!done) { /* still blocked in write(2): leave it behind */
        pthread_detach(thread);
        return;
    }
    pthread_join(thread, NULL);
    free_buffer(b);
}

/* Appends one whole line, or drops it when the buffer is full: never waits
 * for the fd. Wakes the writer when the buffer was empty (flush_ms starts)
 * and when it passes half full (write now). */
static void buffer_line(struct log_buffer *b, const char *p, size_t n)
{
    pthread_mutex_lock(&b->lock);
    if (b->len + n > LOG_BUFFER_SIZE) {
        pthread_mutex_unlock(&b->lock);
        atomic_fetch_add_explicit(&b->dropped, 1, memory_order_relaxed);
        return;
    }
    memcpy(b->fill + b->len, p, n);
    if (b->len == 0 ||
        (b->len < LOG_BUFFER_SIZE / 2 && b->len + n >= LOG_BUFFER_SIZE / 2))
        pthread_cond_signal(&b->wake);
    b->len += n;
    pthread_mutex_unlock(&b->lock);
}

int log_level_parse(const char *name, enum log_level *out)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(name, level_names[i]) == 0) {
            *out = (enum log_level)i;
            return 0;
        }
    return -1;
}

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0 if it is not one.
 * p is NUL-terminated, so a cut sequence stops at the NUL. */
static size_t utf8_len(const unsigned char *p)
{
    size_t n;
    unsigned lo = 0x80, hi = 0xBF;

    if (p[0] >= 0xC2 && p[0] <= 0xDF)
        n = 2;
    else if (p[0] >= 0xE0 && p[0] <= 0xEF)
        n = 3, lo = p[0] == 0xE0 ? 0xA0 : 0x80, hi = p[0] == 0xED ? 0x9F : 0xBF;
    else if (p[0] >= 0xF0 && p[0] <= 0xF4)
        n = 4, lo = p[0] == 0xF0 ? 0x90 : 0x80, hi = p[0] == 0xF4 ? 0x8F : 0xBF;
    else
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t k = 2; k < n; k++)
        if ((p[k] & 0xC0) != 0x80)
            return 0;
    return n;
}

/* Printable ASCII that JSON text takes as it is (not '"' or '\\'). */
static int plain(unsigned char c)
{
    return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

size_t log_escape(const char *s, char *out, size_t cap)
{
    size_t n = 0;

    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        char esc[8];
        size_t k, used = 1;

        if (plain(*p)) {
            /* a run of plain ASCII goes as it is, in one copy */
            const unsigned char *q = p + 1;
            while (plain(*q))
                q++;
            k = (size_t)(q - p);
            if (n + k >= cap)
                k = cap > n ? cap - n - 1 : 0;
            memcpy(out + n, p, k);
            n += k;
            if (p + k != q)
                break;
            p = q;
            continue;
        }
        if (*p == '"' || *p == '\\') {
            esc[0] = '\\', esc[1] = (char)*p, k = 2;
        } else if (*p < 0x20 || *p == 0x7f) {
            k = (size_t)snprintf(esc, sizeof(esc), "\\u%04x", *p);
        } else if ((used = utf8_len(p)) > 0) {
            memcpy(esc, p, used); /* a whole character, never cut */
            k = used;
        } else {
            /* Not UTF-8 (user agents and unescaped paths can be anything):
             * the replacement character keeps the line valid JSON text. */
            memcpy(esc, "\\ufffd", 6);
            k = 6;
            used = 1;
        }
        if (n + k >= cap)
            break;
        memcpy(out + n, esc, k);
        n += k;
        p += used;
    }
    if (cap > 0)
        out[n] = '\0';
    return n;
}

/* Appends raw text if it fits with room for the closing part. */
static void put(struct log_line *l, const char *s, size_t n)
{
    const size_t reserve = sizeof(",\"truncated\":true}\n");

    if (l->full || l->len + n + reserve > sizeof(l->buf)) {
        l->full = 1;
        return;
    }
    memcpy(l->buf + l->len, s, n);
    l->len += n;
}

/* Writes n digits of v, zero-padded, at p. */
static char *put_digits(char *p, unsigned v, int n)
{
    for (int i = n - 1; i >= 0; i--, v /= 10)
        p[i] = (char)('0' + v % 10);
    return p + n;
}

/* "2026-11-29T14:53:22.823Z" for the time now (24 characters). The civil
 * date comes from the day count by arithmetic (H. Hinnant's days-to-civil),
 * which is much cheaper than gmtime_r and strftime on every log line. */
static char *put_time(char *p)
{
    struct timespec ts;
    long long days, secs;
    unsigned doe, yoe, doy, mp, y, m, d;
    long long era;

    clock_gettime(CLOCK_REALTIME, &ts);
    days = ts.tv_sec / 86400;
    secs = ts.tv_sec % 86400;
    days += 719468;
    era = (days >= 0 ? days : days - 146096) / 146097;
    doe = (unsigned)(days - era * 146097);
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    y = (unsigned)(yoe + era * 400) + (m <= 2);
    p = put_digits(p, y, 4);
    *p++ = '-';
    p = put_digits(p, m, 2);
    *p++ = '-';
    p = put_digits(p, d, 2);
    *p++ = 'T';
    p = put_digits(p, (unsigned)(secs / 3600), 2);
    *p++ = ':';
    p = put_digits(p, (unsigned)(secs / 60 % 60), 2);
    *p++ = ':';
    p = put_digits(p, (unsigned)(secs % 60), 2);
    *p++ = '.';
    p = put_digits(p, (unsigned)(ts.tv_nsec / 1000000), 3);
    *p++ = 'Z';
    return p;
}

void log_begin(struct log_line *l, const struct log_sink *sink,
               enum log_level level, const char *msg)
{
    char head[96], *p = head;
    size_t n;

    l->len = 0;
    l->full = 0;
    l->enabled = level >= sink->level;
    if (!l->enabled)
        return;
    memcpy(p, "{\"time\":\"", 9);
    p = put_time(p + 9);
    memcpy(p, "\",\"level\":\"", 11);
    p += 11;
    n = strlen(level_names[level]);
    memcpy(p, level_names[level], n);
    p += n;
    *p++ = '"';
    put(l, head, (size_t)(p - head));
    log_str(l, "msg", msg);
}

/* Writes ,"key": at field (keys are short literals); returns its length. */
static size_t put_key(char *field, const char *key)
{
    size_t k = strnlen(key, 64);

    field[0] = ',';
    field[1] = '"';
    memcpy(field + 2, key, k);
    field[k + 2] = '"';
    field[k + 3] = ':';
    return k + 4;
}

void log_str(struct log_line *l, const char *key, const char *value)
{
    char field[1024];
    size_t n;

    if (!l->enabled)
        return;
    n = put_key(field, key);
    if (value == NULL) {
        memcpy(field + n, "null", 4);
        n += 4;
    } else {
        field[n++] = '"';
        n += log_escape(value, field + n, sizeof(field) - n - 1);
        field[n++] = '"';
    }
    put(l, field, n);
}

void log_num(struct log_line *l, const char *key, long long value)
{
    char field[96], digits[24];
    size_t n, k = 0;
    unsigned long long v = value < 0 ? 0ULL - (unsigned long long)value
                                     : (unsigned long long)value;

    if (!l->enabled)
        return;
    n = put_key(field, key);
    if (value < 0)
        field[n++] = '-';
    do
        digits[k++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (k > 0)
        field[n++] = digits[--k];
    put(l, field, n);
}

/* Adds the closing brace (and "truncated", when cut) and the newline. */
static void close_line(struct log_line *l)
{
    static const char trunc[] = ",\"truncated\":true";

    if (l->full) {
        memcpy(l->buf + l->len, trunc, sizeof(trunc) - 1);
        l->len += sizeof(trunc) - 1;
    }
    l->buf[l->len++] = '}';
    l->buf[l->len++] = '\n';
}

void log_end(struct log_line *l, const struct log_sink *sink)
{
    if (!l->enabled)
        return;
    close_line(l);
    if (sink->buffer != NULL)
        buffer_line(sink->buffer, l->buf, l->len);
    else
        write_all(sink->fd, 0, l->buf, l->len);
}
