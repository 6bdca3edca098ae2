// SPDX-License-Identifier: MIT
/*
 * fio's built-in profiles. tiobench: four jobs in turn (sequential write,
 * random write, sequential read, random read) over four files, direct,
 * synchronous, with fio 3.33's names, options and order. act: Aerospike's
 * certification load (rate-limited small random reads, large random
 * writes) on each device, with fio's table of the share of I/Os over 1, 8
 * and 64 ms in each hour of the run and its PASSED/FAILED verdict.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile.h"
#include "profile.h"
#include "value.h"

#define NS_PER_S 1000000000ull

static int add_word(struct profile_words *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int add_word(struct profile_words *w, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 32;
		char **nw = realloc(w->w, cap * sizeof(*nw));

		if (!nw)
			return -ENOMEM;
		w->w = nw;
		w->cap = cap;
	}
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	w->w[w->n++] = s;
	return 0;
}

void profile_words_free(struct profile_words *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		free(w->w[i]);
	free(w->w);
	memset(w, 0, sizeof(*w));
}

/* ---- tiobench ---- */

enum { TB_SIZE, TB_BLOCK, TB_NUMRUNS, TB_DIR, TB_THREADS };

static const struct profile_opt tiobench_opts[] = {
	[TB_SIZE] = { "size", PROF_UINT, NULL, 1, UINT64_MAX >> 20,
		      "Total size of the four files in MiB, a bare number "
		      "(default: 4 KiB per MiB of memory, $mb_memory)", false },
	[TB_BLOCK] = { "block", PROF_SIZE, "4096", 1, UINT32_MAX,
		       "Block size of every I/O (bytes; k, m suffixes)",
		       false },
	[TB_NUMRUNS] = { "numruns", PROF_UINT, "1", 1, UINT32_MAX,
			 "Times each job runs over the files (its loops=)",
			 false },
	[TB_DIR] = { "dir", PROF_STR, "./", 0, 0,
		     "Directory of the four files .fio.tio.1 to .fio.tio.4",
		     false },
	[TB_THREADS] = { "threads", PROF_UINT, "1", 1, 4096,
			 "Threads of each job (its numjobs=)", false },
	{ NULL, PROF_UINT, NULL, 0, 0, NULL, false },
};

static const char *val_or_def(const char *const *vals, int i)
{
	return vals[i] ? vals[i] : tiobench_opts[i].def;
}

/* Values were checked (profile_check); sizes go as fio would give them. */
static int tiobench_expand(const char *const *vals, struct profile_words *w)
{
	static const char *const jobs[] = {
		"name=seqwrite", "rw=write", "end_fsync=1",
		"name=randwrite", "stonewall", "rw=randwrite", "end_fsync=1",
		"name=seqread", "stonewall", "rw=read",
		"name=randread", "stonewall", "rw=randread", NULL,
	};
	const char *const *j;
	uint64_t mib = 0, bs = 4096;
	char why[128], mem[32];
	int ret;

	if (vals[TB_SIZE] && value_uint(vals[TB_SIZE], 1, UINT64_MAX >> 20,
					&mib, why, sizeof(why)))
		return -EINVAL;
	if (value_size(val_or_def(vals, TB_BLOCK), 1024, &bs, why,
		       sizeof(why)))
		return -EINVAL;
	/* fio's default, 4*1024*$mb_memory, worked out as fio shows it */
	if (!mib && (jobfile_expand("$mb_memory", mem, sizeof(mem), why,
				    sizeof(why)) ||
		     value_uint(mem, 1, UINT64_MAX >> 20, &mib, why,
				sizeof(why))))
		return -EINVAL;
	ret = add_word(w, "buffered=0");
	ret = ret ? ret : add_word(w, "size=%" PRIu64, vals[TB_SIZE] ?
				   mib << 20 : mib << 12);
	ret = ret ? ret : add_word(w, "bs=%" PRIu64, bs);
	ret = ret ? ret : add_word(w, "loops=%s", val_or_def(vals, TB_NUMRUNS));
	ret = ret ? ret : add_word(w, "directory=%s", val_or_def(vals, TB_DIR));
	ret = ret ? ret : add_word(w, "numjobs=%s",
				   val_or_def(vals, TB_THREADS));
	ret = ret ? ret : add_word(w, "timeout=600");
	ret = ret ? ret : add_word(w, "group_reporting");
	ret = ret ? ret : add_word(w, "thread");
	ret = ret ? ret : add_word(w, "overwrite=1");
	ret = ret ? ret : add_word(w, "filename=.fio.tio.1:.fio.tio.2:"
				   ".fio.tio.3:.fio.tio.4");
	ret = ret ? ret : add_word(w, "ioengine=sync");
	for (j = jobs; !ret && *j; j++)
		ret = add_word(w, "%s", *j);
	return ret;
}

/* ---- act ---- */

enum { ACT_DEVS, ACT_LOAD, ACT_DURATION, ACT_TPQ, ACT_RBLOCKS, ACT_WSIZE,
       ACT_PREP };

static const struct profile_opt act_opts[] = {
	[ACT_DEVS] = { "device-names", PROF_STR, NULL, 0, 0,
		       "Devices (or files) to test, comma-separated; needed",
		       true },
	[ACT_LOAD] = { "load", PROF_UINT, "1", 1, 1000000,
		       "Multiple of ACT's load a device: 2000 reads a second, "
		       "and large-block writes worth 1000 reads' bytes",
		       false },
	[ACT_DURATION] = { "test-duration", PROF_TIME, "24h", 1, 366 * 86400,
			   "Length of the test (a bare number is seconds); "
			   "judged per hour", false },
	[ACT_TPQ] = { "threads-per-queue", PROF_UINT, "8", 1, 4096,
		      "Reading threads per device (its numjobs=)", false },
	[ACT_RBLOCKS] = { "read-req-num-512-blocks", PROF_UINT, "3", 1,
			  UINT32_MAX / 512,
			  "Size of a read in 512-byte blocks", false },
	[ACT_WSIZE] = { "large-block-op-kbytes", PROF_UINT, "131072", 512,
			UINT32_MAX,
			"Size of a write in bytes, despite the name (as fio "
			"uses it: the default is 128 KiB); at least a read",
			false },
	[ACT_PREP] = { "prep", PROF_FLAG, NULL, 0, 0,
		       "Prepare the devices instead (no table): zeros in "
		       "1 MiB writes, then 4 KiB random writes at depth 64",
		       false },
	{ NULL, PROF_UINT, NULL, 0, 0, NULL, false },
};

/* ACT's load at 1x: reads and large-block writes a second. */
#define ACT_READS	2000
#define ACT_WRITES	1000

static uint64_t act_num(const char *const *vals, int i)
{
	uint64_t u = 0;
	char why[128];

	if (i == ACT_DURATION) {
		value_time(vals[i] ? vals[i] : act_opts[i].def, NS_PER_S, &u,
			   why, sizeof(why));
		return u / NS_PER_S;
	}
	value_uint(vals[i] ? vals[i] : act_opts[i].def, 0, UINT64_MAX, &u,
		   why, sizeof(why));
	return u;
}

/* One device's jobs: fio's words, in its order. */
static int act_dev(const char *const *vals, const char *dev,
		   struct profile_words *w)
{
	uint64_t load = act_num(vals, ACT_LOAD), tpq = act_num(vals, ACT_TPQ);
	uint64_t rbs = act_num(vals, ACT_RBLOCKS) * 512;
	uint64_t wbs = act_num(vals, ACT_WSIZE);
	uint64_t per = wbs / rbs;	/* profile_check: at least 1 */
	int ret;

	if (vals[ACT_PREP]) {
		ret = add_word(w, "name=act-prep-zeroes-%s", dev);
		ret = ret ? ret : add_word(w, "filename=%s", dev);
		ret = ret ? ret : add_word(w, "bs=1048576");
		ret = ret ? ret : add_word(w, "zero_buffers");
		ret = ret ? ret : add_word(w, "rw=write");
		ret = ret ? ret : add_word(w, "name=act-prep-salt-%s", dev);
		ret = ret ? ret : add_word(w, "stonewall");
		ret = ret ? ret : add_word(w, "filename=%s", dev);
		ret = ret ? ret : add_word(w, "bs=4096");
		ret = ret ? ret : add_word(w, "ioengine=libaio");
		ret = ret ? ret : add_word(w, "iodepth=64");
		return ret ? ret : add_word(w, "rw=randwrite");
	}
	ret = add_word(w, "runtime=%" PRIu64 "s", act_num(vals, ACT_DURATION));
	ret = ret ? ret : add_word(w, "time_based=1");
	ret = ret ? ret : add_word(w, "name=act-read-%s", dev);
	ret = ret ? ret : add_word(w, "filename=%s", dev);
	ret = ret ? ret : add_word(w, "rw=randread");
	ret = ret ? ret : add_word(w, "numjobs=%" PRIu64, tpq);
	ret = ret ? ret : add_word(w, "rate_iops=%" PRIu64,
				   load * ACT_READS / tpq);
	ret = ret ? ret : add_word(w, "bs=%" PRIu64, rbs);
	ret = ret ? ret : add_word(w, "name=act-write-%s", dev);
	ret = ret ? ret : add_word(w, "filename=%s", dev);
	ret = ret ? ret : add_word(w, "rw=randwrite");
	ret = ret ? ret : add_word(w, "rate_iops=%" PRIu64,
				   (load * ACT_WRITES + per - 1) / per);
	return ret ? ret : add_word(w, "bs=%" PRIu64, wbs);
}

static int act_expand(const char *const *vals, struct profile_words *w)
{
	const char *p = vals[ACT_DEVS], *end;
	char dev[4096];
	int ret;

	ret = add_word(w, "direct=1");
	ret = ret ? ret : add_word(w, "ioengine=sync");
	ret = ret ? ret : add_word(w, "random_generator=lfsr");
	ret = ret ? ret : add_word(w, "group_reporting=1");
	ret = ret ? ret : add_word(w, "thread");
	while (!ret && p) {
		end = strchr(p, ',');
		snprintf(dev, sizeof(dev), "%.*s", end ? (int)(end - p) :
			 (int)strlen(p), p);
		ret = act_dev(vals, dev, w);
		p = end ? end + 1 : NULL;
	}
	return ret;
}

bool profile_tallies(const struct profile *p, const char *const *vals)
{
	/* act's prep passes are not judged */
	return p->tally && !(p->opts == act_opts && vals[ACT_PREP]);
}

struct act_tally *act_tally_new(const char *const *vals)
{
	return act_tally_alloc(act_num(vals, ACT_DURATION));
}

static const struct profile profiles[] = {
	{ "tiobench", "tiotest/tiobench's four jobs: sequential and random "
	  "writes, then reads", tiobench_opts, tiobench_expand, false },
	{ "act", "Aerospike's ACT load on devices, judged by the share of "
	  "I/Os over 1, 8 and 64 ms per hour", act_opts, act_expand, true },
	{ NULL, NULL, NULL, NULL, false },
};

const struct profile *profile_find(const char *name)
{
	const struct profile *p;

	for (p = profiles; name && p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

const char *profile_names(void)
{
	return "tiobench or act";
}

int profile_opt_index(const struct profile *p, const char *name, size_t len)
{
	int i;

	for (i = 0; p && p->opts[i].name; i++)
		if (strlen(p->opts[i].name) == len &&
		    !strncmp(p->opts[i].name, name, len))
			return i;
	return -1;
}

const struct profile *profile_owning(const char *name, size_t len)
{
	const struct profile *p;

	for (p = profiles; p->name; p++)
		if (profile_opt_index(p, name, len) >= 0)
			return p;
	return NULL;
}

int profile_check(const struct profile *p, int i, const char *val, char *why,
		  size_t whylen)
{
	const struct profile_opt *o = &p->opts[i];
	uint64_t u;
	bool on;
	int ret = 0;

	if (!val || !*val) {
		snprintf(why, whylen, "needs a value: --%s=%s", o->name,
			 o->type == PROF_STR ? "TEXT" : "N");
		return -EINVAL;
	}
	if (o->type == PROF_FLAG)
		return value_bool(val, &on, why, whylen) ? -EINVAL : 0;
	if (o->type == PROF_TIME) {
		ret = value_time(val, NS_PER_S, &u, why, whylen);
		if (!ret && (u % NS_PER_S || u / NS_PER_S < o->min ||
			     u / NS_PER_S > o->max)) {
			snprintf(why, whylen, "'%s' is out of range; expected "
				 "whole seconds from %" PRIu64 "s to %" PRIu64
				 "s", val, o->min, o->max);
			ret = -EINVAL;
		}
	}
	if (o->type == PROF_UINT)
		ret = value_uint(val, o->min, o->max, &u, why, whylen);
	else if (o->type == PROF_SIZE)
		ret = value_size(val, 1024, &u, why, whylen);
	if (!ret && o->type == PROF_SIZE && (u < o->min || u > o->max)) {
		snprintf(why, whylen, "'%s' is out of range; expected %" PRIu64
			 " to %" PRIu64 " bytes", val, o->min, o->max);
		ret = -EINVAL;
	}
	/* fio multiplies any size value by 1 MiB: 4m would be 4 TiB. */
	if (ret && p->opts == tiobench_opts && i == TB_SIZE) {
		snprintf(why, whylen, "'%s' is not a number of MiB; expected a "
			 "bare number from 1 (tiobench's size is in MiB: "
			 "--size=4 is 4 MiB)", val);
	}
	return ret ? -EINVAL : 0;
}

int profile_check_form(const struct profile *p, int i, const char *val,
		       char *why, size_t whylen)
{
	const struct profile_opt *o = &p->opts[i];
	uint64_t u;
	bool on;

	if (o->type == PROF_FLAG)	/* bare, or a boolean */
		return val && *val && value_bool(val, &on, why, whylen) ?
		       -EINVAL : 0;
	if (!val || !*val) {
		snprintf(why, whylen, "needs a value (%s=%s), as fio reads "
			 "this option of its %s profile", o->name,
			 o->type == PROF_STR ? "TEXT" : "N", p->name);
		return -EINVAL;
	}
	if (o->type == PROF_UINT)	/* fio reads a signed integer */
		return value_uint(val + (*val == '-'), 0, UINT64_MAX, &u, why,
				  whylen) ? -EINVAL : 0;
	if (o->type == PROF_SIZE)
		return value_size(val, 1024, &u, why, whylen) ? -EINVAL : 0;
	if (o->type == PROF_TIME)
		return value_time(val, NS_PER_S, &u, why, whylen) ? -EINVAL :
		       0;
	return 0;
}

int profile_validate(const struct profile *p, const char *const *vals,
		     const char **opt, char *why, size_t whylen)
{
	int i;

	for (i = 0; p->opts[i].name; i++) {
		if (!p->opts[i].required || vals[i])
			continue;
		*opt = p->opts[i].name;
		snprintf(why, whylen, "--profile=%s needs --%s", p->name,
			 p->opts[i].name);
		return -EINVAL;
	}
	if (p->opts == act_opts && act_num(vals, ACT_WSIZE) <
	    act_num(vals, ACT_RBLOCKS) * 512) {
		*opt = act_opts[ACT_WSIZE].name;
		snprintf(why, whylen, "--profile=act: a write (%" PRIu64
			 " bytes) smaller than a read (%" PRIu64 " bytes); "
			 "expected at least a read", act_num(vals, ACT_WSIZE),
			 act_num(vals, ACT_RBLOCKS) * 512);
		return -EINVAL;
	}
	return 0;
}

int profile_expand(const struct profile *p, const char *const *vals,
		   struct profile_words *out)
{
	int ret = p->expand ? p->expand(vals, out) : -EINVAL;

	if (ret)
		profile_words_free(out);
	return ret;
}

static const char *type_name(const struct profile_opt *o)
{
	return o->type == PROF_STR ? "text" : o->type == PROF_SIZE ?
	       "size (bytes, k m g suffixes)" : o->type == PROF_TIME ?
	       "time (s when no unit is given)" : o->type == PROF_FLAG ?
	       "flag (no value, or a boolean)" : "integer";
}

int profile_print_cmdhelp(FILE *f, const struct profile *p, const char *opt)
{
	const struct profile_opt *o;
	int i;

	if (!opt || !*opt || !strcmp(opt, "all")) {
		for (o = p->opts; o->name; o++)
			fprintf(f, "%-24s: %s\n", o->name, o->help);
		return 0;
	}
	i = profile_opt_index(p, opt, strlen(opt));
	if (i < 0)
		return -ENOENT;
	o = &p->opts[i];
	fprintf(f, "%s\n", o->name);
	fprintf(f, "  type:     %s\n", type_name(o));
	fprintf(f, "  default:  %s\n", o->def ? o->def : "(none)");
	if (o->type == PROF_UINT || o->type == PROF_SIZE)
		fprintf(f, "  range:    %" PRIu64 " to %" PRIu64 "\n", o->min,
			o->max);
	if (o->type == PROF_TIME)
		fprintf(f, "  range:    %" PRIu64 "s to %" PRIu64 "s\n", o->min,
			o->max);
	if (o->required)
		fprintf(f, "  needed:   yes\n");
	fprintf(f, "  profile:  %s only (--profile=%s: %s)\n", p->name,
		p->name, p->desc);
	fprintf(f, "  %s\n", o->help);
	return 0;
}
