#!/bin/sh
# zonemode=zbd with several files per job (filename=a:b, nrfiles=), on
# emulated zones, against Debian's fio 3.33 on the same job and files:
# each file has its own zones (fio's meaning). A sequential write over two
# files issues fio's writes, file, offset and length for each; random
# writes with max_open_zones=2 and io_size past the regions issue fio's
# count per file, every one at its file's zone's write pointer (or at the
# start of a zone it just reset), never more than two zones of a file
# open, and the JSON names each zone's file with the write pointer the
# log leaves there; file_service_type=random with offset= rounds each
# file's region as fio does; verify= reads back both files' blocks.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

FIO=/usr/bin/fio
[ -x $FIO ] || skip "needs Debian's fio 3.33 at $FIO"

# replay LOG ZS CAP: "writes bad resets maxopen-per-file", then each
# file's zones "file:zone:wp" of a write_iolog (v3) against emulated
# zones of ZS bytes taking CAP bytes each, per file.
replay() {
	"$PY" - "$@" <<'PYEOF'
import sys
log, zs, cap = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
wp, opn, maxo, n, bad, resets = {}, {}, {}, 0, 0, 0
for l in open(log):
    f = l.split()
    if len(f) != 5 or f[2] != 'write':
        continue
    fn, off, ln = f[1], int(f[3]), int(f[4])
    z = off // zs
    w = wp.get((fn, z), z * zs)
    if off != w:
        if off == z * zs:
            resets += 1
        else:
            bad += 1
    if off + ln > z * zs + cap:
        bad += 1
    wp[(fn, z)] = off + ln
    o = opn.setdefault(fn, [])
    if z not in o:
        o.append(z)
    if wp[(fn, z)] >= z * zs + cap:
        o.remove(z)
    maxo[fn] = max(maxo.get(fn, 0), len(o))
    n += 1
print(n, bad, resets, max(maxo.values()))
print(' '.join('%s:%d:%d' % (k[0], k[1], wp[k] - k[1] * zs)
               for k in sorted(wp)))
PYEOF
}

# the JSON's zones "file:zone:wp_after" of the zones written
zones_after() {
	"$PY" - "$1" "$2" <<'PYEOF'
import json, sys
z = json.load(open(sys.argv[1]))['jobs'][0]['zbd']
zs = int(sys.argv[2])
print(' '.join('%s:%d:%d' % (q['file'], q['start'] // zs, q['wp_after'])
               for q in sorted(z['zones'], key=lambda q: (q['file'],
                                                          q['start']))
               if q['wp_after']))
PYEOF
}

fresh() {
	rm -f a.dat b.dat
	truncate -s 8m a.dat b.dat
}

# 1. Sequential over two files, 1 MiB zones of 768 KiB capacity.
job="--filename=a.dat:b.dat --size=16m --bs=64k --rw=write --zonemode=zbd
	--zonesize=1m --zonecapacity=768k"
fresh
run --name=s $job --write_iolog=i1.log --output-format=json
expect_rc 0
cp "$T/out" s.json
fresh
$FIO --name=s $job --write_iolog=f1.log >f1.out 2>&1 ||
	die "fio: $(cat f1.out)"
a=$(awk '$3 == "write" {print $2, $4, $5}' i1.log | md5sum)
b=$(awk '$3 == "write" {print $2, $4, $5}' f1.log | md5sum)
n=$(grep -c ' write ' i1.log)
[ "$a" = "$b" ] && [ "$n" = 192 ] ||
	die "sequential writes: iorig's $n differ from fio's" \
	    "($(grep -c ' write ' f1.log))"
"$PY" - s.json <<'PYEOF' || die "sequential: the zones after"
import json, sys
z = json.load(open(sys.argv[1]))['jobs'][0]['zbd']
assert z['model'] == 'emulated' and len(z['zones']) == 16, z
assert [q['file'] for q in z['zones']] == ['a.dat'] * 8 + ['b.dat'] * 8
assert [q['wp_after'] for q in z['zones']] == [786432] * 16, z['zones']
assert {q['cond_after'] for q in z['zones']} == {'fu'}, z['zones']
PYEOF
echo "ok: sequential over 2 files: 192 writes, file and offset as fio's;" \
	"16 zones full after, each named by its file"

# 2. Random writes, max_open_zones=2 (each file's: fio's limit is per
# device), io_size three times the regions.
job="--filename=a.dat:b.dat --size=16m --io_size=48m --bs=64k
	--rw=randwrite --zonemode=zbd --zonesize=1m --max_open_zones=2"
fresh
run --name=r $job --write_iolog=i2.log --output-format=json
expect_rc 0
cp "$T/out" r.json
fresh
$FIO --name=r $job --write_iolog=f2.log >f2.out 2>&1 ||
	die "fio: $(cat f2.out)"
# per_file LOG: "N name, N name" of its writes
per_file() {
	awk '$3 == "write" {print $2}' "$1" | sort | uniq -c |
		awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2}'
}
i2n=$(per_file i2.log)
f2n=$(per_file f2.log)
[ "$i2n" = "$f2n" ] || die "random: writes per file $i2n, fio's $f2n"
set -- $(replay i2.log 1048576 1048576)
[ "$1 $2 $4" = "768 0 2" ] || die "random replay: $*"
fr=$(replay f2.log 1048576 1048576 | sed -n 1p | cut -d' ' -f3)
want=$(replay i2.log 1048576 1048576 | tail -n 1)
got=$(zones_after r.json 1048576)
[ "$got" = "$want" ] || die "random: the JSON's zones '$got', the log's" \
	"'$want'"
"$PY" - r.json "$3" <<'PYEOF' || die "random: the report's figures"
import json, sys
z = json.load(open(sys.argv[1]))['jobs'][0]['zbd']
assert z['zone_resets'] == int(sys.argv[2]), z
assert z['max_open_zones'] == 2 and z['max_open_seen'] <= 2, z
PYEOF
echo "ok: random over 2 files: 768 writes ($i2n; fio the same), all at" \
	"their file's write pointers, $3 resets (fio: $fr), at most 2 zones" \
	"of a file open; the JSON's zones per file as the log"

# 3. nrfiles=2, file_service_type=random, offset=100k: each file's region
# rounded to [1m, 4m) as fio rounds it; the same writes (sorted).
mkdir f i
job="--name=n --filename=a:b --size=8m --bs=64k --rw=write --offset=100k
	--zonemode=zbd --zonesize=1m --file_service_type=random"
(cd i && truncate -s 4m a b && "$IORIG" $job --write_iolog=../i3.log \
	>../i3.out 2>&1) || die "iorig: $(cat i3.out)"
grep -q 'rounds it the same way' i3.out || die "no rounding warning"
(cd f && truncate -s 4m a b && $FIO $job --write_iolog=../f3.log \
	>../f3.out 2>&1) || die "fio: $(cat f3.out)"
a=$(awk '$3 == "write" {print $2, $4, $5}' i3.log | sort | md5sum)
b=$(awk '$3 == "write" {print $2, $4, $5}' f3.log | sort | md5sum)
n=$(grep -c ' write ' i3.log)
lo=$(awk '$3 == "write" {print $4}' i3.log | sort -n | head -n 1)
[ "$a" = "$b" ] && [ "$n" = 96 ] && [ "$lo" = 1048576 ] ||
	die "file_service_type=random: iorig's $n writes from $lo differ" \
	    "from fio's ($(grep -c ' write ' f3.log))"
echo "ok: file_service_type=random, offset=100k: fio's 96 writes in" \
	"[1m, 4m) of each file"

# 4. verify= over two files: every block written is read back and checks.
fresh
run --name=v --filename=a.dat:b.dat --size=8m --bs=64k --rw=randwrite \
	--zonemode=zbd --zonesize=1m --verify=crc32c --output-format=json
expect_rc 0
v=$(json "(d['jobs'][0]['write']['io_bytes'],
	d['jobs'][0]['verify']['blocks_checked'],
	d['jobs'][0]['verify']['mismatches'])")
[ "$v" = "(8388608, 128, 0)" ] || die "verify over 2 files: $v"
echo "ok: verify= over 2 files: 8 MiB written, 128 blocks read back, none bad"
