#!/bin/sh
# zonemode=zbd on a regular file: zones of zonesize bytes emulated (fio
# 3.33's meaning), against Debian's fio 3.33 on the same job and file and
# against a replay of each tool's own write_iolog: a sequential write
# with zonecapacity below zonesize issues fio's writes, offset for offset
# (each zone written to its capacity, then the next); random writes with
# max_open_zones=2 and io_size past the region land every one at its
# zone's write pointer (or at the start of a zone it just reset), never
# keep more than two zones open, and iorig's report of the zones after
# (write pointers, resets) is what its log says; a mixed job's first I/O
# is a write; what has no meaning or is not done yet is refused with
# exit 2 and nothing written.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

FIO=/usr/bin/fio
[ -x $FIO ] || skip "needs Debian's fio 3.33 at $FIO"
truncate -s 8m z.dat

# replay LOG ZS CAP: "writes bad resets maxopen" of a write_iolog
# (v3) against emulated zones of ZS bytes taking CAP bytes each.
replay() {
	"$PY" - "$@" <<'PYEOF'
import sys
log, zs, cap = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
wp, opn, n, bad, resets, maxo = {}, [], 0, 0, 0, 0
for l in open(log):
    f = l.split()
    if len(f) != 5 or f[2] != 'write':
        continue
    off, ln = int(f[3]), int(f[4])
    z = off // zs
    w = wp.get(z, z * zs)
    if off != w:
        if off == z * zs:
            resets += 1
        else:
            bad += 1
    if off + ln > z * zs + cap:
        bad += 1
    wp[z] = off + ln
    if z not in opn:
        opn.append(z)
    if wp[z] >= z * zs + cap:
        opn.remove(z)
    maxo = max(maxo, len(opn))
    n += 1
print(n, bad, resets, maxo)
print(' '.join('%d:%d' % (z, wp[z] - z * zs) for z in sorted(wp)))
PYEOF
}

# 1. Sequential, 1 MiB zones of 768 KiB capacity: fio's offsets.
job="--filename=z.dat --size=8m --bs=64k --rw=write --zonemode=zbd
	--zonesize=1m --zonecapacity=768k"
run --name=s $job --write_iolog=i1.log --output-format=json
expect_rc 0
cp "$T/out" s.json
$FIO --name=s $job --write_iolog=f1.log >f1.out 2>&1 ||
	die "fio: $(cat f1.out)"
a=$(awk '$3 == "write" {print $4, $5}' i1.log | md5sum)
b=$(awk '$3 == "write" {print $4, $5}' f1.log | md5sum)
n=$(grep -c ' write ' i1.log)
[ "$a" = "$b" ] && [ "$n" = 96 ] ||
	die "sequential writes: iorig's $n differ from fio's" \
	    "($(grep -c ' write ' f1.log))"
set -- $(replay i1.log 1048576 786432)
[ "$1 $2 $3" = "96 0 0" ] || die "sequential replay: $*"
"$PY" - s.json <<'PYEOF' || die "sequential: the zones after"
import json, sys
z = json.load(open(sys.argv[1]))['jobs'][0]['zbd']
assert z['model'] == 'emulated' and z['zone_size'] == 1 << 20, z
assert [q['wp_after'] for q in z['zones']] == [786432] * 8, z['zones']
assert {q['cond_after'] for q in z['zones']} == {'fu'}, z['zones']
assert {q['cond_before'] for q in z['zones']} == {'em'}, z['zones']
PYEOF
echo "ok: sequential: 96 writes at fio's offsets, each zone written to" \
	"its capacity, all 8 full after"

# The null engine's file takes the same emulated zones (fio's too).
run --name=s --ioengine=null --size=8m --bs=4k --rw=write --zonemode=zbd \
	--zonesize=1m --zonecapacity=768k --output-format=json
expect_rc 0
expect_json "d['jobs'][0]['write']['io_bytes'] == 6 * 1048576"
$FIO --name=s --ioengine=null --size=8m --bs=4k --rw=write --zonemode=zbd \
	--zonesize=1m --zonecapacity=768k --output-format=json >fn.json \
	2>&1 || die "fio null: $(cat fn.json)"
"$PY" -c 'import json,sys; assert json.load(open(sys.argv[1]))["jobs"][0]["write"]["io_bytes"] == 6 << 20' fn.json ||
	die "fio's null engine wrote other than 6 MiB"
echo "ok: the null engine: 6 MiB in 8 zones of 768 KiB capacity (fio too)"

# 2. Random writes, 2 open zones at most, 1.5 times the region.
job="--filename=z.dat --size=8m --io_size=12m --bs=64k --rw=randwrite
	--zonemode=zbd --zonesize=1m --max_open_zones=2"
run --name=r $job --write_iolog=i2.log --output-format=json
expect_rc 0
cp "$T/out" r.json
$FIO --name=r $job --write_iolog=f2.log >f2.out 2>&1 ||
	die "fio: $(cat f2.out)"
ri=$(replay i2.log 1048576 1048576)
rf=$(replay f2.log 1048576 1048576)
set -- $ri
[ "$1 $2" = "192 0" ] && [ "$4" -le 2 ] && [ "$3" -gt 0 ] ||
	die "iorig's random writes: $ri"
resets=$3 wps=$(echo "$ri" | sed -n 2p)
set -- $rf
[ "$1 $2" = "192 0" ] && [ "$4" -le 2 ] || die "fio's random writes: $rf"
"$PY" - r.json "$resets" "$wps" <<'PYEOF' || die "random: the zones after"
import json, sys
z = json.load(open(sys.argv[1]))['jobs'][0]['zbd']
assert z['zone_resets'] == int(sys.argv[2]), (z['zone_resets'], sys.argv[2])
assert z['max_open_zones'] == 2 and z['max_open_seen'] <= 2, z
got = ' '.join('%d:%d' % (i, q['wp_after'])
               for i, q in enumerate(z['zones']) if q['wp_after'])
assert got == sys.argv[3], (got, sys.argv[3])
PYEOF
echo "ok: random: 192 writes (fio 192), all at write pointers, $resets" \
	"resets (fio $3), at most 2 zones open; the zones after as the log"

# 3. A mixed job: nothing to read at first, so it writes first; every
# read lies below the write pointer of its zone as the writes before it
# left it; a sequential read of the result reads just what was written.
run --name=m --filename=z.dat --size=4m --bs=64k --rw=randrw \
	--zonemode=zbd --zonesize=1m --io_size=16m --write_iolog=i3.log
expect_rc 0
[ "$(awk 'NF == 5 {print $3; exit}' i3.log)" = write ] ||
	die "a mixed job's first I/O was not a write"
mixed=$("$PY" - i3.log <<'PYEOF'
import sys
zs, wp, r, w, bad = 1 << 20, {}, 0, 0, []
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) != 5 or f[2] not in ('read', 'write'):
        continue
    off, ln = int(f[3]), int(f[4])
    z = off // zs
    top = wp.get(z, z * zs)
    if f[2] == 'write':
        w += 1
        if off not in (top, z * zs):
            bad.append(l)
        wp[z] = off + ln
    else:
        r += 1
        if off + ln > top or off // zs != (off + ln - 1) // zs:
            bad.append(l)
print(r, w, len(bad), bad[:2])
PYEOF
)
set -- $mixed
[ "$1" -gt 0 ] && [ $(($1 + $2)) = 256 ] && [ "$3" = 0 ] ||
	die "randrw: (reads writes bad) $mixed"
echo "ok: a mixed job writes first; $1 reads all below write pointers," \
	"$2 writes at them"

# 4. Refused, nothing run: exit 2 with the reason. fio refuses the
# first three too.
sum=$(md5sum <z.dat)
expect_refused "zonesize" --name=x --filename=z.dat --size=8m \
	--rw=write --zonemode=zbd
expect_refused "zonecapacity" --name=x --filename=z.dat --size=8m \
	--rw=write --zonemode=zbd --zonesize=1m --zonecapacity=2m
expect_refused "job_max_open_zones" --name=x --filename=z.dat --size=8m \
	--rw=write --zonemode=zbd --zonesize=1m --job_max_open_zones=1
for o in "--zonesize=0" "--zonecapacity=2m" "--job_max_open_zones=1"; do
	z=--zonesize=1m
	[ "$o" = --zonesize=0 ] && z=
	$FIO --name=x --filename=z.dat --size=8m --rw=write --zonemode=zbd \
		$z $o >fx.out 2>&1
	grep -q 'err= 0' fx.out && die "fio 3.33 took $o"
done
expect_refused "zone_reset_frequency" --name=x --filename=z.dat \
	--size=8m --rw=write --zonemode=zbd --zonesize=1m --verify=crc32c \
	--zone_reset_frequency=1
expect_refused "size" --name=x --filename=z.dat --size=512k \
	--rw=write --zonemode=zbd --zonesize=1m
expect_refused "fraction" --name=x --filename=z.dat --size=8m \
	--rw=write --zonemode=zbd --zonesize=1m --zone_reset_threshold=2
expect_refused "which they see otherwise" --name=x --filename=z.dat \
	--size=4m --rw=write --zonemode=zbd --zonesize=1m --name=y \
	--filename=z.dat --offset=3m --size=4m --rw=randwrite \
	--zonemode=zbd --zonesize=512k
[ "$(md5sum <z.dat)" = "$sum" ] || die "a refused job wrote the file"
run --name=x --filename=z.dat --size=4m --rw=write --zonemode=zbd \
	--zonesize=1m --name=y --filename=z.dat --offset=4m --size=4m \
	--rw=randwrite --zonemode=zbd --zonesize=1m --number_ios=8
expect_rc 0
echo "ok: refused with exit 2, the file untouched; two jobs on zones" \
	"of their own run"

# 5. The options as given, and the region rounded to whole zones.
run --parse-only --name=p --zonemode=zbd --zonesize=1m \
	--zone_reset_threshold=0.25 --zone_reset_frequency=0.5 \
	--max_open_zones=3 --job_max_open_zones=2 --ignore_zone_limits=1 \
	--read_beyond_wp=1 --zonecapacity=512k
expect_rc 0
for kv in zonemode=zbd zone_reset_threshold=0.25 zone_reset_frequency=0.5 \
    max_open_zones=3 job_max_open_zones=2 ignore_zone_limits=1 \
    read_beyond_wp=1; do
	grep -q -- "$kv" "$T/out" || die "--parse-only: no $kv"
done
run --name=o --filename=z.dat --offset=512k --size=3m --bs=64k \
	--rw=write --zonemode=zbd --zonesize=1m --output-format=json \
	--write_iolog=i5.log
expect_rc 0
expect_json "d['jobs'][0]['write']['io_bytes'] == 2 * 1048576"
expect_json "[w['code'] for w in d['warnings']] == ['zbd_rounded']"
grep -q '^[0-9]* .*z.dat write 1048576 ' i5.log &&
	! grep -q ' write 3145728 ' i5.log || die "the rounded region's writes"

echo "ok: options parsed; a 3 MiB region from 512 KiB holds 2 whole zones"
