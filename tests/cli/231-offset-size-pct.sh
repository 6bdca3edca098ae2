#!/bin/sh
# A percentage size with an offset (fio's rule): the region runs from the
# offset (a percentage rounded up to offset_align, default the smallest
# block size) for size% of the file's end, cut at that end. offset=80%
# with size=20% on a 64 MiB loop device (a power of two, so the rounded-up
# offset leaves less than 20%) reads to the device's end and no further.
# filesize= is the file's end: with offset= the region is filesize -
# offset. Checked from outside: strace's preads and pwrites (first byte,
# end, count), the loop device's sectors read (/sys/block/*/stat), and fio
# on the same job reading or writing the same region. A region past the
# device's end (byte sizes) is refused naming the job file's line.
# lane: parallel
. "$(dirname "$0")/lib.sh"

strace_works || skip "needs strace that may trace here"
have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1
loop_disk disk.img 64
sysdev=/sys/block/$(basename "$dev")/stat

# region PREFIX SYSCALL: "start-end/count" of the SYSCALL calls traced in
# PREFIX.*, each of the length it returned, in the thread that made most
# (the job's: the main thread also reads a device's first blocks, its
# signatures, before the run).
region() {
	for s in "$1".*; do
		awk -v sc="$2" '$0 ~ "^" sc "\\(" && / = [0-9]+$/ {
			n = split($0, a, ", "); o = a[n]; sub(/\).*/, "", o)
			l = $NF; o += 0; if (!c || o < lo) lo = o
			if (o + l > hi) hi = o + l; c++ }
			END { if (c) printf "%d %d-%d/%d\n", c, lo, hi, c }' "$s"
	done | sort -n | tail -1 | cut -d' ' -f2
	rm -f "$1".*
}
rsect() {
	awk '{ printf "%.0f\n", $3 }' "$sysdev"
}

# check WANT SYSCALL ARGS...: iorig (and fio) do WANT with job options ARGS.
check() {
	want=$1 sc=$2
	shift 2
	s0=$(rsect)
	strace -f -ff -qq -s0 -e trace="$sc" -o ist "$IORIG" --name=j \
		--ioengine=psync --thread "$@" >out 2>err || die "iorig $*"
	s1=$(rsect)
	got=$(region ist "$sc")
	[ "$got" = "$want" ] || die "$*: iorig did $got, expected $want"
	case "$*" in
	*--filename=/dev/*)
		b=$(echo "$want" | awk -F'[-/]' '{ print $2 - $1 }')
		[ $(((s1 - s0) * 512)) -eq "$b" ] ||
			die "$*: $dev read $(((s1 - s0) * 512)) bytes, not $b" ;;
	esac
	[ $have_fio = 1 ] || return 0
	rm -f f
	[ -n "${mk:-}" ] && mkrand f "$mk"
	strace -f -ff -qq -s0 -e trace="$sc" -o fst fio --name=j \
		--ioengine=psync --thread "$@" >out 2>err || die "fio $*"
	got=$(region fst "$sc")
	[ "$got" = "$want" ] || die "$*: fio did $got (iorig $want)"
}

M=67108864
# 80% of 64 MiB is 53687091.2, rounded up to 4k: 53690368; 20% (13421772)
# would end 3276 bytes past the device, so the region stops at its end:
# 13418496 bytes, 3276 reads.
check "53690368-$M/3276" pread64 --filename="$dev" --rw=read --bs=4k \
	--direct=1 --offset=80% --size=20%
# 3k blocks: offset 53689344, 4368 blocks of 3k to the end.
check "53689344-67107840/4368" pread64 --filename="$dev" --rw=read \
	--bs=3k --direct=1 --offset=80% --size=20%
# offset_align=1m: 33% (22145925) rounded up to 22 MiB; 50% (32 MiB) fits.
check "23068672-56623104/512" pread64 --filename="$dev" --rw=read \
	--bs=64k --direct=1 --offset=33% --size=50% --offset_align=1m
# 60% from 60%: cut at the end.
check "40267776-$M/6553" pread64 --filename="$dev" --rw=read --bs=4k \
	--direct=1 --offset=60% --size=60%
# A regular file: filesize=1m with offset=256k writes [256k, 1m), and the
# file is 1 MiB, not 1.25.
rm -f f
check "262144-1048576/192" pwrite64 --filename=f --rw=write --bs=4k \
	--offset=256k --filesize=1m
[ "$(fsize f)" -eq 1048576 ] || die "filesize=1m made a $(fsize f)-byte file"
# size=25% of a file of 4000000 bytes from offset=50% (2000000, up to
# 2002944): 1000000 rounded down to 4k, 999424.
mkrand f 4000000
mk=4000000 check "2002944-3002368/244" pread64 --filename=f --rw=read \
	--bs=4k --offset=50% --size=25%
# Byte sizes past the device's end: fio reads up to it and stops without
# a word; refused, naming the job file's line.
cat >past.fio <<EOF
[past]
filename=$dev
rw=read
direct=1
offset=60m
size=8m
EOF
run past.fio
expect_rc 2
expect_in err "past.fio:1"
expect_in err "past the end of $dev"
expect_empty out
echo ok
