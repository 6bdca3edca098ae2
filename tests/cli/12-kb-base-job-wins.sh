#!/bin/sh
# BUG: a job's own kb_base does not override the kb_base of a [global]
# section above it: the [global] value wins and the job's sizes are read
# in the wrong base. Later must win, as for every other option.
# lane: parallel
. "$(dirname "$0")/lib.sh"

cat >kb.job <<'JOB'
[global]
kb_base=1000
ioengine=null

[own-1024]
kb_base=1024
size=1k

[inherits-1000]
size=1k
JOB
run --parse-only kb.job
expect_rc 0
# The section order matters: the job's kb_base=1024 comes later.
awk '/^\[own-1024\]/ { on = 1; next } /^\[/ { on = 0 } on' "$T/out" >own
grep -qx '  kb_base=1024' own ||
	die "[own-1024]: expected kb_base=1024, got $(grep kb_base own)"
grep -qx '  size=1024' own ||
	die "[own-1024]: expected size=1k to be 1024, got $(grep '  size=' own)"
awk '/^\[inherits-1000\]/ { on = 1; next } /^\[/ { on = 0 } on' "$T/out" >inh
grep -qx '  size=1000' inh || die "[inherits-1000]: expected size=1000"

# The same with command-line globals.
run --parse-only --kb_base=1000 --name=a --kb_base=1024 --size=1k
expect_rc 0
expect_in out '^  kb_base=1024$'
expect_in out '^  size=1024$'
exit 0
