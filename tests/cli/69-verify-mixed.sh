#!/bin/sh
# Mixed rw with verify=: the reads of a randrw job check the blocks the run
# wrote before them. Bytes flipped by another process while the job runs
# (after every block was written) are found by those reads, at the blocks
# damaged and nowhere else; the same job left alone finds nothing, and
# its reads alone (do_verify=0) checked blocks.
# Paced: a signal or a check after a sleep, CPU under half its time
# alone (plain and under the sanitizers); held beside 86, 244 and the
# others moved with it, three times plain and twice sanitized.
# lane: paced
. "$(dirname "$0")/lib.sh"

have_odirect "$T" || skip "no O_DIRECT on $T"
JOB="--name=m --filename=m.dat --size=64k --bs=4k --rw=randrw
	--rwmixread=90 --direct=1 --iodepth=8 --ioengine=io_uring
	--verify=crc32c --output-format=json"

# Left alone: every check passes; the reads checked blocks during the run.
run $JOB --do_verify=0 --io_size=4m
[ $rc -ne 0 ] && grep -q io_uring err && skip "io_uring unusable: $(head -c 200 err)"
expect_rc 0
json_is "d['jobs'][0]['verify']['mismatches']" 0
expect_json "d['jobs'][0]['verify']['blocks_checked'] > 500" \
	"the reads of the run were checked"
# And with the final check of what was written (16 blocks at most).
run $JOB --io_size=1m
expect_rc 0
json_is "d['jobs'][0]['verify']['mismatches']" 0

# Damage: while the job runs (2 s), flip one byte in each of blocks 3, 7
# and 11, once all 16 blocks hold data of this run.
"$IORIG" $JOB --do_verify=0 --time_based=1 --runtime=2s >out 2>err &
pid=$!
sleep 0.7
"$PY" - m.dat <<'EOF' || die "cannot damage m.dat"
import struct, sys
d = open(sys.argv[1], "rb").read()
assert all(d[b * 4096:b * 4096 + 8] == b"iorigVB1" for b in range(16)), \
    "not every block written after 0.7 s"
with open(sys.argv[1], "r+b") as f:
    for b in (3, 7, 11):
        f.seek(b * 4096 + 1000)
        c = f.read(1)
        f.seek(b * 4096 + 1000)
        f.write(bytes([c[0] ^ 0xff]))
EOF
wait $pid
rc=$?
expect_rc 4
expect_json "d['jobs'][0]['verify']['mismatches'] >= 1"
expect_json "set(m['offset'] for m in d['jobs'][0]['verify']['first']) <= {12288, 28672, 45056}" \
	"mismatches only at the damaged blocks"
expect_json "d['jobs'][0]['verify']['by_class']['bad_checksum'] >= 1"
exit 0
