#!/bin/sh
# Stacked loop devices are in use, which nothing overrides: a job that
# writes (even with --allow-destructive) is refused with exit 2 and nothing
# written when its target is
# - the backing file of an attached loop device (mounted or not);
# - a loop device over a file that another attached loop device uses;
# - a loop device over a device that is in use (a mounted loop device);
# - a device that an attached loop device sits on.
# A job that reads may use all of them, but not fill the holes of a
# backing file (its layout would write).
# And a disk whose first sectors cannot be read (a loop device over
# tests/faultfs, whose reads at offset 0 fail): refused without
# allow_destructive, written with it, saying so on stderr.
# (Refusals and bytes only, on loop devices and mounts of its own: no
# timing.)
# lane: parallel
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root for losetup and mount"
command -v losetup >/dev/null 2>&1 || skip "needs losetup (util-linux)"
command -v mkfs.ext4 >/dev/null 2>&1 || skip "needs mkfs.ext4"

MiB=1048576
head -c $((64 * MiB)) /dev/zero >back.img || die "cannot make back.img"
mkdir mnt
la= lb= lc= lf=
cleanup() {
	umount "$T/mnt" 2>/dev/null
	# A device just written may still be open a moment (udev): retry.
	for _d in $lf $lc $lb $la; do
		_n=50
		until losetup -d "$_d" 2>>"$T/detach.err" ||
			[ ! -e "/sys/block/${_d#/dev/}/loop" ] ||
			[ "$_n" -eq 0 ]; do
			sleep 0.1
			_n=$((_n - 1))
		done
	done
	[ ! -s "$T/detach.err" ] || cat "$T/detach.err" >&2
	_undo_mounts
	cd /
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

attach() {
	losetup -f --show "$1" 2>"$T/err" ||
		skip "losetup cannot attach a loop device here: $(cat "$T/err")"
}

la=$(attach back.img)
[ -b "$la" ] || skip "losetup gave '$la', not a block device"
# No lazy initialisation: the mounted file system stays still.
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$la" ||
	die "mkfs.ext4 $la failed"
mount "$la" "$T/mnt" 2>"$T/err" || skip "cannot mount ext4: $(cat "$T/err")"
echo precious >"$T/mnt/precious" && sync || die "cannot write to mnt"

# The job's region: 1 MiB at 48 MiB, inside the file system.
W="--name=w --size=1m --offset=48m --bs=64k --rw=write --allow-destructive"

# refused WHY FILE TARGET: a write job on TARGET exits 2 naming it and WHY,
# and the region it would write, in FILE, keeps its bytes.
refused() {
	_sum=$(sum_range "$2" $((48 * MiB)) $MiB)
	run $W --filename="$3"
	expect_rc 2
	expect_empty out
	expect_in err "$3"
	expect_in err "$1"
	expect_in err "even with allow_destructive"
	sync
	[ "$(sum_range "$2" $((48 * MiB)) $MiB)" = "$_sum" ] ||
		die "a refused job wrote to $3"
}

# (a) The backing file of a mounted loop device.
refused "backing file of the attached loop device $(basename "$la")" \
	back.img back.img

# (b) A second loop device over the same file.
lb=$(attach back.img)
refused "loop device over .*back.img, which the attached loop device $(basename "$la")" \
	back.img "$lb"

# (c) A loop device stacked on the mounted one.
lc=$(attach "$la")
refused "loop device over $la, where it is mounted on $T/mnt" back.img "$lc"

# Reads are allowed on all of them; but filling the holes that mkfs
# left in the backing file (its discards) is a write: the layout of a
# read job is refused as a write is, nothing written, and layout=0
# reads them as they are.
_sum=$(sha256sum <back.img)
run --name=r --filename=back.img --size=1m --offset=48m --bs=64k --rw=read
if [ "$rc" -eq 2 ]; then
	expect_in err "backing file of the attached loop device .*its layout would write to it \(fill the holes of its region\)"
	[ "$(sha256sum <back.img)" = "$_sum" ] ||
		die "a refused read job's layout wrote to back.img"
	run --name=r --filename=back.img --size=1m --offset=48m --bs=64k \
		--rw=read --layout=0
fi
expect_rc 0
[ "$(sha256sum <back.img)" = "$_sum" ] || die "a read job wrote to back.img"
for x in "$lb" "$lc"; do
	run --name=r --filename="$x" --size=1m --offset=48m --bs=64k --rw=read
	expect_rc 0
done

# (d) Unmounted, each is still live through another: the file backs $la,
# $la carries $lc.
umount "$T/mnt" || die "cannot umount"
refused "backing file of the attached loop device" back.img back.img
refused "it backs the attached loop device $(basename "$lc")" back.img "$la"
losetup -d "$lc" && lc=
losetup -d "$lb" && lb=
losetup -d "$la" && la=
# Nothing attached any more: written, with the file system's note.
run $W --filename=back.img
expect_rc 0
[ -f back.img ] || die "back.img gone"

# A disk whose first sectors cannot be read: a failed signature probe.
[ -x "$FAULTFS" ] && [ -c /dev/fuse ] &&
	command -v fusermount3 >/dev/null || {
	echo "note: no faultfs/FUSE here; unreadable disks not tested"
	exit 0
}
faultfs_mount "$T/f" --size=8m --eio=0,4096,65536
trap cleanup EXIT	# faultfs_mount set its own
lf=$(losetup -f --show "$T/f/data" 2>"$T/err") || {
	echo "note: no loop device over FUSE here: $(cat "$T/err")"
	exit 0
}
run --name=w --filename="$lf" --size=1m --offset=4m --bs=64k --rw=write
expect_rc 2
expect_in err "$lf"
expect_in err "not in use, but its signatures cannot be read"
expect_in err "unless allow_destructive=1"
run --name=w --filename="$lf" --size=1m --offset=4m --bs=64k --rw=write \
	--allow-destructive
expect_rc 0
expect_in err "warning: overwriting $lf: its signatures cannot be read"
exit 0
