#!/bin/sh
# The device sees the workload asked for: sequential 4 KiB O_DIRECT reads
# at QD32 with the default batching reach the block device as 4 KiB
# requests, not merged into larger ones (the kernel's own count: field 2
# of /sys/block/<dev>/stat, reads merged, against field 1, reads done).
# The control, iodepth_batch_submit=32, shows that this device merges
# contiguous requests handed over in one call (else the test says so and
# skips). Random reads keep batching (iodepth_batch_submit=0): fewer
# submitting calls than I/Os, counted by strace -c.
# lane: parallel
. "$(dirname "$0")/lib.sh"

loop_disk disk.img 16
sys=/sys/block/${dev#/dev/}/stat
[ -r "$sys" ] || skip "no $sys"

# merged ENGINE [OPTION...]: percent of the reads that were merged
merged() {
	_e=$1
	shift
	_a=$(awk '{print $1, $2}' "$sys")
	run --name=s --filename="$dev" --rw=read --bs=4k --size=8m \
		--iodepth=32 --direct=1 --ioengine="$_e" --output-format=json "$@"
	[ "$rc" -eq 0 ] || die "$_e $*: exit $rc"
	json_is "d['jobs'][0]['read']['ios']" 2048
	_b=$(awk '{print $1, $2}' "$sys")
	echo "$_a $_b" | awk '{ r = $3 - $1; m = $4 - $2;
		printf "%d", r + m ? 100 * m / (r + m) : 0 }'
}

for e in libaio io_uring; do
	run --name=probe --filename="$dev" --size=64k --ioengine="$e" \
		--direct=1 --output-format=json
	if [ "$rc" -ne 0 ] && grep -q "setting up engine $e" "$T/err"; then
		echo "note: engine $e cannot run here"
		continue
	fi
	ctl=$(merged $e --iodepth_batch_submit=32) || { echo "$ctl"; exit 1; }
	if [ "$ctl" -lt 50 ]; then
		skip "$dev merged only $ctl% of sequential reads submitted" \
			"32 at a time: it shows no merging to avoid"
	fi
	def=$(merged $e) || { echo "$def"; exit 1; }
	[ "$def" -le 2 ] || die "$e: default batching let the block layer" \
		"merge $def% of sequential 4k reads (batch of 32: $ctl%)"
	echo "ok $e: sequential 4k QD32 merged $def% (batch of 32: $ctl%)"
done

# Random reads still go in batches.
command -v strace >/dev/null 2>&1 || skip "the system call part unchecked: no strace"
strace -f -c -e trace=io_submit -o "$T/sc" "$IORIG" --name=r \
	--filename="$dev" --rw=randread --bs=4k --size=8m --iodepth=32 \
	--direct=1 --ioengine=libaio --number_ios=2000 \
	--output-format=json >"$T/out" 2>"$T/err" || die "randread under strace"
calls=$(awk '$NF == "io_submit" { print $4 }' "$T/sc")
[ -n "$calls" ] || die "no io_submit count in: $(cat "$T/sc")"
[ "$calls" -lt 1900 ] ||
	die "random reads: $calls io_submit calls for 2000 I/Os: not batched"
echo "ok randread: 2000 I/Os in $calls io_submit calls"
