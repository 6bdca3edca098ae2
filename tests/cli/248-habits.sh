#!/bin/sh
# doc/design.md's habits section says what is true (issue 22 §3): the
# number of mutable statics it gives is the number of data objects in
# the built objects' writable sections (objdump -t: .bss, .data...; a
# const table is in .rodata or .data.rel.ro), in the number of files it
# gives; the functions it names as over 100 lines (from the opening
# brace in column 0 to the closing one, kernel style) are exactly those;
# the members of struct wstate (src/worker/wstate.h: top-level
# declarators, a nested struct one) are as many as it says, and at most
# WSTATE_MAX (issue 22: the loop's own fields and one pointer per
# feature; 48 before the features' fields moved to their own structs).
# Then the check is shown to fail on a copy of the doc with another
# count.
# IORIG_SRC=DIR checks another tree (its objects beside IORIG, or in
# IORIG_OBJ).
# lane: parallel
. "$(dirname "$0")/lib.sh"

[ -z "${IORIG_SAN:-}" ] || skip "sanitizer build: its objects carry the sanitizers' own statics; the plain build is counted"
command -v objdump >/dev/null 2>&1 || skip "needs objdump (binutils)"
src=${IORIG_SRC:-$top}
obj=${IORIG_OBJ:-$(dirname "$IORIG")}
[ -f "$obj/src/face/main.o" ] || skip "no objects beside $IORIG (IORIG_OBJ=DIR)"
[ -f "$obj/src/mpi/mpi.o" ] || skip "no src/mpi/mpi.o: build iorig-mpi too (make iorig-mpi)"

cat >"$T/habits.py" <<'PYEOF'
import glob, os, re, subprocess, sys

src, obj, doc = sys.argv[1:4]
# a copy of wstate.h to count instead (the test's own check that it can
# fail)
wsh = sys.argv[4] if len(sys.argv) > 4 else \
    os.path.join(src, "src/worker/wstate.h")
text = open(doc, encoding="utf-8").read()
habits = text[text.index("## Habits"):]
habits = habits[:habits.index("\n## ", 1)]
flat = " ".join(habits.split())
m = re.search(r"mutable statics that remain[^:]*: (\d+), in (\d+) files", flat)
if not m:
    sys.exit("the habits section gives no count of mutable statics")
doc_statics, doc_files = int(m.group(1)), int(m.group(2))
m = re.search(r"A function fits on a screen: (\d+) in `src/` run over 100 "
              r"lines[^(]*\(([^)]*)\)", flat)
if not m:
    sys.exit("the habits section gives no count of long functions")
doc_long, doc_names = int(m.group(1)), set(re.findall(r"`(\w+)`",
                                                       m.group(2)))
m = re.search(r"`struct wstate` has (\d+) members", flat)
if not m:
    sys.exit("the habits section gives no count of struct wstate's members")
doc_ws = int(m.group(1))
WSTATE_MAX = 40

def wstate_members(path):
    """Top-level declarators of struct wstate: `unsigned a, b;` is two,
    a nested struct (or union) one, comments dropped."""
    t = open(path, encoding="utf-8").read()
    t = re.sub(r"/\*.*?\*/", "", t, flags=re.S)
    t = t[t.index("struct wstate {"):]
    t = t[t.index("{") + 1:]
    n, depth, stmt = 0, 0, ""
    for ch in t:
        if ch == "{":
            depth += 1
        elif ch == "}":
            if not depth:
                break
            depth -= 1
        if ch == ";" and not depth:
            n += re.sub(r"\{.*\}", "{}", stmt, flags=re.S).count(",") + 1
            stmt = ""
        else:
            stmt += ch
    return n

def writable(sec):
    """.bss, .data, .data.rel(.local), thread-local: not .rodata nor
    .data.rel.ro (const tables that hold pointers)."""
    base = sec.split(".")[1] if sec.count(".") else sec
    if base in ("bss", "tbss", "tdata"):
        return True
    return sec in (".data", ".data.rel", ".data.rel.local") or \
        (sec.startswith(".data.") and not sec.startswith(".data.rel"))
statics, files = 0, set()
objs = {}
for o in glob.glob(os.path.join(obj, "src/**/*.o"), recursive=True):
    rel = os.path.relpath(o, obj)[:-2] + ".c"
    if os.path.exists(os.path.join(src, rel)):
        objs[o] = rel
# one objdump for every object: each one's table follows a line
# "PATH:     file format ..."
out = subprocess.run(["objdump", "-t"] + sorted(objs), capture_output=True,
                     text=True, check=True).stdout if objs else ""
rel = None
for line in out.splitlines():
    head = line.rsplit(":", 1)[0] if "file format " in line else None
    if head in objs:
        rel = objs[head]
        continue
    f = line.split()
    if rel is None or len(f) < 5 or " O " not in line:
        continue
    sec = [x for x in f if x.startswith(".")]
    if sec and writable(sec[0]):
        statics += 1
        files.add(rel)

names = set()
for path in glob.glob(os.path.join(src, "src/**/*.c"), recursive=True):
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, l in enumerate(lines):
        if not l.startswith("{"):
            continue
        j = i
        while j < len(lines) and not lines[j].startswith("}"):
            j += 1
        k = i - 1
        while k > 0 and not re.match(r"\w", lines[k]):
            k -= 1
        sig = re.search(r"(\w+)\s*\(", lines[k])
        if sig and j - i + 1 > 100:
            names.add(sig.group(1))
print("%d mutable statics in %d files (the doc: %d in %d)" %
      (statics, len(files), doc_statics, doc_files))
print("%d functions over 100 lines: %s (the doc: %d: %s)" %
      (len(names), " ".join(sorted(names)), doc_long,
       " ".join(sorted(doc_names))))
ws = wstate_members(wsh)
print("struct wstate: %d members (the doc: %d; at most %d)" %
      (ws, doc_ws, WSTATE_MAX))
bad = (statics, len(files)) != (doc_statics, doc_files) or \
    len(names) != doc_long or names != doc_names or \
    ws != doc_ws or ws > WSTATE_MAX
sys.exit(1 if bad else 0)
PYEOF
"$PY" "$T/habits.py" "$src" "$obj" "$src/doc/design.md" >"$T/out" 2>&1 || {
	cat "$T/out"
	die "doc/design.md's habits section does not say what is true"
}
cat "$T/out"
ws=$(sed -n 's/^struct wstate: \([0-9]*\) members.*/\1/p' "$T/out")
[ -n "$ws" ] || die "no count of struct wstate's members"
# The check can fail: a copy of the doc with one static more.
"$PY" - "$src/doc/design.md" >"$T/more.md" <<'PYEOF'
import re, sys
t = open(sys.argv[1]).read()
print(re.sub(r"(mutable statics that remain[^:]*:\s*)(\d+)",
             lambda m: m.group(1) + str(int(m.group(2)) + 1), t, count=1,
             flags=re.S), end="")
PYEOF
cmp -s "$T/more.md" "$src/doc/design.md" && die "could not change the count in a copy"
"$PY" "$T/habits.py" "$src" "$obj" "$T/more.md" >"$T/out" 2>&1 &&
	die "the check passed a doc that counts one static too many"
# And a struct wstate with one member more than the doc says.
sed 's/^\(\tstruct wfeatures ft;\)$/\1\n\tint extra;/' \
	"$src/src/worker/wstate.h" >"$T/wstate.h"
grep -q "int extra;" "$T/wstate.h" ||
	die "could not add a member to a copy of wstate.h"
"$PY" "$T/habits.py" "$src" "$obj" "$src/doc/design.md" "$T/wstate.h" \
	>"$T/out" 2>&1 &&
	die "the check passed a struct wstate of one member more than the doc"
grep -q "^struct wstate: $((ws + 1)) members" "$T/out" ||
	die "the copy's extra member was not counted: $(cat "$T/out")"
echo "ok: the habits section's counts are the objects' and the sources'"
