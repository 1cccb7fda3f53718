/* http_framing.c - what is refused before routing, and the URL as the
 * library hands it over.
 *
 *
 * libmicrohttpd 0.9.75 decides the framing itself and answers some
 * requests it cannot parse (a malformed Content-Length, a chunk size over
 * 64 bits, a request line or headers too long for its buffer) with HTML of
 * its own before the access handler is called; sudokud cannot change those
 * (docs/operations.md, Security). Everything else it passes on, ambiguous or
 * not, so the first call of the access handler, which sees all the headers,
 * judges the rest: a request is refused with a problem and the connection
 * closed when the message's length is ambiguous (request smuggling), when it
 * uses a transfer coding the library would wait on forever, or when its request
 * line or headers held bytes the library silently dropped.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api.h"
#include "clock.h"
#include "http_internal.h"

/* Copies src into dst (cap bytes), cutting it if needed. */
void http_copy_cut(char *dst, const char *src, size_t cap)
{
    size_t n = strnlen(src, cap - 1);

    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* The characters of a token (a method, a header name; RFC 9110, 5.6.2),
 * as a bit per byte: ALPHA, DIGIT and "!#$%&'*+-.^_`|~". */
static const uint64_t tchar_bits[4] = {
    0x03ff6cfa00000000ull, /* 0-63: ! # $ % & ' * + - . 0-9 */
    0x57ffffffc7fffffeull, /* 64-127: A-Z ^ _ ` a-z | ~ */
    0, 0};

static int is_tchar(unsigned char c)
{
    return (int)((tchar_bits[c >> 6] >> (c & 63)) & 1);
}

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

/* Has the 8-byte word w a byte below 0x20 or equal to 0x7f? (The bit
 * tricks of "Bit Twiddling Hacks": a byte b < n sets its high bit in
 * (w - n * ONES) & ~w & HIGHS; == 0x7f is a zero byte of w ^ 0x7f * ONES.)
 * Bytes from 0x80 (obs-text) are fine. */
static int word_has_control(uint64_t w)
{
    uint64_t del = w ^ (0x7f * ONES);

    return (((w - 0x20 * ONES) & ~w) | ((del - ONES) & ~del)) & HIGHS;
}

/* Is a header value free of controls but HTAB (a bare CR, a NUL, DEL)?
 * Eight bytes at a time; a word with a control in it (a tab, say) is
 * looked at byte by byte. */
static int value_ok(const char *value, size_t n)
{
    size_t i = 0;

    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, value + i, 8);
        if (!word_has_control(w))
            continue;
        for (size_t j = i; j < i + 8; j++) {
            unsigned char c = (unsigned char)value[j];
            if ((c < 0x20 && c != '\t') || c == 0x7f)
                return 0;
        }
    }
    for (; i < n; i++) {
        unsigned char c = (unsigned char)value[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return 0;
    }
    return 1;
}

/* Is one header line, as libmicrohttpd 0.9.75 left it in its read buffer,
 * exactly NAME ":" OWS VALUE CRLF, starting where the line before ended?
 * The library parses lines in place: it turns CR LF and the colon into
 * NULs and hands out C strings, so what it cannot represent is not
 * rejected but lost. A NUL in a name or value cuts it short (the rest of
 * the line is dropped), a bare LF ends a line, a folded line (obs-fold) is
 * appended to a copy of the name elsewhere in the pool, and a space before
 * the colon becomes part of the name. Each of these shows as a line that
 * does not start where the one before ended plus CR LF, or as a name or
 * value with bytes that cannot be in one. */
static int header_line_ok(const char *expect, const char *key, size_t key_size,
                          const char *value, size_t value_size)
{
    const char *p;

    if (key != expect || key_size == 0 || value == NULL ||
        value < key + key_size + 1)
        return 0;
    for (size_t i = 0; i < key_size; i++)
        if (!is_tchar((unsigned char)key[i]))
            return 0;
    for (p = key + key_size + 1; p < value; p++) /* OWS the library skipped */
        if (*p != ' ' && *p != '\t')
            return 0;
    return value_ok(value, value_size);
}

/* The headers the server reads, and what each decides. */
enum { OTHER, LENGTH, CODING, HOST };

static const struct wanted_header {
    const char *name;
    size_t len, at;
    int counts;
} wanted[] = {
#define WANT(name, member, counts)                                             \
    {                                                                          \
        name, sizeof(name) - 1, offsetof(struct http_request_headers, member), \
            counts                                                             \
    }
    WANT("X-Request-Id", id, OTHER),
    WANT(MHD_HTTP_HEADER_CONTENT_LENGTH, content_length, LENGTH),
    WANT(MHD_HTTP_HEADER_CONTENT_TYPE, content_type, OTHER),
    WANT("Origin", origin, OTHER),
    WANT("Access-Control-Request-Method", cors_method, OTHER),
    WANT(MHD_HTTP_HEADER_TRANSFER_ENCODING, transfer_encoding, CODING),
    WANT(MHD_HTTP_HEADER_HOST, host, HOST),
    WANT("traceparent", traceparent, OTHER),
#undef WANT
};

/* Where a name may be in wanted[]: a slot per (length + first letter
 * without case) % WANTED_SLOTS, holding its index + 1 (0: none of ours),
 * so that a header costs one comparison of names at most. The eight
 * names land in eight slots, worked out below: a name added needs a slot
 * of its own (or a longer table). The header tests send each name in
 * mixed case. */
#define WANTED_SLOTS 32

static unsigned wanted_slot(const char *key, size_t key_size)
{
    return (unsigned)(key_size + ((unsigned char)key[0] | 0x20)) % WANTED_SLOTS;
}

static const unsigned char wanted_at[WANTED_SLOTS] = {
    /* (len + lower-case first letter) % 32 of each name:
     * X-Request-Id 12+'x' = 132 -> 4, Content-Length 14+'c' = 113 -> 17,
     * Content-Type 12+'c' = 111 -> 15, Origin 6+'o' = 117 -> 21,
     * Access-Control-Request-Method 29+'a' = 126 -> 30,
     * Transfer-Encoding 17+'t' = 133 -> 5, Host 4+'h' = 108 -> 12,
     * traceparent 11+'t' = 127 -> 31 */
    [4] = 1,  [17] = 2, [15] = 3, [21] = 4,
    [30] = 5, [5] = 6,  [12] = 7, [31] = 8,
};

/* One header for http_read_headers: kept when it is one we read and the first
 * of its name; counted when it decides the framing; checked for its shape
 * (header_line_ok). Names are matched without regard to case, like
 * MHD_lookup_connection_value does. */
static enum MHD_Result take_header(void *cls, enum MHD_ValueKind kind,
                                   const char *key, size_t key_size,
                                   const char *value, size_t value_size)
{
    struct http_request_headers *h = cls;
    const struct wanted_header *w;
    unsigned at;
    const char **slot;

    (void)kind;
    if (!h->bad && !header_line_ok(h->next, key, key_size, value, value_size))
        h->bad = 1;
    h->next = value ? value + value_size + 2 : NULL;
    if (key_size == 0 || (at = wanted_at[wanted_slot(key, key_size)]) == 0)
        return MHD_YES;
    w = &wanted[at - 1];
    if (key_size != w->len || strcasecmp(key, w->name) != 0)
        return MHD_YES;
    slot = (const char **)((char *)cls + w->at);
    if (w->counts == LENGTH && h->n_content_length++ > 0 &&
        strcmp(*slot, value) != 0)
        h->lengths_differ = 1;
    h->n_transfer_encoding += w->counts == CODING;
    h->n_host += w->counts == HOST;
    if (*slot == NULL)
        *slot = value;
    return MHD_YES;
}

/* Finds every header the server reads in one pass (looking each up walks
 * all of them again), and checks the framing on the way. The first header
 * line starts right after the request line's CR LF, which follows the
 * version, and the empty line after the last one ends the header block,
 * whose size from the method on the library reports. */
void http_read_headers(struct MHD_Connection *conn, const char *method,
                       const char *version, struct http_request_headers *h)
{
    const union MHD_ConnectionInfo *ci;

    memset(h, 0, sizeof(*h));
    h->next = version + strlen(version) + 2;
    MHD_get_connection_values_n(conn, MHD_HEADER_KIND, take_header, h);
    ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    if (ci != NULL &&
        (h->next == NULL || h->next + 2 != method + ci->header_size))
        h->bad = 1;
}

/* The URL (path and query) may have this many bytes and query parameters.
 * The library keeps a 56-byte record per parameter in the connection's
 * 16 KiB memory pool; when they do not fit it queues a 431 but goes on
 * reading headers with no buffer left, so the client waited for the idle
 * timeout (about 250 parameters). No route takes any parameter. */
#define URI_MAX 2048

#define QUERY_ARGS_MAX 32

#define STR_(x) #x

#define STR(x) STR_(x)

static const struct api_refusal refusals[HTTP_REFUSE_N] = {
    [HTTP_REFUSE_URI_TOO_LONG] =
        {414, "uri_too_long", "URI too long",
         "the URL is longer than " STR(URI_MAX) " bytes or has more than " STR(
             QUERY_ARGS_MAX) " query parameters"},
    [HTTP_REFUSE_BAD_TARGET] =
        {400, "bad_request_line", "Bad request line",
         "the method or the URL holds a control character, a space or a NUL"},
    [HTTP_REFUSE_BAD_HEADER] =
        {400, "bad_header", "Bad header",
         "a header line is not name: value ending in CR LF (a control "
         "character, a NUL, a bare CR or LF, a folded line, a space before "
         "the colon), or Host is repeated"},
    [HTTP_REFUSE_MISSING_HOST] =
        {400, "missing_host", "Missing Host header",
         "an HTTP/1.1 request must have a Host header"},
    [HTTP_REFUSE_BAD_FRAMING] =
        {400, "bad_framing", "Ambiguous message length",
         "Content-Length together with Transfer-Encoding, two different "
         "Content-Length values, or Transfer-Encoding repeated or in an "
         "HTTP/1.0 request"},
    [HTTP_REFUSE_UNSUPPORTED_CODING] =
        {501, "unsupported_transfer_coding", "Unsupported transfer coding",
         "the only transfer coding a request may use is chunked"},
};

const struct api_refusal *http_refusal(enum http_refusal r)
{
    return r != HTTP_REFUSE_NONE ? &refusals[r] : NULL;
}

/* libmicrohttpd's URI log callback: called with the raw request target
 * right after the request line, before the library splits the query into
 * parameters. It makes the request's state (its return value becomes the
 * handler's *con_cls), notes where the target lies in the library's buffer
 * for http_judge(), and refuses a target too long. A refused target's query is
 * cut off here, in the library's buffer (the pointer is const only in the
 * callback's signature): the parameters are then never stored, so their
 * records cannot exhaust the pool and stall the connection. */
void *http_on_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
    struct http_loop *lp = cls;
    struct http_request *rq = http_request_take(lp);
    struct http_conn *cs =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT)
            ->socket_context;
    const char *query = strchr(uri, '?');
    size_t nargs = 0;

    http_conn_request_line(cs);
    /* Headers silent for --timeout are the library's to close (it sees
     * their bytes come; off again once they are in, in begin), when
     * that comes before the sweep's --header-timeout. */
    if (cs == NULL ||
        (lp->srv->idle_timeout_us < lp->srv->header_timeout_us && !cs->timed)) {
        MHD_set_connection_option(conn, MHD_CONNECTION_OPTION_TIMEOUT,
                                  lp->srv->timeout_s);
        if (cs != NULL)
            cs->timed = 1;
    }
    if (rq == NULL)
        return NULL; /* http_on_request closes the connection */
    rq->route = API_NROUTES;
    rq->start_us = clock_now_us();
    rq->raw_uri = uri;
    rq->raw_uri_len = strlen(uri);
    /* For the log of an answer the library makes itself; start_request
     * puts the decoded path here, like the library's, without the query. */
    http_copy_cut(rq->path, uri, sizeof(rq->path));
    rq->path[strcspn(rq->path, "?")] = '\0';
    for (const char *p = query; p != NULL; p = strchr(p + 1, '&'))
        nargs++;
    if (rq->raw_uri_len > URI_MAX || nargs > QUERY_ARGS_MAX) {
        rq->refused = HTTP_REFUSE_URI_TOO_LONG;
        if (query != NULL)
            ((char *)query)[1] = '\0';
        return rq;
    }
    for (size_t i = 0; i < rq->raw_uri_len; i++)
        if ((unsigned char)uri[i] <= ' ' || uri[i] == 0x7f)
            rq->refused = HTTP_REFUSE_BAD_TARGET;
    return rq;
}

/* The first call's verdict on a request that http_on_uri let through. The
 * request line lies in the library's buffer as METHOD NUL SP* TARGET NUL
 * VERSION: a NUL inside the method or the target ends its C string early
 * (`/livez\0junk` would be routed as /livez), which shows as the next part
 * not starting where the string ended. */
enum http_refusal http_judge(const struct http_request *rq, const char *url,
                             const char *method, const char *version)
{
    const struct http_request_headers *h = &rq->hdr;
    size_t mlen = strlen(method);
    const char *p = method + mlen + 1;
    int http10 = strcmp(version, "HTTP/1.0") == 0;

    if (url != rq->raw_uri || version != rq->raw_uri + rq->raw_uri_len + 1)
        return HTTP_REFUSE_BAD_TARGET;
    for (size_t i = 0; i < mlen; i++)
        if (!is_tchar((unsigned char)method[i]))
            return HTTP_REFUSE_BAD_TARGET;
    while (p < url && *p == ' ')
        p++;
    if (p != url)
        return HTTP_REFUSE_BAD_TARGET;
    if (h->bad || h->n_host > 1)
        return HTTP_REFUSE_BAD_HEADER;
    if (h->n_host == 0 && !http10)
        return HTTP_REFUSE_MISSING_HOST;
    /* RFC 9112, 6.1 and 6.3: with both, or with a coding the library does
     * not take for chunked (it then reads the body until the client
     * closes, which it never does), the length is not known. */
    if (h->n_transfer_encoding > 0) {
        if (h->n_content_length > 0 || h->n_transfer_encoding > 1 || http10)
            return HTTP_REFUSE_BAD_FRAMING;
        if (strcasecmp(h->transfer_encoding, "chunked") != 0)
            return HTTP_REFUSE_UNSUPPORTED_CODING;
    }
    if (h->lengths_differ)
        return HTTP_REFUSE_BAD_FRAMING;
    return HTTP_REFUSE_NONE;
}

static int hex_value(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* Decodes %HH in paths (and query arguments) in place, like the default,
 * except %00: a NUL would end the C string early, so "/livez%00junk" would
 * be routed as "/livez". It is left as "%00", which matches no route. */
size_t http_unescape(void *cls, struct MHD_Connection *conn, char *s)
{
    char *out = s;

    (void)cls, (void)conn;
    for (const char *p = s; *p; p++) {
        int hi, lo;
        if (*p == '%' && (hi = hex_value(p[1])) >= 0 &&
            (lo = hex_value(p[2])) >= 0 && (hi | lo) != 0) {
            *out++ = (char)(hi * 16 + lo);
            p += 2;
        } else {
            *out++ = *p;
        }
    }
    *out = '\0';
    return (size_t)(out - s);
}
