#!/bin/sh
# ioengine=io_uring_cmd (NVMe passthrough) on /dev/ng0n1, namespace 1,
# judged by the controller's own counters (SMART / Health log,
# host_read_commands and host_write_commands): each job moves them by
# exactly the I/Os iorig reports, and Debian's fio 3.33 on the same job
# moves them the same. The ring's variants each once (fixedbufs with
# registerfiles and sqthread_poll with vectored commands, also with fio;
# readfua/writefua, which fio 3.33's io_uring_cmd does not have);
# the bytes written read back through the block device /dev/nvme0n1
# (sha256 of the last job's pattern); trims as Dataset Management (the
# trimmed blocks then read as zeros, QEMU's deallocate); verify= through
# passthrough. Leaves 64-72 MiB of namespace 1 written.
. "$(dirname "$0")/../lib.sh"
need nvme nvme-cli
[ -x /usr/bin/fio ] || skip "no /usr/bin/fio (Debian's fio)"
ng=/dev/ng0n1
blk=$(nvme_ns 1)
[ -c "$ng" ] || die "no $ng"
base="--filename=$ng --ioengine=io_uring_cmd --cmd_type=nvme --offset=64m"

# counts TOOL READS WRITES ARGS...: TOOL's job moves the controller's
# counters by READS and WRITES commands; the I/Os it reports are checked
# with the other jobs' at the end (reports_checked: one python for all).
# The counters after a job are the next job's before, unless something
# else moved them in between (fresh= says so).
fresh=
nc=0
counts() {
	_tool=$1 _r=$2 _w=$3
	shift 3
	[ -n "$fresh" ] || smart_log a
	"$_tool" $base "$@" --output-format=json >"$T/out" 2>"$T/err" ||
		die "${_tool##*/} $*: failed"
	smart_log b
	_dr=$((b_host_read_commands - a_host_read_commands))
	_dw=$((b_host_write_commands - a_host_write_commands))
	a_host_read_commands=$b_host_read_commands
	a_host_write_commands=$b_host_write_commands
	fresh=1
	[ "$_dr $_dw" = "$_r $_w" ] ||
		die "${_tool##*/} $*: host_read_commands +$_dr," \
		    "host_write_commands +$_dw; expected +$_r, +$_w"
	nc=$((nc + 1))
	cp "$T/out" "$T/c$nc.json"
	echo "$T/c$nc.json ${_tool##*/} $_r $_w $*" >>"$T/reports"
	echo "ok: ${_tool##*/} $*: +$_dr reads, +$_dw writes"
}

# reports_checked: each counted job reported the I/Os the controller
# counted: iorig's verification reads are reported apart from the job's.
reports_checked() {
	"$PY" -S - "$T/reports" <<'PYEOF' || die "reported I/Os unlike counted"
import json, sys
bad = 0
for l in open(sys.argv[1]):
    p, tool, r, w, args = l.split(' ', 4)
    t = open(p).read()
    j = json.loads(t[t.find('{'):])['jobs'][0]
    if tool == 'fio':
        got = (j['read']['total_ios'], j['write']['total_ios'])
    else:
        got = (j['read']['ios'] + ((j.get('verify') or {}).get('reads')
                                   or {}).get('ios', 0), j['write']['ios'])
    if got != (int(r), int(w)):
        print('%s %s: reported (reads, writes) %s, counted %s, %s' %
              (tool, args.strip(), got, r, w))
        bad += 1
sys.exit(bad)
PYEOF
	echo "ok: every counted job reported the reads and writes counted"
}

# A job that writes is guarded first: libblkid reads the namespace's
# signatures through the block device, and the kernel drops the device's
# page cache at its last close; the case holds it open (fd 3), so the
# probe reads come from the cache after a first job (its guard's reads
# are said) and the counts are the jobs' own. The reads back below use
# O_DIRECT: that cache does not see what passthrough writes.
exec 3<"$blk"
smart_log a
run $base --name=warm --rw=write --bs=4k --size=64k
expect_rc 0
smart_log b
echo "note: the write guard's probe of $blk read" \
	"$((b_host_read_commands - a_host_read_commands)) times (cold cache)"
a_host_read_commands=$b_host_read_commands
a_host_write_commands=$b_host_write_commands
fresh=1

for tool in "$IORIG" /usr/bin/fio; do
	counts "$tool" 1024 0 --name=r --rw=randread --bs=4k --size=4m \
		--iodepth=8
	counts "$tool" 0 512 --name=w --rw=write --bs=8k --size=4m \
		--iodepth=4 --buffer_pattern=0x5a5a0f0f
done

# The ring's variants, each counted (fio 3.33 too where it has them;
# its io_uring_cmd has no readfua/writefua, which are its sg engine's).
for tool in /usr/bin/fio "$IORIG"; do
	counts "$tool" 0 256 --name=fb --rw=randwrite --bs=16k --size=4m \
		--iodepth=16 --fixedbufs=1 --registerfiles=1 \
		--buffer_pattern=0x5a5a0f0f
done
json_is "sorted(set(d['jobs'][0]['engine_setup']) & {'fixedbufs', \
'registerfiles', 'SQE128', 'CQE32'})" \
	"['CQE32', 'SQE128', 'fixedbufs', 'registerfiles']"
for tool in /usr/bin/fio "$IORIG"; do
	counts "$tool" 512 0 --name=sq --rw=read --bs=8k --size=4m \
		--iodepth=4 --sqthread_poll=1 --nonvectored=0
done
json_is "sorted(set(d['jobs'][0]['engine_setup']) & {'SQPOLL', 'vectored'})" \
	"['SQPOLL', 'vectored']"
counts "$IORIG" 1024 0 --name=fua --rw=read --bs=4k --size=4m --readfua=1
counts "$IORIG" 0 1024 --name=fua --rw=write --bs=4k --size=4m --writefua=1 \
	--buffer_pattern=0x1234abcd

# What was written last (iorig's writefua job, a pattern of its own),
# read through the block device (which moves the counters).
fresh=
"$PY" -S - "$blk" <<'PYEOF' || die "the bytes written through $ng are not on $blk"
import hashlib, mmap, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECT)
buf = mmap.mmap(-1, 4 << 20)
os.preadv(fd, [buf], 64 << 20)
got = bytes(buf)
want = bytes.fromhex("1234abcd") * (1 << 20)
print("sha256 of 64-68 MiB:", hashlib.sha256(got).hexdigest(),
      "expected", hashlib.sha256(want).hexdigest())
sys.exit(got != want)
PYEOF
echo "ok: 4 MiB written through $ng read back through $blk"

# Trims: Dataset Management, deallocate. 8 trims of 64 KiB at 64 MiB,
# counted by iorig; the blocks then read as zeros, the rest unchanged.
run $base --name=t --rw=trim --bs=64k --size=512k --output-format=json
expect_rc 0
json_is "d['jobs'][0]['trim']['ios'], d['jobs'][0]['trim']['errors']" "(8, 0)"
"$PY" -S - "$blk" <<'PYEOF' || die "the trimmed blocks do not read as zeros"
import mmap, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECT)
buf = mmap.mmap(-1, 1 << 20)
os.preadv(fd, [buf], 64 << 20)
got = bytes(buf)
z = sum(1 for i in range(0, 1 << 20, 4096) if got[i:i + 4096] == bytes(4096))
print("blocks of zeros in 64-65 MiB:", z, "first bytes:", got[:8].hex(),
      got[512 << 10:(512 << 10) + 8].hex())
sys.exit(got[:512 << 10] != bytes(512 << 10) or
         got[512 << 10:] != bytes.fromhex("1234abcd") * (128 << 10))
PYEOF
echo "ok: 8 trims of 64 KiB deallocated (zeros after, the rest unchanged)"
# fio 3.33 trims through this engine with BLKDISCARD on the char device.
/usr/bin/fio $base --name=t --rw=trim --bs=64k --size=512k \
	--output-format=json >"$T/fio.out" 2>"$T/fio.err"
echo "note: fio 3.33 on the same trim job: exit $?," \
	"$(jsonf "$T/fio.out" "(d['jobs'][0]['trim']['total_ios'], d['jobs'][0]['error'])" 2>&1 | tail -1)"

# verify= through passthrough: 256 writes, then their 256 checked reads
# (the job's 0 reads and its verification's 256).
counts "$IORIG" 256 256 --name=v --rw=randwrite --bs=4k --size=1m \
	--offset=68m --verify=crc32c --iodepth=4
json_is "d['jobs'][0]['verify']['mismatches']" 0
echo "ok: verify=crc32c: 256 writes and 256 checked reads through $ng"
reports_checked
