/* codec_killer.c - the codec module's part for killer sudoku: the optional
 * "cages" member of a puzzle body, [{"sum": n, "cells": [[row, column],
 * ...]}, ...]. Only the JSON shape is judged here (400 invalid_request with
 * a pointer such as /cages/3/cells/1); the values go to killer_check. */
#include <stdio.h>

#include "codec_internal.h"
#include "killer.h"

/* The largest value of a sum, row or column taken as a number; anything
 * further out is certainly wrong and is refused as malformed. */
#define CODEC_KILLER_MAX_INT 1000000

/* An integral JSON number within +-CODEC_KILLER_MAX_INT into *out. */
static int get_int(const cJSON *item, int *out)
{
    double v;

    if (!cJSON_IsNumber(item))
        return 0;
    v = item->valuedouble;
    if (!(v >= -CODEC_KILLER_MAX_INT && v <= CODEC_KILLER_MAX_INT) ||
        (double)(int)v != v)
        return 0;
    *out = (int)v;
    return 1;
}

static enum codec_status decode_cage(const cJSON *cage, int c,
                                     struct killer_cages *out,
                                     struct codec_error *err)
{
    const cJSON *sum = NULL, *cells = NULL, *cell;
    char pointer[64]; /* "/cages/N/cells/M" fits for any int N and M */
    int value, j = 0;

    snprintf(pointer, sizeof(pointer), "/cages/%d", c);
    if (!cJSON_IsObject(cage))
        return codec_fail(err, CODEC_INVALID_REQUEST, pointer, -1,
                          "cage %d must be an object "
                          "{\"sum\": n, \"cells\": [[row, column], ...]}",
                          c);
    sum = cJSON_GetObjectItemCaseSensitive(cage, "sum");
    cells = cJSON_GetObjectItemCaseSensitive(cage, "cells");
    snprintf(pointer, sizeof(pointer), "/cages/%d/sum", c);
    if (sum == NULL)
        return codec_fail(err, CODEC_INVALID_REQUEST, pointer, -1,
                          "cage %d has no \"sum\"", c);
    if (!get_int(sum, &value))
        return codec_fail(err, CODEC_INVALID_REQUEST, pointer, -1,
                          "the sum of cage %d must be an "
                          "integer (and not beyond %d)",
                          c, CODEC_KILLER_MAX_INT);
    killer_add_cage(out, value);
    snprintf(pointer, sizeof(pointer), "/cages/%d/cells", c);
    if (cells == NULL)
        return codec_fail(err, CODEC_INVALID_REQUEST, pointer, -1,
                          "cage %d has no \"cells\"", c);
    if (!cJSON_IsArray(cells) || cJSON_GetArraySize(cells) == 0)
        return codec_fail(err, CODEC_INVALID_REQUEST, pointer, -1,
                          "the cells of cage %d must be a "
                          "non-empty array of [row, column] pairs",
                          c);
    cJSON_ArrayForEach(cell, cells)
    {
        int rc[2];
        snprintf(pointer, sizeof(pointer), "/cages/%d/cells/%d", c, j);
        if (!cJSON_IsArray(cell) || cJSON_GetArraySize(cell) != 2)
            return codec_fail(err, CODEC_INVALID_REQUEST, pointer, -1,
                              "cell %d of cage %d must be a "
                              "pair [row, column]",
                              j, c);
        for (int k = 0; k < 2; k++)
            if (!get_int(cJSON_GetArrayItem(cell, k), &rc[k])) {
                snprintf(pointer, sizeof(pointer), "/cages/%d/cells/%d/%d", c,
                         j, k);
                return codec_fail(err, CODEC_INVALID_REQUEST, pointer, -1,
                                  "the %s of cell %d of cage "
                                  "%d must be an integer (0 to 8)",
                                  k ? "column" : "row", j, c);
            }
        killer_add_cell(out, rc[0], rc[1]);
        j++;
    }
    return CODEC_OK;
}

enum codec_status codec_cages_value(const cJSON *cages,
                                    struct killer_cages *out,
                                    struct codec_error *err)
{
    const cJSON *cage;
    enum codec_status st = CODEC_OK;
    int c = 0;

    killer_init(out);
    if (!cJSON_IsArray(cages) || cJSON_GetArraySize(cages) == 0)
        return codec_fail(err, CODEC_INVALID_REQUEST, "/cages", -1,
                          "\"cages\" must be a non-empty array "
                          "of {\"sum\": n, \"cells\": [[row, column], ...]}; "
                          "leave it out for a classic puzzle");
    cJSON_ArrayForEach(cage, cages)
    {
        if ((st = decode_cage(cage, c++, out, err)) != CODEC_OK)
            break;
    }
    return st;
}
