/* log.c - JSON lines on a file descriptor. Each line is formatted in a
 * caller's buffer and written with one write(2), which is atomic for lines
 * under PIPE_BUF on pipes and appends whole on files. */
#include "log.h"

#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static const char *const level_names[] = {"debug", "info", "warn", "error"};

int log_level_parse(const char *name, enum log_level *out)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(name, level_names[i]) == 0) {
            *out = (enum log_level)i;
            return 0;
        }
    return -1;
}

size_t log_escape(const char *s, char *out, size_t cap)
{
    size_t n = 0;

    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[8];
        size_t k;

        if (*p == '"' || *p == '\\') {
            esc[0] = '\\', esc[1] = (char)*p, k = 2;
        } else if (*p < 0x20 || *p == 0x7f) {
            k = (size_t)snprintf(esc, sizeof(esc), "\\u%04x", *p);
        } else {
            esc[0] = (char)*p, k = 1;
        }
        if (n + k >= cap)
            break;
        memcpy(out + n, esc, k);
        n += k;
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

void log_begin(struct log_line *l, const struct log_sink *sink,
               enum log_level level, const char *msg)
{
    struct timeval tv;
    struct tm tm;
    char head[96];
    int n;

    l->len = 0;
    l->full = 0;
    l->enabled = level >= sink->level;
    if (!l->enabled)
        return;
    gettimeofday(&tv, NULL);
    gmtime_r(&tv.tv_sec, &tm);
    n = (int)strftime(head, sizeof(head), "{\"time\":\"%Y-%m-%dT%H:%M:%S", &tm);
    n += snprintf(head + n, sizeof(head) - (size_t)n, ".%03ldZ\",\"level\":\"%s\"",
                  (long)(tv.tv_usec / 1000), level_names[level]);
    put(l, head, (size_t)n);
    log_str(l, "msg", msg);
}

void log_str(struct log_line *l, const char *key, const char *value)
{
    char field[1024];
    size_t n;

    if (!l->enabled)
        return;
    n = (size_t)snprintf(field, sizeof(field), ",\"%s\":", key);
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
    char field[96];
    int n;

    if (!l->enabled)
        return;
    n = snprintf(field, sizeof(field), ",\"%s\":%lld", key, value);
    put(l, field, (size_t)n);
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
    for (size_t off = 0; off < l->len;) {
        ssize_t w = write(sink->fd, l->buf + off, l->len - off);
        if (w <= 0)
            return; /* nowhere to report a failing log */
        off += (size_t)w;
    }
}
