/* SPDX-License-Identifier: MIT */
#ifndef IORIG_GEN_H
#define IORIG_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "dist.h"

/*
 * Offset/length/direction generator. All state is in struct gen; next() is
 * the hot path: no allocation, no syscalls, O(1).
 *
 * The job's region is [0, region) in a virtual address space made of
 * `nfiles` file regions of region / nfiles bytes each, file i at
 * [i * file_region, (i + 1) * file_region). Every I/O lies inside one file
 * region: none crosses from one file into the next or past the end of the
 * last, whatever the block sizes and whether or not file_region is a
 * multiple of them. Offsets inside a file are multiples of `align` (the gcd
 * of the bs_min in use: the minimum when one divides the other). Lengths in
 * a range [min, max] are multiples of min, or max, drawn as fio draws them
 * (gen.c). Sequential
 * modes walk the files in order, a cursor per direction (fio's meaning);
 * random modes visit blocks in a seeded pseudo-random order. With the
 * random map (norandommap=0) every block of
 * size bs_min[dir] that fits in a file is visited exactly once per pass when
 * the block size is fixed, with no memory per block (a keyed bijection on
 * the block numbers). When block sizes vary (ranges, bssplit, directions of
 * different sizes) the map is a bitmap of align units (gen_bmap, one bit a
 * unit): each I/O starts at a unit not yet done, its length is drawn to fit
 * the file there and cut where done units begin (fio's rule, gen.c), so
 * every unit is done once per pass. With norandommap=1 (or
 * random_generator=lfsr with sizes that vary, as fio) offsets are drawn
 * independently (repeats).
 * A pass ends after `region` bytes have been generated (with the map: once
 * every block was done); gen_next then returns the start of a new pass
 * (the worker counts loops).
 * Uneven files (flen): file i is the slot [i * file_region, i * file_region
 * + flen[i]) with file_region the largest flen; lengths are clipped to the
 * smallest file, so any fits in any file. Several files then always take
 * the file_service_type path (roundrobin when none is given): sequential
 * stops at each file's end, the random map skips the blocks of a slot past
 * its file's end, norandommap draws over the file's own positions. The
 * random patterns (the ext path) draw each I/O's place in its own file's
 * length: percentage zones of random_distribution are of that length, the
 * skewed laws are set up over the largest file's positions and a shorter
 * file takes them modulo its own, zoned_abs zones and bssplit sizes must
 * fit the smallest file (a larger bssplit size is never drawn), files are
 * chosen as without uneven files (uniformly; in order when sequential).
 * With zones (zonemode=strided, one file): I/Os stay in the zone
 * [zbase, zbase + zone_range) until zone_size bytes were done there, then
 * the next zone starts zone_range + zone_skip further on, and the first
 * again once that is past the file region's end (gen.c).
 */

/* xoshiro256** seeded by splitmix64: fast, good quality. */
struct gen_rng {
	uint64_t s[4];
};

void gen_rng_seed(struct gen_rng *r, uint64_t seed);
static inline uint64_t gen_rng_next(struct gen_rng *r)
{
	uint64_t *s = r->s;
	uint64_t x = s[1] * 5;
	uint64_t res = ((x << 7) | (x >> 57)) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = (s[3] << 45) | (s[3] >> 19);
	return res;
}

/* Uniform in [0, n), n > 0 (Lemire's multiply-shift, unbiased). */
uint64_t gen_rng_below(struct gen_rng *r, uint64_t n);

/* The greatest common divisor of a and b (gcd(a, 0) = a): block sizes and
 * alignments, here and in verify's rules. */
uint64_t gen_gcd(uint64_t a, uint64_t b);

struct gen_params {
	uint64_t region;		/* bytes, > 0, a multiple of nfiles */
	unsigned nfiles;		/* file regions in it; 0 means 1 */
	/* Files of their own lengths (filesize=LO-HI): flen[i] bytes of
	 * file i, multiples of every bs_min in use, region their sum;
	 * NULL: region / nfiles each. See "Uneven files" below. */
	const uint64_t *flen;
	/* per direction, > 0 */
	uint64_t bs_min[DDIR_NR], bs_max[DDIR_NR];
	bool random;
	bool mixed;			/* rw / randrw */
	/* Sequential: each direction's cursor starts over on its own at
	 * the end (time_based, fio's meaning), not with the pass. */
	bool wrap_each;
	int only_dir;			/* when !mixed: the direction */
	/* trimwrite, randtrimwrite (only_dir DDIR_TRIM): each trim is
	 * followed by a write of the same blocks (fio's meaning). */
	bool trimwrite;
	double rwmixread;		/* percent reads when mixed */
	bool norandommap;
	uint64_t seed;
	/* Random patterns (issue 12); all zero: none, the fast paths. */
	const struct dist_spec *dist;	/* NULL or random: uniform */
	const struct bssplit_spec *bssplit;	/* NULL: bs_min/bs_max */
	uint64_t ba[DDIR_NR];		/* random offsets' unit; 0: align */
	/* percent of random I/Os that go on sequentially instead */
	double perc_seq[DDIR_NR];
	bool lfsr;			/* the map even with norandommap */
	/* softrandommap: the bitmap map (gen_bmap) that cannot be
	 * allocated is done without (gen.map_dropped), not -ENOMEM. */
	bool softrandommap;
	/* The bitmap map's bytes at most (0: no limit): a larger one is
	 * -ENOMEM, as when malloc fails, before it is touched. */
	uint64_t map_max;
	bool bs_unaligned;		/* range lengths not rounded to min */
	int64_t seq_add;		/* rw=read:N: gap after each I/O */
	uint64_t seq_nr;		/* rw=randread:N: random every N */
	bool seq_identical;		/* rw_sequencer=identical */
	/* file_service_type (issue 12): how the next I/O's file is chosen
	 * when nfiles > 1 (enum gen_fst). GEN_FST_NONE: the fast paths of
	 * one cursor (sequential walks the files in order, random draws
	 * over all of them); unit tests and one file use it. */
	int fst;
	uint64_t fst_nr;		/* I/Os on a file before switching */
	double fst_param;		/* zipf theta, pareto h, normal sigma */
	double fst_center;		/* 0..1, or -1: the default */
	uint32_t openfiles;		/* files in service at once; 0: all */
	/* zonemode=strided (issue 12); zone_size 0: off. One file only. */
	uint64_t zone_size;		/* bytes in a zone before the next */
	uint64_t zone_range;		/* a zone's extent; 0: zone_size */
	uint64_t zone_skip;		/* gap between zones */
};

/*
 * fio's file_service_type. Every file has its own cursor (sequential) or
 * its own random map. RR: fst_nr I/Os on a file, then the next file not
 * finished; SEQ: a file until it is finished, then the next; RANDOM: fst_nr
 * I/Os on a file, then a file drawn uniformly among those not finished.
 * A pass ends when every file is finished (all its bytes or blocks; with
 * norandommap, once region bytes were generated). ZIPF, PARETO, NORMAL: a
 * file drawn for every I/O from the law over nfiles * 1024 ranks (1024
 * ranks a file, as fio draws), a finished file starting over; a pass ends
 * once region bytes were generated.
 * openfiles (uniform kinds): at most that many files in service at once, as
 * fio keeps at most openfiles open: a file enters service when it is first
 * picked while there is room, and leaves it when it is finished; picks skip
 * (roundrobin) or redraw (random) files that cannot enter.
 */
enum gen_fst { GEN_FST_NONE, GEN_FST_RR, GEN_FST_SEQ, GEN_FST_RANDOM,
	       GEN_FST_ZIPF, GEN_FST_PARETO, GEN_FST_NORMAL };
#define GEN_FST_SHIFT	10


enum gen_mode { GEN_MODE_MAP, GEN_MODE_SEQ, GEN_MODE_ANY, GEN_MODE_EXT,
		GEN_MODE_FST, GEN_MODE_EXT_UNEVEN, GEN_MODE_BMAP };

/*
 * The random map when block sizes vary: bit b of level 0 is set once unit
 * b (align bytes; block b mod fblocks of file b / fblocks) was done this
 * pass; bit w of level l + 1 is set when word w of level l is full. The
 * bits past the last unit of every level are kept set, so a search never
 * returns them. The next unit not done at or after b is a few word reads
 * (one per level, at most 11); marking a run, a word per 64 units.
 */
#define GEN_BMAP_LEVELS	11
struct gen_bmap {
	uint64_t *lv[GEN_BMAP_LEVELS];
	uint64_t nw[GEN_BMAP_LEVELS];	/* words of each level */
	uint64_t nbits;			/* units: nfiles * fblocks */
	uint64_t free;			/* units of files not done yet */
	unsigned nlv;
	uint64_t *mem;			/* all levels, one allocation */
	uint64_t words;			/* of mem */
};

/* A keyed bijection on [0, n) (gen.c). */
struct gen_perm {
	uint64_t keys[4];	/* keys[0] & mask == keys[0] */
	uint64_t mask;		/* next power of two - 1 >= n - 1 */
	uint64_t n;
	unsigned bits;
	unsigned h, h2;		/* perm_once's shifts, from bits */
};

/* State of the random patterns, used only when gen.ext is set. */
struct gen_ext {
	struct dist_law law[DDIR_NR];
	struct gen_perm scat[DDIR_NR];	/* ranks to positions */
	uint64_t rot[DDIR_NR];		/* the mode's position: center */
	uint64_t npos[DDIR_NR];		/* positions of a bs_min I/O */
	uint64_t unit[DDIR_NR], unit_inv[DDIR_NR];
	struct dist_alias bsa[DDIR_NR];	/* bssplit: entry of an I/O */
	uint64_t bslen[DDIR_NR][BSSPLIT_MAX];
	bool has_bss[DDIR_NR];
	/* bssplit as fio walks it where the largest size may not fit (a
	 * length that fits a room, gen.c): the sizes with a share, by share
	 * ascending (fio's sort), and the cumulative shares (the last 1) */
	uint64_t bso_len[DDIR_NR][BSSPLIT_MAX];
	double bso_cum[DDIR_NR][BSSPLIT_MAX];
	unsigned bso_n[DDIR_NR];
	uint64_t bso_min[DDIR_NR];	/* the smallest of them */
	struct dist_alias zal[DDIR_NR];	/* zoned: zone of an I/O */
	uint64_t zlo[DDIR_NR][DIST_ZONES_MAX], zhi[DDIR_NR][DIST_ZONES_MAX];
	uint64_t seq_thr[DDIR_NR];	/* (rng >> 1) below: sequential */
	uint64_t run;			/* I/Os left in a rw=randread:N run */
	uint64_t last_foff, last_end;
	uint32_t last_file;
	bool fresh;			/* no I/O yet in this pass or zone */
	uint8_t dseen;			/* sequential: directions that did
					 * one (bit d) in this pass or zone */
	int kind;
	/* Where I/Os go in the file: [zbase, zbase + span); without zones
	 * the whole file region. */
	uint64_t zbase, span;
	uint64_t zrange;		/* zone_range clipped to the file */
	uint64_t zdone;			/* bytes done in this zone */
	uint64_t zvisit;		/* zones entered: keys of zperm */
	struct gen_perm zperm;		/* random map of the zone */
	uint64_t zctr;			/* next index of zperm */
	/* Uneven files: file i's length (its span instead of `span`);
	 * NULL: files of one length. */
	uint64_t *flen;
};

/* State of file_service_type (gen.mode GEN_MODE_FST, gen.c). */
struct gen_fst_state {
	uint64_t *cur;		/* per file: bytes (sequential) or blocks
				 * (random map) done in this pass */
	uint32_t *live;		/* files not finished, nlive of them */
	uint32_t *where;	/* index of a file in live */
	uint8_t *inserv;	/* file in service (openfiles) */
	uint32_t nserv;		/* files in service */
	uint32_t nlive;
	uint32_t file;		/* the file being serviced */
	uint64_t left;		/* I/Os still due on it */
	uint8_t sub;		/* GEN_MODE_SEQ, _MAP or _ANY inside a file */
	uint64_t *fshort;	/* uneven files: align units file i lacks of
				 * file_region; NULL: even */
	bool skew;		/* zipf, pareto, normal */
	struct gen_perm fperm;	/* random map: blocks of a file */
	struct dist_law law;	/* skew: ranks */
	uint64_t rot;		/* skew: rank rotation */
};

struct gen {
	struct gen_params p;
	struct gen_rng rng;
	uint64_t file_region;	/* region / nfiles; uneven: largest flen */
	uint64_t fmin;		/* smallest file region */
	uint64_t fblocks;	/* random map: whole blocks in one file */
	uint64_t fblocks_inv;	/* UINT64_MAX / fblocks, for block -> file */
	uint64_t spos[DDIR_NR];	/* sequential: direction d's cursor, at
				 * spos[d] in file sfile[d] */
	uint32_t sfile[DDIR_NR];
	uint64_t done;		/* bytes generated in this pass */
	uint64_t pass_len;	/* bytes of a pass (gen_pass_len) */
	uint64_t nblocks;	/* random map: nfiles * fblocks */
	uint64_t align;
	uint64_t perm_ctr;	/* random map: next index to permute */
	/* gen_next_inline: nblocks for the random map of one file and one
	 * direction (not trimwrite), else 0; perm_ctr below it is that
	 * case inside a pass. Set by gen_init. */
	uint64_t fast_end;
	struct gen_perm perm;	/* random map: on [0, nblocks) */
	uint64_t mix_threshold;	/* (rng value >> 1) below this: read */
	/* Lengths (gen.c): (j + 1) * bs_min[d] for j < len_mults[d], else
	 * len_max[d] (bs_max clipped to a file region). */
	uint64_t len_max[DDIR_NR], len_mults[DDIR_NR];
	uint64_t len_inv[DDIR_NR];	/* UINT64_MAX / bs_min[d] */
	uint64_t len_step[DDIR_NR];	/* bs_min[d] / align */
	uint64_t fit[DDIR_NR];	/* aligned offsets in a file where a bs_min[d]
				 * I/O fits */
	uint64_t fit_max[DDIR_NR];	/* likewise for len_max[d] */
	bool use_map;		/* random order from the keyed bijection */
	bool use_bmap;		/* the bitmap map (bm), sizes that vary */
	bool map_dropped;	/* softrandommap: bm could not be had */
	uint64_t align_inv;	/* UINT64_MAX / align */
	/* The largest length direction d draws when all fit: len_max[d],
	 * or bssplit's largest size with a share (even one larger than a
	 * file: fio then never issues it, the draws go on). A room below
	 * it draws a length that fits (len_room). */
	uint64_t lmax[DDIR_NR];
	struct gen_bmap bm;
	/* with pass_end: gen_pass_len less the bytes the pass moved */
	uint64_t pass_short;
	bool ext;		/* random patterns in use: gen_ext */
	uint8_t mode;		/* enum gen_mode: gen_next's path */
	uint64_t pass;		/* completed passes */
	struct gen_ext x;
	struct gen_fst_state f;
	/* trimwrite: the trim whose write comes next (tw_write set). */
	bool tw_write;
	struct gen_io_saved {
		uint64_t offset, foff;
		uint32_t file, len;
	} tw;
};

struct gen_io {
	uint64_t offset;	/* virtual: file * file_region + foff */
	uint64_t foff;		/* offset inside the file's region */
	uint32_t file;		/* index of the file region */
	uint32_t len;		/* foff + len <= file_region */
	uint8_t ddir;
	bool new_pass;		/* first I/O of a pass other than the first */
	/* The bitmap map's last I/O of a pass: it took the last free unit;
	 * gen.pass_short says what the pass moved less than gen_pass_len
	 * (units only partly covered, fio's rule), for the caller's count. */
	bool pass_end;
};

/*
 * Returns 0, or -EINVAL: a file region smaller than the minimum block size
 * in use, a region that is not nfiles equal file regions, or other bad
 * parameters; -ERANGE: zoned_abs zones beyond a file region; -ENOMEM: the
 * bitmap map (gen_bmap_bytes) could not be allocated, without
 * softrandommap.
 */
int gen_init(struct gen *g, const struct gen_params *p);
void gen_next(struct gen *g, struct gen_io *io);

/*
 * A bijection on [0, 2^bits): every step is invertible modulo 2^bits
 * (xor or add a constant, multiply by an odd constant, x ^= x >> s with
 * s >= 1). Multiplies carry differences upwards, the shifts fold them back
 * down; two shift widths keep power-of-two strides from lining up. Fewer
 * rounds left visible structure between blocks i and i + 2^j in chi-square
 * tests of (perm(i), perm(i + lag)) pairs; this many did not.
 * bits 0 (one block) makes h 0, which is fine: the domain is {0}. The
 * shifts h and h2 are computed once, by perm_init() in gen.c.
 */
static inline uint64_t gen_perm_once(const struct gen_perm *pm, uint64_t x)
{
	const uint64_t *k = pm->keys;
	uint64_t m = pm->mask;
	unsigned h = pm->h, h2 = pm->h2;

	x ^= k[0];		/* masked already (perm_key) */
	x ^= x >> h;
	x = (x * k[1]) & m;
	x ^= x >> h2;
	x = ((x + k[2]) * k[3]) & m;
	x ^= x >> h;
	x = (x * 0xd1342543de82ef95ull) & m;
	x ^= x >> h2;
	x = (x * k[1]) & m;
	x ^= x >> h;
	return x;
}

/*
 * Cycle walking: follow perm from i until it lands in [0, n). This is
 * a bijection on [0, n); since 2^bits < 2 * n, a pass costs fewer than two
 * gen_perm_once() calls per block on average.
 */
static inline uint64_t gen_perm_index(const struct gen_perm *pm, uint64_t i)
{
	do
		i = gen_perm_once(pm, i);
	while (i >= pm->n);
	return i;
}

/*
 * The usual random case alone: false outside it (gen_next gives the next
 * I/O then). Inside it, the next I/O is of file 0, direction
 * p.only_dir, align bytes long at *foff, a multiple of align below
 * nblocks * align: the block the map gives, each once a pass.
 */
static inline bool gen_map_fast(struct gen *g, uint64_t *foff)
{
	if (__builtin_expect(g->perm_ctr >= g->fast_end, 0))
		return false;
	*foff = gen_perm_index(&g->perm, g->perm_ctr++) * g->align;
	g->done += g->align;
	return true;
}

/*
 * gen_next, with the usual random case (the random map of one file, one
 * direction, a block size that does not vary, inside a pass) inline for
 * the worker's loop: the same I/O gen_next gives, without the call.
 */
static inline void gen_next_inline(struct gen *g, struct gen_io *io)
{
	uint64_t foff;

	if (__builtin_expect(!gen_map_fast(g, &foff), 0)) {
		gen_next(g, io);
		return;
	}
	io->ddir = (uint8_t)g->p.only_dir;
	io->new_pass = false;
	io->pass_end = false;
	io->file = 0;
	io->foff = foff;
	io->offset = foff;
	io->len = (uint32_t)g->align;
}
/*
 * gen_next in two steps, for a caller that may choose the direction
 * itself (rate= on a mixed job, pace.c): gen_draw_dir draws the direction
 * as gen_next would (the same draw from the same stream), gen_next_dir
 * makes the next I/O of direction d (one the job does; not trimwrite).
 */
unsigned gen_draw_dir(struct gen *g);
void gen_next_dir(struct gen *g, struct gen_io *io, unsigned d);
/*
 * The bytes of a pass: the region's, but for a sequential walk with gaps
 * (seq_add > 0) of one block size that leaves each file before its end
 * (the gap after its last I/O there is not what takes it past the end):
 * fio is done with a file once the next I/O would not fit in it, and its
 * loop once every file is done, so a pass is what such a walk moves.
 */
static inline uint64_t gen_pass_len(const struct gen *g)
{
	return g->pass_len;
}
/* Frees what gen_init allocated (file_service_type over many files, the
 * bitmap map). */
void gen_free(struct gen *g);
/* The bytes of the bitmap map a job of these parameters keeps (0: none),
 * for the message of a failed allocation. */
uint64_t gen_bmap_bytes(const struct gen *g);

/*
 * The bytes of writes. Every write's buffer is filled from one random block
 * (pool, as long as the largest write) xor a fresh 64-bit key: each 8-byte
 * word differs from the pool's by the key. Two writes share a 512-byte
 * sector only if their keys are equal (1 in 2^64 per pair), so no two
 * written blocks are alike (block-level deduplication finds nothing), each
 * block is random (per-page compression, zram, finds nothing), and no run
 * of 2 or more bytes repeats from one block to another unless two keys
 * agree in those byte lanes, so compressors that look across blocks
 * (gzip, zstd, btrfs and ZFS records) find nothing either. Reads into the
 * same buffers do not matter: the next write refills it from the pool.
 * The cost is one pass over the buffer (load, xor, store), no system call.
 */
typedef void (*gen_data_xor_fn)(void *dst, const uint64_t *pool, size_t len,
				uint64_t key);

struct gen_data {
	struct gen_rng keys;
	uint64_t *pool;
	size_t len;		/* bytes in pool */
	gen_data_xor_fn xor;	/* gen_data_xor, or its copy for this CPU */
};

/* pool_seed: the pool's bytes; key_seed: the keys. -ENOMEM or 0. */
int gen_data_init(struct gen_data *d, size_t len, uint64_t pool_seed,
		  uint64_t key_seed);
void gen_data_free(struct gen_data *d);
/* dst[0..len) = pool xor key, len <= d->len; dst and pool do not overlap. */
void gen_data_xor(void *dst, const uint64_t *pool, size_t len, uint64_t key);

static inline void gen_data_fill(struct gen_data *d, void *dst, size_t len)
{
	d->xor(dst, d->pool, len, gen_rng_next(&d->keys));
}

#endif
