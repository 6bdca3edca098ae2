#!/bin/sh
# filesize=LO-HI (issue 12): each file a size of its own in the range, as
# fio does. Outside truths: the sizes stat gives, the pwrite64 calls strace
# sees per file (each block of each file once with the random map, none
# past a file's own end), fio's bytes moved on the same job against its
# own files' sizes, and bytes outside the regions compared with cksum.
# lane: parallel
. "$(dirname "$0")/lib.sh"

KiB=1024

# sizes DIR PREFIX N: the N files' sizes, one a line.
sizes() {
	for n in $(seq 0 $(($3 - 1))); do fsize "$1/$2.0.$n"; done
}

# ---- new files: sizes in the range, in whole blocks; a loop moves them all
mkdir i
run --name=r --directory=i --nrfiles=8 --filesize=64k-512k --bs=4k \
	--rw=write --randseed=7 --output-format=json
expect_rc 0
total=0
for s in $(sizes i r 8); do
	[ "$s" -ge $((64 * KiB)) ] && [ "$s" -le $((512 * KiB)) ] ||
		die "a file of $s bytes, outside 64k-512k"
	[ $((s % 4096)) -eq 0 ] || die "a file of $s bytes, not whole 4k blocks"
	total=$((total + s))
done
[ "$(sizes i r 8 | sort -u | wc -l)" -ge 4 ] ||
	die "8 files, sizes not drawn: $(sizes i r 8 | tr '\n' ' ')"
json_is "d['jobs'][0]['write']['io_bytes']" "$total"

# The same seed draws the same sizes (of the same names); files already in
# the range keep theirs.
first=$(sizes i r 8 | tr '\n' ' ')
rm -f i/*
run --name=r --directory=i --nrfiles=8 --filesize=64k-512k --bs=4k \
	--rw=write --randseed=7
expect_rc 0
[ "$(sizes i r 8 | tr '\n' ' ')" = "$first" ] ||
	die "randseed=7 twice: $first, then $(sizes i r 8 | tr '\n' ' ')"
mkrand i/r.0.0 $((100 * KiB))
run --name=r --directory=i --nrfiles=8 --filesize=64k-512k --bs=4k \
	--rw=read --randseed=9 --output-format=json
expect_rc 0
[ "$(fsize i/r.0.0)" -eq $((100 * KiB)) ] ||
	die "a 100k file in the range became $(fsize i/r.0.0) bytes"
total=$(sizes i r 8 | awk '{t += $1} END {print t}')
json_is "d['jobs'][0]['read']['io_bytes']" "$total"

# fio on the same job: its bytes moved are its own files' sizes added up.
if command -v fio >/dev/null 2>&1; then
	mkdir f
	fio --name=r --directory=f --nrfiles=8 --filesize=64k-512k --bs=4k \
		--rw=write --output-format=json >fio.json 2>/dev/null ||
		die "fio failed on the job"
	want=$(sizes f r 8 | awk '{t += $1} END {print t}')
	got=$(jsonf fio.json "d['jobs'][0]['write']['io_bytes']")
	[ "$got" = "$want" ] ||
		die "fio moved $got bytes over files of $want: not fio's meaning"
	for s in $(sizes f r 8); do
		[ "$s" -ge $((64 * KiB)) ] && [ $((s % 4096)) -eq 0 ] ||
			die "fio made a file of $s bytes: the test's premise"
	done
fi

# ---- the random map: every block of each file once, none past its end
if command -v strace >/dev/null 2>&1; then
	for mode in "--rw=randwrite" "--rw=randwrite --file_service_type=random" \
	    "--rw=write --file_service_type=sequential"; do
		rm -rf m && mkdir m
		# shellcheck disable=SC2086
		strace -f -qq -e trace=pwrite64 -e signal=none -o st.txt \
			"$IORIG" --name=m --directory=m --nrfiles=5 \
			--filesize=16k-256k --bs=4k $mode --randseed=3 \
			>out 2>err || die "$mode: exit $?"
		"$PY" - m st.txt <<'PY' || die "$mode: see above"
import os, re, sys
d, log = sys.argv[1:]
paths = sorted(os.listdir(d))
seen = {}
for l in open(log):
    m = re.search(r'pwrite64\((\d+)<?([^,>]*)>?, .*, (\d+), (\d+)\)', l)
    if m:
        seen.setdefault(int(m.group(1)), []).append(
            (int(m.group(4)), int(m.group(3))))
sz = sorted(os.path.getsize(os.path.join(d, p)) for p in paths)
got = []
for fd, ios in seen.items():
    offs = sorted(o for o, _ in ios)
    if len(set(offs)) != len(offs):
        sys.exit("FAILED: a block of fd %d written twice" % fd)
    n = len(offs)
    if offs != [4096 * i for i in range(n)]:
        sys.exit("FAILED: fd %d: not its blocks 0..%d" % (fd, n - 1))
    got.append(n * 4096)
if sorted(got) != sz:
    sys.exit("FAILED: bytes written per file %s, file sizes %s" %
             (sorted(got), sz))
PY
	done
else
	echo "note: no strace; the per-file pwrite64 check left out"
fi

# ---- verification over files of several sizes, two loops (each loop's
# blocks checked when it ends, as fio does)
rm -rf v && mkdir v
run --name=v --directory=v --nrfiles=4 --filesize=32k-256k --bs=4k \
	--rw=randwrite --verify=crc32c --loops=2 --output-format=json
expect_rc 0
total=$(sizes v v 4 | awk '{t += $1} END {print t}')
json_is "d['jobs'][0]['verify']['blocks_checked']" $((2 * total / 4096))
json_is "d['jobs'][0]['verify']['mismatches']" 0

# ---- an existing file bigger than HI: not shrunk, nothing past HI written
mkdir b
mkrand b/x.0.0 $((1024 * KiB))
mkrand b/x.0.1 $((1024 * KiB))
tail0=$(sum_range b/x.0.0 $((200 * KiB)) $((824 * KiB)))
tail1=$(sum_range b/x.0.1 $((200 * KiB)) $((824 * KiB)))
run --name=x --directory=b --nrfiles=2 --filesize=40k-200k --bs=4k \
	--rw=randwrite
expect_rc 0
[ "$(fsize b/x.0.0)" -eq $((1024 * KiB)) ] || die "b/x.0.0 changed size"
[ "$(sum_range b/x.0.0 $((200 * KiB)) $((824 * KiB)))" = "$tail0" ] &&
	[ "$(sum_range b/x.0.1 $((200 * KiB)) $((824 * KiB)))" = "$tail1" ] ||
	die "bytes past 200k (HI) changed"

# (The random patterns over files of several sizes: 187.)
exit 0
