#!/bin/sh
# log_store_compressed=1: the bw, iops and latency logs are fio's .log.fz
# files (fio's sample records deflated with zlib):
# - fio 3.33's own reader, fio --inflate-log, prints iorig's file as the
#   lines of the plain log: one per I/O (256 of a 1 MiB job of 4 KiB
#   writes), each offset of the region once (log_offset=1), the same
#   fields as fio's inflated log of the same job;
# - iorig --inflate-log prints its files and fio's as fio does;
# - Python's zlib inflates it to 40-byte records (32 without log_offset),
#   the size of fio's own (fio's file of the same job inflated);
# - per_job_logs=0: two jobs' streams one after the other in one file
#   (each written whole at its job's end), which fio --inflate-log reads
#   through;
# - the histogram log stays text (.log, warned: fio's compressed one holds
#   pointers), log_compression changes nothing in what is written.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve
command -v fio >/dev/null 2>&1 || skip "needs fio (fio --inflate-log)"

truncate -s 1m f
job="--name=j --filename=f --size=1m --bs=4k --rw=randwrite"

run $job --write_bw_log=j --write_lat_log=j --write_iops_log=j \
	--log_offset=1 --log_store_compressed=1
expect_rc 0
# (no slat with the sync engine: an empty stream, as fio's)
fio --inflate-log=j_slat.1.log.fz > slat.txt || die "fio cannot inflate slat"
[ ! -s slat.txt ] || die "slat lines with the sync engine"
for k in bw iops clat lat; do
	[ -s j_$k.1.log.fz ] || die "no j_$k.1.log.fz"
	[ ! -e j_$k.1.log ] || die "j_$k.1.log written besides the .fz"
	fio --inflate-log=j_$k.1.log.fz > $k.txt || die "fio cannot inflate $k"
	"$PY" - $k.txt $k <<'PYEOF' || die "$k: fio's inflated lines are wrong"
import sys
rows = [[int(x) for x in l.split(', ')] for l in open(sys.argv[1])]
assert len(rows) == 256, len(rows)
assert all(len(r) == 6 for r in rows), {len(r) for r in rows}
assert all(r[2] == 1 and r[3] == 4096 and r[5] == 0 for r in rows)
assert sorted(r[4] for r in rows) == list(range(0, 1 << 20, 4096))
if sys.argv[2] == 'iops':
    assert all(r[1] == 1 for r in rows)
else:
    assert all(r[1] > 0 for r in rows)
PYEOF
done
"$PY" -c 'import sys, zlib; d = zlib.decompress(open(sys.argv[1], "rb").read()); assert len(d) == 256 * 40, len(d)' j_clat.1.log.fz ||
	die "not 256 records of 40 bytes"

# fio's own file of the same job: the same record size, the same fields
mkdir fio && cd fio || die "mkdir"
truncate -s 1m f
# fio 3.33 can hang as its log compression starts (workqueue_init waits
# for its worker thread's signal, which can come before the wait: once in
# CI, both threads in pthread_cond_wait for good): a try that hangs is
# stopped after 60 s and tried again, a failure is one.
for try in 1 2 3; do
	timeout -k 5 60 fio $job --write_lat_log=j --log_offset=1 \
		--log_store_compressed=1 >/dev/null 2>&1
	rc=$?
	[ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] || break
	echo "note: fio 3.33 hung starting its log compression (try $try)"
	rm -f j_*
done
[ "$rc" -eq 0 ] || die "fio failed ($rc)"
"$PY" -c 'import sys, zlib; d = zlib.decompress(open(sys.argv[1], "rb").read()); assert len(d) == 256 * 40, len(d)' j_clat.1.log.fz ||
	die "fio's own .fz is not 256 records of 40 bytes"
n=$(fio --inflate-log=j_clat.1.log.fz | head -n 1 | tr ',' '\n' | wc -l)
[ "$n" -eq 6 ] || die "fio's inflated line has $n fields"
cd .. || die "cd"

# without log_offset: 32-byte records, 5 fields
run $job --write_lat_log=j --log_store_compressed=1
expect_rc 0
"$PY" -c 'import sys, zlib; d = zlib.decompress(open(sys.argv[1], "rb").read()); assert len(d) == 256 * 32, len(d)' j_clat.1.log.fz ||
	die "not 256 records of 32 bytes"
fio --inflate-log=j_clat.1.log.fz > c.txt || die "inflate"
[ "$(wc -l < c.txt)" -eq 256 ] || die "not 256 lines"
[ "$(head -n 1 c.txt | tr ',' '\n' | wc -l)" -eq 5 ] || die "not 5 fields"

# two jobs at once, one shared file: two zlib streams back to back, not
# interleaved (32768 records each, more than a 1 MiB buffer's worth):
# each job appends its stream in one write (strace: one write per
# descriptor opened on the file; stdio once split a stream in two and
# the other job's landed between the pieces, 1 run in 8)
rm -f s_*
truncate -s 8m h
shared_strace=
if strace_works; then
	# -ff: a file per thread, so no call is split by another's
	shared_strace="strace -ff -qq -e trace=openat,write -o $T/st"
fi
$shared_strace "$IORIG" --name=a --filename=h --size=4m --bs=128 --layout=0 \
	--write_iops_log=s --per_job_logs=0 --log_store_compressed=1 \
	--log_offset=1 \
	--name=b --filename=h --offset=4m --size=4m --bs=128 --layout=0 \
	--write_iops_log=s --per_job_logs=0 --log_store_compressed=1 \
	--log_offset=1 >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0
if [ -n "$shared_strace" ]; then
	cat "$T"/st.* >"$T/st"
	fds=$(grep 's_iops.log.fz' "$T/st" | grep -o '= [0-9]*$' | awk '{ print $2 }')
	[ "$(echo $fds | wc -w)" -eq 2 ] || die "shared: not 2 opens: $(grep s_iops "$T/st")"
	for fd in $fds; do
		n=$(grep -c "^write($fd," "$T/st")
		[ "$n" -eq 1 ] || die "shared: $n writes on fd $fd, expected one"
	done
fi
fio --inflate-log=s_iops.log.fz > s.txt || die "inflate shared"
"$PY" - s.txt <<'PYEOF' || die "shared: not every offset of both jobs once"
import sys
offs = sorted(int(l.split(', ')[4]) for l in open(sys.argv[1]))
assert offs == list(range(0, 8 << 20, 128)), len(offs)
PYEOF

# iorig --inflate-log prints what fio --inflate-log prints, byte for byte:
# iorig's files (with and without offsets, two jobs' streams, log_prio)
# and fio's own
run $job --write_lat_log=q --log_store_compressed=1 --log_prio=1 \
	--prioclass=2 --prio=3 --log_offset=1
expect_rc 0
for z in j_clat.1.log.fz fio/j_clat.1.log.fz s_iops.log.fz q_lat.1.log.fz; do
	fio --inflate-log=$z >want.txt || die "fio cannot inflate $z"
	run --inflate-log=$z
	expect_rc 0
	[ -s want.txt ] && cmp -s want.txt "$T/out" ||
		die "--inflate-log=$z: not fio's lines"
done
grep -q ', 0x4003$' want.txt || die "log_prio: not the priority in hex"
head -c 300 s_iops.log.fz >cut.fz
run --inflate-log=cut.fz
expect_rc 1
expect_in err "cut.fz: not a compressed log"
run --inflate-log=no-such.fz
expect_rc 2
expect_in err "no-such.fz.*cannot open it"

# the histogram log stays text; log_compression writes the same lines
run $job --write_hist_log=j --log_hist_msec=20 --write_bw_log=k \
	--log_store_compressed=1 --log_compression=64k
expect_rc 0
expect_in err "histogram log is written as text"
[ -s j_clat_hist.1.log ] || die "no text histogram log"
[ -s k_bw.1.log.fz ] || die "no k_bw.1.log.fz"
run $job --write_bw_log=p --log_compression=64k --log_entries=2048
expect_rc 0
expect_empty err
[ "$(wc -l < p_bw.1.log)" -eq 256 ] || die "log_compression: not 256 lines"
# fio's ranges of the two sizes, refused where fio refuses them
for o in log_entries=100 log_entries=2m log_compression=100; do
	run --name=j --filename=f --$o --parse-only
	expect_rc 2
	expect_in err "${o%%=*}.*out of fio's range"
	! fio --name=j --filename=f --$o --parse-only >/dev/null 2>&1 ||
		die "fio takes $o"
done
run --name=j --filename=f --log_entries=1m --log_compression=512m \
	--parse-only
expect_rc 0
fio --name=j --filename=f --log_entries=1m --log_compression=512m \
	--parse-only >/dev/null 2>&1 || die "fio refuses 1m, 512m"
exit 0
