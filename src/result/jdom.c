// SPDX-License-Identifier: MIT
/*
 * The reader's JSON tree (jdom.h): a one-pass parser of the strict
 * subset iorig's writer makes, and jansson for everything else.
 *
 * The parser builds nodes in document order in one growing array; a
 * container's children are pushed on a stack while it is open and moved,
 * when it closes, to the end of the children array (as indexes, made
 * pointers once both arrays have their final place). Anything outside
 * the subset (a \u escape, a byte above 0x7f or below 0x20 in a string,
 * a number out of range, a repeated key, a malformed token...) makes it
 * give up: jansson then reads the document, with its own meaning and
 * error messages.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "jdom.h"

#define JD_DEPTH_MAX	2048	/* jansson's JSON_PARSER_MAX_DEPTH */

struct jp {
	char *p, *end;
	struct jd *nodes;
	size_t nn, cn;
	size_t *stack;		/* children of the open containers */
	size_t ns, cs;
	size_t *kids;		/* children of the closed ones */
	size_t nk, ck;
	unsigned depth;
	int err;		/* -EINVAL: not the subset; -ENOMEM */
};

static int grow(void **v, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 256;
	void *nv;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	nv = realloc(*v, c * size);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = c;
	return 0;
}

static void ws(struct jp *j)
{
	const uint64_t spaces = 0x2020202020202020ull;
	const char *p = j->p, *end = j->end;
	uint64_t w;

	for (;;) {
		/* an indented document: eight bytes at a time, to the first
		 * that is no space (little-endian: the lowest set byte) */
		while (end - p >= 8) {
			memcpy(&w, p, sizeof(w));
			if (w != spaces) {
				p += (unsigned)__builtin_ctzll(w ^ spaces) / 8;
				break;
			}
			p += 8;
		}
		while (p < end && *p == ' ')
			p++;
		if (p == end || (*p != '\n' && *p != '\t' && *p != '\r'))
			break;
		p++;
	}
	j->p = (char *)p;
}

static size_t node_new(struct jp *j, enum jd_type t)
{
	if (grow((void **)&j->nodes, &j->cn, j->nn + 1, sizeof(*j->nodes))) {
		j->err = -ENOMEM;
		return 0;
	}
	memset(&j->nodes[j->nn], 0, sizeof(j->nodes[j->nn]));
	j->nodes[j->nn].type = (uint8_t)t;
	return j->nn++;
}

/* A string at j->p (its opening quote): unescaped in place, its end
 * made a NUL; NULL when not the subset. */
static const char *string(struct jp *j)
{
	char *s = ++j->p, *w = s;
	unsigned char ch;

	while (j->p < j->end) {
		ch = (unsigned char)*j->p++;
		if (ch == '"') {
			*w = '\0';
			return s;
		}
		if (ch < 0x20 || ch > 0x7f)
			break;
		if (ch != '\\') {
			*w++ = (char)ch;
			continue;
		}
		if (j->p == j->end)
			break;
		switch (*j->p++) {
		case '"': *w++ = '"'; break;
		case '\\': *w++ = '\\'; break;
		case '/': *w++ = '/'; break;
		case 'b': *w++ = '\b'; break;
		case 'f': *w++ = '\f'; break;
		case 'n': *w++ = '\n'; break;
		case 'r': *w++ = '\r'; break;
		case 't': *w++ = '\t'; break;
		default:
			j->err = -EINVAL;	/* \u...: jansson's */
			return NULL;
		}
	}
	j->err = -EINVAL;
	return NULL;
}

static bool digit(const char *p, const char *end)
{
	return p < end && *p >= '0' && *p <= '9';
}

/* A number at j->p into node x, as jansson takes it: an integer unless
 * it has a fraction or an exponent. */
static void number(struct jp *j, struct jd *x)
{
	char *s = j->p, *p = s, *e;
	bool real = false;
	char save;

	if (p < j->end && *p == '-')
		p++;
	if (!digit(p, j->end))
		goto bad;
	if (*p == '0')
		p++;
	else
		while (digit(p, j->end))
			p++;
	if (p < j->end && *p == '.') {
		real = true;
		if (!digit(++p, j->end))
			goto bad;
		while (digit(p, j->end))
			p++;
	}
	if (p < j->end && (*p == 'e' || *p == 'E')) {
		real = true;
		p++;
		if (p < j->end && (*p == '+' || *p == '-'))
			p++;
		if (!digit(p, j->end))
			goto bad;
		while (digit(p, j->end))
			p++;
	}
	if (p == j->end)	/* a number ends before the text does */
		goto bad;
	save = *p;
	*p = '\0';
	errno = 0;
	if (real) {
		x->type = JD_REAL;
		x->v.r = strtod(s, &e);
		if (errno == ERANGE && isinf(x->v.r))
			e = NULL;	/* jansson: overflow */
	} else if (p - s <= 18) {
		/* no overflow in 18 digits: strtoll's value, sooner */
		x->type = JD_INTEGER;
		x->v.i = 0;
		for (e = s + (*s == '-'); e < p; e++)
			x->v.i = x->v.i * 10 + (*e - '0');
		x->v.i = *s == '-' ? -x->v.i : x->v.i;
	} else {
		x->type = JD_INTEGER;
		x->v.i = strtoll(s, &e, 10);
		if (errno == ERANGE)
			e = NULL;	/* jansson: too big */
	}
	*p = save;
	if (e != p)
		goto bad;
	j->p = p;
	return;
bad:
	j->err = -EINVAL;
}

static bool lit(struct jp *j, const char *w, size_t n)
{
	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n))
		return false;
	j->p += n;
	return true;
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The n members last pushed have different keys. */
static bool keys_unique(struct jp *j, size_t from, size_t n)
{
	const char *few[8], **v = few;
	bool ok = true;
	size_t a, b;

	if (n <= 8) {
		for (a = 0; a < n; a++)
			for (b = a + 1; b < n; b++)
				if (!strcmp(j->nodes[j->stack[from + a]].key,
					    j->nodes[j->stack[from + b]].key))
					return false;
		return true;
	}
	v = malloc(n * sizeof(*v));
	if (!v) {
		j->err = -ENOMEM;
		return false;
	}
	for (a = 0; a < n; a++)
		v[a] = j->nodes[j->stack[from + a]].key;
	qsort(v, n, sizeof(*v), cmp_key);
	for (a = 1; a < n && ok; a++)
		ok = strcmp(v[a - 1], v[a]) != 0;
	free(v);
	return ok;
}

static size_t value(struct jp *j);

/* An object or an array at j->p (its opening bracket). */
static size_t container(struct jp *j, bool obj)
{
	size_t me = node_new(j, obj ? JD_OBJECT : JD_ARRAY), from = j->ns;
	size_t kid, n;
	const char *key = NULL;

	if (j->err || ++j->depth > JD_DEPTH_MAX)
		goto bad;
	j->p++;
	ws(j);
	if (j->p < j->end && *j->p == (obj ? '}' : ']')) {
		j->p++;
		goto done;
	}
	for (;;) {
		if (obj) {
			if (j->p == j->end || *j->p != '"' ||
			    !(key = string(j)))
				goto bad;
			ws(j);
			if (j->p == j->end || *j->p++ != ':')
				goto bad;
			ws(j);
		}
		kid = value(j);
		if (j->err)
			goto bad;
		j->nodes[kid].key = key;
		if (grow((void **)&j->stack, &j->cs, j->ns + 1,
			 sizeof(*j->stack)))
			goto nomem;
		j->stack[j->ns++] = kid;
		ws(j);
		if (j->p == j->end)
			goto bad;
		if (*j->p == ',') {
			j->p++;
			ws(j);
			continue;
		}
		if (*j->p++ != (obj ? '}' : ']'))
			goto bad;
		break;
	}
done:
	n = j->ns - from;
	if (obj && !keys_unique(j, from, n))
		goto bad;
	if (grow((void **)&j->kids, &j->ck, j->nk + n, sizeof(*j->kids)))
		goto nomem;
	if (n)	/* an empty one may come before any list is allocated */
		memcpy(j->kids + j->nk, j->stack + from,
		       n * sizeof(*j->kids));
	j->nodes[me].n = (uint32_t)n;
	j->nodes[me].v.i = (int64_t)j->nk;	/* made a pointer at the end */
	j->nk += n;
	j->ns = from;
	j->depth--;
	return me;
nomem:
	j->err = -ENOMEM;
	return me;
bad:
	if (!j->err)
		j->err = -EINVAL;
	return me;
}

static size_t value(struct jp *j)
{
	size_t x;

	if (j->p == j->end) {
		j->err = -EINVAL;
		return 0;
	}
	switch (*j->p) {
	case '{':
		return container(j, true);
	case '[':
		return container(j, false);
	case '"':
		x = node_new(j, JD_STRING);
		if (!j->err)
			j->nodes[x].v.s = string(j);
		return x;
	case 't':
		x = node_new(j, JD_TRUE);
		if (!lit(j, "true", 4))
			j->err = -EINVAL;
		return x;
	case 'f':
		x = node_new(j, JD_FALSE);
		if (!lit(j, "false", 5))
			j->err = -EINVAL;
		return x;
	case 'n':
		x = node_new(j, JD_NULL);
		if (!lit(j, "null", 4))
			j->err = -EINVAL;
		return x;
	default:
		x = node_new(j, JD_INTEGER);
		if (!j->err)
			number(j, &j->nodes[x]);
		return x;
	}
}

/* The children's indexes made pointers, once nothing moves any more. */
static int finish(struct jd_doc *d, struct jp *j)
{
	size_t i;

	d->nodes = j->nodes;
	d->kids = malloc((j->nk ? j->nk : 1) * sizeof(*d->kids));
	if (!d->kids)
		return -ENOMEM;
	for (i = 0; i < j->nk; i++)
		d->kids[i] = &d->nodes[j->kids[i]];
	for (i = 0; i < j->nn; i++)
		if (d->nodes[i].type == JD_OBJECT ||
		    d->nodes[i].type == JD_ARRAY)
			d->nodes[i].v.kids = d->kids + d->nodes[i].v.i;
	d->root = &d->nodes[0];
	return 0;
}

/* The fast parser: 0, -EINVAL (not the subset: ask jansson), -ENOMEM. */
static int fast(struct jd_doc *d, const char *text, size_t len)
{
	struct jp j = { 0 };
	int ret;

	d->text = malloc(len + 1);
	if (!d->text)
		return -ENOMEM;
	memcpy(d->text, text, len);
	d->text[len] = '\0';
	j.p = d->text;
	j.end = d->text + len;
	/* about a node a dozen bytes in iorig's indented documents: room
	 * for most at once, not a dozen copies as the lists double */
	if (grow((void **)&j.nodes, &j.cn, len / 12 + 1, sizeof(*j.nodes)) ||
	    grow((void **)&j.kids, &j.ck, len / 12 + 1, sizeof(*j.kids)))
		j.err = -ENOMEM;
	ws(&j);
	if (!j.err && (j.p == j.end || *j.p != '{'))
		j.err = -EINVAL;
	else if (!j.err)
		container(&j, true);
	ws(&j);
	if (!j.err && j.p != j.end)
		j.err = -EINVAL;
	ret = j.err ? j.err : finish(d, &j);
	if (ret)
		free(j.nodes);
	free(j.stack);
	free(j.kids);
	if (ret) {
		free(d->text);
		d->text = NULL;
		d->nodes = NULL;
	}
	return ret;
}

/* ---- jansson's tree taken over ---- */

static size_t count(const json_t *v)
{
	const char *k;
	json_t *x;
	size_t n = 1, i;

	if (json_is_object(v))
		json_object_foreach((json_t *)v, k, x)
			n += count(x);
	else if (json_is_array(v))
		json_array_foreach(v, i, x)
			n += count(x);
	return n;
}

/* v into node *at (then its children after it); the next free node. */
static size_t take(struct jd_doc *d, const json_t *v, size_t at,
		   size_t *kid)
{
	struct jd *x = &d->nodes[at];
	size_t next = at + 1, first, i = 0;
	const char *k;
	json_t *y;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
	case JSON_ARRAY:
		x->type = json_is_object(v) ? JD_OBJECT : JD_ARRAY;
		x->n = (uint32_t)(json_is_object(v) ? json_object_size(v) :
				  json_array_size(v));
		first = *kid;
		x->v.kids = d->kids + first;
		*kid += x->n;
		if (json_is_object(v)) {
			json_object_foreach((json_t *)v, k, y) {
				d->kids[first + i++] = &d->nodes[next];
				d->nodes[next].key = k;
				next = take(d, y, next, kid);
			}
		} else {
			json_array_foreach(v, i, y) {
				d->kids[first + i] = &d->nodes[next];
				next = take(d, y, next, kid);
			}
		}
		break;
	case JSON_STRING:
		x->type = JD_STRING;
		x->v.s = json_string_value(v);
		break;
	case JSON_INTEGER:
		x->type = JD_INTEGER;
		x->v.i = json_integer_value(v);
		break;
	case JSON_REAL:
		x->type = JD_REAL;
		x->v.r = json_real_value(v);
		break;
	case JSON_TRUE:
		x->type = JD_TRUE;
		break;
	case JSON_FALSE:
		x->type = JD_FALSE;
		break;
	default:
		x->type = JD_NULL;
		break;
	}
	return next;
}

int jd_from_jansson(struct jd_doc *d, const struct json_t *root)
{
	size_t n = count(root), kid = 0;

	memset(d, 0, sizeof(*d));
	d->nodes = calloc(n, sizeof(*d->nodes));
	d->kids = malloc(n * sizeof(*d->kids));
	if (!d->nodes || !d->kids) {
		jd_free(d);
		return -ENOMEM;
	}
	take(d, root, 0, &kid);
	d->root = &d->nodes[0];
	return 0;
}

int jd_load(struct jd_doc *d, const char *text, size_t len, char *why,
	    size_t whylen)
{
	json_error_t je;
	json_t *root;
	int ret;

	memset(d, 0, sizeof(*d));
	ret = fast(d, text, len);
	if (ret != -EINVAL)
		return ret;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		snprintf(why, whylen, "line %d, column %d: %s", je.line,
			 je.column, je.text);
		return -EINVAL;
	}
	ret = jd_from_jansson(d, root);
	if (ret)
		json_decref(root);
	else
		d->jroot = root;
	return ret;
}

void jd_free(struct jd_doc *d)
{
	free(d->nodes);
	free(d->kids);
	free(d->text);
	json_decref(d->jroot);
	memset(d, 0, sizeof(*d));
}
