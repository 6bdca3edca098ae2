/* SPDX-License-Identifier: MIT */
#ifndef IORIG_WORKER_H
#define IORIG_WORKER_H

#include <pthread.h>
#include <stdatomic.h>

#include "clock.h"
#include "stats.h"
#include "target.h"

/*
 * One job clone's thread: keeps iodepth I/Os in flight through the engine
 * until a stop condition, stamping and accounting every request.
 */
struct worker {
	const struct job *job;
	struct target *tgt;		/* opened by the caller */
	const struct clock *clk;
	const atomic_int *stop;		/* set by SIGINT/SIGTERM */
	struct job_stats *stats;	/* results go here */
	pthread_t thread;
	bool started;
};

/* The thread body; returns NULL. Errors land in w->stats->err. */
void *worker_main(void *arg);

#endif
