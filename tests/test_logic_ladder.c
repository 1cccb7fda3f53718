/* test_logic_ladder.c - cmocka tests of the logic engine's harder
 * techniques (unique rectangles, BUG+1, turbot fish, finned fish, wings,
 * chains, ALS, forcing): each on a candidate grid where it is the simplest
 * step, with the expected eliminations worked out from the pattern in the
 * comment, and the same grid with the pattern broken, where it must not
 * give that step. Then soundness over samples of every shared set.
 * The grids were taken from real solving paths (tests/data) at the moment
 * the technique was the simplest step; their values have one solution. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/engine/logic/logic_internal.h"
#include "clock.h"
#include "logic.h"
#include "logic_check.h"
#include "sudoku.h"
#include "support.h"
#include "tests.h"

/* A candidate grid: a digit is a placed cell, "[..]" a blank with those
 * candidates. */
static void parse_marks(const char *s, struct logic_grid *g)
{
    int cell = 0;

    memset(g, 0, sizeof(*g));
    for (; *s && cell < SUDOKU_CELLS; s++) {
        if (*s == '[') {
            for (s++; *s != ']'; s++)
                g->cand[cell] |= (uint16_t)(1u << (*s - '1'));
            cell++;
        } else {
            g->value[cell++] = (uint8_t)(*s - '0');
        }
    }
    assert_int_equal(cell, SUDOKU_CELLS);
}

static struct sudoku_grid solution_of_values(const struct logic_grid *g)
{
    struct sudoku_grid b, s;
    unsigned count = 0;

    memcpy(b.cell, g->value, SUDOKU_CELLS);
    assert_int_equal(sudoku_count(&b, 2, 0, &s, &count, NULL), SUDOKU_OK);
    assert_int_equal(count, 1);
    return s;
}

struct ladder_case {
    enum logic_technique technique;
    const char *marks;
    int place_cell, place_digit;
    const char *eliminations; /* "cell:digit ..." in any order */
    struct {
        int cell, digit;
    } brk[2]; /* candidates added to break it */
    int nbrk;
};

static const struct ladder_case ladder[] = {
    /* [7,1], [8,1] and [8,6] hold only {1,2}; [7,6] holds {1,2,9}. Rows 7-8,
     * columns 1 and 6, boxes 6 and 8: if [7,6] were 1 or 2 the four cells
     * could swap 1 and 2. So [7,6] loses 1 and 2: 69:1 69:2. */
    {LOGIC_UNIQUE_RECTANGLE_1,
     "4[569][1268][5789]3[15789][259][2567][25679][1237][359][12]6[127]["
     "14579]8[2357][234579][23678][3569][268][45789][278][45789][23459]["
     "23567]1[1236][346][1246][378]5[13678][23]9[2378][123]8[59][3479][1"
     "7][13479]6[12357][23457][136]7[59]2[168][134689][345][1358][3458]["
     "68][46][468]1927[35][35]5[12]3[78][678][678][129]4[29]9[12]7[35]4["
     "35][12][68][68]",
     -1,
     0,
     "69:1 69:2",
     {{73, 6}},
     1},
    /* Floor [4,1] and [6,1] are {3,7}; roof [4,0] and [6,0] are {1,3,7}
     * (boxes 3 and 6). One roof cell is 1, so column 0's other cells with a
     * 1 lose it: [3,0] {1,7,9} and [8,0] {1,2,3,7}; 27:1 72:1. */
    {LOGIC_UNIQUE_RECTANGLE_2,
     "[28]679[48][25]1[245]3[289]136[48][25]7[2459][45]45[29][13][13]7[2"
     "689][269][89][179]2[159]4[67]3[56]8[15][137][37][15]8[267]9[2456]["
     "2467][145]648[27]51[29]3[79][137][37]6[135]98[45][457]2594[27][23]"
     "6[38]1[78][1237]8[12][35][137]4[359][579]6",
     -1,
     0,
     "27:1 72:1",
     {{54, 9}},
     1},
    /* Floor [3,0] and [5,0] are {3,7}; roof [3,5] {2,3,7,9} and [5,5]
     * {3,7,9}. In column 5, 7 is only in the roof, so one roof cell is 7 and
     * neither may be 3 (that would complete the pattern): 32:3 50:3. */
    {LOGIC_UNIQUE_RECTANGLE_4,
     "6791[345][345]28[35]4532[68][68]1972[18][18]7[359][359]64[35][37]["
     "14]58[139][2379][49]6[24]89[14]5[16][26]73[124][37]624[139][379][8"
     "9]5[18]52[48]67[48]3199[48]632157[48]1379[458][458][48]26",
     -1,
     0,
     "32:3 50:3",
     {{5, 7}, {40, 7}},
     2},
    /* Every blank is bivalue but [2,0] {1,7,9}. In row 2, 7 is in [2,0],
     * [2,1] {7,8} and [2,4] {6,7}: three times, so [2,0] is 7 (cell 18).
     * Broken: 8 also at [2,0], whose four candidates leave more than one
     * cell outside the pairs: no BUG+1. */
    {LOGIC_BUG_PLUS_1,
     "[17]2345[67][68][18]9456189273[179][78][89]2[67]3[56][15]42345[16]"
     "[16]798[67][67]5938142[89]1[89]742365341[68]9[57][58]2[67]5[68]2[6"
     "8][17]493[17][68]9732[15]4[58][16]",
     18,
     7,
     "",
     {{18, 8}},
     1},
    /* Digit 4: column 3 has it only in rows 2 and 4, column 6 only in rows
     * 2 and 5. Both share row 2, so one of the tops [4,3], [5,6] is 4. The
     * cells seeing both: row 4 in box 5 ([4,8] has 4) and row 5 in box 4
     * ([5,5] has 4): 44:4 50:4.
     * Broken: 4 also at [3,3], so column 3 holds it three times: no
     * conjugate pair there. */
    {LOGIC_SKYSCRAPER,
     "4[569][1268][5789]3[15789][25][2567][5679][1237][359][12]6[127][14"
     "579]8[2357][34579][23678][3569][268][45789][278][45789][2345][2356"
     "7]1[1236][346][1246][378]5[13678][23]9[378][123]8[59][3479][17][13"
     "479]6[12357][3457][136]7[59]2[168][134689][345][1358][3458][68][46"
     "][468]1927[35][35]513[78][678][678]942927[35]4[35]1[68][68]",
     -1,
     0,
     "44:4 50:4",
     {{30, 4}},
     1},
    /* Digit 4: row 4 only at [4,2] and [4,8], column 6 only at [3,6] and
     * [8,6]; [4,8] and [3,6] share box 5. So [4,2] or [8,6] is 4, and
     * [8,2], which sees both, is not: 74:4.
     * Broken: 4 also at [4,0], so row 4 holds it three times. */
    {LOGIC_TWO_STRING_KITE,
     "6[47][479]1[3459][3459]28[35][48]532[468][468]197[289][128][189]7["
     "3589][3589]64[35][3457][14][145]8[1359][23579][49]6[24][358]9[1456"
     "8][356][1356][256]7[35][1248][3578][368]24[13569][35679][89][35][1"
     "8][2458][2468][4568][56]7[1468]3[12]9[3489][34678][46789][369]2[14"
     "68]5[17][468]1[234678][45789][359][3458][3458][48][27][468]",
     -1,
     0,
     "74:4",
     {{36, 4}},
     1},
    /* Digit 6: box 3 has it only at [4,2] and [5,1], inside row 4 and
     * column 1. Column 3 has it only at [4,3] and [6,3]. If [6,3] is not 6,
     * [4,3] is, the box's 6 leaves row 4 and lands in column 1; either way
     * [6,1] (row 6, column 1) is not 6: 55:6. */
    {LOGIC_EMPTY_RECTANGLE,
     "6[47][479]1[3459][3459]28[35][48]532[468][68]197[289][128][189]7[3"
     "589][3589]64[35][3457][14][145]8[1359][23579][49]6[24][358]9[14568"
     "][356][1356][256]7[35][1248][3578][36]24[13569][35679][89][35][18]"
     "[2458][2468][4568][56]7[1468]3[12]9[349][34678][46789][39]2[1468]5"
     "[17][468]1[234678][5789][359][3458][3458][48][27][68]",
     -1,
     0,
     "55:6",
     {{66, 6}},
     1},
    /* Digit 1: box 1 holds it at [1,4], [1,5], [2,5] (strong: [1,4] or the
     * column-5 pair); [2,5] and [1,5] see [6,5]; row 6 has it only at
     * [6,5] and [6,6]; [6,6] sees [4,6]; row 4 has it at [4,3..6]. So 1 is
     * at [1,4] or in row 4 of box 4, and [3,4] sees both: 31:1. */
    {LOGIC_X_CHAIN,
     "958[27][26][267]4137[26][14]3[148][19][256][2689][5689]3[26][14][4"
     "8]5[149][267][2679][689][56]49[1257][1236]8[1367][367][16][68]73[1"
     "49][1469][146][168]52[568]12[57][36][3567][3678][49][49]2[39]56[89"
     "][134][13][348]7[14]87[1245][1234][12345]9[2346][1456][14][39]6[89"
     "]7[12345][1235][2348][1458]",
     -1,
     0,
     "31:1",
     {{58, 1}},
     1},
    /* Digit 3: column 7 only in rows 3 and 7, column 1 in rows 3, 7 and the
     * fin [6,1] (box 6). Without the fin it is an X-wing on rows 3 and 7;
     * with it, box 6 loses 3. Both remove 3 from row 7 inside box 6 outside
     * columns 1 and 7: [7,2], 65:3.
     * Broken: 3 also at [2,1], a second fin in box 0 while the first is
     * in box 6. */
    {LOGIC_FINNED_X_WING,
     "[1378]2[38]45[367][168][18]9[459][45]618[29][25]73[135789][578][35"
     "89][267][2679][23679][12568][145][24][2379][37]45[16][16][27][39]8"
     "[2567][567][25]938[127][14][24][389]1[89][27]4[27][39]65[34568][34"
     "568]1[678][679][5679][3589]2[67][2568][3568][2358][2678][12679]4[3"
     "589][39][167][2568]973[12][1256]4[58][16]",
     -1,
     0,
     "65:3",
     {{19, 3}},
     1},
    /* Digit 4: rows 0, 1, 3 have it in columns {1,6}, {0,1,3}, {0,3,6}:
     * covers 0, 3, 6 and fins [0,1], [1,1] in box 0 (sashimi: row 0 keeps
     * only [0,6]). Columns 0, 3, 6 in box 0, rows other than 0, 1, 3:
     * [2,0], 18:4.
     * Broken: 4 also at [0,4], a fin in box 1 beside those of box 0. */
    {LOGIC_FINNED_SWORDFISH,
     "[19][245]7[136][39]8[24][25][16][14589][45]6[1457]2[579]3[578][158"
     "][48]3[12][567][47][1567][2678][2457]9[34]1[289][23478]5[237][4789"
     "]6[38][346][249][289][34678]1[2367][4789][345789][358][356]7[58]9["
     "48][36]1[348]27[59][159][25][368][125][68][38]4[15]83[15][67]4[29]"
     "[29][67]264[378][3789][379]51[378]",
     -1,
     0,
     "18:4",
     {{4, 4}},
     1},
    /* Digit 5: rows 2, 3, 5, 6 have it in columns {4,8}, {0,4,5,8},
     * {0,5,6,7}, {0,4,5,8}: covers 0, 4, 5, 8, fins [5,6], [5,7] in box 5.
     * Cover columns inside box 5 outside the base rows: column 8, row 4:
     * [4,8], 44:5. */
    {LOGIC_FINNED_JELLYFISH,
     "[179]52[39]468[1379][137][14689][14689][389][359][358]7[45]2[145]["
     "4789][34789][3789]2[358]16[3479][3457][567][367]48[3567][235]9[136"
     "][1235]2[36789][35789]41[59][57][356][35][5679][3679]1[37][2367][2"
     "359][2457][3456]8[4579][2479]61[257][245]38[2457][14578][1278][578"
     "][357]9[3458][24][457]63[2478][578]6[257][2458]1[457]9",
     -1,
     0,
     "44:5",
     {{19, 5}},
     1},
    /* [4,2] and [8,3] are both {4,9} and do not see each other. Row 7 has 9
     * only at [7,2] (sees [4,2]) and [7,5] (sees [8,3]): one of them is 9,
     * so [4,2] or [8,3] is 4. [8,2] sees both and has 4: 74:4 ([4,3], the
     * other cell seeing both, is a given). */
    {LOGIC_W_WING,
     "4873[12][12][56]9[56][59][59]36[48][48]271126[57]9[57]3847[34]5[89"
     "][348][489]162[69][13469][49]2[1346][57]8[34][57][28][1346][28][57"
     "][1346][14][57][34]9[58][45]1[48]769233[67][89]1[28][289]45[67][26"
     "][4679][249][49]53[67]18",
     -1,
     0,
     "74:4",
     {{64, 9}},
     1},
    /* Bivalue cells [3,1] {1,4} - [3,6] {4,9} - [5,6] {8,9} - [5,8] {1,8}:
     * if [3,1] is not 1 it is 4, so [3,6] is 9, [5,6] is 8, [5,8] is 1.
     * [3,8] sees both ends and has 1 (row 5 in box 3 has none): 35:1.
     * Broken: 7 also at [3,1], which no longer holds two digits. */
    {LOGIC_XY_CHAIN,
     "6[47][479]1[3459][3459]28[35][48]532[468][468]197[289][128][189]7["
     "3589][3589]64[35][3457][14][145]8[1359][23579][49]6[124][3458]9[14"
     "568][356][1356][2356]7[35][1248][3578][368]24[13569][35679][89][35"
     "][18][2458][2468][4568][56]7[1468]3[12]9[3489][34678][46789][369]2"
     "[1468]5[17][468]1[234678][45789][359][3458][3458][48][27][468]",
     -1,
     0,
     "35:1",
     {{28, 7}},
     1},
    /* A = [6,3] {5,6}; B = [8,4], [8,5], [8,6], [8,8], four cells with
     * {3,4,5,6,8}. Every 5 of B ([8,4], [8,5]) sees [6,3] (box 7), so 5 is
     * the restricted common and 6 is in A or B. [8,3] sees [6,3] and every
     * 6 of B ([8,4], [8,5], [8,8]): 75:6.
     * Broken: 9 also at [8,4], so B holds six digits in four cells. */
    {LOGIC_ALS_XZ,
     "6[47][479]1[3459][3459]28[35][248]53[26][468][2468]197[289][128][1"
     "89]7[3589][23589]64[35][3457][1347][1457]8[1359][23579][49]6[124]["
     "3458]9[14568][2356][1356][2356]7[35][1248][3578][13678]24[13569][3"
     "5679][89][35][18][2458][2468][4568][56]7[14568]3[12]9[34789][34678"
     "][46789][369]2[13468]5[17][468]1[234678][456789][3569][34568][3456"
     "8][48][27][468]",
     -1,
     0,
     "75:6",
     {{76, 9}},
     1},
    /* 9[0,8] = 9[1,8] - 4[1,8] = 4[1,5] - 4[2,3] = 4[4,3] - 9[4,3] =
     * 9[0,3|2,3]: the last node is the grouped 9 of box 1 in column 3. [0,5]
     * sees [0,8] (row 0) and both cells of the group (box 1): 5:9.
     * Broken: 9 also in [3,8] and [0,7], so neither column 8 nor box 2
     * holds 9[0,8] = 9[1,8] any more. */
    {LOGIC_AIC,
     "4[569][1268][5789]3[15789][25][2567][5679][1237][359][12]6[127][14"
     "579]8[2357][34579][23678][3569][268][45789][278][45789][2345][2356"
     "7]1[1236][346][1246][378]5[13678][23]9[378][123]8[59][3479][17][13"
     "479]6[12357][357][136]7[59]2[168][13689][345][1358][3458][68][46]["
     "468]1927[35][35]513[78][678][678]942927[35]4[35]1[68][68]",
     -1,
     0,
     "5:9",
     {{35, 9}, {7, 9}},
     2},
    /* Suppose [4,3] is 3: singles place [8,3]=5, [8,5]=3, [4,5]=4, ... and
     * row 2 is left without a 9. So [4,3] is not 3: 39:3. (7 is already
     * out of [1,8]: an ALS-XY-wing, rated lower, removes it first.)
     * Broken: 9 back in [2,2] (no given rules it out), so row 2 keeps a
     * place for 9; the simplest step is then the pointing that removes it
     * (box 3 has 9 only in column 2), not the forcing chain. */
    {LOGIC_FORCING_CHAIN,
     "4[569][1268][5789]3[1578][25][2567][5679][1237][359][12]6[127][145"
     "79]8[2357][3459][23678][3569][268][45789][278][45789][2345][23567"
     "]1[1236][346][1246][378]5[13678][23]9[378][123]8[59][3479][17][134"
     "79]6[12357][357][136]7[59]2[168][13689][345][1358][3458][68][46][4"
     "68]1927[35][35]513[78][678][678]942927[35]4[35]1[68][68]",
     -1,
     0,
     "39:3",
     {{20, 9}},
     1},
    /* Column 3's 5 is at [2,3], [4,3], [6,3] or [8,3]; each, followed with
     * singles, removes 5 from [4,7]: 43:5.
     * Broken: 5 also possible at [8,5] (no given rules it out); the
     * simplest step is then the forcing chain that removes it (5 there
     * leaves column 8 without a 7), not the unit forcing. */
    {LOGIC_UNIT_FORCING,
     "98[24]7[2345][245]6[235]15[1267][126][136]8[126][2379]4[79][12467]"
     "[1267]3[1456][12456]9[257][257]8[14678]5[1468]2[146]3[4789][789][4"
     "67][13468][136]9[1456]7[14568][3458][358]2[234678][2367][2468]9[45"
     "6][4568][34578]1[4567][2368]4[2568][356][23569][2567]1[25789][579]"
     "[126][1269]78[124569][12456][2459][259]3[1238][1239][1258][1345][1"
     "23459][1247][245789]6[457]",
     -1,
     0,
     "43:5",
     {{77, 5}},
     1},
    /* No chain finds anything on this board. Suppose [8,7] is 4: singles
     * and the failing candidates of one nested level end with [4,7] empty,
     * so [8,7] is not 4: 79:4. */
    {LOGIC_FORCING_NET,
     "98[124]7[135][123]6[1245][2345]75[126][1369]4[12369][2389][129][23"
     "89][1246][1246]3[1569][1569]8[2459]7[2459]5[1246][12468][1689][168"
     "9]7[2489]3[2489][1268][12367]94[13568][136][2578][256][2578][468]["
     "3467][4678][35689]2[369]1[4569][45789]3[2467][24678][689][6789][46"
     "9][24579][2459]1[1246]9[12467][136][1367]5[2347]8[2347][148][147]5"
     "2[13789][1349][3479][49]6",
     -1,
     0,
     "79:4",
     {{0, 0}},
     0},
};

/* The step's eliminations as a sorted "cell:digit" list, like `want`. */
static int same_eliminations(const struct logic_step *s, const char *want)
{
    int cells[LOGIC_MAX_ELIMINATIONS], digits[LOGIC_MAX_ELIMINATIONS], n = 0;
    int pos = 0, c, d, k, matched = 0;

    while (sscanf(want + pos, "%d:%d%n", &c, &d, &k) == 2 &&
           n < LOGIC_MAX_ELIMINATIONS) {
        cells[n] = c;
        digits[n++] = d;
        pos += k;
    }
    if (n != s->neliminations)
        return 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < s->neliminations; j++)
            matched += s->eliminations[j].cell == cells[i] &&
                       s->eliminations[j].digit == digits[i];
    return matched == n;
}

static void check_ladder(const struct ladder_case *tc)
{
    struct logic_grid g, broken;
    struct logic_step s;
    struct sudoku_grid sol;
    char text[2048];
    const char *name = logic_technique_name(tc->technique);
    int legal = 1;

    parse_marks(tc->marks, &g);
    sol = solution_of_values(&g);
    assert_int_equal(logic_step(&g, &s), LOGIC_OK);
    if (s.technique != tc->technique)
        fail_msg("%s: found %s", name, logic_technique_name(s.technique));
    logic_check_sound(&g, &s);
    if (tc->place_cell >= 0) {
        assert_int_equal(s.nplacements, 1);
        assert_int_equal(s.placements[0].cell, tc->place_cell);
        assert_int_equal(s.placements[0].digit, tc->place_digit);
        assert_int_equal(sol.cell[tc->place_cell], tc->place_digit);
    } else {
        assert_int_equal(s.nplacements, 0);
        if (!same_eliminations(&s, tc->eliminations))
            fail_msg("%s: eliminations differ from %s", name, tc->eliminations);
    }
    for (int i = 0; i < s.neliminations; i++)
        assert_int_not_equal(sol.cell[s.eliminations[i].cell],
                             s.eliminations[i].digit);
    /* A rating at least the technique's base, on the 1.0-12.0 scale. */
    assert_true(s.rating >= 12 && s.rating <= 120);
    assert_true(logic_explain(&s, text, sizeof(text)) > 40);
    assert_null(strstr(text, "Unknown"));
    /* Chains carry their links; a step's first link starts the chain. */
    if (tc->technique >= LOGIC_SKYSCRAPER &&
        tc->technique != LOGIC_FINNED_X_WING &&
        tc->technique != LOGIC_FINNED_SWORDFISH &&
        tc->technique != LOGIC_FINNED_JELLYFISH &&
        tc->technique != LOGIC_ALS_XZ)
        assert_true(s.nlinks >= 2);
    if (tc->nbrk == 0)
        return;
    broken = g;
    for (int i = 0; i < tc->nbrk; i++) {
        assert_int_equal(broken.value[tc->brk[i].cell], 0);
        /* Three breaks (unique rectangles 2 and 4, the AIC) add a digit
         * that a placed peer rules out, as no legal digit breaks those
         * patterns: a grid no solving path reaches, on which a step need
         * not be sound. */
        for (int p = 0; p < SUDOKU_CELLS; p++)
            legal &= !grid_sees(p, tc->brk[i].cell) ||
                     broken.value[p] != tc->brk[i].digit;
        broken.cand[tc->brk[i].cell] |=
            (uint16_t)(1u << (tc->brk[i].digit - 1));
    }
    /* Broken, the pattern must not give that step any more; on a grid
     * that solving can reach, whatever step it gives is sound. */
    if (logic_step(&broken, &s) != LOGIC_OK)
        return;
    if (legal)
        logic_check_sound(&broken, &s);
    if (s.technique == tc->technique &&
        (tc->place_cell >= 0 ? s.nplacements == 1
                             : same_eliminations(&s, tc->eliminations)))
        fail_msg("%s still fires on the broken pattern", name);
}

static void each_ladder_case_steps_by_its_technique_soundly(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(ladder) / sizeof(ladder[0]); i++)
        check_ladder(&ladder[i]);
}

/* ---------------------------------------------------------- remote pairs */

/* A hand-built grid: every cell holds all nine digits but a chain of cells
 * that hold only 1 and 2, each seeing the next along the line `units[i]`;
 * 1 and 2 are taken out of the rest of those lines (else a naked pair
 * there would come first). */
static void remote_chain(struct logic_grid *g, const int *cells, int n,
                         const int *units)
{
    memset(g, 0, sizeof(*g));
    for (int c = 0; c < SUDOKU_CELLS; c++) {
        g->cand[c] = 0x1FF;
        for (int i = 0; i + 1 < n; i++)
            for (int k = 0; k < 9; k++)
                if (grid_unit_cell(units[i], k) == c)
                    g->cand[c] &= (uint16_t)~3u;
    }
    for (int i = 0; i < n; i++)
        g->cand[cells[i]] = 3;
}

/* Six cells {1,2}: [0,0] -row 0- [0,3] -column 3- [3,3] -row 3- [3,6]
 * -column 6- [6,6] -row 6- [6,1]. Neighbours differ, so after five links
 * the ends [0,0] and [6,1] differ: one is 1 and the other 2. The chain
 * is read from one end's digit d (if d is not at [0,0] it is at [6,1]),
 * and d leaves every cell that sees both ends: [1,1] and [2,1] (box 0,
 * column 1), [7,0] and [8,0] (column 0, box 6); [0,1] and [6,0] lie in the
 * lines of the chain, which hold no 1 or 2. No four cells of the chain are
 * a W-wing or turbot fish with an elimination: the cells seeing [0,0] and
 * [3,6], [0,3] and [6,6], or [3,3] and [6,1] all lie in those lines.
 * Broken: five cells (the ends [0,0] and [6,6] alike): nothing follows,
 * and below the forcing searches the engine is stuck. */
static void remote_pairs(void **state)
{
    static const int cells[6] = {0, 3, 30, 33, 60, 55};
    static const int units[5] = {0, 9 + 3, 3, 9 + 6, 6};
    struct logic_budget below_forcing = {0, 74};
    struct logic_grid g;
    struct logic_step s;
    int d, n = 0;

    (void)state;
    remote_chain(&g, cells, 6, units);
    assert_int_equal(logic_step_budget(&g, &below_forcing, &s), LOGIC_OK);
    assert_int_equal(s.technique, LOGIC_REMOTE_PAIRS);
    logic_check_sound(&g, &s);
    d = s.links[0].digit;
    assert_true(d == 1 || d == 2);
    assert_int_equal(s.links[s.nlinks - 1].digit, d);
    for (int c = 0; c < SUDOKU_CELLS; c++) {
        int want = grid_sees(c, cells[0]) && grid_sees(c, cells[5]) &&
                   (g.cand[c] & (1u << (d - 1)));
        int got = 0;
        for (int i = 0; i < s.neliminations; i++)
            got |= s.eliminations[i].cell == c && s.eliminations[i].digit == d;
        assert_int_equal(got, want);
        n += want;
    }
    assert_int_equal(n, 4);
    assert_int_equal(s.neliminations, 4);

    remote_chain(&g, cells, 5, units);
    assert_int_equal(logic_step_budget(&g, &below_forcing, &s), LOGIC_STUCK);
}

/* The naked single shown on a hand-built grid: every cell has all nine
 * candidates but [0,0], which has only 5. Every digit keeps at least eight
 * places in every unit, so no hidden single (tried first) applies, and the
 * step is 5 at [0,0]. */
static void naked_single(void **state)
{
    struct logic_grid g;
    struct logic_step s;

    (void)state;
    memset(&g, 0, sizeof(g));
    for (int i = 0; i < SUDOKU_CELLS; i++)
        g.cand[i] = 0x1FF;
    g.cand[0] = 1u << 4;
    assert_int_equal(logic_step(&g, &s), LOGIC_OK);
    assert_int_equal(s.technique, LOGIC_NAKED_SINGLE);
    assert_int_equal(s.placements[0].cell, 0);
    assert_int_equal(s.placements[0].digit, 5);
    assert_int_equal(s.rating, 23);
}

/* The bit tricks of logic_internal.h against the plain definitions. */
static void cell_sets(void **state)
{
    (void)state;
    for (int a = 0; a < SUDOKU_CELLS; a++) {
        struct logic_cells p = logic_peers(a);
        int n = 0;
        for (int b = 0; b < SUDOKU_CELLS; b++) {
            int same = a / 9 == b / 9 || a % 9 == b % 9 ||
                       (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3);
            assert_int_equal(logic_cells_has(&p, b), a != b && same);
            n += logic_cells_has(&p, b);
        }
        assert_int_equal(n, 20);
        assert_int_equal(p.w[1] >> 17, 0);
    }
    for (unsigned m = 0; m < 512; m++) {
        int n = 0;
        for (int k = 0; k < 9; k++)
            n += (m >> k) & 1;
        assert_int_equal(grid_popcount(m), n);
    }
}

/* SE's length bonus: 0.1 more past 4, 6, 8, 12, 16, 24 links. */
static void chain_bonus_is_0_1_more_past_4_6_8_12_16_links(void **state)
{
    (void)state;
    assert_int_equal(logic_chain_bonus(4), 0);
    assert_int_equal(logic_chain_bonus(5), 1);
    assert_int_equal(logic_chain_bonus(6), 1);
    assert_int_equal(logic_chain_bonus(7), 2);
    assert_int_equal(logic_chain_bonus(9), 3);
    assert_int_equal(logic_chain_bonus(13), 4);
    assert_int_equal(logic_chain_bonus(17), 5);
}

static void rating_levels_hold_their_bounds(void **state)
{
    (void)state;
    assert_int_equal(logic_rating_level(10), LOGIC_EASY);
    assert_int_equal(logic_rating_level(23), LOGIC_EASY);
    assert_int_equal(logic_rating_level(26), LOGIC_MEDIUM);
    assert_int_equal(logic_rating_level(46), LOGIC_HARD);
    assert_int_equal(logic_rating_level(66), LOGIC_EXPERT);
    assert_int_equal(logic_rating_level(75), LOGIC_EXTREME);
    for (int l = 0; l < LOGIC_NLEVELS; l++)
        assert_int_equal(
            logic_rating_level(logic_level_max_rating((enum logic_level)l)), l);
}

/* ------------------------------------------------------------ soundness */

struct tally {
    unsigned puzzles, steps, stuck;
};

/* Every step of every puzzle (first `max` lines of a sample) against the
 * solution; each puzzle must end solved (a 2 s budget each, never hit on
 * these samples). */
static void walk(const char *name, unsigned max, struct tally *t)
{
    char line[512];
    FILE *f;

    f = support_open_data(name);
    while (t->puzzles < max && fgets(line, sizeof(line), f)) {
        struct sudoku_grid b, sol;
        struct logic_grid g;
        struct logic_step s;
        struct logic_budget bu = {clock_now_us() + 2000000, 0};
        enum logic_status st;
        unsigned count = 0;
        if (line[0] == '#' || strlen(line) < SUDOKU_CELLS ||
            sudoku_parse(line, SUDOKU_CELLS, &b, NULL) != SUDOKU_OK)
            continue;
        sudoku_count(&b, 2, 0, &sol, &count, NULL);
        if (count != 1)
            continue;
        t->puzzles++;
        logic_init(&g, &b);
        while ((st = logic_step_budget(&g, &bu, &s)) == LOGIC_OK) {
            for (int i = 0; i < s.nplacements; i++)
                if (s.placements[i].digit != sol.cell[s.placements[i].cell])
                    fail_msg("%.81s: %s places a wrong digit", line,
                             logic_technique_name(s.technique));
            for (int i = 0; i < s.neliminations; i++)
                if (s.eliminations[i].digit ==
                        sol.cell[s.eliminations[i].cell] ||
                    !(g.cand[s.eliminations[i].cell] &
                      (1u << (s.eliminations[i].digit - 1))))
                    fail_msg("%.81s: %s removes the solution's digit", line,
                             logic_technique_name(s.technique));
            logic_apply(&g, &s);
            t->steps++;
        }
        t->stuck += st != LOGIC_SOLVED;
        if (st == LOGIC_SOLVED)
            for (int i = 0; i < SUDOKU_CELLS; i++)
                assert_int_equal(g.value[i], sol.cell[i]);
    }
    fclose(f);
}

static void sound_on_every_set(void **state)
{
    struct tally t = {0};

    (void)state;
    /* `max` counts from the start: 40 of each sample, then the whole of
     * the small set (its puzzles with one solution). */
    walk("puzzles2_17_clue", 40, &t);
    walk("puzzles3_magictour_top1465", 80, &t);
    walk("puzzles5_forum_hardest_1905_11+", 120, &t);
    walk("test_puzzles_with_solutions", 1000, &t);
    assert_true(t.puzzles > 120);
    assert_int_equal(t.stuck, 0);
    assert_true(t.steps > 5000);
}

int test_logic_ladder(unsigned *ntests)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_ladder_case_steps_by_its_technique_soundly),
        cmocka_unit_test(remote_pairs),
        cmocka_unit_test(naked_single),
        cmocka_unit_test(cell_sets),
        cmocka_unit_test(chain_bonus_is_0_1_more_past_4_6_8_12_16_links),
        cmocka_unit_test(rating_levels_hold_their_bounds),
        cmocka_unit_test(sound_on_every_set),
    };

    unsigned rare = 0;
    int failed = cmocka_run_group_tests_name("logic_ladder", tests, NULL, NULL);

    /* The hand-built rare cases run as part of this suite. */
    failed += test_logic_rare(&rare);
    *ntests = TESTS_COUNT(tests) + rare;
    return failed;
}
