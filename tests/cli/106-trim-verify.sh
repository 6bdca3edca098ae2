#!/bin/sh
# trim_percentage, trim_backlog, trim_backlog_batch, trim_verify_zero
# (issue 12). Outside truths: the hole-punching fallocate calls strace
# sees, the 4k blocks of the file that read as zeros afterwards, and the
# verification that must pass with the trimmed blocks read as zeros.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "no strace: the witness"
JOB="--name=t --filename=t.dat --size=1m --bs=4k --rw=randwrite --verify=crc32c --ioengine=sync"

# zero_blocks FILE: its 4k blocks that are all zeros.
zero_blocks() {
	"$PY" -c 'import sys
b = open(sys.argv[1], "rb").read()
print(sum(1 for i in range(0, len(b), 4096) if b[i:i + 4096] == bytes(4096)))' "$1"
}

# trims ARGS...: one run (a new file) under strace; the punches in $punch.
trims() {
	rm -f t.dat
	strace -f -qq -e trace=fallocate -o f.trace "$IORIG" $JOB "$@" \
		--output-format=json >out 2>err || die "$*: exit $?"
	punch=$(grep -c 'PUNCH_HOLE' f.trace || true)
}

# Half of 256 blocks, trimmed 16 at a time every 16 written.
trims --trim_percentage=50 --trim_backlog=16
json_is "d['jobs'][0]['trim']['ios']" "$punch"
[ "$punch" -gt 90 ] && [ "$punch" -lt 166 ] ||
	die "trim_percentage=50 of 256 blocks: $punch trims"
[ "$(zero_blocks t.dat)" -eq "$punch" ] ||
	die "$punch trims, $(zero_blocks t.dat) zero blocks in the file"
json_is "d['jobs'][0]['verify']['blocks_checked']" 256
json_is "d['jobs'][0]['verify']['mismatches']" 0
json_is "d['jobs'][0]['write']['ios']" 256

# 100%: every block chosen; a batch of 2 every 16: 2 trims each time,
# before the next write (those due after the last write are not done, as
# in fio: 15 times).
trims --trim_percentage=100 --trim_backlog=16 --trim_backlog_batch=2
[ "$punch" -eq 30 ] || die "2 trims every 16 of 256 writes: $punch trims"
json_is "d['jobs'][0]['trim']['ios']" 30

# trim_verify_zero=0: the trimmed blocks are left out of the check.
trims --trim_percentage=100 --trim_backlog=16 --trim_verify_zero=0
[ "$punch" -eq 240 ] || die "every block chosen, 15 batches: $punch trims"
json_is "d['jobs'][0]['verify']['blocks_checked']" 16
json_is "d['jobs'][0]['verify']['mismatches']" 0

# Without trim_backlog (fio's meaning): nothing trimmed, a warning says so.
trims --trim_percentage=50
[ "$punch" -eq 0 ] || die "no trim_backlog: $punch trims"
expect_json 'any(w["code"] == "trim_unset" for w in d["warnings"])'
exit 0
