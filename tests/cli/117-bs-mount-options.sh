#!/bin/sh
# bs_unaligned, bs_is_seq_rand, allow_mounted_write, and the options
# accepted without effect (unique_filename, softrandommap) (issue 12,
# opt-a). The lengths and offsets each job used come from strace; fio on
# the same job gives the same kind of lengths; the device guard's answer
# comes from a loop device with a real ext4 on it.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "no strace"
have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1
mkrand f 1048576

# lens CMD...: "count unaligned-lengths misaligned-offsets min max" of the
# 4k..8k-sized (or any, for fio) preads/pwrites the command makes on f.
lens() {
	strace -f -qq -s0 -e trace=pread64,pwrite64 -o st "$@" >out 2>err ||
		die "$*"
	awk '/p(read|write)64\(/ && !/= -1/ { n = split($0, x, ", ")
		sub(/\).*/, "", x[n]); l = x[n-1] + 0; o = x[n] + 0
		if (l < 1024 || l > 8192) next
		c++; if (l % 1024) u++; if (o % 1024) m++
		if (!mn || l < mn) mn = l; if (l > mx) mx = l }
		END { printf "%d %d %d %d %d\n", c, u, m, mn, mx }' st
}

# ---- bs_unaligned: lengths any byte count in the range ----
set -- $(lens "$IORIG" --name=u --filename=f --rw=randread \
	--bsrange=1k-8k --ioengine=psync --size=1m)
[ "$2" -eq 0 ] || die "bs_unaligned=0: $2 of $1 lengths not a 1k multiple"
set -- $(lens "$IORIG" --name=u --filename=f --rw=randread \
	--bsrange=1k-8k --ioengine=psync --size=1m --bs_unaligned=1)
[ $(($2 * 2)) -gt "$1" ] || die "bs_unaligned=1: only $2 of $1 unaligned"
[ "$3" -eq 0 ] || die "bs_unaligned=1: $3 random offsets not 1k-aligned"
[ "$4" -ge 1024 ] && [ "$5" -le 8192 ] || die "lengths $4..$5 not in 1k-8k"
if [ $have_fio = 1 ]; then
	set -- $(lens fio --name=u --filename=f --rw=randread \
		--bsrange=1k-8k --ioengine=psync --size=1m --bs_unaligned=1)
	[ $(($2 * 4)) -gt "$1" ] || die "fio: only $2 of $1 unaligned"
fi
# The alias.
run --parse-only --name=u --filename=f --blocksize_unaligned=1
expect_rc 0

# ---- bs_is_seq_rand: bs=4k,16k is sequential 4k, random 16k ----
# only LEN CMD...: LEN is the length of most of CMD's I/Os on f, and
# of at least 60% of its bytes (fio's random map ends a pass with shorter
# I/Os where a whole block no longer fits).
only() {
	want=$1; shift
	strace -f -qq -s0 -e trace=pread64,pwrite64 -o st "$@" >out 2>err ||
		die "$*"
	got=$(awk '/p(read|write)64\(/ && !/= -1/ { n = split($0, x, ", ")
		l = x[n-1] + 0; if (l < 4096) next; c[l]++; b[l] += l; t += l }
		END { for (l in c) if (!best || c[l] > c[best]) best = l
		printf "%d %d", best, b[best] * 100 / t }' st)
	[ "${got% *}" = "$want" ] && [ "${got#* }" -ge 60 ] ||
		die "$*: most I/Os ${got% *} bytes (${got#* }% of bytes), expected $want"
}
for tool in "$IORIG" fio; do
	[ "$tool" = fio ] && [ $have_fio = 0 ] && continue
	for rw in read:4096 write:4096 randread:16384 randwrite:16384; do
		only "${rw#*:}" "$tool" --name=s --filename=f --rw="${rw%:*}" \
			--bs=4k,16k --bs_is_seq_rand=1 --ioengine=psync \
			--size=256k
	done
done
# Without it, bs=4k,16k is read 4k, write 16k.
only 16384 "$IORIG" --name=s --filename=f --rw=write --bs=4k,16k \
	--ioengine=psync --size=256k
# A job mixing random and sequential I/Os is refused, naming the option.
run --name=s --filename=f --rw=randread --bs=4k,16k --bs_is_seq_rand=1 \
	--percentage_random=50
expect_rc 2
expect_in err "bs_is_seq_rand"

# ---- accepted without effect ----
run --parse-only --name=a --filename=f --unique_filename=0 \
	--softrandommap=1
expect_rc 0

# ---- allow_mounted_write: fio's name of allow_destructive ----
command -v mkfs.ext4 >/dev/null 2>&1 || skip "no mkfs.ext4 (e2fsprogs)"
loop_disk disk.img 16
mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 || die "mkfs.ext4 failed"
run --name=w --filename="$dev" --rw=write --bs=64k --size=1m \
	--offset=8m --direct=1
expect_rc 2
expect_in err "allow_destructive"
# Mounted: still refused, even with allow_mounted_write=1.
mkdir mnt
if mount "$dev" mnt 2>/dev/null; then
	_track_mount mnt
	trap '_undo_mounts; losetup -d "$dev" 2>/dev/null; cd /; rm -rf "$T"' EXIT
	run --name=w --filename="$dev" --rw=write --bs=64k --size=1m \
		--offset=8m --direct=1 --allow_mounted_write=1
	expect_rc 2
	expect_in err "mounted"
	umount mnt
	echo "mounted device: refused"
else
	echo "note: cannot mount the ext4 here; mounted case left out"
fi
# Unmounted: allowed, and nothing outside the region changes.
sb=$(sum_range "$dev" 0 8388608)
run --name=w --filename="$dev" --rw=write --bs=64k --size=1m \
	--offset=8m --direct=1 --allow_mounted_write=1 --output-format=json
expect_rc 0
json_is "d['jobs'][0]['write']['io_bytes']" 1048576
[ "$(sum_range "$dev" 0 8388608)" = "$sb" ] ||
	die "bytes before the region (the superblock) changed"
echo ok
