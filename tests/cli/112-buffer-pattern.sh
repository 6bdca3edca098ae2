#!/bin/sh
# zero_buffers, buffer_pattern and scramble_buffers: the bytes written,
# compared with what the options say (and with fio's file byte for byte),
# also in a job that reads into the same buffers between writes.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve
. "$top/tests/cli/buffers.sh"

# zero_buffers: the file is zeros.
run --name=z --filename=f --rw=write --bs=4k --size=1m --zero_buffers
expect_rc 0
head -c 1048576 /dev/zero | cmp -s - f || die "zero_buffers: not all zeros"

# buffer_pattern: the items' bytes, repeated from each write's start.
# 0xdeadface "abcd" -12 'FILE' = de ad fa ce 61 62 63 64 f4 ff ff ff 5a 5a
printf 'ZZ' >pat
check_pattern() {
	rm -f f
	run --name=p --filename=f --rw=write --bs="$2" --size=256k \
		--buffer_pattern="$1"
	expect_rc 0
	"$PY" - f "$2" "$3" <<'PY' || die "buffer_pattern=$1 bs=$2: wrong bytes"
import sys
d, bs, pat = open(sys.argv[1], 'rb').read(), int(sys.argv[2]), bytes.fromhex(sys.argv[3])
one = (pat * (bs // len(pat) + 1))[:bs]
assert len(d) == 262144 and d == one * (len(d) // bs), d[:32].hex()
PY
}
check_pattern '0xdeadbeef' 4096 deadbeef
check_pattern '0xdeadface"abcd"-12'"'pat'" 4096 deadface61626364f4ffffff5a5a
check_pattern '66' 512 42
check_pattern '0xFF0X1' 4096 ff01
check_pattern '"iorig"' 1024 696f726967

# A job file's value keeps its quotes, as fio reads it.
cat >job <<'J'
[p]
filename=f
rw=write
bs=4k
size=64k
buffer_pattern="ab"0x00
J
rm -f f
run job
expect_rc 0
"$PY" -c 'import sys; d = open("f", "rb").read(); sys.exit(d != (b"ab\0" * 1366)[:4096] * 16)' ||
	die "buffer_pattern from a job file: wrong bytes"

# Same bytes as fio's for the same job.
if [ $have_fio = 1 ]; then
	rm -f f g
	run --name=p --filename=f --rw=write --bs=4k --size=256k \
		--buffer_pattern='0xdeadface"abcd"-12'
	expect_rc 0
	fio --name=p --filename=g --rw=write --bs=4k --size=256k \
		--buffer_pattern='0xdeadface"abcd"-12' >/dev/null 2>&1 ||
		die "fio failed on the same job"
	cmp -s f g || die "buffer_pattern: iorig's file differs from fio's"
fi

# scramble_buffers=1 with zero_buffers: each 512-byte sector starts with
# its byte offset; no two 4 KiB blocks alike; compresses almost as zeros.
rm -f f
run --name=s --filename=f --rw=write --bs=8k --size=4m --zero_buffers \
	--scramble_buffers=1
expect_rc 0
"$PY" - f <<'PY' || die "scramble_buffers=1: sector stamps are wrong"
import sys, struct
d = open(sys.argv[1], 'rb').read()
for off in range(0, len(d), 512):
    assert struct.unpack_from('<Q', d, off)[0] == off, off
    assert d[off + 16:off + 512] == bytes(496), off
PY
set -- $(measure f)
[ "$3" = 0.00 ] || die "scramble_buffers=1: $3% duplicate blocks"
near "$1" 0 5 || die "scramble_buffers=1: compresses to $1%"

# Reads between writes leave the written bytes alone: a file whose every
# 4 KiB block holds its own number, then randrw with zero_buffers; each
# block afterwards is either its own (read) or zeros (written), never
# another block's bytes that a read brought into a buffer.
"$PY" -c '
import struct, sys
with open("m", "wb") as f:
    for i in range(1024):
        f.write(struct.pack("<Q", i + 1) * 512)'
run --name=m --filename=m --rw=randrw --bs=4k --size=4m --zero_buffers \
	--ioengine=libaio --iodepth=8 --direct=1 --output-format=json
expect_rc 0
writes=$(json 'd["jobs"][0]["write"]["ios"]')
"$PY" - m "$writes" <<'PY' || die "zero_buffers with reads: stale bytes written"
import struct, sys
d, writes = open(sys.argv[1], 'rb').read(), int(sys.argv[2])
zero = 0
for i in range(1024):
    b = d[i * 4096:(i + 1) * 4096]
    if b == bytes(4096):
        zero += 1
    else:
        assert b == struct.pack("<Q", i + 1) * 512, "block %d holds %r" % (i, b[:8])
assert zero == writes and 0 < writes < 1024, (zero, writes)
PY
echo "ok"
