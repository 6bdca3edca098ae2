#!/bin/sh
# tests/guest/run.sh refuses a limit, size or CPU number that is not a
# whole number (IORIG_GUEST_BOOT_TIMEOUT, IORIG_GUEST_CASE_TIMEOUT,
# IORIG_GUEST_TIMEOUT, IORIG_GUEST_MEM, IORIG_GUEST_CPUS, IORIG_GUEST_PIN)
# with a message naming it and exit 2, before anything is made or
# booted.
# lane: parallel
. "$(dirname "$0")/lib.sh"

g=$top/tests/guest/run.sh
for v in IORIG_GUEST_BOOT_TIMEOUT IORIG_GUEST_CASE_TIMEOUT \
    IORIG_GUEST_TIMEOUT IORIG_GUEST_MEM IORIG_GUEST_CPUS IORIG_GUEST_PIN; do
	for bad in x -1 1.5; do
		env "$v=$bad" TMPDIR="$T" sh "$g" >"$T/out" 2>"$T/err"
		rc=$?
		[ "$rc" -eq 2 ] || die "$v=$bad: exit $rc, expected 2"
		expect_in err "^$v='$bad': expected a whole number$"
		[ -z "$(ls "$T" | grep -v '^out$\|^err$')" ] ||
			die "$v=$bad: made $(ls "$T")"
	done
done
echo "ok: the guest's number variables refuse what is not a whole number"
