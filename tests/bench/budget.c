/* budget.c - calibrates the node budget: counts the solutions of boards
 * built to make the search run long (few givens, so millions of solutions)
 * under a fixed budget, and reports the CPU time per node. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define BUDGET_PROBE 1000000u /* nodes per probe */

/* Boards with the last `drop` givens blanked: many solutions, so the count
 * runs into the budget. */
static const struct {
    const char *what;
    const char *board;
    unsigned drop;
} boards[] = {
    {"empty board", "", 0},
    {"a full first row",
     "123456789................................................................"
     "........",
     0},
    {"17-clue minus 2 givens",
     "...........................1..2.3.......4.5.....1.6..........2.......8..."
     ".4.1....",
     2},
    {"17-clue minus 4 givens",
     "...........................1..2.3.......4.5.....1.6..........2.......8..."
     ".4.1....",
     4},
    {"forum-hardest minus 4 givens",
     "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8.."
     ".52....6",
     4},
    {"forum-hardest minus 8 givens",
     "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8.."
     ".52....6",
     8},
    {"forum-hardest minus 12 givens",
     "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8.."
     ".52....6",
     12},
};

void bench_budget(uint64_t max_seen, double real_rate)
{
    double worst_rate = real_rate;

    printf("node budget: real puzzles (slowest set) run at %.2f M nodes/s\n",
           real_rate / 1e6);
    printf("node budget: counting solutions (no limit) of adversarial boards "
           "with a budget of %u nodes\n",
           BUDGET_PROBE);
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        struct sudoku_grid g;
        struct sudoku_stats st;
        unsigned count = 0;
        memset(&g, 0, sizeof g);
        if (boards[i].board[0] &&
            sudoku_parse(boards[i].board, SUDOKU_CELLS, &g, NULL) != SUDOKU_OK)
            continue;
        for (unsigned c = SUDOKU_CELLS, left = boards[i].drop; c-- > 0 && left;)
            if (g.cell[c]) {
                g.cell[c] = 0;
                left--;
            }
        uint64_t c0 = bench_cpu_ns();
        enum sudoku_status rc =
            sudoku_count(&g, UINT_MAX, BUDGET_PROBE, NULL, &count, &st);
        double s = (double)(bench_cpu_ns() - c0) / 1e9;
        double rate = (double)st.nodes / s;
        printf("  %-30s %s after %8llu nodes, %7.1f ms CPU, %u solutions: "
               "%5.2f M nodes/s (%.3f us/node)\n",
               boards[i].what, rc == SUDOKU_BUDGET ? "budget hit" : "finished",
               (unsigned long long)st.nodes, s * 1e3, count, rate / 1e6,
               1e6 / rate);
        /* A board that finishes early says little about the rate. */
        if (rc == SUDOKU_BUDGET && rate < worst_rate)
            worst_rate = rate;
    }
    /* Round 100 ms worth of the slowest rate down to 1, 2 or 5 times a
     * power of ten. */
    double want = worst_rate * 0.1, step = 1;
    while (step * 10 <= want)
        step *= 10;
    double budget = want >= 5 * step   ? 5 * step
                    : want >= 2 * step ? 2 * step
                                       : step;
    printf("  slowest: %.2f M nodes/s -> 100 ms is %.0f nodes; recommended "
           "budget %.0f nodes (%.0fx the largest real need, %llu)\n",
           worst_rate / 1e6, want, budget, budget / (double)max_seen,
           (unsigned long long)max_seen);
}
