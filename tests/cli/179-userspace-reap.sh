#!/bin/sh
# userspace_reap (libaio, with iodepth_batch_complete_min=0 as fio asks):
# completions are read from the AIO ring in user space. Outside truths:
# strace -c counts io_getevents calls (0 with it, thousands without), and
# the loop device's /sys/block/*/stat counts every read (completed plus
# merged) as the job asked; with iodepth_batch_complete_min=1 it has no
# effect (fio's rule) and a warning says so.
# lane: parallel
. "$(dirname "$0")/lib.sh"

strace_works || skip "needs a working strace"
loop_disk d.img 16
n=$(basename "$dev")
N=3000

# reap MODE...: the run under strace; sets calls (io_getevents), dev
# (reads the device counted), ios (the job's reads).
reap() {
	a=$(awk '{ printf "%.0f\n", $1 + $2 }' "/sys/block/$n/stat")
	strace -f -c -e trace=io_getevents,io_submit -o "$T/st" "$IORIG" \
		--name=r --filename="$dev" --rw=randread --bs=4k --iodepth=8 \
		--ioengine=libaio --direct=1 --number_ios=$N \
		--output-format=json "$@" >"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 0
	b=$(awk '{ printf "%.0f\n", $1 + $2 }' "/sys/block/$n/stat")
	dev_ios=$((b - a))
	calls=$(awk '$NF == "io_getevents" { print $4 }' "$T/st")
	calls=${calls:-0}
	ios=$(json "d['jobs'][0]['read']['ios']")
	echo "$*: io_getevents $calls, device reads $dev_ios, job reads $ios"
	[ "$ios" = $N ] || die "$ios reads, expected $N"
	[ "$dev_ios" = $N ] || die "the device counted $dev_ios reads, expected $N"
}

reap --userspace_reap=1 --iodepth_batch_complete_min=0
[ "$calls" = 0 ] || die "userspace_reap: $calls io_getevents calls, expected 0"
expect_not_in err userspace_reap_ignored
reap --iodepth_batch_complete_min=0
[ "$calls" -gt $((N / 10)) ] || die "without userspace_reap: only $calls io_getevents"
reap --userspace_reap=1
[ "$calls" -gt $((N / 10)) ] ||
	die "userspace_reap with complete_min=1: only $calls io_getevents (fio reaps with it)"
# (depth_not_held may come too: under strace the loop device keeps up
# with the job, and the depth held says so)
json_is "[w['code'] for w in d['warnings'] if w['code'] != 'depth_not_held']" \
	"['userspace_reap_ignored']"

# fio on the same job, when it is there: also no io_getevents.
if command -v fio >/dev/null 2>&1; then
	strace -f -c -e trace=io_getevents -o "$T/st" fio --name=r \
		--filename="$dev" --rw=randread --bs=4k --iodepth=8 \
		--ioengine=libaio --direct=1 --number_ios=$N --userspace_reap \
		--iodepth_batch_complete_min=0 --output="$T/fio.txt" ||
		die "fio failed: $(cat "$T/fio.txt")"
	f=$(awk '$NF == "io_getevents" { print $4 }' "$T/st")
	[ "${f:-0}" = 0 ] || die "fio made ${f} io_getevents calls"
fi
echo ok
