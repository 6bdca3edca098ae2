#!/bin/sh
# Runs every unit test program given as arguments and every CLI test script
# in tests/cli/. Exit 0 passes, 77 skips (the test says why), anything else
# fails. Prints one line per test and a closing "N passed, N failed, N
# skipped" line; exits 1 when anything failed.
#
# Each test runs under timeout(1) in a process group of its own: one that
# is still running after IORIG_TEST_TIMEOUT seconds (default 300; 0: no
# limit) fails with "timed out after N s", and whatever is left of its
# process group is killed, so a hung test fails that test instead of
# hanging the suite.
top=$(cd "$(dirname "$0")/.." && pwd)
limit=${IORIG_TEST_TIMEOUT:-300}
case $limit in
''|*[!0-9]*) echo "IORIG_TEST_TIMEOUT='$limit': expected whole seconds" >&2
	exit 2 ;;
esac
command -v timeout >/dev/null 2>&1 || {
	[ "$limit" -eq 0 ] ||
		echo "note: no timeout(1) (coreutils): tests run without limit"
	limit=0
}
pass=0 fail=0 skip=0
log=$(mktemp -d "${TMPDIR:-/tmp}/iorig-tests.XXXXXX")
trap 'rm -rf "$log"' EXIT

# timed ARGS...: runs ARGS under the limit. timeout(1) puts itself and the
# test in a new process group; the test's first act records its id in
# $log/pgid so that what outlives a timed-out test can be killed.
timed() {
	rm -f "$log/pgid"
	if [ "$limit" -eq 0 ]; then
		"$@"
		return
	fi
	timeout -k 5 "$limit" sh -c \
		'cut -d " " -f 5 /proc/$$/stat >"$0" 2>/dev/null; exec "$@"' \
		"$log/pgid" "$@"
}

run_one() {
	name=$1; shift
	out="$log/$(echo "$name" | tr '/' '_').log"
	start=$(date +%s)
	timed "$@" >"$out" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	if [ "$limit" -gt 0 ] && [ "$secs" -ge "$limit" ] &&
	   { [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; }; then
		pg=$(cat "$log/pgid" 2>/dev/null)
		[ -n "$pg" ] && kill -KILL "-$pg" 2>/dev/null
		fail=$((fail + 1))
		echo "FAIL $name: timed out after $limit s"
		sed 's/^/    | /' "$out" | tail -n 20
		return
	fi
	case $rc in
	0) pass=$((pass + 1)); echo "PASS $name (${secs}s)" ;;
	77) skip=$((skip + 1))
	    echo "SKIP $name: $(grep -i 'skip' "$out" | tail -n 1)" ;;
	*) fail=$((fail + 1)); echo "FAIL $name (exit $rc)"
	   # What failed first (the tail may be a long report), then the end.
	   grep -m 8 -E '^FAILED|^AssertionError|^[A-Za-z]+Error: ' "$out" |
		sed 's/^/    ! /'
	   sed 's/^/    | /' "$out" | tail -n 40 ;;
	esac
}

for t in "$@"; do
	run_one "$t" "$top/$t"
done
# In the order of their numbers (100 after 99, not after 10).
for t in $(cd "$top/tests/cli" && ls [0-9]*.sh 2>/dev/null | sort -n); do
	run_one "tests/cli/$t" sh "$top/tests/cli/$t"
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
