/* budget.c - the thread CPU clock of include/engine/budget.h. It is per
 * thread, so searches on different threads each read their own. */
#include "budget.h"

#include <time.h>

uint64_t search_budget_cpu_ns(void)
{
    struct timespec ts;

    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct search_budget search_budget_make(uint64_t max_nodes, uint64_t cpu_ns)
{
    struct search_budget b = {max_nodes, 0};

    if (cpu_ns > 0)
        b.cpu_deadline_ns = search_budget_cpu_ns() + cpu_ns;
    return b;
}
