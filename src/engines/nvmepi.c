// SPDX-License-Identifier: MIT
/*
 * An NVMe namespace's blocks in the buffers, and the protection
 * information the host writes and checks (nvmepi.h).
 */
#include <stdio.h>

#include "nvmedev.h"
#include "nvmepi.h"

bool nvmepi_md_moves(const struct nvmedev_ident *id, bool pi_act)
{
	return id->ms && !(pi_act && id->pi_type && id->ms == 8);
}

uint32_t nvmepi_block(const struct nvmedev_ident *id, bool pi_act)
{
	return id->extended && nvmepi_md_moves(id, pi_act) ?
	       id->lba_size + id->ms : id->lba_size;
}

void nvmepi_fmt_set(struct nvmepi_fmt *f, const struct nvmedev_ident *id,
		    bool pi_act)
{
	*f = (struct nvmepi_fmt){
		.lba_size = id->lba_size,
		.shift = (unsigned)__builtin_ctz(id->lba_size),
		.pi_type = id->pi_type,
	};
	if (!nvmepi_md_moves(id, pi_act))
		return;
	/* the plan made sure md_per_io_size holds separate metadata */
	if (id->extended)
		f->ext = id->lba_size + id->ms;
	else
		f->ms = id->ms;
	f->pi_at = id->pi_first ? 0 : (uint16_t)(id->ms - 8);
	f->pi_host = id->pi_type && !pi_act && id->ms >= 8;
}

void nvmepi_init(struct nvmepi *p, unsigned prchk, uint16_t apptag,
		 uint16_t apptag_mask)
{
	unsigned i, b;
	uint16_t c;

	p->prchk = prchk;
	p->apptag = apptag;
	p->apptag_mask = apptag_mask;
	for (i = 0; i < 256; i++) {
		c = (uint16_t)(i << 8);
		for (b = 0; b < 8; b++)
			c = (uint16_t)(c & 0x8000 ? c << 1 ^ 0x8bb7 : c << 1);
		p->crc[i] = c;
	}
}

uint16_t nvmepi_crc(const struct nvmepi *p, uint16_t c, const void *buf,
		    size_t n)
{
	const uint8_t *q = buf;

	while (n--)
		c = (uint16_t)(c << 8 ^ p->crc[(c >> 8 ^ *q++) & 0xff]);
	return c;
}

/* Protection information with a 16-bit guard, as the specification lays
 * it out (big-endian fields). */
struct nvmepi_pi {
	uint8_t guard[2];
	uint8_t apptag[2];
	uint8_t reftag[4];
};

/* Block b's protection information, and (when p checks GUARD) the guard
 * its data and the metadata before it make. */
static struct nvmepi_pi *pi_of(const struct nvmepi *p,
			       const struct nvmepi_fmt *f, const uint8_t *buf,
			       const uint8_t *md, uint64_t b, uint16_t *guard)
{
	const uint8_t *data;

	if (f->ext) {	/* the metadata follows the block's data */
		data = buf + b * f->ext;
		md = data + f->lba_size;
	} else {
		data = buf + (b << f->shift);
		md += b * f->ms;
	}
	*guard = 0;
	if (p->prchk & NVMEDEV_PRCHK_GUARD)
		*guard = nvmepi_crc(p, nvmepi_crc(p, 0, data, f->lba_size),
				    md, f->pi_at);
	return (struct nvmepi_pi *)(uintptr_t)(md + f->pi_at);
}

static void be16_put(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static uint16_t be16_get(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t be32_get(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

void nvmepi_write(const struct nvmepi *p, const struct nvmepi_fmt *f,
		  uint8_t *buf, uint8_t *md, uint64_t slba, uint64_t nlb)
{
	struct nvmepi_pi *pi;
	uint16_t guard;
	uint32_t ref;
	uint64_t b;

	for (b = 0; b < nlb; b++) {
		pi = pi_of(p, f, buf, md, b, &guard);
		if (p->prchk & NVMEDEV_PRCHK_GUARD)
			be16_put(pi->guard, guard);
		if (p->prchk & NVMEDEV_PRCHK_APP)
			be16_put(pi->apptag, p->apptag);
		if ((p->prchk & NVMEDEV_PRCHK_REF) && f->pi_type != 3) {
			ref = (uint32_t)(slba + b);	/* its low 32 bits */
			be16_put(pi->reftag, (uint16_t)(ref >> 16));
			be16_put(pi->reftag + 2, (uint16_t)ref);
		}
	}
}

int nvmepi_check(const struct nvmepi *p, const struct nvmepi_fmt *f,
		 const uint8_t *buf, const uint8_t *md, uint64_t slba,
		 uint64_t nlb, char *why, size_t len)
{
	const struct nvmepi_pi *pi;
	uint64_t b;
	const char *what = NULL;
	uint32_t want = 0, got = 0;
	uint16_t guard;

	for (b = 0; b < nlb && !what; b++) {
		pi = pi_of(p, f, buf, md, b, &guard);
		if (be16_get(pi->apptag) == 0xffff)
			continue;
		if ((p->prchk & NVMEDEV_PRCHK_GUARD) &&
		    be16_get(pi->guard) != guard) {
			what = "guard";
			want = guard;
			got = be16_get(pi->guard);
		} else if ((p->prchk & NVMEDEV_PRCHK_APP) &&
			   ((be16_get(pi->apptag) ^ p->apptag) &
			    p->apptag_mask)) {
			what = "application tag";
			want = p->apptag & p->apptag_mask;
			got = be16_get(pi->apptag) & p->apptag_mask;
		} else if ((p->prchk & NVMEDEV_PRCHK_REF) &&
			   f->pi_type != 3 &&
			   be32_get(pi->reftag) != (uint32_t)(slba + b)) {
			what = "reference tag";
			want = (uint32_t)(slba + b);
			got = be32_get(pi->reftag);
		}
	}
	if (!what)
		return 0;
	snprintf(why, len, "protection information check (pi_act=0): %s "
		 "0x%x, expected 0x%x, at LBA %llu", what, got, want,
		 (unsigned long long)(slba + b - 1));
	return -EILSEQ;
}
