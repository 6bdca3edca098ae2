#!/bin/sh
# zonemode=zbd with two files per job (filename=a:b) on host-managed
# zoned null_blk devices (64 MiB, 4 MiB zones of 3 MiB capacity, at most
# 2 open): iorig on two devices, fio 3.33 on two others made alike, the
# same jobs. Each device has its own zones (fio's meaning): a sequential
# write over both leaves every device's write pointers and conditions
# (blkzone) as fio's, with fio's count of writes; random writes with
# io_size past the regions keep each device's open zone limit, with
# fio's count and no error. iorig's JSON names each zone's device, with
# the write pointer and condition blkzone reports for it. The devices
# are removed at the end.
. "$(dirname "$0")/../lib.sh"
need blkzone util-linux
FIO=/usr/bin/fio
[ -x $FIO ] || skip "no $FIO (Debian's fio)"
attrs="size=64 blocksize=4096 memory_backed=0 zoned=1 zone_size=4
	zone_capacity=3 zone_nr_conv=0 zone_max_open=2"
nullb_pair zm1 $attrs
a1=$a b1=$b
nullb_pair zm2 $attrs
a2=$a b2=$b
[ "$(cat /sys/block/zm1i/queue/max_open_zones)" = 2 ] ||
	skip "null_blk without zone_max_open"
common="--direct=1 --ioengine=psync --zonemode=zbd --bs=256k"

# two NAME ARGS...: the job on iorig's pair and on fio's; JSON in
# $T/NAME.i and $T/NAME.f.
two() {
	_n=$1
	shift
	"$IORIG" --filename=$a1:$a2 $common --name=$_n "$@" \
		--output-format=json >"$T/$_n.i" 2>"$T/$_n.ie" ||
		die "iorig $*: $(cat "$T/$_n.ie")"
	$FIO --filename=$b1:$b2 $common --name=$_n "$@" \
		--output-format=json >"$T/$_n.f" 2>"$T/$_n.fe" ||
		die "fio $*: $(cat "$T/$_n.fe")"
}

# check DEV JSON: iorig's zones of DEV in JSON against blkzone's report
# of DEV (write pointer, condition); prints the count checked.
check() {
	blkzone report "$1" >"$T/bz" 2>"$T/bz.err" ||
		die "blkzone report $1: $(cat "$T/bz.err")"
	"$PY" -S - "$T/bz" "$2" "$1" <<'PYEOF' || die "check $1 $2"
import json, re, sys
bz = {}
for l in open(sys.argv[1]):
    m = re.search(r'start: (0x[0-9a-f]+), len (0x[0-9a-f]+), cap '
                  r'(0x[0-9a-f]+), wptr (0x[0-9a-f]+).*zcond:\s*\d+\((\w+)\)',
                  l)
    if m:
        s, n, c, w = (int(m.group(i), 16) * 512 for i in range(1, 5))
        cond = m.group(5)
        bz[s] = (c if cond in ('fu', 'nw') else w, cond)
t = open(sys.argv[2]).read()
z = json.loads(t[t.find('{'):])['jobs'][0]['zbd']['zones']
mine = [q for q in z if q['file'] == sys.argv[3]]
bad = [(q['start'], q['wp_after'], q['cond_after'], bz.get(q['start']))
       for q in mine if bz.get(q['start']) != (q['wp_after'],
                                               q['cond_after'])]
if not mine or bad:
    print('iorig says (start, wp, cond) / blkzone (wp, cond):', bad[:4],
          len(mine))
    sys.exit(1)
print(len(mine))
PYEOF
}

# 1. Sequential writes, 16 MiB of each device (size=32M over two): four
# zones each, written to their capacity.
two w --offset=0 --size=32M --rw=write
for d in 1 2; do
	eval "za=\$(zones_of \$a$d 0 5) zb=\$(zones_of \$b$d 0 5)"
	[ "$za" = "$zb" ] || die "device $d: iorig's '$za', fio's '$zb'"
	[ "$za" = "6144:fu 6144:fu 6144:fu 6144:fu 0:em" ] ||
		die "device $d after the write: '$za'"
done
set -- $(jvals "$T/w.i" "j['write']['ios']" \
	"@$T/w.f" "j['write']['total_ios']")
iw=$1 fw=$2
[ "$iw" = "$fw" ] && [ "$iw" = 96 ] ||
	die "writes: iorig $iw, fio $fw, expected 96"
n1=$(check $a1 "$T/w.i")
n2=$(check $a2 "$T/w.i")
echo "ok: sequential over two devices: each one's zones 0-4 '$za' as" \
	"fio's; $iw writes (fio $fw); the JSON's $n1 + $n2 zones as blkzone"

# 2. Random writes over zones 4-11 of each device, io_size=24M: the
# device's limit of 2 open zones kept on each.
two rw --offset=16M --size=64M --io_size=24M --rw=randwrite
set -- $(jvals "$T/rw.i" "j['zbd']['max_open_zones']" \
	"j['zbd']['max_open_seen']" "j['write']['errors']" \
	"j['write']['ios']" "@$T/rw.f" "j['error']" \
	"j['write']['total_ios']")
lim=$1 seen=$2 e=$3,$5 c=$4,$6
[ "$lim" = 2 ] && [ "$seen" -le 2 ] && [ "$e" = "0,0" ] &&
	[ "$c" = "96,96" ] ||
	die "random writes: limit $lim, $seen open, errors $e, writes $c"
for d in $a1 $a2; do
	open=$(blkzone report $d | grep -c 'zcond: *[23](')
	[ "$open" -le 2 ] || die "$d: $open zones open after"
done
n1=$(check $a1 "$T/rw.i")
n2=$(check $a2 "$T/rw.i")
echo "ok: random writes over two devices: limit $lim each, at most" \
	"$seen open; writes (iorig,fio) $c, no error; the JSON's $n1 + $n2" \
	"zones as blkzone"
