#!/bin/sh
# The size of a job comes from filesize= when size= is absent, as in fio,
# also on the null engine, whose files are planned as files that do not
# exist yet (fio 3.33's t0019-t0024 and t/log_compression.py: ioengine=null,
# filesize=1M, no size=, moved the 1 MiB once in fio and never stopped in
# iorig). filesize= is each file's size, its region running from offset
# to it. Outside truths: Debian's fio on the same jobs (bytes moved, I/Os,
# lines of the bandwidth log), sizes stat gives, the bytes strace sees
# written.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null 2>&1 || skip "no fio to compare with"
mkdir -p bin
ln -s "$IORIG" bin/fio

# both ARGS...: the job by fio and by iorig invoked as fio, in fio's JSON;
# prints "FIO IORIG" (read + write bytes, then I/Os) for each.
bytes() {
	jsonf "$1" "sum(d['jobs'][0][k]['io_bytes'] for k in ('read','write','trim'))"
	jsonf "$1" "sum(d['jobs'][0][k]['total_ios'] for k in ('read','write','trim'))"
}
both() {
	fio --output-format=json --output=fio.json "$@" >/dev/null 2>fio.err ||
		die "fio failed on $*: $(cat fio.err)"
	timeout 20 bin/fio --output-format=json --output=iorig.json "$@" \
		>"$T/out" 2>"$T/err" || die "iorig as fio: exit $? on $*"
	want=$(bytes fio.json | tr '\n' ' ')
	got=$(bytes iorig.json | tr '\n' ' ')
	[ "$want" = "$got" ] ||
		die "$*: fio moved (bytes I/Os) $want, iorig $got"
}

# ---- fio's t0019: filesize=1M, no size=, a bandwidth log of every I/O
cat >t19.fio <<'EOF'
[test]
ioengine=null
filesize=1M
write_bw_log=test
per_job_logs=0
log_offset=1
EOF
mkdir f i
(cd f && fio ../t19.fio >/dev/null 2>&1) || die "fio failed on t0019"
(cd i && timeout 20 ../bin/fio ../t19.fio >/dev/null 2>&1) ||
	die "iorig as fio on t0019: exit $?"
[ "$(wc -l <f/test_bw.log)" -eq 256 ] || die "fio's log: not 256 lines"
[ "$(wc -l <i/test_bw.log)" -eq 256 ] ||
	die "iorig's log: $(wc -l <i/test_bw.log) lines, fio's 256"
# offsets 0, 4096, ... each once, as fio logs them
cut -d, -f5 f/test_bw.log | tr -d ' ' >f.off
cut -d, -f5 i/test_bw.log | tr -d ' ' >i.off
cmp -s f.off i.off || die "the logged offsets differ from fio's"

# ---- bytes and I/Os against fio: filesize, size, nrfiles, offset
for job in "--filesize=1M" "--filesize=1M --nrfiles=3" \
    "--size=1M --nrfiles=3" "--filesize=1M --size=2M --nrfiles=3" \
    "--filesize=1M --size=5M --nrfiles=3" \
    "--nrfiles=2 --filesize=1M --size=10M --offset=512k" \
    "--filesize=1M --offset=256k --rw=randread" \
    "--filesize=1M --io_size=3M --rw=randwrite --bs=8k" \
    "--filesize=256k --loops=3 --rw=trimwrite"; do
	# shellcheck disable=SC2086
	both --name=n --ioengine=null $job
done
# A stray ')' after a number, as fio's t/strided.py writes it.
both --name=n --ioengine=null '--filesize=65536)'

# ---- a null job that nothing ends is refused (fio: "you need to specify
# size="); one bounded by time runs and stops
fio --name=n --ioengine=null >fio.out 2>&1
grep -q "you need to specify size=" fio.out ||
	die "fio ran a null job without size: the test's premise"
expect_refused "option 'size'.*nothing that ends it" --name=n --ioengine=null
[ ! -s "$T/out" ] || die "a refused job printed a report"
run --name=n --ioengine=null --runtime=200ms --output-format=json
expect_rc 0
expect_json "d['jobs'][0]['read']['ios'] > 0"

# ---- a regular file: filesize= is the file's size, offset inside it
fio --name=a --filename=a.f --filesize=1M --offset=256k --rw=write \
	--output-format=json >fio.json 2>/dev/null || die "fio failed"
[ "$(fsize a.f)" -eq 1048576 ] || die "fio made a file of $(fsize a.f)"
[ "$(jsonf fio.json "d['jobs'][0]['write']['io_bytes']")" = 786432 ] ||
	die "fio wrote other than [256k, 1M): the test's premise"
run --name=b --filename=b.f --filesize=1M --offset=256k --rw=write \
	--output-format=json
expect_rc 0
[ "$(fsize b.f)" -eq 1048576 ] ||
	die "filesize=1M offset=256k made a file of $(fsize b.f) bytes"
json_is "d['jobs'][0]['write']['io_bytes']" 786432
if strace_works; then
	rm -f b.f
	strace -f -qq -e trace=pwrite64 -e signal=none -o st.txt "$IORIG" \
		--name=b --filename=b.f --filesize=1M --offset=256k \
		--rw=write --bs=64k >/dev/null 2>&1 || die "iorig under strace"
	"$PY" - st.txt <<'PY' || die "see above"
import re, sys
offs = sorted(int(m.group(1)) for m in
              (re.search(r'pwrite64\(.*, 65536, (\d+)\)', l)
               for l in open(sys.argv[1])) if m)
want = list(range(256 * 1024, 1024 * 1024, 65536))
if offs != want:
    sys.exit("FAILED: writes at %s, expected %s" % (offs, want))
PY
fi
expect_refused "option 'offset'.*no region is left" --name=b \
	--filename=b.f --filesize=1M --offset=1M --rw=write
expect_refused "option 'offset'.*past the end of the file" --name=b \
	--filename=b.f --filesize=1M --offset=2M --rw=write
[ "$(fsize b.f)" -eq 1048576 ] || die "a refused job changed b.f"
exit 0
