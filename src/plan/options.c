// SPDX-License-Identifier: MIT
/*
 * The option table's machinery: finding a row (the job table's, then the
 * engines'), suggesting a name, parsing a value by the row's type (or its
 * setter, optvalue.c) and setting it, defaults, formatting (--parse-only,
 * the JSON report's "options"), --help and --cmdhelp. The table itself,
 * every job option declared once, is optable.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cgroup.h"
#include "check_expr.h"
#include "dist.h"
#include "cpuset.h"
#include "engine.h"
#include "fill.h"
#include "iosched.h"
#include "gen.h"
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

const struct opt_def *options_find_in(const struct opt_def *t,
				      const char *name)
{
	/* the first byte compared first: a merge looks up every option
	 * of every member's jobs, and few rows share it */
	for (; t && t->name; t++)
		if ((t->name[0] == name[0] && !strcmp(t->name, name)) ||
		    (t->alias && t->alias[0] == name[0] &&
		     !strcmp(t->alias, name)))
			return t;
	return NULL;
}

const struct opt_def *options_find(const char *name)
{
	const struct engine_ops *const *e;
	const struct opt_def *o = options_find_in(options_table, name);

	for (e = engine_list(); !o && *e; e++)
		o = options_find_in((*e)->options, name);
	return o;
}

/* A row of the job table; any other is an engine's. */
static bool job_row(const struct opt_def *o)
{
	uintptr_t p = (uintptr_t)o, t = (uintptr_t)options_table;

	return p >= t && p < t + options_table_size;
}

bool options_is_number(const char *name)
{
	const struct opt_def *o = options_find(name);

	if (!o)
		return false;
	switch (o->type) {
	case OPT_UINT: case OPT_SIZE: case OPT_SIZE_PCT: case OPT_TIME:
	case OPT_PCT: case OPT_BS: case OPT_RATE:
		return true;
	default:
		return false;
	}
}

bool options_is_fio_only(const char *name)
{
	size_t i;

	for (i = 0; i < options_fio_only_count; i++)
		if (!strcmp(options_fio_only_names[i], name))
			return true;
	return false;
}

/* Levenshtein distance, capped: names are short. */
static unsigned edit_distance(const char *a, const char *b)
{
	unsigned row[64], i, j, la = strlen(a), lb = strlen(b);

	if (la >= 63 || lb >= 63)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		unsigned prev = row[0], cur;

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			cur = row[j];
			row[j] = prev + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (cur + 1 < row[j])
				row[j] = cur + 1;
			prev = cur;
		}
	}
	return row[lb];
}

const char *options_fio_only_msg(const char *name)
{
	size_t i;

	for (i = 0; i < options_not_fio333_count; i++)
		if (!strcmp(options_not_fio333[i], name))
			return "not an option of fio 3.33 (a later fio's), "
			       "which iorig follows: fio 3.33 refuses it too";
	if (!options_is_fio_only(name))
		return NULL;
	/* Engine options of engines that need what iorig has not: fio
	 * 3.33 knows them only once ioengine= names that engine. */
	if (!strcmp(name, "single_instance"))
		return "an option of fio's libhdfs engine (ioengine=libhdfs), "
		       "which needs libhdfs (Hadoop), which iorig does not "
		       "have; run this job with a fio built with it";
	if (!strcmp(name, "single-instance"))
		return "an option of fio's gfapi engines (ioengine=gfapi, "
		       "gfapi_async), which need libgfapi (GlusterFS), which "
		       "iorig does not have; run this job with a fio built "
		       "with it";
	if (!strcmp(name, "spdk_json_conf") || !strcmp(name, "spdk_conf"))
		return "an option of SPDK's fio plugin (ioengine=spdk_bdev, "
		       "spdk), which iorig does not have (Debian's fio 3.33 "
		       "cannot load it either); run this job with a fio "
		       "built with SPDK";
	/* NVMe Flexible Data Placement: a later fio's (3.34: fdp,
	 * fdp_pli, fdp_pli_select; 3.36 renamed them). doc/fdp.md says
	 * how they would map onto io_uring_cmd. */
	if (!strcmp(name, "fdp") || !strcmp(name, "fdp_pli") ||
	    !strcmp(name, "fdp_pli_select") || !strcmp(name, "plids") ||
	    !strcmp(name, "plid_select") || !strcmp(name, "dp_scheme") ||
	    !strcmp(name, "data_placement") ||
	    !strcmp(name, "dataplacement"))
		return "an option of a later fio's NVMe Flexible Data "
		       "Placement (fio 3.33, which iorig follows, refuses "
		       "it as unknown); not supported: Debian's QEMU (7.2), "
		       "the emulator iorig's NVMe tests run on, has no FDP, "
		       "so it could not be tested (doc/fdp.md: how it "
		       "would map onto ioengine=io_uring_cmd)";
	/* fio 3.33 opens with O_DIRECT and 040000000, a flag Linux does
	 * not have (no O_ATOMIC there): direct I/O, no atomic writes. */
	if (!strcmp(name, "atomic"))
		return "fio has this option but iorig does not support it: "
		       "fio 3.33 reads atomic=1 as direct=1 plus an open "
		       "flag Linux ignores, so its writes are not atomic, "
		       "without a word; expected direct=1, if that is what "
		       "the job needs (a later fio's atomic=1, RWF_ATOMIC "
		       "writes, is not supported either: Debian's QEMU "
		       "7.2, the emulator iorig's NVMe tests run on, has "
		       "no atomic write emulation to test it on)";
	/* Checked against Debian's fio 3.33 (fio --parse-only). */
	if (!strcmp(name, "percentage_sequential") ||
	    !strcmp(name, "rwmixcycle"))
		return "fio has this option but iorig does not support it "
		       "(fio 3.33 refuses it too: deprecated, the job is "
		       "dropped)";
	if (!strcmp(name, "ramp_size") || !strcmp(name, "ddir_seq_nr") ||
	    !strcmp(name, "ddir_seq_add") ||
	    !strcmp(name, "random_sequence_stride"))
		return "fio has this option but iorig does not support it yet "
		       "(fio 3.33 does not know it either: a later fio's, or "
		       "fio's internal name of rw=...:N)";
	return "fio has this option but iorig does not support it yet";
}

/* The nearest name in table t to name, when nearer than *bestd. */
static void suggest_in(const struct opt_def *t, const char *name,
		       const char **best, unsigned *bestd)
{
	unsigned d;

	for (; t && t->name; t++) {
		d = edit_distance(name, t->name);
		if (t->alias && edit_distance(name, t->alias) < d)
			d = edit_distance(name, t->alias);
		if (d < *bestd) {
			*bestd = d;
			*best = t->name;
		}
	}
}

const char *options_suggest(const char *name)
{
	const struct engine_ops *const *e;
	const char *best = NULL;
	unsigned bestd = strlen(name) > 4 ? 3 : 2;

	/* A name fio knows is not a typo of another option. */
	if (options_is_fio_only(name))
		return NULL;
	suggest_in(options_table, name, &best, &bestd);
	for (e = engine_list(); *e; e++)
		suggest_in((*e)->options, name, &best, &bestd);
	return best;
}

/*
 * rw=MODE[:N]. For a random mode N counts I/Os (a new random offset every
 * N); for a sequential one it is a size, the gap after each I/O, negative
 * to go backwards.
 */
static int set_rw(struct job *j, const struct opt_def *o, const char *val,
		  char *why, size_t whylen)
{
	const char *colon = strchr(val, ':');
	char mode[32];
	uint64_t v;
	int ret;

	if (!colon) {
		j->io.rw_seq_nr = 0;
		j->io.rw_seq_add = 0;
		return options_choice(field(j, o->off), o, val, why, whylen);
	}
	if ((size_t)(colon - val) >= sizeof(mode)) {
		snprintf(why, whylen, "'%s' is not valid", val);
		return -EINVAL;
	}
	memcpy(mode, val, (size_t)(colon - val));
	mode[colon - val] = '\0';
	ret = options_choice(field(j, o->off), o, mode, why, whylen);
	if (ret)
		return ret;
	j->io.rw_seq_nr = 0;
	j->io.rw_seq_add = 0;
	if (rw_random(j->io.rw)) {
		ret = value_uint(colon + 1, 1, UINT32_MAX, &v, why, whylen);
		if (ret) {
			snprintf(why, whylen, "'%s': after a random mode, "
				 "expected a count of I/Os, 1 or more (a new "
				 "random offset every N I/Os)", val);
			return ret;
		}
		j->io.rw_seq_nr = v;
		return 0;
	}
	ret = value_size(colon[1] == '-' ? colon + 2 : colon + 1,
			 (unsigned)j->report.kb_base, &v, why, whylen);
	if (ret || v > (1ull << 40)) {
		snprintf(why, whylen, "'%s': after a sequential mode, "
			 "expected a size, the gap after each I/O (negative: "
			 "backwards), at most 1TiB", val);
		return -EINVAL;
	}
	j->io.rw_seq_add = colon[1] == '-' ? -(int64_t)v : (int64_t)v;
	return 0;
}

int options_choice(int *dst, const struct opt_def *o, const char *val,
		   char *why, size_t whylen)
{
	const struct opt_choice *c;
	size_t n;

	for (c = o->choices; c->name; c++) {
		if (!strcasecmp(c->name, val)) {
			*dst = c->value;
			return 0;
		}
	}
	n = snprintf(why, whylen, "'%s' is not valid; expected one of:", val);
	for (c = o->choices; c->name && n < whylen; c++)
		n += snprintf(why + n, whylen - n, " %s", c->name);
	return -EINVAL;
}

/*
 * fio's two readings. bs: one size per direction, read,write,trim, where
 * with no comma ':' or '-' separates too (bs=4k-64k reads 4k, writes
 * 64k).
 * bsrange: a range per direction, split by commas only. A range inside a
 * comma list of bs is what fio misreads silently (bs=4k-8k,16k drops 8k):
 * refused.
 */
static int set_bs(struct job *j, const struct opt_def *o, const char *val,
		  char *why, size_t whylen)
{
	bool range = !strcmp(o->name, "bsrange");
	char parts[3][128];
	uint64_t lo[3], hi[3];
	int n, i, ret;

	n = value_split_rw(val, !range, parts, why, whylen);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		if (!range && value_is_range(parts[i])) {
			snprintf(why, whylen, "'%s' is a range: bs takes one "
				 "size per direction (bs=4k-64k means 4k "
				 "reads, 64k writes); expected bsrange=%s for "
				 "a range of sizes", parts[i], val);
			return -EINVAL;
		}
		ret = value_size_range(parts[i], (unsigned)j->report.kb_base,
				       &lo[i], &hi[i], why, whylen);
		if (ret)
			return ret;
	}
	/* A direction not given takes the last one given, as in fio
	 * (bs=8k,32k: 32k trims). */
	for (i = 0; i < DDIR_NR; i++) {
		j->io.bs_min[i] = lo[i < n ? i : n - 1];
		j->io.bs_max[i] = hi[i < n ? i : n - 1];
	}
	return 0;
}

/*
 * rate=, rate_iops=, rate_min=, rate_iops_min=: "read[,write[,trim]]".
 * One item applies to every direction; without a trim item, trims take the
 * write item (fio's meaning); an empty item leaves its direction unlimited
 * (0).
 */
static int set_rate(uint64_t *dst, const struct opt_def *o, unsigned kb,
		    const char *val, char *why, size_t whylen)
{
	uint64_t v[3] = { 0, 0, 0 };
	const char *p = val, *comma;
	char item[128];
	unsigned n = 0;
	size_t len;
	double d;
	int ret;

	for (;; n++) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (n == 3 || len >= sizeof(item)) {
			snprintf(why, whylen, "'%s': expected at most three "
				 "values, read,write,trim", val);
			return -EINVAL;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		if (!len || strspn(item, " \t") == len) {
			v[n] = 0;
		} else if (o->flags & OPT_F_COUNT) {
			ret = value_count(item, &d, why, whylen);
			if (ret)
				return ret;
			if (d != (double)(uint64_t)d || d >= 1e18) {
				snprintf(why, whylen, "'%s': expected a whole "
					 "number of I/Os per second", item);
				return -EINVAL;
			}
			v[n] = (uint64_t)d;
		} else {
			ret = value_size(item, kb, &v[n], why, whylen);
			if (ret)
				return ret;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	dst[DDIR_READ] = v[0];
	dst[DDIR_WRITE] = n ? v[1] : v[0];
	dst[DDIR_TRIM] = n == 2 ? v[2] : dst[DDIR_WRITE];
	return 0;
}

static int set_plist(struct job *j, const char *val, char *why,
		     size_t whylen)
{
	double v[JOB_MAX_PERCENTILES];
	char buf[64];
	const char *p = val, *end;
	unsigned n = 0;
	size_t len;
	int ret;

	for (;;) {
		end = strchr(p, ':');
		len = end ? (size_t)(end - p) : strlen(p);
		if (n == JOB_MAX_PERCENTILES) {
			snprintf(why, whylen, "at most %d percentiles",
				 JOB_MAX_PERCENTILES);
			return -EINVAL;
		}
		if (len == 0 || len >= sizeof(buf)) {
			snprintf(why, whylen, "'%s': expected percentiles "
				 "such as 50:99:99.9", val);
			return -EINVAL;
		}
		memcpy(buf, p, len);
		buf[len] = '\0';
		ret = value_double(buf, 0, 100, &v[n], why, whylen);
		if (ret)
			return ret;
		if (v[n] <= 0) {
			snprintf(why, whylen, "percentile '%s' must be above 0",
				 buf);
			return -EINVAL;
		}
		n++;
		if (!end)
			break;
		p = end + 1;
	}
	memcpy(j->report.percentile_list, v, n * sizeof(v[0]));
	j->report.npercentiles = n;
	return 0;
}

static void fmt_time(uint64_t ns, char *buf, size_t len);

/* OPT_TIME bounds, when the option has them (max set). */
static int time_in_range(const struct opt_def *o, uint64_t ns, char *why,
			 size_t whylen)
{
	char v[32], lo[32], hi[32];
	bool off = o->flags & OPT_F_ZERO_OFF;

	if ((ns >= o->min && ns <= o->max) || (off && !ns))
		return 0;
	fmt_time(ns, v, sizeof(v));
	fmt_time(o->min, lo, sizeof(lo));
	fmt_time(o->max, hi, sizeof(hi));
	snprintf(why, whylen, "%s is out of range; expected %s%s to %s",
		 v, off ? "0 (off) or a time from " : "", lo, hi);
	return -ERANGE;
}

/*
 * fio reads a size with a fraction and a unit, 1.5m, as the digits before
 * the point (1 byte): a silent misreading, refused with what to write.
 */
static int fio_fraction(const struct opt_def *o, const char *val, char *why,
			size_t whylen)
{
	const char *dot = strchr(val, '.');
	bool sizes = o->type == OPT_SIZE || o->type == OPT_BS ||
		     (o->type == OPT_SIZE_PCT && !strchr(val, '%')) ||
		     (o->type == OPT_RATE && !(o->flags & OPT_F_COUNT));

	if (!sizes || !dot || dot[1] < '0' || dot[1] > '9' ||
	    !strpbrk(dot, "kKmMgGtTpP"))
		return 0;
	snprintf(why, whylen, "'%s': fio reads a fraction with a unit as the "
		 "whole part alone (1.5m as 1 byte); expected a whole number "
		 "of a smaller unit, such as 1536k for 1.5m", val);
	return -EINVAL;
}

static int opt_parse(struct job *j, void *base, const struct opt_def *o,
		     const char *val, char *why, size_t whylen);

/* The count of zones row o (OPT_F_ZONES) keeps in j. */
static uint32_t *zone_count_of(struct job *j, const struct opt_def *o)
{
	if (o->off == F(target.size))
		return &j->io.zones_nz[ZN_SIZE];
	if (o->off == F(target.offset))
		return &j->io.zones_nz[ZN_OFFSET];
	if (o->off == F(target.io_size))
		return &j->io.zones_nz[ZN_IO_SIZE];
	if (o->off == F(io.zoneskip))
		return &j->io.zones_nz[ZN_ZONESKIP];
	return &j->io.zones_nz[ZN_OFFINC];
}

/*
 * fio 3.33's zone unit: size, offset, io_size, zoneskip and
 * offset_increment take a count of zones, digits and 'z' ("4z"), which
 * becomes bytes once the zone size is known (plan.c). fio keeps such a
 * count when a later value of the option gives bytes (a job's own size=1m
 * under a [global] size=4z: fio still reads 4 zones, and a percentage of
 * size= or io_size= as well) and drops the later value without a word:
 * refused. A later percentage of offset= or offset_increment= replaces
 * the count there, as in fio. 1 when val is not a count of zones and
 * nothing stands against it, else 0 or -errno.
 */
static int zone_count(struct job *j, void *base, const struct opt_def *o,
		      const char *val, char *why, size_t whylen)
{
	size_t n = strlen(val), d = strspn(val, "0123456789");
	uint32_t *nz;
	unsigned long long v;

	if (!(o->flags & OPT_F_ZONES) || base != j)
		return 1;
	nz = zone_count_of(j, o);
	if (!n || val[n - 1] != 'z') {
		if (!*nz)
			return 1;
		if (strchr(val, '%') && (o->off == F(target.offset) ||
					 o->off ==
					 F(target.offset_increment))) {
			*nz = 0;
			return 1;
		}
		snprintf(why, whylen, "'%s': fio keeps the count of zones "
			 "given before (%" PRIu32 "z, perhaps in [global]) "
			 "and drops this value without a word; expected one "
			 "of the two, given once", val, *nz);
		return -EINVAL;
	}
	errno = 0;
	v = strtoull(val, NULL, 10);
	if (!d || d != n - 1 || errno || v > UINT32_MAX) {
		snprintf(why, whylen, "'%s': expected a count of zones, "
			 "digits and 'z' (such as 4z), up to %" PRIu32 "z",
			 val, UINT32_MAX);
		return -EINVAL;
	}
	*nz = (uint32_t)v;
	*(uint64_t *)field(base, o->off) = 0;
	if (o->aux)
		*(double *)field(base, o->aux) = 0;
	return 0;
}

/*
 * fio reads a number option as the number (and unit) it begins with and
 * drops what follows without a word, unless the value begins with '('
 * (its arithmetic): size=4k*2 is 4k there, 512/25 is 512, 1+2 is 1. It
 * also splits the value at '-' (after ',' and ':') and keeps one part:
 * numjobs=3-1 runs 3 jobs, size=1m-4k is 4k. Either would mean another
 * number here: refused for fio's options. A value in parentheses is
 * iorig's arithmetic (fio 3.33 as Debian builds it refuses it), and so is
 * one fio hands to bc (plan.c's calc_value); iorig's own options keep
 * their arithmetic; a leading '-' is a sign, refused by the parsers where
 * it has no meaning.
 */
static int fio_arith(const struct opt_def *o, const char *val, char *why,
		     size_t whylen)
{
	const char *p = val, *op;
	bool num = o->type == OPT_UINT || o->type == OPT_SIZE ||
		   o->type == OPT_SIZE_PCT || o->type == OPT_TIME ||
		   o->type == OPT_PCT;

	if ((!num && o->type != OPT_BS && o->type != OPT_RATE) ||
	    (o->flags & OPT_F_OWN))
		return 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '(')
		return 0;
	if (num && *p && strchr(p + 1, '-')) {
		snprintf(why, whylen, "'%s': fio splits a value at '-' (its "
			 "read-write form) and keeps one part without a word: "
			 "it does no subtraction there; expected the number "
			 "itself", val);
		return -EINVAL;
	}
	if (!(op = strpbrk(p, "*/+")))
		return 0;
	snprintf(why, whylen, "'%s': fio reads the number before '%c' alone "
		 "(%.*s) and drops the rest without a word; expected the "
		 "result itself, or the expression in parentheses as fio "
		 "evaluates it", val, *op, (int)(op - p), p);
	return -EINVAL;
}

/*
 * fio reads the value of a size option as parts split at ',' and ':' (its
 * read,write,trim form; one trailing ',' is dropped) and an option of one
 * value keeps one part without a word: size=6400K:6400K is 6400K. Parts
 * that are all the same value are that value; different ones are a silent
 * misreading, refused. 1 when val has no such parts, else 0 or -errno.
 */
static int fio_parts(struct job *j, void *base, const struct opt_def *o,
		     const char *val, char *why, size_t whylen)
{
	char part[128], first[128];
	const char *p = val, *q;
	uint64_t v0 = 0;
	double a0 = 0;
	size_t n;
	int ret, k;

	if ((o->type != OPT_SIZE && o->type != OPT_SIZE_PCT) ||
	    !strpbrk(val, ",:"))
		return 1;
	for (k = 0; *p; k++) {
		q = p + strcspn(p, ",:");
		n = (size_t)(q - p);
		if (n >= sizeof(part))
			n = sizeof(part) - 1;
		memcpy(part, p, n);
		part[n] = '\0';
		if (!k)
			snprintf(first, sizeof(first), "%s", part);
		ret = opt_parse(j, base, o, part, why, whylen);
		if (ret)
			return ret;
		if (!k) {
			v0 = *(uint64_t *)field(base, o->off);
			a0 = o->aux ? *(double *)field(base, o->aux) : 0;
		} else if (v0 != *(uint64_t *)field(base, o->off) ||
			   (o->aux && a0 != *(double *)field(base, o->aux))) {
			snprintf(why, whylen, "'%s': fio reads one of these "
				 "values and drops the others without a word; "
				 "expected one value, such as %s", val, first);
			return -EINVAL;
		}
		if (!*q || (*q == ',' && !q[1]))
			break;
		p = q + 1;
	}
	return 0;
}

/* OPT_STR: the row's own check, its setter (an engine's row: the value
 * parsed into the typed fields at base), then a copy of the text. */
static int parse_str(void *base, const struct opt_def *o, unsigned kb,
		     const char *val, char *why, size_t whylen)
{
	int ret;

	if (o->valid && (ret = o->valid(o, val, why, whylen)))
		return ret;
	if (o->store && (ret = o->store(base, o, val, kb, why, whylen)))
		return ret;
	if (!*val && !(o->flags & OPT_F_BARE) && !o->valid && !o->store) {
		snprintf(why, whylen, "expected a non-empty value");
		return -EINVAL;
	}
	return set_str(field(base, o->off), val);
}

/* OPT_BOOL: a bool, inverted for an OPT_F_INVERT row; OPT_F_AUTO: a
 * signed char, -1 for "auto". */
static int parse_bool(void *dst, const struct opt_def *o, const char *val,
		      char *why, size_t whylen)
{
	bool b;
	int ret;

	if ((o->flags & OPT_F_AUTO) && !strcasecmp(val, "auto")) {
		*(signed char *)dst = -1;
		return 0;
	}
	ret = value_bool(val, &b, why, whylen);
	if (ret)
		return ret;
	if (o->flags & OPT_F_AUTO)
		*(signed char *)dst = b;
	else
		*(bool *)dst = (o->flags & OPT_F_INVERT) ? !b : b;
	return 0;
}

/* OPT_SIZE_PCT: bytes, or a percent into the row's aux field (the other
 * one zeroed); size= must be above 0%. */
static int parse_size_pct(void *base, const struct opt_def *o, bool own,
			  unsigned kb, const char *val, char *why,
			  size_t whylen)
{
	uint64_t *dst = field(base, o->off), u;
	double d;
	int ret;

	if (strchr(val, '%')) {
		ret = value_pct(val, &d, why, whylen);
		if (!ret && d <= 0 && own && o->off == F(target.size)) {
			snprintf(why, whylen, "size must be above 0%%");
			ret = -EINVAL;
		}
		if (!ret) {
			*(double *)field(base, o->aux) = d;
			*dst = 0;
		}
		return ret;
	}
	ret = value_size(val, kb, &u, why, whylen);
	if (!ret) {
		*dst = u;
		*(double *)field(base, o->aux) = 0;
	}
	return ret;
}

/*
 * Parse val for option o into base (j itself for the job table's rows, an
 * engine's options struct for its rows; sizes read with j's kb_base); why
 * says what was expected.
 */
static int opt_parse(struct job *j, void *base, const struct opt_def *o,
		     const char *val, char *why, size_t whylen)
{
	void *dst = field(base, o->off);
	bool own = base == j;	/* the job table's: its fields by offset */
	unsigned kb = (unsigned)j->report.kb_base;
	uint64_t u;
	double d;
	int ret = zone_count(j, base, o, val, why, whylen);

	if (ret <= 0)
		return ret;
	ret = fio_parts(j, base, o, val, why, whylen);
	if (ret <= 0)
		return ret;
	ret = fio_arith(o, val, why, whylen);
	if (!ret)
		ret = fio_fraction(o, val, why, whylen);
	if (ret)
		return ret;
	switch (o->type) {
	case OPT_STR:
		return parse_str(base, o, kb, val, why, whylen);
	case OPT_BOOL:
		return parse_bool(dst, o, val, why, whylen);
	case OPT_UINT:
		if ((o->flags & OPT_F_NONE) && !strcasecmp(val, "none")) {
			*(uint64_t *)dst = UINT64_MAX;
			return 0;
		}
		ret = value_uint(val, o->min, o->max, &u, why, whylen);
		if (!ret)
			*(uint64_t *)dst = u;
		return ret;
	case OPT_SIZE:
		ret = value_size(val, kb, &u, why, whylen);
		if (!ret)
			*(uint64_t *)dst = u;
		return ret;
	case OPT_SIZE_PCT:
		return parse_size_pct(base, o, own, kb, val, why, whylen);
	case OPT_TIME:
		ret = value_time(val, o->unit_ns, &u, why, whylen);
		if (!ret && o->max)
			ret = time_in_range(o, u, why, whylen);
		if (!ret)
			*(uint64_t *)dst = u;
		return ret;
	case OPT_PCT:
		ret = value_pct(val, &d, why, whylen);
		if (!ret)
			*(double *)dst = (o->flags & OPT_F_INVERT) ? 100 - d : d;
		return ret;
	case OPT_ENUM:
		if (own && o->off == F(io.rw))
			return set_rw(j, o, val, why, whylen);
		if (own && o->off == F(vfy.verify))
			j->vfy.verify_set = true;
		return options_choice(dst, o, val, why, whylen);
	case OPT_BS:
		return set_bs(j, o, val, why, whylen);
	case OPT_PLIST:
		return set_plist(j, val, why, whylen);
	case OPT_RATE:
		return set_rate(dst, o, kb, val, why, whylen);
	case OPT_SPECIAL:
		return o->set(j, o, val, why, whylen);
	}
	return -EINVAL;
}

/* value (NULL: none given) into row o of j's options, as options_set
 * sets a row it found by name. */
static int set_row(struct job *j, const struct opt_def *o, const char *value,
		   const char *file, int line, struct err_rec *e)
{
	char why[512];
	int ret;

	if (!value && (o->flags & OPT_F_BARE))
		value = "";
	if (!value) {
		if (o->type != OPT_BOOL) {
			err_set(e, file, line, o->name, "needs a value "
				"(%s=...)", o->name);
			return -EINVAL;
		}
		value = "1";
	}
	why[0] = '\0';
	ret = job_row(o) ? opt_parse(j, j, o, value, why, sizeof(why)) :
	      engopts_set(j, o, value, why, sizeof(why));
	if (ret == -ENOMEM) {
		err_set(e, file, line, o->name, "out of memory");
		return ret;
	}
	if (ret) {
		err_set(e, file, line, o->name, "%s", why[0] ? why :
			"invalid value");
		return -EINVAL;
	}
	return 0;
}

int options_set(struct job *j, const char *name, const char *value,
		const char *file, int line, struct err_rec *e)
{
	const struct opt_def *o = options_find(name);
	const struct profile *prof;
	const char *hint;
	char why[512];

	if (!o && (prof = profile_owning(name, strlen(name)))) {
		/* fio knows it from a profile: read, no effect on the job */
		why[0] = '\0';
		if (!profile_check_form(prof, profile_opt_index(prof, name,
				strlen(name)), value, why, sizeof(why)))
			return 0;
		err_set(e, file, line, name, "%s (an option of fio's %s "
			"profile, read by fio in a job too, where it does "
			"nothing)", why, prof->name);
		return -EINVAL;
	}
	if (!o) {
		hint = options_fio_only_msg(name);
		if (hint) {
			err_set(e, file, line, name, "%s", hint);
			return -EINVAL;
		}
		hint = options_suggest(name);
		if (hint)
			err_set(e, file, line, name, "unknown option; did "
				"you mean '%s'?", hint);
		else
			err_set(e, file, line, name, "unknown option; see "
				"iorig --cmdhelp for the list");
		return -EINVAL;
	}
	return set_row(j, o, value, file, line, e);
}

int options_defaults(struct job *j)
{
	const struct opt_def *o;
	struct err_rec e;
	int ret;

	memset(j, 0, sizeof(*j));
	j->report.kb_base = 1024;
	for (o = options_table; o->name; o++) {
		if (!o->def || (o->flags & OPT_F_INVERT))
			continue;
		/* the row itself, which options_set would find by its
		 * name (tests/unit/test_options.c: names and aliases are
		 * unique), without the search */
		ret = set_row(j, o, o->def, "<defaults>", 0, &e);
		if (ret)
			return ret;
	}
	j->vfy.verify_set = false;	/* a default is not given */
	return 0;
}

static void fmt_time(uint64_t ns, char *buf, size_t len)
{
	static const struct { uint64_t div; const char *unit; } u[] = {
		{ 86400 * NS_S, "d" }, { 3600 * NS_S, "h" },
		{ 60 * NS_S, "m" }, { NS_S, "s" }, { 1000000, "ms" },
		{ 1000, "us" }, { 1, "ns" },
	};
	size_t i;

	if (!ns) {
		snprintf(buf, len, "0");
		return;
	}
	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (ns % u[i].div == 0)
			break;
	snprintf(buf, len, "%" PRIu64 "%s", ns / u[i].div, u[i].unit);
}

static void fmt_choice(const struct opt_def *o, int v, char *buf,
		       size_t len)
{
	const struct opt_choice *c;

	for (c = o->choices; c->name; c++) {
		if (c->value == v) {
			snprintf(buf, len, "%s", c->name);
			return;
		}
	}
	snprintf(buf, len, "%d", v);
}

static size_t fmt_range(uint64_t lo, uint64_t hi, char *buf, size_t len)
{
	if (lo == hi)
		return snprintf(buf, len, "%" PRIu64, lo);
	return snprintf(buf, len, "%" PRIu64 "-%" PRIu64, lo, hi);
}

/* o's value in base (see opt_parse) as text. */
static void opt_format(const struct job *j, const void *base,
		       const struct opt_def *o, char *buf, size_t len)
{
	const void *src = cfield(base, o->off);
	bool own = base == j;
	size_t n;
	unsigned i, last;

	buf[0] = '\0';
	switch (o->type) {
	case OPT_STR:
	case OPT_SPECIAL:
		snprintf(buf, len, "%s", *(char *const *)src ?
			 *(char *const *)src : "");
		break;
	case OPT_BOOL:
		if (o->flags & OPT_F_AUTO) {
			if (*(const signed char *)src < 0)
				snprintf(buf, len, "auto");
			else
				snprintf(buf, len, "%d",
					 *(const signed char *)src);
			break;
		}
		snprintf(buf, len, "%d", (o->flags & OPT_F_INVERT) ?
			 !*(const bool *)src : *(const bool *)src);
		break;
	case OPT_UINT:
	case OPT_SIZE:
		if ((o->flags & OPT_F_NONE) &&
		    *(const uint64_t *)src == UINT64_MAX)
			snprintf(buf, len, "none");
		else
			snprintf(buf, len, "%" PRIu64, *(const uint64_t *)src);
		break;
	case OPT_SIZE_PCT:
		if (*(const double *)cfield(base, o->aux) > 0)
			snprintf(buf, len, "%g%%",
				 *(const double *)cfield(base, o->aux));
		else if (*(const uint64_t *)src || o->def)
			snprintf(buf, len, "%" PRIu64,
				 *(const uint64_t *)src);
		break;
	case OPT_TIME:
		fmt_time(*(const uint64_t *)src, buf, len);
		break;
	case OPT_PCT:
		snprintf(buf, len, "%g", (o->flags & OPT_F_INVERT) ?
			 100 - *(const double *)src : *(const double *)src);
		break;
	case OPT_ENUM:
		fmt_choice(o, *(const int *)src, buf, len);
		n = strlen(buf);
		if (own && o->off == F(io.rw) && j->io.rw_seq_nr)
			snprintf(buf + n, len - n, ":%" PRIu64,
				 j->io.rw_seq_nr);
		else if (own && o->off == F(io.rw) && j->io.rw_seq_add)
			snprintf(buf + n, len - n, ":%" PRId64,
				 j->io.rw_seq_add);
		break;
	case OPT_BS:
		/* bs has no range form (fio's meaning): bsrange shows it. */
		if (strcmp(o->name, "bsrange") &&
		    (j->io.bs_min[0] != j->io.bs_max[0] ||
		     j->io.bs_min[1] != j->io.bs_max[1] ||
		     j->io.bs_min[2] != j->io.bs_max[2])) {
			buf[0] = '\0';
			break;
		}
		n = fmt_range(j->io.bs_min[0], j->io.bs_max[0], buf, len);
		/* As many items as differ from the last: "4k", "4k,64k",
		 * "4k,64k,8k". */
		for (last = DDIR_NR - 1; last > 0; last--)
			if (j->io.bs_min[last] != j->io.bs_min[last - 1] ||
			    j->io.bs_max[last] != j->io.bs_max[last - 1])
				break;
		for (i = 1; i <= last && n + 1 < len; i++) {
			buf[n++] = ',';
			n += fmt_range(j->io.bs_min[i], j->io.bs_max[i],
				       buf + n, len - n);
		}
		break;
	case OPT_RATE: {
		const uint64_t *v = src;

		if (v[DDIR_TRIM] != v[DDIR_WRITE])
			snprintf(buf, len, "%" PRIu64 ",%" PRIu64 ",%" PRIu64,
				 v[0], v[1], v[2]);
		else if (v[0] == v[1])
			snprintf(buf, len, "%" PRIu64, v[0]);
		else
			snprintf(buf, len, "%" PRIu64 ",%" PRIu64, v[0], v[1]);
		break;
	}
	case OPT_PLIST:
		for (i = 0, n = 0; i < j->report.npercentiles && n < len; i++)
			n += snprintf(buf + n, len - n, "%s%g", i ? ":" : "",
				      j->report.percentile_list[i]);
		break;
	}
}

int options_parse_row(struct job *j, void *base, const struct opt_def *o,
		      const char *val, char *why, size_t whylen)
{
	return opt_parse(j, base, o, val, why, whylen);
}

void options_format_row(const struct job *j, const void *base,
			const struct opt_def *o, char *buf, size_t len)
{
	opt_format(j, base, o, buf, len);
}

void options_format(const struct job *j, const struct opt_def *o,
		    char *buf, size_t len)
{
	if (job_row(o))
		opt_format(j, j, o, buf, len);
	else if (j->eng.engine && j->eng.eopts &&
		 options_find_in(j->eng.engine->options, o->name) == o)
		opt_format(j, j->eng.eopts, o, buf, len);
	else
		buf[0] = '\0';
}

const struct opt_def *options_next(const struct job *j,
				   const struct opt_def *o)
{
	const struct opt_def *eng = j->eng.engine ? j->eng.engine->options :
		NULL;

	if (!o)
		return options_table;
	if (!job_row(o)) {
		if ((++o)->name)
			return o;
		/* back to the job table, after the engine's place */
		for (o = options_table; !(o->flags & OPT_F_ENGINE_NEXT); o++)
			;
	} else if ((o->flags & OPT_F_ENGINE_NEXT) && eng && eng->name) {
		return eng;
	}
	return (++o)->name ? o : NULL;
}

int job_copy(struct job *dst, const struct job *src)
{
	const struct opt_def *o;
	int copied;
	char **s;

	*dst = *src;
	dst->plan.section_file = NULL;
	dst->plan.section_name = NULL;
	dst->plan.sweep_point = NULL;
	dst->runs.check_src = NULL;
	for (o = options_table; o->name; o++)
		if (o->type == OPT_STR || o->type == OPT_SPECIAL)
			*(char **)field(dst, o->off) = NULL;
	/* Every string of dst is now NULL or its own. Both copies below
	 * run, as each first takes its pointers from src: then job_free
	 * is safe whichever fails. */
	copied = engopts_copy(dst, src);
	if (optvalue_copy(dst, src) || copied)
		goto err;
	for (o = options_table; o->name; o++) {
		if (o->type != OPT_STR && o->type != OPT_SPECIAL)
			continue;
		s = field(dst, o->off);
		/* Two options may share a field (cpumask, cpus_allowed) */
		if (*s)
			continue;
		if (*(char *const *)cfield(src, o->off) &&
		    !(*s = strdup(*(char *const *)cfield(src, o->off))))
			goto err;
	}
	if (src->plan.section_file &&
	    !(dst->plan.section_file = strdup(src->plan.section_file)))
		goto err;
	if (src->plan.section_name &&
	    !(dst->plan.section_name = strdup(src->plan.section_name)))
		goto err;
	if (src->plan.sweep_point &&
	    !(dst->plan.sweep_point = strdup(src->plan.sweep_point)))
		goto err;
	if (src->runs.check_src &&
	    !(dst->runs.check_src = strdup(src->runs.check_src)))
		goto err;
	return 0;
err:
	job_free(dst);
	return -ENOMEM;
}

void job_free(struct job *j)
{
	const struct opt_def *o;
	char **s;

	for (o = options_table; o->name; o++) {
		if (o->type != OPT_STR && o->type != OPT_SPECIAL)
			continue;
		s = field(j, o->off);
		free(*s);
		*s = NULL;
	}
	free(j->plan.section_file);
	j->plan.section_file = NULL;
	free(j->plan.section_name);
	j->plan.section_name = NULL;
	free(j->plan.sweep_point);
	j->plan.sweep_point = NULL;
	free(j->runs.check_src);
	j->runs.check_src = NULL;
	optvalue_free(j);
	engopts_release(j);
}

static const char *type_name(const struct opt_def *o)
{
	static const char *const names[] = {
		[OPT_STR] = "text", [OPT_BOOL] = "bool", [OPT_UINT] = "int",
		[OPT_SIZE] = "size", [OPT_SIZE_PCT] = "size|pct",
		[OPT_TIME] = "time", [OPT_PCT] = "pct", [OPT_ENUM] = "choice",
		[OPT_BS] = "size[-size][,...]", [OPT_PLIST] = "list",
		[OPT_RATE] = "int[,int][,int]",
		[OPT_SPECIAL] = "text",
	};

	if (o->choices)
		return "choice";
	if (o->flags & OPT_F_AUTO)
		return "bool|auto";
	return names[o->type];
}

/* A row of engine e's table, when no engine before e has that name. */
static bool first_of_name(const struct engine_ops *const *e,
			  const struct opt_def *o)
{
	const struct engine_ops *const *f;

	for (f = engine_list(); f != e; f++)
		if (options_find_in((*f)->options, o->name))
			return false;
	return true;
}

void options_print_help(FILE *f)
{
	const struct engine_ops *const *e;
	const struct opt_def *o;

	fprintf(f, "\nJob options (in job files as name=value, on the "
		"command line as --name=value):\n");
	for (o = options_table; o->name; o++)
		fprintf(f, "  --%-26s %s\n", o->name, o->help);
	fprintf(f, "\nEngine options (of the engine that ioengine= names; "
		"--enghelp=ENGINE):\n");
	for (e = engine_list(); *e; e++)
		for (o = (*e)->options; o && o->name; o++)
			if (first_of_name(e, o))
				fprintf(f, "  --%-26s %s\n", o->name, o->help);
}

void options_print_row(FILE *f, const struct opt_def *o)
{
	const struct opt_choice *c;
	char lo[32], hi[32];

	fprintf(f, "%s\n", o->name);
	if (o->alias)
		fprintf(f, "  alias:    %s\n", o->alias);
	fprintf(f, "  type:     %s\n", type_name(o));
	fprintf(f, "  default:  %s\n", o->def ? o->def : "(none)");
	if (o->type == OPT_UINT)
		fprintf(f, "  range:    %" PRIu64 " to %" PRIu64 "\n", o->min,
			o->max);
	if (o->type == OPT_TIME)
		fprintf(f, "  unit:     %s when none is given\n",
			o->unit_ns == NS_S ? "s" : o->unit_ns == 1000 ? "us" :
			"ns");
	if (o->type == OPT_TIME && o->max) {
		fmt_time(o->min, lo, sizeof(lo));
		fmt_time(o->max, hi, sizeof(hi));
		fprintf(f, "  range:    %s%s to %s\n",
			(o->flags & OPT_F_ZERO_OFF) ? "0 (off), or " : "",
			lo, hi);
	}
	fprintf(f, "  category: %s\n", o->category);
	fprintf(f, "  %s\n", o->help);
	if (o->choices) {
		fprintf(f, "  values:\n");
		for (c = o->choices; c->name; c++)
			fprintf(f, "    %-12s %s\n", c->name, c->help);
	}
	if (o->set == optvalue_ioengine)
		engine_print_help(f);
}

int options_print_cmdhelp(FILE *f, const char *name)
{
	const struct engine_ops *const *e;
	const struct opt_def *o;

	if (!name) {
		/* the job table, then each engine's options (a name engines
		 * share once) */
		for (o = options_table; o->name; o++)
			fprintf(f, "%-28s %s\n", o->name, o->help);
		for (e = engine_list(); *e; e++)
			for (o = (*e)->options; o && o->name; o++)
				if (first_of_name(e, o))
					fprintf(f, "%-28s %s\n", o->name,
						o->help);
		return 0;
	}
	o = options_find(name);
	if (!o)
		return -ENOENT;
	options_print_row(f, o);
	return 0;
}

void options_print_job(FILE *f, const struct job *j)
{
	const struct opt_def *o;
	char buf[1024];

	for (o = options_next(j, NULL); o; o = options_next(j, o)) {
		options_format(j, o, buf, sizeof(buf));
		fprintf(f, "  %s=%s\n", o->name, buf);
	}
}
