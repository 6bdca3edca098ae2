// SPDX-License-Identifier: MIT
/*
 * Flow control between jobs (flow.h).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "flow.h"

struct flow {
	struct flow *next;
	uint64_t id;
	unsigned refs;
	atomic_uint_fast64_t count;	/* starts at 1, as fio's */
	atomic_uint total_weight;
};

static pthread_mutex_t flows_lock = PTHREAD_MUTEX_INITIALIZER;
static struct flow *flows;

struct flow *flow_join(uint64_t id, unsigned weight)
{
	struct flow *f;

	pthread_mutex_lock(&flows_lock);
	for (f = flows; f && f->id != id; f = f->next)
		;
	if (!f && (f = calloc(1, sizeof(*f)))) {
		f->id = id;
		atomic_init(&f->count, 1);
		f->next = flows;
		flows = f;
	}
	if (f) {
		f->refs++;
		atomic_fetch_add(&f->total_weight, weight);
	}
	pthread_mutex_unlock(&flows_lock);
	return f;
}

bool flow_may_issue(struct flow *f, uint64_t *mine, unsigned weight)
{
	double count = (double)atomic_load_explicit(&f->count,
						    memory_order_relaxed);
	double total = (double)atomic_load_explicit(&f->total_weight,
						    memory_order_relaxed);

	if ((double)*mine / count > (double)weight / total)
		return false;
	atomic_fetch_add_explicit(&f->count, 1, memory_order_relaxed);
	++*mine;
	return true;
}

void flow_leave(struct flow *f, uint64_t mine, unsigned weight)
{
	struct flow **p;

	if (!f)
		return;
	pthread_mutex_lock(&flows_lock);
	atomic_fetch_sub(&f->count, mine);
	atomic_fetch_sub(&f->total_weight, weight);
	if (!--f->refs) {
		for (p = &flows; *p != f; p = &(*p)->next)
			;
		*p = f->next;
		free(f);
	}
	pthread_mutex_unlock(&flows_lock);
}
