#!/bin/sh
# io_uring_cmd without an NVMe device (the test guest's cases 06-09 run
# it on QEMU's controller): what it takes and refuses when planning, with
# fio 3.33's word where it has one. A target that is not an NVMe generic
# char device (a regular file, a new file, /dev/null) is refused, exit 2,
# nothing created; fio 3.33 accepts the engine and cmd_type (--parse-only)
# as iorig does; what iorig cannot honour (md_per_io_size above 16 MiB,
# fixedbufs with vectored commands, pi_chk words) is refused naming the
# option, md_per_io_size=8 parses (guest case 21 runs it); the syncs (NVMe Flush), trim_percentage (Dataset Management)
# and hipri without direct=1 parse, as fio 3.33 parses them; the
# health.* metrics of --check are n/a
# on a unit with no NVMe target, and say why.
# lane: parallel
. "$(dirname "$0")/lib.sh"

e="--name=a --ioengine=io_uring_cmd --size=1m"
mkrand "$T/file" 1048576
expect_refused "NVMe generic char device \(/dev/ngXnY\); this is not a char" \
	$e --filename="$T/file" --rw=read
expect_refused "this is a file that does not exist" \
	$e --filename="$T/new" --rw=write
[ ! -e "$T/new" ] || die "a refused job created $T/new"
expect_refused "a character device that is not an NVMe generic char device" \
	$e --filename=/dev/null --rw=read
echo "ok: files and other char devices are refused, nothing created"

for o in "--md_per_io_size=32m:md_per_io_size" \
    "--fixedbufs=1 --nonvectored=0:fixedbufs" "--pi_chk=GUARD,CRC:pi_chk"; do
	expect_refused "option '${o##*:}'" $e --filename=/dev/null \
		--rw=randwrite ${o%:*} --parse-only
done
echo "ok: what is not done yet is refused, naming the option"
run $e --filename=/dev/null --rw=randwrite --md_per_io_size=8 --parse-only
expect_rc 0

syncs_parse_as_fio $e
echo "ok: syncs, trim_percentage and hipri without direct=1 parse (fio" \
	"3.33 too)"

run $e --filename=/dev/null --cmd_type=nvme --fixedbufs=1 \
	--registerfiles=1 --sqthread_poll=1 --readfua=1 --writefua=1 \
	--pi_act=1 --pi_chk=GUARD,REFTAG,APPTAG --apptag=0x10 \
	--apptag_mask=0xff00 --parse-only
expect_rc 0
for kv in cmd_type=nvme fixedbufs=1 registerfiles=1 sqthread_poll=1 \
    readfua=1 writefua=1 pi_act=1 pi_chk=GUARD,REFTAG,APPTAG apptag=16 \
    apptag_mask=65280; do
	grep -qx "  $kv" "$T/out" || die "--parse-only does not show $kv"
done
"$IORIG" --enghelp=io_uring_cmd >"$T/help" || die "--enghelp=io_uring_cmd"
for o in cmd_type fixedbufs registerfiles sqthread_poll nonvectored \
    readfua writefua md_per_io_size pi_act pi_chk apptag apptag_mask; do
	grep -q "^$o " "$T/help" || die "--enghelp=io_uring_cmd lacks $o"
done
echo "ok: the engine's options parse and are listed"

if [ -x /usr/bin/fio ]; then
	/usr/bin/fio --name=a --ioengine=io_uring_cmd --cmd_type=nvme \
		--filename=/dev/null --size=1m --parse-only >"$T/fio" 2>&1 ||
		die "fio 3.33 refuses io_uring_cmd, cmd_type: $(cat "$T/fio")"
	run --name=a --ioengine=io_uring_cmd --cmd_type=nvme \
		--filename=/dev/null --size=1m --parse-only
	expect_rc 0
	echo "ok: fio 3.33 and iorig both take ioengine=io_uring_cmd," \
	     "cmd_type=nvme"
fi

run --name=a --filename="$T/file" --size=1m --rw=read \
	--check health.media_errors==0 --check health.critical_warning==0 \
	--output-format=json
expect_rc 0
json_is "[(c['pass'], c['reason']) for c in d['checks']]" \
	"[(None, \"no NVMe namespace's health is known under the job's targets\"), (None, \"no NVMe namespace's health is known under the job's targets\")]"
json_is "d['nvme'], d['jobs'][0]['health']" "([], None)"
echo "ok: health.* checks are n/a on a file, saying why"
