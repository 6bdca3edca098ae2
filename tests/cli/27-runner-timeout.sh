#!/bin/sh
# tests/run-all.sh gives each test a time limit: a test that hangs fails
# with "timed out after N s", its process group is killed (a child that
# ignores SIGTERM included), and the tests after it still run. Tests
# marked "# lane: parallel" run two at a time (two that each wait for the
# other to start both pass), before the others, which run alone (one that
# finds a parallel test still running fails). The runner is copied into a
# scratch tree with fake tests, so the real suite does not run again.
. "$(dirname "$0")/lib.sh"

command -v timeout >/dev/null 2>&1 || skip "needs timeout(1) (coreutils)"
# Whatever happens, the hanging test and its child do not outlive this
# test (a runner without a limit leaves them): their process group goes,
# when it is not this test's own.
cleanup() {
	[ -s "$T/stray" ] || return
	_pid=$(cat "$T/stray")
	_pg=$(cut -d " " -f 5 "/proc/$_pid/stat" 2>/dev/null)
	_me=$(cut -d " " -f 5 /proc/$$/stat)
	if [ -n "$_pg" ] && [ "$_pg" != "$_me" ]; then
		kill -KILL "-$_pg" 2>/dev/null
	fi
	kill -KILL "$_pid" 2>/dev/null
}
trap 'cleanup; cd /; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP PIPE
mkdir -p tree/tests/cli || die "cannot make the scratch tree"
cp "$top/tests/run-all.sh" "$top/tests/order.sh" tree/tests/ ||
	die "cannot copy run-all.sh and order.sh"
cd tree/tests/cli || die "no tree"
printf '#!/bin/sh\nexit 0\n' >10-pass.sh
# Leaves a child that ignores SIGTERM: timeout(1) ends the test itself
# with SIGTERM, and only the runner's kill of the group ends the child.
cat >20-hang.sh <<EOF
#!/bin/sh
(trap '' TERM; exec sleep 1000) &
echo \$! >"$T/stray"
echo "hanging"
sleep 1000
EOF
printf '#!/bin/sh\necho "SKIP: not here"\nexit 77\n' >30-skip.sh
printf '#!/bin/sh\necho "FAILED: on purpose"\nexit 3\n' >40-fail.sh
# Two parallel tests: each says it runs, waits (10 s at most) for the
# other to say so too, then says it is done. Run one after the other,
# the first would give up waiting and fail. a first spends CPU time in a
# program of its own (the runner counts it: about 0.3 s here).
for p in a:b b:a; do
	burn=
	[ "${p%:*}" = a ] &&
		burn="awk 'BEGIN { for (i = 0; i < 10000000; i++) x += i }'"
	cat >"50-par-${p%:*}.sh" <<EOF
#!/bin/sh
# lane: parallel
$burn
touch "$T/run.${p%:*}"
i=0
while [ ! -e "$T/run.${p#*:}" ]; do
	[ \$i -lt 100 ] || { echo "FAILED: ${p#*:} never ran beside me"; exit 1; }
	sleep 0.1; i=\$((i + 1))
done
touch "$T/done.${p%:*}"
EOF
done
# A serial test (numbered before them) runs after both, alone.
cat >05-after-par.sh <<EOF
#!/bin/sh
[ -e "$T/done.a" ] && [ -e "$T/done.b" ] ||
	{ echo "FAILED: ran before the parallel tests ended"; exit 1; }
EOF
cd "$T" || die "no $T"

# The outer limit only keeps this test from hanging when the runner has
# none; the runner's own is 2 s.
start=$(date +%s)
IORIG_TEST_TIMEOUT=2 IORIG_TEST_JOBS=2 timeout -k 5 60 \
	sh tree/tests/run-all.sh >"$T/out" 2>"$T/err"
rc=$?
secs=$(( $(date +%s) - start ))
[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] ||
	die "run-all.sh hung on a hanging test (stopped after ${secs}s)"
expect_rc 1
expect_in out '^PASS tests/cli/10-pass\.sh'
expect_in out '^FAIL tests/cli/20-hang\.sh: timed out after 2 s$'
expect_in out '^    \| hanging$'
expect_in out '^SKIP tests/cli/30-skip\.sh: SKIP: not here'
expect_in out '^FAIL tests/cli/40-fail\.sh \(exit 3\)'
expect_in out '^PASS tests/cli/50-par-a\.sh'
expect_in out '^PASS tests/cli/50-par-b\.sh'
expect_in out '^PASS tests/cli/05-after-par\.sh'
expect_in out '^4 passed, 2 failed, 1 skipped$'
# Each lane's length and its tests' sum of times and CPU times: 2
# parallel tests, no paced one, 5 alone (the hanging one's 2 s limit at
# least, and almost no CPU time).
expect_in out '^lanes: parallel 2 in [0-9]+ s \(sum [0-9]+ s, CPU [0-9]+ s\) beside guest boots none; paced from [0-9]+ s: none; alone from [0-9]+ s: 5 in [0-9]+ s \(sum [2-9] s, CPU 0 s\); [0-9]+ s in all$'
# The parallel test that spent CPU time comes first in the list of the
# most, with what its awk took (0.1 s at least), the other after it.
expect_in out '^most CPU, parallel lane: 50-par-a (0\.[1-9]|[1-9][0-9]*\.[0-9]) s, 50-par-b 0\.[0-9] s$'
# The parallel lane first, then the others in the order of their numbers.
grep -E '^(PASS|FAIL|SKIP) ' "$T/out" | sed 's/^[A-Z]* tests.cli.\([0-9]*\)-.*/\1/' |
	tr '\n' ' ' >"$T/order"
case $(cat "$T/order") in
"50 50 05 10 20 30 40 ") ;;
*) die "tests ran in the order $(cat "$T/order")" ;;
esac
[ "$secs" -lt 30 ] || die "the hanging test took ${secs}s to stop"

# The hanging test's child is gone (killed with its process group).
[ -s "$T/stray" ] || die "the hanging test did not start"
pid=$(cat "$T/stray")
i=0
while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 20 ]; do
	sleep 0.1
	i=$((i + 1))
done
if kill -0 "$pid" 2>/dev/null; then
	kill -KILL "$pid"
	die "the hanging test's child $pid outlived it"
fi

# Three parallel tests holding one lock ("# lock: res") run never two at
# once, in the order of their numbers, in one place of the lane: a
# parallel test without the lock runs beside them (it waits, 20 s at
# most, for one of them to hold the lock). Each, while it runs, holds a
# mark no other may see, and appends its number to a list.
mkdir -p tree2/tests/cli || die "cannot make the second tree"
cp "$top/tests/run-all.sh" "$top/tests/order.sh" tree2/tests/ ||
	die "cannot copy run-all.sh and order.sh"
for n in 60 61 62; do
	cat >"tree2/tests/cli/$n-lock.sh" <<EOF
#!/bin/sh
# lane: parallel
# lock: res
for o in 60 61 62; do
	[ ! -e "$T/in.\$o" ] ||
		{ echo "FAILED: $n ran beside \$o, which holds res too"; exit 1; }
done
touch "$T/in.$n"
echo $n >>"$T/chain"
sleep 0.5
echo $n >"$T/held"
rm -f "$T/in.$n"
EOF
done
cat >tree2/tests/cli/70-free.sh <<EOF
#!/bin/sh
# lane: parallel
i=0
while [ ! -e "$T/held" ]; do
	[ \$i -lt 200 ] || { echo "FAILED: nothing held res beside me"; exit 1; }
	sleep 0.1; i=\$((i + 1))
done
EOF
IORIG_TEST_TIMEOUT=30 IORIG_TEST_JOBS=2 timeout -k 5 120 \
	sh tree2/tests/run-all.sh >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0
expect_in out '^4 passed, 0 failed, 0 skipped$'
[ "$(tr '\n' ' ' <"$T/chain")" = "60 61 62 " ] ||
	die "the tests of lock res ran in the order $(tr '\n' ' ' <"$T/chain")"

# A bad limit is refused before any test runs.
IORIG_TEST_TIMEOUT=5m sh tree/tests/run-all.sh >"$T/out" 2>"$T/err"
rc=$?
expect_rc 2
expect_in err "IORIG_TEST_TIMEOUT='5m': expected whole seconds"
expect_not_in out 'PASS'
IORIG_TEST_JOBS=0 sh tree/tests/run-all.sh >"$T/out" 2>"$T/err"
rc=$?
expect_rc 2
expect_in err "IORIG_TEST_JOBS='0'"
expect_not_in out 'PASS'
echo "ok: a hung test fails alone, in ${secs}s"
