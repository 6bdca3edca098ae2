#!/bin/sh
# BUG: when a job fails while its target is being opened or laid out
# (after validation), iorig exits 1 and says why on stderr, but the report
# does not: the JSON has "error": null for that job and the text report
# only says "not run", the same as a job skipped after an interrupt.
# lane: parallel
. "$(dirname "$0")/lib.sh"

# /proc/version passes validation (a regular file, size 0) and cannot be
# laid out (root: pwrite fails) or opened for writing (others).
[ -f /proc/version ] || skip "needs /proc/version"

run --name=bad --filename=/proc/version --size=1m --output-format=json
expect_rc 1
expect_in err "job 'bad'"
json_is "d['jobs'][0]['ran']" False
expect_json "d['jobs'][0]['error'] is not None" "the job's failure is in the report"
expect_json "d['jobs'][0]['error']['errno'] > 0"
expect_json "'/proc/version' in d['jobs'][0]['error']['message']"

run --name=bad --filename=/proc/version --size=1m
expect_rc 1
expect_in out '/proc/version'
exit 0
