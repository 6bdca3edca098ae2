#!/bin/sh
# zonemode=zbd: the jobs of a wait group on the same file share its zones
# (fio 3.33's meaning: one write pointer per zone, whichever job writes).
# On emulated zones (a regular file), the writes of all the jobs, taken
# together from their write_iologs, tile each zone from its start with no
# gap and no overlap (jobs keeping write pointers of their own would each
# write every zone from its start), and the write pointers the last job
# reports are where the writes end; numjobs=2 of random writers with
# libaio at iodepth 4, and two jobs of their own on overlapping regions;
# Debian's fio 3.33 runs the same jobs (as many writes). Jobs that would
# see the same zones otherwise (zone size) are refused. verify= on zones
# (fio's meaning): the region's zones reset first, a full zone never
# written again, so a job asked for more than the zones hold writes what
# they hold and reads it all back (fio the same bytes), every write at a
# write pointer, numjobs=2 (offset_increment=4z) too; a block size that does not divide the
# zone size and zone_reset_frequency are refused with verify=, as fio
# refuses (or aborts on) them.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

FIO=/usr/bin/fio
[ -x $FIO ] || skip "needs Debian's fio 3.33 at $FIO"
have_odirect . || skip "no O_DIRECT on $T's file system"
truncate -s 8m z.dat

# tile LOG...: "writes bad zone:top..." of the writes of the logs
tile() {
	"$PY" - "$@" <<'PYEOF'
import sys, collections
zs, w, n = 1 << 20, collections.defaultdict(list), 0
for log in sys.argv[1:]:
    for l in open(log):
        f = l.split()
        if len(f) == 5 and f[2] == 'write':
            o, ln = int(f[3]), int(f[4])
            w[o // zs].append((o, ln))
            n += 1
bad, tops = 0, {}
for z, L in w.items():
    L.sort()
    at = z * zs
    for o, ln in L:
        if o != at:
            bad += 1
        at = o + ln
    tops[z] = at - z * zs
print(n, bad, ' '.join('%d:%d' % (z, tops[z]) for z in sorted(tops)))
PYEOF
}
# wps JSON JOB: the write pointers job JOB reports after, as tile's
wps() {
	"$PY" - "$@" <<'PYEOF'
import json, sys
j = json.load(open(sys.argv[1]))['jobs'][int(sys.argv[2])]
z = j['zbd']['zones']
print(j['zbd']['zone_resets'], ' '.join('%d:%d' % (q['start'] >> 20,
      q['wp_after']) for q in z if q['wp_after']))
PYEOF
}
# 1. numjobs=2, random writes, 1.5 MiB each over 8 zones (no zone fills,
# so none is reset): 48 writes tiling the zones.
job="--filename=z.dat --size=8m --io_size=1536k --bs=64k --rw=randwrite
	--zonemode=zbd --zonesize=1m --numjobs=2 --ioengine=libaio
	--iodepth=4 --direct=1"
run --name=r $job --write_iolog=r.log --output-format=json
expect_rc 0
cp "$T/out" r.json
t=$(tile r.log r.log.1)
set -- $t
[ "$1 $2" = "48 0" ] || die "numjobs=2 random writes (writes bad): $t"
tops=${t#* * }
for k in 0 1; do
	set -- $(wps r.json $k)
	[ "$1" = 0 ] || die "job $k reset $1 zones"
done
# every job's 'after' is a moment of the shared zones: the last one's
# is the end
a0=$(wps r.json 0) a1=$(wps r.json 1)
[ "${a0#* }" = "$tops" ] || [ "${a1#* }" = "$tops" ] ||
	die "the write pointers after ('${a0#* }', '${a1#* }') are not" \
	    "where the writes end ($tops)"
$FIO --name=r $job --output-format=json >rf.json 2>&1 ||
	die "fio: $(cat rf.json)"
fw=$("$PY" -c 'import json,sys; print(sum(j["write"]["total_ios"] for j in json.load(open(sys.argv[1]))["jobs"]))' rf.json)
[ "$fw" = 48 ] || die "fio wrote $fw times, not 48"
echo "ok: numjobs=2 random writes: 48 (fio 48) tile the zones ($tops)"

# 2. Two jobs of their own on overlapping zones: a sequential writer of
# [0, 4m) and a random one of [2m, 6m), 2 MiB each.
run --name=x --filename=z.dat --size=4m --io_size=2m --bs=64k --rw=write \
	--zonemode=zbd --zonesize=1m --write_iolog=x.log \
	--name=y --filename=z.dat --offset=2m --size=4m --io_size=2m \
	--bs=64k --rw=randwrite --zonemode=zbd --zonesize=1m \
	--write_iolog=y.log --output-format=json
expect_rc 0
t=$(tile x.log y.log)
set -- $t
[ "$1 $2" = "64 0" ] || die "two jobs on zones 2-3 (writes bad): $t"
echo "ok: two jobs on overlapping zones: 64 writes tile them (${t#* * })"

# 3. numjobs=3 sequential writers over 4 zones, 2 MiB each: more than the
# zones hold, so full zones are reset (a write to a full zone resets it
# first): 6 MiB written, as fio writes.
job="--filename=z.dat --size=4m --io_size=2m --bs=128k --rw=write
	--zonemode=zbd --zonesize=1m --numjobs=3"
run --name=s $job --write_iolog=s.log --output-format=json
expect_rc 0
expect_json "sum(j['write']['io_bytes'] for j in d['jobs']) == 6 << 20"
expect_json "sum(j['zbd']['zone_resets'] for j in d['jobs']) >= 2"
$FIO --name=s $job --output-format=json >sf.json 2>&1 ||
	die "fio: $(cat sf.json)"
"$PY" -c 'import json,sys; assert sum(j["write"]["io_bytes"] for j in json.load(open(sys.argv[1]))["jobs"]) == 6 << 20' sf.json ||
	die "fio did not write 6 MiB"
echo "ok: numjobs=3 sequential writers: 6 MiB over 4 zones (fio 6 MiB)," \
	"$(json "sum(j['zbd']['zone_resets'] for j in d['jobs'])") resets"

# 4. Refused: jobs on the same zones that see them otherwise.
sum=$(md5sum <z.dat)
expect_refused "which they see otherwise" --name=x --filename=z.dat \
	--size=4m --rw=write --zonemode=zbd --zonesize=1m --name=y \
	--filename=z.dat --size=4m --rw=write --zonemode=zbd --zonesize=512k
[ "$(md5sum <z.dat)" = "$sum" ] || die "a refused job wrote the file"
echo "ok: refused: two zone sizes for the same file at once"

# 5. verify=: random writes asked for twice the zones' 4 MiB.
job="--filename=z.dat --size=4m --io_size=8m --bs=64k --rw=randwrite
	--zonemode=zbd --zonesize=1m --verify=crc32c"
run --name=v $job --write_iolog=v.log --output-format=json
expect_rc 0
expect_json "d['jobs'][0]['write']['io_bytes'] == 4 << 20"
expect_json "d['jobs'][0]['verify']['io_bytes'] == 4 << 20"
expect_json "d['jobs'][0]['verify']['mismatches'] == 0"
expect_json "d['jobs'][0]['zbd']['zone_resets'] == 0"
t=$(tile v.log)
set -- $t
[ "$1 $2" = "64 0" ] || die "verify: (writes bad) $t"
$FIO --name=v $job --output-format=json >vf.json 2>&1 ||
	die "fio: $(cat vf.json)"
"$PY" -c 'import json,sys; j=json.load(open(sys.argv[1]))["jobs"][0]; assert (j["write"]["io_bytes"], j["read"]["io_bytes"], j["error"]) == (4 << 20, 4 << 20, 0), j["write"]["io_bytes"]' vf.json ||
	die "fio did not write and read back 4 MiB"
echo "ok: verify=: 4 MiB written at write pointers and read back, no" \
	"reset (fio: 4 MiB written, 4 MiB read)"

# 6. verify= with numjobs=2, each clone on zones of its own
# (offset_increment=4z: clones that verify the same bytes are refused, as
# fio's replay of a zone's writes would read the other's), libaio at
# iodepth 4, asked for more than their zones hold.
run --name=v2 --filename=z.dat --size=4z --offset_increment=4z \
	--io_size=6m --bs=64k --rw=randwrite --zonemode=zbd --zonesize=1m \
	--verify=crc32c --numjobs=2 --ioengine=libaio --iodepth=4 \
	--direct=1 --output-format=json
expect_rc 0
expect_json "[j['write']['io_bytes'] for j in d['jobs']] == [4 << 20] * 2"
expect_json "[j['verify']['io_bytes'] for j in d['jobs']] == [4 << 20] * 2"
expect_json "[j['verify']['mismatches'] for j in d['jobs']] == [0, 0]"
echo "ok: verify= numjobs=2 on zones 0-3 and 4-7: each writes its 4 MiB" \
	"and reads it back, no mismatch"

# 7. Refused with verify=, as fio.
expect_refused "option 'bs'.*49152 does not divide the zone size" \
	--name=x --filename=z.dat --size=4m --bs=48k --rw=randwrite \
	--zonemode=zbd --zonesize=1m --verify=crc32c
expect_refused "option 'zone_reset_frequency'" --name=x \
	--filename=z.dat --size=4m --rw=write --zonemode=zbd \
	--zonesize=1m --verify=crc32c --zone_reset_frequency=0.5
echo "ok: refused with verify=: bs=48k of 1 MiB zones," \
	"zone_reset_frequency"
