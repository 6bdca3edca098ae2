#!/bin/sh
# More of zonemode=zbd through /dev/ng0n2 (ioengine=io_uring_cmd on the
# zoned namespace; case 25 has the plain jobs), against fio 3.33 on the
# same jobs and the NVMe driver's tracepoint (nvme_setup_cmd on nsid 2:
# the Write, Read and Zone Management Send commands each run set up):
# - verify=crc32c over two zones holding some data: the zones with data
#   reset before the job writes (as many Zone Management Send as fio's),
#   32 MiB written and read back, no error, no mismatch;
# - rw=trim of two full zones, bs the zone size: each trim the zone's
#   reset, one Zone Management Send each, the zones empty after
#   (blkzone; fio 3.33 does no trim on this job);
# - random writes at iodepth 4 with max_open_zones=2: every write at a
#   write pointer (the namespace fails any other: no error), at most two
#   zones open, the resets counted those set up;
# - on the conventional namespace (/dev/ng0n1) zones are emulated as on
#   any device that is not zoned: zonesize= needed (fio refuses the job
#   without it too), and with it the job runs as fio's.
# iorig on zones 2-7, fio on 10-15. A job that writes is guarded first:
# libblkid reads the namespace's signatures through its block device, at
# its start and end; the case holds that device open (fd 3), so that the
# first job's probe reads stay in the page cache and the later jobs' Reads
# are their own (zones 0 and 15, which those reads cache, are not reset
# before the reads are counted). Leaves every zone of namespace 2 reset
# and 1 MiB of namespace 1 at 160 MiB written.
. "$(dirname "$0")/../lib.sh"
zns_blk 2
exec 3<"$dev"
common="--filename=$ng --ioengine=io_uring_cmd --cmd_type=nvme \
--zonemode=zbd"

# zab WHAT [WANT]: $za, $zb: "WPTR:COND ..." of zones 2-3 (iorig's) and
# 10-11 (fio's); the case fails (WHAT in the message) unless $za is WANT,
# without it $zb.
zab() {
	za=$(zones_of "$dev" $((2 * 32768)) 2)
	zb=$(zones_of "$dev" $((10 * 32768)) 2)
	[ "$za" = "${2-$zb}" ] ||
		die "$1: zones 2-3 '$za', fio's 10-11 '$zb'${2+; expected '$2'}"
}

# 1. Some data in zones 2-3 (fio 10-11), then verify=: reset first.
zns_pair pre 32M 160M --size=32M --io_size=4M --bs=64k --rw=randwrite
zns_pair v 32M 160M --size=32M --io_size=64M --bs=64k --rw=randwrite \
	--verify=crc32c
set -- $(jvals "$T/v.i" "j['write']['io_bytes']" \
	"j['verify']['io_bytes']" "j['write']['errors']" \
	"j['verify']['mismatches']" "j['verify']['read_errors']" \
	"j['zbd']['zone_resets']" \
	"@$T/v.f" "j['write']['io_bytes']" "j['read']['io_bytes']" \
	"j['error']")
[ "$1 $2 $3 $4 $5" = "33554432 33554432 0 0 0" ] &&
	[ "$7 $8 $9" = "33554432 33554432 0" ] ||
	die "verify=: iorig (written, read back, errors, mismatches," \
	    "read errors) $1 $2 $3 $4 $5; fio (written, read, error) $7 $8 $9"
[ "$6" = "$i_reset" ] && [ "$i_reset" = "$f_reset" ] &&
	[ "$i_reset" -ge 1 ] ||
	die "verify=: iorig reports $6 resets, set up $i_reset Zone" \
	    "Management Send; fio $f_reset"
[ "$i_write $i_read" = "512 512" ] && [ "$f_write $f_read" = "512 512" ] ||
	die "verify=: Write, Read commands iorig $i_write $i_read, fio" \
	    "$f_write $f_read; expected 512 each"
zab verify=
echo "ok: verify=: $i_reset zones with data reset first (fio $f_reset)," \
	"32 MiB written and read back, 512 Writes and 512 Reads each, no" \
	"error; zones '$za' as fio's"

# 2. A trim of zones 2-3 (fio 10-11), full: two resets. fio 3.33 does
# no trim at all on this job through the char device (0 trims, exit 0,
# its zones left full): its figures are printed, iorig's are held to
# the driver's count and blkzone.
zns_pair t 32M 160M --size=32M --bs=16M --rw=trim
set -- $(jvals "$T/t.i" "j['trim']['ios']" "j['trim']['errors']" \
	"j['zbd']['zone_resets']" \
	"@$T/t.f" "j['trim']['total_ios']" "j['error']")
[ "$1 $2 $3" = "2 0 2" ] && [ "$i_reset $i_write" = "2 0" ] ||
	die "trim of 2 full zones: iorig $1 trims ($2 errors, $3 resets);" \
	    "Zone Management Send $i_reset, Writes $i_write"
zab "after the trims" "0:em 0:em"
echo "ok: rw=trim: 2 trims, 2 resets (2 Zone Management Send); zones" \
	"'$za' (fio 3.33: $4 trims, error $5, $f_reset Zone Management" \
	"Send, its zones '$zb')"

# 3. Random writes at iodepth 4 over zones 4-7 (fio 12-15), 1.5 times
# their size, at most two open.
zns_pair q 64M 192M --size=64M --io_size=96M --bs=64k --rw=randwrite \
	--max_open_zones=2 --iodepth=4
set -- $(jvals "$T/q.i" "j['write']['ios']" "j['write']['errors']" \
	"j['zbd']['zone_resets']" "j['zbd']['max_open_seen']" \
	"@$T/q.f" "j['write']['total_ios']" "j['error']")
[ "$1 $2 $5 $6" = "1536 0 1536 0" ] &&
	[ "$i_write $f_write" = "1536 1536" ] ||
	die "iodepth=4: iorig $1 writes ($2 errors), fio $5 ($6); Write" \
	    "commands iorig $i_write, fio $f_write; expected 1536"
[ "$3" = "$i_reset" ] && [ "$3" -gt 0 ] && [ "$4" -le 2 ] ||
	die "iodepth=4: iorig reports $3 resets ($i_reset set up), $4 open"
zbd_check "$dev" "$T/q.i" >"$T/cq"
open=$(sed -n 's/.*open=\([0-9]*\).*/\1/p' "$T/cq")
open_in "$(zones_of "$dev" $((12 * 32768)) 4)"
fopen=$open_n
[ "$open" -le 2 ] && [ "$fopen" -le 2 ] ||
	die "max_open_zones=2: $open open at the end (fio $fopen)"
echo "ok: iodepth=4: 1536 writes each, no error, $3 resets ($i_reset" \
	"Zone Management Send; fio $f_reset), at most $4 zones open;" \
	"$(cat "$T/cq")"

# 4. The conventional namespace: emulated zones, zonesize= needed.
ng1=/dev/ng0n1
[ -c $ng1 ] || die "no $ng1"
e="--filename=$ng1 --ioengine=io_uring_cmd --cmd_type=nvme --zonemode=zbd \
--name=e --offset=160M --size=1M --bs=64k --rw=write"
expect_refused 'expected zonesize=' $e
$FIO $e >"$T/fe" 2>&1 && die "fio ran zonemode=zbd on $ng1 without zonesize"
run $e --zonesize=256k --output-format=json
expect_rc 0
$FIO $e --zonesize=256k --output-format=json >"$T/fe.json" 2>"$T/fe" ||
	die "fio, emulated zones on $ng1: $(cat "$T/fe")"
set -- $(jvals "$T/out" "j['write']['ios']" "j['zbd']['model']" \
	"@$T/fe.json" "j['write']['total_ios']")
[ "$1 $2 $3" = "16 emulated 16" ] ||
	die "emulated zones on $ng1: iorig $1 writes ($2 zones), fio $3"
echo "ok: $ng1 (not zoned): zonesize= asked as fio asks it; with it 16" \
	"writes on emulated zones (fio 16)"
