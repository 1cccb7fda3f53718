/* pool_cost.c - what libmicrohttpd 0.9.75 clears on every keep-alive
 * request, timed alone: when it builds the answer it shrinks the read
 * buffer (half the pool) and zeroes the part not used, and when it resets
 * the connection for the next request it zeroes the whole pool. Here that
 * is done on the pool of the next connection in turn, over 1, 64 and 256
 * connections, for pools of 16, 8 and 4 KiB, so the figure includes what
 * the library pays once many connections' pools no longer fit the cache.
 *   cc -O2 -o /tmp/pool_cost tests/bench/http/pool_cost.c && /tmp/pool_cost
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(void)
{
    static const size_t sizes[] = {16384, 8192, 4096};
    static const int conns[] = {1, 64, 256};
    enum { N = 400000, ROUNDS = 3 };

    for (int r = 0; r < ROUNDS; r++)
        for (int si = 0; si < 3; si++)
            for (int ci = 0; ci < 3; ci++) {
                size_t pool = sizes[si];
                int c = conns[ci];
                char *m = malloc(pool * (size_t)c);
                double t0, took;

                if (m == NULL)
                    return 1;
                memset(m, 1, pool * (size_t)c);
                t0 = now_s();
                for (long i = 0; i < N; i++) {
                    char *p = m + (size_t)(i % c) * pool;
                    p[100] = (char)i; /* the request read into the buffer */
                    memset(p + pool / 2 - 64, 0, pool / 2 + 64); /* shrink */
                    __asm__ volatile("" : : "r"(p) : "memory");
                    memset(p + 64, 0, pool - 64); /* reset */
                    __asm__ volatile("" : : "r"(p) : "memory");
                }
                took = now_s() - t0;
                printf("round %d: pool %5zu B, %3d connections: %4.0f ns a "
                       "request\n",
                       r + 1, pool, c, took / N * 1e9);
                free(m);
            }
    return 0;
}
