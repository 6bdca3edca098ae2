#!/bin/sh
# --profile=act: fio's Aerospike certification profile. fio 3.33 on the
# same command is the truth of its jobs (global options, the write job's
# options, the read size, the rates) and of its table's layout; a loop
# device that the block layer throttles (cgroup v1 blkio, 100 reads a
# second) makes reads wait far over 64 ms: the table's 64 ms column and
# the FAILED verdict show it, as fio's do on the same device. The table
# has one slice an hour of test-duration. --prep (which aborts fio 3.33)
# zeroes the file and then writes every 4 KiB block of it once. Bad input
# exits 2 naming the option.
# Paced: it mostly waits for a throttled device (CPU 1 s of 3-7 s
# alone), and held beside 86, 244 and each other, plain and under the
# sanitizers.
# lane: paced
. "$(dirname "$0")/lib.sh"

# ---- refusals ----
expect_refused "option 'device-names': --profile=act needs --device-names" \
	--profile=act
expect_refused "option 'large-block-op-kbytes': .*smaller than a read" \
	--profile=act --device-names=x --large-block-op-kbytes=1024
expect_refused "option 'test-duration': .*out of range" --profile=act \
	--device-names=x --test-duration=1500ms
expect_refused "option 'threads-per-queue': .*out of range" --profile=act \
	--device-names=x --threads-per-queue=0
expect_refused "option 'prep': .*not a boolean" --profile=act --device-names=x \
	--prep=maybe
# Without --profile: read (an integer), no effect, as in fio.
expect_refused "option 'load': .*fio's act profile" --load=x --name=x \
	--size=4k
expect_refused "option 'profile': given twice" --profile=tiobench --profile=act \
	--device-names=x
[ ! -e x ] || die "a refused run created x"

# ---- the jobs: ACT's rates from load, threads and sizes ----
run --profile=act --device-names=a.img,b.img --load=2 \
	--threads-per-queue=4 --read-req-num-512-blocks=8 \
	--large-block-op-kbytes=262144 --test-duration=90 --parse-only
expect_rc 0
"$PY" - "$T/out" <<'EOF' || die "the act jobs are not ACT's"
import sys
jobs, cur = {}, None
for line in open(sys.argv[1]):
    if line.startswith("["):
        cur = jobs.setdefault(line.strip()[1:-1], {})
    elif cur is not None and "=" in line:
        k, v = line.strip().split("=", 1)
        cur[k] = v
want = {}
for dev in ("a.img", "b.img"):
    # 2x load: 4000 reads/s over 4 threads of 4 KiB; writes of 256 KiB
    # worth 2000 reads of 4 KiB a second: 2000 / 64 = 31.25, rounded up
    want["act-read-" + dev] = dict(filename=dev, rw="randread", bs="4096",
                                   numjobs="4", rate_iops="1000",
                                   runtime="90s", time_based="1",
                                   direct="1", ioengine="sync",
                                   random_generator="lfsr", thread="1")
    want["act-write-" + dev] = dict(filename=dev, rw="randwrite",
                                    bs="262144", numjobs="1",
                                    rate_iops="32", runtime="90s",
                                    time_based="1", direct="1")
bad = [(n, k, jobs.get(n, {}).get(k), v) for n, w in want.items()
       for k, v in w.items() if jobs.get(n, {}).get(k) != v]
if list(jobs) != list(want):
    bad.append(("names", list(jobs), list(want)))
for b in bad:
    print("MISMATCH", b)
sys.exit(1 if bad else 0)
EOF

have_odirect "$T" || skip "the scratch file system refuses O_DIRECT"
command -v fio >/dev/null 2>&1 || skip "needs fio (the truth of the jobs)"

# ---- fio on the same command ----
# (a relative name: fio 3.33 aborts, a buffer overflow, on a long one)
head -c 16m /dev/zero >dev.img
ACT="--profile=act --device-names=dev.img --test-duration=1"
fio $ACT --output-format=json >f.out 2>f.err || die "fio failed: $(cat f.err)"
"$IORIG" $ACT --output-format=fio-json >i.json 2>i.err ||
	die "iorig failed: $(cat i.err)"
# fio writes its table on stdout before the JSON; iorig on stderr then
sed -n '/^{/,$p' f.out >f.json
sed -n '/^{/q;p' f.out >f.table
"$IORIG" $ACT --parse-only >i.parse 2>&1 || die "$(cat i.parse)"
"$PY" - f.json i.json i.parse <<'EOF' || die "the act run differs from fio's"
import json, sys
f, i = (json.load(open(p)) for p in sys.argv[1:3])
bad = []
# the profile's own options given are among the global options, as fio's
fg = f["global options"]
if fg != i["global options"] or "device-names" not in fg:
    bad.append("global options: fio %s, iorig %s" % (fg, i["global options"]))
fj, ij = f["jobs"], i["jobs"]
if [j["jobname"] for j in fj] != [j["jobname"] for j in ij][:len(fj)]:
    bad.append("names: fio %s, iorig %s" % ([j["jobname"] for j in fj],
                                             [j["jobname"] for j in ij]))
# one group (group_reporting): fio shows the write job's options, iorig
# the first job's; iorig --parse-only has the write job's
w, cur = {}, False
for line in open(sys.argv[3]):
    if line.startswith("["):
        cur = line.strip() == "[act-write-dev.img]"
    elif cur:
        k, v = line.strip().split("=", 1)
        w[k] = v
for k, v in fj[0]["job options"].items():
    if w.get(k) != v:
        bad.append("write job's %s: fio %s, iorig %s" % (k, v, w.get(k)))
def tot(d, dd, k):
    return sum(j[dd][k] for j in d["jobs"])
for dd in ("read", "write"):
    fi, ii = tot(f, dd, "total_ios"), tot(i, dd, "total_ios")
    if not ii or tot(i, dd, "io_bytes") * fi != tot(f, dd, "io_bytes") * ii:
        bad.append("%s size: fio %d B/%d, iorig %d B/%d" % (
            dd, tot(f, dd, "io_bytes"), fi, tot(i, dd, "io_bytes"), ii))
    # the rates: 2000 reads and 12 writes a second, 1 s
    if abs(ii - fi) > max(3, fi // 5):
        bad.append("%s I/Os: fio %d, iorig %d" % (dd, fi, ii))
for b in bad:
    print("MISMATCH:", b)
sys.exit(1 if bad else 0)
EOF
# The table's layout is fio's; one slice for a second's test.
[ "$(head -n 4 i.err)" = "$(head -n 4 f.table)" ] ||
	die "table header: fio
$(head -n 4 f.table)
iorig
$(head -n 4 i.err)"
grep -Eq '^    1	[0-9]+\.[0-9]{2}(	[0-9]+\.[0-9]{2}){5}$' i.err ||
	die "no slice 1 line: $(cat i.err)"
[ "$(grep -c '^   [ 0-9][0-9]	' i.err)" -eq 1 ] || die "not one slice"
grep -Eq '^act: test complete, device\(s\): (PASSED|FAILED)$' i.err ||
	die "no verdict: $(cat i.err)"
# With a text report the table goes to stdout, first.
run $ACT
expect_rc 0
head -n 1 "$T/out" | grep -q '^        trans' || die "the table is not first"
expect_in out '^act: test complete'

# One slice an hour: 3601 s is two (the run stops after 5 I/Os a job).
run --profile=act --device-names="$T/dev.img" --test-duration=3601 \
	--number_ios=5
expect_rc 0
[ "$(grep -c '^   [ 0-9][0-9]	' out)" -eq 2 ] || die "3601 s: not 2 slices"

# ---- --prep: zeros, then every 4 KiB block once ----
rm -f dev.img && head -c 4m /dev/zero >dev.img
run --profile=act --device-names="$T/dev.img" --prep --output-format=json
expect_rc 0
json_is '[(j["name"], j["group"], j["write"]["ios"]) for j in d["jobs"]]' \
	"[('act-prep-zeroes-$T/dev.img', 0, 4), ('act-prep-salt-$T/dev.img', 1, 1024)]"
expect_not_in err 'act: test complete'
z=$("$PY" -c 'import sys
b = open(sys.argv[1], "rb").read()
print(sum(b[i:i + 4096] == bytes(4096) for i in range(0, len(b), 4096)))' dev.img)
[ "$z" -eq 0 ] || die "$z blocks of 4 KiB left zero after --prep"

# ---- a device throttled to 100 reads a second: FAILED ----
[ -e /sys/fs/cgroup/blkio/blkio.throttle.read_iops_device ] ||
	skip "no cgroup v1 blkio to throttle a device"
loop_disk disk.img 16
mm=$(lsblk -dno MAJ:MIN "$dev" 2>/dev/null | tr -d ' ')
[ -n "$mm" ] || skip "cannot read the major:minor of $dev"
cg=/sys/fs/cgroup/blkio/iorig-act.$$
mkdir "$cg" 2>/dev/null || skip "cannot make a blkio cgroup"
echo "$mm 100" >"$cg/blkio.throttle.read_iops_device" 2>/dev/null ||
	{ rmdir "$cg"; skip "blkio throttling refused $mm"; }
trap 'losetup -d "$dev" 2>/dev/null; rmdir "$cg" 2>/dev/null; cd /; rm -rf "$T"' EXIT
slow() {	# slow TOOL: the act table of TOOL on the throttled device
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
		"$1" --profile=act --device-names="$dev" --test-duration=1 \
		>slow.out 2>slow.err || die "$1 on the throttled device failed"
	grep -q '^act: test complete, device(s): FAILED$' slow.out ||
		die "$1: not FAILED: $(cat slow.out | head -n 8)"
	# the 64 ms column: the reads (8 of them at a time through 100/s
	# wait about 80 ms, some less: the throttle dispatches in slices)
	awk -F'\t' '/^    1\t/ { print int($4) }' slow.out
}
# Both tools measured 62-68% over 64 ms here, and iorig 49% once under a
# loaded CI (fio's figure of that run unknown): the bound is a quarter,
# far from the 0% of the same loop device unthrottled (reads of < 1 ms).
fp=$(slow fio)
ip=$(slow "$IORIG")
[ "$ip" -ge 25 ] || die "iorig: $ip% over 64 ms on the throttled device (fio $fp%)"
[ "$fp" -ge 25 ] || die "fio: $fp% over 64 ms (the throttle did not hold)"
echo "OK (over 64 ms: fio $fp%, iorig $ip%)"
