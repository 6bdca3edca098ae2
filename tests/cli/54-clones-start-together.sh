#!/bin/sh
# numjobs=4 with a file per clone (no filename) and unlink=1, so that each
# clone's file is laid out fresh: every file of the group is laid out
# before any clone reads, and the group's IOPS is the I/Os over the time
# the clones took together. Outside truth: the loop device's
# /sys/block/*/stat, sampled every 2 ms while iorig runs: the sectors the
# layout writes all come before the first read, and the device's reads
# over the window from its first read to its last give the group's IOPS.
. "$(dirname "$0")/lib.sh"

ext4_loop disk.img 192
have_odirect mnt || skip "no O_DIRECT on ext4 over a loop device"
name=$(basename "$dev")

"$PY" - "$IORIG" "$name" >samples <<'PYEOF' || die "sampler failed"
import subprocess, sys, time
iorig, name = sys.argv[1], sys.argv[2]
def stat():
    f = open("/sys/block/%s/stat" % name).read().split()
    return int(f[0]), int(f[6])          # reads completed, sectors written
out = open("out", "w"); err = open("err", "w")
p = subprocess.Popen([iorig, "--output-format=json", "--name=c",
    "--directory=mnt", "--size=32m", "--numjobs=4", "--rw=randread",
    "--bs=4k", "--direct=1", "--unlink=1", "--ioengine=sync",
    "--group_reporting=1"], stdout=out, stderr=err)
s = []
while p.poll() is None:
    s.append((time.monotonic_ns(),) + stat())
    time.sleep(0.002)
s.append((time.monotonic_ns(),) + stat())
r0 = s[0][1]
# the job's reads, not the few of metadata that creating files makes
first = next(x for x in s if x[1] > r0 + 256)
last = next(x for x in s if x[1] == s[-1][1])
# sectors written between the first read and the last (ext4's own
# metadata aside: the layout would write 64 MiB there if clones started
# one by one); after the last read, unlink=1 and ext4's journal write
late = last[2] - first[2]
print(p.returncode, s[-1][1] - r0, (last[0] - first[0]) / 1e9, late)
PYEOF
read -r rc reads window late <samples
expect_rc 0
json_is "d['jobs'][0]['read']['ios']" 32768
[ "$reads" -ge 32768 ] || die "the device saw $reads reads, not 32768"
# 32768 sectors: 16 MiB, half of one clone's 32 MiB file (ext4's journal
# commits metadata of the new files at its own time, a few MiB)
[ "$late" -lt 32768 ] ||
	die "$late sectors written after the first read: a clone started before the others' files were laid out"
"$PY" - "$window" "$reads" >check <<PYEOF
import json, sys
window, reads = float(sys.argv[1]), int(sys.argv[2])
d = json.load(open("out"))
j = d["jobs"][0]
rt = j["runtime_ns"] / 1e9
outside = reads / window
print("iorig %.0f IOPS over %.3f s; device %.0f IOPS over %.3f s"
      % (j["read"]["iops"], rt, outside, window))
# sampling is 2 ms apart: the window is known within a few ms
ok = abs(rt - window) <= 0.02 + 0.1 * window and \
     abs(j["read"]["iops"] - outside) <= 0.15 * outside
sys.exit(0 if ok else 1)
PYEOF
[ $? -eq 0 ] || die "group rate is not the device's: $(cat check)"
cat check
exit 0
