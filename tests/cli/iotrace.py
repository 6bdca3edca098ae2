"""The I/Os a tool made, read from outside it: strace's pread64/pwrite64
lines and fio's write_iolog (v3). Shared by the access-pattern tests
(115, 116); they import it with tests/cli on sys.path."""
import os
import re
import subprocess

_PIO = re.compile(r"p(?:read|write)64\((\d+)(<[^>]*>)?, [^,]*, (\d+), "
                  r"(\d+)\)\s+= (\d+)")


def strace_pio(cmd, trace, paths=None):
    """Runs cmd under strace (pread64 and pwrite64 only, into trace);
    returns (CompletedProcess, [(offset, length), ...]) in call order.
    With paths (a list of file names), only the calls on those files, and
    the list holds (file index, offset, length) instead."""
    full = ["strace", "-f", "-qq", "-s0", "-e", "trace=pread64,pwrite64",
            "-o", trace] + (["-y"] if paths else []) + list(cmd)
    r = subprocess.run(full, capture_output=True, text=True)
    out = []
    real = [os.path.realpath(p) for p in paths or []]
    if os.path.exists(trace):
        for line in open(trace):
            m = _PIO.search(line)
            if not m:
                continue
            io = (int(m.group(4)), int(m.group(3)))
            if paths:
                name = (m.group(2) or "<>")[1:-1]
                if name not in real:
                    continue
                io = (real.index(name),) + io
            out.append(io)
    return r, out


def fio_iolog(path):
    """(offset, length) of every read and write in a fio iolog v3
    (TIME FILE ACTION OFFSET LENGTH lines)."""
    out = []
    for line in open(path):
        w = line.split()
        if len(w) == 5 and w[2] in ("read", "write"):
            out.append((int(w[3]), int(w[4])))
    return out
