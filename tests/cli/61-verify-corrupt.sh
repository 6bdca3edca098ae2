#!/bin/sh
# Blocks damaged on disk between a write run and a verify_only run are
# found and classified: a flipped bit (bad_checksum), a block copied over
# another (misdirected), an older copy of a block put back (stale), a
# zeroed block (zeroed), half a block from an older copy (torn), random
# data (foreign). Exit status 4, the JSON report lists them in region
# order, the text report and stderr say so; verify_fatal stops at the
# first; a failed job's status 1 wins over 4.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

BS=4096
JOB="--name=c --filename=c.dat --size=2m --bs=4k --rw=randwrite --verify=xxh3"

# Two writing runs; the first one's data is kept for the stale and torn
# blocks.
run $JOB --output-format=json
expect_rc 0
json_is "d['jobs'][0]['verify']['mismatches']" 0
cp c.dat old.dat
run $JOB --do_verify=0
expect_rc 0
cp c.dat new.dat

# corrupt WHAT...: damage $CF (c.dat) from $OF (old.dat), block numbers
# of 4 KiB.
corrupt() {
	"$PY" - "${CF:-c.dat}" "${OF:-old.dat}" "$@" <<'EOF' || die "cannot damage ${CF:-c.dat}"
import os, sys
bs = 4096
path, old = sys.argv[1], open(sys.argv[2], "rb").read()
cur = open(path, "rb").read()
f = open(path, "r+b")
def put(off, data):
    f.seek(off)
    f.write(data)
for what in sys.argv[3:]:
    kind, b = what.split(":")
    b = int(b)
    o = b * bs
    if kind == "flip":          # one bit of the data
        put(o + 1234, bytes([cur[o + 1234] ^ 0x20]))
    elif kind == "copy":        # the block after next, written here
        put(o, cur[o + 2 * bs:o + 3 * bs])
    elif kind == "old":         # the first run's copy
        put(o, old[o:o + bs])
    elif kind == "zero":
        put(o, bytes(bs))
    elif kind == "tornlate":    # the second half is the first run's
        put(o + bs // 2, old[o + bs // 2:o + bs])
    elif kind == "tornearly":   # the first half is the first run's
        put(o, old[o:o + bs // 2])
    elif kind == "random":
        put(o, os.urandom(bs))
f.close()
EOF
}

corrupt flip:10 copy:20 old:40 zero:50 tornlate:60 tornearly:70 random:80
run $JOB --verify_only=1 --output-format=json
expect_rc 4
expect_in err "^iorig: job 'c': 7 of 512 blocks did not verify$"
V="d['jobs'][0]['verify']"
json_is "$V['blocks_checked']" 512
json_is "$V['mismatches']" 7
json_is "$V['stopped']" False
json_is "$V['by_class']" "{'bad_checksum': 1, 'misdirected': 1, 'stale': 1, 'zeroed': 1, 'torn': 2, 'foreign': 1}"
json_is "[(m['offset'] // $BS, m['class']) for m in $V['first']]" \
	"[(10, 'bad_checksum'), (20, 'misdirected'), (40, 'stale'), (50, 'zeroed'), (60, 'torn'), (70, 'torn'), (80, 'foreign')]"
json_is "set(m['file'] for m in $V['first'])" "{'c.dat'}"
# What the headers say.
"$PY" - "$T/out" <<'EOF' || die "the mismatch records are not right"
import json, sys
v = json.load(open(sys.argv[1]))["jobs"][0]["verify"]
m = {x["offset"] // 4096: x for x in v["first"]}
new_gen = m[10]["expected"]["generation"]
new_run = m[10]["expected"]["run_id"]
for x in v["first"]:
    e = x["expected"]
    assert e["offset"] == x["offset"] and e["length"] == 4096, x
    assert e["generation"] == new_gen and e["run_id"] == new_run, x
    assert e["seed"].startswith("0x"), x
    assert x["detail"], x
# bad_checksum: the header is intact, a sector is not.
f = m[10]["found"]
assert f["generation"] == new_gen and f["offset"] == 10 * 4096, f
assert f["kind"] == "xxh3" and f["write_time_ns"] > 0, f
assert "sector 2 " in m[10]["detail"], m[10]["detail"]
# misdirected: the header names block 22.
assert m[20]["found"]["offset"] == 22 * 4096, m[20]
# stale: an older generation of another run.
f = m[40]["found"]
assert f["offset"] == 40 * 4096 and f["generation"] < new_gen, f
assert f["run_id"] != new_run, f
# zeroed and foreign: no header.
assert m[50]["found"] is None and m[80]["found"] is None
# torn: the header of whichever write the first half is from.
assert m[60]["found"]["generation"] == new_gen, m[60]
assert m[70]["found"]["generation"] < new_gen, m[70]
assert "sectors 0-3" in m[60]["detail"] and "sectors 4-7" in m[60]["detail"]
EOF

# The text report: counts per class and every mismatch.
run $JOB --verify_only=1
expect_rc 4
expect_in out '^  verify xxh3: 512 blocks \(2MiB\) checked in .*, 7 mismatches$'
expect_in out '^    bad_checksum 1, misdirected 1, stale 1, zeroed 1, torn 2, foreign 1$'
expect_in out '^    stale at offset 163840 of c\.dat: '
expect_in out '^      expected: offset 163840, length 4096, seed 0x[0-9a-f]+, generation [0-9]+, run 0x[0-9a-f]+$'
expect_in out '^      found:    offset 163840, .*, written [0-9-]+T[0-9:.]+Z$'
expect_in out '^      found:    no header$'
expect_in out '^verification: c \(group 0\): 7 of 512 blocks did not verify$'

# verify_fatal: the first one stops the check.
run $JOB --verify_only=1 --verify_fatal=1 --output-format=json
expect_rc 4
json_is "$V['mismatches']" 1
json_is "$V['stopped']" True
json_is "$V['first'][0]['class']" bad_checksum
expect_json "$V['blocks_checked'] < 512"

# More than 10: all counted, the first 10 listed.
cp new.dat c.dat
corrupt zero:1 zero:2 zero:3 zero:4 zero:5 zero:6 zero:7 zero:8 zero:9 \
	zero:11 zero:12 zero:13
run $JOB --verify_only=1 --output-format=json
expect_rc 4
json_is "$V['mismatches']" 12
json_is "len($V['first'])" 10
json_is "$V['first'][9]['offset']" $((11 * BS))
run $JOB --verify_only=1
expect_in out '^    and 2 more$'

# Only stale blocks: the older run is found out at the end.
cp new.dat c.dat
corrupt old:0 old:511
run $JOB --verify_only=1 --output-format=json
expect_rc 4
json_is "$V['by_class']['stale']" 2
json_is "[m['offset'] for m in $V['first']]" "[0, $((511 * BS))]"

# A job that fails wins: exit 1, not 4.
run $JOB --verify_only=1 --name=gone --filename=gone.dat --size=1m \
	--verify=xxh3 --verify_only=1
expect_rc 1
expect_in err "job 'gone': .*gone\.dat"
expect_in err "job 'c': 2 of 512 blocks did not verify"

# Written again, all is well.
run $JOB
expect_rc 0
run $JOB --verify_only=1
expect_rc 0
expect_empty err

# Every other checksum classifies the same damage the same way. meta
# checks the header only, as fio's: a flipped data bit and a block whose
# second half is older go unseen, and a block whose first half (the
# header) is older is stale.
CF=k.dat OF=kold.dat
ALL="{'bad_checksum': 1, 'misdirected': 1, 'stale': 1, 'zeroed': 1, 'torn': 2, 'foreign': 1}"
ALLF="[(10, 'bad_checksum'), (20, 'misdirected'), (40, 'stale'), (50, 'zeroed'), (60, 'torn'), (70, 'torn'), (80, 'foreign')]"
for k in crc32c md5 crc64 crc32 sha1 sha256 sha512 sha3-224 sha3-256 \
		sha3-384 sha3-512 xxhash meta; do
	KJOB="--name=k --filename=k.dat --size=512k --bs=4k --rw=randwrite --verify=$k"
	run $KJOB --do_verify=0
	expect_rc 0
	cp k.dat kold.dat
	run $KJOB
	expect_rc 0
	corrupt flip:10 copy:20 old:40 zero:50 tornlate:60 tornearly:70 random:80
	run $KJOB --verify_only=1 --output-format=json
	if [ $k = meta ]; then
		expect_rc 4
		json_is "$V['by_class']" "{'bad_checksum': 0, 'misdirected': 1, 'stale': 2, 'zeroed': 1, 'torn': 0, 'foreign': 1}"
		json_is "[(m['offset'] // $BS, m['class']) for m in $V['first']]" \
			"[(20, 'misdirected'), (40, 'stale'), (50, 'zeroed'), (70, 'stale'), (80, 'foreign')]"
	else
		expect_rc 4
		json_is "$V['by_class']" "$ALL"
		json_is "[(m['offset'] // $BS, m['class']) for m in $V['first']]" "$ALLF"
	fi
	json_is "$V['kind']" "$k"
	json_is "$V['first'][1]['found']['kind']" "$k"
	# Checked as another kind, every intact block is foreign.
	run $KJOB --verify_only=1 --verify=$([ $k = md5 ] && echo sha1 || echo md5) \
		--output-format=json
	expect_rc 4
	expect_json "$V['by_class']['foreign'] >= 121"
done
exit 0
