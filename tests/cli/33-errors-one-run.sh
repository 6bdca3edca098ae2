#!/bin/sh
# Every error of a job file in one run, as a compiler reports them: each
# as FILE:LINE: option 'NAME': what was expected, file by file in line
# order, exit 2, nothing run
# and no report written. A [global] error shared by two jobs is said once.
# At most 20, then a line saying more follow. A file path is never cut.
# lane: parallel
. "$(dirname "$0")/lib.sh"

mkdir w
cat >inc.fio <<'JOB'
iodepth=0
JOB
cat >six.fio <<'JOB'
bs=4k
[global]
ioengin=libaio
filename=w/x.dat
[a]
bs=abc,4k
include inc.fio
frobnicate=1
runtime=$nosuchvar
[b]
rwmixread=150
JOB
run --output=w/report.json six.fio
expect_rc 2
expect_dir_empty "$T/w"
expect_empty out
sed -n 's/^iorig: \(.*\)/\1/p' err | grep -v 'errors; nothing was run' >got
# Order: file by file (the job file, then the one it includes), each
# in line order.
want_lines="six.fio:1: six.fio:3: six.fio:6: six.fio:8: six.fio:9: six.fio:11: inc.fio:1:"
got_lines=$(sed 's/ option.*//; s/ before.*//' got | tr '\n' ' ' | sed 's/ $//')
[ "$got_lines" = "$want_lines" ] || die "expected errors at $want_lines, got $got_lines"
grep -q "six.fio:3: option 'ioengin': unknown option; did you mean 'ioengine'" got ||
	die "the [global] error is missing"
[ "$(grep -c "ioengin'" got)" = 1 ] || die "the [global] error is said more than once"
expect_in err "^iorig: 7 errors; nothing was run$"

# The limit: 25 bad options give 20 errors and a line saying more follow.
{ echo '[a]'; i=0; while [ $i -lt 25 ]; do echo "bad$i=1"; i=$((i + 1)); done; } >many.fio
run --parse-only many.fio
expect_rc 2
[ "$(grep -c "option 'bad" err)" = 20 ] || die "expected 20 errors"
expect_in err "more errors follow; stopped after the first 20"

# Combinations are checked once every option reads well: one error then.
printf '[a]\nhipri=1\n' >combo.fio
run --parse-only combo.fio
expect_rc 2
expect_in err "combo\.fio:2: option 'hipri': polled I/O needs direct=1"

# A long path is not cut.
d=$T/$(printf 'd%.0s' $(seq 1 100))/$(printf 'e%.0s' $(seq 1 100))/$(printf 'f%.0s' $(seq 1 100))
mkdir -p "$d"
printf '[a]\nbogus=1\n' >"$d/job.fio"
run --parse-only "$d/job.fio"
expect_rc 2
grep -qF "$d/job.fio:2: option 'bogus'" err || die "the path was cut"

# filename_format's own words stay for it: a bad one is its error, not
# an "unknown variable" of the job file.
printf '[a]\nfilename_format=f.$jobnum.$nosuch\n' >ff.fio
run --parse-only ff.fio
expect_rc 2
expect_in err "ff\.fio:2: option 'filename_format': .*unknown word at '\\\$nosuch'"
expect_not_in err "unknown variable"
exit 0
