#!/bin/sh
# interval=: per-interval figures in the JSON and text reports. The
# intervals add up exactly to the totals (ios and bytes, per direction),
# for single clones, merged group_reporting units and groups; they are
# contiguous from 0 and the last ends with the runtime; bad values are
# usage errors.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

# check_sums: on $T/out, every unit and group with intervals: sums equal
# totals, latency counts are consistent, the series is contiguous.
check_sums() {
	"$PY" - "$T/out" <<'EOF' || die "interval checks failed"
import json, sys
d = json.load(open(sys.argv[1]))
errs = []
def check(c, what):
    if not c:
        errs.append(what)
n = 0
for u in d["jobs"] + d["groups"]:
    where = "job %s" % u.get("name", "group %s" % u.get("group"))
    iv = u["intervals"]
    if iv is None:
        continue
    n += 1
    check(u["interval_ns"] > 0, where + ": interval_ns")
    for dd in ("read", "write"):
        check(sum(i[dd]["ios"] for i in iv) == u[dd]["ios"],
              "%s: %s ios: intervals %d, total %d" % (where, dd,
              sum(i[dd]["ios"] for i in iv), u[dd]["ios"]))
        check(sum(i[dd]["bytes"] for i in iv) == u[dd]["io_bytes"],
              "%s: %s bytes" % (where, dd))
        for i in iv:
            x = i[dd]
            check(set(x) == {"ios", "bytes", "iops", "bw_bytes",
                             "lat_p50_ns", "lat_p99_ns", "lat_max_ns"},
                  where + ": keys of " + dd)
            if x["ios"]:
                check(0 < x["lat_p50_ns"] <= x["lat_p99_ns"] <=
                      x["lat_max_ns"] <= u[dd]["lat_ns"]["max"],
                      where + ": p50 <= p99 <= max <= job max")
                L = (i["end_ns"] - i["start_ns"]) / 1e9
                if L > 0:
                    check(abs(x["iops"] - x["ios"] / L) <= 1e-6 * x["iops"],
                          where + ": iops = ios / length")
            else:
                check(x["lat_max_ns"] == 0 and x["iops"] == 0,
                      where + ": an empty interval is all 0")
    I = u["interval_ns"]
    for k, i in enumerate(iv):
        if u.get("clone") is not None or len(d["jobs"]) == 1:
            check(i["start_ns"] == k * I, where + ": start of #%d" % k)
        if k + 1 < len(iv):
            check(i["end_ns"] == (k + 1) * I, where + ": end of #%d" % k)
            check(iv[k + 1]["start_ns"] == i["end_ns"], where + ": contiguous")
    if iv and u.get("clone") is not None:
        check(iv[-1]["end_ns"] == u["runtime_ns"],
              "%s: last ends at runtime (%d != %d)" % (where,
              iv[-1]["end_ns"], u["runtime_ns"]))
if not n:
    errs.append("no unit has intervals")
if errs:
    print("\n".join(errs))
    sys.exit(1)
EOF
}

# Each direction on files, and a mix.
mkrand r.dat 4194304
run --name=r --filename=r.dat --rw=read --bs=4k --interval=10ms \
	--output-format=json
expect_rc 0
check_sums
json_is "d['jobs'][0]['interval_ns']" 10000000
json_is "d['jobs'][0]['read']['ios']" 1024
run --name=w --filename=w.dat --size=4m --rw=write --bs=4k --interval=10ms \
	--output-format=json
expect_rc 0
check_sums
json_is "sum(i['write']['ios'] for i in d['jobs'][0]['intervals'])" 1024
run --name=m --filename=r.dat --rw=randrw --bs=4k --interval=50ms \
	--time_based --runtime=300ms --output-format=json
expect_rc 0
check_sums
expect_json "sum(1 for i in d['jobs'][0]['intervals'] if i['read']['ios'] and i['write']['ios']) >= 3" \
	"both directions in the intervals"

# numjobs=2 with group_reporting: the merged unit and the group add up.
run --name=g --ioengine=null --size=64m --bs=4k --rw=randrw --numjobs=2 \
	--group_reporting --interval=50ms --time_based --runtime=400ms \
	--output-format=json
expect_rc 0
check_sums
json_is "d['jobs'][0]['njobs']" 2
json_is "len(d['groups'][0]['intervals']) == len(d['jobs'][0]['intervals'])" True
json_is "d['groups'][0]['interval_ns']" 50000000
# ... and each clone on its own, when not merged.
run --name=c --ioengine=null --size=64m --rw=randrw --numjobs=2 \
	--interval=50ms --time_based --runtime=400ms --output-format=json
expect_rc 0
check_sums
json_is "[j['clone'] for j in d['jobs']]" '[0, 1]'

# time_based: runtime / interval intervals; the last one also holds what
# completed while the job drained after runtime ran out (no sliver of an
# interval after it).
run --name=t --ioengine=null --size=64m --interval=100ms --time_based \
	--runtime=1s --output-format=json
expect_rc 0
check_sums
expect_json "len(d['jobs'][0]['intervals']) == 10" \
	"1s / 100ms intervals, got $(json "len(d['jobs'][0]['intervals'])")"
expect_json "d['jobs'][0]['intervals'][-1]['start_ns'] == 900000000"
expect_json "d['jobs'][0]['intervals'][-1]['end_ns'] == d['jobs'][0]['runtime_ns'] >= 1000000000"
expect_json "sum(1 for i in d['jobs'][0]['intervals'] if i['read']['ios']) >= 8"

# After ramp_time: the intervals cover the measured phase only.
run --name=rt --ioengine=null --size=64m --interval=100ms --time_based \
	--runtime=300ms --ramp_time=200ms --output-format=json
expect_rc 0
check_sums
expect_json "len(d['jobs'][0]['intervals']) == 3"

# Off by default: null and 0; and a job without it next to one with it.
run --name=off --ioengine=null --size=1m --output-format=json
expect_rc 0
json_is "d['jobs'][0]['intervals']" None
json_is "d['jobs'][0]['interval_ns']" 0
json_is "d['groups'][0]['intervals']" None
run --ioengine=null --size=1m --name=on --interval=1s --name=off \
	--output-format=json
expect_rc 0
json_is "[j['intervals'] is None for j in d['jobs']]" '[False, True]'
json_is "len(d['jobs'][0]['intervals'])" 1
# The group mixes them: no merged intervals.
json_is "d['groups'][0]['intervals']" None

# The text report: a table after the job's figures, one row an interval,
# the job's directions only.
run --name=tx --ioengine=null --size=64m --rw=write --interval=100ms \
	--time_based --runtime=500ms
expect_rc 0
expect_in out '^  intervals of 100\.00ms'
expect_in out '^ +time +write IOPS +MB/s +p50 +p99 +max$'
expect_not_in out 'read IOPS'
rows=$(grep -cE '^ +[0-9]+\.[0-9]{3}s +[0-9.]+[kMGT]? +[0-9.]+ ' "$T/out")
[ "$rows" -ge 5 ] && [ "$rows" -le 7 ] || die "expected 5 to 7 interval rows, got $rows"
run --name=tx --ioengine=null --size=1m --rw=randrw --interval=1s
expect_in out '^ +time +read IOPS .* write IOPS '
run --name=tx --ioengine=null --size=1m
expect_not_in out 'intervals of'

# Bad values: exit 2 naming the option, nothing run or created.
for v in 5ms 9ms 9999us 2d 25h 1x -1s abc ''; do
	run --name=b --filename=b.dat --size=1m --interval="$v"
	expect_rc 2
	expect_in err "option 'interval'"
	expect_empty out
	[ ! -e b.dat ] || die "interval=$v: b.dat created"
done
run --name=b --ioengine=null --size=1m --interval=5ms
expect_in err "expected 0 \(off\) or a time from 10ms to 1d"
printf '[global]\nioengine=null\nsize=1m\n[j]\ninterval=1ms\n' >bad.job
run bad.job
expect_rc 2
expect_in err "bad\.job:5: option 'interval': 1ms is out of range"
# The bounds themselves are fine.
run --parse-only --name=b --ioengine=null --interval=10ms
expect_rc 0
expect_in out '^  interval=10ms$'
run --parse-only --name=b --ioengine=null --interval=1d
expect_rc 0
run --cmdhelp=interval
expect_in out 'range: +0 \(off\), or 10ms to 1d'
exit 0
