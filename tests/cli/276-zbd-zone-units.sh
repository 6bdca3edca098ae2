#!/bin/sh
# fio 3.33's zone unit: size=, offset=, io_size=, zoneskip= and
# offset_increment=
# given as counts of zones ("4z") on emulated zones (zonemode=zbd on a
# regular file) write what Debian's fio 3.33 writes, offset for offset
# (each tool's own write_iolog), zoneskip= with zonemode=zbd too; zonemode=strided counts zonesize's zones;
# --parse-only shows the bytes; what fio misreads without a word (a count
# with no zones to count, a later value in bytes under a count) and what
# is no count (1.5z, -1z) is refused with exit 2, nothing written.
# lane: parallel
. "$(dirname "$0")/lib.sh"

FIO=/usr/bin/fio
[ -x $FIO ] || skip "needs Debian's fio 3.33 at $FIO"
truncate -s 16m z.dat

# same_writes NAME ARGS...: iorig and fio write the same offsets and
# lengths in the same order; prints how many.
same_writes() {
	_n=$1
	shift
	run --name=$_n "$@" --write_iolog=$_n.i.log
	expect_rc 0
	$FIO --name=$_n "$@" --write_iolog=$_n.f.log >$_n.f.out 2>&1 ||
		die "fio: $(cat $_n.f.out)"
	_a=$(awk '$3 == "write" {print $4, $5}' $_n.i.log | md5sum)
	_b=$(awk '$3 == "write" {print $4, $5}' $_n.f.log | md5sum)
	[ "$_a" = "$_b" ] || die "$_n: iorig's writes differ from fio's" \
		"($(grep -c ' write ' $_n.i.log) against" \
		"$(grep -c ' write ' $_n.f.log))"
	grep -c ' write ' $_n.i.log
}

# 1. size=4z offset=2z io_size=6z: 96 writes of 64 KiB from 2 MiB,
# wrapping over the 4 zones (resets of full zones), as fio.
n=$(same_writes a --filename=z.dat --zonemode=zbd --zonesize=1m \
	--size=4z --offset=2z --io_size=6z --rw=write --bs=64k) || exit 1
[ "$n" = 96 ] || die "size=4z offset=2z io_size=6z: $n writes, not 96"
lo=$(awk '$3 == "write" {print $4}' a.i.log | sort -n | head -1)
hi=$(awk '$3 == "write" {print $4 + $5}' a.i.log | sort -n | tail -1)
[ "$lo $hi" = "2097152 6291456" ] || die "region [$lo, $hi)"
echo "ok: size=4z offset=2z io_size=6z: fio's 96 writes in [2m, 6m)"

# 2. Random writes in 2 zones of 512 KiB capacity, 3 zones' worth: as
# many as fio's, all in [5m, 6.5m) (capacities) and each at its zone's write pointer
# (or the start of a zone reset full); the random offsets are iorig's.
# span LOG: "writes low high bad" of a write_iolog's writes.
span() {
	awk '$3 == "write" { o = $4; z = int(o / 1048576);
		w = (z in wp) ? wp[z] : z * 1048576;
		if (o != w && o != z * 1048576) bad++;
		wp[z] = o + $5; n++;
		if (lo == "" || o < lo) lo = o;
		if (o + $5 > hi) hi = o + $5 }
	END { print n, lo, hi, bad + 0 }' "$1"
}
job="--filename=z.dat --zonemode=zbd --zonesize=1m --zonecapacity=512k
	--size=2z --offset=5z --io_size=3z --rw=randwrite --bs=128k"
run --name=b $job --write_iolog=b.i.log
expect_rc 0
$FIO --name=b $job --write_iolog=b.f.log >b.f.out 2>&1 ||
	die "fio: $(cat b.f.out)"
si=$(span b.i.log) sf=$(span b.f.log)
[ "$si" = "24 5242880 6815744 0" ] && [ "$sf" = "$si" ] ||
	die "random: iorig (writes low high bad) $si, fio $sf"
echo "ok: random writes in size=2z offset=5z, io_size=3z: 24 in" \
	"[5m, 6.5m) at write pointers (fio the same)"

# 2b. zoneskip= under zonemode=zbd (fio's rule, sequential jobs): a zone
# written, the next one zoneskip after, wrapping until size= bytes are
# done; with zone capacities below the zone size and a region a zone
# short of the file's end, fio's offsets still. (On a file much larger
# than the region, fio 3.33 does no I/O at all, without a word: an
# 8 MiB file here.)
truncate -s 8m z8.dat
n=$(same_writes k1 --filename=z8.dat --zonemode=zbd --zonesize=1m \
	--size=8z --zoneskip=1z --rw=write --bs=64k) || exit 1
[ "$n" = 128 ] || die "zoneskip=1z: $n writes, not 128"
n=$(same_writes k2 --filename=z8.dat --zonemode=zbd --zonesize=1m \
	--zonecapacity=768k --size=8z --zoneskip=1z --rw=write \
	--bs=64k) || exit 1
[ "$n" = 128 ] || die "zoneskip=1z zonecapacity=768k: $n writes"
n=$(same_writes k3 --filename=z8.dat --zonemode=zbd --zonesize=1m \
	--size=7z --zoneskip=2z --rw=write --bs=128k --loops=2) || exit 1
[ "$n" = 112 ] || die "zoneskip=2z size=7z loops=2: $n writes"
awk '$3 == "write" {print $4 / 1048576}' k1.i.log | sort -un |
	awk '{ z = int($1); if (z % 2) exit 1 }' ||
	die "zoneskip=1z wrote an odd zone"
echo "ok: zoneskip=1z and 2z: fio's writes, offset for offset (even" \
	"zones only for 1z)"

# 3. zonemode=strided counts zonesize's zones (fio's granularity there;
# its strided walk itself is not compared here).
run --parse-only --name=c --filename=z.dat --zonemode=strided \
	--zonesize=256k --zonerange=1m --size=8z --zoneskip=1z
expect_rc 0
grep -q '^  size=2097152$' "$T/out" && grep -q '^  zoneskip=262144$' \
	"$T/out" || die "strided size=8z zoneskip=1z: not 2 MiB and 256 KiB"
echo "ok: zonemode=strided: size=8z, zoneskip=1z of 256 KiB zones"

# 4. The bytes --parse-only shows, for options given on the command line
# and in [global].
run --parse-only --name=p --filename=z.dat --zonemode=zbd --zonesize=1m \
	--size=3z --offset=1z --io_size=5z --offset_increment=2z
expect_rc 0
for kv in size=3145728 offset=1048576 io_size=5242880 \
    offset_increment=2097152; do
	grep -q "^  $kv\$" "$T/out" || die "--parse-only: no $kv"
done
cat >g.fio <<'JOB'
[global]
filename=z.dat
zonemode=zbd
zonesize=1m
size=2z
[a]
rw=write
bs=1m
JOB
run --parse-only g.fio
expect_rc 0
grep -q '^  size=2097152$' "$T/out" || die "[global] size=2z: not 2 MiB"
echo "ok: counts of zones become bytes (--parse-only), in [global] too"

# 5. Refused, exit 2, nothing written.
sum=$(md5sum <z.dat)
expect_refused "option 'size': 4z counts zones, and the job has none" \
	--name=x --filename=z.dat --size=4z --rw=write
expect_refused "option 'size': '1.5z': expected a count of zones" \
	--name=x --filename=z.dat --zonemode=zbd --zonesize=1m --size=1.5z
expect_refused "option 'offset': '-1z'" --name=x --filename=z.dat \
	--zonemode=zbd --zonesize=1m --offset=-1z
expect_refused "option 'bs'" --name=x --filename=z.dat --zonemode=zbd \
	--zonesize=1m --bs=1z
printf '[b]\nfilename=z.dat\nzonemode=zbd\nzonesize=1m\nrw=write\nsize=1m\n' \
	>>g.fio
expect_refused "g.fio:14: option 'size': '1m': fio keeps the count of zones" \
	g.fio
# fio: size=4z with no zones is the whole file (not 4 of anything)
$FIO --name=x --filename=z.dat --size=4z --rw=read --bs=1m \
	--output-format=json >fx.json 2>&1 || die "fio: $(cat fx.json)"
"$PY" -c 'import json,sys; assert json.load(open(sys.argv[1]))["jobs"][0]["read"]["io_bytes"] == 16 << 20' fx.json ||
	die "fio 3.33 read other than the whole file for size=4z, no zones"
[ "$(md5sum <z.dat)" = "$sum" ] || die "a refused job wrote the file"
echo "ok: refused with exit 2 (fio reads size=4z with no zones as the" \
	"whole file)"
