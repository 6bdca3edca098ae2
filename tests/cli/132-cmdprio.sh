#!/bin/sh
# cmdprio_percentage=, cmdprio_class=, cmdprio=: the share of a libaio or
# io_uring job's I/Os that carry their own priority, as the block layer
# sees each request (tracefs block_rq_issue's ioprio, in a trace instance
# of this test's own, on a loop device of its own), and fio on the same
# job.
# lane: parallel
. "$(dirname "$0")/lib.sh"

tracing
[ -w "$TR/instances" ] || skip "no writable tracefs instances at $TR"
[ -f "$TR/events/block/block_rq_issue/format" ] || skip "no block_rq_issue"
grep -q ioprio "$TR/events/block/block_rq_issue/format" ||
	skip "block_rq_issue has no ioprio on this kernel"
loop_disk d.img 16
I=$TR/instances/iorig-t132-$$
mkdir "$I" || skip "cannot make a trace instance"
trap 'echo 0 >"$I/events/block/block_rq_issue/enable" 2>/dev/null; rmdir "$I" 2>/dev/null; losetup -d "$dev" 2>/dev/null; cd /; rm -rf "$T"' EXIT
mm=$(lsblk -ndo MAJ:MIN "$dev" | tr -d ' ')
echo "dev == $(( (${mm%:*} << 20) | ${mm#*:} ))" \
	>"$I/events/block/block_rq_issue/filter"
echo 1 >"$I/events/block/block_rq_issue/enable"

# prios TOOL ARGS...: "COUNT CLASS,HINT,LEVEL" lines of the requests the
# disk was given during TOOL's run of 1000 random 4k reads.
prios() {
	_tool=$1
	shift
	: >"$I/trace"
	"$_tool" --name=c --filename="$dev" --direct=1 --rw=randread --bs=4k \
		--iodepth=4 --number_ios=1000 "$@" >"$T/out" 2>"$T/err" ||
		die "$_tool $*: failed"
	grep -o ' [a-z]*,[0-9]*,[0-9]* \[' "$I/trace" | tr -d ' [' |
		sort | uniq -c | awk '{ print $1, $2 }' >"$T/prios"
}
count() { awk -v p="$1" '$2 == p { n = $1 } END { print n + 0 }' "$T/prios"; }

for e in libaio io_uring; do
	prios "$IORIG" --ioengine=$e --cmdprio_percentage=100 \
		--cmdprio_class=2 --cmdprio=3
	[ "$(count be,0,3)" -eq 1000 ] ||
		die "$e 100%: $(cat "$T/prios")"
	prios "$IORIG" --ioengine=$e --cmdprio_percentage=30 \
		--cmdprio_class=2 --cmdprio=1
	n=$(count be,0,1)
	[ "$n" -ge 240 ] && [ "$n" -le 360 ] ||
		die "$e 30%: $n of 1000 requests at be,0,1: $(cat "$T/prios")"
	# Writes only: reads keep the thread's priority.
	prios "$IORIG" --ioengine=$e --cmdprio_percentage=0,100 \
		--cmdprio_class=2 --cmdprio=1
	[ "$(count be,0,1)" -eq 0 ] || die "$e 0,100 on reads: $(cat "$T/prios")"
	# Default class: realtime, level 0 (fio's).
	prios "$IORIG" --ioengine=$e --cmdprio_percentage=100
	[ "$(count rt,0,0)" -eq 1000 ] || die "$e default class: $(cat "$T/prios")"
done
if command -v fio >/dev/null; then
	prios fio --ioengine=io_uring --cmdprio_percentage=100 \
		--cmdprio_class=2 --cmdprio=3
	[ "$(count be,0,3)" -eq 1000 ] || die "fio differs: $(cat "$T/prios")"
fi

# cmdprio_bssplit: per block size, as the disk sees each request (its
# size, its ioprio): over 2*10^4 reads of 4k and 8k (iodepth 1, so no
# request is merged), each share within 1.5 points of the one asked;
# entries without class and level take cmdprio_class and cmdprio.
echo 16384 >"$I/buffer_size_kb" 2>/dev/null
# shares TOOL: "SIZE PRIO PERCENT-OF-THAT-SIZE" lines of the trace
shares() {
	: >"$I/trace"
	"$1" --name=s --filename="$dev" --direct=1 --rw=randread \
		--bssplit=4k/50:8k/50 --iodepth=1 --number_ios=20000 --io_size=1g \
		--ioengine=libaio --cmdprio_bssplit=4k/30/2/1:8k/60/2/5:8k/20 \
		--cmdprio_class=2 --cmdprio=3 >"$T/out" 2>"$T/err" ||
		die "$1 cmdprio_bssplit: failed: $(cat "$T/err")"
	grep -o ' [0-9]* () [0-9]* + [0-9]* [a-z]*,[0-9]*,[0-9]* \[' "$I/trace" |
		awk '{ n[$1 " " $6]++; t[$1]++ }
		     END { for (k in n) { split(k, a, " ");
			   printf "%s %.2f\n", k, 100 * n[k] / t[a[1]] } }' |
		sort >"$T/shares"
	_all=$(grep -c ' [a-z]*,[0-9]*,[0-9]* \[' "$I/trace")
	[ "$_all" -eq 20000 ] || die "$1: $_all requests traced, expected 20000"
	echo "$1 cmdprio_bssplit: $(tr '\n' ';' <"$T/shares")"
}
share() { awk -v s="$1" -v p="$2" '$1 == s && $2 == p { v = $3 } END { print v + 0 }' "$T/shares"; }
shares "$IORIG"
for want in "4096 be,0,1 30" "8192 be,0,5 60" "8192 be,0,3 20"; do
	set -- $want
	got=$(share "$1" "$2")
	"$PY" -c "import sys; sys.exit(abs($got - $3) > 1.5)" ||
		die "cmdprio_bssplit: $2 on $got% of the $1-byte requests, not ~$3%: $(cat "$T/shares")"
done
[ "$(share 4096 be,0,5)" = 0 ] && [ "$(share 8192 be,0,1)" = 0 ] ||
	die "cmdprio_bssplit: a priority on the wrong size: $(cat "$T/shares")"
if command -v fio >/dev/null; then
	cp "$T/shares" "$T/ours"
	shares fio
	for want in "4096 be,0,1" "8192 be,0,5" "8192 be,0,3"; do
		set -- $want
		a=$(awk -v s="$1" -v p="$2" '$1 == s && $2 == p { print $3 }' "$T/ours")
		b=$(share "$1" "$2")
		"$PY" -c "import sys; sys.exit(abs(${a:-0} - $b) > 2.5)" ||
			die "cmdprio_bssplit: $2 on $a% of $1-byte requests, fio $b%"
	done
fi
run --name=c --ioengine=libaio --filename="$dev" --cmdprio_bssplit=4k/30 \
	--cmdprio_percentage=10 --parse-only
expect_rc 2
expect_in err "option 'cmdprio_bssplit': cmdprio_percentage=10 is set too"
run --name=c --ioengine=libaio --filename="$dev" --cmdprio_bssplit=4k/60:4k/50
expect_rc 2
expect_in err "add up to 110"

# Another engine: a warning, as for the other engine options.
run --name=c --ioengine=psync --filename="$dev" --size=64k \
	--cmdprio_percentage=50
expect_rc 0
expect_in err "warning: .*cmdprio_percentage"
run --name=c --ioengine=libaio --filename="$dev" --cmdprio_percentage=101
expect_rc 2
expect_in err "option 'cmdprio_percentage': expected N or READ,WRITE"
run --name=c --ioengine=libaio --filename="$dev" --cmdprio=1,8
expect_rc 2
