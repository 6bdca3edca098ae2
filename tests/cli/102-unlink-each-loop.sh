#!/bin/sh
# unlink_each_loop=1: before each loop after the first, the files this run
# created are deleted and made again (strace counts the unlinks and the
# O_EXCL creations; fio on the same job unlinks as many times); a file
# that existed before is never deleted; engines that hold the files from
# the start are refused.
# lane: parallel
. "$(dirname "$0")/lib.sh"

# Refused: mmap maps the files once. Exit 2, nothing run.
run --name=m --filename=m.dat --size=64k --rw=write --ioengine=mmap \
	--loops=2 --unlink_each_loop=1
expect_rc 2
expect_in err 'unlink_each_loop'
[ ! -e m.dat ] || die "a refused job created m.dat"

command -v strace >/dev/null 2>&1 || skip "needs strace"

# ucount TOOL ARGS...: successful unlinks of d/j.0.* under strace (iorig:
# unlinkat on the directory held, door.h; fio: unlink of the path).
ucount() {
	rm -rf d && mkdir d
	strace -f -qq -e trace=unlink,unlinkat -o tr "$@" >out 2>err ||
		die "$1 failed"
	grep -c 'unlink.*"\(d/\)\{0,1\}j\.0\.[01]".* = 0$' tr
}
JOB="--name=j --directory=d --rw=write --bs=4k --size=64k --nrfiles=2"
JOB="$JOB --loops=3 --unlink_each_loop=1 --ioengine=libaio --direct=1"
JOB="$JOB --iodepth=4"

# 3 loops, 2 files: deleted before loops 2 and 3, the last ones stay.
n=$(ucount "$IORIG" $JOB)
[ "$n" -eq 4 ] || die "expected 4 unlinks of the job's files, got $n"
[ "$(fsize d/j.0.0)" -eq 32768 ] && [ "$(fsize d/j.0.1)" -eq 32768 ] ||
	die "the last loop's files are not there whole"
rm -rf d && mkdir d
strace -f -qq -e trace=openat -o tr2 "$IORIG" $JOB >out 2>err ||
	die "iorig failed"
c=$(grep -c 'd/j\.0\.[01]".*O_CREAT|O_EXCL.* = [0-9]' tr2)
[ "$c" -eq 6 ] || die "expected 6 exclusive creations, got $c"

# fio on the same job: as many unlinks that deleted a file.
if command -v fio >/dev/null 2>&1; then
	f=$(ucount fio $JOB --output=/dev/null)
	[ "$f" -eq "$n" ] || die "fio unlinked $f times, iorig $n"
fi

# Without the option: no unlink at all.
n=$(ucount "$IORIG" --name=j --directory=d --rw=write --bs=4k --size=64k \
	--nrfiles=2 --loops=3)
[ "$n" -eq 0 ] || die "unlinks without unlink_each_loop: $n"

# A read job: each loop's new files are laid out again and read whole.
rm -rf d && mkdir d
run --output-format=json --name=j --directory=d --rw=read --bs=4k \
	--size=64k --loops=3 --unlink_each_loop=1
expect_rc 0
json_is "d['jobs'][0]['read']['io_bytes']" $((3 * 65536))

# A file that was there: kept (same inode, data outside untouched), said.
mkrand old.dat 131072
ino=$(stat -c %i old.dat)
run --output-format=json --name=o --filename=old.dat --size=64k \
	--rw=write --bs=4k --loops=2 --unlink_each_loop=1
expect_rc 0
[ "$(stat -c %i old.dat)" = "$ino" ] || die "old.dat was made again"
[ "$(fsize old.dat)" -eq 131072 ] || die "old.dat changed size"
json_is "[w['code'] for w in d['warnings']].count('unlink_each_loop_kept')" 1
exit 0
