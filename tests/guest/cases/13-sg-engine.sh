#!/bin/sh
# ioengine=sg on scsi_debug's disk (64 MiB, lbpu=1 lbprz=1: UNMAP, and
# unmapped blocks read as zeros), through /dev/sgN and SG_IO on /dev/sdX:
# - READ CAPACITY sizes /dev/sgN as the kernel sizes its sd disk;
# - commands by the SCSI midlayer's own count (iorequest_cnt): 32 more
#   64 KiB writes, reads or UNMAPs for 2 MiB more, and fio 3.33 on the
#   same jobs (sync=1: one SG_IO each, not queued) the same; SG_IO on
#   /dev/sdX the same;
# - the bytes: what iorig wrote (a pattern) read back through /dev/sdX
#   (sha256), verify=crc32c through sg clean, UNMAP's blocks zeros,
#   sg_write_mode=write_same repeats each command's first block,
#   verify_bytchk_01 compares (MISCOMPARE named when not), and
#   write_and_verify, which scsi_debug lacks, fails named as fio fails;
# - the guard knows /dev/sgN is /dev/sdX: signed refused;
# - a medium error (scsi_debug opts=2: LBA 0x1234 and on) fails the job
#   with EIO and the report names the sense (MEDIUM ERROR, 0x11/0x00).
. "$(dirname "$0")/../lib.sh"
need wipefs util-linux
sg=$(scsi_debug_sg)
sys=/sys/class/scsi_generic/${sg#/dev/}/device
disk=$(ls "$sys/block" 2>/dev/null)
[ -n "$disk" ] || die "$sg: no sd disk beside it"
sd=/dev/$disk
read -r sectors <"/sys/block/$disk/size"
on_exit "echo 0 >/sys/bus/pseudo/drivers/scsi_debug/opts"

# cmds VAR PROG ARGS...: PROG's commands to the disk, by iorequest_cnt.
cmds() {
	_v=$1
	shift
	read -r _c0 <"$sys/iorequest_cnt"
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	read -r _c1 <"$sys/iorequest_cnt"
	eval "$_v=$((_c1 - _c0))"
}

# per2m WHO DEV RW [ARGS]: the commands 2 MiB more of RW take (4 MiB
# against 2 MiB, 64 KiB each: 32), by iorig or fio.
per2m() {
	_who=$1 _dev=$2 _rw=$3
	shift 3
	for _s in 2m 4m; do
		if [ "$_who" = fio ]; then
			cmds _n /usr/bin/fio --name=j --filename="$_dev" \
				--ioengine=sg --rw="$_rw" --bs=64k --size=$_s \
				--sync=1 "$@"
		else
			cmds _n "$IORIG" --name=j --filename="$_dev" \
				--ioengine=sg --rw="$_rw" --bs=64k --size=$_s \
				--allow_destructive=1 "$@"
		fi
		[ "$rc" = 0 ] || die "$_who $_rw $_s on $_dev: $(tail -n 5 \
			"$T/err" "$T/out")"
		eval "_n$_s=\$_n"
	done
	# the whole counts, for the record (READ CAPACITY, the guard's
	# reads of the disk and fio's own commands come on top)
	echo "$_who $_rw ${_dev#/dev/}: $_n2m, $_n4m" >>"$T/abs"
	echo $((_n4m - _n2m))
}

run --name=c --filename="$sg" --ioengine=sg --rw=read --bs=64k \
	--size=64k --output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['ios']" 1
echo "ok: $sg ($sd) sized by READ CAPACITY, read"

for who in iorig fio; do
	for rw in write read trim; do
		for dev in "$sg" "$sd"; do
			n=$(per2m $who "$dev" $rw)
			[ "$n" = 32 ] || die "$who rw=$rw on $dev: $n more" \
				"commands for 2 MiB more, expected 32"
		done
	done
done
echo "ok: 32 more commands for 2 MiB more of writes, reads and UNMAPs," \
	"iorig and fio 3.33, on $sg and $sd"
echo "   commands for 2 MiB, 4 MiB: $(tr '\n' ';' <"$T/abs")"

# Queued (/dev/sgN, neither direct=1 nor sync=, a job that writes): 8
# commands in flight, the same counts as fio's queued mode for reads and
# writes (iorig's reading job: one SG_IO at a time), and verify clean at
# that depth.
for who in iorig fio; do
	for rw in randwrite randread; do
		n=$(per2m $who "$sg" $rw --sync=0 --iodepth=8)
		[ "$n" = 32 ] || die "$who rw=$rw queued on $sg: $n more" \
			"commands for 2 MiB more, expected 32"
	done
done
run --name=q --filename="$sg" --ioengine=sg --rw=randwrite --bs=4k \
	--size=2m --iodepth=8 --verify=crc32c --allow_destructive=1 \
	--output-format=json
expect_rc 0
json_is "[d['jobs'][0]['verify'][k] for k in ('blocks_checked',
	'mismatches')]" "[512, 0]"
expect_json "d['jobs'][0]['iodepth']['level'][3] > 0" "8 in flight"
echo "ok: queued on $sg at iodepth=8: 32 more commands for 2 MiB more" \
	"(iorig and fio), 8 in flight, verify clean"

# The bytes: a pattern through sg, read back through the block device.
run --name=w --filename="$sg" --ioengine=sg --rw=write --bs=64k --size=4m \
	--buffer_pattern=0x5a17c3e1 --allow_destructive=1
expect_rc 0
dd if="$sd" of="$T/back" bs=64k count=64 iflag=direct 2>/dev/null ||
	die "dd from $sd"
"$PY" - "$T/back" <<'PYEOF' || die "the bytes written through $sg"
import hashlib, sys
got = hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest()
want = hashlib.sha256(bytes.fromhex('5a17c3e1') * (1 << 20)).hexdigest()
sys.exit(got != want)
PYEOF
echo "ok: 4 MiB of the pattern through $sg read back through $sd (sha256)"

run --name=v --filename="$sg" --ioengine=sg --rw=randwrite --bs=4k \
	--size=2m --verify=crc32c --allow_destructive=1 --output-format=json
expect_rc 0
json_is "[d['jobs'][0]['verify'][k] for k in ('blocks_checked',
	'mismatches')]" "[512, 0]"
echo "ok: verify=crc32c through $sg: 512 blocks, no mismatch"

run --name=t --filename="$sg" --ioengine=sg --rw=trim --bs=64k --size=1m \
	--allow_destructive=1
expect_rc 0
dd if="$sd" of="$T/back" bs=64k count=16 iflag=direct 2>/dev/null ||
	die "dd from $sd"
cmp -s "$T/back" /dev/zero 2>/dev/null ||
	[ "$(tr -d '\0' <"$T/back" | wc -c)" = 0 ] ||
	die "UNMAP through $sg: the blocks are not zeros"
echo "ok: UNMAP through $sg: the 1 MiB reads as zeros through $sd"

run --name=s --filename="$sg" --ioengine=sg --rw=write --bs=64k --size=1m \
	--sg_write_mode=write_same --allow_destructive=1
expect_rc 0
dd if="$sd" of="$T/back" bs=64k count=16 iflag=direct 2>/dev/null ||
	die "dd from $sd"
"$PY" - "$T/back" <<'PYEOF' || die "write_same through $sg"
import sys
b = open(sys.argv[1], 'rb').read()
ok = len(b) == 1 << 20 and all(
    b[i:i + 65536] == b[i:i + 512] * 128 for i in range(0, len(b), 65536))
ok = ok and len(set(b[i:i + 512] for i in range(0, len(b), 65536))) > 1
sys.exit(not ok)
PYEOF
echo "ok: sg_write_mode=write_same: each 64 KiB is its first block repeated"

# VERIFY with BYTCHK 01 compares the data sent with the medium: the
# pattern written above (2-3 MiB) compares, another miscompares, and the
# report names the sense.
vj="--name=c --filename=$sg --ioengine=sg --rw=write --bs=64k --size=1m
	--offset=2m --sg_write_mode=verify_bytchk_01 --allow_destructive=1"
run $vj --buffer_pattern=0x5a17c3e1
expect_rc 0
run $vj --buffer_pattern=0x01020304
expect_rc 1
expect_in err 'MISCOMPARE \(key 0xe\), ASC/ASCQ 0x1d/0x00'
echo "ok: sg_write_mode=verify_bytchk_01: the pattern compares, another" \
	"does not: $(grep -o 'SCSI sense[^)]*)[^)]*' "$T/err" | head -n 1)"

# scsi_debug has no WRITE AND VERIFY: the command fails, and the report
# says why in the device's words; fio 3.33 fails the same job.
run --name=wv --filename="$sg" --ioengine=sg --rw=write --bs=64k \
	--size=64k --sg_write_mode=write_and_verify --allow_destructive=1
expect_rc 1
ill='ILLEGAL REQUEST \(key 0x5\), ASC/ASCQ 0x20/0x00: invalid command'
expect_in err "$ill operation code"
/usr/bin/fio --name=wv --filename="$sg" --ioengine=sg --rw=write \
	--bs=64k --size=64k --sync=1 --sg_write_mode=write_and_verify \
	>"$T/fio.out" 2>&1 && die "fio: WRITE AND VERIFY on scsi_debug passed"
echo "ok: sg_write_mode=write_and_verify: scsi_debug refuses the command," \
	"named (ILLEGAL REQUEST, 0x20/0x00); fio fails too"

# The guard: a signed disk is refused through its sg node too.
mkswap "$sd" >/dev/null 2>&1 || die "mkswap $sd"
on_exit "wipefs -a -q $sd"
cmds n "$IORIG" --name=g --filename="$sg" --ioengine=sg --rw=write \
	--bs=64k --size=1m
[ "$rc" = 2 ] || die "a signed $sd written through $sg: exit $rc"
grep -q "holds data" "$T/err" && grep -q "block device $sd" "$T/err" ||
	die "signed $sd through $sg: $(cat "$T/err")"
echo "ok: refused through $sg: $(head -c 160 "$T/err")"
wipefs -a -q "$sd" || die "wipefs $sd"

# A medium error: scsi_debug fails reads of LBA 0x1234 (4660) and on.
echo 2 >/sys/bus/pseudo/drivers/scsi_debug/opts || die "scsi_debug opts"
run --name=m --filename="$sg" --ioengine=sg --rw=read --bs=4k --size=4m \
	--output-format=json
expect_rc 1
json_is "d['jobs'][0]['error']['errno']" 5
msg=$(json "d['jobs'][0]['error']['message']")
case $msg in *"MEDIUM ERROR"*"0x11/0x00"*) ;;
*) die "medium error: the report says '$msg'" ;; esac
json_is "d['jobs'][0]['read']['ios']" 582
echo "ok: medium error at LBA 0x1234: EIO after 582 reads: $msg"
echo 0 >/sys/bus/pseudo/drivers/scsi_debug/opts
