#!/bin/sh
# Stages stack (issue 22 §3): each source file's stage comes from the
# stage table of doc/design.md ("Stages: who may call whom"), the calls
# from the built objects (nm: what each object defines, what it leaves
# undefined; tests/cli/stages.py). No call goes from a stage up into a
# higher one unless the doc's table of exceptions lists it with a
# reason; every file is in exactly one stage; the folders of src/ (the
# stages, one row each) call each other in no cycle. Then the check is
# shown to fail: with the lib stage moved to the top of a copy of the
# table, with a folder's row removed, and on a made-up folder cycle.
# IORIG_SRC=DIR checks another tree (its objects beside IORIG, or in
# IORIG_OBJ).
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v nm >/dev/null 2>&1 || skip "needs nm (binutils)"
src=${IORIG_SRC:-$top}
obj=${IORIG_OBJ:-$(dirname "$IORIG")}
[ -f "$obj/src/face/main.o" ] || skip "no objects beside $IORIG (IORIG_OBJ=DIR)"
"$PY" "$top/tests/cli/stages.py" "$src" "$obj" >"$T/out" 2>"$T/err" || {
	cat "$T/out" "$T/err"
	die "a call goes up the stages"
}
cat "$T/out"
expect_in out "^ok: every call goes down the stages"

# The check can fail: lib listed first makes err.c's callers call up.
"$PY" - "$src/doc/design.md" >"$T/top.md" <<'PYEOF'
import sys
lines = open(sys.argv[1]).read().split("\n")
lib = [l for l in lines if l.startswith("| lib |")]
rest = [l for l in lines if not l.startswith("| lib |")]
i = [n for n, l in enumerate(rest) if l.startswith("| stage | files |")][0] + 2
print("\n".join(rest[:i] + lib + rest[i:]))
PYEOF
grep -q '^| lib |' "$T/top.md" || die "could not move the lib row in a copy"
"$PY" "$top/tests/cli/stages.py" "$src" "$obj" "$T/top.md" >"$T/out" 2>&1 &&
	die "the check passed with lib above every stage"
expect_in out "^src/face/main.c \\(face\\) calls up into src/lib/err.c \\(lib\\)"
# ... and a file in no stage is named.
sed '/^| run | `src\/run\/`/d' "$src/doc/design.md" >"$T/norun.md"
cmp -s "$T/norun.md" "$src/doc/design.md" && die "no row of src/run/ to remove"
"$PY" "$top/tests/cli/stages.py" "$src" "$obj" "$T/norun.md" >"$T/out" 2>&1 &&
	die "the check passed with src/run/ in no stage"
expect_in out "^src/run/run.c is in no stage of the table"
# ... and a cycle between folders is found: two folders calling each
# other (the calls made up; the objects have none).
"$PY" - "$top/tests/cli" >"$T/out" 2>&1 <<'PYEOF' || die "no cycle found"
import sys
sys.path.insert(0, sys.argv[1])
import stages
e = {("src/a/x.c", "src/b/y.c"): ["y_f"], ("src/b/y.c", "src/a/x.c"): ["x_f"],
     ("src/b/y.c", "src/c/z.c"): ["z_f"]}
c = stages.cycles(e)
assert [comp for comp, _ in c] == [["a/", "b/"]], c
print("cycle found: a/ b/")
PYEOF
expect_in out "^cycle found: a/ b/"
echo "ok: calls go down the stages, and the check fails when they do not"
