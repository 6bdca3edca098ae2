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
trace_event scsi/scsi_dispatch_cmd_start
# traced VAR PROG ARGS...: PROG's SCSI commands to the disk by opcode:
# ${VAR}_sync (SYNCHRONIZE CACHE), ${VAR}_unmap, ${VAR}_read, ${VAR}_write.
ops='cmnd=(SYNCHRONIZE_CACHE:sync cmnd=(UNMAP:unmap cmnd=(READ_1[06]:read
	cmnd=(WRITE_1[06]:write'
traced() {
	_tv=$1
	shift
	trace_count "$_tv" "$ops" "$@"
}

# One run of each tool per device: a stonewalled job per sync option,
# each job's commands those after its marker (trace_jobs).
ifs=$IFS
syncs="--fsync=4 --fdatasync=4,--iodepth=4 --sync_file_range=write:4
	--end_fsync=1 --fsync_on_close=1"
for dev in "$sg" "$sd"; do
	set -- --exec_prerun="$trace_mark" --filename="$dev" --ioengine=sg \
		--rw=write --bs=4k --size=64k --output-format=json
	k=1
	for o in $syncs; do
		IFS=,	# "A,B": two options of one job
		set -- "$@" --name=s$k --stonewall $o
		IFS=$ifs
		k=$((k + 1))
	done
	trace_jobs "$ops" "$IORIG" --allow_destructive=1 "$@"
	[ "$rc" = 0 ] || die "iorig on $dev: $(cat "$T/err")"
	[ "$trace_jobs" = 5 ] || die "iorig on $dev: $trace_jobs jobs traced"
	set -- $(jvals "$T/out" \
		"[(x.get('sync') or {}).get('ios') for x in d['jobs']]" |
		tr -d '[]' | tr , ' ') "$@"
	k=1
	for o in $syncs; do
		eval "a$k=\$sync_$k aw$k=\$write_$k n$k=\$$k"
		k=$((k + 1))
	done
	shift 5
	trace_jobs "$ops" /usr/bin/fio "$@"
	[ "$rc" = 0 ] || die "fio on $dev: $(cat "$T/err")"
	[ "$trace_jobs" = 5 ] || die "fio on $dev: $trace_jobs jobs traced"
	k=1
	for o in $syncs; do
		case $o in *,*) o="${o%%,*} ${o#*,}" ;; esac
		eval "a=\$a$k aw=\$aw$k n=\$n$k f=\$sync_$k"
		k=$((k + 1))
		case $o in
		--end_fsync*|--fsync_on_close*)
			[ "$a" = 1 ] || die "iorig $o on $dev: $a" \
				"SYNCHRONIZE CACHE, not 1"
			[ "$f" = 1 ] || die "fio 3.33 $o on $dev: $f" \
				"SYNCHRONIZE CACHE; expected 1"
			echo "ok: $dev $o: iorig 1 SYNCHRONIZE CACHE, fio" \
			     "3.33 $f"
			continue ;;
		esac
		[ "$a" = "$n" ] && [ "$n" -ge 3 ] ||
			die "iorig $o on $dev: $a SYNCHRONIZE CACHE," \
			    "$n syncs reported (expected the same, 3 or more)"
		[ "$aw" = 16 ] || die "iorig $o: $aw WRITEs, not 16"
		# fsync=/fdatasync=: iorig syncs after every N-th completed
		# write, the last too; fio 3.33 before the next write, so
		# not after the last one (the same on a regular file)
		case $o in --sync_file_range*) d=0 ;; *) d=1 ;; esac
		[ "$f" = $((a - d)) ] ||
			die "$o on $dev: fio 3.33 $f SYNCHRONIZE CACHE," \
			    "iorig $a; expected $((a - d)) from fio"
		echo "ok: $dev $o: iorig $a SYNCHRONIZE CACHE ($n syncs" \
		     "reported), fio 3.33 $f"
	done
done

traced a "$IORIG" --name=t --filename="$sg" --ioengine=sg --rw=randwrite \
	--bs=4k --size=256k --verify=crc32c --trim_percentage=50 \
	--trim_backlog=8 --trim_verify_zero=1 --output-format=json \
	--allow_destructive=1
[ "$rc" = 0 ] || die "iorig trim_percentage: $(cat "$T/err")"
set -- $(jvals "$T/out" "j['trim']['ios']" "j['verify']['mismatches']" \
	"j['verify']['blocks_checked'] > 0")
n=$1 e="$2 $3"
[ "$a_unmap" = "$n" ] && [ "$n" -gt 0 ] ||
	die "trim_percentage: $a_unmap UNMAPs, $n trims reported"
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
