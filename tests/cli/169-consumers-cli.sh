#!/bin/sh
# How consumers of fio call it (issue 13), with iorig in fio's place:
#   kubestr pkg/fio/fio.go runFIOCommand: `fio --directory DIR JOBFILE
#       --output-format=json`, any byte on stderr is a failure, stdout is
#       json.Unmarshal'ed whole; its job (pkg/fio/fio_jobs.go testJob1)
#       has bare time_based, which fio leaves out of "job options"
#   ceph cbt benchmark/fio.py prefill_command: `--size 64M`, a job
#       option's value as the next argument (fio's getopt takes it)
#   fio-plot bench_fio: write_*_log with log_avg_msec and the report's
#       bw/iops samples, which fio takes every log_avg_msec then (fio-plot's
#       "IOP/s sigma %" table reads iops_stddev)
# Outside truth: the files made in DIR (as fio names them), the options given, the number of
# log_avg_msec windows in the time asked and, where fio is installed, fio's
# own counts for the same job.
# lane: parallel
. "$(dirname "$0")/lib.sh"

mkdir dd
cat >kj.fio <<'EOF'
[global]
randrepeat=0
verify=0
ioengine=psync
gtod_reduce=1
[job1]
name=read_iops
bs=4K
size=1m
readwrite=randread
time_based
ramp_time=100ms
runtime=300ms
EOF
"$IORIG" --directory "$T/dd" kj.fio --output-format=fio-json >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0
expect_empty err
# fio names the file after the section, [job1], not its name=read_iops.
[ "$(ls dd)" = job1.0.0 ] || die "files made in --directory: $(ls dd)"
"$PY" - "$T/out" <<'EOF' || die "kubestr's reading failed"
import json, sys
d = json.load(open(sys.argv[1]))          # stdout is one JSON document
g = d["global options"]
assert g == {"directory": sys.argv[1].rsplit("/", 1)[0] + "/dd",
             "randrepeat": "0", "verify": "0", "ioengine": "psync",
             "gtod_reduce": "1"}, g
# kubestr's FioJobOptions: name, bs, size, rw (fio's main name for
# readwrite), ramp_time, runtime; the bare time_based is not there.
o = d["jobs"][0]["job options"]
assert o == {"name": "read_iops", "bs": "4K", "size": "1m", "rw": "randread",
             "ramp_time": "100ms", "runtime": "300ms"}, o
assert d["jobs"][0]["jobname"] == "read_iops"
assert d["jobs"][0]["read"]["total_ios"] > 0
EOF

# cbt's prefill: --size 64M; and --name NAME.
run --parse-only --ioengine null --rw write --bs 4M --size 8M --name prefill
expect_rc 0
expect_in out '^\[prefill\]$'
expect_in out '^  size=8388608$'
expect_in out '^  bs=4194304$'

# fio leaves "global options" out when there are none.
run --output-format=fio-json --name=n --ioengine=null --size=64k
expect_rc 0
json_is "'global options' in d" "False"

# bench-fio: write_iops_log + log_avg_msec=250 over 1 s: the report's
# samples are the log's windows, four (the last may be cut), not the two
# of the default 500 ms; an explicit iopsavgtime stays.
samples() {
	run --output-format=fio-json --name=s --ioengine=null --size=1g \
		--rw=read --time_based --runtime=1s --rate_iops=2000 "$@"
	expect_rc 0
	json "d['jobs'][0]['read']['iops_samples']"
}
a=$(samples)
b=$(samples --write_iops_log=s --write_bw_log=s --log_avg_msec=250)
c=$(samples --write_iops_log=s --log_avg_msec=250 --iopsavgtime=100)
[ "$a" -ge 1 ] && [ "$a" -le 2 ] || die "default 500 ms: $a samples"
[ "$b" -ge 3 ] && [ "$b" -le 4 ] || die "log_avg_msec=250: $b samples, not 3-4"
[ "$c" -ge 9 ] && [ "$c" -le 10 ] || die "iopsavgtime=100: $c samples, not 9-10"
[ "$(wc -l <s_iops.1.log)" -ge 3 ] || die "the iops log has $(wc -l <s_iops.1.log) lines"
# fio's count is its meaning as one of three runs shows it: in the
# parallel lane beside the test guest, fio's 1 s run once took 2 samples
# where iorig took 4 (a stall of its own; quiet, it takes 3 or 4).
if command -v fio >/dev/null 2>&1 && fio --version 2>/dev/null | grep -q '^fio-3'; then
	for try in 1 2 3; do
		f=$(fio --output-format=json --name=s --ioengine=null --size=1g \
			--rw=read --time_based --runtime=1s --rate_iops=2000 \
			--write_iops_log=f --write_bw_log=f --log_avg_msec=250 \
			2>/dev/null | "$PY" -c 'import json,sys
print(json.load(sys.stdin)["jobs"][0]["read"]["iops_samples"])')
		[ $((f - b)) -le 1 ] && [ $((b - f)) -le 1 ] && break
	done
	[ $((f - b)) -le 1 ] && [ $((b - f)) -le 1 ] ||
		die "fio took $f samples of the same job in 3 runs, iorig $b"
fi
exit 0
