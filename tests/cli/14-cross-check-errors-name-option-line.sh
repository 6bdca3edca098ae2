#!/bin/sh
# BUG: errors from the checks that look at a whole job (bs above 1GiB,
# io_size below bs, hipri without direct)
# name the line of the section header, or on the command line the --name
# argument, instead of the line or argument that set the option they name.
# lane: parallel
. "$(dirname "$0")/lib.sh"

printf '[global]\nioengine=null\n\n[a]\nsize=1m\nbs=2g\n' >bs.job
run bs.job
expect_rc 2
expect_empty out
expect_in err "option 'bs'"
expect_in err '^iorig: bs\.job:6: '

printf '[a]\nioengine=null\nsize=1m\nio_size=1k\n' >io.job
run io.job
expect_rc 2
expect_in err "option 'io_size'"
expect_in err '^iorig: io\.job:4: '

printf '[a]\nioengine=null\nsize=1m\nhipri=1\n' >hp.job
run hp.job
expect_rc 2
expect_in err "option 'hipri'"
expect_in err '^iorig: hp\.job:4: '

printf '[global]\nhipri=1\n[a]\nioengine=null\n' >hpg.job
run hpg.job
expect_rc 2
expect_in err '^iorig: hpg\.job:2: '

# time_based without runtime and nrfiles beside filename are fio's meaning
# now, with warnings (tests/cli/32-fio-meaning.sh), not errors.

run --name=a --ioengine=null --size=1m --bs=2g
expect_rc 2
expect_in err "command line argument 4: option 'bs'"
exit 0
