#!/bin/sh
# layout: before a job reads a file, the holes and unwritten extents of its
# region are filled with real data, and only they (written data and the
# bytes outside the region stay as they are); layout=0 leaves them and
# warns; a job that only writes fills nothing. unlink=1 never deletes a
# file the job only filled.
# lane: parallel
. "$(dirname "$0")/lib.sh"

MiB=1048576

# blocks FILE: bytes allocated to FILE.
blocks() {
	echo $(($(stat -c %b "$1") * 512))
}

# zeros FILE OFFSET LENGTH: true when those bytes are all zero.
zeros() {
	[ "$(sum_range "$1" "$2" "$3")" = \
	  "$(head -c "$3" /dev/zero | cksum)" ]
}

truncate -s $((8 * MiB)) sparse.dat || die "cannot make sparse.dat"
[ "$(blocks sparse.dat)" -lt $MiB ] ||
	skip "this file system does not make sparse files"

# A sparse file, read: fully allocated afterwards, size unchanged, and
# said (48-warnings.sh has the details).
run --name=r --filename=sparse.dat --bs=64k --rw=read
expect_rc 0
expect_in err "warning: job 'r': sparse.dat: 8388608 bytes .* filled"
[ "$(fsize sparse.dat)" -eq $((8 * MiB)) ] || die "sparse.dat changed size"
[ "$(blocks sparse.dat)" -ge $((8 * MiB)) ] ||
	die "sparse.dat has $(blocks sparse.dat) bytes allocated, not 8 MiB"
! zeros sparse.dat 0 $((8 * MiB)) || die "the holes were not filled with data"

# layout=0: left sparse, and said so.
rm -f sparse.dat
truncate -s $((8 * MiB)) sparse.dat
run --name=r --filename=sparse.dat --bs=64k --rw=randread --layout=0
expect_rc 0
expect_in err "warning: job 'r': sparse.dat: reads of 8MiB of holes/unwritten extents never reach the device \(layout=0\)"
[ "$(blocks sparse.dat)" -lt $MiB ] || die "layout=0 filled sparse.dat"

# A job that only writes fills nothing: it writes its region itself.
run --name=w --filename=sparse.dat --size=1m --bs=64k --rw=write
expect_rc 0
expect_empty err
[ "$(blocks sparse.dat)" -lt $((2 * MiB)) ] ||
	die "a write job filled holes outside what it wrote"

# Data, a hole, then (where fallocate works) an unwritten extent:
# [0, 2m) data, [2m, 6m) hole, [6m, 8m) preallocated. A read job on
# [1m, 7m) fills [2m, 7m) and nothing else.
mkrand mixed.dat $((2 * MiB))
truncate -s $((6 * MiB)) mixed.dat
if fallocate -o $((6 * MiB)) -l $((2 * MiB)) mixed.dat 2>/dev/null; then
	unwritten=1
else
	truncate -s $((8 * MiB)) mixed.dat
	unwritten=0
fi
cp mixed.dat mixed.orig
run --name=r --filename=mixed.dat --offset=1m --size=6m --bs=4k \
	--rw=randread --unlink=1
expect_rc 0
expect_in err "warning: job 'r': mixed.dat: [0-9]+ bytes .* of holes/unwritten extents in \\[1048576, 7340032\\) filled"
[ -e mixed.dat ] || die "unlink=1 deleted a file the job only filled"
[ "$(fsize mixed.dat)" -eq $((8 * MiB)) ] || die "mixed.dat changed size"
[ "$(sum_range mixed.dat 0 $((2 * MiB)))" = \
  "$(sum_range mixed.orig 0 $((2 * MiB)))" ] ||
	die "written data in [0, 2m) was overwritten"
! zeros mixed.dat $((2 * MiB)) $((4 * MiB)) || die "the hole was not filled"
! zeros mixed.dat $((6 * MiB)) $MiB ||
	die "the unwritten extent in the region was not filled"
zeros mixed.dat $((7 * MiB)) $MiB || die "bytes past the region were written"
if [ "$unwritten" = 1 ]; then
	[ "$(blocks mixed.dat)" -ge $((8 * MiB)) ] ||
		die "mixed.dat is not fully allocated"
else
	[ "$(blocks mixed.dat)" -ge $((7 * MiB)) ] ||
		die "mixed.dat is not allocated up to the end of the region"
fi

# A second read finds nothing to fill and changes nothing; over the whole
# file, layout=0 counts the 1 MiB past the old region.
cp mixed.dat mixed.orig
run --name=r --filename=mixed.dat --offset=1m --size=6m --bs=4k \
	--rw=randread --layout=0
expect_rc 0
expect_empty err
cmp -s mixed.dat mixed.orig || die "a read of a laid-out file changed it"
run --name=r --filename=mixed.dat --bs=4k --rw=randread --layout=0
expect_rc 0
expect_in err "reads of 1MiB of holes/unwritten extents"
cmp -s mixed.dat mixed.orig || die "a read with layout=0 changed the file"

# A mixed job reads too: it fills.
rm -f sparse.dat
truncate -s $((4 * MiB)) sparse.dat
run --name=m --filename=sparse.dat --bs=4k --rw=randrw
expect_rc 0
expect_in err "warning: job 'm': sparse.dat: 4194304 bytes"
[ "$(blocks sparse.dat)" -ge $((4 * MiB)) ] || die "rw=randrw did not fill"
exit 0
