/* se_support.h - tests/data/se/ for the suites held to Sudoku Explainer
 * 1.2.1.3's own output: each line a puzzle and SE's "ER/EP/ED" (the file's
 * numbers are SE's, never ours; tests/data/se/README.md). */
#ifndef SE_SUPPORT_H
#define SE_SUPPORT_H

#include <stddef.h>

/* One SE-rated puzzle: 81 characters ('.' blank) and SE's numbers in
 * tenths. */
struct se_rated {
    char puzzle[82];
    int er, ep, ed;
};

/* Reads the rated lines of `path` (run from the repository root) into
 * out[0..max) and returns how many; fails the test if it cannot be read. */
size_t se_read_file(const char *path, struct se_rated *out, size_t max);

/* The level of an ER in tenths under /grade's bands (docs/rating.md),
 * written here from the bands, not taken from the engine. */
const char *se_level_of(int er);

#endif
