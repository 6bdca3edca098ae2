#!/bin/sh
# Block devices (a loop device over a scratch file): writes stay inside
# [offset, offset + size), and a region past the end of the device is a
# usage error.
# lane: parallel
. "$(dirname "$0")/lib.sh"

MiB=1048576
loop_disk disk.img 16
cp disk.img disk.orig

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
expect_in err "past the end of $dev"
run --name=b --filename="$dev" --offset=20m --size=1m --bs=64k --rw=write
expect_rc 2
expect_in err "past the end of $dev"
run --name=b --filename="$dev" --offset=17m --rw=write
expect_rc 2
expect_empty out
[ "$(cksum <"$dev")" = "$sum0" ] || die "a rejected job wrote to $dev"
sync
exit 0
