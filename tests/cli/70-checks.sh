#!/bin/sh
# --check and check=: PASS, FAIL and n/a in the text, table and JSON
# reports with the value the report itself shows; one result per unit;
# exit status 3 when one fails, below 1, 4 and signals in precedence; and
# every bad check is a usage error (2) before anything is created or run.
# lane: parallel
. "$(dirname "$0")/lib.sh"

NULLJOB="--ioengine=null --size=1m"

# ---- passing checks: exit 0, the values are the report's ----
run --name=r $NULLJOB --rw=randread --check='read.iops>=1' \
	--check='errors==0' --check='read.clat.p99<=1s' \
	--check='cpu.us_per_io<=1000000' --check='read.io_bytes>=1m' \
	--output-format=json
expect_rc 0
expect_empty err
json_is "len(d['checks'])" 5
expect_json "all(c['pass'] is True and c['reason'] is None for c in d['checks'])"
json_is "[c['metric'] for c in d['checks']]" \
	"['read.iops', 'errors', 'read.clat.p99', 'cpu.us_per_io', 'read.io_bytes']"
json_is "d['checks'][0]['value'] == d['jobs'][0]['read']['iops']" True
json_is "d['checks'][2]['value'] == d['jobs'][0]['read']['clat_ns']['percentiles']['99']" True
json_is "d['checks'][3]['value'] == d['jobs'][0]['summary']['us_per_io']" True
json_is "d['checks'][4]['value'] == d['jobs'][0]['read']['io_bytes']" True
json_is "[d['checks'][i]['threshold'] for i in (0, 2, 4)]" \
	"[1.0, 1000000000.0, 1048576.0]"
c0="{'expr': 'read.iops>=1', 'job': 'r', 'sweep_point': None, 'clone': 0"
c0="$c0, 'metric': 'read.iops', 'function': None, 'op': '>=', "
c0="$c0'threshold': 1.0, 'baseline': None, 'pass': True, 'reason': None, "
c0="${c0}'source': 'command line'}"
json_is "{k: v for k, v in d['checks'][0].items() if k != 'value'}" "$c0"
json_is "d['baseline']" None

# No checks: an empty array, and nothing about checks in the text.
run --name=r $NULLJOB --output-format=json
expect_rc 0
json_is "d['checks']" "[]"
run --name=r $NULLJOB
expect_rc 0
expect_not_in out '^checks:'

# ---- a failing check: exit 3, named on stderr, FAIL in the text ----
run --name=r $NULLJOB --rw=randread --check='read.iops>=1t' \
	--check='errors==0' --check='cv(read.iops)<=5%'
expect_rc 3
expect_in err "^iorig: check failed: job 'r': read.iops>=1t \(command line\)$"
[ "$(grep -c 'check failed' "$T/err")" -eq 1 ] || die "one failure on stderr"
expect_in out '^checks: 2 passed, 1 failed, 0 n/a$'
expect_in out '^  FAIL  r: read.iops>=1t  [0-9.]+[kMG]?, threshold 1.00T  \(command line\)$'
expect_in out '^  PASS  r: errors==0  0, threshold 0  \(command line\)$'
expect_in out '^  PASS  r: cv\(read.iops\)<=5%  0.00%, threshold 5.00%  \(command line\)$'

# The table keeps its rows; the checks follow as comments.
run --name=r $NULLJOB --rw=randread --check='read.iops>=1t' \
	--check='errors==0' --output-format=table
expect_rc 3
[ "$(grep -vc '^#' "$T/out")" -eq 2 ] || die "expected a header and a row"
expect_in out '^# check FAIL r: read.iops>=1t  .*\(command line\)$'
expect_in out '^# check PASS r: errors==0  0, threshold 0  \(command line\)$'

# ---- n/a: a direction the job does not do ----
run --name=r $NULLJOB --rw=read --check='write.iops>=1' \
	--check='read.ios==256' --output-format=json
expect_rc 0
json_is "[c['pass'] for c in d['checks']]" "[None, True]"
json_is "d['checks'][0]['value']" None
json_is "d['checks'][0]['reason']" "the job does no writes"
run --name=r $NULLJOB --rw=read --check='write.iops>=1'
expect_rc 0
expect_in out '^  n/a   r: write.iops>=1  the job does no writes  \(command line\)$'
expect_in out '^checks: 0 passed, 0 failed, 1 n/a$'
# Scoped to the job, the same check is a usage error.
run --name=r $NULLJOB --rw=read --filename=r.dat --check='r:write.iops>=1'
expect_rc 2
expect_in err "^iorig: command line argument [0-9]+: option 'check': 'r:write.iops>=1': job 'r' does no writes"
[ ! -e r.dat ] || die "r.dat was created"

# ---- one result per unit: clones, sweep points, scopes ----
run --name=c $NULLJOB --numjobs=3 --check='errors==0' --output-format=json
expect_rc 0
json_is "[(c['job'], c['clone']) for c in d['checks']]" \
	"[('c', 0), ('c', 1), ('c', 2)]"
run --name=g $NULLJOB --numjobs=3 --group_reporting --check='errors==0' \
	--output-format=json
expect_rc 0
json_is "[(c['job'], c['clone']) for c in d['checks']]" "[('g', None)]"
run --name=s $NULLJOB --rw=randread --sweep=bs:4k,8k \
	--check='s:read.ios>=200' --output-format=json
expect_rc 3
json_is "[(c['sweep_point'], c['value'], c['pass']) for c in d['checks']]" \
	"[('bs=4k', 256.0, True), ('bs=8k', 128.0, False)]"
run --name=s $NULLJOB --rw=randread --sweep=bs:4k,8k \
	--check='s:read.ios>=200'
expect_in out '^  FAIL  s\[bs=8k\]: read.ios>=200  128, threshold 200  \(command line\)$'
run --name=a $NULLJOB --name=b $NULLJOB --check='b:errors==0' \
	--check='errors==0' --output-format=json
expect_rc 0
json_is "[(c['job'], c['expr']) for c in d['checks']]" \
	"[('a', 'errors==0'), ('b', 'b:errors==0'), ('b', 'errors==0')]"

# ---- check= in job files ----
cat >q.job <<'EOF'
[global]
ioengine=null
size=1m
check=errors==0
check=write.iops>=1
check=w:write.io_bytes>=900k

[r]
rw=randread
check=read.iops>=1
check = read.lat.max <= 10s

[w]
rw=write
kb_base=1000
check=write.io_bytes>=900k
EOF
run q.job --output-format=json
expect_rc 0
want="[('r', 'errors==0', 'q.job:4', True), ('r', 'write.iops>=1', 'q.job:5', None), "
want="$want('r', 'read.iops>=1', 'q.job:10', True), ('r', 'read.lat.max <= 10s', 'q.job:11', True), "
want="$want('w', 'errors==0', 'q.job:4', True), ('w', 'write.iops>=1', 'q.job:5', True), "
want="$want('w', 'w:write.io_bytes>=900k', 'q.job:6', True), ('w', 'write.io_bytes>=900k', 'q.job:16', True)]"
json_is "[(c['job'], c['expr'], c['source'], c['pass']) for c in d['checks']]" "$want"
# kb_base=1000 applies to the job's own sizes, and its globals' too.
json_is "[c['threshold'] for c in d['checks'] if c['metric'] == 'write.io_bytes']" \
	"[900000.0, 900000.0]"
run --parse-only q.job
expect_rc 0
expect_in out '^  check=errors==0;write.iops>=1;w:write.io_bytes>=900k;read.iops>=1;read.lat.max <= 10s$'
# The command line's checks come after a unit's own.
run q.job --check='errors==0' --output-format=json
json_is "[c['source'] for c in d['checks'] if c['job'] == 'r']" \
	"['q.job:4', 'q.job:5', 'q.job:10', 'q.job:11', 'command line']"

# ---- exit status precedence: signal > 1 > 4 > 3 > 0 ----
# 4 over 3: blocks that were never written do not verify.
mkrand v.dat 1048576
run --name=v --filename=v.dat --size=1m --rw=write --verify=crc32c \
	--verify_only=1 --check='verify.mismatches==0' --output-format=json
expect_rc 4
json_is "d['checks'][0]['pass']" False
json_is "d['checks'][0]['value'] == d['jobs'][0]['verify']['mismatches'] > 0" True
# 1 over 3 and 4: a job fails, another's check fails too.
if [ -f /proc/version ]; then
	run --name=bad --filename=/proc/version --size=1m \
		--name=ok $NULLJOB --check='ok:read.iops>=1t' \
		--check='errors==0' --output-format=json
	expect_rc 1
	json_is "[(c['job'], c['pass'], c['reason']) for c in d['checks']]" \
		"[('bad', None, 'not run'), ('ok', False, None), ('ok', True, None)]"
fi
# A signal over 3: the report still lists the failed check.
"$IORIG" --name=t --ioengine=null --size=1m --time_based --runtime=30s \
	--check='read.iops>=1t' --output-format=json >"$T/out" 2>"$T/err" &
pid=$!
wait_threads "$pid" 2 10000	# its job runs
kill -INT "$pid"
wait_gone "$pid" 10
expect_rc 130
json_is "d['interrupted']" True
json_is "d['checks'][0]['pass']" False

# ---- bad checks: exit 2, nothing created or written ----
for c in 'read.iop>=1' 'read.iops' 'read.iops=>1' 'read.iops>=' \
	 '>=1' 'read.iops>=1x' 'read.iops>=1.5GiB/s' 'foo(read.iops)>=1' \
	 'cv(read.iops>=1' 'read.clat.p0<=1ms' 'read.clat.p99<=2 parsecs' \
	 'read.io_bytes>=1.3' 'x:read.iops>=1' ':read.iops>=1' \
	 'read.iops>=0.9*baseline' 'cv(read.iops)<=baseline' \
	 'n:write.iops>=1'; do
	run --name=n --filename=n.dat --size=1m --rw=read --output=o.json \
		--check='errors==0' --check="$c"
	expect_rc 2
	expect_empty out
	grep -qF -- "option 'check': '$c'" "$T/err" ||
		die "the message does not name the check '$c'"
	expect_in err "^iorig: command line argument 7: option 'check': .*(expected|no |does no|baseline)"
	[ ! -e n.dat ] && [ ! -e o.json ] ||
		die "'$c': a file was created before the check was refused"
done
run --name=n --filename=n.dat --size=1m --check=
expect_rc 2
expect_in err "option 'check': needs a value"
# --parse-only checks them too.
run --parse-only --name=n --filename=n.dat --size=1m --check='read.iop>=1'
expect_rc 2
expect_in err "unknown metric 'read.iop'"
# In a job file: the file, the line and what was expected.
printf '[n]\nfilename=n.dat\nsize=1m\ncheck=read.iop>=1\n' >bad.job
run bad.job
expect_rc 2
expect_in err "^iorig: bad.job:4: option 'check': 'read.iop>=1': unknown metric 'read.iop'; expected read. or write."
printf '[n]\nfilename=n.dat\nsize=1m\nrw=read\ncheck=write.bw>=1m\n' >bad.job
run bad.job
expect_rc 2
expect_in err "^iorig: bad.job:5: option 'check': 'write.bw>=1m': job 'n' does no writes"
printf '[global]\ncheck=m:errors==0\n[n]\nfilename=n.dat\nsize=1m\n' >bad.job
run bad.job
expect_rc 2
expect_in err "^iorig: bad.job:2: option 'check': 'm:errors==0': no job called 'm' follows this global section"
printf '[n]\nfilename=n.dat\nsize=1m\ncheck=m:errors==0\n' >bad.job
run bad.job
expect_rc 2
expect_in err "^iorig: bad.job:4: option 'check': .*cannot name job 'm'"
[ ! -e n.dat ] || die "n.dat was created"

exit 0
