#!/bin/sh
# zonemode=zbd with filesize=, offset= and size= whose region is rounded
# to whole zones (zones of 4 MiB emulated on a regular file), against
# Debian's fio 3.33 on the same jobs and file: fio counts the job's bytes
# from the region asked, before the rounding, so random writes drawn
# without a map go on in the rounded region past its bytes (filesize=8m
# offset=2m: 96 writes of 64 KiB in the zone at 4 MiB, not 64), while a
# sequential pass and a random map end at the rounded region's end. Each
# job: the count of writes as fio's, every write inside the rounded
# region as fio's, at its zone's write pointer or at the start of a zone
# it resets (a replay of the write_iolog), and, where the walk is the
# same (sequential, the random map), the same blocks as fio's. size=P%
# with filesize= is P% of the file's size, as fio's. Where fio 3.33 aborts
# (a second pass over a region rounded up) or counts otherwise (zones
# of a file it extends), iorig's own behaviour (DIFFERENCES FROM FIO).
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

FIO=/usr/bin/fio
[ -x $FIO ] || skip "needs Debian's fio 3.33 at $FIO"
truncate -s 64m a.dat
truncate -s 64m b.dat

# replay LOG...: "writes bad resets lo hi" of write_iologs (v3) against
# zones of 4 MiB, each file's own: bad counts writes off a write pointer
# (not at a zone's start either) or across a zone's end; lo and hi are
# the lowest offset written and the end of the highest write.
replay() {
	"$PY" - "$@" <<'PYEOF'
import sys
zs = 4 << 20
n = bad = resets = 0
lo, hi = None, 0
for log in sys.argv[1:]:
    wp = {}
    for l in open(log):
        f = l.split()
        if len(f) != 5 or f[2] != 'write':
            continue
        off, ln = int(f[3]), int(f[4])
        z = (f[1], off // zs)
        w = wp.get(z, z[1] * zs)
        if off != w:
            if off == z[1] * zs:
                resets += 1
            else:
                bad += 1
        if off + ln > (z[1] + 1) * zs:
            bad += 1
        wp[z] = off + ln
        lo = off if lo is None else min(lo, off)
        hi = max(hi, off + ln)
        n += 1
print(n, bad, resets, lo, hi)
PYEOF
}

# blocks LOG: the sorted offsets written.
blocks() {
	awk '$3 == "write" {print $2, $4, $5}' "$1" | sort | md5sum
}

# both NAME WRITES LO HI ARGS...: the job on iorig and on fio 3.33
# (write_iologs NAME.i and NAME.f); each makes WRITES writes, all in
# [LO, HI) MiB and at write pointers. Sets $ri and $rf (replay's).
both() {
	_n=$1 _w=$2 _lo=$(($3 << 20)) _hi=$(($4 << 20))
	shift 4
	run --name=$_n --bs=64k --zonemode=zbd --zonesize=4m "$@" \
		--write_iolog=$_n.i
	expect_rc 0
	$FIO --name=$_n --bs=64k --zonemode=zbd --zonesize=4m "$@" \
		--write_iolog=$_n.f >$_n.fo 2>&1 ||
		die "fio $*: $(cat $_n.fo)"
	ri=$(replay $_n.i) rf=$(replay $_n.f)
	[ "$ri" = "$_w 0 ${ri#* 0 }" ] && [ "$rf" = "$_w 0 ${rf#* 0 }" ] ||
		die "$_n ($*): (writes bad resets lo hi) iorig $ri, fio $rf;" \
		    "expected $_w writes at write pointers"
	set -- $ri
	[ "$4" -ge $_lo ] && [ "$5" -le $_hi ] ||
		die "$_n: iorig wrote [$4, $5), outside [$_lo, $_hi)"
	set -- $rf
	[ "$4" -ge $_lo ] && [ "$5" -le $_hi ] ||
		die "$_n: fio wrote [$4, $5), outside [$_lo, $_hi)"
}

f1="--filename=a.dat --filesize=8m --offset=2m"

# 1. Random writes without a map: 6 MiB (96 writes) in the zone at 4 MiB,
# which they fill and reset.
both nm 96 4 8 $f1 --rw=randwrite --norandommap=1
set -- $ri
[ "$3" -ge 1 ] || die "96 writes in a zone of 64 blocks without a reset"
echo "ok: filesize=8m offset=2m, norandommap=1: 96 writes (fio 96) in" \
	"[4m, 8m), $3 resets (fio's $(echo $rf | cut -d' ' -f3))"

# 2. The random map and the sequential pass end at the rounded region's
# end: 64 writes, the blocks fio writes.
for rw in randwrite write; do
	both $rw 64 4 8 $f1 --rw=$rw
	[ "$(blocks $rw.i)" = "$(blocks $rw.f)" ] ||
		die "rw=$rw: other blocks than fio's"
done
echo "ok: the random map and a sequential pass: 64 writes, fio's blocks"

# 3. The region's end rounded down (filesize=10m offset=4m); size= in
# bytes below the file's (size=6m of filesize=16m from 2m); no filesize
# (offset=2m size=10m: 160 writes in [4m, 12m)); a skewed distribution
# (no map either).
both end 96 4 8 --filename=a.dat --filesize=10m --offset=4m \
	--rw=randwrite --norandommap=1
both sz 96 4 16 --filename=a.dat --filesize=16m --offset=2m --size=6m \
	--rw=randwrite --norandommap=1
both nofs 160 4 12 --filename=a.dat --offset=2m --size=10m \
	--rw=randwrite --norandommap=1
both zipf 96 4 8 $f1 --rw=randwrite --random_distribution=zipf:1.2
echo "ok: the end rounded down, size= below filesize=, offset= with" \
	"size=, zipf: fio's counts (96, 96, 160, 96)"

# 4. Two files: 6 MiB asked of each, 12 MiB written (192), each file's
# zone at 4 MiB alone.
both two 192 4 8 --filename=a.dat:b.dat --filesize=8m --offset=2m \
	--rw=randwrite --norandommap=1
echo "ok: two files: 192 writes (fio 192), each in its zone at 4 MiB"

# 5. io_size= and number_ios= still say the bytes (80 and 70 writes).
both ios 80 4 8 $f1 --rw=randwrite --norandommap=1 --io_size=5m
both nios 70 4 8 $f1 --rw=randwrite --norandommap=1 --number_ios=70
echo "ok: io_size=5m and number_ios=70: 80 and 70 writes (fio's)"

# 6. size=P% with filesize= is P% of the file's size (fio's): 8 MiB from
# 2 MiB of filesize=16m, rounded to [4m, 8m): one pass of the zone, or
# 8 MiB of random writes there.
both pct 64 4 8 --filename=a.dat --filesize=16m --offset=2m --size=50% \
	--rw=write
[ "$(blocks pct.i)" = "$(blocks pct.f)" ] || die "size=50%: other blocks"
both pctr 128 4 8 --filename=a.dat --filesize=16m --offset=2m --size=50% \
	--rw=randwrite --norandommap=1
echo "ok: filesize=16m offset=2m size=50%: the zone at 4 MiB, 64 writes" \
	"in a pass, 128 random ones (fio's)"

# 7. A second pass over a region whose start was rounded up (io_size=
# past a pass, loops=2): iorig starts it again at the rounded start,
# resetting the zone; fio 3.33 takes the offset asked for it and ends on
# an assertion (zone_lock) with no write logged, so iorig alone here.
for p in "--rw=write --io_size=6m:96" "--rw=randwrite --loops=2:128"; do
	rm -f p.i
	run --name=p --bs=64k --zonemode=zbd --zonesize=4m $f1 ${p%:*} \
		--write_iolog=p.i
	expect_rc 0
	set -- $(replay p.i)
	[ "$1 $2" = "${p#*:} 0" ] && [ "$3" -ge 1 ] &&
		[ "$4 $5" = "4194304 8388608" ] ||
		die "${p%:*}: (writes bad resets lo hi) $*"
done
echo "ok: a second pass over the rounded region: 96 and 128 writes in" \
	"[4m, 8m) at write pointers, the zone reset"

# 8. A file the job extends (4 MiB, filesize=12m): iorig's zones cover
# the region as laid out, 192 writes in three zones; fio 3.33's only the
# 4 MiB the file held before (64 writes; see DIFFERENCES FROM FIO).
for t in i f; do
	rm -f s.dat
	truncate -s 4m s.dat
	if [ $t = i ]; then
		run --name=s --bs=64k --zonemode=zbd --zonesize=4m \
			--filename=s.dat --filesize=12m --rw=write \
			--write_iolog=s.i
		expect_rc 0
	else
		$FIO --name=s --bs=64k --zonemode=zbd --zonesize=4m \
			--filename=s.dat --filesize=12m --rw=write \
			--write_iolog=s.f >s.fo 2>&1 || die "fio: $(cat s.fo)"
	fi
done
si=$(replay s.i) sf=$(replay s.f)
[ "$si" = "192 0 0 0 12582912" ] && [ "$sf" = "64 0 0 0 4194304" ] ||
	die "a file extended: iorig $si, fio $sf"
echo "ok: a 4 MiB file with filesize=12m: 192 writes in 3 zones (fio" \
	"3.33: 64, its zones those of the file before the run)"
