#!/bin/sh
# Zoned block devices in the guest, by blkzone (util-linux) as the kernel
# reports their zones: the NVMe zoned namespace (nsid 2, 16 MiB zones) and
# a zoned null_blk made here (256 MiB, 16 MiB zones, the first one
# conventional). On each: the zone count and sizes, a write at a zone's
# write pointer moves it and opens the zone, a write elsewhere in a
# sequential zone is refused and moves nothing, and a reset empties the
# zone again.
. "$(dirname "$0")/../lib.sh"
need blkzone util-linux

# check DEV NZONES CONV: DEV has NZONES zones of 16 MiB (32768 sectors),
# the first CONV of them conventional, the others sequential-write-required.
check() {
	dev=$1
	blkzone report "$dev" >"$T/zones" 2>"$T/err" ||
		die "blkzone report $dev: $(cat "$T/err")"
	n=0 conv=0 bad=
	while IFS= read -r l; do
		n=$((n + 1))
		case $l in *"len 0x008000, cap 0x008000"*) ;;
		*) bad="$bad; zone $n: $l" ;; esac
		case $l in
		*CONVENTIONAL*) conv=$((conv + 1)) ;;
		*"zcond: 1(em)"*SEQ_WRITE_REQUIRED*) ;;
		*) bad="$bad; zone $n: $l" ;;
		esac
	done <"$T/zones"
	[ -z "$bad" ] ||
		die "$dev: unexpected zones$(echo "$bad" | cut -d ';' -f 1-4)"
	[ "$n $conv" = "$2 $3" ] ||
		die "$dev: $n zones ($conv conventional), expected $2 ($3)"

	# Zone 2 (sectors 65536...): 1 MiB at its write pointer.
	z=65536
	dd if=/dev/zero of="$dev" bs=1M count=1 seek=32 oflag=direct \
		2>"$T/err" ||
		die "$dev: a write at the write pointer failed: $(cat "$T/err")"
	got=$(zone_at "$dev" $z)
	[ "$got" = "2048 oi" ] ||
		die "$dev: zone at $z is '$got' after 1 MiB, expected '2048 oi'"
	# 4 KiB past the write pointer of zone 3: refused, nothing moves.
	if dd if=/dev/zero of="$dev" bs=4k count=1 seek=$((98304 / 8 + 1)) \
	    oflag=direct 2>"$T/err"; then
		die "$dev: a write off the write pointer succeeded"
	fi
	got=$(zone_at "$dev" 98304)
	[ "$got" = "0 em" ] ||
		die "$dev: zone at 98304 is '$got' after a refused write"
	blkzone reset -o $z -c 1 "$dev" 2>"$T/err" ||
		die "blkzone reset $dev: $(cat "$T/err")"
	got=$(zone_at "$dev" $z)
	[ "$got" = "0 em" ] || die "$dev: zone at $z is '$got' after a reset"
	echo "ok: $dev: $n zones of 16 MiB ($conv conventional); write" \
		"pointer, refused write and reset as expected"
}

check "$(nvme_ns 2)" 16 0
nullb_make gz0 size=256 blocksize=4096 memory_backed=1 zoned=1 \
	zone_size=16 zone_nr_conv=1
check "$nullb" 16 1
