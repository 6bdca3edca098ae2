#!/bin/sh
# What writes put on the device (gen.h, gen_data): every block distinct and
# incompressible, by default, whatever the engine, depth or buffering.
# A file of 16 MiB written at iodepth 1 (one request buffer, used over and
# over) and 32: every 512-byte sector is unlike every other (so no
# deduplication at 512 B or 4 KiB finds anything) and zlib over the whole
# file (a 32 KiB window: across blocks, as btrfs or ZFS compress records)
# saves under 1%. Then zram, which compresses each 4 KiB page on its own:
# after writing 32 MiB twice over, its own counters (mm_stat) show the
# stored pages as large as the data and none deduplicated as "same".
# Counts and bytes, no time; its zram device is its own.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

MiB=1048576

# distinct_incompressible FILE WHAT: checks FILE, or fails saying WHAT.
distinct_incompressible() {
	_got=$("$PY" -c '
import sys, zlib
b = open(sys.argv[1], "rb").read()
secs = len(b) // 512
uniq = len({b[i:i + 512] for i in range(0, len(b), 512)})
print(len(b), secs - uniq, "%.4f" % (len(zlib.compress(b, 1)) / len(b)))
' "$1")
	set -- "$1" "$2" $_got
	[ "$3" -eq $((16 * MiB)) ] || die "$2: $3 bytes, expected 16 MiB"
	[ "$4" -eq 0 ] || die "$2: $4 of 32768 sectors repeat another"
	"$PY" -c "import sys; sys.exit(not $5 >= 0.99)" ||
		die "$2: zlib compressed it to $5 of its size (expected >= 0.99)"
	echo "ok $2: no sector repeats, zlib ratio $5"
}

odirect=1
have_odirect "$T" || odirect=0
# ENGINE IODEPTH DIRECT RW: buffered and direct, both engine kinds, both
# orders (sequential walks every buffer slot in turn).
for c in "sync 1 0 write" "sync 1 1 randwrite" "io_uring 1 1 write" \
	 "io_uring 32 0 randwrite" "io_uring 32 1 write"; do
	set -- $c
	[ $3 = 1 ] && [ $odirect = 0 ] && continue
	rm -f w.dat
	run --name=w --filename=w.dat --size=16m --bs=4k --ioengine=$1 \
		--iodepth=$2 --direct=$3 --rw=$4
	if [ "$rc" -ne 0 ] && grep -q "setting up engine" "$T/err"; then
		echo "note: $1 cannot run here"
		continue
	fi
	expect_rc 0
	distinct_incompressible w.dat "$1 iodepth=$2 direct=$3 rw=$4"
done
# A mixed job reads into the same buffers: the writes after a read of
# zeros (a new file's holes) are as random as any.
rm -f w.dat
head -c $((16 * MiB)) /dev/zero >w.dat
run --name=m --filename=w.dat --size=16m --bs=4k --rw=randrw --loops=4 \
	--norandommap=1 --output-format=json
expect_rc 0
"$PY" -c '
import sys, zlib
b = open("w.dat", "rb").read()
z = bytes(4096)
w = [b[i:i + 4096] for i in range(0, len(b), 4096) if b[i:i + 4096] != z]
d = b"".join(w)
r = len(zlib.compress(d, 1)) / len(d)
ok = len(w) > 2048 and len(set(w)) == len(w) and r >= 0.99
print(len(w), len(set(w)), r)
sys.exit(not ok)' >"$T/mixed" ||
	die "rw=randrw: written blocks, distinct, zlib ratio: $(cat "$T/mixed")"
echo "ok randrw: $(cat "$T/mixed")"

# ---- zram: a device of our own (hot_add), removed at exit ----
[ "$(id -u)" -eq 0 ] || skip "zram needs root (the files passed)"
[ -w /sys/class/zram-control/hot_add ] ||
	skip "no zram hot_add (modprobe zram): the files passed"
id=$(cat /sys/class/zram-control/hot_add 2>/dev/null) ||
	skip "zram hot_add failed: the files passed"
zdev=/dev/zram$id
zsys=/sys/block/zram$id
trap 'echo "$id" >/sys/class/zram-control/hot_remove 2>/dev/null
	cd /; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
echo $((64 * MiB)) >"$zsys/disksize" || die "cannot size $zdev"
i=0
while [ ! -b "$zdev" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
for e in sync io_uring; do
	[ $e = sync ] && q=1 || q=32
	echo 1 >"$zsys/reset" && echo $((64 * MiB)) >"$zsys/disksize" ||
		die "cannot reset $zdev"
	run --name=z --filename="$zdev" --size=32m --bs=4k --rw=randwrite \
		--ioengine=$e --iodepth=$q --direct=1 --loops=2
	if [ "$rc" -ne 0 ] && grep -q "setting up engine" "$T/err"; then
		echo "note: $e cannot run here"
		continue
	fi
	expect_rc 0
	# orig_data_size compr_data_size mem_used mem_limit mem_used_max
	# same_pages ...
	set -- $(cat "$zsys/mm_stat")
	[ "$1" -eq $((32 * MiB)) ] ||
		die "$e: zram holds $1 bytes of data, expected 32 MiB (mm_stat: $*)"
	[ "$2" -ge $((32 * MiB * 99 / 100)) ] ||
		die "$e iodepth=$q: zram compressed 32 MiB to $2 bytes (mm_stat: $*)"
	[ "$6" -eq 0 ] || die "$e: zram found $6 same-filled pages"
	echo "ok zram $e iodepth=$q: mm_stat $*"
done
exit 0
