#!/bin/sh
# tests/run-all.sh starts the parallel lane's lone tests longest first, by
# each one's last time in IORIG_TEST_TIMES (a file per test holding its
# seconds), so that the lane does not end on a long test started last:
# - with no times known, the tests start in the order of their numbers,
#   and each parallel test that passes leaves its seconds (a whole
#   number), one that fails or skips and a serial one none;
# - with times known, longest first; a test with none (a new one) before
#   them all; a tie in the order of their numbers; a chain ("# lock:")
#   still before the lone tests;
# - a test with no time in IORIG_TEST_TIMES takes its line in
#   tests/times.txt (a fresh clone's order), the directory's time winning
#   where both have one.
# The runner is copied into a scratch tree with fake tests (one place in
# the lane, IORIG_TEST_JOBS=1, so that the order they start in is the
# order they run in), so the real suite does not run again.
# lane: parallel
. "$(dirname "$0")/lib.sh"

mkdir -p tree/tests/cli || die "cannot make the scratch tree"
cp "$top/tests/run-all.sh" "$top/tests/order.sh" tree/tests/ ||
	die "cannot copy run-all.sh and order.sh"
# par NAME [LINES]: a parallel test that appends its number to $T/order,
# then runs LINES.
par() {
	{ printf '#!/bin/sh\n# lane: parallel\n'
	  echo "echo ${1%%-*} >>\"$T/order\""
	  echo "${2:-}"; } >"tree/tests/cli/$1.sh"
}
par 10-a
par 20-b
par 30-c
par 40-skip 'echo "SKIP: not here"; exit 77'
par 50-fail 'echo "FAILED: on purpose"; exit 3'
printf '#!/bin/sh\nexit 0\n' >tree/tests/cli/60-serial.sh

# runs: the tree's suite, one test at a time; $T/order the parallel
# tests' numbers in the order they ran.
runs() {
	: >"$T/order"
	IORIG_TEST_JOBS=1 IORIG_TEST_TIMES="$T/times" timeout -k 5 60 \
		sh tree/tests/run-all.sh >"$T/out" 2>"$T/err"
	rc=$?
	order=$(tr '\n' ' ' <"$T/order")
}

runs
expect_rc 1
[ "$order" = "10 20 30 40 50 " ] ||
	die "no times known: ran in the order $order"
for n in 10-a 20-b 30-c; do
	s=$(cat "$T/times/tests_cli_$n.sh" 2>/dev/null)
	case $s in
	''|*[!0-9]*) die "$n passed: its time is '$s', not whole seconds" ;;
	esac
done
for n in 40-skip 50-fail 60-serial; do
	[ ! -e "$T/times/tests_cli_$n.sh" ] || die "$n left a time"
done

# Times known: 30-c longest, 10-a and 20-b tied; 35-new has none, 45-lock
# is a chain of its own.
echo 5 >"$T/times/tests_cli_30-c.sh"
echo 2 >"$T/times/tests_cli_10-a.sh"
echo 2 >"$T/times/tests_cli_20-b.sh"
par 35-new
par 45-lock '# lock: res'
runs
expect_rc 1
[ "$order" = "45 35 40 50 30 10 20 " ] ||
	die "times known: ran in the order $order, expected 45 35 40 50 30 10 20"

# A fresh clone: only 10-a's time in the directory (9 s, over the file's
# 1), 20-b's (7 s) in tests/times.txt; the others in neither: first.
rm -rf "$T/times" && mkdir "$T/times" || die "cannot reset $T/times"
echo 9 >"$T/times/tests_cli_10-a.sh"
printf '# a comment
tests_cli_20-b.sh 7
tests_cli_10-a.sh 1
' \
	>tree/tests/times.txt
runs
expect_rc 1
[ "$order" = "45 30 35 40 50 10 20 " ] ||
	die "times from tests/times.txt: ran in the order $order, expected" \
		"45 30 35 40 50 10 20"
echo "ok: longest first by the last times, else tests/times.txt; unknown first; ties by number"
