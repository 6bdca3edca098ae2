#!/bin/sh
# flow=, flow_id=: jobs of one flow keep their I/O counts in the ratio of
# their weights. Counted from outside: strace's pread64 calls on each
# job's file (-y names the file of each fd).
# - flow=3 and flow=1 in flow_id=7: the calls are 3:1 (within 10%), as
#   fio 3.33's on the same job;
# - the same jobs in two flow ids: no longer held to 3:1 (b slowed by a
#   10 ms think time after each read, a runs at its own pace, well over
#   4 times b's: held to b it would be 3 times);
# - flow_sleep=2ms: still 3:1.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

command -v strace >/dev/null 2>&1 || skip "needs strace"
head -c 4194304 /dev/urandom >a.dat
cp a.dat b.dat

# ratio ARGS: the pread64 calls on a.dat over those on b.dat
ratio() {
	strace -f -qq -y -e trace=pread64 -o "$T/st" "$IORIG" \
		--rw=randread --bs=4k --ioengine=sync --runtime=1 \
		--time_based "$@" --output=/dev/null >"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 0
	"$PY" - "$T/st" <<'PYEOF'
import sys
a = b = 0
for line in open(sys.argv[1]):
    if "pread64(" in line and "a.dat>" in line:
        a += 1
    elif "pread64(" in line and "b.dat>" in line:
        b += 1
print("%.3f" % (a / b) if b > 20 else "nan")
PYEOF
}
in_range() {
	"$PY" -c "import sys; sys.exit(not ($2 <= float('$1') <= $3))" ||
		die "$4: ratio $1, expected $2 to $3"
}

r=$(ratio --flow_id=7 --name=a --filename=a.dat --flow=3 \
	--name=b --filename=b.dat --flow=1)
in_range "$r" 2.7 3.3 "flow 3:1"
r=$(ratio --name=a --filename=a.dat --flow=3 --flow_id=1 \
	--name=b --filename=b.dat --flow=1 --flow_id=2 --thinktime=10ms)
in_range "$r" 4 1e9 "two flows"
r=$(ratio --flow_sleep=2ms --name=a --filename=a.dat --flow=3 \
	--name=b --filename=b.dat --flow=1)
in_range "$r" 2.7 3.3 "flow_sleep"
if command -v fio >/dev/null 2>&1; then
	fio --rw=randread --bs=4k --ioengine=sync --runtime=1 --time_based \
		--flow_id=7 --name=a --filename=a.dat --flow=3 --name=b \
		--filename=b.dat --flow=1 --output-format=json \
		--output="$T/fio.json" >/dev/null 2>&1
	"$PY" - "$T/fio.json" <<'PYEOF' || die "fio's flow is not 3:1"
import json, sys
t = open(sys.argv[1]).read()
j = json.loads(t[t.index("{"):])["jobs"]
r = j[0]["read"]["total_ios"] / j[1]["read"]["total_ios"]
assert 2.7 <= r <= 3.3, r
PYEOF
fi
echo ok
