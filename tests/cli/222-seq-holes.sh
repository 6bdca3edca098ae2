#!/bin/sh
# A sequential walk with gaps (rw=read:N) of one block size ends each file
# where fio ends it: once an I/O ends at the file's end, or the next one
# would not fit; the loop ends when every file is done, short of size=
# (fio 3.33's t0007: 1 MiB reads with 512 KiB gaps over 128 MiB are 85
# reads, 87040 KiB; iorig went on from the start to 128 MiB). When the
# gap after the last I/O reaches the file's end, fio starts the file again
# and the loop moves size= bytes; io_size= repeats the walks up to it.
# Outside truth: Debian's fio on the same jobs (I/Os, bytes, and the
# offsets its per-I/O bandwidth log gives).
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null 2>&1 || skip "no fio to compare with"
mkdir -p bin f i
ln -s "$IORIG" bin/fio

# ios FILE: I/Os and bytes of both directions, from fio's JSON.
ios() {
	jsonf "$1" "sum(d['jobs'][0][k]['total_ios'] for k in ('read','write')), sum(d['jobs'][0][k]['io_bytes'] for k in ('read','write'))"
}

for job in "--size=128m --rw=read:512k --bs=1m" \
    "--size=1m --rw=read:8k --bs=4k" "--size=1m --rw=read:12k --bs=4k" \
    "--size=4m --rw=read:2m --bs=1m" "--size=4m --rw=read:3m --bs=1m" \
    "--size=2m --rw=write:8k --bs=4k --nrfiles=2" \
    "--size=1m --rw=read:8k --bs=4k --loops=3" \
    "--size=1m --rw=read:8k --bs=4k --io_size=4m" \
    "--filesize=1m --size=512k --rw=read:8k --bs=4k"; do
	rm -f f/* i/*
	# shellcheck disable=SC2086
	(cd f && fio --name=h --ioengine=null $job --write_bw_log=h \
		--log_offset=1 --output-format=json --output=../fio.json \
		>/dev/null 2>&1) || die "fio failed on $job"
	# shellcheck disable=SC2086
	(cd i && timeout 20 ../bin/fio --name=h --ioengine=null $job \
		--write_bw_log=h --log_offset=1 --output-format=json \
		--output=../iorig.json >/dev/null 2>"$T/err") ||
		die "iorig as fio: exit $? on $job"
	want=$(ios fio.json)
	got=$(ios iorig.json)
	[ "$want" = "$got" ] || die "$job: fio (I/Os, bytes) $want, iorig $got"
	# (several files: fio goes round them, iorig walks them in turn, a
	# difference the manual gives; the same offsets in each)
	case $job in
	*nrfiles*) sort=sort ;;
	*) sort=cat ;;
	esac
	cut -d, -f5 f/h_bw.1.log | $sort >f.off
	cut -d, -f5 i/h_bw.1.log | $sort >i.off
	cmp -s f.off i.off || die "$job: offsets differ from fio's"
done
[ "$(ios fio.json)" != "" ] || die "no figures"

# t0007 itself: 85 reads of 1 MiB, in iorig's own JSON too.
truncate -s 128m t.dat
run --name=t --filename=t.dat --size=128m --rw=read:512k --bs=1m \
	--output-format=json
expect_rc 0
json_is "(d['jobs'][0]['read']['ios'], d['jobs'][0]['read']['io_bytes'])" "(85, 89128960)"
exit 0
