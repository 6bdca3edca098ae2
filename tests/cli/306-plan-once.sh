#!/bin/sh
# A run plans its targets once (issue 26 §4): run_check's targets, checked
# before any output is created, are the run's, so a job that writes to a
# block device has the write guards look at it twice, not three times:
# once at the check (in use, holds data) and once as target_open opens it
# (in use now). Outside truth: strace, counting the opens of the device's
# sysfs holders directory (each look of the guards opens it once), and
# the bytes the JSON report says were written.
# lane: parallel
. "$(dirname "$0")/lib.sh"

strace_works || skip "no strace, or it may not trace here"
loop_disk d.img 8
mm=$(stat -L -c '%t:%T' "$dev") || die "stat $dev"
mm=$(printf '%d:%d' "0x${mm%:*}" "0x${mm#*:}")
strace -f -qq -e trace=openat -o "$T/s" "$IORIG" --name=w \
	--filename="$dev" --rw=write --bs=4k --size=1m \
	--output-format=json >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0
json_is "d['jobs'][0]['write']['io_bytes']" 1048576
n=$(grep -c "\"/sys/dev/block/$mm/holders\"" "$T/s")
[ "$n" = 2 ] || die "the write guards looked at $dev's holders $n times," \
	"expected 2 (the check, the open): $(grep holders "$T/s")"
echo "ok: $dev ($mm) guarded twice: at the check and at the open"
