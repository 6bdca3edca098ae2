#!/bin/sh
# fill_device / fill_fs (issue 12, opt-a): a writing job goes on until the
# file system is full; ENOSPC ends it without an error. A reading job
# fills the file system first, then reads what it wrote. Checked on a small
# tmpfs: the file's size and df's free space afterwards, and fio on the
# same job writes as much.
# lane: parallel
. "$(dirname "$0")/lib.sh"

tmpfs_mount m 8m
free0=$(df -B1 --output=avail m | tail -n 1)
[ "$free0" -gt 0 ] || die "no free space on the new tmpfs"

# No size: the region is the free space; the job fills it, no error.
run --name=f --filename=m/a --rw=write --bs=64k --fill_device=1 \
	--output-format=json
expect_rc 0
[ "$(fsize m/a)" -eq "$free0" ] || die "wrote $(fsize m/a) of $free0 bytes"
[ "$(df -B1 --output=avail m | tail -n 1)" -eq 0 ] || die "fs not full"
json_is "d['jobs'][0]['write']['io_bytes']" "$free0"
rm -f m/a

# size= beyond the free space: writes end at ENOSPC, still no error, and
# nothing past size (fill_fs is the same option).
run --name=f --filename=m/b --rw=write --bs=64k --size=16m --fill_fs=1 \
	--output-format=json
expect_rc 0
[ "$(fsize m/b)" -eq "$free0" ] || die "size=16m: wrote $(fsize m/b)"
json_is "d['jobs'][0]['write']['io_bytes']" "$free0"
rm -f m/b
# Without fill_device the same job is refused before it runs (no room).
run --name=f --filename=m/b --rw=write --bs=64k --size=16m
expect_rc 2
[ ! -e m/b ] || [ "$(fsize m/b)" -eq 0 ] || die "a refused job wrote"
rm -f m/b
# A size that fits: just size.
run --name=f --filename=m/c --rw=write --bs=64k --size=1m --fill_device=1
expect_rc 0
[ "$(fsize m/c)" -eq 1048576 ] || die "size=1m: $(fsize m/c)"
rm -f m/c

if command -v fio >/dev/null 2>&1; then
	fio --name=f --filename=m/d --rw=write --bs=64k --fill_device=1 \
		>/dev/null 2>&1
	[ "$(fsize m/d)" -eq "$free0" ] || die "fio wrote $(fsize m/d), not $free0"
	rm -f m/d
fi

# A job that reads: the file system is filled first, then read (fio's
# meaning): with size=16m the region ends where the space did.
run --name=f --filename=m/e --rw=randread --bs=64k --size=16m \
	--fill_device=1 --output-format=json
expect_rc 0
[ "$(fsize m/e)" -eq "$free0" ] || die "read job: laid out $(fsize m/e)"
[ "$(df -B1 --output=avail m | tail -n 1)" -eq 0 ] || die "fs not full"
json_is "d['jobs'][0]['read']['io_bytes']" "$free0"
rm -f m/e
# Over several files (the first would take all): refused, naming it.
run --name=f --filename=m/e:m/f --rw=read --bs=64k --fill_device=1
expect_rc 2
expect_in err "fill_device"
[ ! -e m/e ] || die "a refused job made a file"
echo ok
