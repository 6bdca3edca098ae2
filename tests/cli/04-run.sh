#!/bin/sh
# Running jobs with the sync engine on scratch files: real data laid out,
# the stop conditions (one pass, loops, number_ios, io_size), the random
# map, writes, --output and the text report.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

MiB=1048576

# A read job on a new file lays out real (non-sparse) data.
run --name=r --filename=r.dat --size=4m --bs=64k --rw=read \
	--output-format=json
expect_rc 0
expect_empty err
[ "$(fsize r.dat)" -eq $((4 * MiB)) ] || die "r.dat is $(fsize r.dat) bytes"
blocks=$(stat -c %b r.dat)
[ $((blocks * 512)) -ge $((4 * MiB)) ] ||
	die "r.dat is sparse: $blocks blocks of 512"
[ "$(tr -d '\0' <r.dat | head -c 4096 | wc -c)" -eq 4096 ] ||
	die "r.dat was laid out with zeros"
json_is "d['jobs'][0]['read']['ios']" 64
json_is "d['jobs'][0]['read']['io_bytes']" $((4 * MiB))
json_is "d['jobs'][0]['write']['ios']" 0
json_is "d['jobs'][0]['loops']" 1
json_is "d['jobs'][0]['error']" None

# loops=2 doubles it.
run --name=r --filename=r.dat --size=4m --bs=64k --rw=read --loops=2 \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['ios']" 128
json_is "d['jobs'][0]['read']['io_bytes']" $((8 * MiB))
json_is "d['jobs'][0]['loops']" 2

# number_ios stops at N times loops, never beyond the loops' passes (fio:
# number_ios=300 loops=5 over 256 blocks does 1280 reads; test 242).
run --name=r --filename=r.dat --size=4m --bs=4k --rw=read --number_ios=10 \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['ios']" 10
run --name=r --filename=r.dat --size=1m --bs=4k --rw=read --number_ios=300 \
	--loops=5 --output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['ios']" 1280
run --name=r --filename=r.dat --size=1m --bs=4k --rw=read --number_ios=100 \
	--loops=2 --output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['ios']" 200

# io_size limits the bytes of a loop, below or above the region's size.
run --name=r --filename=r.dat --size=4m --bs=4k --rw=read --io_size=1m \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['io_bytes']" $MiB
json_is "d['jobs'][0]['read']['ios']" 256
run --name=r --filename=r.dat --size=1m --bs=4k --rw=read --io_size=3m \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['io_bytes']" $((3 * MiB))

# size= and offset= as percentages of an existing file.
run --name=r --filename=r.dat --size=50% --bs=4k --output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['io_bytes']" $((2 * MiB))
run --name=r --filename=r.dat --offset=75% --bs=4k --output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['io_bytes']" $MiB
# No size: the whole existing file.
run --name=r --filename=r.dat --bs=4k --output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['io_bytes']" $((4 * MiB))
# A region that is not a multiple of bs is cut to whole blocks.
run --name=r --filename=r.dat --size=1000k --bs=64k --output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['ios']" 15

# randread with the random map: one pass is size/bs I/Os...
run --name=rr --filename=r.dat --size=4m --bs=4k --rw=randread \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['ios']" 1024
json_is "d['jobs'][0]['read']['io_bytes']" $((4 * MiB))

# ...covering every block once: random writes over a file of zeros leave
# no zero block behind (and without the map, some are left).
zero_blocks() {
	"$PY" -c '
import sys
b = open(sys.argv[1], "rb").read()
z = bytes(4096)
print(sum(1 for i in range(0, len(b), 4096) if b[i:i + 4096] == z))' "$1"
}
head -c $((4 * MiB)) /dev/zero >z.dat
run --name=rw --filename=z.dat --size=4m --bs=4k --rw=randwrite \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['write']['ios']" 1024
json_is "d['jobs'][0]['read']['ios']" 0
[ "$(zero_blocks z.dat)" -eq 0 ] || die "randwrite missed $(zero_blocks z.dat) blocks"
head -c $((4 * MiB)) /dev/zero >z.dat
run --name=rw --filename=z.dat --size=4m --bs=4k --rw=randwrite \
	--norandommap=1 --output-format=json
expect_rc 0
json_is "d['jobs'][0]['write']['ios']" 1024
[ "$(zero_blocks z.dat)" -gt 0 ] ||
	die "norandommap=1 still wrote every block once (no repeats drawn)"
# randrepeat: the same seed gives the same sequence: the same blocks are
# written (and left zero). Not the same bytes: each run's writes are its
# own (gen.h, gen_data), so a deduplicating device cannot match them.
# zero_map FILE: which 4 KiB blocks are zero, as 0s and 1s.
zero_map() {
	"$PY" -c '
import sys
b = open(sys.argv[1], "rb").read()
z = bytes(4096)
print("".join("01"[b[i:i + 4096] == z] for i in range(0, len(b), 4096)))' "$1"
}
rm -f z.dat
head -c $((MiB)) /dev/zero >z1.dat
head -c $((MiB)) /dev/zero >z2.dat
run --name=a --filename=z1.dat --rw=randwrite --bs=4k --norandommap=1
expect_rc 0
run --name=a --filename=z2.dat --rw=randwrite --bs=4k --norandommap=1
expect_rc 0
[ "$(zero_map z1.dat)" = "$(zero_map z2.dat)" ] ||
	die "randrepeat=1: two runs wrote different blocks"
cmp -s z1.dat z2.dat && die "two runs wrote the same bytes"
m1=$(zero_map z1.dat)
head -c $((MiB)) /dev/zero >z2.dat
run --name=a --filename=z2.dat --rw=randwrite --bs=4k --norandommap=1 \
	--randseed=99
expect_rc 0
[ "$(zero_map z2.dat)" = "$m1" ] &&
	die "randseed=99 wrote the same blocks as 137"
rm -f z1.dat z2.dat

# Sequential writes on a new file; a mixed job does both directions.
run --name=w --filename=w.dat --size=2m --bs=4k --rw=write \
	--output-format=json
expect_rc 0
[ "$(fsize w.dat)" -eq $((2 * MiB)) ] || die "w.dat is $(fsize w.dat) bytes"
json_is "d['jobs'][0]['write']['ios']" 512
json_is "d['jobs'][0]['write']['io_bytes']" $((2 * MiB))
json_is "d['jobs'][0]['read']['ios']" 0
run --name=m --filename=w.dat --size=2m --bs=4k --rw=randrw --rwmixread=70 \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['ios'] + d['jobs'][0]['write']['ios']" 512
expect_json "250 < d['jobs'][0]['read']['ios'] < 460" "about 70% reads"

# Default file names: NAME.CLONE.FILE, nrfiles splits the size.
run --name=n --size=3m --nrfiles=3 --rw=write --bs=4k --output-format=json
expect_rc 0
for f in n.0.0 n.0.1 n.0.2; do
	[ "$(fsize $f)" -eq $MiB ] || die "$f: expected 1 MiB"
done
json_is "d['jobs'][0]['write']['io_bytes']" $((3 * MiB))

# --output=FILE: the report there, nothing on stdout or stderr.
run --name=o --filename=w.dat --size=1m --bs=4k --output-format=json \
	--output=report.json
expect_rc 0
expect_empty out
expect_empty err
jsonf report.json "d['jobs'][0]['read']['ios']" | grep -qx 256 ||
	die "report.json is not the report"
run -o report.txt --name=o --filename=w.dat --size=1m --bs=4k
expect_rc 0
expect_empty out
expect_empty err
grep -q 'IOPS' report.txt || die "report.txt is not the text report"

# The text report: IOPS, bandwidth, counts, latency percentiles.
run --name=txt --filename=w.dat --size=1m --bs=4k --rw=read
expect_rc 0
expect_empty err
expect_in out '^txt: clone 0, group 0'
expect_in out '^  read +[0-9.]+[kMG]? IOPS +[0-9.]+ [KMG]?i?B/s'
expect_in out '\(1048576 B\), 256 ios'
expect_in out 'clat percentiles'
expect_in out 'p50 +[0-9.]+[num]?s'
expect_in out 'p99\.9 +[0-9.]+[num]?s'
expect_not_in out '^  write'
expect_in out '^group 0: 1 job'
run --name=txt --filename=w.dat --size=1m --bs=4k --rw=read \
	--percentile_list=10:42.5
expect_rc 0
expect_in out 'p42\.5 '
expect_not_in out 'p50 '

# A report that cannot be written is a runtime error.
if [ -w /dev/full ]; then
	"$IORIG" --name=f --ioengine=null --size=1m >/dev/full 2>"$T/err"
	rc=$?
	expect_rc 1
	expect_in err 'writing the report'
fi

# time_based repeats the workload until runtime has passed.
run --name=tb --filename=w.dat --size=256k --bs=4k --time_based \
	--runtime=200ms --output-format=json
expect_rc 0
expect_json "200e6 <= d['jobs'][0]['runtime_ns'] < 700e6" "runtime honoured"
expect_json "d['jobs'][0]['loops'] >= 2" "the region was read again"
# runtime without time_based stops a job that would take longer.
run --name=rt --ioengine=null --size=1t --bs=4k --runtime=200ms \
	--output-format=json
expect_rc 0
expect_json "200e6 <= d['jobs'][0]['runtime_ns'] < 700e6" "runtime honoured"
# startdelay waits before the job starts and is not part of its runtime.
run --name=sd --ioengine=null --size=1m --startdelay=300ms --output-format=json
expect_rc 0
expect_json "d['wall_ns'] >= 300e6" "startdelay waited"
expect_json "d['jobs'][0]['runtime_ns'] < 250e6" "startdelay not measured"

# --section runs only the jobs named.
printf '[global]\nsize=1m\nrw=write\n[one]\nfilename=one.dat\n[two]\nfilename=two.dat\n[three]\nfilename=three.dat\n' >sec.job
run --section=two --section=three --output-format=json sec.job
expect_rc 0
json_is "[j['name'] for j in d['jobs']]" "['two', 'three']"
[ ! -e one.dat ] && [ -e two.dat ] && [ -e three.dat ] ||
	die "--section ran the wrong jobs: $(ls *.dat)"

# The null engine touches no file.
run --name=nul --ioengine=null --size=8m --bs=4k --output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['ios']" 2048
[ ! -e nul.0.0 ] || die "the null engine created a file"
exit 0
