#!/bin/sh
# Runs a command (the test suite) with sanitizer options that make every
# report fatal, and fails when any process wrote a report: a CLI test that
# expects iorig to fail would not notice the sanitizer's own failure, so
# reports go to files in LOGDIR and are printed at the end.
#
#   sh tests/sanitize.sh LOGDIR COMMAND...
#
# Options already in ASAN_OPTIONS, UBSAN_OPTIONS or TSAN_OPTIONS come last
# and win.
log=$1
shift
case $log in /*) ;; *) log=$(pwd)/$log ;; esac
rm -rf "$log" && mkdir -p "$log" || exit 1

fatal=halt_on_error=1:abort_on_error=1:print_stacktrace=1
export ASAN_OPTIONS="$fatal:detect_leaks=1:log_path=$log/report${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="$fatal:log_path=$log/report${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export TSAN_OPTIONS="$fatal:second_deadlock_stack=1:log_path=$log/report${TSAN_OPTIONS:+:$TSAN_OPTIONS}"

"$@"
rc=$?
n=$(ls "$log" | wc -l)
if [ "$n" -gt 0 ]; then
	for f in $(ls "$log"/* | head -n 5); do
		echo "--- sanitizer report $f"
		head -n 60 "$f"
	done
	echo "sanitizer: $n report(s) in $log (the first 5 above)"
	rc=1
fi
exit $rc
