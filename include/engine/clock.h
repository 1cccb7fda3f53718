/* clock.h - the one clock of the tree: CLOCK_MONOTONIC, read as a count of
 * microseconds or milliseconds. Deadlines and durations everywhere (logic
 * budgets, the generators, the HTTP idle sweep, the probe) use it, so they
 * agree; it never goes back and ignores changes of the wall clock. */
#ifndef CLOCK_H
#define CLOCK_H

#include <stdint.h>

/* Now on CLOCK_MONOTONIC, in microseconds, and in milliseconds. */
uint64_t clock_now_us(void);
uint64_t clock_now_ms(void);

#endif
