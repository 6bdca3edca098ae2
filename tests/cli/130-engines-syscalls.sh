#!/bin/sh
# The engines of issue 12 (pvsync, pvsync2, posixaio, mmap, falloc) do
# their I/O with the system calls they are named after, one per I/O, as
# strace counts them (and as fio's engines of the same name do); mmap's
# writes land in the file (their bytes, checked block by block);
# pvsync2's flags reach the kernel (strace decodes them) and take effect:
# uncached=1 leaves none of the file in the page cache (fincore), and
# nowait=1 on a device that is slow to answer fails with EAGAIN; falloc
# allocates the blocks of a sparse file (stat's block count). Engines
# that need software this machine lacks are refused with exit 2.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "needs strace"

# Refused engines first: no strace needed, exit 2, what they need named.
for e in rbd:librbd rados:librados spdk_bdev:SPDK xnvme:libxnvme \
	external:/x/e.so:'external engine plugins'; do
	run --parse-only --name=x --ioengine="${e%%:*}"
	expect_rc 2
	expect_in err "needs .*${e##*:}"
done
run --parse-only --name=x --ioengine=/x/e.so
expect_rc 2
expect_in err 'external engine plugins'

# count ENGINE RW CALL ARGS...: how many CALLs strace saw over a 1 MiB,
# bs=4k job (256 I/Os) on f.dat, in $n.
count() {
	_e=$1 _m=$2 _c=$3
	shift 3
	strace -f -qq -c -U calls,name -e trace="$_c" -o "$T/st" "$IORIG" \
		--name=j --filename=f.dat --size=1m --bs=4k --rw="$_m" \
		--ioengine="$_e" --output-format=json "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 0 ] || die "$_e rw=$_m under strace: exit $rc"
	n=$(awk -v c="$_c" '$2 == c { print $1 }' "$T/st")
	n=${n:-0}
}

mkrand f.dat 1048576
for x in pvsync:read:preadv pvsync:randwrite:pwritev \
	pvsync2:randread:preadv2 pvsync2:write:pwritev2 \
	falloc:randwrite:fallocate falloc:read:fallocate; do
	e=${x%%:*} c=${x##*:} m=${x#*:}
	m=${m%%:*}
	count "$e" "$m" "$c" --iodepth=4
	[ "$n" -eq 256 ] || die "$e rw=$m: $n $c calls, expected 256"
	json_is "d['jobs'][0]['read']['ios'] + d['jobs'][0]['write']['ios']" 256
done
# posixaio: glibc's threads do pread64/pwrite64, one per I/O: as many
# as the sync engine makes (iorig itself reads a little at the start).
for x in randread:pread64 write:pwrite64; do
	count sync "${x%%:*}" "${x##*:}"
	ref=$n
	count posixaio "${x%%:*}" "${x##*:}" --iodepth=8
	[ "$n" -eq "$ref" ] && [ "$n" -ge 256 ] ||
		die "posixaio rw=${x%%:*}: $n ${x##*:} calls, sync made $ref"
done

# fio's engines of the same names make as many of these calls.
if command -v fio >/dev/null 2>&1; then
	for x in pvsync:randread:preadv pvsync2:write:pwritev2 \
		posixaio:randread:pread64 falloc:randwrite:fallocate; do
		e=${x%%:*} c=${x##*:} m=${x#*:}
		m=${m%%:*}
		count "$e" "$m" "$c" --iodepth=4
		strace -f -qq -c -U calls,name -e trace="$c" -o "$T/st" fio \
			--name=j --filename=f.dat --size=1m --bs=4k --rw="$m" \
			--ioengine="$e" --iodepth=4 --minimal >/dev/null 2>&1 ||
			die "fio $e rw=$m did not run"
		f=$(awk -v c="$c" '$2 == c { print $1 }' "$T/st")
		[ "$n" -eq "${f:-0}" ] ||
			die "$e rw=$m: $n $c calls, fio made ${f:-0}"
	done
fi

# mmap: no read or write system call per I/O, one mapping.
for m in randread randwrite; do
	count mmap $m pread64,pwrite64,preadv,pwritev
	[ "$n" -eq 0 ] || die "mmap rw=$m: $n read/write calls"
	json_is "d['jobs'][0]['read']['ios'] + d['jobs'][0]['write']['ios']" 256
done
# ... and its writes are in the file, every block a distinct write's.
run --name=ref --filename=ref.dat --size=32k --bs=32k --rw=write
expect_rc 0
for d in 0 1; do
	rm -f m.dat
	run --name=m --filename=m.dat --size=1m --bs=4k --rw=randwrite \
		--ioengine=mmap --direct=$d
	expect_rc 0
	bad=$(blocks_from m.dat)
	[ "$bad" -eq 0 ] || die "mmap direct=$d: $bad blocks not written"
done

# pvsync2 flags as the kernel got them.
strace -f -qq -e trace=preadv2 -o "$T/st" "$IORIG" --name=j \
	--filename=f.dat --size=16k --ioengine=pvsync2 --nowait=1 \
	--uncached=1 >/dev/null 2>&1
grep -Eq 'RWF_NOWAIT\|(0x80|RWF_DONTCACHE)\)' "$T/st" ||
	die "pvsync2 nowait+uncached: $(head -n 2 "$T/st")"
if have_odirect "$T"; then
	strace -f -qq -e trace=preadv2 -o "$T/st" "$IORIG" --name=j \
		--filename=f.dat --size=16k --ioengine=pvsync2 --hipri=1 \
		--uncached=1 --direct=1 >/dev/null 2>&1
	# uncached has no meaning with direct=1: not passed.
	grep -q 'RWF_HIPRI)' "$T/st" ||
		die "pvsync2 hipri direct=1: $(head -n 2 "$T/st")"
fi
# uncached=1: what was read is not left in the cache.
if command -v fincore >/dev/null 2>&1; then
	run --name=u --filename=f.dat --size=1m --ioengine=pvsync2 \
		--uncached=1
	expect_rc 0
	pages=$(fincore -n -o PAGES f.dat)
	[ "$pages" -lt 16 ] || die "uncached=1: $pages pages cached"
	run --name=u --filename=f.dat --size=1m --ioengine=pvsync2
	expect_rc 0
	pages=$(fincore -n -o PAGES f.dat)
	[ "$pages" -eq 256 ] || die "uncached=0: $pages pages cached"
fi
# Without pvsync2, these options only warn.
run --parse-only --name=x --ioengine=sync --nowait=1
expect_in err 'nowait.*apply to the pvsync2 engine only'
run --parse-only --name=x --ioengine=pvsync2 --hipri=1
expect_not_in err 'io_uring engine only'

# falloc allocates a sparse file's blocks (reads too: KEEP_SIZE).
rm -f s.dat
truncate -s 1m s.dat
[ "$(stat -c %b s.dat)" -eq 0 ] || skip "this file system allocates sparse files"
run --name=s --filename=s.dat --size=1m --ioengine=falloc --rw=randread \
	--layout=0
expect_rc 0
[ "$(($(stat -c '%b * %B' s.dat)))" -ge 1048576 ] ||
	die "falloc: $(stat -c '%b * %B' s.dat) bytes allocated"
[ "$(fsize s.dat)" -eq 1048576 ] || die "falloc read changed the size"
run --parse-only --name=v --ioengine=falloc --rw=write --verify=crc32c
expect_rc 2
expect_in err 'moves no data'

# nowait=1: a read that would wait for the device fails, EAGAIN (the
# job's buffered start drops the cache: BLKFLSBUF on a device). Such a
# read still starts read-ahead, and fails only when that I/O is still
# in flight as it looks: on a fast disk and a loaded machine a job once
# read all of a 1 MiB file so (exit 0, a sanitizer pass). A loop device
# throttled to 2 reads a second (cgroup v1 blkio) holds the I/O: last,
# as it needs root and the throttle.
BLKIO=/sys/fs/cgroup/blkio/blkio.throttle.read_iops_device
[ -w "$BLKIO" ] || skip "nowait=1 unchecked: needs the blkio throttle ($BLKIO)"
loop_disk d.img 4
mm=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
echo "$mm 2" >"$BLKIO" || skip "nowait=1 unchecked: cannot throttle $dev"
trap 'echo "$mm 0" >"$BLKIO"; losetup -d "$dev" 2>/dev/null; cd /; rm -rf "$T"' EXIT
for i in 1 2; do
	run --name=n --filename="$dev" --size=1m --ioengine=pvsync2 \
		--nowait=1 --output-format=json
	expect_rc 1
	json_is "d['jobs'][0]['error']['errno']" 11
	json_is "d['jobs'][0]['read']['ios']" 0
done
exit 0
