#!/bin/sh
# An extended LBA through passthrough with its metadata moving (pi_act=0),
# on namespace 3: 8 bytes of protection information type 1 inside each
# 4 KiB block, so a block is 4104 bytes in the buffers and the job's
# offsets and block sizes count in those (later fios' meaning). Refused:
# 4k blocks (not whole blocks), trims, verify= (the PI bytes are in the
# blocks it checks). iorig writes the PI of each block in place (guard,
# application tag, reference tag) and the controller checks it on each
# write (pi_chk); the kernel checks the guard and reference tags again
# when the data reads back through /dev/nvme0n3 (4096-byte blocks: the
# controller strips the PI there); reads checking the three fields pass,
# by the controller and by iorig; a read with another application tag
# fails: an I/O error (EILSEQ) naming the controller's status, 0x283.
# Counted by the controller's commands. Leaves namespace 3's blocks
# 1024-1279 written.
. "$(dirname "$0")/../lib.sh"
need nvme nvme-cli
ng=/dev/ng0n3
blk=$(nvme_ns 3)
[ -c "$ng" ] || die "no $ng"
# blocks 1024-1279, 4104 bytes each
j="--filename=$ng --ioengine=io_uring_cmd --bs=4104 --size=1050624 \
--offset=4202496 --output-format=json --iodepth=4"
pi="--pi_chk=GUARD,REFTAG,APPTAG"

expect_refused "4096 is not a multiple of 4104.*extended LBA" --name=w $j \
	--rw=write --bs=4k
# (2101248 bytes: whole blocks of 4104 and of the device's 4096 both)
expect_refused "trims are not supported there" --name=w $j --rw=randtrim \
	--bs=2101248 --size=2101248
# (525312 bytes: 128 blocks, a multiple of 512 as verify= asks)
expect_refused "option 'verify'.*extended LBA with protection" --name=w $j \
	--rw=write --verify=crc32c --bs=525312
echo "ok: 4k blocks, trims and verify= refused on the extended LBA"

smart_log a
run --name=w $j --rw=write $pi --apptag=0x1111 --buffer_pattern=0x0badcafe
expect_rc 0
smart_log b
json_is "(d['jobs'][0]['write']['ios'], d['jobs'][0]['write']['errors'], \
d['jobs'][0]['write']['io_bytes'])" "(256, 0, 1050624)"
d=$((b_host_write_commands - a_host_write_commands))
[ "$d" = 256 ] || die "host_write_commands +$d; expected +256"
echo "ok: 256 writes of 4104 bytes, the PI written by iorig and checked" \
	"by the controller on each"

"$PY" -S - "$blk" <<'PYEOF' ||
import mmap, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECT)
buf = mmap.mmap(-1, 1 << 20)
os.preadv(fd, [buf], 1024 * 4096)
sys.exit(bytes(buf) != bytes.fromhex("0badcafe") * (1 << 18))
PYEOF
	die "blocks 1024-1279 do not read back through $blk"
echo "ok: the data of each 4104-byte block reads back through $blk," \
	"the kernel and controller checking its guard and reference tag"

smart_log a
run --name=r $j --rw=read $pi --apptag=0x1111
expect_rc 0
smart_log b
json_is "d['jobs'][0]['read']['ios'], d['jobs'][0]['read']['errors'], \
d['jobs'][0]['read']['io_bytes']" "(256, 0, 1050624)"
d=$((b_host_read_commands - a_host_read_commands))
[ "$d" = 256 ] || die "host_read_commands +$d; expected +256"
echo "ok: 256 reads, the PI checked by the controller and by iorig"

smart_log a
run --name=bad $j --rw=read --pi_chk=APPTAG --apptag=0x2222 --iodepth=1
smart_log c
[ "$rc" -ne 0 ] || die "a read with the wrong application tag succeeded"
expect_in out "0x283: end-to-end application tag check error"
json_is "d['jobs'][0]['read']['errors'], \
d['jobs'][0]['read']['first_error']['errno']" "(1, 84)"
d=$((c_host_read_commands - a_host_read_commands))
[ "$d" = 1 ] || die "host_read_commands +$d; expected +1"
echo "ok: apptag 0x2222 against 0x1111: the first read fails (EILSEQ)"
