"""The shape of a JSON document, for comparing iorig's fio layouts with
fio's own (tests 152, 160, 162): the set of key paths ("/jobs[]/read/iops";
a list is read by its first object), with each value's Python type name
when kind=True. The keys under bins, percentile and options hold values,
not structure, and are left out. Tests import it with tests/cli on
sys.path."""


def keys(o, p="", kind=False):
    out = set()
    if isinstance(o, list) and o and isinstance(o[0], dict):
        return keys(o[0], p + "[]", kind)
    if isinstance(o, dict):
        for k, v in o.items():
            if p.endswith(("bins", "percentile", "options")):
                continue
            # int and float apart: typed readers (Go's) fail on the other
            out.add((p + "/" + k, type(v).__name__) if kind else p + "/" + k)
            out |= keys(v, p + "/" + k, kind)
    return out
