// SPDX-License-Identifier: MIT
/*
 * fio's built-in profiles. tiobench: four jobs in turn (sequential write,
 * random write, sequential read, random read) over four files, direct,
 * synchronous, with fio 3.33's names, options and order. act (Aerospike's
 * certification load) is refused: its pass/fail report of latency
 * buckets per hour is not here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "jobfile.h"
#include "profile.h"
#include "value.h"

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
		      "(default: 4 KiB per MiB of memory, $mb_memory)" },
	[TB_BLOCK] = { "block", PROF_SIZE, "4096", 1, UINT32_MAX,
		       "Block size of every I/O (bytes; k, m suffixes)" },
	[TB_NUMRUNS] = { "numruns", PROF_UINT, "1", 1, UINT32_MAX,
			 "Times each job runs over the files (its loops=)" },
	[TB_DIR] = { "dir", PROF_STR, "./", 0, 0,
		     "Directory of the four files .fio.tio.1 to .fio.tio.4" },
	[TB_THREADS] = { "threads", PROF_UINT, "1", 1, 4096,
			 "Threads of each job (its numjobs=)" },
	{ NULL, PROF_UINT, NULL, 0, 0, NULL },
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
	ret = ret ? ret : add_word(w, "numjobs=%s", val_or_def(vals, TB_THREADS));
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

static const struct profile_opt act_opts[] = {
	{ "device-names", PROF_STR, NULL, 0, 0,
	  "Devices to test, comma-separated" },
	{ "load", PROF_UINT, "1", 0, UINT32_MAX, "Multiple of ACT's load" },
	{ "test-duration", PROF_STR, "24h", 0, 0, "Length of the test" },
	{ "threads-per-queue", PROF_UINT, "8", 0, UINT32_MAX,
	  "Reading threads per device" },
	{ "read-req-num-512-blocks", PROF_UINT, "3", 0, UINT32_MAX,
	  "Size of a read in 512-byte blocks" },
	{ "large-block-op-kbytes", PROF_UINT, "131072", 0, UINT32_MAX,
	  "Size of a write in KiB" },
	{ "prep", PROF_STR, NULL, 0, 0, "Run ACT's preparation instead" },
	{ NULL, PROF_UINT, NULL, 0, 0, NULL },
};

static const struct profile profiles[] = {
	{ "tiobench", "tiotest/tiobench's four jobs: sequential and random "
	  "writes, then reads", NULL, tiobench_opts, tiobench_expand },
	{ "act", "Aerospike's ACT load on devices, judged by its latency "
	  "thresholds", "fio's ACT profile judges a run by the share of "
	  "I/Os over 1, 8 and 64 ms in each hour, a report iorig does not "
	  "make; write its jobs out (randread and randwrite jobs with "
	  "rate_iops, direct=1, per device) and judge them with "
	  "--check on clat percentiles", act_opts, NULL },
	{ NULL, NULL, NULL, NULL, NULL },
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
	int ret = 0;

	if (!val || !*val) {
		snprintf(why, whylen, "needs a value: --%s=%s", o->name,
			 o->type == PROF_STR ? "TEXT" : "N");
		return -EINVAL;
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
	       "size (bytes, k m g suffixes)" : "integer";
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
	if (o->type != PROF_STR)
		fprintf(f, "  range:    %" PRIu64 " to %" PRIu64 "\n", o->min,
			o->max);
	fprintf(f, "  profile:  %s only (--profile=%s)\n", p->name, p->name);
	fprintf(f, "  %s\n", o->help);
	return 0;
}
