/* codec_logic.c - the codec module's part for /hint, /grade, /explain and
 * /generate: their answers (the /generate body is read in codec_puzzle.c).
 * Answers are built as cJSON trees (explanations need escaping); every builder
 * returns NULL when out of memory and frees what it made. Cells are [row,
 * column], 0-based. */
#include "codec.h"

#include "codec_internal.h"
#include "grid.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logic.h"
#include "serate.h"

/* ------------------------------------------------------------------------
 * Answers
 * ------------------------------------------------------------------------ */

static int add_moves(cJSON *obj, const char *name, const struct logic_move *m,
                     int n)
{
    cJSON *list = cJSON_AddArrayToObject(obj, name);

    if (list == NULL)
        return 0;
    for (int i = 0; i < n; i++)
        if (!codec_add_cell_digit(list, m[i].cell, SUDOKU_SIZE, m[i].digit))
            return 0;
    return 1;
}

static const char *const link_words[] = {"strong", "weak", "then", "end"};

/* "links": [{"cell": [r, c], "digit": d, "link": "strong"}, ...]; a
 * grouped node also has "cells": [[r, c], ...]. */
static int add_links(cJSON *obj, const struct logic_step *s)
{
    cJSON *list = cJSON_AddArrayToObject(obj, "links");

    if (list == NULL)
        return 0;
    for (int i = 0; i < s->nlinks; i++) {
        const struct logic_link *l = &s->links[i];
        cJSON *item = cJSON_CreateObject(), *pair, *group;
        if (item == NULL)
            return 0;
        cJSON_AddItemToArray(list, item);
        if ((pair = codec_cell_pair(l->cells[0], SUDOKU_SIZE)) == NULL)
            return 0;
        cJSON_AddItemToObject(item, "cell", pair);
        if (l->ncells > 1) {
            if ((group = cJSON_AddArrayToObject(item, "cells")) == NULL)
                return 0;
            for (int k = 0; k < l->ncells; k++) {
                if ((pair = codec_cell_pair(l->cells[k], SUDOKU_SIZE)) == NULL)
                    return 0;
                cJSON_AddItemToArray(group, pair);
            }
        }
        if (!cJSON_AddNumberToObject(item, "digit", l->digit) ||
            !cJSON_AddStringToObject(item, "link", link_words[l->link & 3]))
            return 0;
    }
    return 1;
}

/* A rating in tenths as a number with one decimal (6.6). */
static int add_rating(cJSON *obj, unsigned tenths)
{
    return cJSON_AddNumberToObject(obj, "rating", tenths / 10.0) != NULL;
}

static int add_step(cJSON *obj, const struct logic_step *s)
{
    cJSON *units, *cells, *digits;

    if (!add_rating(obj, s->rating) || !add_links(obj, s))
        return 0;
    if ((s->technique == LOGIC_FORCING_NET) &&
        !cJSON_AddNumberToObject(obj, "depth", s->depth))
        return 0;

    if (!add_moves(obj, "placements", s->placements, s->nplacements) ||
        !add_moves(obj, "eliminations", s->eliminations, s->neliminations) ||
        !(units = cJSON_AddArrayToObject(obj, "units")) ||
        !(cells = cJSON_AddArrayToObject(obj, "cells")) ||
        !(digits = cJSON_AddArrayToObject(obj, "digits")))
        return 0;
    for (int i = 0; i < s->nunits; i++) {
        cJSON *u = cJSON_CreateObject();
        if (u == NULL)
            return 0;
        cJSON_AddItemToArray(units, u);
        if (!cJSON_AddStringToObject(u, "unit",
                                     grid_unit_name(s->units[i].unit)) ||
            !cJSON_AddNumberToObject(u, "index", s->units[i].index))
            return 0;
    }
    for (int i = 0; i < s->ncells; i++) {
        cJSON *pair = codec_cell_pair(s->cells[i], SUDOKU_SIZE);
        if (pair == NULL)
            return 0;
        cJSON_AddItemToArray(cells, pair);
    }
    for (int d = 1; d <= 9; d++) {
        cJSON *num;
        if (!(s->digits & (1u << (d - 1))))
            continue;
        if ((num = cJSON_CreateNumber(d)) == NULL)
            return 0;
        cJSON_AddItemToArray(digits, num);
    }
    return 1;
}

char *codec_encode_hint(const struct codec_hint *h, size_t *len)
{
    cJSON *obj = cJSON_CreateObject();
    const char *name =
        h->technique ? h->technique : logic_technique_name(h->step->technique);
    int ok;

    if (obj == NULL)
        return NULL;
    ok = cJSON_AddStringToObject(obj, "technique", name) &&
         add_step(obj, h->step) &&
         cJSON_AddStringToObject(obj, "explanation", h->explanation) &&
         cJSON_AddBoolToObject(obj, "stuck", h->stuck);
    if (ok && h->next != NULL) {
        const struct logic_move *m = &h->next->placements[0];
        ok = codec_add_next_placement(obj, m->cell, SUDOKU_SIZE, m->digit,
                                      logic_technique_name(h->next->technique),
                                      h->next_steps);
    }
    return codec_finish(obj, ok, len);
}

/* A rating in tenths, or null when it was not reached (0). */
static int add_tenths_or_null(cJSON *obj, const char *name, int tenths)
{
    return tenths > 0
               ? cJSON_AddNumberToObject(obj, name, tenths / 10.0) != NULL
               : cJSON_AddNullToObject(obj, name) != NULL;
}

/* SE's three numbers: "rating" (1.0 for a board that needs no step),
 * "pearl", "diamond", "rating_lower_bound", "rated_by". */
static int add_se_numbers(cJSON *obj, const struct serate_result *se)
{
    return add_rating(obj, se->er > 10 ? (unsigned)se->er : 10) &&
           add_tenths_or_null(obj, "pearl", se->ep) &&
           add_tenths_or_null(obj, "diamond", se->ed) &&
           cJSON_AddBoolToObject(obj, "rating_lower_bound", se->lower_bound) &&
           cJSON_AddStringToObject(obj, "rated_by", CODEC_RATED_BY);
}

static int add_grade(cJSON *obj, const struct codec_grade *cg)
{
    const struct logic_grade *g = cg->logic;
    const struct serate_result *se = cg->se;
    cJSON *techniques;

    if (!cJSON_AddStringToObject(
            obj, "level", logic_level_name((enum logic_level)cg->level)) ||
        !add_se_numbers(obj, se) ||
        !(se->hardest[0]
              ? cJSON_AddStringToObject(obj, "se_hardest", se->hardest)
              : cJSON_AddNullToObject(obj, "se_hardest")) ||
        !cJSON_AddNumberToObject(obj, "se_steps", (double)se->nsteps) ||
        !(g->hardest < 0
              ? cJSON_AddNullToObject(obj, "hardest")
              : cJSON_AddStringToObject(
                    obj, "hardest",
                    logic_technique_name((enum logic_technique)g->hardest))) ||
        !cJSON_AddBoolToObject(obj, "needs_guessing", g->needs_guessing) ||
        !cJSON_AddNumberToObject(obj, "steps", g->steps) ||
        !cJSON_AddNumberToObject(obj, "blanks_left", g->blanks_left) ||
        !cJSON_AddNumberToObject(obj, "logic_rating", g->rating / 10.0) ||
        !cJSON_AddBoolToObject(obj, "budget_exhausted", cg->budget_exhausted) ||
        !(techniques = cJSON_AddObjectToObject(obj, "techniques")))
        return 0;
    for (int t = 0; t < LOGIC_NTECHNIQUES; t++)
        if (g->counts[t] > 0 &&
            !cJSON_AddNumberToObject(
                techniques, logic_technique_name((enum logic_technique)t),
                g->counts[t]))
            return 0;
    return 1;
}

char *codec_encode_grade(const struct codec_grade *g, size_t *len)
{
    cJSON *obj = cJSON_CreateObject();

    if (obj == NULL)
        return NULL;
    return codec_finish(obj, add_grade(obj, g), len);
}

/* A classic board as 9 strings of 9 or one string of 81. */
static int add_board(cJSON *obj, const char *name, const struct sudoku_grid *g,
                     enum codec_shape shape)
{
    char text[SUDOKU_CELLS + 1];

    sudoku_format(g, text);
    return codec_add_grid(obj, name, text, SUDOKU_SIZE, shape);
}

char *codec_encode_generated(const struct codec_generated *g, size_t *len)
{
    cJSON *obj = cJSON_CreateObject(), *grade;
    int ok;

    if (obj == NULL)
        return NULL;
    ok = add_board(obj, "puzzle", g->puzzle, g->shape) &&
         add_board(obj, "solution", g->solution, g->shape) &&
         cJSON_AddStringToObject(
             obj, "difficulty",
             logic_level_name((enum logic_level)g->grade->level)) &&
         codec_add_seed(obj, g->seed) &&
         cJSON_AddStringToObject(obj, "symmetry", g->symmetry) &&
         cJSON_AddNumberToObject(obj, "givens", g->givens) &&
         cJSON_AddNumberToObject(obj, "attempts", g->attempts) &&
         cJSON_AddNumberToObject(obj, "generate_us", (double)g->generate_us) &&
         (grade = cJSON_AddObjectToObject(obj, "grade")) != NULL &&
         add_grade(grade, g->grade);
    return codec_finish(obj, ok, len);
}

/* ------------------------------------------------------------------------
 * POST /explain
 * ------------------------------------------------------------------------ */

/* One step of SE's path: {"technique" (SE's name), "rating",
 * "placements": [] or [{cell, digit}], "eliminations": [{cell, digit}...]
 * by cell, then digit}. */
static int add_se_step(cJSON *obj, const struct serate_step *s)
{
    struct logic_move m = {(uint8_t)(s->cell >= 0 ? s->cell : 0), s->digit};
    cJSON *gone;

    if (!cJSON_AddStringToObject(obj, "technique", s->name) ||
        !add_rating(obj, s->rating) ||
        !add_moves(obj, "placements", &m, s->cell >= 0) ||
        !(gone = cJSON_AddArrayToObject(obj, "eliminations")))
        return 0;
    for (int c = 0; c < SUDOKU_CELLS; c++)
        for (int d = 1; d <= SUDOKU_SIZE; d++)
            if ((s->removed[c] >> (d - 1) & 1) &&
                !codec_add_cell_digit(gone, (unsigned)c, SUDOKU_SIZE, d))
                return 0;
    return 1;
}

char *codec_encode_explain(const struct codec_explain *e, size_t *len)
{
    cJSON *obj = cJSON_CreateObject(), *steps;
    int ok;

    if (obj == NULL)
        return NULL;
    ok = (steps = cJSON_AddArrayToObject(obj, "steps")) != NULL;
    for (size_t i = 0; ok && i < e->nsteps; i++) {
        cJSON *item = cJSON_CreateObject();
        if (item == NULL) {
            ok = 0;
            break;
        }
        cJSON_AddItemToArray(steps, item);
        if (e->se_steps != NULL) {
            ok = add_se_step(item, &e->se_steps[i]);
            continue;
        }
        ok = cJSON_AddStringToObject(
                 item, "technique",
                 logic_technique_name(e->steps[i].technique)) &&
             add_step(item, &e->steps[i]) &&
             cJSON_AddStringToObject(item, "explanation", e->explanations[i]) !=
                 NULL;
    }
    ok = ok && cJSON_AddBoolToObject(obj, "complete", e->complete) &&
         (e->stopped ? cJSON_AddStringToObject(obj, "stopped", e->stopped)
                     : cJSON_AddNullToObject(obj, "stopped")) &&
         cJSON_AddStringToObject(
             obj, "level", logic_level_name((enum logic_level)e->level)) &&
         (e->se != NULL ? add_se_numbers(obj, e->se)
                        : add_rating(obj, e->rating)) &&
         cJSON_AddStringToObject(obj, "engine", e->se ? "se" : "logic") &&
         add_board(obj, "solution", e->solution, e->shape) &&
         cJSON_AddNumberToObject(obj, "max_logic_ms", e->max_logic_ms) &&
         cJSON_AddNumberToObject(obj, "explain_us", (double)e->explain_us);
    return codec_finish(obj, ok, len);
}
