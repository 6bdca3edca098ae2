#!/bin/sh
# Every verify= checksum is the digest its name says, of the bytes the
# manual says: recomputed here from the written file by Python's hashlib
# and zlib, a bit-by-bit CRC-64 (ECMA-182, as liblzma and .xz) and XXH32
# from libxxhash through ctypes, for a header of the documented size; and
# a job file's verify=crc32c-intel and verify=0 are fio's.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

for k in md5 crc64 crc32 sha1 sha256 sha512 sha3-224 sha3-256 sha3-384 \
		sha3-512 xxhash meta crc32c xxh3; do
	run --name=d --filename=d.dat --size=64k --bs=4k --rw=write \
		--verify=$k --output-format=json
	expect_rc 0
	json_is "d['jobs'][0]['verify']['mismatches']" 0
	json_is "d['jobs'][0]['verify']['blocks_checked']" 16
	"$PY" - d.dat $k <<'EOF' || die "verify=$k: the digest is not $k's"
import ctypes, ctypes.util, hashlib, struct, sys, zlib
path, kind = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
kinds = {"xxh3": 1, "crc32c": 2, "md5": 4, "crc64": 5, "crc32": 6,
         "sha1": 7, "sha256": 8, "sha512": 9, "sha3-224": 10,
         "sha3-256": 11, "sha3-384": 12, "sha3-512": 13, "xxhash": 14,
         "meta": 15}
hsize = {"md5": 72, "sha1": 80, "sha256": 88, "sha512": 120,
         "sha3-224": 88, "sha3-256": 88, "sha3-384": 104, "sha3-512": 120}

def crc64_xz(buf):
    crc = 0xffffffffffffffff
    for byte in buf:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xC96C5795D7870F42 if crc & 1 else 0)
    return crc ^ 0xffffffffffffffff
assert crc64_xz(b"123456789") == 0x995DC9BBDF1939FA

def crc32c(buf):
    crc = 0xffffffff
    for byte in buf:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xffffffff
assert crc32c(b"123456789") == 0xE3069283

lib = ctypes.CDLL(ctypes.util.find_library("xxhash") or "libxxhash.so.0")
lib.XXH32.restype = ctypes.c_uint32
lib.XXH32.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32]
lib.XXH3_64bits.restype = ctypes.c_uint64
lib.XXH3_64bits.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
lib.XXH3_64bits_withSeed.restype = ctypes.c_uint64
lib.XXH3_64bits_withSeed.argtypes = [ctypes.c_char_p, ctypes.c_size_t,
                                     ctypes.c_uint64]
assert lib.XXH32(b"", 0, 0) == 0x02CC5D05   # the published test vector

hs = hsize.get(kind, 64)
for b in (0, 7, 15):
    blk = data[b * 4096:(b + 1) * 4096]
    magic, off, ln, kd = struct.unpack_from("<QQIH", blk, 0)
    assert magic == 0x3142566769726f69 and off == b * 4096 and ln == 4096
    assert kd == kinds[kind], (kd, kind)
    head, body = blk[:56], blk[hs:]
    stored = blk[56:64] + blk[64:hs]
    if kind in hsize:
        h = hashlib.new(kind.replace("-", "_"))
        h.update(head + body)
        want = h.digest()
        want += bytes(len(stored) - len(want))
    else:
        v = {"crc32": lambda: zlib.crc32(body, zlib.crc32(head)),
             "crc64": lambda: crc64_xz(head + body),
             "crc32c": lambda: crc32c(head + body),
             "meta": lambda: crc32c(head),
             "xxhash": lambda: lib.XXH32(body, len(body),
                                         lib.XXH32(head, 56, 1)),
             "xxh3": lambda: lib.XXH3_64bits_withSeed(
                 body, len(body), lib.XXH3_64bits(head, 56))}[kind]()
        want = struct.pack("<Q", v)
    assert stored == want, (kind, b, stored.hex(), want.hex())
    # The data after the header differs from block to block (generated).
    assert body != data[(b + 1) * 4096 + hs:(b + 2) * 4096] or b == 15
EOF
done

# fio's spellings: crc32c-intel is crc32c, 0 is none.
run --name=d --filename=d.dat --size=64k --bs=4k --rw=write \
	--verify=crc32c-intel --output-format=json
expect_rc 0
json_is "d['jobs'][0]['verify']['kind']" crc32c
run --name=d --filename=d.dat --size=64k --bs=4k --rw=write --verify=0 \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0].get('verify')" None
exit 0
