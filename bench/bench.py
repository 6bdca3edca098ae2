#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Helpers for bench/run.sh: measure a command, pull figures out of the
JSON either tool wrote, and summarise rounds into medians and ratios.

  bench.py measure OUT.time -- CMD [ARGS...]
      Run CMD, wait for it with wait4() and write the child's whole
      resource usage (all its threads and every descendant it reaped) as
      JSON to OUT.time. Exits with CMD's status.

  bench.py extract TOOL OUT.json OUT.time
      TOOL is iorig, fio or tio (fio's t/io_uring, whose text output is
      OUT.json here). Print one JSON object of figures (see FIELDS).

  bench.py summary SCENARIO DIR ROUNDS METRIC...
      METRIC is key:label:op:target[:A/B] with op one of ge, le, within,
      info; A and B name two sides of the scenario (default iorig/fio) and
      the ratio is A/B of the same round. within: |ratio - 1| <= target.
      Read DIR/r<N>.<side>.vals, print the per-round block to stdout and
      append one TSV row per metric to DIR/../summary.tsv.

  bench.py show R.vals
      Print some figures of one run, for progress lines.

  bench.py table SUMMARY.tsv
      Print the final table.
"""

import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time

def die(msg):
	sys.stderr.write("bench.py: %s\n" % msg)
	sys.exit(2)


def iowq_threads(pid):
	"""The iou-wrk-* threads of pid and of its descendants (fio runs its
	jobs in child processes), by thread id."""
	found, todo = set(), [pid]
	while todo:
		p = todo.pop()
		try:
			tids = os.listdir("/proc/%d/task" % p)
		except OSError:
			continue
		for tid in tids:
			base = "/proc/%d/task/%s/" % (p, tid)
			try:
				with open(base + "comm") as c:
					if c.read().startswith("iou-wrk"):
						found.add(tid)
				with open(base + "children") as c:
					todo.extend(int(x) for x in c.read().split())
			except (OSError, ValueError):
				pass
	return found


def cmd_measure(argv):
	if len(argv) < 3 or argv[1] != "--":
		die("usage: measure OUT.time -- CMD...")
	out, cmd = argv[0], argv[2:]
	t0 = time.monotonic()
	try:
		pid = subprocess.Popen(cmd).pid
	except OSError as e:
		die("cannot run %s: %s" % (cmd[0], e))
	# ^C reaches the child through the process group; let it report and
	# exit, and still record its usage.
	signal.signal(signal.SIGINT, signal.SIG_IGN)
	# Meanwhile, every 50 ms, the io_uring worker threads (iou-wrk-*) the
	# kernel gave the process: how many of them did the reads explains
	# much of an unpinned io_uring run's speed on a device that needs them.
	iowq = set()
	while True:
		try:
			wpid, status, ru = os.wait4(pid, os.WNOHANG)
		except InterruptedError:
			continue
		if wpid:
			break
		iowq |= iowq_threads(pid)
		time.sleep(0.05)
	wall = time.monotonic() - t0
	rc = os.waitstatus_to_exitcode(status)
	with open(out, "w") as f:
		json.dump({"rc": rc, "wall_s": wall, "utime_s": ru.ru_utime,
			   "stime_s": ru.ru_stime, "maxrss_kb": ru.ru_maxrss,
			   "nvcsw": ru.ru_nvcsw, "nivcsw": ru.ru_nivcsw,
			   "iowq_workers": len(iowq)}, f)
		f.write("\n")
	sys.exit(rc if rc >= 0 else 128 - rc)


def load_json(path):
	"""A tool's JSON output; tolerate text before the first '{'."""
	with open(path, errors="replace") as f:
		text = f.read()
	start = text.find("{")
	if start < 0:
		raise ValueError("no JSON object in %s" % path)
	obj, _ = json.JSONDecoder().raw_decode(text[start:])
	return obj


def num(d, *path):
	for k in path:
		if not isinstance(d, dict) or k not in d:
			return None
		d = d[k]
	return d if isinstance(d, (int, float)) else None


def first(*vals):
	for v in vals:
		if v is not None:
			return v
	return None


def job_figures(tool, job):
	"""Per job: read/write IOPS and I/O counts, self-reported CPU seconds."""
	r = {}
	for ddir in ("read", "write"):
		r[ddir + "_iops"] = num(job, ddir, "iops") or 0.0
		if tool == "fio":
			r[ddir + "_ios"] = num(job, ddir, "total_ios") or 0
		else:
			r[ddir + "_ios"] = first(num(job, ddir, "ios"),
						 num(job, ddir, "total_ios")) or 0
	if tool == "fio":
		# usr_cpu/sys_cpu: percent of the job's runtime (ms).
		rt = num(job, "job_runtime")
		usr, sys_ = num(job, "usr_cpu"), num(job, "sys_cpu")
		if rt is not None and usr is not None:
			r["self_usr_s"] = usr / 100.0 * rt / 1000.0
			r["self_sys_s"] = (sys_ or 0) / 100.0 * rt / 1000.0
		r["read_clat_mean"] = num(job, "read", "clat_ns", "mean")
		r["read_clat_p50"] = num(job, "read", "clat_ns", "percentile",
					 "50.000000")
	else:
		u = first(num(job, "cpu", "user_ns"), num(job, "cpu", "utime_ns"))
		s = first(num(job, "cpu", "sys_ns"), num(job, "cpu", "stime_ns"))
		if u is not None:
			r["self_usr_s"] = u / 1e9
			r["self_sys_s"] = (s or 0) / 1e9
		r["read_clat_mean"] = num(job, "read", "clat_ns", "mean")
		r["read_clat_p50"] = num(job, "read", "clat_ns", "percentiles",
					 "50")
	return r


def time_figures(tool, tpath):
	"""What measure wrote: (the time file, the figures from it); the
	figures have "error" set when the tool failed."""
	with open(tpath) as f:
		t = json.load(f)
	out = {"wall_s": t["wall_s"], "ext_usr_s": t["utime_s"],
	       "ext_sys_s": t["stime_s"],
	       "iowq_workers": t.get("iowq_workers", 0)}
	# CPU time over wall time: below 100% for a CPU-bound run pinned to
	# one CPU means something else had that CPU for a while.
	if t["wall_s"] > 0:
		out["cpu_busy_pct"] = 100.0 * (t["utime_s"] + t["stime_s"]) \
			/ t["wall_s"]
	if t["rc"] != 0:
		out["error"] = "%s exited with status %d" % (tool, t["rc"])
	return t, out


def extract(tool, jpath, tpath):
	t, out = time_figures(tool, tpath)
	if "error" in out:
		return out
	doc = load_json(jpath)
	jobs = doc.get("jobs") or []
	if not jobs:
		out["error"] = "no jobs in %s" % jpath
		return out
	figs = [job_figures(tool, j) for j in jobs]
	# Jobs ran side by side: IOPS and I/O counts add up.
	out["read_iops"] = sum(f["read_iops"] for f in figs)
	out["write_iops"] = sum(f["write_iops"] for f in figs)
	out["iops"] = out["read_iops"] + out["write_iops"]
	ios = sum(f["read_ios"] + f["write_ios"] for f in figs)
	out["ios"] = ios
	if ios > 0:
		out["ext_usr_ns_per_io"] = t["utime_s"] * 1e9 / ios
		out["ext_sys_ns_per_io"] = t["stime_s"] * 1e9 / ios
		out["ext_cpu_ns_per_io"] = (t["utime_s"] + t["stime_s"]) * 1e9 / ios
		if all("self_usr_s" in f for f in figs):
			out["self_usr_ns_per_io"] = \
				sum(f["self_usr_s"] for f in figs) * 1e9 / ios
			out["self_sys_ns_per_io"] = \
				sum(f["self_sys_s"] for f in figs) * 1e9 / ios
	# Latencies of several jobs do not add up: single-job runs only.
	if len(figs) == 1 and figs[0]["read_clat_mean"] is not None:
		out["read_clat_mean_ns"] = figs[0]["read_clat_mean"]
	if len(figs) == 1 and figs[0]["read_clat_p50"] is not None:
		out["read_clat_p50_ns"] = figs[0]["read_clat_p50"]
	return out


def extract_tio(opath, tpath):
	"""fio's t/io_uring prints IOPS=...K once a second: their mean over
	the run (its own 'Maximum IOPS' is the best second, which would
	flatter it), times the wall time for an I/O count."""
	t, out = time_figures("t/io_uring", tpath)
	if "error" in out:
		return out
	mult = {"": 1.0, "K": 1e3, "M": 1e6}
	secs = []
	with open(opath, errors="replace") as f:
		for line in f:
			m = re.match(r"IOPS=([0-9.]+)([KM]?),", line)
			if m:
				secs.append(float(m.group(1)) * mult[m.group(2)])
	if not secs:
		out["error"] = "no IOPS= lines in %s" % opath
		return out
	out["read_iops"] = out["iops"] = statistics.mean(secs)
	out["write_iops"] = 0.0
	ios = out["iops"] * t["wall_s"]
	out["ios"] = ios
	if ios > 0:
		out["ext_usr_ns_per_io"] = t["utime_s"] * 1e9 / ios
		out["ext_sys_ns_per_io"] = t["stime_s"] * 1e9 / ios
		out["ext_cpu_ns_per_io"] = (t["utime_s"] + t["stime_s"]) * 1e9 / ios
	return out


def cmd_extract(argv):
	if len(argv) != 3 or argv[0] not in ("iorig", "fio", "tio"):
		die("usage: extract iorig|fio|tio OUT.json OUT.time")
	try:
		if argv[0] == "tio":
			out = extract_tio(argv[1], argv[2])
		else:
			out = extract(*argv)
	except (OSError, ValueError, KeyError) as e:
		out = {"error": str(e)}
	json.dump(out, sys.stdout)
	sys.stdout.write("\n")


def human(v, key):
	if v is None:
		return "n/a"
	if key.endswith("iops"):
		for div, suf in ((1e6, "M"), (1e3, "k")):
			if abs(v) >= div:
				return "%.2f%s" % (v / div, suf)
		return "%.0f" % v
	if key.endswith("_pct"):
		return "%.0f%%" % v
	if key.endswith("_ns") or "_ns_" in key:
		if abs(v) >= 1e6:
			return "%.2f ms" % (v / 1e6)
		if abs(v) >= 1e4:
			return "%.1f us" % (v / 1e3)
		return "%.1f ns" % v
	if key.endswith("_s"):
		return "%.2f s" % v
	return "%.4g" % v


def load_vals(path):
	try:
		with open(path) as f:
			return json.load(f)
	except (OSError, ValueError):
		return {"error": "missing " + os.path.basename(path)}


def median(xs):
	return statistics.median(xs) if xs else None


def verdict(op, target, ratio):
	if op == "info":
		return "-"
	if ratio is None:
		return "ERROR"
	if op == "ge":
		ok = ratio >= target
	elif op == "le":
		ok = ratio <= target
	else:
		ok = abs(ratio - 1.0) <= target + 1e-9
	return "PASS" if ok else "MISS"


def target_text(op, target):
	if op == "info":
		return "-"
	if op == "within":
		return "%.2f..%.2f" % (1.0 - target, 1.0 + target)
	return "%s%.2f" % (">=" if op == "ge" else "<=", target)


def parse_metric(m):
	f = m.split(":")
	if len(f) not in (4, 5) or f[2] not in ("ge", "le", "within", "info"):
		die("bad metric %r (key:label:ge|le|within|info:target[:A/B])"
		    % m)
	pair = (f[4] if len(f) == 5 else "iorig/fio").split("/")
	if len(pair) != 2 or not all(pair):
		die("bad side pair in metric %r" % m)
	return f[0], f[1], f[2], float(f[3]), pair[0], pair[1]


def cmd_summary(argv):
	if len(argv) < 4:
		die("usage: summary SCENARIO DIR ROUNDS METRIC...")
	scn, d, rounds = argv[0], argv[1], int(argv[2])
	metrics = [parse_metric(m) for m in argv[3:]]
	sides = []
	for m in metrics:
		for side in m[4:]:
			if side not in sides:
				sides.append(side)
	vals = {side: [load_vals(os.path.join(d, "r%d.%s.vals" % (i, side)))
		       for i in range(1, rounds + 1)]
		for side in sides}
	print("   per round, A/B=ratio:")
	errors = []
	for side in sides:
		for i, v in enumerate(vals[side], 1):
			if "error" in v:
				errors.append("round %d %s: %s" % (i, side, v["error"]))
	for e in errors:
		print("   error: " + e)
	rows = []
	for key, label, op, target, a, b in metrics:
		iv = [v.get(key) for v in vals[a]]
		fv = [v.get(key) for v in vals[b]]
		ratios = [x / y if x is not None and y else None
			  for x, y in zip(iv, fv)]
		print("   %-42s " % ("%s %s/%s" % (label, a, b)) + "  ".join(
			"%s/%s=%s" % (human(x, key), human(y, key),
				      "%.2f" % r if r is not None else "n/a")
			for x, y, r in zip(iv, fv, ratios)))
		im = median([x for x in iv if x is not None])
		fm = median([x for x in fv if x is not None])
		rm = median([x for x in ratios if x is not None])
		rows.append([scn, label, "%s/%s" % (a, b), human(im, key),
			     human(fm, key),
			     "%.2f" % rm if rm is not None else "n/a",
			     " ".join("%.2f" % r if r is not None else "n/a"
				      for r in ratios),
			     target_text(op, target), verdict(op, target, rm)])
	with open(os.path.join(d, "..", "summary.tsv"), "a") as f:
		for r in rows:
			f.write("\t".join(r) + "\n")
	# Non-zero when a target could not be judged for lack of numbers.
	sys.exit(1 if any(r[-1] == "ERROR" for r in rows) else 0)


def cmd_show(argv):
	"""One figure of a .vals file, human-readable, for progress lines."""
	v = load_vals(argv[0])
	if "error" in v:
		print("error: " + v["error"])
	else:
		print("%s IOPS, user %s/IO, sys %s/IO, %.2f s wall, "
		      "%s CPU busy" % (
			human(v.get("iops"), "iops"),
			human(v.get("ext_usr_ns_per_io"), "_ns"),
			human(v.get("ext_sys_ns_per_io"), "_ns"), v["wall_s"],
			human(v.get("cpu_busy_pct"), "_pct")))


def cmd_table(argv):
	head = ["scenario", "metric", "A/B", "A med", "B med", "med ratio",
		"ratio per round", "target", "result"]
	rows = []
	try:
		with open(argv[0]) as f:
			rows = [l.rstrip("\n").split("\t") for l in f if l.strip()]
		rows = [(r + [""] * len(head))[:len(head) - 1] + [r[-1]]
			for r in rows]
	except OSError:
		pass
	if not rows:
		print("(no results)")
		return
	w = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
	line = lambda r: "  ".join(c.ljust(w[i]) for i, c in enumerate(r)).rstrip()
	print(line(head))
	print(line(["-" * x for x in w]))
	for r in rows:
		print(line(r))


def main():
	if len(sys.argv) < 2:
		die("usage: bench.py measure|extract|summary|table ...")
	cmds = {"measure": cmd_measure, "extract": cmd_extract,
		"summary": cmd_summary, "show": cmd_show,
		"table": cmd_table}
	if sys.argv[1] not in cmds:
		die("unknown command " + sys.argv[1])
	cmds[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
	main()
