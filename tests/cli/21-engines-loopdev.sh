#!/bin/sh
# Every engine on a block device (a loop device over a scratch file), every
# rw mode, O_DIRECT and buffered: one pass is size/bs I/Os with no error,
# nothing outside the job's region changes, and what a write job leaves on
# the device is its writes' data (see 20-engines.sh): at iodepth 1 and 8,
# every block a whole write's data and no two alike, none of the random
# bytes laid down before left over.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

MiB=1048576
loop_disk disk.img 8

run --name=x --ioengine=no-such-engine --size=1m
engines=$(sed -n 's/.*expected one of: //p' "$T/err")
[ -n "$engines" ] || die "no engine list in: $(cat "$T/err")"

before=$(sum_range "$dev" 0 $((2 * MiB)))$(sum_range "$dev" $((4 * MiB)) $((4 * MiB)))
skipped=""
modes="read write randread randwrite rw randrw"

# one ENGINE MODE DIRECT [OPTION...]: [2m, 4m) of the device, 4 KiB blocks
one() {
	_e=$1 _m=$2 _d=$3
	shift 3
	run --name=b --filename="$dev" --offset=2m --size=2m --bs=4k \
		--iodepth=8 --ioengine="$_e" --rw="$_m" --direct="$_d" \
		--output-format=json "$@"
	[ "$rc" -eq 0 ] || die "$_e rw=$_m direct=$_d on $dev: exit $rc"
	if grep -v '^iorig: warning: ' "$T/err" | grep -q .; then
		die "$_e rw=$_m direct=$_d: unexpected stderr"
	fi
	_got=$(json "(lambda j: (j['ran'], j['error'] is None,
		j['read']['ios'] + j['write']['ios'],
		j['read']['io_bytes'] + j['write']['io_bytes'],
		j['read']['errors'] + j['write']['errors'] +
		j['read']['short_ios'] + j['write']['short_ios']))(d['jobs'][0])")
	[ "$_got" = "(True, True, 512, $((2 * MiB)), 0)" ] ||
		die "$_e rw=$_m direct=$_d: expected (ran, no error, 512 I/Os," \
			"2 MiB, 0 errors or short), got $_got"
}

for e in $engines; do
	[ "$e" = null ] && continue
	# falloc refuses devices (130-engines-syscalls.sh checks it), and
	# so do the file operation engines (104-fileop-engines.sh); io_uring_cmd
	# and sg need an NVMe or SCSI device (the test guest's cases)
	case $e in falloc|filecreate|filestat|filedelete|cpuio|exec|e4defrag|net|netsplice|io_uring_cmd|sg) continue ;; esac
	run --name=probe --filename="$dev" --size=64k --ioengine="$e" \
		--direct=1 --output-format=json
	if [ "$rc" -ne 0 ] && grep -q "setting up engine $e" "$T/err"; then
		echo "note: engine $e cannot run here: $(grep -v warning "$T/err")"
		skipped="$skipped $e"
		continue
	fi
	for m in $modes; do
		one "$e" $m 1
	done
	one "$e" randrw 0
	one "$e" write 0 --iodepth=1
	echo "ok $e: $modes on $dev"
done
after=$(sum_range "$dev" 0 $((2 * MiB)))$(sum_range "$dev" $((4 * MiB)) $((4 * MiB)))
[ "$before" = "$after" ] || die "bytes outside [2m, 4m) of $dev changed"

# ---- data ----
[ "$(getconf PAGESIZE)" -eq 4096 ] ||
	skip "the data checks assume 4 KiB pages (request buffer stride)"
run --name=ref --filename=ref.dat --size=32k --bs=32k --rw=write
expect_rc 0

# region FILE: [2m, 4m) of the device into FILE
region() {
	dd if="$dev" of="$1" bs=65536 iflag=direct,skip_bytes skip=$((2 * MiB)) \
		count=32 2>/dev/null || die "cannot read $dev"
}

for e in $engines; do
	case " null falloc filecreate filestat filedelete cpuio exec e4defrag net netsplice io_uring_cmd sg $skipped " in
	*" $e "*) continue ;; esac
	for m in write randwrite; do
		dd if=/dev/urandom of="$dev" bs=65536 seek=32 count=32 \
			oflag=direct 2>/dev/null || die "cannot scribble on $dev"
		for q in 1 8; do
			dd if=/dev/urandom of="$dev" bs=65536 seek=32 count=32 \
				oflag=direct 2>/dev/null ||
				die "cannot scribble on $dev"
			one "$e" $m 1 --iodepth=$q
			region r.dat
			bad=$(blocks_from r.dat)
			[ "$bad" -eq 0 ] ||
				die "$e rw=$m iodepth=$q on $dev: $bad blocks" \
					"are not a write's data, or repeat"
		done
	done
	echo "ok $e: data on $dev"
done
after=$(sum_range "$dev" 0 $((2 * MiB)))$(sum_range "$dev" $((4 * MiB)) $((4 * MiB)))
[ "$before" = "$after" ] || die "bytes outside [2m, 4m) of $dev changed"

[ -z "$skipped" ] || skip "engines that cannot run here:$skipped (the others passed)"
exit 0
