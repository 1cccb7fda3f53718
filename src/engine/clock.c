/* clock.c - the monotonic clock of include/engine/clock.h: one
 * clock_gettime(CLOCK_MONOTONIC) call, scaled. */
#include "clock.h"

#include <time.h>

uint64_t clock_now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

uint64_t clock_now_ms(void)
{
    return clock_now_us() / 1000u;
}
