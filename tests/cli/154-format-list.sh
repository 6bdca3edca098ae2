#!/bin/sh
# Several output formats at once (--output-format=json,text, as fio
# allows): each report whole, one after the other in the formats'
# order, from the same run (the same I/O counts in each); a later
# --output-format or --minimal replaces the set; an unknown name in the
# list is refused before anything runs.
. "$(dirname "$0")/lib.sh"

set -- --name=m --ioengine=null --size=4m --rw=randread --bs=4k

# text then iorig's JSON, whatever the order given
run --output-format=json,text "$@"
expect_rc 0
head -n 1 "$T/out" | grep -q '^host ' || die "text should come first"
"$PY" - "$T/out" <<'PYEOF' || die "json,text"
import json, sys
s = open(sys.argv[1]).read()
text, brace, rest = s.partition("\n{")
d = json.loads("{" + rest)
ios = d["jobs"][0]["read"]["ios"]
assert ios == 1024, ios
assert ", %d ios" % ios in text, text[:400]
PYEOF
run --output-format=text,json "$@"
expect_rc 0
head -n 1 "$T/out" | grep -q '^host ' || die "text should come first"

# iorig JSON, fio-json and terse from one run agree on the I/O count
run --output-format=json,fio-json,terse "$@"
expect_rc 0
"$PY" - "$T/out" <<'PYEOF' || die "json,fio-json,terse"
import json, sys
s = open(sys.argv[1]).read()
dec = json.JSONDecoder()
a, n = dec.raw_decode(s)
rest = s[n:].lstrip()
b, n = dec.raw_decode(rest)
terse = rest[n:].strip().split("\n")
assert "schema_version" in a and "fio version" in b, (list(a)[:3], list(b)[:3])
assert len(terse) == 1 and terse[0].startswith("3;"), terse
f = terse[0].split(";")
assert a["jobs"][0]["read"]["ios"] == b["jobs"][0]["read"]["total_ios"] == 1024
assert int(f[5]) == b["jobs"][0]["read"]["io_kbytes"] == 4096, f[5]
PYEOF

# the last option wins: --minimal after a list, a list after --minimal
run --output-format=json,text --minimal "$@"
expect_rc 0
[ "$(wc -l <"$T/out")" -eq 1 ] && grep -q '^3;m;' "$T/out" ||
	grep -q '^3;iorig-[^;]*;m;' "$T/out" || die "--minimal should replace"
run --minimal --output-format=fio-json "$@"
expect_rc 0
"$PY" -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out" ||
	die "--output-format after --minimal should replace it"

# an unknown name, or an empty one, anywhere in the list: exit 2, no
# report, nothing run (no file created)
for bad in json,nope ,json json, json,,text; do
	run --output-format="$bad" --name=x --filename="$T/never" --size=1m
	expect_rc 2
	expect_in err "output-format"
	expect_empty out
	[ ! -e "$T/never" ] || die "$bad: a job ran"
done
expect_in err "several: comma-separated"
echo ok
