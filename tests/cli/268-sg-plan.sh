#!/bin/sh
# ioengine=sg without a SCSI device (the test guest's case 13 runs it on
# scsi_debug): what it takes and refuses when planning. A regular file, a
# new file and a char device that is not SCSI generic (/dev/null) are
# refused, exit 2, nothing created or written; what is not done yet
# (sg_write_mode=write_stream) is refused naming the option; the syncs
# (SYNCHRONIZE CACHE), trim_percentage (UNMAP) and hipri without direct=1
# parse, as fio 3.33 parses them; every sg_write_mode of fio 3.33 parses, as fio 3.33 parses
# it (--parse-only); FDP and atomic writes are refused saying why.
# lane: parallel
. "$(dirname "$0")/lib.sh"

e="--name=a --ioengine=sg --size=1m"
mkrand "$T/file" 1048576
sum0=$(cksum <"$T/file")
scsi="SCSI generic char device \(/dev/sgN\) or a SCSI disk's block device"
expect_refused "$scsi \(/dev/sdX\); this is not a device" \
	$e --filename="$T/file" --rw=write
[ "$(cksum <"$T/file")" = "$sum0" ] || die "a refused job wrote $T/file"
expect_refused "this is a file that does not exist" \
	$e --filename="$T/new" --rw=write
[ ! -e "$T/new" ] || die "a refused job created $T/new"
expect_refused "a character device that is not a SCSI generic device" \
	$e --filename=/dev/null --rw=read
echo "ok: files and other char devices are refused, nothing created"

expect_refused "option 'sg_write_mode'.*WRITE STREAM" $e \
	--filename=/dev/null --rw=randwrite --sg_write_mode=write_stream \
	--parse-only
expect_refused "option 'sg_write_mode'.*expected one of" $e \
	--filename=/dev/null --sg_write_mode=bogus --parse-only
echo "ok: what is not done yet is refused, naming the option"

syncs_parse_as_fio $e
echo "ok: syncs, trim_percentage and hipri without direct=1 parse (fio" \
	"3.33 too)"

fj=
for m in write write_and_verify verify write_same same write_same_ndob \
    verify_bytchk_00 verify_bytchk_01 verify_bytchk_11; do
	run $e --filename=/dev/null --rw=write --sg_write_mode=$m \
		--readfua=1 --writefua=1 --hipri --direct=1 --parse-only
	expect_rc 0
	# fio's older names are shown as the names they stand for
	case $m in verify) c=write_and_verify ;; same) c=write_same ;;
	*) c=$m ;; esac
	grep -qx "  sg_write_mode=$c" "$T/out" ||
		die "--parse-only does not show sg_write_mode=$c for $m"
	fj="$fj $e --filename=/dev/null --rw=write --sg_write_mode=$m
		--readfua=1 --writefua=1 --hipri --direct=1"
done
# fio 3.33 takes each: one run of fio, a job each
if [ -x /usr/bin/fio ]; then
	/usr/bin/fio --parse-only $fj >"$T/fio" 2>&1 ||
		die "fio 3.33 refuses one of: $fj: $(cat "$T/fio")"
fi
"$IORIG" --enghelp=sg >"$T/help" || die "--enghelp=sg"
for o in hipri readfua writefua sg_write_mode stream_id; do
	grep -q "^$o " "$T/help" || die "--enghelp=sg lacks $o"
done
echo "ok: every sg_write_mode of fio 3.33 parses (fio 3.33 too); the" \
	"engine's options are listed"

expect_refused \
	"option 'fdp'.*fio 3.33.*refuses it as unknown.*QEMU \(7.2\).*has no FDP" \
	--name=a --filename="$T/file" --size=1m --fdp=1 --parse-only
expect_refused "option 'fdp_pli_select'.*doc/fdp.md" \
	--name=a --filename="$T/file" --size=1m --fdp_pli_select=random \
	--parse-only
expect_refused "option 'atomic'.*QEMU 7.2.*no atomic write emulation" \
	--name=a --filename="$T/file" --size=1m --atomic=1 --parse-only
echo "ok: fdp, fdp_pli_select and atomic are refused, saying why"
