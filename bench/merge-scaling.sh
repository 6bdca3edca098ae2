#!/bin/sh
# SPDX-License-Identifier: MIT
#
# How merges scale (bench/README.md, "Merges that scale"): `iorig merge`
# of N results for N = 10, 100, 1000 (links to one result of a 1 s run on
# the null engine, or MERGEB_MEMBER), its time and peak memory (wait4's
# rusage through /usr/bin/time: elapsed, user + system CPU, max RSS), for
# this tree's iorig and, side by side, an older one (MERGEB_OLD); then,
# with iorig-mpi and mpirun here, MERGEB_RANKS ranks oversubscribed on
# this machine: the run, each rank's JSON result (what rank 0 gathers),
# and rank 0's part of it measured as the merge of those results (the
# same reader and fold), with the model for 10,000 ranks.
#
# Environment: MERGEB_NS="10 100 1000", MERGEB_FORMATS="text json",
# MERGEB_OLD=PATH (an older iorig to compare), MERGEB_MEMBER=FILE (a
# result to merge; default: a new 1 s null run), MERGEB_RANKS=64 (0: no
# MPI part), MERGEB_OUT=DIR (default: a new /tmp dir, kept).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
IORIG=$top/iorig
IORIG_MPI=$top/iorig-mpi
[ -x "$IORIG" ] || { echo "no $IORIG: make first"; exit 77; }
[ -x /usr/bin/time ] || { echo "no /usr/bin/time (Debian: time)"; exit 77; }
ns=${MERGEB_NS:-10 100 1000}
formats=${MERGEB_FORMATS:-text json}
old=${MERGEB_OLD:-}
ranks=${MERGEB_RANKS:-64}
out=${MERGEB_OUT:-$(mktemp -d /tmp/iorig-mergeb.XXXXXX)}
mkdir -p "$out" || exit 1

member=${MERGEB_MEMBER:-$out/member.json}
if [ -z "${MERGEB_MEMBER:-}" ]; then
	"$IORIG" --name=j --ioengine=null --rw=randread --bs=4k --size=1g \
		--time_based --runtime=1s --output-format=json >"$member" ||
		{ echo "the member's run failed"; exit 1; }
fi
echo "member: $member, $(stat -L -c %s "$member") bytes"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) (2 CPUs: elapsed times" \
     "are the machine's; CPU is the merge's own)"

# merge BINARY NAME N FORMAT: one line of figures
merge() {
	t=$out/time.$2.$3.$4
	/usr/bin/time -o "$t" -f '%e %U %S %M' "$1" merge \
		--output-format="$4" "$out/m$3"/*.json >/dev/null \
		2>"$out/err.$2.$3.$4" ||
		{ echo "$2 n=$3 $4: failed, see $out/err.$2.$3.$4"; return; }
	read -r el us sy rss <"$t"
	awk -v b="$2" -v n="$3" -v f="$4" -v el="$el" -v us="$us" \
	    -v sy="$sy" -v rss="$rss" 'BEGIN {
		cpu = us + sy
		printf "%-5s %5d members %-5s %7.2f s elapsed %7.2f s CPU " \
		       "%6.2f ms CPU/member %8.1f MB peak RSS\n", b, n, f, el,
		       cpu, 1000 * cpu / n, rss / 1024 }'
}

for n in $ns; do
	mkdir -p "$out/m$n"
	i=0
	while [ $i -lt "$n" ]; do
		ln -sf "$member" "$out/m$n/r$i.json"
		i=$((i + 1))
	done
	for f in $formats; do
		[ -n "$old" ] && merge "$old" old "$n" "$f"
		merge "$IORIG" new "$n" "$f"
	done
done

[ "$ranks" -gt 0 ] 2>/dev/null || { echo "logs in $out"; exit 0; }
if [ ! -x "$IORIG_MPI" ] || ! command -v mpirun >/dev/null; then
	echo "MPI: no $IORIG_MPI or no mpirun; left out"
	echo "logs in $out"
	exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl=self,vader
cat >"$out/mpi.job" <<JOB
[j]
ioengine=null
rw=randread
bs=4k
size=1g
time_based
runtime=1s
JOB
rm -rf "$out/ranks"
mkdir -p "$out/ranks"
s=$(date +%s%N)
/usr/bin/time -o "$out/time.mpi" -f '%e %M' timeout 600 \
	mpirun -np "$ranks" "$IORIG_MPI" --output-format=json \
	--rank-output="$out/ranks/r" "$out/mpi.job" >"$out/mpi.json" \
	2>"$out/mpi.err" ||
	{ echo "mpirun -np $ranks failed: see $out/mpi.err"; exit 1; }
read -r el rss <"$out/time.mpi"
echo "MPI: $ranks ranks (1 s runs) took $el s from mpirun to exit;" \
     "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cluster"]["nmembers"])' "$out/mpi.json") members in the cluster report"
bytes=$(cat "$out/ranks"/r.*.json | wc -c)
echo "MPI: what rank 0 gathers: $bytes bytes of JSON ($((bytes / ranks)) a rank)"
mkdir -p "$out/m-ranks"
for f in "$out/ranks"/r.*.json; do ln -sf "$f" "$out/m-ranks/"; done
/usr/bin/time -o "$out/time.ranks" -f '%e %U %S %M' "$IORIG" merge \
	--output-format=json "$out/m-ranks"/*.json >/dev/null
read -r el us sy rss <"$out/time.ranks"
awk -v n="$ranks" -v us="$us" -v sy="$sy" -v rss="$rss" -v b="$bytes" \
    'BEGIN {
	cpu = us + sy
	printf "MPI: rank 0 reads and folds %d ranks: %.2f s CPU (%.2f ms a " \
	       "rank), %.1f MB peak RSS\n", n, cpu, 1000 * cpu / n, rss / 1024
	printf "model, 10000 ranks: %.1f s on rank 0 (read and fold, one " \
	       "core), %.0f MB of JSON into rank 0 (gathered whole)\n",
	       10000 * cpu / n, 10000 * b / n / 1e6 }'
echo "logs in $out"
