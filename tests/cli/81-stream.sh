#!/bin/sh
# --stream=FILE: the interval samples as JSON lines while the run goes on,
# the same as the report's intervals; usage errors before anything runs.
# lane: parallel
. "$(dirname "$0")/lib.sh"

# Two jobs side by side and one after them, two with interval=.
run --ioengine=null --size=64m --time_based --runtime=400ms \
	--name=a --interval=100ms --rw=randrw \
	--name=b --interval=50ms --numjobs=2 \
	--name=quiet \
	--name=later --stonewall --interval=100ms --rw=write \
	--stream=s.jsonl --output-format=json
expect_rc 0
"$PY" - "$T/out" s.jsonl <<'EOF' || die "stream and report differ"
import json, sys
d = json.load(open(sys.argv[1]))
errs = []
lines = open(sys.argv[2]).read().split("\n")
if lines[-1] != "":
    errs.append("the last line is not complete")
got = {}
for n, text in enumerate(lines[:-1]):
    o = json.loads(text)          # one object a line
    if list(o)[:4] != ["job", "clone", "sweep_point", "index"]:
        errs.append("line %d: keys %s" % (n + 1, list(o)))
    got.setdefault((o["job"], o["clone"]), []).append(o)
want = {(j["name"], j["clone"]): j["intervals"] for j in d["jobs"]
        if j["intervals"] is not None}
if set(got) != set(want):
    errs.append("jobs streamed %s, with intervals %s" % (sorted(got), sorted(want)))
for k, iv in want.items():
    s = got.get(k, [])
    if [o["index"] for o in s] != list(range(len(iv))):
        errs.append("%s: indexes %s" % (k, [o["index"] for o in s]))
    for o, r in zip(s, iv):
        body = {x: o[x] for x in o if x not in ("job", "clone", "sweep_point", "index")}
        if body != r:
            errs.append("%s #%d: stream %s != report %s" % (k, o["index"], body, r))
if ("quiet", 0) in got:
    errs.append("a job without interval= was streamed")
if errs:
    print("\n".join(errs[:10]))
    sys.exit(1)
EOF

# The lines come while the run goes on (tail -f): the first one well
# before the end of a 3 s job (at 1000 I/Os a second: a wait, not a busy
# loop). An ended run is a zombie until waited for: running, not kill -0.
"$IORIG" --name=soak --ioengine=null --size=64m --time_based --runtime=3s \
	--rate_iops=1k --interval=100ms --stream=live.jsonl --output-format=json \
	>"$T/out" 2>"$T/err" &
pid=$!
while running $pid && [ ! -s live.jsonl ]; do
	sleep 0.05
done
running $pid || die "no stream line before the run ended"
"$PY" -c 'import json,sys; json.loads(open(sys.argv[1]).readline())' \
	live.jsonl || die "the first line is not JSON"
wait_gone $pid 20
expect_rc 0
json_is "len(d['jobs'][0]['intervals']) == len(open('live.jsonl').readlines())" True

# SIGINT: what was recorded is streamed, the last interval included.
"$IORIG" --name=int --ioengine=null --size=64m --time_based --runtime=30s \
	--interval=100ms --stream=int.jsonl --output-format=json \
	>"$T/out" 2>"$T/err" &
pid=$!
# two intervals streamed (read by the shell: no program per look)
_l=0
while running $pid && [ "$_l" -lt 2 ]; do
	sleep 0.02
	_l=0
	while read -r _x; do _l=$((_l + 1)); done 2>/dev/null <int.jsonl
done
running $pid || die "the run ended before 2 stream lines"
kill -INT $pid
wait_gone $pid 5
expect_rc 130
json_is "len(d['jobs'][0]['intervals']) == len(open('int.jsonl').readlines())" True
json_is "sum(i['read']['ios'] for i in d['jobs'][0]['intervals']) == d['jobs'][0]['read']['ios']" True

# Usage errors, before anything runs or is created.
run --name=x --filename=x.dat --size=1m --stream=none.jsonl
expect_rc 2
expect_in err "none\.jsonl: option 'stream': no job sets interval="
[ ! -e none.jsonl ] && [ ! -e x.dat ] || die "created files on a usage error"
# Never a target: it would be truncated.
mkrand t.dat 1048576
sum0=$(cksum <t.dat)
run --name=x --filename=t.dat --interval=1s --stream=t.dat
expect_rc 2
expect_in err "t\.dat: option 'stream': is a file one of the jobs"
[ "$(cksum <t.dat)" = "$sum0" ] || die "the target was changed"
mkdir sub
run --name=x --filename=t.dat --interval=1s --stream=sub/../t.dat
expect_rc 2
# A target that does not exist yet, by another name.
run --name=x --filename=new.dat --size=1m --interval=1s \
	--stream="$T/sub/../new.dat"
expect_rc 2
[ ! -e new.dat ] || die "created new.dat"
# The same as --output; a directory that does not exist.
run --name=x --ioengine=null --size=1m --interval=1s --stream=o.txt -o o.txt
expect_rc 2
expect_in err "option 'stream': is also --output"
run --name=x --ioengine=null --size=1m --interval=1s --stream=no/such/f
expect_rc 2
expect_in err "no/such/f: option 'stream': cannot open"
run --name=x --ioengine=null --size=1m --interval=1s --stream
expect_rc 2
expect_in err "option 'stream': needs a value"
# --output is never a target either.
run --name=x --filename=t.dat --output=t.dat
expect_rc 2
expect_in err "t\.dat: option 'output': is a file one of the jobs"
[ "$(cksum <t.dat)" = "$sum0" ] || die "--output changed the target"

# A stream that cannot be written: the run is reported, exit 1.
if [ -w /dev/full ]; then
	run --name=x --ioengine=null --size=1m --interval=1s \
		--stream=/dev/full --output-format=json
	expect_rc 1
	expect_in err "writing the stream /dev/full: No space left on device"
	json_is "d['jobs'][0]['read']['ios']" 256
fi
exit 0
