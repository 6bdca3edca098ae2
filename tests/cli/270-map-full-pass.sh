#!/bin/sh
# The random map's full-pass guarantee, seen from outside the worker's
# loop (its usual case, gen_map_fast, takes each block without the
# per-I/O region check): strace records the offset of every pread64 and
# pwrite64 a random job makes; over loops=3 each pass of N I/Os must hit
# every one of the N blocks exactly once, for sizes that are and are not
# powers of two, and the passes must come in different orders. The same
# randseed gives the same offsets again, another randseed others.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

strace_works || skip "no strace, or it may not trace here"

# offsets NAME RW BLOCKS SEED: the job's offsets, one a line, in $T/NAME
offsets() {
	strace -f -s 0 -e trace=pread64,pwrite64 -o "$T/st.$1" "$IORIG" \
		--name=map --ioengine=psync --rw="$2" --bs=4k \
		--size=$(($3 * 4096)) --loops=3 --randseed="$4" \
		--filename="$T/f" >"$T/out" 2>"$T/err" ||
		die "iorig $2 of $3 blocks failed"
	sed -n 's/.*p\(read\|write\)64([0-9]*, [^,]*, 4096, \([0-9]*\)) *= 4096$/\2/p' \
		"$T/st.$1" >"$T/$1"
}

# check NAME BLOCKS: three passes, each every block once
check() {
	"$PY" - "$T/$1" "$2" <<'EOF' || die "$1: not every block once per pass"
import sys
offs = [int(x) for x in open(sys.argv[1])]
n = int(sys.argv[2])
if len(offs) != 3 * n:
    sys.exit("%d I/Os, expected %d" % (len(offs), 3 * n))
passes = [offs[i * n:(i + 1) * n] for i in range(3)]
for k, p in enumerate(passes):
    if sorted(p) != [b * 4096 for b in range(n)]:
        sys.exit("pass %d is not each block once" % k)
if n >= 64 and (passes[0] == passes[1] or passes[1] == passes[2]):
    sys.exit("two passes in the same order")
EOF
}

dd if=/dev/zero of="$T/f" bs=4096 count=4097 status=none
for n in 1 2 3 7 64 1000 4097; do
	offsets "r$n" randread "$n" 7
	check "r$n" "$n"
done
offsets w1000 randwrite 1000 7
check w1000 1000

# randseed: the same sequence again, and another one for another seed
offsets again randread 1000 7
cmp -s "$T/r1000" "$T/again" || die "randseed=7 twice gave two sequences"
offsets other randread 1000 8
check other 1000
cmp -s "$T/r1000" "$T/other" && die "randseed=7 and 8 gave one sequence"
echo "ok random map: every block once per pass"
