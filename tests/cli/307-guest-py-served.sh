#!/bin/sh
# The test guest's cases make their Python calls through one Python per
# case (py_served, tests/cli/lib.sh, the $PY of tests/guest/lib.sh; issue
# 26 §4: a start of python3 costs most of a second in the emulator), as
# the CLI tests make their json calls. Outside the guest, against
# python3 itself (tests/guest/self/py-served.sh): exit statuses, both
# streams, arguments, stdin, the working directory, the shell's file
# offset around a call, two calls at once; a killed server fails the
# next call by name, at once; and no server outlives its case (nor its
# shell: the server watches it).
# lane: parallel
. "$(dirname "$0")/lib.sh"

self=$top/tests/guest/self/py-served.sh
# The scripts' scratch directories under this test's own, so that only
# their servers are looked for below.
mkdir "$T/tmp" || die "cannot make $T/tmp"
export TMPDIR=$T/tmp
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
ps -eo args | sed -n 's|.*tests/cli/pyserve\.py \(/[^ ]*\).*|\1|p' |
	grep "^$T/tmp/" >"$T/ps"
[ ! -s "$T/ps" ] || die "a server outlived its case: $(cat "$T/ps")"
# A test's server ends with the test's shell, by itself: a shell that
# starts one (json) and ends without a word of cleanup.
mkdir -p "$T/w/tests/cli" &&
	ln -s "$top/tests/cli/lib.sh" "$top/tests/cli/pyserve.py" \
		"$T/w/tests/cli/" || die "cannot make $T/w"
cat >"$T/w/tests/cli/watch.sh" <<'SH'
. "$(dirname "$0")/lib.sh"
echo '{"a": 7}' >"$T/out"
json_is "d['a']" 7
trap - EXIT
exit 0
SH
IORIG=$IORIG sh "$T/w/tests/cli/watch.sh" >"$T/w.out" 2>&1
rc=$?
[ "$rc" = 0 ] || die "a json call: exit $rc: $(cat "$T/w.out")"
sleep 0.5
ps -eo args | sed -n 's|.*tests/cli/pyserve\.py \(/[^ ]*\).*|\1|p' |
	grep "^$T/tmp/" >"$T/ps"
[ -s "$T/ps" ] && die "a server outlived its test's shell: $(cat "$T/ps")"
echo "ok: py_served as python3, and a killed server fails the call"
