#!/bin/sh
# Where slat ends, per engine, against outside truth.
#
# Every engine at QD1 on a loop device with IORIG_IO_TRACE (one line per
# I/O: the three stamps and the three latencies): per I/O, t_queue <=
# t_submit <= t_done and slat + clat = lat exactly; the report's counts,
# minimums, maximums and means are those of the trace. Under strace -T,
# I/O k is submitted by the k-th submitting system call (QD1), and:
#   libaio, io_uring: slat_k >= the duration strace saw for the k-th
#     io_submit / io_uring_enter that submitted (slat covers the call;
#     before the fix slat ended before the call and was ~100 ns);
#   sync, pthread: clat_k >= the k-th pread64 (the call is the I/O).
# Then libaio buffered reads, which the kernel does inside io_submit: every
# completion is in the ring when io_submit returns, so every clat is 0 and
# slat = lat (fio's clat there is the time until it looks: ~100 ns).
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

loop_disk disk.img 8
N=150
have_strace=1
strace_works || have_strace=0
[ $have_strace = 1 ] || echo "note: no working strace: checking the trace only"

# check ENGINE CALL JSON TRACE [STRACE]
check() {
	"$PY" - "$@" <<'EOF' || die "$1: see above"
import json, re, sys
eng, call, jpath, tpath = sys.argv[1:5]
spath = sys.argv[5] if len(sys.argv) > 5 else None
d = json.load(open(jpath))
r = d["jobs"][0]["read"]
rows = []
for line in open(tpath):
    if line.startswith("#"):
        continue
    f = line.split()
    assert f[9] == "measured", line
    q, s, t, sl, cl, la = map(int, f[3:9])
    rows.append((q, s, t, sl, cl, la))
def fail(msg):
    print(f"{eng}: {msg}")
    sys.exit(1)
if len(rows) != r["ios"]:
    fail(f"{len(rows)} trace lines, report says {r['ios']} I/Os")
for q, s, t, sl, cl, la in rows:
    if sl + cl != la:
        fail(f"slat {sl} + clat {cl} != lat {la}")
    if s and not q <= s <= t:
        fail(f"stamps out of order: {q} {s} {t}")
    if not s and (sl or cl != la):
        fail(f"no t_submit but slat {sl}, clat {cl}, lat {la}")
def agree(key, vals):
    h = r[key]
    if not vals:
        if h["mean"] not in (0, 0.0):
            fail(f"{key} mean {h['mean']} with no samples")
        return
    mean = sum(vals) / len(vals)
    if (h["min"], h["max"]) != (min(vals), max(vals)) or \
       abs(h["mean"] - mean) > 1e-6 * max(mean, 1) + 0.01:
        fail(f"{key} min/max/mean {h['min']}/{h['max']}/{h['mean']} != "
             f"trace {min(vals)}/{max(vals)}/{mean}")
submit = [row for row in rows if row[1]]
done_in_call = sum(1 for row in submit if row[1] == row[2])
if r["submit_done_ios"] != done_in_call:
    fail(f"submit_done_ios {r['submit_done_ios']}, trace {done_in_call}")
agree("slat_ns", [row[3] for row in submit])
agree("clat_ns", [row[4] for row in rows])
agree("lat_ns", [row[5] for row in rows])
if eng in ("libaio", "io_uring", "pthread") and len(submit) != len(rows):
    fail("I/Os without t_submit")
if eng in ("sync", "null") and submit:
    fail("t_submit recorded by an engine without a submit step")
if not spath:
    sys.exit(0)
durs = []
for line in open(spath):
    m = re.search(call + r"\(([0-9a-fx]+), (\d+|\".*), .* <([\d.]+)>$",
                  line.rstrip())
    if not m:
        continue
    if call == "io_uring_enter" and int(m.group(2)) == 0:
        continue  # a call that only waits
    if call == "pread64" and ", 4096, " not in line:
        continue  # not an I/O of the job (the dynamic linker)
    durs.append(int(float(m.group(3)) * 1e9))
if len(durs) != len(rows):
    fail(f"{len(durs)} {call} calls under strace for {len(rows)} I/Os")
col = 3 if eng in ("libaio", "io_uring") else 4
tol = 2000  # strace prints whole microseconds
short = [(k, rows[k][col], durs[k]) for k in range(len(rows))
         if rows[k][col] + tol < durs[k]]
if short:
    k, v, dur = short[0]
    fail(f"{len(short)} I/Os whose {'slat' if col == 3 else 'clat'} is "
         f"shorter than their {call} (I/O {k}: {v} ns, call {dur} ns)")
m_lat = sum(row[col] for row in rows) / len(rows)
m_call = sum(durs) / len(durs)
print(f"ok {eng}: {len(rows)} I/Os, mean {'slat' if col == 3 else 'clat'} "
      f"{m_lat:.0f} ns >= mean {call} {m_call:.0f} ns (strace -T)")
EOF
}

for e in sync pthread libaio io_uring null; do
	case $e in
	libaio) call=io_submit ;;
	io_uring) call=io_uring_enter ;;
	null) call= ;;
	*) call=pread64 ;;
	esac
	set -- --name=s --filename="$dev" --rw=randread --bs=4k --size=4m \
		--number_ios=$N --iodepth=1 --direct=1 --ioengine=$e \
		--output-format=json --output="$T/$e.json"
	if [ "$e" = null ]; then
		set -- --name=s --rw=randread --bs=4k --size=4m \
			--number_ios=$N --ioengine=null --output-format=json \
			--output="$T/$e.json"
	fi
	rm -f "$T"/tr.*
	if [ $have_strace = 1 ] && [ -n "$call" ]; then
		IORIG_IO_TRACE="$T/tr" strace -f -T -e trace=$call \
			-o "$T/st" "$IORIG" "$@" >"$T/out" 2>"$T/err"
		rc=$?
	else
		IORIG_IO_TRACE="$T/tr" "$IORIG" "$@" >"$T/out" 2>"$T/err"
		rc=$?
	fi
	if [ "$rc" -ne 0 ] && grep -q "setting up engine $e" "$T/err"; then
		echo "note: engine $e cannot run here"
		continue
	fi
	expect_rc 0
	[ -s "$T/tr.s.0" ] || die "$e: IORIG_IO_TRACE wrote no $T/tr.s.0"
	if [ $have_strace = 1 ] && [ -n "$call" ]; then
		check $e $call "$T/$e.json" "$T/tr.s.0" "$T/st"
	else
		check $e "$call" "$T/$e.json" "$T/tr.s.0"
		echo "ok $e: per-I/O identities"
	fi
done

# Buffered libaio: the read is done inside io_submit.
rm -f "$T"/tr.*
IORIG_IO_TRACE="$T/tr" "$IORIG" --name=s --filename="$dev" --rw=randread \
	--bs=4k --size=4m --number_ios=400 --iodepth=8 --direct=0 \
	--ioengine=libaio --output-format=json >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -ne 0 ] && grep -q "setting up engine libaio" "$T/err"; then
	echo "note: libaio cannot run here"
	exit 0
fi
expect_rc 0
json_is "d['jobs'][0]['read']['ios']" 400
json_is "d['jobs'][0]['read']['clat_ns']['max']" 0
json_is "d['jobs'][0]['read']['submit_done_ios']" 400
expect_json "d['jobs'][0]['read']['slat_ns']['min'] > 0" \
	"slat covers io_submit, which did the read"
expect_json "d['jobs'][0]['read']['slat_ns']['mean'] == d['jobs'][0]['read']['lat_ns']['mean']"
check libaio io_submit "$T/out" "$T/tr.s.0"
echo "ok libaio buffered: 400 reads done inside io_submit, clat 0, slat = lat"
