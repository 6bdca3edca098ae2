# One Python for all of a guest case's Python calls (tests/guest/lib.sh,
# py_served). In the emulator each start of python3 costs most of a
# second; a case makes up to twenty. This process starts once per case
# and runs each call's program in a namespace of its own, as python3
# would have run it, with the caller's standard streams, arguments,
# working directory and exit status.
#
# DIR (argv[1]) holds two FIFOs, req and resp, and the arguments of a
# call, one file each (a.0, a.1, ...); this writes its process id into
# DIR/pid. A call: the caller writes its arguments, then a line
# "PID ARGC" into req; this runs them and writes into resp the exit
# status and how the caller is to copy DIR/err.PID and DIR/out.PID, what the
# program wrote, to its own descriptors 2 and 1 (how()), having removed
# DIR/lock (the caller's, which keeps a second caller out until then).
# The caller writes them itself: a file this opened anew would not move
# the shell's own offset, and the shell's next write would land on them.
# PID is the calling shell's process: its descriptor 0 (/proc/PID/fd/0)
# is the call's standard input (read from its start where it is a
# file), its working directory the call's. What python3 would take but
# this does not (an option other than -S, -u, -I, -B, -E, -s; -m; no
# program), it answers "python3": the caller then starts python3 itself.
# Not passed: the environment (the calls read none). It runs with the
# site module, so that a call without -S finds what it would.
import ctypes
import os
import signal
import sys
import traceback
# What nearly every call imports, loaded once.
import json  # noqa: F401

d = sys.argv[1]
# Ends with the shell that started it (a case that ended before this
# wrote its process id could not kill it).
parent = os.getppid()
ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
if os.getppid() != parent:
    sys.exit(0)
home = os.getcwd()
flags = {"-S", "-u", "-I", "-B", "-E", "-s"}


def run(pid, argv):
    """Runs one call: "STATUS HOW-ERR HOW-OUT" (how()), or None for
    'start python3'."""
    i = 0
    while i < len(argv) and argv[i] in flags:
        i += 1
    if i == len(argv):
        return None
    fd = "/proc/%d/fd/" % pid
    stdin = None
    if argv[i] == "-c" and i + 1 < len(argv):
        code, name, args = argv[i + 1], "<string>", ["-c"] + argv[i + 2:]
    elif argv[i] == "-":
        with open(fd + "0", encoding="utf-8") as f:
            code = f.read()
        name, args = "<stdin>", argv[i:]
        stdin = open(os.devnull, encoding="utf-8")
    elif not argv[i].startswith("-"):
        with open(argv[i], encoding="utf-8") as f:
            code = f.read()
        name, args = argv[i], argv[i:]
    else:
        return None
    if stdin is None:
        stdin = open(fd + "0", encoding="utf-8")
    out = open(os.path.join(d, "out.%d" % pid), "w", encoding="utf-8")
    err = open(os.path.join(d, "err.%d" % pid), "w", encoding="utf-8")
    saved = sys.stdin, sys.stdout, sys.stderr, sys.argv
    sys.stdin, sys.stdout, sys.stderr, sys.argv = stdin, out, err, args
    status = 0
    try:
        os.chdir(os.readlink("/proc/%d/cwd" % pid))
        exec(compile(code, name, "exec"), {"__name__": "__main__"})
    except SystemExit as e:
        if e.code is None:
            status = 0
        elif isinstance(e.code, int):
            status = e.code & 0xff
        else:
            print(e.code, file=err)
            status = 1
    except BaseException as e:
        # from the program's own frame on, as python3 prints it
        traceback.print_exception(type(e), e, e.__traceback__.tb_next,
                                  file=err)
        status = 1
    finally:
        sys.stdin, sys.stdout, sys.stderr, sys.argv = saved
        os.chdir(home)
        for f in (out, err, stdin):
            try:
                f.close()
            except OSError:
                status = status or 1
    return "%d %s %s" % (status, how(err), how(out))


def how(f):
    """How the caller writes what f holds: - nothing, t by the shell's
    own read and printf (short text), c by cat."""
    with open(f.name, "rb") as g:
        b = g.read(4097)
    if not b:
        return "-"
    return "t" if len(b) <= 4096 and b"\0" not in b else "c"


with open(os.path.join(d, "pid"), "w", encoding="utf-8") as f:
    f.write("%d\n" % os.getpid())
# Descriptor 3: req, which the shell that started this holds open for
# reading and writing, so that it never reads as ended.
requests = os.fdopen(3, encoding="utf-8")
while True:
    line = requests.readline()
    try:
        pid, argc = (int(x) for x in line.split())
        argv = []
        for k in range(argc):
            with open(os.path.join(d, "a.%d" % k), encoding="utf-8") as f:
                argv.append(f.read())
        status = run(pid, argv)
    except BaseException:
        traceback.print_exc()
        status = "1 - -"
    try:
        os.unlink(os.path.join(d, "lock"))
    except FileNotFoundError:
        pass
    with open(os.path.join(d, "resp"), "w", encoding="utf-8") as f:
        f.write("python3\n" if status is None else status + "\n")
