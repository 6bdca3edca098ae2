#!/bin/sh
# An engine the system refuses: io_uring_setup(2) or io_setup(2) denied by
# a seccomp filter (tests/helpers/noring), as container profiles do. The
# job fails to start: exit 1, the report has the error, and the message
# names the engine, the error and what to check. Other engines still run
# under the same filter.
# lane: parallel
. "$(dirname "$0")/lib.sh"

NORING=$top/tests/helpers/noring
[ -x "$NORING" ] || die "no $NORING: run make tests/helpers/noring first"

# The filter itself must work here, or nothing below means anything.
"$NORING" --uring=ENOSYS true 2>"$T/err"
case $? in
0) ;;
77) skip "$(sed -n 's/^SKIP: //p' "$T/err")" ;;
*) die "noring does not run: $(cat "$T/err")" ;;
esac

# nor ARGS...: run iorig under the filter, like run.
nor() {
	"$NORING" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

# io_uring refused: ENOSYS (seccomp's usual answer), EPERM, EACCES.
for err in ENOSYS EPERM EACCES; do
	nor --uring=$err "$IORIG" --name=u --filename=u.dat --size=1m \
		--ioengine=io_uring --output-format=json
	[ "$rc" -eq 1 ] || die "io_uring_setup -> $err: exit $rc, expected 1"
	expect_in err "job 'u'"
	expect_in err 'engine io_uring'
	case $err in
	ENOSYS) expect_in err 'Function not implemented' ;;
	EPERM) expect_in err 'Operation not permitted' ;;
	EACCES) expect_in err 'Permission denied' ;;
	esac
	# What to check: the filter, and the system calls to allow.
	expect_in err 'seccomp'
	expect_in err 'io_uring_setup'
	json_is "d['jobs'][0]['read']['ios'] + d['jobs'][0]['write']['ios']" 0
	expect_json "(lambda e: e is not None and 'io_uring' in e['message'] and
		'seccomp' in e['message'])(d['jobs'][0]['error'])" \
		"the report says why"
	[ "$(json "d['jobs'][0]['error']['errno']")" -eq "$(
		"$PY" -c "import errno; print(errno.$err)")" ] ||
		die "errno in the report is not $err"
done
# The text report says it too.
nor --uring=ENOSYS "$IORIG" --name=u --filename=u.dat --size=1m \
	--ioengine=io_uring
expect_rc 1
expect_in out 'io_uring'
# The other engines run under the same filter.
for e in sync libaio pthread; do
	nor --uring=ENOSYS "$IORIG" --name=o --filename=u.dat --size=1m \
		--ioengine=$e --output-format=json
	[ "$rc" -eq 0 ] || die "$e under an io_uring filter: exit $rc"
done
# Several jobs: the io_uring one fails, the others run, exit 1.
nor --uring=ENOSYS "$IORIG" --filename=u.dat --size=1m --output-format=json \
	--name=a --ioengine=sync --name=b --ioengine=io_uring \
	--name=c --ioengine=pthread
expect_rc 1
json_is "[(j['error'] is None, j['read']['ios'] > 0) for j in d['jobs']]" \
	"[(True, True), (False, False), (True, True)]"

# libaio: io_setup refused.
nor --aio=EAGAIN "$IORIG" --name=a --filename=u.dat --size=1m \
	--ioengine=libaio --direct=0 --output-format=json
expect_rc 1
expect_in err 'engine libaio'
expect_in err 'aio-max-nr'
json_is "d['jobs'][0]['error']['errno']" 11
for err in ENOSYS EPERM; do
	nor --aio=$err "$IORIG" --name=a --filename=u.dat --size=1m \
		--ioengine=libaio --output-format=json
	[ "$rc" -eq 1 ] || die "io_setup -> $err: exit $rc, expected 1"
	expect_in err "job 'a'"
	expect_in err 'engine libaio'
	expect_json "d['jobs'][0]['error'] is not None" "the report has the error"
	# Under a seccomp filter the filter is the likely cause (as the
	# io_uring engine's hint says), not a kernel built without AIO.
	grep -q 'seccomp' "$T/err" ||
		die "io_setup -> $err under seccomp: the message does not" \
			"point at the seccomp filter: $(grep -v warning "$T/err")"
done
exit 0
