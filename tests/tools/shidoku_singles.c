/* shidoku_singles.c - the 4x4 facts behind teach_variant_levels(4), by
 * enumeration and sharing nothing with the engine: every grid of the rules,
 * every puzzle with one solution, and whether naked and hidden singles
 * alone solve it. `shidoku_singles [d][n][k]` (d: diagonals, n: anti-knight,
 * k: anti-king); exits 1 when some puzzle needs more than singles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 4, CELLS = 16, MASKS = 1 << CELLS, MAX_GRIDS = 288 };

static int grids[MAX_GRIDS][CELLS], ngrids;
static int units[14][N], nunits = 12, knights, kings;
static int peer[CELLS][CELLS];

static int knight_move(int a, int b)
{
    int dr = abs(a / N - b / N), dc = abs(a % N - b % N);

    return (dr == 1 && dc == 2) || (dr == 2 && dc == 1);
}

/* Whether cells a and b may not hold the same digit. */
static int rule_peers(int a, int b)
{
    if (a == b)
        return 0;
    for (int u = 0; u < nunits; u++) {
        int in = 0;
        for (int i = 0; i < N; i++)
            in += units[u][i] == a || units[u][i] == b;
        if (in == 2)
            return 1;
    }
    if (kings && abs(a / N - b / N) == 1 && abs(a % N - b % N) == 1)
        return 1;
    return knights && knight_move(a, b);
}

static int peers(int a, int b)
{
    return peer[a][b];
}

static void fill(int *g, int c)
{
    if (c == CELLS) {
        memcpy(grids[ngrids++], g, sizeof(grids[0]));
        return;
    }
    for (int d = 1; d <= N; d++) {
        int ok = 1;
        for (int o = 0; o < c && ok; o++)
            ok = !(g[o] == d && peers(o, c));
        if (ok) {
            g[c] = d;
            fill(g, c + 1);
        }
    }
}

/* Naked and hidden singles to the end: 1 when every cell is filled. */
static int singles_solve(int *p)
{
    int cand[CELLS], progress = 1;

    while (progress) {
        progress = 0;
        for (int c = 0; c < CELLS; c++) {
            cand[c] = p[c] ? 1 << p[c] : 0x1e;
            for (int o = 0; o < CELLS; o++)
                if (p[o] && peers(o, c))
                    cand[c] &= ~(1 << p[o]);
        }
        for (int c = 0; c < CELLS; c++)
            if (!p[c] && __builtin_popcount((unsigned)cand[c]) == 1) {
                p[c] = __builtin_ctz((unsigned)cand[c]);
                progress = 1;
            }
        for (int u = 0; u < nunits && !progress; u++)
            for (int d = 1; d <= N; d++) {
                int places = 0, at = -1, have = 0;
                for (int i = 0; i < N; i++) {
                    int c = units[u][i];
                    have |= p[c] == d;
                    if (!p[c] && (cand[c] >> d & 1))
                        places++, at = c;
                }
                if (!have && places == 1) {
                    p[at] = d;
                    progress = 1;
                }
            }
    }
    for (int c = 0; c < CELLS; c++)
        if (!p[c])
            return 0;
    return 1;
}

/* Of the grids, those no other grid matches on the cells of mask. */
static void unique_under(unsigned mask, unsigned char *uniq)
{
    for (int a = 0; a < ngrids; a++) {
        int matches = 0;
        for (int b = 0; b < ngrids && matches < 2; b++) {
            int same = 1;
            for (int c = 0; c < CELLS && same; c++)
                same = !(mask >> c & 1) || grids[a][c] == grids[b][c];
            matches += same;
        }
        uniq[a] = matches == 1;
    }
}

int main(int argc, char **argv)
{
    static unsigned char uniq[MASKS][MAX_GRIDS];
    const char *rules = argc > 1 ? argv[1] : "";
    long unique = 0, minimal = 0, not_singles = 0;
    int g[CELLS] = {0};

    for (int r = 0; r < N; r++)
        for (int i = 0; i < N; i++) {
            units[r][i] = r * N + i;
            units[N + r][i] = i * N + r;
            units[2 * N + r][i] =
                ((r / 2) * 2 + i / 2) * N + (r % 2) * 2 + i % 2;
        }
    if (strchr(rules, 'd')) {
        for (int i = 0; i < N; i++) {
            units[12][i] = i * N + i;
            units[13][i] = i * N + N - 1 - i;
        }
        nunits = 14;
    }
    knights = strchr(rules, 'n') != NULL;
    kings = strchr(rules, 'k') != NULL;
    for (int a = 0; a < CELLS; a++)
        for (int b = 0; b < CELLS; b++)
            peer[a][b] = rule_peers(a, b);
    fill(g, 0);
    if (ngrids == 0) {
        printf("rules '%s': no grid\n", rules);
        return 0;
    }
    for (unsigned m = 0; m < MASKS; m++)
        unique_under(m, uniq[m]);
    for (unsigned m = 0; m < MASKS; m++)
        for (int a = 0; a < ngrids; a++) {
            int p[CELLS], is_minimal = 1;
            if (!uniq[m][a])
                continue;
            unique++;
            for (int c = 0; c < CELLS; c++)
                p[c] = (m >> c & 1) ? grids[a][c] : 0;
            not_singles += !singles_solve(p);
            for (int c = 0; c < CELLS && is_minimal; c++)
                is_minimal = !((m >> c & 1) && uniq[m & ~(1u << c)][a]);
            minimal += is_minimal;
        }
    printf("rules '%s': %d grids, %ld puzzles with one solution (%ld "
           "minimal), %ld not solved by singles\n",
           rules, ngrids, unique, minimal, not_singles);
    return not_singles != 0;
}
