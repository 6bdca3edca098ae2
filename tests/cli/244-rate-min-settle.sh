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
# lane: paced
. "$(dirname "$0")/lib.sh"
py_serve
command -v fio >/dev/null 2>&1 || skip "needs fio (Debian's fio 3.33)"
BLKIO=/sys/fs/cgroup/blkio
[ -e "$BLKIO/blkio.throttle.read_iops_device" ] ||
	skip "needs the cgroup v1 blkio throttle ($BLKIO)"
# fio and iorig run each case side by side, each on a loop device of its
# own in a cgroup of its own (the throttle is per group and device): two
# jobs of 500 IOPS take a few percent of a CPU, and the judged windows
# are 0.1-0.7 s wide (the test took 27 s one job at a time).
loop_disk d.img 16
fdev=$dev
cp d.img e.img || die "cannot copy d.img"
idev=$(losetup -f --show e.img 2>"$T/err") ||
	skip "losetup cannot attach a second loop device: $(cat "$T/err")"
cgf=$BLKIO/iorig-t244f.$$ cgi=$BLKIO/iorig-t244i.$$
trap 'losetup -d "$fdev" 2>/dev/null; losetup -d "$idev" 2>/dev/null
	rmdir "$cgf" "$cgi" 2>/dev/null; cd /; rm -rf "$T"' EXIT
mkdir "$cgf" "$cgi" 2>/dev/null || skip "cannot make a blkio cgroup"
for d in "$fdev:$cgf" "$idev:$cgi"; do
	mm=$(lsblk -dno MAJ:MIN "${d%%:*}" | tr -d ' ')
	[ -n "$mm" ] || skip "cannot read the major:minor of ${d%%:*}"
	echo "$mm 500" >"${d#*:}/blkio.throttle.read_iops_device" \
		2>/dev/null || skip "blkio throttling refused $mm"
done

# job TAG DEV CGROUP TOOL ARGS: TOOL's 4 KiB random reads of DEV in the
# throttled CGROUP; TAG.out and TAG.err its output, TAG.res "rc secs ios
# dev_ios": its exit, the read runtime and reads its JSON reports, and the
# device's reads meanwhile (/sys/block/*/stat).
job() {
	_tag=$1 _dev=$2 _cg=$3 _t=$4
	shift 4
	_name=${_dev#/dev/}
	_b=$(awk '{ print $1 }' "/sys/block/$_name/stat")
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$_cg" \
		"$_t" --name=m --filename="$_dev" --direct=1 --rw=randread \
		--bs=4k --time_based --output-format=json "$@" >$_tag.out \
		2>$_tag.err
	_rc=$?
	_d=$(($(dev_stat "$_dev" 1) - _b))
	echo "$_rc $("$PY" -c '
import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index("{"):])["jobs"][0]["read"]
print("%.3f %d" % (j["runtime"] / 1e3 if "runtime" in j else
                   j["runtime_ns"] / 1e9, j.get("total_ios", j.get("ios"))))
' $_tag.out) $_d" >$_tag.res
}

while read -r want lo hi opts; do
	# shellcheck disable=SC2086
	job f "$fdev" "$cgf" fio $opts &
	# shellcheck disable=SC2086
	job i "$idev" "$cgi" "$IORIG" $opts
	wait
	read -r rc secs ios dev_ios <f.res
	[ "$rc" = "$want" ] || die "fio $opts: exit $rc, expected $want"
	"$PY" -c "import sys; sys.exit(not $lo <= $secs <= $hi)" ||
		die "fio $opts: ran ${secs}s, expected $lo-$hi"
	fsecs=$secs
	read -r rc secs ios dev_ios <i.res
	cp i.out out
	cp i.err err
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
