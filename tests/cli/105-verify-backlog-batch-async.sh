#!/bin/sh
# verify_backlog_batch, verify_async, verify_async_cpus (issue 12).
# Outside truths: the pread64 calls strace sees on the data file (how many
# blocks the backlog reads back), fio's count on the same jobs (a batch
# above the backlog reads no block twice), and a byte flipped on disk that
# the checks must still find with verify_async.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "no strace: the witness"
JOB="--name=v --filename=vb.dat --size=256k --bs=4k --rw=write --ioengine=sync --verify=crc32c --verify_backlog=8"

# reads TOOL ARGS...: pread64 calls on vb.dat during one run (a new file).
reads() {
	_tool=$1
	shift
	rm -f vb.dat
	strace -f -qq -y -e trace=pread64,read -o r.trace "$_tool" "$@" \
		>out 2>err || die "$_tool $*: exit $?"
	grep -c 'vb\.dat>' r.trace || true
}

# 64 blocks, a backlog of 8: the batch says how many of each 8 are read.
# shellcheck disable=SC2086
for c in "0 64" "4 32" "8 64" "16 64" "1 8"; do
	set -- $c
	got=$(reads "$IORIG" $JOB --do_verify=0 --verify_backlog_batch=$1 \
		--output-format=json)
	[ "$got" -eq "$2" ] ||
		die "verify_backlog_batch=$1: $got reads of 4k blocks, expected $2"
	json_is "d['jobs'][0]['verify']['blocks_checked']" "$2"
	json_is "d['jobs'][0]['verify']['mismatches']" 0
done
if command -v fio >/dev/null 2>&1; then
	# fio checks every block once in all (backlog, then the rest):
	# a batch of 16 over a backlog of 8 reads no more than 8.
	for b in 0 4 16; do
		got=$(reads fio $JOB --verify_backlog_batch=$b)
		[ "$got" -eq 64 ] ||
			die "fio verify_backlog_batch=$b read $got blocks, not 64"
	done
fi

# ---- verify_async: accepted, checks inline, said; a damaged block found
run --name=a --filename=a.dat --size=256k --bs=4k --rw=randwrite \
	--verify=crc32c --verify_async=2 --verify_async_cpus=0 \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['verify']['blocks_checked']" 64
expect_json 'any(w["code"] == "verify_async_inline" for w in d["warnings"])'
flipbyte a.dat $((4096 * 37 + 100))
run --name=a --filename=a.dat --size=256k --bs=4k --rw=randwrite \
	--verify=crc32c --verify_async=4 --verify_only=1 --output-format=json
expect_rc 4
json_is "d['jobs'][0]['verify']['mismatches']" 1
json_is "d['jobs'][0]['verify']['first'][0]['offset']" $((4096 * 37))
run --name=a --filename=a.dat --size=256k --verify=crc32c \
	--verify_async_cpus=zz --parse-only
expect_rc 2
expect_in err "verify_async_cpus"
exit 0
