#!/bin/sh
# CPU placement with fio's meaning: cpus_allowed=LIST, cpumask=MASK and
# cpus_allowed_policy=shared|split. Outside truth: the kernel's
# Cpus_allowed_list of each of iorig's threads (/proc/PID/task/TID/status)
# while the run goes; split hands clone i the (i mod n)-th CPU of the set
# (over the run's clones in order, as fio's thread numbers), and the JSON
# report says per clone what the kernel allowed. Bad lists are refused at
# parse time, naming the option.
# lane: parallel
. "$(dirname "$0")/lib.sh"

ncpu=$(getconf _NPROCESSORS_CONF)
[ "$ncpu" -ge 2 ] || skip "needs 2 CPUs, this machine has $ncpu"

cat >cpu.fio <<'EOF2'
[global]
ioengine=null
time_based
runtime=3s
thinktime=1ms
cpus_allowed=0-1
cpus_allowed_policy=split
[a]
numjobs=3
[m]
cpumask=0x2
cpus_allowed_policy=shared
[s]
cpus_allowed_policy=shared
EOF2
"$IORIG" --output-format=json cpu.fio >out 2>err &
pid=$!
# a.0 -> 0, a.1 -> 1, a.2 -> 0; m (mask 0x2) -> 1; s and the main thread
# (and the engine's none) -> 0-1. Read every 50 ms until the placement
# shows or the run (3 s, each I/O followed by 1 ms of think time: a wait,
# not five busy threads) ends.
n0=0 n1=0
while [ "$n0" != 2 ] || [ "$n1" != 2 ]; do
	running $pid || break
	sleep 0.05
	lists=$(for t in /proc/$pid/task/*; do
		sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$t/status"
	done 2>/dev/null | sort | tr '\n' ' ')
	n0=$(echo "$lists" | tr ' ' '\n' | grep -cx 0)
	n1=$(echo "$lists" | tr ' ' '\n' | grep -cx 1)
done
wait $pid
rc=$?
expect_rc 0
[ "$n0" = 2 ] && [ "$n1" = 2 ] ||
	die "threads' Cpus_allowed_list: '$lists'; expected two on 0, two on 1"
json_is "[j['cpus'] for j in d['jobs']]" "['0', '1', '0', '1', '0-1']"
json_is "d['jobs'][0]['options']['cpus_allowed_policy']" split
json_is "d['jobs'][3]['options']['cpus_allowed']" 1

# fio reads cpumask as a number: 3 = CPUs 0 and 1; cpus_allowed as a list.
run --name=x --ioengine=null --size=1m --cpumask=3 --parse-only
expect_rc 0
expect_in out '^  cpus_allowed=0-1$'
for bad in "cpus_allowed=$ncpu" "cpus_allowed=1-0" "cpus_allowed=0,x" \
	"cpumask=0" "cpumask=0x$(printf %x $((1 << ncpu)))" \
	"cpus_allowed_policy=spread"; do
	run --name=x --ioengine=null --size=1m "--$bad" --parse-only
	expect_rc 2
	expect_in err "option '${bad%%=*}'"
	expect_empty out
done

# A clone pinned to one CPU batches as under taskset (worker.c's
# cpus_allowed()): its figures are sane and it ran where it was told.
run --name=p --ioengine=null --size=16m --cpus_allowed=1 \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['cpus']" 1
json_is "d['jobs'][0]['read']['io_bytes']" 16777216
