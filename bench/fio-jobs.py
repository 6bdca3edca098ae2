#!/usr/bin/env python3
"""Real fio job files, iorig against fio 3.33: parse, then the work done.

    python3 bench/fio-jobs.py DIR [--iorig ./iorig] [--fio fio]
                              [--size 32m] [--only SUBSTRING] [--keep]

DIR holds job files laid out as in their repositories (SOURCES.tsv names
them, last column; without it every *.fio, *.job, *.ini, *.cfg file is
one). Each is read with `--parse-only` by both tools. Those both accept run
short and safe: a copy of the file (and of the files it includes) where
every filename= is a file in a scratch directory (a block device's name
becomes a scratch file of 64 MiB of random data: no real device is ever
opened), directory=
is that scratch directory, byte sizes (size, io_size, filesize, offset)
are at most --size, runtime= 2 s, ramp_time and startdelay 0, numjobs at
most 4, loops at most 2, and the logs land in the scratch directory. A job
whose target the authors gave outside the file or expected to exist (fio:
"you need to specify size=") runs again with its files existing, and with
--filename= an existing 64 MiB scratch file. ${VAR}s get plausible
values (see ENV). Each tool runs in a scratch directory of its own, fio
first; iorig runs as `fio` (argv[0]), so both write fio's JSON, where
the verification's reads are reads. The bytes each moved per direction
(JSON io_bytes, all jobs) are compared: a job that is not time_based and that both finished before its
runtime is size-bound, and there the two must agree within 5%.

Exit status: 0 when every size-bound job agrees and iorig ran every job
fio ran, 1 otherwise. --no-time-based runs only the files without
time_based (the quick ones; all are still parsed). Not a test:
fio's own view of the files is the truth, and it needs fio 3.33.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ENV = {
    "BLOCKSIZE": "4k", "BLOCK_SIZE": "4k", "COMPCHUNK": "4k",
    "COMPPERCENT": "50", "DEVICE": "sdz", "DIRECT": "1",
    "FILESIZE": "16m", "FILE_SIZE": "16m", "FIO_BS": "4k",
    "FIO_IODEPTH": "8", "FIO_RW": "randread", "FTL_BDEV_NAME": "ftl0",
    "FTL_JSON_CONF": "/nonexistent/ftl.json", "IODEPTH": "8", "NJOBS": "2",
    "NUMJOBS": "2", "PERF_COMPCHUNK": "4k", "PERF_COMPPERCENT": "50",
    "PERF_RANDSEED": "1234", "RANDSEED": "1234", "RUNTIME": "2",
    "SIZE": "32m", "SYNC_TYPE": "0", "readwrite": "randrw", "size": "32m",
}
SUFFIXES = (".fio", ".job", ".ini", ".cfg")
UNITS = {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30,
         "t": 1 << 40, "p": 1 << 50}


def job_files(root):
    tsv = os.path.join(root, "SOURCES.tsv")
    if os.path.exists(tsv):
        with open(tsv) as f:
            rows = [ln.rstrip("\n").split("\t") for ln in f][1:]
        return [r[-1] for r in rows if r and r[-1]]
    out = []
    for d, _, names in os.walk(root):
        out += [os.path.relpath(os.path.join(d, n), root) for n in names
                if n.endswith(SUFFIXES)]
    return sorted(out)


def size_of(v):
    """Bytes of a plain size such as 4G, 4Gi, 300g, 100m; None otherwise."""
    m = re.fullmatch(r"\s*(\d+)\s*([kmgtpKMGTP]?)(i?[bB]?)\s*", v)
    if not m:
        return None
    return int(m.group(1)) * UNITS[m.group(2).lower()]


class Shortener:
    """Rewrites the lines of a job file (and its includes) to run safely."""

    def __init__(self, scratch, cap, devices, names):
        self.scratch = scratch
        self.cap = cap
        self.devices = devices      # scratch names of former devices
        self.names = names          # every scratch name given

    def name(self, n):
        n = n.strip()
        if not n:
            return n
        safe = re.sub(r"[^A-Za-z0-9._-]", "_", n.strip("/")) or "f"
        path = os.path.join(self.scratch, safe)
        if n.startswith("/dev/"):
            self.devices.add(path)
        self.names.add(path)
        return path

    def line(self, ln):
        m = re.match(r"^(\s*)([A-Za-z_][A-Za-z0-9_]*)(\s*=\s*)(.*)$", ln)
        if not m:
            return ln
        key, val = m.group(2), m.group(4)
        val = re.split(r"\s+[#;]|(?<=\S)#", val, maxsplit=1)[0].strip()
        lead = m.group(1) + key + "="
        if key == "filename":
            parts = re.split(r"(?<!\\):", val)
            return lead + ":".join(self.name(p) for p in parts)
        if key in ("directory", "opendir"):
            return lead + self.scratch
        if key in ("size", "io_size", "io_limit", "filesize", "offset"):
            b = size_of(val)
            if b is not None and b > self.cap:
                return lead + str(self.cap if key != "offset"
                                  else self.cap // 4)
            return lead + val
        if key in ("runtime", "timeout"):
            return lead + "2"
        if key in ("ramp_time", "startdelay"):
            return lead + "0"
        if key in ("numjobs", "loops"):
            try:
                return lead + str(min(int(val), 4 if key == "numjobs"
                                      else 2))
            except ValueError:
                return lead + val
        if key in ("write_bw_log", "write_iops_log", "write_lat_log",
                   "write_hist_log", "write_iolog"):
            base = os.path.basename(val) or "log"
            return lead + os.path.join(self.scratch, base)
        return ln


def shorten(src_root, rel, dest, scratch, cap):
    """Copies rel and every file of its folder into dest, rewritten."""
    devices, names = set(), set()
    sh = Shortener(scratch, cap, devices, names)
    sdir = os.path.dirname(os.path.join(src_root, rel))
    for n in os.listdir(sdir):
        p = os.path.join(sdir, n)
        if not os.path.isfile(p):
            continue
        with open(p, errors="replace") as f:
            text = f.read()
        with open(os.path.join(dest, n), "w") as f:
            f.write("\n".join(sh.line(ln) for ln in text.split("\n")))
    return os.path.join(dest, os.path.basename(rel)), devices, names


def run(tool, args, cwd, env, timeout=120):
    try:
        r = subprocess.run([tool] + args, cwd=cwd, env=env, timeout=timeout,
                           capture_output=True, text=True)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return -1, "", "timeout"


def work(out):
    """(read, write, trim bytes, longest job runtime ms, time_based)."""
    i = out.find("{")
    d = json.loads(out[i:])
    rd = wr = tr = 0
    rt = 0
    for j in d["jobs"]:
        rd += j["read"]["io_bytes"]
        wr += j["write"]["io_bytes"]
        tr += j.get("trim", {}).get("io_bytes", 0)
        ms = j.get("job_runtime")
        if ms is None:
            ms = (j.get("runtime_ns") or 0) / 1e6
        rt = max(rt, ms)
    return rd, wr, tr, rt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--iorig", default="./iorig")
    ap.add_argument("--fio", default="fio")
    ap.add_argument("--size", default="32m")
    ap.add_argument("--only", default="")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--no-time-based", action="store_true",
                    help="run only the files without time_based")
    a = ap.parse_args()
    root = os.path.abspath(a.dir)
    iorig = os.path.abspath(a.iorig) if os.sep in a.iorig else a.iorig
    cap = size_of(a.size)
    env = dict(os.environ)
    top = tempfile.mkdtemp(prefix="iorig-fio-jobs.")
    # iorig runs as fio (argv[0]): fio's JSON, the verification's reads
    # among the reads as fio counts them
    os.mkdir(os.path.join(top, "bin"))
    as_fio = os.path.join(top, "bin", "fio")
    os.symlink(shutil.which(iorig) or iorig, as_fio)
    # Targets that exist (devices, files given outside the job file):
    # 64 MiB of data, no holes (iorig would fill holes before reading them
    # and fio read them as zeros without the device).
    seed = os.path.join(top, "seed")
    with open(seed, "wb") as f:
        for _ in range(64):
            f.write(os.urandom(1 << 20))
    counts = {"files": 0, "fio": 0, "iorig": 0, "both": 0, "ran": 0,
              "same": 0, "size_bound": 0}
    bad = []
    for n, rel in enumerate(job_files(root)):
        if a.only not in rel:
            continue
        counts["files"] += 1
        sdir = os.path.dirname(os.path.join(root, rel))
        base = os.path.basename(rel)
        e = dict(env, **ENV)
        e.update(DIRECTORY=os.path.join(top, "p"),
                 directory=os.path.join(top, "p"))
        fr, _, ferr = run(a.fio, ["--parse-only", base], sdir, e)
        ir, _, ierr = run(iorig, ["--parse-only", base], sdir, e)
        counts["fio"] += fr == 0
        counts["iorig"] += ir == 0
        if fr == 0 and ir != 0:
            print("REFUSED %s\n  %s" % (rel, ierr.strip().replace(
                "\n", "\n  ")[:600]))
        if fr or ir:
            continue
        counts["both"] += 1
        with open(os.path.join(root, rel), errors="replace") as jf:
            if a.no_time_based and re.search(r"^\s*time_based", jf.read(),
                                             re.M):
                continue
        res = {}
        for tool in ("fio", "iorig"):
            wd = os.path.join(top, "%d-%s" % (n, tool))
            scratch = os.path.join(wd, "scratch")
            os.makedirs(scratch)
            job, devs, names = shorten(root, rel, wd, scratch, cap)
            for dv in devs:
                shutil.copyfile(seed, dv)
            te = dict(env, **ENV)
            te.update(DIRECTORY=scratch, directory=scratch)
            exe = a.fio if tool == "fio" else as_fio
            args = ["--output-format=json", os.path.basename(job)]
            r, out, err = run(exe, args, wd, te)
            if r and re.search(r"you need to specify size=|does not exist "
                               r"yet; give size=", err):
                # The target was given outside the file (the authors'
                # scripts pass --filename), or is one that exists there:
                # existing scratch files.
                tgt = os.path.join(scratch, "target")
                for nm in names | {tgt}:
                    shutil.copyfile(seed, nm)
                r, out, err = run(exe, ["--filename=" + tgt] + args, wd,
                                  te)
            res[tool] = (r, out, err)
            if not a.keep:
                shutil.rmtree(scratch, ignore_errors=True)
        if res["fio"][0] or res["iorig"][0]:
            # iorig failing where fio ran is the difference; fio failing
            # (it asserts on some jobs) is noted
            print("FAILED %s: fio %d, iorig %d\n  fio: %s\n  iorig: %s" %
                  (rel, res["fio"][0], res["iorig"][0],
                   res["fio"][2].strip()[-300:],
                   res["iorig"][2].strip()[-300:]))
            if not res["fio"][0]:
                bad.append(rel)
            continue
        counts["ran"] += 1
        f, i = work(res["fio"][1]), work(res["iorig"][1])
        with open(os.path.join(top, "%d-fio" % n, base)) as jf:
            text = jf.read()
        timed = re.search(r"^\s*time_based", text, re.M) is not None or \
            max(f[3], i[3]) >= 1900
        ok = all(abs(x - y) <= 0.05 * max(x, y) for x, y in zip(f[:3],
                                                                 i[:3]))
        counts["size_bound"] += not timed
        counts["same"] += ok
        tag = "same" if ok else ("TIME" if timed else "DIFF")
        print("%-4s %s: read %d/%d write %d/%d trim %d/%d (fio/iorig)%s" %
              (tag, rel, f[0], i[0], f[1], i[1], f[2], i[2],
               " time-bound" if timed else ""))
        if not ok and not timed:
            bad.append(rel)
    print("files %(files)d: fio accepts %(fio)d, iorig %(iorig)d, both "
          "%(both)d; ran %(ran)d, same work %(same)d (size-bound "
          "%(size_bound)d)" % counts)
    if not a.keep:
        shutil.rmtree(top, ignore_errors=True)
    else:
        print("kept in", top)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
