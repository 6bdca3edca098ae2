#!/bin/sh
# buffer_compress_percentage and buffer_compress_chunk: the data written
# compresses (zlib level 1, per 64 KiB piece and as one stream) to within
# 2 points of 100 - P, has no duplicate 4 KiB block, and compresses as
# fio's data for the same job does (within 1 point).
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

. "$top/tests/cli/buffers.sh"

# case P CHUNK: write 8 MiB with iorig (and fio) and compare.
check() {
	p=$1; shift
	rm -f f g
	run --name=c --filename=f --rw=write --bs=4k --size=8m \
		--ioengine=sync --buffer_compress_percentage="$p" "$@"
	expect_rc 0
	set -- $(measure f) "$@"
	comp=$1 whole=$2 dup=$3
	shift 3
	want=$((100 - p))
	[ "$p" -eq 100 ] && want=0
	near "$comp" "$want" 2 ||
		die "P=$p $*: 64 KiB pieces compress to $comp%, not ~$want%"
	near "$whole" "$want" 2 ||
		die "P=$p $*: the file compresses to $whole%, not ~$want%"
	if [ "$p" -lt 100 ]; then
		[ "$dup" = 0.00 ] || die "P=$p $*: $dup% duplicate blocks"
	fi
	if [ $have_fio = 1 ]; then
		fio --name=c --filename=g --rw=write --bs=4k --size=8m \
			--ioengine=sync --buffer_compress_percentage="$p" "$@" \
			>/dev/null 2>&1 || die "fio failed on the same job"
		set -- $(measure g)
		near "$comp" "$1" 1 ||
			die "P=$p: iorig's data compresses to $comp%, fio's to $1%"
	fi
}

check 50
check 70 --buffer_compress_chunk=4k
check 25 --buffer_compress_chunk=0
check 90 --buffer_compress_chunk=1k --bs=16k
check 100

# Mixed block sizes: chunks follow the smallest write; still within 2.
rm -f f
run --name=c --filename=f --rw=write --bsrange=4k-16k --size=8m \
	--ioengine=sync --buffer_compress_percentage=60
expect_rc 0
set -- $(measure f)
near "$1" 40 2 || die "bsrange: compresses to $1%, not ~40%"

# Out of range: refused, nothing run.
run --name=c --filename=h --rw=write --size=1m --buffer_compress_percentage=101
expect_rc 2
expect_in err "buffer_compress_percentage"
[ ! -e h ] || die "a refused job created its file"
echo "ok"
