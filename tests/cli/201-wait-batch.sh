#!/bin/sh
# How many completions a full queue waits for by default (src/worker/
# depth.c, the man page's iodepth_batch_submit), as the kernel sees the
# waits: the min_complete of each io_uring_enter that waits, from the
# syscalls tracepoint (a trace instance of this test's own, the lines of
# this process picked by their thread group id). 4 KiB random reads of a
# cached file at iodepth=32 (invalidate=0), every read punted to
# io_uring's io-wq (force_async=1), so that completions come from a
# kernel thread as zram's do. Unpinned, pinned and with a clone per
# CPU, a full queue waits for one completion (iodepth_batch_complete_min)
# or, while the job's trial finds lingering to pay (depth.c, tests 271
# and 296), for an eighth of the queue (4) or the whole of it (32), with
# no timer: never for another part of it (but as it drains at the end
# of the job, a lingering wait asks for an eighth of what is left, or
# all of it). A wait for 4 or 16 of 32, as iorig once did to save
# wake-ups, and one for 32 of 32 kept whatever it cost, left the device
# with fewer I/Os than the job asked for (issue 23); the trial keeps a
# lingering wait only where it completes more I/Os a second. With
# iodepth_batch_complete_min=4 it waits until 4 are there: the
# completions it has already taken from the ring count, and the kernel
# is asked for the rest (as fio's io_uring engine does): each wait asks
# for 1 to 4, never more, and ten or more for more than 1 (all for 1:
# the option ignored).
# lane: serial (a trace instance of the machine's syscalls)
. "$(dirname "$0")/lib.sh"

ncpu=$(getconf _NPROCESSORS_ONLN)
[ "$ncpu" -ge 2 ] || skip "needs 2 CPUs, this machine has $ncpu"
tracing
E=events/syscalls/sys_enter_io_uring_enter
[ -w "$TR/instances" ] || skip "no writable tracefs instances at $TR"
[ -d "$TR/$E" ] || skip "no $E tracepoint"
I=$TR/instances/iorig-t201-$$
mkdir "$I" || skip "cannot make a trace instance"
trap 'echo 0 >"$I/$E/enable" 2>/dev/null; rmdir "$I" 2>/dev/null; cd /; rm -rf "$T"' EXIT
echo 1 >"$I/options/record-tgid"
echo "min_complete > 0" >"$I/$E/filter"
echo 1 >"$I/$E/enable"

"$IORIG" --name=lay --filename=f.dat --size=16m --rw=write --bs=1m \
	--end_fsync=1 >/dev/null || die "layout failed"

# waits [PREFIX...] -- ARGS: the most frequent min_complete of the run's
# waiting io_uring_enter calls, then how many calls had it out of all;
# in $T/mc, how many asked for each (printed as the trace has it: 0x20
# for 32), an x after it when the call carried IORING_ENTER_EXT_ARG
waits() {
	prefix_of "$@"
	shift $npre
	: >"$I/trace"
	bg_pid $pre "$IORIG" --name=w --filename=f.dat --size=16m \
		--ioengine=io_uring --rw=randread --bs=4k --iodepth=32 \
		--force_async=1 --invalidate=0 --loops=5 --number_ios=20000 "$@"
	grep -E "\( *$pid\)" "$I/trace" |
		grep -o 'min_complete: [0-9a-fx]*, flags: [0-9a-fx]*' |
		awk '{ sub(/,/, "", $2); f = substr($4, length($4))
		       print $2 (index("89abcdef", f) ? "x" : "") }' |
		sort | uniq -c | sort -rn >"$T/mc"
	awk 'NR == 1 { v = $2; n = $1 } { all += $1 }
	     END { print v, n + 0, all + 0 }' "$T/mc"
}
# check WHAT: the waits of the last run ($T/mc) are for 1, or linger
# for 4 or 32, none with EXT_ARG (no timer); at most 32 ask for another
# part of the queue (the queue draining)
check() {
	grep -q 'x$' "$T/mc" && die "$1: a wait with EXT_ARG: $(cat "$T/mc")"
	set -- $(awk '{ v = $2 }
		v != "1" && v != "4" && v != "0x4" && v != "0x20" { part += $1 } { all += $1 }
		END { print part + 0, all + 0 }' "$T/mc") "$1"
	[ "$2" -gt 0 ] ||
		die "$3: no waiting io_uring_enter in the trace"
	[ "$1" -le 32 ] ||
		die "$3: of $2 waits $1 asked for part of the queue: $(cat "$T/mc")"
}
waits -- >/dev/null
check "unpinned, $ncpu CPUs"
waits taskset -c 0 -- >/dev/null
check "taskset -c 0"
waits -- --numjobs="$ncpu" >/dev/null
check "numjobs=$ncpu"
set -- $(waits -- --iodepth_batch_complete_min=4)
[ "$3" -gt 0 ] ||
	die "iodepth_batch_complete_min=4: no waiting io_uring_enter in the trace"
set -- $(awk '$2 + 0 < 1 || $2 + 0 > 4 { bad += $1 } $2 + 0 == 1 { one += $1 }
	{ all += $1 } END { print bad + 0, one + 0, all + 0 }' "$T/mc")
# How many waits find 3 of the 4 already taken (and ask for 1) is the
# machine's timing: the more slowly a sleeping thread wakes, the more
# completions are there when it looks: on one host, in seven plain
# runs alone, 1%, 16%, 24%, 65%, 76%, 78% and 93% (1399 of 1500) of the
# waits asked for 1, and 7% under the sanitizer. Ignored, the option
# would make every wait ask for 1: ten or more waits asking for 2 to 4
# tell the two apart (the fewest seen was 101).
most1=$(($3 - 10))
[ "$1" -eq 0 ] && [ "$2" -le "$most1" ] ||
	die "iodepth_batch_complete_min=4: of $3 waits $1 asked for more than 4 (or 0) and $2 for 1: $(cat "$T/mc")"
echo "ok: a full queue of 32 waits for 1 or (lingering) for 4 or 32 unpinned, pinned and with a clone per CPU; until 4 are there with iodepth_batch_complete_min=4 ($2 of $3 waits asked the kernel for 1)"
