#!/bin/sh
# lockmem= x numjobs (and the other jobs of a wait group) is checked at
# plan time against the memory available (MemAvailable, read here from
# /proc/meminfo as the outside truth): more is refused with exit 2 naming
# the option, the total and the memory available, by --parse-only too,
# before anything is created; the OOM killer ended such a run (137, no
# report). What fits runs, and the kernel counts the locked memory
# (VmLck of /proc/PID/status).
# lane: parallel
. "$(dirname "$0")/lib.sh"

kib=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
avail=$((${kib:-0} * 1024))
[ -n "$avail" ] && [ "$avail" -gt 0 ] || skip "no MemAvailable in /proc/meminfo"
# Each clone locks 30% of what is available: one fits, four do not.
per=$((avail / 10 * 3 / 1048576))
[ "$per" -ge 16 ] || skip "only $avail bytes available"
mkdir d

# --parse-only refuses it: nothing was run (on the old iorig this case
# passed --parse-only, and the run was killed by the OOM killer; the
# test stops here then, before any run).
run --parse-only --name=big --filename=d/f --rw=read --size=1m \
	--lockmem=${per}m --numjobs=4
expect_rc 2
expect_in err "option 'lockmem': .*numjobs=4 = .* locked at once .*more than the memory available \\(.*MemAvailable\\)"
# The total named is 4 x lockmem: a figure in GiB or MiB near it.
"$PY" - "$T/err" "$per" <<'EOF' || die "the total named is not 4 x lockmem"
import re, sys
m = re.search(r"= ([0-9.]+)(KiB|MiB|GiB|TiB) locked", open(sys.argv[1]).read())
v = float(m.group(1)) * {"KiB": 1 / 1024, "MiB": 1, "GiB": 1024,
                         "TiB": 1 << 20}[m.group(2)]
want = 4 * int(sys.argv[2])
assert abs(v - want) <= want * 0.01, (v, want)
EOF
expect_dir_empty d

# A real run: exit 2 at once, nothing created, no report.
t0=$(now_ms)
run --name=big --filename=d/f --rw=read --size=1m --lockmem=${per}m \
	--numjobs=4 --output=o.json --output-format=json
expect_rc 2
[ $(($(now_ms) - t0)) -lt 5000 ] || die "took $(($(now_ms) - t0)) ms to refuse"
expect_dir_empty d
[ ! -e o.json ] || die "--output was made"

# Jobs of one wait group add up: two jobs of two clones each.
run --parse-only --name=a --filename=d/a --rw=read --size=1m \
	--lockmem=${per}m --numjobs=2 \
	--name=b --filename=d/b --rw=read --size=1m --lockmem=${per}m \
	--numjobs=2
expect_rc 2
expect_in err "option 'lockmem': .*\\(with the other jobs of its wait group\\)"
# ...but not across wait groups (one runs after the other).
run --parse-only --name=a --filename=d/a --rw=read --size=1m \
	--lockmem=${per}m \
	--name=b --stonewall --filename=d/b --rw=read --size=1m \
	--lockmem=${per}m
expect_rc 0

# What fits runs, and the kernel counts what the clones lock.
# AddressSanitizer makes mlock() a no-op (its shadow memory): nothing to
# count under it.
[ -z "${IORIG_SAN:-}" ] || { echo "ok (VmLck not checked: mlock is a no-op under ASan)"; exit 0; }
"$IORIG" --name=small --ioengine=null --size=1m --lockmem=16m --numjobs=2 \
	--time_based --runtime=2s >"$T/out" 2>"$T/err" &
pid=$!
lck=0 n=0
while [ $n -lt 30 ]; do
	sleep 0.1
	l=$(awk '/^VmLck:/ { print $2 }' /proc/$pid/status 2>/dev/null)
	[ -n "$l" ] && [ "$l" -gt "$lck" ] && lck=$l
	n=$((n + 1))
done
wait $pid
rc=$?
expect_rc 0
[ "$lck" -ge 32768 ] || die "VmLck was at most $lck kB, expected 2 x 16 MiB"
exit 0
