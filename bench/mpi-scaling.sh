#!/bin/sh
# SPDX-License-Identifier: MIT
#
# iorig-mpi scaling on this machine (bench/README.md, "MPI ranks"):
# 1, 2 and 4 ranks of one job on the null engine and on a zram device of
# our own (hot-added, removed after), the cluster's aggregate IOPS against
# N times the single rank's; then the cost of the final gather: each
# rank's JSON result size (what MPI_Gatherv carries) and rank 0's merge
# time for 1..256 members (`iorig merge` of copies: the same code).
#
# Environment: MPIB_RUNTIME=S (default 3), MPIB_RANKS="1 2 4",
# MPIB_OUT=DIR (default: a new /tmp dir, kept).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IORIG=$top/iorig
IORIG_MPI=$top/iorig-mpi
[ -x "$IORIG_MPI" ] || { echo "no $IORIG_MPI: make first"; exit 77; }
rt=${MPIB_RUNTIME:-3}
ranks=${MPIB_RANKS:-1 2 4}
out=${MPIB_OUT:-$(mktemp -d /tmp/iorig-mpib.XXXXXX)}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl=self,vader
zdev=""
cleanup() {
	[ -n "$zdev" ] && echo 1 >"/sys/block/$zdev/reset" &&
		echo "${zdev#zram}" >/sys/class/zram-control/hot_remove
}
trap cleanup EXIT

iops() {	# FILE: the cluster's read IOPS, and the members'
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1])); r = d["cluster"]["jobs"][0]["read"]
print("%.0f %s" % (d["jobs"][0]["read"]["iops"], " ".join("%.0f" % m["iops"] for m in r["members"])))' "$1"
}

scenario() {	# NAME JOBFILE
	one=""
	for n in $ranks; do
		f=$out/$1.$n.json
		timeout 120 mpirun -np "$n" "$IORIG_MPI" --output-format=json \
			--rank-output="$out/$1.$n.rank" "$2" >"$f" \
			2>"$out/$1.$n.err" ||
			{ echo "$1 n=$n failed"; cat "$out/$1.$n.err"; return; }
		figs=$(iops "$f")
		agg=${figs%% *}
		[ -n "$one" ] || one=$agg
		printf '%-5s ranks=%d aggregate %10.0f IOPS  %5.2f x one rank  members: %s\n' \
			"$1" "$n" "$agg" "$(echo "$agg / $one" | bc -l)" "${figs#* }"
	done
}

cat >"$out/null.job" <<JOB
[j]
ioengine=null
rw=randread
bs=4k
size=1g
time_based
runtime=${rt}s
JOB
scenario null "$out/null.job"

if [ -w /sys/class/zram-control/hot_add ] &&
   id=$(cat /sys/class/zram-control/hot_add 2>/dev/null); then
	zdev=zram$id
	echo 1G >"/sys/block/$zdev/disksize"
	cat >"$out/zram.job" <<JOB
[j]
ioengine=psync
direct=1
rw=randread
bs=4k
filename=/dev/$zdev
offset=\${RANK}*128m
size=128m
time_based
runtime=${rt}s
JOB
	scenario zram "$out/zram.job"
else
	echo "zram: no zram-control/hot_add here; left out"
fi

r=$out/null.1.rank.0.json
echo "one rank's JSON result: $(stat -c %s "$r") bytes (null), $(stat -c %s "$out/zram.1.rank.0.json" 2>/dev/null || echo -) bytes (zram)"
big=$out/zram.1.rank.0.json
[ -e "$big" ] || big=$r
for n in 1 16 64 256; do
	files=""
	i=0
	while [ $i -lt $n ]; do files="$files $big"; i=$((i + 1)); done
	s=$(date +%s%N)
	"$IORIG" merge --output-format=json $files >/dev/null
	echo "rank 0's merge of $n members: $(( ($(date +%s%N) - s) / 1000000 )) ms"
done
echo "logs in $out"
