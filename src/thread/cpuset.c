// SPDX-License-Identifier: MIT
/*
 * CPU lists and masks as fio's cpus_allowed= and cpumask= give them, and
 * the CPUs of one clone under cpus_allowed_policy (see cpuset.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpuset.h"

static long cpus_configured(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return n < 1 ? 1 : n > CPU_SETSIZE ? CPU_SETSIZE : n;
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* One CPU number at *p, moved past it. */
static int cpu_num(const char **p, long max, long *cpu, char *why,
		   size_t whylen)
{
	char *end;
	long v;

	*p = skip_blank(*p);
	if (**p < '0' || **p > '9') {
		snprintf(why, whylen, "expected a CPU number at '%s' (a list "
			 "such as 0-3,6)", *p);
		return -EINVAL;
	}
	errno = 0;
	v = strtol(*p, &end, 10);
	if (errno || v >= max) {
		snprintf(why, whylen, "CPU %.*s does not exist (this machine "
			 "has CPUs 0 to %ld)", (int)(end - *p), *p, max - 1);
		return -EINVAL;
	}
	*p = skip_blank(end);
	*cpu = v;
	return 0;
}

int cpuset_parse(const char *list, cpu_set_t *set, char *why, size_t whylen)
{
	long max = cpus_configured(), lo, hi, c;
	const char *p = list;
	int ret;

	CPU_ZERO(set);
	for (;;) {
		ret = cpu_num(&p, max, &lo, why, whylen);
		if (ret)
			return ret;
		hi = lo;
		if (*p == '-') {
			p++;
			ret = cpu_num(&p, max, &hi, why, whylen);
			if (ret)
				return ret;
			if (hi < lo) {
				snprintf(why, whylen, "range %ld-%ld runs "
					 "backwards", lo, hi);
				return -EINVAL;
			}
		}
		for (c = lo; c <= hi; c++)
			CPU_SET((size_t)c, set);
		if (!*p)
			return 0;
		if (*p != ',') {
			snprintf(why, whylen, "unexpected '%s'; expected a "
				 "list such as 0-3,6", p);
			return -EINVAL;
		}
		p++;
	}
}

void cpuset_format(const cpu_set_t *set, char *out, size_t outlen)
{
	size_t n = 0;
	int c, lo;

	out[0] = '\0';
	for (c = 0; c < CPU_SETSIZE && n < outlen; c++) {
		if (!CPU_ISSET((size_t)c, set))
			continue;
		lo = c;
		while (c + 1 < CPU_SETSIZE && CPU_ISSET((size_t)c + 1, set))
			c++;
		n += (size_t)(lo == c ?
			snprintf(out + n, outlen - n, "%s%d", n ? "," : "", c) :
			snprintf(out + n, outlen - n, "%s%d-%d", n ? "," : "",
				 lo, c));
	}
}

int cpuset_mask_to_list(const char *val, char *out, size_t outlen,
			char *why, size_t whylen)
{
	long max = cpus_configured();
	unsigned long long v;
	cpu_set_t set;
	char *end;
	int i;

	errno = 0;
	v = strtoull(val, &end, 0);
	if (errno || end == val || *skip_blank(end) || *val == '-') {
		snprintf(why, whylen, "'%s': expected a CPU mask, a number "
			 "whose bit N allows CPU N (0x3: CPUs 0 and 1)", val);
		return -EINVAL;
	}
	if (!v || v > UINT32_MAX) {
		snprintf(why, whylen, "'%s': expected a mask of 1 to 32 bits "
			 "with at least one CPU", val);
		return -EINVAL;
	}
	CPU_ZERO(&set);
	for (i = 0; i < 32; i++) {
		if (!(v >> i & 1))
			continue;
		if (i >= max) {
			snprintf(why, whylen, "'%s' allows CPU %d, which does "
				 "not exist (this machine has CPUs 0 to %ld)",
				 val, i, max - 1);
			return -EINVAL;
		}
		CPU_SET((size_t)i, &set);
	}
	cpuset_format(&set, out, outlen);
	return 0;
}

int cpuset_for_clone(const cpu_set_t *allowed, bool split, unsigned idx,
		     int without, cpu_set_t *out)
{
	unsigned k = 0, pick;
	int c;

	*out = *allowed;
	if (without >= 0 && without < CPU_SETSIZE)
		CPU_CLR((size_t)without, out);
	if (!CPU_COUNT(out))
		return -EINVAL;
	if (!split)
		return 0;
	pick = idx % (unsigned)CPU_COUNT(out);
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET((size_t)c, out))
			continue;
		if (k++ != pick)
			CPU_CLR((size_t)c, out);
	}
	return 0;
}
