// SPDX-License-Identifier: MIT
/*
 * Offset/length/direction generator.
 *
 * Rules, all fixed at gen_init() so that gen_next() only adds, compares,
 * multiplies and draws random numbers:
 *
 * - The region is nfiles file regions of file_region bytes, back to back.
 *   Every I/O is placed inside one of them by construction: its file is
 *   chosen first, then an offset where the whole length fits in that file.
 *   Nothing assumes that file_region is a multiple of any block size.
 * - align is the gcd of the bs_min of the directions in use (for the usual
 *   power-of-two sizes: the smallest bs_min). Every offset inside a file is
 *   a multiple of align, and so is every length when bs_min[d] is.
 * - A length for direction d in a range [min, max] (max clipped to a file
 *   region) has fio's distribution: x uniform in [0, max), then
 *   min + x rounded down to a multiple of min, and max if that is above
 *   max. So every multiple m * min up to max has probability min / max, and
 *   max itself takes what is left (max mod min) / max, when max is not a
 *   multiple of min. For 4k-64k: 4k, 8k, ... 64k, 1/16 each; for 4k-10k:
 *   4k 40%, 8k 40%, 10k 20%. x / min is a multiply by a precomputed
 *   reciprocal, no division. A fixed bs draws nothing.
 * - Sequential: a cursor (file, pos) per direction, as fio keeps one per
 *   direction: the reads and the writes of rw=rw each walk the files from
 *   the start. An I/O that would cross the end of its file starts at the
 *   next file instead, and after the last file its cursor starts at file 0
 *   again, so every I/O has its full length. A pass ends when a cursor
 *   is past the last file, and every cursor starts over (fio: a direction
 *   at the end finishes the file, which is reopened for the next loop);
 *   with wrap_each (time_based) that cursor alone starts over (fio wraps
 *   each direction on its own). Mixed, a pass is then up to twice the
 *   region.
 * - Sequential with a range of sizes, at a file's end (fio's meaning): a
 *   drawn length that does not fit in what is left of the file is drawn
 *   again among those that do (len_room); only when not even the smallest
 *   fits does the walk go on at the next file. So a walk covers the file.
 * - Random with the map (norandommap=0, one fixed bs for all directions in
 *   use): block i of the pass is perm(i), where perm is a keyed bijection on
 *   [0, 2^perm_bits) restricted to [0, nblocks) by cycle walking; block b is
 *   block b mod fblocks of file b / fblocks (the quotient by a precomputed
 *   reciprocal, no division). The keys come from the seed and the pass
 *   number, so passes differ but repeat across runs with the same seed.
 * - Random with the map and sizes that vary (ranges, bssplit, directions of
 *   different sizes; fio's rule, its io_u.c and axmap): an align unit drawn
 *   uniformly among those where the smallest size fits; if it was done this
 *   pass, the next unit not done after it (the first of the region after
 *   the last). Then a length drawn as without the map but among those that
 *   fit between the unit and the file's end (len_room, fio's redraw), and
 *   cut to the units not done from there on: the I/O stops where the run of
 *   free units ends (fio's mark_random_map). Every unit is done once, and a
 *   pass ends when none is left (bm.free). The bitmap (struct gen_bmap)
 *   costs a bit per unit, allocated once; the search for a free unit reads
 *   a word per level.
 * - Random otherwise: a file uniformly (no draw for one file), then an offset
 *   uniform over the aligned positions of that file where the smallest size
 *   fits, then a length that fits there (as above, fio's order: offset,
 *   then length); a pass ends once `region` bytes were generated.
 * - Mixed: read when (rng >> 1) < mix_threshold = rwmixread% of 2^63, so
 *   0 never reads and 100 always does.
 * - Zones (zonemode=strided, fio's meaning; on the random patterns' path):
 *   before each I/O, once zone_size bytes were done in the zone, the next
 *   zone starts zone_range + zone_skip after it, or at 0 when that is at or
 *   past the end of the file region. The zone is zone_range bytes clipped
 *   to the file region; one too short for the I/O gives way to zone 0.
 *   Sequential I/O starts at the zone's start and wraps inside the zone
 *   (zone_size > zone_range goes over it again); random offsets are
 *   drawn in the zone, with the map a bijection on the zone's blocks
 *   rekeyed after each full walk of the zone and in each new zone.
 *   Each pass starts in zone 0. The laws of random_distribution are set
 *   up over one zone_range.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "job.h"

#define gen_unlikely(x)	__builtin_expect(!!(x), 0)
/* A function copied into each caller (the ext path's two copies). */
#define gen_inline	static inline __attribute__((always_inline))

#define SPLITMIX_GAMMA	0x9e3779b97f4a7c15ull
#define PERM_SALT	0x6a09e667f3bcc909ull	/* keys apart from the rng */

/* splitmix64 (Steele, Lea, Flood; public domain reference by Vigna). */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += SPLITMIX_GAMMA);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * splitmix64 is a bijection of its counter, so the four words are distinct
 * and at most one is zero: the xoshiro state is never all zero.
 */
void gen_rng_seed(struct gen_rng *r, uint64_t seed)
{
	uint64_t x = seed;
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

/*
 * Lemire, "Fast Random Integer Generation in an Interval" (2019): the high
 * word of x * n is uniform in [0, n) once the low word is rejected when it
 * falls below 2^64 mod n. The division runs only when lo < n, which has
 * probability n / 2^64.
 */
static inline uint64_t rng_below(struct gen_rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)gen_rng_next(r) * n;
	uint64_t lo = (uint64_t)m;

	if (gen_unlikely(lo < n)) {
		uint64_t t = -n % n;

		while (lo < t) {
			m = (unsigned __int128)gen_rng_next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

uint64_t gen_rng_below(struct gen_rng *r, uint64_t n)
{
	return rng_below(r, n);
}

static double rng_u01(void *r);

/* Keys from a seed; each `run` uses its own stretch of the counter.
 * After perm_init set the mask: the first key is kept masked, as
 * gen_perm_once xors it in (one instruction per block fewer). */
static void perm_key(struct gen_perm *pm, uint64_t seed, uint64_t run)
{
	uint64_t x = seed + run * 4 * SPLITMIX_GAMMA;
	int i;

	for (i = 0; i < 4; i++)
		pm->keys[i] = splitmix64(&x);
	pm->keys[0] &= pm->mask;
	pm->keys[1] |= 1;		/* multipliers must be odd */
	pm->keys[3] |= 1;
}

/* A bijection on [0, n), n > 0, keyed from seed. */
static void perm_init(struct gen_perm *pm, uint64_t n, uint64_t seed)
{
	uint64_t top = n - 1;

	pm->n = n;
	pm->bits = top ? 64 - (unsigned)__builtin_clzll(top) : 0;
	pm->mask = pm->bits ? ~0ull >> (64 - pm->bits) : 0;
	pm->h = (pm->bits + 1) / 2;
	pm->h2 = pm->bits / 3 + 1;
	perm_key(pm, seed, 0);
}

/* New keys for pass g->pass. */
static void perm_rekey(struct gen *g)
{
	perm_key(&g->perm, g->p.seed ^ PERM_SALT, g->pass);
}

/* perm_once and the cycle walk: gen.h, inline for the worker's loop. */
static inline uint64_t perm_index(const struct gen_perm *pm, uint64_t i)
{
	return gen_perm_index(pm, i);
}

uint64_t gen_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static int check_params(const struct gen_params *p, unsigned *first,
			unsigned *last)
{
	unsigned d, nfiles = p->nfiles ? p->nfiles : 1;
	uint64_t fregion;

	if (p->mixed) {
		/* The negated form also rejects NaN. */
		if (!(p->rwmixread >= 0.0 && p->rwmixread <= 100.0))
			return -EINVAL;
		*first = DDIR_READ;
		*last = DDIR_WRITE;
	} else if (p->only_dir >= DDIR_READ && p->only_dir < DDIR_NR) {
		if (p->trimwrite && p->only_dir != DDIR_TRIM)
			return -EINVAL;
		*first = *last = (unsigned)p->only_dir;
	} else {
		return -EINVAL;
	}
	if (p->flen && nfiles > 1) {
		uint64_t sum = 0, i;

		fregion = UINT64_MAX;
		for (i = 0; i < nfiles; i++) {
			if (p->flen[i] < fregion)
				fregion = p->flen[i];
			sum += p->flen[i];
		}
		if (sum != p->region || p->zone_size)
			return -EINVAL;
	} else if (p->region % nfiles || (p->zone_size && nfiles > 1)) {
		return -EINVAL;
	} else {
		fregion = p->region / nfiles;
	}
	for (d = *first; d <= *last; d++) {
		if (!p->bs_min[d] || p->bs_max[d] < p->bs_min[d] ||
		    p->bs_max[d] > UINT32_MAX || fregion < p->bs_min[d])
			return -EINVAL;
	}
	return 0;
}

/* Whether any random pattern is in use: then gen_next takes next_ext. */
static bool gen_wants_ext(const struct gen_params *p, unsigned first,
			  unsigned last)
{
	unsigned d;

	if ((p->dist && p->dist->kind != DIST_RANDOM) || p->seq_add)
		return true;
	if ((p->random && p->seq_nr > 1) || p->zone_size)
		return true;
	for (d = first; d <= last; d++) {
		if (p->bssplit && p->bssplit->n[d])
			return true;
		if (p->random && ((p->ba[d] && p->ba[d] != p->bs_min[d]) ||
				  p->perc_seq[d] > 0))
			return true;
	}
	return false;
}

static int ext_init(struct gen *g, unsigned first, unsigned last);
static int fst_init(struct gen *g);
static int bm_init(struct gen_bmap *m, uint64_t nbits, uint64_t max);
static void bm_start(struct gen *g);
static void bm_new_pass(struct gen *g);

/* The region each file gives, the smallest of them, one pass's length. */
static void init_region(struct gen *g, const struct gen_params *p)
{
	unsigned d;

	g->file_region = p->region / g->p.nfiles;
	g->fmin = g->file_region;
	g->p.flen = NULL;
	if (p->flen && g->p.nfiles > 1) {
		g->file_region = 0;
		for (d = 0; d < g->p.nfiles; d++) {
			if (p->flen[d] > g->file_region)
				g->file_region = p->flen[d];
			if (p->flen[d] < g->fmin)
				g->fmin = p->flen[d];
		}
		if (g->fmin < g->file_region)
			g->p.flen = p->flen;	/* fst_init copies it */
		else
			g->p.region = g->file_region * g->p.nfiles;
	}
	g->pass_len = g->p.region;
}

/* Block sizes and their alignment per direction; true when one fixed
 * size serves every direction. */
static bool init_lens(struct gen *g, const struct gen_params *p,
		      unsigned first, unsigned last)
{
	uint64_t align = 0;
	bool fixed = true;
	unsigned d;

	for (d = first; d <= last; d++) {
		align = gen_gcd(align, p->bs_min[d]);
		if (p->bs_max[d] != p->bs_min[d] ||
		    p->bs_min[d] != p->bs_min[first])
			fixed = false;
	}
	g->align = align;
	g->align_inv = UINT64_MAX / align;
	for (d = first; d <= last; d++) {
		uint64_t fr = g->file_region;
		uint64_t max = p->bs_max[d] < g->fmin ? p->bs_max[d] : g->fmin;

		g->len_max[d] = max;
		g->lmax[d] = max;
		g->len_mults[d] = max / p->bs_min[d];
		g->len_inv[d] = UINT64_MAX / p->bs_min[d];
		g->len_step[d] = p->bs_min[d] / align;
		g->fit[d] = (fr - p->bs_min[d]) / align + 1;
		g->fit_max[d] = (fr - max) / align + 1;
	}
	return fixed;
}

/* The random map the job keeps, if any: 0, or -errno when a bitmap the
 * job needs cannot be had (without softrandommap). */
static int init_map(struct gen *g, const struct gen_params *p,
		    unsigned first, unsigned last, bool fixed)
{
	unsigned d;
	int ret;

	g->use_map = p->random && (!p->norandommap || p->lfsr) && fixed &&
		     !(p->dist && p->dist->kind != DIST_RANDOM);
	/* fio: lfsr keeps no map (each block once as a start, the sizes
	 * overlap); zones start a map of their own in each zone (zperm,
	 * fixed sizes only). */
	g->use_bmap = p->random && !p->norandommap && !p->lfsr && !fixed &&
		      !(p->dist && p->dist->kind != DIST_RANDOM) &&
		      !p->zone_size;
	for (d = first; d <= last; d++)
		if (p->random && p->ba[d] && p->ba[d] != p->bs_min[d])
			g->use_map = g->use_bmap = false;
	if (g->use_map || g->use_bmap) {
		g->fblocks = g->file_region / g->align;
		g->fblocks_inv = UINT64_MAX / g->fblocks;
		g->nblocks = g->fblocks * g->p.nfiles;
	}
	if (g->use_map)
		perm_init(&g->perm, g->nblocks, p->seed ^ PERM_SALT);
	if (g->use_bmap) {
		ret = bm_init(&g->bm, g->nblocks, p->map_max);
		if (ret && !p->softrandommap)
			return ret;
		if (ret) {		/* fio's softrandommap: without */
			g->use_bmap = false;
			g->map_dropped = true;
		}
	}
	return 0;
}

int gen_init(struct gen *g, const struct gen_params *p)
{
	unsigned first, last;
	bool fixed;
	int ret;

	ret = check_params(p, &first, &last);
	if (ret)
		return ret;

	memset(g, 0, sizeof(*g));
	g->p = *p;
	if (!g->p.nfiles)
		g->p.nfiles = 1;
	init_region(g, p);
	gen_rng_seed(&g->rng, p->seed);
	fixed = init_lens(g, p, first, last);
	if (p->mixed)
		g->mix_threshold = (uint64_t)(p->rwmixread / 100.0 * 0x1p63);

	g->ext = gen_wants_ext(p, first, last);
	ret = init_map(g, p, first, last, fixed);
	if (ret)
		return ret;
	g->mode = g->ext ? GEN_MODE_EXT : !p->random ? GEN_MODE_SEQ :
		  g->use_map ? GEN_MODE_MAP : g->use_bmap ? GEN_MODE_BMAP :
		  GEN_MODE_ANY;
	if (g->ext) {
		ret = ext_init(g, first, last);
	} else {
		if (g->p.flen && g->p.fst == GEN_FST_NONE)
			g->p.fst = GEN_FST_RR;
		ret = g->p.fst != GEN_FST_NONE && g->p.nfiles > 1 ?
		      fst_init(g) : 0;
	}
	if (!ret && g->use_bmap)
		bm_start(g);
	/* gen_next_inline's case: fixed now, like every mode above */
	g->fast_end = g->mode == GEN_MODE_MAP && !g->p.trimwrite &&
		      !g->p.mixed && g->p.nfiles <= 1 ? g->nblocks : 0;
	if (ret)
		gen_free(g);
	return ret;
}

uint64_t gen_bmap_bytes(const struct gen *g)
{
	return g->bm.words * sizeof(uint64_t);
}

void gen_free(struct gen *g)
{
	free(g->bm.mem);
	g->bm.mem = NULL;
	free(g->f.cur);
	free(g->f.fshort);
	free(g->x.flen);
	g->f.cur = NULL;
	g->f.fshort = NULL;
	g->x.flen = NULL;
	g->f.live = g->f.where = NULL;
}

static void fst_reset(struct gen *g);

/* Out of line: runs once per pass. */
static __attribute__((noinline)) void gen_new_pass(struct gen *g)
{
	g->pass++;
	memset(g->spos, 0, sizeof(g->spos));
	memset(g->sfile, 0, sizeof(g->sfile));
	g->done = 0;
	g->perm_ctr = 0;
	if (g->use_map)
		perm_rekey(g);
	if (g->mode == GEN_MODE_FST)
		fst_reset(g);
	if (g->use_bmap)
		bm_new_pass(g);
}

/*
 * x / d from inv = floor((2^64 - 1) / d): 2^64 - d <= inv * d < 2^64, so
 * the high word of x * inv is the quotient or one below it.
 */
static inline uint64_t div_recip(uint64_t x, uint64_t d, uint64_t inv,
				 uint64_t *rem)
{
	uint64_t q = (uint64_t)(((unsigned __int128)x * inv) >> 64);
	uint64_t r = x - q * d;

	if (r >= d) {
		q++;
		r -= d;
	}
	*rem = r;
	return q;
}

/*
 * A length for direction d (fio's distribution, see the top); *pos is how
 * many aligned offsets of a file it fits at.
 */
static inline uint64_t next_len(struct gen *g, unsigned d, uint64_t *pos)
{
	uint64_t min = g->p.bs_min[d], max = g->len_max[d], j, r;

	if (min == max) {
		*pos = g->fit[d];
		return min;
	}
	/* bs_unaligned (fio's meaning): min + x, not rounded to min */
	if (gen_unlikely(g->p.bs_unaligned)) {
		j = min + rng_below(&g->rng, max);
		if (j > max)
			j = max;
		*pos = (g->file_region - j) / g->align + 1;
		return j;
	}
	j = div_recip(rng_below(&g->rng, max), min, g->len_inv[d], &r);
	if (j < g->len_mults[d]) {
		*pos = g->fit[d] - j * g->len_step[d];
		return (j + 1) * min;
	}
	*pos = g->fit_max[d];
	return max;
}

static inline void io_place(const struct gen *g, struct gen_io *io,
			    uint32_t file, uint64_t foff, uint64_t len)
{
	io->file = file;
	io->foff = foff;
	io->offset = file * g->file_region + foff;
	io->len = (uint32_t)len;
}

static uint64_t len_room(struct gen *g, unsigned d, uint64_t room);

/* Sequential, direction d (see the top). */
static inline void next_seq(struct gen *g, unsigned d, struct gen_io *io)
{
	uint64_t pos, len = next_len(g, d, &pos);

	/* spos <= file_region always; this form cannot overflow. A range
	 * draws again what fits at the file's end (fio's meaning). */
	if (gen_unlikely(len > g->file_region - g->spos[d]) &&
	    g->file_region - g->spos[d] >= g->p.bs_min[d]) {
		len = len_room(g, d, g->file_region - g->spos[d]);
	} else if (gen_unlikely(len > g->file_region - g->spos[d])) {
		g->spos[d] = 0;
		if (++g->sfile[d] == g->p.nfiles) {
			if (g->p.wrap_each) {	/* this cursor only */
				g->sfile[d] = 0;
				g->pass++;
			} else {
				gen_new_pass(g);
			}
			io->new_pass = true;
		}
	}
	io_place(g, io, g->sfile[d], g->spos[d], len);
	g->spos[d] += len;
	g->done += len;
}

/* Block b is block *blk of file *file: b / fblocks without a division. */
static inline void map_split(const struct gen *g, uint64_t b, uint32_t *file,
			     uint64_t *blk)
{
	/* One file, the usual case: no multiply. */
	if (g->p.nfiles <= 1) {
		*file = 0;
		*blk = b;
		return;
	}
	*file = (uint32_t)div_recip(b, g->fblocks, g->fblocks_inv, blk);
}

/* ---- The bitmap map: sizes that vary, every unit once (gen.h) ---- */

#define BM_NONE		UINT64_MAX

/* Levels and words for nbits units (m->words set even on failure); more
 * than max bytes (0: any) is -ENOMEM. */
static int bm_init(struct gen_bmap *m, uint64_t nbits, uint64_t max)
{
	uint64_t n = nbits, words = 0;
	unsigned l = 0;

	memset(m, 0, sizeof(*m));
	m->nbits = nbits;
	do {
		m->nw[l] = n / 64 + (n % 64 != 0);
		words += m->nw[l];
		n = m->nw[l++];
	} while (n > 1);
	m->nlv = l;
	m->words = words;
	if (words > SIZE_MAX / sizeof(uint64_t) ||
	    (max && words > max / sizeof(uint64_t)))
		return -ENOMEM;
	m->mem = malloc(words * sizeof(uint64_t));
	if (!m->mem)
		return -ENOMEM;
	m->lv[0] = m->mem;
	for (l = 1; l < m->nlv; l++)
		m->lv[l] = m->lv[l - 1] + m->nw[l - 1];
	return 0;
}

/* Every unit free; the bits past the last of each level set. */
static void bm_reset(struct gen_bmap *m)
{
	uint64_t bits = m->nbits;
	unsigned l;

	memset(m->mem, 0, m->words * sizeof(uint64_t));
	for (l = 0; l < m->nlv; l++) {
		if (bits % 64)
			m->lv[l][m->nw[l] - 1] = ~0ull << (bits % 64);
		bits = m->nw[l];
	}
	m->free = m->nbits;
}

/* Word w of level 0 became full: the levels above learn it. */
static void bm_full(struct gen_bmap *m, uint64_t w)
{
	unsigned l;

	for (l = 1; l < m->nlv; l++) {
		uint64_t *x = &m->lv[l][w >> 6];

		*x |= 1ull << (w & 63);
		if (*x != ~0ull)
			return;
		w >>= 6;
	}
}

/* The first free unit at or after i, or BM_NONE. */
static inline uint64_t bm_next(const struct gen_bmap *m, uint64_t i)
{
	unsigned l = 0;
	uint64_t w, x;

	for (;;) {
		w = i >> 6;
		if (w >= m->nw[l])
			return BM_NONE;
		x = ~m->lv[l][w] & (~0ull << (i & 63));
		if (x)
			break;
		if (++l == m->nlv)
			return BM_NONE;
		i = w + 1;
	}
	/* bit i of level l is clear: word i of the level below has a free
	 * bit, and so down to level 0 */
	i = (w << 6) + (uint64_t)__builtin_ctzll(x);
	while (l--)
		i = (i << 6) + (uint64_t)__builtin_ctzll(~m->lv[l][i]);
	return i;
}

/* b if free, else the first free unit after it in [b, hi), else the first
 * from lo (one exists in [lo, hi): the caller knows). */
static inline uint64_t bm_free_at(const struct gen_bmap *m, uint64_t b,
				  uint64_t lo, uint64_t hi)
{
	uint64_t r;

	if (!(m->lv[0][b >> 6] >> (b & 63) & 1))
		return b;
	r = bm_next(m, b);
	return r < hi ? r : bm_next(m, lo);
}

/* Marks up to n units from b, stopping at the first one done already;
 * returns how many it marked. */
static inline uint64_t bm_take(struct gen_bmap *m, uint64_t b, uint64_t n)
{
	uint64_t got = 0;

	while (n && b < m->nbits) {
		uint64_t w = b >> 6, word = m->lv[0][w], x;
		unsigned s = b & 63, run, k;

		x = word >> s;
		run = x ? (unsigned)__builtin_ctzll(x) : 64 - s;
		k = n < run ? (unsigned)n : run;
		if (!k)
			break;
		word |= (k == 64 ? ~0ull : ((1ull << k) - 1)) << s;
		m->lv[0][w] = word;
		if (word == ~0ull)
			bm_full(m, w);
		got += k;
		b += k;
		n -= k;
		if (k < 64 - s)		/* a done unit, or n, ended it */
			break;
	}
	m->free -= got;
	return got;
}

/* Clears units [lo, hi), all done: a file of a skewed file_service_type
 * starts over. */
static void bm_clear(struct gen_bmap *m, uint64_t lo, uint64_t hi)
{
	unsigned l;
	uint64_t i;

	m->free += hi - lo;
	for (l = 0; l < m->nlv && lo < hi; l++) {
		for (i = lo; i < hi; i++)
			m->lv[l][i >> 6] &= ~(1ull << (i & 63));
		lo >>= 6;
		hi = ((hi - 1) >> 6) + 1;
	}
}

/*
 * A new pass of the map: every unit free but those of a slot past its
 * file's end (uneven files), which count as done.
 */
static void bm_new_pass(struct gen *g)
{
	struct gen_bmap *m = &g->bm;
	uint64_t sh;
	uint32_t i;

	bm_reset(m);
	if (!g->x.flen && !g->f.fshort)
		return;
	for (i = 0; i < g->p.nfiles; i++) {
		sh = g->f.fshort ? g->f.fshort[i] :
		     g->fblocks - g->x.flen[i] / g->align;
		if (sh)
			bm_take(m, (uint64_t)i * g->fblocks + g->fblocks - sh,
				sh);
	}
}

/* The map's first pass; a pass moves the bytes of its units. */
static void bm_start(struct gen *g)
{
	bm_new_pass(g);
	g->pass_len = g->bm.free * g->align;
}

/*
 * A length of direction d that fits in room bytes, room below lmax[d]:
 * as fio, which draws again until the length fits, each length that fits
 * keeps its chance relative to the others (ranges: the multiples of the
 * smallest up to room, equally; bssplit: fio's walk, bss_room). Room below
 * the smallest size (a direction of larger sizes than the unit, at a
 * file's end: fio would fail the I/O): room in whole units.
 */
static uint64_t bss_room(struct gen *g, unsigned d, uint64_t room);

static __attribute__((noinline)) uint64_t len_room(struct gen *g, unsigned d,
						   uint64_t room)
{
	uint64_t min = g->p.bs_min[d];

	if (g->x.has_bss[d])
		return bss_room(g, d, room);
	if (room < min)
		return room / g->align * g->align;
	if (g->p.bs_unaligned)
		return min + rng_below(&g->rng, room - min + 1);
	return (1 + rng_below(&g->rng, room / min)) * min;
}

/* A length of direction d for an I/O with room bytes before its file's
 * end: the usual draw when the largest fits, which is almost always. */
static inline uint64_t len_for(struct gen *g, unsigned d, uint64_t room)
{
	uint64_t pos;

	if (gen_unlikely(room < g->lmax[d]))
		return len_room(g, d, room);
	if (g->x.has_bss[d])
		return g->x.bslen[d][dist_alias_pick(&g->x.bsa[d],
						     gen_rng_next(&g->rng))];
	return next_len(g, d, &pos);
}

/*
 * len cut to the free units from unit b on, which it marks done; at most
 * `left`, the units from b to its file's end (a length that reaches into
 * a file's tail, less than a unit, marks no unit of the next file).
 */
static inline uint64_t bm_cover(struct gen *g, uint64_t b, uint64_t len,
				uint64_t left)
{
	uint64_t r, n = div_recip(len + g->align - 1, g->align, g->align_inv,
				  &r), got;

	if (n > left)
		n = left;
	got = bm_take(&g->bm, b, n);
	return got < n ? got * g->align : len;
}

/* The map of one file region, or of several drawn uniformly (gen.h). */
static inline void next_bmap(struct gen *g, unsigned d, struct gen_io *io)
{
	uint64_t b, blk, foff, len;
	uint32_t file = 0;

	if (gen_unlikely(!g->bm.free)) {
		gen_new_pass(g);
		io->new_pass = true;
	}
	b = rng_below(&g->rng, g->fit[d]);
	if (g->p.nfiles > 1)
		b += rng_below(&g->rng, g->p.nfiles) * g->fblocks;
	b = bm_free_at(&g->bm, b, 0, g->nblocks);
	map_split(g, b, &file, &blk);
	foff = blk * g->align;
	len = bm_cover(g, b, len_for(g, d, g->file_region - foff),
		       g->fblocks - blk);
	io_place(g, io, file, foff, len);
	g->done += len;
}

static inline void next_map(struct gen *g, struct gen_io *io)
{
	uint64_t blk;
	uint32_t file;

	if (gen_unlikely(g->perm_ctr == g->nblocks)) {
		gen_new_pass(g);
		io->new_pass = true;
	}
	map_split(g, perm_index(&g->perm, g->perm_ctr++), &file, &blk);
	io_place(g, io, file, blk * g->align, g->align);
	g->done += g->align;
}

/* An offset uniform over the aligned positions where the smallest size
 * fits, then a length that fits there (fio's order). */
static inline void next_any(struct gen *g, unsigned d, struct gen_io *io)
{
	uint64_t len, foff;
	uint32_t file = 0;

	if (gen_unlikely(g->done >= g->p.region)) {
		gen_new_pass(g);
		io->new_pass = true;
	}
	if (g->p.nfiles > 1)
		file = (uint32_t)rng_below(&g->rng, g->p.nfiles);
	foff = rng_below(&g->rng, g->fit[d]) * g->align;
	len = len_for(g, d, g->file_region - foff);
	io_place(g, io, file, foff, len);
	g->done += len;
}

/* ---- file_service_type over several files (gen.h) ---- */

#define FST_SALT	0x3c6ef372fe94f82bull	/* per-file map keys */
#define FST_ROT		0x9e3779b97f4a7c15ull	/* per-file map rotation */

static int fst_init(struct gen *g)
{
	struct gen_fst_state *f = &g->f;
	unsigned n = g->p.nfiles;
	uint64_t ranks = (uint64_t)n << GEN_FST_SHIFT;
	int kind = g->p.fst;

	if (kind < GEN_FST_RR || kind > GEN_FST_NORMAL)
		return -EINVAL;
	f->cur = calloc(n, sizeof(*f->cur) + 2 * sizeof(*f->live) + 1);
	if (!f->cur)
		return -ENOMEM;
	f->live = (uint32_t *)(f->cur + n);
	f->where = f->live + n;
	f->inserv = (uint8_t *)(f->where + n);
	if (!g->p.openfiles || g->p.openfiles > n || kind >= GEN_FST_ZIPF)
		g->p.openfiles = n;
	if (g->p.flen) {
		uint32_t i;

		f->fshort = malloc(n * sizeof(*f->fshort));
		if (!f->fshort) {
			gen_free(g);
			return -ENOMEM;
		}
		for (i = 0; i < n; i++) {
			if (g->p.flen[i] % g->align) {
				gen_free(g);
				return -EINVAL;
			}
			f->fshort[i] = (g->file_region - g->p.flen[i]) /
				       g->align;
		}
		g->p.flen = NULL;	/* the caller's: not kept */
	}
	f->sub = g->mode;
	g->mode = GEN_MODE_FST;
	if (!g->p.fst_nr)
		g->p.fst_nr = 1;
	if (f->sub == GEN_MODE_MAP)
		perm_init(&f->fperm, g->fblocks, g->p.seed ^ FST_SALT);
	f->skew = kind >= GEN_FST_ZIPF;
	if (f->skew) {
		static const int law[] = { DIST_ZIPF, DIST_PARETO,
					   DIST_NORMAL };
		uint64_t c, m;

		dist_law_init(&f->law, law[kind - GEN_FST_ZIPF],
			      g->p.fst_param, ranks);
		m = dist_law_mode(&f->law);
		/* fio: the hottest file at center * nfiles; by default a
		 * random one for zipf and pareto, the middle for normal. */
		if (g->p.fst_center >= 0)
			c = (uint64_t)(g->p.fst_center * (double)ranks);
		else if (kind == GEN_FST_NORMAL)
			c = m;
		else
			c = rng_below(&g->rng, ranks);
		if (c >= ranks)
			c = ranks - 1;
		f->rot = (c + ranks - m) % ranks;
	}
	fst_reset(g);
	return 0;
}

/* A new pass: every file unfinished, cursors at 0, file 0 first. */
static void fst_reset(struct gen *g)
{
	struct gen_fst_state *f = &g->f;
	uint32_t i, n = g->p.nfiles;

	for (i = 0; i < n; i++) {
		f->cur[i] = 0;
		f->live[i] = f->where[i] = i;
		f->inserv[i] = 0;
	}
	f->nlive = n;
	f->nserv = 0;
	f->file = n - 1;
	f->left = 0;
	if (f->sub == GEN_MODE_MAP)
		perm_key(&f->fperm, g->p.seed ^ FST_SALT, g->pass);
}

/* File i is finished for this pass. */
static void fst_done(struct gen *g, uint32_t i)
{
	struct gen_fst_state *f = &g->f;
	uint32_t at = f->where[i], last = f->live[--f->nlive];

	f->live[at] = last;
	f->where[last] = at;
	f->where[i] = UINT32_MAX;
	if (f->inserv[i]) {
		f->inserv[i] = 0;
		f->nserv--;
	}
	if (i == f->file)
		f->left = 0;
}

/* Whether live file i may be serviced now; it enters service if so. */
static inline bool fst_enter(struct gen *g, uint32_t i)
{
	struct gen_fst_state *f = &g->f;

	if (f->inserv[i])
		return true;
	if (f->nserv >= g->p.openfiles)
		return false;
	f->inserv[i] = 1;
	f->nserv++;
	return true;
}

static uint32_t fst_pick(struct gen *g)
{
	struct gen_fst_state *f = &g->f;
	uint32_t i, n = g->p.nfiles;
	uint64_t r;

	if (f->skew) {
		r = dist_law_draw(&f->law, rng_u01, &g->rng) + f->rot;
		if (r >= (uint64_t)n << GEN_FST_SHIFT)
			r -= (uint64_t)n << GEN_FST_SHIFT;
		return (uint32_t)(r >> GEN_FST_SHIFT);
	}
	if (f->left && f->where[f->file] != UINT32_MAX) {
		f->left--;
		return f->file;
	}
	if (g->p.fst == GEN_FST_RANDOM) {
		/* A file in service is always live: this ends. */
		do
			i = f->live[rng_below(&g->rng, f->nlive)];
		while (!fst_enter(g, i));
	} else {
		i = f->file;
		do
			i = i + 1 == n ? 0 : i + 1;
		while (f->where[i] == UINT32_MAX || !fst_enter(g, i));
	}
	f->file = i;
	/* sequential: until the file is finished (fst_done clears left) */
	f->left = g->p.fst == GEN_FST_SEQ ? UINT64_MAX : g->p.fst_nr - 1;
	return i;
}

/*
 * The random map of file i: its next block in *blk, or false once every
 * block of the file was visited this pass. The blocks of the slot past an
 * uneven file's end (the last sh) are skipped.
 */
static inline bool map_file_next(struct gen *g, uint32_t i, uint64_t sh,
				 uint64_t *blk)
{
	struct gen_fst_state *f = &g->f;
	uint64_t b;

	while (f->cur[i] < g->fblocks) {
		b = perm_index(&f->fperm, f->cur[i]++) +
		    (i * FST_ROT) % g->fblocks;
		if (b >= g->fblocks)
			b -= g->fblocks;
		if (b < g->fblocks - sh) {
			*blk = b;
			return true;
		}
	}
	return false;
}

/*
 * The bitmap map of file i (its units [lo, lo + units)): an I/O of
 * direction d at a unit not done (next_bmap's rule inside the file) in
 * *foff, *len; false once every unit of the file was done this pass.
 */
static inline bool bmap_file_next(struct gen *g, uint32_t i, uint64_t sh,
				  unsigned d, uint64_t *foff, uint64_t *len)
{
	struct gen_fst_state *f = &g->f;
	uint64_t lo = (uint64_t)i * g->fblocks, units = g->fblocks - sh, b;
	uint64_t free = g->bm.free;

	if (f->cur[i] >= units)
		return false;
	b = bm_free_at(&g->bm, lo + rng_below(&g->rng, g->fit[d] - sh), lo,
		       lo + units);
	*foff = (b - lo) * g->align;
	/* the room: to the file's end (its tail, less than a unit, too) */
	*len = len_for(g, d, g->file_region - sh * g->align - *foff);
	*len = bm_cover(g, b, *len, units - (b - lo));
	f->cur[i] += free - g->bm.free;
	return true;
}

static __attribute__((noinline)) void next_fst(struct gen *g, unsigned d,
					       struct gen_io *io)
{
	struct gen_fst_state *f = &g->f;
	uint64_t len = g->align, foff, fr = g->file_region, blk, sh, room;
	uint32_t i;

	/* Skewed picks and norandommap never finish a file: bytes count. */
	if ((f->skew || f->sub == GEN_MODE_ANY) && g->done >= g->p.region) {
		gen_new_pass(g);
		io->new_pass = true;
	}
	if (f->sub == GEN_MODE_SEQ)
		len = next_len(g, d, &room);
	for (;;) {
		if (!f->nlive) {
			gen_new_pass(g);
			io->new_pass = true;
		}
		i = fst_pick(g);
		/* Uneven files: file i lacks `sh` align units of a slot. */
		sh = gen_unlikely(f->fshort != NULL) ? f->fshort[i] : 0;
		if (f->sub == GEN_MODE_ANY) {
			/* fio's order: the offset, then a length there */
			foff = rng_below(&g->rng, g->fit[d] - sh) * g->align;
			len = len_for(g, d, fr - sh * g->align - foff);
			break;
		}
		if (f->sub == GEN_MODE_SEQ) {
			room = fr - sh * g->align - f->cur[i];
			if (len > room && room >= g->p.bs_min[d])
				len = len_room(g, d, room);
			if (len <= room) {
				foff = f->cur[i];
				f->cur[i] += len;
				break;
			}
		} else if (f->sub == GEN_MODE_BMAP) {
			if (bmap_file_next(g, i, sh, d, &foff, &len))
				break;
		} else if (map_file_next(g, i, sh, &blk)) {
			foff = blk * g->align;
			break;
		}
		if (f->skew && f->sub == GEN_MODE_BMAP)
			bm_clear(&g->bm, (uint64_t)i * g->fblocks,
				 (uint64_t)i * g->fblocks + f->cur[i]);
		if (f->skew)
			f->cur[i] = 0;	/* starts over */
		else
			fst_done(g, i);
	}
	io_place(g, io, i, foff, len);
	g->done += len;
}

/* ---- Random patterns (gen_ext): off the default paths ---- */

#define SCAT_SALT	0xbb67ae8584caa73bull	/* rank scatter keys */

#define ZONE_SALT	0x3c6ef372fe94f82bull	/* zone map keys */

/*
 * Where the I/Os of file i go: [zbase, zbase + span) of the zone or of the
 * file region; with uneven files, file i's own length (no zones then).
 * The functions of the ext path take `uneven` as a constant: next_ext and
 * next_ext_uneven are two copies, so files of one size pay nothing.
 */
gen_inline uint64_t ext_span(const struct gen *g, uint32_t i, bool uneven)
{
	return uneven ? g->x.flen[i] : g->x.span;
}

/* The zone at x->zbase (clipped to the file region) becomes current. */
static void zone_enter(struct gen *g, uint64_t zbase)
{
	struct gen_ext *x = &g->x;
	uint64_t left = g->file_region - zbase;

	x->zbase = zbase;
	x->span = x->zrange < left ? x->zrange : left;
	x->zdone = 0;
	x->fresh = true;
	x->dseen = 0;
	if (g->use_map) {
		perm_init(&x->zperm, x->span / g->align, g->p.seed ^ ZONE_SALT);
		perm_key(&x->zperm, g->p.seed ^ ZONE_SALT, x->zvisit++);
		x->zctr = 0;
	}
}

/*
 * Before an I/O of len: the next zone once zone_size bytes were done in
 * this one; zone 0 after the last, or when this one is too short for len.
 */
static void zone_step(struct gen *g, uint64_t len)
{
	struct gen_ext *x = &g->x;
	uint64_t next;

	if (x->zdone >= g->p.zone_size) {
		if (__builtin_add_overflow(x->zbase, x->zrange, &next) ||
		    __builtin_add_overflow(next, g->p.zone_skip, &next) ||
		    next >= g->file_region)
			next = 0;
		zone_enter(g, next);
	}
	if (x->span < len)
		zone_enter(g, 0);
}

/*
 * rw=read:N with one block size (gen_pass_len): I/Os at k * (bs + N) of
 * each file while bs fits, the pass their bytes over all files, unless
 * the last of them ends before the file's end and the gap after it
 * reaches the end (fio then starts the file again: the pass stays the
 * region's). One that ends at the end, or a next one that would not fit,
 * is the file done.
 */
static void ext_holes(struct gen *g)
{
	const struct gen_params *p = &g->p;
	unsigned d = (unsigned)p->only_dir;
	uint64_t fr = g->x.span, bs = p->bs_min[d], step, n;

	if (p->random || p->mixed || p->trimwrite || p->seq_add <= 0 ||
	    g->x.flen || p->zone_size || g->x.has_bss[d] ||
	    g->len_max[d] != bs || bs > fr)
		return;
	step = bs + (uint64_t)p->seq_add;
	n = (fr - bs) / step + 1;
	/* the last ends at (n - 1) * step + bs, the next would start at
	 * n * step */
	if (n * step - (uint64_t)p->seq_add == fr || n * step < fr)
		g->pass_len = n * bs * g->p.nfiles;
}

/*
 * bssplit as fio walks it for a room (bss_room): the sizes with a share
 * sorted by share, ascending, equal shares in the order given (fio sorts
 * them so; its sort keeps that order for so few), with cumulative shares.
 * lmax: the largest of them, whether or not it fits in a file.
 */
static void bso_init(struct gen *g, unsigned d)
{
	const struct bssplit_entry *e = g->p.bssplit->e[d];
	struct gen_ext *x = &g->x;
	double perc[BSSPLIT_MAX], sum = 0;
	unsigned i, j, n = 0;

	x->bso_min[d] = UINT64_MAX;
	g->lmax[d] = 0;
	for (i = 0; i < g->p.bssplit->n[d]; i++) {
		if (!(e[i].perc > 0))
			continue;
		/* insertion: after every entry of a share not above it */
		for (j = n; j > 0 && perc[j - 1] > e[i].perc; j--) {
			perc[j] = perc[j - 1];
			x->bso_len[d][j] = x->bso_len[d][j - 1];
		}
		perc[j] = e[i].perc;
		x->bso_len[d][j] = e[i].bs;
		n++;
		if (e[i].bs < x->bso_min[d])
			x->bso_min[d] = e[i].bs;
		if (e[i].bs > g->lmax[d])
			g->lmax[d] = e[i].bs;
	}
	for (i = 0; i < n; i++) {
		sum += perc[i];
		x->bso_cum[d][i] = sum;
	}
	for (i = 0; i < n; i++)
		x->bso_cum[d][i] /= sum;
	if (n)
		x->bso_cum[d][n - 1] = 1.0;
	x->bso_n[d] = n;
}

/*
 * bssplit where the largest size may not fit (fio's get_next_buflen): a
 * share drawn picks its size, as always, but a size that does not fit in
 * room gives the draw to the next size of the sorted list that does; past
 * the last, fio draws again. So a size too large for a file is never
 * issued, and its share goes to the next one that fits.
 */
static uint64_t bss_room(struct gen *g, unsigned d, uint64_t room)
{
	const struct gen_ext *x = &g->x;
	unsigned i, n = x->bso_n[d];
	double u;

	if (room < x->bso_min[d])
		return room / g->align * g->align;
	for (;;) {
		u = rng_u01(&g->rng);
		for (i = 0; i < n; i++)
			if (u < x->bso_cum[d][i] && x->bso_len[d][i] <= room)
				return x->bso_len[d][i];
	}
}

/* bssplit= of direction d: the sizes that fit the region, drawn by an
 * alias table (fio's meaning: a size that does not fit is never used;
 * the draw goes to the sizes that do). */
static int ext_bssplit(struct gen *g, unsigned d, uint64_t fr)
{
	const struct gen_params *p = &g->p;
	const struct bssplit_entry *e = p->bssplit->e[d];
	struct gen_ext *x = &g->x;
	uint64_t lim = fr < g->fmin ? fr : g->fmin;
	double w[DIST_ZONES_MAX];
	unsigned i, n = 0;

	for (i = 0; i < p->bssplit->n[d]; i++) {
		if (e[i].bs > lim)
			continue;
		x->bslen[d][n] = e[i].bs;
		w[n++] = e[i].perc;
	}
	if (!n)
		return -EINVAL;
	dist_alias_init(&x->bsa[d], w, n);
	x->has_bss[d] = true;
	bso_init(g, d);
	return 0;
}

/* zipf, pareto, normal of direction d: the law, its scattering and the
 * rotation that puts its mode at the center asked (or a random one). */
static void ext_law(struct gen *g, unsigned d)
{
	const struct gen_params *p = &g->p;
	struct gen_ext *x = &g->x;
	struct dist_law *l = &x->law[d];
	uint64_t n = x->npos[d], c, m;

	dist_law_init(l, x->kind, p->dist->param, n);
	perm_init(&x->scat[d], n, p->seed ^ SCAT_SALT);
	m = perm_index(&x->scat[d], dist_law_mode(l));
	if (p->dist->center >= 0)
		c = (uint64_t)(p->dist->center * (double)n);
	else if (x->kind == DIST_NORMAL)
		c = n / 2;
	else
		c = rng_below(&g->rng, n);
	if (c >= n)
		c = n - 1;
	x->rot[d] = (c + n - m) % n;
}

/* zoned, zoned_abs of direction d: each zone's units and its share. */
static int ext_zones(struct gen *g, unsigned d, uint64_t fr)
{
	const struct gen_params *p = &g->p;
	const struct dist_zone *z = p->dist->zones[d];
	struct gen_ext *x = &g->x;
	uint64_t unit = x->unit[d];
	double w[DIST_ZONES_MAX], at = 0;
	unsigned i;

	for (i = 0; i < p->dist->nzones[d]; i++) {
		double lo = at, hi = at + z[i].size;

		at = hi;
		w[i] = z[i].access;
		if (x->kind == DIST_ZONED && p->flen) {
			/* Of each file's own length: in 2^-32 parts of it
			 * (ext_pos). */
			x->zlo[d][i] = (uint64_t)(lo * 0x1p32 / 100);
			x->zhi[d][i] = (uint64_t)(hi * 0x1p32 / 100);
			continue;
		}
		if (x->kind == DIST_ZONED) {
			lo = lo * (double)fr / 100;
			hi = hi * (double)fr / 100;
		} else if (hi > (double)fr || hi > (double)g->fmin) {
			return -ERANGE;	/* in every file */
		}
		x->zlo[d][i] = ((uint64_t)lo + unit - 1) / unit;
		x->zhi[d][i] = ((uint64_t)hi + unit - 1) / unit;
	}
	dist_alias_init(&x->zal[d], w, p->dist->nzones[d]);
	return 0;
}

/* Direction d over a region of fr bytes: its unit, positions, share of
 * sequential I/Os, block sizes and law. */
static int ext_dir(struct gen *g, unsigned d, uint64_t fr)
{
	const struct gen_params *p = &g->p;
	struct gen_ext *x = &g->x;
	uint64_t unit = p->random && p->ba[d] ? p->ba[d] : g->align;
	int ret = 0;

	if (unit > fr || unit > g->fmin)
		return -EINVAL;
	x->unit[d] = unit;
	x->unit_inv[d] = UINT64_MAX / unit;
	x->npos[d] = (fr - p->bs_min[d]) / unit + 1;
	x->seq_thr[d] = (uint64_t)(p->perc_seq[d] / 100.0 * 0x1p63);
	if (p->bssplit && p->bssplit->n[d])
		ret = ext_bssplit(g, d, fr);
	if (ret)
		return ret;
	if (x->kind == DIST_ZIPF || x->kind == DIST_PARETO ||
	    x->kind == DIST_NORMAL)
		ext_law(g, d);
	if (x->kind == DIST_ZONED || x->kind == DIST_ZONED_ABS)
		return ext_zones(g, d, fr);
	return 0;
}

static int ext_init(struct gen *g, unsigned first, unsigned last)
{
	const struct gen_params *p = &g->p;
	struct gen_ext *x = &g->x;
	uint64_t fr = g->file_region;
	unsigned d;
	int ret;

	x->kind = p->dist ? p->dist->kind : DIST_RANDOM;
	x->fresh = true;
	if (p->zone_size) {
		/* The laws and lengths are those of one zone. */
		x->zrange = p->zone_range ? p->zone_range : p->zone_size;
		if (x->zrange < fr)
			fr = x->zrange;
		x->zrange = fr;
		for (d = first; d <= last; d++)
			if (g->len_max[d] > fr)
				return -EINVAL;
	}
	x->span = fr;
	for (d = first; d <= last; d++) {
		ret = ext_dir(g, d, fr);
		if (ret)
			return ret;
	}
	if (p->flen) {
		/* Uneven files (no zones: one file only): the laws are set up
		 * over the largest file, each file draws in its own length. */
		x->flen = malloc(p->nfiles * sizeof(*x->flen));
		if (!x->flen)
			return -ENOMEM;
		memcpy(x->flen, p->flen, p->nfiles * sizeof(*x->flen));
		g->p.flen = NULL;	/* the caller's: not kept */
		g->mode = GEN_MODE_EXT_UNEVEN;
	}
	if (p->zone_size)
		zone_enter(g, 0);
	ext_holes(g);
	return 0;
}

static double rng_u01(void *r)
{
	return (double)(gen_rng_next(r) >> 11) * 0x1p-53;
}

/*
 * A position (in units) of [0, cnt) by the distribution, in a file of
 * span bytes. The skewed laws are over the positions of the largest file:
 * a shorter place takes them modulo its own count; percentage zones are
 * of the file's own length.
 */
gen_inline uint64_t ext_pos(struct gen *g, unsigned d, uint64_t cnt,
			   uint64_t span, bool uneven)
{
	struct gen_ext *x = &g->x;
	uint64_t b, lo, hi;
	unsigned z;

	switch (x->kind) {
	case DIST_ZIPF:
	case DIST_PARETO:
	case DIST_NORMAL:
		b = dist_law_draw(&x->law[d], rng_u01, &g->rng);
		b = perm_index(&x->scat[d], b) + x->rot[d];
		if (b >= x->npos[d])
			b -= x->npos[d];
		return b < cnt ? b : b % cnt;
	case DIST_ZONED:
	case DIST_ZONED_ABS:
		z = dist_alias_pick(&x->zal[d], gen_rng_next(&g->rng));
		lo = x->zlo[d][z];
		hi = x->zhi[d][z];
		if (uneven && x->kind == DIST_ZONED) {
			lo = (uint64_t)(((unsigned __int128)lo * span >> 32) +
					x->unit[d] - 1) / x->unit[d];
			hi = (uint64_t)(((unsigned __int128)hi * span >> 32) +
					x->unit[d] - 1) / x->unit[d];
		}
		if (hi > cnt)
			hi = cnt;
		if (lo >= hi)
			return lo < cnt ? lo : cnt - 1;
		return lo + rng_below(&g->rng, hi - lo);
	}
	return rng_below(&g->rng, cnt);
}

/* A random place for an I/O of len: the map, or the distribution. */
gen_inline void ext_draw(struct gen *g, unsigned d, uint64_t len,
			uint32_t *file, uint64_t *foff, bool uneven)
{
	struct gen_ext *x = &g->x;
	uint64_t r, blk, span;

	if (g->use_map && g->p.zone_size) {
		if (x->zctr == x->zperm.n) {
			perm_key(&x->zperm, g->p.seed ^ ZONE_SALT,
				 x->zvisit++);
			x->zctr = 0;
		}
		*file = 0;
		*foff = perm_index(&x->zperm, x->zctr++) * g->align;
		return;
	}
	if (g->use_map) {
		/* Uneven files: the blocks of a slot past its file's end
		 * are skipped (a bijection still visits every other). */
		do {
			if (g->perm_ctr == g->nblocks)
				g->perm_ctr = 0;
			map_split(g, perm_index(&g->perm, g->perm_ctr++),
				  file, &blk);
		} while (uneven && blk * g->align + len > x->flen[*file]);
		*foff = blk * g->align;
		return;
	}
	*file = g->p.nfiles > 1 ?
		(uint32_t)rng_below(&g->rng, g->p.nfiles) : 0;
	span = ext_span(g, *file, uneven);
	*foff = ext_pos(g, d, div_recip(span - len, x->unit[d],
					x->unit_inv[d], &r) + 1, span, uneven) *
		x->unit[d];
}

/* A length as drawn without room to fit (bssplit or a range). */
gen_inline uint64_t ext_len(struct gen *g, unsigned d)
{
	uint64_t pos;

	if (g->x.has_bss[d])
		return g->x.bslen[d][dist_alias_pick(&g->x.bsa[d],
						     gen_rng_next(&g->rng))];
	return next_len(g, d, &pos);
}

/*
 * Whether a sequential I/O at foff whose drawn size passes the end fr
 * takes a size that fits instead (fio's meaning: where the smallest
 * fits); not with zones, where the zone starts again.
 */
gen_inline bool ext_refit(const struct gen *g, unsigned d, uint64_t fr,
			 uint64_t foff)
{
	return !g->p.zone_size && foff <= fr && fr - foff >= g->p.bs_min[d];
}

/*
 * The bitmap map's draw (next_bmap's rule): a file drawn uniformly, a
 * unit of it where the smallest size fits, or the next free one after it
 * in the region (the slots past uneven files' ends count as done), the
 * length drawn to fit there and cut at the next unit done.
 */
gen_inline void ext_bdraw(struct gen *g, unsigned d, uint32_t *file,
			 uint64_t *foff, uint64_t *len, bool uneven)
{
	uint64_t b, blk, cnt = g->fit[d], r;
	uint32_t f = 0;

	if (g->p.nfiles > 1)
		f = (uint32_t)rng_below(&g->rng, g->p.nfiles);
	if (uneven)
		cnt = div_recip(ext_span(g, f, true) - g->p.bs_min[d],
				g->align, g->align_inv, &r) + 1;
	b = (uint64_t)f * g->fblocks + rng_below(&g->rng, cnt);
	b = bm_free_at(&g->bm, b, 0, g->nblocks);
	map_split(g, b, file, &blk);
	*foff = blk * g->align;
	*len = bm_cover(g, b, len_for(g, d, ext_span(g, *file, uneven) -
				      *foff), g->fblocks - blk);
}

/*
 * Sequential, direction d (its own cursor, as in next_seq), with
 * rw=read:N: each I/O starts N bytes after the end of the one before
 * (N < 0: before it); one that would leave the file region starts the
 * next file (the first after the last) at its start, or for N < 0 at its
 * last aligned place. With wrap_each (time_based) and no zones, the
 * cursor's start over at the first file is its new pass.
 */
gen_inline void ext_seq(struct gen *g, unsigned d, uint64_t *lenp,
		       uint32_t *file, uint64_t *foff, bool uneven,
		       struct gen_io *io)
{
	struct gen_ext *x = &g->x;
	bool fresh = !(x->dseen >> d & 1);
	uint64_t fr = ext_span(g, g->sfile[d], uneven), len = *lenp;
	int64_t next;

	if (fresh)
		next = g->p.seq_add < 0 ? (int64_t)((fr - len) / g->align *
						    g->align) : 0;
	else
		next = (int64_t)g->spos[d] + g->p.seq_add;
	/* A size that fits where the smallest does (fio's meaning; zones
	 * keep the full size and start the zone again). */
	if (next >= 0 && next > (int64_t)(fr - len) && !g->p.zone_size &&
	    (uint64_t)next <= fr - g->p.bs_min[d] &&
	    fr >= g->p.bs_min[d]) {
		len = *lenp = len_room(g, d, fr - (uint64_t)next);
	}
	if (next < 0 || next > (int64_t)(fr - len)) {
		if (!fresh && ++g->sfile[d] == g->p.nfiles) {
			g->sfile[d] = 0;
			if (g->p.wrap_each && !g->p.zone_size) {
				g->pass++;
				io->new_pass = true;
			}
		}
		fr = ext_span(g, g->sfile[d], uneven);
		next = g->p.seq_add < 0 ? (int64_t)((fr - len) / g->align *
						    g->align) : 0;
	}
	x->dseen |= (uint8_t)(1u << d);
	*file = g->sfile[d];
	*foff = (uint64_t)next;
	g->spos[d] = (uint64_t)next + len;
}

gen_inline void ext_next(struct gen *g, unsigned d, struct gen_io *io,
			bool uneven)
{
	struct gen_ext *x = &g->x;
	uint64_t len, foff, fr;
	uint32_t file;

	/* time_based sequential, no zones: each direction's cursor starts
	 * over on its own (ext_seq), no pass of the region's bytes; the
	 * bitmap map: a pass once no unit is left */
	if (gen_unlikely(g->done >= g->pass_len ||
			 (g->use_bmap && !g->bm.free)) &&
	    (g->p.random || !g->p.wrap_each || g->p.zone_size)) {
		gen_new_pass(g);
		io->new_pass = true;
		x->run = 0;
		x->fresh = true;
		x->dseen = 0;
		if (g->p.zone_size)
			zone_enter(g, 0);
	}
	/* The bitmap map draws the length at the offset (ext_bdraw). */
	len = g->use_bmap ? 0 : ext_len(g, d);
	if (g->p.zone_size)
		zone_step(g, len);
	fr = ext_span(g, x->last_file, uneven);
	if (!g->p.random) {
		ext_seq(g, d, &len, &file, &foff, uneven, io);
	} else if (x->run && !x->fresh) {
		x->run--;
		file = x->last_file;
		foff = g->p.seq_identical ? x->last_foff : x->last_end;
		if (!len)
			len = ext_len(g, d);
		if (foff > fr - len && ext_refit(g, d, fr, foff))
			len = len_room(g, d, fr - foff);
		else if (foff > fr - len && g->use_bmap)
			ext_bdraw(g, d, &file, &foff, &len, uneven);
		else if (foff > fr - len)
			ext_draw(g, d, len, &file, &foff, uneven);
	} else if (x->seq_thr[d] && !x->fresh &&
		   (gen_rng_next(&g->rng) >> 1) < x->seq_thr[d]) {
		file = x->last_file;
		foff = x->last_end;
		if (!len)
			len = ext_len(g, d);
		if (foff > fr - len && ext_refit(g, d, fr, foff)) {
			len = len_room(g, d, fr - foff);
		} else if (foff > fr - len) {
			foff = 0;
			if (++file == g->p.nfiles)
				file = 0;
		}
	} else {
		if (g->use_bmap)
			ext_bdraw(g, d, &file, &foff, &len, uneven);
		else
			ext_draw(g, d, len, &file, &foff, uneven);
		if (g->p.seq_nr > 1)
			x->run = g->p.seq_nr - 1;
	}
	x->fresh = false;
	x->last_file = file;
	x->last_foff = foff;
	x->last_end = foff + len;
	io_place(g, io, file, x->zbase + foff, len);
	x->zdone += len;
	g->done += len;
}

static __attribute__((noinline)) void next_ext(struct gen *g, unsigned d,
					       struct gen_io *io)
{
	ext_next(g, d, io, false);
}

/* Files of their own sizes (x.flen): the same, each in its own length. */
static __attribute__((noinline)) void next_ext_uneven(struct gen *g,
						      unsigned d,
						      struct gen_io *io)
{
	ext_next(g, d, io, true);
}

static void next_trimwrite(struct gen *g, struct gen_io *io);

/* The direction of the next I/O (trimwrite aside). */
static inline unsigned next_dir(struct gen *g)
{
	if (g->p.mixed)
		return (gen_rng_next(&g->rng) >> 1) < g->mix_threshold ?
			DDIR_READ : DDIR_WRITE;
	return (unsigned)g->p.only_dir;
}

static __attribute__((noinline)) void gen_next_mode(struct gen *g,
						    struct gen_io *io);

/*
 * The random map, the usual random case, on its own: a function that
 * also held the other modes saved six registers for them on every call.
 */
void gen_next(struct gen *g, struct gen_io *io)
{
	if (gen_unlikely(g->mode != GEN_MODE_MAP || g->p.trimwrite)) {
		gen_next_mode(g, io);
		return;
	}
	io->ddir = (uint8_t)next_dir(g);
	io->new_pass = false;
	io->pass_end = false;
	next_map(g, io);
}

static __attribute__((noinline)) void gen_next_mode(struct gen *g,
						    struct gen_io *io)
{
	if (gen_unlikely(g->p.trimwrite)) {
		next_trimwrite(g, io);
		return;
	}
	gen_next_dir(g, io, next_dir(g));
}

unsigned gen_draw_dir(struct gen *g)
{
	return next_dir(g);
}

void gen_next_dir(struct gen *g, struct gen_io *io, unsigned d)
{
	io->ddir = (uint8_t)d;
	io->new_pass = false;
	io->pass_end = false;
	if (g->mode == GEN_MODE_MAP)
		next_map(g, io);
	else if (g->mode == GEN_MODE_BMAP)
		next_bmap(g, d, io);
	else if (g->mode == GEN_MODE_SEQ)
		next_seq(g, d, io);
	else if (g->mode == GEN_MODE_ANY)
		next_any(g, d, io);
	else if (g->mode == GEN_MODE_FST)
		next_fst(g, d, io);
	else if (g->mode == GEN_MODE_EXT)
		next_ext(g, d, io);
	else
		next_ext_uneven(g, d, io);
	/* The bitmap map's pass is whole once no unit is free: it may have
	 * moved less than its units' bytes (gen.h, pass_end). */
	if (gen_unlikely(g->use_bmap && !g->bm.free)) {
		io->pass_end = true;
		g->pass_short = g->done < g->pass_len ?
				g->pass_len - g->done : 0;
	}
}

/*
 * trimwrite: the trims follow the pattern as rw=trim (randtrim) would, and
 * after each comes a write of the same offset and length, which does not
 * advance the pattern: a pass trims the region once and writes it once.
 */
static __attribute__((noinline)) void next_trimwrite(struct gen *g,
						     struct gen_io *io)
{
	if (g->tw_write) {
		g->tw_write = false;
		io->offset = g->tw.offset;
		io->foff = g->tw.foff;
		io->file = g->tw.file;
		io->len = g->tw.len;
		io->ddir = DDIR_WRITE;
		io->new_pass = false;
		io->pass_end = false;
		return;
	}
	g->p.trimwrite = false;
	gen_next(g, io);
	g->p.trimwrite = true;
	g->tw_write = true;
	g->tw.offset = io->offset;
	g->tw.foff = io->foff;
	g->tw.file = io->file;
	g->tw.len = io->len;
}

/* ---- The bytes of writes (gen.h) ---- */

static gen_data_xor_fn pick_xor(void);

int gen_data_init(struct gen_data *d, size_t len, uint64_t pool_seed,
		  uint64_t key_seed)
{
	struct gen_rng r;
	size_t i, words = (len + 7) / 8;
	void *p;

	memset(d, 0, sizeof(*d));
	if (posix_memalign(&p, 64, words ? words * 8 : 8))
		return -ENOMEM;
	d->pool = p;
	d->len = len;
	gen_rng_seed(&r, pool_seed);
	for (i = 0; i < words; i++)
		d->pool[i] = gen_rng_next(&r);
	gen_rng_seed(&d->keys, key_seed);
	d->xor = pick_xor();
	return 0;
}

void gen_data_free(struct gen_data *d)
{
	free(d->pool);
	d->pool = NULL;
}

/*
 * 64 bytes (a cache line) per step, in vectors of 16 or 32 bytes: the
 * generic vector type lowers to SSE2 on any x86-64 and NEON on arm64; on a
 * CPU with AVX2 (checked once, at gen_data_init) a copy built for it moves
 * 32 bytes per instruction, which halves the cost on this path. Unaligned
 * loads and stores through memcpy cost nothing on aligned data. The tail
 * (a length that is not a multiple of 64) goes a byte at a time, xor the
 * key's byte for that position, so the result is that of a word-wise xor.
 */
#define GEN_DATA_XOR_BODY(vt)						\
	const unsigned char *s = (const unsigned char *)pool;		\
	unsigned char *o = dst;						\
	vt k, v;							\
	size_t i = 0, n;						\
									\
	for (n = 0; n < sizeof(vt) / 8; n++)				\
		k[n] = key;						\
	for (; i + 64 <= len; i += 64) {				\
		for (n = 0; n < 64; n += sizeof(vt)) {			\
			memcpy(&v, s + i + n, sizeof(vt));		\
			v ^= k;						\
			memcpy(o + i + n, &v, sizeof(vt));		\
		}							\
	}								\
	for (; i < len; i++)						\
		o[i] = s[i] ^ (unsigned char)(key >> (8 * (i & 7)))

typedef uint64_t gen_v2 __attribute__((vector_size(16)));

static void data_xor_v2(void *dst, const uint64_t *pool, size_t len,
			uint64_t key)
{
	GEN_DATA_XOR_BODY(gen_v2);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
typedef uint64_t gen_v4 __attribute__((vector_size(32)));

__attribute__((target("avx2")))
static void data_xor_v4(void *dst, const uint64_t *pool, size_t len,
			uint64_t key)
{
	GEN_DATA_XOR_BODY(gen_v4);
}

static gen_data_xor_fn pick_xor(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") ? data_xor_v4 : data_xor_v2;
}
#else
static gen_data_xor_fn pick_xor(void)
{
	return data_xor_v2;
}
#endif

void gen_data_xor(void *dst, const uint64_t *pool, size_t len, uint64_t key)
{
	data_xor_v2(dst, pool, len, key);
}
