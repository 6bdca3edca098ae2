#!/bin/sh
# loops=N with do_verify: each loop's writes are read back and checked
# when the loop ends, before the next loop writes (fio's meaning: it
# verifies after each loop), not once at the end. Seen by strace (psync:
# pread64, pwrite64 of 64 KiB on a 4 MiB file, loops=2): 64 writes, 64
# reads, 64 writes, 64 reads, in that order; the report's verify bytes
# are 8 MiB, the bytes fio reads back on the same job.
# lane: parallel
. "$(dirname "$0")/lib.sh"

strace_works || skip "needs strace that may trace here"
have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1
mkrand f 4194304

# phases TOOL ARGS: the job thread's 64 KiB preads and pwrites as runs,
# "w64 r64 w64 r64".
phases() {
	tool=$1
	shift
	rm -f st.*
	strace -f -ff -qq -s0 -e trace=pread64,pwrite64 -o st "$tool" \
		--name=v --filename=f --ioengine=psync --bs=64k --size=4m \
		--rw=randwrite --verify=md5 --do_verify=1 --loops=2 --thread \
		--output-format=json "$@" >out 2>err || die "$tool: exit $?"
	s=$(wc -l st.* | sort -n | grep -v total | tail -1 | awk '{ print $2 }')
	awk '/^p(read|write)64\(.*, 65536, [0-9]+\) += 65536$/ {
		c = substr($0, 2, 1) == "r" ? "r" : "w"
		if (c != last && n) { printf "%s%d ", last, n; n = 0 }
		last = c; n++ }
		END { if (n) printf "%s%d", last, n }' "$s"
}

got=$(phases "$IORIG")
[ "$got" = "w64 r64 w64 r64" ] ||
	die "iorig: $got; expected each loop's 64 writes read back after it"
json_is "(d['jobs'][0]['verify']['io_bytes'], d['jobs'][0]['verify']['mismatches'])" "(8388608, 0)"
if [ $have_fio = 1 ]; then
	got=$(phases fio)
	[ "$got" = "w64 r64 w64 r64" ] || die "fio: $got"
	json_is "d['jobs'][0]['read']['io_bytes']" 8388608
fi
echo ok
