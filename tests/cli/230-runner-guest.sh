#!/bin/sh
# tests/run-all.sh runs the test guest (tests/guest/run.sh) once, first,
# and counts each of its cases as a test: their PASS/FAIL/SKIP lines as
# run.sh prints them, in the closing count. The serial lane runs after
# the guest; with IORIG_GUEST_BESIDE=1, beside it, the guest lowered to
# the idle policy (SCHED_IDLE, as the kernel reports it; the fake guest
# waits for the serial test to start). A boot that ends gives the
# parallel lane one more place. A guest that cannot be made
# is one skip; one that fails without a case's verdict (no boot) is one
# failure; one that hangs past IORIG_GUEST_TIMEOUT plus the test limit
# fails and is killed. A fake run.sh in a scratch tree stands for the
# guest, so no guest boots here (the real one runs in the suite itself).
# lane: parallel
. "$(dirname "$0")/lib.sh"
command -v timeout >/dev/null 2>&1 || skip "needs timeout(1) (coreutils)"
mkdir -p tree/tests/cli tree/tests/guest || die "cannot make the scratch tree"
cp "$top/tests/run-all.sh" "$top/tests/order.sh" tree/tests/ ||
	die "cannot copy run-all.sh and order.sh"
# A serial test: it says it started.
cat >tree/tests/cli/10-pass.sh <<EOF
#!/bin/sh
touch "$T/serial.started"
EOF

# guest BODY [LIMIT [BESIDE]]: the fake run.sh, then the runner on the
# tree, the guest's limit LIMIT s (default 2) beyond the tests' 2 s,
# IORIG_GUEST_BESIDE=BESIDE (default: unset).
guest() {
	printf '#!/bin/sh\n%s\n' "$1" >tree/tests/guest/run.sh
	rm -f "$T/guest.started" "$T/serial.started"
	T=$T IORIG_TEST_TIMEOUT=2 IORIG_GUEST_TIMEOUT=${2:-2} IORIG_TEST_JOBS=2 \
		IORIG_GUEST_BESIDE=${3:-} \
		timeout -k 5 60 sh tree/tests/run-all.sh >"$T/out" 2>"$T/err"
	rc=$?
}

# The guest waits (20 s at most: an idle-policy task gets little of a
# loaded machine) for the serial test to start beside it.
guest 'i=0
while [ ! -e "$T/serial.started" ]; do
	[ $i -lt 200 ] || { echo "FAILED: no serial test ran beside me"; exit 1; }
	sleep 0.1; i=$((i + 1))
done
echo "policy: $(chrt -p $$ | sed -n "s/.*scheduling policy: //p")"
echo "PASS tests/guest/cases/01-a.sh (3s)"
echo "FAIL tests/guest/cases/02-b.sh (exit 1)"
echo "    | FAILED: on purpose"
echo "SKIP tests/guest/cases/03-c.sh: SKIP: not here"
echo "guest: 6.1.0-56-amd64, booted in 14 s, 30 s in all: 1 passed, 1 failed," \
	"1 skipped"
exit 1' 25 1
expect_rc 1
expect_in out '^PASS tests/guest/cases/01-a\.sh \(3s\)$'
expect_in out '^FAIL tests/guest/cases/02-b\.sh \(exit 1\)$'
expect_in out '^    \| FAILED: on purpose$'
expect_in out '^SKIP tests/guest/cases/03-c\.sh: SKIP: not here$'
expect_in out '^guest: 6\.1\.0-56-amd64, booted in 14 s'
expect_in out '^PASS tests/cli/10-pass\.sh'
expect_not_in out 'tests/guest/run\.sh'
expect_in out '^2 passed, 1 failed, 1 skipped$'
# The serial test ran beside the guest (whose lines come when it ends:
# after the test's), which ran at the idle policy.
first=$(grep -m 1 -E '^(PASS|FAIL|SKIP) ' "$T/out")
case $first in
*tests/cli/10-pass*) ;;
*) die "the serial test did not run beside the guest: '$first'" ;;
esac
! command -v chrt >/dev/null 2>&1 || expect_in out '^policy: SCHED_IDLE$'

guest 'echo "SKIP: no qemu-system-x86_64 here"; exit 77'
expect_rc 0
expect_in out '^SKIP tests/guest/run\.sh: SKIP: no qemu-system-x86_64 here$'
expect_in out '^1 passed, 0 failed, 1 skipped$'

guest 'sleep 1; echo "qemu: could not start"; exit 1'
expect_rc 1
expect_in out '^FAIL tests/guest/run\.sh \(exit 1\)$'
# By default the serial test runs after the guest: its line comes after.
first=$(grep -m 1 -E '^(PASS|FAIL|SKIP) ' "$T/out")
case $first in
*tests/guest/*) ;;
*) die "the serial test did not wait for the guest: '$first'" ;;
esac
expect_in out '^    \| qemu: could not start$'
expect_in out '^1 passed, 1 failed, 0 skipped$'

start=$(date +%s)
guest 'echo "booting"; sleep 1000'
secs=$(( $(date +%s) - start ))
[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] ||
	die "run-all.sh hung on a hanging guest (stopped after ${secs}s)"
expect_rc 1
expect_in out '^FAIL tests/guest/run\.sh: timed out after 4 s$'
expect_in out '^    \| booting$'
expect_in out '^1 passed, 1 failed, 0 skipped$'
[ "$secs" -lt 30 ] || die "the hanging guest took ${secs}s to stop"

# Two boots share the cases through IORIG_GUEST_CLAIMS: each fake boot
# claims 01-a if no boot has (as inside.sh does), so it passes once; 02-b,
# which no boot claims, fails as not run.
mkdir -p tree/tests/guest/cases || die "mkdir"
: >tree/tests/guest/cases/01-a.sh
: >tree/tests/guest/cases/02-b.sh
printf '#!/bin/sh\n%s\n' '[ -d "$IORIG_GUEST_CLAIMS" ] || exit 3
echo "a boot ran"
ln -s -T "boot$$" "$IORIG_GUEST_CLAIMS/01-a" 2>/dev/null &&
	echo "PASS tests/guest/cases/01-a.sh (1s)"
exit 0' >tree/tests/guest/run.sh
IORIG_TEST_TIMEOUT=20 IORIG_GUEST_BOOTS=2 IORIG_TEST_JOBS=2 \
	timeout -k 5 60 sh tree/tests/run-all.sh >"$T/out" 2>"$T/err"
rc=$?
expect_rc 1
[ "$(grep -c '^PASS tests/guest/cases/01-a\.sh' "$T/out")" = 1 ] ||
	die "01-a not claimed by exactly one boot: $(cat "$T/out")"
expect_in out '^FAIL tests/guest/cases/02-b\.sh: not run: no boot of the guest reached it$'
expect_in out '^2 passed, 1 failed, 0 skipped$'
[ "$(grep -c '^a boot ran$' "$T/out")" = 2 ] || die "not two boots"
# A boot that ends gives the parallel lane one more place: with
# IORIG_TEST_JOBS=2 and one boot, which ends at once, three parallel
# tests run at once (each waits, 20 s at most, until all three run;
# with two places the third would wait for one of them to end).
mkdir -p tree3/tests/cli tree3/tests/guest || die "cannot make the third tree"
cp "$top/tests/run-all.sh" "$top/tests/order.sh" tree3/tests/ ||
	die "cannot copy run-all.sh and order.sh"
printf '#!/bin/sh\necho "guest: none, booted in 0 s"\n' >tree3/tests/guest/run.sh
for n in 51 52 53; do
	cat >"tree3/tests/cli/$n-three.sh" <<EOF
#!/bin/sh
# lane: parallel
touch "$T/three.$n"
i=0
while [ ! -e "$T/three.51" ] || [ ! -e "$T/three.52" ] ||
      [ ! -e "$T/three.53" ]; do
	[ \$i -lt 200 ] || { echo "FAILED: never three at once"; exit 1; }
	sleep 0.1; i=\$((i + 1))
done
EOF
done
IORIG_TEST_TIMEOUT=30 IORIG_GUEST_BOOTS=1 IORIG_TEST_JOBS=2 \
	timeout -k 5 60 sh tree3/tests/run-all.sh >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0
expect_in out '^3 passed, 0 failed, 0 skipped$'

echo "ok: the guest's cases are counted as tests; a skip, a failure and" \
	"a hang of the guest are one verdict each; boots share the cases"
