/* bench.h - what the benchmark's files share (tests/bench/).
 * textbook.c holds the reference search the speed-ups are measured against. */
#ifndef BENCH_H
#define BENCH_H

#include <stdint.h>

#include "sudoku.h"

/* The write-up's fewest-candidates bitmask search, no propagation: finds the
 * first solution of `puzzle` into *solution. Returns 1 when solved, 0 when
 * there is none, -1 when the CLOCK_THREAD_CPUTIME_ID time `deadline_ns`
 * passed first. *nodes receives the placements tried. */
int textbook_solve(const struct sudoku_grid *puzzle,
                   struct sudoku_grid *solution, uint64_t deadline_ns,
                   uint64_t *nodes);

/* This thread's CPU time and the monotonic clock, in nanoseconds. */
uint64_t bench_cpu_ns(void);
uint64_t bench_wall_ns(void);

/* Times the solver on adversarial boards that run into a node budget,
 * prints nodes per second and recommends a budget that costs at most 100 ms
 * at the slowest rate seen, `real_rate` (nodes per second of the slowest
 * data set) included; `max_seen` is the most nodes a real puzzle needed. */
void bench_budget(uint64_t max_seen, double real_rate);

/* tests/bench/logic.c: grade calibration of the data sets in `dir` and
 * generation times per level. Returns 1 when a forum-hardest puzzle grades
 * below expert or a level was missed, else 0. */
int bench_logic(const char *dir);

/* tests/bench/killer.c: killer sudoku solve and check times over the set at
 * `path` (board|cages|solution lines), every answer verified. Returns 1
 * when an answer is wrong or the set cannot be read, else 0. */
int bench_killer(const char *path);

#endif
