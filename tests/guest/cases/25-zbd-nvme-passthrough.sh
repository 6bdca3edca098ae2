#!/bin/sh
# zonemode=zbd through the NVMe generic char device of the zoned
# namespace (/dev/ng0n2, nsid 2: 16 zones of 16 MiB, host-managed,
# ioengine=io_uring_cmd): the real zones, read and reset through the
# namespace's block device, against fio 3.33 on the same jobs (fio asks
# the namespace itself: Report Zones, Zone Management Send), blkzone's
# report of /dev/nvme0n2 (write pointers, conditions) and the NVMe
# driver's tracepoint (nvme_setup_cmd on nsid 2: the Write, Read and Zone
# Management Send commands each run set up). iorig on zones 0-3 and 8-11,
# fio on 4-7 and 12-15, the same jobs:
# - sequential writes of two whole zones, and of 24 MiB in two zones:
#   the zones left alike, the writes counted alike;
# - a read of the written data (size=2z, the namespace's zones): 192
#   reads, no more (the write pointer);
# - a sequential write of 8 MiB into a full zone: one reset (one Zone
#   Management Send, in the job's region), the zone then half written;
# - random writes over four zones, 1.5 times their size, with
#   max_open_zones=2: no write error, at most two zones open, the resets
#   the report counts those the driver set up, and what the zones hold is
#   what was written less the zones reset (fio's zones the same);
# - iorig's report of the zones after each job names /dev/ng0n2 and is
#   what blkzone says; a zonesize that is not the namespace's is refused.
# Leaves every zone reset (empty), as case 10 does.
. "$(dirname "$0")/../lib.sh"
zns_blk 2
common="--filename=$ng --ioengine=io_uring_cmd --cmd_type=nvme \
--zonemode=zbd --iodepth=1"

# The zones by blkzone on the namespace's block device (zone indexes;
# write pointers in sectors; a full zone's, whatever the device gives).
bz_zones() {
	zones_of "$dev" $(($1 * 32768)) $2
}
bz_check() {
	zbd_check "$dev" "$1"
}
zns_zbd $((16 * 1048576)) 512 '*:fu' bz_zones bz_check blkzone

# 1. Sequential writes: zones 0-1 whole (fio 4-5); zones 2-3 with
# io_size one and a half zones (fio 6-7).
zns_seq_writes
# 2. A read of zones 2-3 (fio 6-7): 24 MiB written of 32, 192 reads.
zns_read
# 3. A job that needs a reset: 8 MiB written sequentially from zone 2
# (fio 6), which is full: reset, then written to half its size.
zns_reset_write
# 4. Random writes over zones 8-11 (fio 12-15), 96 MiB, at most two
# zones open.
zns_rand_writes 8 0

# 5. Refused, exit 2, nothing changed: a zonesize that is not the
# namespace's.
before=$(zones_of "$dev" 0 16)
expect_refused 'zonesize' $common --name=z --rw=write --size=16M \
	--zonesize=8M
[ "$(zones_of "$dev" 0 16)" = "$before" ] ||
	die "a refused job changed the zones"
echo "ok: zonesize=8M refused on $ng (16 MiB zones), nothing written"
