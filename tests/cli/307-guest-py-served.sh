#!/bin/sh
# The test guest's cases make their Python calls through one Python per
# case (py_served, tests/guest/lib.sh; issue 26 §4: a start of python3
# costs most of a second in the emulator). Outside the guest, against
# python3 itself (tests/guest/self/py-served.sh): exit statuses, both
# streams, arguments, stdin, the working directory, the shell's file
# offset around a call, two calls at once; a killed server fails the
# next call by name, at once; and no server outlives its case.
# lane: parallel
. "$(dirname "$0")/lib.sh"

self=$top/tests/guest/self/py-served.sh
IORIG_GUEST=1 IORIG=$IORIG timeout 60 sh "$self" >"$T/o" 2>&1
rc=$?
[ "$rc" = 0 ] || die "py-served.sh: exit $rc: $(tail -n 5 "$T/o")"
grep -q '^ok: all$' "$T/o" || die "py-served.sh did not finish: $(cat "$T/o")"
IORIG_GUEST=1 IORIG=$IORIG PY_SERVED_KILL=1 timeout 60 sh "$self" >"$T/o" 2>&1
rc=$?
[ "$rc" = 1 ] || die "a killed server: exit $rc, expected 1: $(tail -n 5 "$T/o")"
grep -q 'py_served: .*pyserve.py ended' "$T/o" ||
	die "a killed server: not named: $(cat "$T/o")"
# a server whose case is gone (its directory removed with the case's)
sleep 0.5
ps -eo args | sed -n 's|.*tests/guest/pyserve\.py \(/.*\)|\1|p' >"$T/ps"
while read -r d; do
	[ -d "$d" ] || die "a server outlived its case: $d"
done <"$T/ps"
echo "ok: py_served as python3, and a killed server fails the call"
