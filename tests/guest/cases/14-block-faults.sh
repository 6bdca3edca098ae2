#!/bin/sh
# Faults from the block layer in the error report and verify's classes,
# beside case 05 (dm-flakey drop_writes over written data: stale; dm-error)
# and tests/cli/51 (the FUSE fault file system), against fio 3.33:
# - dm-flakey drop_writes over a blank device: every write succeeds and
#   is lost, so each block reads back as zeros (class zeroed);
# - dm-flakey error_writes: the first write fails with EIO and the job
#   stops (write.errors 1, exit 1; fio: error 5); continue_on_error=write
#   runs to the end with every write counted as an error (1024; fio's
#   total_err the same), and verify checks none of the blocks whose
#   write failed (write_failed 1024, no mismatch);
# - ignore_error=,EIO with continue_on_error=write: the same errors,
#   counted as fio counts them;
# - a scsi_debug medium error read through the block device (libaio):
#   ENODATA (the block layer's errno for a medium error, BLK_STS_MEDIUM;
#   the sg engine names the sense itself, case 13) at the 4 KiB block
#   holding LBA 0x1234, counted in read.errors at its offset; fio stops
#   on it too (error 61).
. "$(dirname "$0")/../lib.sh"
need dmsetup dmsetup
nullb_make fb1 size=64 blocksize=4096 memory_backed=1
sectors=131072
dm_make gflt2 "0 $sectors linear $nullb 0"

table() {
	dmsetup reload gflt2 --table "$1" 2>"$T/err" &&
		dmsetup resume gflt2 2>>"$T/err" ||
		die "dmsetup reload gflt2 '$1': $(cat "$T/err")"
}
job="--name=v --filename=$dm --rw=write --bs=4k --size=4m --direct=1
	--verify=crc32c --output-format=json --allow_destructive=1"
V="d['jobs'][0]['verify']"
W="d['jobs'][0]['write']"

# fiojson VAR ARGS: fio 3.33's JSON of the job; VAR: its total_err and
# the error of its first job, "TOTAL ERR" (fio writes total_err only
# with continue_on_error: "-" without).
fiojson() {
	_v=$1
	shift
	/usr/bin/fio --output-format=json "$@" >"$T/fio.json" \
		2>"$T/fio.err"
	_r=$("$PY" -S -c 'import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index("{"):])["jobs"][0]
print(j.get("total_err", "-"), j["error"])' "$T/fio.json" 2>&1) ||
		die "fio $*: $_r: $(head -n 3 "$T/fio.json"; cat "$T/fio.err")"
	eval "$_v=\$_r"
}

table "0 $sectors flakey $nullb 0 0 1 1 drop_writes"
run $job
expect_rc 4
json_is "[$W['ios'], $V['mismatches'], $V['by_class']['zeroed']]" \
	"[1024, 1024, 1024]"
echo "ok: dm-flakey drop_writes on a blank device: 1024 writes" \
	"succeeded, 1024 blocks zeroed"

table "0 $sectors flakey $nullb 0 0 1 1 error_writes"
run $job
expect_rc 1
json_is "[$W['errors'], $W['first_error']['errno'],
	$W['first_error']['offset'], $V['mismatches']]" "[1, 5, 0, 0]"
fiojson f --name=v --filename="$dm" --rw=write --bs=4k --size=4m \
	--direct=1 --verify=crc32c
[ "$f" = "- 5" ] || die "fio on error_writes: total_err, error: $f"
echo "ok: dm-flakey error_writes: stops on the first write's EIO;" \
	"fio: error 5"

run $job --continue_on_error=write
expect_rc 1
json_is "[$W['errors'], $W['ios'], $V['write_failed'], $V['mismatches']]" \
	"[1024, 0, 1024, 0]"
fiojson f --name=v --filename="$dm" --rw=write --bs=4k --size=4m \
	--direct=1 --continue_on_error=write
[ "$f" = "1024 5" ] ||
	die "fio continue_on_error=write: total_err, error: $f"
echo "ok: continue_on_error=write: 1024 write errors, no block verified;" \
	"fio: total_err 1024"

run $job --continue_on_error=write --ignore_error=,EIO
expect_rc 1
json_is "$W['errors']" 1024
fiojson f --name=v --filename="$dm" --rw=write --bs=4k --size=4m \
	--direct=1 --continue_on_error=write --ignore_error=,EIO
[ "$f" = "1024 5" ] || die "fio ignore_error=,EIO: total_err, error: $f"
echo "ok: ignore_error=,EIO: 1024 write errors; fio: total_err 1024"

# A medium error through the block layer.
need sg_readcap sg3-utils
sg=$(scsi_debug_sg)
disk=$(ls "/sys/class/scsi_generic/${sg#/dev/}/device/block")
sd=/dev/$disk
on_exit "echo 0 >/sys/bus/pseudo/drivers/scsi_debug/opts"
echo 2 >/sys/bus/pseudo/drivers/scsi_debug/opts || die "scsi_debug opts"
run --name=m --filename="$sd" --ioengine=libaio --direct=1 --rw=read \
	--bs=4k --size=4m --output-format=json
expect_rc 1
R="d['jobs'][0]['read']"
json_is "[$R['errors'], $R['first_error']['errno'],
	$R['first_error']['offset']]" "[1, 61, $((4660 * 512 / 4096 * 4096))]"
fiojson f --name=m --filename="$sd" --ioengine=libaio --direct=1 \
	--rw=read --bs=4k --size=4m
[ "$f" = "- 61" ] || die "fio on the medium error: total_err, error: $f"
echo 0 >/sys/bus/pseudo/drivers/scsi_debug/opts
echo "ok: medium error at LBA 0x1234 through $sd: ENODATA at offset" \
	"$((4660 * 512 / 4096 * 4096)); fio: error 61"
