# Sourced by the CLI tests. Gives: $IORIG, a scratch directory $T (removed
# at exit, also the working directory), and assertions that print what was
# expected and what came, then exit 1.
top=$(cd "$(dirname "$0")/../.." && pwd)
IORIG=${IORIG:-$top/iorig}
[ -x "$IORIG" ] || { echo "no $IORIG: run make first"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/iorig-cli.XXXXXX")
trap 'cd /; rm -rf "$T"' EXIT
cd "$T" || exit 1

# run ARGS...: runs iorig, keeping stdout in $T/out, stderr in $T/err and
# the exit code in $rc.
run() {
	"$IORIG" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

die() {
	echo "FAILED: $*"
	echo "--- stdout"; head -c 3000 "$T/out" 2>/dev/null
	echo "--- stderr"; head -c 3000 "$T/err" 2>/dev/null
	exit 1
}

expect_rc() {
	[ "$rc" -eq "$1" ] || die "expected exit code $1, got $rc"
}

# expect_out FILE REGEX: FILE (out or err) has a line matching REGEX.
expect_in() {
	grep -Eq -- "$2" "$T/$1" || die "expected /$2/ in std$1"
}

expect_not_in() {
	! grep -Eq -- "$2" "$T/$1" || die "did not expect /$2/ in std$1"
}

expect_empty() {
	[ ! -s "$T/$1" ] || die "expected empty std$1"
}

# json EXPR: evaluates a Python expression on the JSON document in $T/out
# (bound to d) and prints the result.
json() {
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$T/out" "$1"
}

skip() {
	echo "SKIP: $*"
	exit 77
}
