/* SPDX-License-Identifier: MIT */
#ifndef IORIG_NVMEPI_H
#define IORIG_NVMEPI_H

/*
 * An NVMe namespace's blocks as an I/O's buffers hold them, and the
 * protection information the host writes and checks itself (io_uring_cmd
 * with pi_act=0, src/engines/uring_cmd.c, which owns the options): the
 * fields pi_chk names (the guard, a CRC-16 T10-DIF of the block's data
 * and the metadata bytes before the PI; the application tag under its
 * mask; the reference tag, the block's LBA, types 1 and 2), big-endian
 * as the specification lays them out, in each block's metadata: after
 * its data in an extended LBA, else in a separate buffer of ms bytes a
 * block.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct nvmedev_ident;

/* A namespace's blocks in the buffers. */
struct nvmepi_fmt {
	uint32_t lba_size;	/* data bytes of a block */
	uint32_t ext;		/* an extended LBA whose metadata moves: its
				 * block's bytes in the buffer; else 0 */
	unsigned shift;		/* log2 of lba_size */
	uint16_t ms;		/* metadata bytes per block that move (a
				 * separate buffer); 0: none moves */
	uint16_t pi_at;		/* the PI's offset in a block's metadata */
	uint8_t pi_type;	/* 0: no protection information; 1-3 */
	bool pi_host;		/* the host writes and checks the PI */
};

/* Does a namespace's metadata move with its data? Not when the
 * controller inserts and strips it all (pi_act=1 and 8 bytes of PI). */
bool nvmepi_md_moves(const struct nvmedev_ident *id, bool pi_act);
/* The bytes of a block in the buffers: an extended LBA's data and
 * metadata when its metadata moves, else the data's. */
uint32_t nvmepi_block(const struct nvmedev_ident *id, bool pi_act);
/* f for namespace id (lba_size not 0) and pi_act. */
void nvmepi_fmt_set(struct nvmepi_fmt *f, const struct nvmedev_ident *id,
		    bool pi_act);

/* The blocks of bytes [off, off + len) in f's buffers: their first LBA
 * and count. 0, or -EINVAL when they are not whole blocks. */
static inline int nvmepi_lbas(const struct nvmepi_fmt *f, uint64_t off,
			      uint64_t len, uint64_t *slba, uint64_t *nlb)
{
	if (f->ext) {	/* blocks of data and metadata */
		*slba = off / f->ext;
		*nlb = len / f->ext;
		return *slba * f->ext == off && *nlb * f->ext == len ?
		       0 : -EINVAL;
	}
	*slba = off >> f->shift;
	*nlb = len >> f->shift;
	return *slba << f->shift == off && *nlb << f->shift == len ?
	       0 : -EINVAL;
}

/* What the host checks (pi_chk's PRCHK bits, nvmedev.h) and writes, and
 * the guard's CRC table. */
struct nvmepi {
	unsigned prchk;
	uint16_t apptag, apptag_mask;
	uint16_t crc[256];	/* CRC-16 T10-DIF, a byte at a time */
};

void nvmepi_init(struct nvmepi *p, unsigned prchk, uint16_t apptag,
		 uint16_t apptag_mask);
/* CRC-16 T10-DIF (polynomial 0x8bb7, not reflected) of n bytes at buf,
 * going on from crc (0 to start). */
uint16_t nvmepi_crc(const struct nvmepi *p, uint16_t crc, const void *buf,
		    size_t n);
/*
 * Before a write: the PI fields p's checks name in each of blocks
 * slba..slba+nlb-1 of buf (and md, f's separate metadata; else NULL);
 * the other fields keep what the buffer holds, as later fios leave them.
 */
void nvmepi_write(const struct nvmepi *p, const struct nvmepi_fmt *f,
		  uint8_t *buf, uint8_t *md, uint64_t slba, uint64_t nlb);
/*
 * After a read: the fields p's checks name, per block; a block whose
 * application tag is 0xffff is not checked (the specification's
 * escape). 0, or -EILSEQ with the field, the values and the LBA in why
 * (len bytes).
 */
int nvmepi_check(const struct nvmepi *p, const struct nvmepi_fmt *f,
		 const uint8_t *buf, const uint8_t *md, uint64_t slba,
		 uint64_t nlb, char *why, size_t len);

#endif
