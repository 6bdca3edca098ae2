#!/bin/sh
# zonemode=zbd through the NVMe generic char device of the zoned
# namespace (/dev/ng0n2, nsid 2: 16 zones of 16 MiB, host-managed,
# ioengine=io_uring_cmd): the real zones, read and reset through the
# namespace's block device, against fio 3.33 on the same jobs (fio asks
# the namespace itself: Report Zones, Zone Management Send), blkzone's
# report of /dev/nvme0n2 (write pointers, conditions) and the NVMe
# driver's tracepoint (nvme_setup_cmd on nsid 2: the Write, Read and Zone
# Management Send commands each run set up). iorig on zones 0-3 and 8-11,
# fio on 4-7 and 12-15, the same jobs:
# - sequential writes of two whole zones, and of 24 MiB in two zones:
#   the zones left alike, the writes counted alike;
# - a read of the written data (size=2z, the namespace's zones): 192
#   reads, no more (the write pointer);
# - a sequential write of 8 MiB into a full zone: one reset (one Zone
#   Management Send, in the job's region), the zone then half written;
# - random writes over four zones, 1.5 times their size, with
#   max_open_zones=2: no write error, at most two zones open, the resets
#   the report counts those the driver set up, and what the zones hold is
#   what was written less the zones reset (fio's zones the same);
# - iorig's report of the zones after each job names /dev/ng0n2 and is
#   what blkzone says; a zonesize that is not the namespace's is refused.
# Leaves every zone reset (empty), as case 10 does.
. "$(dirname "$0")/../lib.sh"
need blkzone util-linux
FIO=/usr/bin/fio
[ -x $FIO ] || skip "no $FIO (Debian's fio)"
ng=/dev/ng0n2
[ -c $ng ] || die "no $ng"
dev=$(nvme_ns 2)
blkzone reset "$dev" || die "blkzone reset $dev"
on_exit "blkzone reset $dev"
trace_event nvme/nvme_setup_cmd
M=1048576
common="--filename=$ng --ioengine=io_uring_cmd --cmd_type=nvme \
--zonemode=zbd --iodepth=1"
ops="nsid=2,.*cmd=(nvme_cmd_write:write nsid=2,.*cmd=(nvme_cmd_read:read
	nsid=2,.*cmd=(nvme_cmd_zone_mgmt_send:reset"

# pair NAME IOFF FOFF ARGS...: the job ARGS, iorig's at offset IOFF (its
# JSON in $T/NAME.i, its commands in $i_write, $i_read, $i_reset) and
# fio's at FOFF ($T/NAME.f; $f_write...). Either failing fails the case.
pair() {
	_n=$1 _io=$2 _fo=$3
	shift 3
	trace_count i "$ops" "$IORIG" $common --name=$_n --offset=$_io "$@" \
		--output-format=json
	[ "$rc" = 0 ] || die "iorig $*: $(cat "$T/err")"
	cp "$T/out" "$T/$_n.i"
	trace_count f "$ops" $FIO $common --name=$_n --offset=$_fo "$@" \
		--output-format=json
	[ "$rc" = 0 ] || die "fio $*: $(cat "$T/err")"
	cp "$T/out" "$T/$_n.f"
}

# ios NAME DIR: iorig's and fio's I/Os of direction DIR and their errors
# ("IORIG IERR FIO FERR").
ios() {
	echo "$(jvals "$T/$1.i" "j['$2']['ios']" "j['$2']['errors']" \
		"j['zbd']['zones'][0]['file']")" \
	     "$(jvals "$T/$1.f" "j['$2']['total_ios']" "j['error']")"
}

# 1. Sequential writes: zones 0-1 whole (fio 4-5); zones 2-3 with
# io_size one and a half zones (fio 6-7).
pair w1 0 64M --size=32M --bs=128k --rw=write
set -- $(ios w1 write)
[ "$1 $2 $3 $4 $5" = "256 0 $ng 256 0" ] ||
	die "2 zones of 128 KiB writes: iorig '$1 $2 $3', fio '$4 $5'," \
	    "expected 256 each"
[ "$i_write $f_write" = "256 256" ] ||
	die "Write commands: iorig $i_write, fio $f_write; expected 256"
zbd_check "$dev" "$T/w1.i" >"$T/c1"
grep -q "full=2 bytes=33554432" "$T/c1" ||
	die "2 zones written: blkzone says $(cat "$T/c1")"
pair w2 32M 96M --size=32M --io_size=24M --bs=128k --rw=write
set -- $(ios w2 write)
[ "$1 $2 $4 $5" = "192 0 192 0" ] && [ "$i_write $f_write" = "192 192" ] ||
	die "24 MiB of writes: iorig $1 ($2 errors), fio $4 ($5);" \
	    "Write commands iorig $i_write, fio $f_write; expected 192"
zbd_check "$dev" "$T/w2.i" >"$T/c2"
grep -q "open=1 full=1 bytes=25165824" "$T/c2" ||
	die "24 MiB in 2 zones: blkzone says $(cat "$T/c2")"
set -- $(zones_of "$dev" 0 8)
[ "$1 $2 $3 $4" = "$5 $6 $7 $8" ] ||
	die "iorig's zones 0-3 '$1 $2 $3 $4', fio's 4-7 '$5 $6 $7 $8'"
case "$3 $4" in *:fu\ 16384:oi) ;; *)
	die "zones 2-3 after 24 MiB of writes: '$3 $4'" ;; esac
echo "ok: sequential writes through $ng: zones 0-3 '$1 $2 $3 $4' as fio" \
	"leaves 4-7; 256 and 192 Write commands each; $(cat "$T/c2")"

# 2. A read of zones 2-3 (fio 6-7): 24 MiB written of 32, 192 reads;
# its size in zones (2z: the namespace's zone size, as fio counts it).
pair r 32M 96M --size=2z --bs=128k --rw=read
set -- $(ios r read)
[ "$1 $2 $4 $5" = "192 0 192 0" ] && [ "$i_read $f_read" = "192 192" ] ||
	die "read of 24 MiB written: iorig $1 ($2 errors), fio $4 ($5);" \
	    "Read commands iorig $i_read, fio $f_read; expected 192"
echo "ok: the read stops at the write pointer: 192 reads each, 192 Read" \
	"commands each"

# 3. A job that needs a reset: 8 MiB written sequentially from zone 2
# (fio 6), which is full: reset, then written to half its size.
pair z 32M 96M --size=32M --io_size=8M --bs=128k --rw=write
set -- $(ios z write)
res=$(jvals "$T/z.i" "j['zbd']['zone_resets']")
[ "$1 $2 $4 $5" = "64 0 64 0" ] && [ "$i_write $f_write" = "64 64" ] ||
	die "8 MiB of writes: iorig $1 ($2 errors), fio $4 ($5);" \
	    "Write commands iorig $i_write, fio $f_write; expected 64"
[ "$res $i_reset $f_reset" = "1 1 1" ] ||
	die "a full zone written: iorig reports $res resets and set up" \
	    "$i_reset Zone Management Send, fio $f_reset; expected 1"
zbd_check "$dev" "$T/z.i" >"$T/c3"
set -- $(zones_of "$dev" 0 8)
[ "$1 $2 $3 $4" = "$5 $6 $7 $8" ] ||
	die "after the reset: iorig's zones 0-3 '$1 $2 $3 $4', fio's 4-7" \
	    "'$5 $6 $7 $8'"
case "$1 $2 $3 $4" in *:fu\ *:fu\ 16384:oi\ 16384:oi) ;; *)
	die "zones 0-3 after zone 2's reset and 8 MiB: '$1 $2 $3 $4'" ;; esac
echo "ok: a write to a full zone resets it first: 1 reset each (1 Zone" \
	"Management Send each), zones 0-3 '$1 $2 $3 $4' as fio's 4-7"

# 4. Random writes over zones 8-11 (fio 12-15), 96 MiB, at most two
# zones open.
pair rw 128M 192M --size=64M --io_size=96M --bs=128k --rw=randwrite \
	--max_open_zones=2
set -- $(ios rw write)
iow=$1 fw=$4
[ "$1 $2 $4 $5" = "768 0 768 0" ] && [ "$i_write $f_write" = "768 768" ] ||
	die "random writes: iorig $1 ($2 errors), fio $4 ($5); Write" \
	    "commands iorig $i_write, fio $f_write; expected 768"
set -- $(jvals "$T/rw.i" "j['zbd']['zone_resets']" \
	"j['zbd']['max_open_seen']" "j['zbd']['model']")
res=$1 seen=$2
[ "$3" = host-managed ] || die "iorig's zones of $ng: model $3"
[ "$res" = "$i_reset" ] || die "iorig reports $res zone resets, the" \
	"driver set up $i_reset Zone Management Send"
[ "$res" -gt 0 ] && [ "$f_reset" -gt 0 ] ||
	die "1.5 times 4 zones of writes: $res resets (fio $f_reset)"
zbd_check "$dev" "$T/rw.i" >"$T/c4"
ib=$(sed -n 's/.*bytes=\([0-9]*\).*/\1/p' "$T/c4")
iopen=$(sed -n 's/.*open=\([0-9]*\).*/\1/p' "$T/c4")
fz=$(zones_of "$dev" $((12 * 32768)) 4)
fopen=$(echo "$fz" | tr ' ' '\n' | grep -c ':o[ie]')
fb=0
for z in $fz; do
	case $z in *:fu) fb=$((fb + 16 * M)) ;;
	*) fb=$((fb + ${z%%:*} * 512)) ;; esac
done
[ "$ib" = $((96 * M - res * 16 * M)) ] &&
	[ "$fb" = $((96 * M - f_reset * 16 * M)) ] ||
	die "after 96 MiB of writes: iorig's zones hold $ib bytes ($res" \
	    "resets), fio's $fb ($f_reset resets)"
[ "$seen" -le 2 ] && [ "$iopen" -le 2 ] && [ "$fopen" -le 2 ] ||
	die "max_open_zones=2: iorig had $seen open ($iopen at the end)," \
	    "fio $fopen at the end"
echo "ok: random writes: $iow writes each (fio $fw), $res resets" \
	"($i_reset Zone Management Send; fio $f_reset), at most $seen" \
	"zones open (fio's end: $fopen; zones '$fz'); $(cat "$T/c4")"

# 5. Refused, exit 2, nothing changed: a zonesize that is not the
# namespace's.
before=$(zones_of "$dev" 0 16)
expect_refused 'zonesize' $common --name=z --rw=write --size=16M \
	--zonesize=8M
[ "$(zones_of "$dev" 0 16)" = "$before" ] ||
	die "a refused job changed the zones"
echo "ok: zonesize=8M refused on $ng (16 MiB zones), nothing written"
