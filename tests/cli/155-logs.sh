#!/bin/sh
# fio's log files (write_bw_log, write_iops_log, write_lat_log,
# write_hist_log) in fio's names and line format, and the per-I/O trace
# (write_io_trace). The outside truths: number_ios= (lines per I/O), the
# run's bytes over its time (averaged bandwidth), fio's own log parser
# and fio's logs of the same job (field counts, ddir values), when fio is
# here.
# lane: parallel
. "$(dirname "$0")/lib.sh"

# FIO_SRC: a fio source tree whose fio and tools to use (else Debian's)
FIO_SRC=${FIO_SRC:-}
FIO=
for f in "${FIO_SRC:+$FIO_SRC/fio}" "$(command -v fio 2>/dev/null)"; do
	[ -n "$f" ] && [ -x "$f" ] && { FIO=$f; break; }
done

# fields FILE: the distinct field counts of FILE's lines ("5" or "5 6")
fields() {
	awk -F', ' '{ print NF }' "$1" | sort -u | tr '\n' ' ' | sed 's/ $//'
}

# 1. Per I/O (log_avg_msec=0): a line per I/O in each log, fio's names.
run --name=j --filename=d.dat --size=4m --rw=randrw --bs=4k \
	--number_ios=300 --ioengine=psync --write_lat_log=L --write_bw_log \
	--write_iops_log=L --write_io_trace=tr.txt --output-format=json
expect_rc 0
for k in clat lat bw iops; do
	f=L_$k.1.log
	[ $k = bw ] && f=j_bw.1.log	# bare write_bw_log: the job's name
	[ -f $f ] || die "no $f"
	n=$(wc -l <$f)
	[ "$n" -eq 300 ] || die "$f has $n lines, number_ios=300"
	[ "$(fields $f)" = 5 ] || die "$f: fields $(fields $f), fio has 5"
	awk -F', ' '$3 != 0 && $3 != 1 { exit 1 } $4 != 4096 { exit 1 }' $f ||
		die "$f: ddir not 0/1 or bs not 4096"
done
# psync has no submit step: fio leaves the slat log empty
[ -f L_slat.1.log ] && [ ! -s L_slat.1.log ] || die "L_slat.1.log not empty"
reads=$(awk -F', ' '$3 == 0' L_clat.1.log | wc -l)
json_is "d['jobs'][0]['read']['ios']" "$reads"
# clat values: their mean is the report's (same ns, same I/Os)
mean=$(awk -F', ' '$3 == 0 { s += $2; n++ } END { printf "%.0f", s / n }' L_clat.1.log)
expect_json "abs(d['jobs'][0]['read']['clat_ns']['mean'] - $mean) <= 1" \
	"clat log mean $mean"
# the trace: a line per I/O, latencies the lat log's
[ "$(grep -vc '^#' tr.txt)" -eq 300 ] || die "trace lines != 300"
grep -v '^#' tr.txt | awk '{ print $7 }' >a.txt
awk -F', ' '{ print $2 }' L_lat.1.log >b.txt
cmp -s a.txt b.txt || die "trace latencies differ from the lat log's"
awk '!/^#/ && ($2 != "R" && $2 != "W" || $4 != 4096 || $1 < p) { exit 1 }
	{ p = $1 }' tr.txt || die "trace: bad direction, size or time order"
echo "ok per-I/O logs: 300 lines each, clat mean as reported"

# log_offset adds the offset; log_prio writes fio's hex priority
run --name=j --filename=d.dat --size=4m --rw=randread --bs=4k \
	--number_ios=50 --write_lat_log=O --log_offset=1 --log_prio=1
expect_rc 0
[ "$(fields O_clat.1.log)" = 6 ] || die "log_offset: $(fields O_clat.1.log) fields"
awk -F', ' '$5 % 4096 || $5 >= 4194304 || $6 != "0x0000" { exit 1 }' \
	O_clat.1.log || die "log_offset/log_prio fields wrong"

# 2. Averaged over 500 ms for 2 s: ~4 lines per direction, bandwidth
# lines whose mean is the run's bytes over its time.
run --name=a --filename=d.dat --size=4m --rw=randrw --bs=4k \
	--rate_iops=400,400 --runtime=2 --time_based --log_avg_msec=500 \
	--write_bw_log=A --write_iops_log=A --write_lat_log=A \
	--log_max_value=both --output-format=json
expect_rc 0
for dd in 0 1; do
	n=$(awk -F', ' -v d=$dd '$4 == d' A_bw.1.log | wc -l)
	[ "$n" -ge 4 ] && [ "$n" -le 5 ] || die "A_bw: $n lines for ddir $dd"
done
[ "$(fields A_bw.1.log)" = 6 ] || die "both: $(fields A_bw.1.log) fields"
awk -F', ' 'NR <= 6 && $1 % 500 { exit 1 }' A_bw.1.log ||
	die "window lines not at 500 ms steps"
for dd in 0 1; do
	dir=read; [ $dd = 1 ] && dir=write
	# windows of 500 ms (the last one may be short): weigh by span
	kib=$(awk -F', ' -v d=$dd '$4 == d { s += $2 * ($1 - p); p = $1 }
		END { printf "%.1f", s / p }' A_bw.1.log)
	iops=$(awk -F', ' -v d=$dd '$4 == d { s += $2 * ($1 - p); p = $1 }
		END { printf "%.1f", s / p }' A_iops.1.log)
	expect_json "abs(d['jobs'][0]['$dir']['bw_bytes'] / 1024 - $kib) < 0.05 * $kib + 8" \
		"$dir: bw log $kib KiB/s"
	expect_json "abs(d['jobs'][0]['$dir']['iops'] - $iops) < 0.05 * $iops + 2" \
		"$dir: iops log $iops"
done
awk -F', ' '$2 > $3 { exit 1 }' A_clat.1.log || die "avg above max"
echo "ok averaged logs: ~4 windows per direction, rates as reported"

# fio's parser reads them (fio's source tree, or Debian's fio docs)
parser=
if [ -f "$FIO_SRC/tools/fiologparser.py" ]; then
	parser=$FIO_SRC/tools/fiologparser.py
elif [ -f /usr/share/doc/fio/fiologparser.py.gz ]; then
	gzip -dc /usr/share/doc/fio/fiologparser.py.gz >flp.py && parser=flp.py
	# Debian's copy (fio 3.33) predates the priority field fio itself
	# writes: use it only if it reads fio's own log of the same kind.
	if [ -n "$FIO" ] && "$FIO" --name=f --filename=ff.dat --size=1m \
		--rw=randread --number_ios=20 --write_lat_log=F \
		>/dev/null 2>&1 &&
	   ! "$PY" flp.py -f F_clat.1.log >/dev/null 2>&1; then
		echo "note: this fiologparser.py cannot read fio's own logs" \
			"either (it expects 4 fields): not run"
		parser=
	fi
fi
if [ -n "$parser" ]; then
	"$PY" "$parser" -f L_clat.1.log >p.txt 2>&1 || { cat p.txt; die "fiologparser failed"; }
	[ -s p.txt ] || die "fiologparser printed nothing"
	"$PY" "$parser" -s L_lat.1.log >p.txt 2>&1 || { cat p.txt; die "fiologparser -s failed"; }
	echo "ok fiologparser reads the logs"
else
	echo "note: no fiologparser.py: not run"
fi

# 3. The histogram log: fio's 1856 bins, one line per direction per
# window, counts adding up to the I/Os.
run --name=h --filename=d.dat --size=4m --rw=randrw --bs=4k \
	--number_ios=400 --write_hist_log=H --log_hist_msec=100
expect_rc 0
[ "$(fields H_clat_hist.1.log)" = 1859 ] ||
	die "hist: $(fields H_clat_hist.1.log) fields, fio has 3 + 1856"
tot=$(awk -F', ' '{ for (i = 4; i <= NF; i++) s += $i } END { print s }' \
	H_clat_hist.1.log)
[ "$tot" -eq 400 ] || die "hist counts add up to $tot, not 400"
if "$PY" -c 'import pandas' 2>/dev/null &&
   [ -f "$FIO_SRC/tools/hist/fiologparser_hist.py" ]; then
	"$PY" "$FIO_SRC/tools/hist/fiologparser_hist.py" H_clat_hist.1.log \
		>p.txt 2>&1 || { cat p.txt; die "fiologparser_hist failed"; }
	echo "ok fiologparser_hist reads the histogram log"
fi

# 4. per_job_logs=0: one file per prefix, appended to (never truncated)
echo "# kept" >S_iops.log
run --name=s --filename=d.dat --size=4m --rw=read --bs=4k --numjobs=2 \
	--number_ios=20 --write_iops_log=S --per_job_logs=0
expect_rc 0
[ ! -e S_iops.1.log ] || die "per_job_logs=0 wrote S_iops.1.log"
[ "$(head -1 S_iops.log)" = "# kept" ] || die "S_iops.log was truncated"
[ "$(wc -l <S_iops.log)" -eq 41 ] || die "S_iops.log: $(wc -l <S_iops.log) lines"
# numjobs: fio numbers the clones' logs 1..N
run --name=n --filename=d.dat --size=4m --rw=read --bs=4k --numjobs=2 \
	--number_ios=20 --write_iops_log=N
expect_rc 0
[ -f N_iops.1.log ] && [ -f N_iops.2.log ] || die "no N_iops.1/2.log"

# 5. A log is an output: never onto a device, nothing written in /dev
run --name=x --filename=d.dat --size=4m --rw=read --bs=4k \
	--number_ios=20 --write_io_trace=/dev/iorig-trace-test
[ "$rc" -ne 0 ] || die "a trace in /dev was accepted"
[ ! -e /dev/iorig-trace-test ] || { rm -f /dev/iorig-trace-test; die "wrote /dev/iorig-trace-test"; }
expect_in err "iorig-trace-test"

# 6. fio's logs of the same job: the same field counts and ddir values
if [ -n "$FIO" ]; then
	mkdir f && cd f || die "mkdir"
	"$FIO" --name=j --filename=../d.dat --size=4m --rw=randrw --bs=4k \
		--number_ios=100 --ioengine=psync --write_lat_log=F \
		--write_bw_log=F --log_offset=1 >/dev/null 2>&1 ||
		die "fio failed"
	cd .. || die "cd"
	run --name=j --filename=d.dat --size=4m --rw=randrw --bs=4k \
		--number_ios=100 --ioengine=psync --write_lat_log=I \
		--write_bw_log=I --log_offset=1
	expect_rc 0
	for k in clat lat bw; do
		[ "$(fields f/F_$k.1.log)" = "$(fields I_$k.1.log)" ] ||
			die "$k: fio $(fields f/F_$k.1.log) fields, iorig $(fields I_$k.1.log)"
		a=$(awk -F', ' '{ print $3 }' f/F_$k.1.log | sort -u | tr '\n' ' ')
		b=$(awk -F', ' '{ print $3 }' I_$k.1.log | sort -u | tr '\n' ' ')
		[ "$a" = "$b" ] || die "$k: ddir values fio '$a', iorig '$b'"
	done
	[ -s f/F_slat.1.log ] || [ ! -s I_slat.1.log ] || die "slat: fio empty, iorig not"
	echo "ok same fields as $FIO's logs"
else
	echo "note: no fio: format not compared"
fi
echo "ok logs"
