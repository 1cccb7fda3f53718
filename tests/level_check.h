/* level_check.h - the tests' own logic solver for every size and rule,
 * which confirms the level of a generated puzzle: singles, locked
 * candidates, naked and hidden subsets and row/column fish over units and
 * peers built here from the rules' values (struct cover_rules read as
 * data) and from the killer cages. It shares nothing with
 * src/engine/teach (nor with tests/logic_check.c's 9x9 grid), so it can
 * judge that engine's grades. */
#ifndef LEVEL_CHECK_H
#define LEVEL_CHECK_H

#include <stdint.h>

#include "cover.h"
#include "killer.h"

/* The techniques a level allows (docs/logic.md's ladder): easy, singles
 * (and, for killer, a cage's sum against its cells' candidates); medium,
 * also locked candidates, naked and hidden pairs and X-wings (killer: and
 * the 45 rule, innies and outies of up to 4 cells over the regions the
 * engine's `innies` look at, and a digit every completion of a cage holds,
 * locked); hard, also triples, swordfish and XY-wings. */
enum lc_set { LC_EASY = 0, LC_MEDIUM, LC_HARD };

struct lc_puzzle; /* units, peers and cages; on the heap */

/* The rules r (checked) or a 9x9 killer k as the solver's units and
 * peers; aborts when out of memory (tests and benchmarks only). */
struct lc_puzzle *lc_from_rules(const struct cover_rules *r);
struct lc_puzzle *lc_from_killer(const struct killer_cages *k);
void lc_free(struct lc_puzzle *p);

/* 1 when the techniques of `set`, applied until none applies, fill every
 * cell of givens (n * n values, 0 blank) and the grid they fill equals
 * `solution` (may be NULL: not compared), else 0. */
int lc_solves(const struct lc_puzzle *p, const uint8_t *givens,
              const uint8_t *solution, enum lc_set set);

#endif
