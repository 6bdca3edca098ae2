#!/bin/sh
# Run-time warnings that the figures measure memory, not a device:
# buffered writes that never reached the device (buffered_writes_cached;
# outside truth: the loop device's written sectors in /sys/block/*/stat
# did not grow by what the job wrote), none once end_fsync=1 puts them on
# the device (they grow by it), and direct=1 on tmpfs (direct_tmpfs).
# lane: parallel
. "$(dirname "$0")/lib.sh"

ext4_loop disk.img 96
name=$(basename "$dev")
wsec() { awk '{print $7}' "/sys/block/$name/stat"; }
W="job 'w': 32MiB of buffered writes \\(direct=0\\), but its device $name wrote"

# Laid out (and written) first, so that no layout writes count below.
run --name=w --filename=mnt/w.dat --size=32m --rw=write --bs=64k \
	--end_fsync=1
expect_rc 0
expect_not_in err "buffered writes"

s0=$(wsec)
run --name=w --filename=mnt/w.dat --size=32m --rw=write --bs=64k \
	--output-format=json
s1=$(wsec)
expect_rc 0
if [ $(( (s1 - s0) / 2048 )) -ge 16 ]; then
	skip "the kernel wrote $(( (s1 - s0) / 2048 )) MiB back during the job: nothing to warn about"
fi
expect_in err "^iorig: warning: $W"
expect_json "[w['code'] for w in d['warnings']] == ['buffered_writes_cached']"

# this file system's own dirty pages, not the machine's (a test beside it)
sync -f mnt
s0=$(wsec)
run --name=w --filename=mnt/w.dat --size=32m --rw=write --bs=64k \
	--end_fsync=1
s1=$(wsec)
expect_rc 0
[ $(( (s1 - s0) / 2048 )) -ge 32 ] ||
	die "end_fsync=1 wrote only $(( (s1 - s0) / 2048 )) MiB to $dev"
expect_not_in err "buffered writes"

mkdir tm
mount -t tmpfs -o size=16m tmpfs tm 2>"$T/err" ||
	skip "cannot mount a tmpfs: $(cat "$T/err")"
_mounts="$T/tm $_mounts"
have_odirect tm || skip "this tmpfs takes no O_DIRECT (Linux < 6.6)"
run --name=t --directory=tm --size=4m --rw=read --direct=1 --numjobs=2 \
	--unlink=1 --output-format=json
expect_rc 0
expect_in err "^iorig: warning: tm/t\\.0\\.0 is on tmpfs: direct=1 I/O there is served from memory"
expect_json "[w['code'] for w in d['warnings']] == ['direct_tmpfs']" "once per job"
exit 0
