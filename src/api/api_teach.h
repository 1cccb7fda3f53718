/* api_teach.h - /hint, /grade and /explain for killer and variant puzzles
 * (api_teach.c), called by the handlers of api_hint.c once the puzzle is
 * read and judged to have exactly one solution. Not a contract for other
 * modules. */
#ifndef API_TEACH_H
#define API_TEACH_H

#include "api_internal.h"

/* What the three need: the puzzle as read (kind KILLER or VARIANT), its one
 * solution (sol for a killer, csol for a variant) and the time budget
 * (--max-logic-ms). Each fills resp. */
struct api_teach_input {
    const struct api_puzzle *pz;
    const struct sudoku_grid *sol;
    const struct cover_grid *csol;
    unsigned max_ms;
};

void api_teach_hint(const struct api_teach_input *in,
                    struct api_response *resp);
void api_teach_grade(const struct api_teach_input *in,
                     struct api_response *resp);
void api_teach_explain(const struct api_teach_input *in,
                       struct api_response *resp);

/* POST /generate with "killer": true (o decoded): a killer puzzle at
 * o->difficulty (default medium) from teach_generate_killer within
 * API_GENERATE_MAX_US; 503 generation_timeout when the level was not met
 * in time (the detail names the closest), 422 for members it cannot honour
 * (another size or rules, symmetry, ratings). */
void api_teach_generate(const struct codec_generate_request *o,
                        struct api_response *resp);

#endif
