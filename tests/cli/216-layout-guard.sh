#!/bin/sh
# The layout of a job that reads is a write, and gets the write guard: on
# the backing file of an attached loop device (here a mounted ext4 on a
# sparse image), filling the holes of its region or extending it is
# refused at plan time (exit 2, even with --allow-destructive) as a write
# job is, where the old iorig filled 60 MiB of the image's holes with
# random data. The outside truth: the image's sha256 before and after
# each run, and e2fsck -n after. layout=0 reads the holes as they are.
# lane: parallel
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root for losetup and mount"
command -v losetup >/dev/null 2>&1 || skip "needs losetup (util-linux)"
command -v mkfs.ext4 >/dev/null 2>&1 || skip "needs mkfs.ext4"
command -v e2fsck >/dev/null 2>&1 || skip "needs e2fsck"

truncate -s 64M img || die "cannot make img"
# No lazy initialisation: the mounted file system stays still.
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 img ||
	die "mkfs.ext4 failed"
dev=$(losetup -f --show img 2>"$T/err") ||
	skip "losetup cannot attach a loop device here: $(cat "$T/err")"
mkdir mnt
trap 'umount "$T/mnt" 2>/dev/null; losetup -d "$dev" 2>/dev/null; cd /; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
mount "$dev" mnt 2>"$T/err" || skip "cannot mount ext4: $(cat "$T/err")"
echo precious >mnt/precious && sync || die "cannot write to mnt"
holes=$(( $(stat -c %s img) - $(stat -c %b img) * 512 ))
[ "$holes" -gt 1048576 ] || skip "mkfs left no holes in img ($holes bytes)"

before=$(sha256sum <img)
# refused WHY ARGS...: a read job on img is refused, img unchanged.
refused() {
	_why=$1
	shift
	run --name=r --filename=img --bs=64k --rw=read "$@"
	expect_rc 2
	expect_in err "img: option 'filename': .*backing file of the attached loop device $(basename "$dev").*its layout would write to it \\($_why\\)"
	sync
	[ "$(sha256sum <img)" = "$before" ] || die "a refused job changed img ($*)"
}
refused "fill the holes of its region" --size=64m
refused "fill the holes of its region" --size=64m --allow-destructive
refused "fill the holes of its region" --size=64m --rw=randread
refused "extend it" --size=65m --layout=0
refused "extend it" --size=1m --offset=64m

# layout=0: read as it is.
run --name=r --filename=img --bs=64k --rw=read --size=64m --layout=0
expect_rc 0
expect_in err "reads of .* holes/unwritten extents never reach the device \\(layout=0\\)"
sync
[ "$(sha256sum <img)" = "$before" ] || die "a layout=0 read changed img"

umount mnt || die "cannot umount"
e2fsck -n -f "$dev" >"$T/fsck" 2>&1 || die "e2fsck: $(cat "$T/fsck")"
exit 0
