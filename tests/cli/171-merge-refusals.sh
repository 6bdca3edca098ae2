#!/bin/sh
# iorig merge refuses what it cannot merge exactly, with exit 2, a message
# naming the files and what differs, and nothing on stdout: results of
# different jobs (rw, bs, job names, job count), a file that is not JSON,
# a truncated result (every cut of a real one), a fio JSON report (from
# fio itself when it is installed), JSON that is not an iorig result,
# histograms whose buckets are not iorig's or do not add up, unknown
# formats, bad checks. Options a member may set for itself (filename,
# size) do not stop a merge.
# lane: parallel
. "$(dirname "$0")/lib.sh"

J="--ioengine=null --size=256k --output-format=json"
res() {	# res FILE ARGS...: a result of ARGS in FILE
	_f=$1
	shift
	run "$@"
	expect_rc 0
	cp "$T/out" "$T/$_f" || die "cp"
}
res a.json --name=a --rw=randread --bs=4k $J
res b.json --name=a --rw=randread --bs=4k $J --size=128k
res rw.json --name=a --rw=randwrite --bs=4k $J
res bs.json --name=a --rw=randread --bs=8k $J
res name.json --name=other --rw=randread --bs=4k $J
res two.json --name=a --rw=randread --bs=4k $J --name=b --rw=randread \
	--ioengine=null --size=256k

# refused FILES... -- REGEX: exit 2, stdout empty, stderr matches REGEX.
refused() {
	_re=$1
	shift
	run merge "$@"
	expect_rc 2
	expect_empty out
	expect_in err "$_re"
}

run merge a.json b.json
expect_rc 0
refused "rw\\.json.*job 'a' differs: rw=randread in a\\.json, rw=randwrite in rw\\.json" a.json rw.json
refused "bs=4096 in a\\.json, bs=8192 in bs\\.json" a.json bs.json
refused "name is \"?a\"? in a\\.json, \"?other\"? in name\\.json" a.json name.json
refused "a\\.json has 1 job\\(s\\), two\\.json has 2" a.json two.json
# The first member is the reference, whichever it is.
refused "b\\.json: option .bs.: job .a. differs: bs=8192 in bs\\.json, bs=4096 in b\\.json" bs.json b.json a.json

# Not JSON, empty, missing, a directory.
echo 'read: iops=5' >text.txt
refused "text\\.txt: not a JSON document" a.json text.txt
: >empty.json
refused "empty\\.json: not a JSON document" empty.json
refused "nosuch\\.json: cannot be read: No such file or directory" nosuch.json
mkdir dir.json
refused "dir\\.json: cannot be read: Is a directory" a.json dir.json
# JSON that is not an iorig result.
echo '[1, 2]' >arr.json
refused "arr\\.json: not a JSON object" a.json arr.json
echo '{"jobs": []}' >obj.json
refused "obj\\.json: not an iorig result" obj.json
# A fio JSON report: Debian's fio 3.33's own (the Makefile installs it).
command -v fio >/dev/null 2>&1 || die "no fio: the Makefile's deps install it"
fio --name=x --ioengine=null --size=64k --output-format=json >fio.json \
	2>fio.err || die "fio failed: $(cat fio.err)"
refused "fio\\.json: a fio JSON report; expected an iorig result" a.json fio.json

# Broken histograms: a bucket that is not one of iorig's, counts that do
# not add up, a negative count, a bucket that is not a triple.
"$PY" - a.json <<'PYEOF' || die "cannot make the broken results"
import json, sys
d = json.load(open(sys.argv[1]))
def save(name, f):
    x = json.loads(json.dumps(d))
    f(x["jobs"][0]["read"]["clat_ns"])
    json.dump(x, open(name, "w"))
save("lowbad.json", lambda h: h["buckets"].append([300, 300, 0]))
save("sum.json", lambda h: h["buckets"][0].__setitem__(2, h["buckets"][0][2] + 1))
save("neg.json", lambda h: h["buckets"][0].__setitem__(2, -1))
save("pair.json", lambda h: h["buckets"].__setitem__(0, [0, 0]))
save("huge.json", lambda h: h["buckets"].append([2 ** 62, 2 ** 62, 1]))
save("nobuckets.json", lambda h: h.pop("count"))
PYEOF
refused "lowbad\\.json: bucket [0-9]+ is not \\[low, high, count\\] of an iorig histogram" a.json lowbad.json
refused "sum\\.json: a histogram's buckets do not add up to its count" a.json sum.json
refused "neg\\.json: bucket 0 is not" a.json neg.json
refused "pair\\.json: bucket 0 is not" a.json pair.json
refused "huge\\.json: bucket [0-9]+ is not" a.json huge.json
refused "nobuckets\\.json: .*histogram" a.json nobuckets.json

# Hostile figures that are still well formed: counts at the top of
# JSON's integers, reals near the double's end. Merged (or refused),
# never a crash or a wrapped sum (a sanitizer build checks the
# arithmetic).
"$PY" - a.json <<'PYEOF' || die "cannot make the hostile result"
import json, sys
d = json.load(open(sys.argv[1]))
big = 2 ** 63 - 1
j = d["jobs"][0]
for k in ("ios", "io_bytes", "errors", "runtime_ns"):
    j["read"][k] = big
j["runtime_ns"] = big
j["read"]["iops"] = j["read"]["bw_bytes"] = 1.7e308
j["read"]["bw_samples"].update(count=big, min=1e300, max=1.7e308, mean=1e308, stddev=1e308)
j["cpu"]["user_ns"] = big
json.dump(d, open("big.json", "w"))
PYEOF
for f in text fio-json json; do
	run merge --output-format=$f big.json big.json a.json
	expect_rc 0
done
json_is "d['jobs'][0]['read']['ios']" 9223372036854775807
# ios held at 2^63-1, not wrapped; the histograms still add up.
expect_json "d['jobs'][0]['read']['clat_ns']['count'] == 3 * json.load(open('a.json'))['jobs'][0]['read']['clat_ns']['count']"

# Every cut of a real result: refused, never a crash.
size=$(wc -c <a.json)
step=$((size / 60 + 1))
n=0
cut=1
while [ $cut -lt "$size" ]; do
	head -c $cut a.json >cut.json
	"$IORIG" merge a.json cut.json >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || die "a result cut at byte $cut: exit $rc, expected 2"
	[ -s "$T/out" ] && die "a result cut at byte $cut: something on stdout"
	n=$((n + 1))
	cut=$((cut + step))
done
echo "ok: $n cuts refused"

# Usage: a bad format, a bad check, an unknown option, no file.
refused "'xml' is not a report format \\(expected text, json, fio-json, table, json\\+, terse, html, junit, openmetrics or prometheus\\)" --output-format=xml a.json b.json
refused "check" --check='read.iops>>1' a.json b.json
refused "check" --check='rank:read.nosuch>=1' a.json b.json
refused "cluster checks compare a figure with a threshold" --check='mean(read.iops)>=1' a.json b.json
refused "unknown option '--frobnicate'" --frobnicate a.json
refused "no result given" --output-format=json
echo "ok: refusals"
