#!/bin/sh
# Warnings, plan time and run time, in one list: each is printed once on
# stderr as "iorig: warning: MESSAGE" and is in the JSON report's
# top-level "warnings" array as {code, job, message}, the message the same
# text. Layout that changes an existing file says so, with how many bytes:
# a read job filling the holes of a sparse file (holes_filled), a job
# extending a short file (layout_extended); the file's own data is left as
# it was (checksums), and a file the run creates is not "changed".
# lane: parallel
. "$(dirname "$0")/lib.sh"

MiB=1048576

# warned CODE JOB REGEX: stderr has "iorig: warning: " + REGEX, and the JSON
# report on stdout has a warning CODE of job JOB whose message is that
# same stderr line.
warned() {
	expect_in err "^iorig: warning: .*$3"
	expect_json "any(w['code'] == '$1' and w['job'] == '$2' for w in d['warnings'])" \
		"a warning $1 for job $2 in the report"
	json "'\n'.join('iorig: warning: ' + w['message'] for w in d['warnings'] if w['code'] == '$1')" >"$T/w.txt"
	grep -qxF -f "$T/w.txt" "$T/err" ||
		die "the report's $1 message is not what stderr says"
	grep -E "$3" "$T/w.txt" >/dev/null ||
		die "the report's $1 message does not match /$3/"
}

# A read job on a sparse existing file: the holes are filled, and said.
truncate -s $((8 * MiB)) sparse.dat || die "truncate"
run --name=r --filename=sparse.dat --bs=64k --rw=read --output-format=json
expect_rc 0
warned holes_filled r "job 'r': sparse\\.dat: 8388608 bytes \\(8MiB\\) of holes/unwritten extents .* filled with random data"
[ "$(fsize sparse.dat)" -eq $((8 * MiB)) ] || die "sparse.dat changed size"
# Once: a second read finds no hole.
run --name=r --filename=sparse.dat --bs=64k --rw=read --output-format=json
expect_rc 0
expect_not_in err "holes"
json_is "[w['code'] for w in d['warnings'] if w['code'].startswith('holes')]" "[]"

# A short file extended: its data stays, the size and the message say by
# how much.
mkrand short.dat $MiB
before=$(sum_range short.dat 0 $MiB)
run --name=x --filename=short.dat --size=4m --bs=64k --rw=randread \
	--output-format=json
expect_rc 0
warned layout_extended x "job 'x': short\\.dat: extended from 1048576 to 4194304 bytes \\(3MiB"
[ "$(fsize short.dat)" -eq $((4 * MiB)) ] || die "short.dat is not 4 MiB"
[ "$(sum_range short.dat 0 $MiB)" = "$before" ] ||
	die "the first MiB of short.dat changed"
# The text report: the same stderr line.
mkrand short2.dat $MiB
run --name=x --filename=short2.dat --size=2m --bs=64k --rw=write \
	--overwrite=1
expect_rc 0
expect_in err "^iorig: warning: job 'x': short2\\.dat: extended from 1048576 to 2097152 bytes"

# A file this run creates is not a changed file: no warning.
run --name=n --filename=new.dat --size=1m --bs=64k --rw=read \
	--output-format=json
expect_rc 0
expect_empty err
json_is "d['warnings']" "[]"

# Plan-time warnings reach the report too, stderr unchanged.
run --name=p --filename=short.dat --size=1m --ioengine=sync --iodepth=4 \
	--output-format=json
expect_rc 0
warned iodepth_ignored p "job 'p': iodepth=4 has no effect with the sync engine"
# layout=0 on holes.
truncate -s $((2 * MiB)) hole0.dat
run --name=z --filename=hole0.dat --bs=64k --rw=read --layout=0 \
	--output-format=json
expect_rc 0
warned holes_not_filled z "job 'z': hole0\\.dat: reads of 2MiB of holes"
# Run time: the page cache.
avail=$(sed -n 's/^MemAvailable: *\([0-9]*\) kB$/\1/p' /proc/meminfo)
if [ -n "$avail" ] && [ "$avail" -gt 8192 ]; then
	run --name=c --filename=short.dat --bs=64k --rw=read --loops=2 \
		--invalidate=0 --output-format=json
	expect_rc 0
	warned page_cache c "job 'c': buffered reads \\(direct=0\\).*page cache"
fi
# Each warning once, on stderr and in the report.
[ "$(grep -c "^iorig: warning:" "$T/err")" = "$(json "len(d['warnings'])")" ] ||
	die "stderr and the report do not list the same warnings"
exit 0
