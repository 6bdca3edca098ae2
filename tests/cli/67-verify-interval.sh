#!/bin/sh
# verify_interval, verify_offset and block size ranges, checked on the
# bytes of the file: Python finds a header and an MD5 (hashlib) every
# interval, at verify_offset once swapped back; a flipped byte is found in
# its interval and only there; with bsrange= the writes had several sizes
# (strace) and each unit they wrote holds its own header.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

# md5 headers are 72 bytes: the 56 before csum, then the 16-byte digest.
check_units() { # FILE UNIT VOFF: every unit written has its header and MD5
	"$PY" - "$@" <<'EOF'
import hashlib, struct, sys
path, unit, voff = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = open(path, "rb").read()
n = 0
for o in range(0, len(data), unit):
    u = bytearray(data[o:o + unit])
    if voff:
        # The header is not at the unit's start, but at voff.
        assert u[:8] != b"iorigVB1", ("header left at the start", o)
        for i in reversed(range(72)):
            u[i], u[voff + i] = u[voff + i], u[i]
    if u[:8] != b"iorigVB1":
        assert not voff or u[voff:voff + 8] != b"iorigVB1"
        continue
    magic, off, ln, kind = struct.unpack_from("<QQIH", u, 0)
    assert off == o and ln == unit and kind == 4, (o, off, ln, kind)
    want = hashlib.md5(bytes(u[:56]) + bytes(u[72:])).digest()
    assert bytes(u[56:72]) == want, ("md5", o)
    n += 1
print(n)
EOF
}

# One header and MD5 per 4 KiB interval of each 16 KiB block.
JOB="--name=i --filename=i.dat --size=256k --bs=16k --verify_interval=4k
	--verify=md5 --output-format=json"
run $JOB --rw=write
expect_rc 0
json_is "d['jobs'][0]['verify']['blocks_checked']" 64
json_is "d['jobs'][0]['verify']['mismatches']" 0
n=$(check_units i.dat 4096 0) || die "the intervals' headers or MD5s are wrong"
[ "$n" = 64 ] || die "expected 64 intervals with a header, found $n"

# Two bytes flipped in intervals 1 and 3 of block 2: two mismatches, at
# those intervals, and intervals 0 and 2 of the block are intact.
flipbyte i.dat $((2 * 16384 + 4096 + 100))
flipbyte i.dat $((2 * 16384 + 3 * 4096 + 4000))
run $JOB --rw=write --verify_only=1
expect_rc 4
json_is "d['jobs'][0]['verify']['blocks_checked']" 64
json_is "d['jobs'][0]['verify']['mismatches']" 2
json_is "sorted(m['offset'] for m in d['jobs'][0]['verify']['first'])" \
	"[36864, 45056]"
# Without the interval the unit is the block: one mismatch (foreign: a
# header of another length) per damaged block, here 4 headers of 4 KiB.
run --name=i --filename=i.dat --size=256k --bs=16k --verify=md5 \
	--rw=write --verify_only=1 --output-format=json
expect_rc 4
json_is "d['jobs'][0]['verify']['blocks_checked']" 16

# verify_offset=1024: the header sits at 1024 of each interval; swapped
# back it is the header and MD5 of that interval.
JOB="--name=o --filename=o.dat --size=128k --bs=8k --verify_interval=2k
	--verify_offset=1024 --verify=md5 --output-format=json"
run $JOB --rw=randwrite
expect_rc 0
json_is "d['jobs'][0]['verify']['mismatches']" 0
n=$(check_units o.dat 2048 1024) || die "no header at verify_offset"
[ "$n" = 64 ] || die "expected 64 intervals with a header, found $n"
"$PY" -c '
d = open("o.dat", "rb").read()
assert all(d[o + 1024:o + 1032] == b"iorigVB1" for o in range(0, len(d), 2048))
' || die "the magic is not at byte 1024 of every interval"
run $JOB --rw=write --verify_only=1
expect_rc 0
json_is "d['jobs'][0]['verify']['mismatches']" 0
# A byte of the moved header, and a byte now at the unit's start.
flipbyte o.dat $((5 * 2048 + 1024 + 20))
flipbyte o.dat $((9 * 2048 + 3))
run $JOB --rw=write --verify_only=1
expect_rc 4
json_is "d['jobs'][0]['verify']['mismatches']" 2
json_is "sorted(m['offset'] for m in d['jobs'][0]['verify']['first'])" \
	"[10240, 18432]"
# verify_dump: each damaged interval as on the device (swapped), and as it
# should be: one byte apart.
run $JOB --rw=write --verify_only=1 --verify_dump=1
expect_rc 4
"$PY" - <<'EOF' || die "the dumps are not the intervals as read and as written"
d = open("o.dat", "rb").read()
for o in (10240, 18432):
    r = open("o.dat.%d.received" % o, "rb").read()
    e = open("o.dat.%d.expected" % o, "rb").read()
    assert r == d[o:o + 2048], o
    assert sum(a != b for a, b in zip(r, e)) == 1 and len(e) == 2048, o
EOF
# Checked without the offset, no interval has a header where expected.
run --name=o --filename=o.dat --size=128k --bs=8k --verify_interval=2k \
	--verify=md5 --rw=write --verify_only=1 --output-format=json
expect_rc 4
json_is "d['jobs'][0]['verify']['mismatches']" 64
# fio's rule: the header must fit in the interval after the offset.
run $JOB --rw=write --verify_offset=2000
expect_rc 2
expect_in err "option 'verify_offset': 2000: the 72-byte header must fit"

# Block size ranges: writes of 4-16 KiB (strace sees several sizes), each
# 4 KiB unit with its header; then a flipped byte is found.
command -v strace >/dev/null 2>&1 || skip "needs strace"
JOB="--name=r --filename=r.dat --size=512k --bsrange=4k-16k --verify=md5
	--ioengine=psync --output-format=json"
strace -f -qq -e trace=pwrite64 -o st.txt "$IORIG" $JOB \
	--rw=randwrite --do_verify=1 >out 2>err
rc=$?
expect_rc 0
json_is "d['jobs'][0]['verify']['mismatches']" 0
expect_json "d['jobs'][0]['verify']['blocks_checked'] > 0"
sizes=$(sed -n 's/.*pwrite64([0-9]*, [^,]*, \([0-9]*\),.*/\1/p' st.txt |
	sort -un | tr '\n' ' ')
case $sizes in
"4096 8192 12288 16384 ") ;;
*) die "expected writes of 4, 8, 12 and 16 KiB, got: $sizes" ;;
esac
n=$(check_units r.dat 4096 0) || die "bsrange: a unit's header or MD5 is wrong"
[ "$n" -gt 0 ] || die "bsrange: no unit written"
B=$("$PY" -c '
d = open("r.dat", "rb").read()
print(next(b for b in range(128) if d[b * 4096:b * 4096 + 8] == b"iorigVB1"))')
flipbyte r.dat $((B * 4096 + 2000))
run $JOB --rw=randwrite --verify_only=1 --verify_state_load=1
expect_rc 4
json_is "d['jobs'][0]['verify']['mismatches']" 1
json_is "d['jobs'][0]['verify']['blocks_checked']" "$n"
json_is "d['jobs'][0]['verify']['first'][0]['offset']" $((B * 4096))
exit 0
