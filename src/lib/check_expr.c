// SPDX-License-Identifier: MIT
/*
 * The grammar of a check expression (include/check_expr.h): text to a
 * struct check_expr, pure. Binding checks to units and evaluating them
 * after the run is check.c's.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "check_expr.h"
#include "value.h"

#define CHECK_EXPECTED \
	"expected [JOB:]METRIC OP VALUE such as read.iops>=50k, " \
	"read.clat.p99<=2ms or errors==0"

static const struct {
	const char *text;
	int op;
} ops[] = {
	/* Two-character operators first. */
	{ ">=", CHECK_GE }, { "<=", CHECK_LE }, { "==", CHECK_EQ },
	{ "!=", CHECK_NE }, { ">", CHECK_GT }, { "<", CHECK_LT },
};

static const char *const func_names[] = {
	[CHECK_F_NONE] = NULL, [CHECK_F_MEAN] = "mean",
	[CHECK_F_STDDEV] = "stddev", [CHECK_F_CV] = "cv",
	[CHECK_F_MIN] = "min", [CHECK_F_MAX] = "max",
};


const char *check_op_text(int op)
{
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ops[i].op == op)
			return ops[i].text;
	return "?";
}

const char *check_func_name(int func)
{
	if (func < 0 || func > CHECK_F_MAX)
		return NULL;
	return func_names[func];
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* [*b, *e) without leading and trailing blanks. */
static void trim(const char **b, const char **e)
{
	while (*b < *e && blank(**b))
		(*b)++;
	while (*e > *b && blank((*e)[-1]))
		(*e)--;
}

/* Fails with "'TEXT': DETAIL" in why; returns -EINVAL. */
__attribute__((format(printf, 4, 5)))
static int bad(const char *text, char *why, size_t whylen, const char *fmt,
	       ...)
{
	char detail[768];
	size_t len = strlen(text);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	snprintf(why, whylen, "'%.*s%s': %s", (int)(len > CHECK_QUOTE_MAX ?
		 CHECK_QUOTE_MAX : len), text, len > CHECK_QUOTE_MAX ? "..." : "",
		 detail);
	return -EINVAL;
}

/* The first comparison operator in [b, e): its position and kind. */
static const char *find_op(const char *b, const char *e, int *op,
			   size_t *oplen)
{
	const char *p;
	size_t i, n;

	for (p = b; p < e; p++) {
		if (!strchr("<>=!", *p))
			continue;
		for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
			n = strlen(ops[i].text);
			if ((size_t)(e - p) >= n &&
			    !strncmp(p, ops[i].text, n)) {
				*op = ops[i].op;
				*oplen = n;
				return p;
			}
		}
		return p;	/* a lone '=' or '!' */
	}
	return NULL;
}

/* LHS: "metric" or "func(metric)", after the scope. */
static int parse_lhs(const char *text, const char *b, const char *e,
		     struct check_expr *x, char *why, size_t whylen)
{
	const char *open = memchr(b, '(', (size_t)(e - b)), *fb, *fe;
	char mwhy[512];
	int f;

	x->func = CHECK_F_NONE;
	if (open) {
		fb = b;
		fe = open;
		trim(&fb, &fe);
		if (e[-1] != ')' || memchr(open + 1, '(', (size_t)(e - open -
								  1)))
			return bad(text, why, whylen, "expected FUNCTION("
				   "METRIC) such as cv(read.iops)");
		for (f = CHECK_F_MEAN; f <= CHECK_F_MAX; f++)
			if ((size_t)(fe - fb) == strlen(func_names[f]) &&
			    !strncmp(fb, func_names[f], (size_t)(fe - fb)))
				break;
		if (f > CHECK_F_MAX)
			return bad(text, why, whylen, "unknown function "
				   "'%.*s'; expected mean, stddev, cv, min or "
				   "max", (int)(fe - fb > 32 ? 32 : fe - fb),
				   fb);
		x->func = f;
		b = open + 1;
		e--;
		trim(&b, &e);
	}
	if (b == e)
		return bad(text, why, whylen, "no metric; %s", CHECK_EXPECTED);
	if (metric_parse(b, (size_t)(e - b), &x->m, mwhy, sizeof(mwhy)))
		return bad(text, why, whylen, "%s", mwhy);
	x->unit = x->func == CHECK_F_CV ? MU_PCT : metric_unit(&x->m);
	return 0;
}

/* RHS "baseline", "F*baseline" or "baseline*F"; false when not one. */
static bool baseline_rhs(const char *b, const char *e, char *factor,
			 size_t len)
{
	static const char word[] = "baseline";
	const size_t n = sizeof(word) - 1;
	const char *fb = b, *fe = e;

	if ((size_t)(e - b) >= n && !strncmp(e - n, word, n)) {
		fe = e - n;
		trim(&fb, &fe);
		if (fe > fb && fe[-1] == '*')
			fe--;
		else if (fe != fb)
			return false;
	} else if ((size_t)(e - b) >= n && !strncmp(b, word, n)) {
		fb = b + n;
		trim(&fb, &fe);
		if (fb == fe || *fb != '*')
			return false;
		fb++;
	} else {
		return false;
	}
	trim(&fb, &fe);
	snprintf(factor, len, "%.*s", (int)(fe - fb), fb);
	return true;
}

#define CHECK_HISTORY_EXPECTED \
	"expected history.STAT, F*history.STAT or two of them, and values " \
	"of the metric, added or subtracted, such as history.p10, " \
	"history[20].mean+3*history[20].stddev or history.max+1ms " \
	"(STAT: mean, median, stddev, min, max, pN)"

/* "history[N].STAT" exactly, in [b, e): 0 or -EINVAL. */
static int parse_href(const char *b, const char *e, struct check_hterm *t)
{
	static const char *const names[] = {
		[CHECK_H_MEAN] = "mean", [CHECK_H_MEDIAN] = "median",
		[CHECK_H_STDDEV] = "stddev", [CHECK_H_MIN] = "min",
		[CHECK_H_MAX] = "max",
	};
	char buf[64], why[128], *end;
	unsigned long n;
	size_t i;

	if ((size_t)(e - b) < 9 || strncmp(b, "history", 7))
		return -EINVAL;
	b += 7;
	t->last = 0;
	if (*b == '[') {
		n = strtoul(b + 1, &end, 10);
		if (end == b + 1 || *end != ']' || !n || n > 1000000)
			return -EINVAL;
		t->last = (unsigned)n;
		b = end + 1;
	}
	if (b >= e || *b != '.' || (size_t)(e - b) >= sizeof(buf))
		return -EINVAL;
	b++;
	snprintf(buf, sizeof(buf), "%.*s", (int)(e - b), b);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(buf, names[i])) {
			t->stat = (int)i;
			return 0;
		}
	if (buf[0] != 'p' || value_double(buf + 1, 0, 100, &t->pct, why,
					  sizeof(why)))
		return -EINVAL;
	t->stat = CHECK_H_PCT;
	return 0;
}

/* One term: [F*]HREF or HREF*F, its sign given. */
static int parse_hterm(const char *b, const char *e, double sign,
		       struct check_hterm *t)
{
	const char *h = memmem(b, (size_t)(e - b), "history", 7), *star;
	char buf[64], why[128];
	const char *fb = NULL, *fe = NULL, *rb = h, *re = e;

	if (!h)
		return -EINVAL;
	t->factor = 1;
	if (h > b) {		/* F* before it */
		star = h - 1;
		while (star > b && blank(*star))
			star--;
		if (*star != '*')
			return -EINVAL;
		fb = b;
		fe = star;
	} else if ((star = memchr(h, '*', (size_t)(e - h)))) {
		re = star;
		fb = star + 1;
		fe = e;
	}
	trim(&rb, &re);
	if (parse_href(rb, re, t))
		return -EINVAL;
	if (fb) {
		trim(&fb, &fe);
		if (fb == fe || (size_t)(fe - fb) >= sizeof(buf))
			return -EINVAL;
		snprintf(buf, sizeof(buf), "%.*s", (int)(fe - fb), fb);
		if (value_double(buf, 0, 1e9, &t->factor, why, sizeof(why)))
			return -EINVAL;
	}
	t->factor *= sign;
	return 0;
}

/* A term without the history: a value in the metric's unit, added. */
static int parse_hconst(const char *b, const char *e, double sign,
			unsigned kb_base, struct check_expr *x)
{
	char buf[64], why[256];
	double v;

	trim(&b, &e);
	if (b == e || (size_t)(e - b) >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%.*s", (int)(e - b), b);
	if (metric_threshold(x->unit, buf, kb_base, &v, why, sizeof(why)))
		return -EINVAL;
	x->threshold += sign * v;
	return 0;
}

/* RHS of terms of the history; [b, e) names "history". */
static int parse_history(const char *text, const char *b, const char *e,
			 unsigned kb_base, struct check_expr *x, char *why,
			 size_t whylen)
{
	const char *p, *tb = b;
	double sign = 1;

	if (x->func != CHECK_F_NONE && x->func != CHECK_F_MEAN)
		return bad(text, why, whylen, "the history compares a plain "
			   "metric or mean(), not %s()", func_names[x->func]);
	for (p = b; p <= e; p++) {
		/* a sign, not the exponent of a number (1e-3) */
		if (p < e && (*p != '+' && *p != '-'))
			continue;
		if (p < e && p > b && (p[-1] == 'e' || p[-1] == 'E') &&
		    p - 1 > b && p[-2] >= '0' && p[-2] <= '9')
			continue;
		if (!memmem(tb, (size_t)(p - tb), "history", 7)) {
			if (parse_hconst(tb, p, sign, kb_base, x))
				return bad(text, why, whylen, "%s",
					   CHECK_HISTORY_EXPECTED);
		} else if (x->nhist == CHECK_HTERMS_MAX ||
			   parse_hterm(tb, p, sign, &x->hist[x->nhist])) {
			return bad(text, why, whylen, "%s",
				   CHECK_HISTORY_EXPECTED);
		} else {
			x->nhist++;
		}
		if (p < e)
			sign = *p == '-' ? -1 : 1;
		tb = p + 1;
	}
	return 0;
}

bool check_hstat(const struct check_hterm *t, double *v, unsigned n,
		 double *out)
{
	struct metric_spread s;
	double rank;
	unsigned i, k;

	if (!n || (t->stat == CHECK_H_STDDEV && n < 2))
		return false;
	/* sorted: insertion (a history's window is small) */
	for (i = 1; i < n; i++) {
		double x = v[i];

		for (k = i; k > 0 && v[k - 1] > x; k--)
			v[k] = v[k - 1];
		v[k] = x;
	}
	metric_spread(v, n, &s);
	switch (t->stat) {
	case CHECK_H_MEAN: *out = s.mean; return true;
	case CHECK_H_STDDEV: *out = s.stddev; return true;
	case CHECK_H_MIN: *out = v[0]; return true;
	case CHECK_H_MAX: *out = v[n - 1]; return true;
	default:
		break;
	}
	rank = (t->stat == CHECK_H_MEDIAN ? 50 : t->pct) / 100 * (n - 1);
	k = (unsigned)floor(rank);
	*out = k + 1 < n ? v[k] + (v[k + 1] - v[k]) * (rank - k) : v[n - 1];
	return true;
}

static int parse_rhs(const char *text, const char *b, const char *e,
		     unsigned kb_base, struct check_expr *x, char *why,
		     size_t whylen)
{
	char buf[256], factor[128], twhy[512];

	if (b == e)
		return bad(text, why, whylen, "no value after '%s'; %s",
			   check_op_text(x->op), CHECK_EXPECTED);
	if ((size_t)(e - b) >= sizeof(buf))
		return bad(text, why, whylen, "the value is too long");
	if (memmem(b, (size_t)(e - b), "history", 7))
		return parse_history(text, b, e, kb_base, x, why, whylen);
	if (memmem(b, (size_t)(e - b), "baseline", 8)) {
		if (!baseline_rhs(b, e, factor, sizeof(factor)))
			return bad(text, why, whylen, "expected baseline, "
				   "F*baseline or baseline*F such as "
				   "0.95*baseline");
		x->baseline = true;
		x->factor = 1;
		if (factor[0] && value_double(factor, 0, 1e9, &x->factor,
					      twhy, sizeof(twhy)))
			return bad(text, why, whylen, "the factor: %s", twhy);
		if (x->func != CHECK_F_NONE && x->func != CHECK_F_MEAN)
			return bad(text, why, whylen, "baseline compares a "
				   "plain metric or mean(), not %s()",
				   func_names[x->func]);
		return 0;
	}
	memcpy(buf, b, (size_t)(e - b));
	buf[e - b] = '\0';
	if (metric_threshold(x->unit, buf, kb_base, &x->threshold, twhy,
			     sizeof(twhy)))
		return bad(text, why, whylen, "the value for %s%s%s%s: %s",
			   x->func ? func_names[x->func] : "",
			   x->func ? "(" : "", x->m.name, x->func ? ")" : "",
			   twhy);
	return 0;
}

int check_parse(const char *text, unsigned kb_base, struct check_expr *x,
		char *why, size_t whylen)
{
	const char *b = text, *e = text + strlen(text), *op, *colon, *p;
	size_t oplen = 0;

	memset(x, 0, sizeof(*x));
	x->op = -1;
	trim(&b, &e);
	if (b == e)
		return bad(text, why, whylen, "empty check; %s",
			   CHECK_EXPECTED);
	op = find_op(b, e, &x->op, &oplen);
	if (!op)
		return bad(text, why, whylen, "no comparison; %s",
			   CHECK_EXPECTED);
	if (x->op < 0)
		return bad(text, why, whylen, "'%c' is not a comparison; "
			   "expected >=, <=, >, <, == or !=", *op);
	/* The scope: up to the last ':' before the operator. */
	colon = NULL;
	for (p = b; p < op; p++)
		if (*p == ':')
			colon = p;
	if (colon) {
		const char *sb = b, *se = colon;

		trim(&sb, &se);
		if (sb == se || (size_t)(se - sb) >= sizeof(x->scope))
			return bad(text, why, whylen, "expected JOB: before "
				   "the metric, a job's name");
		memcpy(x->scope, sb, (size_t)(se - sb));
		x->scope[se - sb] = '\0';
		b = colon + 1;
		while (blank(*b))
			b++;
		x->body = (unsigned)(b - text);
	}
	p = op;
	trim(&b, &p);
	if (parse_lhs(text, b, p, x, why, whylen))
		return -EINVAL;
	b = op + oplen;
	trim(&b, &e);
	return parse_rhs(text, b, e, kb_base, x, why, whylen);
}

bool check_compare(double v, int op, double t)
{
	switch (op) {
	case CHECK_GE:
		return v >= t;
	case CHECK_LE:
		return v <= t;
	case CHECK_GT:
		return v > t;
	case CHECK_LT:
		return v < t;
	case CHECK_EQ:
		return v == t;
	default:
		return v != t;
	}
}
