#!/bin/sh
# thinkcycles=N: after each read or write issued, N spin-wait iterations
# on the CPU. The kernel's figures of the run (user CPU time of the
# child, wall time) grow with N, linearly; the I/O count stays exact and the rate falls.
. "$(dirname "$0")/lib.sh"

head -c 1048576 /dev/urandom >"$T/f"
"$PY" - "$IORIG" "$T" <<'PYEOF' || exit 1
import json, resource, subprocess, sys, time
iorig, T = sys.argv[1], sys.argv[2]

def run1(n, ios=256):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run([iorig, '--name=c', '--filename=%s/f' % T,
                        '--rw=randread', '--bs=4k', '--ioengine=psync',
                        '--size=1m',
                        '--thinkcycles=%d' % n, '--output-format=json'],
                       capture_output=True, text=True)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode:
        sys.exit('thinkcycles=%d: exit %d: %s' % (n, p.returncode, p.stderr))
    d = json.loads(p.stdout)['jobs'][0]['read']
    if d['ios'] != ios:
        sys.exit('thinkcycles=%d: %d reads, expected %d' % (n, d['ios'], ios))
    return r1.ru_utime - r0.ru_utime, wall, d['iops']

# A busy or shared CPU (another VM on the host, a test beside this one)
# adds user time to a run now and then, never takes it away: the least
# of three runs is the spin's cost.
def run(n):
    rs = [run1(n) for _ in range(3)]
    return (min(r[0] for r in rs), min(r[1] for r in rs),
            max(r[2] for r in rs))

u0, w0, i0 = run(0)
# Size N so that the spins take about 0.25 s here (a pause is 3 to 50 ns
# depending on the CPU).
u, w, _ = run(20000)
per = max((u - u0) / (256 * 20000), 1e-10)
n = max(int(0.25 / (256 * per)), 1000)
ua, wa, ia = run(n)
ub, wb, ib = run(2 * n)
print('N=0: user %.3f wall %.3f iops %.0f; N=%d: user %.3f wall %.3f '
      'iops %.0f; N=%d: user %.3f wall %.3f iops %.0f'
      % (u0, w0, i0, n, ua, wa, ia, 2 * n, ub, wb, ib))
da, db = ua - u0, ub - u0
if da < 0.1:
    sys.exit('thinkcycles=%d: %.3f s more user time than 0, expected ~0.25' % (n, da))
# User time on a VM is noisy (+-20% run to run for the same N here);
# the bounds still tell linear growth from none (1.0) or quadratic (4.0).
if not 1.35 < db / da < 2.9:
    sys.exit('user time did not double with N: %.3f then %.3f s' % (da, db))
# the spin is in the run's time (wall grows at least as much)
if (wb - w0) < 0.8 * db:
    sys.exit('wall grew %.3f s, user %.3f s' % (wb - w0, db))
# the rate falls (wall-clock figures: loose, the machine may be busy)
if not ib < ia < 0.5 * i0:
    sys.exit('iops did not fall: %.0f, %.0f, %.0f' % (i0, ia, ib))
PYEOF

# Trims are not followed by a spin (fio spins after reads and writes).
# 4e9 spins per trim would take minutes.
timeout 20 "$IORIG" --name=t --filename="$T/f" --rw=trim --bs=4k \
    --size=1m --thinkcycles=4000000000 >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0
run --name=x --thinkcycles=-1 --ioengine=null --size=4k --parse-only
expect_rc 2
echo ok
