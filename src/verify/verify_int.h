/* SPDX-License-Identifier: MIT */
#ifndef IORIG_VERIFY_INT_H
#define IORIG_VERIFY_INT_H

#include <stddef.h>
#include <stdint.h>

struct verify_crc;

struct verify_ctx;
struct verify_blk;
struct verify_result;
struct job;

/* vstate.c: v->state_path for job clone j. */
void verify_state_name(struct verify_ctx *v, const struct job *j);
/* vstate.c: verify_dump of a block that did not check out. */
void verify_dump_block(struct verify_ctx *v, const void *buf,
		       const struct verify_blk *b,
		       const struct verify_result *res);

/*
 * state.c: the data seed a block of file fi is checked with: the job's
 * own (randseed, clone, file), or for a reader (verify_reader) the one
 * the header read back carries, when it has one.
 */
uint64_t verify_expected_seed(const struct verify_ctx *v, unsigned fi,
			      const struct verify_result *res);

/* CRC-32C of len bytes on from crc (no inversion): block.c. */
uint32_t verify_crc_update(const struct verify_crc *c, uint32_t crc,
			   const void *buf, size_t len);

/* What the files of src/verify/ share and nothing else needs. */

/* splitmix64's finalizer: seeds and keys from counters. */
static inline uint64_t verify_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

#endif
