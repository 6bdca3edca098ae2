#!/bin/sh
# iorig-mpi: when a rank cannot open its target (here rank 1's file is a
# link to /proc/version, which takes no layout: it fails when the group
# starts, after the plan), no rank runs and there is no cluster report:
# rank 0 keeps the previous --output as it was (sha256 of its bytes),
# where it put an empty file in its place, and says so. A run that
# completes replaces it with the cluster report.
# Counts, bytes and documents, no time: the parallel lane, one mpirun
# at a time (4 ranks oversubscribe 2 CPUs).
# lane: parallel
# lock: mpi
. "$(dirname "$0")/lib.sh"
. "$top/tests/cli/mpi.sh"
[ -r /proc/version ] || skip "no /proc/version"

mkdir d
ln -s /proc/version d/t.1
cat >job <<JOB
[j]
ioengine=psync
rw=read
bs=4k
size=1m
filename=$T/d/t.\${RANK}
JOB
mkrand prev.json 65536
before=$(sha256sum <prev.json)

mpi_run 2 --output="$T/prev.json" --output-format=json job
[ "$rc" -ne 0 ] || die "a rank failed and the run exited 0"
expect_in err "rank 1 .* failed: .*d/t\\.1"
[ "$(sha256sum <prev.json)" = "$before" ] ||
	die "the previous --output was changed ($(fsize prev.json) bytes now)"
expect_in err "no cluster report: .*prev\\.json was left as it was"
# rank 0's own file, created for the run, is gone again
[ ! -e d/t.0 ] || die "d/t.0 was left"
ls -a | grep -q '^\.prev\.json\.' && die "a temporary file was left"

# Both ranks open their files: the cluster report replaces it.
rm d/t.1
mpi_run 2 --output="$T/prev.json" --output-format=json job
expect_rc 0
"$PY" - prev.json <<'EOF' || die "prev.json is not the cluster report"
import json, sys
c = json.load(open(sys.argv[1]))
assert len(c["cluster"]["members"]) == 2, c["cluster"]["members"]
EOF
exit 0
