#!/bin/sh
# The keys of iorig's JSON document are spelled in two files: its writer
# (src/report/json.c) and its reader (src/result/json_read.c); everything
# else that reads a result (merge, plot, html, --baseline) reads the
# result model. Read from the sources:
# - the reader reads no key the writer does not write (a misspelt key
#   would read as missing), and every key the writer writes is read back
#   or derived again from what is (the list below says which and why);
# - only the files listed below use jansson at all, each with its reason;
# - of those, the ones that write or read fio's layouts spell no key of
#   iorig's document that is not also fio's: the outside truth is the
#   JSON Debian's fio 3.33 writes (json+, unified_rw_reporting,
#   steadystate, a global section, a file with disk stats), and fio's
#   client layout keys (checked against fio itself by tests 170, 232).
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null 2>&1 || die "no fio: the Makefile's deps install it"
cat >k.fio <<EOF
[global]
ioengine=psync
[k]
filename=$T/k.dat
size=1m
rw=randrw
lat_percentiles=1
unified_rw_reporting=both
steadystate=iops:50%
ss_dur=1s
ss_ramp=0
runtime=2s
time_based
EOF
fio k.fio --output-format=json+ >fio.json 2>fio.err ||
	die "fio failed: $(cat fio.err)"

"$PY" - "$top" fio.json <<'PYEOF' || die "JSON keys are spelled outside the writer and the reader"
import glob, json, os, re, sys
top, fio_json = sys.argv[1], sys.argv[2]

# Files that may use jansson, and why.
ALLOWED = {
    "src/report/json.c": "iorig's document: the writer",
    "src/result/json_read.c": "iorig's document: the reader",
    "src/result/jdom.c": "the reader's JSON tree: jansson reads what its "
                         "fast parser does not take (no key of its own)",
    "src/lib/jsonw.c": "the writers' helpers (no key of its own)",
    "include/jsonw.h": "the writers' helpers",
    "include/report.h": "the JSON writer's interface (a document, a "
                        "stream line)",
    "src/run/stream.c": "writes the --stream lines json.c makes",
    "src/report/fio_json.c": "fio's layout (fio-json, json+): fio's keys",
    "src/report/fio_common.c": "fio's layouts: fio's keys",
    "src/report/fio_int.h": "fio's layouts",
    "src/report/cluster_fio.c": "fio's client layout: fio's keys",
    "src/report/plot.c": "fio's own JSON results, read for iorig plot: fio's "
                  "keys",
    "src/face/histcmd.c": "iorig history --json: documents of its own, the "
                     "rows of the history database (never a result's "
                     "document: show --result prints the stored text)",
}
# Of those, the ones whose documents are not iorig's result: they spell
# their own keys.
OWN_DOCS = ["src/face/histcmd.c"]
FIO_FILES = ["src/report/fio_json.c", "src/report/fio_common.c",
             "src/report/cluster_fio.c", "src/report/plot.c"]
# Keys of fio's client layout (fio --client), which a plain fio run does
# not write: tests 170 and 232 compare them with fio's own client.
FIO_CLIENT = {"client_stats", "hostname", "port"}
# Keys the writer writes that the reader does not read: it derives them
# again from what it reads, as the writer derived them.
DERIVED = {
    "iops", "bw_bytes",             # rates: I/Os and bytes over runtime
    "depth_mean",                   # clat's exact sum over runtime
    "achieved_bw_bytes", "achieved_iops",   # a paced direction's
    "percentiles",                  # from the buckets and the options
    "us_per_io", "cpu_pct", "lat_mean_ns", "lat_p99_ns", "reqs",
    "utime_ns", "stime_ns",         # the summary row (phase CPU read)
    "mixed",                        # unified_rw_reporting's sum
    "iops_mean", "bw_mean_bytes", "lat_mean_ns",   # a window's means
    "message",                      # first_error's: strerror(errno)
    "util_pct",                     # disk_util: ticks over watched time
    "summary",                      # result_row of the unit
    "time",                         # ISO of timestamp
    "function", "metric", "op",     # a check's: its expr parsed again
    "n",                            # repeats: each figure's runs
    "nmembers", "nhosts",           # the cluster's: its lists' lengths
    "index",                        # the --stream lines' (no reader)
    "health_delta",                 # nvme: health_after - health_before
}

def code(path):
    t = open(os.path.join(top, path)).read()
    t = re.sub(r"/\*.*?\*/", " ", t, flags=re.S)
    return re.sub(r"//[^\n]*", " ", t)

ARG = r"(?:[^,()]|\([^()]*(?:\([^()]*\))?[^()]*\))+"
def keys_of(t, calls):
    pat = r"\b(?:%s)\s*\(\s*%s,\s*(?:%s,\s*)?\"([^\"\\]*)\"" % (
        "|".join(calls), ARG, ARG)
    return set(re.findall(pat, t))

writer = code("src/report/json.c")
reader = code("src/result/json_read.c")
wk = keys_of(writer, ["jw_put", "json_object_set_new", "json_object_set"])
rk = keys_of(reader, ["get", "u64", "num", "str", "is_true",
                      "unless_false", "hex"])
bad = []
if len(wk) < 150 or len(rk) < 100:
    bad.append("only %d writer and %d reader keys found: the patterns "
               "no longer match the sources" % (len(wk), len(rk)))
# The verify by_class keys are the class names (verify_class_name), the
# repeats and baseline figures' the metric names: read by name, not
# spelled.
extra = rk - wk - {"fio version"}
if extra:
    bad.append("json_read.c reads keys json.c never writes: %s" %
               sorted(extra))
unread = wk - rk - DERIVED
if unread:
    bad.append("json.c writes keys json_read.c neither reads nor "
               "derives (add them to the reader, or to DERIVED with "
               "the reason): %s" % sorted(unread))

srcs = [os.path.relpath(p, top) for p in
        glob.glob(top + "/src/**/*.[ch]", recursive=True) +
        glob.glob(top + "/include/*.h")]
for p in sorted(srcs):
    t = code(p)
    uses = re.search(r"#include <jansson.h>|\bjson_\w+\s*\(|\bjw_\w+\s*\(",
                     t)
    if uses and p not in ALLOWED:
        bad.append("%s uses jansson (%s): read the result model "
                   "(result.h) instead, or allow it here with the reason"
                   % (p, uses.group(0)))
    if p in ALLOWED and p not in FIO_FILES and p not in OWN_DOCS and \
       p not in ("src/report/json.c", "src/result/json_read.c"):
        k = keys_of(t, ["json_object_get", "json_object_set_new",
                        "json_object_set", "jw_put"])
        if k:
            bad.append("%s spells JSON keys %s" % (p, sorted(k)))

def fio_keys(o, out):
    if isinstance(o, dict):
        for k, v in o.items():
            out.add(k)
            if k not in ("bins", "percentile", "job options",
                         "global options"):
                fio_keys(v, out)
    elif isinstance(o, list):
        for v in o:
            fio_keys(v, out)
    return out
fk = fio_keys(json.load(open(fio_json)), set()) | FIO_CLIENT
for p in FIO_FILES:
    lits = keys_of(code(p), ["json_object_get", "json_object_set_new",
                             "json_object_set", "jw_put", "fstr", "fnum"])
    iorig_only = sorted((lits & wk) - fk)
    if iorig_only:
        bad.append("%s spells keys of iorig's document that fio's JSON "
                   "does not have: %s" % (p, iorig_only))
for b in bad:
    print("FAILED:", b)
print("%d writer keys, %d reader keys; jansson in %d files" %
      (len(wk), len(rk), len(ALLOWED)))
sys.exit(1 if bad else 0)
PYEOF
echo "ok: iorig's JSON keys are spelled by its writer and its reader"
