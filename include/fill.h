/* SPDX-License-Identifier: MIT */
#ifndef IORIG_FILL_H
#define IORIG_FILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen.h"
#include "job.h"

/*
 * Buffer contents: the bytes of writes when a job's options ask for other
 * than the default of gen.h (every write distinct and incompressible),
 * with fio's meaning of the options:
 *
 *  - buffer_compress_percentage=P (1..99) and dedupe_percentage=D: "mixed"
 *    writes. Each write is cut in segments of buffer_compress_chunk bytes
 *    (0: the smallest write; never more than it); a segment's first
 *    (100 - P)% is random, the rest fixed bytes (zeros, or buffer_pattern
 *    from its first byte). The random bytes are those of gen.h (the pool
 *    xor the write's key), so segments and writes stay distinct and a
 *    compressor finds nothing in them across segments or writes. With D,
 *    each write is a copy of the last distinct write with probability
 *    D% (it reuses that write's key: no memory per write), else new;
 *    dedupe_mode=working_set copies one of the first distinct writes
 *    instead, as many as dedupe_working_set_percentage of the region.
 *    dedupe_global=1 spreads that working set over the jobs with it (as
 *    fio does): of a job's working set, the first 1/n is its own first
 *    distinct writes, the next 1/n the next job's first ones, and so on
 *    round the n jobs; their pools are one (fill_pool_seed) and their
 *    keys are known to all (a run-wide base plus the job's number).
 *  - buffer_compress_percentage=100, zero_buffers, buffer_pattern alone:
 *    "constant" writes, the pattern repeated from each write's first byte
 *    (or zeros). scramble_buffers=1 (given, as fio scrambles only then)
 *    stamps each 512-byte sector with its byte offset in the file and
 *    the write's key in its first 16 bytes: no two sectors alike, the
 *    rest as compressible. Constant bytes are written into a request's
 *    buffer once, again only after a read used it.
 *
 * verify= jobs write their own format (verify.h) and have no fill.
 */
enum fill_mode { FILL_CONST, FILL_MIX };

struct fill {
	int mode;			/* enum fill_mode */
	struct gen_data *data;		/* the worker's pool and keys */
	uint8_t *fixed;			/* max_len bytes: pattern repeated, or
					 * zeros */
	size_t max_len;
	size_t seg, rnd;		/* MIX: segment; random bytes in it */
	unsigned pct;			/* MIX: buffer_compress_percentage */
	unsigned dedupe;		/* MIX: percent of writes repeated */
	struct gen_rng rng;		/* MIX: dedupe draws */
	uint64_t key_base;		/* MIX: distinct write u's key is
					 * made from key_base + u */
	uint64_t nuniq;			/* MIX: distinct writes so far */
	uint64_t ws;			/* MIX: dedupe_mode=working_set's
					 * writes; 0: repeat */
	/* MIX, dedupe_global: gn jobs share; this one is gidx; each owns
	 * gpps writes of the working set; job g's distinct write u has the
	 * key of gbase + (g << 40) + u (its key_base is its own of them) */
	unsigned gidx, gn;
	uint64_t gpps, gbase;
	bool scramble;			/* CONST: stamp sectors */
	uint32_t *filled;		/* CONST: per request, constant bytes
					 * its buffer holds */
	unsigned nreq;
};

/* The seed of the pool of j's writes' bytes: one for all dedupe_global
 * jobs, so that they can write each other's blocks. */
uint64_t fill_pool_seed(const struct job *j);

/* Whether a writing job j needs a fill (not the default bytes). */
bool fill_wanted(const struct job *j);

/*
 * Sets f up for job j: writes up to max_len bytes in a region of `region`
 * bytes (dedupe_working_set_percentage is of it), nreq request buffers,
 * data the worker's gen_data (pool at least max_len). buffer_pattern='s
 * bytes are the job's (its setter read them, a file's too, at plan time).
 * Returns 0 or -ENOMEM.
 */
int fill_init(struct fill *f, const struct job *j, struct gen_data *data,
	      size_t max_len, uint64_t region, unsigned nreq);
void fill_free(struct fill *f);

/* The bytes of one write of len bytes at byte `off` of its file, into
 * request idx's buffer. */
void fill_write(struct fill *f, void *buf, uint32_t idx, uint64_t off,
		size_t len);

/* A read used request idx's buffer: constant bytes are gone. */
static inline void fill_read(struct fill *f, uint32_t idx)
{
	if (f->filled)
		f->filled[idx] = 0;
}

#define FILL_PATTERN_MAX	(16u << 20)

/*
 * buffer_pattern= as fio reads it: items one after another, each 0xHEX
 * (bytes in the order written; an odd count starts with one digit),
 * a decimal integer in the int range (its bytes little-endian, as few as
 * hold it; 0 is one zero byte), "text" (its bytes), or 'FILE' (the
 * file's bytes, up to FILL_PATTERN_MAX in all). *out is malloc'd. Returns
 * the length (> 0), or -EINVAL/-ENOMEM with why saying what was expected.
 */
int fill_pattern_parse(const char *text, uint8_t **out, char *why,
		       size_t whylen);

#endif
