#!/bin/sh
# disk_util (fio's "Disk stats"): per device, the changes of its
# /proc/diskstats counters over the run, in JSON, fio-json and text.
# Outside truth: the same counters read around the whole run here. The
# job's own I/Os are a lower bound (direct random reads of a loop device:
# every one reaches it, or is merged into a neighbour), the counters read around the run an
# upper bound (iorig's probes of the device come before the watch).
# disk_util=0 reports none. The kernel counts a request done after it
# wakes the request's waiter: read as the last completions are reaped,
# the counters may lack up to iodepth (4) of them (a wider window on a
# busy machine), hence 2044.
# lane: parallel
. "$(dirname "$0")/lib.sh"

loop_disk d.img 16
name=${dev#/dev/}
stat() { awk -v n="$name" '$3 == n { print $4, $6, $8, $10 }' /proc/diskstats; }
job="--name=x --filename=$dev --ioengine=libaio --direct=1 --rw=randread
	--bs=4k --iodepth=4 --size=8m"
set -- $(stat)
# shellcheck disable=SC2086
run $job --output-format=json
set -- "$@" $(stat)
expect_rc 0
[ $# = 8 ] || die "no $name in /proc/diskstats"
rios=$(($5 - $1)); rsec=$(($6 - $2)); wios=$(($7 - $3))
json_is "[x['name'] for x in d['disk_util']]" "['$name']"
u="d['disk_util'][0]"
expect_json "2044 <= $u['read_ios'] + $u['read_merges'] and $u['read_ios'] <= $rios" \
	"read_ios (+ merges: two random blocks may be neighbours) between the job's 2048 (less 4 in flight) and the $rios counted around the run"
expect_json "16384 <= $u['read_sectors'] <= $rsec" \
	"read_sectors between 8 MiB and the $rsec counted around the run"
expect_json "$u['write_ios'] <= $wios"
# (CI 59 once saw util_pct 0 here, without its figures: they are given)
ticks=$(json "($u['io_ticks_ms'], $u['read_ticks_ms'], $u['watched_ns'])")
expect_json "0 < $u['util_pct'] <= 100" \
	"io_ticks_ms, read_ticks_ms, watched_ns: $ticks"
expect_json "$u['watched_ns'] <= d['wall_ns']"
expect_json "$u['read_ticks_ms'] > 0 and $u['io_ticks_ms'] > 0" \
	"io_ticks_ms, read_ticks_ms, watched_ns: $ticks"

# fio-json: fio's disk_util object; the text: fio's Disk stats lines.
# shellcheck disable=SC2086
run $job --output-format=fio-json
expect_rc 0
expect_json "d['disk_util'][0]['name'] == '$name' and d['disk_util'][0]['read_ios'] + d['disk_util'][0]['read_merges'] >= 2044"
# shellcheck disable=SC2086
run $job
expect_rc 0
expect_in out '^Disk stats \(read/write\):$'
expect_in out "^  $name: ios=[0-9]{4}/[0-9]+, merge=[0-9]+/[0-9]+, sectors=[0-9]+/[0-9]+, ticks=[0-9]+/[0-9]+, in_queue=[0-9]+, util=[0-9.]+%$"

# disk_util=0: no device watched, as fio.
# shellcheck disable=SC2086
run $job --disk_util=0 --output-format=json
expect_rc 0
json_is "d['disk_util']" "[]"
# shellcheck disable=SC2086
run $job --disk_util=0
expect_not_in out '^Disk stats'
