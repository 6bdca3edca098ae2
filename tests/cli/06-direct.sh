#!/bin/sh
# O_DIRECT: sizes and offsets the target cannot take are usage errors that
# name the option and the alignment, found before anything is created;
# aligned ones run.
# lane: parallel
. "$(dirname "$0")/lib.sh"

MiB=1048576

# Misaligned block size: exit 2, names bs and the alignment, no file.
run --name=d --filename=d.dat --size=1m --bs=1000 --direct=1 --rw=write
expect_rc 2
expect_empty out
expect_in err "option 'bs'"
expect_in err '1000 is not a multiple of [0-9]+, the O_DIRECT alignment'
[ ! -e d.dat ] || die "a misaligned job created its file"

# The write size of READ,WRITE and ranges are checked too.
run --name=d --filename=d.dat --size=1m --bs=4k,1000 --direct=1 --rw=write
expect_rc 2
expect_in err "option 'bs'"
expect_in err 'write block size 1000'
run --name=d --filename=d.dat --size=1m --bsrange=4k-6000 --direct=1
expect_rc 2
expect_in err "option 'bs'"
expect_in err '4096-6000 is not a multiple'

# Misaligned offset.
run --name=d --filename=d.dat --size=1m --offset=1000 --bs=4k --direct=1
expect_rc 2
expect_in err "option 'offset'"
expect_in err '1000 is not a multiple of [0-9]+, the O_DIRECT alignment'
[ ! -e d.dat ] || die "a misaligned job created its file"

# A bad job among good ones: nothing runs.
run --name=good --filename=good.dat --size=1m --rw=write \
	--name=bad --filename=bad.dat --size=1m --bs=1000 --direct=1
expect_rc 2
[ ! -e good.dat ] && [ ! -e bad.dat ] ||
	die "files were created although a job was invalid"

# buffered=0 is direct=1.
run --name=d --filename=d.dat --size=1m --bs=1000 --buffered=0
expect_rc 2
expect_in err 'O_DIRECT alignment'

# Without direct, any size goes.
run --name=d --filename=d.dat --size=1m --bs=1000 --rw=write \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['write']['io_bytes']" 1048000
rm -f d.dat

have_odirect "$T" ||
	skip "the file system of $T does not take O_DIRECT (alignment checks passed)"

run --name=d --filename=d.dat --size=2m --bs=4k --direct=1 --rw=write \
	--output-format=json
expect_rc 0
expect_empty err
json_is "d['jobs'][0]['write']['ios']" 512
json_is "d['jobs'][0]['options']['direct']" 1
[ "$(fsize d.dat)" -eq $((2 * MiB)) ] || die "d.dat is $(fsize d.dat) bytes"
run --name=d --filename=d.dat --size=1m --offset=1m --bs=4k --direct=1 \
	--rw=randread --output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['ios']" 256
run --name=d --filename=d.dat --bs=64k --direct=1 --rw=randrw \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['io_bytes'] + d['jobs'][0]['write']['io_bytes']" \
	$((2 * MiB))
exit 0
