/* textbook.c - the reference solver of the puzzle's write-up, in C: rows,
 * columns and boxes as digit bitmasks, recursion into the empty cell with the
 * fewest allowed digits (the first on a tie), no propagation at all. */
#include "bench.h"

struct textbook {
    uint8_t grid[81];
    uint16_t rows[9], cols[9], boxes[9]; /* bit d set: digit d used */
    uint64_t nodes;
    uint64_t deadline_ns;
    int timed_out;
};

static int textbook_backtrack(struct textbook *t)
{
    int best = -1;
    unsigned best_count = 10;
    uint16_t best_allowed = 0;

    for (int i = 0; i < 81; i++) {
        if (t->grid[i])
            continue;
        int r = i / 9, c = i % 9, b = r / 3 * 3 + c / 3;
        uint16_t allowed =
            (uint16_t)(~(t->rows[r] | t->cols[c] | t->boxes[b]) & 0x3FE);
        unsigned count = (unsigned)__builtin_popcount(allowed);
        if (count < best_count) {
            best = i, best_count = count, best_allowed = allowed;
            if (count == 0)
                break;
        }
    }
    if (best < 0)
        return 1;
    /* Reading the CPU clock costs a system call: look every 64k nodes. */
    if ((++t->nodes & 0xFFFF) == 0 && bench_cpu_ns() > t->deadline_ns) {
        t->timed_out = 1;
        return 0;
    }
    int r = best / 9, c = best % 9, b = r / 3 * 3 + c / 3;
    for (unsigned d = 1; d <= 9; d++) {
        uint16_t bit = (uint16_t)(1u << d);
        if (!(best_allowed & bit))
            continue;
        t->grid[best] = (uint8_t)d;
        t->rows[r] |= bit;
        t->cols[c] |= bit;
        t->boxes[b] |= bit;
        if (textbook_backtrack(t))
            return 1;
        t->rows[r] ^= bit;
        t->cols[c] ^= bit;
        t->boxes[b] ^= bit;
        if (t->timed_out)
            break;
    }
    t->grid[best] = 0;
    return 0;
}

int textbook_solve(const struct sudoku_grid *puzzle,
                   struct sudoku_grid *solution, uint64_t deadline_ns,
                   uint64_t *nodes)
{
    struct textbook t = {.deadline_ns = deadline_ns};
    int ok = 1;

    for (int i = 0; i < 81; i++) {
        unsigned d = puzzle->cell[i];
        t.grid[i] = (uint8_t)d;
        if (!d)
            continue;
        int r = i / 9, c = i % 9, b = r / 3 * 3 + c / 3;
        uint16_t bit = (uint16_t)(1u << d);
        if ((t.rows[r] | t.cols[c] | t.boxes[b]) & bit)
            ok = 0; /* a broken rule: no solution */
        t.rows[r] |= bit;
        t.cols[c] |= bit;
        t.boxes[b] |= bit;
    }
    int solved = ok && textbook_backtrack(&t);
    *nodes = t.nodes;
    if (t.timed_out)
        return -1;
    if (solved)
        for (int i = 0; i < 81; i++)
            solution->cell[i] = t.grid[i];
    return solved;
}
