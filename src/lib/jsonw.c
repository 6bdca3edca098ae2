// SPDX-License-Identifier: MIT
/* JSON building helpers shared by the writers (jsonw.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"

void jw_put(struct jw *c, json_t *obj, const char *key, json_t *v)
{
	if (!v || json_object_set_new(obj, key, v))
		c->failed = 1;
}

void jw_push(struct jw *c, json_t *arr, json_t *v)
{
	if (!v || json_array_append_new(arr, v))
		c->failed = 1;
}

json_t *jw_u64(uint64_t v)
{
	return json_integer(v > INT64_MAX ? INT64_MAX : (json_int_t)v);
}

json_t *jw_real(double v)
{
	return json_real(isfinite(v) ? v : 0.0);
}

json_t *jw_str(const char *s)
{
	json_t *v;
	char *t;
	size_t i;

	if (!s)
		s = "";
	v = json_string(s);
	if (v)
		return v;
	t = strdup(s);
	if (!t)
		return NULL;
	for (i = 0; t[i]; i++)
		if ((unsigned char)t[i] >= 0x80)
			t[i] = '?';
	v = json_string(t);
	free(t);
	return v;
}

int jw_dump(FILE *f, const json_t *root)
{
	if (json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(12)) ||
	    fputc('\n', f) == EOF || fflush(f) || ferror(f))
		return -EIO;
	return 0;
}

#define JW_MARK		"\001iorig-array\001"

json_t *jw_mark(void)
{
	return json_string(JW_MARK);
}

struct jw_later {
	const json_t *v;	/* the empty array standing for it */
	jw_later_fn *fn;
	void *arg;
};

json_t *jw_defer(struct jw *c, jw_later_fn *fn, void *arg)
{
	struct jw_later *l;
	json_t *v;

	if (c->nlater == c->later_cap) {
		size_t cap = c->later_cap ? 2 * c->later_cap : 16;

		l = realloc(c->later, cap * sizeof(*l));
		if (!l)
			return NULL;
		c->later = l;
		c->later_cap = cap;
	}
	v = json_array();
	if (v)
		c->later[c->nlater++] = (struct jw_later){ v, fn, arg };
	return v;
}

void jw_release(struct jw *c)
{
	free(c->later);
	c->later = NULL;
	c->nlater = c->later_cap = 0;
}

/*
 * The printer: jansson's layout with JSON_INDENT(2) and
 * JSON_REAL_PRECISION(12) (test_jsonw compares the two on documents):
 * "{" or "[", each member on its own line one step deeper, ", " between
 * them as ",\n", the closing bracket on its own line at the container's
 * depth; empty containers "{}" and "[]"; ": " after a key; strings with
 * '"', '\\' and control characters escaped (\b \f \n \r \t, else \u00XX
 * in capitals), other bytes as they are; integers in decimal; reals as
 * "%.12g" with ".0" added when neither a point nor an exponent shows,
 * the exponent without '+' or leading zeros.
 */
struct jw_out {
	FILE *f;
	int err;
	struct jw *c;			/* deferred values; may be NULL */
	const char *key;		/* whose mark is the array */
	json_t *(*make)(void *arg, size_t i);
	void *arg;
	size_t n;			/* the array's elements */
	bool marked;			/* the array was printed */
	size_t len;			/* bytes in buf */
	char buf[1 << 16];
};

static void out_flush(struct jw_out *o)
{
	if (o->len && fwrite(o->buf, 1, o->len, o->f) != o->len)
		o->err = -EIO;
	o->len = 0;
}

/* Room for n bytes at the cursor, n <= sizeof(o->buf). */
static char *out_room(struct jw_out *o, size_t n)
{
	if (n > sizeof(o->buf) - o->len)
		out_flush(o);
	return o->buf + o->len;
}

void jw_out_raw(struct jw_out *o, const char *s, size_t n)
{
	if (n > sizeof(o->buf) / 2) {
		out_flush(o);
		if (fwrite(s, 1, n, o->f) != n)
			o->err = -EIO;
		return;
	}
	memcpy(out_room(o, n), s, n);
	o->len += n;
}

void jw_out_indent(struct jw_out *o, unsigned depth)
{
	static const char sp[] = "\n                                "
				 "                                ";
	const size_t most = sizeof(sp) - 2;	/* the spaces in sp */
	size_t w = 2 * (size_t)depth, k = w < most ? w : most;

	jw_out_raw(o, sp, k + 1);
	for (w -= k; w; w -= k) {
		k = w < most ? w : most;
		jw_out_raw(o, sp + 1, k);
	}
}

/* v in decimal, neg: with a minus sign. */
static void out_dec(struct jw_out *o, uint64_t v, bool neg)
{
	char t[24], *p = t + sizeof(t);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (neg)
		*--p = '-';
	jw_out_raw(o, p, (size_t)(t + sizeof(t) - p));
}

void jw_out_u64(struct jw_out *o, uint64_t v)
{
	out_dec(o, v > INT64_MAX ? INT64_MAX : v, false);
}

/* A newline and depth steps at p, which has room; past them. */
static char *put_indent(char *p, unsigned depth)
{
	*p++ = '\n';
	memset(p, ' ', 2 * (size_t)depth);
	return p + 2 * (size_t)depth;
}

/* v in decimal at p, which has room for 20 digits; past them. */
static char *put_dec(char *p, uint64_t v)
{
	char t[20];
	size_t k = sizeof(t);

	do {
		t[--k] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	memcpy(p, t + k, sizeof(t) - k);
	return p + sizeof(t) - k;
}

void jw_out_counts(struct jw_out *o, unsigned depth, bool first,
		   const uint64_t *v, unsigned n)
{
	size_t in = 1 + 2 * ((size_t)depth + 2);
	size_t need = 2 + 2 * in + (size_t)n * (in + 21) + 1;
	unsigned i;
	char *p;

	if (need > sizeof(o->buf) / 2) {	/* deep: piece by piece */
		jw_out_raw(o, first ? "[" : ",", 1);
		jw_out_indent(o, depth + 1);
		jw_out_raw(o, "[", 1);
		for (i = 0; i < n; i++) {
			jw_out_indent(o, depth + 2);
			jw_out_u64(o, v[i]);
			if (i + 1 < n)
				jw_out_raw(o, ",", 1);
		}
		jw_out_indent(o, depth + 1);
		jw_out_raw(o, "]", 1);
		return;
	}
	p = out_room(o, need);
	*p++ = first ? '[' : ',';
	p = put_indent(p, depth + 1);
	*p++ = '[';
	for (i = 0; i < n; i++) {
		p = put_indent(p, depth + 2);
		p = put_dec(p, v[i] > INT64_MAX ? INT64_MAX : v[i]);
		if (i + 1 < n)
			*p++ = ',';
	}
	p = put_indent(p, depth + 1);
	*p++ = ']';
	o->len = (size_t)(p - o->buf);
}

static void out_real(struct jw_out *o, double v)
{
	char t[64], *e, *end;
	int n = snprintf(t, sizeof(t) - 3, "%.12g", v);

	if (n < 0 || (size_t)n >= sizeof(t) - 3) {
		o->err = -EINVAL;
		return;
	}
	if (!strchr(t, '.') && !strchr(t, 'e')) {
		memcpy(t + n, ".0", 3);
		n += 2;
	}
	e = strchr(t, 'e');
	if (e) {
		e++;
		end = e + 1;
		if (*e == '-')
			e++;
		while (*end == '0')
			end++;
		if (end != e) {
			memmove(e, end, (size_t)(t + n + 1 - end));
			n -= (int)(end - e);
		}
	}
	jw_out_raw(o, t, (size_t)n);
}

static void out_str(struct jw_out *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	const char *run = s, *end = s + n;
	char esc[8];

	jw_out_raw(o, "\"", 1);
	for (; s < end; s++) {
		unsigned char ch = (unsigned char)*s;
		size_t k = 2;

		if (ch >= 0x20 && ch != '"' && ch != '\\')
			continue;
		jw_out_raw(o, run, (size_t)(s - run));
		run = s + 1;
		esc[0] = '\\';
		switch (ch) {
		case '"': esc[1] = '"'; break;
		case '\\': esc[1] = '\\'; break;
		case '\b': esc[1] = 'b'; break;
		case '\f': esc[1] = 'f'; break;
		case '\n': esc[1] = 'n'; break;
		case '\r': esc[1] = 'r'; break;
		case '\t': esc[1] = 't'; break;
		default:
			memcpy(esc + 1, "u00", 3);
			esc[4] = hex[ch >> 4];
			esc[5] = hex[ch & 15];
			k = 6;
		}
		jw_out_raw(o, esc, k);
	}
	jw_out_raw(o, run, (size_t)(end - run));
	jw_out_raw(o, "\"", 1);
}

/* The deferred value v stands for, if it is one. */
static const struct jw_later *out_later(const struct jw_out *o,
					const json_t *v)
{
	size_t i;

	for (i = o->c ? o->c->nlater : 0; i--;)
		if (o->c->later[i].v == v)
			return &o->c->later[i];
	return NULL;
}

int jw_out_array(struct jw_out *o, unsigned depth, size_t n,
		 json_t *(*make)(void *arg, size_t i), void *arg)
{
	size_t i, mark = o->c ? o->c->nlater : 0;
	json_t *e;
	int ret;

	if (!n) {
		jw_out_raw(o, "[]", 2);
		return 0;
	}
	jw_out_raw(o, "[", 1);
	for (i = 0; i < n; i++) {
		e = make(arg, i);
		if (!e)
			return -ENOMEM;
		jw_out_indent(o, depth + 1);
		ret = jw_out_value(o, e, depth + 1);
		json_decref(e);
		if (o->c)
			o->c->nlater = mark;
		if (ret)
			return ret;
		if (i + 1 < n)
			jw_out_raw(o, ",", 1);
	}
	jw_out_indent(o, depth);
	jw_out_raw(o, "]", 1);
	return 0;
}

static int object_write(struct jw_out *o, const json_t *v, unsigned depth)
{
	void *it = json_object_iter((json_t *)v);
	const char *k;
	const json_t *m;
	int ret;

	if (!it) {
		jw_out_raw(o, "{}", 2);
		return 0;
	}
	jw_out_raw(o, "{", 1);
	while (it) {
		k = json_object_iter_key(it);
		m = json_object_iter_value(it);
		jw_out_indent(o, depth + 1);
		out_str(o, k, strlen(k));
		jw_out_raw(o, ": ", 2);
		if (o->key && json_is_string(m) && !o->marked &&
		    !strcmp(json_string_value(m), JW_MARK) &&
		    !strcmp(k, o->key)) {
			o->marked = true;
			ret = jw_out_array(o, depth + 1, o->n, o->make,
					   o->arg);
		} else {
			ret = jw_out_value(o, m, depth + 1);
		}
		if (ret)
			return ret;
		it = json_object_iter_next((json_t *)v, it);
		if (it)
			jw_out_raw(o, ",", 1);
	}
	jw_out_indent(o, depth);
	jw_out_raw(o, "}", 1);
	return 0;
}

/* Element i of the array arg, a new reference (jw_out_array frees it). */
static json_t *list_elem(void *arg, size_t i)
{
	return json_incref(json_array_get(arg, i));
}

/* An array of the tree, or, empty, the deferred value it stands for. */
static int list_write(struct jw_out *o, const json_t *v, unsigned depth)
{
	const struct jw_later *l;

	if (!json_array_size(v)) {
		l = out_later(o, v);
		if (l)
			return l->fn(o, depth, l->arg);
	}
	return jw_out_array(o, depth, json_array_size(v), list_elem,
			    (void *)(uintptr_t)v);
}

int jw_out_value(struct jw_out *o, const json_t *v, unsigned depth)
{
	json_int_t i;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return object_write(o, v, depth);
	case JSON_ARRAY:
		return list_write(o, v, depth);
	case JSON_STRING:
		out_str(o, json_string_value(v), json_string_length(v));
		break;
	case JSON_INTEGER:
		i = json_integer_value(v);
		out_dec(o, i < 0 ? -(uint64_t)i : (uint64_t)i, i < 0);
		break;
	case JSON_REAL:
		out_real(o, json_real_value(v));
		break;
	case JSON_TRUE:
		jw_out_raw(o, "true", 4);
		break;
	case JSON_FALSE:
		jw_out_raw(o, "false", 5);
		break;
	case JSON_NULL:
		jw_out_raw(o, "null", 4);
		break;
	}
	return o->err;
}

int jw_dump_array_at(FILE *f, struct jw *c, const json_t *root,
		     const char *key, json_t *(*make)(void *arg, size_t i),
		     void *arg, size_t n)
{
	struct jw_out *o = malloc(sizeof(*o));
	int ret;

	if (!o)
		return -ENOMEM;
	*o = (struct jw_out){ .f = f, .c = c, .key = key, .make = make,
			      .arg = arg, .n = n };
	ret = jw_out_value(o, root, 0);
	if (!ret && !o->marked)
		ret = -EINVAL;
	jw_out_raw(o, "\n", 1);
	out_flush(o);
	if (!ret)
		ret = o->err;
	if (!ret && (fflush(f) || ferror(f)))
		ret = -EIO;
	free(o);
	return ret;
}
