/* codec_batch.c - the wire format of POST /solve/batch: a JSON object
 * {"boards": [...]} or NDJSON (one board per line) in; results in input
 * order out, as a JSON object {"results": [...], "stats": {...}} or as
 * NDJSON, one result per line. Each result is {"index", "solution"} or
 * {"index", "problem"}. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec_internal.h"

/* ------------------------------------------------------------------------
 * The held records: each puzzle in a few bytes until it is judged
 *
 * A batch holds up to --max-batch puzzles for as long as it runs, so each
 * is kept as small as its board: a classic board as its 81 cells (digits
 * and dots as a grid, anything else as the text sent), and on the heap,
 * sized to what they hold, the error of an item that failed (its pointer
 * and sentence, not a whole struct codec_error) and a board of another size
 * or with rules, packed:
 *
 *   shape has_box n box_rows box_cols has_regions diagonals anti_knight
 *   anti_king nextra              10 bytes, one each
 *   at NUL board_at NUL           its two JSON pointers
 *   text                          n * n characters as sent
 *   region                        n * n, only with has_regions
 *   per extra group: ncells, then ncells cells of 2 bytes (little end
 *   first)
 *
 * codec_batch_get unpacks a record into a struct codec_batch_item (about
 * 3.5 KB) that the caller keeps as scratch.
 * ------------------------------------------------------------------------ */

enum held_kind {
    HELD_GRID,    /* a classic board of digits and dots: u.grid */
    HELD_TEXT,    /* a classic board with other characters: u.text */
    HELD_FAILED,  /* not readable: u.data is the packed error */
    HELD_VARIANT, /* another size or rules: u.data is the packed board */
};

enum held_at {
    AT_ROOT,  /* "": an NDJSON line that is the board */
    AT_BOARD, /* "/board": an NDJSON line {"board": ...} */
    AT_INDEX, /* "/boards/INDEX": an element of the JSON form */
};

struct codec_batch_held {
    union {
        struct sudoku_grid grid;
        char text[SUDOKU_CELLS];
        unsigned char *data;
    } u;
    uint8_t kind;  /* enum held_kind */
    uint8_t shape; /* enum codec_shape */
    uint8_t at;    /* enum held_at */
};

/* Appends n bytes at *p. */
static unsigned char *put(unsigned char *p, const void *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}

/* The packed error: status (1 byte), offset (4), row and column (2 each),
 * then pointer NUL detail NUL. NULL when out of memory. */
static unsigned char *pack_error(enum codec_status st,
                                 const struct codec_error *err, size_t *size)
{
    size_t lp = strnlen(err->pointer, sizeof(err->pointer) - 1);
    size_t ld = strnlen(err->detail, sizeof(err->detail) - 1);
    int32_t offset = (int32_t)err->offset;
    int16_t rc[2] = {(int16_t)err->row, (int16_t)err->column};
    unsigned char *d, *p;

    *size = 9 + lp + ld + 2;
    if ((d = malloc(*size)) == NULL)
        return NULL;
    d[0] = (unsigned char)st;
    p = put(d + 1, &offset, 4);
    p = put(p, rc, 4);
    p = put(p, err->pointer, lp);
    *p++ = '\0';
    p = put(p, err->detail, ld);
    *p = '\0';
    return d;
}

static enum codec_status unpack_error(const unsigned char *d,
                                      struct codec_error *err)
{
    int32_t offset;
    int16_t rc[2];
    const char *s = (const char *)d + 9;

    memcpy(&offset, d + 1, 4);
    memcpy(rc, d + 5, 4);
    err->offset = offset;
    err->row = rc[0];
    err->column = rc[1];
    snprintf(err->pointer, sizeof(err->pointer), "%s", s);
    snprintf(err->detail, sizeof(err->detail), "%s", s + strlen(s) + 1);
    return (enum codec_status)d[0];
}

/* The packed board of a variant v (decoded without error). NULL when out
 * of memory. */
static unsigned char *pack_variant(const struct codec_variant *v, size_t *size)
{
    const struct cover_rules *r = &v->rules;
    size_t cells = (size_t)r->n * r->n, la = strlen(v->at);
    size_t lb = strlen(v->board_at), total = 10 + la + lb + 2 + cells;
    unsigned char *d, *p,
        head[10] = {(unsigned char)v->shape,
                    (unsigned char)v->has_box,
                    r->n,
                    r->box_rows,
                    r->box_cols,
                    (unsigned char)r->has_regions,
                    (unsigned char)r->diagonals,
                    (unsigned char)r->anti_knight,
                    (unsigned char)r->anti_king,
                    (unsigned char)r->nextra};

    if (r->has_regions)
        total += cells;
    for (unsigned g = 0; g < r->nextra; g++)
        total += 1 + 2 * (size_t)r->extra[g].ncells;
    if ((d = malloc(total)) == NULL)
        return NULL;
    p = put(d, head, sizeof(head));
    p = put(p, v->at, la + 1);
    p = put(p, v->board_at, lb + 1);
    p = put(p, v->text, cells);
    if (r->has_regions)
        p = put(p, r->region, cells);
    for (unsigned g = 0; g < r->nextra; g++) {
        *p++ = r->extra[g].ncells;
        for (unsigned k = 0; k < r->extra[g].ncells; k++) {
            *p++ = (unsigned char)(r->extra[g].cell[k] & 0xff);
            *p++ = (unsigned char)(r->extra[g].cell[k] >> 8);
        }
    }
    *size = total;
    return d;
}

static void unpack_variant(const unsigned char *d, struct codec_variant *v)
{
    struct cover_rules *r = &v->rules;
    const unsigned char *p = d + 10;
    size_t cells = (size_t)d[2] * d[2];

    cover_rules_init(r, d[2]); /* a size it was decoded with: it is one */
    v->is_variant = 1;
    v->shape = (enum codec_shape)d[0];
    v->has_box = d[1];
    r->box_rows = d[3];
    r->box_cols = d[4];
    r->has_regions = d[5];
    r->diagonals = d[6];
    r->anti_knight = d[7];
    r->anti_king = d[8];
    r->nextra = d[9];
    snprintf(v->at, sizeof(v->at), "%s", (const char *)p);
    p += strlen((const char *)p) + 1;
    snprintf(v->board_at, sizeof(v->board_at), "%s", (const char *)p);
    p += strlen((const char *)p) + 1;
    memcpy(v->text, p, cells);
    p += cells;
    if (r->has_regions) {
        memcpy(r->region, p, cells);
        p += cells;
    }
    for (unsigned g = 0; g < r->nextra; g++) {
        r->extra[g].ncells = *p++;
        for (unsigned k = 0; k < r->extra[g].ncells; k++, p += 2)
            r->extra[g].cell[k] = (uint16_t)(p[0] | p[1] << 8);
    }
}

void codec_batch_get(const struct codec_batch *b, size_t i,
                     struct codec_batch_item *out)
{
    const struct codec_batch_held *h = &b->items[i];

    out->status = CODEC_OK;
    out->err.offset = -1;
    out->err.row = out->err.column = -1;
    out->err.pointer[0] = out->err.detail[0] = '\0';
    out->is_variant = 0;
    out->board.shape = (enum codec_shape)h->shape;
    out->board.only_board = 0;
    out->board.has_grid = h->kind == HELD_GRID;
    if (h->at == AT_INDEX) {
        memcpy(out->at, "/boards/", 8);
        *codec_put_decimal(out->at + 8, (uint64_t)i) = '\0';
    } else {
        snprintf(out->at, sizeof(out->at), "%s",
                 h->at == AT_BOARD ? "/board" : "");
    }
    switch ((enum held_kind)h->kind) {
    case HELD_GRID:
        out->board.grid = h->u.grid;
        break;
    case HELD_TEXT:
        memcpy(out->board.text, h->u.text, SUDOKU_CELLS);
        break;
    case HELD_FAILED:
        out->status = unpack_error(h->u.data, &out->err);
        break;
    case HELD_VARIANT:
        unpack_variant(h->u.data, &out->variant);
        out->is_variant = 1;
        break;
    }
}

/* ------------------------------------------------------------------------
 * Decoding
 * ------------------------------------------------------------------------ */

static int grow(struct codec_batch *b)
{
    size_t cap = b->cap ? b->cap * 2 : 64;
    struct codec_batch_held *p = realloc(b->items, cap * sizeof(*p));

    if (p == NULL)
        return -1;
    b->items = p;
    b->cap = cap;
    return 0;
}

/* The next record, a classic board at `at` (its cells still to be set);
 * NULL when out of memory. Every way of adding a record starts here. */
static struct codec_batch_held *next_held(struct codec_batch *b,
                                          enum held_at at)
{
    struct codec_batch_held *h;

    if (b->n == b->cap && grow(b) != 0)
        return NULL;
    h = &b->items[b->n++];
    h->kind = HELD_GRID;
    h->shape = CODEC_SHAPE_LINE;
    h->at = (uint8_t)at;
    return h;
}

/* Adds an item that failed, with its error. */
static enum codec_status add_failed(struct codec_batch *b, enum held_at at,
                                    enum codec_status st,
                                    const struct codec_error *err)
{
    struct codec_batch_held *h = next_held(b, at);
    size_t size = 0;

    if (h == NULL)
        return CODEC_NO_MEMORY;
    h->kind = HELD_FAILED;
    if ((h->u.data = pack_error(st, err, &size)) == NULL) {
        b->n--;
        return CODEC_NO_MEMORY;
    }
    b->held_bytes += size;
    return CODEC_OK;
}

/* Adds a decoded classic board. */
static enum codec_status add_board(struct codec_batch *b, enum held_at at,
                                   const struct codec_board *board)
{
    struct codec_batch_held *h = next_held(b, at);

    if (h == NULL)
        return CODEC_NO_MEMORY;
    h->shape = (uint8_t)board->shape;
    if (board->has_grid) {
        h->u.grid = board->grid;
    } else {
        h->kind = HELD_TEXT;
        memcpy(h->u.text, board->text, SUDOKU_CELLS);
    }
    return CODEC_OK;
}

/* The item for the generic engine when `item` (at `item_at`) is one: a
 * board of another size, or an object with rule members; decoded into the
 * scratch *v. Otherwise the classic board (status st, error *err). */
static enum codec_status add_variant(struct codec_batch *b, enum held_at at,
                                     const cJSON *item, const char *item_at,
                                     struct codec_variant *v,
                                     const struct codec_board *board,
                                     enum codec_status st,
                                     const struct codec_error *err)
{
    struct codec_batch_held *h;
    struct codec_error verr;
    enum codec_status vst = codec_variant_value(item, item_at, v, &verr);
    size_t size = 0;

    if (!v->is_variant)
        return st == CODEC_OK ? add_board(b, at, board)
                              : add_failed(b, at, st, err);
    if (vst != CODEC_OK)
        return add_failed(b, at, vst, &verr);
    if ((h = next_held(b, at)) == NULL)
        return CODEC_NO_MEMORY;
    h->kind = HELD_VARIANT;
    h->shape = (uint8_t)v->shape;
    if ((h->u.data = pack_variant(v, &size)) == NULL) {
        b->n--;
        return CODEC_NO_MEMORY;
    }
    b->held_bytes += size;
    return CODEC_OK;
}

/* Adds the board `value` found at pointer `at` as the next item; `item`
 * is the element or line it came from (at `item_at`), which may carry
 * rule members. v is scratch for a variant. */
static enum codec_status add_item(struct codec_batch *b, enum held_at where,
                                  const cJSON *value, const char *at,
                                  const cJSON *item, const char *item_at,
                                  struct codec_variant *v)
{
    struct codec_board board;
    struct codec_error err = {-1, -1, -1, "", ""};
    enum codec_status st = codec_board_value(value, at, &board, &err);

    if (st != CODEC_OK || codec_has_rule_member(item))
        return add_variant(b, where, item, item_at, v, &board, st, &err);
    return add_board(b, where, &board);
}

static enum codec_status too_many(struct codec_error *err, size_t max)
{
    return codec_fail(err, CODEC_TOO_MANY, "", -1,
                      "the batch has more than %zu puzzles", max);
}

/* Counts the elements of the "boards" array of a {"boards": [...]} body
 * without building a tree, so that an oversized batch (say 4 MiB of
 * "0,0,0,...": two million cJSON nodes, over 100 MB) is refused before it
 * is parsed. Returns the count, or at most max + 1; 0 when the array is not
 * found this way (an escaped key, say: the parse then decides). */
static size_t count_boards(const char *p, size_t len, size_t max)
{
    int depth = 0, in_str = 0, expect_key = 0, is_boards = 0, counting = 0;
    size_t key = 0, commas = 0, nonempty = 0;

    for (size_t i = 0; i < len; i++) {
        char c = p[i];

        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"') {
                in_str = 0;
                if (expect_key) { /* the key ended: is it "boards"? */
                    is_boards =
                        i - key == 6 && memcmp(p + key, "boards", 6) == 0;
                    expect_key = 0;
                }
            }
            continue;
        }
        if (counting && depth == 2 && c != ']' && c != ',' && c != ' ' &&
            c != '\t' && c != '\n' && c != '\r')
            nonempty = 1;
        switch (c) {
        case '"':
            in_str = 1;
            key = i + 1;
            break;
        case '{':
        case '[':
            if (depth == 1 && c == '[' && is_boards)
                counting = 1;
            if (++depth == 1)
                expect_key = 1;
            break;
        case '}':
        case ']':
            if (--depth == 1 && counting)
                return commas + nonempty;
            break;
        case ',':
            if (depth == 1)
                expect_key = 1, is_boards = 0;
            else if (counting && depth == 2 && ++commas >= max)
                return max + 1;
            break;
        }
    }
    return 0;
}

/* Is c a character that ends a number or a literal? */
static int ends_scalar(char c)
{
    switch (c) {
    case ' ':
    case '\t':
    case '\r':
    case '\n':
    case ',':
    case ':':
    case '[':
    case ']':
    case '{':
    case '}':
    case '"':
        return 1;
    default:
        return 0;
    }
}

/* Counts the JSON values of p[0..len) without parsing, stopping once past
 * `max`: each string (keys too), '{', '[' and run of other characters (a
 * number or a literal). On JSON it is the number of values plus keys; on
 * anything else still a bound on the cJSON items (and strings) a parse
 * would make before failing, since cJSON starts each at one of these and
 * ends strings the same way (at a '"' not escaped by a backslash). */
static size_t count_values(const char *p, size_t len, size_t max)
{
    size_t n = 0;

    for (size_t i = 0; i < len && n <= max; i++) {
        char c = p[i];

        if (c == '"') {
            n++;
            for (i++; i < len && p[i] != '"'; i++)
                if (p[i] == '\\')
                    i++;
        } else if (c == '{' || c == '[') {
            n++;
        } else if (!ends_scalar(c)) {
            n++;
            while (i + 1 < len && !ends_scalar(p[i + 1]))
                i++;
        }
    }
    return n;
}

static enum codec_status too_complex(struct codec_error *err, size_t allowed,
                                     size_t boards)
{
    err->offset = (long)allowed;
    return codec_fail(err, CODEC_TOO_COMPLEX, "", -1,
                      "the body holds more than %zu JSON values, more than "
                      "a batch of %zu board%s can have (a board is at most "
                      "%d: an array of 9 strings)",
                      allowed, boards, boards == 1 ? "" : "s",
                      CODEC_BATCH_PER_BOARD);
}

/* ------------------------------------------------------------------------
 * The fast path: boards that are plain strings, read without cJSON
 * ------------------------------------------------------------------------ */

/* A plain board string of 81 at p (codec_board_string) into *out; the
 * byte after it, or NULL. */
static const char *plain_board(const char *p, const char *end,
                               struct codec_board *out)
{
    int digits = 0;

    p = codec_board_string(p, end, SUDOKU_CELLS, 0, out->text, out->grid.cell,
                           &digits);
    if (p != NULL) {
        out->shape = CODEC_SHAPE_LINE;
        out->has_grid = digits;
    }
    return p;
}

/* The body as nearly every client sends it: {"boards": [...]} with only
 * plain boards, at most max_items of them, and JSON whitespace between the
 * tokens. Returns 1 with the items added when it is exactly that (the
 * general path would give the same items), else 0 with none added:
 * anything else takes the general path, which decides and explains. */
static int decode_object_fast(const char *body, size_t len, size_t max_items,
                              struct codec_batch *b, enum codec_status *st)
{
    const char *p = codec_skip_ws(body, body + len), *end = body + len;
    struct codec_board board;
    size_t hint = len / (SUDOKU_CELLS + 3) + 1;

    if (end - p < 10 || memcmp(p, "{\"boards\"", 9) != 0)
        return 0;
    p = codec_skip_ws(p + 9, end);
    if (p == end || *p++ != ':' || (p = codec_skip_ws(p, end)) == end ||
        *p++ != '[' || (p = codec_skip_ws(p, end)) == end || *p == ']')
        return 0;
    b->cap = hint < max_items ? hint : max_items; /* room for them all */
    if ((b->items = malloc(b->cap * sizeof(*b->items))) == NULL) {
        *st = CODEC_NO_MEMORY;
        return 1;
    }
    for (;;) {
        if (b->n == max_items)
            break;
        if ((p = plain_board(p, end, &board)) == NULL)
            break;
        if (add_board(b, AT_INDEX, &board) != CODEC_OK) {
            *st = CODEC_NO_MEMORY;
            return 1;
        }
        if ((p = codec_skip_ws(p, end)) == end || (*p != ',' && *p != ']'))
            break;
        if (*p++ == ']') {
            p = codec_skip_ws(p, end);
            if (p < end && *p++ == '}' && codec_skip_ws(p, end) == end) {
                *st = CODEC_OK;
                return 1;
            }
            break;
        }
    }
    codec_batch_free(b);
    return 0;
}

static enum codec_status decode_object(const char *body, size_t len,
                                       size_t max_items, struct codec_batch *b,
                                       struct codec_variant *v,
                                       struct codec_error *err)
{
    cJSON *root;
    const cJSON *boards, *value;
    enum codec_status st;
    size_t i = 0, n = count_boards(body, len, max_items), allowed;

    if (n > max_items)
        return too_many(err, max_items);
    /* Not found by the count (or empty): bound by the largest batch. */
    if (n == 0)
        n = max_items;
    allowed = CODEC_BATCH_PER_BOARD * n + CODEC_BATCH_SLACK;
    if (count_values(body, len, allowed) > allowed)
        return too_complex(err, allowed, n);
    b->parsed_tree = 1; /* even when the parse fails: it made blocks */
    if ((st = codec_parse(body, len, &root, err)) != CODEC_OK)
        return st;
    boards = cJSON_GetObjectItemCaseSensitive(root, "boards");
    if (!cJSON_IsObject(root) || !cJSON_IsArray(boards)) {
        st = codec_fail(err, CODEC_INVALID_REQUEST, "/boards", -1,
                        "the body must be a JSON object whose \"boards\" "
                        "member is an array of boards");
    } else if ((size_t)cJSON_GetArraySize(boards) > max_items) {
        st = too_many(err, max_items);
    } else {
        cJSON_ArrayForEach(value, boards)
        {
            char at[32];
            snprintf(at, sizeof(at), "/boards/%zu", i++);
            st = add_item(b, AT_INDEX, value, at, value, at, v);
            if (st != CODEC_OK)
                break;
        }
    }
    cJSON_Delete(root);
    return st;
}

/* One NDJSON line: a board value, or an object with a "board" member. */
static enum codec_status decode_line(const char *line, size_t len,
                                     struct codec_batch *b,
                                     struct codec_variant *v)
{
    struct codec_error err;
    const cJSON *board;
    cJSON *root;
    enum codec_status st;

    if (count_values(line, len, CODEC_BATCH_SLACK) > CODEC_BATCH_SLACK) {
        err.offset = -1;
        err.row = err.column = -1;
        codec_fail(&err, CODEC_INVALID_REQUEST, "", -1,
                   "the line holds more than %d JSON values; a board is a "
                   "string of 81 or an array of 9 strings",
                   CODEC_BATCH_SLACK);
        return add_failed(b, AT_ROOT, CODEC_INVALID_REQUEST, &err);
    }
    st = codec_parse(line, len, &root, &err);
    if (st == CODEC_NO_MEMORY)
        return st;
    if (st != CODEC_OK)
        return add_failed(b, AT_ROOT, st, &err);
    if (cJSON_IsObject(root)) {
        board = cJSON_GetObjectItemCaseSensitive(root, "board");
        if (cJSON_GetObjectItemCaseSensitive(root, "cages") != NULL) {
            /* Not solved as classic: that would ignore the cages. */
            codec_fail(&err, CODEC_INVALID_REQUEST, "/cages", -1,
                       "killer cages are not supported in batches; POST "
                       "/solve takes them");
            st = add_failed(b, AT_BOARD, CODEC_INVALID_REQUEST, &err);
        } else if (board == NULL) {
            codec_fail(&err, CODEC_INVALID_REQUEST, "/board", -1,
                       "the \"board\" member is missing");
            st = add_failed(b, AT_BOARD, CODEC_INVALID_REQUEST, &err);
        } else {
            st = add_item(b, AT_BOARD, board, "/board", root, "", v);
        }
    } else {
        st = add_item(b, AT_ROOT, root, "", root, "", v);
    }
    cJSON_Delete(root);
    return st;
}

static enum codec_status decode_ndjson(const char *body, size_t len,
                                       size_t max_items, struct codec_batch *b,
                                       struct codec_variant *v,
                                       struct codec_error *err)
{
    const char *p = body, *end = body + len;

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        size_t n = (size_t)(stop - p);
        enum codec_status st;

        if (n > 0 && p[n - 1] == '\r')
            n--;
        if (n > 0) { /* empty lines are skipped */
            struct codec_board board;
            const char *after;
            if (b->n == max_items)
                return too_many(err, max_items);
            after = plain_board(p, p + n, &board);
            if (after != NULL && codec_skip_ws(after, p + n) == p + n)
                st = add_board(b, AT_ROOT, &board);
            else /* not plain: the general path */
                st = decode_line(p, n, b, v);
            if (st != CODEC_OK)
                return st;
        }
        p = stop + (nl != NULL);
    }
    return CODEC_OK;
}

enum codec_status codec_decode_batch(const char *body, size_t len, int ndjson,
                                     size_t max_items, struct codec_batch *out,
                                     struct codec_error *err)
{
    struct codec_variant *v = NULL; /* scratch, made on the first use */
    enum codec_status st;

    memset(out, 0, sizeof(*out));
    err->offset = -1;
    err->row = -1;
    err->column = -1;
    err->pointer[0] = '\0';
    if (!ndjson && decode_object_fast(body, len, max_items, out, &st))
        return st == CODEC_OK ? st : (codec_batch_free(out), st);
    if ((v = malloc(sizeof(*v))) == NULL)
        return CODEC_NO_MEMORY;
    if (ndjson)
        st = decode_ndjson(body, len, max_items, out, v, err);
    else
        st = decode_object(body, len, max_items, out, v, err);
    free(v);
    if (st != CODEC_OK)
        codec_batch_free(out);
    return st;
}

void codec_batch_free(struct codec_batch *b)
{
    for (size_t i = 0; i < b->n; i++)
        if (b->items[i].kind == HELD_FAILED || b->items[i].kind == HELD_VARIANT)
            free(b->items[i].u.data);
    free(b->items);
    memset(b, 0, sizeof(*b));
}

/* ------------------------------------------------------------------------
 * Encoding
 * ------------------------------------------------------------------------ */

static void out_put(struct codec_out *o, const char *s, size_t n)
{
    if (o->failed)
        return;
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        char *p;
        while (cap < o->len + n + 1)
            cap *= 2;
        if ((p = realloc(o->data, cap)) == NULL) {
            o->failed = 1;
            return;
        }
        o->data = p;
        o->cap = cap;
    }
    memcpy(o->data + o->len, s, n);
    o->len += n;
    o->data[o->len] = '\0';
}

/* The separator before result `index`, and its opening. */
static void item_start(struct codec_out *o, size_t index)
{
    char head[48], *p = head;

    if (!o->ndjson && index > 0)
        *p++ = ',';
    memcpy(p, "{\"index\":", 9);
    p += 9;
    p = codec_put_decimal(p, index);
    *p++ = ',';
    out_put(o, head, (size_t)(p - head));
}

static void item_end(struct codec_out *o)
{
    out_put(o, o->ndjson ? "}\n" : "}", o->ndjson ? 2 : 1);
}

void codec_out_raw(struct codec_out *o, const char *s, size_t n)
{
    out_put(o, s, n);
}

void codec_out_begin(struct codec_out *o, int ndjson)
{
    memset(o, 0, sizeof(*o));
    o->ndjson = ndjson;
    if (!ndjson)
        out_put(o, "{\"results\":[", 12);
}

/* "solution": the n x n characters of text in `shape`. */
static void out_grid(struct codec_out *o, size_t index, const char *text, int n,
                     enum codec_shape shape)
{
    char buf[COVER_MAX_CELLS + 4 * COVER_MAX_N + 16], *p = buf;

    item_start(o, index);
    memcpy(p, "\"solution\":", 11);
    p += 11;
    if (shape == CODEC_SHAPE_ROWS) {
        for (int r = 0; r < n; r++) {
            *p++ = r ? ',' : '[';
            *p++ = '"';
            memcpy(p, text + n * r, (size_t)n);
            p += n;
            *p++ = '"';
        }
        *p++ = ']';
    } else {
        *p++ = '"';
        memcpy(p, text, (size_t)n * (size_t)n);
        p += n * n;
        *p++ = '"';
    }
    out_put(o, buf, (size_t)(p - buf));
    item_end(o);
}

void codec_out_solution(struct codec_out *o, size_t index,
                        const struct sudoku_grid *g, enum codec_shape shape)
{
    char text[SUDOKU_CELLS + 1];

    sudoku_format(g, text);
    out_grid(o, index, text, SUDOKU_SIZE, shape);
}

void codec_out_variant_solution(struct codec_out *o, size_t index,
                                const struct cover_grid *g,
                                enum codec_shape shape)
{
    char text[COVER_MAX_CELLS + 1];

    cover_format(g, text);
    out_grid(o, index, text, g->n, shape);
}

void codec_out_problem(struct codec_out *o, size_t index,
                       const struct codec_problem *pr)
{
    size_t len = 0;
    char *body = codec_encode_problem(pr, &len);

    if (body == NULL) {
        o->failed = 1;
        return;
    }
    item_start(o, index);
    out_put(o, "\"problem\":", 10);
    out_put(o, body, len);
    item_end(o);
    free(body);
}

void codec_out_tail(struct codec_out *o, size_t puzzles, size_t solved,
                    uint64_t solve_us)
{
    char tail[160];
    int n;

    if (o->ndjson)
        return;
    n = snprintf(tail, sizeof(tail),
                 "],\"stats\":{\"puzzles\":%zu,\"solved\":%zu,"
                 "\"failed\":%zu,\"solve_us\":%llu}}",
                 puzzles, solved, puzzles - solved,
                 (unsigned long long)solve_us);
    out_put(o, tail, (size_t)n);
}

char *codec_out_take(struct codec_out *o, size_t *len)
{
    char *data = o->data;

    if (!o->failed && data == NULL) /* nothing yet: an empty string */
        data = calloc(1, 1);
    if (o->failed || data == NULL) {
        free(o->data);
        data = NULL;
    }
    *len = data ? o->len : 0;
    o->data = NULL;
    o->len = o->cap = 0;
    return data;
}
