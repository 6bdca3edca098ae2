#!/bin/sh
# How the buffer options meet the rest: verify= writes its own format
# (warned, and verification passes); refill_buffers and scramble_buffers
# leave the default data distinct and incompressible; buffer_compress_chunk
# alone warns; compression with a pattern (as OpenZFS's perf job files
# ask) puts the pattern in the fixed part of each chunk.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve
. "$top/tests/cli/buffers.sh"

# verify=crc32c with buffer_compress_percentage: warned, the blocks are
# the verify format (incompressible), and they check out.
run --name=v --filename=f --rw=write --bs=4k --size=4m --verify=crc32c \
	--buffer_compress_percentage=50 --output-format=json
expect_rc 0
expect_in err "buffer_compress_percentage has no effect with verify=crc32c"
expect_json 'any(w["code"] == "buffers_verify" for w in d["warnings"])'
set -- $(measure f)
near "$1" 100 2 || die "verify=crc32c: blocks compress to $1%"
run --name=v --filename=f --rw=read --bs=4k --size=4m --verify=crc32c \
	--verify_only=1 --output-format=json
expect_rc 0

# refill_buffers (bare, as fio job files write it) and scramble_buffers=1
# change nothing: every block distinct and incompressible.
cat >job <<'J'
[r]
filename=g
rw=write
bs=4k
size=4m
refill_buffers
scramble_buffers=1
J
run job
expect_rc 0
set -- $(measure g)
near "$2" 100 1 || die "refill_buffers: the file compresses to $2%"
[ "$3" = 0.00 ] || die "refill_buffers: $3% duplicate blocks"

# buffer_compress_chunk without buffer_compress_percentage warns.
run --parse-only --name=c --rw=write --size=1m --buffer_compress_chunk=4k
expect_rc 0
expect_in err "buffer_compress_chunk has no effect without"

# OpenZFS's perf jobs: compression 66 with pattern 0xdeadbeef, 8k
# chunks, 128k writes: each chunk 1/3 random then the pattern.
rm -f f
run --name=z --filename=f --rw=write --bs=128k --size=8m \
	--buffer_compress_percentage=66 --buffer_pattern=0xdeadbeef \
	--buffer_compress_chunk=8k
expect_rc 0
"$PY" - f <<'PY' || die "compression with a pattern: wrong fixed bytes"
import sys
d = open(sys.argv[1], 'rb').read()
rnd = 8192 * 34 // 100
fixed = (bytes.fromhex('deadbeef') * 2048)[:8192 - rnd]
for off in range(0, len(d), 8192):
    assert d[off + rnd:off + 8192] == fixed, off
    assert d[off:off + rnd].count(0xde) < rnd // 16, off
PY
set -- $(measure f)
near "$1" 34 2 || die "P=66 with a pattern: compresses to $1%, not ~34%"
echo "ok"
