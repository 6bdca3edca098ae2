#!/bin/sh
# Protection information through passthrough, on namespace 3 (8 bytes of
# metadata carrying PI type 1 in an extended LBA): without pi_act=1 a
# job of 4 KiB blocks is refused (its blocks are 4104 bytes with their
# metadata: case 22 runs those); with it the
# controller generates the PI of each write (guard, reference tag = LBA,
# apptag) and the bytes read back through the block device /dev/nvme0n3
# (the kernel checks the PI there too); reads that check GUARD, REFTAG and
# APPTAG pass, and a read checking another application tag fails: an
# I/O error (EILSEQ) whose report names the controller's status, 0x283.
# Counted by the controller's commands. Leaves namespace 3's first MiB
# written.
. "$(dirname "$0")/../lib.sh"
need nvme nvme-cli
ng=/dev/ng0n3
blk=$(nvme_ns 3)
[ -c "$ng" ] || die "no $ng"
j="--filename=$ng --ioengine=io_uring_cmd --bs=4k --size=1m \
--output-format=json"

expect_refused "4096 is not a multiple of 4104.*pi_act=1" --name=w $j \
	--rw=write
echo "ok: without pi_act=1, 4k blocks: refused ($(head -c 160 "$T/err"))"

smart_log a
run --name=w $j --rw=write --pi_act=1 --apptag=0x1111 \
	--buffer_pattern=0x0badcafe --iodepth=4
expect_rc 0
smart_log b
json_is "d['jobs'][0]['write']['ios']" 256
[ $((b_host_write_commands - a_host_write_commands)) = 256 ] ||
	die "host_write_commands +$((b_host_write_commands - a_host_write_commands))"
"$PY" -S - "$blk" <<'PYEOF' || die "the bytes written through $ng are not on $blk"
import mmap, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECT)
buf = mmap.mmap(-1, 1 << 20)
os.preadv(fd, [buf], 0)
sys.exit(bytes(buf) != bytes.fromhex("0badcafe") * (1 << 18))
PYEOF
echo "ok: pi_act=1: 256 writes, the controller generated the PI, the data" \
	"reads back through $blk"

run --name=r $j --rw=read --pi_act=1 --pi_chk=GUARD,REFTAG,APPTAG \
	--apptag=0x1111 --iodepth=4
expect_rc 0
json_is "d['jobs'][0]['read']['ios'], d['jobs'][0]['read']['errors']" \
	"(256, 0)"
echo "ok: 256 reads checking GUARD, REFTAG and APPTAG pass"

smart_log a
run --name=bad $j --rw=read --pi_act=1 --pi_chk=APPTAG --apptag=0x2222
smart_log c
[ "$rc" -ne 0 ] || die "a read with the wrong application tag succeeded"
expect_in out "0x283: end-to-end application tag check error"
json_is "d['jobs'][0]['read']['errors'], \
d['jobs'][0]['read']['first_error']['errno']" "(1, 84)"
[ $((c_host_read_commands - a_host_read_commands)) = 1 ] ||
	die "host_read_commands +$((c_host_read_commands - a_host_read_commands))"
echo "ok: apptag 0x2222 against 0x1111: the first read fails (EILSEQ)," \
	"named: $(json "d['jobs'][0]['error']")"
