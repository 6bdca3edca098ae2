#!/bin/sh
# tests/run-all.sh's paced lane: the tests marked "# lane: paced" run
# after the parallel lane has ended and before the tests that run alone,
# IORIG_PACED_JOBS at a time (never more; by default 3 on 2 CPUs); a paced chain ("# lock: NAME")
# runs one after another; a paced test that passes leaves its time for
# the longest-first order, one that runs alone none; the "lanes:" line
# gives the paced lane's count. With IORIG_PACED_JOBS=1 they run one at a
# time. Each fake test records when it starts and ends (its lane, a mark
# while it runs), so what ran beside what is read from the marks, not
# from a clock: a paced test waits (up to $WAIT tenths of a second) for
# $WANT tests, itself counted, to run at once before it ends, so a slow
# start of the third on a loaded host does not read as a lane of two
# (once $WANT were seen together, the tests after them end at once).
# The runner is copied into a scratch tree with fake tests, so the real
# suite does not run again.
# lane: parallel
. "$(dirname "$0")/lib.sh"

mkdir -p tree/tests/cli "$T/run" || die "cannot make the scratch tree"
cp "$top/tests/run-all.sh" "$top/tests/order.sh" tree/tests/ ||
	die "cannot copy run-all.sh and order.sh"
# fake NAME LANE [LINES]: a test of LANE ("parallel", "paced" or "" for
# alone) that appends "NAME LANE BESIDE" to $T/log, BESIDE the names of
# the tests running as it starts, keeps a mark in $T/run while it runs
# and runs LINES there.
fake() {
	{ printf '#!/bin/sh\n'
	  [ -n "$2" ] && echo "# lane: $2"
	  echo "${3:-}"
	  echo "cd \"$T/run\" || exit 1"
	  echo "echo $1 $2 \$(ls | tr '\n' ,) >>\"$T/log\""
	  echo ": >$1"
	  [ "$2" = paced ] && echo "n=0; while [ \$(ls | wc -l) -lt \$WANT ] &&" \
		"[ ! -e \"$T/seen\" ] && [ \$n -lt \$WAIT ]; do sleep 0.1;" \
		"n=\$((n + 1)); done;" \
		"[ \$(ls | wc -l) -lt \$WANT ] || : >\"$T/seen\""
	  echo "ls | tr '\n' , >\"$T/end.$1\""
	  echo "rm -f $1"; } >"tree/tests/cli/$1.sh"
}
fake 10-par parallel
fake 11-par parallel
fake 20-p paced
fake 21-p paced
fake 22-p paced
fake 23-pl paced '# lock: res'
fake 24-pl paced '# lock: res'
fake 30-alone ''
fake 31-alone ''

# runs [ENV...]: the tree's suite.
runs() {
	: >"$T/log"
	rm -rf "$T/times" "$T/seen"
	env IORIG_TEST_JOBS=2 IORIG_TEST_TIMES="$T/times" "$@" timeout -k 5 120 \
		sh tree/tests/run-all.sh >"$T/out" 2>"$T/err"
	rc=$?
}

# check MAX: the lanes in order, at most MAX paced tests at once (MAX
# of them seen together), the chain's two never together.
check() {
	expect_rc 0
	"$PY" - "$T" "$1" <<'PYEOF' || die "the paced lane ran out of order"
import glob, os, sys
t, want = sys.argv[1], int(sys.argv[2])
rows = [l.split() for l in open(t + "/log")]
lanes = [r[1] if len(r) > 1 and r[1] in ("parallel", "paced") else "alone"
         for r in rows]
order = {"parallel": 0, "paced": 1, "alone": 2}
if [order[l] for l in lanes] != sorted(order[l] for l in lanes):
    sys.exit("lanes out of order: %s" % [r[0] for r in rows])
names = {l: {r[0] for r, m in zip(rows, lanes) if m == l} for l in order}
names["alone"] = set()
most = 1
for r, l in zip(rows, lanes):
    beside = [n for n in (r[-1].split(",") if len(r) > 2 else []) if n]
    end = [n for n in open("%s/end.%s" % (t, r[0])).read().split(",") if n]
    for seen in (beside, end):
        if set(seen) - names[l] - {r[0]}:
            sys.exit("%s (%s) ran beside %s" % (r[0], l, seen))
        if l == "paced":
            most = max(most, len(set(seen) | {r[0]}))
            if {"23-pl", "24-pl"} <= set(seen) | {r[0]}:
                sys.exit("the chain's tests ran side by side")
if most != want:
    sys.exit("at most %d paced tests at once, expected %d" % (most, want))
print("ok: lanes in order, at most %d paced at once" % most)
PYEOF
}

# the default: half as many again as the CPUs (at most 2 counted)
c=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
[ "$c" -gt 2 ] && c=2
runs WAIT=100 WANT=$((c * 3 / 2))
check $((c * 3 / 2))
expect_in out '^lanes: parallel 2 in [0-9]+ s \(sum [0-9]+ s, CPU [0-9]+ s\) beside guest boots none; paced from [0-9]+ s: 5 in [0-9]+ s \(sum [0-9]+ s, CPU [0-9]+ s\); alone from [0-9]+ s: 2 in [0-9]+ s \(sum [0-9]+ s, CPU [0-9]+ s\); [0-9]+ s in all$'
for n in 20-p 21-p 22-p 23-pl 24-pl; do
	[ -s "$T/times/tests_cli_$n.sh" ] || die "paced $n left no time"
done
for n in 30-alone 31-alone; do
	[ ! -e "$T/times/tests_cli_$n.sh" ] || die "$n (alone) left a time"
done
runs WAIT=10 WANT=2 IORIG_PACED_JOBS=1
check 1
runs WAIT=0 WANT=1 IORIG_PACED_JOBS=0
expect_rc 2
expect_in err "^IORIG_PACED_JOBS='0': expected a whole number"
echo "ok: the paced lane"
