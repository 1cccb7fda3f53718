/* codec_teach.c - the codec's part for the general logic engine: hints,
 * grades and explanations of killer and variant puzzles, as cJSON trees in
 * the classic answers' shape (codec_logic.c), units named by kind
 * ("row", "region", "diagonal", "extra_region", "cage"). */
#include <stdio.h>
#include <stdlib.h>

#include "codec_internal.h"
#include "codec_teach.h"
#include "logic.h" /* the level names */

static int add_moves(cJSON *obj, const char *name, const struct teach_puzzle *p,
                     const struct teach_move *m, unsigned n)
{
    cJSON *list = cJSON_AddArrayToObject(obj, name);

    if (list == NULL)
        return 0;
    for (unsigned i = 0; i < n; i++)
        if (!codec_add_cell_digit(list, m[i].cell, p->n, m[i].digit))
            return 0;
    return 1;
}

/* [d, ...] of a digit mask. */
static cJSON *digit_list(uint32_t mask)
{
    cJSON *list = cJSON_CreateArray();

    for (; list && mask; mask &= mask - 1) {
        cJSON *num = cJSON_CreateNumber(__builtin_ctz(mask) + 1);
        if (num == NULL) {
            cJSON_Delete(list);
            return NULL;
        }
        cJSON_AddItemToArray(list, num);
    }
    return list;
}

/* "links": a chain's nodes in order, as the classic steps give them: an
 * X-chain and an AIC alternate "strong" (a unit's only two places) and
 * "weak" (two peers), an XY-chain's nodes each lead to the next ("then":
 * this cell is the digit, so the next is its digit); "end" on the last
 * node. An AIC's grouped node (its cells share s->chain_node) is one
 * entry whose "cell" is its first and "cells" all of them, as classic's.
 * Empty for the other techniques. */
static int add_links(cJSON *obj, const struct teach_puzzle *p,
                     const struct teach_step *s)
{
    cJSON *list = cJSON_AddArrayToObject(obj, "links");
    int xy = s->technique == TEACH_XY_CHAIN || s->technique == TEACH_XY_WING,
        aic = s->technique == TEACH_AIC;
    unsigned node = 0;

    if (list == NULL)
        return 0;
    if (!xy && !aic && s->technique != TEACH_X_CHAIN)
        return 1;
    for (unsigned i = 0, n; i < s->ncells; i += n, node++) {
        const char *link;
        cJSON *item, *group;
        n = 1;
        while (aic && i + n < s->ncells && s->chain_node[i + n] == node)
            n++;
        link = i + n == s->ncells ? "end"
               : xy               ? "then"
               : node % 2 == 0    ? "strong"
                                  : "weak";
        item =
            codec_add_cell_digit(list, s->cells[i], p->n, s->chain_digits[i]);
        if (item == NULL || !cJSON_AddStringToObject(item, "link", link))
            return 0;
        if (n == 1)
            continue;
        if ((group = cJSON_AddArrayToObject(item, "cells")) == NULL)
            return 0;
        for (unsigned k = i; k < i + n; k++) {
            cJSON *pair = codec_cell_pair(s->cells[k], p->n);
            if (pair == NULL)
                return 0;
            cJSON_AddItemToArray(group, pair);
        }
    }
    return 1;
}

static int add_step(cJSON *obj, const struct teach_puzzle *p,
                    const struct teach_step *s)
{
    cJSON *units, *cells, *digits;
    int cage_step = s->technique == TEACH_CAGE_COMBINATION ||
                    s->technique == TEACH_CAGE_LOCKED,
        sum_step = s->technique == TEACH_INNIES || s->technique == TEACH_OUTIES;

    if (!cJSON_AddNumberToObject(obj, "rating", s->rating / 10.0) ||
        !add_links(obj, p, s) ||
        !add_moves(obj, "placements", p, s->placements, s->nplacements) ||
        !add_moves(obj, "eliminations", p, s->eliminations, s->neliminations) ||
        !(units = cJSON_AddArrayToObject(obj, "units")) ||
        !(cells = cJSON_AddArrayToObject(obj, "cells")))
        return 0;
    for (unsigned i = 0; i < s->nunits; i++) {
        const struct teach_unit *u = &p->unit[s->units[i]];
        cJSON *item = cJSON_CreateObject();
        if (item == NULL)
            return 0;
        cJSON_AddItemToArray(units, item);
        if (!cJSON_AddStringToObject(item, "unit",
                                     teach_unit_kind_name(u->kind)) ||
            !cJSON_AddNumberToObject(item, "index", u->index))
            return 0;
    }
    for (unsigned i = 0; i < s->ncells; i++) {
        cJSON *pair = codec_cell_pair(s->cells[i], p->n);
        if (pair == NULL)
            return 0;
        cJSON_AddItemToArray(cells, pair);
    }
    if ((digits = digit_list(s->digits)) == NULL)
        return 0;
    cJSON_AddItemToObject(obj, "digits", digits);
    if ((cage_step || sum_step) && !cJSON_AddNumberToObject(obj, "sum", s->sum))
        return 0;
    if (s->technique == TEACH_INNIES_OUTIES &&
        (!cJSON_AddNumberToObject(obj, "sum", s->net) ||
         !cJSON_AddNumberToObject(obj, "innies", s->ninnies)))
        return 0;
    if (cage_step) {
        cJSON *combos = cJSON_AddArrayToObject(obj, "combinations");
        if (combos == NULL)
            return 0;
        for (unsigned i = 0; i < s->ncombos; i++) {
            cJSON *set = digit_list(s->combos[i]);
            if (set == NULL)
                return 0;
            cJSON_AddItemToArray(combos, set);
        }
    }
    return 1;
}

char *codec_encode_teach_hint(const struct codec_teach_hint *h, size_t *len)
{
    cJSON *obj = cJSON_CreateObject();
    const char *name =
        h->technique ? h->technique : teach_technique_name(h->step->technique);
    int ok;

    if (obj == NULL)
        return NULL;
    ok = cJSON_AddStringToObject(obj, "technique", name) &&
         add_step(obj, h->puzzle, h->step) &&
         cJSON_AddStringToObject(obj, "explanation", h->explanation) &&
         cJSON_AddBoolToObject(obj, "stuck", h->stuck) &&
         cJSON_AddStringToObject(obj, "rating_scale", CODEC_TEACH_SCALE);
    if (ok && h->next != NULL) {
        const struct teach_move *m = &h->next->placements[0];
        ok = codec_add_next_placement(obj, m->cell, h->puzzle->n, m->digit,
                                      teach_technique_name(h->next->technique),
                                      h->next_steps);
    }
    return codec_finish(obj, ok, len);
}

static int add_grade(cJSON *obj, const struct teach_walk *w)
{
    cJSON *techniques;
    int ok;

    ok = cJSON_AddStringToObject(
             obj, "level", logic_level_name((enum logic_level)w->level)) &&
         (w->hardest < 0
              ? cJSON_AddNullToObject(obj, "hardest") != NULL
              : cJSON_AddStringToObject(
                    obj, "hardest",
                    teach_technique_name((enum teach_technique)w->hardest)) !=
                    NULL) &&
         cJSON_AddBoolToObject(obj, "needs_guessing",
                               w->status != TEACH_SOLVED) &&
         cJSON_AddNumberToObject(obj, "steps", (double)w->nsteps) &&
         cJSON_AddNumberToObject(obj, "blanks_left", w->blanks_left) &&
         cJSON_AddNumberToObject(obj, "rating", w->rating / 10.0) &&
         cJSON_AddBoolToObject(obj, "budget_exhausted",
                               w->status == TEACH_BUDGET) &&
         cJSON_AddStringToObject(obj, "rating_scale", CODEC_TEACH_SCALE) &&
         (techniques = cJSON_AddObjectToObject(obj, "techniques")) != NULL;
    for (int t = 0; ok && t < TEACH_NTECHNIQUES; t++)
        if (w->counts[t] > 0)
            ok = cJSON_AddNumberToObject(
                     techniques, teach_technique_name((enum teach_technique)t),
                     w->counts[t]) != NULL;
    return ok;
}

char *codec_encode_teach_grade(const struct teach_walk *w, size_t *len)
{
    cJSON *obj = cJSON_CreateObject();

    if (obj == NULL)
        return NULL;
    return codec_finish(obj, add_grade(obj, w), len);
}

int codec_teach_add_level(cJSON *obj, const struct teach_walk *w,
                          unsigned attempts)
{
    cJSON *grade;

    return cJSON_AddStringToObject(
               obj, "difficulty",
               logic_level_name((enum logic_level)w->level)) &&
           cJSON_AddNumberToObject(obj, "attempts", attempts) &&
           (grade = cJSON_AddObjectToObject(obj, "grade")) != NULL &&
           add_grade(grade, w);
}

/* "cages": [{"sum": s, "cells": [[r, c], ...]}, ...] */
static int add_cages(cJSON *obj, const struct killer_cages *k)
{
    cJSON *list = cJSON_AddArrayToObject(obj, "cages");

    for (unsigned i = 0; list && i < k->ncages; i++) {
        cJSON *cage = cJSON_CreateObject(), *cells;
        if (cage == NULL)
            return 0;
        cJSON_AddItemToArray(list, cage);
        if (!cJSON_AddNumberToObject(cage, "sum", k->cage[i].sum) ||
            !(cells = cJSON_AddArrayToObject(cage, "cells")))
            return 0;
        for (unsigned j = 0; j < k->cage[i].ncells; j++) {
            int rc[2] = {k->row[k->cage[i].first + j],
                         k->col[k->cage[i].first + j]};
            cJSON *pair = cJSON_CreateIntArray(rc, 2);
            if (pair == NULL)
                return 0;
            cJSON_AddItemToArray(cells, pair);
        }
    }
    return list != NULL;
}

char *codec_encode_teach_generated(const struct codec_teach_generated *g,
                                   size_t *len)
{
    const struct teach_killer *k = g->killer;
    cJSON *obj = cJSON_CreateObject(), *grade;
    char puzzle[SUDOKU_CELLS + 1], solution[SUDOKU_CELLS + 1];
    int ok;

    if (obj == NULL)
        return NULL;
    sudoku_format(&k->puzzle, puzzle);
    sudoku_format(&k->solution, solution);
    ok = cJSON_AddStringToObject(obj, "puzzle", puzzle) &&
         cJSON_AddStringToObject(obj, "solution", solution) &&
         add_cages(obj, &k->cages) &&
         cJSON_AddStringToObject(
             obj, "difficulty",
             logic_level_name((enum logic_level)k->grade.level)) &&
         codec_add_seed(obj, g->seed) &&
         cJSON_AddNumberToObject(obj, "givens", k->givens) &&
         cJSON_AddNumberToObject(obj, "attempts", k->attempts) &&
         cJSON_AddNumberToObject(obj, "generate_us", (double)k->took_us) &&
         (grade = cJSON_AddObjectToObject(obj, "grade")) != NULL &&
         add_grade(grade, &k->grade);
    return codec_finish(obj, ok, len);
}

char *codec_encode_teach_explain(const struct codec_teach_explain *e,
                                 size_t *len)
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
        ok = cJSON_AddStringToObject(
                 item, "technique",
                 teach_technique_name(e->steps[i].technique)) &&
             add_step(item, e->puzzle, &e->steps[i]) &&
             cJSON_AddStringToObject(item, "explanation", e->explanations[i]);
    }
    ok = ok && cJSON_AddBoolToObject(obj, "complete", e->complete) &&
         (e->stopped
              ? cJSON_AddStringToObject(obj, "stopped", e->stopped) != NULL
              : cJSON_AddNullToObject(obj, "stopped") != NULL) &&
         cJSON_AddStringToObject(
             obj, "level", logic_level_name((enum logic_level)e->level)) &&
         cJSON_AddNumberToObject(obj, "rating", e->rating / 10.0) &&
         cJSON_AddStringToObject(obj, "rating_scale", CODEC_TEACH_SCALE) &&
         /* our technique engine (for these kinds, the general one) */
         cJSON_AddStringToObject(obj, "engine", "logic") &&
         codec_add_grid(obj, "solution", e->solution, e->puzzle->n, e->shape) &&
         cJSON_AddNumberToObject(obj, "max_logic_ms", e->max_logic_ms) &&
         cJSON_AddNumberToObject(obj, "explain_us", (double)e->explain_us);
    return codec_finish(obj, ok, len);
}
