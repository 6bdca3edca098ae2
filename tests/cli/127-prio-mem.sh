#!/bin/sh
# nice=, prio=, prioclass= and the memory of the I/O buffers (mem=/iomem=,
# mem_align=, lockmem=), checked from outside: the kernel's view of the
# running worker thread (/proc/PID/task/TID/stat, ioprio_get), the system
# calls (strace), fio's own calls and log field on the same job.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null || skip "no strace"

# The worker thread's nice and ioprio while it runs, as the kernel says:
# read every 50 ms until a thread shows them or the run (3 s at 1000 I/Os
# a second, a wait, not a busy loop) ends; the main thread's line first.
"$IORIG" --name=p --ioengine=null --size=1m --time_based --runtime=3s \
	--rate_iops=1k --nice=7 --prio=5 --prioclass=2 >/dev/null 2>"$T/err" &
pid=$!
"$PY" - "$pid" >"$T/out" <<'PYEOF' || die "reading the threads of $pid"
import ctypes, os, sys, time
pid = sys.argv[1]
libc = ctypes.CDLL(None, use_errno=True)
SYS_ioprio_get = 252  # x86_64
def running():
    stat = open('/proc/%s/stat' % pid).read()
    return stat[stat.rindex(')') + 2] not in 'ZX'
def threads():
    rows = []
    for tid in os.listdir('/proc/%s/task' % pid):
        try:
            stat = open('/proc/%s/task/%s/stat' % (pid, tid)).read()
        except OSError:
            continue
        nice = int(stat[stat.rindex(')') + 2:].split()[16])
        prio = libc.syscall(SYS_ioprio_get, 1, int(tid))
        rows.append((tid != pid, tid, nice, '%d/%d' % (prio >> 13, prio & 7)))
    return sorted(rows)
rows = []
try:
    while True:
        rows = threads()
        if any(r[2:] == (7, '2/5') for r in rows) or not running():
            break
        time.sleep(0.05)
except OSError:
    pass  # the run ended first: the last rows read are the answer
for r in rows:
    print(*r[1:])
PYEOF
wait $pid || die "the job failed: $(cat "$T/err")"
[ "$(uname -m)" = x86_64 ] || skip "ioprio_get number is x86_64's"
grep -q ' 7 2/5$' "$T/out" || die "no thread with nice 7 and best-effort level 5"
# The main thread is left as it was.
head -1 "$T/out" | grep -q "^$pid " || die "no main thread ($pid) read"
head -1 "$T/out" | grep -q ' 7 ' && die "the main thread was reniced"

# The same calls as fio 3.33 on the same job (class best-effort when only
# the level is given).
strace -f -qq -e trace=ioprio_set,setpriority -o "$T/s.iorig" \
	"$IORIG" --name=p --ioengine=null --size=64k --prio=4 --nice=3 \
	>/dev/null 2>&1 || die "iorig failed under strace"
sed 's/  */ /g' "$T/s.iorig" >"$T/s.norm"
grep -q 'ioprio_set(IOPRIO_WHO_PROCESS, 0, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4)) = 0' \
	"$T/s.norm" || die "no ioprio_set(BE, 4): $(cat "$T/s.iorig")"
grep -q 'setpriority(PRIO_PROCESS, 0, 3) = 0' "$T/s.norm" ||
	die "no setpriority(3): $(cat "$T/s.iorig")"
# An increment, as fio's nice(3): under nice -n 5 the job runs at 8.
strace -f -qq -e trace=setpriority -o "$T/s.rel" nice -n 5 \
	"$IORIG" --name=p --ioengine=null --size=64k --nice=3 \
	>/dev/null 2>&1 || die "iorig failed under nice -n 5"
grep -Eq 'setpriority\(PRIO_PROCESS, 0, 8\) += 0' "$T/s.rel" ||
	die "nice=3 under nice -n 5: not 8: $(cat "$T/s.rel")"
if command -v fio >/dev/null; then
	strace -f -qq -e trace=setpriority -o "$T/s.frel" nice -n 5 \
		fio --name=p --ioengine=null --size=64k --nice=3 \
		>/dev/null 2>&1 || die "fio failed under nice -n 5"
	grep -Eq 'setpriority\(PRIO_PROCESS, 0, 8\) += 0' "$T/s.frel" ||
		die "fio's nice=3 under nice -n 5 is not 8: $(cat "$T/s.frel")"
fi
if command -v fio >/dev/null; then
	strace -f -qq -e trace=ioprio_set,setpriority -o "$T/s.fio" \
		fio --name=p --ioengine=null --size=64k --prio=4 --nice=3 \
		>/dev/null 2>&1 || die "fio failed"
	for f in s.iorig s.fio; do
		sed 's/^[0-9]* *//; s/  */ /g' "$T/$f" | grep -E '^(ioprio_set|setpriority)' |
			sort >"$T/$f.calls"
	done
	cmp -s "$T/s.iorig.calls" "$T/s.fio.calls" ||
		die "calls differ from fio's: $(cat "$T/s.iorig.calls" "$T/s.fio.calls")"
	# log_prio: the last field of each lat log line, as fio writes it.
	for lp in 0 1; do
		fio --name=p --ioengine=null --size=8k --prio=4 --prioclass=1 \
			--write_lat_log=f --log_prio=$lp >/dev/null 2>&1
		run --name=p --ioengine=null --size=8k --prio=4 --prioclass=1 \
			--write_lat_log=i --log_prio=$lp
		expect_rc 0
		a=$(awk -F', ' '{print $NF}' f_lat.1.log | sort -u)
		b=$(awk -F', ' '{print $NF}' i_lat.1.log | sort -u)
		[ -n "$a" ] && [ "$a" = "$b" ] ||
			die "log_prio=$lp: fio logs '$a', iorig '$b'"
	done
fi

# Out of range: refused before anything runs.
run --name=p --ioengine=null --size=64k --nice=20
expect_rc 2
expect_in err "option 'nice': expected a whole number from -20 to 19"
run --name=p --ioengine=null --size=64k --prioclass=4
expect_rc 2
run --name=p --ioengine=null --size=64k --mem=cudamalloc
expect_rc 2
expect_in err "option 'mem': cudamalloc"
run --name=p --ioengine=null --size=64k --mem=shm:/x
expect_rc 2

# mem=shm: the reads land in the shared segment shmat gave.
head -c 262144 /dev/urandom >d.dat
strace -f -qq -e trace=shmget,shmat,pread64,mlock -e raw=pread64 -o "$T/s.shm" \
	"$IORIG" --name=m --filename=d.dat --rw=randread --bs=4k \
	--iodepth=1 --mem=shm --lockmem=1m --number_ios=8 >/dev/null 2>&1 ||
	die "mem=shm failed"
# (AddressSanitizer's mlock does not reach the kernel: not checked there.)
"$PY" - "$T/s.shm" "${IORIG_SAN:-}" <<'PYEOF' || die "mem=shm: $(cat "$T/s.shm")"
import re, sys
t = open(sys.argv[1]).read()
at = int(re.search(r'shmat\(\d+, NULL, 0\)\s*= (0x[0-9a-f]+)', t).group(1), 16)
addrs = [int(a, 16) for a in re.findall(r'pread64\(0x[0-9a-f]+, (0x[0-9a-f]+), 0x1000,', t)]
assert addrs, 'no pread64 with a buffer address (strace -X?)'
assert all(at <= a < at + 4096 for a in addrs), (hex(at), [hex(a) for a in addrs])
assert sys.argv[2] or re.search(r'mlock\(0x[0-9a-f]+, 1048576\)\s*= 0', t), 'no mlock of 1 MiB'
PYEOF

# mem_align=64k (malloc): every run's buffer starts on a 64 KiB boundary.
strace -f -qq -e trace=pread64 -e raw=pread64 -o "$T/s.al" \
	"$IORIG" --name=a --filename=d.dat --rw=read --bs=4k --iomem_align=64k \
	--number_ios=4 >/dev/null 2>&1 || die "mem_align failed"
"$PY" - "$T/s.al" <<'PYEOF' || die "mem_align: $(cat "$T/s.al")"
import re, sys
a = [int(x, 16) for x in re.findall(r'pread64\(0x[0-9a-f]+, (0x[0-9a-f]+), 0x1000,', open(sys.argv[1]).read())]
assert len(a) == 4 and all(x % 65536 == 0 for x in a), [hex(x) for x in a]
PYEOF

# mem=mmap:FILE: an existing file is used, never shortened nor removed;
# the data read is the target's.
head -c 1048576 /dev/zero >big.map
run --name=f --filename=d.dat --rw=read --bs=4k --mem=mmap:big.map \
	--verify=0 --output-format=json
expect_rc 0
[ "$(fsize big.map)" -eq 1048576 ] || die "mem=mmap: big.map changed size"
# A file made for it is gone afterwards.
run --name=f --filename=d.dat --rw=read --bs=4k --mem=mmapshared:new.map
expect_rc 0
[ ! -e new.map ] || die "mem=mmapshared: new.map left behind"

# numa_mem_policy, numa_cpu_nodes: the worker thread's policy as the
# kernel shows it (/proc/PID/task/TID/numa_maps falls back to the thread's
# policy) and its CPUs (Cpus_allowed_list); the main thread's unchanged.
if [ -r /sys/devices/system/node/node0/cpulist ]; then
	cpus=$(cat /sys/devices/system/node/node0/cpulist)
	"$IORIG" --name=n --ioengine=null --size=1g --time_based --runtime=3s \
		--rate_iops=1k --numa_mem_policy=interleave:0 \
		--numa_cpu_nodes=0 >/dev/null 2>"$T/err" &
	pid=$!
	# every 50 ms until the worker shows it or the run ends
	pol= main=
	while [ -z "$pol" ] && running $pid; do
		sleep 0.05
		for t in /proc/$pid/task/*; do
			p=$(head -1 "$t/numa_maps" 2>/dev/null | awk '{ print $2 }')
			c=$(awk '/^Cpus_allowed_list/ { print $2 }' \
				"$t/status" 2>/dev/null)
			[ "${t##*/}" = "$pid" ] && [ -n "$p" ] && main=$p
			[ "$p" = interleave:0 ] && [ "$c" = "$cpus" ] && pol=yes
		done
	done
	wait $pid || die "numa job failed: $(cat "$T/err")"
	[ "$pol" = yes ] || die "no thread with interleave:0 on CPUs $cpus"
	[ "$main" = default ] || die "the main thread's policy is $main"
	run --name=n --ioengine=null --size=1m --numa_mem_policy=prefer:0-1
	expect_rc 2
	expect_in err "option 'numa_mem_policy': expected default, local"
	run --name=n --ioengine=null --size=1m --numa_cpu_nodes=64
	expect_rc 2
fi
