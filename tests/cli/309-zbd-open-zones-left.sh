#!/bin/sh
# zonemode=zbd, max_open_zones=3, zones emulated on a regular file: a job
# that ends with zones open (a random writer over zones 5-7, 1 MiB in
# 64 KiB writes: it leaves all three partly written) does not take the
# open zone limit with it. Another job of the same wait group, a
# sequential writer over zones 0-4 that starts after it (startdelay=1),
# writes all of its io_size=16m: 256 writes, zones 0 and 1 filled from
# their starts in order (its write_iolog), its bytes in the file (the
# pattern over 0-16 MiB, 16-40 MiB untouched), at most 3 zones open by
# its count. fio 3.33 keeps the ended job's zones counted and ends the
# sequential writer at once, no write and no error (DIFFERENCES FROM
# FIO); when Debian's fio is there, its count is said, not judged.
# Then five jobs at max_open_zones=2, 4 MiB zones, ten times: three
# random writers (libaio, iodepth 8) over zones 0-7 with more bytes than
# they hold (zone resets), a sequential one over zones 4-11 (two and a
# half passes) and a small random one over zones 10-15: every job writes
# exactly its io_size, with no error, every time. Before (fc61496), 14
# of 30 such runs had a job short, silently (fio 3.33: 10 of 10, said,
# not judged).
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

have_odirect . || skip "no O_DIRECT on $T's file system"
# global FILE ZONESIZE MAX_OPEN: a job file's [global] section, 64 KiB
# O_DIRECT writes on emulated zones of FILE (made here, 64 MiB).
global() {
	truncate -s 64m "$1"
	printf '[global]\nfilename=%s\ndirect=1\nzonemode=zbd\n' "$T/$1"
	printf 'zonesize=%s\nmax_open_zones=%s\nbs=64k\n' "$2" "$3"
}
# fio_writes JOBFILE DATA: Debian's fio on JOBFILE, DATA made afresh (64
# MiB of zeros): "JOB WRITES" for each of its jobs, on one line.
fio_writes() {
	truncate -s 0 "$2" && truncate -s 64m "$2" &&
		/usr/bin/fio --output-format=json "$1" >"$T/fio.out" \
			2>"$T/fio.err" || return 1
	"$PY" -c "
import json, sys
t = open(sys.argv[1]).read()
J = json.loads(t[t.find('{'):])['jobs']
print(' '.join('%s %d' % (j['jobname'], j['write']['total_ios']) for j in J))
" "$T/fio.out"
}
global z.dat 8m 3 >z.fio
cat >>z.fio <<EOF
[o]
ioengine=psync
offset=40m
size=24m
io_size=1m
rw=randwrite
[x]
ioengine=libaio
iodepth=4
startdelay=1
offset=0
size=40m
io_size=16m
rw=write
buffer_pattern=0x5a5a0f0f
write_iolog=$T/x.log
EOF
run --output-format=json z.fio
expect_rc 0
json_is "[(j['name'], j['write']['ios'], j['write']['io_bytes'], \
j['error']) for j in d['jobs']]" \
	"[('o', 16, 1048576, None), ('x', 256, 16777216, None)]"
json_is "[j['zbd']['max_open_seen'] <= 3 for j in d['jobs']]" "[True, True]"
json_is "[(q['start'] >> 20, q['wp_after']) for q in d['jobs'][1]['zbd'] \
['zones'] if q['wp_after']]" "[(0, 8388608), (8, 8388608)]"

# x's writes, in the order issued: each at the end of the one before,
# from 0 to 16 MiB (the zones' write pointers).
"$PY" - "$T/x.log" <<'PYEOF' || die "x's writes are not 0-16 MiB in order"
import sys
at = n = 0
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) == 5 and f[2] == 'write':
        if int(f[3]) != at:
            sys.exit('write %d at %s, expected %d' % (n, f[3], at))
        at += int(f[4])
        n += 1
print(n, 'writes in order up to', at)
sys.exit(at != 16 << 20 or n != 256)
PYEOF

# The file: the pattern over x's 16 MiB, nothing over the rest of its
# region (zones 2-4).
"$PY" - "$T/z.dat" <<'PYEOF' || die "the file's bytes are not x's"
import sys
b = open(sys.argv[1], 'rb').read()
want = bytes.fromhex('5a5a0f0f') * (4 << 20)
ok = b[:16 << 20] == want and b[16 << 20:40 << 20].count(0) == 24 << 20
print('0-16 MiB the pattern, 16-40 MiB zeros:', ok)
sys.exit(not ok)
PYEOF
echo "ok: a job's open zones left when it ended: the other job wrote its" \
	"16 MiB, in order, from zone 0"

if [ -x /usr/bin/fio ]; then
	n=$(fio_writes z.fio z.dat) || die "fio: $(cat "$T/fio.err")"
	echo "note: fio 3.33's writes on the same job file: $n"
fi

# 2. Five jobs, zone resets, two open zones at most: every job's bytes.
global m.dat 4m 2 >m.fio
cat >>m.fio <<EOF
[a]
ioengine=libaio
iodepth=8
offset=0
size=32m
io_size=24m
rw=randwrite
numjobs=3
[b]
ioengine=libaio
iodepth=8
offset=16m
size=32m
io_size=40m
rw=write
[c]
ioengine=psync
offset=40m
size=24m
io_size=2m
rw=randwrite
EOF
want="[('a', 384, None), ('a', 384, None), ('a', 384, None), \
('b', 640, None), ('c', 32, None)]"
for i in 1 2 3 4 5 6 7 8 9 10; do
	run --output-format=json m.fio
	expect_rc 0
	json_is "[(j['name'], j['write']['ios'], j['error']) for j in d['jobs']]" \
		"$want"
done
echo "ok: five jobs, two open zones at most, ten runs: every job wrote" \
	"its io_size"
if [ -x /usr/bin/fio ]; then
	short=0
	for i in 1 2 3; do
		n=$(fio_writes m.fio m.dat) || die "fio: $(cat "$T/fio.err")"
		[ "$n" = "a 384 a 384 a 384 b 640 c 32" ] || short=$((short + 1))
	done
	echo "note: fio 3.33 on the same job file: a job short in $short of 3 runs"
fi
