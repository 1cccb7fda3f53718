/* rng.c - xoshiro256** (Blackman and Vigna), its state seeded by
 * splitmix64; rng_below rejects the top sliver of the 64-bit range so that
 * every value below n is equally likely. */
#include "rng.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15u);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s, result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

unsigned rng_below(struct rng *r, unsigned n)
{
    /* Rejection keeps it uniform; n is tiny, so one draw almost always. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;

    do
        x = rng_next(r);
    while (x >= limit);
    return (unsigned)(x % n);
}
