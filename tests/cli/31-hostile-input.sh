#!/bin/sh
# Hostile input: every limit on job files and the command line ends in a
# usage error (exit 2, one clear message on stderr naming the limit,
# nothing on stdout, nothing created), never in a crash, a hang or a
# silently wrapped number. The fuzz corpus (tests/fuzz/corpus/) replays the
# same inputs through the parsers; this checks what the user sees.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

mkdir j w
cd w || exit 1

# hostile REGEX ARGS...: iorig ARGS fails as a usage error with REGEX in
# its message.
hostile() {
	_re=$1
	shift
	run --parse-only "$@"
	expect_rc 2
	expect_empty out
	expect_in err '^iorig: '
	expect_in err "$_re"
	[ "$(wc -l <"$T/err")" -eq 1 ] || die "expected one line on stderr"
	expect_dir_empty "$T/w"
}

# accepted ARGS...: iorig --parse-only ARGS succeeds (the limit itself is
# allowed).
accepted() {
	run --parse-only "$@"
	expect_rc 0
	expect_dir_empty "$T/w"
}

# repeat N TEXT: TEXT N times (TEXT may hold \n).
repeat() {
	"$PY" -c 'import sys; sys.stdout.write(sys.argv[2].replace("\\n", "\n") * int(sys.argv[1]))' "$1" "$2"
}

# ---- include depth and cycles ----
i=0
while [ $i -le 17 ]; do
	printf '[j%d]\nioengine=null\ninclude d%d.job\n' $i $((i + 1)) \
		>../j/d$i.job
	i=$((i + 1))
done
printf '[last]\nioengine=null\n' >../j/d18.job
hostile 'd16\.job:3: includes nested more than 16 deep' ../j/d0.job
# Sixteen levels are fine.
printf '[last]\nioengine=null\n' >../j/d16.job
accepted ../j/d0.job

printf '[a]\nioengine=null\ninclude self.job\n' >../j/self.job
hostile "include cycle: '[^']*self\.job' is already being read" ../j/self.job
printf '[a]\nioengine=null\ninclude c2.job\n' >../j/c1.job
printf '; c2\ninclude c1.job\n' >../j/c2.job
hostile 'c2\.job:2: include cycle: .*c1\.job -> .*c2\.job -> .*c1\.job' \
	../j/c1.job

# ---- line length, NUL bytes, endless lines ----
{ printf '[a]\nioengine=null\ndescription='; repeat $((8192 - 12)) x
  printf '\n'; } >../j/line-8192.job
accepted ../j/line-8192.job
{ printf '[a]\nioengine=null\ndescription='; repeat $((8193 - 12)) x
  printf '\n'; } >../j/line-8193.job
hostile 'line-8193\.job:3: line is longer than 8192 bytes' ../j/line-8193.job
# A megabyte without a newline on stdin: refused after 8 KiB, not read
# into memory whole.
repeat 1048576 a >../j/endless
run --parse-only - <../j/endless
expect_rc 2
expect_in err '<stdin>:1: line is longer than 8192 bytes'
printf '[a]\nioengine=null\nsize=1\000m\n' >../j/nul.job
hostile 'nul\.job:3: line contains a NUL byte' ../j/nul.job
hostile "option 'description': value is longer than 8191 bytes" \
	--name=a --ioengine=null "--description=$(repeat 9000 x)"

# ---- sections and options per section ----
{ repeat 4097 '[s]\nioengine=null\n'; } >../j/sections.job
hostile 'sections\.job:8193: too many sections \(the limit is 4096\)' \
	../j/sections.job
{ printf '[a]\n'; repeat 4097 'ioengine=null\n'; } >../j/options.job
hostile "options\.job:4098: option 'ioengine': too many options in section 'a' \(the limit is 4096\)" \
	../j/options.job

# ---- number of jobs: numjobs and the whole run capped at 4096 ----
printf '[a]\nioengine=null\nnumjobs=4097\n' >../j/numjobs.job
hostile "numjobs\.job:3: option 'numjobs': '4097' is out of range; expected an integer from 1 to 4096" \
	../j/numjobs.job
hostile "command line argument 4: option 'numjobs': '4097' is out of range" \
	--name=a --ioengine=null --numjobs=4097
printf '[global]\nioengine=null\nnumjobs=4096\n[a]\n[b]\n' >../j/total.job
hostile "option 'numjobs': the run would have 8192 jobs; at most 4096 are allowed" \
	../j/total.job
hostile "option 'numjobs': the run would have 4098 jobs; at most 4096" \
	--ioengine=null --numjobs=2049 --name=a --name=b
accepted --ioengine=null --numjobs=2048 --name=a --name=b
# Sweep points count as jobs, clones included.
printf '[a]\nioengine=null\nnumjobs=4096\nsweep=bs:4k,8k\n' >../j/sweep.job
hostile 'the run would have 8192 jobs; at most 4096' ../j/sweep.job
{ printf '[a]\nioengine=null\nsweep=iodepth:'
  "$PY" -c 'print(",".join(str(i) for i in range(1, 66)))'
  printf 'sweep=randseed:'
  "$PY" -c 'print(",".join(str(i) for i in range(1, 65)))'
} >../j/points.job
hostile "option 'sweep': more than 4096 points" ../j/points.job

# ---- numbers that do not fit 64 bits ----
for v in 16384p 18446744073709551616 0x10000000000000000 '(1p*1p)' \
	'(16384*1p)' '(2*1024p)*8' 170141183460469231731687303715884105728; do
	hostile "option 'size': '[^']*' is too large" --name=a \
		--ioengine=null "--size=$v"
done
accepted --name=a --ioengine=null --size=18446744073709551615
accepted --name=a --ioengine=null --size=0xffffffffffffffff
hostile "option 'bs': '16384p' is too large" --name=a --ioengine=null \
	--bs=16384p
hostile "option 'io_size': '[^']*' is too large" --name=a --ioengine=null \
	'--io_size=(18446744073709551615+1)'
hostile "option 'runtime': '213504d' is too large" --name=a --ioengine=null \
	--runtime=213504d
hostile "option 'number_ios': '18446744073709551616' is too large" \
	--name=a --ioengine=null --number_ios=18446744073709551616
printf '[a]\nioengine=null\noffset=99999999999999999999k\n' >../j/offset.job
hostile "offset\.job:3: option 'offset': '99999999999999999999k' is too large" \
	../j/offset.job
hostile "option 'size': '[^']*' nests parentheses too deeply" --name=a \
	--ioengine=null "--size=$(repeat 40 '(')1$(repeat 40 ')')"
exit 0
