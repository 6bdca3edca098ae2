// SPDX-License-Identifier: MIT
/*
 * cpuio: no I/O, CPU load. Each request keeps the CPU busy for
 * cpuchunks µs and completes having moved nothing (0 bytes: the report
 * counts the requests and no data, as fio's does); its plan makes the
 * idle part a thinktime after every request, so that the busy share of
 * the time is cpuload percent. cpumode=noop spins reading the clock;
 * cpumode=qsort sorts arrays of random numbers with qsort(3) until the
 * chunk is over. exit_on_io_done is run control (src/worker/runctl.c,
 * job.eng.exit_on_io_done).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "engine.h"
#include "err.h"
#include "job.h"
#include "optdef.h"

/* cpumode= */
enum cpuio_mode { CPUIO_NOOP, CPUIO_QSORT };

struct cpuio_opts {
	uint64_t cpuload;	/* % of each chunk busy; 0: unset */
	uint64_t cpuchunks;	/* µs of each busy part */
	int cpumode;		/* enum cpuio_mode */
	bool exit_on_io_done;	/* end when the I/O jobs end */
};

#define O(field) offsetof(struct cpuio_opts, field)

static const struct opt_choice cpumode_choices[] = {
	{ "noop", CPUIO_NOOP, "a loop that only reads the clock" },
	{ "qsort", CPUIO_QSORT, "sorting an array of random numbers "
	  "with qsort(3)" },
	{ NULL, 0, NULL },
};

static const struct opt_def cpuio_options[] = {
	{ .name = "cpuload", .type = OPT_UINT, .off = O(cpuload),
	  .def = "0", .min = 0, .max = UINT32_MAX, .category = "engine",
	  .help = "cpuio: percent of the time busy on the CPU (over 100: "
		  "100); needed by cpuio" },
	{ .name = "cpuchunks", .type = OPT_UINT, .off = O(cpuchunks),
	  .def = "50000", .min = 1, .max = UINT32_MAX, .category = "engine",
	  .help = "cpuio: microseconds of each busy part; the idle part "
		  "follows in proportion" },
	{ .name = "cpumode", .type = OPT_ENUM, .off = O(cpumode),
	  .def = "noop", .choices = cpumode_choices, .category = "engine",
	  .help = "cpuio: what the busy part does" },
	{ .name = "exit_on_io_done", .type = OPT_BOOL,
	  .off = O(exit_on_io_done), .def = "0", .category = "engine",
	  .help = "cpuio: end when every job of the group that does I/O "
		  "has ended" },
	{ .name = NULL },
};

/* 16 Ki numbers (64 KiB): a pass takes about a millisecond. */
#define CPUIO_SORT_N (16u << 10)

struct cpuio {
	uint64_t chunk_ns;
	int mode;
	uint32_t seed;
	int32_t *arr;
};

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

static void sort_pass(struct cpuio *c)
{
	uint32_t i, x = c->seed;

	for (i = 0; i < CPUIO_SORT_N; i++) {
		/* xorshift32: the numbers need only be unsorted */
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		c->arr[i] = (int32_t)x;
	}
	c->seed = x;
	qsort(c->arr, CPUIO_SORT_N, sizeof(*c->arr), cmp_i32);
}

static int cpuio_init(struct engine_ctx *ctx)
{
	const struct cpuio_opts *o = ctx->eo;
	struct cpuio *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->chunk_ns = o->cpuchunks * 1000;
	c->mode = o->cpumode;
	c->seed = 2463534242u;
	if (c->mode == CPUIO_QSORT &&
	    !(c->arr = malloc(CPUIO_SORT_N * sizeof(*c->arr)))) {
		free(c);
		return -ENOMEM;
	}
	ctx->priv = c;
	return 0;
}

/* The job is over: a signal, its runtime, exitall. */
static bool cut(const struct engine_ctx *ctx)
{
	return (ctx->stop && atomic_load_explicit(ctx->stop,
						  memory_order_relaxed)) ||
	       (ctx->halt && atomic_load_explicit(ctx->halt,
						  memory_order_relaxed)) ||
	       (ctx->deadline && clock_ticks(ctx->clk) >= *ctx->deadline);
}

/*
 * One chunk, cut short when the job is over: a chunk may be long
 * (cpuchunks is up to 2^32 µs, 71 minutes), and a signal or the
 * runtime must end the job within a pass (a qsort pass is about a
 * millisecond).
 */
static int cpuio_queue(struct engine_ctx *ctx, struct io_req *req)
{
	struct cpuio *c = ctx->priv;
	uint64_t end = clock_mono_ns() + c->chunk_ns;

	do {
		if (c->mode == CPUIO_QSORT)
			sort_pass(c);
	} while (clock_mono_ns() < end && !cut(ctx));
	/* Nothing moved, and none was asked for: not a short I/O. */
	req->len = 0;
	req->res = 0;
	req->t_done = clock_ticks(ctx->clk);
	return ENGINE_DONE;
}

static void cpuio_exit(struct engine_ctx *ctx)
{
	struct cpuio *c = ctx->priv;

	if (c)
		free(c->arr);
	free(c);
	ctx->priv = NULL;
}

/*
 * fio's meaning of the job: cpuload= is needed; each request is cpuchunks
 * µs busy, then the idle part (thinktime after every I/O) is cpuchunks *
 * (100 - cpuload) / cpuload; a runtime makes the job time_based, as fio
 * runs a cpuio job for its runtime.
 */
static int cpuio_plan(struct job *j, struct warn_list *w, struct err_rec *e)
{
	const struct cpuio_opts *o = j->eng.eopts;
	uint64_t load;

	if (!o->cpuload) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"cpuload",
			"ioengine=cpuio needs cpuload=, the percent of the "
			"time to keep the CPU busy (1 to 100)");
		return -EINVAL;
	}
	load = o->cpuload > 100 ? 100 : o->cpuload;	/* fio's cap */
	j->time.thinktime_ns = o->cpuchunks * 1000 * (100 - load) / load;
	j->time.thinktime_spin_ns = 0;
	j->time.thinktime_blocks = 1;
	j->time.thinktime_blocks_type = THINK_COMPLETE;
	if (j->time.runtime_ns)
		j->time.time_based = true;
	j->eng.exit_on_io_done = o->exit_on_io_done;
	return 0;
}

const struct engine_ops engine_cpuio = {
	.name = "cpuio",
	.help = "no I/O: cpuload percent of the time busy on the CPU",
	.flags = ENGINE_SYNC | ENGINE_NOIO | ENGINE_NODATA | ENGINE_NOT_IO,
	.options = cpuio_options,
	.options_size = sizeof(struct cpuio_opts),
	.plan = cpuio_plan,
	.init = cpuio_init,
	.queue = cpuio_queue,
	.exit = cpuio_exit,
};
