/* text.c - the explanation buffer of include/engine/text.h. */
#include "text.h"

#include <stdarg.h>
#include <stdio.h>

void text_put(struct text *t, const char *fmt, ...)
{
    va_list ap;
    size_t room = t->len < t->size ? t->size - t->len : 0;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(room ? t->buf + t->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->len += (size_t)n;
}

const char *text_sep(unsigned i, unsigned n)
{
    return i == 0 ? "" : i == n - 1 ? " and " : ", ";
}
