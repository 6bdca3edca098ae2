#!/bin/sh
# Safety of existing files: never truncated or shrunk, nothing written
# outside the job's region, a shorter file only extended, and unlink=1
# deletes only what iorig created.
# lane: parallel
. "$(dirname "$0")/lib.sh"

MiB=1048576

# expect_same FILE COPY OFFSET LENGTH: those bytes are unchanged.
expect_same() {
	[ "$(sum_range "$1" "$3" "$4")" = "$(sum_range "$2" "$3" "$4")" ] ||
		die "$1: bytes [$3, $(($3 + $4))) changed"
}

# A larger file: a write job on [1m, 3m) keeps the size and every byte
# outside the region, and does write inside it.
for rw in write randwrite rw; do
	mkrand big.dat $((8 * MiB))
	cp big.dat big.orig
	run --name=w --filename=big.dat --size=2m --offset=1m --bs=4k --rw=$rw \
		--output-format=json
	expect_rc 0
	json_is "d['jobs'][0]['read']['io_bytes'] + d['jobs'][0]['write']['io_bytes']" \
		$((2 * MiB))
	[ "$(fsize big.dat)" -eq $((8 * MiB)) ] ||
		die "rw=$rw: big.dat is now $(fsize big.dat) bytes, not 8 MiB"
	expect_same big.dat big.orig 0 $MiB
	expect_same big.dat big.orig $((3 * MiB)) $((5 * MiB))
	[ "$(sum_range big.dat $MiB $((2 * MiB)))" != \
	  "$(sum_range big.orig $MiB $((2 * MiB)))" ] ||
		die "rw=$rw: nothing was written in [1m, 3m)"
done

# Several clones and time_based on the same region stay inside it too.
mkrand big.dat $((8 * MiB))
cp big.dat big.orig
run --name=w --filename=big.dat --size=1m --offset=6m --bs=4k --rw=randwrite \
	--numjobs=2 --time_based --runtime=200ms
expect_rc 0
[ "$(fsize big.dat)" -eq $((8 * MiB)) ] || die "big.dat changed size"
expect_same big.dat big.orig 0 $((6 * MiB))
expect_same big.dat big.orig $((7 * MiB)) $MiB

# A read job changes nothing at all.
sum0=$(cksum <big.dat)
run --name=r --filename=big.dat --bs=64k --rw=randread
expect_rc 0
run --name=r --filename=big.dat --bs=64k --rw=read --loops=2
expect_rc 0
[ "$(cksum <big.dat)" = "$sum0" ] || die "a read job changed big.dat"

# An existing shorter file is extended (with real data), never rewritten
# below its old end by the layout.
mkrand short.dat $MiB
cp short.dat short.orig
run --name=r --filename=short.dat --size=3m --bs=4k --rw=read
expect_rc 0
[ "$(fsize short.dat)" -eq $((3 * MiB)) ] ||
	die "short.dat is $(fsize short.dat) bytes, expected 3 MiB"
expect_same short.dat short.orig 0 $MiB
[ $(($(stat -c %b short.dat) * 512)) -ge $((3 * MiB)) ] ||
	die "short.dat was extended sparsely"
# ...and with a region that ends inside the file, not extended at all.
mkrand short.dat $((2 * MiB))
cp short.dat short.orig
run --name=w --filename=short.dat --size=1m --bs=4k --rw=write
expect_rc 0
[ "$(fsize short.dat)" -eq $((2 * MiB)) ] || die "short.dat changed size"
expect_same short.dat short.orig $MiB $MiB

# unlink=1: a file that existed survives, with its content...
mkrand pre.dat $MiB
cp pre.dat pre.orig
run --name=u --filename=pre.dat --size=1m --bs=4k --rw=read --unlink=1
expect_rc 0
[ -e pre.dat ] || die "unlink=1 deleted a file iorig did not create"
cmp -s pre.dat pre.orig || die "a read job changed pre.dat"
run --name=u --filename=pre.dat --size=1m --bs=4k --rw=write --unlink=1
expect_rc 0
[ -e pre.dat ] || die "unlink=1 deleted a file iorig did not create"
# ...even when iorig extended it.
run --name=u --filename=pre.dat --size=2m --bs=4k --rw=write --unlink=1
expect_rc 0
[ -e pre.dat ] || die "unlink=1 deleted a pre-existing file it extended"
# Files iorig created are deleted, named or not.
run --name=u --filename=new.dat --size=1m --bs=4k --rw=write --unlink=1
expect_rc 0
[ ! -e new.dat ] || die "unlink=1 left new.dat"
run --name=gen --size=2m --nrfiles=2 --bs=4k --rw=write --unlink=1 \
	--numjobs=2
expect_rc 0
ls gen.* 2>/dev/null && die "unlink=1 left generated files"
# One job: a created file and an existing one; only the first goes.
mkrand old.dat $MiB
run --name=u --filename=old.dat:made.dat --size=2m --bs=4k --rw=write \
	--unlink=1
expect_rc 0
[ -e old.dat ] || die "unlink=1 deleted old.dat"
[ ! -e made.dat ] || die "unlink=1 left made.dat"
# Without unlink, created files stay.
run --name=u --filename=keep.dat --size=1m --bs=4k --rw=write
expect_rc 0
[ -e keep.dat ] || die "keep.dat was deleted without unlink=1"

# A directory or a character device is never a target.
mkdir adir
run --name=d --filename=adir --size=1m
expect_rc 2
expect_in err 'not a regular file or a block device'
run --name=d --filename=/dev/null --size=1m --rw=write
expect_rc 2
expect_in err 'not a regular file or a block device'
exit 0
