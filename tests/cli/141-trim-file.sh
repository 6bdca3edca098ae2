#!/bin/sh
# Trims on files punch holes (fallocate PUNCH_HOLE|KEEP_SIZE), whatever the
# engine: the file's holes (SEEK_HOLE/SEEK_DATA) are exactly the bytes
# trimmed, its size and every byte outside stay (checksums); rw=trim with
# io_size leaves the same holes as fio's falloc engine on the same job;
# trimwrite trims then writes each block (IORIG_IO_TRACE order, no hole
# left); bs=R,W,T gives trims the third size; rate_iops=,,N paces trims.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

K=1024
M=1048576

# holes FILE: the holes of FILE as "start-end" items, in order.
holes() {
	"$PY" -c '
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
size, pos, out = os.fstat(fd).st_size, 0, []
while pos < size:
    h = os.lseek(fd, pos, os.SEEK_HOLE)
    if h >= size:
        break
    try:
        d = os.lseek(fd, h, os.SEEK_DATA)
    except OSError:
        d = size
    out.append("%d-%d" % (h, d))
    pos = d
print(" ".join(out) or "none")' "$1"
}

mkrand f.dat $((8 * M))
[ "$(holes f.dat)" = none ] || skip "this file system reports no holes"
for eng in sync libaio io_uring pthread; do
	mkrand f.dat $((8 * M))
	run --name=t --filename=f.dat --rw=randtrim --bs=64k --ioengine=$eng \
		--iodepth=4 --offset=2m --size=4m --output-format=json
	expect_rc 0
	json_is "d['jobs'][0]['trim']['io_bytes']" $((4 * M))
	# A file system may keep a hole's edges in its blocks: ext4, xfs and
	# tmpfs punch 64k-aligned ranges exactly.
	[ "$(holes f.dat)" = "$((2 * M))-$((6 * M))" ] ||
		die "$eng: holes $(holes f.dat), expected [2m, 6m) only"
	[ "$(fsize f.dat)" = $((8 * M)) ] || die "$eng: the size changed"
done
mkrand f.dat $((8 * M))
lo=$(sum_range f.dat 0 $((2 * M)))
hi=$(sum_range f.dat $((6 * M)) $((2 * M)))
run --name=t --filename=f.dat --rw=randtrim --bs=16k --offset=2m --size=4m
expect_rc 0
[ "$(sum_range f.dat 0 $((2 * M)))" = "$lo" ] || die "bytes before changed"
[ "$(sum_range f.dat $((6 * M)) $((2 * M)))" = "$hi" ] ||
	die "bytes after changed"

# rw=trim, io_size=256k: the same holes as fio's falloc engine leaves.
mkrand a.dat $((2 * M))
cp a.dat b.dat
run --name=t --filename=a.dat --rw=trim --bs=64k --offset=512k --size=1m \
	--io_size=256k
expect_rc 0
[ "$(holes a.dat)" = "$((512 * K))-$((768 * K))" ] ||
	die "rw=trim io_size=256k left holes $(holes a.dat)"
if command -v fio >/dev/null 2>&1; then
	fio --name=t --filename=b.dat --ioengine=falloc --rw=trim --bs=64k \
		--offset=512k --size=1m --io_size=256k >fio.out 2>&1 ||
		die "fio failed: $(cat fio.out)"
	[ "$(holes b.dat)" = "$(holes a.dat)" ] ||
		die "fio's holes $(holes b.dat), iorig's $(holes a.dat)"
	cmp -s a.dat b.dat || die "fio and iorig left different bytes"
fi

# trimwrite: trim then write of each block, in that order; no hole left.
mkrand c.dat $((M))
IORIG_IO_TRACE=$T/tr run --name=tw --filename=c.dat --rw=trimwrite \
	--bs=64k --size=256k
expect_rc 0
got=$(grep -v '^#' "$T/tr.tw.0" | awk '{printf "%s:%s:%s ", $1, $2, $3}')
want="trim:0:65536 write:0:65536 trim:65536:65536 write:65536:65536 "
want="${want}trim:131072:65536 write:131072:65536 trim:196608:65536 "
want="${want}write:196608:65536 "
[ "$got" = "$want" ] || die "trimwrite issued: $got"
[ "$(holes c.dat)" = none ] || die "trimwrite left holes $(holes c.dat)"

# bs=R,W,T: trims take the third size.
mkrand d.dat $((M))
IORIG_IO_TRACE=$T/bs run --name=b --filename=d.dat --rw=randtrim \
	--bs=4k,8k,16k --size=64k
expect_rc 0
[ "$(grep -v '^#' "$T/bs.b.0" | awk '{print $3}' | sort -u)" = 16384 ] ||
	die "bs=4k,8k,16k did not trim 16k blocks"

# trimwrite writes with the trims' length, longer than bs's write size
# here: the write buffers are as long (a sanitizer build would see an
# overflow), and every trimmed byte is written again.
mkrand e.dat $((M))
IORIG_IO_TRACE=$T/tw2 run --name=t --filename=e.dat --rw=randtrimwrite \
	--bs=4k,4k,64k --size=512k --iodepth=4 --ioengine=libaio
expect_rc 0
[ "$(grep -v '^#' "$T/tw2.t.0" | awk '{print $1 ":" $3}' | sort -u |
     tr '\n' ' ')" = "trim:65536 write:65536 " ] ||
	die "randtrimwrite lengths: $(cat "$T/tw2.t.0")"
[ "$(holes e.dat)" = none ] || die "randtrimwrite left holes $(holes e.dat)"

# rate_iops=,,N paces trims: 11 trims at 200/s take 50 ms at least.
run --name=r --filename=d.dat --rw=randtrim --bs=4k --size=64k \
	--number_ios=11 --rate_iops=,,200 --output-format=json
expect_rc 0
expect_json "d['jobs'][0]['runtime_ns'] >= 49000000" "trims paced"
expect_json "d['jobs'][0]['trim']['ios'] == 11"
echo ok
