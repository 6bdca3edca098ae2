#!/bin/sh
# ioengine=e4defrag on an ext4 file system of the test's own (a loop
# device): a file fragmented on purpose (interleaved with another) has
# fewer extents after the job (filefrag), the same bytes (sha256), the
# other file and the directory are as they were (the donor removed);
# strace's EXT4_IOC_MOVE_EXT count is the job's I/O count, and fio 3.33 on
# the same job file does as many I/Os and leaves as few extents. inplace=1
# allocates the donor per I/O and truncates it after (strace); clones
# share the donor; a job verifying the file beside it is accepted and its
# blocks check out (the moves keep the bytes). Refused:
# a donor that exists (left byte for byte), a file on tmpfs (the message
# names it), rw with reads, no donorname.
# lane: parallel
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root for losetup and mount"
for c in mkfs.ext4 filefrag strace losetup; do
	command -v $c >/dev/null 2>&1 || skip "needs $c"
done
truncate -s 256M img || die "truncate"
mkfs.ext4 -q -F -b 4096 img >/dev/null 2>&1 || skip "mkfs.ext4 failed"
dev=$(losetup -f --show img 2>/dev/null) || skip "no loop device"
mkdir mnt tm
trap 'umount mnt 2>/dev/null || umount -l mnt 2>/dev/null;
	umount tm 2>/dev/null; losetup -d "$dev"; cd /; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
mount -t ext4 "$dev" mnt 2>/dev/null || skip "cannot mount ext4 here"
M=$T/mnt

# frag A B: A and B of 1 MiB, their 16 KiB pieces allocated in turn
# (fallocate), then filled with random data in place: 64 extents each.
frag() {
	rm -f "$M/$1" "$M/$2"
	i=0
	while [ $i -lt 64 ]; do
		fallocate -o $((i * 16384)) -l 16384 "$M/$1" &&
			fallocate -o $((i * 16384)) -l 16384 "$M/$2" ||
			die "fallocate"
		i=$((i + 1))
	done
	head -c 1048576 /dev/urandom | dd of="$M/$1" conv=notrunc 2>/dev/null
	head -c 1048576 /dev/urandom | dd of="$M/$2" conv=notrunc 2>/dev/null
	sync
}
extents() {
	filefrag "$1" | sed -n 's/.*: \([0-9]*\) extents\{0,1\} found/\1/p'
}
moves() {	# EXT4_IOC_MOVE_EXT calls in strace's file $1
	grep -c '0xc028660f' "$1"
}

cat >job.fio <<EOF
[defrag]
ioengine=e4defrag
directory=$M
filename=A
donorname=A.def
filesize=1M
size=1M
bs=64k
rw=write
EOF

# ---- iorig: fewer extents, same bytes, nothing else changed ----
frag A B
before=$(extents "$M/A")
[ "$before" -ge 32 ] || skip "could not fragment a file here ($before extents)"
sum_a=$(sha256sum <"$M/A") sum_b=$(sha256sum <"$M/B") ext_b=$(extents "$M/B")
ls -la --time-style=+ "$M" | sed 1d >ls.before
strace -f -e trace=ioctl -e raw=ioctl -o st.iorig "$IORIG" job.fio \
	--output-format=json >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0
json_is "d['jobs'][0]['write']['ios']" 16
json_is "d['jobs'][0]['write']['io_bytes']" 1048576
[ "$(moves st.iorig)" -eq 16 ] || die "$(moves st.iorig) MOVE_EXT ioctls, 16 I/Os"
after=$(extents "$M/A")
[ "$after" -lt "$before" ] && [ "$after" -le 4 ] ||
	die "A: $before extents before, $after after"
[ "$(sha256sum <"$M/A")" = "$sum_a" ] || die "A's data changed"
[ "$(sha256sum <"$M/B")" = "$sum_b" ] || die "B's data changed"
[ "$(extents "$M/B")" = "$ext_b" ] || die "B's extents changed"
ls -la --time-style=+ "$M" | sed 1d >ls.after
cmp -s ls.before ls.after ||
	die "the directory changed (donor left?): $(diff ls.before ls.after)"
echo "iorig: A $before -> $after extents in 16 moves, data unchanged"

# ---- fio 3.33 on the same job file ----
if command -v fio >/dev/null 2>&1; then
	frag A B
	fbefore=$(extents "$M/A")
	sum_a=$(sha256sum <"$M/A")
	strace -f -e trace=ioctl -e raw=ioctl -o st.fio fio job.fio \
		--output-format=json >fio.json 2>fio.err ||
		die "fio failed: $(cat fio.err)"
	fios=$(jsonf fio.json "d['jobs'][0]['write']['total_ios']")
	[ "$fios" -eq 16 ] || die "fio: $fios I/Os, iorig 16"
	[ "$(moves st.fio)" -eq 16 ] || die "fio: $(moves st.fio) ioctls"
	fafter=$(extents "$M/A")
	[ "$fafter" -le $((after + 2)) ] && [ "$after" -le $((fafter + 2)) ] ||
		die "fio leaves $fafter extents ($fbefore before), iorig $after"
	[ "$(sha256sum <"$M/A")" = "$sum_a" ] || die "A's data changed (fio)"
	# fio leaves its donor behind; iorig removes its own.
	[ -f "$M/A.def" ] && rm -f "$M/A.def"
	echo "fio: A $fbefore -> $fafter extents in $fios I/Os"
fi

# ---- inplace=1, random order: each move allocates, then truncates ----
frag A B
before=$(extents "$M/A") sum_a=$(sha256sum <"$M/A")
strace -f -e trace=ioctl,fallocate,ftruncate -e raw=ioctl -o st.inpl \
	"$IORIG" job.fio --inplace=1 --rw=randwrite --output-format=json \
	>"$T/out" 2>"$T/err"
rc=$?
expect_rc 0
json_is "d['jobs'][0]['write']['ios']" 16
[ "$(moves st.inpl)" -eq 16 ] || die "inplace: $(moves st.inpl) ioctls"
[ "$(grep -c 'fallocate(.*, 0, [0-9]*, 65536) *= 0' st.inpl)" -eq 16 ] ||
	die "inplace: not one 64 KiB fallocate a move: $(grep fallocate st.inpl)"
[ "$(grep -c 'ftruncate(.*, 0) *= 0' st.inpl)" -eq 16 ] ||
	die "inplace: not one ftruncate to 0 a move"
after=$(extents "$M/A")
[ "$after" -lt "$before" ] || die "inplace: $before extents, then $after"
[ "$(sha256sum <"$M/A")" = "$sum_a" ] || die "inplace: A's data changed"
[ ! -e "$M/A.def" ] || die "inplace: the donor is left"

# ---- two clones share the donor the run made; it is gone after ----
run --name=two --ioengine=e4defrag --directory="$M" --donorname=s.def \
	--size=256k --numjobs=2 --rw=write --bs=64k --output-format=json
expect_rc 0
json_is "[j['write']['ios'] for j in d['jobs']]" "[4, 4]"
[ ! -e "$M/s.def" ] || die "the shared donor is left"

# ---- beside a job that writes and verifies the same file: accepted
# (moves keep the bytes), and every block checks out; EBUSY (a range
# under I/O) is the kernel's answer to some moves, as fio gets it ----
run --name=v --ioengine=sync --direct=1 --directory="$M" --filename=V \
	--size=4m --bs=4k --rw=randwrite --verify=crc32c \
	--verify_state_save=0 \
	--name=d --ioengine=e4defrag --directory="$M" --filename=V \
	--donorname=V.def --size=4m --bs=64k --rw=randwrite --time_based \
	--runtime=1 --continue_on_error=write --output-format=json
expect_rc 0
json_is "d['jobs'][0]['verify']['blocks_checked']" 1024
json_is "d['jobs'][0]['verify']['mismatches']" 0
expect_json "d['jobs'][1]['write']['ios'] > 0"
[ ! -e "$M/V.def" ] || die "the donor beside verify is left"
rm -f "$M/V"

# ---- refused: an existing donor is not touched ----
head -c 100000 /dev/urandom >"$M/mine"
sum_m=$(sha256sum <"$M/mine")
sed 's/^donorname=.*/donorname=mine/' job.fio >mine.fio
run mine.fio
expect_rc 2
expect_in err "donorname.*'$M/mine' exists"
[ "$(sha256sum <"$M/mine")" = "$sum_m" ] || die "an existing donor changed"
[ "$(stat -c %s "$M/mine")" -eq 100000 ] || die "an existing donor's size"
# Why: fio on the same job opens it as it is and gives it A's old blocks.
if command -v fio >/dev/null 2>&1; then
	sync
	fio mine.fio --output-format=json >fio.json 2>fio.err ||
		die "fio on mine.fio: $(cat fio.json fio.err)"
	[ "$(sha256sum <"$M/mine")" != "$sum_m" ] ||
		die "fio left the existing donor as it was: the refusal is moot"
	echo "fio overwrote the existing donor iorig refused to touch"
fi
rm -f "$M/mine"

# ---- refused at planning: a donor that a job of the run lays out ----
run --name=w --directory="$M" --filename=X --size=256k --rw=write \
	--name=d --stonewall --ioengine=e4defrag --directory="$M" \
	--filename=Y --donorname=X --size=256k --rw=write
expect_rc 2
expect_in err "donor file '$M/X' is a file of job 'w'"
[ ! -e "$M/X" ] && [ ! -e "$M/Y" ] || die "files made by a refused run"

# ---- refused: not ext4 (tmpfs), reads, no donor ----
mount -t tmpfs -o size=8m tmpfs tm 2>/dev/null || die "cannot mount tmpfs"
run --name=t --ioengine=e4defrag --directory="$T/tm" --donorname=d.def \
	--size=1m --rw=write
expect_rc 2
expect_in err "needs a file on ext4.*is on tmpfs"
[ -z "$(ls -A tm)" ] || die "files made on the tmpfs: $(ls -A tm)"
run --name=t --ioengine=e4defrag --directory="$M" --donorname=d.def \
	--size=1m --rw=randrw
expect_rc 2
expect_in err "option 'rw'.*writes only"
run --name=t --ioengine=e4defrag --directory="$M" --size=1m --rw=write
expect_rc 2
expect_in err "needs donorname="
echo "ok"
