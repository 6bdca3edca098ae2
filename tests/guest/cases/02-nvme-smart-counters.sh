#!/bin/sh
# The controller's own counters move exactly with the commands sent: 4096
# direct 4 KiB reads through psync raise host_read_commands by 4096, with
# iorig and with Debian's fio on the same job; 1024 direct random writes
# raise host_write_commands by 1024. data_units_read counts thousands of
# 512-byte units, rounded up, so 16 MiB moves it by 32 or 33. Leaves the
# first 4 MiB of namespace 1 written (by fio last).
. "$(dirname "$0")/../lib.sh"
need nvme nvme-cli
[ -x /usr/bin/fio ] || skip "no /usr/bin/fio (Debian's fio)"
d=$(nvme_ns 1)

job="--name=g --filename=$d --bs=4k --direct=1 --ioengine=psync"
for tool in "$IORIG" /usr/bin/fio; do
	name=${tool##*/}
	# The I/Os each tool counted itself (iorig's JSON and fio's).
	ios=ios
	[ "$name" = fio ] && ios=total_ios

	smart_log a
	"$tool" $job --rw=read --size=16m --output-format=json >"$T/out" \
		2>"$T/err" || die "$name read job failed"
	smart_log b
	json_is "d['jobs'][0]['read']['$ios']" 4096
	got=$((b_host_read_commands - a_host_read_commands))
	[ "$got" = 4096 ] ||
		die "$name: host_read_commands +$got, expected +4096"
	got=$((b_data_units_read - a_data_units_read))
	[ "$got" -ge 32 ] && [ "$got" -le 33 ] ||
		die "$name: data_units_read +$got for 16 MiB, expected 32 or 33"
	got=$((b_host_write_commands - a_host_write_commands))
	[ "$got" = 0 ] || die "$name: host_write_commands +$got by a read job"
	echo "ok: $name: 4096 reads, host_read_commands +4096"

	"$tool" $job --rw=randwrite --size=4m --output-format=json >"$T/out" \
		2>"$T/err" || die "$name write job failed"
	smart_log c
	json_is "d['jobs'][0]['write']['$ios']" 1024
	got=$((c_host_write_commands - b_host_write_commands))
	[ "$got" = 1024 ] ||
		die "$name: host_write_commands +$got, expected +1024"
	got=$((c_host_read_commands - b_host_read_commands))
	echo "ok: $name: 1024 writes, host_write_commands +1024" \
		"(host_read_commands +$got)"
done
