#!/bin/sh
# Verification does not blame the device for iorig's own failed writes. On
# a full file system (a 1 MiB tmpfs, root only) a verify job whose writes
# fail with ENOSPC, or come up short, goes on (continue_on_error=write) and
# then checks what it wrote:
# - the blocks whose writes failed or were short are not checked and are
#   no mismatch (before, each was a "zeroed" block and the device was
#   blamed); they are counted in verify.write_failed and in the text report;
# - the blocks that did land are all checked, and they are exactly what the
#   file system holds (its allocated bytes, from stat);
# - the exit status is 1 for the write errors, never 4;
# - with loops=2, verify_backlog and other engines as well.
# lane: parallel
. "$(dirname "$0")/lib.sh"

tmpfs_mount "$T/m" 1m
V="d['jobs'][0]['verify']"
W="d['jobs'][0]['write']"

# fresh: a sparse 4 MiB file on the 1 MiB tmpfs.
fresh() {
	rm -f m/sparse
	truncate -s 4m m/sparse || die "truncate"
}

# allocated FILE: bytes the file system holds for FILE.
allocated() {
	echo $(($(stat -c '%b * %B' "$1")))
}

# Sequential 4 KiB writes: the last 768 fail with ENOSPC.
fresh
run --name=w --filename=m/sparse --rw=write --bs=4k --verify=xxh3 \
	--continue_on_error=write --output-format=json
expect_rc 1
expect_not_in err "did not verify"
json_is "$V['mismatches']" 0
json_is "sum($V['by_class'].values())" 0
json_is "$V['first']" "[]"
expect_json "$W['errors'] >= 700" "the writes ran out of space"
json_is "$V['write_failed']" "$(json "$W['errors'] + $W['short_ios']")"
json_is "$V['blocks_checked']" "$(json "1024 - $V['write_failed']")"
json_is "$V['blocks_checked'] * 4096" "$(allocated m/sparse)"

# The text report says so.
fresh
run --name=w --filename=m/sparse --rw=write --bs=4k --verify=xxh3 \
	--continue_on_error=write
expect_rc 1
expect_in out '^  verify xxh3: [0-9]+ blocks \(.*\) checked in .*, 0 mismatches$'
expect_in out "^    write failed [0-9]+ blocks: not checked \\(the run's last write of them failed or was short\\)$"
expect_not_in out 'zeroed'

# 12 KiB blocks: the write that reaches the end of the space is short.
fresh
run --name=w --filename=m/sparse --rw=write --bs=12k --verify=crc32c \
	--continue_on_error=write --output-format=json
expect_rc 1
json_is "$W['short_ios']" 1
json_is "$V['mismatches']" 0
json_is "$V['write_failed']" "$(json "$W['errors'] + 1")"
json_is "$V['blocks_checked'] * 12288 + 4096" "$(allocated m/sparse)"

# Two passes: the blocks that failed in both are not checked; the rest
# are, as each loop wrote them (checked after each loop, as fio does: the
# same blocks landed in both).
fresh
run --name=w --filename=m/sparse --rw=write --bs=4k --verify=xxh3 \
	--loops=2 --continue_on_error=write --output-format=json
expect_rc 1
json_is "$V['mismatches']" 0
json_is "$V['blocks_checked'] * 4096 // 2" "$(allocated m/sparse)"
json_is "$V['write_failed']" "$(json "1024 - $V['blocks_checked'] // 2")"

# Random writes checked as they go (verify_backlog), with every engine.
for e in sync libaio io_uring pthread; do
	fresh
	run --name=w --filename=m/sparse --rw=randwrite --bs=4k \
		--verify=xxh3 --verify_backlog=32 --ioengine=$e --iodepth=8 \
		--continue_on_error=write --output-format=json
	if [ "$rc" -eq 1 ] && grep -q "setting up engine" err; then
		continue	# not on this kernel: 23-engines-unavailable
	fi
	expect_rc 1
	json_is "$V['mismatches']" 0
	json_is "$V['write_failed']" "$(json "$W['errors'] + $W['short_ios']")"
	expect_json "$V['write_failed'] >= 700" "$e: the writes ran out"
	# each block the backlog checked is not read again after the writes
	json_is "$V['blocks_checked'] * 4096" "$(allocated m/sparse)"
done

# Without continue_on_error the job stops at the first failure: exit 1,
# not 4, and nothing is blamed on the device.
fresh
run --name=w --filename=m/sparse --rw=write --bs=4k --verify=xxh3 \
	--output-format=json
expect_rc 1
json_is "$V['mismatches']" 0
json_is "$V['write_failed'] >= 1" True
rm -f m/sparse
exit 0
