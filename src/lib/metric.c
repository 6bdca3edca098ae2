// SPDX-License-Identifier: MIT
/*
 * The metric namespace (see include/metric.h): names -> figures of a
 * reported unit, their units, thresholds and formatting. Table-driven.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "metric.h"
#include "hist.h"
#include "value.h"

#define METRIC_EXPECTED \
	"expected read. or write. followed by iops, bw, io_bytes, ios, " \
	"errors, short_ios, or slat., clat., lat. or sched_lat. and min, " \
	"max, mean, " \
	"stddev or a percentile pN (p99, p99.9); or errors, cpu.us_per_io, " \
	"cpu.pct, runtime, verify.mismatches, health.media_errors, " \
	"health.error_log_entries, health.critical_warning, " \
	"health.percentage_used"

struct name_kind {
	const char *name;
	int kind;
	int unit;
};

/* Metrics of the whole unit. */
static const struct name_kind unit_metrics[] = {
	{ "errors", MK_ERRORS, MU_COUNT },
	{ "cpu.us_per_io", MK_CPU_US_PER_IO, MU_US },
	{ "cpu.pct", MK_CPU_PCT, MU_PCT },
	{ "runtime", MK_RUNTIME, MU_NS },
	{ "verify.mismatches", MK_VERIFY_MISMATCHES, MU_COUNT },
	{ "health.media_errors", MK_HEALTH_MEDIA_ERRORS, MU_COUNT },
	{ "health.error_log_entries", MK_HEALTH_ERROR_LOG, MU_COUNT },
	{ "health.critical_warning", MK_HEALTH_WARNING, MU_COUNT },
	{ "health.percentage_used", MK_HEALTH_USED, MU_PCT },
	{ NULL, 0, 0 },
};

/* After "read." or "write.". */
static const struct name_kind dir_metrics[] = {
	{ "iops", MK_IOPS, MU_RATE },
	{ "bw", MK_BW, MU_BW },
	{ "io_bytes", MK_IO_BYTES, MU_BYTES },
	{ "ios", MK_IOS, MU_COUNT },
	{ "errors", MK_DIR_ERRORS, MU_COUNT },
	{ "short_ios", MK_SHORT_IOS, MU_COUNT },
	{ NULL, 0, 0 },
};

static const char *const dir_names[DDIR_NR] = DDIR_NAMES;
static const char *const hist_names[] = { "slat", "clat", "lat",
					    "sched_lat" };
static const char *const stat_names[] = { "min", "max", "mean", "stddev" };

/* [p, p + len) is name followed by '.'; returns what follows, or NULL. */
static const char *prefix(const char *p, size_t len, const char *name)
{
	size_t n = strlen(name);

	if (len <= n || strncmp(p, name, n) || p[n] != '.')
		return NULL;
	return p + n + 1;
}

static bool word_eq(const char *p, size_t len, const char *name)
{
	return strlen(name) == len && !strncmp(p, name, len);
}

/* "min", "max", "mean", "stddev" or "pN" after "DIR.HIST.". */
static int parse_stat(const char *p, size_t len, struct metric *m)
{
	char num[32], why[128];
	size_t i;

	for (i = 0; i < sizeof(stat_names) / sizeof(stat_names[0]); i++) {
		if (word_eq(p, len, stat_names[i])) {
			m->stat = (int)i;
			return 0;
		}
	}
	if (len < 2 || len >= sizeof(num) || p[0] != 'p')
		return -EINVAL;
	memcpy(num, p + 1, len - 1);
	num[len - 1] = '\0';
	/* Digits and a dot only: "p(50)" or "p 50" are not names. */
	if (strspn(num, "0123456789.") != len - 1 ||
	    value_double(num, 0, 100, &m->pct, why, sizeof(why)) ||
	    !(m->pct > 0))
		return -EINVAL;
	m->stat = MS_PCT;
	return 0;
}

static int parse_dir_metric(const char *p, size_t len, struct metric *m)
{
	const char *rest;
	size_t i;

	for (i = 0; dir_metrics[i].name; i++) {
		if (word_eq(p, len, dir_metrics[i].name)) {
			m->kind = dir_metrics[i].kind;
			return 0;
		}
	}
	for (i = 0; i < sizeof(hist_names) / sizeof(hist_names[0]); i++) {
		rest = prefix(p, len, hist_names[i]);
		if (!rest)
			continue;
		m->kind = MK_HIST;
		m->hist = (int)i;
		return parse_stat(rest, len - (size_t)(rest - p), m);
	}
	return -EINVAL;
}

static void metric_set_name(struct metric *m)
{
	char pct[40];

	if (m->dir < 0) {
		size_t i;

		for (i = 0; unit_metrics[i].name; i++)
			if (unit_metrics[i].kind == m->kind)
				snprintf(m->name, sizeof(m->name), "%s",
					 unit_metrics[i].name);
		return;
	}
	if (m->kind != MK_HIST) {
		size_t i;

		for (i = 0; dir_metrics[i].name; i++)
			if (dir_metrics[i].kind == m->kind)
				snprintf(m->name, sizeof(m->name), "%s.%s",
					 dir_names[m->dir],
					 dir_metrics[i].name);
		return;
	}
	if (m->stat == MS_PCT)
		value_fmt_shortest(m->pct, pct, sizeof(pct));
	snprintf(m->name, sizeof(m->name), "%s.%s.%s%s", dir_names[m->dir],
		 hist_names[m->hist], m->stat == MS_PCT ? "p" :
		 stat_names[m->stat], m->stat == MS_PCT ? pct : "");
}

int metric_parse(const char *name, size_t len, struct metric *m, char *why,
		 size_t whylen)
{
	const char *rest;
	size_t i;
	int d;

	memset(m, 0, sizeof(*m));
	m->dir = -1;
	for (i = 0; unit_metrics[i].name; i++) {
		if (word_eq(name, len, unit_metrics[i].name)) {
			m->kind = unit_metrics[i].kind;
			metric_set_name(m);
			return 0;
		}
	}
	for (d = 0; d < DDIR_NR; d++) {
		rest = prefix(name, len, dir_names[d]);
		if (!rest)
			continue;
		m->dir = d;
		if (parse_dir_metric(rest, len - (size_t)(rest - name), m))
			break;
		metric_set_name(m);
		return 0;
	}
	snprintf(why, whylen, "unknown metric '%.*s'; %s",
		 (int)(len > 64 ? 64 : len), name, METRIC_EXPECTED);
	return -EINVAL;
}

int metric_unit(const struct metric *m)
{
	size_t i;

	if (m->kind == MK_HIST)
		return MU_NS;
	for (i = 0; dir_metrics[i].name; i++)
		if (dir_metrics[i].kind == m->kind)
			return dir_metrics[i].unit;
	for (i = 0; unit_metrics[i].name; i++)
		if (unit_metrics[i].kind == m->kind)
			return unit_metrics[i].unit;
	return MU_COUNT;
}

/* "1.5GiB/s" -> "1.5GiB" in buf; false when it does not fit. */
static bool strip_per_s(const char *s, char *buf, size_t len)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n >= 2 && !strncasecmp(s + n - 2, "/s", 2))
		n -= 2;
	if (n >= len)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

static int threshold_pct(const char *s, double *out, char *why,
			 size_t whylen)
{
	char buf[128];
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n && s[n - 1] == '%')
		n--;
	if (n >= sizeof(buf)) {
		snprintf(why, whylen, "'%.40s...' is too long; expected a "
			 "percentage such as 5 or 5%%", s);
		return -EINVAL;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	return value_double(buf, 0, 1e12, out, why, whylen);
}

int metric_threshold(int unit, const char *s, unsigned kb_base, double *out,
		     char *why, size_t whylen)
{
	char buf[128];
	uint64_t v;
	int ret;

	switch (unit) {
	case MU_COUNT:
	case MU_RATE:
		return value_count(s, out, why, whylen);
	case MU_BW:
		if (!strip_per_s(s, buf, sizeof(buf))) {
			snprintf(why, whylen, "'%.40s...' is too long; "
				 "expected a rate such as 500MiB/s", s);
			return -EINVAL;
		}
		ret = value_size(buf, kb_base, &v, why, whylen);
		break;
	case MU_BYTES:
		ret = value_size(s, kb_base, &v, why, whylen);
		break;
	case MU_NS:
		ret = value_time(s, 1, &v, why, whylen);
		break;
	case MU_US:
		ret = value_time(s, 1000, &v, why, whylen);
		if (!ret)
			*out = (double)v / 1000;
		return ret;
	default:
		return threshold_pct(s, out, why, whylen);
	}
	if (!ret)
		*out = (double)v;
	return ret;
}

struct scale {
	double base;
	const char *unit[5];
};

static void fmt_scaled(double v, const struct scale *s, char *buf,
		       size_t len)
{
	unsigned u = 0;

	while (fabs(v) >= 999.995 && u < 4) {
		v /= s->base;
		u++;
	}
	snprintf(buf, len, "%.2f%s", v, s->unit[u]);
}

void metric_format(int unit, double v, char *buf, size_t len)
{
	static const struct scale rate = { 1000, { "", "k", "M", "G", "T" } };
	static const struct scale bw = {
		1024, { "B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s" }
	};

	if (!isfinite(v)) {
		snprintf(buf, len, "%g", v);
		return;
	}
	switch (unit) {
	case MU_COUNT:
		if (v == floor(v) && fabs(v) < 1e15)
			snprintf(buf, len, "%.0f", v);
		else
			snprintf(buf, len, "%.2f", v);
		break;
	case MU_RATE:
		fmt_scaled(v, &rate, buf, len);
		break;
	case MU_BYTES:
		value_fmt_bytes(v > 0 ? (uint64_t)llround(v) : 0, buf, len);
		break;
	case MU_BW:
		fmt_scaled(v, &bw, buf, len);
		break;
	case MU_NS:
		value_fmt_ns(v, buf, len);
		break;
	case MU_US:
		snprintf(buf, len, "%.2fus", v);
		break;
	default:
		snprintf(buf, len, "%.2f%%", v);
		break;
	}
}

unsigned metric_headlines(unsigned dirs, struct metric *out)
{
	static const char *const per_dir[] = {
		"iops", "bw", "lat.mean", "lat.p99",
	};
	char name[METRIC_NAME_MAX], why[8];
	unsigned n = 0;
	size_t i;
	int d;

	for (d = 0; d < DDIR_NR; d++) {
		if (!(dirs & (1u << d)))
			continue;
		for (i = 0; i < sizeof(per_dir) / sizeof(per_dir[0]); i++) {
			snprintf(name, sizeof(name), "%s.%s", dir_names[d],
				 per_dir[i]);
			metric_parse(name, strlen(name), &out[n++], why,
				     sizeof(why));
		}
	}
	metric_parse("cpu.us_per_io", strlen("cpu.us_per_io"), &out[n++],
		     why, sizeof(why));
	return n;
}

void metric_spread(const double *v, unsigned n, struct metric_spread *s)
{
	long double sum = 0, sq = 0;
	unsigned i;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n)
		return;
	s->min = s->max = v[0];
	for (i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < s->min)
			s->min = v[i];
		if (v[i] > s->max)
			s->max = v[i];
	}
	s->mean = (double)(sum / n);
	if (n > 1) {
		for (i = 0; i < n; i++)
			sq += ((long double)v[i] - s->mean) *
			      ((long double)v[i] - s->mean);
		s->stddev = (double)sqrtl(sq / (n - 1));
	}
	if (s->mean != 0)
		s->cv_pct = s->stddev / fabs(s->mean) * 100;
}
/* How metric_fmt scales a unit of metric.h: by base, into u[]. */
struct unit_scale {
	double base;
	const char *sep;
	bool whole;		/* no decimals in u[0] (counted things) */
	const char *u[5];
};

static const struct unit_scale scales[] = {
	[MU_NS] = { 1000, " ", true, { "ns", "µs", "ms", "s", "ks" } },
	[MU_RATE] = { 1000, "", false, { "", "k", "M", "G", "T" } },
	[MU_BYTES] = { 1024, " ", true, { "B", "KiB", "MiB", "GiB", "TiB" } },
	[MU_BW] = { 1024, " ", false,
		    { "B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s" } },
};

void metric_fmt(int unit, double v, unsigned sig, char *buf, size_t len)
{
	const struct unit_scale *sc;
	size_t n = 0;

	if (unit == MU_US) {		/* a time like any other */
		unit = MU_NS;
		v *= 1e3;
	}
	if (unit == MU_PCT) {
		snprintf(buf, len, "%.*g %%", (int)sig, v);
		return;
	}
	if (unit < 0 || unit >= (int)(sizeof(scales) / sizeof(scales[0])) ||
	    !scales[unit].u[0]) {
		snprintf(buf, len, "%.15g", v);
		return;
	}
	sc = &scales[unit];
	if (v < 0 && len > 1) {
		buf[n++] = '-';
		v = -v;
	}
	value_fmt_sig(v, sc->base, sc->u, sc->sep, sc->whole, sig, buf + n,
		      len - n);
}

