#!/bin/sh
# Several output formats at once (--output-format=json,text, as fio
# allows): each report whole, one after the other in fio's order (terse,
# its JSON, normal; checked against Debian's fio) and iorig's own after
# them, from the same run (the same I/O counts in each); a later
# --output-format or --minimal replaces the set; an unknown name in the
# list is refused before anything runs.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

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

# iorig JSON, fio-json and terse from one run agree on the I/O count;
# fio's formats come first, in fio's order (terse, then its JSON), then
# iorig's own
run --output-format=json,fio-json,terse "$@"
expect_rc 0
"$PY" - "$T/out" <<'PYEOF' || die "json,fio-json,terse"
import json, sys
s = open(sys.argv[1]).read()
terse, nl, rest = s.partition("\n")
dec = json.JSONDecoder()
b, n = dec.raw_decode(rest)
a, n = dec.raw_decode(rest[n:].lstrip())
assert "schema_version" in a and "fio version" in b, (list(a)[:3], list(b)[:3])
assert terse.startswith("3;"), terse
f = terse.split(";")
assert a["jobs"][0]["read"]["ios"] == b["jobs"][0]["read"]["total_ios"] == 1024
assert int(f[5]) == b["jobs"][0]["read"]["io_kbytes"] == 4096, f[5]
PYEOF

# What comes in which order, as a list of kinds: terse (a "3;" line),
# json (a JSON document, "+" when it has bins), normal (anything else but
# the lines fio's normal format prints as the run starts).
kinds() {
	"$PY" - "$1" <<'PYEOF'
import json, re, sys
s = open(sys.argv[1]).read()
dec = json.JSONDecoder()
out, i = [], 0
def add(k):
    if not out or out[-1] != k:
        out.append(k)
while i < len(s):
    if s[i] == "{":
        d, n = dec.raw_decode(s, i)
        add("json+" if "bins" in json.dumps(d) else "json")
        i = n
        continue
    line, _, _ = s[i:].partition("\n")
    if line.startswith("3;"):
        add("terse")
    elif re.match(r"\S+: \(g=\d+\): rw=|fio-3\.|Starting \d+ process", line):
        pass
    elif line.strip():
        add("normal")
    i += len(line) + 1
print(",".join(out))
PYEOF
}

# Invoked as fio, fio's formats in any combination come in the order
# Debian's fio writes them (terse, then one JSON document, json+ when
# asked, then normal), whatever the order given.
mkdir -p "$T/bin"
ln -s "$IORIG" "$T/bin/fio"
for f in terse,json+ json+,terse json,terse json,json+ normal,json \
	json,normal terse,normal normal,json,terse; do
	"$T/bin/fio" --output-format=$f "$@" >"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 0
	got=$(kinds "$T/out")
	if command -v fio >/dev/null 2>&1; then
		fio --output-format=$f "$@" >"$T/fio.out" 2>/dev/null ||
			die "fio failed on $f"
		want=$(kinds "$T/fio.out")
	else
		want=$(echo "$f" | "$PY" -c 'import sys
s = sys.stdin.read().strip().split(",")
print(",".join(k for k in ["terse", "json+" if "json+" in s else "json", "normal"] if k in s or k == "json+" and "json" in s))')
	fi
	[ "$got" = "$want" ] || die "--output-format=$f: $got, fio writes $want"
done

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
