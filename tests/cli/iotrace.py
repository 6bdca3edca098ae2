"""The I/Os a tool made, read from outside it: strace's pread64/pwrite64
lines and fio's write_iolog (v3). Shared by the access-pattern tests
(115, 116); they import it with tests/cli on sys.path."""
import os
import re
import subprocess

_PIO = re.compile(r"p(?:read|write)64\((\d+), [^,]*, (\d+), (\d+)\)\s+= (\d+)")


def strace_pio(cmd, trace):
    """Runs cmd under strace (pread64 and pwrite64 only, into trace);
    returns (CompletedProcess, [(offset, length), ...]) in call order."""
    full = ["strace", "-f", "-qq", "-s0", "-e", "trace=pread64,pwrite64",
            "-o", trace] + list(cmd)
    r = subprocess.run(full, capture_output=True, text=True)
    out = []
    if os.path.exists(trace):
        for line in open(trace):
            m = _PIO.search(line)
            if m:
                out.append((int(m.group(3)), int(m.group(2))))
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
