/* killer_gen.c - builds tests/data/killer_puzzles (`make killer-puzzles`):
 * killer puzzles with exactly one solution, made from the solved grids of a
 * puzzle file. Deterministic for a given seed, so the set is reproducible.
 *
 * Method: each puzzle takes a solved grid (in turn, digits relabelled by
 * the random generator), then cuts it into cages by seeded random walks: a
 * cage starts at the first cell not yet in a cage, picks a target size
 * (mostly 2-4, sometimes 1 or 5-6) and grows to a random free neighbour of
 * any of its cells whose digit it does not hold yet, until the size is
 * reached or no neighbour fits. Every third puzzle also keeps a few givens.
 * A partition is kept only when killer_count (count to 2) finds exactly one
 * solution, equal to the grid; otherwise the next random draw is tried.
 * Output lines: board|cages|solution (the sudoku CLI's killer format). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "killer.h"
#include "sudoku.h"

#define MAX_GRIDS 4096

/* splitmix64: small, fast, and the same on every platform. */
static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned below(uint64_t *s, unsigned n)
{
    return (unsigned)(next_random(s) % n);
}

static unsigned target_size(uint64_t *rng)
{
    static const unsigned sizes[20] = {1, 2, 2, 2, 2, 2, 3, 3, 3, 3,
                                       3, 3, 4, 4, 4, 4, 5, 5, 6, 4};
    return sizes[below(rng, 20)];
}

/* Cuts grid g into cages by random walks. */
static void make_cages(const struct sudoku_grid *g, uint64_t *rng,
                       struct killer_cages *k)
{
    int owner[SUDOKU_CELLS];

    killer_init(k);
    for (int x = 0; x < SUDOKU_CELLS; x++)
        owner[x] = -1;
    for (int start = 0; start < SUDOKU_CELLS; start++) {
        int cells[9], n = 1, sum = g->cell[start];
        unsigned used = 1u << g->cell[start], want = target_size(rng);
        if (owner[start] >= 0)
            continue;
        cells[0] = start;
        owner[start] = (int)k->ncages;
        while ((unsigned)n < want) {
            int options[36], nopt = 0;
            for (int i = 0; i < n; i++) {
                int x = cells[i], r = x / 9, c = x % 9;
                int nb[4] = {r > 0 ? x - 9 : -1, r < 8 ? x + 9 : -1,
                             c > 0 ? x - 1 : -1, c < 8 ? x + 1 : -1};
                for (int j = 0; j < 4; j++)
                    if (nb[j] >= 0 && owner[nb[j]] < 0 &&
                        !(used & (1u << g->cell[nb[j]])))
                        options[nopt++] = nb[j];
            }
            if (nopt == 0)
                break;
            int y = options[below(rng, (unsigned)nopt)];
            cells[n++] = y;
            owner[y] = (int)k->ncages;
            used |= 1u << g->cell[y];
            sum += g->cell[y];
        }
        killer_add_cage(k, sum);
        for (int i = 0; i < n; i++)
            killer_add_cell(k, cells[i] / 9, cells[i] % 9);
    }
}

static int load_grids(const char *path, struct sudoku_grid *grids)
{
    char line[1024];
    int n = 0;
    FILE *f = fopen(path, "r");

    if (!f)
        return -1;
    while (n < MAX_GRIDS && fgets(line, sizeof(line), f)) {
        char *sol = strrchr(line, ':');
        if (line[0] == '#' || !sol || strspn(sol + 1, "123456789") != 81)
            continue;
        if (sudoku_parse(sol + 1, SUDOKU_CELLS, &grids[n], NULL) == SUDOKU_OK)
            n++;
    }
    fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    static struct sudoku_grid grids[MAX_GRIDS];
    uint64_t rng;
    int ngrids, count;

    if (argc != 4) {
        fprintf(stderr,
                "usage: killer_gen PUZZLES_WITH_SOLUTIONS COUNT SEED\n");
        return 2;
    }
    count = atoi(argv[2]);
    rng = strtoull(argv[3], NULL, 10);
    if ((ngrids = load_grids(argv[1], grids)) <= 0) {
        fprintf(stderr, "killer_gen: no solved grids in %s\n", argv[1]);
        return 2;
    }
    printf("# killer puzzles: board|cages|solution; made by tests/tools/"
           "killer_gen.c\n# from %s, seed %s (make killer-puzzles)\n",
           argv[1], argv[3]);
    unsigned long attempts = 0;
    for (int i = 0; i < count; i++) {
        for (;;) {
            struct sudoku_grid g, puzzle, sol;
            attempts++;
            struct killer_cages k;
            uint8_t relabel[10] = {0};
            unsigned found = 0;
            char board[SUDOKU_CELLS + 1], solution[SUDOKU_CELLS + 1];
            char cages[1024];

            /* A random relabelling of the digits 1-9. */
            for (int d = 1; d <= 9; d++) {
                int j = 1 + (int)below(&rng, (unsigned)d);
                relabel[d] = relabel[j];
                relabel[j] = (uint8_t)d;
            }
            for (int x = 0; x < SUDOKU_CELLS; x++)
                g.cell[x] = relabel[grids[i % ngrids].cell[x]];
            make_cages(&g, &rng, &k);
            memset(&puzzle, 0, sizeof(puzzle));
            if (i % 3 == 2)
                for (int n = 0; n < 4; n++) {
                    int x = (int)below(&rng, SUDOKU_CELLS);
                    puzzle.cell[x] = g.cell[x];
                }
            if (killer_count(&puzzle, &k, 2, 2000000, &sol, &found, NULL) !=
                    KILLER_OK ||
                found != 1 || memcmp(&sol, &g, sizeof(g)) != 0)
                continue;
            sudoku_format(&puzzle, board);
            sudoku_format(&g, solution);
            killer_format(&k, cages, sizeof(cages));
            printf("%s|%s|%s\n", board, cages, solution);
            break;
        }
    }
    fprintf(stderr, "killer_gen: %d puzzles, %lu partitions tried\n", count,
            attempts);
    return 0;
}
