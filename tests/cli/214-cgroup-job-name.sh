#!/bin/sh
# cgroup_weight= without cgroup= names the group after the job, as fio
# does; that name is one directory of the blkio hierarchy, never a path:
# a job name with '/', or '.', '..', is refused at plan time (exit 2,
# option cgroup_weight, also --parse-only), so '--name=../cpu/x' makes no
# group in another hierarchy (it made, and left, /sys/fs/cgroup/cpu/x)
# and deeper '../' reaches no other directory. The outside truth: the
# listing of every directory under /sys/fs/cgroup and of the scratch
# directory, before and after. A plain name (spaces included) still
# names its group, with the weight in blkio.bfq.weight.
# Parallel, one after another with 129, which makes groups of its own.
# lane: parallel
# lock: cgroup
. "$(dirname "$0")/lib.sh"

B=/sys/fs/cgroup/blkio
[ -w "$B/tasks" ] || skip "no writable cgroup v1 blkio hierarchy at $B"
G=iorig-t214-$$
cleanup() {
	for d in /sys/fs/cgroup/*/"$G" /sys/fs/cgroup/*/"$G x" \
		"$B/$G job"; do
		[ -d "$d" ] && rmdir "$d" 2>/dev/null
	done
	cd / && rm -rf "$T"
}
trap cleanup EXIT
listing() {
	find /sys/fs/cgroup -maxdepth 3 -type d 2>/dev/null | sort
	find "$T" -type d | sort
}
listing >before

up=""
for i in 1 2 3 4 5 6 7 8 9 10; do up="$up../"; done
for name in "../cpu/$G" "../memory/$G" "$up$T/$G" "a/$G" ".." "."; do
	for mode in --parse-only ""; do
		# shellcheck disable=SC2086
		run $mode --name="$name" --ioengine=null --size=64k \
			--cgroup_weight=100
		expect_rc 2
		expect_in err "option 'cgroup_weight': the job's name '.*' names its control group"
	done
done
# In a job file too (a section name with '/').
printf '[x/%s]\nioengine=null\nsize=64k\ncgroup_weight=100\n' "$G" >j.fio
run j.fio
expect_rc 2
expect_in err "j\\.fio:[0-9]*: option 'cgroup_weight'"
listing >after
# (other programs' groups may come and go meanwhile: new ones only)
new=$(comm -13 before after)
[ -z "$new" ] || die "directories appeared: $(echo "$new" | head -5)"

# cgroup= gives the group's name: the job's name is then free.
run --name="../cpu/$G" --ioengine=null --size=64k --cgroup_weight=100 \
	--cgroup="$G" --cgroup_nodelete=1
expect_rc 0
[ -d "$B/$G" ] || die "cgroup=$G was not made in $B"
[ ! -d "/sys/fs/cgroup/cpu/$G" ] || die "a group was made in cpu"
rmdir "$B/$G"

# A job name of one component names the group, as in fio.
run --name="$G job" --ioengine=null --size=64k --cgroup_weight=200 \
	--cgroup_nodelete=1
expect_rc 0
[ -d "$B/$G job" ] || die "the group '$G job' was not made"
[ "$(cat "$B/$G job/blkio.bfq.weight" 2>/dev/null)" = 200 ] ||
	[ "$(cat "$B/$G job/blkio.weight" 2>/dev/null)" = 200 ] ||
	die "the weight of '$G job' is not 200"
rmdir "$B/$G job"
exit 0
