#!/bin/sh
# Every engine runs every rw mode on a scratch file: one pass is size/bs
# I/Os, split between reads and writes as the mode says, with no error;
# the same job gives the same split whatever the engine. Then the data:
# every write's bytes are one random block xor a key drawn for that write
# (gen.h, gen_data), so what any engine leaves in the file at any depth is
# known in form: every 4 KiB block is a whole write's data (its xor with
# another written block is one word repeated), and no two are alike.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

MiB=1048576
KiB=1024

# The engines, from the error that lists them.
run --name=x --ioengine=no-such-engine --size=1m
expect_rc 2
engines=$(sed -n 's/.*expected one of: //p' "$T/err")
for e in sync null io_uring libaio pthread; do
	echo " $engines " | grep -q " $e " ||
		die "engine $e missing from the list '$engines'"
done
echo "engines: $engines"

odirect=1
have_odirect "$T" || odirect=0
[ $odirect = 1 ] || echo "note: $T has no O_DIRECT: buffered only"
skipped=""

# only_warnings: stderr holds nothing but warnings.
only_warnings() {
	if grep -v '^iorig: warning: ' "$T/err" | grep -q .; then
		die "unexpected stderr"
	fi
}

# usable ENGINE: the engine can start here; else notes why and fails.
usable() {
	# One operation a file, not 4k I/Os: tests/cli/104-fileop-engines.sh;
	# e4defrag needs ext4 and a donor: tests/cli/196-e4defrag.sh; net and
	# netsplice a peer: 192-195; io_uring_cmd an NVMe char device and sg
	# a SCSI device: the test guest's cases (tests/guest/cases/).
	case $1 in filecreate|filestat|filedelete|cpuio|exec|e4defrag|net|netsplice|io_uring_cmd|sg) return 1 ;; esac
	run --name=probe --filename=probe.dat --size=64k --ioengine="$1" \
		--output-format=json
	rm -f probe.dat
	[ "$rc" -eq 0 ] && return 0
	grep -q "setting up engine $1" "$T/err" ||
		die "engine $1 failed, and not while setting up"
	echo "note: engine $1 cannot run here: $(grep -v warning "$T/err")"
	skipped="$skipped $1"
	return 1
}

# one ENGINE MODE DIRECT [OPTION...]: a 2 MiB, 4 KiB pass; leaves the
# read count in $reads.
one() {
	_e=$1 _m=$2 _d=$3
	shift 3
	run --name=e --filename=e.dat --size=2m --bs=4k --iodepth=8 \
		--ioengine="$_e" --rw="$_m" --direct="$_d" --rwmixread=70 \
		--output-format=json "$@"
	[ "$rc" -eq 0 ] || die "$_e rw=$_m direct=$_d: exit $rc"
	only_warnings
	# One Python run for every check: "reads N" or what was wrong.
	_got=$(json "(lambda j: 'ran %s error %s' % (j['ran'], j['error'])
		if not j['ran'] or j['error'] is not None else
		'ios %d' % (j['read']['ios'] + j['write']['ios'])
		if j['read']['ios'] + j['write']['ios'] != 512 else
		'bytes %d' % (j['read']['io_bytes'] + j['write']['io_bytes'])
		if j['read']['io_bytes'] + j['write']['io_bytes'] != 2 << 20 else
		'errors/short %d' % (j['read']['errors'] + j['write']['errors'] +
		j['read']['short_ios'] + j['write']['short_ios'])
		if j['read']['errors'] + j['write']['errors'] +
		j['read']['short_ios'] + j['write']['short_ios'] else
		'engine %s' % j['options']['ioengine']
		if j['options']['ioengine'] != '$_e' else
		'reads %d' % j['read']['ios'])(d['jobs'][0])" 2>&1)
	case $_got in
	"reads "*) reads=${_got#reads } ;;
	*) die "$_e rw=$_m direct=$_d: expected 512 I/Os of 4 KiB, no error; got: $_got" ;;
	esac
	case $_m in
	read|randread) [ "$reads" -eq 512 ] || die "$_e $_m: $reads reads" ;;
	write|randwrite) [ "$reads" -eq 0 ] || die "$_e $_m: $reads reads" ;;
	*) [ "$reads" -gt 290 ] && [ "$reads" -lt 430 ] ||
		die "$_e $_m: $reads of 512 I/Os read with rwmixread=70" ;;
	esac
}

modes="read write randread randwrite rw randrw"
for e in $engines; do
	usable "$e" || continue
	case $e in
	sync|null) d=0 ;;
	*) d=$odirect ;;
	esac
	for m in $modes; do
		one "$e" "$m" $d
		# The split is the generator's: the same for every engine.
		eval "ref=\${reads_$m:-}"
		[ -z "$ref" ] && eval "reads_$m=$reads"
		[ -z "$ref" ] || [ "$reads" -eq "$ref" ] ||
			die "$e rw=$m: $reads reads where the first engine did $ref"
	done
	# The other buffering, once each.
	o=$((1 - d))
	[ $odirect = 1 ] || o=0
	one "$e" randrw $o
	one "$e" write $o --iodepth=1
	# The engine's own options.
	case $e in
	io_uring)
		one "$e" randrw $d --fixedbufs=1
		one "$e" randrw $d --registerfiles=1
		one "$e" randrw $d --fixedbufs=1 --registerfiles=1 \
			--filename=e1.dat:e2.dat
		one "$e" randrw $d --sqthread_poll=1
		one "$e" randrw $d --iodepth_batch_submit=2 \
			--iodepth_batch_complete_min=3
		rm -f e1.dat e2.dat ;;
	pthread)
		one "$e" randrw $d --pool_threads=1
		one "$e" randrw $d --pool_threads=3 --iodepth=32 ;;
	libaio)
		one "$e" randrw $d --iodepth_batch_submit=2 \
			--iodepth_batch_complete_min=3
		one "$e" randrw $d --iodepth=32 ;;
	null)
		[ ! -e e.dat ] || die "the null engine created a file" ;;
	esac
	rm -f e.dat
	echo "ok $e: $modes"
done

# ---- data ----
[ "$(getconf PAGESIZE)" -eq 4096 ] ||
	skip "the data checks assume 4 KiB pages (request buffer stride)"

# A reference block: the first 4 KiB of a write of the sync engine.
run --name=ref --filename=ref.dat --size=32k --bs=32k --rw=write
expect_rc 0
[ "$(fsize ref.dat)" -eq $((32 * KiB)) ] || die "ref.dat: $(fsize ref.dat) bytes"

# write_file ENGINE MODE DEPTH DIRECT FILE: a 1 MiB write job
write_file() {
	rm -f "$5"
	run --name=w --filename="$5" --size=1m --bs=4k --iodepth="$3" \
		--ioengine="$1" --rw="$2" --direct="$4" --output-format=json
	[ "$rc" -eq 0 ] || die "$1 rw=$2 iodepth=$3: exit $rc"
	json_is "d['jobs'][0]['write']['io_bytes']" $MiB
	[ "$(fsize "$5")" -eq $MiB ] || die "$5: $(fsize "$5") bytes"
}

for m in write randwrite; do
	write_file sync $m 1 0 sync.$m.dat
	bad=$(blocks_from sync.$m.dat)
	[ "$bad" -eq 0 ] ||
		die "sync rw=$m: $bad blocks are not a write's data, or repeat"
done
for e in $engines; do
	# falloc moves no data (tests/cli/130-falloc.sh checks its blocks)
	case " null falloc filecreate filestat filedelete cpuio exec e4defrag net netsplice io_uring_cmd sg $skipped " in *" $e "*) continue ;; esac
	case $e in
	sync) d=0 ;;
	*) d=$odirect ;;
	esac
	for m in write randwrite; do
		for q in 1 8; do
			write_file "$e" $m $q $d x.dat
			bad=$(blocks_from x.dat)
			[ "$bad" -eq 0 ] ||
				die "$e rw=$m iodepth=$q direct=$d: $bad blocks" \
					"are not a write's data, or repeat"
		done
	done
	o=$((1 - d))
	[ $odirect = 1 ] || o=0
	write_file "$e" randwrite 8 $o x.dat
	bad=$(blocks_from x.dat)
	[ "$bad" -eq 0 ] ||
		die "$e rw=randwrite iodepth=8 direct=$o: $bad blocks are" \
			"not a write's data, or repeat"
	echo "ok $e: data"
done
rm -f x.dat

# A region that is not a multiple of bs is cut to whole blocks
# (tests/cli/04-run.sh): 1 MiB of 1000-byte blocks is 1048 I/Os, for the
# null engine too, which has no file behind it.
for e in sync null; do
	run --name=n --filename=n.dat --ioengine=$e --size=1m --bs=1000 \
		--output-format=json
	expect_rc 0
	got=$(json "(d['jobs'][0]['read']['ios'], d['jobs'][0]['read']['io_bytes'])")
	[ "$got" = "(1048, 1048000)" ] ||
		die "$e, size=1m bs=1000: expected (I/Os, bytes) (1048, 1048000), got $got"
done

[ -z "$skipped" ] || skip "engines that cannot run here:$skipped (the others passed)"
[ $odirect = 1 ] || skip "no O_DIRECT on $T: buffered I/O only (passed)"
exit 0
