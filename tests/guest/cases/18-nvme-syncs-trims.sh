#!/bin/sh
# ioengine=io_uring_cmd's syncs, verify's trims and hipri on /dev/ng0n1,
# judged by the NVMe driver's own tracepoint (nvme_setup_cmd: each
# command set up, by its opcode) and against fio 3.33 on the same jobs:
# - fsync=, fdatasync=, sync_file_range= send NVMe Flush, as many as
#   the job reports syncs; end_fsync= and fsync_on_close= one at the
#   end. fio 3.33 sends none: its io_uring_cmd has no command for a
#   sync, and the job ends at its first sync (fsync=4: 4 of 16 writes)
#   or says "end_fsync failed" (counted here, for the record);
# - trim_percentage= with trim_backlog=: Dataset Management commands, as
#   many as the job's trims, and the trimmed blocks read as zeros
#   (trim_verify_zero; QEMU deallocates); fio 3.33 aborts on this job;
# - hipri=1 without direct=1 runs (IOPOLL; fio 3.33 takes it): one Read
#   per I/O, as fio;
# - rw=randtrimwrite: one Dataset Management and one Write per block
#   (fio 3.33 trims with BLKDISCARD, which the char device refuses);
# - the report's error_log (the controller's error log entries logged
#   during the run) is empty, as nvme-cli's error-log has no entry above
#   the health log's count (QEMU logs none: tests/unit/test_nvmedev.c
#   checks the entries' reading).
# Writes 128-129 MiB of namespace 1.
. "$(dirname "$0")/../lib.sh"
[ -x /usr/bin/fio ] || skip "no /usr/bin/fio (Debian's fio)"
ng=/dev/ng0n1
[ -c "$ng" ] || die "no $ng"
trace_event nvme/nvme_setup_cmd
# traced VAR PROG ARGS...: PROG's NVMe commands by opcode: ${VAR}_flush,
# ${VAR}_dsm, ${VAR}_read, ${VAR}_write.
traced() {
	_tv=$1
	shift
	trace_count "$_tv" "cmd=(nvme_cmd_flush:flush cmd=(nvme_cmd_dsm:dsm
		cmd=(nvme_cmd_read:read cmd=(nvme_cmd_write:write" "$@"
}

b="--filename=$ng --ioengine=io_uring_cmd --offset=128m"
# One run of each tool: a stonewalled job per sync option, each job's
# commands those after its marker (trace_jobs).
ops="cmd=(nvme_cmd_flush:flush cmd=(nvme_cmd_dsm:dsm
	cmd=(nvme_cmd_read:read cmd=(nvme_cmd_write:write"
ifs=$IFS
syncs="--fsync=4 --fdatasync=4,--iodepth=4 --sync_file_range=write:4
	--end_fsync=1 --fsync_on_close=1"
set -- --exec_prerun="$trace_mark" $b --rw=write --bs=4k --size=64k \
	--output-format=json
k=1
for o in $syncs; do
	IFS=,	# "A,B": two options of one job
	set -- "$@" --name=s$k --stonewall $o
	IFS=$ifs
	k=$((k + 1))
done
trace_jobs "$ops" "$IORIG" "$@"
[ "$rc" = 0 ] || die "iorig: $(cat "$T/err")"
[ "$trace_jobs" = 5 ] || die "iorig: $trace_jobs jobs traced, not 5"
set -- $(jvals "$T/out" \
	"[(x.get('sync') or {}).get('ios') for x in d['jobs']]" |
	tr -d '[]' | tr , ' ') "$@"
k=1
for o in $syncs; do
	eval "a$k=\$flush_$k aw$k=\$write_$k n$k=\$$k"
	k=$((k + 1))
done
shift 5
trace_jobs "$ops" /usr/bin/fio "$@"
frc=$rc
[ "$trace_jobs" = 5 ] || die "fio: $trace_jobs jobs traced, not 5"
k=1
for o in $syncs; do
	case $o in *,*) o="${o%%,*} ${o#*,}" ;; esac
	eval "a=\$a$k aw=\$aw$k n=\$n$k f=\$flush_$k fw=\$write_$k"
	k=$((k + 1))
	case $o in
	--end_fsync*|--fsync_on_close*)
		[ "$a" = 1 ] || die "iorig $o: $a Flush, not 1"
		echo "ok: $o: iorig 1 Flush; fio 3.33 $f" ;;
	*)
		[ "$a" = "$n" ] && [ "$n" -ge 3 ] ||
			die "iorig $o: $a Flush, $n syncs reported" \
			    "(expected the same, 3 or more)"
		[ "$aw" = 16 ] || die "iorig $o: $aw Writes, not 16"
		echo "ok: $o: iorig $a Flush ($n syncs reported), 16" \
		     "Writes; fio 3.33 $f Flush, $fw Writes" ;;
	esac
done
echo "   fio 3.33's run of those jobs: exit $frc;" \
     "$(grep -hc 'end_fsync failed' "$T/err" "$T/out" | tr '\n' ' ')" \
     "'end_fsync failed' (stderr, stdout)"

traced a "$IORIG" $b --name=t --rw=randwrite --bs=4k --size=256k \
	--verify=crc32c --trim_percentage=50 --trim_backlog=8 \
	--trim_verify_zero=1 --output-format=json
[ "$rc" = 0 ] || die "iorig trim_percentage: $(cat "$T/err")"
set -- $(jvals "$T/out" "j['trim']['ios']" "j['verify']['mismatches']" \
	"j['verify']['blocks_checked'] > 0")
n=$1 e="$2 $3"
[ "$a_dsm" = "$n" ] && [ "$n" -gt 0 ] ||
	die "trim_percentage: $a_dsm Dataset Management, $n trims reported"
[ "$e" = "0 True" ] || die "trim_percentage: mismatches, checked: $e"
echo "ok: trim_percentage=50: $a_dsm Dataset Management = the $n trims" \
     "reported, verified (trimmed blocks zeros)"

traced a "$IORIG" $b --name=h --rw=read --bs=4k --size=64k --hipri=1
[ "$rc" = 0 ] || die "iorig hipri=1: $(cat "$T/err")"
traced f /usr/bin/fio $b --name=h --rw=read --bs=4k --size=64k --hipri=1
[ "$rc" = 0 ] || die "fio hipri=1: $(cat "$T/err")"
[ "$a_read" = 16 ] && [ "$f_read" = 16 ] ||
	die "hipri=1: iorig $a_read Reads, fio 3.33 $f_read; expected 16"
echo "ok: hipri=1 without direct=1: 16 Reads, as fio 3.33"

traced a "$IORIG" $b --name=tw --rw=randtrimwrite --bs=4k --size=64k \
	--output-format=json
[ "$rc" = 0 ] || die "iorig randtrimwrite: $(cat "$T/err")"
[ "$a_dsm $a_write" = "16 16" ] ||
	die "randtrimwrite: $a_dsm Dataset Management, $a_write Writes;" \
	    "expected 16, 16"
echo "ok: rw=randtrimwrite: 16 Dataset Management and 16 Writes"

e=$(jvals "$T/out" "len(d['nvme'][0]['error_log'])" \
	"d['nvme'][0]['health_after']['error_log_entries']")
nvme error-log /dev/nvme0 -o json >"$T/elog" 2>&1 ||
	die "nvme error-log: $(cat "$T/elog")"
n=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); \
c=int(sys.argv[2]); print(sum(1 for x in d['errors'] \
if x['error_count'] > c))" "$T/elog" "${e#* }") ||
	die "nvme error-log's JSON: $(head -c 300 "$T/elog")"
[ "${e%% *}" = "$n" ] ||
	die "error_log: $e (entries, count); nvme-cli: $n entries above it"
echo "ok: error_log has ${e%% *} entries, as nvme-cli's error-log"
