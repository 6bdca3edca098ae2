#!/bin/sh
# ioengine=sg's syncs, verify's trims and hipri on scsi_debug's disk,
# judged by the SCSI midlayer's own tracepoint (scsi_dispatch_cmd_start:
# each command dispatched, by its opcode) and against fio 3.33 on the
# same jobs:
# - fsync=, fdatasync=, sync_file_range= send SYNCHRONIZE CACHE, as
#   many as the job reports syncs; fio 3.33 as many, but for the one
#   iorig makes after the last write (fsync=, fdatasync=);
#   end_fsync= and fsync_on_close= one at the end; on /dev/sgN queued
#   (iodepth=4) and on /dev/sdX by SG_IO alike;
# - trim_percentage= with trim_backlog=: UNMAPs, as many as the job's
#   trims, and the trimmed blocks read as zeros (trim_verify_zero); fio
#   3.33 aborts on this job (an assertion), so it has no count here;
# - hipri=1 without direct=1 runs (fio 3.33 takes it, the sg driver has
#   no polled completions): one READ per I/O, as fio;
# - rw=randtrimwrite: one UNMAP and one WRITE per block, as fio 3.33.
# Writes blocks 0-64 KiB of the disk (case 13 overwrites them anyway).
. "$(dirname "$0")/../lib.sh"
[ -x /usr/bin/fio ] || skip "no /usr/bin/fio (Debian's fio)"
sg=$(scsi_debug_sg)
disk=$(ls "/sys/class/scsi_generic/${sg#/dev/}/device/block" 2>/dev/null)
[ -n "$disk" ] || die "$sg: no sd disk beside it"
sd=/dev/$disk
tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs nodev $tr 2>/dev/null ||
	skip "no tracefs"
ev=$tr/events/scsi/scsi_dispatch_cmd_start
[ -d $ev ] || skip "no scsi_dispatch_cmd_start tracepoint"
echo 1 >$ev/enable
on_exit "echo 0 >$ev/enable"

# traced VAR PROG ARGS...: PROG's SCSI commands to the disk by opcode:
# ${VAR}_sync (SYNCHRONIZE CACHE), ${VAR}_unmap, ${VAR}_read, ${VAR}_write.
traced() {
	_v=$1
	shift
	echo >$tr/trace
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	grep -v '^#' $tr/trace >"$T/trace"
	for _o in SYNCHRONIZE_CACHE:sync UNMAP:unmap 'READ_1[06]:read' \
	    'WRITE_1[06]:write'; do
		eval "${_v}_${_o#*:}=$(grep -c "cmnd=(${_o%:*}" "$T/trace")"
	done
}

jsonv() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); \
print($1)" "$T/out"
}

w="--name=s --rw=write --bs=4k --size=64k --output-format=json"
for dev in "$sg" "$sd"; do
	for o in "--fsync=4" "--fdatasync=4 --iodepth=4" \
	    "--sync_file_range=write:4"; do
		traced a "$IORIG" --filename="$dev" --ioengine=sg $w $o \
			--allow_destructive=1
		[ "$rc" = 0 ] || die "iorig $o on $dev: $(cat "$T/err")"
		n=$(jsonv "d['jobs'][0]['sync']['ios']")
		[ "$a_sync" = "$n" ] && [ "$n" -ge 3 ] ||
			die "iorig $o on $dev: $a_sync SYNCHRONIZE CACHE," \
			    "$n syncs reported (expected the same, 3 or more)"
		[ "$a_write" = 16 ] || die "iorig $o: $a_write WRITEs, not 16"
		traced f /usr/bin/fio --filename="$dev" --ioengine=sg $w $o
		[ "$rc" = 0 ] || die "fio $o on $dev: $(cat "$T/err")"
		# fsync=/fdatasync=: iorig syncs after every N-th completed
		# write, the last too; fio 3.33 before the next write, so
		# not after the last one (the same on a regular file)
		case $o in --sync_file_range*) d=0 ;; *) d=1 ;; esac
		[ "$f_sync" = $((a_sync - d)) ] ||
			die "$o on $dev: fio 3.33 $f_sync SYNCHRONIZE CACHE," \
			    "iorig $a_sync; expected $((a_sync - d)) from fio"
		echo "ok: $dev $o: iorig $a_sync SYNCHRONIZE CACHE ($n" \
		     "syncs reported), fio 3.33 $f_sync"
	done
	for o in --end_fsync=1 --fsync_on_close=1; do
		traced a "$IORIG" --filename="$dev" --ioengine=sg $w $o \
			--allow_destructive=1
		[ "$rc" = 0 ] || die "iorig $o on $dev: $(cat "$T/err")"
		[ "$a_sync" = 1 ] ||
			die "iorig $o on $dev: $a_sync SYNCHRONIZE CACHE, not 1"
		traced f /usr/bin/fio --filename="$dev" --ioengine=sg $w $o
		[ "$rc $f_sync" = "0 1" ] || die "fio 3.33 $o on $dev: exit" \
			"$rc, $f_sync SYNCHRONIZE CACHE; expected 0, 1"
		echo "ok: $dev $o: iorig 1 SYNCHRONIZE CACHE, fio 3.33" \
		     "$f_sync"
	done
done

traced a "$IORIG" --name=t --filename="$sg" --ioengine=sg --rw=randwrite \
	--bs=4k --size=256k --verify=crc32c --trim_percentage=50 \
	--trim_backlog=8 --trim_verify_zero=1 --output-format=json \
	--allow_destructive=1
[ "$rc" = 0 ] || die "iorig trim_percentage: $(cat "$T/err")"
n=$(jsonv "d['jobs'][0]['trim']['ios']")
[ "$a_unmap" = "$n" ] && [ "$n" -gt 0 ] ||
	die "trim_percentage: $a_unmap UNMAPs, $n trims reported"
e=$(jsonv "d['jobs'][0]['verify']['mismatches'], \
d['jobs'][0]['verify']['blocks_checked'] > 0")
[ "$e" = "0 True" ] || die "trim_percentage: mismatches, checked: $e"
echo "ok: trim_percentage=50: $a_unmap UNMAPs = the $n trims reported," \
     "verified (trimmed blocks zeros)"

traced a "$IORIG" --name=h --filename="$sg" --ioengine=sg --rw=read \
	--bs=4k --size=64k --hipri=1
[ "$rc" = 0 ] || die "iorig hipri=1: $(cat "$T/err")"
traced f /usr/bin/fio --name=h --filename="$sg" --ioengine=sg --rw=read \
	--bs=4k --size=64k --hipri=1
[ "$rc" = 0 ] || die "fio hipri=1: $(cat "$T/err")"
[ "$a_read" = 16 ] && [ "$f_read" = 16 ] ||
	die "hipri=1: iorig $a_read READs, fio 3.33 $f_read; expected 16"
echo "ok: hipri=1 without direct=1: 16 READs, as fio 3.33"

tw="--name=tw --filename=$sg --ioengine=sg --rw=randtrimwrite --bs=4k \
--size=64k"
traced a "$IORIG" $tw --allow_destructive=1
[ "$rc" = 0 ] || die "iorig randtrimwrite: $(cat "$T/err")"
traced f /usr/bin/fio $tw
[ "$rc" = 0 ] || die "fio randtrimwrite: $(cat "$T/err")"
[ "$a_unmap $a_write" = "16 16" ] && [ "$f_unmap $f_write" = "16 16" ] ||
	die "randtrimwrite: iorig $a_unmap UNMAPs, $a_write WRITEs; fio" \
	    "3.33 $f_unmap, $f_write; expected 16, 16"
echo "ok: rw=randtrimwrite: 16 UNMAPs and 16 WRITEs, as fio 3.33"
