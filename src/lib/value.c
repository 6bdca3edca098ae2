// SPDX-License-Identifier: MIT
/*
 * Value parsers: option text -> typed values, see include/value.h.
 *
 * Every number goes through one small recursive-descent evaluator over exact
 * rationals (128-bit numerator and denominator, kept reduced), so "1.5m",
 * "24000/2*1m" and "7/2*2" come out exact and "1.3" bytes is refused rather
 * than rounded. Blanks are allowed between tokens. Grammar:
 *
 *	expr    := term { ('+' | '-') term }
 *	term    := unary { ('*' | '/') unary }
 *	unary   := { '+' | '-' } postfix
 *	postfix := primary [ unit ]
 *	primary := number | '(' expr ')'
 *	number  := digits [ '.' [ digits ] ] | '.' digits | '0x' hexdigits
 *	unit    := a letter, then letters and digits; looked up in a table
 *
 * There is no exponent notation: "1e3" reads as 1 with the unknown unit
 * "e3" and is refused, for every parser alike. Unary signs exist so that
 * "-1" is reported as negative rather than as a syntax error; intermediate
 * results may be negative, final ones of unsigned parsers may not.
 *
 * Only ASCII is classified by hand, so results never depend on the locale.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "value.h"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

#define I128_MAX	((i128)(~(u128)0 >> 1))
#define I128_MIN	(-I128_MAX - 1)

/* Parentheses nest at most this deep; keeps the recursion bounded. */
#define CALC_MAX_DEPTH	32
/* Longest piece of user text quoted inside a message. */
#define QUOTE_MAX	40
#define TOKEN_MAX	16

#define SIZE_EXPECTED	"expected a size such as 4096, 4k, 1.5m or 2GiB"
#define RANGE_EXPECTED \
	"expected a size or a range such as 4k-64k or 4k:64k"
#define BOOL_EXPECTED	"expected 0/1, yes/no, true/false or on/off"
#define PCT_EXPECTED \
	"expected a percentage from 0 to 100, such as 50 or 12.5%"
#define COUNT_EXPECTED \
	"expected a number such as 50000, 40k or 1.5m (k m g t: powers of 1000)"
#define RW_EXPECTED \
	"expected one value, or up to three separated by commas (read,write," \
	"trim) such as 4k,64k"

struct unit {
	const char *name;	/* lower case */
	uint64_t mult;		/* base units (bytes or ns) per unit */
};

#define P1(b)	((uint64_t)(b))
#define P2(b)	(P1(b) * (b))
#define P3(b)	(P2(b) * (b))
#define P4(b)	(P3(b) * (b))
#define P5(b)	(P4(b) * (b))

/*
 * k..p and kb..pb follow kb_base; kib..pib are always powers of 1024.
 * ki..pi (16Ki, 1Mi): fio reads them as k..p, which follow kb_base; with
 * kb_base=1024 that is what they say, with kb_base=1000 it is a silent
 * misreading of a binary prefix (16Ki = 16000), so there they are refused
 * (mult 0; calc_unit says why).
 */
#define SIZE_UNITS(base, iec)						\
	{ "b", 1 },							\
	{ "k", P1(base) }, { "kb", P1(base) }, { "kib", P1(1024) },	\
	{ "m", P2(base) }, { "mb", P2(base) }, { "mib", P2(1024) },	\
	{ "g", P3(base) }, { "gb", P3(base) }, { "gib", P3(1024) },	\
	{ "t", P4(base) }, { "tb", P4(base) }, { "tib", P4(1024) },	\
	{ "p", P5(base) }, { "pb", P5(base) }, { "pib", P5(1024) },	\
	{ "ki", (iec) * P1(1024) }, { "mi", (iec) * P2(1024) },		\
	{ "gi", (iec) * P3(1024) }, { "ti", (iec) * P4(1024) },		\
	{ "pi", (iec) * P5(1024) },					\
	{ NULL, 0 }

static const struct unit size_units_1024[] = { SIZE_UNITS(1024, 1) };
static const struct unit size_units_1000[] = { SIZE_UNITS(1000, 0) };

#define NS_US	1000ULL
#define NS_MS	(1000 * NS_US)
#define NS_S	(1000 * NS_MS)
#define NS_MIN	(60 * NS_S)
#define NS_H	(60 * NS_MIN)
#define NS_D	(24 * NS_H)

static const struct unit time_units[] = {
	{ "ns", 1 }, { "nsec", 1 },
	{ "us", NS_US }, { "usec", NS_US },
	{ "ms", NS_MS }, { "msec", NS_MS },
	{ "s", NS_S }, { "sec", NS_S },
	{ "m", NS_MIN }, { "min", NS_MIN },
	{ "h", NS_H },
	{ "d", NS_D },
	{ NULL, 0 }
};

/* Decimal multiples of counts and rates: "40k" I/Os per second. */
static const struct unit count_units[] = {
	{ "k", 1000ULL }, { "m", 1000000ULL }, { "g", 1000000000ULL },
	{ "t", 1000000000000ULL },
	{ NULL, 0 }
};

/* Names of default time units, for "a bare number is in seconds". */
static const struct unit time_unit_names[] = {
	{ "nanoseconds", 1 },
	{ "microseconds", NS_US },
	{ "milliseconds", NS_MS },
	{ "seconds", NS_S },
	{ "minutes", NS_MIN },
	{ "hours", NS_H },
	{ "days", NS_D },
	{ NULL, 0 }
};

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' ||
	       ch == '\v' || ch == '\f';
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static bool is_alpha(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static char to_lower(char ch)
{
	return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

static int hex_value(char ch)
{
	if (is_digit(ch))
		return ch - '0';
	ch = to_lower(ch);
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

/* True if [p, p + len) equals the lower-case NUL-terminated name. */
static bool word_is(const char *p, size_t len, const char *name)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!name[i] || to_lower(p[i]) != name[i])
			return false;
	return name[len] == '\0';
}

/* [*b, *e) becomes s without leading and trailing blanks; NULL is "". */
static void trim(const char *s, const char **b, const char **e)
{
	if (!s)
		s = "";
	while (is_blank(*s))
		s++;
	*b = s;
	*e = s + strlen(s);
	while (*e > *b && is_blank((*e)[-1]))
		(*e)--;
}


/*
 * Exact rational n/d. Invariants: d > 0, gcd(|n|, d) == 1, and n, d are
 * never INT128_MIN so negation is always safe.
 */
struct rat {
	i128 n;
	i128 d;
};

static i128 gcd128(i128 a, i128 b)
{
	i128 t;

	if (a < 0)
		a = -a;
	if (b < 0)
		b = -b;
	while (b) {
		t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* r = n/d reduced; d != 0. False if the result cannot be represented. */
static bool rat_make(struct rat *r, i128 n, i128 d)
{
	i128 g;

	if (n == I128_MIN || d == I128_MIN)
		return false;
	if (d < 0) {
		n = -n;
		d = -d;
	}
	g = gcd128(n, d);
	r->n = n / g;
	r->d = d / g;
	return true;
}

/* r = a + b, or a - b when sub. False on overflow. */
static bool rat_add(struct rat *r, struct rat a, struct rat b, bool sub)
{
	i128 g = gcd128(a.d, b.d), l, x, y;

	if (__builtin_mul_overflow(a.d / g, b.d, &l) ||
	    __builtin_mul_overflow(a.n, b.d / g, &x) ||
	    __builtin_mul_overflow(b.n, a.d / g, &y) || y == I128_MIN)
		return false;
	if (sub)
		y = -y;
	if (__builtin_add_overflow(x, y, &x))
		return false;
	return rat_make(r, x, l);
}

/* r = a * b, cross-reduced first so exact results rarely overflow. */
static bool rat_mul(struct rat *r, struct rat a, struct rat b)
{
	i128 g1 = gcd128(a.n, b.d), g2 = gcd128(b.n, a.d), n, d;

	if (__builtin_mul_overflow(a.n / g1, b.n / g2, &n) ||
	    __builtin_mul_overflow(a.d / g2, b.d / g1, &d))
		return false;
	return rat_make(r, n, d);
}

/* r = a / b; b must not be zero. */
static bool rat_div(struct rat *r, struct rat a, struct rat b)
{
	struct rat inv;

	return rat_make(&inv, b.d, b.n) && rat_mul(r, a, inv);
}

/*
 * Evaluator state over the text [begin, end). The first failure wins: it
 * sets err (-EINVAL or -ERANGE) and detail, a phrase that follows the quoted
 * text in the final message, e.g. "has unknown unit 'kk'".
 */
struct calc {
	const char *begin;
	const char *p;		/* next unread character */
	const char *end;
	const struct unit *units;	/* NULL: plain numbers only */
	int depth;
	bool saw_unit;
	int err;
	char detail[96];
};

static void calc_init(struct calc *c, const char *b, const char *e,
		      const struct unit *units)
{
	memset(c, 0, sizeof(*c));
	c->begin = b;
	c->p = b;
	c->end = e;
	c->units = units;
}

/* Records the first failure; always returns false for tail calls. */
__attribute__((format(printf, 3, 4)))
static bool calc_fail(struct calc *c, int err, const char *fmt, ...)
{
	va_list ap;

	if (c->err)
		return false;
	c->err = err;
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	return false;
}

static bool calc_too_large(struct calc *c)
{
	return calc_fail(c, -ERANGE, "is too large");
}

static void calc_skip_blanks(struct calc *c)
{
	while (c->p < c->end && is_blank(*c->p))
		c->p++;
}

/* Length of the token at p, for messages: a word, or one character. */
static int token_len(const char *p, const char *end)
{
	const char *q = p;

	if (!is_alpha(*q) && !is_digit(*q))
		return 1;
	while (q < end && q - p < TOKEN_MAX && (is_alpha(*q) || is_digit(*q)))
		q++;
	return (int)(q - p);
}

/* Called at an unexpected character or at the end of the text. */
static bool calc_unexpected(struct calc *c)
{
	if (c->p >= c->end)
		return calc_fail(c, -EINVAL, "is incomplete");
	if (c->p == c->begin)
		return calc_fail(c, -EINVAL, "is not a number");
	if (*c->p == ')')
		return calc_fail(c, -EINVAL, "has an unmatched ')'");
	return calc_fail(c, -EINVAL, "has unexpected '%.*s'",
			 token_len(c->p, c->end), c->p);
}

static bool calc_hex(struct calc *c, struct rat *out)
{
	i128 n = 0;
	int v;

	c->p += 2;
	if (c->p >= c->end || hex_value(*c->p) < 0)
		return calc_fail(c, -EINVAL, "has '0x' without hex digits");
	while (c->p < c->end && (v = hex_value(*c->p)) >= 0) {
		if (__builtin_mul_overflow(n, 16, &n) ||
		    __builtin_add_overflow(n, v, &n))
			return calc_too_large(c);
		c->p++;
	}
	out->n = n;
	out->d = 1;
	return true;
}

/* Decimal with optional fraction, held exactly as n / 10^k. */
static bool calc_decimal(struct calc *c, struct rat *out)
{
	const char *start = c->p, *frac, *fend;
	i128 n = 0, d = 1;

	for (; c->p < c->end && is_digit(*c->p); c->p++)
		if (__builtin_mul_overflow(n, 10, &n) ||
		    __builtin_add_overflow(n, *c->p - '0', &n))
			return calc_too_large(c);
	if (c->p < c->end && *c->p == '.') {
		frac = ++c->p;
		while (c->p < c->end && is_digit(*c->p))
			c->p++;
		if (c->p - start == 1) {
			c->p = start;
			return calc_unexpected(c);
		}
		/* Trailing zeros add nothing but would cost precision. */
		for (fend = c->p; fend > frac && fend[-1] == '0'; fend--)
			;
		for (; frac < fend; frac++)
			if (__builtin_mul_overflow(n, 10, &n) ||
			    __builtin_add_overflow(n, *frac - '0', &n) ||
			    __builtin_mul_overflow(d, 10, &d))
				return calc_fail(c, -ERANGE,
						 "has too many digits");
	}
	return rat_make(out, n, d);
}

static bool calc_expr(struct calc *c, struct rat *out);

/* An optional unit after a number or ')' scales it. */
static bool calc_unit(struct calc *c, struct rat *val)
{
	const struct unit *u;
	const char *q = c->p, *w;
	struct rat mult;

	while (q < c->end && is_blank(*q))
		q++;
	if (q >= c->end || !is_alpha(*q))
		return true;
	for (w = q; w < c->end && (is_alpha(*w) || is_digit(*w)); w++)
		;
	c->p = q;
	if (!c->units)
		return calc_fail(c, -EINVAL, "has unexpected '%.*s'",
				 token_len(q, c->end), q);
	for (u = c->units; u->name; u++)
		if (word_is(q, (size_t)(w - q), u->name))
			break;
	if (!u->name)
		return calc_fail(c, -EINVAL, "has unknown unit '%.*s'",
				 token_len(q, c->end), q);
	if (!u->mult)
		return calc_fail(c, -EINVAL, "has unit '%.*s', a power of 1000 "
				 "in fio with kb_base=1000; write %ciB for "
				 "1024", token_len(q, c->end), q, q[0]);
	c->p = w;
	c->saw_unit = true;
	mult.n = (i128)u->mult;
	mult.d = 1;
	return rat_mul(val, *val, mult) || calc_too_large(c);
}

static bool calc_postfix(struct calc *c, struct rat *out)
{
	const char *p;

	calc_skip_blanks(c);
	p = c->p;
	if (p < c->end && *p == '(') {
		if (++c->depth > CALC_MAX_DEPTH)
			return calc_fail(c, -EINVAL,
					 "nests parentheses too deeply");
		c->p++;
		if (!calc_expr(c, out))
			return false;
		calc_skip_blanks(c);
		if (c->p >= c->end)
			return calc_fail(c, -EINVAL, "has an unclosed '('");
		if (*c->p != ')')
			return calc_unexpected(c);
		c->p++;
		c->depth--;
	} else if (p + 1 < c->end && p[0] == '0' && to_lower(p[1]) == 'x') {
		if (!calc_hex(c, out))
			return false;
	} else if (p < c->end && (is_digit(*p) || *p == '.')) {
		if (!calc_decimal(c, out))
			return false;
	} else {
		return calc_unexpected(c);
	}
	return calc_unit(c, out);
}

static bool calc_unary(struct calc *c, struct rat *out)
{
	bool neg = false;

	for (;;) {
		calc_skip_blanks(c);
		if (c->p >= c->end || (*c->p != '+' && *c->p != '-'))
			break;
		neg ^= *c->p == '-';
		c->p++;
	}
	if (!calc_postfix(c, out))
		return false;
	if (neg)
		out->n = -out->n;
	return true;
}

static bool calc_term(struct calc *c, struct rat *out)
{
	struct rat rhs;
	char op;

	if (!calc_unary(c, out))
		return false;
	for (;;) {
		calc_skip_blanks(c);
		if (c->p >= c->end || (*c->p != '*' && *c->p != '/'))
			return true;
		op = *c->p++;
		if (!calc_unary(c, &rhs))
			return false;
		if (op == '/' && rhs.n == 0)
			return calc_fail(c, -EINVAL, "divides by zero");
		if (!(op == '*' ? rat_mul(out, *out, rhs) :
				  rat_div(out, *out, rhs)))
			return calc_too_large(c);
	}
}

static bool calc_expr(struct calc *c, struct rat *out)
{
	struct rat rhs;
	char op;

	if (!calc_term(c, out))
		return false;
	for (;;) {
		calc_skip_blanks(c);
		if (c->p >= c->end || (*c->p != '+' && *c->p != '-'))
			return true;
		op = *c->p++;
		if (!calc_term(c, &rhs))
			return false;
		if (!rat_add(out, *out, rhs, op == '-'))
			return calc_too_large(c);
	}
}

/*
 * Whether the rest of the text, from c->p, is only closing parentheses
 * (and blanks) after one plain number: fio reads a number and its unit
 * and ignores what follows, and a ')' there cannot change what was meant
 * (fio's own t/strided.py writes "filesize=65536)"). After an operator or
 * with an opening parenthesis anywhere it stays an error.
 */
static bool calc_stray_close(const struct calc *c)
{
	const char *q;

	for (q = c->begin; q < c->p; q++)
		if (*q == '(' || *q == '+' || *q == '-' || *q == '*' ||
		    *q == '/')
			return false;
	for (q = c->p; q < c->end; q++)
		if (*q != ')' && !is_blank(*q))
			return false;
	return c->p < c->end;
}

/* Evaluates the whole text; false with c->err set on any failure. */
static bool calc_run(struct calc *c, struct rat *out)
{
	if (c->begin == c->end)
		return calc_fail(c, -EINVAL, "is not a number");
	if (!calc_expr(c, out))
		return false;
	calc_skip_blanks(c);
	return c->p == c->end || calc_stray_close(c) || calc_unexpected(c);
}

/*
 * Evaluates c to a whole, non-negative count of the base unit. If no unit
 * appeared anywhere, the value is first scaled by bare_mult (a time
 * option's default unit). noun names the base unit in messages, or is NULL
 * for plain integers.
 */
static bool calc_u64(struct calc *c, uint64_t bare_mult, const char *noun,
		     uint64_t *out)
{
	struct rat r, m = { .n = (i128)bare_mult, .d = 1 };

	if (!calc_run(c, &r))
		return false;
	if (!c->saw_unit && bare_mult != 1 && !rat_mul(&r, r, m))
		return calc_too_large(c);
	if (r.n < 0)
		return calc_fail(c, -EINVAL, "is negative");
	if (r.n / r.d > (i128)UINT64_MAX)
		return calc_fail(c, -ERANGE, "is too large (at most %" PRIu64
				 "%s%s)", UINT64_MAX, noun ? " " : "",
				 noun ? noun : "");
	if (r.d != 1)
		return calc_fail(c, -EINVAL, "is not a whole number%s%s",
				 noun ? " of " : "", noun ? noun : "");
	*out = (uint64_t)r.n;
	return true;
}

/* Evaluates c (no units) to a double within [min, max]. */
static bool calc_double(struct calc *c, double min, double max, double *out)
{
	struct rat r;
	double v;

	if (!calc_run(c, &r))
		return false;
	v = (double)((long double)r.n / (long double)r.d);
	if (!(v >= min && v <= max))
		return calc_fail(c, -ERANGE, "is out of range");
	*out = v;
	return true;
}

/*
 * Writes "'<text>' <detail>; <expected>" (or "empty value; <expected>")
 * and returns the error. Long text is shortened with "...".
 */
static int fail_quote(char *why, size_t whylen, const char *b, const char *e,
		      int err, const char *detail, const char *expected)
{
	size_t len = (size_t)(e - b);

	if (!len)
		err_why(why, whylen, "empty value; %s", expected);
	else
		err_why(why, whylen, "'%.*s%s' %s; %s",
			(int)(len > QUOTE_MAX ? QUOTE_MAX : len), b,
			len > QUOTE_MAX ? "..." : "", detail, expected);
	return err;
}

static int fail_calc(char *why, size_t whylen, const struct calc *c,
		     const char *expected)
{
	return fail_quote(why, whylen, c->begin, c->end, c->err, c->detail,
			  expected);
}

static const struct unit *size_units(unsigned kb_base)
{
	if (kb_base == 1024)
		return size_units_1024;
	if (kb_base == 1000)
		return size_units_1000;
	return NULL;
}

/* Parses [b, e) as a size; fails with c filled in. */
static bool size_span(struct calc *c, const char *b, const char *e,
		      const struct unit *units, uint64_t *out)
{
	calc_init(c, b, e, units);
	return calc_u64(c, 1, "bytes", out);
}

int value_size(const char *s, unsigned kb_base, uint64_t *out,
	       char *why, size_t whylen)
{
	const struct unit *units = size_units(kb_base);
	const char *b, *e;
	struct calc c;

	if (!units) {
		err_why(why, whylen, "kb_base %u is not 1000 or 1024",
			kb_base);
		return -EINVAL;
	}
	trim(s, &b, &e);
	if (!size_span(&c, b, e, units, out))
		return fail_calc(why, whylen, &c, SIZE_EXPECTED);
	return 0;
}

int value_time(const char *s, uint64_t default_unit_ns, uint64_t *ns,
	       char *why, size_t whylen)
{
	const struct unit *u;
	char expected[160], bare[48];
	const char *b, *e;
	struct calc c;

	if (!default_unit_ns)
		default_unit_ns = 1;
	trim(s, &b, &e);
	calc_init(&c, b, e, time_units);
	if (calc_u64(&c, default_unit_ns, "nanoseconds", ns))
		return 0;

	for (u = time_unit_names; u->name; u++)
		if (u->mult == default_unit_ns)
			break;
	if (u->name)
		snprintf(bare, sizeof(bare), "%s", u->name);
	else
		snprintf(bare, sizeof(bare), "units of %" PRIu64 "ns",
			 default_unit_ns);
	snprintf(expected, sizeof(expected),
		 "expected a time such as 500ms, 10s or 1h "
		 "(units ns us ms s m h d; a bare number is in %s)", bare);
	return fail_calc(why, whylen, &c, expected);
}

int value_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out,
	       char *why, size_t whylen)
{
	char expected[80];
	const char *b, *e;
	struct calc c;
	uint64_t v;

	trim(s, &b, &e);
	calc_init(&c, b, e, NULL);
	if (calc_u64(&c, 1, NULL, &v)) {
		if (v >= min && v <= max) {
			*out = v;
			return 0;
		}
		calc_fail(&c, -ERANGE, "is out of range");
	}
	snprintf(expected, sizeof(expected),
		 "expected an integer from %" PRIu64 " to %" PRIu64, min, max);
	return fail_calc(why, whylen, &c, expected);
}

int value_bool(const char *s, bool *out, char *why, size_t whylen)
{
	static const struct {
		const char *name;
		bool value;
	} words[] = {
		{ "1", true }, { "0", false },
		{ "yes", true }, { "no", false },
		{ "true", true }, { "false", false },
		{ "on", true }, { "off", false },
	};
	const char *b, *e;
	size_t i;

	trim(s, &b, &e);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (word_is(b, (size_t)(e - b), words[i].name)) {
			*out = words[i].value;
			return 0;
		}
	}
	return fail_quote(why, whylen, b, e, -EINVAL, "is not a boolean",
			  BOOL_EXPECTED);
}

int value_pct(const char *s, double *out, char *why, size_t whylen)
{
	const char *b, *e, *num_end;
	struct calc c;

	trim(s, &b, &e);
	/* "50%%": fio reads the number and its first '%' (job files made
	 * from printf-style templates keep the doubled one). */
	num_end = e - b > 2 && e[-1] == '%' && e[-2] == '%' ? e - 1 : e;
	num_end = num_end > b && num_end[-1] == '%' ? num_end - 1 : num_end;
	calc_init(&c, b, num_end, NULL);
	if (calc_double(&c, 0.0, 100.0, out))
		return 0;
	return fail_quote(why, whylen, b, e, c.err, c.detail, PCT_EXPECTED);
}

/*
 * Where a size range splits: the first ':', else the first '-' outside
 * parentheses that follows an operand (so a leading or unary '-' is a sign,
 * and "(8-2)k" is one size). Returns NULL for a single size.
 */
static const char *range_split(const char *b, const char *e)
{
	const char *p, *prev = NULL;
	int depth = 0;

	p = memchr(b, ':', (size_t)(e - b));
	if (p)
		return p;
	for (p = b; p < e; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (*p == '-' && !depth && prev &&
			 (is_alpha(*prev) || is_digit(*prev) ||
			  *prev == '.' || *prev == ')'))
			return p;
		if (!is_blank(*p))
			prev = p;
	}
	return NULL;
}

/* One end of a range: a size above zero. */
static int range_end(const char *b, const char *e, const struct unit *units,
		     uint64_t *out, char *why, size_t whylen)
{
	struct calc c;

	while (b < e && is_blank(*b))
		b++;
	while (e > b && is_blank(e[-1]))
		e--;
	if (!size_span(&c, b, e, units, out))
		return fail_calc(why, whylen, &c, RANGE_EXPECTED);
	if (!*out)
		return fail_quote(why, whylen, b, e, -EINVAL, "is zero",
				  RANGE_EXPECTED);
	return 0;
}

int value_size_range(const char *s, unsigned kb_base, uint64_t *lo,
		     uint64_t *hi, char *why, size_t whylen)
{
	const struct unit *units = size_units(kb_base);
	const char *b, *e, *sep;
	uint64_t l, h;
	int ret;

	if (!units) {
		err_why(why, whylen, "kb_base %u is not 1000 or 1024",
			kb_base);
		return -EINVAL;
	}
	trim(s, &b, &e);
	sep = range_split(b, e);
	if (!sep) {
		ret = range_end(b, e, units, &l, why, whylen);
		if (ret)
			return ret;
		*lo = *hi = l;
		return 0;
	}
	if (sep == b || sep + 1 == e)
		return fail_quote(why, whylen, b, e, -EINVAL, sep == b ?
				  "has no low end" : "has no high end",
				  RANGE_EXPECTED);
	ret = range_end(b, sep, units, &l, why, whylen);
	if (ret)
		return ret;
	ret = range_end(sep + 1, e, units, &h, why, whylen);
	if (ret)
		return ret;
	/* fio's meaning: the ends in either order. */
	*lo = l < h ? l : h;
	*hi = l < h ? h : l;
	return 0;
}

bool value_is_range(const char *s)
{
	const char *b, *e;

	trim(s, &b, &e);
	return range_split(b, e) != NULL;
}

int value_split_rw(const char *s, bool dash, char parts[3][128], char *why,
		   size_t whylen)
{
	const char *b, *e, *item[3], *item_end[3], *comma, *comma2 = NULL;
	int n, i;

	trim(s, &b, &e);
	if (b == e)
		return fail_quote(why, whylen, b, e, -EINVAL, "", RW_EXPECTED);
	comma = memchr(b, ',', (size_t)(e - b));
	/* fio: with no comma, bs=4k-64k or 4k:64k is read,write too. */
	if (!comma && dash) {
		comma = range_split(b, e);
		if (comma && range_split(comma + 1, e))
			return fail_quote(why, whylen, b, e, -EINVAL,
					  "has more than two items",
					  RW_EXPECTED);
	}
	if (comma && *comma == ',')
		comma2 = memchr(comma + 1, ',', (size_t)(e - comma - 1));
	if (comma2 && memchr(comma2 + 1, ',', (size_t)(e - comma2 - 1)))
		return fail_quote(why, whylen, b, e, -EINVAL,
				  "has more than three items", RW_EXPECTED);
	n = comma2 ? 3 : comma ? 2 : 1;
	item[0] = b;
	item_end[0] = comma ? comma : e;
	item[1] = comma ? comma + 1 : b;
	item_end[1] = comma2 ? comma2 : e;
	item[2] = comma2 ? comma2 + 1 : b;
	item_end[2] = e;
	for (i = 0; i < n; i++) {
		while (item[i] < item_end[i] && is_blank(*item[i]))
			item[i]++;
		while (item_end[i] > item[i] && is_blank(item_end[i][-1]))
			item_end[i]--;
		if (item[i] == item_end[i])
			return fail_quote(why, whylen, b, e, -EINVAL,
					  "has an empty item", RW_EXPECTED);
		if (item_end[i] - item[i] >= 128)
			return fail_quote(why, whylen, b, e, -EINVAL,
					  "has an item over 127 characters",
					  RW_EXPECTED);
	}
	/* A direction not given takes the last item given. */
	for (i = 0; i < 3; i++) {
		int k = i < n ? i : n - 1;
		size_t len = (size_t)(item_end[k] - item[k]);

		memcpy(parts[i], item[k], len);
		parts[i][len] = '\0';
	}
	return n;
}

int value_double(const char *s, double min, double max, double *out,
		 char *why, size_t whylen)
{
	char expected[80];
	const char *b, *e;
	struct calc c;

	trim(s, &b, &e);
	calc_init(&c, b, e, NULL);
	if (calc_double(&c, min, max, out))
		return 0;
	snprintf(expected, sizeof(expected), "expected a number from %g to %g",
		 min, max);
	return fail_calc(why, whylen, &c, expected);
}

int value_count(const char *s, double *out, char *why, size_t whylen)
{
	const char *b, *e;
	struct calc c;
	struct rat r;

	trim(s, &b, &e);
	calc_init(&c, b, e, count_units);
	if (calc_run(&c, &r)) {
		if (r.n >= 0) {
			*out = (double)((long double)r.n / (long double)r.d);
			return 0;
		}
		calc_fail(&c, -EINVAL, "is negative");
	}
	return fail_calc(why, whylen, &c, COUNT_EXPECTED);
}

void value_fmt_bytes(uint64_t bytes, char *buf, size_t len)
{
	static const char *const names[] = {
		"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"
	};
	const unsigned last = sizeof(names) / sizeof(names[0]) - 1;
	unsigned i = 0;
	double v;

	if (!buf || !len)
		return;
	while (i < last && bytes >> (10 * (i + 1)))
		i++;
	if (!(bytes & ((1ULL << (10 * i)) - 1))) {
		snprintf(buf, len, "%" PRIu64 "%s", bytes >> (10 * i),
			 names[i]);
		return;
	}
	v = (double)bytes / (double)(1ULL << (10 * i));
	/* 1048575 would print as "1024.00KiB"; show "1.00MiB" instead. */
	if (v >= 1023.995 && i < last) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%.2f%s", v, names[i]);
}

void value_fmt_ns(double ns, char *buf, size_t len)
{
	/* limit: below it, the value printed at prec digits stays < 1000. */
	static const struct {
		double div;
		double limit;
		int prec;
		const char *name;
	} steps[] = {
		{ 1, 999.5, 0, "ns" },
		{ 1e3, 999.995, 2, "us" },
		{ 1e6, 999.995, 2, "ms" },
		{ 1e9, HUGE_VAL, 2, "s" },
	};
	const char *sign = "";
	size_t i;

	if (!buf || !len)
		return;
	if (isnan(ns)) {
		snprintf(buf, len, "nan");
		return;
	}
	if (ns < 0) {
		sign = "-";
		ns = -ns;
	}
	if (isinf(ns)) {
		snprintf(buf, len, "%sinf", sign);
		return;
	}
	for (i = 0; i + 1 < sizeof(steps) / sizeof(steps[0]); i++)
		if (ns / steps[i].div < steps[i].limit)
			break;
	snprintf(buf, len, "%s%.*f%s", sign, steps[i].prec, ns / steps[i].div,
		 steps[i].name);
}

void value_fmt_shortest(double v, char *buf, size_t len)
{
	int prec;

	for (prec = 6; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
	snprintf(buf, len, "%.17g", v);
}

void value_fmt_sig(double v, double base, const char *const unit[5],
		   const char *sep, bool whole, unsigned sig, char *buf,
		   size_t len)
{
	double top = 1.0, half = 0.5, q;
	unsigned u = 0, k, d;

	if (sig < 1)
		sig = 1;
	if (sig > 15)
		sig = 15;
	/* v moves up a unit where it would print as 1000 or more */
	for (k = 3; k < sig; k++)
		half /= 10;
	for (k = sig; k < 3; k++)
		half *= 10;
	while (v >= 1000 - half && u < 4) {
		v /= base;
		u++;
	}
	if (v == 0.0 || (whole && !u)) {
		snprintf(buf, len, "%.0f%s%s", v, sep, unit[u]);
		return;
	}
	/* d decimals while v rounds below 10^(sig - d) */
	for (d = sig - 1; d > 0; d--) {
		top = 1.0;
		for (k = 0; k < sig - d; k++)
			top *= 10;
		half = 0.5;
		for (k = 0; k < d; k++)
			half /= 10;
		if (v < top - half)
			break;
	}
	/* more integer digits than sig: round the rest away */
	for (q = 1.0, k = 0; !d && v / q >= 1.0; k++)
		q *= 10;
	if (k > sig) {
		for (q = 1.0; k > sig; k--)
			q *= 10;
		v = (double)(uint64_t)(v / q + 0.5) * q;
	}
	snprintf(buf, len, "%.*f%s%s", (int)d, v, sep, unit[u]);
}

void value_fmt_sig3(double v, double base, const char *const unit[5],
		    const char *sep, bool whole, char *buf, size_t len)
{
	value_fmt_sig(v, base, unit, sep, whole, 3, buf, len);
}
