#!/bin/sh
# ignore_error= and max_latency=, on tests/faultfs (one file whose reads
# fail with EIO at 64k, EAGAIN at 128k, and take 300 ms at 192k), the
# reads counted from outside by strace (pread64 on the file):
# - ignore_error=EIO: the read list is EIO only (and continue_on_error is
#   on for reads): the EIO is gone on after, the EAGAIN stops the job
#   (the file's reads end at 128k), exit 1, errno 11; fio 3.33 stops at
#   the same read with the same errno;
# - ignore_error=EIO:0xb (a number, hex): both gone on after, every block
#   of the file read (256 preads), two errors counted;
# - ignore_error=,EIO only lists writes: the read EIO stops the job;
# - max_latency=100ms: the 300 ms read fails the job with ETIMEDOUT (110),
#   no read after it; fio 3.33 also ends with 110; max_latency=2s: the job
#   runs to its end; max_latency=100ms with ignore_error=ETIMEDOUT
#   goes on after it (one error counted, every block read);
#   continue_on_error=read alone does not (ETIMEDOUT is not an I/O
#   error, as in fio).
# - a name that is not an errno, or a fourth list: exit 2.
# lane: paced
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "needs strace"
faultfs_mount "$T/r" --size=1m --eio=65536 --eagain=131072 \
	--delay=196608:300
F=r/data

# srun ARGS: iorig under strace; reads = its pread64 calls on F,
# last = the offset of the last one.
srun() {
	strace -f -qq -P "$F" -e trace=pread64 -o "$T/st" "$IORIG" "$@" \
		>"$T/out" 2>"$T/err"
	rc=$?
	reads=$(grep -c 'pread64(' "$T/st")
	last=$(sed -n 's/.*pread64([^,]*, [^,]*, [0-9]*, \([0-9]*\)).*/\1/p' \
		"$T/st" | tail -n 1)
}
job="--name=r --filename=$F --bs=4k --ioengine=sync --output-format=json"

srun $job --ignore_error=EIO
expect_rc 1
json_is "d['jobs'][0]['read']['errors']" 2
json_is "d['jobs'][0]['read']['first_error']['errno']" 5
json_is "d['jobs'][0]['error']['errno']" 11
[ "$last" = 131072 ] || die "reads went on to $last after the EAGAIN"
[ "$reads" = 33 ] || die "$reads reads, expected 33 (up to 128k)"
if command -v fio >/dev/null 2>&1; then
	fio --name=r --filename=$F --bs=4k --ioengine=sync --ignore_error=EIO \
		--output-format=json --output="$T/fio.json" >/dev/null 2>&1
	python3 - "$T/fio.json" <<'PYEOF' || die "fio differs"
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])["jobs"][0]
assert d["error"] == 11, d["error"]
assert d["read"]["total_ios"] == 33, d["read"]["total_ios"]
PYEOF
fi

srun $job --ignore_error=EIO:0xb
expect_rc 1
json_is "d['jobs'][0]['read']['errors']" 2
[ "$reads" = 256 ] || die "$reads reads, expected all 256"

srun $job --ignore_error=,EIO
expect_rc 1
json_is "d['jobs'][0]['error']['errno']" 5
[ "$last" = 65536 ] || die "reads went on to $last after the EIO"

# max_latency: the read at 192k takes 300 ms (from 1m on: no faults)
lat="--name=r --filename=$F --offset=160k --bs=4k --ioengine=sync --output-format=json"
srun $lat --max_latency=100ms
expect_rc 1
json_is "d['jobs'][0]['error']['errno']" 110
expect_in err "read of 4096 bytes at offset 196608 of r/data took [0-9]+ ns, more than max_latency \\(100000000 ns\\)"
[ "$last" = 196608 ] || die "reads went on to $last after the slow one"
if command -v fio >/dev/null 2>&1; then
	fio --name=r --filename=$F --offset=160k --bs=4k --ioengine=sync \
		--max_latency=100ms --output-format=json \
		--output="$T/fio.json" >/dev/null 2>&1
	python3 - "$T/fio.json" <<'PYEOF' || die "fio differs"
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])["jobs"][0]
assert d["error"] == 110, d["error"]
PYEOF
fi
srun $lat --max_latency=2s
expect_rc 0
[ "$reads" = 216 ] || die "$reads reads with max_latency=2s, expected 216"
srun $lat --max_latency=100000 --ignore_error=ETIMEDOUT
expect_rc 1
json_is "d['jobs'][0]['read']['errors']" 1
json_is "d['jobs'][0]['read']['first_error']['errno']" 110
[ "$reads" = 216 ] || die "$reads reads, expected 216 (ETIMEDOUT ignored)"
srun $lat --max_latency=100ms --continue_on_error=read
expect_rc 1
[ "$last" = 196608 ] || die "continue_on_error alone went on to $last"

run --parse-only --name=x --filename=f --size=1m --ignore_error=ENOTANERR
expect_rc 2
expect_in err "ignore_error.*'ENOTANERR': not an errno name"
run --parse-only --name=x --filename=f --size=1m --ignore_error=EIO,EIO,EIO,EIO
expect_rc 2
expect_in err "at most three lists"
echo ok
