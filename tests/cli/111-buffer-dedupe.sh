#!/bin/sh
# dedupe_percentage: the share of 4 KiB blocks written that repeat an
# earlier one (SHA-1 of each) is within 2 points of what was asked, alone
# and with buffer_compress_percentage (which still holds), as fio's.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve
. "$top/tests/cli/buffers.sh"

# check D P: 8 MiB written with dedupe_percentage=D and
# buffer_compress_percentage=P (0: unset)
check() {
	d=$1 p=$2
	rm -f f g
	run --name=d --filename=f --rw=write --bs=4k --size=8m \
		--ioengine=sync --dedupe_percentage="$d" \
		--buffer_compress_percentage="$p"
	expect_rc 0
	set -- $(measure f)
	comp=$1 dup=$3
	near "$dup" "$d" 2 ||
		die "D=$d P=$p: $dup% of the blocks repeat, not ~$d%"
	# Distinct blocks compress as asked: the compressed share of the
	# file is about (100 - P)% of its distinct part.
	want=$("$PY" -c "print((100 - $p) * (100 - $dup) / 100)")
	if [ "$p" -gt 0 ]; then
		set -- $(measure f)
		near "$2" "$want" 2 ||
			die "D=$d P=$p: the file compresses to $2%, not ~$want%"
	fi
	if [ $have_fio = 1 ]; then
		fio --name=d --filename=g --rw=write --bs=4k --size=8m \
			--ioengine=sync --dedupe_percentage="$d" \
			--buffer_compress_percentage="$p" >/dev/null 2>&1 ||
			die "fio failed on the same job"
		set -- $(measure g)
		near "$dup" "$3" 2 ||
			die "D=$d P=$p: iorig repeats $dup% of blocks, fio $3%"
	fi
}

check 30 0
check 70 0
check 30 40
check 50 80

# 100%: every block repeats the first.
rm -f f
run --name=d --filename=f --rw=write --bs=4k --size=4m --ioengine=sync \
	--dedupe_percentage=100
expect_rc 0
set -- $(measure f)
near "$3" 99.9 0.1 || die "D=100: $3% of the blocks repeat"

# dedupe_mode=working_set: the repeats copy only the first distinct
# writes, 5% of 8 MiB = 102 blocks of 4 KiB; repeat mode copies many more.
for mode in working_set repeat; do
	rm -f f
	run --name=d --filename=f --rw=write --bs=4k --size=8m \
		--ioengine=sync --dedupe_percentage=50 --dedupe_mode=$mode
	expect_rc 0
	set -- $(measure f)
	near "$3" 50 2 || die "dedupe_mode=$mode: $3% of the blocks repeat"
	n=$("$PY" - f <<'PY'
import sys, hashlib
d = open(sys.argv[1], 'rb').read()
seen, rep = set(), set()
for i in range(len(d) // 4096):
    h = hashlib.sha1(d[i * 4096:(i + 1) * 4096]).digest()
    (rep if h in seen else seen).add(h)
print(len(rep))
PY
)
	if [ $mode = working_set ]; then
		[ "$n" -le 102 ] || die "working_set: $n distinct blocks repeat"
	else
		[ "$n" -gt 300 ] || die "repeat: only $n distinct blocks repeat"
	fi
done

# dedupe_global: two jobs, each its own 4 MiB file, working sets spread
# over both. The blocks of each file also found in the other (SHA-1):
# none without it, about half with it (fio 3.33: 0.55); the share of
# repeats over both files stays ~50% either way. fio on the same jobs
# must agree within 8 points when it is there.
cross() {
	"$PY" - "$1" "$2" <<'PY'
import sys, hashlib
def blocks(f):
    d = open(f, 'rb').read()
    return [hashlib.sha1(d[i:i + 4096]).digest() for i in range(0, len(d), 4096)]
a, b = blocks(sys.argv[1]), blocks(sys.argv[2])
both = a + b
print(round(100 * sum(h in set(b) for h in a) / len(a), 1),
      round(100 * (len(both) - len(set(both))) / len(both), 1))
PY
}
for g in 0 1; do
	rm -f fa fb
	set -- --rw=write --bs=4k --size=4m --ioengine=sync \
		--dedupe_percentage=50 --dedupe_mode=working_set \
		--dedupe_working_set_percentage=10 --dedupe_global=$g
	run --name=a --filename=fa "$@" --name=b --filename=fb "$@"
	expect_rc 0
	set -- $(cross fa fb)
	echo "dedupe_global=$g: $1% of a's blocks are in b; $2% repeat"
	near "$2" 50 3 || die "dedupe_global=$g: $2% of the blocks repeat"
	if [ $g = 0 ]; then
		[ "$1" = 0.0 ] || die "dedupe_global=0: $1% of a's blocks in b"
	else
		near "$1" 55 8 || die "dedupe_global=1: $1% of a's blocks in b"
	fi
	if [ $have_fio = 1 ]; then
		got=$1
		rm -f fa fb
		set -- --rw=write --bs=4k --size=4m --ioengine=sync \
			--dedupe_percentage=50 --dedupe_mode=working_set \
			--dedupe_working_set_percentage=10 --dedupe_global=$g
		fio --name=a --filename=fa "$@" --name=b --filename=fb "$@" \
			>/dev/null 2>&1 || die "fio failed on the same jobs"
		set -- $(cross fa fb)
		near "$got" "$1" 8 ||
			die "dedupe_global=$g: iorig $got% of a's blocks in b, fio $1%"
	fi
done
# Without a working set it has no effect: a warning says so.
run --name=a --filename=fa --rw=write --bs=4k --size=64k \
	--dedupe_percentage=50 --dedupe_global=1
expect_rc 0
expect_in err "dedupe_global has no effect"

echo "ok"
