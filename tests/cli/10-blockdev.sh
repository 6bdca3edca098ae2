#!/bin/sh
# Block devices (a loop device over a scratch file): writes stay inside
# [offset, offset + size), and a region past the end of the device is a
# usage error.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root for losetup"
command -v losetup >/dev/null 2>&1 || skip "needs losetup (util-linux)"

MiB=1048576
mkrand disk.img $((16 * MiB))
# Random data, but no chance of a false file system or RAID signature that
# the write guards would refuse (see 40-guard.sh): they live at the ends.
dd if=/dev/zero of=disk.img bs=64k count=16 conv=notrunc 2>/dev/null
dd if=/dev/zero of=disk.img bs=64k seek=240 count=16 conv=notrunc 2>/dev/null
cp disk.img disk.orig
dev=$(losetup -f --show disk.img 2>"$T/err") ||
	skip "losetup cannot attach a loop device here: $(cat "$T/err")"
[ -b "$dev" ] || skip "losetup gave '$dev', not a block device"
# Detach on any exit, then let lib.sh remove $T.
trap 'losetup -d "$dev" 2>/dev/null; cd /; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP

expect_same() {
	[ "$(sum_range "$1" "$3" "$4")" = "$(sum_range "$2" "$3" "$4")" ] ||
		die "$1: bytes [$3, $(($3 + $4))) changed"
}

run --name=b --filename="$dev" --offset=4m --size=4m --bs=64k --rw=write \
	--output-format=json
expect_rc 0
expect_empty err
json_is "d['jobs'][0]['write']['io_bytes']" $((4 * MiB))
expect_same "$dev" disk.orig 0 $((4 * MiB))
expect_same "$dev" disk.orig $((8 * MiB)) $((8 * MiB))
[ "$(sum_range "$dev" $((4 * MiB)) $((4 * MiB)))" != \
  "$(sum_range disk.orig $((4 * MiB)) $((4 * MiB)))" ] ||
	die "nothing was written in [4m, 8m)"
# Random writes with O_DIRECT, several clones, unlink=1: the same.
run --name=b --filename="$dev" --offset=4m --size=4m --bs=4k --rw=randwrite \
	--direct=1 --numjobs=2 --unlink=1 --output-format=json
expect_rc 0
json_is "d['jobs'][0]['write']['io_bytes']" $((4 * MiB))
[ -b "$dev" ] || die "unlink=1 removed the device node"
expect_same "$dev" disk.orig 0 $((4 * MiB))
expect_same "$dev" disk.orig $((8 * MiB)) $((8 * MiB))

# No size: the rest of the device after offset.
run --name=b --filename="$dev" --offset=12m --bs=64k --rw=read \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['io_bytes']" $((4 * MiB))
run --name=b --filename="$dev" --size=25% --bs=64k --rw=read \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['io_bytes']" $((4 * MiB))

# Past the end: exit 2, nothing written.
sum0=$(cksum <"$dev")
run --name=b --filename="$dev" --offset=12m --size=8m --bs=64k --rw=write
expect_rc 2
expect_empty out
expect_in err "option 'size'"
expect_in err 'past the end of the device'
run --name=b --filename="$dev" --offset=20m --size=1m --bs=64k --rw=write
expect_rc 2
expect_in err 'past the end of the device'
run --name=b --filename="$dev" --offset=17m --rw=write
expect_rc 2
expect_empty out
[ "$(cksum <"$dev")" = "$sum0" ] || die "a rejected job wrote to $dev"
sync
exit 0
