#!/bin/sh
# iorig-mpi sums the ranks' histograms down MPI's tree (MPI_Reduce) when
# the report needs no rank's own (text, table, html, junit, openmetrics,
# prometheus; no rank: check), each rank then sending rank 0 its wire
# form without them and its rows' clat p99 (MPI_Gather); else (json,
# fio-json, json+, terse, a rank: check, IORIG_MPI_WIRE=1) each rank's
# whole wire form.
# Outside truths: MPI's profiling interface (a PMPI wrapper built here
# with mpicc counts each rank's MPI_Reduce calls and the bytes it sends
# rank 0), and the ranks' own results (--rank-output) merged by `iorig
# merge`: the report must be the merge's but for what names a rank or
# depends on the start skew (merge knows neither): labels, the start
# skew, first/last done, the common window. Four ranks, two jobs in two
# groups (clones, reads and writes), sizes that differ by rank; then 40
# clones, whose histograms are too many to send whole (the wire forms).
# Counts, bytes and documents, no time: the parallel lane, one mpirun
# at a time (4 ranks oversubscribe 2 CPUs).
# lane: parallel
# lock: mpi
. "$(dirname "$0")/lib.sh"
. "$top/tests/cli/mpi.sh"
command -v mpicc >/dev/null 2>&1 || skip "needs mpicc (libopenmpi-dev)"

cat >pmpi.c <<'EOF'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static long reduces, sent0;

int MPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op,
	       int root, MPI_Comm c)
{
	reduces++;
	return PMPI_Reduce(s, r, n, t, op, root, c);
}

int MPI_Send(const void *b, int n, MPI_Datatype t, int dest, int tag,
	     MPI_Comm c)
{
	int sz = 0;

	PMPI_Type_size(t, &sz);
	if (dest == 0)
		sent0 += (long)n * sz;
	return PMPI_Send(b, n, t, dest, tag, c);
}

int MPI_Finalize(void)
{
	char p[4096];
	FILE *f;
	int r = 0;

	PMPI_Comm_rank(MPI_COMM_WORLD, &r);
	snprintf(p, sizeof(p), "%s.%d", getenv("PMPI_OUT"), r);
	f = fopen(p, "w");
	if (f) {
		fprintf(f, "%ld %ld\n", reduces, sent0);
		fclose(f);
	}
	return PMPI_Finalize();
}
EOF
mpicc -shared -fPIC -o pmpi.so pmpi.c 2>"$T/err" ||
	die "mpicc of the PMPI wrapper: $(cat "$T/err")"
cat >rank.sh <<EOF
#!/bin/sh
LD_PRELOAD=$T/pmpi.so exec "\$@"
EOF

cat >job <<JOB
[global]
ioengine=null
bs=4k
[w]
rw=randrw
size=1\${RANK}m
numjobs=2
[r]
stonewall
rw=randread
size=2\${RANK}m
JOB

# one NAME ENV FORMAT [CHECK...]: a run of 4 ranks; its report in
# $T/NAME.out, each rank's "reduces bytes-to-rank-0" in $T/NAME.pmpi.R
one() {
	name=$1 envs=$2 fmt=$3
	shift 3
	rm -f "$T"/rank.*.json
	env $envs PMPI_OUT="$T/$name.pmpi" timeout -k 5 120 mpirun -np 4 \
		sh "$T/rank.sh" "$IORIG_MPI" --output-format="$fmt" \
		--rank-output="$T/rank" "$@" ${JOB:-job} >"$T/$name.out" \
		2>"$T/$name.err"
	rc=$?
	[ $rc = 0 ] || die "$name: exit $rc: $(head -5 "$T/$name.err")"
	for r in 0 1 2 3; do
		[ -s "$T/$name.pmpi.$r" ] || die "$name: rank $r wrote no counts"
	done
	"$IORIG" merge --output-format="$fmt" "$@" "$T"/rank.0.json \
		"$T"/rank.1.json "$T"/rank.2.json "$T"/rank.3.json \
		>"$T/$name.merged" 2>"$T/err" ||
		die "$name: iorig merge of the ranks' results failed"
}

# reduced NAME yes|no: whether every rank reduced once (yes) or none did
reduced() {
	for r in 0 1 2 3; do
		read -r n b <"$T/$1.pmpi.$r"
		if [ "$2" = yes ]; then
			[ "$n" = 1 ] || die "$1: rank $r called MPI_Reduce $n times, expected once"
		else
			[ "$n" = 0 ] || die "$1: rank $r called MPI_Reduce $n times, expected none"
		fi
	done
}

# sent NAME: the bytes ranks 1-3 sent rank 0
sent() {
	cat "$T/$1.pmpi.1" "$T/$1.pmpi.2" "$T/$1.pmpi.3" |
		awk '{ s += $2 } END { print s }'
}

# same NAME: the report is the merge's, labels and skew aside
same() {
	"$PY" - "$T/$1.out" "$T/$1.merged" <<'PYEOF' || die "$1: the cluster report is not the merge of the ranks' results"
import re, sys
def norm(path):
    out = []
    for line in open(path):
        if re.search(r"start skew|first done|last done", line):
            continue
        line = re.sub(r"rank (\d) \([^)]*\)", r"rank.\1.json", line)
        line = re.sub(r"\S*/(rank\.\d\.json)", r"\1", line)
        line = re.sub(r"common window [^)]*\)", "", line)
        line = re.sub(r"\s+", " ", line)
        out.append(line)
    return out
a, b = norm(sys.argv[1]), norm(sys.argv[2])
if a != b:
    for x, y in zip(a, b):
        if x != y:
            print("report: %r\nmerge:  %r" % (x, y))
            break
    print("%d against %d lines" % (len(a), len(b)))
    sys.exit(1)
if not any("p99=" in x for x in a) or not any("rank.3.json" in x for x in a):
    print("the report has no percentiles or no rows of the ranks")
    sys.exit(1)
PYEOF
}

one text "" text --check='read.iops>=1'
reduced text yes
same text
one wire IORIG_MPI_WIRE=1 text --check='read.iops>=1'
reduced wire no
same wire
# the wire forms without histograms: each rank's buckets (hundreds of
# bytes packed here, nanosecond latencies on the null engine) left out
[ "$(($(sent text) + 300))" -lt "$(sent wire)" ] ||
	die "the reduction's ranks sent rank 0 $(sent text) bytes, the wire's $(sent wire): expected 300 fewer at least"
one table "" table,openmetrics
reduced table yes
cmp -s "$T/table.out" "$T/table.merged" ||
	die "table,openmetrics: not the merge's: $(diff "$T/table.out" "$T/table.merged" | head -5)"
one rankcheck "" text --check='rank:read.iops>=1'
reduced rankcheck no
same rankcheck
one json "" json
reduced json no
# 40 clones reported apart: 41 x 14 histograms, 15 MB a rank, over the
# reduction's 4 MiB: the wire forms
sed 's/^numjobs=2/numjobs=40/' job >job40
JOB=job40 one many "" text
reduced many no
same many
exit 0
