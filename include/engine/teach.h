/* teach.h - the logic engine of the general puzzle: every size from 4x4 to
 * 25x25, jigsaw regions, diagonals, extra regions, anti-knight, anti-king,
 * and killer cages, solved one named step at a time. Techniques are stated
 * over units (sets of cells whose digits differ) and a peer relation (two
 * cells that may not hold the same digit), so one routine serves every rule.
 * The classic 9x9 engine (logic.h) stays as it is; this one is for the rest.
 * No HTTP, no JSON, no heap; reentrant. docs/logic.md, "Variants and
 * killer", lists the techniques, their ratings and what is left out. */
#ifndef TEACH_H
#define TEACH_H

#include <stddef.h>
#include <stdint.h>

#include "cover.h"
#include "killer.h"

#define TEACH_MAX_N 25
#define TEACH_MAX_CELLS (TEACH_MAX_N * TEACH_MAX_N)
/* rows, columns, boxes, two diagonals, extra groups, cages */
#define TEACH_MAX_UNITS                                                        \
    (3 * TEACH_MAX_N + 2 + COVER_MAX_EXTRA + SUDOKU_CELLS + 1)
#define TEACH_WORDS ((TEACH_MAX_CELLS + 63) / 64)
#define TEACH_MAX_UNITS_OF 48 /* units one cell belongs to, at most */

enum teach_unit_kind {
    TEACH_ROW = 0,
    TEACH_COLUMN,
    TEACH_BOX,
    TEACH_REGION, /* a jigsaw region (in place of the boxes) */
    TEACH_DIAGONAL,
    TEACH_EXTRA,
    TEACH_CAGE, /* killer: distinct digits adding up to `sum` */
};

/* A set of cells whose digits differ. `full` when it has n cells and so
 * holds every digit once (the hidden techniques need that); a cage or an
 * extra region of fewer cells only forbids repeats. `index` numbers it
 * within its kind as the API does (row 0.., cage in the request's order). */
struct teach_unit {
    uint8_t kind, index, ncells, full;
    uint16_t sum; /* TEACH_CAGE: its sum */
    uint16_t cell[TEACH_MAX_N];
};

/* The rules as units and peers. Big (about 90 KB): one per request, built
 * by teach_from_cover or teach_from_killer. peer[c] is a bit set over the
 * cells: c's peers by every unit and by the knight's and king's moves. */
struct teach_puzzle {
    uint8_t n, box_rows, box_cols, has_regions;
    uint8_t anti_knight, anti_king, killer;
    uint8_t nwords; /* words of a peer set in use: (ncells + 63) / 64 */
    uint16_t ncells;
    unsigned nunits;
    struct teach_unit unit[TEACH_MAX_UNITS];
    uint8_t nunits_of[TEACH_MAX_CELLS];
    uint8_t units_of[TEACH_MAX_CELLS][TEACH_MAX_UNITS_OF];
    uint64_t peer[TEACH_MAX_CELLS][TEACH_WORDS];
};

/* The puzzle of checked rules r (cover_rules_check passed). */
void teach_from_cover(struct teach_puzzle *p, const struct cover_rules *r);

/* A classic 9x9 killer: rows, columns, boxes and the cages of k (checked
 * with killer_check). */
void teach_from_killer(struct teach_puzzle *p, const struct killer_cages *k);

/* Pencil marks: value[c] 0 or the digit 1..n; for a blank, bit d-1 of
 * cand[c] while d is still possible there. */
struct teach_grid {
    uint8_t value[TEACH_MAX_CELLS];
    uint32_t cand[TEACH_MAX_CELLS];
};

enum teach_status {
    TEACH_OK = 0,
    TEACH_SOLVED,
    TEACH_STUCK,
    TEACH_CONTRADICTION,
    TEACH_BUDGET,
};

/* Fills *g from `givens` (p->ncells values, 0 blank): the blanks' candidates
 * are the digits none of their peers holds, narrowed by nothing else (the
 * cage sums are a technique). TEACH_CONTRADICTION when two peers hold the
 * same digit or a blank has no candidate. */
enum teach_status teach_init(const struct teach_puzzle *p, struct teach_grid *g,
                             const uint8_t *givens);

/* The techniques, in the order they are tried (their base ratings). */
enum teach_technique {
    TEACH_HIDDEN_SINGLE = 0,
    TEACH_CAGE_COMBINATION, /* a cage's sum and size, its cells' marks */
    TEACH_NAKED_SINGLE,
    TEACH_INNIES, /* the 45 rule: cells of whole units outside the cages
                     inside them */
    TEACH_OUTIES, /* the 45 rule: cells of the cages that stick out */
    TEACH_LOCKED_CANDIDATES, /* a unit's digit confined to cells that all
                                see the same others */
    TEACH_CAGE_LOCKED,       /* a digit every fitting combination of a cage
                                holds, confined likewise */
    TEACH_NAKED_PAIR,
    TEACH_X_WING,
    TEACH_HIDDEN_PAIR,
    TEACH_NAKED_TRIPLE,
    TEACH_SWORDFISH,
    TEACH_HIDDEN_TRIPLE,
    /* A two-candidate pivot {x,y} and two two-candidate peers of it, {x,z}
     * and {y,z}: one of them is z (cells[]: pincer, pivot, pincer, with
     * chain_digits as an XY-chain's). */
    TEACH_XY_WING,
    TEACH_NAKED_QUAD,
    TEACH_JELLYFISH,
    TEACH_HIDDEN_QUAD,
    /* The 45 rule over any one or two rows, columns or boxes, each cage
     * sticking out counted by its cells inside (innies) or outside
     * (outies): innies - outies is a constant (cells[]: the ninnies innies,
     * then the outies; units[]: the region's, then the cages counted by their
     * outies; `known`: the cages inside; `net`: what the blank innies
     * less the blank outies make, `net_placed` the placed ones). */
    TEACH_INNIES_OUTIES,
    /* Chains over the peer graph (the chain in cells[] and chain_digits[],
     * in order): X-chains of one digit (strong links: a full unit's only
     * two places for it; weak links: peers), and XY-chains of
     * two-candidate cells. */
    TEACH_X_CHAIN,
    TEACH_XY_CHAIN,
    /* An alternating inference chain (sizes up to 12x12): candidates
     * linked strongly (a cell's only two candidates, a unit's only two
     * places for a digit it surely holds, a cage's included) and weakly
     * (one cell, or peers with one digit), alternating; one of its two
     * ends is true (cells[] and chain_digits[] in order, starting with a
     * strong link; a node may be a group of cells, see chain_node). */
    TEACH_AIC,
    /* The last resort: one candidate assumed, singles, locked candidates
     * (and cage sums) followed from it to a contradiction, so the
     * candidate is false; the net also drops, on the way, each candidate
     * of a two-candidate cell that breaks the same way on its own. */
    TEACH_FORCING_CHAIN,
    TEACH_FORCING_NET,
    TEACH_NTECHNIQUES
};

#define TEACH_MAX_ELIMINATIONS 64
#define TEACH_MAX_STEP_CELLS 40
#define TEACH_MAX_STEP_UNITS 8
#define TEACH_MAX_COMBOS 16

struct teach_move {
    uint16_t cell;
    uint8_t digit;
};

/* One step. cells: the pattern (the single, the subset, the fish's cells,
 * the cage, the innies); units: indexes into p->unit (base units, then
 * cover units); digits: the pattern's digits as a mask. Every elimination
 * removes a candidate, so applying a step always changes the grid; a
 * technique finding more than TEACH_MAX_ELIMINATIONS records (and so
 * applies) the first ones only. For the 45 rule: `total` is what the units
 * hold (45 per unit at 9x9), `known` what the cages counted add up to
 * (inside cages for innies, those inside or sticking out for outies),
 * `placed` the placed digits among the innies or outies, `sum` what their
 * blank cells (cells[]) make. */
struct teach_step {
    enum teach_technique technique;
    uint32_t digits;
    uint8_t nplacements, neliminations, ncells, nunits, ncombos;
    uint8_t rating; /* tenths */
    uint16_t sum, total, known, placed;
    uint16_t chain_length;      /* forcing chain: placements followed */
    uint16_t contradiction;     /* forcing chain: the cell or unit that broke */
    uint8_t contradiction_unit; /* 1: `contradiction` is a unit index */
    uint8_t ninnies;            /* innies_outies: cells[] that are innies */
    int16_t net, net_placed;    /* innies_outies: see the technique */
    uint16_t combos[TEACH_MAX_COMBOS]; /* cage combination: digit sets */
    uint8_t chain_digits[TEACH_MAX_STEP_CELLS]; /* chains: each node's */
    /* AIC: the node each of cells[] belongs to (a grouped node, one digit's
     * places where two units overlap, has several cells) */
    uint8_t chain_node[TEACH_MAX_STEP_CELLS];
    struct teach_move placements[1];
    struct teach_move eliminations[TEACH_MAX_ELIMINATIONS];
    uint8_t units[TEACH_MAX_STEP_UNITS];
    uint16_t cells[TEACH_MAX_STEP_CELLS];
};

/* A deadline on the engine's clock in microseconds (0: none). */
struct teach_budget {
    uint64_t deadline_us;
    unsigned max_rating; /* tenths, 0: none; harder techniques not tried */
};

/* The simplest step that applies (the first technique in the enum's order
 * that changes something). TEACH_OK with *out, or TEACH_SOLVED, TEACH_STUCK,
 * TEACH_CONTRADICTION, TEACH_BUDGET (b may be NULL). */
enum teach_status teach_step(const struct teach_puzzle *p,
                             const struct teach_grid *g,
                             const struct teach_budget *b,
                             struct teach_step *out);

/* Applies a step: its placements (removing the digit from the peers) and
 * eliminations. */
void teach_apply(const struct teach_puzzle *p, struct teach_grid *g,
                 const struct teach_step *s);

/* What a walk did (as struct logic_walk, plus the counts of a grade). */
struct teach_walk {
    size_t nsteps; /* taken; steps[] holds the first max_steps of them */
    enum teach_status status; /* TEACH_SOLVED, _STUCK, _BUDGET,
                                 _CONTRADICTION, or TEACH_OK when max_steps
                                 came first */
    unsigned rating;          /* tenths: the hardest step's, 10 without steps */
    int hardest;              /* enum teach_technique, -1 without steps */
    unsigned level;           /* enum logic_level of the rating when solved,
                                 LOGIC_EXTREME otherwise */
    unsigned blanks_left;
    unsigned counts[TEACH_NTECHNIQUES];
};

/* From g, takes teach_step's step and applies it until solved or stopped,
 * writing steps to steps[] (may be NULL with max_steps 0: a grade only
 * counts; then it runs to the end). b is the whole walk's budget. When
 * steps != NULL, the walk stops after max_steps (status TEACH_OK). */
enum teach_status teach_walk(const struct teach_puzzle *p, struct teach_grid *g,
                             const struct teach_budget *b,
                             struct teach_step *steps, size_t max_steps,
                             struct teach_walk *out);

/* The base rating of a technique in tenths, and its snake_case name
 * ("hidden_single", "cage_combination", "innies", ...); NULL past the end. */
unsigned teach_technique_rating(enum teach_technique t);
const char *teach_technique_name(enum teach_technique t);

/* The unit's kind as the API names it: "row", "column", "box", "region",
 * "diagonal", "extra_region", "cage". */
const char *teach_unit_kind_name(unsigned kind);

/* One or two sentences about the step for a player (cells as [row,column],
 * 0-based like the API; units by kind and index). Returns the length the
 * full text has (like snprintf); buf is always NUL-terminated. */
size_t teach_explain(const struct teach_puzzle *p, const struct teach_step *s,
                     char *buf, size_t size);

/* A generated killer puzzle (teach_generate_killer). */
struct teach_killer {
    struct sudoku_grid puzzle, solution;
    struct killer_cages cages;
    struct teach_walk grade; /* of puzzle, by teach_walk */
    unsigned attempts;       /* cage layouts tried */
    unsigned givens;
    uint64_t took_us;
};

/* A killer puzzle with exactly one solution (killer_count to 2) whose grade
 * is `level` (enum logic_level): a random full grid drawn from `seed`,
 * carved into random connected cages of distinct digits (larger for the
 * harder levels), then givens from the solution added at random until the
 * cages and givens have one solution (hard and expert: the solution's givens
 * taken out while the walk bounded at the level solves the puzzle).
 * Layouts are tried until one grades at the level or max_us (wall clock, 0:
 * none) runs out; *out then holds the closest one found. `scratch` is the
 * caller's (it is big). Returns TEACH_OK when the level was met, TEACH_BUDGET
 * with the closest puzzle, TEACH_STUCK when no unique puzzle was made in time
 * (*out unusable). Deterministic for a seed unless max_us cuts in. */
enum teach_status teach_generate_killer(uint64_t seed, unsigned level,
                                        uint64_t max_us,
                                        struct teach_puzzle *scratch,
                                        struct teach_killer *out);

/* A generated puzzle of some size and rules (teach_generate_variant). */
struct teach_variant {
    struct cover_grid puzzle, solution;
    struct teach_walk grade; /* of puzzle, by teach_walk in full */
    unsigned attempts;       /* full grids dug */
    unsigned givens;
    uint64_t took_us;
};

/* The levels (bit l for enum logic_level l) teach_generate_variant offers
 * for side n; 0 for a side the service does not take. */
unsigned teach_variant_levels(unsigned n);

/* A puzzle of checked rules r with exactly one solution (cover_count to 2)
 * whose grade by teach_walk is `level` (enum logic_level) and solved: a
 * random full grid drawn from `seed`, dug while unique and, below
 * extreme, while the walk with no technique above the level solves it;
 * `rotational` blanks cells in half-turn pairs. Grids are dug until one
 * grades at the level or max_us (wall clock, 0: none) runs out; *out then
 * holds the closest. `scratch` is the caller's (it is big). TEACH_OK when
 * the level was met, TEACH_BUDGET with the closest puzzle (still unique),
 * TEACH_STUCK when no grid was filled in time, TEACH_CONTRADICTION when
 * no grid obeys the rules (a fill ran to its end; *out unusable for both).
 * Deterministic for a seed unless max_us cuts in. */
enum teach_status teach_generate_variant(const struct cover_rules *r,
                                         uint64_t seed, unsigned level,
                                         int rotational, uint64_t max_us,
                                         struct teach_puzzle *scratch,
                                         struct teach_variant *out);

#endif
