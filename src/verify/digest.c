// SPDX-License-Identifier: MIT
/*
 * The checksums of verify=: which bytes of a block each covers, how wide
 * it is and where the header keeps it. Every digest comes from a library
 * that is maintained elsewhere: OpenSSL's libcrypto (md5, sha*), zlib
 * (crc32), liblzma (crc64), libxxhash (xxh3, xxhash); CRC-32C is block.c's
 * (the SSE 4.2 instruction or a table).
 *
 * crc64 is liblzma's CRC-64 (the ECMA-182 polynomial, as .xz files use
 * it). fio's crc64 uses another 64-bit polynomial (Jones); neither zlib nor
 * libcrypto has a CRC-64, and since iorig's block format is its own (fio
 * cannot check iorig's blocks nor iorig fio's), the polynomial is not seen
 * outside: what verify=crc64 means, a 64-bit CRC of the block, is kept.
 * xxhash is XXH32 seeded with 1, as fio's.
 */
#include <errno.h>
#include <string.h>

#include <lzma.h>
#include <openssl/evp.h>
#include <xxhash.h>
#include <zlib.h>

#include "verify.h"
#include "verify_int.h"

#define CSUM_OFF	offsetof(struct verify_hdr, csum)

/* libcrypto's name of each EVP digest kind, and its width in bytes. */
static const struct {
	const char *evp;
	unsigned len;
} digests[VERIFY_KIND_NR] = {
	[VERIFY_XXH3] = { NULL, 8 },
	[VERIFY_CRC32C] = { NULL, 4 },
	[VERIFY_PATTERN] = { NULL, 4 },
	[VERIFY_MD5] = { "MD5", 16 },
	[VERIFY_CRC64] = { NULL, 8 },
	[VERIFY_CRC32] = { NULL, 4 },
	[VERIFY_SHA1] = { "SHA1", 20 },
	[VERIFY_SHA256] = { "SHA256", 32 },
	[VERIFY_SHA512] = { "SHA512", 64 },
	[VERIFY_SHA3_224] = { "SHA3-224", 28 },
	[VERIFY_SHA3_256] = { "SHA3-256", 32 },
	[VERIFY_SHA3_384] = { "SHA3-384", 48 },
	[VERIFY_SHA3_512] = { "SHA3-512", 64 },
	[VERIFY_XXHASH] = { NULL, 4 },
	[VERIFY_META] = { NULL, 4 },
};

unsigned verify_digest_len(int kind)
{
	return kind > VERIFY_NONE && kind < VERIFY_KIND_NR ?
	       digests[kind].len : 0;
}

unsigned verify_hdr_size(int kind)
{
	unsigned len = verify_digest_len(kind);

	/* The first 8 bytes in csum, the rest after the header. */
	return VERIFY_HDR_SIZE + (len > 8 ? (len - 8 + 7) / 8 * 8 : 0);
}

int verify_fmt_init(struct verify_fmt *f, int kind, bool allow_hw)
{
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->hdr_size = verify_hdr_size(kind);
	verify_crc_init(&f->crc, allow_hw);
	if (kind <= VERIFY_NONE || kind >= VERIFY_KIND_NR)
		return -EINVAL;
	if (!digests[kind].evp)
		return 0;
	f->md = EVP_get_digestbyname(digests[kind].evp);
	f->md_ctx = EVP_MD_CTX_new();
	if (!f->md || !f->md_ctx) {
		verify_fmt_exit(f);
		return f->md ? -ENOMEM : -ENOSYS;
	}
	return 0;
}

void verify_fmt_exit(struct verify_fmt *f)
{
	EVP_MD_CTX_free(f->md_ctx);
	f->md_ctx = NULL;
	f->md = NULL;
}

/*
 * The digest of the block in out (verify_digest_len bytes, the rest of
 * VERIFY_DIGEST_MAX zero): over the header before csum and the data after
 * the header (verify=meta: the header only). Narrow checksums are a
 * host-order uint64_t in out's first 8 bytes, as the header keeps them.
 */
static void digest(const struct verify_fmt *f, const uint8_t *p, uint32_t len,
		   uint8_t *out)
{
	const uint8_t *d = p + f->hdr_size;
	size_t dl = len - f->hdr_size;
	uint64_t v = 0;
	unsigned n;

	memset(out, 0, VERIFY_DIGEST_MAX);
	switch (f->kind) {
	case VERIFY_XXH3:
		v = XXH3_64bits_withSeed(d, dl, XXH3_64bits(p, CSUM_OFF));
		break;
	case VERIFY_CRC32C:
	case VERIFY_PATTERN:
		v = ~verify_crc_update(&f->crc, verify_crc_update(&f->crc, ~0u,
								 p, CSUM_OFF),
				       d, dl);
		break;
	case VERIFY_META:
		v = verify_crc32c(&f->crc, p, CSUM_OFF);
		break;
	case VERIFY_CRC32:
		v = crc32(crc32(0, p, CSUM_OFF), d, (uInt)dl);
		break;
	case VERIFY_CRC64:
		v = lzma_crc64(d, dl, lzma_crc64(p, CSUM_OFF, 0));
		break;
	case VERIFY_XXHASH:
		v = XXH32(d, dl, XXH32(p, CSUM_OFF, 1));
		break;
	default:
		EVP_DigestInit_ex(f->md_ctx, f->md, NULL);
		EVP_DigestUpdate(f->md_ctx, p, CSUM_OFF);
		EVP_DigestUpdate(f->md_ctx, d, dl);
		EVP_DigestFinal_ex(f->md_ctx, out, &n);
		return;
	}
	memcpy(out, &v, sizeof(v));
}

void verify_csum_store(const struct verify_fmt *f, void *buf, uint32_t len)
{
	uint8_t d[VERIFY_DIGEST_MAX], *p = buf;

	digest(f, p, len, d);
	memcpy(p + CSUM_OFF, d, 8);
	if (f->hdr_size > VERIFY_HDR_SIZE)
		memcpy(p + VERIFY_HDR_SIZE, d + 8,
		       f->hdr_size - VERIFY_HDR_SIZE);
}

bool verify_csum_ok(const struct verify_fmt *f, const void *buf, uint32_t len)
{
	uint8_t d[VERIFY_DIGEST_MAX];
	const uint8_t *p = buf;

	digest(f, p, len, d);
	return !memcmp(p + CSUM_OFF, d, 8) &&
	       (f->hdr_size == VERIFY_HDR_SIZE ||
		!memcmp(p + VERIFY_HDR_SIZE, d + 8,
			f->hdr_size - VERIFY_HDR_SIZE));
}
