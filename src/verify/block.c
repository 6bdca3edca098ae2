// SPDX-License-Identifier: MIT
/*
 * Verification: filling written blocks, checking blocks read back and
 * telling what a block that does not check out is. include/verify.h has
 * the block format.
 *
 * The good path of a check is one checksum over the block and a few
 * compares. Only a block that fails is looked at sector by sector: each
 * sector's first data word names the generation it claims (the data of a
 * word is invertible in the generation), and the rest of the sector must
 * agree. That tells bit rot (a sector no write produced) from a tear
 * (sectors of different writes) without any memory of what was written.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

#include "fill.h"
#include "gen.h"
#include "target.h"
#include "value.h"
#include "verify.h"
#include "verify_int.h"

#define CRC32C_POLY	0x82f63b78u	/* Castagnoli, reflected */
#define SECTOR_WORDS	(VERIFY_SECTOR / 8)

static const char *const class_names[VC_NR + 1] = {
	[VC_BAD_CHECKSUM] = "bad_checksum",
	[VC_MISDIRECTED] = "misdirected",
	[VC_STALE] = "stale",
	[VC_ZEROED] = "zeroed",
	[VC_TORN] = "torn",
	[VC_FOREIGN] = "foreign",
	[VC_OK] = "ok",
};

static const char *const kind_names[] = {
	[VERIFY_NONE] = "none",
	[VERIFY_XXH3] = "xxh3",
	[VERIFY_CRC32C] = "crc32c",
	[VERIFY_PATTERN] = "pattern",
	[VERIFY_MD5] = "md5",
	[VERIFY_CRC64] = "crc64",
	[VERIFY_CRC32] = "crc32",
	[VERIFY_SHA1] = "sha1",
	[VERIFY_SHA256] = "sha256",
	[VERIFY_SHA512] = "sha512",
	[VERIFY_SHA3_224] = "sha3-224",
	[VERIFY_SHA3_256] = "sha3-256",
	[VERIFY_SHA3_384] = "sha3-384",
	[VERIFY_SHA3_512] = "sha3-512",
	[VERIFY_XXHASH] = "xxhash",
	[VERIFY_META] = "meta",
};

const char *verify_class_name(int cls)
{
	return cls >= 0 && cls <= VC_NR ? class_names[cls] : "?";
}

const char *verify_kind_name(int kind)
{
	return kind >= 0 && kind < VERIFY_KIND_NR ? kind_names[kind] : "?";
}

/* ---- CRC-32C ---- */

void verify_crc_init(struct verify_crc *c, bool allow_hw)
{
	uint32_t i, k, crc;

	for (i = 0; i < 256; i++) {
		crc = i;
		for (k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ CRC32C_POLY : crc >> 1;
		c->table[0][i] = crc;
	}
	for (i = 0; i < 256; i++)
		for (k = 1; k < 8; k++)
			c->table[k][i] = (c->table[k - 1][i] >> 8) ^
					 c->table[0][c->table[k - 1][i] & 0xff];
	c->hw = false;
#if defined(__x86_64__)
	if (allow_hw) {
		__builtin_cpu_init();
		c->hw = __builtin_cpu_supports("sse4.2");
	}
#else
	(void)allow_hw;
#endif
}

static uint32_t crc_sw(const struct verify_crc *c, uint32_t crc,
		       const uint8_t *p, size_t len)
{
	const uint32_t (*t)[256] = c->table;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (len && ((uintptr_t)p & 7)) {
		crc = t[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
		len--;
	}
	while (len >= 8) {
		uint32_t lo, hi;

		memcpy(&lo, p, 4);
		memcpy(&hi, p + 4, 4);
		lo ^= crc;
		crc = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^
		      t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^
		      t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^
		      t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
		p += 8;
		len -= 8;
	}
#endif
	while (len--)
		crc = t[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t crc_hw(uint32_t crc, const uint8_t *p, size_t len)
{
	uint64_t c, v;

	while (len && ((uintptr_t)p & 7)) {
		crc = _mm_crc32_u8(crc, *p++);
		len--;
	}
	c = crc;
	while (len >= 8) {
		memcpy(&v, p, 8);
		c = _mm_crc32_u64(c, v);
		p += 8;
		len -= 8;
	}
	crc = (uint32_t)c;
	while (len--)
		crc = _mm_crc32_u8(crc, *p++);
	return crc;
}
#endif

uint32_t verify_crc_update(const struct verify_crc *c, uint32_t crc,
			   const void *buf, size_t len)
{
#if defined(__x86_64__)
	if (c->hw)
		return crc_hw(crc, buf, len);
#endif
	return crc_sw(c, crc, buf, len);
}

uint32_t verify_crc32c(const struct verify_crc *c, const void *buf,
		       size_t len)
{
	return ~verify_crc_update(c, ~0u, buf, len);
}

/* ---- Block format ---- */

uint64_t verify_file_seed(uint64_t randseed, unsigned clone, unsigned file)
{
	return verify_mix64(randseed ^ verify_mix64(((uint64_t)clone << 32) | file));
}

/* a * result == 1 mod 2^64 for odd a (Newton: each step doubles bits). */
static uint64_t mul_inverse(uint64_t a)
{
	uint64_t x = a;
	int i;

	for (i = 0; i < 5; i++)
		x *= 2 - a * x;
	return x;
}

static void data_rng(struct gen_rng *r, uint64_t seed, uint64_t offset)
{
	gen_rng_seed(r, seed ^ (offset * VERIFY_OFF_MUL));
}

/* The pattern from the block's first byte on: byte k is pattern[k % plen]. */
static void fill_pattern(const struct verify_fmt *f, uint8_t *p, uint32_t len)
{
	size_t done = f->plen < len ? f->plen : len, n;

	memcpy(p, f->pattern, done);
	while (done < len) {
		n = done < len - done ? done : len - done;
		memcpy(p + done, p, n);
		done += n;
	}
}

void verify_fill(const struct verify_fmt *f, void *buf, uint32_t len,
		 const struct verify_hdr *in)
{
	struct verify_hdr *h = buf;
	uint64_t *w = buf, i, n = len / 8, m, hw = f->hdr_size / 8;
	struct gen_rng r;

	if (f->plen) {
		fill_pattern(f, buf, len);
	} else {
		data_rng(&r, in->seed, in->offset);
		m = (in->generation + hw) * VERIFY_GEN_MUL;
		for (i = hw; i < n; i++) {
			w[i] = gen_rng_next(&r) ^ m;
			m += VERIFY_GEN_MUL;
		}
	}
	*h = *in;
	h->magic = VERIFY_MAGIC;
	h->len = len;
	h->kind = (uint16_t)f->kind;
	h->version = 1;
	verify_csum_store(f, buf, len);
	if (f->voff)
		verify_swap(f, buf, len, false);
}

void verify_swap(const struct verify_fmt *f, void *buf, uint32_t len,
		 bool undo)
{
	uint8_t *p = buf, t;
	uint32_t n = f->hdr_size, i, k;

	if (!f->voff || f->voff + n > len)
		return;
	/* Byte by byte: a permutation even where the two ranges overlap. */
	for (k = 0; k < n; k++) {
		i = undo ? n - 1 - k : k;
		t = p[i];
		p[i] = p[f->voff + i];
		p[f->voff + i] = t;
	}
}

/* ---- Classification ---- */

static bool all_zero(const uint8_t *p, size_t len)
{
	uint64_t w;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		if (w)
			return false;
	}
	for (; i < len; i++)
		if (p[i])
			return false;
	return true;
}

static void sec_note(struct verify_sectors *s, uint32_t idx, int state,
		     uint64_t gen)
{
	if (state == VS_VALID) {
		s->valid++;
		if (s->ngens == 0 || (s->ngens == 1 && gen != s->gens[0]))
			s->gens[s->ngens++] = gen;
		else if (s->ngens == 2 && gen != s->gens[0] &&
			 gen != s->gens[1])
			s->ngens = 3;
	} else if (state == VS_ZERO) {
		s->zero++;
	} else if (!s->bad++) {
		s->first_bad = idx;
	}
	if (s->nruns && state == s->cur_state &&
	    (state != VS_VALID || gen == s->cur_gen)) {
		if (s->nruns <= 4)
			s->run[s->nruns - 1].last = idx;
		return;
	}
	s->cur_state = (uint8_t)state;
	s->cur_gen = gen;
	if (s->nruns < 4) {
		s->run[s->nruns].first = idx;
		s->run[s->nruns].last = idx;
		s->run[s->nruns].state = (uint8_t)state;
		s->run[s->nruns].gen = gen;
	}
	s->nruns++;
}

/*
 * Data kinds: the generation sector idx holds, named by its first data
 * word and confirmed by the others. r is at the sector's first data word.
 */
static int sector_data(const uint64_t *w, uint32_t idx, uint64_t hw,
		       struct gen_rng *r, uint64_t inv, uint64_t *gen)
{
	uint64_t first = idx ? (uint64_t)idx * SECTOR_WORDS : hw;
	uint64_t end = ((uint64_t)idx + 1) * SECTOR_WORDS, i, x, m;
	bool ok = true;

	m = w[first] ^ gen_rng_next(r);
	*gen = m * inv - first;
	for (i = first + 1; i < end; i++) {
		x = w[i] ^ gen_rng_next(r);
		m += VERIFY_GEN_MUL;
		ok = ok && x == m;
	}
	return ok ? VS_VALID : VS_BAD;
}

static int sector_pattern(const struct verify_fmt *f, const uint8_t *p,
			  uint32_t idx)
{
	size_t k = (size_t)idx * VERIFY_SECTOR, end = k + VERIFY_SECTOR;

	if (!idx)
		k = f->hdr_size;
	for (; k < end; k++)
		if (p[k] != f->pattern[k % f->plen])
			return VS_BAD;
	return VS_VALID;
}

static void sectors(const struct verify_fmt *f, const void *buf, uint32_t len,
		    uint64_t offset, uint64_t seed, struct verify_sectors *s)
{
	const uint8_t *p = buf;
	uint64_t inv = mul_inverse(VERIFY_GEN_MUL), gen = 0;
	struct gen_rng r;
	uint32_t idx;
	int st;

	memset(s, 0, sizeof(*s));
	s->n = len / VERIFY_SECTOR;
	data_rng(&r, seed, offset);
	for (idx = 0; idx < s->n; idx++) {
		const uint8_t *sp = p + (size_t)idx * VERIFY_SECTOR;

		gen = 0;
		if (f->plen)
			st = sector_pattern(f, p, idx);
		else
			st = sector_data(buf, idx, f->hdr_size / 8, &r, inv,
					 &gen);
		if (st == VS_BAD && all_zero(sp, VERIFY_SECTOR))
			st = VS_ZERO;
		sec_note(s, idx, st, gen);
	}
}

static const char *sec_state_text(const struct verify_fmt *f, int state,
				  uint64_t gen, char *buf, size_t len)
{
	if (state == VS_ZERO)
		snprintf(buf, len, "zeros");
	else if (state == VS_BAD)
		snprintf(buf, len, "no write's data");
	else if (f->plen)
		snprintf(buf, len, "the pattern");
	else
		snprintf(buf, len, "generation %" PRIu64, gen);
	return buf;
}

static void torn_detail(const struct verify_fmt *f,
			const struct verify_sectors *s, char *out, size_t len)
{
	unsigned i, shown = s->nruns < 4 ? s->nruns : 4;
	char what[48], range[32];
	size_t n = 0;

	for (i = 0; i < shown && n < len; i++) {
		if (s->run[i].first == s->run[i].last)
			snprintf(range, sizeof(range), "sector %" PRIu32,
				 s->run[i].first);
		else
			snprintf(range, sizeof(range), "sectors %" PRIu32
				 "-%" PRIu32, s->run[i].first, s->run[i].last);
		n += (size_t)snprintf(out + n, len - n, "%s%s: %s",
				      i ? "; " : "", range,
				      sec_state_text(f, s->run[i].state,
						     s->run[i].gen, what,
						     sizeof(what)));
	}
	if (s->nruns > shown && n < len)
		snprintf(out + n, len - n, "; ...");
}

/*
 * verify_pattern: the checksum says the block is as written (verify=meta:
 * its header only); this says that the data is the pattern: the first
 * period after the header is, and every later byte equals the one a period
 * before it.
 */
static bool pattern_intact(const struct verify_fmt *f, const uint8_t *p,
			   uint32_t len)
{
	size_t k, n = f->plen, start = f->hdr_size;

	for (k = start; k < start + n && k < len; k++)
		if (p[k] != f->pattern[k % n])
			return false;
	return len <= start + n || !memcmp(p + start + n, p + start,
					   len - start - n);
}

/* A header that is there but is not of this kind or block size. */
static int foreign_header(const struct verify_fmt *f, uint32_t len,
			  struct verify_result *res)
{
	const struct verify_hdr *h = &res->hdr;

	if (h->kind != f->kind && h->kind > VERIFY_NONE &&
	    h->kind < VERIFY_KIND_NR) {
		snprintf(res->detail, sizeof(res->detail), "written with "
			 "verify=%s, checked as verify=%s",
			 verify_kind_name(h->kind), verify_kind_name(f->kind));
		return VC_FOREIGN;
	}
	if (h->len != len && h->len && h->len % VERIFY_SECTOR == 0) {
		snprintf(res->detail, sizeof(res->detail), "written with a "
			 "block size of %" PRIu32 ", checked with %" PRIu32,
			 h->len, len);
		return VC_FOREIGN;
	}
	return VC_OK;
}

int verify_classify(const struct verify_fmt *f, const void *buf,
		    uint32_t len, uint64_t offset, uint64_t seed,
		    struct verify_result *res)
{
	struct verify_sectors *s = &res->sec;
	struct verify_hdr *h = &res->hdr;
	char what[48];

	memcpy(h, buf, sizeof(*h));
	res->has_hdr = h->magic == VERIFY_MAGIC;
	res->detail[0] = '\0';
	memset(s, 0, sizeof(*s));
	if (res->has_hdr && h->len == len && h->kind == f->kind &&
	    verify_csum_ok(f, buf, len) &&
	    (!f->plen || pattern_intact(f, buf, len))) {
		if (h->offset != offset) {
			snprintf(res->detail, sizeof(res->detail), "an intact "
				 "block that belongs at offset %" PRIu64,
				 h->offset);
			return VC_MISDIRECTED;
		}
		if (h->seed != seed) {
			snprintf(res->detail, sizeof(res->detail), "an intact "
				 "block of another job or file (data seed "
				 "%#" PRIx64 ")", h->seed);
			return VC_MISDIRECTED;
		}
		return VC_OK;
	}
	if (all_zero(buf, len)) {
		snprintf(res->detail, sizeof(res->detail), "every byte is "
			 "zero");
		return VC_ZEROED;
	}
	if (res->has_hdr && foreign_header(f, len, res) != VC_OK)
		return VC_FOREIGN;
	sectors(f, buf, len, offset, seed, s);
	if (!s->valid) {
		snprintf(res->detail, sizeof(res->detail), "%s", res->has_hdr ?
			 (f->plen ? "a header of this "
			  "format, but the data is not verify_pattern" :
			  "a header of this format but no data of this job "
			  "here") : "no data of this job: never written with "
			 "verification, or overwritten");
		return VC_FOREIGN;
	}
	if (s->bad) {
		snprintf(res->detail, sizeof(res->detail), "sector %" PRIu32
			 " (bytes %" PRIu32 "-%" PRIu32 ") holds data that no "
			 "write of this job produced", s->first_bad,
			 s->first_bad * VERIFY_SECTOR,
			 (s->first_bad + 1) * VERIFY_SECTOR - 1);
		return VC_BAD_CHECKSUM;
	}
	if (!s->zero && s->ngens == 1) {
		snprintf(res->detail, sizeof(res->detail), "the header is "
			 "damaged; the data is intact (%s)",
			 sec_state_text(f, VS_VALID, s->gens[0], what,
					sizeof(what)));
		return VC_BAD_CHECKSUM;
	}
	torn_detail(f, s, res->detail, sizeof(res->detail));
	return VC_TORN;
}

/* ---- verify_pattern= ---- */

int verify_pattern_parse(const char *text, uint8_t *out, char *why,
			 size_t whylen)
{
	uint8_t *bytes;
	int n = fill_pattern_parse(text, &bytes, why, whylen);

	if (n < 0)
		return n;
	if (n > VERIFY_PATTERN_MAX) {
		free(bytes);
		snprintf(why, whylen, "'%s': %d bytes; a verify pattern holds "
			 "at most %d", text, n, VERIFY_PATTERN_MAX);
		return -EINVAL;
	}
	memcpy(out, bytes, (size_t)n);
	free(bytes);
	return n;
}
