#!/bin/sh
# BUG: --help, --version, --cmdhelp and --parse-only exit 0 when their
# output cannot be written (stdout full); the report does exit 1 in that
# case, and so should they, with a message on stderr.
# lane: parallel
. "$(dirname "$0")/lib.sh"

[ -w /dev/full ] || skip "needs /dev/full"

for a in --help --version --cmdhelp --cmdhelp=bs; do
	"$IORIG" $a >/dev/full 2>"$T/err"
	rc=$?
	[ "$rc" -ne 0 ] || die "$a >/dev/full: exit 0"
	expect_in err 'iorig: '
done
"$IORIG" --parse-only --name=a >/dev/full 2>"$T/err"
rc=$?
[ "$rc" -ne 0 ] || die "--parse-only >/dev/full: exit 0"
exit 0
