/* SPDX-License-Identifier: MIT */
#ifndef IORIG_FLOW_H
#define IORIG_FLOW_H

#include <stdbool.h>
#include <stdint.h>

/*
 * flow=, flow_id=: jobs sharing a flow id keep their I/O counts in the
 * ratio of their weights (fio's token-based flow control). Each flow has
 * a counter of the I/Os its jobs issued and their total weight; a job may
 * issue when its own count over the flow's is at most its weight over the
 * total, else it waits (flow_sleep, or a yield) and asks again. A job
 * that ends takes its count and weight out. One atomic add per I/O of a
 * job with flow set; nothing for others.
 */
struct flow;

/* Joins flow id with weight; NULL when out of memory. */
struct flow *flow_join(uint64_t id, unsigned weight);
/* True when the job (its count *mine, its weight) may issue one more
 * I/O now; then both counts are advanced. */
bool flow_may_issue(struct flow *f, uint64_t *mine, unsigned weight);
/* Leaves: the job's count and weight are taken out. */
void flow_leave(struct flow *f, uint64_t mine, unsigned weight);

#endif
