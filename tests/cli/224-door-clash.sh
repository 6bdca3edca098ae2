#!/bin/sh
# A job's own files never replace or add to a file a job of the run reads
# or writes (issue 21: the door's fence). Each of them, named like a
# target of the same run, is refused when planning (exit 2, naming both
# files), and nothing changes: the sha256 of every file of the working
# directory, before and after, and no file appears. The names include
# those the user never types: the clones' FILE.N of write_iolog, fio's
# PREFIX_bw.N.log and the shared PREFIX_lat.log (per_job_logs=0),
# JOB.N.verify-state, JOB.prerun.txt / .postrun.txt, the exec engine's
# JOB.stdout, --chart's .dat and .gp, --rank-output's PREFIX.RANK.json.
# (Before the door each was written over or appended to the target.)
# lane: parallel
# lock: mpi
. "$(dirname "$0")/lib.sh"

mkdir w
cd w || exit 1

# snap: the names and sha256 of every file under w
snap() {
	find . -type f | sort | xargs -r sha256sum
}

# clash OPTION-WORD FILE ARGS...: iorig ARGS, with FILE (random data, a
# target of the run) among its files, is refused naming FILE and the
# option, and w is as it was.
clash() {
	_opt=$1 _file=$2
	shift 2
	[ -e "$_file" ] || mkrand "$_file" 1048576
	snap >"$T/before"
	run "$@"
	expect_rc 2
	expect_in err "option '$_opt'"
	expect_in err "is a file one of the jobs reads or writes \\('[^']*$_file', of job '[^']*'\\)"
	snap >"$T/after"
	cmp -s "$T/before" "$T/after" ||
		die "$_opt: the files changed: $(diff "$T/before" "$T/after")"
}

R="--rw=read --bs=4k --size=1m"

clash write_io_trace t1 --name=j --filename=t1 $R --write_io_trace=t1
clash write_iolog t2 --name=j --filename=t2 $R --write_iolog=t2
# clone 1 writes FILE.1 (a name nobody typed), another job's target
clash write_iolog io.1 --name=j --filename=t3 --numjobs=2 $R \
	--write_iolog=io --name=k --filename=io.1 $R
mkrand t3 1048576
clash write_bw_log p_bw.1.log --name=j --filename=p_bw.1.log $R \
	--write_bw_log=p
# per_job_logs=0: one shared file, appended to (fio's meaning)
clash write_lat_log q_lat.log --name=j --filename=t3 $R --write_lat_log=q \
	--per_job_logs=0 --name=k --filename=q_lat.log $R
clash write_hist_log h_clat_hist.1.log --name=j --filename=t3 $R \
	--write_hist_log=h --name=k --filename=h_clat_hist.1.log $R
# the verify state of job v clone 0, a file job r reads
clash verify_state_save v.0.verify-state --name=v --filename=vdata \
	--rw=write --bs=4k --size=256k --verify=crc32c \
	--name=r --stonewall --filename=v.0.verify-state $R
clash exec_prerun p.prerun.txt --name=p --filename=p.prerun.txt $R \
	--exec_prerun=true
clash exec_postrun p.postrun.txt --name=p --filename=p.postrun.txt $R \
	--exec_postrun=true
clash std_redirect e.stdout --name=e --ioengine=exec --program=true \
	--runtime=100ms --name=r --filename=e.stdout $R
# --chart's data and script beside the chart
clash chart c.dat --name=c --filename=c.dat --rw=randread --bs=4k \
	--size=1m --rate_curve=50 --rate_curve_probe=200ms --runtime=200ms \
	--time_based --chart=c.svg
clash chart c.gp --name=c --filename=c.gp --rw=randread --bs=4k \
	--size=1m --rate_curve=50 --rate_curve_probe=200ms --runtime=200ms \
	--time_based --chart=c.svg
# a symlink to the target is the target (by inode)
ln -s t1 alias
clash write_io_trace t1 --name=j --filename=t1 $R --write_io_trace=alias
# mem=mmap:FILE naming the job's target
clash mem t1 --name=j --filename=t1 $R --mem=mmapshared:t1

# Not every name clashes: a trace beside the target is written.
sum=$(sha256sum <t1)
run --name=j --filename=t1 $R --write_io_trace=trace.txt \
	--write_bw_log=p --exec_prerun=true
expect_rc 0
[ -s trace.txt ] && [ -s p_bw.1.log ] && [ -e j.prerun.txt ] ||
	die "the job's own files were not written: $(ls)"
[ "$(sha256sum <t1)" = "$sum" ] || die "t1 changed"

# --rank-output's PREFIX.RANK.json: rank 0's is a target (iorig-mpi)
IORIG_MPI=${IORIG_MPI:-$(dirname "$IORIG")/iorig-mpi}
if [ ! -x "$IORIG_MPI" ] || ! command -v mpirun >/dev/null 2>&1 ||
   [ -n "${IORIG_SAN:-}" ]; then
	echo "note: no iorig-mpi, mpirun or a sanitizer build: --rank-output not tried"
	echo "ok: no job's file replaces or grows a target of the run"
	exit 0
fi
. "$top/tests/cli/mpi.sh"
mkrand ranks.0.json 1048576
snap >"$T/before"
mpi_run 2 --name=j --filename=ranks.0.json $R --output-format=json \
	--rank-output=ranks
[ "$rc" -ne 0 ] || die "--rank-output onto a target: exit 0"
expect_in err "option 'rank-output'"
snap >"$T/after"
cmp -s "$T/before" "$T/after" ||
	die "rank-output: the files changed: $(diff "$T/before" "$T/after")"
echo "ok: no job's file replaces or grows a target of the run"
