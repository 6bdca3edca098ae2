#!/bin/sh
# --progress: a status line on stderr while the jobs run, never on
# stdout; auto shows it only on a terminal (not dumb), always everywhere
# (one line per update when not a terminal), never nowhere.
# A line about once a second, counted 1 to 4 over 2.2 s, and nothing
# when none is asked: a loaded machine changes neither.
# lane: parallel
. "$(dirname "$0")/lib.sh"

line='^\[[0-9]+(:[0-9]{2}){1,2}/([0-9]+(:[0-9]{2}){1,2}|\?)\] [0-9]+ jobs?  r (0|[0-9.]+[kMGT]? IOPS [0-9.]+[KMGT]?i?B/s)  w (0|[0-9.]+[kMGT]? IOPS [0-9.]+[KMGT]?i?B/s)$'

# The timed runs after the first are paced (rate_iops=1000): each lasts
# long enough for a line to be due, and the null engine unpaced kept a
# CPU busy all that time (17 s of CPU for the test, in a lane that shares
# the CPUs with the guest's boots); the first, two clones unpaced, is the
# one whose own load the status line has to get through.
calm=--rate_iops=1000

# always, stderr a file: lines of that shape, about one a second; stdout
# is only the report.
run --name=p --ioengine=null --size=64m --rw=randrw --numjobs=2 \
	--time_based --runtime=2200ms --progress=always --output-format=json
expect_rc 0
n=$(grep -cE "$line" "$T/err")
[ "$n" -ge 1 ] && [ "$n" -le 4 ] || die "expected 1 to 4 status lines, got $n"
[ "$(grep -cvE "$line" "$T/err")" -eq 0 ] || die "other text on stderr"
expect_in err '^\[0:0[0-9]/0:0[2-5]\] 2 jobs  r [0-9.]+[kM]? IOPS [0-9.]+[KMG]iB/s  w [0-9.]+[kM]? IOPS'
expect_json "d['jobs'][0]['read']['ios'] > 0"
# Status lines go to stderr, never into --output or the text report.
run --name=p --ioengine=null --size=64m --time_based --runtime=1500ms \
	--progress=always $calm
expect_rc 0
expect_not_in out '^\['
expect_in err "$line"
# A job bound by its size or number of I/Os, not by time: the total is
# estimated from the part done (not "?"); write only. Stopped by SIGINT
# once a line came, whatever the speed of the machine.
: >"$T/err"
"$IORIG" --name=p --ioengine=null --size=1g --loops=100000 --rw=write \
	--number_ios=10000000000 --progress=always --output-format=json \
	>"$T/out" 2>"$T/err" &
pid=$!
while kill -0 $pid 2>/dev/null && ! grep -q '^\[' "$T/err"; do
	sleep 0.05
done
kill -INT $pid 2>/dev/null
wait_gone $pid 5
expect_rc 130
# (the estimate is h:mm:ss past an hour: a sanitizer build's null
# engine once estimated 1:17:24)
expect_in err '^\[0:0[0-9]/[0-9]+(:[0-9]{2}){1,2}\] 1 job  r 0  w [0-9.]+[kM]? IOPS'
expect_json "d['jobs'][0]['write']['ios'] > 0"

# auto with stderr not a terminal, and never: nothing.
run --name=p --ioengine=null --size=64m --time_based --runtime=1200ms \
	--output-format=json $calm
expect_rc 0
expect_empty err
run --name=p --ioengine=null --size=64m --time_based --runtime=1200ms \
	--progress=auto --output-format=json $calm
expect_empty err
run --name=p --ioengine=null --size=64m --time_based --runtime=1200ms \
	--progress=never --output-format=json $calm
expect_empty err
expect_json "d['jobs'][0]['read']['ios'] > 0"

# Bad values name the option.
for v in sometimes 1 yes ''; do
	run --name=p --ioengine=null --size=1m --progress="$v"
	expect_rc 2
	expect_in err "option 'progress'"
	expect_empty out
done

# A terminal (script(1) from util-linux gives one): rewritten in place,
# cleared before the report; TERM=dumb or never: nothing. (3 s: with the
# guest's two QEMU boots beside the parallel lane, a 1.5 s run once ended
# before its first line at 1 s was drawn.)
command -v script >/dev/null 2>&1 || skip "no script(1) to test a terminal"
tty_run() {
	TERM=$1 script -qec "$IORIG --name=p --ioengine=null --size=64m \
		--time_based --runtime=3s --output-format=json $calm \
		-o $T/rep.json $2" /dev/null >"$T/tty" 2>&1 </dev/null
	rc=$?
}
tty_run xterm ""
expect_rc 0
grep -qE "$(printf '\r')\[0:0[0-9]/0:0[0-9]\] 1 job  r " "$T/tty" ||
	die "no status line on the terminal: $(od -An -c "$T/tty" | tr -d '\\' | head -3)"
grep -q "$(printf '\033\\[K')" "$T/tty" || die "the line is not cleared"
"$PY" -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/rep.json" ||
	die "bad report"
tty_run dumb ""
expect_rc 0
[ ! -s "$T/tty" ] || die "TERM=dumb: $(od -An -c "$T/tty" | tr -d '\\' | head -3)"
tty_run xterm --progress=never
[ ! -s "$T/tty" ] || die "--progress=never on a terminal"
exit 0
