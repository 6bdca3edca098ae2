#!/bin/sh
# Buffered 1 MiB sequential reads of a block device whose reads cost CPU,
# not waiting (issue 23 saw iorig 2.7-3.0x faster than fio on zram):
# iorig and fio 3.33 do the same work. The truths:
# - strace: the same calls on the device: one BLKFLSBUF (invalidate=1),
#   POSIX_FADV_SEQUENTIAL over the region (fadvise_hint=1), and 64 reads
#   of 1 MiB (iorig adds POSIX_FADV_DONTNEED, which BLKFLSBUF already
#   did for a device);
# - /sys/block/*/stat: the same sectors for each tool (the device read
#   once, whole) in as many requests within 10% (readahead the same).
# Their speed is not checked: such reads are copies on the reading
# thread, a CPU figure that other programs' load moves several times
# over from run to run (the manual, invalidate, says what to believe).
# lane: parallel
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null 2>&1 || skip "needs fio (Debian's fio 3.33)"
strace_works || skip "strace cannot trace here"
loop_disk d.img 64
name=${dev#/dev/}

set -- --name=s --filename="$dev" --rw=read --bs=1m --size=64m \
	--output-format=json
args=$*

stat2() {
	awk '{ print $1, $3 }' "/sys/block/$name/stat"
}

# The calls and the device's requests of each.
for tool in fio "$IORIG"; do
	b=$(stat2)
	# shellcheck disable=SC2086
	strace -f -qq -o st -e trace=ioctl,fadvise64,pread64 \
		"$tool" $args >out 2>err || die "$tool failed"
	set -- $b $(stat2)
	reqs=$(($3 - $1)) sectors=$(($4 - $2))
	[ "$sectors" = 131072 ] ||
		die "$tool: the device read $sectors sectors, not 64 MiB"
	fl=$(grep -c 'BLKFLSBUF) *= 0' st)
	seq=$(grep -c 'fadvise64(.*, 0, 67108864, POSIX_FADV_SEQUENTIAL) = 0' st)
	rd=$(grep -c 'pread64(.*, 1048576, [0-9]*) *= 1048576$' st)
	[ "$fl" = 1 ] && [ "$seq" = 1 ] && [ "$rd" = 64 ] ||
		die "$tool: BLKFLSBUF $fl, FADV_SEQUENTIAL $seq, 1 MiB reads $rd"
	eval "reqs_${tool##*/}=$reqs"
	echo "ok: ${tool##*/}: BLKFLSBUF, FADV_SEQUENTIAL, 64 reads of 1 MiB;" \
		"the device: $reqs requests, $sectors sectors"
done
# readahead's requests: as many, give or take one in ten (a request may
# be split or merged as the reads and the readahead meet)
"$PY" -c "import sys; sys.exit(abs($reqs_fio - $reqs_iorig) * 10 > $reqs_fio)" ||
	die "device requests: fio $reqs_fio, iorig $reqs_iorig"
