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
#define JW_MARK_TEXT	"\"\\u0001iorig-array\\u0001\""
#define JW_FLAGS	(JSON_INDENT(2) | JSON_REAL_PRECISION(12))

json_t *jw_mark(void)
{
	return json_string(JW_MARK);
}

/* The n elements of the array, each made, printed at its depth and
 * freed: "[", then each on lines indented by depth + 1 steps, then "]"
 * indented by depth steps (jansson's layout with JSON_INDENT(2)). */
static int array_write(FILE *f, unsigned depth,
		       json_t *(*make)(void *arg, size_t i), void *arg,
		       size_t n)
{
	char in[64];
	size_t i, w = 2 * (depth + 1) < sizeof(in) ? 2 * (depth + 1) :
		      sizeof(in) - 1;
	json_t *o;
	char *s, *p, *nl;

	memset(in, ' ', w);
	in[w] = '\0';
	fputs(n ? "[\n" : "[]", f);
	for (i = 0; i < n; i++) {
		o = make(arg, i);
		s = o ? json_dumps(o, JW_FLAGS) : NULL;
		json_decref(o);
		if (!s)
			return -ENOMEM;
		for (p = s; p; p = nl ? nl + 1 : NULL) {
			nl = strchr(p, '\n');
			fputs(in, f);
			fwrite(p, 1, nl ? (size_t)(nl + 1 - p) : strlen(p), f);
		}
		free(s);
		if (i + 1 < n)
			fputs(",\n", f);
		else
			fprintf(f, "\n%.*s]", (int)(w - 2), in);
	}
	return 0;
}

int jw_dump_array_at(FILE *f, const json_t *root, const char *key,
		     unsigned depth, json_t *(*make)(void *arg, size_t i),
		     void *arg, size_t n)
{
	char *text = json_dumps(root, JW_FLAGS), *tok, *at;
	size_t klen = strlen(key), head;
	int ret = -ENOMEM;

	tok = malloc(klen + sizeof(JW_MARK_TEXT) + 8);
	if (!text || !tok)
		goto out;
	/* "key": "mark": quotes are escaped inside strings, so only the
	 * member itself reads so */
	sprintf(tok, "\"%s\": %s", key, JW_MARK_TEXT);
	at = strstr(text, tok);
	if (!at)
		goto out;
	head = (size_t)(at - text) + klen + 4;
	fwrite(text, 1, head, f);
	ret = array_write(f, depth, make, arg, n);
	if (ret)
		goto out;
	fputs(at + strlen(tok), f);
	ret = fputc('\n', f) == EOF || fflush(f) || ferror(f) ? -EIO : 0;
out:
	free(tok);
	free(text);
	return ret;
}
