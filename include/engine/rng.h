/* rng.h - the engine's one random number generator: xoshiro256** seeded
 * through splitmix64. A value the caller owns (no global state), so the
 * generators stay reentrant and a seed always gives the same sequence. */
#ifndef RNG_H
#define RNG_H

#include <stdint.h>

struct rng {
    uint64_t s[4];
};

/* Seeds *r: the four words of state are splitmix64's first four outputs
 * from `seed` (any value, 0 included). */
void rng_seed(struct rng *r, uint64_t seed);

/* The next 64 random bits. */
uint64_t rng_next(struct rng *r);

/* Uniform in [0, n), n >= 1: rejection sampling, so without the bias of
 * rng_next(r) % n. */
unsigned rng_below(struct rng *r, unsigned n);

#endif
