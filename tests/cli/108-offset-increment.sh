#!/bin/sh
# offset_increment and offset_align (issue 12, opt-a): clone N of numjobs
# starts offset + N * offset_increment into a shared file; a percentage
# (of offset or of the increment) is of the file's size, and the start is
# then rounded up to offset_align (default: the smallest block size), as
# fio does. Seen from outside: strace -ff gives each thread's preads; the
# first and last byte each clone read must be the expected region, and
# fio on the same job reads the same regions.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "no strace"
have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1

mkrand f 4000000

# regions PREFIX: "start-end/count" of the 4k preads of each thread, sorted.
regions() {
	for s in "$1".*; do
		awk '/pread64\(.*, 4096, [0-9]+\) += +4096/ {
			n = split($0, a, ", "); o = a[n]; sub(/\).*/, "", o)
			o += 0; if (!c || o < lo) lo = o
			if (o + 4096 > hi) hi = o + 4096; c++ }
			END { if (c) printf "%d-%d/%d\n", lo, hi, c }' "$s"
	done | sort -n | tr '\n' ' '
	rm -f "$1".*
}

# check WANT ARGS...: iorig (and fio) read WANT with job options ARGS.
check() {
	want=$1; shift
	strace -f -ff -qq -s0 -e trace=pread64 -o ist "$IORIG" --name=j \
		--filename=f --rw=read --bs=4k --ioengine=psync --thread \
		"$@" >out 2>err || die "iorig $*"
	got=$(regions ist)
	[ "$got" = "$want" ] || die "$*: iorig read $got, expected $want"
	[ $have_fio = 1 ] || return 0
	strace -f -ff -qq -s0 -e trace=pread64 -o fst fio --name=j \
		--filename=f --rw=read --bs=4k --ioengine=psync --thread \
		"$@" >out 2>err || die "fio $*"
	got=$(regions fst)
	[ "$got" = "$want" ] || die "$*: fio read $got (iorig $want)"
}

# Bytes: clone N at 8k + N * 1m, 64k each.
check "8192-73728/16 1056768-1122304/16 2105344-2170880/16 " \
	--size=64k --numjobs=3 --offset=8k --offset_increment=1m
# A percentage increment: 25% of 4000000 = 1000000 per clone, each start
# rounded up to 4k (the block size): 0, 1003520, 2002944, 3002368.
check "0-16384/4 1003520-1019904/4 2002944-2019328/4 3002368-3018752/4 " \
	--size=16k --numjobs=4 --offset_increment=25%
# offset=10% (400000) + N * 1000k, rounded up to offset_align=64k.
check "458752-561152/25 1441792-1544192/25 2490368-2592768/25 " \
	--size=100k --numjobs=3 --offset=10% --offset_increment=1000k \
	--offset_align=64k
# offset_align applies to percentages only: a byte offset stays as given.
check "12288-28672/4 " --size=16k --offset=12k --offset_align=64k
# A clone that would start past 2^63 - 1: refused, naming the option.
run --name=j --filename=f --rw=read --bs=4k --size=4k --numjobs=3 \
	--offset_increment=4611686018427387904
expect_rc 2
expect_in err "offset_increment.*clone 2"
expect_empty out
# Without numjobs, the increment moves nothing (clone 0).
check "0-16384/4 " --size=16k --offset_increment=1m
echo ok
