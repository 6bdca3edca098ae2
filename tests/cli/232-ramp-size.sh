#!/bin/sh
# ramp_time on a job bound by its size (fio's meaning): the ramp's I/Os
# count inside size=, so the device sees size bytes in all (its sectors
# read, /sys/block/*/stat) and the report has what completed after the
# ramp; a job whose size is all issued during the ramp is measured whole
# and ends without waiting for the ramp. fio on the same jobs moves the
# same sectors and reports the same. Invoked as fio, total_ios counts the
# I/Os issued after the ramp and io_bytes also those then in flight, as
# fio counts them. Serial lane: a 300 ms ramp at 1000 I/Os a second is a
# timing (CI, beside the parallel lane: fio reported 918 blocks after it).
# lane: paced
. "$(dirname "$0")/lib.sh"

have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1
loop_disk disk.img 64
sysdev=/sys/block/$(basename "$dev")/stat
mkdir fl && ln -s "$IORIG" fl/fio || die "symlink"
rsect() {
	awk '{ printf "%.0f\n", $3 }' "$sysdev"
}

# job TOOL ARGS...: runs TOOL (iorig, fio, or iorig as fio) on the loop
# device; $sect: sectors it read there, $ms: its wall time; JSON in out.
job() {
	tool=$1
	shift
	s0=$(rsect)
	t0=$(now_ms)
	"$tool" --name=r --filename="$dev" --direct=1 --rw=read \
		--ioengine=libaio --output-format=json "$@" >out 2>err ||
		die "$tool $*: exit $?"
	ms=$(($(now_ms) - t0))
	sect=$(($(rsect) - s0))
}

# A 300 ms ramp at 1000 I/Os a second: about 300 of the 1024 reads of
# 64 KiB are the ramp's; the device reads 64 MiB once, not a ramp and a
# whole pass.
for tool in "$IORIG" fio; do
	[ "$tool" = fio ] && [ $have_fio = 0 ] && continue
	job "$tool" --bs=64k --size=64m --ramp_time=300ms --rate_iops=1000 \
		--iodepth=4
	[ "$sect" -eq 131072 ] ||
		die "$tool: $dev read $sect sectors, expected 131072 (64 MiB)"
	b=$(json "d['jobs'][0]['read']['io_bytes'] // 65536")
	[ "$b" -ge 624 ] && [ "$b" -le 824 ] ||
		die "$tool: reported $b blocks of 64k after a 300 ms ramp at 1000/s, expected about 724"
done

# The whole size issued within the ramp (32 reads of 512 KiB, 128 deep,
# a 5 s ramp): measured whole, done in well under the ramp.
for tool in "$IORIG" fio; do
	[ "$tool" = fio ] && [ $have_fio = 0 ] && continue
	job "$tool" --bs=512k --size=16m --ramp_time=5 --iodepth=128
	[ "$sect" -eq 32768 ] ||
		die "$tool: $dev read $sect sectors, expected 32768 (16 MiB)"
	[ "$ms" -lt 4000 ] || die "$tool: took $ms ms, waited for the ramp"
	got=$(json "(d['jobs'][0]['read'].get('ios', d['jobs'][0]['read'].get('total_ios')), d['jobs'][0]['read']['io_bytes'])")
	[ "$got" = "(32, 16777216)" ] ||
		die "$tool: reported (ios, bytes) $got, expected (32, 16777216)"
done

# 32 deep, random 4k, a 50 ms ramp: the device reads 64 MiB once; as
# fio, total_ios leaves out the I/Os in flight when the ramp ended, whose
# bytes io_bytes has (when the ramp ended before the last I/O was issued,
# between 1 and 32 of them).
for tool in fl/fio fio; do
	[ "$tool" = fio ] && [ $have_fio = 0 ] && continue
	job "$tool" --rw=randread --bs=4k --size=64m --ramp_time=50ms \
		--iodepth=32
	[ "$sect" -eq 131072 ] ||
		die "$tool: $dev read $sect sectors, expected 131072 (64 MiB)"
	got=$(json "(d['jobs'][0]['read']['io_bytes'] // 4096, d['jobs'][0]['read']['total_ios'])")
	echo "$got" | awk -F'[(, )]+' '{ c = $2 - $3
		exit !($2 == 16384 ? c == 0 : c >= 1 && c <= 32) }' ||
		die "$tool: (blocks in io_bytes, total_ios) $got: expected 1 to 32 blocks more than I/Os, or all 16384 and none"
done
echo ok
