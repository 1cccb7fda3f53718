/* text.h - the engines' explanations written into a caller's buffer: each
 * piece appended with printf formatting, cut at the buffer's end (the
 * length still counts what did not fit, as snprintf's does), and the
 * separators of a list in prose. Used by the classic logic engine
 * (logic_explain.c) and the general one (teach_explain.c). */
#ifndef TEXT_H
#define TEXT_H

#include <stddef.h>

struct text {
    char *buf;
    size_t size, len; /* len: what was written, or would have been */
};

/* Appends fmt's text, NUL-terminated while room is left. */
void text_put(struct text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "a", "a and b", "a, b and c": the separator before item i of n. */
const char *text_sep(unsigned i, unsigned n);

#endif
