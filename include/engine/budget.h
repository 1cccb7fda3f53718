/* budget.h - the bound of one search, for every engine: a node count (the
 * same answer on every run) and a deadline on the calling thread's CPU
 * clock (what bounds time, whatever a node costs). The searches read the
 * clock once every SEARCH_BUDGET_EVERY nodes; method and figures:
 * docs/operations.md ("CPU of one search"). */
#ifndef BUDGET_H
#define BUDGET_H

#include <stdint.h>

/* One search's bound. Both members 0: no bound. */
struct search_budget {
    uint64_t max_nodes;       /* stop before node max_nodes + 1; 0: none */
    uint64_t cpu_deadline_ns; /* stop once search_budget_cpu_ns() passes
                                 it; 0: none */
};

/* Nodes between two reads of the clock: a read costs about 0.23 us, the
 * cheapest node (4x4) about 0.2 us, so the check costs under 0.5%, and a
 * search stops at most 256 nodes (under 3 ms of the costliest) late. */
#define SEARCH_BUDGET_EVERY 256u

/* The calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID), in ns: time the
 * thread ran, not time it waited for a core, so a loaded machine does not
 * shorten a search. */
uint64_t search_budget_cpu_ns(void);

/* A budget of max_nodes (0: none) and cpu_ns of this thread's CPU from now
 * (0: none). */
struct search_budget search_budget_make(uint64_t max_nodes, uint64_t cpu_ns);

/* Must a search that has entered `nodes` nodes stop before the next one?
 * Reads the clock only when nodes is a multiple of SEARCH_BUDGET_EVERY
 * (0 included, so a deadline already past stops a search at its root). */
static inline int search_budget_out(const struct search_budget *b,
                                    uint64_t nodes)
{
    if (b->max_nodes && nodes >= b->max_nodes)
        return 1;
    return b->cpu_deadline_ns && nodes % SEARCH_BUDGET_EVERY == 0 &&
           search_budget_cpu_ns() >= b->cpu_deadline_ns;
}

/* Which bound stopped a search that used `nodes` nodes under b: 1 the node
 * count, 0 the CPU deadline. */
static inline int search_budget_by_nodes(const struct search_budget *b,
                                         uint64_t nodes)
{
    return b->max_nodes && nodes >= b->max_nodes;
}

#endif
