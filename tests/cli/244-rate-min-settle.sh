#!/bin/sh
# rate_iops_min, rate_min with fio 3.33's meaning (issue 23): the measured
# phase's first 2 s are not judged (fio's settle period), the first
# rate_cycle starts at the first completion after them. On a loop device
# whose reads the cgroup v1 blkio throttle holds to 500 IOPS:
# - rate_iops_min=600 for 5 s: fio and iorig both fail, both about 3 s
#   in (before the fix iorig failed after 1 s); iorig's reads are the
#   device's (/sys/block/*/stat);
# - rate_iops_min=600 for 2.5 s: both run the whole runtime, exit 0;
# - rate_min=3m (above the 2 MB/s the device moves): both fail likewise;
# - rate_iops_min=400: both run the whole 4 s and exit 0.
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null 2>&1 || skip "needs fio (Debian's fio 3.33)"
BLKIO=/sys/fs/cgroup/blkio
[ -e "$BLKIO/blkio.throttle.read_iops_device" ] ||
	skip "needs the cgroup v1 blkio throttle ($BLKIO)"
loop_disk d.img 16
mm=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
[ -n "$mm" ] || skip "cannot read the major:minor of $dev"
cg=$BLKIO/iorig-t244.$$
mkdir "$cg" 2>/dev/null || skip "cannot make a blkio cgroup"
trap 'losetup -d "$dev" 2>/dev/null; rmdir "$cg" 2>/dev/null
	cd /; rm -rf "$T"' EXIT
echo "$mm 500" >"$cg/blkio.throttle.read_iops_device" 2>/dev/null ||
	skip "blkio throttling refused $mm"
name=${dev#/dev/}

# job TOOL ARGS: TOOL's 4 KiB random reads of the device in the
# throttled cgroup; sets rc, secs (the read runtime the JSON reports) and
# ios (its reads); the device's reads meanwhile in dev_ios.
job() {
	_t=$1
	shift
	_b=$(awk '{ print $1 }' "/sys/block/$name/stat")
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
		"$_t" --name=m --filename="$dev" --direct=1 --rw=randread \
		--bs=4k --time_based --output-format=json "$@" >out 2>err
	rc=$?
	dev_ios=$(($(awk '{ print $1 }' "/sys/block/$name/stat") - _b))
	set -- $("$PY" -c '
import json
t = open("out").read()
j = json.loads(t[t.index("{"):])["jobs"][0]["read"]
print("%.3f %d" % (j["runtime"] / 1e3 if "runtime" in j else
                   j["runtime_ns"] / 1e9, j.get("total_ios", j.get("ios"))))
')
	secs=$1 ios=$2
}

while read -r want lo hi opts; do
	# shellcheck disable=SC2086
	job fio $opts
	[ "$rc" = "$want" ] || die "fio $opts: exit $rc, expected $want"
	"$PY" -c "import sys; sys.exit(not $lo <= $secs <= $hi)" ||
		die "fio $opts: ran ${secs}s, expected $lo-$hi"
	fsecs=$secs
	# shellcheck disable=SC2086
	job "$IORIG" $opts
	[ "$rc" = "$want" ] || die "iorig $opts: exit $rc, expected $want"
	"$PY" -c "import sys; sys.exit(not $lo <= $secs <= $hi)" ||
		die "iorig $opts: ran ${secs}s, expected $lo-$hi (fio ${fsecs}s)"
	[ "$want" = 0 ] || grep -q 'is below rate_' out ||
		die "iorig $opts: no 'is below rate_' error in the report"
	[ "$ios" = "$dev_ios" ] ||
		die "iorig $opts: $ios reads reported, the device did $dev_ios"
	echo "ok: $opts: exit $rc after ${secs}s (fio ${fsecs}s)"
done <<'EOF'
1 2.9 3.6 --rate_iops_min=600 --runtime=5
0 2.45 2.6 --rate_iops_min=600 --runtime=2500ms
1 2.9 3.6 --rate_min=3m --runtime=5
0 3.95 4.1 --rate_iops_min=400 --runtime=4
EOF
