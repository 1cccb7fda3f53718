/* log.c - JSON lines on a file descriptor. Each line is formatted in a
 * caller's buffer and written with one write(2), which is atomic for lines
 * under PIPE_BUF on pipes and appends whole on files. */
#include "log.h"

#include <stdio.h>
#include <string.h>
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
    for (size_t off = 0; off < l->len;) {
        ssize_t w = write(sink->fd, l->buf + off, l->len - off);
        if (w <= 0)
            return; /* nowhere to report a failing log */
        off += (size_t)w;
    }
}
