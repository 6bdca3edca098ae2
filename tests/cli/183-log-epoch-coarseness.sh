#!/bin/sh
# fio's log time bases and histogram coarseness, against the clocks
# themselves and fio 3.33 on the same job:
# - log_unix_epoch=1: every log time is Unix time in ms, within the
#   wall-clock span of the run (date before and after), for iorig and
#   for fio; without it the times count from the job's start;
# - log_alternate_epoch=1 with log_alternate_epoch_clock_id=1: times of
#   CLOCK_MONOTONIC (Python's time.monotonic() around the run);
# - a clock clock_gettime does not know is refused (exit 2, nothing run);
# - log_hist_coarseness=N: each histogram line has 3 + 1856/2^N fields,
#   as fio's on the same job, and the counts still add up to every I/O.
# lane: paced
. "$(dirname "$0")/lib.sh"
py_serve

# LOG LO HI: every line's time (first field) is within [LO, HI].
times_within() {
	"$PY" - "$@" <<'PYEOF' || die "$1: times not within [$2, $3]"
import sys
f, lo, hi = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
t = [int(l.split(',')[0]) for l in open(f) if l.strip()]
assert t, "no lines"
bad = [x for x in t if not lo <= x <= hi]
if bad:
    print(f"{len(bad)} of {len(t)} outside: first {bad[0]}", file=sys.stderr)
    sys.exit(1)
PYEOF
}
mono_ms() {
	"$PY" -c 'import time; print(int(time.monotonic() * 1000))'
}

truncate -s 1m f
job="--name=j --filename=f --size=1m --bs=4k --rw=randwrite"

# Unix time
a=$(now_ms)
run $job --write_bw_log=j --write_lat_log=j --log_unix_epoch=1
b=$(now_ms)
expect_rc 0
for k in bw clat lat; do
	times_within j_$k.1.log "$a" "$b"
done
[ "$(wc -l < j_bw.1.log)" -eq 256 ] || die "expected 256 bw lines"
# from the start without it
run $job --write_bw_log=j
expect_rc 0
times_within j_bw.1.log 0 $((b - a))
if command -v fio >/dev/null 2>&1; then
	rm -f j_*.log
	a=$(now_ms)
	fio $job --write_bw_log=j --log_unix_epoch=1 >/dev/null 2>&1 ||
		die "fio failed"
	b=$(now_ms)
	times_within j_bw.1.log "$a" "$b"
fi

# another clock: CLOCK_MONOTONIC
rm -f j_*.log
a=$(mono_ms)
run $job --write_iops_log=j --log_alternate_epoch=1 \
	--log_alternate_epoch_clock_id=1
b=$(mono_ms)
expect_rc 0
times_within j_iops.1.log "$a" "$b"
# log_unix_epoch takes the same clock (fio 3.33: either one turns it on)
run $job --write_iops_log=j --log_unix_epoch=1 \
	--log_alternate_epoch_clock_id=1
c=$(mono_ms)
expect_rc 0
times_within j_iops.1.log "$b" "$c"

# a clock that is not one
run $job --write_bw_log=j --log_unix_epoch=1 \
	--log_alternate_epoch_clock_id=99
expect_rc 2
expect_in err "log_alternate_epoch_clock_id.*99.*expected a clock"
# (no effect, as in fio, when neither epoch option is on)
run $job --log_alternate_epoch_clock_id=99 --parse-only
expect_rc 0

# Histogram coarseness: fields per line, and every I/O counted
for c in 0 3 6; do
	rm -f j_clat_hist.1.log
	run $job --write_hist_log=j --log_hist_msec=20 \
		--log_hist_coarseness=$c
	expect_rc 0
	"$PY" - j_clat_hist.1.log $((3 + 1856 / (1 << c))) 256 <<'PYEOF' ||
import sys
f, n, ios = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = [l.split(',') for l in open(f) if l.strip()]
assert rows, "no lines"
assert all(len(r) == n for r in rows), (n, {len(r) for r in rows})
total = sum(int(x) for r in rows for x in r[3:])
assert total == ios, (total, ios)
PYEOF
		die "coarseness $c: not $((3 + 1856 / (1 << c))) fields or not 256 I/Os"
	if command -v fio >/dev/null 2>&1; then
		# fio writes histogram lines only as windows pass: a
		# paced run of 300 ms
		rm -f j_clat_hist.1.log
		fio --name=j --filename=f --size=1m --bs=4k --rw=randread \
			--time_based --runtime=300ms --rate_iops=1000 \
			--write_hist_log=j --log_hist_msec=50 \
			--log_hist_coarseness=$c >/dev/null 2>&1 ||
			die "fio failed"
		n=$(head -n 1 j_clat_hist.1.log | tr ',' '\n' | wc -l)
		[ "$n" -eq $((3 + 1856 / (1 << c))) ] ||
			die "fio's coarseness $c: $n fields"
	fi
done
run $job --write_hist_log=j --log_hist_msec=20 --log_hist_coarseness=7
expect_rc 2
expect_in err "log_hist_coarseness"
exit 0
