"""I/Os in flight over time, as the kernel's tracepoints show them (the
text of a trace instance with options/record-tgid set). Shared by the
tests of the depth held (241, 271); they import it with tests/cli on
sys.path."""
import re

_HDR = re.compile(r'^\s*.+?-(\d+)\s+\(\s*(\S+)\)\s+\[\d+\]\s+\S+\s+'
                  r'([\d.]+): (\w+)(.*)$')
_RING = re.compile(r'ring (\S+),')


def events(path):
    """(tid, tgid, time, event name, rest of the line) of each event in
    the trace at path, in the trace's order."""
    for line in open(path):
        m = _HDR.match(line)
        if m:
            yield (m.group(1), m.group(2), float(m.group(3)), m.group(4),
                   m.group(5))


class Rings:
    """The io_uring I/Os of one process: an io_uring_submit_req of its
    thread group adds one in flight (and makes its ring one of the
    process's), an io_uring_complete on one of those rings (from any
    thread: io-wq's, the interrupt's) takes one away."""

    def __init__(self, tgid):
        self.tgid = tgid
        self.rings = set()

    def delta(self, tgid, name, rest):
        """+1, -1 or 0: what the event changes in flight."""
        r = _RING.search(rest)
        if not r:
            return 0
        if name == 'io_uring_submit_req' and tgid == self.tgid:
            self.rings.add(r.group(1))
            return 1
        if name == 'io_uring_complete' and r.group(1) in self.rings:
            return -1
        return 0


def mean(ev, a, b):
    """The time-averaged I/Os in flight over [a, b], ev the changes
    [(time, delta)] in time order, from nothing in flight at the first."""
    cur, area, last = 0, 0.0, ev[0][0]
    for t, d in ev:
        lo, hi = max(last, a), min(t, b)
        if hi > lo:
            area += cur * (hi - lo)
        cur += d
        last = t
    return area / (b - a)


def middle(ev):
    """mean() over the middle 80% of ev's span: the queue full, not
    filling or draining."""
    t0, t1 = ev[0][0], ev[-1][0]
    span = t1 - t0
    return mean(ev, t0 + span / 10, t1 - span / 10)


def linger_share(waits):
    """The share of the time from the first to the last of waits [(time,
    lingering)], the waiting io_uring_enter calls of one process in time
    order, that went to lingering waits: each wait's kind holds until
    the next (a job waits the same way until its linger's trial, depth.c,
    changes it), so a lingering wait's gap to the next counts."""
    if len(waits) < 2:
        return 0.0
    on = sum(b[0] - a[0] for a, b in zip(waits, waits[1:]) if a[1])
    span = waits[-1][0] - waits[0][0]
    return on / span if span > 0 else 0.0
