# Sourced by the buffer-contents tests (110-114) after lib.sh.

# measure FILE: "comp whole dup" of FILE, in percent (buffers.py): zlib
# level 1 over 64 KiB pieces, over the whole file, duplicate 4 KiB blocks.
measure() {
	"$PY" "$top/tests/cli/buffers.py" "$1" 4096 65536 |
		sed 's/[a-z]*=//g' || die "cannot measure $1"
}

# near A B POINTS: |A - B| <= POINTS
near() {
	"$PY" -c 'import sys; a, b, p = map(float, sys.argv[1:]); sys.exit(abs(a - b) > p)' "$@"
}

have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1
