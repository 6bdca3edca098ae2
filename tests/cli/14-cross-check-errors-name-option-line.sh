#!/bin/sh
# BUG: errors from the checks that look at a whole job (bs above 1GiB,
# io_size below bs, time_based without runtime, nrfiles with filename)
# name the line of the section header, or on the command line the --name
# argument, instead of the line or argument that set the option they name.
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

printf '[a]\nioengine=null\nsize=1m\ntime_based\n' >tb.job
run tb.job
expect_rc 2
expect_in err "option 'time_based'"
expect_in err '^iorig: tb\.job:4: '

printf '[global]\ntime_based=1\n[a]\nioengine=null\n' >tbg.job
run tbg.job
expect_rc 2
expect_in err '^iorig: tbg\.job:2: '

printf '[a]\nfilename=a.dat\nsize=1m\nnrfiles=2\n' >nr.job
run nr.job
expect_rc 2
expect_in err "option 'nrfiles'"
expect_in err '^iorig: nr\.job:4: '

run --name=a --ioengine=null --size=1m --bs=2g
expect_rc 2
expect_in err "command line argument 4: option 'bs'"
exit 0
