#!/bin/sh
# Faults from the block layer reach iorig: over a memory-backed null_blk,
# a dm-linear device verifies clean (the control), dm-flakey with
# drop_writes loses every write while reporting success, so the verify
# phase finds each block stale (the control run's data: lost writes; exit
# status 4; Debian's fio fails the same job too), and dm-error fails the
# first write with EIO (exit 1, the job's error names it), once
# allow_destructive=1 lets a job write a device whose signatures cannot be
# read (without it the guard refuses, exit 2).
. "$(dirname "$0")/../lib.sh"
need dmsetup dmsetup
nullb_make fb0 size=64 blocksize=4096 memory_backed=1
sectors=131072
dm_make gflt "0 $sectors linear $nullb 0"

# table TABLE: gflt becomes TABLE.
table() {
	dmsetup reload gflt --table "$1" 2>"$T/err" &&
		dmsetup resume gflt 2>>"$T/err" ||
		die "dmsetup reload gflt '$1': $(cat "$T/err")"
}
job="--name=v --filename=$dm --rw=write --bs=4k --size=4m --direct=1
	--verify=crc32c --output-format=json"

run $job
expect_rc 0
json_is "[d['jobs'][0]['verify'][k] for k in ('blocks_checked',
	'mismatches')]" \
	"[1024, 0]"
echo "ok: dm-linear: 1024 blocks written and verified"

# Always down (up 0 s, down 1 s), dropping writes.
table "0 $sectors flakey $nullb 0 0 1 1 drop_writes"
run $job
expect_rc 4
json_is "[d['jobs'][0]['write']['ios'], d['jobs'][0]['verify']['mismatches'],
	d['jobs'][0]['verify']['by_class']['stale']]" \
	"[1024, 1024, 1024]"
echo "ok: dm-flakey drop_writes: 1024 writes succeeded, 1024 blocks stale"
/usr/bin/fio --name=v --filename="$dm" --rw=write --bs=4k --size=4m \
	--direct=1 --verify=crc32c >"$T/fio.out" 2>&1 &&
	die "fio verified a device that dropped every write"
grep -q 'verify: bad magic header' "$T/fio.out" ||
	die "fio failed otherwise: $(tail -n 5 "$T/fio.out")"
echo "ok: fio fails the same job (bad magic header)"

table "0 $sectors error"
expect_refused 'its signatures cannot be read' $job
run $job --allow_destructive=1
expect_rc 1
json_is "(d['jobs'][0]['error'] or {}).get('errno')" 5
json_is "[d['jobs'][0]['verify'][k] for k in ('blocks_checked',
	'mismatches')]" \
	"[0, 0]"
echo "ok: dm-error: refused by the guard, then the job stops on EIO:" \
	"$(json "d['jobs'][0]['error']['message']")"
