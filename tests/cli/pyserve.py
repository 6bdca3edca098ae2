# One Python for all of a test's Python calls that go through py_served
# (tests/cli/lib.sh: json and the others, and every call of a guest
# case). A start of python3 costs about 40 ms of CPU here and most of a
# second in the test guest's emulator. This process starts once per test
# and runs each call's program in a namespace of its own, as python3
# would have run it, with the caller's standard streams, arguments,
# working directory and exit status. It ends when the process PID
# (argv[2], the test's shell) has ended, with status 0 (its only way to
# end so), having removed DIR.
#
# DIR (argv[1]) holds two FIFOs, req and resp, and the arguments of a
# call, one file each (a.0, a.1, ...); this writes its process id into
# DIR/pid. A call: the caller writes its arguments, then a line
# "PID ARGC" into req; this runs them and writes into resp the exit
# status and how the caller is to copy DIR/err.PID and DIR/out.PID, what the
# program wrote, to its own descriptors 2 and 1 (how()). It holds resp
# open for reading and writing from its start: an answer never waits for
# its reader, and stays in the FIFO until the caller reads it. DIR/lock,
# made by the caller, keeps a second caller out until the first has read
# its answer: the caller then writes "ack" into req, and this removes the
# lock (the next line of req is always that ack: no other caller can
# write a request while the lock is there).
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
import select
import shutil
import signal
import sys
import traceback
# What nearly every call imports, loaded once.
import json  # noqa: F401

d = sys.argv[1]
# The test's shell: a pidfd that reads as ready once it has ended (none
# before Linux 5.3: then the test's end or its time limit kills this).
try:
    watch = os.pidfd_open(int(sys.argv[2])) if len(sys.argv) > 2 else None
except (AttributeError, OSError):
    watch = None
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
        try:
            stdin = open(fd + "0", encoding="utf-8")
        except OSError:    # a socket, or gone: as if nothing to read
            stdin = open(os.devnull, encoding="utf-8")
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


resp = os.open(os.path.join(d, "resp"), os.O_RDWR)
with open(os.path.join(d, "pid"), "w", encoding="utf-8") as f:
    f.write("%d\n" % os.getpid())


def request():
    """The next line of req (descriptor 3, which the shell that started
    this holds open for reading and writing, so that it never reads as
    ended), read a byte at a time: a request is answered before the next
    is written; None once the watched process has ended."""
    line = b""
    while not line.endswith(b"\n"):
        if watch is not None:
            ready = select.select([3, watch], [], [])[0]
            if watch in ready and 3 not in ready:
                return None
        line += os.read(3, 1)
    return line.decode("utf-8")


while True:
    line = request()
    if line is None:
        shutil.rmtree(d, ignore_errors=True)
        break
    if line == "ack\n":
        try:
            os.unlink(os.path.join(d, "lock"))
        except FileNotFoundError:
            pass
        continue
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
    # one write of a short line: whole in the FIFO, or not at all
    os.write(resp, ("python3\n" if status is None else status +
                    "\n").encode("utf-8"))
