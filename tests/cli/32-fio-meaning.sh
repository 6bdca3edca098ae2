#!/bin/sh
# What iorig was stricter about than fio now runs with fio's meaning, on
# the same job file given to both tools (fio is the outside truth):
# size=100%%, bs=16Ki, verify=0, time_based without runtime (a warning;
# the job runs to its size), nrfiles beside filename (a warning; the files
# filename names are used). What fio misreads silently stays an error:
# 1.5m (fio: 1 byte), Ki under kb_base=1000 (fio: 16000).
# lane: parallel
. "$(dirname "$0")/lib.sh"

FIO=${FIO:-fio}
command -v "$FIO" >/dev/null 2>&1 || skip "no fio to compare with"

MiB=1048576
head -c $MiB /dev/urandom >a.dat || die "a.dat"
head -c $MiB /dev/urandom >b.dat || die "b.dat"
cat >job.fio <<'JOB'
[j]
filename=a.dat:b.dat
nrfiles=4
rw=read
bs=16Ki
size=100%%
verify=0
time_based
JOB
"$FIO" --output-format=json --output=fio.json job.fio >fio.out 2>&1 ||
	die "fio failed: $(cat fio.out)"
# fio writes its warning into the report: the JSON starts at the first '{'.
sed -n '/^{/,$p' fio.json >fio2.json
grep -q 'time_based requires a runtime' fio.json fio.out ||
	die "fio no longer warns about time_based without runtime"
run --output-format=fio-json job.fio
expect_rc 0
expect_in err "warning: .*time_based without runtime= is ignored"
expect_in err "warning: .*nrfiles=4 is ignored.*names the files \(2\)"
for k in io_bytes total_ios; do
	f=$(jsonf fio2.json "d['jobs'][0]['read']['$k']")
	i=$(json "d['jobs'][0]['read']['$k']")
	[ "$f" = "$i" ] || die "read $k: fio $f, iorig $i"
done
# 2 files of 1MiB in 16KiB blocks, once (time_based dropped).
[ "$i" = 128 ] || die "expected 128 I/Os, got $i"

# crc32c-intel is fio's CRC-32C; verify=0 is none.
run --parse-only --name=v --rw=write --size=64k --verify=crc32c-intel
expect_rc 0
expect_in out '^  verify=crc32c$'
run --parse-only --name=v --rw=write --size=64k --verify=0
expect_rc 0
expect_in out '^  verify=none$'

# A decimal verify_pattern is its int's bytes, lowest first (fio's
# reading): 258 writes 02 01 after each block's header.
run --name=p --filename=p.dat --rw=write --bs=4k --size=64k --verify=pattern \
	--verify_pattern=258 --do_verify=1
expect_rc 0
n=$(od -An -tx1 -v p.dat | tr -s ' \n' '  ' | grep -o '02 01' | wc -l)
[ "$n" -gt 16000 ] || die "expected the bytes 02 01 repeated, found $n pairs"

# What fio misreads is refused, with why.
run --parse-only --name=m --size=1.5m
expect_rc 2
expect_in err "option 'size': '1\.5m': fio reads .*1536k"
run --parse-only --kb_base=1000 --name=m --bs=16Ki
expect_rc 2
expect_in err "option 'bs': .*'Ki', a power of 1000 in fio.*KiB"
run --parse-only --name=m --bs=16Ki --size=1Mi
expect_rc 0
expect_in out '^  bs=16384$'
expect_in out '^  size=1048576$'

# Arithmetic: fio reads a value as the number it begins with and drops
# the rest (size=4k*2 is 4 KiB, bsrange=512/25:1k is 512-1k), unless it
# put $pagesize, $ncpus or $mb_memory in it: then bc computes the whole
# value. The same job files given to fio show what it moves.
ps=$(getconf PAGESIZE)
io_bytes() {
	printf '[j]\nioengine=null\nrw=read\nbs=512\nsize=%s\n' "$1" >ar.fio
	"$FIO" --output-format=json ar.fio 2>/dev/null | sed -n '/^{/,$p' |
		"$PY" -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["read"]["io_bytes"])'
}
[ "$(io_bytes '4k*2')" = 4096 ] || die "fio no longer reads 4k*2 as 4k"
[ "$(io_bytes '$pagesize*2')" = $((ps * 2)) ] ||
	die "fio no longer computes \$pagesize*2"
cp ar.fio ar-calc.fio
printf '[j]\nioengine=null\nrw=read\nbs=512\nsize=%s\n' '4k*2' >ar.fio
run --parse-only ar.fio
expect_rc 2
expect_in err "ar\.fio:5: option 'size': '4k\*2': fio reads the number before '\*' alone \(4k\)"
run --parse-only ar-calc.fio
expect_rc 0
expect_in out "^  size=$((ps * 2))\$"
for v in '1+2' '512/25'; do
	run --parse-only --name=m "--size=$v"
	expect_rc 2
	expect_in err "option 'size': .*fio reads the number before"
done
run --parse-only --name=m --size=1m '--bsrange=512/25:1k:25:2k:25:4k/25'
expect_rc 2
expect_in err "option 'bsrange': .*fio reads the number before '/' alone \(512\)"
# In parentheses (which fio 3.33 as Debian builds it refuses) and in
# iorig's own options the arithmetic stands.
run --parse-only --name=m '--size=(4k*2)' '--interval=1s+500ms'
expect_rc 0
expect_in out '^  size=8192$'
exit 0
