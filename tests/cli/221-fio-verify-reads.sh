#!/bin/sh
# Verification reads in fio's layouts: fio issues them as reads and counts
# them in its read figures (fio 3.33's t0005 and t0008: "bytes read
# mismatch"; rw=write, verify=crc32c, size=4m reads 4 MiB in fio, 0 in
# iorig's fio-json). iorig's own JSON keeps them out of read and gives
# them in verify.reads; the fio layouts (fio-json, json+, terse) add them.
# Each write is read back once, as in fio: the check after the writes
# leaves out what verify_backlog checked. Outside truth: Debian's fio on
# the same jobs (bytes, I/Os, latency samples).
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null 2>&1 || skip "no fio to compare with"
mkdir -p bin
ln -s "$IORIG" bin/fio

# figs FILE: read bytes, read I/Os, write bytes (but of a mixed job,
# drawn at random: $MIXED set), whether every read has a clat sample.
figs() {
	jsonf "$1" "(d['jobs'][0]['read']['io_bytes'], d['jobs'][0]['read']['total_ios'], ${MIXED:+0 and }d['jobs'][0]['write']['io_bytes'], d['jobs'][0]['read']['clat_ns']['N'] == d['jobs'][0]['read']['total_ios'])"
}
# both ARGS...: the job by fio and by iorig invoked as fio (each on its
# own fresh file), the same figures.
both() {
	rm -f f.dat
	fio --output-format=json --output=fio.json --filename=f.dat "$@" \
		>/dev/null 2>fio.err || die "fio failed on $*: $(cat fio.err)"
	rm -f f.dat
	bin/fio --output-format=json --output=iorig.json --filename=f.dat \
		"$@" >"$T/out" 2>"$T/err" || die "iorig as fio: exit $? on $*"
	want=$(figs fio.json)
	got=$(figs iorig.json)
	[ "$want" = "$got" ] ||
		die "$*: fio (read bytes, ios, write bytes, N ok) $want, iorig $got"
}

both --name=w --rw=write --verify=crc32c --size=4m
[ "$(jsonf iorig.json "d['jobs'][0]['read']['io_bytes']")" = 4194304 ] ||
	die "fio's premise: rw=write with verify reads 4 MiB"
# t0005: a backlog, then the check after the writes: each write once
both --name=b --rw=write --bs=4k --verify=md5 --verify_backlog=32 \
	--size=8m
[ "$(jsonf iorig.json "d['jobs'][0]['read']['io_kbytes']")" = 8192 ] ||
	die "verify_backlog: not each write read back once"
# t0008: mixed, a backlog of 1: the job's reads and the writes read back
MIXED=1
both --name=m --rw=readwrite --bs=4k --verify=crc32c --verify_backlog=1 \
	--size=8m
MIXED=
[ "$(jsonf iorig.json "d['jobs'][0]['read']['io_kbytes']")" = 8192 ] ||
	die "t0008's job: reads and read-back writes are not the 8 MiB"
both --name=r --rw=randwrite --bs=4k --verify=crc32c --loops=3 \
	--verify_backlog=100 --size=2m

# iorig's own JSON: the reads apart, in verify.reads; fio-json adds them.
rm -f f.dat
run --name=w --filename=f.dat --rw=write --verify=crc32c --size=4m \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['ios']" 0
json_is "(d['jobs'][0]['verify']['reads']['ios'], d['jobs'][0]['verify']['reads']['io_bytes'])" "(1024, 4194304)"
json_is "d['jobs'][0]['verify']['reads']['lat_ns']['count']" 1024
expect_json "d['jobs'][0]['verify']['reads']['phase_ns'] > 0"

# terse (v3): the read KiB field as fio's, for the same job.
rm -f f.dat
fio --minimal --name=w --filename=f.dat --rw=write --verify=crc32c \
	--size=4m >fio.terse 2>/dev/null || die "fio --minimal failed"
rm -f f.dat
bin/fio --minimal --name=w --filename=f.dat --rw=write --verify=crc32c \
	--size=4m >iorig.terse 2>"$T/err" || die "iorig --minimal failed"
want=$(cut -d';' -f6 fio.terse)
got=$(cut -d';' -f6 iorig.terse)
[ "$want" = 4096 ] || die "fio's terse read KiB: $want, the premise"
[ "$got" = "$want" ] || die "terse read KiB: $got, fio's $want"

# Merged clones: each clone's verification reads counted once.
rm -f f.dat
run --name=g --filename=f.dat --rw=write --verify=crc32c --size=1m \
	--numjobs=2 --offset_increment=1m --group_reporting=1 \
	--output-format=fio-json
expect_rc 0
json_is "d['jobs'][0]['read']['io_bytes']" 2097152
exit 0
