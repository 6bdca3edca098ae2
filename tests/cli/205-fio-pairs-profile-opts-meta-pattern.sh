#!/bin/sh
# Three things fio 3.33 accepts, run with its meaning (fio on the same jobs
# is the truth):
# - size=6400K:6400K: fio reads a size as parts split at ':' and ',' and
#   keeps one; equal parts are that size (the file and the bytes written
#   are 6400 KiB, as fio's); different parts, which fio would drop
#   without a word, are refused naming the line, and so is a subtraction
#   (fio splits at '-' as well: numjobs=3-1 runs 3 jobs).
# - threads=1 (tiobench's), load=2 (act's) in a job file: fio knows them
#   from its profiles and reads them in a job, where they do nothing: the
#   job runs as without them (the same bytes, as fio's); a value fio
#   cannot read is refused, as fio refuses it.
# - verify=meta with verify_pattern: the blocks' data is the pattern (the
#   file's bytes after each header) and a flipped data byte is found by
#   verify_only, as fio finds it (without the pattern neither checks data);
#   verify_pattern alone is verify=pattern.
# lane: parallel
. "$(dirname "$0")/lib.sh"

have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1

# bytes TOOL JOBFILE: the bytes the job wrote, by its JSON report.
bytes() {
	"$1" --output-format=json "$2" >out 2>err || die "$1 $2: exit $?"
	json "sum(j['write']['io_bytes'] for j in d['jobs'])"
}

# ---- size=A:A ----
cat >pair.fio <<EOF
[p]
filename=$T/pf
rw=write
bs=64k
size=6400K:6400K
EOF
[ "$(bytes "$IORIG" pair.fio)" -eq 6553600 ] || die "size=6400K:6400K wrote $(json "d['jobs'][0]['write']['io_bytes']")"
[ "$(fsize pf)" -eq 6553600 ] || die "pf is $(fsize pf) bytes"
if [ $have_fio = 1 ]; then
	rm -f pf
	[ "$(bytes fio pair.fio)" -eq 6553600 ] || die "fio wrote another size"
	[ "$(fsize pf)" -eq 6553600 ] || die "fio: pf is $(fsize pf) bytes"
fi
rm -f pf
sed 's/^size=.*/size=1m:2m/' pair.fio >pair2.fio
run pair2.fio
expect_rc 2
expect_in err "pair2.fio:5: option 'size': '1m:2m': fio reads one"
[ ! -e pf ] || die "a refused job made pf"

# A subtraction: fio splits at '-' and keeps one part (numjobs=3-1 runs
# 3 jobs); refused, naming the line.
printf '[n]\nioengine=null\nsize=4k\nnumjobs=3-1\n' >minus.fio
run minus.fio
expect_rc 2
expect_in err "minus.fio:4: option 'numjobs': '3-1': fio splits"
if [ $have_fio = 1 ]; then
	fio --output-format=json minus.fio >out 2>err || die "fio minus.fio"
	json_is "len(d['jobs'])" 3
fi

# ---- profile options in a job file ----
cat >prof.fio <<EOF
[global]
threads=1
load=2
block=8k
[j]
filename=$T/jf
rw=write
bs=4k
size=256k
EOF
[ "$(bytes "$IORIG" prof.fio)" -eq 262144 ] || die "prof.fio wrote another size"
json_is "len(d['jobs'])" 1
if [ $have_fio = 1 ]; then
	rm -f jf
	[ "$(bytes fio prof.fio)" -eq 262144 ] || die "fio wrote another size"
	json_is "len(d['jobs'])" 1
fi
sed 's/^threads=.*/threads=abc/' prof.fio >bad.fio
run bad.fio
expect_rc 2
expect_in err "bad.fio:2: option 'threads': .*tiobench"
if [ $have_fio = 1 ]; then
	fio --parse-only bad.fio >/dev/null 2>&1 && die "fio read threads=abc"
fi

# ---- verify=meta with verify_pattern ----
# flip FILE: one bit of byte 1000 of the eleventh 4k block (its data).
flip() {
	"$PY" -c 'import sys
f = open(sys.argv[1], "r+b"); f.seek(10 * 4096 + 1000); c = f.read(1)
f.seek(10 * 4096 + 1000); f.write(bytes([c[0] ^ 1]))' "$1"
}
V="--name=v --filename=$T/vf --size=256k --bs=4k --rw=write --verify=meta"
run $V --verify_pattern=0xdeadbeef --output-format=json
expect_rc 0
json_is "(d['jobs'][0]['verify']['kind'], d['jobs'][0]['verify']['blocks_checked'], d['jobs'][0]['verify']['mismatches'])" "('meta', 64, 0)"
"$PY" -c 'import sys
b = open(sys.argv[1], "rb").read(); p = bytes.fromhex("deadbeef")
bad = [i for i in range(0, len(b), 4096)
       if any(b[i + k] != p[k % 4] for k in range(64, 4096))]
sys.exit("blocks not the pattern after their header: %s" % bad[:4] if bad
         or len(b) != 262144 else 0)' vf || die "vf is not the pattern"
flip vf
run $V --verify_pattern=0xdeadbeef --verify_only --output-format=json
expect_rc 4
json_is "(d['jobs'][0]['verify']['mismatches'], d['jobs'][0]['verify']['first'][0]['offset'])" "(1, 40960)"
# Without the pattern, meta checks headers only: the flip goes unseen.
rm -f vf
run $V
expect_rc 0
flip vf
run $V --verify_only
expect_rc 0
if [ $have_fio = 1 ]; then
	rm -f vf
	fio $V --verify_pattern=0xdeadbeef >out 2>err || die "fio: exit $?"
	flip vf
	fio $V --verify_pattern=0xdeadbeef --verify_only >out 2>err &&
		die "fio did not see the flip"
	grep -q "got pattern" err || die "fio: no pattern mismatch"
fi
# verify_pattern alone: verify=pattern, as in fio.
rm -f vf
run --name=v --filename="$T/vf" --size=64k --bs=4k --rw=write \
	--verify_pattern=0xdeadbeef --output-format=json
expect_rc 0
json_is "(d['jobs'][0]['verify']['kind'], d['jobs'][0]['verify']['blocks_checked'])" "('pattern', 16)"
# ... unless verify= was given before it (fio keeps that).
rm -f vf
run --name=v --filename="$T/vf" --size=64k --bs=4k --rw=write \
	--verify=0 --verify_pattern=0xdeadbeef --output-format=json
expect_rc 0
json_is "d['jobs'][0].get('verify')" "None"
echo ok
