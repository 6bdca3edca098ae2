// SPDX-License-Identifier: MIT
/* Numbers read back from iorig's JSON result documents (resjson.h). */
#include "resjson.h"

double resjson_val(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : 0.0;
}

bool resjson_get(const json_t *o, const char *key, double *out)
{
	const json_t *v = json_is_object(o) ? json_object_get(o, key) : NULL;

	if (!json_is_number(v))
		return false;
	*out = json_number_value(v);
	return true;
}

double resjson_num(const json_t *o, const char *key)
{
	double v = 0.0;

	resjson_get(o, key, &v);
	return v;
}

uint64_t resjson_u64(const json_t *v)
{
	json_int_t x = json_integer_value(v);

	return x > 0 ? (uint64_t)x : 0;
}
