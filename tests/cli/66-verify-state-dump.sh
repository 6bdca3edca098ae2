#!/bin/sh
# verify_state_save / verify_state_load: a writing run stopped early
# (number_ios) saves which blocks it wrote; a verify_only run that loads
# the state checks those only. The state file's map is compared with the
# blocks of the fresh data file that start with iorig's magic and the
# run id of the state. verify_dump writes a damaged
# block as read (the file's bytes) and as expected (the block before the
# damage, byte for byte).
# lane: parallel
. "$(dirname "$0")/lib.sh"

JOB="--name=s --filename=s.dat --size=2m --bs=4k --rw=randwrite --verify=md5"
run $JOB --number_ios=100 --output-format=json
expect_rc 0
[ -f s.0.verify-state ] || die "no state file s.0.verify-state"
"$PY" - s.dat s.0.verify-state <<'EOF' || die "the state file does not name the blocks written"
import struct, sys
data = open(sys.argv[1], "rb").read()
st = open(sys.argv[2], "rb").read()
line, rest = st.split(b"\n", 1)
f = line.decode().split()
assert f[:2] == ["iorig-verify-state", "1"], f
assert f[2] == "bs=4096" and f[3] == "blocks=512", f
assert len(rest) == 8 * 8, len(rest)
words = struct.unpack("<8Q", rest)
named = {w * 64 + b for w in range(8) for b in range(64) if words[w] >> b & 1}
run = int(f[4].split("=")[1], 16)
stamped = {b for b in range(512)
           if struct.unpack_from("<Q", data, b * 4096)[0] == 0x3142566769726f69
           and struct.unpack_from("<Q", data, b * 4096 + 48)[0] == run}
assert named == stamped and len(named) == 100, (len(named), len(stamped))
EOF

# Without the state: the 412 blocks never written are mismatches.
run $JOB --verify_only=1 --output-format=json
expect_rc 4
json_is "d['jobs'][0]['verify']['mismatches']" 412
[ ! -e s.dat.0.received ] || die "dumped without verify_dump"
# With it: the 100 written, all intact.
run $JOB --verify_only=1 --verify_state_load=1 --output-format=json
expect_rc 0
json_is "d['jobs'][0]['verify']['blocks_checked']" 100
json_is "d['jobs'][0]['verify']['mismatches']" 0

# A damaged block among them is still found, and dumped.
cp s.dat orig.dat
B=$("$PY" -c '
d = open("s.dat", "rb").read()
print(next(b for b in range(512) if d[b * 4096:b * 4096 + 8] == b"iorigVB1"))')
"$PY" -c "
f = open('s.dat', 'r+b'); o = $B * 4096 + 3000
f.seek(o); c = f.read(1); f.seek(o); f.write(bytes([c[0] ^ 1]))"
run $JOB --verify_only=1 --verify_state_load=1 --verify_dump=1 \
	--output-format=json
expect_rc 4
json_is "d['jobs'][0]['verify']['by_class']['bad_checksum']" 1
O=$((B * 4096))
"$PY" - $O <<'EOF' || die "the dumped blocks are not the block read and the block written"
import sys
o = int(sys.argv[1])
cur = open("s.dat", "rb").read()[o:o + 4096]
orig = open("orig.dat", "rb").read()[o:o + 4096]
assert open("s.dat.%d.received" % o, "rb").read() == cur
assert open("s.dat.%d.expected" % o, "rb").read() == orig
EOF

# A state of another shape, or none, fails the job (exit 1).
run $JOB --verify_only=1 --verify_state_load=1 --bs=8k
expect_rc 1
expect_in err "s\.0\.verify-state was saved by a job of 512 blocks of 4096 bytes"
run --name=none --filename=s.dat --size=2m --bs=4k --rw=randwrite \
	--verify=md5 --verify_only=1 --verify_state_load=1
expect_rc 1
expect_in err "cannot open none\.0\.verify-state"
# A job that only reads checks its reads (fio's meaning): with the state,
# only the blocks it names; without it, the others are mismatches too.
cp orig.dat s.dat
run $JOB --rw=randread --verify_state_load=1 --output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['io_bytes']" 2097152
json_is "d['jobs'][0]['verify']['blocks_checked']" 100
json_is "d['jobs'][0]['verify']['mismatches']" 0
run $JOB --rw=read --output-format=json
expect_rc 4
json_is "d['jobs'][0]['verify']['mismatches']" 412

# verify_state_save=0 writes none; verify_state_load needs a job that
# checks what an earlier run wrote (verify_only, or one that only reads).
rm -f s.0.verify-state
run $JOB --number_ios=10 --verify_state_save=0
expect_rc 0
[ ! -e s.0.verify-state ] || die "verify_state_save=0 saved a state"
run $JOB --verify_state_load=1
expect_rc 2
expect_in err "option 'verify_state_load': applies to jobs that check what an earlier run wrote \(verify_only=1, or rw=read or randread\)"
exit 0
