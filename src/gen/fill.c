// SPDX-License-Identifier: MIT
/*
 * Buffer contents other than the default: compressible, deduplicable,
 * zero and pattern writes (include/fill.h has what each option means).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fill.h"
#include "value.h"

#define SECTOR	512

/* Distinct write u's key: a bijection of u (splitmix64's finalizer), so
 * distinct writes never share one and a repeat needs only u. */
static uint64_t write_key(uint64_t u)
{
	u = (u ^ (u >> 30)) * 0xbf58476d1ce4e5b9ull;
	u = (u ^ (u >> 27)) * 0x94d049bb133111ebull;
	return u ^ (u >> 31);
}

#define GLOBAL_SEED	0x676c6f62ull

uint64_t fill_pool_seed(const struct job *j)
{
	return j->plan.dedupe_gn ? GLOBAL_SEED :
		j->rnd.randseed ^ 0x706f6f6cull;
}

bool fill_wanted(const struct job *j)
{
	return j->buf.buffer_compress_percentage || j->buf.dedupe_percentage ||
	       j->buf.zero_buffers || j->buf.buffer_pattern;
}

int fill_init(struct fill *f, const struct job *j, struct gen_data *data,
	      size_t max_len, uint64_t region, unsigned nreq)
{
	const uint8_t *pat = j->buf.buffer_pat ? j->buf.buffer_pat->data : NULL;
	size_t plen = j->buf.buffer_pat ? j->buf.buffer_pat->len : 0, i;
	uint64_t p = j->buf.buffer_compress_percentage;

	memset(f, 0, sizeof(*f));
	f->data = data;
	f->max_len = max_len;
	f->nreq = nreq;
	f->fixed = calloc(max_len ? max_len : 1, 1);
	if (!f->fixed)
		return -ENOMEM;
	/* The pattern from each write's (or segment's) first byte. */
	for (i = 0; plen && i < max_len; i += plen)
		memcpy(f->fixed + i, pat, max_len - i < plen ? max_len - i :
		       plen);
	if ((p && p < 100) || (j->buf.dedupe_percentage && p < 100)) {
		uint64_t wmin = j->io.bs_min[DDIR_WRITE];

		f->mode = FILL_MIX;
		f->seg = j->buf.buffer_compress_chunk &&
			 j->buf.buffer_compress_chunk < wmin ?
			 j->buf.buffer_compress_chunk : wmin;
		f->pct = (unsigned)p;
		f->rnd = f->seg * (100 - p) / 100;
		f->dedupe = (unsigned)j->buf.dedupe_percentage;
		f->key_base = gen_rng_next(&data->keys);
		if (j->buf.dedupe_mode == DEDUPE_WORKING_SET) {
			f->ws = region / 100 * j->buf.dedupe_working_set_percentage /
				wmin;
			f->ws = f->ws ? f->ws : 1;
		}
		if (f->ws && j->plan.dedupe_gn > 1) {
			f->gn = j->plan.dedupe_gn;
			f->gidx = j->plan.dedupe_gidx;
			f->gpps = f->ws / f->gn ? f->ws / f->gn : 1;
			/* one per run (the process), as other jobs' keys */
			f->gbase = j->rnd.allrandrepeat ? GLOBAL_SEED :
				   write_key(GLOBAL_SEED ^ (uint64_t)getpid());
			f->key_base = f->gbase + ((uint64_t)f->gidx << 40);
		}
		gen_rng_seed(&f->rng, j->rnd.randseed ^ 0x64656475ull ^
			     ((uint64_t)j->plan.clone << 32));
		return 0;
	}
	f->mode = FILL_CONST;
	f->scramble = j->buf.scramble_buffers == 1;
	f->filled = calloc(nreq ? nreq : 1, sizeof(*f->filled));
	if (!f->filled) {
		fill_free(f);
		return -ENOMEM;
	}
	return 0;
}

void fill_free(struct fill *f)
{
	free(f->fixed);
	free(f->filled);
	f->fixed = NULL;
	f->filled = NULL;
}

/* Each sector: its byte offset in the file, then the write's key. */
static void scramble(void *buf, uint64_t off, size_t len, uint64_t key)
{
	unsigned char *p = buf;
	size_t i;

	for (i = 0; i + SECTOR <= len; i += SECTOR) {
		uint64_t o = off + i;

		memcpy(p + i, &o, 8);
		memcpy(p + i + 8, &key, 8);
	}
}

void fill_write(struct fill *f, void *buf, uint32_t idx, uint64_t off,
		size_t len)
{
	unsigned char *p = buf;
	uint64_t key, u, base = f->key_base, c;
	size_t i;

	if (f->mode == FILL_CONST) {
		if (f->filled[idx] < len) {
			memcpy(buf, f->fixed, len);
			f->filled[idx] = (uint32_t)len;
		}
		if (f->scramble)
			scramble(buf, off, len, gen_rng_next(&f->data->keys));
		return;
	}
	/* D% of writes repeat a distinct one: the last (repeat) or one of
	 * the first ws (working_set), drawn at random as fio does. */
	if (f->dedupe && (f->ws || f->nuniq) &&
	    gen_rng_below(&f->rng, 100) < f->dedupe) {
		u = f->ws ? gen_rng_below(&f->rng, f->ws) : f->nuniq - 1;
		if (f->gn) {
			/* dedupe_global: whose first writes u falls in */
			c = u / f->gpps;
			u -= c * f->gpps;
			base = f->gbase +
			       ((uint64_t)((f->gidx + c) % f->gn) << 40);
		}
	} else {
		u = f->nuniq++;
	}
	key = write_key(base + u);
	f->data->xor(buf, f->data->pool, len, key);
	if (!f->pct)
		return;
	for (i = 0; i < len; i += f->seg) {
		size_t n = len - i < f->seg ? len - i : f->seg;
		size_t r = n == f->seg ? f->rnd : n * (100 - f->pct) / 100;

		memcpy(p + i + r, f->fixed, n - r);
	}
}

/* ---- buffer_pattern= ---- */

static bool is_hex_start(const char *s)
{
	return s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

struct pbuf {
	uint8_t *b;
	size_t n, cap;
};

static int put(struct pbuf *pb, const void *src, size_t len)
{
	uint8_t *nb;
	size_t cap = pb->cap ? pb->cap : 64;

	if (len > FILL_PATTERN_MAX - pb->n)
		len = FILL_PATTERN_MAX - pb->n;
	while (cap < pb->n + len)
		cap *= 2;
	if (cap != pb->cap) {
		nb = realloc(pb->b, cap);
		if (!nb)
			return -ENOMEM;
		pb->b = nb;
		pb->cap = cap;
	}
	memcpy(pb->b + pb->n, src, len);
	pb->n += len;
	return 0;
}

static int put_file(struct pbuf *pb, const char *name, char *why,
		    size_t whylen)
{
	char chunk[65536];
	size_t before = pb->n;
	ssize_t r;
	int fd = open(name, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0) {
		ret = -errno;
		snprintf(why, whylen, "cannot open pattern file '%s': %s",
			 name, strerror(errno));
		return ret;
	}
	while (!ret && pb->n < FILL_PATTERN_MAX &&
	       (r = read(fd, chunk, sizeof(chunk))) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			snprintf(why, whylen, "cannot read pattern file "
				 "'%s': %s", name, strerror(errno));
			break;
		}
		ret = put(pb, chunk, (size_t)r);
	}
	close(fd);
	if (!ret && pb->n == before) {
		snprintf(why, whylen, "pattern file '%s' is empty", name);
		ret = -EINVAL;
	}
	return ret;
}

/* One item at *sp: 0 and *sp past it, or -EINVAL/-ENOMEM. */
static int parse_item(const char **sp, struct pbuf *pb, char *why,
		      size_t whylen)
{
	const char *s = *sp, *end;
	uint8_t bytes[8];
	size_t n = 0, k;
	char name[4096];
	int ret;

	if (*s == '"' || *s == '\'') {
		end = strchr(s + 1, *s);
		if (!end || end == s + 1)
			return -EINVAL;
		*sp = end + 1;
		if (*s == '"')
			return put(pb, s + 1, (size_t)(end - s - 1));
		if ((size_t)(end - s - 1) >= sizeof(name))
			return -EINVAL;
		memcpy(name, s + 1, (size_t)(end - s - 1));
		name[end - s - 1] = '\0';
		ret = put_file(pb, name, why, whylen);
		return ret ? (ret == -ENOMEM ? ret : -EIO) : 0;
	}
	if (is_hex_start(s)) {
		const char *d = s + 2;

		for (end = d; value_hexdigit(*end) >= 0; end++)
			;
		/* "0xff0x14": the last 0 starts the next item */
		if (end - d >= 2 && end[-1] == '0' &&
		    (*end == 'x' || *end == 'X'))
			end--;
		if (end == d)
			return -EINVAL;
		if ((end - d) & 1) {
			bytes[0] = (uint8_t)value_hexdigit(*d++);
			if ((ret = put(pb, bytes, 1)))
				return ret;
		}
		for (; d < end; d += 2) {
			bytes[0] = (uint8_t)(value_hexdigit(d[0]) << 4 | value_hexdigit(d[1]));
			if ((ret = put(pb, bytes, 1)))
				return ret;
		}
		*sp = end;
		return 0;
	}
	{
		long long v = 0;
		bool neg = false;
		const char *d = s;

		if (*d == '-' || *d == '+')
			neg = *d++ == '-';
		for (end = d; *end >= '0' && *end <= '9'; end++) {
			if (is_hex_start(end) && end > d)
				break;
			v = v * 10 + (*end - '0');
			if (v > (long long)INT_MAX + 1)
				return -EINVAL;
		}
		if (end == d)
			return -EINVAL;
		v = neg ? -v : v;
		if (v > INT_MAX || v < INT_MIN)
			return -EINVAL;
		if (!v) {
			bytes[n++] = 0;
		} else {
			uint32_t u = (uint32_t)(int32_t)v;

			for (k = 0; u; k++, u >>= 8)
				bytes[n++] = (uint8_t)(u & 0xff);
		}
		*sp = end;
		return put(pb, bytes, n);
	}
}

int fill_pattern_parse(const char *text, uint8_t **out, char *why,
		       size_t whylen)
{
	struct pbuf pb = { 0 };
	const char *s = text;
	int ret = 0;

	*out = NULL;
	why[0] = '\0';
	while (*s && !ret)
		ret = parse_item(&s, &pb, why, whylen);
	if (!ret && !pb.n)
		ret = -EINVAL;
	if (ret) {
		free(pb.b);
		if (ret == -EIO)
			return -EINVAL;
		if (ret == -EINVAL && !why[0])
			snprintf(why, whylen, "'%s': expected items such as "
				 "0xdeadbeef (hex bytes), -12 (an int, its "
				 "bytes little-endian), \"text\" (in double "
				 "quotes) or 'FILE' (a file's bytes), one "
				 "after another", text);
		return ret;
	}
	*out = pb.b;
	return (int)pb.n;
}
