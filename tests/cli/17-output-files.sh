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
#   was, and leaves no temporary file after a failure it sees, nor,
#   where the file system has unnamed files (O_TMPFILE), after a SIGKILL
#   (named by linkat; copied to a named file when linkat fails);
# - a report that cannot be written names the real cause (ENOSPC);
# - started with standard output or error closed, nothing the tool
#   prints lands in a target.
# Paced: a signal or a check after a sleep, CPU under half its time
# alone (plain and under the sanitizers); held beside 86, 244 and the
# others moved with it, three times plain and twice sanitized.
# lane: paced
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
wait_threads "$pid" 2 10000	# its job runs: the report is open
kill -KILL "$pid"
wait "$pid" 2>/dev/null
[ "$(cat old.txt)" = "previous report" ] ||
	die "a killed run changed the previous report: $(head -c 200 old.txt)"
# The report was written to an unnamed file: nothing is left (a file
# system without O_TMPFILE gets a named one, which a SIGKILL leaves).
if "$PY" -c 'import os; os.close(os.open(".", os.O_TMPFILE | os.O_WRONLY))' \
	2>/dev/null; then
	ls -A | grep -q '^\.old\.txt\.' &&
		die "a killed run left a temporary file: $(ls -A)"
else
	echo "note: no O_TMPFILE in $T: a killed run leaves its temporary file"
	rm -f .old.txt.*
fi

# A run that ends: the new report replaces it, with the file's mode.
chmod 640 old.txt
run $JOB --output-format=json -o old.txt
expect_rc 0
"$PY" -c 'import json,sys; json.load(open(sys.argv[1]))' old.txt ||
	die "the new report did not replace the old one"
[ "$(stat -c %a old.txt)" = 640 ] || die "the report's mode changed: $(stat -c %a old.txt)"
ls -A | grep -q '^\.old\.txt\.' && die "a temporary file is left: $(ls -A)"

# The unnamed file gets its name by linkat(2) just before the rename. As
# another user (linked by descriptor where the kernel lets the file's
# opener, else through /proc/self/fd), and with every linkat failing (an
# LD_PRELOAD shim: its bytes are then copied to a named file), the report
# replaces the old one and nothing else is left.
# replaced DIR WHAT: the run ($rc) replaced DIR/r.json with a JSON report
# and left nothing else in DIR.
replaced() {
	expect_rc 0
	"$PY" -c 'import json,sys; json.load(open(sys.argv[1]))' \
		"$1/r.json" || die "$2: the report was not replaced"
	[ "$(ls -A "$1")" = r.json ] ||
		die "$2: left beside the report: $(ls -A "$1")"
}
if command -v setpriv >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ] &&
   setpriv --reuid=65534 --regid=65534 --clear-groups "$IORIG" --version \
	>/dev/null 2>&1; then
	mkdir -p asuser && chmod 777 asuser && chmod 755 "$T"
	echo "previous report" >asuser/r.json && chmod 666 asuser/r.json
	setpriv --reuid=65534 --regid=65534 --clear-groups "$IORIG" \
		--name=n --ioengine=null --size=1m --output-format=json \
		-o asuser/r.json 2>"$T/err"
	rc=$?
	replaced asuser "as nobody"
fi
# (a sanitizer's runtime must come first: no preloaded shim there)
if command -v cc >/dev/null 2>&1 && [ -z "${IORIG_SAN:-}" ]; then
	cat >nolink.c <<'EOF2'
#include <errno.h>
int linkat(int a, const char *b, int c, const char *d, int e)
{
	(void)a; (void)b; (void)c; (void)d; (void)e;
	errno = ENOENT;
	return -1;
}
EOF2
	cc -shared -fPIC -o nolink.so nolink.c || die "cannot build the shim"
	mkdir -p nolink
	echo "previous report" >nolink/r.json && chmod 604 nolink/r.json
	LD_PRELOAD=$T/nolink.so "$IORIG" --name=n --ioengine=null --size=1m \
		--output-format=json -o nolink/r.json 2>"$T/err"
	rc=$?
	replaced nolink "linkat failing"
	[ "$(stat -c %a nolink/r.json)" = 604 ] ||
		die "linkat failing: the mode changed: $(stat -c %a nolink/r.json)"
	strace_works && {
		LD_PRELOAD=$T/nolink.so strace -f -e trace=openat,rename \
			-o "$T/st" "$IORIG" --name=n --ioengine=null --size=1m \
			-o nolink/r.json 2>/dev/null ||
			die "the strace run failed"
		grep -q 'O_TMPFILE' "$T/st" ||
			die "no unnamed file was opened: $(grep nolink "$T/st")"
	}
fi

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
