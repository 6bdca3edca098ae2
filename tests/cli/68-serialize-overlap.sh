#!/bin/sh
# serialize_overlap=1: at iodepth 32 on a 64 KiB region, no two I/Os whose
# byte ranges overlap are ever in flight together: in the per-I/O trace
# (IORIG_IO_TRACE: queue and completion stamps), an I/O overlapping an
# earlier one is queued only after that one completed. Without the option
# the same job has such pairs, so the check can fail.
# lane: parallel
. "$(dirname "$0")/lib.sh"

have_odirect "$T" || skip "no O_DIRECT on $T"
JOB="--name=s --filename=s.dat --size=64k --io_size=16m --rw=randrw
	--bsrange=4k-16k --norandommap=1 --direct=1 --iodepth=32
	--ioengine=io_uring --output-format=json"

# The overlapping pairs in flight together, the I/Os, and the most in
# flight at once, of a trace.
pairs() {
	"$PY" - "$1" <<'EOF'
import sys
ios = []
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    f = line.split()
    off, ln, tq, td = int(f[1]), int(f[2]), int(f[3]), int(f[5])
    ios.append((tq, td, off, off + ln))
ios.sort()
active, bad, deepest = [], 0, 0
for tq, td, a, b in ios:
    active = [x for x in active if x[1] > tq]
    deepest = max(deepest, len(active) + 1)
    bad += sum(1 for x in active if x[2] < b and a < x[3])
    active.append((tq, td, a, b))
print(bad, len(ios), deepest)
EOF
}

IORIG_IO_TRACE=$T/tr run $JOB
[ $rc -eq 0 ] || grep -q "io_uring" err && [ $rc -ne 0 ] &&
	skip "io_uring is not usable here: $(head -c 200 err)"
expect_rc 0
set -- $(pairs tr.s.0)
[ "$2" -gt 1000 ] || die "expected over 1000 I/Os in the trace, got $2"
[ "$1" -gt 0 ] || skip "no overlapping I/Os in flight even without serialize_overlap: this machine cannot show it"
without=$1

IORIG_IO_TRACE=$T/tr2 run $JOB --serialize_overlap=1
expect_rc 0
set -- $(pairs tr2.s.0)
[ "$2" -gt 1000 ] || die "expected over 1000 I/Os in the trace, got $2"
[ "$1" -eq 0 ] || die "serialize_overlap=1: $1 overlapping pairs in flight together (without: $without)"
expect_json "d['jobs'][0]['read']['ios'] + d['jobs'][0]['write']['ios'] == $2"
# It still queues more than one where the ranges do not overlap.
[ "$3" -gt 1 ] || die "serialize_overlap=1: never more than one I/O in flight"
exit 0
