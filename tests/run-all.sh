#!/bin/sh
# Runs every unit test program given as arguments and every CLI test script
# in tests/cli/. Exit 0 passes, 77 skips (the test says why), anything else
# fails. Prints one line per test and a closing "N passed, N failed, N
# skipped" line; exits 1 when anything failed.
top=$(cd "$(dirname "$0")/.." && pwd)
pass=0 fail=0 skip=0
log=$(mktemp -d "${TMPDIR:-/tmp}/iorig-tests.XXXXXX")
trap 'rm -rf "$log"' EXIT

run_one() {
	name=$1; shift
	out="$log/$(echo "$name" | tr '/' '_').log"
	start=$(date +%s)
	"$@" >"$out" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
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
for t in "$top"/tests/cli/[0-9]*.sh; do
	[ -e "$t" ] || continue
	run_one "tests/cli/$(basename "$t")" sh "$t"
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
