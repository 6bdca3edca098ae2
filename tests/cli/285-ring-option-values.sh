#!/bin/sh
# nonvectored= (io_uring, io_uring_cmd) and pi_chk= (io_uring_cmd) are
# parsed once, when the job file is read, into the engines' typed fields.
# nonvectored= takes what fio 3.33 takes (an integer, into 32 bits: fio
# --parse-only on the same job file is the truth), and refuses what fio
# refuses or reads as another number without a word (low bits kept, the
# first of two parts, the number before '*', a fraction's whole part,
# trailing letters): exit 2, the file, line and option named, nothing
# created. What a value means is what the kernel is given: the opcodes of
# io_uring's submissions (the io_uring_submit_req tracepoint, in a trace
# instance of this test's own, the lines of this process picked by their
# thread group id), READV for 0 (any spelling of it), READ for any other
# value and by default, as fio's.
# pi_chk= (a later fio's option, which fio 3.33 lacks): GUARD, REFTAG,
# APPTAG joined by ',', any case; anything else refused at parse time.
# lane: parallel
. "$(dirname "$0")/lib.sh"

# job ENGINE FILE OPTION VALUE: a job file with OPTION=VALUE on line 6.
job() {
	printf '[global]\nioengine=%s\nfilename=%s\nsize=64k\n[v]\n%s=%s\n' \
		"$1" "$2" "$3" "$4" >"$T/v.fio"
}

fio=
[ -x /usr/bin/fio ] && fio=/usr/bin/fio
# value, then what iorig does: ok, or no (fio takes it, misreading it),
# or bad (fio refuses it too)
rows='"-1:ok" "0:ok" "1:ok" "2:ok" "-5:ok" "0x0:ok" "0x1:ok"
    "1k:ok" "4294967295:ok" "-2147483648:ok" "1,1:ok" "1,:ok" " 1:ok"
    "4294967296:no" "-2147483649:no" "1,0:no" "2*4k:no" "0.5:no"
    "1abc:no" "0abc:no" "abc:bad" ":bad"'
eval "set -- $rows"
# fio takes every value but the bad ones: one job file, a job each (one
# fio start, not one a value: 0.16 CPU-s each); each bad one alone.
if [ -n "$fio" ]; then
	job io_uring "$T/new" nonvectored 0
	i=0
	for row; do
		i=$((i + 1))
		[ "${row##*:}" = bad ] && continue
		printf '[v%d]\nnonvectored=%s\n' $i "${row%:*}" >>"$T/v.fio"
	done
	$fio --parse-only "$T/v.fio" >"$T/fio" 2>&1 ||
		die "fio 3.33 refuses a nonvectored= of $T/v.fio:" \
		    "$(cat "$T/v.fio" "$T/fio")"
fi
for row; do
	v=${row%:*}
	want=${row##*:}
	for eng in io_uring io_uring_cmd; do
		f="$T/new"
		[ $eng = io_uring_cmd ] && f=/dev/null
		job $eng "$f" nonvectored "$v"
		if [ -n "$fio" ] && [ $eng = io_uring ] && [ $want = bad ]; then
			$fio --parse-only "$T/v.fio" >"$T/fio" 2>&1 &&
				die "fio 3.33 takes nonvectored='$v'"
		fi
		run --parse-only "$T/v.fio"
		if [ $want = ok ]; then
			expect_rc 0
			# the text as given, less the job file's blanks
			grep -qx "  nonvectored=${v# }" "$T/out" ||
				die "--parse-only does not show nonvectored=$v"
			continue
		fi
		expect_rc 2
		expect_in err "v.fio:6: option 'nonvectored': "
		# not run either: the file is not made
		run "$T/v.fio"
		expect_rc 2
		[ ! -e "$T/new" ] || die "nonvectored='$v' created $T/new"
	done
done
echo "ok: nonvectored= takes what fio 3.33 takes, refuses its" \
     "misreadings at parse time"

for v in GUARD guard,reftag APPTAG,GUARD,REFTAG "" Guard,; do
	job io_uring_cmd /dev/null pi_chk "$v"
	run --parse-only "$T/v.fio"
	expect_rc 0
done
for v in CRC GUARD,CRC GUARD,,REFTAG ,GUARD "GUARD REFTAG"; do
	job io_uring_cmd /dev/null pi_chk "$v"
	run "$T/v.fio"
	expect_rc 2
	expect_in err "v.fio:6: option 'pi_chk': expected GUARD, REFTAG and APPTAG"
done
echo "ok: pi_chk= words checked at parse time"

# The opcodes the kernel is given (root and tracefs needed).
have_odirect . || skip "no O_DIRECT in $T (the values were checked)"
tracing
[ -w "$TR/instances" ] &&
	[ -d "$TR/events/io_uring/io_uring_submit_req" ] ||
	skip "no io_uring_submit_req tracepoint (the values were checked)"
mkrand t.dat 1048576
I=$TR/instances/iorig-t285-$$
mkdir "$I" || die "cannot make $I"
trap 'echo 0 >"$I/events/io_uring/io_uring_submit_req/enable" 2>/dev/null; rmdir "$I" 2>/dev/null; cd /; rm -rf "$T"' EXIT
echo 1 >"$I/options/record-tgid"
echo 1 >"$I/events/io_uring/io_uring_submit_req/enable"
# ops PROGRAM VALUE: the opcodes of 5 reads with nonvectored=VALUE (an
# empty VALUE: not given). Engine options after ioengine, as fio's command
# line needs; --thread: fio's job is a thread of $_p, whose tgid we pick.
ops() {
	: >"$I/trace"
	"$1" --name=v --ioengine=io_uring --direct=1 --filename=t.dat \
		--size=1m --fixedbufs=0 --number_ios=5 --thread \
		${2:+"--nonvectored=$2"} >/dev/null 2>&1 &
	_p=$!
	wait $_p || die "$1 nonvectored=$2 failed"
	grep -E "\( *$_p\)" "$I/trace" | grep -o 'opcode [A-Z_]*' |
		sort | uniq -c | awk '{ print $1, $3 }'
}
for row in ":READ" "0:READV" "0x0:READV" "1:READ" "2:READ" "-5:READ" \
    "1k:READ" "4294967295:READ"; do
	v=${row%:*}
	[ "$(ops "$IORIG" "$v")" = "5 ${row##*:}" ] ||
		die "nonvectored=$v: $(ops "$IORIG" "$v"), expected ${row##*:}"
	if [ -n "$fio" ]; then
		[ "$(ops $fio "$v")" = "5 ${row##*:}" ] ||
			die "fio nonvectored=$v: $(ops $fio "$v")"
	fi
done
echo "ok: 0 is READV, any other value READ, as fio 3.33's"
