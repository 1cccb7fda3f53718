/* cli_line.c - one puzzle line of `sudoku`: judged by the command's mode
 * and printed straight into the caller's buffers, so that nothing of a
 * line outlives it. The hot path (solve, count) is parse, count to 2 and
 * 82 bytes of output; the rules are checked only when the search found no
 * solution, since a board that breaks them has none. The growing output
 * buffer (struct cli_buf) is here too. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_internal.h"
#include "clock.h"
#include "grid.h"
#include "killer.h"
#include "logic.h"
#include "serate.h"
#include "sudoku.h"

/* Makes room for n more bytes; returns the place to write them, or NULL
 * (and sets b->failed) when out of memory. */
static char *cli_buf_reserve(struct cli_buf *b, size_t n)
{
    size_t cap = b->cap ? b->cap : 1 << 12;
    char *p;

    if (b->failed)
        return NULL;
    while (cap < b->len + n)
        cap *= 2;
    if (cap != b->cap) {
        if ((p = realloc(b->data, cap)) == NULL) {
            b->failed = 1;
            return NULL;
        }
        b->data = p;
        b->cap = cap;
    }
    return b->data + b->len;
}

static void cli_buf_put(struct cli_buf *b, const char *s, size_t n)
{
    char *p = b->len + n <= b->cap ? b->data + b->len : cli_buf_reserve(b, n);

    if (p) {
        memcpy(p, s, n);
        b->len += n;
    }
}

static void cli_buf_vprintf(struct cli_buf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
static void cli_buf_printf(struct cli_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void cli_buf_vprintf(struct cli_buf *b, const char *fmt, va_list ap)
{
    va_list again;
    int n;
    char *p;

    va_copy(again, ap);
    n = vsnprintf(NULL, 0, fmt, ap);
    if (n >= 0 && (p = cli_buf_reserve(b, (size_t)n + 1)) != NULL) {
        vsnprintf(p, (size_t)n + 1, fmt, again);
        b->len += (size_t)n;
    }
    va_end(again);
}

static void cli_buf_printf(struct cli_buf *b, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    cli_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

/* "technique: explanation" for the simplest step, or a cell of the
 * solution when the engine is stuck. */
static void print_hint(const struct cli_options *opt,
                       const struct sudoku_grid *g,
                       const struct sudoku_grid *sol, struct cli_buf *out)
{
    struct logic_grid lg;
    struct logic_step s;
    struct logic_budget b = {
        opt->max_logic_ms ? clock_now_us() + opt->max_logic_ms * 1000 : 0, 0};
    char text[512];
    int n, cell;

    logic_init(&lg, g);
    switch (logic_step_budget(&lg, &b, &s)) {
    case LOGIC_OK:
        n = snprintf(text, sizeof(text),
                     "%s: ", logic_technique_name(s.technique));
        if (n > 0 && (size_t)n < sizeof(text))
            logic_explain(&s, text + n, sizeof(text) - (size_t)n);
        break;
    case LOGIC_SOLVED:
        snprintf(text, sizeof(text), "solved: no blank cell is left");
        break;
    default:
        logic_fallback_step(&lg, sol, &s); /* stuck: a blank is left */
        cell = s.placements[0].cell;
        snprintf(text, sizeof(text),
                 "from_solution: no step was found within the "
                 "time budget; in the solution, cell [%d,%d] is %d",
                 cell / 9, cell % 9, s.placements[0].digit);
    }
    cli_buf_printf(out, "%s\n", text);
}

/* A rating in tenths as "R.r", or "-" when not reached (0). */
static const char *tenths_text(int t, char buf[8])
{
    if (t <= 0)
        return "-";
    snprintf(buf, 8, "%d.%d", t / 10 % 100, t % 10);
    return buf;
}

/* The SE rater on g within the budget (thread CPU time), steps into
 * steps[0..max) when steps is not NULL. 0, or -1 out of memory. */
static int se_rate(const struct cli_options *opt, const struct sudoku_grid *g,
                   struct serate_step *steps, size_t max,
                   struct serate_result *res)
{
    struct serate_options so;

    serate_options_init(&so);
    so.max_ms = (long)opt->max_logic_ms;
    so.steps = steps;
    so.max_steps = max;
    return serate_rate(g->cell, &so, res) == SERATE_OK ? 0 : -1;
}

/* `sudoku grade`: the level of SE's ER, the logic engine's hardest
 * technique, steps and whether it finished, then SE's ER/EP/ED (and
 * "bound=lower" when the budget cut SE short): one budget, SE first, the
 * logic engine in what is left of it. */
static void print_grade(const struct cli_options *opt,
                        const struct sudoku_grid *g, struct cli_buf *out)
{
    uint64_t t0 = clock_now_us(), budget = opt->max_logic_ms * 1000, used;
    struct logic_limits lim = {0, 0, 0};
    struct logic_grade gr;
    struct serate_result se;
    char er[8], ep[8], ed[8];

    if (se_rate(opt, g, NULL, 0, &se) != 0) {
        out->failed = 1;
        return;
    }
    used = clock_now_us() - t0;
    lim.max_us = !budget ? 0 : used < budget ? budget - used : 1;
    logic_grade_budget(g, &lim, &gr, NULL);
    cli_buf_printf(
        out, "%s %s steps=%u guessing=%s rating=%s pearl=%s diamond=%s%s\n",
        logic_level_name(se.lower_bound ? LOGIC_EXTREME
                                        : logic_rating_level((unsigned)se.er)),
        gr.hardest < 0 ? "-"
                       : logic_technique_name((enum logic_technique)gr.hardest),
        gr.steps, gr.needs_guessing ? "yes" : "no",
        tenths_text(se.er > 10 ? se.er : 10, er), tenths_text(se.ep, ep),
        tenths_text(se.ed, ed), se.lower_bound ? " bound=lower" : "");
}

/* `sudoku explain --se`: SE's steps, "N. name (rating)" and the placement,
 * then "rating R pearl P diamond D steps N" (and " stopped: time budget"),
 * then an empty line. */
static void print_explain_se(const struct cli_options *opt,
                             const struct sudoku_grid *g, struct cli_buf *out)
{
    enum { MAX = SUDOKU_CELLS * SUDOKU_SIZE };
    struct serate_step *steps = malloc(MAX * sizeof(*steps));
    struct serate_result se;
    char er[8], ep[8], ed[8];

    if (steps == NULL || se_rate(opt, g, steps, MAX, &se) != 0) {
        free(steps);
        out->failed = 1;
        return;
    }
    for (size_t i = 0; i < se.nsteps && i < MAX; i++) {
        const struct serate_step *s = &steps[i];
        cli_buf_printf(out, "%zu. %s (%d.%d)", i + 1, s->name, s->rating / 10,
                       s->rating % 10);
        const char *sep = ": ";
        if (s->cell >= 0) {
            cli_buf_printf(out, ": [%d,%d] is %u", s->cell / 9, s->cell % 9,
                           s->digit);
            sep = "; ";
        }
        /* cells in order, those with the digits of the one before in
         * the same group: "removes 2 7 from [0,5], [1,5]; removes 6 ..." */
        for (int c = 0, last = 0; c < SUDOKU_CELLS; c++) {
            if (s->removed[c] == 0)
                continue;
            if (s->removed[c] != last) {
                cli_buf_printf(out, "%sremoves", sep);
                for (int d = 1; d <= SUDOKU_SIZE; d++)
                    if (s->removed[c] >> (d - 1) & 1)
                        cli_buf_printf(out, " %d", d);
                cli_buf_printf(out, " from");
                sep = "; ";
            } else {
                cli_buf_put(out, ",", 1);
            }
            cli_buf_printf(out, " [%d,%d]", c / 9, c % 9);
            last = s->removed[c];
        }
        cli_buf_put(out, "\n", 1);
    }
    cli_buf_printf(out, "rating %s pearl %s diamond %s steps %zu%s\n\n",
                   tenths_text(se.er > 10 ? se.er : 10, er),
                   tenths_text(se.ep, ep), tenths_text(se.ed, ed), se.nsteps,
                   se.lower_bound ? " stopped: time budget" : "");
    free(steps);
}

/* `sudoku explain`: the steps, one per line, then the summary line and an
 * empty line. */
static void print_explain(const struct cli_options *opt,
                          const struct sudoku_grid *g, struct cli_buf *out)
{
    struct logic_step *steps;
    struct logic_budget b = {
        opt->max_logic_ms ? clock_now_us() + opt->max_logic_ms * 1000 : 0, 0};
    struct logic_walk w;
    char line[2048];

    if (opt->se) {
        print_explain_se(opt, g, out);
        return;
    }
    if ((steps = malloc(LOGIC_WALK_MAX_STEPS * sizeof(*steps))) == NULL) {
        out->failed = 1;
        return;
    }
    logic_walk(g, &b, steps, LOGIC_WALK_MAX_STEPS, &w);
    for (size_t i = 0; i < w.nsteps; i++) {
        logic_explain(&steps[i], line, sizeof(line));
        cli_buf_printf(out, "%zu. %s (%.1f): %s\n", i + 1,
                       logic_technique_name(steps[i].technique),
                       steps[i].rating / 10.0, line);
    }
    cli_buf_printf(out, "level %s rating %.1f steps %zu%s\n\n",
                   logic_level_name(w.level), w.rating / 10.0, w.nsteps,
                   w.status == LOGIC_BUDGET ? " stopped: time budget" : "");
    free(steps);
}

static void print_validate(const struct sudoku_conflict *c, size_t nconflicts,
                           unsigned count, const struct sudoku_grid *g,
                           struct cli_buf *out)
{
    int complete = grid_blanks(g->cell) == 0;

    cli_buf_printf(
        out, "%s %u %s", nconflicts == 0 && count == 1 ? "valid" : "invalid",
        nconflicts ? 0 : count, complete ? "complete" : "incomplete");
    if (nconflicts)
        cli_buf_printf(out, " conflict: %u appears %u times in %s %u", c->digit,
                       c->ncells, grid_unit_name(c->unit), c->index + 1u);
    cli_buf_put(out, "\n", 1);
}

/* The answer of a puzzle that was searched to the end: count solutions,
 * the first of them in *sol. */
static void print_answer(const struct cli_options *opt,
                         const struct sudoku_grid *g, unsigned count,
                         const struct sudoku_grid *sol, struct cli_buf *out)
{
    char *p;

    switch (opt->mode) {
    case CLI_SOLVE:
        if ((p = cli_buf_reserve(out, SUDOKU_CELLS + 1)) != NULL) {
            sudoku_format(sol, p); /* and a NUL, replaced by the newline */
            p[SUDOKU_CELLS] = '\n';
            out->len += SUDOKU_CELLS + 1;
        }
        break;
    case CLI_COUNT:
        cli_buf_put(out,
                    count == 0   ? "0\n"
                    : count == 1 ? "1\n"
                                 : "2+\n",
                    count > 1 ? 3 : 2);
        break;
    case CLI_VALIDATE:
        print_validate(NULL, 0, count, g, out);
        break;
    case CLI_HINT:
        print_hint(opt, g, sol, out);
        break;
    case CLI_GRADE:
        print_grade(opt, g, out);
        break;
    case CLI_EXPLAIN:
        print_explain(opt, g, out);
        break;
    }
}

/* Appends "NAME:LINE: message\n" to err and returns 1 (reported). */
static int report(struct cli_buf *err, const char *name, unsigned lineno,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int report(struct cli_buf *err, const char *name, unsigned lineno,
                  const char *fmt, ...)
{
    va_list ap;

    cli_buf_printf(err, "%s:%u: ", name, lineno);
    va_start(ap, fmt);
    cli_buf_vprintf(err, fmt, ap);
    va_end(ap);
    cli_buf_put(err, "\n", 1);
    return 1;
}

/* A killer line: the board g, then '|' and the cages at text[82]. */
static int killer_line(const struct cli_options *opt, const char *name,
                       unsigned lineno, const char *text, size_t len,
                       const struct sudoku_grid *g, struct cli_buf *out,
                       struct cli_buf *err)
{
    struct killer_cages k;
    struct killer_error kerr;
    struct sudoku_conflict c;
    struct sudoku_grid sol;
    enum killer_status st;
    size_t bad = 0;
    unsigned count = 0;
    char msg[200 - sizeof("bad cages: ") + 1];

    if (opt->mode != CLI_SOLVE && opt->mode != CLI_COUNT)
        return report(err, name, lineno,
                      "killer puzzles (cages after '|') are read by solve "
                      "and count only");
    if (killer_parse(text + SUDOKU_CELLS + 1, len - SUDOKU_CELLS - 1, &k,
                     &bad) != KILLER_OK)
        return report(err, name, lineno,
                      "malformed cages at column %zu: want "
                      "SUM:RC,RC,...;SUM:RC,... (RC: row and column digits "
                      "1-9)",
                      SUDOKU_CELLS + 2 + bad);
    if (sudoku_conflicts(g, &c, 1) > 0) {
        if (opt->mode == CLI_SOLVE)
            return report(err, name, lineno,
                          "breaks the rules: %u appears %u times in %s %u",
                          c.digit, c.ncells, grid_unit_name(c.unit),
                          c.index + 1u);
        cli_buf_put(out, "0\n", 2);
        return 0;
    }
    if ((st = killer_check(g, &k, &kerr)) != KILLER_OK) {
        killer_describe(st, &kerr, 1, msg, sizeof(msg));
        return report(err, name, lineno, "bad cages: %s", msg);
    }
    if (killer_count(g, &k, 2, opt->max_nodes, &sol, &count, NULL) != KILLER_OK)
        return report(err, name, lineno, "gave up after %llu search nodes",
                      (unsigned long long)opt->max_nodes);
    if (opt->mode == CLI_SOLVE && count != 1)
        return report(err, name, lineno, "%s",
                      count ? "more than one solution" : "no solution");
    print_answer(opt, g, count, &sol, out);
    return 0;
}

int cli_line(const struct cli_options *opt, const char *name, unsigned lineno,
             const char *text, size_t len, struct cli_buf *out,
             struct cli_buf *err)
{
    struct sudoku_grid g, sol;
    struct sudoku_conflict c;
    enum sudoku_status st;
    unsigned count = 0;
    size_t bad = 0;
    int any = opt->mode == CLI_COUNT || opt->mode == CLI_VALIDATE;

    if (sudoku_parse(text, len < SUDOKU_CELLS ? len : SUDOKU_CELLS, &g, &bad) !=
        SUDOKU_OK) {
        if (len < SUDOKU_CELLS)
            return report(err, name, lineno,
                          "malformed: %zu characters, need 81", len);
        return report(err, name, lineno,
                      "malformed: bad character '%c' at column %zu", text[bad],
                      bad + 1);
    }
    if (len > SUDOKU_CELLS && text[SUDOKU_CELLS] == '|')
        return killer_line(opt, name, lineno, text, len, &g, out, err);
    /* count and validate print no solution: the search need not copy
     * one out (3% of a serg puzzle's instructions). */
    st = sudoku_count(&g, 2, opt->max_nodes, any ? NULL : &sol, &count, NULL);
    /* Only a board without a solution can break the rules. */
    if ((st != SUDOKU_OK || count == 0) && sudoku_conflicts(&g, &c, 1) > 0) {
        if (opt->mode == CLI_VALIDATE)
            print_validate(&c, 1, 0, &g, out);
        else if (opt->mode == CLI_COUNT)
            cli_buf_put(out, "0\n", 2);
        else
            return report(err, name, lineno,
                          "breaks the rules: %u appears %u times in %s %u",
                          c.digit, c.ncells, grid_unit_name(c.unit),
                          c.index + 1u);
        return 0;
    }
    if (st != SUDOKU_OK)
        return report(err, name, lineno, "gave up after %llu search nodes",
                      (unsigned long long)opt->max_nodes);
    if (count != 1 && !any)
        return report(err, name, lineno, "%s",
                      count ? "more than one solution" : "no solution");
    print_answer(opt, &g, count, &sol, out);
    return 0;
}
