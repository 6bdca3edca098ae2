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
# MERGEB_OLD=PATH (an older iorig to compare), MERGEB_OLD_MPI=PATH (an
# older iorig-mpi), MERGEB_MEMBER=FILE (a result to merge; default: a new
# 1 s null run), MERGEB_RANKS=64 (0: no MPI part), MERGEB_OUT=DIR
# (default: a new /tmp dir, kept).
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
	# the first and the last N's RSS, for what a member adds (rank0)
	[ -e "$out/rss.first.$2.$4" ] || echo "$3 $rss" >"$out/rss.first.$2.$4"
	echo "$3 $rss" >"$out/rss.last.$2.$4"
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
# rank 0 under /usr/bin/time: its peak RSS (the run's and the report's)
cat >"$out/rank0.sh" <<'SH'
#!/bin/sh
t=$1
shift
[ "${OMPI_COMM_WORLD_RANK:-0}" = 0 ] &&
	exec /usr/bin/time -o "$t" -f '%e %M' "$@"
exec "$@"
SH
# mpirun_ranks BINARY NAME [ARGS...]: one run of the job on every rank
mpirun_ranks() {
	b=$1 w=$2
	shift 2
	/usr/bin/time -o "$out/time.mpi.$w" -f '%e' timeout 600 \
		mpirun -np "$ranks" sh "$out/rank0.sh" "$out/time.rank0.$w" \
		"$b" --output-format=text "$@" "$out/mpi.job" \
		>"$out/mpi.$w.txt" 2>"$out/mpi.$w.err" ||
		{ echo "mpirun -np $ranks failed: see $out/mpi.$w.err"
		  return 1; }
	read -r el <"$out/time.mpi.$w"
	read -r el0 rss0 <"$out/time.rank0.$w"
	echo "MPI $w: $ranks ranks (1 s runs): $el s from mpirun to exit," \
	     "rank 0 $el0 s and $((rss0 / 1024)) MB peak RSS"
}
[ -n "${MERGEB_OLD_MPI:-}" ] && mpirun_ranks "$MERGEB_OLD_MPI" old
rm -rf "$out/ranks"
mkdir -p "$out/ranks"
mpirun_ranks "$IORIG_MPI" new --rank-output="$out/ranks/r" || exit 1
bytes=$(cat "$out/ranks"/r.*.json | wc -c)
echo "MPI: what the ranks send rank 0: $bytes bytes of JSON ($((bytes / ranks)) a rank)"
mkdir -p "$out/m-ranks"
for f in "$out/ranks"/r.*.json; do ln -sf "$f" "$out/m-ranks/"; done
half=$(ls "$out/m-ranks"/*.json | head -$((ranks / 2)))
# rank0 BINARY NAME WHOLE FORMAT: rank 0's read and fold of every rank's
# result and its report (the merge of their files: the same code), and
# its model for 10,000 ranks (WHOLE: every rank's document held at once)
rank0() {
	# shellcheck disable=SC2086
	/usr/bin/time -o "$out/time.half.$2" -f '%M' "$1" merge \
		--output-format="$4" $half >/dev/null
	/usr/bin/time -o "$out/time.ranks.$2" -f '%e %U %S %M' "$1" merge \
		--output-format="$4" "$out/m-ranks"/*.json >/dev/null
	read -r rss1 <"$out/time.half.$2"
	read -r el us sy rss <"$out/time.ranks.$2"
	# what a member adds: from the merges of many links above when
	# they ran (1000 against 10: clearer than 64 against 32)
	n1=0 r1=0 n2=0 r2=0
	[ -e "$out/rss.last.$2.$4" ] && read -r n1 r1 <"$out/rss.first.$2.$4" &&
		read -r n2 r2 <"$out/rss.last.$2.$4"
	awk -v w="$2" -v n="$ranks" -v us="$us" -v sy="$sy" -v rss="$rss" \
	    -v rss1="$rss1" -v b="$bytes" -v whole="$3" -v f="$4" \
	    -v n1="$n1" -v r1="$r1" -v n2="$n2" -v r2="$r2" 'BEGIN {
		cpu = us + sy
		if (n2 > n1)
			per = (r2 - r1) / (n2 - n1)	# KB a member adds
		else
			per = (rss - rss1) / (n - n / 2)
		if (per < 0)	# within the noise of RSS
			per = 0
		printf "%-5s %-4s rank 0 reads and folds %d ranks: %.2f s " \
		       "CPU (%.2f ms a rank), %.1f MB peak RSS (%.1f KB " \
		       "more a rank)\n", w, f, n, cpu, 1000 * cpu / n,
		       rss / 1024, per
		m = rss / 1024 + (10000 - n) * per / 1024
		if (whole)	# every rank s document in memory at once
			m += 10000 * b / n / 1048576
		printf "%-5s %-4s model, 10000 ranks: %.1f s on rank 0 (read " \
		       "and fold, one core), about %.0f MB on rank 0\n", w, f,
		       10000 * cpu / n, m }'
}
for f in $formats; do
	[ -n "$old" ] && rank0 "$old" old 1 "$f"
	rank0 "$IORIG" new 0 "$f"
done
echo "(old: MPI_Gatherv of every rank's document to rank 0 before the"
echo " first is read; new: received one at a time as rank 0 reads them)"
echo "logs in $out"
