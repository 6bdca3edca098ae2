#!/bin/sh
# verify=: a write job that checks what it wrote exits 0 on clean data,
# with every engine, with iodepth > 1 and O_DIRECT, over several passes,
# partial passes and a backlog; its verification reads are not counted as
# the job's reads; verify_only checks an earlier run's data without
# writing; the settings that cannot verify are usage errors.
# lane: parallel
. "$(dirname "$0")/lib.sh"

MiB=1048576

# verified N: the JSON report's first job checked N blocks, all good.
verified() {
	json_is "d['jobs'][0]['verify']['blocks_checked']" "$1"
	json_is "d['jobs'][0]['verify']['mismatches']" 0
	json_is "d['jobs'][0]['verify']['read_errors']" 0
	json_is "d['jobs'][0]['verify']['first']" '[]'
	json_is "sum(d['jobs'][0]['verify']['by_class'].values())" 0
}

# A clean write and check, sync engine: the reads are the verify's own.
run --name=v --filename=v.dat --size=2m --bs=4k --rw=write --verify=xxh3 \
	--output-format=json
expect_rc 0
expect_empty err
verified 512
json_is "d['jobs'][0]['verify']['kind']" xxh3
json_is "d['jobs'][0]['verify']['io_bytes']" $((2 * MiB))
json_is "d['jobs'][0]['verify']['stopped']" False
json_is "d['jobs'][0]['write']['ios']" 512
json_is "d['jobs'][0]['read']['ios']" 0
json_is "d['jobs'][0]['read']['clat_ns']['count']" 0
json_is "d['groups'][0]['verify']['blocks_checked']" 512
json_is "d['jobs'][0]['options']['verify']" xxh3
json_is "d['jobs'][0]['options']['do_verify']" 1

# Every block starts with the header: magic, offset, length, kind.
"$PY" - v.dat <<'EOF' || die "the blocks do not carry their headers"
import struct, sys
data = open(sys.argv[1], "rb").read()
for b in range(512):
    magic, off, length, kind = struct.unpack_from("<8sQIH", data, b * 4096)
    assert magic == b"iorigVB1" and off == b * 4096, (b, magic, off)
    assert length == 4096 and kind == 1, (b, length, kind)
EOF

# The text report says so too.
run --name=v --filename=v.dat --size=2m --bs=4k --rw=randwrite \
	--verify=crc32c
expect_rc 0
expect_in out '^  verify crc32c: 512 blocks \(2MiB\) checked in .*, 0 mismatches$'
expect_not_in out 'did not verify'

# Without do_verify nothing is read back; verify_only checks it later.
run --name=v --filename=v.dat --size=2m --bs=4k --rw=write --verify=xxh3 \
	--do_verify=0 --output-format=json
expect_rc 0
json_is "d['jobs'][0]['verify']['blocks_checked']" 0
cp v.dat before.dat
run --name=v --filename=v.dat --size=2m --bs=4k --rw=write --verify=xxh3 \
	--verify_only=1 --output-format=json
expect_rc 0
expect_empty err
verified 512
json_is "d['jobs'][0]['write']['ios']" 0
cmp -s v.dat before.dat || die "verify_only changed the file"

# verify=pattern: the pattern after each header, repeated from byte 0.
run --name=p --filename=p.dat --size=1m --bs=8k --rw=write \
	--verify=pattern --verify_pattern=0x0123456789 --output-format=json
expect_rc 0
verified 128
"$PY" - p.dat <<'EOF' || die "the pattern is not in the blocks"
import sys
data = open(sys.argv[1], "rb").read()
pat = bytes.fromhex("0123456789")
for b in range(128):
    blk = data[b * 8192:(b + 1) * 8192]
    assert blk[:8] == b"iorigVB1"
    assert all(blk[k] == pat[k % 5] for k in range(64, 8192, 97)), b
EOF
run --name=p --filename=p.dat --size=1m --bs=8k --rw=write \
	--verify=pattern --verify_pattern='"0123456789"' --verify_only=1 \
	--output-format=json
# Another pattern: intact blocks, but not of this pattern.
expect_rc 4
json_is "d['jobs'][0]['verify']['by_class']['foreign']" 128
expect_json "'not verify_pattern' in d['jobs'][0]['verify']['first'][0]['detail']"

# Several passes, random order, partial last pass, a backlog: the blocks
# of each pass are told apart, no false stale block.
run --name=v --filename=v.dat --size=2m --bs=4k --rw=randwrite \
	--verify=xxh3 --loops=3 --verify_backlog=100 --output-format=json
expect_rc 0
# 3 passes of 512 writes, each checked once by the backlog, and none
# again after the writes (fio reads each write back once: 1536 reads).
json_is "d['jobs'][0]['verify']['blocks_checked']" $((3 * 512))
json_is "d['jobs'][0]['verify']['reads']['ios']" $((3 * 512))
json_is "d['jobs'][0]['verify']['mismatches']" 0
json_is "d['jobs'][0]['write']['ios']" 1536
run --name=v --filename=v.dat --size=2m --bs=4k --rw=randwrite \
	--verify=xxh3 --io_size=1m --output-format=json
expect_rc 0
verified 256

# Write patterns whose passes leave blocks unwritten (gaps, runs, skewed
# and zoned draws, sequential shares, alignment, zones), two passes: no
# block the last pass did not write is expected to hold its data (those
# were "zeroed" mismatches), and what it wrote checks out.
for pat in "--rw=write:8k" "--rw=randwrite:4" \
    "--rw=randwrite:4 --rw_sequencer=identical" \
    "--rw=randwrite --percentage_random=50" \
    "--rw=randwrite --random_distribution=zoned:50/10:50/90" \
    "--rw=randwrite --blockalign=8k" \
    "--rw=write --zonemode=strided --zonesize=64k --zonerange=128k"; do
	rm -f p.dat
	# shellcheck disable=SC2086
	run --name=p --filename=p.dat --size=1m --bs=4k $pat \
		--verify=crc32c --loops=2 --output-format=json
	expect_rc 0
	json_is "d['jobs'][0]['verify']['mismatches']" 0
	expect_json "d['jobs'][0]['verify']['blocks_checked'] > 0" "$pat"
done

# Queued engines, iodepth > 1, O_DIRECT.
if have_odirect "$T"; then
	for e in libaio io_uring pthread; do
		run --name=q --filename=q.dat --size=4m --bs=4k \
			--rw=randwrite --verify=crc32c --ioengine=$e \
			--iodepth=16 --direct=1 --loops=2 --output-format=json
		[ "$rc" -eq 1 ] && grep -q 'setting up engine' err &&
			{ echo "note: $e cannot be set up here"; continue; }
		expect_rc 0
		verified 2048	# each loop's 1024, as fio checks them
		run --name=q --filename=q.dat --size=4m --bs=4k --rw=write \
			--verify=xxh3 --ioengine=$e --iodepth=32 --direct=1 \
			--runtime=200ms --time_based --verify_backlog=64 \
			--output-format=json
		expect_rc 0
		json_is "d['jobs'][0]['verify']['mismatches']" 0
		# 200 ms may not cover the region on a loaded machine: the
		# blocks it did not reach hold another job's data. Write it
		# whole before checking it all.
		run --name=q --filename=q.dat --size=4m --bs=4k --rw=write \
			--verify=xxh3 --ioengine=$e --iodepth=32 --direct=1 \
			--output-format=json
		expect_rc 0
		run --name=q --filename=q.dat --size=4m --bs=4k --rw=write \
			--verify=xxh3 --ioengine=$e --iodepth=8 --direct=1 \
			--verify_only=1 --output-format=json
		expect_rc 0
		verified 1024
	done
else
	echo "note: no O_DIRECT in $T; queued engines checked buffered"
	run --name=q --filename=q.dat --size=4m --bs=4k --rw=randwrite \
		--verify=crc32c --ioengine=io_uring --iodepth=16 \
		--output-format=json
	expect_rc 0
	verified 1024
fi

# Several files and clones: each clone checks its own files.
run --name=m --nrfiles=3 --size=3m --bs=4k --rw=randwrite --verify=xxh3 \
	--numjobs=2 --group_reporting --output-format=json
expect_rc 0
verified 1536
run --name=m --nrfiles=3 --size=3m --bs=4k --rw=randwrite --verify=xxh3 \
	--numjobs=2 --group_reporting --verify_only=1 --output-format=json
expect_rc 0
verified 1536

# verify_only never creates, extends or fills a file.
run --name=v --filename=missing.dat --size=1m --verify=xxh3 --verify_only=1
expect_rc 1
expect_in err "missing\.dat"
[ ! -e missing.dat ] || die "verify_only created its file"

# Settings that cannot verify: usage errors naming the option.
usage() {
	run "$@"
	expect_rc 2
	expect_empty out
}
usage --name=v --filename=v.dat --size=1m --verify=crc7
expect_in err "option 'verify': 'crc7' is not valid; expected one of: none 0 xxh3 crc32c crc32c-intel pattern md5"
# (rw=read with verify checks each read, as fio: 238-verify-read-jobs.sh)
usage --name=v --size=1m --verify=xxh3 --rw=write --ioengine=null
expect_in err "option 'verify': the null engine moves no data"
usage --name=v --filename=v.dat --size=1m --verify=pattern --rw=write
expect_in err "option 'verify': verify=pattern needs verify_pattern="
# With a checksum, verify_pattern is the blocks' data (fio's meaning).
run --name=v --filename=v.dat --size=4k --verify=xxh3 --rw=write \
	--verify_pattern=0x5a
expect_rc 0
[ "$(od -An -tx1 -j64 -N4 v.dat | tr -d ' ')" = 5a5a5a5a ] ||
	die "verify=xxh3 verify_pattern=0x5a wrote $(od -An -tx1 -j64 -N4 v.dat)"
usage --name=v --filename=v.dat --size=1m --verify=pattern --rw=write \
	--verify_pattern=0xabcg
expect_in err "option 'verify_pattern': '0xabcg': expected items"
# An odd count of hex digits is fio's too: the first byte has one digit.
run --name=v --filename=v.dat --size=4k --verify=pattern --rw=write \
	--verify_pattern=0xabc --do_verify=1
expect_rc 0
# (after the header, the pattern repeats from the block's byte 0)
[ "$(od -An -tx1 -j64 -N4 v.dat | tr -d ' ')" = 0abc0abc ] ||
	die "verify_pattern=0xabc wrote $(od -An -tx1 -j64 -N4 v.dat)"
usage --name=v --filename=v.dat --size=1m --verify=pattern --rw=write \
	--verify_pattern=plain
expect_in err "option 'verify_pattern'"
usage --name=v --filename=v.dat --size=1m --verify_only=1
expect_in err "option 'verify_only': needs verify="
usage --name=v --filename=v.dat --size=1m --verify=xxh3 --rw=write \
	--bsrange=1k-1500
expect_in err "option 'bs': the unit checked .*here 4 bytes. must be a multiple of 512"
usage --name=v --filename=v.dat --size=1m --verify=xxh3 --rw=write \
	--bs=1000
expect_in err "option 'bs'"
usage --name=v --filename=v.dat --size=1m --verify=xxh3 --verify_only=1 \
	--verify_backlog=8
expect_in err "option 'verify_backlog'"
usage --name=v --filename=v.dat --size=1m --verify=xxh3 --rw=write \
	--verify_backlog=2000000
expect_in err "option 'verify_backlog'"

# A job file names the line.
printf '[v]\nfilename=v.dat\nsize=1m\nrw=write\nverify=pattern\n' >bad.job
usage bad.job
expect_in err "bad\.job:.*option 'verify': verify=pattern needs"

# The options are in --cmdhelp.
run --cmdhelp=verify
expect_rc 0
expect_in out 'category: verify'
expect_in out 'crc32c'
exit 0
