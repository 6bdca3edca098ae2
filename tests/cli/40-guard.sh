#!/bin/sh
# Block device guards, on a loop device: a job that writes is refused (exit
# 2, nothing written) when the device holds a file system, a partition
# table or a swap signature, unless allow_destructive=1 / --allow-destructive
# (which then warns); always refused when the device or a partition of it is
# mounted, an active swap area, held by device-mapper or claimed with
# O_EXCL. Reads are always allowed; a zeroed device is written silently.
# (Refusals and bytes only, on loop devices, mounts and a device-mapper
# name of its own: no timing.)
# lane: parallel
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root for losetup"
command -v losetup >/dev/null 2>&1 || skip "needs losetup (util-linux)"

MiB=1048576
head -c $((32 * MiB)) /dev/zero >disk.img || die "cannot make disk.img"
dev=$(losetup -f --show -P disk.img 2>"$T/err") ||
	dev=$(losetup -f --show disk.img 2>"$T/err") ||
	skip "losetup cannot attach a loop device here: $(cat "$T/err")"
[ -b "$dev" ] || skip "losetup gave '$dev', not a block device"
mkdir mnt
dm=iorig-guard-$$
# Undo on any exit whatever was set up, then let lib.sh remove $T.
cleanup() {
	fsfreeze -u "$T/mnt" 2>/dev/null
	umount "$T/mnt" 2>/dev/null
	swapoff "$dev" 2>/dev/null
	swapoff "${dev}p2" 2>/dev/null
	dmsetup remove --noudevsync "$dm" 2>/dev/null
	partx -d "$dev" 2>/dev/null
	losetup -d "$dev" 2>/dev/null
	cd /
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

W="--name=w --filename=$dev --size=1m --bs=64k --rw=write"
R="--name=r --filename=$dev --size=1m --bs=64k --rw=read --direct=1"

wipe() {
	dd if=/dev/zero of="$dev" bs=1M count=32 conv=fsync 2>/dev/null ||
		die "cannot zero $dev"
}

# mounted DEV: DEV mounted on $T/mnt and frozen (fsfreeze: its journal
# and superblock written out, and nothing written until it is thawed), so
# that refused() sees no write but a job's: a mounted ext4 made without
# lazy initialisation still changed the device's checksum once around a
# refused job in a sanitizer pass (its journal's commit after the mount).
# unmounted: thawed and unmounted.
mounted() {
	mount -o noatime "$1" "$T/mnt" 2>"$T/mnt.err" || return 1
	fsfreeze -f "$T/mnt" || die "fsfreeze -f $T/mnt failed"
}
unmounted() {
	fsfreeze -u "$T/mnt" || die "fsfreeze -u $T/mnt failed"
	umount "$T/mnt" || die "cannot unmount $T/mnt"
}

# refused WHY ARGS...: a write job exits 2 naming the device and WHY, and
# writes nothing.
refused() {
	_why=$1
	shift
	_sum=$(cksum <"$dev")
	run "$@"
	expect_rc 2
	expect_empty out
	expect_in err "$dev"
	expect_in err "$_why"
	[ "$(cksum <"$dev")" = "$_sum" ] || die "a refused job wrote to $dev"
}

# A zeroed device: written without a word.
run $W
expect_rc 0
expect_empty err
run $W --allow-destructive
expect_rc 0
expect_empty err

# A file system: refused, named; --allow-destructive (a global job option
# on the command line, or allow_destructive=1 in the job) overrides and
# warns; reads need nothing.
if command -v mkfs.ext4 >/dev/null 2>&1; then
	mkfs.ext4 -q -F -L guarded "$dev" || die "mkfs.ext4 $dev failed"
	refused 'ext4 filesystem' $W
	expect_in err 'allow_destructive=1'
	expect_in err "label.*'guarded'"
	run $R
	expect_rc 0
	expect_empty err
	printf '[w]\nfilename=%s\nsize=1m\nbs=64k\nrw=randwrite\n' "$dev" \
		>w.job
	refused 'ext4' w.job
	run --allow-destructive w.job
	expect_rc 0
	expect_in err "warning: overwriting $dev: ext4 filesystem.*allow_destructive=1"
	mkfs.ext4 -q -F "$dev" || die "mkfs.ext4 $dev failed"
	run $W --allow_destructive=1
	expect_rc 0
	expect_in err "warning: overwriting $dev: ext4 filesystem"
	# numjobs: one warning, not one per clone.
	mkfs.ext4 -q -F "$dev" || die "mkfs.ext4 $dev failed"
	run $W --allow-destructive --numjobs=3
	expect_rc 0
	[ "$(grep -c 'overwriting' "$T/err")" -eq 1 ] ||
		die "expected one 'overwriting' warning for three clones"

	# Mounted: refused even with allow_destructive; reading is fine.
	# Its inode tables and journal made at mkfs, so that the mounted
	# file system writes nothing in the background (ext4lazyinit) while
	# refused() checksums the device: a sanitizer pass once saw it change
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" ||
		die "mkfs.ext4 $dev failed"
	if mounted "$dev"; then
		refused 'mounted on' $W --allow-destructive
		expect_in err 'even with allow_destructive'
		run $R
		expect_rc 0
		unmounted
	else
		echo "note: cannot mount here ($(cat "$T/mnt.err")); mounted" \
			"devices not tested"
	fi
else
	echo "note: no mkfs.ext4 (e2fsprogs); file systems not tested"
fi
wipe

# A partition table; then a mounted partition and a swap partition.
if command -v sfdisk >/dev/null 2>&1; then
	printf 'label: gpt\n,8M\n,8M\n' | sfdisk -q "$dev" >/dev/null 2>&1 ||
		die "sfdisk $dev failed"
	refused 'gpt partition table' $W
	[ -b "${dev}p1" ] || partx -a "$dev" 2>/dev/null
	if [ -b "${dev}p1" ] && [ -b "${dev}p2" ] &&
	   command -v mkfs.ext4 >/dev/null 2>&1 &&
	   mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 \
		"${dev}p1" && mounted "${dev}p1"
	then
		refused "partition $(basename "$dev")p1 is mounted" $W \
			--allow-destructive
		unmounted
		if mkswap "${dev}p2" >/dev/null 2>&1 &&
		   swapon "${dev}p2" 2>/dev/null; then
			refused "partition $(basename "$dev")p2 is an active swap" \
				$W --allow-destructive
			swapoff "${dev}p2" || die "cannot swapoff ${dev}p2"
		else
			echo "note: swapon refused here; swap partitions not tested"
		fi
		partx -d "$dev" 2>/dev/null
	else
		echo "note: no partition devices for $dev here; mounted" \
			"partitions not tested"
	fi
	run $W --allow-destructive
	expect_rc 0
	expect_in err "overwriting $dev: gpt partition table"
else
	# Without sfdisk: an MBR with one Linux partition, written by hand.
	printf '\000\040\041\000\203\377\377\377\000\010\000\000\000\100\000\000' |
		dd of="$dev" bs=1 seek=446 conv=notrunc,fsync 2>/dev/null
	printf '\125\252' | dd of="$dev" bs=1 seek=510 conv=notrunc,fsync \
		2>/dev/null
	refused 'dos partition table' $W
fi
wipe

# Swap: a signature (allow_destructive overrides), then an active area
# (nothing overrides).
if command -v mkswap >/dev/null 2>&1; then
	mkswap "$dev" >/dev/null 2>&1 || die "mkswap $dev failed"
	refused 'swap' $W
	if swapon "$dev" 2>/dev/null; then
		refused 'active swap area' $W --allow-destructive
		swapoff "$dev" || die "cannot swapoff $dev"
	else
		echo "note: swapon refused here; active swap not tested"
	fi
	run $W --allow-destructive
	expect_rc 0
	expect_in err "overwriting $dev: swap"
fi
wipe

# Claimed: another process holds the device open with O_EXCL.
"$PY" -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
open(sys.argv[2], "w").close()
time.sleep(30)' "$dev" "$T/claimed" &
holder=$!
n=0
while [ ! -e "$T/claimed" ] && [ $n -lt 100 ]; do sleep 0.05; n=$((n + 1)); done
if [ -e "$T/claimed" ]; then
	refused 'O_EXCL' $W --allow-destructive
	run $R
	expect_rc 0
else
	echo "note: could not claim $dev with O_EXCL; claims not tested"
fi
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null

# Held: a device-mapper device built on it (needs a kernel with dm).
if command -v dmsetup >/dev/null 2>&1 &&
   dmsetup create --noudevsync "$dm" --table "0 8192 linear $dev 0" \
	2>/dev/null; then
	refused 'held by dm-' $W --allow-destructive
	expect_in err "$dm"
	dmsetup remove --noudevsync "$dm" || die "cannot remove $dm"
else
	echo "note: no device-mapper here; holders not tested"
fi

# Clean again: allowed, silent.
wipe
run $W
expect_rc 0
expect_empty err
exit 0
