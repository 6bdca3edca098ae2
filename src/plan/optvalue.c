// SPDX-License-Identifier: MIT
/*
 * The setters of options whose value needs more than its type's parser:
 * each checks the value (a CPU list, a bssplit, a steady-state criterion,
 * a pattern...) and stores it in the job, with the reason in why when it
 * is refused. The rows of optable.c name them; options.c calls them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cgroup.h"
#include "check_expr.h"
#include "cpuset.h"
#include "dist.h"
#include "engine.h"
#include "fill.h"
#include "gen.h"
#include "iosched.h"
#include "optint.h"
#include "options.h"
#include "path.h"
#include "procattr.h"
#include "profile.h"
#include "steady.h"
#include "value.h"
#include "verify.h"

#define NS_S	1000000000ull
#define F(field) offsetof(struct job, field)

static void *memdup(const void *p, size_t len)
{
	void *copy = malloc(len);

	if (copy)
		memcpy(copy, p, len);
	return copy;
}

/* n bytes of p as a job_bytes of one reference; NULL: no memory. */
static struct job_bytes *bytes_new(const uint8_t *p, size_t n)
{
	struct job_bytes *b = malloc(sizeof(*b) + n);

	if (!b)
		return NULL;
	atomic_init(&b->refs, 1);
	b->len = n;
	memcpy(b->data, p, n);
	return b;
}

static struct job_bytes *bytes_ref(struct job_bytes *b)
{
	if (b)
		atomic_fetch_add(&b->refs, 1);
	return b;
}

static void bytes_put(struct job_bytes **b)
{
	if (*b && atomic_fetch_sub(&(*b)->refs, 1) == 1)
		free(*b);
	*b = NULL;
}

/* Each parsed value dst owns: NULL first, so that job_free is safe at
 * any failure; then a copy of src's. */
int optvalue_copy(struct job *dst, const struct job *src)
{
	dst->io.bss = NULL;
	dst->rnd.dist = NULL;
	if (src->io.bss &&
	    !(dst->io.bss = memdup(src->io.bss, sizeof(*src->io.bss))))
		return -ENOMEM;
	dst->eng.mem_file = NULL;
	dst->buf.buffer_pat = bytes_ref(src->buf.buffer_pat);
	dst->vfy.verify_pat = bytes_ref(src->vfy.verify_pat);
	if (src->rnd.dist &&
	    !(dst->rnd.dist = memdup(src->rnd.dist, sizeof(*src->rnd.dist))))
		return -ENOMEM;
	if (src->eng.mem_file &&
	    !(dst->eng.mem_file = strdup(src->eng.mem_file)))
		return -ENOMEM;
	return 0;
}

void optvalue_free(struct job *j)
{
	free(j->io.bss);
	j->io.bss = NULL;
	free(j->rnd.dist);
	j->rnd.dist = NULL;
	bytes_put(&j->buf.buffer_pat);
	bytes_put(&j->vfy.verify_pat);
	free(j->eng.mem_file);
	j->eng.mem_file = NULL;
}

int optvalue_nice(struct job *j, const struct opt_def *o, const char *val,
		  char *why, size_t whylen)
{
	int n;
	int ret = procattr_nice_parse(val, &n, why, whylen);

	if (!ret)
		ret = set_str(field(j, o->off), val);
	if (!ret)
		j->cpu.nice_inc = n;
	return ret;
}

int optvalue_ioscheduler(struct job *j, const struct opt_def *o,
			 const char *val, char *why, size_t whylen)
{
	int ret = iosched_name_ok(val, why, whylen);

	return ret ? ret : set_str(field(j, o->off), val);
}

int optvalue_cgroup(struct job *j, const struct opt_def *o, const char *val,
		    char *why, size_t whylen)
{
	int ret = cgroup_name_ok(val, why, whylen);

	return ret ? ret : set_str(field(j, o->off), val);
}

/* Parsed once into j->cache.sfr_flags and j->cache.sfr_nr, which the worker's
 * syncs read; the text for --parse-only. */
int optvalue_sync_file_range(struct job *j, const struct opt_def *o,
			     const char *val, char *why, size_t whylen)
{
	unsigned flags;
	uint64_t nr;
	int ret = procattr_sfr_parse(val, &flags, &nr, why, whylen);

	if (!ret)
		ret = set_str(field(j, o->off), val);
	if (!ret) {
		j->cache.sfr_flags = flags;
		j->cache.sfr_nr = nr;
	}
	return ret;
}

/* The kernel's value into j->cache.write_hint_rwh, which the worker's hints
 * set on each file; the word for --parse-only. */
int optvalue_write_hint(struct job *j, const struct opt_def *o, const char *val,
			char *why, size_t whylen)
{
	int rwh = procattr_write_hint(val);
	int ret;

	if (rwh < 0) {
		snprintf(why, whylen, "expected none, short, medium, long or "
			 "extreme");
		return -EINVAL;
	}
	ret = set_str(field(j, o->off), val);
	if (!ret)
		j->cache.write_hint_rwh = (uint64_t)rwh;
	return ret;
}

/* numa_cpu_nodes=, numa_mem_policy=: parsed once into the job's masks
 * and mode, which the worker's thread applies (procattr_apply). */
int optvalue_numa_cpu_nodes(struct job *j, const struct opt_def *o,
			    const char *val, char *why, size_t whylen)
{
	uint64_t mask;
	int ret = procattr_nodes_parse(val, &mask, why, whylen);

	if (!ret)
		ret = set_str(field(j, o->off), val);
	if (!ret)
		j->cpu.numa_cpu_mask = mask;
	return ret;
}

int optvalue_numa_mem_policy(struct job *j, const struct opt_def *o,
			     const char *val, char *why, size_t whylen)
{
	uint64_t mask;
	int mode;
	int ret = procattr_mempolicy_parse(val, &mode, &mask, why, whylen);

	if (!ret)
		ret = set_str(field(j, o->off), val);
	if (!ret) {
		j->cpu.numa_mpol_mode = mode;
		j->cpu.numa_mpol_mask = mask;
	}
	return ret;
}

int optvalue_mem(struct job *j, const struct opt_def *o, const char *val,
		 char *why, size_t whylen)
{
	enum mem_type t;
	const char *file;
	char *copy = NULL;
	int ret = procattr_mem_parse(val, &t, &file, why, whylen);

	if (ret)
		return ret;
	if ((file && !(copy = strdup(file))) ||
	    set_str(field(j, o->off), val)) {
		free(copy);
		return -ENOMEM;
	}
	free(j->eng.mem_file);
	j->eng.mem_file = copy;
	j->eng.mem_kind = (int)t;
	return 0;
}

int optvalue_ioengine(struct job *j, const struct opt_def *o, const char *val,
		      char *why, size_t whylen)
{
	const struct engine_ops *const *e;
	const struct engine_ops *eng = engine_find(val);
	size_t n = 0;
	char *copy;
	int ret;

	if (eng) {
		if (eng != j->eng.engine &&
		    (ret = engopts_switch(j, eng, why, whylen)))
			return ret;
		copy = strdup(eng->name);
		if (!copy)
			return -ENOMEM;
		free(j->eng.ioengine);
		j->eng.ioengine = copy;
		return 0;
	}
	if (engine_needs(val)) {
		snprintf(why, whylen, "engine '%s' needs %s, which iorig does "
			 "not have; run this job with a fio built with it",
			 val, engine_needs(val));
		return -EINVAL;
	}
	n += snprintf(why, whylen, "unknown engine '%s'; expected one of:",
		      val);
	for (e = engine_list(); *e && n < whylen; e++)
		n += snprintf(why + n, whylen - n, " %s", (*e)->name);
	return -EINVAL;
}

/*
 * Parsed once here into j->vfy.verify_pat, the data verify/block.c writes
 * and checks. As in fio, it makes verify=pattern of a job whose verify=
 * was not given (so far: a verify= after it still wins).
 */
int optvalue_verify_pattern(struct job *j, const struct opt_def *o,
			    const char *val, char *why, size_t whylen)
{
	uint8_t bytes[VERIFY_PATTERN_MAX];
	struct job_bytes *b;
	int n;

	(void)o;
	n = verify_pattern_parse(val, bytes, why, whylen);
	if (n < 0)
		return n;
	b = bytes_new(bytes, (size_t)n);
	if (!b || set_str(&j->vfy.verify_pattern, val)) {
		bytes_put(&b);
		return -ENOMEM;
	}
	bytes_put(&j->vfy.verify_pat);
	j->vfy.verify_pat = b;
	if (!j->vfy.verify_set)
		j->vfy.verify = VERIFY_PATTERN;
	return 0;
}

/* replay_skip=read,write,trim,sync */
int optvalue_replay_skip(struct job *j, const struct opt_def *o,
			 const char *val, char *why, size_t whylen)
{
	static const char *const names[] = { "read", "write", "trim", "sync" };
	const char *p = val;
	unsigned bits = 0, i;
	size_t len;

	for (;;) {
		len = strcspn(p, ",");
		for (i = 0; i < 4; i++)
			if (strlen(names[i]) == len && !strncmp(p, names[i], len))
				break;
		if (i == 4) {
			snprintf(why, whylen, "'%.*s': expected read, write, "
				 "trim or sync, separated by commas", (int)len,
				 p);
			return -EINVAL;
		}
		bits |= 1u << i;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (set_str(field(j, o->off), val))
		return -ENOMEM;
	j->logs.replay_skip = bits;
	return 0;
}

/* ignore_error=READ,WRITE,VERIFY: a list given turns its direction of
 * continue_on_error on, as in fio (errlist.h). */
int optvalue_ignore_error(struct job *j, const struct opt_def *o,
			  const char *val, char *why, size_t whylen)
{
	static const int bit[ERRLIST_TYPES] = { COE_READ, COE_WRITE,
						COE_VERIFY };
	struct errlist l;
	unsigned t;
	int ret;

	ret = errlist_parse(val, &l, why, whylen);
	if (!ret)
		ret = set_str(field(j, o->off), val);
	if (ret)
		return ret;
	j->err.ignore_errors = l;
	for (t = 0; t < ERRLIST_TYPES; t++)
		if (l.n[t])
			j->err.continue_on_error |= bit[t];
	return 0;
}

/* max_latency=TIME[,TIME[,TIME]]: read,write,trim; bare numbers are us */
int optvalue_max_latency(struct job *j, const struct opt_def *o,
			 const char *val, char *why, size_t whylen)
{
	char parts[3][128];
	uint64_t ns[DDIR_NR];
	int n, d, ret;

	n = value_split_rw(val, false, parts, why, whylen);
	if (n < 0)
		return n;
	for (d = 0; d < DDIR_NR; d++)
		if ((ret = value_time(parts[d], 1000, &ns[d], why, whylen)))
			return ret;
	ret = set_str(field(j, o->off), val);
	if (!ret)
		memcpy(j->err.max_latency_ns, ns, sizeof(ns));
	return ret;
}

/*
 * filesize=SIZE: every file of the job is this big; a range LO-HI: each
 * file a size drawn in it (target.c, filesize_draw).
 */
int optvalue_filesize(struct job *j, const struct opt_def *o, const char *val,
		      char *why, size_t whylen)
{
	uint64_t lo, hi;
	char *copy;
	int ret;

	(void)o;
	ret = value_size_range(val, (unsigned)j->report.kb_base, &lo, &hi, why,
			       whylen);
	if (ret)
		return ret;
	copy = strdup(val);
	if (!copy)
		return -ENOMEM;
	free(j->target.filesize);
	j->target.filesize = copy;
	j->target.filesize_min = lo;
	j->target.filesize_max = hi;
	return 0;
}

/* fio's file_service_type; gen.h says what each kind does. */
int optvalue_file_service_type(struct job *j, const struct opt_def *o,
			       const char *val, char *why, size_t whylen)
{
	static const struct { const char *name; int kind; } k[] = {
		{ "roundrobin", GEN_FST_RR }, { "sequential", GEN_FST_SEQ },
		{ "random", GEN_FST_RANDOM }, { "zipf", GEN_FST_ZIPF },
		{ "pareto", GEN_FST_PARETO }, { "normal", GEN_FST_NORMAL },
		{ "gauss", GEN_FST_NORMAL },
	};
	const char *colon = strchr(val, ':');
	size_t i, nlen = colon ? (size_t)(colon - val) : strlen(val);
	uint64_t nr = 1;
	double param = 0, center = -1;
	struct dist_spec *d;
	char *end, *copy;
	int ret;

	(void)o;
	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if (strlen(k[i].name) == nlen && !strncmp(k[i].name, val, nlen))
			break;
	if (i == sizeof(k) / sizeof(k[0])) {
		snprintf(why, whylen, "'%s': expected roundrobin[:N], "
			 "sequential, random[:N], zipf[:THETA[:CENTER]], "
			 "pareto[:H[:CENTER]] or normal[:SIGMA[:CENTER]]", val);
		return -EINVAL;
	}
	if (k[i].kind <= GEN_FST_RANDOM && colon) {
		errno = 0;
		nr = strtoull(colon + 1, &end, 10);
		if (errno || end == colon + 1 || *end || !nr ||
		    nr > UINT32_MAX || colon[1] == '-') {
			snprintf(why, whylen, "'%s': expected a whole number "
				 "of I/Os from 1 after '%.*s:'", val,
				 (int)nlen, val);
			return -EINVAL;
		}
	} else if (k[i].kind > GEN_FST_RANDOM) {
		/* The law's parameters are random_distribution's. */
		char spec[128];

		snprintf(spec, sizeof(spec), "%s%s",
			 k[i].kind == GEN_FST_ZIPF ? "zipf" :
			 k[i].kind == GEN_FST_PARETO ? "pareto" : "normal",
			 colon ? colon : "");
		d = malloc(sizeof(*d));
		if (!d)
			return -ENOMEM;
		ret = dist_parse(spec, (unsigned)j->report.kb_base, d, why,
				 whylen);
		param = d->param;
		center = d->center;
		free(d);
		if (ret)
			return ret;
		if (k[i].kind == GEN_FST_ZIPF && param == 1.0) {
			snprintf(why, whylen, "'%s': zipf's theta must not be "
				 "1 (as fio)", val);
			return -EINVAL;
		}
	}
	copy = strdup(val);
	if (!copy)
		return -ENOMEM;
	free(j->target.file_service_type);
	j->target.file_service_type = copy;
	j->target.file_service = k[i].kind;
	j->target.file_service_nr = nr;
	j->target.file_service_param = param;
	j->target.file_service_center = center;
	return 0;
}

int optvalue_filename_format(struct job *j, const struct opt_def *o,
			     const char *val, char *why, size_t whylen)
{
	const char *p;

	for (p = strchr(val, '$'); p; p = strchr(p + 1, '$')) {
		if (path_fmt_word(p))
			continue;
		snprintf(why, whylen, "'%s': unknown word at '%.32s'; "
			 "expected $jobname, $jobnum, $filenum or $clientuid "
			 "(other text is taken as it is)", val, p);
		return -EINVAL;
	}
	if (!*val) {
		snprintf(why, whylen, "expected a file name pattern");
		return -EINVAL;
	}
	return set_str(field(j, o->off), val);
}

/* Parsed once here (a file named in it is read now): fill.c repeats
 * j->buf.buffer_pat's bytes over each write. */
int optvalue_buffer_pattern(struct job *j, const struct opt_def *o,
			    const char *val, char *why, size_t whylen)
{
	struct job_bytes *b;
	uint8_t *bytes;
	int n;

	(void)o;
	n = fill_pattern_parse(val, &bytes, why, whylen);
	if (n < 0)
		return n;
	b = bytes_new(bytes, (size_t)n);
	free(bytes);
	if (!b || set_str(&j->buf.buffer_pattern, val)) {
		bytes_put(&b);
		return -ENOMEM;
	}
	bytes_put(&j->buf.buffer_pat);
	j->buf.buffer_pat = b;
	return 0;
}

static int set_spec_str(char **dst, const char *val)
{
	char *copy = strdup(val);

	if (!copy)
		return -ENOMEM;
	free(*dst);
	*dst = copy;
	return 0;
}

/* Kept as given (NULL: not set, which zonesize's older form needs). */
int optvalue_zonemode(struct job *j, const struct opt_def *o, const char *val,
		      char *why, size_t whylen)
{
	const struct opt_choice *c = o->choices;
	int v, ret = options_choice(&v, o, val, why, whylen);

	if (ret)
		return ret;
	while (c->value != v)
		c++;
	j->io.zone_mode = v;
	return set_spec_str(&j->io.zonemode, c->name);
}

/* zone_reset_threshold=, zone_reset_frequency=: a fraction 0..1 (fio's
 * float), kept as given with its value in zrt / zrf. */
int optvalue_zone_fraction(struct job *j, const struct opt_def *o,
			   const char *val, char *why, size_t whylen)
{
	bool thr = !strcmp(o->name, "zone_reset_threshold");
	char *end;
	double v;

	errno = 0;
	v = strtod(val, &end);
	if (end == val || *end || errno || !(v >= 0.0 && v <= 1.0)) {
		snprintf(why, whylen, "expected a fraction from 0 to 1, "
			 "such as 0.5");
		return -EINVAL;
	}
	*(thr ? &j->io.zrt : &j->io.zrf) = v;
	return set_spec_str(thr ? &j->io.zone_reset_threshold :
			    &j->io.zone_reset_frequency, val);
}

/* lockfile=: fio's locks between jobs sharing a file; only none here. */
int optvalue_lockfile(struct job *j, const struct opt_def *o, const char *val,
		      char *why, size_t whylen)
{
	int v, ret = options_choice(&v, o, val, why, whylen);

	if (ret)
		return ret;
	if (v) {
		err_why(why, whylen, "'%s' is not supported yet: iorig does "
			"not lock files between the jobs that share them; "
			"expected none", val);
		return -EINVAL;
	}
	return set_spec_str(&j->target.lockfile, "none");
}

/* Parsed once here: the worker's generator reads j->dist (NULL for
 * random, the uniform law), --parse-only the text. */
int optvalue_random_distribution(struct job *j, const struct opt_def *o,
				 const char *val, char *why, size_t whylen)
{
	struct dist_spec *d = malloc(sizeof(*d));
	int ret;

	(void)o;
	if (!d)
		return -ENOMEM;
	ret = dist_parse(val, (unsigned)j->report.kb_base, d, why, whylen);
	if (!ret)
		ret = set_spec_str(&j->rnd.random_distribution, val);
	if (ret || d->kind == DIST_RANDOM) {
		free(d);
		d = NULL;
	}
	if (ret)
		return ret;
	free(j->rnd.dist);
	j->rnd.dist = d;
	return 0;
}

/* Parsed once here, with the job's kb_base (read before every other
 * option): the plan and the worker read j->io.bss; the text stays for
 * --parse-only. */
int optvalue_bssplit(struct job *j, const struct opt_def *o, const char *val,
		     char *why, size_t whylen)
{
	struct bssplit_spec *b = malloc(sizeof(*b));
	int ret;

	(void)o;
	if (!b)
		return -ENOMEM;
	ret = bssplit_parse(val, (unsigned)j->report.kb_base, b, why, whylen);
	if (!ret)
		ret = set_spec_str(&j->io.bssplit, val);
	if (ret) {
		free(b);
		return ret;
	}
	free(j->io.bss);
	j->io.bss = b;
	return 0;
}

/* Check one expression (check.c) and append it to the job's checks. */
int optvalue_check(struct job *j, const struct opt_def *o, const char *val,
		   char *why, size_t whylen)
{
	struct check_expr x;
	char *joined;
	int ret;

	if (strchr(val, ';')) {
		snprintf(why, whylen, "'%s': one check per check= line; ';' "
			 "is not part of a check", val);
		return -EINVAL;
	}
	ret = check_parse(val, (unsigned)j->report.kb_base, &x, why, whylen);
	if (ret)
		return ret;
	if (asprintf(&joined, "%s%s%s", j->runs.check ? j->runs.check : "",
		     j->runs.check ? ";" : "", val) < 0)
		return -ENOMEM;
	free(j->runs.check);
	j->runs.check = joined;
	return 0;
}

/* cpus_allowed=: the CPUs parsed once into j->cpu.cpus, which the plan and
 * the worker's pinning read; the text for --parse-only. */
int optvalue_cpus_allowed(struct job *j, const struct opt_def *o,
			  const char *val, char *why, size_t whylen)
{
	cpu_set_t set;
	int ret = cpuset_parse(val, &set, why, whylen);

	if (!ret)
		ret = set_str(field(j, o->off), val);
	if (!ret)
		j->cpu.cpus = set;
	return ret;
}

/* verify_async_cpus=, log_compression_cpus=: CPU lists checked and
 * reported, placing no thread here (plan.c warns). */
int optvalue_cpu_list(struct job *j, const struct opt_def *o, const char *val,
		      char *why, size_t whylen)
{
	cpu_set_t set;
	int ret = cpuset_parse(val, &set, why, whylen);

	return ret ? ret : set_str(field(j, o->off), val);
}

/* Stored as the CPU list it means: cpus_allowed's field and set. */
int optvalue_cpumask(struct job *j, const struct opt_def *o, const char *val,
		     char *why, size_t whylen)
{
	char list[256];
	int ret = cpuset_mask_to_list(val, list, sizeof(list), why, whylen);

	return ret ? ret : optvalue_cpus_allowed(j, o, list, why, whylen);
}

/* Parsed once into j->ss.ss_crit, which the run's group records and the
 * worker's read; the text for --parse-only and the reports. */
int optvalue_steadystate(struct job *j, const struct opt_def *o,
			 const char *val, char *why, size_t whylen)
{
	struct steady_crit c;
	int ret = steady_parse(val, &c, why, whylen);

	if (!ret)
		ret = set_str(field(j, o->off), val);
	if (!ret)
		j->ss.ss_crit = c;
	return ret;
}

/* Check "OPT:v1,v2[;OPT2:...]" and append it to the job's sweeps. */
int optvalue_sweep(struct job *j, const struct opt_def *o, const char *val,
		   char *why, size_t whylen)
{
	const char *p = val, *colon, *end;
	char name[64], *joined;
	const struct opt_def *target;
	size_t len;

	for (;;) {
		end = strchr(p, ';');
		end = end ? end : p + strlen(p);
		colon = memchr(p, ':', (size_t)(end - p));
		len = colon ? (size_t)(colon - p) : 0;
		if (!colon || !len || len >= sizeof(name) || colon + 1 == end ||
		    colon[1] == ',' || end[-1] == ',' || strstr(p, ",,")) {
			snprintf(why, whylen, "'%s': expected OPTION:value1,"
				 "value2,... such as bs:4k,64k", val);
			return -EINVAL;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		target = options_find(name);
		if (!target || target == o || !strcmp(name, "name")) {
			snprintf(why, whylen, "'%s' is not an option that can "
				 "be swept", name);
			return -EINVAL;
		}
		if (!*end)
			break;
		p = end + 1;
	}
	if (asprintf(&joined, "%s%s%s", j->runs.sweep ? j->runs.sweep : "",
		     j->runs.sweep ? ";" : "", val) < 0)
		return -ENOMEM;
	free(j->runs.sweep);
	j->runs.sweep = joined;
	return 0;
}

/*
 * rate_curve=: "default" or percents of the probe's IOPS, each in
 * (0, 1000]; stored as the list ("10,50,70,80,90,100" for default).
 */
int optvalue_rate_curve(struct job *j, const struct opt_def *o, const char *val,
			char *why, size_t whylen)
{
	const char *p = val;
	char *end, *copy;
	double v;
	unsigned n = 0;

	(void)o;
	if (!strcmp(val, "default"))
		val = p = RATE_CURVE_DEFAULT;
	for (;;) {
		errno = 0;
		v = strtod(p, &end);
		if (end == p || errno || !(v > 0 && v <= 1000) ||
		    (*end && *end != ',') || ++n > RATE_CURVE_MAX ||
		    *p == ' ' || *p == '+') {
			snprintf(why, whylen, "'%s': expected default or up to "
				 "%d percents (above 0, at most 1000) separated "
				 "by ',', such as 10,50,90,100", val,
				 RATE_CURVE_MAX);
			return -EINVAL;
		}
		if (!*end)
			break;
		p = end + 1;
	}
	copy = strdup(val);
	if (!copy)
		return -ENOMEM;
	free(j->pace.rate_curve);
	j->pace.rate_curve = copy;
	return 0;
}
