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
# NVMe commands by opcode (trace_tally): flush, dsm, read, write.
ops="cmd=(nvme_cmd_flush:flush cmd=(nvme_cmd_dsm:dsm
	cmd=(nvme_cmd_read:read cmd=(nvme_cmd_write:write"
b="--filename=$ng --ioengine=io_uring_cmd --offset=128m"
# One run of each tool, a stonewalled job per sync option (syncs_both).
syncs_both "$ops" flush "" "" $b
for k in 1 2 3 4 5; do
	eval "o=\$o$k a=\$a$k n=\$n$k f=\$f$k fw=\$fw$k"
	case $o in
	--end_fsync*|--fsync_on_close*)
		echo "ok: $o: iorig 1 Flush; fio 3.33 $f" ;;
	*)
		echo "ok: $o: iorig $a Flush ($n syncs reported), 16" \
		     "Writes; fio 3.33 $f Flush, $fw Writes" ;;
	esac
done
echo "   fio 3.33's run of those jobs: exit $frc;" \
     "$(grep -hc 'end_fsync failed' "$T/err" "$T/out" | tr '\n' ' ')" \
     "'end_fsync failed' (stderr, stdout)"

trim_pct "$ops" dsm "Dataset Management" $b
hipri_both "$ops" read Reads $b

trace_count a "$ops" "$IORIG" $b --name=tw --rw=randtrimwrite --bs=4k \
	--size=64k --output-format=json
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
