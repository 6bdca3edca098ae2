#!/bin/sh
# fio's own test suite with iorig as fio: `make fio-suite FIO_ROOT=DIR`.
# DIR is a fio source tree at the tag of the fio beside iorig (fio-3.33
# for Debian 12's fio), configured (./configure writes config-host.h,
# which tells the suite that libaio and io_uring are there). It is not
# part of the repository and nothing of it is copied here: the suite is
# run as it stands, twice, with the same arguments: once with Debian's
# fio, once with a link named fio to iorig. Each prints one line a test;
# the run fails when a test that fio passes does not pass with iorig.
# Without FIO_ROOT it skips (77), saying so. Artifacts (each test's
# command line, output and files) stay in ARTIFACTS (default: a new
# directory under /tmp), printed at the end.
top=$(cd "$(dirname "$0")/.." && pwd)
IORIG=${IORIG:-$top/iorig}
FIO=${FIO:-$(command -v fio)}

[ -n "${FIO_ROOT:-}" ] || {
	echo "SKIP: FIO_ROOT is not set (a fio source tree, ./configure run in it)"
	exit 77
}
R=$FIO_ROOT
[ -f "$R/t/run-fio-tests.py" ] || { echo "$R: no t/run-fio-tests.py" >&2; exit 2; }
[ -f "$R/config-host.h" ] || {
	echo "$R: not configured (no config-host.h): run ./configure there first," >&2
	echo "or the suite skips its libaio and io_uring tests" >&2
	exit 2
}
[ -x "$IORIG" ] || { echo "no $IORIG: run make first" >&2; exit 2; }
[ -n "$FIO" ] && [ -x "$FIO" ] || { echo "no fio to compare with" >&2; exit 2; }
# The suite's checks import scipy and pandas: Debian's python3 has them
# as packages (a version manager's python may not).
PY=python3
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

A=${ARTIFACTS:-$(mktemp -d /tmp/iorig-fio-suite.XXXXXX)}
mkdir -p "$A/bin"
ln -sf "$IORIG" "$A/bin/fio"

# reaper EXE: the suite gives a test 600 s, then sends SIGTERM and waits
# for it without limit; fio 3.33 here can hang in io_submit_mode=offload
# (t0010, t0013) and ignore SIGTERM, which would stop the suite for good.
# A process of EXE still running 30 s after that is killed.
reaper() {
	while sleep 15; do
		ps -eo pid=,etimes=,args= | while read -r pid secs exe rest; do
			[ "$exe" = "$1" ] && [ "$secs" -gt 630 ] &&
				kill -9 "$pid" 2>/dev/null
		done
	done
}

# suite NAME FIO: the suite's verdict lines into $A/NAME.log.
suite() {
	rm -rf "$A/$1"
	echo "== fio's suite with $2 ($1)"
	reaper "$2" &
	rp=$!
	(cd "$A" && PATH=/usr/bin:/bin:/usr/sbin:/sbin "$PY" \
		"$R/t/run-fio-tests.py" -r "$R" -f "$2" -a "$A/$1") \
		>"$A/$1.log" 2>&1
	kill "$rp" 2>/dev/null
	grep -E '^Test [0-9]+ (PASSED|FAILED|SKIPPED)' "$A/$1.log"
	grep -E '^[0-9]+ test\(s\) passed' "$A/$1.log"
}
suite fio "$FIO"
suite iorig "$A/bin/fio"

"$PY" - "$A/fio.log" "$A/iorig.log" <<'EOF'
import re, sys
def verdicts(p):
    v = {}
    for line in open(p):
        m = re.match(r"Test (\d+) (PASSED|FAILED|SKIPPED)", line)
        if m:
            v[int(m[1])] = m[2]
    return v
f, i = verdicts(sys.argv[1]), verdicts(sys.argv[2])
fp = {t for t, s in f.items() if s == "PASSED"}
ip = {t for t, s in i.items() if s == "PASSED"}
print("fio passes %d, iorig passes %d of them (and %d more)" %
      (len(fp), len(fp & ip), len(ip - fp)))
lost = sorted(fp - ip)
for t in lost:
    print("FAILED: test %d passes with fio, %s with iorig" % (t, i.get(t, "absent")))
sys.exit(1 if lost else 0)
EOF
rc=$?
echo "artifacts: $A"
exit $rc
