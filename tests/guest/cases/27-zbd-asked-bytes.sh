#!/bin/sh
# zonemode=zbd with filesize=, offset= and size= on host-managed zoned
# null_blk devices (64 MiB, 4 MiB zones), iorig on one and fio 3.33 on
# another made alike, the same jobs: a writer's region is rounded to
# whole zones, yet its bytes are those of the region asked (fio's
# meaning), so random writes without a map go on in the rounded region,
# resetting its zones, while a sequential pass and a random map end at
# its end. Each job: fio's count of writes, and the zones written by
# blkzone those of the rounded region alone (iorig's JSON as blkzone
# says). The devices are removed at the end.
. "$(dirname "$0")/../lib.sh"
need blkzone util-linux
FIO=/usr/bin/fio
[ -x $FIO ] || skip "no $FIO (Debian's fio)"
nullb_pair za size=64 blocksize=4096 memory_backed=0 zoned=1 zone_size=4 \
	zone_nr_conv=0
common="--direct=1 --ioengine=psync --zonemode=zbd --bs=64k"

# written DEV: the indexes of DEV's 16 zones that are not empty.
written() {
	_i=0 _o=
	for _z in $(zones_of "$1" 0 16); do
		case $_z in *:em) ;; *) _o="$_o${_o:+ }$_i" ;; esac
		_i=$((_i + 1))
	done
	echo "$_o"
}

# counted NAME N: iorig's and fio's writes of job NAME are N each.
counted() {
	set -- $1 $2 $(jvals "$T/$1.i" "j['write']['ios']" \
		"@$T/$1.f" "j['write']['total_ios']")
	[ "$3 $4" = "$2 $2" ] ||
		die "$1: iorig $3 writes, fio 3.33 $4; expected $2 each"
}

# 1. filesize=8m offset=2m: the zone at 4 MiB; without a map, 6 MiB of
# random writes there (96), resetting it as it fills.
both nm --filesize=8m --offset=2m --rw=randwrite --norandommap=1
counted nm 96
[ "$(written $a)" = 1 ] && [ "$(written $b)" = 1 ] ||
	die "filesize=8m offset=2m: zones written '$(written $a)'" \
	    "(fio's '$(written $b)'), expected zone 1 alone"
set -- $(jvals "$T/nm.i" "j['zbd']['zone_resets']")
[ "$1" -ge 1 ] || die "96 writes in a zone of 64 blocks, $1 resets"
zbd_check $a "$T/nm.i" >"$T/c1"
echo "ok: filesize=8m offset=2m norandommap=1: 96 writes (fio's), all in" \
	"zone 1, $1 resets; $(cat "$T/c1")"

# 2. One pass of the rounded region: sequential (filesize=16m offset=10m:
# zone 3, full after) and with the random map (filesize=24m offset=18m:
# zone 5), 64 writes each.
both sq --filesize=16m --offset=10m --rw=write
counted sq 64
za=$(zones_of $a 24576 1) zb=$(zones_of $b 24576 1)
[ "$za" = "8192:fu" ] && [ "$zb" = "$za" ] ||
	die "sequential: zone 3 '$za', fio's '$zb'"
both rm --filesize=24m --offset=18m --rw=randwrite
counted rm 64
[ "$(written $a)" = "1 3 5" ] && [ "$(written $b)" = "1 3 5" ] ||
	die "filesize=24m offset=18m: zones written '$(written $a)'" \
	    "(fio's '$(written $b)'), expected 1 3 5"
echo "ok: a pass of the rounded region, 64 writes, sequential (zone 3" \
	"full) and with the random map (zone 5), as fio's"

# 3. size=25% of filesize=48m from 26m: 12 MiB asked, [28m, 36m) after
# the rounding: zones 7-8 written with 192 random writes (fio's).
both pc --filesize=48m --offset=26m --size=25% --rw=randwrite \
	--norandommap=1
counted pc 192
[ "$(written $a)" = "1 3 5 7 8" ] && [ "$(written $b)" = "1 3 5 7 8" ] ||
	die "size=25%: zones written '$(written $a)' (fio's" \
	    "'$(written $b)'), expected 1 3 5 7 8"
zbd_check $a "$T/pc.i" >"$T/c3"
echo "ok: filesize=48m offset=26m size=25%: 192 writes (fio's) in zones" \
	"7-8; $(cat "$T/c3")"
