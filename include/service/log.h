/* log.h - structured logs: one JSON object per line, each written whole
 * (one write(2), or appended whole to a buffer) so that lines from
 * different threads never interleave. A line is
 * built on the caller's stack with log_begin / log_str / log_num / log_end;
 * strings are JSON-escaped, so user input is safe to log. */
#ifndef LOG_H
#define LOG_H

#include <stddef.h>
#include <stdint.h>

enum log_level { LOG_DEBUG = 0, LOG_INFO, LOG_WARN, LOG_ERROR };

struct log_buffer;

/* Where and what to log; a plain value, shared read-only by all threads. */
struct log_sink {
    int fd;                    /* usually 1 (stdout) */
    enum log_level level;      /* lines below this level are dropped */
    struct log_buffer *buffer; /* NULL: one write(2) per line, which waits
                                  as long as the fd does (tools, tests) */
};

/* A buffer with a writer thread of its own, the only thread that ever
 * waits on fd: log_end appends the line (a memcpy under a short lock) and
 * returns, so a slow or blocked stdout never holds the caller. Lines are
 * written at most flush_ms after the first of a batch (0: at once), or as
 * soon as 32 KiB have gathered, in order and whole. When 64 KiB are
 * waiting, further lines are dropped and counted (log_buffer_dropped); the
 * next write that goes through is followed by a warn line "log lines
 * dropped" with the count. Returns NULL when out of memory or threads
 * (then log unbuffered). */
struct log_buffer *log_buffer_start(int fd, unsigned flush_ms);

/* Lines dropped so far (0 for NULL); safe from any thread. */
unsigned long log_buffer_dropped(const struct log_buffer *b);

/* Writes out what is buffered, stops the thread and frees b (NULL is
 * fine), waiting at most 1 s for the fd: a writer still blocked then is
 * left to finish on its own (and free b), so what the fd has not taken
 * when the process exits is lost. No line may be logged through b, and the
 * fd must stay open, from then on. */
void log_buffer_stop(struct log_buffer *b);

/* A line being built. Too long a line is cut at a field boundary and gets
 * "truncated":true instead of breaking the JSON. */
struct log_line {
    char buf[2048];
    size_t len;
    int full;
    int enabled;
};

/* Parses "debug", "info", "warn" or "error". Returns 0, or -1 if unknown. */
int log_level_parse(const char *name, enum log_level *out);

/* Starts a line with "time", "level" and "msg". */
void log_begin(struct log_line *l, const struct log_sink *sink,
               enum log_level level, const char *msg);

/* Adds "key":"value" (escaped); a NULL value is written as null. */
void log_str(struct log_line *l, const char *key, const char *value);

/* Adds "key":value. */
void log_num(struct log_line *l, const char *key, long long value);

/* Closes the line and writes it. */
void log_end(struct log_line *l, const struct log_sink *sink);

/* Writes a JSON-escaped copy of s (at most cap-1 bytes, always
 * NUL-terminated, never cutting an escape) to out. Returns its length. */
size_t log_escape(const char *s, char *out, size_t cap);

#endif
