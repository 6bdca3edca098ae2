#!/bin/sh
# Trims on a block device (a loop device whose backing file is on this
# machine's file system): rw=randtrim with each of sync, libaio, io_uring
# and pthread discards exactly its region, as the kernel's counters say
# (/sys/block/loopN/stat fields 12-15: discards completed, merged, sectors,
# ticks), the backing file gets holes there (SEEK_HOLE/SEEK_DATA) and
# fewer allocated blocks, and bytes outside the regions keep their
# checksums. fio on the same job discards as many sectors in as many I/Os,
# and iorig's fio-json has fio's trim io_bytes and total_ios.
# trimwrite discards and then writes each block (fio's counts: number_ios
# trims and as many writes). A device with a file system on it is refused
# to a trim job without allow_destructive, as to a writer.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

loop_disk back.img 24
n=${dev#/dev/}
S=/sys/block/$n
[ "$(cat $S/queue/discard_max_bytes 2>/dev/null || echo 0)" -gt 0 ] ||
	skip "$dev does not take discards (queue/discard_max_bytes 0)"

# disc: discards completed+merged, and sectors discarded, so far.
disc() {
	set -- $(cat $S/stat)
	echo "$((${12} + ${13})) ${14}"
}

# hole_at OFF LEN: the backing file has no data in [OFF, OFF+LEN).
hole_at() {
	"$PY" -c '
import os, sys
fd = os.open("back.img", os.O_RDONLY)
off, ln = int(sys.argv[1]), int(sys.argv[2])
try:
    nxt = os.lseek(fd, off, os.SEEK_DATA)
except OSError:
    nxt = os.fstat(fd).st_size
print(int(nxt >= off + ln))' "$1" "$2"
}

M=1048576
before_lo=$(sum_range back.img 0 $((4 * M)))
before_hi=$(sum_range back.img $((14 * M)) $((10 * M)))
[ "$(hole_at $((4 * M)) $((2 * M)))" = 0 ] || die "the new disk has holes"

off=4
for eng in sync libaio io_uring pthread; do
	set -- $(disc); d0=$1 s0=$2
	b0=$(stat -c %b back.img)
	run --name=t --filename="$dev" --rw=randtrim --bs=64k --direct=1 \
		--ioengine=$eng --iodepth=4 --offset=${off}m --size=2m \
		--output-format=json
	expect_rc 0
	json_is "d['jobs'][0]['trim']['io_bytes']" $((2 * M))
	json_is "d['jobs'][0]['trim']['ios']" 32
	json_is "d['jobs'][0]['write']['ios'] + d['jobs'][0]['read']['ios']" 0
	set -- $(disc)
	[ $(($2 - s0)) -eq 4096 ] ||
		die "$eng: the device discarded $(($2 - s0)) sectors, not 4096"
	[ $(($1 - d0)) -eq 32 ] ||
		die "$eng: the device took $(($1 - d0)) discards, not 32"
	[ "$(hole_at $((off * M)) $((2 * M)))" = 1 ] ||
		die "$eng: [${off}m, +2m) of the backing file is not a hole"
	b1=$(stat -c %b back.img)
	[ $((b0 - b1)) -ge 4000 ] ||
		die "$eng: the backing file freed $((b0 - b1)) blocks, not ~4096"
	off=$((off + 2))
done

# fio on the same job, in [12m, 14m): the same discards.
if command -v fio >/dev/null 2>&1; then
	set -- $(disc); d0=$1 s0=$2
	fio --name=t --filename="$dev" --rw=randtrim --bs=64k --direct=1 \
		--offset=12m --size=2m --output-format=json >fio.json 2>fio.err ||
		die "fio failed: $(cat fio.err)"
	set -- $(disc)
	[ $(($2 - s0)) -eq 4096 ] && [ $(($1 - d0)) -eq 32 ] ||
		die "fio discarded $(($2 - s0)) sectors in $(($1 - d0)) I/Os"
	[ "$(jsonf fio.json "d['jobs'][0]['trim']['io_bytes']")" = $((2 * M)) ] ||
		die "fio's trim io_bytes differ"
	[ "$(hole_at $((12 * M)) $((2 * M)))" = 1 ] || die "fio left data"
	# iorig's fio-json has the trims where fio has them.
	run --name=t --filename="$dev" --rw=randtrim --bs=64k --direct=1 \
		--offset=12m --size=2m --output-format=fio-json
	expect_rc 0
	for k in io_bytes total_ios; do
		[ "$(json "d['jobs'][0]['trim']['$k']")" = \
		  "$(jsonf fio.json "d['jobs'][0]['trim']['$k']")" ] ||
			die "fio-json trim.$k differs from fio's"
	done
	json_is "d['jobs'][0]['write']['total_ios']" 0
else
	echo "no fio: the comparison is skipped"
fi

[ "$(sum_range back.img 0 $((4 * M)))" = "$before_lo" ] ||
	die "bytes before the trimmed regions changed"
[ "$(sum_range back.img $((14 * M)) $((10 * M)))" = "$before_hi" ] ||
	die "bytes after the trimmed regions changed"

# trimwrite: number_ios=4 is 4 trims and 4 writes of the same blocks, as
# fio counts them; the device sees both.
set -- $(disc); d0=$1 s0=$2
w0=$(awk '{print $7}' $S/stat)
run --name=tw --filename="$dev" --rw=trimwrite --bs=64k --direct=1 \
	--offset=14m --size=1m --number_ios=4 --output-format=json \
	--allow_destructive=1
expect_rc 0
json_is "d['jobs'][0]['trim']['ios'], d['jobs'][0]['write']['ios']" "(4, 4)"
set -- $(disc)
[ $(($2 - s0)) -eq 512 ] || die "trimwrite discarded $(($2 - s0)) sectors"
w1=$(awk '{print $7}' $S/stat)
[ $((w1 - w0)) -eq 512 ] || die "trimwrite wrote $((w1 - w0)) sectors"
[ "$(hole_at $((14 * M)) 65536)" = 0 ] || die "trimwrite left a hole"

# A file system on the device: a trim job is a writer for the guard.
command -v mkfs.ext4 >/dev/null 2>&1 || skip "no mkfs.ext4 (e2fsprogs)"
mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 || die "mkfs.ext4 failed"
set -- $(disc); s0=$2
run --name=t --filename="$dev" --rw=randtrim --bs=64k --size=1m
expect_rc 2
expect_in err "allow_destructive"
set -- $(disc)
[ "$2" = "$s0" ] || die "a refused trim job discarded sectors"
run --name=t --filename="$dev" --rw=read --bs=64k --size=1m
expect_rc 0
echo "ok"
