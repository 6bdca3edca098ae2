#!/bin/sh
# Results describe the machine and the device under each target: the JSON
# "host" and jobs[].targets, and the text report's host and target lines,
# compared with what /proc and /sys say, read here independently (Python).
# A block device (a loop device) is checked too when root can attach one.
# lane: parallel
. "$(dirname "$0")/lib.sh"

# expect_target FILE PATH KIND: the targets of the first job of the JSON in
# FILE are one entry for PATH of KIND, described as sysfs describes it.
expect_target() {
	"$PY" - "$@" <<'EOF' || die "targets do not match /sys and /proc"
import json, os, re, stat, sys
doc, path, kind = sys.argv[1:4]
d = json.load(open(doc))
t = d["jobs"][0]["targets"]
assert len(t) == 1, t
t = t[0]
assert set(t) == {"path", "kind", "fs_type", "device"}, t
assert t["path"] == path and t["kind"] == kind, t
st = os.stat(path)
dev = st.st_rdev if kind == "block" else st.st_dev
mm = "%d:%d" % (os.major(dev), os.minor(dev))

fs = None
if kind == "file":
    for line in open("/proc/self/mountinfo"):
        f = line.split()
        if f[2] == mm:
            fs = f[f.index("-") + 1].replace("\\040", " ")
            break
    if fs is None:
        assert t["fs_type"] is None or t["fs_type"], t
    else:
        assert t["fs_type"] == fs, (t["fs_type"], fs)
else:
    assert t["fs_type"] is None, t

def attr(d, name):
    try:
        v = open(os.path.join(d, name)).readline().strip()
        return v or None
    except OSError:
        return None

p = "/sys/dev/block/" + mm
if not os.path.exists(p):
    # A file system without a block device of its own (tmpfs, overlay,
    # btrfs): the device is null or the mount's source device.
    print("no /sys entry for", mm, "; device:", t["device"])
    sys.exit(0)
p = os.path.realpath(p)
if os.path.exists(p + "/partition"):
    p = os.path.dirname(p)
x = t["device"]
assert x is not None, t
keys = {"name", "model", "firmware", "logical_block_size",
        "physical_block_size", "rotational", "scheduler", "write_cache"}
assert set(x) == keys, x
assert x["name"] == os.path.basename(p), (x["name"], p)
model = attr(p, "device/model") or attr(p, "device/name")
assert x["model"] == model, (x["model"], model)
assert x["logical_block_size"] == int(attr(p, "queue/logical_block_size"))
assert x["physical_block_size"] == int(attr(p, "queue/physical_block_size"))
assert x["rotational"] == (attr(p, "queue/rotational") == "1"), x
s = attr(p, "queue/scheduler")
m = re.search(r"\[([^]]*)\]", s or "")
assert x["scheduler"] == (m.group(1) if m else s), (x["scheduler"], s)
assert x["write_cache"] == attr(p, "queue/write_cache"), x
print("target:", t)
EOF
}

# The host, from a null-engine run (no target) and a file run.
run --output-format=json --name=n --ioengine=null --size=64k
expect_rc 0
"$PY" - "$T/out" <<'EOF' || die "host does not match /proc"
import json, sys
d = json.load(open(sys.argv[1]))
h = d["host"]
assert set(h) >= {"hostname", "kernel", "ncpus", "cpu_model",
                  "memory_bytes"}, h
names = [l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
         if l.split(":")[0].strip() == "model name"]
if names:
    assert h["cpu_model"] == names[0], (h["cpu_model"], names[0])
else:
    print("no model name in /proc/cpuinfo; cpu_model:", h["cpu_model"])
mem = [int(l.split()[1]) * 1024 for l in open("/proc/meminfo")
       if l.startswith("MemTotal:")]
assert h["memory_bytes"] == mem[0], (h["memory_bytes"], mem)
t = d["jobs"][0]["targets"]
assert t == [{"path": None, "kind": "none", "fs_type": None,
              "device": None}], t
print("host:", h)
EOF

run --output-format=json --name=f --filename="$T/f.dat" --size=256k \
	--rw=write --bs=64k
expect_rc 0
expect_target "$T/out" "$T/f.dat" file
rm -f "$T/f.dat"

# A job of many files lists each; group_reporting keeps the first job's.
run --output-format=json --name=m --directory="$T" --nrfiles=3 \
	--size=192k --rw=write --bs=64k --numjobs=2 --group_reporting
expect_rc 0
json_is 'len(d["jobs"])' 1
json_is 'len(d["jobs"][0]["targets"])' 3
json_is 'len(set(t["path"] for t in d["jobs"][0]["targets"]))' 3
json_is 'len(set(str(t["device"]) for t in d["jobs"][0]["targets"]))' 1

# The text report: a host line first, a target line per unit.
run --name=f --filename="$T/g.dat" --size=64k --rw=write --name=n \
	--ioengine=null --size=64k
expect_rc 0
head -n 1 "$T/out" | grep -Eq "^host .*: kernel $(uname -r)" ||
	die "the text report does not start with the host line"
expect_in out "^  target $T/g.dat: file on "
expect_in out "^  target: none \(null engine\)$"

# A block device: kind block, no file system, the loop device itself.
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1 &&
   mkrand "$T/disk.img" 4194304 &&
   dev=$(losetup -f --show "$T/disk.img" 2>/dev/null); then
	trap 'losetup -d "$dev" 2>/dev/null; cd /; rm -rf "$T"' EXIT
	run --output-format=json --name=b --filename="$dev" --rw=read \
		--bs=64k --size=1m
	expect_rc 0
	expect_target "$T/out" "$dev" block
	json_is 'd["jobs"][0]["targets"][0]["device"]["name"]' \
		"$(basename "$dev")"
	json_is 'd["jobs"][0]["targets"][0]["device"]["model"]' None
	run --name=b --filename="$dev" --rw=read --bs=64k --size=1m
	expect_rc 0
	expect_in out "^  target $dev: block device, device $(basename "$dev"):"
else
	echo "note: no loop device (needs root and losetup); block part skipped"
fi
echo ok
