#!/bin/sh
# Runs every unit test program given as arguments, every CLI test script
# in tests/cli/ and, in boots of the test guest (tests/guest/run.sh), every
# device case in tests/guest/cases/. Exit 0 passes, 77 skips (the
# test says why), anything else fails. Prints one line per test and a
# closing "N passed, N failed, N skipped" line; exits 1 when anything
# failed.
#
# Two lanes. A CLI test whose script has the line "# lane: parallel" (and
# every unit test program) checks nothing that depends on the machine's
# load: counts, bytes, strace, fio's meaning, never how long something
# took or how fast it went. Those run first, IORIG_TEST_JOBS at a time
# (default: the number of CPUs, at most 2), beside the test guest's boots.
# One that uses a shared resource (zram, the cgroup hierarchy, MPI's
# daemons) names it on a line "# lock: NAME": the parallel tests of one
# NAME run one after another, in the order of their numbers, as one
# chain that takes one place in the lane and starts before the lone
# tests (a chain is long; started last it would be the lane's tail).
# The lone tests start longest first, by each one's last time in
# IORIG_TEST_TIMES (a directory, default build/test-times/: a file per
# test, named after its path with '/' as '_', holds its seconds, written
# when it passes in this lane; a test without one there takes its line
# in tests/times.txt, the times of one whole run kept in the tree, so
# that a fresh clone's first run is ordered too; one in neither goes
# first; a tie in the order of their numbers), so that the lane ends on
# short ones.
# Every other test checks what a clock shows (timing, rates, signals
# sent after a sleep) and runs when the parallel lane has ended. One
# marked "# lane: paced" uses little of the CPUs (its CPU time under half
# its wall time, run alone: it mostly waits for a rate's timetable, a
# throttled device, a sleep) and was seen to hold beside two other such
# tests, plain and under the sanitizers: those run first,
# IORIG_PACED_JOBS at a time (default: half as many again as the CPUs
# counted for IORIG_TEST_JOBS, rounded down: 3 on 2 CPUs, 1 on one),
# longest first by their last times, locks as above. Three at a time
# took 38-39 s in 8 rounds of the 26 paced tests here, none failing,
# against 57-60 s two at a time; four took 28-31 s, but in 21 rounds
# 86-rate failed once and 87-thinktime's 100 ms of stalls came out as
# 114 ms once, a CPU-bound sleep's overshoot.
# 86-rate then failed once three at a time in CI (run 48): it runs
# alone now. The rest then run alone, one after
# another, on an otherwise idle machine. Lines come out as tests end
# (parallel and paced ones in the order they end). Before the closing
# count, a "lanes:" line gives each lane's length and the sum of its
# tests' times (what a test moved between lanes saves or costs) and of
# their CPU times (each test's process tree, its waited processes; for
# the guest's boots, their QEMUs'), and a "most CPU" line the parallel
# lane's 10 tests that took the most CPU time (where the lane, beside
# the guest's boots, is CPU-bound, what to make lighter).
#
# The serial lane starts when the parallel lane and the guest's boots
# have ended. IORIG_GUEST_BESIDE=1 starts it when the parallel lane
# ends, the boots still running lowered to the lowest priority
# (SCHED_IDLE by chrt(1), else nice 19 by renice(1)) so that they get
# only the CPU time the serial tests leave, and waits for the boots
# after it. Not by default: on this 2-CPU virtual machine two busy
# loops at SCHED_IDLE still failed tests/cli/86-rate.sh 2 times in 3
# (rate missed, a backlog of 2 I/Os), which passed 3 times in 3 without
# them; a machine whose timing tests hold beside idle-policy work saves
# what is left of the boots when the parallel lane ends. Boots at the
# lowest priority on a machine busy with other work could also be
# starved past their limits: with IORIG_GUEST_BOOTS=1 the one boot's
# QEMU, at SCHED_IDLE from the parallel lane's end, got 15% of a CPU
# and less, even once the suite had ended; two of its cases ran out of
# their 300 s and 14 were never reached (make test took 857 s).
# IORIG_TEST_JOBS=3 beside the two boots: parallel lane 264 s, the
# boots 248 s (with 2: 241-289 s and 155-207 s from run to run), 456 s
# in all: no gain this machine's spread shows, so 2 stays.
#
# The guest's cases are shared between IORIG_GUEST_BOOTS boots (default:
# the number of CPUs, at most 2, at most one per case; 1 when
# IORIG_GUEST_CASES picks cases): each boot claims the next case no boot
# has claimed yet as it finishes one (IORIG_GUEST_CLAIMS, a directory of
# claims, tests/guest/run.sh), so the boots stay even however long each
# case is, and a case no boot reached (every boot failed first) fails
# here as "not run". Each boot is a QEMU that keeps one CPU busy when
# it may, all started first and outside the IORIG_TEST_JOBS count; a
# boot that ends gives the parallel lane one more place (its CPU), so
# the lane's tests that still wait for a place need not wait for
# another test's end (under load the lane outlasts the boots: 967 s
# against 681 s here with other work on the machine).
#
# Each test runs under timeout(1) in a process group of its own: one that
# is still running after IORIG_TEST_TIMEOUT seconds (default 300; 0: no
# limit) fails with "timed out after N s", and whatever is left of its
# process group is killed, so a hung test fails that test instead of
# hanging the suite. The test guest watches itself (its boot, each case,
# its progress: tests/guest/run.sh); its limit here is IORIG_GUEST_TIMEOUT
# (default 1200) plus IORIG_TEST_TIMEOUT, for fetching its kernel the
# first time.
top=$(cd "$(dirname "$0")/.." && pwd)
limit=${IORIG_TEST_TIMEOUT:-300}
case $limit in
''|*[!0-9]*) echo "IORIG_TEST_TIMEOUT='$limit': expected whole seconds" >&2
	exit 2 ;;
esac
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
[ "$cpus" -gt 2 ] 2>/dev/null && cpus=2
jobs=${IORIG_TEST_JOBS:-$cpus}
pjobs=${IORIG_PACED_JOBS:-$((cpus * 3 / 2))}
for v in "IORIG_TEST_JOBS=$jobs" "IORIG_PACED_JOBS=$pjobs"; do
	case ${v#*=} in
	''|*[!0-9]*|0) echo "${v%%=*}='${v#*=}': expected a whole number" \
		"of tests at a time (1 or more)" >&2
		exit 2 ;;
	esac
done
command -v timeout >/dev/null 2>&1 || {
	[ "$limit" -eq 0 ] ||
		echo "note: no timeout(1) (coreutils): tests run without limit"
	limit=0
}
times=${IORIG_TEST_TIMES:-$top/build/test-times}
log=$(mktemp -d "${TMPDIR:-/tmp}/iorig-tests.XXXXXX")
trap 'rm -rf "$log"' EXIT
: >"$log/results"

# timed PGIDFILE ARGS...: runs ARGS under the limit. timeout(1) puts itself
# and the test in a new process group; the test's first act records its id
# in PGIDFILE so that what outlives a timed-out test can be killed.
timed() {
	pgfile=$1; shift
	rm -f "$pgfile"
	if [ "$limit" -eq 0 ]; then
		"$@"
		return
	fi
	timeout -k 5 "$limit" sh -c \
		'cut -d " " -f 5 /proc/$$/stat >"$0" 2>/dev/null; exec "$@"' \
		"$pgfile" "$@"
}

# cpu_mark FILE: the CPU times of this shell's waited children so far,
# the shell's own times, into FILE (called in the shell itself: in a
# pipe or $(...), a subshell's count starts at nothing). cpu_between A
# B: the CPU time (user + system, s) of those waited between two marks,
# the whole of a test's process tree (what its processes waited for:
# timeout(1) waits for the test, the test for its programs).
cpu_mark() {
	times >"$1"
}
cpu_between() {
	awk 'function s(f, a) { split(f, a, "m"); return a[1] * 60 + a[2] }
	     FNR == 2 { c[++n] = s($1) + s($2) }
	     END { printf "%.1f\n", n == 2 ? c[2] - c[1] : 0 }' "$1" "$2"
}

# say FILE: prints FILE whole, not interleaved with another test's lines.
say() {
	if command -v flock >/dev/null 2>&1; then
		flock "$log/results" cat "$1"
	else
		cat "$1"
	fi
}

# run_one NAME ARGS...: runs one test; its verdict (pass, fail or skip) is
# appended to $log/results, its lines printed.
run_one() {
	name=$1; shift
	base="$log/$(echo "$name" | tr '/' '_')"
	out="$base.log"
	start=$(date +%s)
	cpu_mark "$base.cpu"
	timed "$base.pgid" "$@" >"$out" 2>&1
	rc=$?
	end=$(date +%s)
	secs=$((end - start))
	cpu_mark "$base.cpu1"
	cpu=$(cpu_between "$base.cpu" "$base.cpu1")
	echo "$secs $end $cpu $name" >>"$log/times.$lane"
	if [ "$limit" -gt 0 ] && [ "$secs" -ge "$limit" ] &&
	   { [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; }; then
		pg=$(cat "$base.pgid" 2>/dev/null)
		[ -n "$pg" ] && kill -KILL "-$pg" 2>/dev/null
		verdict=fail
		{ echo "FAIL $name: timed out after $limit s"
		  sed 's/^/    | /' "$out" | tail -n 20; } >"$base.say"
	else
		case $rc in
		0) verdict=pass; echo "PASS $name (${secs}s)" >"$base.say"
		   [ "$lane" = serial ] || { mkdir -p "$times" &&
			echo "$secs" >"$times/$(echo "$name" | tr / _)"; } \
			2>/dev/null ;;
		77) verdict=skip
		    echo "SKIP $name: $(grep -i 'skip' "$out" | tail -n 1)" \
			>"$base.say" ;;
		*) verdict=fail
		   # What failed first (the tail may be a long report), then
		   # the end.
		   { echo "FAIL $name (exit $rc)"
		     grep -m 8 -E '^FAILED|^AssertionError|^[A-Za-z]+Error: ' \
			"$out" | sed 's/^/    ! /'
		     sed 's/^/    | /' "$out" | tail -n 40; } >"$base.say" ;;
		esac
	fi
	say "$base.say"
	echo "$verdict" >>"$log/results"
}

# run_guest K: boots the test guest once, its files named after K; the
# boots claim their cases from $log/claims. Each case is a test here,
# with its own line and verdict as run.sh prints them; a guest that
# cannot be made here is one skip, one that fails as a whole (no boot, a
# hang) one failure besides its cases.
run_guest() {
	name=tests/guest/run.sh
	base="$log/guest$1"
	all_limit=$limit
	[ "$limit" -gt 0 ] &&
		limit=$(( ${IORIG_GUEST_TIMEOUT:-1200} + limit ))
	start=$(date +%s)
	cpu_mark "$base.cpu"
	IORIG_GUEST_CLAIMS=$log/claims IORIG_GUEST_PIN=$1 \
		timed "$base.pgid" sh "$top/$name" >"$base.log" 2>&1
	rc=$?
	secs=$(( $(date +%s) - start ))
	cpu_mark "$base.cpu1"
	: >"$base.verdicts"
	if [ "$limit" -gt 0 ] && [ "$secs" -ge "$limit" ] &&
	   { [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; }; then
		pg=$(cat "$base.pgid" 2>/dev/null)
		[ -n "$pg" ] && kill -KILL "-$pg" 2>/dev/null
		{ echo "FAIL $name: timed out after $limit s"
		  sed 's/^/    | /' "$base.log" | tail -n 20; } >"$base.say"
		echo fail >"$base.verdicts"
	elif [ "$rc" -eq 77 ]; then
		echo "SKIP $name: $(grep -i 'skip' "$base.log" | tail -n 1)" \
			>"$base.say"
		echo skip >"$base.verdicts"
		: >"$log/guest-skipped"
	else
		cp "$base.log" "$base.say"
		sed -n 's/^\(PASS\|FAIL\|SKIP\) tests\/guest\/.*/\1/p' \
			"$base.log" | tr 'A-Z' 'a-z' >"$base.verdicts"
		if [ "$rc" -ne 0 ] && ! grep -q '^fail$' "$base.verdicts"; then
			{ echo "FAIL $name (exit $rc)"
			  sed 's/^/    | /' "$base.log" | tail -n 40; } >"$base.say"
			echo fail >>"$base.verdicts"
		fi
	fi
	limit=$all_limit
	echo "$secs $(date +%s) $(cpu_between "$base.cpu" "$base.cpu1")" \
		"guest$1" >>"$log/times.guest"
	# Its CPU to the parallel lane: one more token (opened read-write,
	# which never blocks, should the lane have ended).
	[ -p "$log/tokens" ] && echo 1<>"$log/tokens"
	say "$base.say"
	cat "$base.verdicts" >>"$log/results"
}

# run_name NAME: a unit test program is run as it is, a CLI script by sh.
run_name() {
	case $1 in
	tests/cli/*) run_one "$1" sh "$top/$1" ;;
	*) run_one "$1" "$top/$1" ;;
	esac
}

# idle: how the boots go to the lowest priority (chrt or renice), if
# they may run beside the serial lane.
idle=
case ${IORIG_GUEST_BESIDE:-0} in
0) ;;
1) if command -v chrt >/dev/null 2>&1 && chrt -i 0 true 2>/dev/null &&
	command -v pgrep >/dev/null 2>&1; then
	idle=chrt
   elif command -v renice >/dev/null 2>&1; then
	idle=renice
   fi ;;
*) echo "IORIG_GUEST_BESIDE='$IORIG_GUEST_BESIDE': expected 0 or 1" >&2
   exit 2 ;;
esac

# idle_guests: every process (each thread) of the boots' process groups
# at the lowest priority; what they start later inherits it. Fails when
# a boot's group is not known (no time limit: the boots then run in the
# suite's own group; or the boot did not record it in 10 s) or none of
# its processes could be lowered.
idle_guests() {
	[ "$limit" -gt 0 ] || return 1
	_k=0
	while [ "$_k" -lt "$boots" ]; do
		_b=$log/guest$_k
		_k=$((_k + 1))
		# A boot records its group first; one that has ended has none
		# left to lower.
		_n=0
		while [ ! -s "$_b.pgid" ] && [ ! -e "$_b.verdicts" ] &&
		      [ "$_n" -lt 100 ]; do
			sleep 0.1
			_n=$((_n + 1))
		done
		[ -e "$_b.verdicts" ] && continue
		pg=$(cat "$_b.pgid" 2>/dev/null)
		[ -n "$pg" ] || return 1
		if [ "$idle" = renice ]; then
			renice -n 19 -g "$pg" >/dev/null 2>&1 || return 1
			continue
		fi
		_low=
		for p in $(pgrep -g "$pg"); do
			chrt -a -i -p 0 "$p" >/dev/null 2>&1 && _low=y
		done
		[ -n "$_low" ] || return 1
	done
}

# The guest's boots: IORIG_GUEST_BOOTS of them, at most one per case.
# What the guest checks (counts, bytes, states inside an emulator) no
# load changes.
boots=${IORIG_GUEST_BOOTS:-$cpus}
case $boots in
''|*[!0-9]*|0) echo "IORIG_GUEST_BOOTS='$boots': expected a whole number" \
	"of boots (1 or more)" >&2
	exit 2 ;;
esac
[ -n "${IORIG_GUEST_CASES:-}" ] && boots=1
# The cases, as run.sh lists them.
gcases=$(cd "$top" && ls tests/guest/cases/[0-9]*.sh 2>/dev/null)
[ -n "${IORIG_GUEST_CASES:-}" ] &&
	gcases=$(echo "$gcases" | grep -E -- "$IORIG_GUEST_CASES")
ncases=$(echo "$gcases" | grep -c .)
[ "$boots" -gt "$ncases" ] && boots=$ncases
[ "$boots" -ge 1 ] || boots=1
[ -f "$top/tests/guest/run.sh" ] || boots=0
mkdir "$log/claims" || exit 1

# run_guests: every boot of the guest, side by side; then a case that no
# boot claimed (each failed before it) fails, unless the guest was
# skipped (it cannot be made here).
run_guests() {
	k=0
	while [ "$k" -lt "$boots" ]; do
		run_guest "$k" &
		k=$((k + 1))
	done
	wait
	[ "$boots" -gt 0 ] && [ ! -e "$log/guest-skipped" ] || return 0
	for c in $gcases; do
		[ -L "$log/claims/$(basename "$c" .sh)" ] && continue
		echo "FAIL $c: not run: no boot of the guest reached it" \
			>"$log/unclaimed.say"
		say "$log/unclaimed.say"
		echo fail >>"$log/results"
	done
}

parallel="$*" paced= serial= chains= pchains=
# In the order of their numbers (100 after 99, not after 10).
for t in $(cd "$top/tests/cli" && ls [0-9]*.sh 2>/dev/null | sort -n); do
	mark=$(sed -n 's/^# lane: \([a-z]*\).*/\1/p' "$top/tests/cli/$t" |
		head -n 1)
	case $mark in
	parallel|paced) ;;
	*) serial="$serial tests/cli/$t"
	   continue ;;
	esac
	lock=$(sed -n 's/^# lock: \([a-z0-9_-]*\)$/\1/p' "$top/tests/cli/$t" |
		head -n 1)
	if [ -z "$lock" ]; then
		eval "$mark=\"\$$mark tests/cli/$t\""
		continue
	fi
	# A paced test's chain is its own lane's: chain:paced.NAME.
	[ "$mark" = paced ] && lock=paced.$lock
	echo "tests/cli/$t" >>"$log/chain.$lock"
	case " $chains $pchains " in
	*" chain:$lock "*) ;;
	*) if [ "$mark" = paced ]; then
		pchains="$pchains chain:$lock"
	   else
		chains="$chains chain:$lock"
	   fi ;;
	esac
done
# The lone ones by their last time, longest first (none known here: by
# tests/times.txt; none there either: first), after the lane's chains.
. "$top/tests/order.sh"
by_last_times() {
	for t; do echo "$(echo "$t" | tr / _) $t"; done |
		longest_first "$times" "$top/tests/times.txt"
}
# shellcheck disable=SC2086
parallel="$chains $(by_last_times $parallel)"
# shellcheck disable=SC2086
paced="$pchains $(by_last_times $paced)"

# run_par NAME: a parallel test, or a chain's tests one after another.
run_par() {
	case $1 in
	chain:*) for t in $(cat "$log/chain.${1#chain:}"); do
			run_name "$t"
		done ;;
	*) run_name "$1" ;;
	esac
}

# lane_says NAME START: "N in W s (sum S s, CPU C s)" for the N tests of
# lane NAME: W from START to the last one's end, S the sum of their
# times, C of their CPU times.
lane_says() {
	f=$log/times.$1
	[ -s "$f" ] || { echo "none"; return; }
	awk -v t0="$2" '{ s += $1; c += $3; if ($2 > e) e = $2 }
		END { printf "%d in %d s (sum %d s, CPU %d s)", NR, e - t0, s, c }' "$f"
}

# cpu_most LANE: the lane's 10 tests that took the most CPU time, "NAME
# C s" each, for what to make lighter where the lane is CPU-bound.
cpu_most() {
	f=$log/times.$1
	[ -s "$f" ] || { echo "none"; return; }
	sort -k3,3nr "$f" | head -n 10 |
		awk '{ n = $4; sub(".*/", "", n); sub("\\.sh$", "", n)
		       printf "%s%s %s s", (NR > 1 ? ", " : ""), n, $3 }'
}

# by_tokens ITEM...: each item (run_par) once it has taken a token from
# the FIFO on fd 3, which it gives back when it ends; then waits for all.
by_tokens() {
	pids=
	for t; do
		read -r _ <&3
		( run_par "$t" 3>&-; echo >&3 ) &
		pids="$pids $!"
	done
	# shellcheck disable=SC2086
	[ -z "$pids" ] || wait $pids
}

# tokens FIFO N: fd 3 opened on FIFO, N tokens put in it.
tokens() {
	exec 3<>"$1"
	_i=0
	while [ "$_i" -lt "$2" ]; do echo >&3; _i=$((_i + 1)); done
}

# The parallel lane: a FIFO holds one token per test that may run; each
# test takes one before it starts and gives it back when it ends. The
# guest's boots start first, outside the tokens.
t0=$(date +%s)
lane=parallel
guests=
if [ "$jobs" -gt 1 ] && mkfifo "$log/tokens" 2>/dev/null; then
	run_guests &
	guests=$!
	tokens "$log/tokens" "$jobs"
	# shellcheck disable=SC2086
	by_tokens $parallel
	exec 3>&-
else
	run_guests
	for t in $parallel; do run_par "$t"; done
fi
if [ -n "$guests" ]; then
	[ -n "$idle" ] && idle_guests || wait "$guests"
fi
t1=$(date +%s)
# The paced lane, IORIG_PACED_JOBS at a time, then the rest alone.
lane=paced
if [ "$pjobs" -gt 1 ] && mkfifo "$log/ptokens" 2>/dev/null; then
	tokens "$log/ptokens" "$pjobs"
	# shellcheck disable=SC2086
	by_tokens $paced
	exec 3>&-
else
	for t in $paced; do run_par "$t"; done
fi
t2=$(date +%s)
lane=serial
for t in $serial; do run_name "$t"; done
[ -z "$guests" ] || wait "$guests"
t3=$(date +%s)
# The guest's boots: "N in W s (CPU C s)", W the last boot's end, C
# their QEMUs' CPU time and the rest of run.sh's.
guest=$(lane_says guest "$t0" | sed 's/(sum [0-9]* s, /(/')
echo "lanes: parallel $(lane_says parallel "$t0") beside guest boots" \
	"$guest; paced from $((t1 - t0)) s: $(lane_says paced "$t1");" \
	"alone from $((t2 - t0)) s: $(lane_says serial "$t2");" \
	"$((t3 - t0)) s in all"
echo "most CPU, parallel lane: $(cpu_most parallel)"

pass=$(grep -c '^pass$' "$log/results")
fail=$(grep -c '^fail$' "$log/results")
skip=$(grep -c '^skip$' "$log/results")
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
