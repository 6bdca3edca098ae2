#!/bin/sh
# Where the report and the stream may go (issue 9, items 2 and 4, and the
# clear-error items):
# - never onto a block device, another character device than /dev/null,
#   /dev/zero, /dev/full or a terminal, or a new regular file in /dev:
#   exit 2 before anything runs, the device's bytes unchanged;
# - --stream and the report are never one file, compared by inode
#   (a symlink to --output, standard output redirected to --stream);
# - --output replaces the previous report only once the new one is whole:
#   a run that is killed, or fails to write its report, leaves it as it
#   was, and leaves no temporary file after a failure it sees;
# - a report that cannot be written names the real cause (ENOSPC);
# - started with standard output or error closed, nothing the tool
#   prints lands in a target.
. "$(dirname "$0")/lib.sh"

mkrand data 1048576
JOB="--name=r --filename=data --size=1m --rw=read"

# A file system-free block device holding data: the report would land at
# sector 0 (block devices only when root).
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1; then
	mkrand disk.img 4194304
	if dev=$(losetup -f --show disk.img 2>/dev/null); then
		trap 'losetup -d "$dev" 2>/dev/null; cd /; rm -rf "$T"' EXIT
		before=$(cksum <"$dev")
		run $JOB -o "$dev"
		expect_rc 2
		expect_in err "option 'output': is a block device"
		run $JOB --interval=1s --stream="$dev"
		expect_rc 2
		expect_in err "option 'stream': is a block device"
		# A symlink to it is the device too.
		ln -s "$dev" devlink
		run $JOB -o devlink
		expect_rc 2
		[ "$(cksum <"$dev")" = "$before" ] ||
			die "the block device was written"
		# Detached now: a later mount's trap would forget it.
		losetup -d "$dev"
		trap 'cd /; rm -rf "$T"' EXIT
	fi
else
	echo "note: not root or no losetup: block devices not tried"
fi

# Character devices: /dev/null, /dev/zero and /dev/full take a report
# (/dev/full as an error of its own), others are refused.
run $JOB -o /dev/null
expect_rc 0
run $JOB -o /dev/zero
expect_rc 0
if [ -w /dev/full ]; then
	run $JOB -o /dev/full
	expect_rc 1
	expect_in err "writing the report to /dev/full: No space left on device"
fi
if [ -c /dev/mem ]; then
	run $JOB -o /dev/mem
	expect_rc 2
	expect_in err "option 'output': is a character device other than"
fi
run $JOB -o .
expect_rc 2
expect_in err "option 'output': is a directory"

# No new regular file in /dev (devtmpfs), for either option.
name=/dev/iorig-report-$$
run $JOB -o "$name"
expect_rc 2
expect_in err "iorig makes no regular file in /dev"
run $JOB --interval=1s --stream="$name"
expect_rc 2
[ ! -e "$name" ] || { rm -f "$name"; die "$name was created"; }

# A FIFO takes the report.
mkfifo fifo
cat fifo >fifo.out &
reader=$!
run $JOB --output-format=json -o fifo
expect_rc 0
wait "$reader"
"$PY" -c 'import json,sys; json.load(open(sys.argv[1]))' fifo.out ||
	die "the report read from the FIFO is not JSON"

# --stream and the report in one file, by another name.
echo keep >report.txt
ln -s report.txt alias.txt
run $JOB --interval=1s -o report.txt --stream=alias.txt
expect_rc 2
expect_in err "option 'stream': is also --output"
"$IORIG" $JOB --interval=1s --stream=same.txt >same.txt 2>"$T/err"
rc=$?
expect_rc 2
expect_in err "option 'stream': is also standard output"
[ "$(cat report.txt)" = keep ] || die "report.txt changed on a usage error"
# Two /dev/null are no clash.
"$IORIG" $JOB --interval=1s --stream=/dev/null >/dev/null 2>"$T/err"
rc=$?
expect_rc 0

# Killed while running: the previous report stays whole.
echo "previous report" >old.txt
"$IORIG" $JOB --runtime=20 --time_based -o old.txt >/dev/null 2>&1 &
pid=$!
sleep 0.5
kill -KILL "$pid"
wait "$pid" 2>/dev/null
[ "$(cat old.txt)" = "previous report" ] ||
	die "a killed run changed the previous report: $(head -c 200 old.txt)"
rm -f .old.txt.*	# a SIGKILL leaves its temporary file: nothing to do

# A run that ends: the new report replaces it, with the file's mode.
chmod 640 old.txt
run $JOB --output-format=json -o old.txt
expect_rc 0
"$PY" -c 'import json,sys; json.load(open(sys.argv[1]))' old.txt ||
	die "the new report did not replace the old one"
[ "$(stat -c %a old.txt)" = 640 ] || die "the report's mode changed: $(stat -c %a old.txt)"
ls -A | grep -q '^\.old\.txt\.' && die "a temporary file is left: $(ls -A)"

# A report that does not fit: the real cause, the previous one kept.
if [ "$(id -u)" -eq 0 ]; then
	tmpfs_mount small 64k
	echo "previous report" >small/r.txt
	head -c 60000 /dev/zero >small/fill 2>/dev/null
	run $JOB --output-format=json -o small/r.txt
	expect_rc 1
	expect_in err "writing the report to small/r.txt: No space left on device"
	[ "$(cat small/r.txt)" = "previous report" ] ||
		die "a report that did not fit replaced the previous one"
	[ -z "$(ls -A small | grep '^\.r\.txt\.')" ] ||
		die "a temporary file is left: $(ls -A small)"
fi

# Closed standard descriptors: the progress line and warnings must not
# land in a target opened for writing (a read-only mix keeps its bytes).
sum=$(cksum <data)
"$IORIG" --name=m --filename=data --size=1m --rw=randrw --rwmixread=100 \
	--progress=always --runtime=1.5 --time_based >/dev/null 2>&-
[ "$(cksum <data)" = "$sum" ] || die "stderr closed: the target was written"
"$IORIG" --name=m --filename=data --size=1m --rw=randrw --rwmixread=100 \
	--runtime=0.5 --time_based 1>&- 2>/dev/null
[ "$(cksum <data)" = "$sum" ] || die "stdout closed: the target was written"
"$IORIG" --name=m --filename=data --size=1m --rw=randrw --rwmixread=100 \
	--runtime=0.5 --time_based 0<&- >/dev/null 2>&1
[ "$(cksum <data)" = "$sum" ] || die "stdin closed: the target was written"
exit 0
