#!/bin/sh
# zonemode=zbd on the NVMe zoned namespace (nsid 2: 16 zones of 16 MiB,
# host-managed), against blkzone (the kernel's zone report) and fio 3.33
# on the same zones: a sequential write of whole zones and one cut by
# io_size leave the write pointers where fio's leave them; a read of the
# written data reads exactly what is below them; a random write over
# four zones with max_open_zones=2 moves every write to a write pointer
# (no write error), resets full zones, never has more than two zones
# open, and issues fio's count of writes; iorig's report of the zones
# after the job is what blkzone says. Leaves every zone it used reset
# (empty), as it found them.
. "$(dirname "$0")/../lib.sh"
need blkzone util-linux
FIO=/usr/bin/fio
[ -x $FIO ] || skip "no $FIO (Debian's fio)"
dev=$(nvme_ns 2)
on_exit "blkzone reset $dev"
zsec=32768

# job NAME ARGS...: the options both take.
common="--filename=$dev --direct=1 --ioengine=psync --zonemode=zbd"

# 1. Sequential write of zones 0-1, whole; then zones 2-3 with io_size
# one and a half zones: iorig, then fio on zones 4-5 / 6-7 the same.
run $common --name=w --offset=0 --size=32M --bs=128k --rw=write \
	--output-format=json
expect_rc 0
[ "$(json "d['jobs'][0]['write']['ios']")" = 256 ] ||
	die "2 zones of 128 KiB writes: expected 256 writes"
zbd_check "$dev" "$T/out" >"$T/c1"
grep -q "full=2 bytes=33554432" "$T/c1" ||
	die "2 zones written: blkzone says $(cat "$T/c1")"
run $common --name=w --offset=32M --size=32M --io_size=24M --bs=128k \
	--rw=write --output-format=json
expect_rc 0
cp "$T/out" "$T/w2.json"
zbd_check "$dev" "$T/w2.json" >"$T/c2"
grep -q "open=1 full=1 bytes=25165824" "$T/c2" ||
	die "24 MiB written in 2 zones: blkzone says $(cat "$T/c2")"
# fio's two writes are two jobs of one run, the second after the first
# (stonewall), as iorig's two runs: a fio start costs about a second in
# the emulator
$FIO $common --bs=128k --rw=write --name=w --offset=64M --size=32M \
	--name=w2 --stonewall --offset=96M --size=32M --io_size=24M \
	>"$T/fio1" 2>&1 || die "fio: $(cat "$T/fio1")"
got=$(zones_of "$dev" 0 8)
# blkzone shows a full zone's write pointer as its length (or 0 on some
# kernels): compare iorig's zones with fio's, pair by pair
set -- $got
[ "$1 $2 $3 $4" = "$5 $6 $7 $8" ] ||
	die "iorig's zones 0-3 '$1 $2 $3 $4', fio's 4-7 '$5 $6 $7 $8'"
case "$3 $4" in *:fu\ 16384:oi) ;; *)
	die "zones 2-3 after 24 MiB of writes: '$3 $4'" ;; esac
echo "ok: sequential writes: zones 0-3 '$1 $2 $3 $4' as fio leaves 4-7;" \
	"$(cat "$T/c1"); $(cat "$T/c2")"

# 2. Read of the written data: zones 2-3 hold 24 MiB, the read stops
# there (fio's count), though its region is 32 MiB.
# (fio first: the reads of each tool's zones are independent, and then
# one python reads both reports). fio's two reads (the second below) are
# two jobs of one run, one after the other.
$FIO $common --bs=128k --rw=read --output-format=json \
	--name=r --offset=96M --size=32M \
	--name=r2 --stonewall --offset=96M --size=32M --io_size=32M \
	>"$T/fr.json" 2>"$T/fr.err" || die "fio read: $(cat "$T/fr.err")"
run $common --name=r --offset=32M --size=32M --bs=128k --rw=read \
	--output-format=json
expect_rc 0
set -- $(jvals "$T/out" "j['read']['ios']" \
	"@$T/fr.json" "j['read']['total_ios']")
ior=$1 fr=$2
[ "$ior" = 192 ] && [ "$fr" = 192 ] ||
	die "read of 24 MiB written: iorig $ior reads, fio $fr, expected 192"
# With io_size past what is written, the pass ends at the last data and
# the next starts over (fio's): 32 MiB read from the 24 MiB.
run $common --name=r --offset=32M --size=32M --io_size=32M --bs=128k \
	--rw=read --output-format=json
expect_rc 0
set -- $(jvals "$T/out" "j['read']['ios']" \
	"@$T/fr.json" "d['jobs'][1]['read']['total_ios']")
ior2=$1 fr2=$2
[ "$ior2" = 256 ] && [ "$fr2" = 256 ] ||
	die "read of io_size=32M over 24 MiB written: iorig $ior2, fio $fr2," \
	    "expected 256"
run $common --name=rr --offset=32M --size=32M --bs=128k --rw=randread \
	--io_size=8M --output-format=json
expect_rc 0
[ "$(jvals "$T/out" "j['read']['errors']" "j['read']['ios']")" = "0 64" ] ||
	die "random reads of written data: errors or a short count"
echo "ok: reads stop at the write pointers: $ior reads (fio $fr), with" \
	"io_size=32M $ior2 (fio $fr2);" \
	"64 random reads below them, no error"

# 3. Random writes over zones 8-11, 1.5 times their size, at most two
# open: iorig, then fio on zones 12-15.
run $common --name=rw --offset=128M --size=64M --io_size=96M --bs=64k \
	--rw=randwrite --max_open_zones=2 --output-format=json
expect_rc 0
cp "$T/out" "$T/rw.json"
zbd_check "$dev" "$T/rw.json" >"$T/c3"
open=$(sed -n 's/.*open=\([0-9]*\).*/\1/p' "$T/c3")
$FIO $common --name=rw --offset=192M --size=64M --io_size=96M --bs=64k \
	--rw=randwrite --max_open_zones=2 --output-format=json \
	>"$T/fw.json" 2>"$T/fw.err" || die "fio randwrite: $(cat "$T/fw.err")"
set -- $(jvals "$T/rw.json" "j['write']['ios']" "j['write']['errors']" \
	"j['zbd']['zone_resets']" "j['zbd']['max_open_seen']" \
	"@$T/fw.json" "j['write']['total_ios']" "j['error']")
iow=$1 ioe=$2 res=$3 seen=$4 fw="$5 $6"
open_in "$(zones_of "$dev" $((12 * zsec)) 4)"
fopen=$open_n
[ "$iow $ioe" = "1536 0" ] && [ "$fw" = "1536 0" ] ||
	die "random writes: iorig $iow ($ioe errors), fio '$fw', expected 1536"
[ "$res" -gt 0 ] || die "1.5 times 4 zones of writes and no zone reset"
# every reset emptied a full zone: what the zones hold is what was
# written less what the resets dropped
bytes=$(sed -n 's/.*bytes=\([0-9]*\).*/\1/p' "$T/c3")
[ "$bytes" = $((100663296 - res * 16777216)) ] ||
	die "blkzone: $bytes bytes in the zones after 96 MiB of writes and" \
	    "$res resets of full zones"
[ "$seen" -le 2 ] && [ "$open" -le 2 ] && [ "$fopen" -le 2 ] ||
	die "max_open_zones=2: iorig had $seen open ($open at the end)," \
	    "fio $fopen at the end"
echo "ok: random writes: $iow writes (fio $fw), $res zone resets," \
	"at most $seen zones open; $(cat "$T/c3")"

# 4. Refused, exit 2, nothing written: buffered writes to a host-managed
# device (fio refuses them too), a zonesize that is not the device's, a
# device that is not zoned without zonesize (fio: the same), more open
# zones than the device allows is not tested (QEMU sets no limit).
before=$(zones_of "$dev" 0 16)
expect_refused 'direct' --name=b --filename=$dev --zonemode=zbd \
	--rw=write --size=16M --direct=0
expect_refused 'zonesize' $common --name=z --rw=write --size=16M \
	--zonesize=8M
expect_refused 'not a zoned' --name=n --filename="$(nvme_ns 1)" \
	--zonemode=zbd --rw=write --size=16M --direct=1
$FIO --name=n --filename="$(nvme_ns 1)" --zonemode=zbd --rw=write \
	--size=16M --direct=1 >"$T/fn" 2>&1 &&
	die "fio ran zonemode=zbd on a device that is not zoned"
[ "$(zones_of "$dev" 0 16)" = "$before" ] ||
	die "a refused job changed the zones"
echo "ok: refused with exit 2: buffered writes, a wrong zonesize, a" \
	"device that is not zoned (fio too)"
