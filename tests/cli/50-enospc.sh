#!/bin/sh
# A full file system, for real: a 1 MiB tmpfs (root only).
# - A file bigger than the free space is refused at plan time (exit 2,
#   49-layout-undo.sh has the details). When a first group takes the space
#   the check saw, laying out a later job's file fails with ENOSPC: the job
#   does not run, the report and stderr say why, exit 1, and the half-made
#   file is removed. With nrfiles, the file that does not fit is named.
# - A write job on a sparse file (nothing to lay out) gets ENOSPC per I/O
#   once the space is used up, with every engine: counted as a write error
#   with its offset, file and engine; the job stops, the I/Os in flight are
#   collected, exit 1.
# - continue_on_error=write runs the job to its end counting every failed
#   write; still exit 1.
# lane: parallel
. "$(dirname "$0")/lib.sh"

tmpfs_mount "$T/m" 1m

# Too big for the space: refused before anything is written.
run --name=big --filename=m/f --size=4m --rw=write --output-format=json
expect_rc 2
expect_in err "job 'big'.*not enough free space"
[ ! -e m/f ] || die "m/f was created"

# The layout runs out of space: a first group writes 768 KiB of a sparse
# file, then 512 KiB are laid out (overwrite=1: with data).
truncate -s 768k m/fill || die "truncate"
run --name=fill --filename=m/fill --rw=write --bs=64k \
	--name=big --stonewall --filename=m/f --size=512k --rw=write \
	--overwrite=1 --output-format=json
expect_rc 1
expect_in err "job 'big'.*laying out.*No space left on device"
json_is "d['jobs'][1]['ran']" False
json_is "d['jobs'][1]['error']['errno']" 28
expect_json "'m/f' in d['jobs'][1]['error']['message']"
[ ! -e m/f ] || die "the half laid out m/f was left behind"
rm -f m/fill

# The same with fallocate (overwrite=0, the default): the room cannot be
# made, said naming fallocate, and the file is removed.
truncate -s 768k m/fill || die "truncate"
run --name=fill --filename=m/fill --rw=write --bs=64k \
	--name=big --stonewall --filename=m/f --size=512k --rw=write
expect_rc 1
expect_in out 'failed: .*No space left on device'
expect_in err "job 'big'.*option 'fallocate': making room.*No space left"
[ ! -e m/f ] || die "m/f was left behind after fallocate failed"
rm -f m/*

# Four files of 256 KiB after 512 KiB were written: two fit, the third
# does not.
truncate -s 512k m/fill || die "truncate"
run --name=fill --filename=m/fill --rw=write --bs=64k \
	--name=many --stonewall --directory=m --nrfiles=4 --size=1m \
	--rw=write --output-format=json
expect_rc 1
expect_json "'many.0.2' in d['jobs'][1]['error']['message']" \
	"the file that did not fit is named"
json_is "d['jobs'][1]['error']['errno']" 28
[ ! -e m/many.0.0 ] || die "the failed run left the files it created"
rm -f m/*

# ENOSPC from the I/O itself: 4 MiB of sparse file on 1 MiB of space.
for e in sync libaio io_uring pthread; do
	truncate -s 4m m/sparse || die "truncate"
	run --name=w --filename=m/sparse --rw=write --bs=4k --ioengine=$e \
		--iodepth=8 --output-format=json
	expect_rc 1
	expect_in err "job 'w': write of 4096 bytes at offset [0-9]+ of m/sparse \\(engine $e\\): No space left on device"
	json_is "d['jobs'][0]['error']['errno']" 28
	json_is "d['jobs'][0]['write']['first_error']['errno']" 28
	json_is "d['jobs'][0]['write']['first_error']['engine']" "$e"
	json_is "d['jobs'][0]['write']['first_error']['file']" m/sparse
	# Where the space ran out, give or take the I/Os in flight (the
	# pthread pool completes them out of order).
	expect_json "abs(d['jobs'][0]['write']['first_error']['offset'] - 1048576) <= 65536" \
		"the first failed write is where the space ran out"
	expect_json "d['jobs'][0]['write']['errors'] >= 1"
	expect_json "d['jobs'][0]['write']['ios'] < 1024" "$e: the job stopped"
	# Every I/O issued was collected: failed ones count in errors only.
	expect_json "d['jobs'][0]['write']['io_bytes'] == 4096 * d['jobs'][0]['write']['ios']" \
		"$e: no completion lost"
	rm -f m/sparse
done

# continue_on_error=write: the whole job runs, every failure counted.
truncate -s 4m m/sparse || die "truncate"
run --name=w --filename=m/sparse --rw=write --bs=4k \
	--continue_on_error=write --output-format=json
expect_rc 1
expect_in err "job 'w': continued after 0 read and [0-9]+ write errors"
json_is "d['jobs'][0]['error']" None
json_is "d['jobs'][0]['write']['ios'] + d['jobs'][0]['write']['errors']" 1024
expect_json "d['jobs'][0]['write']['errors'] >= 768"
json_is "d['jobs'][0]['write']['first_error']['errno']" 28
rm -f m/sparse

# continue_on_error=read does not cover writes.
truncate -s 4m m/sparse || die "truncate"
run --name=w --filename=m/sparse --rw=write --bs=4k \
	--continue_on_error=read --output-format=json
expect_rc 1
json_is "d['jobs'][0]['error']['errno']" 28
expect_json "d['jobs'][0]['write']['ios'] < 1024"
rm -f m/sparse

# The text report names the first error, its file and engine.
truncate -s 4m m/sparse || die "truncate"
run --name=w --filename=m/sparse --rw=write --bs=4k --continue_on_error=io
expect_rc 1
expect_in out 'errors [0-9]+, short 0; first: ENOSPC at offset [0-9]+ of m/sparse \(No space left on device\), engine sync'
exit 0
