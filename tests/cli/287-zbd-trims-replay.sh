#!/bin/sh
# zonemode=zbd on a regular file (emulated zones of zonesize bytes),
# against Debian's fio 3.33 on the same jobs: trims, serialize_overlap
# and read_iolog, which iorig took with it since issue 24.
# - A trim of an emulated sequential zone is its reset (fio's meaning: no
#   hole punched, the file's bytes unchanged, checked by checksum), so a
#   sequential trim of 8 zones is 8 trims and a random one of zones that
#   are all empty none (both tools); trimwrite the same counts as fio.
# - A trim block size other than the zone size, or a range of them, is
#   refused (exit 2, as fio refuses them); so is verify's
#   trim_percentage (trims of single blocks, which a zone's reset is not;
#   fio 3.33 fails a trim not at a zone's start, and ends on an assertion
#   with trim_backlog on any file).
# - serialize_overlap=1 with iodepth=8: the writes go to the write
#   pointers (iorig's write_iolog: every zone written from its start, in
#   order), fio's count of writes; a mixed random job has no error.
# - read_iolog: the log's I/Os replayed where the log has them (fio
#   replays them unmoved), fio's counts, and the zones after in iorig's
#   report are where the log's writes left them.
# lane: parallel
. "$(dirname "$0")/lib.sh"

FIO=/usr/bin/fio
[ -x $FIO ] || skip "needs Debian's fio 3.33 at $FIO"
mkrand z.dat 8388608
sum0=$(cksum <z.dat)
zbd="--filename=z.dat --zonemode=zbd --zonesize=1m"

# both NAME ARGS...: iorig then fio on the same job (JSON in NAME.i, .f)
both() {
	_n=$1
	shift
	"$IORIG" $zbd --name=$_n "$@" --output-format=json >"$_n.i" \
		2>"$_n.ie" || die "iorig $*: $(cat "$_n.ie")"
	$FIO $zbd --name=$_n "$@" --output-format=json >"$_n.f" \
		2>"$_n.fe" || die "fio $*: $(cat "$_n.fe")"
}
# c NAME DIR: "iorig,fio" I/O counts of direction DIR
c() {
	echo "$(jsonf "$1.i" "d['jobs'][0]['$2']['ios']"),$(jsonf "$1.f" \
		"d['jobs'][0]['$2']['total_ios']")"
}

# 1. Trims: resets of emulated zones, nothing punched.
both t --bs=1m --size=8m --rw=trim
[ "$(c t trim)" = "8,8" ] || die "sequential trims (iorig,fio): $(c t trim)"
[ "$(cksum <z.dat)" = "$sum0" ] ||
	die "the trims of emulated zones changed the file's bytes"
both rt --bs=1m --size=8m --rw=randtrim
[ "$(c rt trim)" = "0,0" ] ||
	die "random trims of empty zones (iorig,fio): $(c rt trim)"
both tw --bs=1m --size=8m --rw=trimwrite
[ "$(c tw trim)/$(c tw write)" = "8,8/8,8" ] ||
	die "trimwrite (iorig,fio): trims $(c tw trim), writes $(c tw write)"
echo "ok: trims of emulated zones: 8 sequential, 0 random, trimwrite" \
	"8+8, as fio; the file unchanged"

# 2. Refused as fio refuses them (nothing written).
sum1=$(cksum <z.dat)
expect_refused "trim block size 524288 is not the zone size" $zbd \
	--name=b --bs=1m,1m,512k --size=8m --rw=trim
$FIO $zbd --name=b --bs=1m,1m,512k --size=8m --rw=trim >fb 2>&1 &&
	die "fio took a trim block size other than the zone size"
expect_refused "option 'bsrange'" $zbd --name=b --bsrange=512k-1m \
	--size=8m --rw=trim
$FIO $zbd --name=b --bsrange=512k-1m --size=8m --rw=trim >fb 2>&1 &&
	die "fio took a range of trim block sizes"
expect_refused "option 'trim_percentage'" $zbd --name=b --bs=64k --size=8m \
	--rw=write --verify=crc32c --trim_backlog=4 --trim_percentage=50
[ "$(cksum <z.dat)" = "$sum1" ] || die "a refused job wrote"
echo "ok: trim bs other than the zone size, bsrange, trim_backlog:" \
	"refused (fio refuses the first two)"

# 3. serialize_overlap with 8 I/Os in flight, zones taking 768 KiB of
# writes each: the writes jump from each zone's capacity to the next
# zone (the generator's own offsets would not).
both so --bs=64k --size=8m --rw=write --serialize_overlap=1 \
	--iodepth=8 --ioengine=libaio --direct=1 --zonecapacity=768k
[ "$(c so write)" = "96,96" ] || die "writes (iorig,fio): $(c so write)"
run $zbd --name=sl --bs=64k --size=8m --rw=write --serialize_overlap=1 \
	--iodepth=8 --ioengine=libaio --direct=1 --zonecapacity=768k \
	--write_iolog=sl.log
expect_rc 0
"$PY" - sl.log <<'PYEOF' || die "serialize_overlap's writes off the write pointers"
import sys
wp = {}
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) == 5 and f[2] == 'write':
        off, n = int(f[3]), int(f[4])
        z = off >> 20
        if off != wp.get(z, z << 20) or off + n > (z << 20) + 786432:
            sys.exit('write of %d at %d, zone %d at %d' % (n, off, z,
                     wp.get(z, z << 20)))
        wp[z] = off + n
if len(wp) != 8:
    sys.exit('%d zones written' % len(wp))
PYEOF
both sr --bs=64k --size=8m --io_size=8m --rw=randrw \
	--serialize_overlap=1 --iodepth=8 --ioengine=libaio --direct=1
e=$(jsonf sr.i "sum(d['jobs'][0][k]['errors'] for k in ('read','write'))")
e=$e,$(jsonf sr.f "d['jobs'][0]['error']")
n=$(jsonf sr.i "d['jobs'][0]['read']['ios'] + d['jobs'][0]['write']['ios']")
[ "$e" = "0,0" ] && [ "$n" = 128 ] ||
	die "serialize_overlap randrw: errors (iorig,fio) $e, iorig's I/Os $n"
echo "ok: serialize_overlap=1, iodepth=8: writes $(c so write) at the" \
	"write pointers; randrw without error, $n I/Os"

# 4. read_iolog: 4 writes from zone 1's start, 2 reads of them, a write
# from zone 3's start (the log's order).
{
	echo "fio version 2 iolog"
	echo "$T/z.dat add"
	echo "$T/z.dat open"
	for i in 0 1 2 3; do echo "$T/z.dat write $((1048576 + i * 65536)) 65536"; done
	for i in 0 1; do echo "$T/z.dat read $((1048576 + i * 65536)) 65536"; done
	echo "$T/z.dat write 3145728 131072"
	echo "$T/z.dat close"
} >r.log
"$IORIG" --name=r --zonemode=zbd --zonesize=1m --read_iolog=r.log \
	--direct=1 --output-format=json >r.i 2>r.ie || die "iorig: $(cat r.ie)"
$FIO --name=r --zonemode=zbd --zonesize=1m --read_iolog=r.log \
	--direct=1 --output-format=json >r.f 2>r.fe || die "fio: $(cat r.fe)"
[ "$(c r write)/$(c r read)" = "5,5/2,2" ] ||
	die "replay (iorig,fio): writes $(c r write), reads $(c r read)"
z=$(jsonf r.i "' '.join('%d:%d' % (z['start'] >> 20, z['wp_after']) for z in d['jobs'][0]['zbd']['zones'] if z['wp_after'])")
[ "$z" = "1:262144 3:131072" ] || die "replay: zones after '$z'"
echo "ok: read_iolog under zonemode=zbd: writes $(c r write), reads" \
	"$(c r read) (iorig,fio); zones after '$z'"
