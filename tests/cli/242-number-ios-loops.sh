#!/bin/sh
# number_ios counts over every loop, as fio's (number_ios x loops), never
# beyond the loops' passes. Outside truths: fio 3.33 on the same jobs,
# and the read calls the kernel saw (strace) for a file-backed one.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve
command -v fio >/dev/null 2>&1 || skip "needs fio (Debian's fio 3.33)"

# ios TOOL ARGS: the I/Os of all directions of the job's JSON.
ios() {
	tool=$1
	shift
	"$tool" --name=n --ioengine=null --size=1m --bs=4k "$@" \
		--output-format=json 2>/dev/null | "$PY" -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]
print(sum(j[d].get("total_ios", j[d].get("ios", 0))
          for d in ("read", "write", "trim")))'
}

for a in "--rw=randread --number_ios=100 --loops=3" \
	 "--rw=randread --number_ios=300 --loops=2" \
	 "--rw=read --number_ios=50 --loops=4" \
	 "--rw=randwrite --number_ios=100" \
	 "--rw=randtrimwrite --number_ios=100"; do
	# shellcheck disable=SC2086
	i=$(ios "$IORIG" $a)
	# shellcheck disable=SC2086
	f=$(ios fio $a)
	[ -n "$i" ] && [ "$i" = "$f" ] || die "$a: iorig $i I/Os, fio $f"
	echo "ok: $a: $i I/Os as fio"
done

# fio 3.33 doubles number_ios again each loop with trimwrite (768 where
# 600 were asked, see DIFFERENCES FROM FIO): iorig does number_ios trims
# and as many writes per loop.
i=$(ios "$IORIG" --rw=randtrimwrite --number_ios=100 --loops=3)
[ "$i" = 600 ] || die "randtrimwrite number_ios=100 loops=3: $i I/Os, not 600"

# The kernel's count: 3 loops of 40 reads of a file, psync.
strace_works || skip "strace cannot trace here"
mkrand f 1048576
strace -f -qq -e trace=pread64 -o st "$IORIG" --name=s --filename=f \
	--rw=randread --bs=4k --size=1m --ioengine=psync --number_ios=40 \
	--loops=3 >/dev/null 2>&1 || die "the strace run failed"
n=$(grep -c 'pread64(.*= 4096$' st)
[ "$n" = 120 ] || die "number_ios=40 loops=3: $n reads of 4 KiB, not 120"
echo "ok: number_ios x loops"
