#!/bin/sh
# An extended LBA's size through passthrough with its metadata moving
# (pi_act=0), on namespace 3 (8 bytes of PI type 1 inside each 4 KiB
# block): the namespace is its blocks times 4104 bytes (data and
# metadata, later fios' size), not times 4096, so a job without size=
# covers every block. The blocks counted by the kernel (/sys/block's
# size) are the truth: a write of the whole namespace without size= is
# one command per block (the controller's host_write_commands), its last
# block reads back through /dev/nvme0n3 (the kernel checks its guard and
# reference tag) and nvme-cli reads that block's data and PI as the
# controller stored them (application tag, reference tag = its LBA). A
# region one block past the end is refused. direct= (which passthrough
# does not need; fio takes it) asks whole 4104-byte blocks, not 4096:
# a read of the last block with direct=1 runs, its PI checked. Leaves
# namespace 3 written with 0x5eedf00d, PI apptag 0x2424.
. "$(dirname "$0")/../lib.sh"
need nvme nvme-cli
ng=/dev/ng0n3
blk=$(nvme_ns 3)
[ -c "$ng" ] || die "no $ng"
# the namespace's blocks of 4096 data bytes, by the kernel's 512-byte
# sectors
n=$(( $(cat "/sys/block/${blk#/dev/}/size") / 8 ))
[ "$n" -gt 1000 ] || die "namespace 3 has $n blocks"
last=$((n - 1))
j="--filename=$ng --ioengine=io_uring_cmd --bs=4104 --output-format=json \
--pi_chk=GUARD,REFTAG,APPTAG --apptag=0x2424"

expect_refused "extends past the end of $ng .$((n * 4104)) bytes" \
	--name=w $j --rw=write --size=$(((n + 1) * 4104))
echo "ok: a region one block past namespace 3's $n blocks of 4104 bytes" \
	"refused"

smart_log a
run --name=w $j --rw=write --iodepth=16 --buffer_pattern=0x5eedf00d
expect_rc 0
smart_log b
json_is "(d['jobs'][0]['write']['ios'], d['jobs'][0]['write']['errors'], \
d['jobs'][0]['write']['io_bytes'])" "($n, 0, $((n * 4104)))"
d=$((b_host_write_commands - a_host_write_commands))
[ "$d" = "$n" ] || die "host_write_commands +$d; expected +$n"
echo "ok: without size=, $n writes of 4104 bytes: every block, by the" \
	"controller's host_write_commands (+$d)"

# The kernel's read of the last block checks its guard and reference tag.
"$PY" -S - "$blk" "$last" <<'PYEOF' ||
import mmap, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECT)
buf = mmap.mmap(-1, 4096)
os.preadv(fd, [buf], int(sys.argv[2]) * 4096)
sys.exit(bytes(buf) != bytes.fromhex("5eedf00d") * 1024)
PYEOF
	die "block $last does not read back through $blk"
# The block as the controller stored it: 4096 bytes of data, then its PI
# (guard, apptag 2424, reftag the LBA's low 32 bits).
nvme read "$blk" -s "$last" -c 0 -z 4104 -d "$T/data" >"$T/nvme.out" 2>&1 ||
	die "nvme read: $(cat "$T/nvme.out")"
"$PY" -S - "$T/data" "$last" <<'PYEOF' || die "block $last's bytes are wrong"
import struct, sys
b = open(sys.argv[1], 'rb').read()
lba = int(sys.argv[2])
ok = len(b) >= 4104 and b[:4096] == bytes.fromhex("5eedf00d") * 1024
app, ref = struct.unpack('>HI', b[4098:4104]) if ok else (None, None)
print("block %d: %d bytes read, apptag %s, reftag %s" % (
    lba, len(b), app if app is None else hex(app), ref))
sys.exit(not ok or app != 0x2424 or ref != lba & 0xffffffff)
PYEOF
echo "ok: the last block ($last) holds the data and its PI, by the kernel" \
	"and by nvme read"

smart_log a
run --name=r $j --rw=read --direct=1 --offset=$((last * 4104)) --size=4104
expect_rc 0
smart_log b
json_is "(d['jobs'][0]['read']['ios'], d['jobs'][0]['read']['errors'])" \
	"(1, 0)"
d=$((b_host_read_commands - a_host_read_commands))
[ "$d" = 1 ] || die "host_read_commands +$d; expected +1"
echo "ok: direct=1: the last block read in one command, its PI checked by" \
	"the controller and by iorig"
