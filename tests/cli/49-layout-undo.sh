#!/bin/sh
# Layout never leaves a failed run's mess, and never fills a disk:
# - a run that fails (here a later group whose target cannot be laid out)
#   puts an existing file it extended back to its length, bytes unchanged
#   (checksum), and removes the files it created, and says so; exit 1;
# - a successful run keeps what it laid out;
# - filename=/dev/NAME that does not exist: exit 2, nothing created in /dev;
# - free space is checked at plan time, summed per file system over every
#   job of the run: too little exits 2, nothing created or extended, and
#   --output is not created (a small tmpfs; root only).
# lane: parallel
. "$(dirname "$0")/lib.sh"

MiB=1048576
[ -f /proc/version ] || skip "needs /proc/version"

# Group 0 extends ext.dat and creates made.dat; group 1 cannot lay out
# /proc/version (a regular file of size 0 that takes no writes).
mkrand ext.dat $MiB
cp ext.dat ext.orig
before=$(cksum <ext.dat)
run --name=a --filename=ext.dat --size=2m --bs=64k --rw=read \
	--name=b --filename=made.dat --size=1m --bs=64k --rw=write \
	--name=bad --stonewall --filename=/proc/version --size=1m \
	--output-format=json
expect_rc 1
expect_in err "job 'bad'"
json_is "d['jobs'][0]['ran']" True
json_is "d['jobs'][1]['ran']" True
[ "$(fsize ext.dat)" -eq $MiB ] ||
	die "ext.dat was left at $(fsize ext.dat) bytes, not put back to 1 MiB"
[ "$(cksum <ext.dat)" = "$before" ] || die "ext.dat's data changed"
[ ! -e made.dat ] || die "made.dat, created by the failed run, is still there"
expect_in err "warning: job 'a': ext\\.dat: put back to its length of 1048576 bytes"
expect_in err "warning: job 'b': made\\.dat: removed"
expect_json "sum(w['code'] == 'layout_undone' for w in d['warnings']) == 2"

# The same run without the failing group keeps its layout.
run --name=a --filename=ext.dat --size=2m --bs=64k --rw=read \
	--name=b --filename=made.dat --size=1m --bs=64k --rw=write
expect_rc 0
[ "$(fsize ext.dat)" -eq $((2 * MiB)) ] || die "ext.dat was not extended"
[ -e made.dat ] || die "made.dat was not kept"
[ "$(sum_range ext.dat 0 $MiB)" = "$(cksum <ext.orig)" ] ||
	die "ext.dat's first MiB changed"

# A failed run never shortens what it did not extend: ext.dat is 2 MiB
# now, and a failing run that reads it changes nothing.
before=$(cksum <ext.dat)
run --name=a --filename=ext.dat --bs=64k --rw=read \
	--name=bad --stonewall --filename=/proc/version --size=1m
expect_rc 1
[ "$(cksum <ext.dat)" = "$before" ] || die "ext.dat changed"

# A block device name that is not there: no regular file made in /dev.
name=iorig-missing-$$
[ ! -e /dev/$name ] || skip "/dev/$name exists"
run --name=d --filename=/dev/$name --size=1m --rw=write --output=o.txt
expect_rc 2
expect_in err "/dev/$name.*does not exist, and iorig makes no regular file in /dev"
[ ! -e /dev/$name ] || { rm -f /dev/$name; die "/dev/$name was created"; }
[ ! -e o.txt ] || die "--output was created"
run --name=d --filename=$name --directory=/dev --size=1m --rw=read
expect_rc 2
[ ! -e /dev/$name ] || { rm -f /dev/$name; die "/dev/$name was created"; }

# Free space, on a tmpfs of 4 MiB.
tmpfs_mount "$T/m" 4m
mkrand m/ex.dat $MiB
run --name=big --filename=m/f --size=64m --rw=write --output=o.txt
expect_rc 2
expect_in err "not enough free space on the file system at $T/m .*needs 67108864 bytes"
[ ! -e m/f ] || die "m/f was created"
[ ! -e o.txt ] || die "--output was created"
# Each job fits alone; together (a new file and an extension) they do not.
run --name=a --filename=m/f --size=2m --rw=write \
	--name=b --filename=m/ex.dat --size=3m --rw=read
expect_rc 2
expect_in err "not enough free space on the file system at $T/m"
[ ! -e m/f ] || die "m/f was created"
[ "$(fsize m/ex.dat)" -eq $MiB ] || die "m/ex.dat was extended"
# Clones share a filename= file: counted once.
run --name=a --filename=m/f --size=2m --rw=write --numjobs=3
expect_rc 0
[ "$(fsize m/f)" -eq $((2 * MiB)) ] || die "m/f is not 2 MiB"
exit 0
