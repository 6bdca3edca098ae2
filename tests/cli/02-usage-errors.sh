#!/bin/sh
# Usage errors: exit 2, a message on stderr only (stdout empty) that names
# where (file:line or command line argument N), the option, the bad value
# and what was expected; nothing is run or created.
# lane: parallel
. "$(dirname "$0")/lib.sh"

mkdir j w
cd w || exit 1

# usage ARGS...: runs iorig from the empty directory w and checks the
# common contract of a usage error.
usage() {
	run "$@"
	expect_rc 2
	expect_empty out
	expect_in err '^iorig: '
	expect_dir_empty "$T/w"
}

# jobfile NAME LINES...: writes ../j/NAME, one argument a line.
jobfile() {
	_f=$T/j/$1
	shift
	: >"$_f"
	for _l; do
		printf '%s\n' "$_l" >>"$_f"
	done
}

# ---- job files: file:LINE: option 'NAME': value and what was expected ----

jobfile bad-runtime.job '; a job with a bad value on line 7' '[global]' \
	'ioengine=null' '' '[a]' 'filename=a.dat' 'runtime=1x' 'size=1m'
usage ../j/bad-runtime.job
expect_in err "bad-runtime\.job:7: option 'runtime': '1x'"
expect_in err 'expected a time'

jobfile bad-size.job '[a]' 'filename=a.dat' 'size=1.3'
usage ../j/bad-size.job
expect_in err "bad-size\.job:3: option 'size': '1\.3'"
expect_in err 'whole number of bytes'
expect_in err 'expected a size'

jobfile bad-bs.job '[a]' 'ioengine=null' 'size=1m' '' 'bs=abc,4k'
usage ../j/bad-bs.job
expect_in err "bad-bs\.job:5: option 'bs': 'abc'"
expect_in err 'expected a size'

jobfile bad-iodepth.job '[a]' 'ioengine=null' 'iodepth=0:4'
usage ../j/bad-iodepth.job
expect_in err "bad-iodepth\.job:3: option 'iodepth': '0:4'"
expect_in err 'expected an integer from 1'

jobfile typo-bs.job '[a]' 'ioengine=null' 'size=1m' 'blocksze=4k'
usage ../j/typo-bs.job
expect_in err "typo-bs\.job:4: option 'blocksze'"
expect_in err "did you mean 'bs'"

jobfile typo-runtime.job '[a]' 'ioengine=null' 'runtim=1'
usage ../j/typo-runtime.job
expect_in err "typo-runtime\.job:3: option 'runtim'"
expect_in err "did you mean 'runtime'"

jobfile rdma.job '[a]' 'ioengine=null' 'verb=read'
usage ../j/rdma.job
expect_in err "rdma\.job:3: option 'verb'"
expect_in err 'fio has this option but iorig does not'

jobfile rbd.job '[global]' 'clientname=admin' '[a]' 'ioengine=null'
usage ../j/rbd.job
expect_in err "rbd\.job:2: option 'clientname'"
expect_in err 'fio has this option but iorig does not'

unset IORIG_TEST_UNSET_VAR
jobfile env.job '[a]' 'ioengine=null' 'size=${IORIG_TEST_UNSET_VAR}'
usage ../j/env.job
expect_in err "env\.job:3: option 'size'"
expect_in err 'IORIG_TEST_UNSET_VAR is not set'

jobfile var.job '[a]' 'ioengine=null' 'iodepth=$nosuchvar*2'
usage ../j/var.job
expect_in err "var\.job:3: option 'iodepth'"
expect_in err 'unknown variable \$nosuchvar'
expect_in err 'expected \$ncpus'

jobfile before.job '; comment' 'size=1m' '[a]'
usage ../j/before.job
expect_in err "before\.job:2: "
expect_in err "'size' before any section"

jobfile inc.job '[a]' 'ioengine=null' 'include no-such-file.job'
usage ../j/inc.job
expect_in err "inc\.job:3: "
expect_in err "cannot open include file '[^']*no-such-file\.job'"

# time_based without runtime: fio warns and runs to size; so does iorig
# (tests/cli/32-fio-meaning.sh checks what runs).
jobfile tb.job '[a]' 'ioengine=null' 'time_based=1' 'size=64k'
run --parse-only ../j/tb.job
expect_rc 0
expect_in err "tb\.job:1: job 'a': time_based without runtime= is ignored"

jobfile noval.job '[a]' 'ioengine=null' 'size'
usage ../j/noval.job
expect_in err "noval\.job:3: option 'size': needs a value"

jobfile header.job '[a' 'size=1m'
usage ../j/header.job
expect_in err "header\.job:1: malformed section header"

jobfile engine.job '[a]' 'ioengine=nosuchengine'
usage ../j/engine.job
expect_in err "engine\.job:2: option 'ioengine': unknown engine 'nosuchengine'"
expect_in err 'expected one of:.* null'

jobfile rw.job '[a]' 'rw=sideways'
usage ../j/rw.job
expect_in err "rw\.job:2: option 'rw': 'sideways' is not valid"
expect_in err 'expected one of:.* randread'

# No jobs: a file with only [global], no arguments at all, empty stdin.
jobfile onlyglobal.job '[global]' 'size=1m'
usage ../j/onlyglobal.job
expect_in err 'no jobs'
usage
expect_in err 'no jobs'
usage - </dev/null
expect_in err 'no jobs'

usage ../j/no-such.job
expect_in err "no-such\.job: cannot open job file"

# An error in a later file stops everything, even valid jobs before it.
jobfile good.job '[good]' 'filename=good.dat' 'size=1m' 'rw=write'
usage ../j/good.job ../j/bad-size.job
[ ! -e good.dat ] || die "a job ran despite a usage error"

# ---- the command line: "command line argument N" ----

usage --name=a --ioengine=null --size=1.3
expect_in err "command line argument 3: option 'size': '1\.3'"
expect_in err 'expected a size'

usage --name=a --runtime=1x
expect_in err "command line argument 2: option 'runtime': '1x'"
expect_in err 'expected a time'

usage --ioengine=null --name=a --bs=abc,4k
expect_in err "command line argument 3: option 'bs': 'abc'"

usage --name=a --iodepth=0:4
expect_in err "command line argument 2: option 'iodepth': '0:4'"
expect_in err 'expected an integer from 1'

usage --name=a --blocksze=4k
expect_in err "command line argument 2: option 'blocksze'"
expect_in err 'did you mean --bs'

usage --name=a --runtim=1
expect_in err "command line argument 2: option 'runtim'"
expect_in err 'did you mean --runtime'

usage --name=a --verb=read
expect_in err "command line argument 2: option 'verb'"
expect_in err 'fio has this option but iorig does not'

usage --name=a --clientname=admin
expect_in err "command line argument 2: option 'clientname'"
expect_in err 'fio has this option but iorig does not'

usage --name=a '--size=${IORIG_TEST_UNSET_VAR}'
expect_in err "command line argument 2: option 'size'"
expect_in err 'IORIG_TEST_UNSET_VAR is not set'

usage --name=a '--iodepth=$nosuchvar'
expect_in err "command line argument 2: option 'iodepth'"
expect_in err 'unknown variable'

run --parse-only --name=a --ioengine=null --time_based --size=4k
expect_rc 0
expect_in err "job 'a': time_based without runtime= is ignored"

# Arguments are counted as given, short options and their values included.
usage -o report.txt --name=a --size=1.3
expect_in err "command line argument 4: option 'size'"

usage --output-format=xml --name=a --ioengine=null --size=1m
expect_in err "command line argument 1: option 'output-format': 'xml'"
expect_in err 'expected text.*json'

usage --output-format --name=a
expect_in err "option 'output-format': needs a value"

usage -x
expect_in err "command line argument 1: option '-x': unknown option"

usage --name
expect_in err "option 'name': needs a value"

usage --parse-only
expect_in err 'no jobs'

usage --section=nosuch --name=a --ioengine=null
expect_in err 'no job matches --section'

# Errors found when the targets are checked, before anything is created.
usage --name=a --filename=x.dat
expect_in err "x\.dat: option 'size'"
expect_in err 'does not exist yet'
usage --name=ok --filename=ok.dat --size=1m --rw=write \
	--name=bad --filename=nodir/b.dat --size=1m
expect_in err "option 'filename'"
expect_in err "directory 'nodir' does not exist"

# A command option's value may be the next argument; so may a job
# option's, as fio's getopt reads it (a flag's only when it is 0 or 1).
run --output-format json --check 'errors==0' --name=sp --ioengine=null \
	--size=64k --output sp.json
expect_rc 0
expect_empty out
"$PY" -c "import json,sys; d=json.load(open('sp.json')); sys.exit(d['checks'][0]['expr'] != 'errors==0')" ||
	die "--output FILE and --check EXPR were not taken as values"
rm -f sp.json
usage --name=a --ioengine=null --size=64k --output-format
expect_in err "option 'output-format': needs a value"
run --parse-only --name a --ioengine null --size 64k --direct 1 --thread
expect_rc 0
expect_in out '^\[a\]$'
expect_in out '^  size=65536$'
expect_in out '^  direct=1$'
expect_in out '^  thread=1$'
usage --name=a --ioengine=null --size
expect_in err "option 'size'"
usage --name=a --ioengine=null --direct nosuch.job
expect_in err "nosuch\.job"
usage --name=a --ioengine=null --size=64k --time_based 64k
expect_in err "64k: cannot open job file"

# A value that is fine, to show the errors above are about the values.
run --parse-only --name=a --size=1536k
expect_rc 0
expect_in out '^  size=1572864$'
expect_empty err
expect_dir_empty "$T/w"
exit 0
