#!/bin/sh
# file_append, create_fsync, end_syncfs, pre_read (issue 12, opt-a), seen
# from outside: the file's bytes and size (against fio on the same job
# where fio is installed) and the system calls strace sees.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "no strace"
have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1

# calls NAME ARGS...: how many NAME system calls `iorig ARGS` made.
calls() {
	c=$1; shift
	strace -f -qq -e trace="$c" -o st "$IORIG" "$@" >out 2>err ||
		die "iorig $*"
	grep -c "^[0-9]* *$c(" st
}

# ---- file_append: the region starts at the file's end ----
mkrand a 100000
cp a a.fio
before=$(sum_range a 0 100000)
strace -f -qq -s0 -e trace=pwrite64 -o st "$IORIG" --name=a --filename=a \
	--rw=write --bs=4k --size=64k --ioengine=psync --file_append=1 \
	>out 2>err || die "iorig file_append"
[ "$(fsize a)" -eq 165536 ] || die "file_append: size $(fsize a), not 165536"
[ "$(sum_range a 0 100000)" = "$before" ] ||
	die "file_append changed the bytes before the file's end"
first=$(awk '/pwrite64\(.*4096, [0-9]+\)/ { n = split($0, x, ", ")
	sub(/\).*/, "", x[n]); print x[n]; exit }' st)
[ "$first" = 100000 ] || die "file_append: first write at $first"
if [ $have_fio = 1 ]; then
	fio --name=a --filename=a.fio --rw=write --bs=4k --size=64k \
		--file_append=1 >/dev/null 2>&1 || die "fio file_append"
	[ "$(fsize a.fio)" -eq 165536 ] || die "fio: size $(fsize a.fio)"
fi
# Without it, offset=0 overwrites the start and the size stays.
run --name=a --filename=a --rw=write --bs=4k --size=64k
expect_rc 0
[ "$(fsize a)" -eq 165536 ] || die "size changed without file_append"
[ "$(sum_range a 0 100000)" != "$before" ] || die "offset 0 not written"

# ---- create_fsync: one fsync after laying out a new file, or none ----
n=$(calls fsync --name=c --filename=c1 --rw=read --bs=64k --size=1m)
[ "$n" -ge 1 ] || die "create_fsync=1 (default): $n fsync calls"
n=$(calls fsync --name=c --filename=c2 --rw=read --bs=64k --size=1m \
	--create_fsync=0)
[ "$n" -eq 0 ] || die "create_fsync=0: $n fsync calls"
[ "$(fsize c2)" -eq 1048576 ] || die "create_fsync=0: file not laid out"

# ---- end_syncfs: syncfs(2) of each file at the end of a writing job ----
n=$(calls syncfs --name=s --filename=s1:s2 --rw=write --bs=4k --size=64k \
	--end_syncfs=1)
[ "$n" -eq 2 ] || die "end_syncfs=1: $n syncfs calls, expected 2"
n=$(calls syncfs --name=s --filename=s1 --rw=write --bs=4k --size=64k)
[ "$n" -eq 0 ] || die "end_syncfs=0: $n syncfs calls"
n=$(calls syncfs --name=s --filename=s1 --rw=read --bs=4k --size=64k \
	--end_syncfs=1)
[ "$n" -eq 0 ] || die "a read job synced ($n syncfs), fio does not"

# ---- pre_read: the region read before the job, not invalidated ----
mkrand p 4194304
strace -f -qq -s0 -e trace=pread64,fadvise64 -o st "$IORIG" --name=p \
	--filename=p --rw=randread --bs=4k --size=2m --offset=1m \
	--ioengine=psync --pre_read=1 --number_ios=8 >out 2>err ||
	die "iorig pre_read"
# 1 MiB reads at 1m and 2m, before any 4k read; no POSIX_FADV_DONTNEED.
got=$(awk '/pread64\(/ { n = split($0, x, ", "); sub(/\).*/, "", x[n])
	if (x[n-1] == 1048576) printf "%s ", x[n]
	else if (x[n-1] == 4096) { print "4k"; exit } }' st)
[ "$got" = "1048576 2097152 4k" ] || die "pre_read: reads $got"
! grep -q DONTNEED st || die "pre_read: the region was invalidated"
strace -f -qq -s0 -e trace=pread64,fadvise64 -o st "$IORIG" --name=p \
	--filename=p --rw=randread --bs=4k --size=2m --offset=1m \
	--ioengine=psync --number_ios=8 >out 2>err || die "iorig"
! grep -q 'pread64(.*1048576' st || die "pre_read=0 read ahead"
grep -q DONTNEED st || die "invalidate=1 did not drop the cache"
run --name=p --filename=p --rw=read --bs=4k --size=64k --pre_read=1 \
	--direct=1
if [ "$rc" -eq 0 ]; then
	expect_in err 'pre_read=1 does nothing with direct=1'
fi
echo ok
