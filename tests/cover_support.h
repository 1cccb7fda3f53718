/* cover_support.h - what the generic engine's test files share: the
 * independent rule verifier and the data sets' rules (cover_support.c,
 * also linked into tests/tools/cover_gen.c and the bench), the test's own
 * uniqueness proof and helpers (cover_check.c). */
#ifndef COVER_SUPPORT_H
#define COVER_SUPPORT_H

#include "cover.h"

/* 1 when grid is complete and obeys every rule of r, checked with loops of
 * the test's own (never cover_conflicts); the boxes come from box_rows and
 * box_cols, not from r->region. */
int tc_verify(const struct cover_rules *r, const struct cover_grid *grid);

/* 1 when filling the last blank of a unit, over and over, completes the
 * puzzle: then it has exactly one solution. */
int tc_peel(const struct cover_rules *r, const struct cover_grid *puzzle);

/* A puzzle from a solution, blanked as far as tc_peel allows. */
void tc_blank(const struct cover_rules *r, const struct cover_grid *solution,
              struct cover_grid *puzzle);

/* The puzzle tc_blank makes from `solution` has exactly that solution by
 * cover_count; r is checked first. */
void tc_expect_unique(struct cover_rules *r, const struct cover_grid *solution);

/* The region (box or jigsaw region) of cell c, from the box shape when r
 * has no region map. */
unsigned tc_region_of(const struct cover_rules *r, unsigned c);

struct cover_grid tc_grid(unsigned n, const char *text);
void tc_check_rules(struct cover_rules *r);

/* The fixed 9x9 jigsaw map of the tests and the data set, and the four
 * windoku groups (rows and columns 2-4 and 6-8). */
void tc_jigsaw_map(struct cover_rules *r);
void tc_hyper_groups(struct cover_rules *r);

/* The data sets of tests/data/cover/ (tests/cover_support.c): the name
 * of set i (NULL past the last), and the checked rules of a set by name
 * (0 for a name that is none). */
const char *tc_set_name(unsigned i);
int tc_set_rules(const char *name, struct cover_rules *r);

/* The tests of tests/test_cover_data.c, run in the "cover" suite. */
void tc_cover_and_sudoku_count_agree_on_shared_samples(void **state);
void tc_generated_puzzles_are_unique_and_replay_their_seed(void **state);
void tc_symmetric_puzzle_blanks_mirror_cells(void **state);
void tc_impossible_rules_generate_no_solution(void **state);
void tc_impossible_16x16_rules_give_up_on_budget(void **state);
void tc_every_data_set_puzzle_is_unique_and_verified(void **state);
void tc_two_threads_count_as_one_does(void **state);

/* tests/test_cover_count.c: counts against a brute force. */
void tc_counts_match_a_brute_force(void **state);

#endif
