"""The stage test (tests/cli/247-stages.sh): calls go down the stages of
doc/design.md ("Stages: who may call whom"), read from the built objects.

The stage of each source file comes from the doc's stage table and from
nowhere else: a row names folders (`src/worker/`) and files
(`src/run/run.c`); a file named on its own wins over its folder's row. The
calls come from the objects: `nm` gives what each object defines and what
it leaves undefined; an undefined symbol that another object defines is a
call (or a data reference) from the one file to the other.

Fails (exit 1) on: a source file of no stage or of two rows; a row naming
nothing that exists; a call from a stage to one above it that the doc's
table of exceptions does not list; an exception that no call needs any
more; a cycle between folders (the folders of src/ are the stages; a
root file of src/, if one came back, would be a folder of its own).
Prints the stage-to-stage calls and the cycles.

usage: stages.py SRC_TOP OBJ_TOP [DESIGN_MD]
"""
import glob
import os
import re
import subprocess
import sys

SECTION = "## Stages: who may call whom"


def read_doc(path):
    """[(stage, [patterns])] top first, and {(caller, callee): reason}."""
    text = open(path, encoding="utf-8").read()
    start = text.find(SECTION)
    if start < 0:
        sys.exit("%s has no section '%s'" % (path, SECTION))
    end = text.find("\n## ", start + len(SECTION))
    body = text[start:end if end > 0 else len(text)]
    stages, allowed, table = [], {}, None
    for line in body.splitlines():
        if not line.startswith("|"):
            table = None if not line.strip() else table
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[:2] == ["stage", "files"]:
            table = "stages"
            continue
        if cells[:3] == ["caller", "callee", "reason"]:
            table = "allowed"
            continue
        if set("".join(cells)) <= set("- "):
            continue
        if table == "stages":
            stages.append((cells[0], re.findall(r"`([^`]+)`", cells[1])))
        elif table == "allowed":
            a = re.findall(r"`([^`]+)`", cells[0])
            b = re.findall(r"`([^`]+)`", cells[1])
            if len(a) != 1 or len(b) != 1 or not cells[2]:
                sys.exit("exception row needs `caller`, `callee` and a "
                         "reason: %s" % line)
            allowed[(a[0], b[0])] = cells[2]
    if len(stages) < 3:
        sys.exit("%s: only %d stages in the table" % (path, len(stages)))
    return stages, allowed


def stage_of_files(src, stages):
    """{source file: stage index} and the problems found."""
    files = sorted(os.path.relpath(f, src) for f in
                   glob.glob(os.path.join(src, "src/**/*.c"),
                             recursive=True))
    bad, named, byfolder = [], {}, {}
    for i, (name, pats) in enumerate(stages):
        for p in pats:
            where = os.path.join(src, p)
            if p.endswith("/"):
                if not os.path.isdir(where):
                    bad.append("stage %s names %s, no such folder" %
                               (name, p))
                if p in byfolder:
                    bad.append("%s is in two stages" % p)
                byfolder[p] = i
            else:
                if not os.path.isfile(where):
                    bad.append("stage %s names %s, no such file" %
                               (name, p))
                if p in named:
                    bad.append("%s is in two stages" % p)
                named[p] = i
    stage = {}
    for f in files:
        if f in named:
            stage[f] = named[f]
            continue
        folder = os.path.dirname(f) + "/"
        if folder in byfolder:
            stage[f] = byfolder[folder]
        else:
            bad.append("%s is in no stage of the table" % f)
    return stage, bad


def symbols(obj_top, src):
    """{source file: (defined, undefined)} of the objects that exist (one
    nm for them all: -A names each line's object)."""
    out, objs = {}, {}
    for root, _, names in os.walk(os.path.join(obj_top, "src")):
        for n in sorted(names):
            if not n.endswith(".o"):
                continue
            o = os.path.join(root, n)
            rel = os.path.relpath(o, obj_top)[:-2] + ".c"
            if not os.path.exists(os.path.join(src, rel)):
                continue
            objs[o] = rel
            out[rel] = (set(), set())
    if not objs:
        return out
    r = subprocess.run(["nm", "-A"] + sorted(objs), capture_output=True,
                       text=True)
    if r.returncode:
        sys.exit("nm failed: %s" % r.stderr)
    for ln in r.stdout.splitlines():
        o, _, rest = ln.partition(":")
        if o not in objs:
            sys.exit("nm -A: cannot read the line '%s'" % ln)
        d, u = out[objs[o]]
        p = rest.split()
        if len(p) == 2 and p[0] == "U":
            u.add(p[1])
        elif len(p) == 3 and p[1] in "BCDGRSTVW":
            d.add(p[2])     # upper case: global definitions
    return out


def calls(syms):
    """{(caller, callee): sorted symbols} between files."""
    owner = {}
    for f, (d, _) in sorted(syms.items()):
        for s in d:
            owner.setdefault(s, f)
    edges = {}
    for f, (_, u) in syms.items():
        for s in u:
            g = owner.get(s)
            if g and g != f:
                edges.setdefault((f, g), set()).add(s)
    return {k: sorted(v) for k, v in edges.items()}


def folder(f):
    parts = f.split("/")
    return parts[1] + "/" if len(parts) > 2 else parts[1]


def cycles(edges):
    """Strongly connected components (more than one folder) of the
    folder graph, each with the calls that close it."""
    g = {}
    for (a, b), s in edges.items():
        fa, fb = folder(a), folder(b)
        if fa != fb:
            g.setdefault(fa, {}).setdefault(fb, (a, b, s[0]))
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, {})):
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
                out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in sorted(g):
        if v not in index:
            visit(v)
    return [(c, [(a, b, g[a][b]) for a in c for b in sorted(g[a])
                 if b in c]) for c in out]


def main():
    src, obj_top = sys.argv[1], sys.argv[2]
    doc = sys.argv[3] if len(sys.argv) > 3 else \
        os.path.join(src, "doc/design.md")
    stages, allowed = read_doc(doc)
    stage, bad = stage_of_files(src, stages)
    syms = symbols(obj_top, src)
    if len(syms) < 30:
        print("only %d objects under %s: build first" % (len(syms),
                                                          obj_top))
        return 1
    edges = calls(syms)
    used, between = set(), {}
    for (a, b), s in sorted(edges.items()):
        if a not in stage or b not in stage:
            continue
        sa, sb = stage[a], stage[b]
        if sa != sb:
            between.setdefault((sa, sb), 0)
            between[(sa, sb)] += 1
        if sb >= sa:
            continue
        if (a, b) in allowed:
            used.add((a, b))
            continue
        bad.append("%s (%s) calls up into %s (%s): %s" %
                   (a, stages[sa][0], b, stages[sb][0], " ".join(s)))
    for (a, b) in sorted(set(allowed) - used):
        bad.append("the exception %s -> %s is no call upward any more: "
                   "remove its row" % (a, b))
    print("%d objects, %d calls between files, %d stages:" %
          (len(syms), len(edges), len(stages)))
    for i, (name, _) in enumerate(stages):
        below = sorted(b for (a, b) in between if a == i)
        print("  %s -> %s" % (name, ", ".join(stages[b][0] for b in below)
                              if below else "(nothing)"))
    cyc = cycles(edges)
    print("%d cycles between folders:" % len(cyc))
    for comp, closing in cyc:
        print("  " + " ".join(comp))
        for a, b, (fa, fb, s) in closing:
            print("    %s -> %s (%s calls %s's %s)" % (a, b, fa, fb, s))
        bad.append("a cycle between folders: %s" % " ".join(comp))
    for b in bad:
        print(b)
    if bad:
        return 1
    print("ok: every call goes down the stages (%d upward allowed), "
          "no cycle between folders" % len(allowed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
