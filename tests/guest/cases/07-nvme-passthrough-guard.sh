#!/bin/sh
# Passthrough bypasses the block layer's claims, so the write guard looks
# at the namespace behind /dev/ng0n1, /dev/nvme0n1: a signature (mkswap)
# refuses a job that writes through the char device unless
# allow_destructive=1; a mounted file system (ext4) and a device-mapper
# device on top (held) refuse it even then. Nothing is written when
# refused, by the controller's own write counter; a job that only reads
# runs. Leaves namespace 1's first 32 MiB wiped (no signature).
. "$(dirname "$0")/../lib.sh"
need nvme nvme-cli
need mkswap util-linux
need mkfs.ext4 e2fsprogs
need wipefs util-linux
ng=/dev/ng0n1
blk=$(nvme_ns 1)
w="--name=w --filename=$ng --ioengine=io_uring_cmd --rw=write --bs=4k \
--size=64k --offset=72m"
on_exit "wipefs -a -q $blk"

# refused WHY ARGS...: exit 2 naming WHY and the namespace's block
# device; the controller wrote nothing.
refused() {
	_why=$1
	shift
	smart_log a
	run "$@"
	smart_log b
	expect_rc 2
	expect_in err "$_why"
	expect_in err "namespace block device $blk"
	[ "$b_host_write_commands" = "$a_host_write_commands" ] ||
		die "refused, yet host_write_commands" \
		    "+$((b_host_write_commands - a_host_write_commands))"
	echo "ok: refused ($_why), nothing written: $(head -c 200 "$T/err")"
}

mkswap "$blk" >/dev/null 2>&1 || die "mkswap $blk"
refused "holds data" $w
run --name=r --filename=$ng --ioengine=io_uring_cmd --rw=read --bs=4k \
	--size=64k --offset=72m
expect_rc 0
echo "ok: a job that only reads runs on the signed namespace"
smart_log a
run $w --allow_destructive=1
expect_rc 0
smart_log b
[ $((b_host_write_commands - a_host_write_commands)) = 16 ] ||
	die "allow_destructive=1: host_write_commands" \
	    "+$((b_host_write_commands - a_host_write_commands)), expected +16"
echo "ok: allow_destructive=1 writes (16 commands)"
wipefs -a -q "$blk" || die "wipefs $blk"

mkfs.ext4 -q -F -E nodiscard "$blk" 32M >/dev/null 2>&1 ||
	die "mkfs.ext4 $blk"
mkdir "$T/mnt"
modprobe ext4 2>/dev/null
mount -t ext4 "$blk" "$T/mnt" 2>"$T/mount.err" ||
	die "mount $blk: $(cat "$T/mount.err")"
on_exit "umount $T/mnt"
refused "in use" $w --allow_destructive=1
umount "$T/mnt" || die "umount $T/mnt"
wipefs -a -q "$blk" || die "wipefs $blk"

dm_make iorig-held "0 65536 linear $blk 0"
refused "in use" $w --allow_destructive=1
