#!/bin/sh
# Engine knobs of fio's: thp= (mmap: MADV_HUGEPAGE on the mapping, as fio
# calls it), hipri_percentage= (pvsync2: the share of preadv2 calls with
# RWF_HIPRI, counted by strace), force_async= (io_uring: the kernel's
# worker threads, iou-wrk-*, appear in the process only with it),
# libaio_vectored= (the opcodes the kernel is given; nonvectored=: test
# 285).
# Paced: a signal or a check after a sleep, CPU under half its time
# alone (plain and under the sanitizers); held beside 86, 244 and the
# others moved with it, three times plain and twice sanitized.
# lane: paced
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null || skip "no strace"
mkrand t.dat 4194304
have_odirect . || skip "no O_DIRECT in $T"

# thp: the same madvise as fio's on the same job.
strace -f -qq -e trace=madvise -o "$T/s" "$IORIG" --name=t --ioengine=mmap \
	--filename=t.dat --size=4m --thp=1 --rw=read >/dev/null 2>&1 ||
	die "thp=1 failed"
grep -q 'madvise(0x[0-9a-f]*, 4194304, MADV_HUGEPAGE) *= 0' "$T/s" ||
	die "no MADV_HUGEPAGE: $(cat "$T/s")"
strace -f -qq -e trace=madvise -o "$T/s" "$IORIG" --name=t --ioengine=mmap \
	--filename=t.dat --size=4m --rw=read >/dev/null 2>&1
! grep -q MADV_HUGEPAGE "$T/s" || die "MADV_HUGEPAGE without thp"
if command -v fio >/dev/null; then
	strace -f -qq -e trace=madvise -o "$T/s" fio --name=t --ioengine=mmap \
		--filename=t.dat --size=4m --thp=1 --rw=read >/dev/null 2>&1
	grep -q 'madvise(0x[0-9a-f]*, 4194304, MADV_HUGEPAGE)' "$T/s" ||
		die "fio calls it otherwise: $(grep HUGE "$T/s")"
fi

# hipri_percentage=25: about a quarter of 1000 reads are RWF_HIPRI.
strace -f -qq -e trace=preadv2 -o "$T/s" "$IORIG" --name=h --ioengine=pvsync2 \
	--filename=t.dat --size=4m --direct=1 --rw=randread --number_ios=1000 \
	--hipri_percentage=25 >/dev/null 2>&1 || die "hipri_percentage failed"
n=$(grep -c 'RWF_HIPRI' "$T/s")
all=$(grep -c 'preadv2(' "$T/s")
[ "$all" -eq 1000 ] || die "$all preadv2 calls, expected 1000"
[ "$n" -ge 190 ] && [ "$n" -le 310 ] || die "$n of 1000 calls with RWF_HIPRI"

# force_async: io-wq workers in the process while it runs, none without.
wrk() {
	"$IORIG" --name=f --ioengine=io_uring --filename=t.dat --size=4m \
		--direct=1 --rw=randread --iodepth=8 --time_based \
		--runtime=900ms "$@" >/dev/null 2>"$T/err" &
	_p=$!
	sleep 0.5
	cat /proc/$_p/task/*/comm 2>/dev/null | grep -c '^iou-wrk' >"$T/n"
	wait $_p || die "io_uring job failed: $(cat "$T/err")"
	cat "$T/n"
}
[ "$(wrk --force_async=0)" -eq 0 ] || skip "io_uring punts to workers even without force_async here"
[ "$(wrk --force_async=1)" -gt 0 ] || die "force_async=1: no iou-wrk thread"

run --name=x --ioengine=pvsync2 --size=1m --hipri_percentage=101
expect_rc 2

# libaio_vectored: io_submit's iocbs are PREADV (strace decodes them).
strace -f -qq -e trace=io_submit -o "$T/s" "$IORIG" --name=v --ioengine=libaio \
	--direct=1 --filename=t.dat --size=1m --number_ios=5 --libaio_vectored=1 \
	>/dev/null 2>&1 || die "libaio_vectored failed"
[ "$(grep -o 'aio_lio_opcode=IOCB_CMD_PREADV' "$T/s" | wc -l)" -eq 5 ] ||
	die "not 5 PREADV iocbs: $(head -3 "$T/s")"
strace -f -qq -e trace=io_submit -o "$T/s" "$IORIG" --name=v --ioengine=libaio \
	--direct=1 --filename=t.dat --size=1m --number_ios=5 >/dev/null 2>&1
[ "$(grep -o 'aio_lio_opcode=IOCB_CMD_PREAD,' "$T/s" | wc -l)" -eq 5 ] ||
	die "not 5 PREAD iocbs by default: $(head -3 "$T/s")"

# fio 3.33 takes any integer there (2 is READ: test 285); not a word.
run --name=x --ioengine=io_uring --size=1m --nonvectored=abc
expect_rc 2
