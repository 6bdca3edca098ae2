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
# SCSI commands to the disk by opcode (trace_tally): sync (SYNCHRONIZE
# CACHE), unmap, read, write.
ops='cmnd=(SYNCHRONIZE_CACHE:sync cmnd=(UNMAP:unmap cmnd=(READ_1[06]:read
	cmnd=(WRITE_1[06]:write'

# One run of each tool per device, a stonewalled job per sync option
# (syncs_both).
for dev in "$sg" "$sd"; do
	syncs_both "$ops" sync " on $dev" --allow_destructive=1 \
		--filename="$dev" --ioengine=sg
	[ "$frc" = 0 ] || die "fio on $dev: $(cat "$T/err")"
	for k in 1 2 3 4 5; do
		eval "o=\$o$k a=\$a$k n=\$n$k f=\$f$k"
		case $o in
		--end_fsync*|--fsync_on_close*)
			[ "$f" = 1 ] || die "fio 3.33 $o on $dev: $f" \
				"SYNCHRONIZE CACHE; expected 1"
			echo "ok: $dev $o: iorig 1 SYNCHRONIZE CACHE, fio" \
			     "3.33 $f"
			continue ;;
		esac
		# fsync=/fdatasync=: iorig syncs after every N-th completed
		# write, the last too; fio 3.33 before the next write, so
		# not after the last one (the same on a regular file)
		case $o in --sync_file_range*) d=0 ;; *) d=1 ;; esac
		[ "$f" = $((a - d)) ] ||
			die "$o on $dev: fio 3.33 $f SYNCHRONIZE CACHE," \
			    "iorig $a; expected $((a - d)) from fio"
		echo "ok: $dev $o: iorig $a SYNCHRONIZE CACHE ($n syncs" \
		     "reported), 16 WRITEs; fio 3.33 $f"
	done
done

trim_pct "$ops" unmap UNMAPs --filename="$sg" --ioengine=sg \
	--allow_destructive=1
hipri_both "$ops" read READs --filename="$sg" --ioengine=sg

tw="--name=tw --filename=$sg --ioengine=sg --rw=randtrimwrite --bs=4k \
--size=64k"
trace_count a "$ops" "$IORIG" $tw --allow_destructive=1
[ "$rc" = 0 ] || die "iorig randtrimwrite: $(cat "$T/err")"
trace_count f "$ops" /usr/bin/fio $tw
[ "$rc" = 0 ] || die "fio randtrimwrite: $(cat "$T/err")"
[ "$a_unmap $a_write" = "16 16" ] && [ "$f_unmap $f_write" = "16 16" ] ||
	die "randtrimwrite: iorig $a_unmap UNMAPs, $a_write WRITEs; fio" \
	    "3.33 $f_unmap, $f_write; expected 16, 16"
echo "ok: rw=randtrimwrite: 16 UNMAPs and 16 WRITEs, as fio 3.33"
