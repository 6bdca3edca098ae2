#!/bin/sh
# Separate metadata through passthrough (md_per_io_size, later fios'
# option), on namespace 4: 8 bytes of metadata per 4 KiB block in a
# buffer apart from the data (mset=0), carrying protection information
# type 1. Without a metadata buffer big enough for the largest block the
# job is refused. With pi_act=0 iorig writes the PI itself (the guard, a
# CRC-16 T10-DIF of the data; the application tag; the reference tag, the
# LBA) and the controller checks it on each write (pi_chk); the kernel
# checks the guard and reference tags again when the bytes are read back
# through the block device /dev/nvme0n4, and nvme-cli reads the tags the
# controller stored. With pi_act=1 the controller generates the PI and
# iorig's own check of it on reads (pi_act=0) agrees with the
# controller's CRC. iorig's PI reads also with vectored commands and
# registered buffers. A read with another application tag fails: an I/O
# error (EILSEQ) whose report names the controller's status, 0x283.
# Counted by the controller's commands. fio 3.33 has no md_per_io_size
# (it refuses the option): nothing to compare with; without it fio 3.33
# writes no metadata (the controller stores no PI of the data) and says
# nothing. Leaves namespace 4's first 2 MiB and 64 KiB at 4 MiB written.
. "$(dirname "$0")/../lib.sh"
need nvme nvme-cli
ng=/dev/ng0n4
blk=$(nvme_ns 4)
[ -c "$ng" ] || die "no $ng"
j="--filename=$ng --ioengine=io_uring_cmd --bs=4k --size=1m \
--output-format=json --iodepth=4"
pi="--pi_chk=GUARD,REFTAG,APPTAG"

expect_refused "md_per_io_size.*8 or more.*pi_act=1" --name=w $j --rw=write
expect_refused "8192 bytes needs md_per_io_size=16 or more" --name=w $j \
	--rw=randrw --bs=4k,8k --md_per_io_size=8
echo "ok: no metadata buffer, or one too small for 8k: refused"

# counted NAME DIR N: the job made N I/Os in DIR (read or write), none
# in the other and no error, and the controller's DIR commands moved by
# N between the health logs a and b. (A writing job's guard reads the
# namespace's signature through the block device: reads the controller
# counts too, so a writing job's reads are not compared.)
counted() {
	_o=write
	[ "$2" = write ] && _o=read
	json_is "(d['jobs'][0]['$2']['ios'], d['jobs'][0]['$_o']['ios'], \
d['jobs'][0]['read']['errors'], d['jobs'][0]['write']['errors'])" \
		"($3, 0, 0, 0)"
	eval "_d=\$((b_host_$2_commands - a_host_$2_commands))"
	[ "$_d" = "$3" ] || die "$1: host_$2_commands +$_d; expected +$3"
}

smart_log a
run --name=w $j --rw=write --md_per_io_size=8 $pi --apptag=0x1111 \
	--buffer_pattern=0x0badcafe
expect_rc 0
smart_log b
counted w write 256
echo "ok: pi_act=0: 256 writes, PI written by iorig, checked by the" \
	"controller on each"

# The kernel's own check: reads through the block device verify the
# guard and reference tag of each block (its CRC, not iorig's).
"$PY" -S - "$blk" <<'PYEOF' ||
import mmap, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECT)
buf = mmap.mmap(-1, 1 << 20)
os.preadv(fd, [buf], 0)
sys.exit(bytes(buf) != bytes.fromhex("0badcafe") * (1 << 18))
PYEOF
	die "the bytes written through $ng do not read back through $blk"
# The tags the controller stored, of block 255: apptag 0x1111, reftag 255.
nvme read "$blk" -s 255 -c 0 -z 4096 -y 8 -d "$T/data" -M "$T/md" \
	>"$T/nvme.out" 2>&1 || die "nvme read: $(cat "$T/nvme.out")"
md=$(od -An -tx1 "$T/md" | tr -d ' \n')
case $md in
????1111000000ff) ;;
*) die "block 255's metadata is $md: expected apptag 1111, reftag ff" ;;
esac
echo "ok: the kernel's read of $blk checks the guards and reference tags;" \
	"block 255's PI: $md"

smart_log a
run --name=r $j --rw=read --md_per_io_size=8 $pi --apptag=0x1111
expect_rc 0
smart_log b
counted r read 256
# each read, its PI checked by iorig too, moved its 4096 bytes
json_is "d['jobs'][0]['read']['io_bytes'], \
d['jobs'][0]['read']['short_ios']" "(1048576, 0)"
echo "ok: 256 reads, the PI checked by the controller and by iorig"

# The ring's variants carry the metadata pointer too: vectored commands,
# registered buffers (the metadata buffers are not registered).
for v in --nonvectored=0 "--fixedbufs=1 --registerfiles=1"; do
	smart_log a
	run --name=rv $j --rw=read --md_per_io_size=8 $pi --apptag=0x1111 $v
	expect_rc 0
	smart_log b
	counted "rv $v" read 256
done
echo "ok: the same with vectored commands and with registered buffers"

# pi_act=1: the controller makes the PI (its CRC); iorig's check agrees.
smart_log a
run --name=w2 $j --rw=write --offset=1m --pi_act=1 --apptag=0x3333
expect_rc 0
smart_log b
counted w2 write 256
smart_log a
run --name=r2 $j --rw=read --offset=1m --md_per_io_size=32k $pi \
	--apptag=0x3333 --bs=16k
expect_rc 0
smart_log b
counted r2 read 64
echo "ok: pi_act=1: 256 writes with no metadata buffer; 64 16k reads" \
	"with iorig checking the controller's PI"

smart_log a
run --name=bad $j --rw=read --md_per_io_size=8 --pi_chk=APPTAG \
	--apptag=0x2222 --iodepth=1
smart_log c
[ "$rc" -ne 0 ] || die "a read with the wrong application tag succeeded"
expect_in out "0x283: end-to-end application tag check error"
json_is "d['jobs'][0]['read']['errors'], \
d['jobs'][0]['read']['first_error']['errno']" "(1, 84)"
[ $((c_host_read_commands - a_host_read_commands)) = 1 ] ||
	die "host_read_commands +$((c_host_read_commands - a_host_read_commands))"
echo "ok: apptag 0x2222 against 0x1111: the first read fails (EILSEQ)," \
	"named: $(json "d['jobs'][0]['error']")"

# fio 3.33 has no such option: it refuses it, so nothing to compare.
# Without it, fio 3.33 writes such a namespace with no metadata pointer
# (MPTR 0) and reports success: the controller stored no protection
# information of the data (QEMU: 0xff bytes, the checks' escape; a real
# controller reads bus address 0). iorig refuses that job (above).
if [ -x /usr/bin/fio ]; then
	/usr/bin/fio --name=f --filename=$ng --ioengine=io_uring_cmd \
		--bs=4k --size=64k --rw=read --md_per_io_size=8 \
		>"$T/fio.out" 2>&1 && die "fio 3.33 took md_per_io_size"
	grep -q "md_per_io_size" "$T/fio.out" ||
		die "fio 3.33: $(head -c 200 "$T/fio.out")"
	echo "ok: fio 3.33 refuses md_per_io_size: $(head -n 1 "$T/fio.out")"
	/usr/bin/fio --name=f --filename=$ng --ioengine=io_uring_cmd \
		--bs=4k --size=64k --offset=4m --rw=write \
		>"$T/fio.out" 2>&1 || die "fio 3.33: $(tail -c 300 "$T/fio.out")"
	nvme read "$blk" -s 1024 -c 0 -z 4096 -y 8 -d "$T/data" -M "$T/md" \
		>"$T/nvme.out" 2>&1 || die "nvme read: $(cat "$T/nvme.out")"
	md=$(od -An -tx1 "$T/md" | tr -d ' \n')
	case $md in
	*00000400) die "fio 3.33's write has a reference tag: $md" ;;
	esac
	echo "ok: fio 3.33 without it: exit 0, block 1024's metadata $md," \
		"no protection information of its data"
fi
