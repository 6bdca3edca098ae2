// SPDX-License-Identifier: MIT
/*
 * Random patterns: parsing random_distribution= and bssplit=, Walker's
 * alias tables, and the skewed laws of random offsets (dist.h).
 *
 * The laws, as fio's manual defines the options:
 * - zipf:theta: rank k (1-based) has probability proportional to
 *   1 / k^theta. Drawn exactly in O(1) by rejection-inversion (Hormann and
 *   Derflinger, "Rejection-inversion to generate variates from monotone
 *   discrete distributions", 1996): invert the integral H of x^-theta over
 *   [1.5 - 1, n + 0.5], round, and accept unless the point fell in the
 *   sliver between the integral and the histogram.
 * - pareto:h: rank = n * u^p with p = ln h / ln(1 - h), so a fraction x
 *   of the ranks gets x^(1/p) of the I/Os (h = 0.2: 20% of the blocks get
 *   80% of the I/Os).
 * - normal:sigma: fio's law: the mean of 12 ranks uniform over [0, n)
 *   (close to a normal law of standard deviation n / 12 around the
 *   middle), plus, when sigma > 0, a uniform spread of width sigma% of n
 *   centred on 0, halved until the rank falls inside.
 * The generator scatters ranks over the file with a keyed bijection (gen.c)
 * so that hot blocks are not neighbours, as fio's hashing does, and puts
 * the most frequent rank at `center` of the range.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist.h"
#include "value.h"

#define ITEM_MAX	4096

/* Splits "r[,w[,t]]": returns the number of items (1..3), or -EINVAL. */
static int split_dirs(const char *s, char items[3][ITEM_MAX], char *why,
		      size_t whylen)
{
	const char *p = s;
	int n = 0;

	for (;;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);

		if (n == 3 || len >= ITEM_MAX) {
			snprintf(why, whylen, "'%s': expected at most three "
				 "comma-separated lists (reads, writes, "
				 "trims)", s);
			return -EINVAL;
		}
		memcpy(items[n], p, len);
		items[n++][len] = '\0';
		if (!c)
			return n;
		p = c + 1;
	}
}

/* "A/B" items joined by ':': count and the two halves (b NULL: none). */
static int split_pairs(char *list, char **a, char **b, unsigned max,
		       unsigned *n, const char *what, char *why, size_t whylen)
{
	char *save = NULL, *tok;

	*n = 0;
	for (tok = strtok_r(list, ":", &save); tok;
	     tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');

		if (*n == max) {
			snprintf(why, whylen, "more than %u %s", max, what);
			return -EINVAL;
		}
		if (slash)
			*slash = '\0';
		a[*n] = tok;
		b[*n] = slash ? slash + 1 : NULL;
		(*n)++;
	}
	if (!*n) {
		snprintf(why, whylen, "expected at least one %s", what);
		return -EINVAL;
	}
	return 0;
}

/* A percentage 0..100, or blank (-1) for an empty string or NULL. */
static int parse_perc(const char *s, double *out, char *why, size_t whylen)
{
	if (!s || !*s) {
		*out = -1;
		return 0;
	}
	return value_double(s, 0, 100, out, why, whylen);
}

/*
 * Blanks (-1) share what the others leave of 100 evenly. The given ones
 * must add up to at most 100, and with no blank to exactly 100 (fio gives
 * the rest to one entry without saying so).
 */
static int fill_blanks(double *p, unsigned n, const char *what, char *why,
		       size_t whylen)
{
	double sum = 0;
	unsigned i, blanks = 0;

	for (i = 0; i < n; i++) {
		if (p[i] < 0)
			blanks++;
		else
			sum += p[i];
	}
	if (sum > 100 + 1e-9 || (!blanks && fabs(sum - 100) > 1e-9)) {
		snprintf(why, whylen, "%s add up to %g%%; expected 100%% "
			 "(an entry with no percentage shares what is left)",
			 what, sum);
		return -EINVAL;
	}
	for (i = 0; i < n; i++)
		if (p[i] < 0)
			p[i] = (100 - sum) / blanks;
	return 0;
}

static int parse_zones(char *list, bool abs, unsigned kb,
		       struct dist_zone *z, unsigned *nz, char *why,
		       size_t whylen)
{
	char *a[DIST_ZONES_MAX], *b[DIST_ZONES_MAX];
	double acc[DIST_ZONES_MAX], rng[DIST_ZONES_MAX];
	unsigned i, n;
	int ret;

	ret = split_pairs(list, a, b, DIST_ZONES_MAX, &n, "zones", why,
			  whylen);
	for (i = 0; !ret && i < n; i++) {
		ret = parse_perc(a[i], &acc[i], why, whylen);
		if (ret || !abs) {
			if (!ret)
				ret = parse_perc(b[i], &rng[i], why, whylen);
			continue;
		}
		if (!b[i] || !*b[i]) {
			snprintf(why, whylen, "zone %u: expected ACCESS%%/SIZE "
				 "such as 60/20G", i + 1);
			return -EINVAL;
		}
		uint64_t sz;

		ret = value_size(b[i], kb, &sz, why, whylen);
		rng[i] = (double)sz;
	}
	if (!ret)
		ret = fill_blanks(acc, n, "zone access percentages", why,
				  whylen);
	if (!ret && !abs) {
		double sum = 0;

		for (i = 0; i < n; i++)
			sum += rng[i] < 0 ? 0 : rng[i];
		if (sum > 100 + 1e-9) {
			snprintf(why, whylen, "zone ranges add up to %g%%; "
				 "expected at most 100%%", sum);
			return -EINVAL;
		}
		for (i = 0, sum = 0; i < n; i++)
			if (rng[i] >= 0)
				sum += rng[i];
		unsigned blanks = 0;

		for (i = 0; i < n; i++)
			blanks += rng[i] < 0;
		for (i = 0; i < n; i++)
			if (rng[i] < 0)
				rng[i] = (100 - sum) / blanks;
	}
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		z[i].access = acc[i];
		z[i].size = rng[i];
	}
	*nz = n;
	return 0;
}

static const struct {
	const char *name;
	int kind;
	double def;		/* fio's default parameter */
	double lo, hi;		/* allowed: lo < x < hi, or <= for normal */
} kinds[] = {
	{ "random", DIST_RANDOM, 0, 0, 0 },
	{ "zipf", DIST_ZIPF, 1.1, 0, 1e9 },
	{ "pareto", DIST_PARETO, 0.2, 0, 1 },
	{ "normal", DIST_NORMAL, 0, 0, 100 },
	{ "zoned", DIST_ZONED, 0, 0, 0 },
	{ "zoned_abs", DIST_ZONED_ABS, 0, 0, 0 },
};

#define KINDS_EXPECTED "expected random, zipf[:THETA[:CENTER]], " \
	"pareto[:H[:CENTER]], normal[:SIGMA[:CENTER]], zoned:ACCESS/RANGE:..." \
	" or zoned_abs:ACCESS/SIZE:..."

int dist_parse(const char *s, unsigned kb, struct dist_spec *d, char *why,
	       size_t whylen)
{
	char items[3][ITEM_MAX];	/* 12 KiB: workers call this at once */
	const char *colon = strchr(s, ':');
	size_t nlen = colon ? (size_t)(colon - s) : strlen(s);
	unsigned k, dir;
	int n, ret;

	memset(d, 0, sizeof(*d));
	d->center = -1;
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (strlen(kinds[k].name) == nlen &&
		    !strncmp(kinds[k].name, s, nlen))
			break;
	if (k == sizeof(kinds) / sizeof(kinds[0])) {
		snprintf(why, whylen, "'%s': unknown distribution; "
			 KINDS_EXPECTED, s);
		return -EINVAL;
	}
	d->kind = kinds[k].kind;
	d->param = kinds[k].def;
	if (d->kind == DIST_RANDOM) {
		if (colon) {
			snprintf(why, whylen, "'%s': random takes no "
				 "parameter", s);
			return -EINVAL;
		}
		return 0;
	}
	if (d->kind == DIST_ZONED || d->kind == DIST_ZONED_ABS) {
		if (!colon || !colon[1]) {
			snprintf(why, whylen, "'%s': expected zones such as "
				 "%s:60/10:40/90", s, kinds[k].name);
			return -EINVAL;
		}
		n = split_dirs(colon + 1, items, why, whylen);
		if (n < 0)
			return n;
		for (dir = 0; dir < DDIR_NR; dir++) {
			/* A direction not given takes the last one given
			 * (trims the writes'). */
			if (dir >= (unsigned)n) {
				d->nzones[dir] = d->nzones[n - 1];
				memcpy(d->zones[dir], d->zones[n - 1],
				       sizeof(d->zones[0]));
				continue;
			}
			ret = parse_zones(items[dir], d->kind == DIST_ZONED_ABS,
					  kb, d->zones[dir], &d->nzones[dir],
					  why, whylen);
			if (ret)
				return ret;
		}
		return 0;
	}
	if (colon && colon[1]) {
		char buf[64], *c2;
		double v;

		snprintf(buf, sizeof(buf), "%s", colon + 1);
		c2 = strchr(buf, ':');
		if (c2) {
			*c2 = '\0';
			ret = value_double(c2 + 1, 0, 1, &d->center, why,
					   whylen);
			if (ret)
				return ret;
		}
		ret = value_double(buf, kinds[k].lo, kinds[k].hi, &v, why,
				   whylen);
		if (ret)
			return ret;
		if ((d->kind != DIST_NORMAL && v <= kinds[k].lo) ||
		    (d->kind != DIST_NORMAL && v >= kinds[k].hi) ||
		    (d->kind == DIST_NORMAL && v >= kinds[k].hi)) {
			snprintf(why, whylen, "'%s': %s takes a value above %g "
				 "and below %g", s, kinds[k].name,
				 kinds[k].lo, kinds[k].hi);
			return -EINVAL;
		}
		d->param = v;
	}
	return 0;
}

int bssplit_parse(const char *s, unsigned kb, struct bssplit_spec *b,
		  char *why, size_t whylen)
{
	char items[3][ITEM_MAX];	/* 12 KiB: workers call this at once */
	char *a[BSSPLIT_MAX], *p[BSSPLIT_MAX];
	double perc[BSSPLIT_MAX];
	unsigned i, n, dir;
	int nd, ret;

	memset(b, 0, sizeof(*b));
	nd = split_dirs(s, items, why, whylen);
	if (nd < 0)
		return nd;
	for (dir = 0; dir < (unsigned)nd; dir++) {
		struct bssplit_entry *e = b->e[dir < DDIR_NR ? dir : 0];
		uint64_t min = UINT64_MAX;

		if (!items[dir][0] && nd > 1)
			continue;	/* "4k/50:8k/50," : that direction bs= */
		ret = split_pairs(items[dir], a, p, BSSPLIT_MAX, &n,
				  "block sizes", why, whylen);
		for (i = 0; !ret && i < n; i++)
			ret = parse_perc(p[i], &perc[i], why, whylen);
		if (!ret)
			ret = fill_blanks(perc, n, "bssplit percentages", why,
					  whylen);
		for (i = 0; !ret && i < n; i++) {
			uint64_t bs;

			ret = value_size(a[i], kb, &bs, why, whylen);
			if (!ret && (!bs || bs > (1u << 30))) {
				snprintf(why, whylen, "block size '%s': "
					 "expected 1 byte to 1GiB", a[i]);
				ret = -EINVAL;
			}
			if (ret)
				break;
			if (dir < DDIR_NR) {
				e[i].bs = bs;
				e[i].perc = perc[i];
			}
			if (bs < min)
				min = bs;
		}
		if (ret)
			return ret;
		/* fio rounds every size down to a multiple of the smallest:
		 * 6k in 4k/50:6k/50 becomes 4k without a word. */
		for (i = 0; dir < DDIR_NR && i < n; i++) {
			if (e[i].bs % min) {
				snprintf(why, whylen, "block size %llu is not a "
					 "multiple of the smallest, %llu (fio "
					 "would issue %llu)",
					 (unsigned long long)e[i].bs,
					 (unsigned long long)min,
					 (unsigned long long)(e[i].bs / min *
							      min));
				return -EINVAL;
			}
		}
		if (dir < DDIR_NR)
			b->n[dir] = n;
	}
	/* A direction not given takes the last one given (trims: the
	 * writes' split). */
	for (dir = (unsigned)nd; dir < DDIR_NR; dir++) {
		b->n[dir] = b->n[nd - 1];
		memcpy(b->e[dir], b->e[nd - 1], sizeof(b->e[0]));
	}
	return 0;
}

/*
 * Vose's form of Walker's method: entries below the mean are topped up
 * from one above it, which then stands for the rest. thresh is in 2^32
 * parts of a column.
 */
void dist_alias_init(struct dist_alias *a, const double *w, unsigned n)
{
	double p[DIST_ZONES_MAX], sum = 0;
	unsigned small[DIST_ZONES_MAX], large[DIST_ZONES_MAX];
	unsigned ns = 0, nl = 0, i;

	a->n = n;
	for (i = 0; i < n; i++)
		sum += w[i];
	for (i = 0; i < n; i++) {
		p[i] = sum > 0 ? w[i] * n / sum : 1;
		a->alias[i] = (uint16_t)i;
		if (p[i] < 1)
			small[ns++] = i;
		else
			large[nl++] = i;
	}
	while (ns && nl) {
		unsigned s = small[--ns], l = large[nl - 1];

		a->thresh[s] = (uint32_t)(p[s] * 4294967296.0);
		a->alias[s] = (uint16_t)l;
		p[l] -= 1 - p[s];
		if (p[l] < 1) {
			nl--;
			small[ns++] = l;
		}
	}
	/* What is left is 1 up to rounding: always itself. */
	while (nl)
		a->thresh[large[--nl]] = UINT32_MAX;
	while (ns)
		a->thresh[small[--ns]] = UINT32_MAX;
}

/* H(x) = integral of t^-theta from 1 to x; log x when theta is 1. */
static double zipf_h_int(double theta, double x)
{
	double lx = log(x), t = (1 - theta) * lx;

	return (fabs(t) > 1e-8 ? expm1(t) / t : 1 + t / 2) * lx;
}

static double zipf_h(double theta, double x)
{
	return exp(-theta * log(x));
}

static double zipf_h_inv(double theta, double y)
{
	double t = y * (1 - theta);

	if (t < -1)
		t = -1;
	return exp((fabs(t) > 1e-8 ? log1p(t) / t : 1 - t / 2) * y);
}

void dist_law_init(struct dist_law *l, int kind, double param, uint64_t n)
{
	memset(l, 0, sizeof(*l));
	l->kind = kind;
	l->n = n ? n : 1;
	switch (kind) {
	case DIST_ZIPF:
		l->theta = param;
		l->hx1 = zipf_h_int(param, 1.5) - 1;
		l->hxn = zipf_h_int(param, (double)l->n + 0.5);
		l->sq = 2 - zipf_h_inv(param, zipf_h_int(param, 2.5) -
				       zipf_h(param, 2));
		break;
	case DIST_PARETO:
		l->pw = log(param) / log(1 - param);
		break;
	case DIST_NORMAL: {
		double w = ceil((double)l->n * param / 100);

		if (w > (double)(l->n / 2))
			w = (double)(l->n / 2);
		l->dev = (uint64_t)w;
		break;
	}
	}
}

uint64_t dist_law_mode(const struct dist_law *l)
{
	return l->kind == DIST_NORMAL ? (l->n - 1) / 2 : 0;
}

uint64_t dist_law_draw(const struct dist_law *l, double (*u)(void *),
		       void *ctx)
{
	uint64_t n = l->n, k;
	double x, y;
	int i;

	switch (l->kind) {
	case DIST_ZIPF:
		for (;;) {
			y = l->hxn + u(ctx) * (l->hx1 - l->hxn);
			x = zipf_h_inv(l->theta, y);
			k = x < 1.5 ? 1 : (uint64_t)(x + 0.5);
			if (k > n)
				k = n;
			if ((double)k - x <= l->sq ||
			    y >= zipf_h_int(l->theta, (double)k + 0.5) -
				 zipf_h(l->theta, (double)k))
				return k - 1;
		}
	case DIST_PARETO:
		k = (uint64_t)((double)n * pow(u(ctx), l->pw));
		return k < n ? k : n - 1;
	case DIST_NORMAL: {
		int64_t sum = 0, dev;

		for (i = 0; i < 12; i++)
			sum += (int64_t)(u(ctx) * (double)n);
		sum = (sum + 11) / 12;
		if (l->dev) {
			dev = (int64_t)(u(ctx) * (double)l->dev) -
			      (int64_t)(l->dev / 2);
			while (sum + dev < 0 || sum + dev >= (int64_t)n)
				dev /= 2;
			sum += dev;
		}
		return sum < (int64_t)n ? (uint64_t)sum : n - 1;
	}
	}
	return 0;
}
