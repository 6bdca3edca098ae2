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
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <xxhash.h>
#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

#include "engine.h"
#include "err.h"
#include "gen.h"
#include "job.h"
#include "path.h"
#include "target.h"
#include "verify.h"

#define CRC32C_POLY	0x82f63b78u	/* Castagnoli, reflected */
#define HDR_CSUM_OFF	offsetof(struct verify_hdr, csum)
#define HDR_WORDS	(VERIFY_HDR_SIZE / 8)
#define SECTOR_WORDS	(VERIFY_SECTOR / 8)

/* A verify_only run's view of one earlier writing run. */
struct verify_run {
	uint64_t run_id;
	uint64_t gen_min, gen_max;
	uint64_t blocks;
	unsigned nblk;
	struct {
		uint64_t vblock;
		struct verify_hdr hdr;
	} blk[VERIFY_RUN_BLOCKS];
};

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
};

const char *verify_class_name(int cls)
{
	return cls >= 0 && cls <= VC_NR ? class_names[cls] : "?";
}

const char *verify_kind_name(int kind)
{
	return kind >= 0 && kind <= VERIFY_PATTERN ? kind_names[kind] : "?";
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

static uint32_t crc_update(const struct verify_crc *c, uint32_t crc,
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
	return ~crc_update(c, ~0u, buf, len);
}

/* ---- Block format ---- */

static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

uint64_t verify_file_seed(uint64_t randseed, unsigned clone, unsigned file)
{
	return mix64(randseed ^ mix64(((uint64_t)clone << 32) | file));
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

uint64_t verify_csum(const struct verify_fmt *f, const void *buf,
		     uint32_t len)
{
	const uint8_t *p = buf;
	uint32_t crc;

	if (f->kind == VERIFY_XXH3)
		return XXH3_64bits_withSeed(p + VERIFY_HDR_SIZE,
					    len - VERIFY_HDR_SIZE,
					    XXH3_64bits(p, HDR_CSUM_OFF));
	crc = crc_update(&f->crc, ~0u, p, HDR_CSUM_OFF);
	crc = crc_update(&f->crc, crc, p + VERIFY_HDR_SIZE,
			 len - VERIFY_HDR_SIZE);
	return ~crc;
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
	uint64_t *w = buf, i, n = len / 8, m;
	struct gen_rng r;

	if (f->kind == VERIFY_PATTERN) {
		fill_pattern(f, buf, len);
	} else {
		data_rng(&r, in->seed, in->offset);
		m = (in->generation + HDR_WORDS) * VERIFY_GEN_MUL;
		for (i = HDR_WORDS; i < n; i++) {
			w[i] = gen_rng_next(&r) ^ m;
			m += VERIFY_GEN_MUL;
		}
	}
	*h = *in;
	h->magic = VERIFY_MAGIC;
	h->len = len;
	h->kind = (uint16_t)f->kind;
	h->version = 1;
	h->csum = verify_csum(f, buf, len);
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
static int sector_data(const uint64_t *w, uint32_t idx, struct gen_rng *r,
		       uint64_t inv, uint64_t *gen)
{
	uint64_t first = idx ? (uint64_t)idx * SECTOR_WORDS : HDR_WORDS;
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
		k = VERIFY_HDR_SIZE;
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
		if (f->kind == VERIFY_PATTERN)
			st = sector_pattern(f, p, idx);
		else
			st = sector_data(buf, idx, &r, inv, &gen);
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
	else if (f->kind == VERIFY_PATTERN)
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
 * verify=pattern: the checksum says the block is as written; this says
 * that what was written is the pattern: the first period after the header
 * is, and every later byte equals the one a period before it.
 */
static bool pattern_intact(const struct verify_fmt *f, const uint8_t *p,
			   uint32_t len)
{
	size_t k, n = f->plen, start = VERIFY_HDR_SIZE;

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
	    h->kind <= VERIFY_PATTERN) {
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
	    verify_csum(f, buf, len) == h->csum &&
	    (f->kind != VERIFY_PATTERN || pattern_intact(f, buf, len))) {
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
			 (f->kind == VERIFY_PATTERN ? "a header of this "
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

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int verify_pattern_parse(const char *text, uint8_t *out, char *why,
			 size_t whylen)
{
	size_t n = strlen(text), i;
	int hi, lo;

	if (n > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		if ((n - 2) % 2 || (n - 2) / 2 > VERIFY_PATTERN_MAX)
			goto bad;
		for (i = 2; i < n; i += 2) {
			hi = hexval(text[i]);
			lo = hexval(text[i + 1]);
			if (hi < 0 || lo < 0)
				goto bad;
			out[(i - 2) / 2] = (uint8_t)(hi << 4 | lo);
		}
		return (int)((n - 2) / 2);
	}
	if (n > 2 && (text[0] == '"' || text[0] == '\'') &&
	    text[n - 1] == text[0] && n - 2 <= VERIFY_PATTERN_MAX) {
		memcpy(out, text + 1, n - 2);
		return (int)(n - 2);
	}
bad:
	snprintf(why, whylen, "'%s': expected 0x and an even number of hex "
		 "digits, or a string in quotes, of 1 to %d bytes, such as "
		 "0xdeadbeef or \"iorig\"", text, VERIFY_PATTERN_MAX);
	return -EINVAL;
}

/* ---- Cross-option checks ---- */

int verify_job_check(const struct job *j, const char **option, char *why,
		     size_t whylen)
{
	const struct engine_ops *eng = j->ioengine ?
				       engine_find(j->ioengine) : NULL;
	uint64_t bs = j->bs_min[DDIR_WRITE];

	*option = "verify";
	if (j->verify == VERIFY_NONE) {
		if (j->verify_only)
			*option = "verify_only";
		else if (j->verify_backlog)
			*option = "verify_backlog";
		else if (j->verify_pattern)
			*option = "verify_pattern";
		else
			return 0;
		snprintf(why, whylen, "needs verify= (xxh3, crc32c or "
			 "pattern)");
		return -EINVAL;
	}
	if (eng && (eng->flags & ENGINE_NOIO)) {
		snprintf(why, whylen, "the %s engine moves no data: there is "
			 "nothing to verify", eng->name);
		return -EINVAL;
	}
	if ((j->verify == VERIFY_PATTERN) != (j->verify_pattern != NULL)) {
		if (j->verify_pattern)
			*option = "verify_pattern";
		snprintf(why, whylen, "%s", j->verify_pattern ?
			 "applies to verify=pattern only" :
			 "verify=pattern needs verify_pattern=");
		return -EINVAL;
	}
	*option = "bs";
	if (bs != j->bs_max[DDIR_WRITE] || bs % VERIFY_SECTOR) {
		snprintf(why, whylen, "verification needs one write block "
			 "size that is a multiple of %d (the block is the "
			 "unit checked)", VERIFY_SECTOR);
		return -EINVAL;
	}
	if (j->verify_only) {
		*option = "verify_backlog";
		if (!j->verify_backlog)
			return 0;
		snprintf(why, whylen, "applies to jobs that write; "
			 "verify_only=1 writes nothing");
		return -EINVAL;
	}
	*option = "rw";
	if (j->rw != RW_WRITE && j->rw != RW_RANDWRITE) {
		snprintf(why, whylen, "verification checks what the job "
			 "writes: rw=write or randwrite (verify_only=1 checks "
			 "what an earlier run wrote)");
		return -EINVAL;
	}
	*option = "norandommap";
	if (j->rw == RW_RANDWRITE && j->norandommap) {
		snprintf(why, whylen, "verification needs every block "
			 "written once per pass, which norandommap=1 does "
			 "not give");
		return -EINVAL;
	}
	return 0;
}

/* ---- A job's verification state ---- */

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int verify_init(struct verify_ctx **out, const struct job *j,
		const struct target *t)
{
	struct verify_ctx *v = calloc(1, sizeof(*v));
	char why[256];
	int n;

	*out = NULL;
	if (!v)
		return -ENOMEM;
	v->fmt.kind = j->verify;
	if (j->verify == VERIFY_PATTERN) {
		n = verify_pattern_parse(j->verify_pattern ? j->verify_pattern :
					 "", v->fmt.pattern, why, sizeof(why));
		if (n <= 0) {
			free(v);
			return -EINVAL;
		}
		v->fmt.plen = (size_t)n;
	}
	verify_crc_init(&v->fmt.crc, true);
	v->tgt = t;
	v->bs = (uint32_t)j->bs_min[DDIR_WRITE];
	v->nblocks = t->region / v->bs;
	v->randseed = j->randseed;
	v->clone = j->clone;
	v->fatal = j->verify_fatal;
	if (getrandom(&v->run_id, sizeof(v->run_id), GRND_NONBLOCK) !=
	    sizeof(v->run_id))
		v->run_id = mix64(realtime_ns() ^ ((uint64_t)getpid() << 32));
	v->gen0 = realtime_ns();
	v->stats.kind = j->verify;
	if (!j->verify_only && j->do_verify)
		v->written = calloc((v->nblocks + 63) / 64, sizeof(uint64_t));
	if (!j->verify_only && j->verify_backlog) {
		v->backlog = (uint32_t)j->verify_backlog;
		v->ring = calloc(v->backlog, sizeof(*v->ring));
	}
	if (v->written || v->ring)
		v->failed = calloc((v->nblocks + 63) / 64, sizeof(uint64_t));
	if (j->verify_only)
		v->runs = calloc(VERIFY_RUNS_MAX, sizeof(*v->runs));
	if ((!j->verify_only && j->do_verify && !v->written) ||
	    (v->backlog && !v->ring) || (j->verify_only && !v->runs) ||
	    ((v->written || v->ring) && !v->failed)) {
		verify_exit(v);
		return -ENOMEM;
	}
	*out = v;
	return 0;
}

void verify_exit(struct verify_ctx *v)
{
	if (!v)
		return;
	free(v->written);
	free(v->failed);
	free(v->ring);
	free(v->runs);
	free(v);
}

int verify_lock(const struct target *t, bool writes, char *why,
		size_t whylen)
{
	struct flock fl;
	char holder[32];
	unsigned i;
	int err;

	for (i = 0; i < t->nfiles; i++) {
		const struct target_file *tf = &t->files[i];

		memset(&fl, 0, sizeof(fl));
		fl.l_type = writes ? F_WRLCK : F_RDLCK;
		fl.l_whence = SEEK_SET;
		fl.l_start = (off_t)tf->offset;
		fl.l_len = (off_t)t->file_region;
		if (!fcntl(tf->fd, F_OFD_SETLK, &fl))
			continue;
		err = errno;
		if (err == ENOLCK || err == EOPNOTSUPP || err == EINVAL)
			continue;
		if (err != EAGAIN && err != EACCES) {
			snprintf(why, whylen, "locking bytes %" PRIu64 "-%"
				 PRIu64 " of %s (fcntl F_OFD_SETLK): %s",
				 tf->offset, tf->offset + t->file_region - 1,
				 tf->path, strerror(err));
			return -err;
		}
		holder[0] = '\0';
		if (!fcntl(tf->fd, F_OFD_GETLK, &fl) && fl.l_type != F_UNLCK &&
		    fl.l_pid > 0)
			snprintf(holder, sizeof(holder), " (pid %ld)",
				 (long)fl.l_pid);
		snprintf(why, whylen, "another process%s holds a lock on "
			 "bytes of %s that this job %s (%" PRIu64 "-%" PRIu64
			 "): another iorig run, or another program, is %s "
			 "them, and this job's checks could not be trusted; "
			 "run the two one after the other, or on other bytes",
			 holder, tf->path, writes ? "writes and verifies" :
			 "checks", tf->offset, tf->offset + t->file_region - 1,
			 fl.l_type == F_RDLCK ? "checking" : "writing");
		return -EAGAIN;
	}
	return 0;
}

void verify_where(const struct verify_ctx *v, uint64_t vblock,
		  unsigned *file, uint64_t *offset)
{
	const struct target *t = v->tgt;
	uint64_t off = vblock * v->bs, fi = 0;

	/* As the worker maps the offsets it generates. */
	if (t->nfiles > 1) {
		fi = off / t->file_region;
		off -= fi * t->file_region;
	}
	*file = (unsigned)fi;
	*offset = off + t->files[fi].offset;
}

void verify_stamp(struct verify_ctx *v, void *buf, uint64_t vblock)
{
	struct verify_hdr h = { 0 };
	unsigned fi;

	verify_where(v, vblock, &fi, &h.offset);
	h.seed = verify_file_seed(v->randseed, v->clone, fi);
	h.generation = v->gen0 + v->pass;
	h.time_ns = realtime_ns();
	h.run_id = v->run_id;
	verify_fill(&v->fmt, buf, v->bs, &h);
	if (v->written)
		v->written[vblock / 64] |= 1ull << (vblock % 64);
	if (v->ring && v->ring_len < v->backlog) {
		v->ring[v->ring_len].vblock = vblock;
		v->ring[v->ring_len].generation = h.generation;
		v->ring_len++;
	}
}

void verify_write_done(struct verify_ctx *v, uint64_t vblock, bool ok)
{
	uint64_t bit = 1ull << (vblock % 64);

	if (!v->failed || vblock >= v->nblocks)
		return;
	if (ok)
		v->failed[vblock / 64] &= ~bit;
	else
		v->failed[vblock / 64] |= bit;
}

bool verify_write_failed(const struct verify_ctx *v, uint64_t vblock)
{
	return v->failed && vblock < v->nblocks &&
	       (v->failed[vblock / 64] >> (vblock % 64) & 1);
}

void verify_new_pass(struct verify_ctx *v)
{
	v->pass++;
	if (v->written)
		memset(v->written, 0, (v->nblocks + 63) / 64 *
		       sizeof(uint64_t));
}

bool verify_next_written(const struct verify_ctx *v, uint64_t from,
			 struct verify_blk *b)
{
	uint64_t vb = from, w;

	while (vb < v->nblocks) {
		/* Passes before the last one covered every block. */
		w = v->pass ? ~0ull : v->written[vb / 64];
		/* A failed write says nothing about the device. */
		w = (w & ~v->failed[vb / 64]) >> (vb % 64);
		if (w & 1) {
			b->generation = v->gen0 + v->pass -
					!(v->written[vb / 64] >> (vb % 64) & 1);
			break;
		}
		/* Not to check: skip to the next block that is. */
		vb = w ? vb + (uint64_t)__builtin_ctzll(w) : (vb | 63) + 1;
	}
	b->vblock = vb;
	return vb < v->nblocks;
}

/* Room in the report for a mismatch of order seq; NULL when it is late. */
static struct verify_mismatch *report_slot(struct verify_stats *st,
					   uint64_t seq)
{
	unsigned i = st->nfirst;

	while (i > 0 && st->first[i - 1].seq > seq)
		i--;
	if (i == VERIFY_FIRST_MAX)
		return NULL;
	if (st->nfirst == VERIFY_FIRST_MAX)
		st->nfirst--;
	memmove(&st->first[i + 1], &st->first[i],
		(st->nfirst - i) * sizeof(st->first[0]));
	st->nfirst++;
	memset(&st->first[i], 0, sizeof(st->first[i]));
	st->first[i].seq = seq;
	return &st->first[i];
}

/*
 * Count a mismatch of block b and keep it for the report when it is among
 * the first: in region order for verify_only (whose stale blocks are only
 * known at the end), else in the order found.
 */
static void note_mismatch(struct verify_ctx *v, int cls, uint64_t vblock,
			  uint64_t exp_gen, const struct verify_result *res)
{
	struct verify_mismatch *m;
	unsigned fi;

	v->stats.mismatches++;
	v->stats.by_class[cls]++;
	/* verify_only knows stale blocks only at the end. */
	if (v->fatal && (cls != VC_STALE || !v->runs)) {
		v->halt = true;
		v->stats.stopped = true;
	}
	m = report_slot(&v->stats, v->runs ? vblock : v->nfound);
	v->nfound++;
	if (!m)
		return;
	verify_where(v, vblock, &fi, &m->offset);
	snprintf(m->file, sizeof(m->file), "%s", v->tgt->files[fi].path);
	m->cls = (uint8_t)cls;
	m->found_hdr = res->has_hdr;
	if (res->has_hdr)
		m->found = res->hdr;
	m->expected.magic = VERIFY_MAGIC;
	m->expected.offset = m->offset;
	m->expected.len = v->bs;
	m->expected.kind = (uint16_t)v->fmt.kind;
	m->expected.version = 1;
	m->expected.seed = verify_file_seed(v->randseed, v->clone, fi);
	if (exp_gen) {
		m->exp_gen = true;
		m->expected.generation = exp_gen;
		m->expected.run_id = v->run_id;
	}
	snprintf(m->detail, sizeof(m->detail), "%s", res->detail);
}

static void run_remember(struct verify_run *r, uint64_t vblock,
			 const struct verify_hdr *h)
{
	if (h->generation < r->gen_min)
		r->gen_min = h->generation;
	if (h->generation > r->gen_max)
		r->gen_max = h->generation;
	r->blocks++;
	if (r->nblk < VERIFY_RUN_BLOCKS) {
		r->blk[r->nblk].vblock = vblock;
		r->blk[r->nblk].hdr = *h;
		r->nblk++;
	}
}

/* Every block of run r is stale: count them, report the first. */
static void run_stale(struct verify_ctx *v, const struct verify_run *r)
{
	struct verify_result res = { .has_hdr = true };
	unsigned i;

	for (i = 0; i < r->nblk; i++) {
		res.hdr = r->blk[i].hdr;
		note_mismatch(v, VC_STALE, r->blk[i].vblock, 0, &res);
	}
	/* note_mismatch counted the remembered ones. */
	v->stats.mismatches += r->blocks - r->nblk;
	v->stats.by_class[VC_STALE] += r->blocks - r->nblk;
}

/*
 * verify_only: an intact block of run h->run_id. With more runs than the
 * table holds, the run with the oldest newest generation cannot be the
 * newest run: its blocks are stale now.
 */
static void run_note(struct verify_ctx *v, uint64_t vblock,
		     const struct verify_hdr *h)
{
	struct verify_run *r, *oldest = NULL;
	struct verify_result res = { .has_hdr = true, .hdr = *h };
	unsigned i;

	for (i = 0; i < v->nruns; i++) {
		r = &v->runs[i];
		if (r->run_id == h->run_id) {
			run_remember(r, vblock, h);
			return;
		}
		if (!oldest || r->gen_max < oldest->gen_max)
			oldest = r;
	}
	if (v->nruns == VERIFY_RUNS_MAX) {
		if (h->generation < oldest->gen_max) {
			note_mismatch(v, VC_STALE, vblock, 0, &res);
			return;
		}
		run_stale(v, oldest);
		r = oldest;
	} else {
		r = &v->runs[v->nruns++];
	}
	memset(r, 0, sizeof(*r));
	r->run_id = h->run_id;
	r->gen_min = UINT64_MAX;
	run_remember(r, vblock, h);
}

int verify_check(struct verify_ctx *v, const void *buf,
		 const struct verify_blk *b)
{
	struct verify_result res;
	uint64_t off, seed;
	unsigned fi;
	int cls;

	verify_where(v, b->vblock, &fi, &off);
	seed = verify_file_seed(v->randseed, v->clone, fi);
	v->stats.blocks_checked++;
	v->stats.bytes += v->bs;
	cls = verify_classify(&v->fmt, buf, v->bs, off, seed, &res);
	if (cls == VC_OK && !b->generation) {
		run_note(v, b->vblock, &res.hdr);
		return VC_OK;
	}
	if (cls == VC_OK) {
		if (res.hdr.generation == b->generation &&
		    res.hdr.run_id == v->run_id)
			return VC_OK;
		cls = res.hdr.generation < b->generation ? VC_STALE :
		      VC_FOREIGN;
		snprintf(res.detail, sizeof(res.detail), "%s", cls == VC_STALE ?
			 "an intact block of an older write: the write "
			 "expected here was lost" : "an intact block newer "
			 "than what this run wrote here");
	}
	note_mismatch(v, cls, b->vblock, b->generation, &res);
	return cls;
}

void verify_end(struct verify_ctx *v)
{
	const struct verify_run *newest = NULL;
	struct verify_mismatch *m;
	uint64_t k;
	unsigned i;

	if (v->failed) {
		v->stats.write_failed = 0;
		for (k = 0; k < (v->nblocks + 63) / 64; k++)
			v->stats.write_failed +=
				(uint64_t)__builtin_popcountll(v->failed[k]);
	}
	if (!v->runs)
		return;
	for (i = 0; i < v->nruns; i++)
		if (!newest || v->runs[i].gen_max > newest->gen_max)
			newest = &v->runs[i];
	for (i = 0; i < v->nruns; i++)
		if (&v->runs[i] != newest)
			run_stale(v, &v->runs[i]);
	if (!newest)
		return;
	for (i = 0; i < v->stats.nfirst; i++) {
		m = &v->stats.first[i];
		if (m->exp_gen)
			continue;
		m->exp_gen = true;
		m->expected.generation = newest->gen_max;
		m->expected.run_id = newest->run_id;
		if (m->cls == VC_STALE)
			snprintf(m->detail, sizeof(m->detail), "an intact "
				 "block of an earlier run: the newest run "
				 "(generations %" PRIu64 "-%" PRIu64 ") did "
				 "not write it, or its write was lost",
				 newest->gen_min, newest->gen_max);
	}
}

void verify_stats_merge(struct verify_stats *dst,
			const struct verify_stats *src)
{
	unsigned i;

	if (!src->kind)
		return;
	if (!dst->kind)
		dst->kind = src->kind;
	dst->blocks_checked += src->blocks_checked;
	dst->bytes += src->bytes;
	if (src->runtime_ns > dst->runtime_ns)
		dst->runtime_ns = src->runtime_ns;
	dst->read_errors += src->read_errors;
	dst->write_failed += src->write_failed;
	dst->mismatches += src->mismatches;
	for (i = 0; i < VC_NR; i++)
		dst->by_class[i] += src->by_class[i];
	dst->stopped = dst->stopped || src->stopped;
	for (i = 0; i < src->nfirst && dst->nfirst < VERIFY_FIRST_MAX; i++)
		dst->first[dst->nfirst++] = src->first[i];
}

/* ---- Plan time: regions that verifying jobs share ---- */

/* One file of one job's region, for verify_plan_overlaps. */
struct vspan {
	unsigned wg;		/* wait group: who runs at the same time */
	bool bdev;
	bool exists;
	dev_t dev;		/* st_rdev of a device, else st_dev */
	ino_t ino;
	char *name;		/* resolved path, for a file not there yet */
	uint64_t start, end;	/* bytes [start, end) */
	size_t job;
	unsigned file;
	bool writes, verifies;
};

static int vspan_key(struct vspan *v, const char *path)
{
	struct stat st;

	if (!stat(path, &st)) {
		v->exists = true;
		v->bdev = S_ISBLK(st.st_mode);
		v->dev = v->bdev ? st.st_rdev : st.st_dev;
		v->ino = v->bdev ? 0 : st.st_ino;
		return 0;
	}
	v->name = path_resolved(path);
	return v->name ? 0 : -ENOMEM;
}

static int vspan_cmp_file(const struct vspan *a, const struct vspan *b)
{
	if (a->exists != b->exists)
		return a->exists ? -1 : 1;
	if (!a->exists)
		return strcmp(a->name, b->name);
	if (a->bdev != b->bdev)
		return a->bdev ? -1 : 1;
	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	return 0;
}

static int vspan_cmp(const void *pa, const void *pb)
{
	const struct vspan *a = pa, *b = pb;
	int c;

	if (a->wg != b->wg)
		return a->wg < b->wg ? -1 : 1;
	c = vspan_cmp_file(a, b);
	if (c)
		return c;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->job < b->job ? -1 : a->job > b->job;
}

static bool plan_writes(const struct job *j)
{
	return !j->verify_only && j->rw != RW_READ && j->rw != RW_RANDREAD;
}

/* "job 'x'", "job 'x' clone 2", "job 'x' file 1". */
static void span_who(const struct job *jobs, const struct target *tg,
		     const struct vspan *v, char *buf, size_t len)
{
	const struct job *j = &jobs[v->job];
	int n = snprintf(buf, len, "job '%s'", j->name);

	if (n > 0 && (size_t)n < len && j->numjobs > 1)
		n += snprintf(buf + n, len - (size_t)n, " clone %u", j->clone);
	if (n > 0 && (size_t)n < len && tg[v->job].nfiles > 1)
		snprintf(buf + n, len - (size_t)n, " (its file %u)", v->file);
}

static int span_clash(const struct job *jobs, const struct target *tg,
		      const struct vspan *w, const struct vspan *v,
		      struct err_rec *e)
{
	const struct job *vj = &jobs[v->job];
	const struct target_file *tf = &tg[w->job].files[w->file];
	uint64_t from = w->start > v->start ? w->start : v->start;
	uint64_t to = w->end < v->end ? w->end : v->end;
	char who_w[320], who_v[320];

	span_who(jobs, tg, w, who_w, sizeof(who_w));
	span_who(jobs, tg, v, who_v, sizeof(who_v));
	err_set(e, vj->section_file, vj->section_line, "verify", "%s writes "
		"bytes %" PRIu64 "-%" PRIu64 " of %s while %s %s them (the "
		"same stonewall group): the checks would fail on the other "
		"job's data. Give each job its own file or byte range "
		"(filename=, offset=, size=), or put stonewall=1 between them",
		who_w, from, to - 1, tf->path, who_v,
		vj->verify_only ? "checks" : "writes and verifies");
	return -EINVAL;
}

/*
 * Spans sorted by start: a span overlaps an earlier one when it starts
 * before the largest end so far, so one pass keeps the earlier verifying
 * span and the earlier writing span that reach furthest.
 */
static int spans_scan(const struct job *jobs, const struct target *tg,
		      const struct vspan *s, size_t n, struct err_rec *e)
{
	const struct vspan *ver = NULL, *wr = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		if (i && (s[i].wg != s[i - 1].wg ||
			  vspan_cmp_file(&s[i], &s[i - 1])))
			ver = wr = NULL;
		if (s[i].writes && ver && ver->end > s[i].start)
			return span_clash(jobs, tg, &s[i], ver, e);
		if (s[i].verifies && wr && wr->end > s[i].start)
			return span_clash(jobs, tg, wr, &s[i], e);
		if (s[i].verifies && (!ver || s[i].end > ver->end))
			ver = &s[i];
		if (s[i].writes && (!wr || s[i].end > wr->end))
			wr = &s[i];
	}
	return 0;
}

int verify_plan_overlaps(const struct job *jobs, const struct target *tg,
			 size_t njobs, struct err_rec *e)
{
	struct vspan *s = NULL;
	size_t i, n = 0, cap = 0;
	bool any = false;
	unsigned f;
	int ret = 0;

	for (i = 0; i < njobs; i++) {
		any = any || jobs[i].verify;
		if (!(jobs[i].engine->flags & ENGINE_NOIO))
			cap += tg[i].nfiles;
	}
	if (!any || !cap)
		return 0;
	s = calloc(cap, sizeof(*s));
	if (!s) {
		err_set(e, "", 0, "", "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < njobs && !ret; i++) {
		const struct job *j = &jobs[i];

		if ((j->engine->flags & ENGINE_NOIO) ||
		    (!j->verify && !plan_writes(j)))
			continue;
		for (f = 0; f < tg[i].nfiles && !ret; f++, n++) {
			s[n].wg = j->wait_group;
			s[n].start = tg[i].files[f].offset;
			s[n].end = s[n].start + tg[i].file_region;
			if (s[n].end < s[n].start)
				s[n].end = UINT64_MAX;
			s[n].job = i;
			s[n].file = f;
			s[n].writes = plan_writes(j);
			s[n].verifies = j->verify != VERIFY_NONE;
			ret = vspan_key(&s[n], tg[i].files[f].path);
		}
	}
	if (ret)
		err_set(e, "", 0, "", "out of memory");
	if (!ret) {
		qsort(s, n, sizeof(*s), vspan_cmp);
		ret = spans_scan(jobs, tg, s, n, e);
	}
	for (i = 0; i < n; i++)
		free(s[i].name);
	free(s);
	return ret;
}
