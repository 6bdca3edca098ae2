"""The one-door lint (tests/cli/210-one-door.sh): every call that opens
for writing, creates, maps, renames or removes a file is in src/lib/door.c
(the door, include/door.h), or on ALLOW below with its reason.

Two witnesses that must agree:
- the sources: each call of a function of CALLS in src/**/*.c, its
  arguments read (a read-only fopen mode or open flags, an anonymous
  mapping are no write);
- the objects (nm -u): a file-changing symbol (unlink, rename, mkdir...)
  is referenced only by door.o and the allowed objects, and an object
  that references open/fopen/mmap has its calls in the source scan (a
  call hidden behind a macro is found this way).

usage: onedoor.py SRC_TOP OBJ_TOP  (exit 0 clean, 1 with the calls listed)
"""
import os
import re
import subprocess
import sys

DOOR = "src/lib/door.c"

# Calls that change a file's name or contents whatever their arguments.
ALWAYS = {"creat", "mkstemp", "mkostemp", "mkstemps", "mkostemps",
          "mkdtemp", "unlink", "unlinkat", "rename", "renameat",
          "renameat2", "link", "linkat", "symlink", "symlinkat", "mkdir",
          "mkdirat", "rmdir", "truncate", "mkfifo", "mkfifoat", "mknod",
          "mknodat", "bind", "remove", "tmpfile"}
# Calls that write only with some arguments.
MAYBE = {"open", "openat", "open64", "openat64", "fopen", "fopen64",
         "freopen", "fdopen", "mmap", "mmap64",
         "posix_spawn_file_actions_addopen"}
CALLS = ALWAYS | MAYBE
WRITE_FLAGS = ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND",
               "O_TMPFILE")

# (file, call): why it is not the door's. Keep it short: a new entry
# needs a reason a reviewer accepts.
ALLOW = {
    ("src/target/target.c", "open"):
        "the targets themselves: made (O_EXCL), laid out and opened as "
        "target_plan checked them (guards, identity at open); an NVMe "
        "generic char device's namespace block device, which resets its "
        "zones under zonemode=zbd (the device guarded, checked at open)",
    ("src/target/chrdev.c", "open"):
        "the targets themselves: an NVMe or SCSI generic char device "
        "opened to ask its size (split out of target.c's planning)",
    ("src/engines/fileop.c", "open"):
        "filecreate's I/O is the create of the job's own files (targets)",
    ("src/engines/mmap.c", "mmap"):
        "the mmap engine's I/O: the job's target mapped",
    ("src/engines/net.c", "bind"):
        "TCP and UDP addresses, no file (a unix socket binds through "
        "door_bind_unix)",
    ("src/thread/cgroup.c", "fopen"):
        "cgroup control files (tasks) under the cgroup mount found in "
        "mountinfo: kernel knobs, not files",
    ("src/thread/cgroup.c", "mkdir"):
        "a control group is a directory of the cgroup file system",
    ("src/thread/cgroup.c", "rmdir"):
        "the control group this run made, removed when its last job left",
    ("src/thread/iosched.c", "fopen"):
        "a disk's queue/scheduler in sysfs: a kernel knob, put back at "
        "the end of the run",
    ("src/face/main.c", "open"):
        "/dev/null as descriptors 0-2 when iorig starts with them closed",
    ("src/face/main.c", "freopen"):
        "/dev/null as standard output of MPI ranks other than 0",
}

# Symbols as the objects name them (glibc's fortified and LFS aliases).
SYM_CALL = {"__open_2": "open", "__open64_2": "open", "open64": "open",
            "__openat_2": "openat", "__openat64_2": "openat",
            "openat64": "openat", "fopen64": "fopen", "mmap64": "mmap",
            "creat64": "creat", "truncate64": "truncate",
            "mkstemp64": "mkstemp", "mkostemp64": "mkostemp",
            "tmpfile64": "tmpfile"}


# A comment (to its end, or the text's) or a string or character literal
# (to its closing quote past escapes, or the text's end), whichever comes
# first: one regular expression instead of a loop per character.
_LEXEME = re.compile(r'/\*.*?(?:\*/|\Z)|//[^\n]*|'
                     r'"(?:\\.|[^"\\])*(?:"|\\?\Z)|'
                     r"'(?:\\.|[^'\\])*(?:'|\\?\Z)", re.S)


def _blank(m):
    t = m.group(0)
    if t.startswith("/*"):
        return re.sub(r"[^\n]", " ", t)
    if t.startswith("//"):
        return " " * len(t)
    return t


def strip_comments(text):
    """Comments blanked (newlines kept), strings and characters kept."""
    return _LEXEME.sub(_blank, text)


def args_of(text, i):
    """The top-level arguments of the call whose '(' is at text[i]."""
    depth, args, cur, j = 0, [], [], i
    while j < len(text):
        c = text[j]
        if c in "\"'":
            k = j + 1
            while k < len(text) and text[k] != c:
                k += 2 if text[k] == "\\" else 1
            cur.append(text[j:k + 1])
            j = k + 1
            continue
        if c == "(":
            depth += 1
            if depth == 1:
                j += 1
                continue
        elif c == ")":
            depth -= 1
            if depth == 0:
                args.append("".join(cur).strip())
                return args
        elif c == "," and depth == 1:
            args.append("".join(cur).strip())
            cur = []
            j += 1
            continue
        cur.append(c)
        j += 1
    return args


def writes(call, args):
    """Whether this call of a MAYBE function can write, create or map a
    file for writing."""
    if call in ("fopen", "fopen64", "freopen", "fdopen"):
        m = re.match(r'"([^"]*)"', args[1] if len(args) > 1 else "")
        return not m or not m.group(1).startswith("r") or "+" in m.group(1)
    if call == "mmap":
        return "MAP_ANONYMOUS" not in " ".join(args)
    if call in ("open", "open64"):
        flags = args[1] if len(args) > 1 else ""
    elif call in ("openat", "openat64"):
        flags = args[2] if len(args) > 2 else ""
    else:  # posix_spawn_file_actions_addopen(fa, fd, path, flags, mode)
        flags = args[3] if len(args) > 3 else ""
    if not re.search(r"\bO_[A-Z]+\b", flags):
        return True     # a variable: cannot tell, so it counts
    return any(re.search(r"\b%s\b" % f, flags) for f in WRITE_FLAGS)


def scan(src):
    """(file, call, line, text) of every writing call outside the door,
    and {file: set of calls seen} of all calls of CALLS."""
    found, seen = [], {}
    pat = re.compile(r"(?<![\w.>])(%s)\s*\(" % "|".join(sorted(CALLS)))
    for root, _, files in os.walk(os.path.join(src, "src")):
        for f in sorted(files):
            if not f.endswith(".c"):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, src)
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = strip_comments(fh.read())
            # strings blanked for the search: "unlink(2)" in a help text
            # is no call
            mask = re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'',
                          lambda q: " " * len(q.group(0)), text)
            for m in pat.finditer(mask):
                call = m.group(1)
                before = mask[:m.start()].rstrip()
                # a declaration or definition, not a call
                if re.search(r"\b(int|void|char|FILE|struct \w+)\s*\**$",
                             before):
                    continue
                seen.setdefault(rel, set()).add(SYM_CALL.get(call, call))
                if rel == DOOR:
                    continue
                args = args_of(text, m.end() - 1)
                if call in ALWAYS or writes(call, args):
                    line = text.count("\n", 0, m.start()) + 1
                    found.append((rel, SYM_CALL.get(call, call), line,
                                  "%s(%s)" % (call, ", ".join(args))))
    return found, seen


def objects(obj_top, src):
    """{source file: set of calls its object references} from nm -u (one
    nm for them all: -A names each line's object)."""
    refs, objs = {}, {}
    for root, _, files in os.walk(os.path.join(obj_top, "src")):
        for f in files:
            if not f.endswith(".o"):
                continue
            o = os.path.join(root, f)
            rel = os.path.relpath(o, obj_top)[:-2] + ".c"
            if not os.path.exists(os.path.join(src, rel)):
                continue
            objs[o] = rel
            refs[rel] = set()
    if not objs:
        return refs
    r = subprocess.run(["nm", "-A", "-u"] + sorted(objs),
                       capture_output=True, text=True)
    if r.returncode:
        sys.exit("nm failed: %s" % r.stderr)
    for ln in r.stdout.splitlines():
        # "OBJECT:                 U name@VERSION"
        o, _, rest = ln.rpartition(":")
        words = rest.split()
        if o not in objs or not words:
            sys.exit("nm -A: cannot read the line '%s'" % ln)
        name = words[-1].split("@")[0]
        name = SYM_CALL.get(name, name)
        if name in CALLS:
            refs[objs[o]].add(name)
    return refs


def main():
    src, obj_top = sys.argv[1], sys.argv[2]
    bad = []
    if not os.path.exists(os.path.join(src, DOOR)):
        print("no %s: there is no door" % DOOR)
        return 1
    found, seen = scan(src)
    for rel, call, line, text in found:
        if (rel, call) not in ALLOW:
            bad.append("%s:%d: %s outside the door (include/door.h)" %
                       (rel, line, text))
    refs = objects(obj_top, src)
    if not refs:
        print("no objects under %s: build first" % obj_top)
        return 1
    for rel, syms in sorted(refs.items()):
        if rel == DOOR:
            continue
        for s in sorted(syms):
            if s in ALWAYS and (rel, s) not in ALLOW:
                bad.append("%s: its object calls %s, which only the door "
                           "may" % (rel, s))
            elif s not in seen.get(rel, set()):
                bad.append("%s: its object calls %s, but no call of it "
                           "is in the source (a macro?)" % (rel, s))
    for (rel, call), why in sorted(ALLOW.items()):
        if call not in refs.get(rel, set()) and \
           call not in seen.get(rel, set()):
            bad.append("ALLOW has %s in %s, which no longer calls it: "
                       "remove the entry" % (call, rel))
    for b in bad:
        print(b)
    if bad:
        return 1
    print("ok: %d objects, every file-changing call in %s or allowed "
          "(%d entries)" % (len(refs), DOOR, len(ALLOW)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
