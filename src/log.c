/* log.c - JSON lines on a file descriptor. Each line is formatted in a
 * caller's buffer and written with one write(2), which is atomic for lines
 * under PIPE_BUF on pipes and appends whole on files. */
#include "log.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const level_names[] = {"debug", "info", "warn", "error"};

#define LOG_BUFFER_SIZE (64 * 1024)

struct log_buffer {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    int fd;
    unsigned flush_ms;
    int stop;
    size_t len;
    char data[LOG_BUFFER_SIZE];
};

static void write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return; /* nowhere to report a failing log */
        p += w;
        n -= (size_t)w;
    }
}

/* Called with the lock held. */
static void flush_locked(struct log_buffer *b)
{
    write_all(b->fd, b->data, b->len);
    b->len = 0;
}

static void *flusher(void *arg)
{
    struct log_buffer *b = arg;

    pthread_mutex_lock(&b->lock);
    while (!b->stop) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += (long)(b->flush_ms % 1000) * 1000000L;
        until.tv_sec += b->flush_ms / 1000 + until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&b->wake, &b->lock, &until);
        if (b->len > 0)
            flush_locked(b);
    }
    pthread_mutex_unlock(&b->lock);
    return NULL;
}

struct log_buffer *log_buffer_start(int fd, unsigned flush_ms)
{
    struct log_buffer *b = malloc(sizeof(*b));

    if (b == NULL)
        return NULL;
    b->fd = fd;
    b->flush_ms = flush_ms ? flush_ms : 1;
    b->stop = 0;
    b->len = 0;
    pthread_condattr_t attr;

    pthread_mutex_init(&b->lock, NULL);
    /* The monotonic clock: a step of the wall clock must not hold logs. */
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&b->wake, &attr);
    pthread_condattr_destroy(&attr);
    if (pthread_create(&b->thread, NULL, flusher, b) != 0) {
        pthread_cond_destroy(&b->wake);
        pthread_mutex_destroy(&b->lock);
        free(b);
        return NULL;
    }
    return b;
}

void log_buffer_flush(struct log_buffer *b)
{
    pthread_mutex_lock(&b->lock);
    flush_locked(b);
    pthread_mutex_unlock(&b->lock);
}

void log_buffer_stop(struct log_buffer *b)
{
    if (b == NULL)
        return;
    pthread_mutex_lock(&b->lock);
    b->stop = 1;
    pthread_cond_signal(&b->wake);
    pthread_mutex_unlock(&b->lock);
    pthread_join(b->thread, NULL);
    flush_locked(b);
    pthread_cond_destroy(&b->wake);
    pthread_mutex_destroy(&b->lock);
    free(b);
}

/* Appends one whole line, writing the buffer out first when it is full. */
static void buffer_line(struct log_buffer *b, const char *p, size_t n)
{
    pthread_mutex_lock(&b->lock);
    if (b->len + n > sizeof(b->data))
        flush_locked(b);
    if (n > sizeof(b->data))
        write_all(b->fd, p, n);
    else {
        memcpy(b->data + b->len, p, n);
        b->len += n;
    }
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

size_t log_escape(const char *s, char *out, size_t cap)
{
    size_t n = 0;

    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        char esc[8];
        size_t k, used = 1;

        if (*p == '"' || *p == '\\') {
            esc[0] = '\\', esc[1] = (char)*p, k = 2;
        } else if (*p < 0x20 || *p == 0x7f) {
            k = (size_t)snprintf(esc, sizeof(esc), "\\u%04x", *p);
        } else if (*p < 0x80) {
            esc[0] = (char)*p, k = 1;
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

void log_end(struct log_line *l, const struct log_sink *sink)
{
    static const char trunc[] = ",\"truncated\":true";

    if (!l->enabled)
        return;
    if (l->full) {
        memcpy(l->buf + l->len, trunc, sizeof(trunc) - 1);
        l->len += sizeof(trunc) - 1;
    }
    l->buf[l->len++] = '}';
    l->buf[l->len++] = '\n';
    if (sink->buffer != NULL)
        buffer_line(sink->buffer, l->buf, l->len);
    else
        write_all(sink->fd, l->buf, l->len);
}
