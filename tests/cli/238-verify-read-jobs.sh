#!/bin/sh
# verify= on a job that only reads (rw=read, randread): as in fio, each
# read is checked as it completes against the blocks an earlier writing
# job left (fio 3.33's t0002 runs such a job after a pre-job that writes).
# Outside truth: Debian's fio on the same jobs, each tool on its own
# file (their block formats differ): whether the reads pass, and, after
# one byte of block 10 is flipped on purpose in both files, fio's error
# (EILSEQ, exit 1) at that offset where iorig reports the mismatch there
# (exit 4). The reads are the job's reads: verify.reads stays empty.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null 2>&1 || skip "no fio to compare with"
mkdir -p bin
ln -s "$IORIG" bin/fio

# pair WRITE-OPTS -- READ-OPTS: writes f.dat with fio and i.dat with iorig
# (verify=md5, do_verify=0), then reads each with the read options
# (verify=md5); fio's exit code in $frc, its stderr in fio.err, iorig's
# JSON report in $T/out, its code in $rc.
pair() {
	_w=
	while [ "$1" != -- ]; do _w="$_w $1"; shift; done
	shift
	rm -f f.dat i.dat
	fio --name=w --filename=f.dat --size=2m --rw=write --verify=md5 \
		--do_verify=0 $_w >/dev/null 2>fio.err ||
		die "fio's write job failed: $(cat fio.err)"
	fio --name=r --filename=f.dat --size=2m --verify=md5 "$@" \
		>/dev/null 2>fio.err
	frc=$?
	run --name=w --filename=i.dat --size=2m --rw=write --verify=md5 \
		--do_verify=0 $_w
	expect_rc 0
	run --name=r --filename=i.dat --size=2m --verify=md5 "$@" \
		--output-format=json
}
V="d['jobs'][0]['verify']"

# Blocks of the size read: both pass, every block checked once by the
# job's own reads; do_verify (1 by default) has nothing to read back.
pair --bs=4k -- --bs=4k --rw=randread
[ "$frc" = 0 ] || die "fio's premise: the read job passes ($(cat fio.err))"
expect_rc 0
json_is "($V['blocks_checked'], $V['mismatches'])" "(512, 0)"
json_is "d['jobs'][0]['read']['ios']" 512
json_is "($V['reads']['ios'], $V['reads']['phase_ns'])" "(0, 0)"
# Another seed (another job's data): fio takes the header's; so does iorig.
pair --bs=4k -- --bs=4k --rw=read --randseed=7
[ "$frc" = 0 ] || die "fio's premise: another seed passes ($(cat fio.err))"
expect_rc 0
json_is "$V['mismatches']" 0

# t0002's shape: bssplit writes of 512 B and 1 MiB, read back in other
# sizes (each 512-byte unit has its own header, fio's verify_interval
# being the smallest size): both pass.
pair --bssplit=512/50:1M/50 -- --bssplit=512/50:1M/50 --rw=read
[ "$frc" = 0 ] || die "fio's premise: bssplit reads pass ($(cat fio.err))"
expect_rc 0
json_is "($V['blocks_checked'], $V['mismatches'])" "(4096, 0)"
pair --bssplit=512/50:1M/50 -- --bsrange=512:1M --rw=randread
[ "$frc" = 0 ] || die "fio's premise: bsrange reads pass ($(cat fio.err))"
expect_rc 0
json_is "$V['mismatches']" 0
# Reads larger than the blocks written: fio finds a header of the wrong
# length, iorig a block written with another size.
pair --bs=4k -- --bs=8k --rw=read
[ "$frc" = 1 ] || die "fio read 8k blocks of 4k writes: exit $frc"
grep -q "bad header length 4096, wanted 8192" fio.err ||
	die "fio's error: $(cat fio.err)"
expect_rc 4
json_is "$V['first'][0]['offset']" 0
json_is "$V['first'][0]['class']" foreign
expect_json "'block size of 4096, checked with 8192' in $V['first'][0]['detail']"

# One byte of block 10 flipped in both files.
pair --bs=4k -- --bs=4k --rw=read
expect_rc 0
flipbyte f.dat $((10 * 4096 + 1000))
flipbyte i.dat $((10 * 4096 + 1000))
fio --name=r --filename=f.dat --size=2m --verify=md5 --bs=4k --rw=randread \
	--output-format=json --output=fio.json >/dev/null 2>fio.err
[ $? = 1 ] || die "fio did not fail on the flipped byte"
grep -q "md5: verify failed at file f.dat offset 40960," fio.err ||
	die "fio's error: $(cat fio.err)"
[ "$(jsonf fio.json "d['jobs'][0]['error']")" = 84 ] ||
	die "fio's job error is not EILSEQ (84)"
run --name=r --filename=i.dat --size=2m --verify=md5 --bs=4k --rw=randread \
	--output-format=json
expect_rc 4
expect_in err "^iorig: job 'r': 1 of 512 blocks did not verify$"
json_is "($V['blocks_checked'], $V['mismatches'], $V['stopped'])" \
	"(512, 1, False)"
json_is "[(m['offset'], m['class']) for m in $V['first']]" \
	"[(40960, 'bad_checksum')]"
json_is "$V['first'][0]['found']['offset']" 40960
json_is "$V['first'][0]['expected']['generation']" None
# The text report.
run --name=r --filename=i.dat --size=2m --verify=md5 --bs=4k --rw=read
expect_rc 4
expect_in out "^  verify md5: 512 blocks \\(2MiB\\) checked by the job's reads, 1 mismatch$"
expect_in out '^    bad_checksum at offset 40960 of i\.dat: sector 1 '
# verify_fatal: the job stops at it (fio stops at its error either way).
run --name=r --filename=i.dat --size=2m --verify=md5 --bs=4k --rw=read \
	--verify_fatal=1 --output-format=json
expect_rc 4
json_is "($V['blocks_checked'], $V['mismatches'], $V['stopped'])" \
	"(11, 1, True)"
expect_json "d['jobs'][0]['read']['io_bytes'] < 2097152" "the job stopped"

# As fio, in fio's JSON: the reads are the job's reads, 2 MiB as fio's.
rm -f f.dat
fio --name=w --filename=f.dat --size=2m --rw=write --verify=md5 \
	--do_verify=0 --name=r --stonewall --filename=f.dat --size=2m \
	--rw=read --verify=md5 --output-format=json --output=fio.json \
	>/dev/null 2>fio.err || die "fio: $(cat fio.err)"
rm -f f.dat
bin/fio --name=w --filename=f.dat --size=2m --rw=write --verify=md5 \
	--do_verify=0 --name=r --stonewall --filename=f.dat --size=2m \
	--rw=read --verify=md5 --output-format=json --output=iorig.json \
	>"$T/out" 2>"$T/err" || die "iorig as fio: exit $?"
want=$(jsonf fio.json "[(j['read']['io_bytes'], j['error']) for j in d['jobs']]")
got=$(jsonf iorig.json "[(j['read']['io_bytes'], j['error']) for j in d['jobs']]")
[ "$want" = "[(0, 0), (2097152, 0)]" ] || die "fio's premise: $want"
[ "$got" = "$want" ] || die "iorig as fio: $got, fio $want"

# A writer in the same group as a reader that checks the same bytes: the
# reads would race the writes (refused, as for verify_only).
expect_refused "job 'w' writes bytes 0-2097151 of i.dat while job 'r' checks them" \
	--name=w --filename=i.dat --size=2m --rw=write --verify=md5 \
	--name=r --filename=i.dat --size=2m --rw=read --verify=md5
exit 0
