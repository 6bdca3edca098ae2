#!/bin/sh
# O_DIRECT sizes and offsets the target cannot take are the same clear
# usage error with every engine that does I/O: exit 2, the option and the
# alignment named, nothing created, nothing on stdout. The null engine has
# no target: it runs.
# lane: parallel
. "$(dirname "$0")/lib.sh"

run --name=x --ioengine=no-such-engine --size=1m
engines=$(sed -n 's/.*expected one of: //p' "$T/err")
[ -n "$engines" ] || die "no engine list in: $(cat "$T/err")"

for e in $engines; do
	# One operation a file: bs becomes the file's size (104-fileop-engines).
	# io_uring_cmd and sg: NVMe and SCSI devices only (the test guest)
	case $e in filecreate|filestat|filedelete|cpuio|exec|e4defrag|net|netsplice|io_uring_cmd|sg) continue ;; esac
	if [ "$e" = null ]; then
		run --name=d --ioengine=null --size=1m --bs=1000 --direct=1
		expect_rc 0
		continue
	fi
	for m in read write randrw; do
		run --name=d --filename=d.dat --size=1m --bs=1000 --direct=1 \
			--ioengine="$e" --iodepth=8 --rw=$m
		[ "$rc" -eq 2 ] || die "$e rw=$m bs=1000 direct=1: exit $rc, expected 2"
		expect_empty out
		expect_in err "option 'bs'"
		expect_in err 'block size 1000 is not a multiple of [0-9]+, the O_DIRECT alignment'
		[ ! -e d.dat ] || die "$e: a misaligned job created its file"
	done
	run --name=d --filename=d.dat --size=1m --offset=100 --bs=4k \
		--direct=1 --ioengine="$e" --rw=write
	[ "$rc" -eq 2 ] || die "$e offset=100 direct=1: exit $rc, expected 2"
	expect_empty out
	expect_in err "option 'offset'"
	expect_in err '100 is not a multiple of [0-9]+, the O_DIRECT alignment'
	[ ! -e d.dat ] || die "$e: a misaligned job created its file"
	# Only the write size misaligned.
	run --name=d --filename=d.dat --size=1m --bs=4k,1000 --direct=1 \
		--ioengine="$e" --rw=randrw
	expect_rc 2
	expect_in err "option 'bs'"
	expect_in err 'write block size 1000'
	# The same on an existing file, from a job file.
	head -c 1048576 /dev/zero >e.dat
	printf '[j]\nfilename=e.dat\nioengine=%s\ndirect=1\nbs=4000\nrw=read\n' \
		"$e" >j.job
	run j.job
	expect_rc 2
	expect_in err "option 'bs'"
	expect_in err '4000 is not a multiple of [0-9]+, the O_DIRECT alignment'
	expect_empty out
	rm -f e.dat j.job
	echo "ok $e"
done
exit 0
