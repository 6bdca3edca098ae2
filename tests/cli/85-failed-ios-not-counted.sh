#!/bin/sh
# Failed I/Os are counted in errors only: not in ios, io_bytes, IOPS,
# bandwidth or the latency histograms (as in fio); a short I/O counts with
# the bytes it moved. The truth is tests/faultfs, which fails the reads
# (and writes) at chosen offsets: of 256 reads of 4 KiB over its 1 MiB
# file, 4 fail, one of them after 400 ms, and one comes back half short.
# Skips where FUSE cannot be mounted.
# lane: parallel
. "$(dirname "$0")/lib.sh"

faultfs_mount "$T/r" --size=1m --eio=65536,131072,196608,262144 \
	--delay=65536:400 --short=524288
faultfs_mount "$T/w" --size=1m --weio=32768,65536

for e in sync libaio io_uring pthread; do
	run --name=r --filename=r/data --bs=4k --ioengine=$e --iodepth=8 \
		--continue_on_error=read --interval=100ms --output-format=json
	expect_rc 1
	R="d['jobs'][0]['read']"
	json_is "$R['errors']" 4
	json_is "$R['ios']" 252
	json_is "$R['short_ios']" 1
	json_is "$R['io_bytes']" $((252 * 4096 - 2048))
	json_is "$R['lat_ns']['count']" 252
	json_is "$R['clat_ns']['count']" 252
	expect_json "$R['lat_ns']['max'] < 300e6" \
		"$e: the 400 ms read failed: its latency is not counted"
	expect_json "abs($R['iops'] * $R['runtime_ns'] / 1e9 - 252) < 1e-6" \
		"$e: iops * runtime == the I/Os that did not fail"
	expect_json "abs($R['bw_bytes'] * $R['runtime_ns'] / 1e9 - $R['io_bytes']) < 1e-3"
	json_is "d['jobs'][0]['summary']['reqs']" 252
	json_is "sum(i['read']['ios'] for i in d['jobs'][0]['intervals'])" 252
	json_is "d['groups'][0]['read']['ios']" 252

	run --name=w --filename=w/data --rw=write --bs=4k --ioengine=$e \
		--iodepth=8 --continue_on_error=write --output-format=json
	expect_rc 1
	W="d['jobs'][0]['write']"
	json_is "$W['errors']" 2
	json_is "$W['ios']" 254
	json_is "$W['io_bytes']" $((254 * 4096))
	json_is "$W['lat_ns']['count']" 254
	expect_json "abs($W['iops'] * $W['runtime_ns'] / 1e9 - 254) < 1e-6"
done

# The text report: 252 I/Os, the 4 errors apart.
run --name=r --filename=r/data --bs=4k --continue_on_error=read
expect_rc 1
expect_in out ' 252 ios$'
expect_in out 'errors 4, short 1; first: EIO at offset 65536 of r/data'
exit 0
