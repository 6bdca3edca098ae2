#!/bin/sh
# No module depends on itself through others: read from the #include "..."
# lines of include/*.h and src/**/*.c, the module graph has no cycle.
# A module is include/NAME.h with its file src/STAGE/NAME.c, or with the
# folder src/NAME/ (worker, verify, report; src/engines/ is engine's). A
# file in a folder that includes its own header (src/report/html.c) is
# that header's module; one with no header of its own in a stage folder
# (src/result/json_read.c) is a module of its own; one that includes
# another folder's private header ("../worker/wstate.h") is that folder's
# module: it runs inside it. A cycle is printed with the include that
# closes each edge.
# IORIG_SRC=DIR checks another tree (to test this test).
# lane: parallel
. "$(dirname "$0")/lib.sh"
src=${IORIG_SRC:-$top}

"$PY" - "$src" <<'PYEOF' || die "the module graph has a cycle"
import glob, os, re, sys

top = sys.argv[1]
hdrs = {os.path.basename(h)[:-2] for h in glob.glob(top + "/include/*.h")}
if len(hdrs) < 10:
    sys.exit("only %d headers under %s/include" % (len(hdrs), top))

# The folders that are one module each, whose files share its header; the
# other folders of src/ are stages (doc/design.md) holding modules, and a
# file there with no header of its own is a module of its own.
FOLDERS = {"worker": "worker", "verify": "verify", "report": "report",
           "engines": "engine"}

def module(path):
    rel = os.path.relpath(path, top)
    base = os.path.splitext(os.path.basename(rel))[0]
    parts = rel.split("/")
    if parts[0] != "src" or len(parts) == 2:
        return base
    text = open(path).read()
    other = re.search(r'^#include "\.\./([^/"]+)/', text, re.M)
    if other:
        return other.group(1)
    if base in hdrs and re.search(r'^#include "%s\.h"' % base, text, re.M):
        return base
    if parts[1] in FOLDERS:
        return FOLDERS[parts[1]]
    return base

edges = {}
files = glob.glob(top + "/include/*.h") + \
    glob.glob(top + "/src/**/*.[ch]", recursive=True)
for f in files:
    m = module(f)
    for inc in re.findall(r'^#include "([^"/]+)\.h"', open(f).read(), re.M):
        if inc != m and inc in hdrs:
            edges.setdefault(m, {}).setdefault(inc,
                os.path.relpath(f, top))

# Tarjan's strongly connected components.
index, low, stack, on, sccs = {}, {}, [], set(), []
def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v)
    on.add(v)
    for w in edges.get(v, {}):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(sorted(comp))
sys.setrecursionlimit(10000)
for v in sorted(edges):
    if v not in index:
        visit(v)
for comp in sccs:
    print("FAILED: modules in a cycle: " + " ".join(comp))
    for a in comp:
        for b, where in sorted(edges[a].items()):
            if b in comp:
                print("    %s -> %s (%s)" % (a, b, where))
print("%d modules, %d dependencies, %d cycles" % (
    len(set(edges) | hdrs), sum(len(e) for e in edges.values()), len(sccs)))
sys.exit(1 if sccs else 0)
PYEOF
