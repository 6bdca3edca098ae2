#!/bin/sh
# mem=mmap:FILE, mmapshared:FILE (issue 21): the buffers are a new
# unnamed file of FILE's file system (O_TMPFILE in its directory), mapped
# shared; FILE itself is never opened, made or removed. Before the door
# an existing FILE was opened read-write and mapped shared: the job's
# reads landed in it, even with --readonly on the job's own target, and
# on the backing file of a mounted ext4 they broke its group
# descriptors. Outside truths: sha256 of the files, strace (no open of
# FILE), the directory's listing, e2fsck -n.
# lane: parallel
. "$(dirname "$0")/lib.sh"

R="--rw=read --bs=64k --size=1m"
mkrand data 1048576
sum=$(sha256sum <data)

# FILE is the job's target: refused when planning, with or without
# --readonly, the target unchanged.
for m in mmap mmapshared; do
	for ro in "" --readonly; do
		run --name=j --filename=data $R $ro --mem=$m:data
		expect_rc 2
		# --readonly refuses any buffer file before the door looks
		if [ -n "$ro" ]; then
			expect_in err "option 'readonly': .*makes a file for its I/O buffers"
		else
			expect_in err "option 'mem'.*'data' is a file one of the jobs reads or writes \\('data', of job 'j'\\)"
		fi
		[ "$(sha256sum <data)" = "$sum" ] ||
			die "mem=$m:data $ro changed the target"
	done
done

# An existing file outside the run: left alone, never opened.
mkrand other 262144
osum=$(sha256sum <other)
run --name=j --filename=data $R --mem=mmapshared:other
expect_rc 0
[ "$(sha256sum <other)" = "$osum" ] || die "mem=mmapshared:other changed it"
[ "$(stat -c %s other)" = 262144 ] || die "other's length changed"
if strace_works; then
	strace -f -qq -e trace=open,openat -o st "$IORIG" --name=j \
		--filename=data $R --mem=mmapshared:other >/dev/null 2>&1 ||
		die "the strace run failed"
	! grep -q '"other"' st || die "FILE was opened: $(grep other st)"
	grep -q 'openat(AT_FDCWD, "\.", O_RDWR|O_CLOEXEC|O_TMPFILE' st ||
		die "no unnamed file in FILE's directory: $(grep TMPFILE st)"
fi

# A new FILE: not made, nothing left beside it.
mkdir nd
run --name=j --filename=data $R --mem=mmap:nd/buf
expect_rc 0
expect_dir_empty nd

# A new name in /dev: refused, /dev as it was.
ls -A /dev | grep -v '^loop' >"$T/dev.before"
run --name=j --filename=data $R --mem=mmap:/dev/iorig-door-mem-$$
expect_rc 2
expect_in err "iorig makes no regular file in /dev"
ls -A /dev | grep -v '^loop' >"$T/dev.after"
cmp -s "$T/dev.before" "$T/dev.after" ||
	die "/dev changed: $(diff "$T/dev.before" "$T/dev.after")"

# The backing file of a mounted ext4: left alone, the file system clean.
ext4_loop img 32
isum=$(sha256sum <img)
run --name=j --filename=data $R --mem=mmap:img
expect_rc 0
run --name=j --filename=data $R --mem=mmapshared:img
expect_rc 0
sync
[ "$(sha256sum <img)" = "$isum" ] || die "the mounted file system's image changed"
umount "$T/mnt" || die "cannot unmount"
e2fsck -fn "$dev" >"$T/out" 2>&1 || die "e2fsck -n found damage: $(tail -5 "$T/out")"
[ "$(sha256sum <data)" = "$sum" ] || die "the target changed"
echo "ok: mem=mmap:FILE never maps FILE"
