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

# per2m WHO "DEV:RW..." [ARGS]: one run of WHO (iorig or fio) with, for
# each DEV:RW, a job of 1 MiB and one of 3 MiB of 64 KiB I/Os (ARGS added
# to each), stonewalled; writes "DEV:RW N" for each to $T/per2m, N the
# commands the 2 MiB more took (32 expected; 2 and 4 MiB jobs counted the
# same 32 with a third more commands in the emulator). Each job's
# commands are counted by iorequest_cnt around its I/O: exec_prerun and
# exec_postrun, which both tools run with the job's files open, just
# before and after its I/O, print the count to JOBNAME.prerun.txt and
# .postrun.txt. So
# the write guard's reads, READ CAPACITY and fio's own commands fall
# outside; one run instead of a run per job, each of which costs seconds
# in the emulator. The count is read by the shell's own read and echo,
# from a file the shell sources (both tools expand a '$' in the command
# as their own variable): cat was a second program to start for each, a
# fifth of a second under TCG, 64 times in this case.
per2m() {
	_who=$1 _pairs=$2
	shift 2
	echo "read -r c <$sys/iorequest_cnt && echo \$c" >"$T/cnt"
	_cnt=". $T/cnt"
	if [ "$_who" = fio ]; then
		set -- /usr/bin/fio --sync=1 "$@"
	else
		set -- "$IORIG" --allow_destructive=1 "$@"
	fi
	set -- "$@" --ioengine=sg --bs=64k --exec_prerun="$_cnt" \
		--exec_postrun="$_cnt"
	_i=0
	for _p in $_pairs; do
		for _s in 1m 3m; do
			_i=$((_i + 1))
			set -- "$@" --name="$_who$_i" --filename="${_p%:*}" \
				--rw="${_p#*:}" --size=$_s --stonewall
		done
	done
	"$@" >"$T/out" 2>"$T/err" ||
		die "$_who $_pairs: $(tail -n 5 "$T/err" "$T/out")"
	_i=0
	: >"$T/per2m"
	for _p in $_pairs; do
		_n=
		for _s in 1m 3m; do
			_i=$((_i + 1))
			read -r _c0 <"$_who$_i.prerun.txt" &&
				read -r _c1 <"$_who$_i.postrun.txt" ||
				die "$_who $_p $_s: no count around its I/O"
			_n="$_n $((_c1 - _c0))"
		done
		set -- $_n
		# the whole counts, for the record
		echo "$_who $_p: $1, $2" >>"$T/abs"
		echo "$_p $(($2 - $1))" >>"$T/per2m"
	done
}

run --name=c --filename="$sg" --ioengine=sg --rw=read --bs=64k \
	--size=64k --output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['ios']" 1
echo "ok: $sg ($sd) sized by READ CAPACITY, read"

for who in iorig fio; do
	per2m $who "$sg:write $sd:write $sg:read $sd:read $sg:trim $sd:trim"
	[ "$(wc -l <"$T/per2m")" = 6 ] || die "$who: not every job counted"
	while read -r p n; do
		[ "$n" = 32 ] || die "$who rw=${p#*:} on ${p%:*}: $n more" \
			"commands for 2 MiB more, expected 32"
	done <"$T/per2m"
done
echo "ok: 32 more commands for 2 MiB more of writes, reads and UNMAPs," \
	"iorig and fio 3.33, on $sg and $sd"
echo "   commands for 1 MiB, 3 MiB: $(tr '\n' ';' <"$T/abs")"

# Queued (/dev/sgN, neither direct=1 nor sync=, a job that writes): 8
# commands in flight, the same counts as fio's queued mode for reads and
# writes (iorig's reading job: one SG_IO at a time), and verify clean at
# that depth.
for who in iorig fio; do
	per2m $who "$sg:randwrite $sg:randread" --sync=0 --iodepth=8
	[ "$(wc -l <"$T/per2m")" = 2 ] || die "$who: not every job counted"
	while read -r p n; do
		[ "$n" = 32 ] || die "$who rw=${p#*:} queued on $sg: $n more" \
			"commands for 2 MiB more, expected 32"
	done <"$T/per2m"
done
run --name=q --filename="$sg" --ioengine=sg --rw=randwrite --bs=4k \
	--size=1m --iodepth=8 --verify=crc32c --allow_destructive=1 \
	--output-format=json
expect_rc 0
got=$(jvals "$T/out" "j['verify']['blocks_checked']" \
	"j['verify']['mismatches']" "j['iodepth']['level'][3] > 0")
[ "$got" = "256 0 True" ] ||
	die "queued verify: blocks checked, mismatches, 8 in flight: $got"
echo "ok: queued on $sg at iodepth=8: 32 more commands for 2 MiB more" \
	"(iorig and fio), 8 in flight, verify clean"

# The bytes: a pattern through sg, read back through the block device.
run --name=w --filename="$sg" --ioengine=sg --rw=write --bs=64k --size=4m \
	--buffer_pattern=0x5a17c3e1 --allow_destructive=1
expect_rc 0
dd if="$sd" of="$T/back" bs=64k count=64 iflag=direct 2>/dev/null ||
	die "dd from $sd"
"$PY" -S - "$T/back" <<'PYEOF' || die "the bytes written through $sg"
import hashlib, sys
got = hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest()
want = hashlib.sha256(bytes.fromhex('5a17c3e1') * (1 << 20)).hexdigest()
sys.exit(got != want)
PYEOF
echo "ok: 4 MiB of the pattern through $sg read back through $sd (sha256)"

run --name=v --filename="$sg" --ioengine=sg --rw=randwrite --bs=4k \
	--size=512k --verify=crc32c --allow_destructive=1 --output-format=json
expect_rc 0
json_is "[d['jobs'][0]['verify'][k] for k in ('blocks_checked',
	'mismatches')]" "[128, 0]"
echo "ok: verify=crc32c through $sg: 128 blocks, no mismatch"

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
"$PY" -S - "$T/back" <<'PYEOF' || die "write_same through $sg"
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

# A medium error: scsi_debug fails reads of LBA 0x1234 (4660) and on;
# from 2 MiB (LBA 4096) on, the 71st 4 KiB read (LBAs 4656-4663) fails.
echo 2 >/sys/bus/pseudo/drivers/scsi_debug/opts || die "scsi_debug opts"
run --name=m --filename="$sg" --ioengine=sg --rw=read --bs=4k \
	--offset=2m --size=2m --output-format=json
expect_rc 1
set -- $(jvals "$T/out" "j['error']['errno']" "j['read']['ios']")
[ "$1 $2" = "5 70" ] ||
	die "medium error: errno $1 after $2 reads, expected 5 after 70"
msg=$(json "d['jobs'][0]['error']['message']")
case $msg in *"MEDIUM ERROR"*"0x11/0x00"*) ;;
*) die "medium error: the report says '$msg'" ;; esac
echo "ok: medium error at LBA 0x1234: EIO after 70 reads: $msg"
echo 0 >/sys/bus/pseudo/drivers/scsi_debug/opts
