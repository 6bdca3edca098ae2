#!/bin/sh
# cgroup=, cgroup_weight=, cgroup_nodelete=: each clone's thread does its
# I/O inside the blkio group (the kernel's own count of the group's I/Os,
# blkio.throttle.io_serviced, equals the job's), is in its "tasks" while it
# runs and out of it after; a group the run made is removed unless
# cgroup_nodelete=1, one that was there is kept; the weight lands in bfq's
# blkio.bfq.weight.
# Parallel, one after another with 214, which lists every group before
# and after its runs.
# lane: parallel
# lock: cgroup
. "$(dirname "$0")/lib.sh"

B=/sys/fs/cgroup/blkio
[ -w "$B/tasks" ] || skip "no writable cgroup v1 blkio hierarchy at $B"
loop_disk d.img 16
mm=$(lsblk -ndo MAJ:MIN "$dev" | tr -d ' ')
G=iorig-t129-$$
trap 'rmdir "$B/$G" "$B/$G-2" 2>/dev/null; losetup -d "$dev" 2>/dev/null; cd /; rm -rf "$T"' EXIT
# A recent kernel (6.18 here) counts a queue's I/Os in blk-throttle
# only once a rule was written for that queue: a loop device an earlier
# test throttled counts, a fresh one does not. A rule of 0 (no limit)
# on this device turns the count on and throttles nothing.
echo "$mm 0" >"$B/blkio.throttle.read_iops_device" ||
	die "cannot write a throttle rule for $mm"

# The kernel counts the job's 100 reads in the group; the thread left it.
run --name=c --filename="$dev" --rw=randread --bs=4k --size=8m --direct=1 \
	--number_ios=100 --cgroup=$G --cgroup_nodelete=1
expect_rc 0
[ -d "$B/$G" ] || die "cgroup_nodelete=1: $B/$G removed"
grep -qx "$mm Read 100" "$B/$G/blkio.throttle.io_serviced" ||
	die "the group counted: $(cat "$B/$G/blkio.throttle.io_serviced")"
[ ! -s "$B/$G/tasks" ] || die "threads left in the group: $(cat "$B/$G/tasks")"
# There before the run: kept.
run --name=c --filename="$dev" --rw=read --bs=4k --size=64k --cgroup=$G
expect_rc 0
[ -d "$B/$G" ] || die "a group that was there before was removed"
rmdir "$B/$G"

# While it runs, a thread of iorig is in the group; made by the run, the
# group is gone after (two clones: the last one out removes it). The
# group's tasks are read every 50 ms until both clones are in it or the
# run ends (3 s, at 200 reads a second each: a wait, not a busy loop).
"$IORIG" --name=c --filename="$dev" --rw=randread --bs=4k --size=8m \
	--numjobs=2 --time_based --runtime=3s --rate_iops=200 --cgroup=$G-2 \
	>/dev/null 2>"$T/err" &
pid=$!
in=0
while [ "$in" -lt 2 ] && running $pid; do
	sleep 0.05
	in=0
	for t in $(cat "$B/$G-2/tasks" 2>/dev/null); do
		[ -d "/proc/$pid/task/$t" ] && in=$((in + 1))
	done
done
wait $pid || die "the job failed: $(cat "$T/err")"
[ "$in" -eq 2 ] || die "$in threads of iorig in the group, expected 2"
[ ! -d "$B/$G-2" ] || die "the group the run made is still there"

# cgroup_weight: bfq's weight of the group (named after the job).
sf=/sys/block/$(basename "$dev")/queue/scheduler
if grep -qw bfq "$sf"; then
	run --name=$G --filename="$dev" --rw=read --bs=4k --size=64k \
		--ioscheduler=bfq --cgroup_weight=300 --cgroup_nodelete=1
	expect_rc 0
	[ "$(cat "$B/$G/blkio.bfq.weight" 2>/dev/null)" = 300 ] ||
		die "blkio.bfq.weight is '$(cat "$B/$G/blkio.bfq.weight" 2>/dev/null)', not 300"
	rmdir "$B/$G"
fi

# Names that leave the hierarchy: refused before anything runs.
run --name=c --filename="$dev" --size=64k --cgroup=../x
expect_rc 2
expect_in err "option 'cgroup': expected a control group name"
run --name=c --filename="$dev" --size=64k --cgroup_weight=1001
expect_rc 2
