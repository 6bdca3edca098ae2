#!/bin/sh
# SPDX-License-Identifier: MIT
#
# How merges scale (bench/README.md, "Merges that scale"): `iorig merge`
# of N results for N = 10, 100, 1000 (links to one result of a 1 s run on
# the null engine, or MERGEB_MEMBER), its time and peak memory (wait4's
# rusage through /usr/bin/time: elapsed, user + system CPU, max RSS), for
# this tree's iorig and, side by side, an older one (MERGEB_OLD); then,
# with iorig-mpi and mpirun here, MERGEB_RANKS ranks oversubscribed on
# this machine, each format run on each path: the ranks' JSON documents
# sent to rank 0 (IORIG_MPI_GATHER=1), their whole wire forms
# (IORIG_MPI_WIRE=1; json's default) and, where the format needs no
# rank's own histograms (text), the reduction (text's default: the
# histograms summed by MPI_Reduce, the wire forms without them): the
# run's time and rank 0's peak memory; then rank 0's own work per rank
# on the document and wire paths, counted by callgrind in the merge of
# the ranks' results (the same reader and fold; IORIG_MERGE_WIRE=1 folds
# them through their wire forms), with the model for 10,000 ranks; then
# rank 0 under callgrind in a run of MERGEB_CG_RANKS ranks (16) on the
# wire and the reduction paths: its instructions in the fold and in
# MPI's reduce, per rank, and the model for 10,000.
#
# Environment: MERGEB_NS="10 100 1000", MERGEB_FORMATS="text json",
# MERGEB_OLD=PATH (an older iorig to compare), MERGEB_OLD_MPI=PATH (an
# older iorig-mpi), MERGEB_MEMBER=FILE (a result to merge; default: a new
# 1 s null run), MERGEB_RANKS=64 (0: no MPI part), MERGEB_CG_RANKS=16
# (0: rank 0 not under callgrind), MERGEB_OUT=DIR
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
# mpirun_ranks BINARY NAME FORMAT [ENV=VALUE...]: one run of the job on
# every rank (the ranks' results in $out/ranks.NAME)
mpirun_ranks() {
	b=$1 w=$2 f=$3
	shift 3
	rm -rf "$out/ranks.$w"
	mkdir -p "$out/ranks.$w"
	env "$@" /usr/bin/time -o "$out/time.mpi.$w" -f '%e' timeout 900 \
		mpirun -np "$ranks" sh "$out/rank0.sh" "$out/time.rank0.$w" \
		"$b" --output-format="$f" --rank-output="$out/ranks.$w/r" \
		"$out/mpi.job" >"$out/mpi.$w.out" 2>"$out/mpi.$w.err" ||
		{ echo "mpirun -np $ranks failed: see $out/mpi.$w.err"
		  return 1; }
	read -r el <"$out/time.mpi.$w"
	read -r el0 rss0 <"$out/time.rank0.$w"
	printf '%-22s %d ranks (1 s runs), %-4s: %6.1f s from mpirun to exit, rank 0 %5.1f MB peak RSS\n' \
		"MPI $w:" "$ranks" "$f" "$el" "$(echo "$rss0 / 1024" | bc -l)"
}
# ir FILE FUNCTION: the instructions FUNCTION ran, its callees' included
ir() {
	callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
		awk -v f="$2" '$0 ~ ":" f " " { gsub(",", "", $1); print $1; exit }'
}
for f in $formats; do
	[ -n "${MERGEB_OLD_MPI:-}" ] &&
		mpirun_ranks "$MERGEB_OLD_MPI" "old-$f" "$f"
	mpirun_ranks "$IORIG_MPI" "gather-$f" "$f" IORIG_MPI_GATHER=1 ||
		exit 1
	mpirun_ranks "$IORIG_MPI" "wire-$f" "$f" IORIG_MPI_WIRE=1 || exit 1
	# the reduction where the format takes it (src/mpi/mpi.c:
	# reduce_wanted)
	[ "$f" = text ] &&
		{ mpirun_ranks "$IORIG_MPI" "reduce-$f" "$f" || exit 1; }
done
bytes=$(cat "$out/ranks.wire-$f"/r.*.json | wc -c)
echo "MPI: each rank's JSON result: $((bytes / ranks)) bytes (what IORIG_MPI_GATHER=1 sends rank 0; the wire form is its figures packed: test 175 counts 8.4 KB against 52-61 KB on a veth)"
mkdir -p "$out/m-ranks"
for r in "$out/ranks.wire-$f"/r.*.json; do ln -sf "$r" "$out/m-ranks/"; done
# Rank 0's own work for each rank, apart from MPI's waiting (the ranks
# end at different times on 2 CPUs; Open MPI polls meanwhile): the
# gather path reads each rank's document and folds it (result_read_file,
# cluster_add: `iorig merge` of the ranks' files, the same code), the
# wire path reads each rank's wire form and folds it (result_wire_read,
# cluster_add: IORIG_MERGE_WIRE=1 makes the merge fold its members
# through their wire forms). Counted by callgrind (instructions: no
# load in them), made seconds by the plain merge's CPU time per
# instruction, measured beside.
if ! command -v valgrind >/dev/null || ! command -v callgrind_annotate >/dev/null; then
	echo "rank 0's part: no valgrind here (callgrind); left out"
	echo "logs in $out"
	exit 0
fi
for f in $formats; do
	valgrind --tool=callgrind --callgrind-out-file="$out/cg.gather.$f" \
		"$IORIG" merge --output-format="$f" "$out/m-ranks"/*.json \
		>/dev/null 2>"$out/cg.gather.$f.err"
	IORIG_MERGE_WIRE=1 valgrind --tool=callgrind \
		--callgrind-out-file="$out/cg.wire.$f" "$IORIG" merge \
		--output-format="$f" "$out/m-ranks"/*.json >/dev/null \
		2>"$out/cg.wire.$f.err"
	# the CPU time of 16 times as many members (rusage counts 10 ms
	# ticks: 64 members are a few), per instruction of the 64
	set --
	for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
		set -- "$@" "$out/m-ranks"/*.json
	done
	/usr/bin/time -o "$out/time.ranks.$f" -f '%U %S %M' "$IORIG" merge \
		--output-format="$f" "$@" >/dev/null
	read -r us sy rss <"$out/time.ranks.$f"
	us=$(echo "$us / 16" | bc -l)
	sy=$(echo "$sy / 16" | bc -l)
	tot=$(ir "$out/cg.gather.$f" merge_main)
	g_read=$(ir "$out/cg.gather.$f" result_read_file)
	g_add=$(ir "$out/cg.gather.$f" cluster_add)
	w_read=$(ir "$out/cg.wire.$f" result_wire_read)
	w_add=$(ir "$out/cg.wire.$f" cluster_add)
	w_make=$(ir "$out/cg.wire.$f" result_wire_make)
	# per rank, on every rank: its own document read back and made
	# its wire form, rank 0's read and the fold of the two (its check)
	awk -v n="$ranks" -v f="$f" -v us="$us" -v sy="$sy" -v tot="$tot" \
	    -v gr="$g_read" -v ga="$g_add" -v wr="$w_read" -v wa="$w_add" \
	    -v wm="$w_make" -v rss="$rss" -v b="$bytes" 'BEGIN {
		s = (us + sy) / tot		# seconds an instruction
		g = (gr + ga) / n * s * 1000	# ms a rank on rank 0
		w = (wr + wa) / n * s * 1000
		each = (2 * gr + 2 * ga + wm) / n * s * 1000
		printf "rank 0, %-4s: %.3f ms a rank (gather: read and fold " \
		       "its document), %.3f ms (wire: read its wire form and " \
		       "fold), %.1fx; each rank once, in parallel: %.1f ms " \
		       "(its result and rank 0'"'"'s read back, its wire form " \
		       "made, the check)\n", f, g, w, g / w, each
		d = 14				# ceil(log2(10000))
		printf "model, 10000 ranks, %-4s: rank 0 folds for %.1f s " \
		       "(gather: %.1f s); before it, the broadcast of rank " \
		       "0'"'"'s document (%d KB) down a tree %d deep and each " \
		       "rank'"'"'s %.0f ms, then a MINLOC (%d deep)\n", f,
		       10000 * w / 1000, 10000 * g / 1000, b / n / 1024, d,
		       each, d }'
done

# Rank 0 under callgrind in a run of MERGEB_CG_RANKS ranks, text, on
# the whole wire forms and on the reduction: its instructions in the
# fold of each rank (result_wire_read, cluster_add), in MPI_Reduce and
# MPI_Gather (the reduction: rank 0 is the slowest rank under valgrind,
# so the others' partial sums are there when it asks: little polling),
# and cluster_add_hists.
cgr=${MERGEB_CG_RANKS:-16}
[ "$cgr" -gt 1 ] 2>/dev/null || { echo "logs in $out"; exit 0; }
cat >"$out/rank0cg.sh" <<'SH'
#!/bin/sh
o=$1
shift
[ "${OMPI_COMM_WORLD_RANK:-0}" = 0 ] &&
	exec valgrind --tool=callgrind --callgrind-out-file="$o" "$@" \
		2>"$o.err"
exec "$@"
SH
for p in wire reduce; do
	w=0
	[ $p = wire ] && w=1
	env IORIG_MPI_WIRE=$w timeout 900 mpirun -np "$cgr" sh \
		"$out/rank0cg.sh" "$out/cg.rank0.$p" "$IORIG_MPI" \
		--output-format=text "$out/mpi.job" >"$out/cg.rank0.$p.out" \
		2>"$out/cg.rank0.$p.mpierr" ||
		{ echo "rank 0 under callgrind, $p: failed"; continue; }
	rd=$(ir "$out/cg.rank0.$p" result_wire_read)
	ad=$(ir "$out/cg.rank0.$p" cluster_add)
	red=$(ir "$out/cg.rank0.$p" PMPI_Reduce)
	gat=$(ir "$out/cg.rank0.$p" PMPI_Gather)
	hs=$(ir "$out/cg.rank0.$p" cluster_add_hists)
	awk -v p="$p" -v n="$cgr" -v rd="${rd:-0}" -v ad="${ad:-0}" \
	    -v red="${red:-0}" -v gat="${gat:-0}" -v hs="${hs:-0}" 'BEGIN {
		per = (rd + ad) / (n - 1)
		tree = red + hs
		printf "rank 0, %d ranks, text, %-6s: %.2fM instructions a " \
		       "rank (wire form read %.2fM, fold %.2fM); MPI_Reduce " \
		       "and the sums folded %.2fM in all, MPI_Gathers %.2fM; " \
		       "model, 10000 ranks: %.2fM a rank x 10000 = %.1fG, " \
		       "the reduce %.1fM (%d levels, not %d)\n", n, p,
		       per / 1e6,
		       rd / (n - 1) / 1e6, ad / (n - 1) / 1e6, tree / 1e6,
		       gat / 1e6, per / 1e6, per * 10000 / 1e9,
		       tree * 14 / log(n) * log(2) / 1e6, 14, log(n) / log(2) }'
done
echo "logs in $out"
