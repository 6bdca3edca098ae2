#!/bin/sh
# fio 3.33's soft-deprecated options (verifysort, verifysort_nr,
# flow_watermark) are accepted, as fio accepts them, with a warning and no
# effect: the pread64/pwrite64 calls strace sees on a verify job are the
# same with them as without; so is experimental_verify (fio's other way to
# find the blocks to check). Options of later fios that fio 3.33 refuses
# (verify_mode, verify_policy, verify_header_seed, verify_pattern_interval,
# verify_write_sequence) are refused too, exit 2, saying so; fio 3.33 is
# asked the same when it is here.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "needs strace"
head -c 262144 /dev/urandom >f.dat

job="--name=v --filename=f.dat --size=256k --bs=4k --rw=randwrite --verify=crc32c --ioengine=sync"
trace() {
	strace -f -qq -P "$T/f.dat" -e trace=pread64,pwrite64 -o "$T/st" \
		"$IORIG" $job "$@" --output-format=json >"$T/out" 2>"$T/err"
	rc=$?
	sed -n 's/^[0-9]* *\(p[a-z0-9]*(\)[0-9]*, [^,]*, \(.*\)/\1\2/p' "$T/st"
}
trace >plain.calls
expect_rc 0
trace --verifysort=1 --verifysort_nr=1024 --flow_watermark=4 >dep.calls
expect_rc 0
expect_in err "warning: .*verifysort is deprecated in fio"
json_is "[w['code'] for w in d['warnings']].count('fio_deprecated')" 1
[ "$(wc -l <plain.calls)" -ge 128 ] || die "too few calls: $(wc -l <plain.calls)"
cmp -s plain.calls dep.calls || die "the deprecated options changed the I/O"
# experimental_verify: fio's other way to the same checks
trace --experimental_verify=1 >exp.calls
expect_rc 0
json_is "[w['code'] for w in d['warnings']].count('experimental_verify')" 1
json_is "d['jobs'][0]['verify']['blocks_checked'] > 0" True
cmp -s plain.calls exp.calls || die "experimental_verify changed the I/O"

for o in verify_mode=x verify_policy=x verify_header_seed=1 \
	verify_pattern_interval=4k verify_write_sequence=1; do
	run --parse-only --name=x --filename=f.dat --$o
	expect_rc 2
	expect_in err "option '${o%%=*}': not an option of fio 3.33"
done
if command -v fio >/dev/null 2>&1; then
	# one run of fio, a job each
	fj=
	for o in verifysort=1 verifysort_nr=1 flow_watermark=1; do
		fj="$fj --name=x --filename=f.dat --size=64k --$o"
	done
	fio --parse-only $fj >/dev/null 2>&1 ||
		die "fio 3.33 refuses one of $fj"
	for o in verify_mode=x verify_write_sequence=1; do
		! fio --name=x --filename=f.dat --size=64k --$o --parse-only \
			>/dev/null 2>&1 || die "fio accepts $o"
	done
fi
echo ok
