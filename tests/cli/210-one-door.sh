#!/bin/sh
# The one door (issue 21): every file iorig writes, maps or removes
# besides the targets' own I/O goes through src/lib/door.c (include/
# door.h). tests/cli/onedoor.py reads the sources (each call of open,
# fopen, creat, mkstemp, unlink, rename, mmap, mkdir, bind... and its
# arguments: a read-only open or an anonymous mapping is no write) and
# the built objects (nm -u: which object calls which of them), and fails
# on any such call outside the door that is not on its allow-list (each
# entry with its reason). Then the lint is shown to fail: a copy of the
# sources with one fopen(..., "w") added outside the door is refused,
# naming the line.
# IORIG_SRC=DIR checks another tree (its objects beside IORIG, or in
# IORIG_OBJ).
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v nm >/dev/null 2>&1 || skip "needs nm (binutils)"
src=${IORIG_SRC:-$top}
obj=${IORIG_OBJ:-$(dirname "$IORIG")}
[ -f "$obj/src/face/main.o" ] || skip "no objects beside $IORIG (IORIG_OBJ=DIR)"
"$PY" "$top/tests/cli/onedoor.py" "$src" "$obj" >"$T/out" 2>"$T/err" ||
	die "file calls outside the door"
cat "$T/out"

# The lint can fail: one report file opened on its own, in a copy.
mkdir copy
cp -r "$src/src" copy/src
cat >>copy/src/lib/warn.c <<'EOC'

/* a feature that opens its own file */
FILE *lint_probe(const char *p);
FILE *lint_probe(const char *p)
{
	return fopen(p, "w");
}
EOC
line=$(grep -n 'return fopen(p, "w");' copy/src/lib/warn.c | cut -d: -f1)
"$PY" "$top/tests/cli/onedoor.py" copy "$obj" >"$T/out" 2>"$T/err" &&
	die "the lint passed a fopen(p, \"w\") outside the door"
expect_in out "src/lib/warn.c:$line: fopen\\(p, \"w\"\\) outside the door"
# ... and a call the sources hide (a macro of a header): the object
# still calls it (nm), and that is refused too.
rm -rf copy/src
cp -r "$src/src" copy/src
grep -q 'fopen("/proc/cpuinfo", "r")' copy/src/measure/clock.c ||
	skip "src/measure/clock.c no longer opens /proc/cpuinfo: pick another probe"
sed -i 's|fopen("/proc/cpuinfo", "r")|HIDDEN_OPEN()|' copy/src/measure/clock.c
"$PY" "$top/tests/cli/onedoor.py" copy "$obj" >"$T/out" 2>"$T/err" &&
	die "the lint passed an object whose fopen the sources hide"
expect_in out "src/measure/clock.c: its object calls fopen, but no call of it"
echo "ok: one door, and the lint fails on a file opened outside it"
