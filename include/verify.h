/* SPDX-License-Identifier: MIT */
#ifndef IORIG_VERIFY_H
#define IORIG_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Data verification: what a written block holds, and what a block read
 * back is when it is not what was written.
 *
 * The unit (a "block" below) is the job's write block size, bs, or the
 * verify_interval unit (see below). Every block starts
 * with a 64-byte header (struct verify_hdr, host byte order). For
 * verify=xxh3 and crc32c the rest of the block is a function of (seed,
 * offset, generation): 8-byte word i of the block (i >= H = 8 for these
 * two kinds, counted from the block's start) is
 *
 *	rng(i - H) ^ ((generation + i) * VERIFY_GEN_MUL)
 *
 * where rng(k) is output k (from 0) of xoshiro256** (gen.h) seeded with
 * seed ^ (offset * VERIFY_OFF_MUL). Any word of a block therefore tells
 * which generation it belongs to, and a whole 512-byte sector can be
 * checked against it: that is how a torn block (sectors of different
 * writes) is told from bit rot (a sector no write produced). With
 * verify=pattern (or any kind with verify_pattern) the rest of the block
 * is the pattern, repeated from the block's first byte (the header covers
 * the first bytes); all generations then hold the same data, so a tear
 * is only seen where a sector is zero.
 *
 * The checksum covers the whole block except where it is kept: xxh3
 * (XXH3 64-bit of the payload, seeded with XXH3 of the first 56 header
 * bytes) for verify=xxh3; CRC-32C (Castagnoli; SSE 4.2 when the CPU has
 * it) over the same bytes for crc32c and pattern; for md5, crc64, crc32,
 * sha1, sha256, sha512, sha3-224/256/384/512 and xxhash (XXH32, seed 1)
 * the digest of the 56 header bytes before csum followed by the data
 * (src/verify/digest.c). verify=meta (fio's header-only check) covers the
 * 56 header bytes only (CRC-32C): the data is not checked. A checksum of
 * up to 8 bytes is kept in csum (host order); a wider digest has its
 * first 8 bytes in csum and the rest right after the 64-byte header,
 * zero-padded to 8 bytes (verify_hdr_size: 72 for md5, 80 sha1, 88 sha256,
 * sha3-224 and sha3-256, 104 sha3-384, 120 sha512 and sha3-512), and the
 * data then starts there: with H the header size in 8-byte words, word i
 * (i >= H) of the block is rng(i - H) ^ ((generation + i) * MUL).
 *
 * verify_interval and block size ranges: the unit checked is then the
 * interval (with a range of block sizes and no interval, the greatest
 * common divisor of the write sizes, as fio takes its interval): a write
 * of several units holds one header and checksum per unit, each a block
 * of the unit's length at its own offset. verify_offset=N: after filling,
 * the hdr_size bytes at 0 and at N of each unit are swapped byte by byte
 * (0 with N, 1 with N+1, ...), and swapped back, in reverse order, before
 * the unit is checked.
 *
 * Generations: a writing job's generation is its start time
 * (CLOCK_REALTIME, ns) plus the number of its pass over the region, so
 * generations grow from pass to pass and from run to run.
 */

enum verify_kind {
	VERIFY_NONE = 0,
	VERIFY_XXH3,
	VERIFY_CRC32C,
	VERIFY_PATTERN,
	/* fio's other checksums (digest.c); values are on disk: append */
	VERIFY_MD5,
	VERIFY_CRC64,
	VERIFY_CRC32,
	VERIFY_SHA1,
	VERIFY_SHA256,
	VERIFY_SHA512,
	VERIFY_SHA3_224,
	VERIFY_SHA3_256,
	VERIFY_SHA3_384,
	VERIFY_SHA3_512,
	VERIFY_XXHASH,
	VERIFY_META,
	VERIFY_KIND_NR,
};

#define VERIFY_MAGIC		0x3142566769726f69ull	/* "iorigVB1" */
#define VERIFY_HDR_SIZE		64
#define VERIFY_DIGEST_MAX	64	/* bytes: sha512 */
#define VERIFY_SECTOR		512	/* where a tear can be */
#define VERIFY_GEN_MUL		0x9e3779b97f4a7c15ull	/* odd */
#define VERIFY_OFF_MUL		0xd1b54a32d192ed03ull
#define VERIFY_PATTERN_MAX	512	/* bytes */
#define VERIFY_FIRST_MAX	10	/* mismatches reported in detail */
#define VERIFY_RUNS_MAX		64	/* runs verify_only tells apart */
#define VERIFY_RUN_BLOCKS	16	/* blocks remembered per such run */
#define VERIFY_BACKLOG_MAX	1048576

struct verify_hdr {
	uint64_t magic;		/* VERIFY_MAGIC */
	uint64_t offset;	/* of the block in its file, bytes */
	uint32_t len;		/* block length, bytes */
	uint16_t kind;		/* enum verify_kind that wrote it */
	uint16_t version;	/* 1 */
	uint64_t seed;		/* the job's data seed for this file */
	uint64_t generation;	/* writing run's start ns + pass */
	uint64_t time_ns;	/* CLOCK_REALTIME when the block was filled */
	uint64_t run_id;	/* random, per writing job run */
	uint64_t csum;		/* of the block, this field excluded */
};

_Static_assert(sizeof(struct verify_hdr) == VERIFY_HDR_SIZE,
	       "the header is 64 bytes");

/* Mismatch classes, in the order reports list them. */
enum verify_class {
	VC_BAD_CHECKSUM,	/* a sector no write produced, or a damaged
				 * header over intact data: bit rot */
	VC_MISDIRECTED,		/* intact, of another offset or file */
	VC_STALE,		/* an intact block of an older generation */
	VC_ZEROED,		/* all bytes zero */
	VC_TORN,		/* sectors of different writes (or zeros) */
	VC_FOREIGN,		/* no data of this job: never written with
				 * verification, another bs or kind, or newer
				 * than what the run wrote there */
	VC_NR,
	VC_OK = VC_NR,
};

const char *verify_class_name(int cls);
const char *verify_kind_name(int kind);

/* CRC-32C, table-driven or with the SSE 4.2 instruction. */
struct verify_crc {
	bool hw;
	uint32_t table[8][256];	/* slicing by 8 */
};

/* allow_hw false forces the table (for tests). */
void verify_crc_init(struct verify_crc *c, bool allow_hw);
/* Plain CRC-32C of buf (initial ~0, final ~0). */
uint32_t verify_crc32c(const struct verify_crc *c, const void *buf,
		       size_t len);

/* How blocks are filled and checked: the job's verify settings. */
struct verify_fmt {
	int kind;		/* enum verify_kind, not NONE */
	unsigned hdr_size;	/* verify_hdr_size(kind) */
	uint8_t pattern[VERIFY_PATTERN_MAX];
	size_t plen;		/* verify_pattern's bytes, the data of
				 * every block; 0: none (not with
				 * VERIFY_PATTERN) */
	struct verify_crc crc;
	uint32_t voff;		/* verify_offset: 0, or where the header
				 * is swapped to (voff + hdr_size <= len) */
	void *md_ctx;		/* libcrypto digests: EVP_MD_CTX */
	const void *md;		/* EVP_MD */
};

/*
 * Set f up for kind (pattern and plen are the caller's): 0, -EINVAL for
 * no such kind, -ENOSYS when libcrypto lacks the digest (a FIPS build),
 * -ENOMEM. verify_fmt_exit frees what it holds.
 */
int verify_fmt_init(struct verify_fmt *f, int kind, bool allow_hw);
void verify_fmt_exit(struct verify_fmt *f);
/* Bytes of the checksum of kind; bytes of its header (64 or more). */
unsigned verify_digest_len(int kind);
unsigned verify_hdr_size(int kind);
/* Compute and store the block's checksum; check it. */
void verify_csum_store(const struct verify_fmt *f, void *buf, uint32_t len);
bool verify_csum_ok(const struct verify_fmt *f, const void *buf,
		    uint32_t len);

/*
 * verify_pattern= as fio reads it: the same items as buffer_pattern=
 * (fill_pattern_parse: 0xHEX, a decimal int, "text", 'FILE', one after
 * another), into out (at most VERIFY_PATTERN_MAX bytes). Returns the
 * length, or -EINVAL with why saying what was expected.
 */
int verify_pattern_parse(const char *text, uint8_t *out, char *why,
			 size_t whylen);

/* The data seed of one file of one job clone. */
uint64_t verify_file_seed(uint64_t randseed, unsigned clone, unsigned file);

/*
 * Fill buf (len bytes, a multiple of VERIFY_SECTOR) as block `offset` of
 * generation h->generation: the header from h (magic, len, kind, version
 * and csum are set here), the data, the checksum.
 */
void verify_fill(const struct verify_fmt *f, void *buf, uint32_t len,
		 const struct verify_hdr *h);

/* verify_offset: swap the header into place (undo: the other way). */
void verify_swap(const struct verify_fmt *f, void *buf, uint32_t len,
		 bool undo);

/* What one block read back holds, sector by sector (not the good path). */
struct verify_sectors {
	uint32_t n;		/* sectors */
	uint32_t valid, zero, bad;
	unsigned ngens;		/* generations of valid sectors */
	uint64_t gens[2];	/* the first two of them */
	uint32_t first_bad;
	unsigned nruns;		/* runs of equal sectors */
	uint8_t cur_state;	/* of the last run */
	uint64_t cur_gen;
	struct {
		uint32_t first, last;
		uint8_t state;	/* VS_* */
		uint64_t gen;
	} run[4];		/* the first runs */
};

enum { VS_VALID, VS_ZERO, VS_BAD };

struct verify_result {
	bool has_hdr;		/* the magic is there: hdr as read */
	struct verify_hdr hdr;
	struct verify_sectors sec;
	char detail[160];	/* why, for the report; "" for VC_OK */
};

/*
 * What the block in buf (8-byte aligned) is, as block `offset` of the file
 * with data seed
 * `seed`: VC_OK (intact; res->hdr.generation tells which write) or a
 * mismatch class. Stale is not decided here: the caller compares the
 * generation with the one it expects. Pure; no allocation.
 */
int verify_classify(const struct verify_fmt *f, const void *buf,
		    uint32_t len, uint64_t offset, uint64_t seed,
		    struct verify_result *res);

/* One mismatch, as reported. */
struct verify_mismatch {
	char file[160];		/* path, truncated */
	uint64_t offset;	/* of the block in its file */
	uint64_t seq;		/* order of the report */
	uint8_t cls;		/* enum verify_class */
	bool found_hdr;		/* found: the header as read */
	bool exp_gen;		/* expected generation and run are known */
	struct verify_hdr expected;	/* offset, len, seed, [gen, run] */
	struct verify_hdr found;
	char detail[160];
};

/* The verification figures of a job (merged: added up). */
struct verify_stats {
	int kind;		/* enum verify_kind; NONE: the job did not */
	uint64_t blocks_checked;
	uint64_t bytes;		/* read by verification */
	uint64_t runtime_ns;	/* time spent in verification reads */
	uint64_t read_errors;
	uint64_t write_failed;	/* blocks not checked: the run's last
				 * write of them failed or was short */
	uint64_t mismatches;
	uint64_t by_class[VC_NR];
	bool stopped;		/* verify_fatal stopped at a mismatch */
	unsigned nfirst;
	struct verify_mismatch first[VERIFY_FIRST_MAX];
};

/*
 * A job's verification state while it runs (one per job clone). The block
 * numbers (vblock) are those of the job's region as the worker sees it:
 * block b is bytes [b * bs, (b + 1) * bs) of the region, in file
 * b * bs / file_region (target.h).
 */
struct verify_blk {
	uint64_t vblock;
	uint64_t generation;	/* expected; 0: not known (verify_only);
				 * VERIFY_GEN_LOOKUP: each unit's own */
	uint32_t n;		/* units from vblock; 0 counts as 1 */
};

#define VERIFY_GEN_LOOKUP	UINT64_MAX

struct verify_run;

struct target;

struct verify_ctx {
	struct verify_fmt fmt;
	const struct target *tgt;	/* files, region */
	uint32_t bs;		/* the unit checked (verify_unit) */
	uint32_t maxio;		/* bytes: the largest read of the phase */
	uint64_t nblocks;
	uint64_t randseed;
	unsigned clone;
	uint64_t run_id;
	uint64_t gen0;		/* this run's first generation */
	uint64_t pass;		/* passes begun - 1 */
	bool fatal;		/* verify_fatal */
	bool halt;		/* a mismatch under verify_fatal */
	/* verify_reader: the job's reads are checked as they complete; an
	 * intact block of the right offset, length and kind passes whatever
	 * run, generation or seed wrote it (fio's meaning: for a job that
	 * does not write, the seed checked is the header's own) */
	bool reader;
	/* loops=N (N > 1, each loop a pass): the blocks each loop wrote are
	 * checked when it ends, as fio verifies after each loop; loop_due:
	 * a loop ended, its check waits at the barrier (vphase.c). */
	bool loop_verify, loop_due;
	uint64_t *written;	/* bitmap: block written in this pass */
	uint32_t *wpass;	/* mixed rw or a range of write sizes, where
				 * a pass need not write every block: per
				 * block, 1 + the pass of its last write,
				 * 0 never written (then no written map) */
	uint64_t *failed;	/* bitmap: the last write of the block in
				 * this run failed or was short; with
				 * written or ring */
	struct verify_blk *ring;	/* verify_backlog: writes to check */
	/* bitmap: the backlog checked the block since its last write, so
	 * that do_verify's check skips it (fio's meaning: it reads each
	 * write back once); with ring and do_verify */
	uint64_t *checked;
	uint32_t ring_len, backlog;
	uint32_t backlog_batch;	/* blocks of the ring read each time */
	/* trim_percentage, trim_backlog (vphase.c, verify_trims): blocks
	 * chosen to be trimmed, oldest first, in a ring of tcap; those
	 * trimmed since their last write. */
	uint64_t *trimmed;	/* bitmap; NULL: no trims */
	uint64_t *tring;
	uint32_t tcap, thead, tlen;
	uint32_t tdue;		/* trims due at the next barrier */
	uint64_t tlogged;	/* blocks written, for trim_backlog */
	uint64_t tctr;		/* draws of trim_percentage */
	uint32_t tpct, tbacklog, tbatch;
	bool tzero;		/* trim_verify_zero */
	struct verify_run *runs;	/* verify_only: the runs seen */
	unsigned nruns;
	uint64_t nfound;	/* mismatches found so far (report order) */
	struct verify_stats stats;
	/* verify_dump, verify_state_save/load (src/verify/vstate.c) */
	bool dump;		/* verify_dump */
	unsigned ndumped;
	uint64_t *ever;		/* verify_state_save: written in this run */
	uint64_t *loaded;	/* verify_state_load: blocks to check */
	char state_path[288];	/* NAME.CLONE.verify-state */
};

struct job;
struct err_rec;

/*
 * For job clone j (verify set) on target t, which must outlive the
 * context. Returns 0 or -errno (-EINVAL: bad verify_pattern, -ENOMEM).
 */
int verify_init(struct verify_ctx **out, const struct job *j,
		const struct target *t);
void verify_exit(struct verify_ctx *v);

/*
 * Advisory OFD locks (fcntl F_OFD_SETLK) on the region of every file of t,
 * open: a write lock for a job that writes, a read lock for verify_only.
 * They last until the file is closed, and tell another process that locks
 * (another iorig verifying, or any program taking byte-range locks) that
 * the bytes are being written and checked. Returns 0; -EAGAIN when another
 * process holds a lock in the way, with why naming the file, the bytes
 * and the holder; another -errno when locking fails. A file system that
 * has no locks (ENOLCK, EOPNOTSUPP, EINVAL) is not refused.
 */
int verify_lock(const struct target *t, bool writes, char *why,
		size_t whylen);

/*
 * verify_state_save: write the blocks this run wrote (and whose last
 * write did not fail) to v->state_path. The file: one text line
 *
 *   iorig-verify-state 1 bs=BS blocks=N run=RUNID gen=FIRST-LAST\n
 *
 * then the bitmap, (N + 63) / 64 little-endian 64-bit words, bit b of
 * word w for block 64 w + b of the job's region. 0 or -errno with why.
 */
int verify_state_save(struct verify_ctx *v, char *why, size_t whylen);
/* The state file of job clone j: NAME.CLONE.verify-state ('/' as '_'). */
void verify_state_path(const struct job *j, char *buf, size_t len);
/* The state file a job saves, added to l for the door's plan-time check
 * (door.h): 0 or -ENOMEM. */
struct door_names;
int verify_state_names(const struct job *j, struct door_names *l);
/*
 * verify_state_load: read v->state_path (a file of the same bs and number
 * of blocks) into v->loaded. 0 or -errno with why.
 */
int verify_state_load(struct verify_ctx *v, char *why, size_t whylen);
/* verify_state_load: whether block vblock is to be checked. */
bool verify_state_has(const struct verify_ctx *v, uint64_t vblock);

/* The file and offset in it of block vblock. */
void verify_where(const struct verify_ctx *v, uint64_t vblock,
		  unsigned *file, uint64_t *offset);

/* Fill buf as the next write of block vblock (stamps time and pass). */
void verify_stamp(struct verify_ctx *v, void *buf, uint64_t vblock);
/* The same for a write of n units from vblock (one backlog entry). */
void verify_stamp_io(struct verify_ctx *v, void *buf, uint64_t vblock,
		     uint32_t n);
/*
 * A write of block vblock completed: ok when all of it was written. A
 * block whose last write in this run failed (ENOSPC, EIO) or was short is
 * not checked and not a mismatch: what it holds says nothing about the
 * device. It is counted in stats.write_failed.
 */
void verify_write_done(struct verify_ctx *v, uint64_t vblock, bool ok);
/* trim_backlog: the next block due to be trimmed (false: none now), and
 * that it was trimmed (it then reads as zeros until written again). */
bool verify_trim_next(struct verify_ctx *v, uint64_t *vblock);
void verify_trim_done(struct verify_ctx *v, uint64_t vblock);
/* The last write of block vblock failed or was short. */
bool verify_write_failed(const struct verify_ctx *v, uint64_t vblock);
/* The writer begins another pass over the region. */
void verify_new_pass(struct verify_ctx *v);

/*
 * verify_backlog read blocks [vblock, vblock + n) back and checked them
 * (n 0 counts as 1): do_verify's check skips them until they are written
 * again, as fio reads each write back once.
 */
void verify_backlog_checked(struct verify_ctx *v, uint64_t vblock,
			    uint32_t n);

/*
 * The block the write+verify pass checks after `from` (its expected
 * generation in *b); false when none is left. Blocks the run did not
 * write, blocks whose last write failed, and blocks the backlog checked
 * since their last write are skipped.
 */
bool verify_next_written(const struct verify_ctx *v, uint64_t from,
			 struct verify_blk *b);

/*
 * Check the blocks read for b (b->n units of v->bs bytes in buf; with
 * verify_offset they are swapped back in buf): counts them and records
 * each mismatch. Returns VC_OK when all are what was expected, else the
 * class of the last that is not. Units never written in this run, or
 * whose last write failed, are skipped when b->generation is
 * VERIFY_GEN_LOOKUP.
 */
int verify_check(struct verify_ctx *v, void *buf,
		 const struct verify_blk *b);

/*
 * Call once at the end: counts stats.write_failed; for verify_only, the
 * blocks of older runs are stale.
 */
void verify_end(struct verify_ctx *v);

/*
 * The cross-option checks of a job that verifies (or sets a verify
 * option): 0, or -EINVAL with *option naming the option to blame and why
 * saying what is wrong.
 */
int verify_job_check(const struct job *j, const char **option, char *why,
		     size_t whylen);
/*
 * The unit a job checks: verify_interval (clamped to the smallest write
 * size, or the greatest common divisor of the write sizes when it does not
 * divide them all, as fio does), by default the write block size or, for
 * a range of sizes, their greatest common divisor. Read sizes count too
 * for mixed rw (reads are checked), and so does blockalign; a job that
 * only reads (verify_reader) counts its read sizes alone.
 */
uint64_t verify_unit(const struct job *j);
/*
 * A job that only reads (rw=read or randread, not verify_only) with
 * verify=: as in fio, each of its reads is checked as it completes
 * against the blocks an earlier writing job left; there is no check
 * after the measured phase (do_verify, verify_backlog have nothing to
 * read back). Its unit is that of its read sizes.
 */
bool verify_reader(const struct job *j);
/* Whether blocks may be written in any order or not at all in a pass
 * (mixed rw, a range of write sizes, the random patterns: gaps, runs,
 * random_distribution...): then a per-block pass map. */
bool verify_needs_passmap(const struct job *j);

/*
 * Plan time, after every target is planned (tg[i] for jobs[i]): refuse a
 * run in which a job writes bytes of a file that a job verifying them
 * (one that writes with verify=, or verify_only=1) uses while both can run
 * (the same wait group): its checks would fail on the other's data. Two
 * clones of one job, two jobs, and two files of one job are compared; a
 * file is the same by device and inode, or, before it exists, by its
 * resolved path. 0, -EINVAL with e naming both jobs, the file and the
 * bytes, or -ENOMEM.
 */
int verify_plan_overlaps(const struct job *jobs, const struct target *tg,
			 size_t njobs, struct err_rec *e);

#endif
