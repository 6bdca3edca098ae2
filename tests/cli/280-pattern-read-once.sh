#!/bin/sh
# buffer_pattern='FILE' is read once, when the option is set (at plan
# time), as fio reads it: a file removed or rewritten afterwards (here by
# exec_prerun, which runs before the job's I/O) changes nothing of what is
# written. Outside truth: the data file's bytes against the pattern as
# given, and against fio's file on the same job, byte for byte.
# lane: parallel
. "$(dirname "$0")/lib.sh"

# prerun: what happens to the pattern file before the I/O
check_once() {
	printf 'ABCDEFG' >pat.bin
	rm -f data
	cat >p.fio <<EOF
[p]
filename=data
size=64k
bs=4k
rw=write
ioengine=sync
buffer_pattern='pat.bin'
exec_prerun=$1
EOF
	run p.fio
	expect_rc 0
	[ "$(cat pat.bin 2>/dev/null)" = "$2" ] ||
		die "exec_prerun=$1 did not run before the I/O"
	"$PY" - data <<'PY' || die "exec_prerun=$1: not the plan-time pattern"
import sys
d = open(sys.argv[1], 'rb').read()
one = (b'ABCDEFG' * 600)[:4096]
assert len(d) == 65536 and d == one * 16, d[:32]
PY
	command -v fio >/dev/null 2>&1 || return 0
	mv data data.iorig
	printf 'ABCDEFG' >pat.bin
	fio p.fio >/dev/null 2>&1 || die "fio failed on exec_prerun=$1"
	cmp -s data data.iorig || die "exec_prerun=$1: bytes differ from fio's"
}

check_once "rm pat.bin" ""
check_once "sh -c 'printf XYZ >pat.bin'" "XYZ"
echo "buffer_pattern file read once (removed, rewritten): as fio"
