#!/bin/sh
# A device's node is opened with O_NOATIME, as fio opens every target that
# is not a regular file: reading a device must not update its node's access
# time (on io_uring through io-wq, touch_atime was ~2% of each 4 KiB read
# from zram). A regular file keeps its file system's atime behaviour, as in
# fio. A node that is another user's (O_NOATIME: EPERM) is opened without.
# Outside truth: the access times stat reports, with dd as the control that
# the same reads do update them here.
# lane: parallel
. "$(dirname "$0")/lib.sh"

loop_disk disk.img 8
old=978307200	# 2001-01-01 UTC: older than a day, so relatime updates it

set_old() {
	touch -a -d "@$old" "$1" || die "cannot set the access time of $1"
	[ "$(stat -c %X "$1")" = "$old" ] || die "touch did not set $1's atime"
}

# Control: a plain direct read of the device updates its node's atime here.
set_old "$dev"
dd if="$dev" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null ||
	die "dd cannot read $dev"
[ "$(stat -c %X "$dev")" != "$old" ] ||
	skip "reading $dev does not update its atime here (a noatime /dev)"

for eng in psync io_uring libaio; do
	for direct in 1 0; do
		set_old "$dev"
		run --name=r --filename="$dev" --size=1m --bs=4k --rw=randread \
			--ioengine=$eng --iodepth=4 --direct=$direct \
			--output-format=json
		expect_rc 0
		[ "$(json "d['jobs'][0]['read']['ios']")" = 256 ] ||
			die "$eng direct=$direct: not 256 reads: $(cat "$T/err")"
		at=$(stat -c %X "$dev")
		[ "$at" = "$old" ] || die "$eng direct=$direct: reading $dev" \
			"moved its atime from $old to $at"
	done
done

# The open itself: strace shows the flag on the device, not on a file.
mkrand file.dat 1048576
if strace_works; then
	strace -f -e trace=openat -o "$T/st" "$IORIG" --name=r \
		--filename="$dev" --size=1m --bs=64k --rw=read >/dev/null 2>&1 ||
		die "strace run failed"
	grep -q "\"$dev\", .*O_NOATIME" "$T/st" ||
		die "no O_NOATIME open of $dev: $(grep "$dev" "$T/st")"
	strace -f -e trace=openat -o "$T/st" "$IORIG" --name=r \
		--filename=file.dat --size=1m --bs=64k --rw=read >/dev/null 2>&1 ||
		die "strace run failed"
	grep -q 'file.dat", .*O_NOATIME' "$T/st" &&
		die "file.dat was opened with O_NOATIME"
fi

# A regular file: reads update its atime as any reader's do (relatime).
set_old file.dat
cat file.dat >/dev/null
if [ "$(stat -c %X file.dat)" != "$old" ]; then
	set_old file.dat
	run --name=r --filename=file.dat --size=1m --bs=64k --rw=read
	expect_rc 0
	[ "$(stat -c %X file.dat)" != "$old" ] ||
		die "reading file.dat left its atime at $old (O_NOATIME on a file?)"
else
	echo "note: reads do not update atimes in $T (noatime mount);" \
		"regular files not checked"
fi

# Another user's node: O_NOATIME is refused (EPERM) and the open is retried
# without it; the job runs.
if command -v setpriv >/dev/null 2>&1 &&
   setpriv --reuid=65534 --regid=65534 --clear-groups "$IORIG" --version \
	>/dev/null 2>&1; then
	mode=$(stat -c %a "$dev")
	trap 'chmod "$mode" "$dev"; losetup -d "$dev" 2>/dev/null; cd /; rm -rf "$T"' EXIT
	chmod o+r "$dev"
	chmod 755 "$T"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$IORIG" --name=r \
		--filename="$dev" --size=1m --bs=64k --rw=read \
		--output-format=json >"$T/out" 2>"$T/err"
	rc=$?
	chmod "$mode" "$dev"
	expect_rc 0
	[ "$(json "d['jobs'][0]['read']['ios']")" = 16 ] ||
		die "as nobody: not 16 reads: $(cat "$T/err")"
else
	echo "note: cannot run as nobody here; the EPERM fallback is not tried"
fi
echo "ok"
