#!/bin/sh
# steadystate=, ss_dur=, ss_ramp= with fio's meaning: a job at a constant
# rate (rate_iops on the null engine) is steady as soon as its window of
# ss_dur is full, and stops then, long before its runtime. Outside truth:
# the wall clock around the run, and fio on the same job file (attained,
# and its runtime within a second of iorig's). A criterion that cannot be
# met (a limit of 0) runs the full runtime and says not attained; ss_ramp
# delays the window. Under group_reporting the group is judged on its
# clones' sums and stops together, as fio's; fio's layout pads a window
# that is not full with zeros, as fio does. The text report says it; bad
# criteria are refused. fio runs each compared job side by side with
# iorig's (rate-held null I/O keeps neither busy: a few per cent of a
# CPU), so the test takes its windows' length once, not twice.
# lane: paced
. "$(dirname "$0")/lib.sh"
have_fio=
command -v fio >/dev/null 2>&1 && have_fio=1

# fio_bg ARGS: fio --output-format=json ARGS in the background, into
# fio.json; fio_wait: waits for it, fails if fio did. A test that fails
# meanwhile stops that fio.
fpid=
trap '[ -n "$fpid" ] && kill "$fpid" 2>/dev/null; cd /; rm -rf "$T"' EXIT
fio_bg() {
	[ -n "$have_fio" ] || return 0
	fio --output-format=json "$@" >fio.json 2>/dev/null &
	fpid=$!
}
fio_wait() {
	[ -n "$have_fio" ] || return 1
	wait "$fpid"
	frc=$?
	fpid=
	[ "$frc" = 0 ] || die "fio failed"
}

cat >ss.fio <<'EOF2'
[ss]
ioengine=null
size=1g
time_based
runtime=20
rate_iops=2000
ss=iops:5%
ss_dur=2
EOF2
fio_bg ss.fio
t0=$(now_ms)
run --output-format=fio-json ss.fio
t1=$(now_ms)
expect_rc 0
[ $((t1 - t0)) -lt 5000 ] || die "steady job ran $((t1 - t0)) ms of 20 s"
j="d['jobs'][0]"
json_is "$j['steadystate']['attained']" 1
json_is "$j['steadystate']['ss']" "iops:5.000000%"
json_is "$j['steadystate']['duration']" 2
json_is "len($j['steadystate']['data']['iops'])" 2
expect_json "abs($j['steadystate']['data']['iops_mean'] - 2000) < 100"
expect_json "abs($j['steadystate']['data']['bw_mean'] - 2000 * 4096) < 400000"
expect_json "float($j['steadystate']['criterion'].rstrip('%')) < 5"
rt=$(json "$j['job_runtime']")
if fio_wait; then
	ft=$(jsonf fio.json "d['jobs'][0]['job_runtime']")
	[ "$(jsonf fio.json "d['jobs'][0]['steadystate']['attained']")" = 1 ] ||
		die "fio did not attain steady state"
	[ $((rt - ft)) -lt 1000 ] && [ $((ft - rt)) -lt 1000 ] ||
		die "runtime: iorig $rt ms, fio $ft ms"
fi

# iorig's JSON: when, the samples, the value against the limit; quicker
# with four samples of 250 ms (ss_interval, newer fio's option).
# (One run, the JSON and the text report one after the other.)
sed 's/^ss_dur=2$/ss_dur=1\nss_interval=250ms/' ss.fio >ss2.fio
run --output-format=json,text ss2.fio
expect_rc 0
split_out
cp "$T/out.text" "$T/text" || die "no text report"
cp "$T/out.json" "$T/out" || die "no JSON report"
s="d['jobs'][0]['steadystate']"
json_is "($s['criterion'], $s['limit'], $s['limit_pct'], $s['attained'])" \
	"('iops', 5.0, True, True)"
expect_json "$s['attained_ns'] >= 1e9" "attained once the window (4 x 250 ms) was full"
expect_json "$s['attained_ns'] <= d['jobs'][0]['runtime_ns']"
expect_json "0 <= $s['value'] < 5"
expect_json "len($s['iops']) == len($s['bw_bytes']) == 4"
# The text report.
cp "$T/text" "$T/out"
expect_in out '^  steadystate iops:5%: attained=yes at [0-9.]+s, bw=.*, mean dev=[0-9.]+%$'

# Never steady (limit 0): the full runtime, not attained; ss_ramp holds
# the window back (a 600 ms ramp, then 250 ms samples: 2 in 1.1 s).
run --name=n --ioengine=null --size=1g --time_based --runtime=1100ms \
	--rate_iops=1000 --ss=iops_slope:0 --ss_dur=1 --ss_interval=250ms \
	--ss_ramp=600ms --output-format=json
expect_rc 0
s="d['jobs'][0]['steadystate']"
expect_json "d['jobs'][0]['runtime_ns'] >= 1.1e9" "ran its runtime"
json_is "($s['attained'], $s['attained_ns'])" "(False, None)"
json_is "len($s['iops'])" 2
# Without ss_dur there is no detection (fio's default), and no section.
run --name=n --ioengine=null --size=1m --ss=bw:1% --output-format=json
expect_rc 0
json_is "d['jobs'][0]['steadystate']" None

# group_reporting: the group is judged on its clones' sums, as fio judges
# it, and every clone stops when the group is steady: three clones of
# 1000 IOPS each give samples of 3000 and stop together, as fio's do.
set -- --name=g --thread --ioengine=null --size=1g --rw=randread \
	--group_reporting --numjobs=3 --time_based --runtime=20 \
	--rate_iops=1000 --ss_dur=2 --ss=iops:5% --ss_ramp=1
fio_bg "$@"
t0=$(now_ms)
run --output-format=fio-json "$@"
t1=$(now_ms)
expect_rc 0
[ $((t1 - t0)) -lt 8000 ] || die "steady group ran $((t1 - t0)) ms of 20 s"
s="d['jobs'][0]['steadystate']"
json_is "$s['attained']" 1
expect_json "all(abs(v - 3000) < 150 for v in $s['data']['iops'])" \
	"the group's samples are the sum of its three clones'"
expect_json "d['jobs'][0]['job_runtime'] < 3 * 8000" "every clone stopped"
if fio_wait; then
	[ "$(jsonf fio.json "d['jobs'][0]['steadystate']['attained']")" = 1 ] ||
		die "fio did not attain steady state"
	jsonf fio.json "all(abs(v - 3000) < 150 for v in d['jobs'][0]['steadystate']['data']['iops'])" |
		grep -qx True || die "fio's group samples are not the sums"
fi
# A group that disagrees on its criterion cannot be judged as one: refused
# (fio rejects the job too).
run --ioengine=null --size=1m --ss_dur=2 --group_reporting --name=a \
	--ss=iops:5% --name=b --ss=iops:6% --parse-only
expect_rc 2
expect_in err "report together .* differ in steadystate"
run --ioengine=null --size=1m --ss_dur=2 --name=a --ss=iops:5% \
	--name=b --ss=iops:6% --parse-only
expect_rc 0
run --ioengine=null --size=1m --ss_dur=2 --group_reporting --name=a \
	--ss=iops:5% --name=b --ss=iops:6% --stonewall --parse-only
expect_rc 0

# fio's layout never steady within the run (ss_ramp longer than it): the
# window's samples as fio gives them, zeros for the whole window (fio's
# t/steadystate_tests.py averages them), the criterion 0.
set -- --name=r --ioengine=null --size=1g --time_based --runtime=500ms \
	--ss=bw_slope:0.1% --ss_dur=3 --ss_ramp=10
fio_bg "$@"
run --output-format=fio-json "$@"
expect_rc 0
json_is "$s['data']['iops']" "[0, 0, 0]"
json_is "$s['data']['bw']" "[0, 0, 0]"
json_is "($s['attained'], $s['criterion'], $s['data']['iops_mean'])" \
	"(0, '0.000000%', 0)"
if fio_wait; then
	[ "$(jsonf fio.json "d['jobs'][0]['steadystate']['data']['iops']")" = \
		"[0, 0, 0]" ] || die "fio's window: $(jsonf fio.json "d['jobs'][0]['steadystate']['data']")"
fi

for bad in ss=iops ss=speed:1 ss=iops:x ss=bw:-1 "ss_dur=500ms"; do
	run --name=x --ioengine=null --size=1m "--$bad" --parse-only
	expect_rc 2
	expect_in err "option '(ss|steadystate|ss_dur)'"
	expect_empty out
done
