#!/bin/sh
# --readonly: no byte changes anywhere but the report. No layout: a file
# to create (create_only too) or extend is refused at plan time (exit 2,
# naming the file; fio 3.33 says "refusing extend of file due to
# read-only" and does not create or extend it either), holes are read as
# they are (fio fills none), fill_device, the engines that create or
# delete files and mem=mmap:FILE are refused (fio creates, deletes and
# writes those), and the mmap engine maps read-only (/proc/PID/maps).
# The outside truth: the listing of the directory, the sha256 of every
# file in it and the blocks the sparse file holds, before and after.
# lane: parallel
. "$(dirname "$0")/lib.sh"

mkdir d
mkrand d/short 65536
mkrand d/full 1048576
mkrand d/buf 1048576
truncate -s 1m d/holes
snap() {
	(cd d && ls -la --time-style=+ | awk '{ print $1, $5, $6 }' &&
		sha256sum ./* && du -k holes)
}
snap >before
same() {
	snap >after
	cmp -s before after ||
		die "$1: d changed: $(diff before after | head -5)"
}

# refused WHY ARGS...: exit 2 with WHY, nothing in d changed.
refused() {
	_why=$1
	shift
	for _m in --parse-only ""; do
		# shellcheck disable=SC2086
		run --readonly $_m --rw=read --bs=4k "$@"
		# layout refusals are found when the targets are planned,
		# which --parse-only does not do
		[ -n "$_m" ] && [ "$rc" -eq 0 ] && continue
		expect_rc 2
		expect_in err "$_why"
		same "$*"
	done
}

refused "d/new: option 'readonly': .*does not exist, and the job would create it" \
	--name=r --filename=d/new --size=1m
refused "d/new: option 'readonly': .*would create it" \
	--name=r --filename=d/new --size=1m --create_only=1
refused "d/short: option 'readonly': .*is 65536 bytes, and the job's region ends at 1048576: its layout would extend" \
	--name=r --filename=d/short --size=1m
refused "d/full: option 'readonly': .*region ends at 2097152" \
	--name=r --filename=d/full --size=1m --offset=1m
refused "option 'readonly': .*fill_device=1" \
	--name=r --directory=d --size=1m --fill_device=1
refused "option 'readonly': .*ioengine=filecreate, which creates its files" \
	--name=r --filename=d/new --size=1m --ioengine=filecreate
refused "option 'readonly': .*ioengine=filedelete, which deletes its files" \
	--name=r --filename=d/new --size=1m --ioengine=filedelete
refused "option 'readonly': .*makes a file for its I/O buffers \\(mem=mmap:d/buf" \
	--name=r --filename=d/full --size=1m --mem=mmap:d/buf
refused "option 'readonly': .*makes a file for its I/O buffers \\(mem=mmapshared:d/nb" \
	--name=r --filename=d/full --size=1m --mem=mmapshared:d/nb
refused "option 'readonly': .*writes or trims" \
	--name=r --filename=d/full --size=1m --rw=randtrim

# Holes are read as they are, and said; the file keeps no new block.
run --readonly --name=r --filename=d/holes --rw=read --size=1m \
	--output-format=json
expect_rc 0
expect_in err "d/holes: reads of 1MiB of holes/unwritten extents never reach the device \\(--readonly\\)"
json_is "d['jobs'][0]['read']['io_bytes']" 1048576
same "reading the holes"
# A file inside its length: read, unchanged.
run --readonly --name=r --filename=d/full --rw=randread --size=1m
expect_rc 0
same "reading d/full"

# The mmap engine maps the region read-only (the kernel's maps).
"$IORIG" --readonly --name=m --filename=d/full --rw=randread --size=1m \
	--ioengine=mmap --time_based --runtime=1500ms >"$T/out" 2>"$T/err" &
pid=$!
maps=""
n=0
while [ -z "$maps" ] && [ $n -lt 40 ]; do
	sleep 0.05
	maps=$(grep "$T/d/full" /proc/$pid/maps 2>/dev/null)
	n=$((n + 1))
done
wait $pid
rc=$?
expect_rc 0
[ -n "$maps" ] || die "d/full never showed in the maps"
echo "$maps" | awk '{ print $2 }' | grep -qv '^r-' &&
	die "a writable mapping of d/full: $maps"
same "the mmap engine"

# fio 3.33 on the same jobs: no file created or extended either.
if command -v fio >/dev/null 2>&1; then
	fio --readonly --name=r --filename=d/new --rw=read --size=1m \
		>/dev/null 2>"$T/ferr"
	grep -q "refusing extend of file due to read-only" "$T/ferr" ||
		die "fio: $(cat "$T/ferr")"
	fio --readonly --name=r --filename=d/short --rw=read --size=1m \
		>/dev/null 2>"$T/ferr"
	grep -q "refusing extend of file due to read-only" "$T/ferr" ||
		die "fio: $(cat "$T/ferr")"
	same "fio"
fi
exit 0
