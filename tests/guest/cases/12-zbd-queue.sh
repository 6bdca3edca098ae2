#!/bin/sh
# zonemode=zbd with I/Os in flight (io_uring, iodepth=8) on the NVMe
# zoned namespace, against blkzone and fio 3.33: sequential writes keep
# 8 writes in flight in a zone and fill it as fio's do; random writes
# that reset full zones and keep to max_open_zones wait for what is in
# flight before each reset (the device would refuse a write behind a
# reset: no error may come); a mixed random job reads below the write
# pointers only (no error) and writes at them; job_max_open_zones holds
# the job to its own limit; blkzone, polled while a paced job runs, never
# sees more zones open than max_open_zones. Leaves the zones reset.
. "$(dirname "$0")/../lib.sh"
need blkzone util-linux
FIO=/usr/bin/fio
[ -x $FIO ] || skip "no $FIO (Debian's fio)"
dev=$(nvme_ns 2)
blkzone reset "$dev" || die "blkzone reset $dev"
on_exit "blkzone reset $dev"
q="--filename=$dev --direct=1 --ioengine=io_uring --iodepth=8
	--zonemode=zbd --output-format=json"

# 1. Sequential, zones 0-1 (iorig) and 2-3 (fio).
run $q --name=s --offset=0 --size=32M --bs=64k --rw=write
expect_rc 0
cp "$T/out" s.json
$FIO $q --name=s --offset=32M --size=32M --bs=64k --rw=write >sf.json \
	2>sf.err || die "fio: $(cat sf.err)"
z=$(zones_of "$dev" 0 4)
set -- $(jvals s.json "j['write']['ios']" \
	"j['iodepth']['level'][3] + j['iodepth']['level'][4] > 0" \
	@sf.json "j['write']['total_ios']")
w="$1 $2" wf=$3
set -- $z
[ "$1 $2" = "$3 $4" ] && [ "${w% *}" = 512 ] && [ "$wf" = 512 ] ||
	die "sequential at iodepth 8: zones '$z', iorig ${w% *} writes," \
	    "fio $wf"
[ "${w#* }" = True ] || die "sequential at iodepth 8: never 8 in flight"
zbd_check "$dev" s.json >c1
echo "ok: sequential at iodepth 8: zones '$z' (iorig 0-1, fio 2-3)," \
	"512 writes each; $(cat c1)"

# 2. Random writes over zones 4-7, 1.5 times, 3 open at most.
run $q --name=r --offset=64M --size=64M --io_size=96M --bs=64k \
	--rw=randwrite --max_open_zones=3
expect_rc 0
cp "$T/out" r.json
$FIO $q --name=r --offset=128M --size=64M --io_size=96M --bs=64k \
	--rw=randwrite --max_open_zones=3 >rf.json 2>rf.err ||
	die "fio: $(cat rf.err)"
set -- $(jvals r.json "j['write']['ios'], j['write']['errors']" \
	"j['zbd']['zone_resets']" "j['zbd']['max_open_seen']" \
	@rf.json "j['write']['total_ios'], j['error']")
c=$1 res=$2 seen=$3 cf=$4
zbd_check "$dev" r.json >c2
bytes=$(sed -n 's/.*bytes=\([0-9]*\).*/\1/p' c2)
[ "$c" = "(1536,0)" ] && [ "$cf" = "(1536,0)" ] && [ "$seen" -le 3 ] &&
	[ "$res" -gt 0 ] && [ "$bytes" = $((100663296 - res * 16777216)) ] ||
	die "random at iodepth 8: iorig $c fio $cf, $res resets, $seen" \
	    "open, $bytes bytes in the zones"
echo "ok: random at iodepth 8: (writes, errors) $c, fio $cf; $res" \
	"resets, at most $seen open; $(cat c2)"

# 3. Mixed random reads and writes on zones 12-13, and a job limit.
run $q --name=m --offset=192M --size=32M --io_size=16M --bs=64k \
	--rw=randrw --max_open_zones=4 --job_max_open_zones=1
expect_rc 0
cp "$T/out" m.json
set -- $(jvals m.json "j['read']['errors'] + j['write']['errors']" \
	"j['read']['ios']" "j['zbd']['max_open_seen']")
e=$1 r=$2 seen=$3
zbd_check "$dev" m.json >c3
[ "$e" = 0 ] && [ "$r" -gt 0 ] && [ "$seen" -le 1 ] ||
	die "randrw: $e errors, $r reads, $seen zones open (limit 1)"
echo "ok: randrw at iodepth 8: $r reads, no error, at most $seen zone" \
	"open (job_max_open_zones=1); $(cat c3)"

# 4. While the job runs: blkzone, polled, never sees more open zones
# than max_open_zones=2 on zones 8-11 (iorig) and 12-15 (fio), the job
# paced (rate_iops) so that the polls see it at work.
blkzone reset "$dev" || die "blkzone reset $dev"
zsec=32768
# watch CMD FIRSTZONE: runs CMD in the background; "polls most-open".
# A poll is one blkzone, its open zones counted by the shell (open_in),
# then a quarter second's pause: the job runs about 3 s (128 writes at
# 40 a second), so the polls still see it often, and the loop does not
# keep the guest's one CPU busy (it did: tr and grep on every poll and
# no pause, 40 polls and 24 s of program time in a profiled boot).
watch() {
	$1 >w.out 2>w.err &
	_p=$!
	_max=0 _n=0
	while kill -0 $_p 2>/dev/null; do
		zones_of "$dev" $(($2 * zsec)) 4 >"$T/wz"
		read -r _z <"$T/wz"
		open_in "$_z"
		[ "$open_n" -gt "$_max" ] && _max=$open_n
		_n=$((_n + 1))
		sleep 0.25
	done
	wait $_p || die "$1: $(cat w.err)"
	echo "$_n $_max"
}
set -- $(watch "$IORIG --filename=$dev --direct=1 --ioengine=psync
	--zonemode=zbd --name=d --offset=128M --size=64M --io_size=8M
	--bs=64k --rw=randwrite --max_open_zones=2 --rate_iops=40" 8)
ip=$1 io=$2
set -- $(watch "$FIO --filename=$dev --direct=1 --ioengine=psync
	--zonemode=zbd --name=d --offset=192M --size=64M --io_size=8M
	--bs=64k --rw=randwrite --max_open_zones=2 --rate_iops=40" 12)
fp=$1 fo=$2
[ "$ip" -ge 3 ] && [ "$fp" -ge 3 ] ||
	die "the polls did not catch the jobs at work ($ip, $fp polls)"
[ "$io" -le 2 ] && [ "$fo" -le 2 ] && [ "$io" -ge 1 ] ||
	die "during the jobs blkzone saw $io (iorig) and $fo (fio) open" \
	    "zones, limit 2"
echo "ok: during random writes blkzone saw at most $io open zones in" \
	"$ip polls (fio: $fo in $fp), limit 2"
