#!/bin/sh
# serialize_overlap and read_iolog under zonemode=zbd on zoned null_blk
# devices made here (64 MiB, 8 MiB zones of 6 MiB capacity, 3 open at
# most), iorig on one and fio 3.33 on another made alike, the same jobs:
# the zones after them (blkzone: write pointers and conditions) and the
# I/O counts must be the same, and no I/O fails.
# - serialize_overlap=1 with 8 writes in flight (libaio): sequential
#   writes over zones 0-3 at the write pointers, each zone to its
#   capacity (a write off the write pointer is an I/O error there); a
#   random mixed job over them with 8 in flight, no error.
# - read_iolog: a log of writes from zone 4's start and reads of them is
#   replayed where the log has them (fio's meaning: a replayed I/O is
#   not moved), zone 4's write pointer where the writes leave it; a log
#   whose write is not at the write pointer fails on the device with
#   both tools.
. "$(dirname "$0")/../lib.sh"
need blkzone util-linux
FIO=/usr/bin/fio
[ -x $FIO ] || skip "no $FIO (Debian's fio)"
attrs="size=64 blocksize=4096 memory_backed=0 zoned=1 zone_size=8
	zone_capacity=6 zone_max_open=3"
nullb_pair zs $attrs
# zeros: random data may carry a signature (blkid found jbd in one
# run), and iorig's write guard then refuses the next job
common="--direct=1 --zonemode=zbd --zero_buffers=1"

# n FILE EXPR: EXPR on the JSON's first job (j)
n() {
	"$PY" -S -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; print(eval(sys.argv[2]))' "$1" "$2"
}

# 1. serialize_overlap, sequential writes: 4 zones of 6 MiB, 96 writes.
both s --offset=0 --size=32M --bs=256k --rw=write --ioengine=libaio \
	--iodepth=8 --serialize_overlap=1
za=$(zones_of $a 0 5)
zb=$(zones_of $b 0 5)
[ "$za" = "$zb" ] && [ "$za" = "12288:fu 12288:fu 12288:fu 12288:fu 0:em" ] ||
	die "zones 0-4: iorig's '$za', fio's '$zb'"
set -- $(jvals "$T/s.i" "j['write']['ios']" "j['write']['errors']" \
	"@$T/s.f" "j['write']['total_ios']" "j['error']")
c=$1,$3 e=$2,$4
[ "$c" = "96,96" ] && [ "$e" = "0,0" ] ||
	die "serialize_overlap writes: (iorig,fio) $c, errors $e"
zbd_check $a "$T/s.i" >"$T/c1"
echo "ok: serialize_overlap=1, iodepth=8: zones 0-4 '$za' as fio's;" \
	"writes $c; $(cat "$T/c1")"

# 2. A random mixed job over the written zones, 8 in flight: reads below
# the write pointers, writes at them (full zones reset), no error.
both m --offset=0 --size=32M --bs=64k --rw=randrw --io_size=8M \
	--ioengine=libaio --iodepth=8 --serialize_overlap=1
set -- $(jvals "$T/m.i" "j['read']['errors'] + j['write']['errors']" \
	"j['read']['ios'] + j['write']['ios']" "@$T/m.f" "j['error']" \
	"j['read']['total_ios'] + j['write']['total_ios']")
e=$1,$3 ci=$2 cf=$4
[ "$e" = "0,0" ] && [ "$ci" = 128 ] && [ "$cf" = 128 ] ||
	die "serialize_overlap randrw: errors $e, I/Os iorig $ci fio $cf"
zbd_check $a "$T/m.i" >"$T/c2"
echo "ok: serialize_overlap=1 randrw: $ci I/Os (fio $cf), no error;" \
	"$(cat "$T/c2")"

# 3. read_iolog: 8 writes of 256 KiB from zone 4's start (32 MiB), then
# 4 reads of them.
mklog() {
	echo "fio version 2 iolog"
	echo "$1 add"
	echo "$1 open"
	for i in 0 1 2 3 4 5 6 7; do
		echo "$1 write $((33554432 + i * 262144)) 262144"
	done
	for i in 0 1 2 3; do
		echo "$1 read $((33554432 + i * 262144)) 262144"
	done
	echo "$1 close"
}
mklog $a >"$T/la"
mklog $b >"$T/lb"
"$IORIG" $common --name=r --read_iolog="$T/la" --output-format=json \
	>"$T/r.i" 2>"$T/r.ie" || die "iorig replay: $(cat "$T/r.ie")"
$FIO $common --name=r --read_iolog="$T/lb" --output-format=json \
	>"$T/r.f" 2>"$T/r.fe" || die "fio replay: $(cat "$T/r.fe")"
za=$(zones_of $a $((4 * 16384)) 1)
zb=$(zones_of $b $((4 * 16384)) 1)
[ "$za" = "$zb" ] && [ "$za" = "4096:oi" ] ||
	die "zone 4 after the replay: iorig's '$za', fio's '$zb'"
set -- $(jvals "$T/r.i" "(j['write']['ios'], j['read']['ios'])" \
	"@$T/r.f" "(j['write']['total_ios'], j['read']['total_ios'])")
c=$1 cf=$2
[ "$c" = "(8,4)" ] && [ "$cf" = "$c" ] ||
	die "replay: iorig (writes, reads) $c, fio $cf"
zbd_check $a "$T/r.i" >"$T/c3"
echo "ok: read_iolog: zone 4 '$za' as fio's; (writes, reads) $c," \
	"fio $cf; $(cat "$T/c3")"

# 4. A log whose write is not at the write pointer (zone 5 is empty):
# the device refuses it, an I/O error for both.
for d in a b; do
	eval "dev=\$$d"
	{
		echo "fio version 2 iolog"
		echo "$dev add"
		echo "$dev open"
		echo "$dev write $((41943040 + 262144)) 262144"
		echo "$dev close"
	} >"$T/bad$d"
done
"$IORIG" $common --name=x --read_iolog="$T/bada" --output-format=json \
	>"$T/x.i" 2>"$T/x.ie" && die "iorig: a write off the write pointer passed"
ei=$(n "$T/x.i" "j['write']['errors']")
$FIO $common --name=x --read_iolog="$T/badb" >"$T/x.f" 2>&1
ef=$(sed -n 's/.*err= *\([0-9]*\).*/\1/p' "$T/x.f" | head -n 1)
[ "$ei" = 1 ] && [ -n "$ef" ] && [ "$ef" != 0 ] ||
	die "a write off the write pointer: iorig errors $ei, fio's" \
		"err='$ef': $(cat "$T/x.f")"
[ "$(zones_of $a $((5 * 16384)) 1)" = "0:em" ] &&
	[ "$(zones_of $b $((5 * 16384)) 1)" = "0:em" ] || die "zone 5 written"
echo "ok: a replayed write off the write pointer: an I/O error (iorig" \
	"$ei error, fio err=$ef), zone 5 still empty"
