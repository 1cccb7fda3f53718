/* cover_gen.c - writes a data set of tests/data/cover/ (`make cover-data`):
 * cover_gen SET COUNT SEED prints COUNT puzzles of set SET (the names of
 * tests/cover_support.c), from cover_generate with seeds SEED, SEED+1,
 * ..., one per line, each checked first: exactly one solution by counting
 * to 2, and that solution accepted by the tests' independent verifier. */
#include <stdio.h>
#include <stdlib.h>

#include "cover.h"
#include "cover_support.h"

int main(int argc, char **argv)
{
    struct cover_rules r;
    unsigned long count, seed;
    char out[COVER_MAX_CELLS + 1];

    if (argc != 4 || !tc_set_rules(argv[1], &r)) {
        fprintf(stderr, "usage: cover_gen SET COUNT SEED; the sets:");
        for (unsigned i = 0; tc_set_name(i); i++)
            fprintf(stderr, " %s", tc_set_name(i));
        fputc('\n', stderr);
        return 2;
    }
    count = strtoul(argv[2], NULL, 10);
    seed = strtoul(argv[3], NULL, 10);
    for (unsigned long i = 0; i < count; i++) {
        struct cover_grid p, s, found;
        unsigned n = 0;
        if (cover_generate(&r, seed + i, 0, &p, &s) != COVER_OK ||
            cover_count(&r, &p, 2, 0, &found, &n, NULL) != COVER_OK || n != 1 ||
            !tc_verify(&r, &found)) {
            fprintf(stderr, "cover_gen: %s seed %lu failed\n", argv[1],
                    seed + i);
            return 1;
        }
        cover_format(&p, out);
        puts(out);
        fflush(stdout);
    }
    return 0;
}
