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
