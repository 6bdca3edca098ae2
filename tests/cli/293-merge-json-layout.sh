#!/bin/sh
# lane: parallel
# A merge's JSON documents (json, fio-json, json+) are printed by iorig's
# own printer (src/lib/jsonw.c: each member made and printed in turn, its
# histograms' buckets printed from its figures, never a tree) in the
# layout jansson's json_dumps makes with JSON_INDENT(2) and
# JSON_REAL_PRECISION(12), the layout of every other JSON iorig writes.
# Outside truth: the document read by Python's json module (keys in
# their order, each real's text kept) and printed again here by that
# layout's rules, written down from jansson's (its dump.c and
# jsonp_dtostr): two spaces a level, "," then a newline between
# elements, ": " after a key, "{}" and "[]" when empty, '"', '\\' and
# control characters escaped (\b \f \n \r \t, else \u00XX in capitals),
# reals as "%.12g" with ".0" added when neither a point nor an exponent
# shows and the exponent without '+' or leading zeros: the same bytes,
# and every real's text the one its value prints as. Members: two jobs
# (two clones, reads and writes; a second group), a job name with a
# quote, a backslash and a tab, so that a member's jobs are printed one
# after another from one buffer and strings are escaped; 24 members.
. "$(dirname "$0")/lib.sh"

i=0
for s in 32m 48m 16m; do
	run --name="q\"b\\s	t" --ioengine=null --rw=randrw --bs=4k \
		--size=$s --numjobs=2 --randseed=$((i + 3)) --name=seq \
		--stonewall --ioengine=null --rw=read --bs=64k --size=64m \
		--output-format=json
	expect_rc 0
	cp "$T/out" "$T/r$i.json" || die "cp"
	i=$((i + 1))
done
mkdir m || die "mkdir"
k=0
while [ $k -lt 24 ]; do
	ln -s "$T/r$((k % 3)).json" "m/r$k.json" || die "ln"
	k=$((k + 1))
done
for f in json fio-json json+; do
	"$IORIG" merge --output-format=$f m/*.json >"$T/merged.$f" \
		2>"$T/err" || die "merge --output-format=$f: $(cat "$T/err")"
done

"$PY" - "$T/merged.json" "$T/merged.fio-json" "$T/merged.json+" <<'PYEOF' || die "a merged document is not jansson's layout"
import json, sys

class Real(float):
    pass

def real(text):
    v = Real(float(text))
    v.text = text
    return v

def jansson_real(v):
    t = "%.12g" % v
    if "." not in t and "e" not in t:
        t += ".0"
    if "e" in t:
        m, e = t.split("e")
        neg = e.startswith("-")
        e = e.lstrip("+-").lstrip("0")
        t = m + "e" + ("-" if neg else "") + e
    return t

ESC = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n",
       "\r": "\\r", "\t": "\\t"}

def string(s):
    return '"' + "".join(ESC.get(c) or
                         ("\\u%04X" % ord(c) if ord(c) < 0x20 else c)
                         for c in s) + '"'

bad = []

def dump(v, d):
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{" + ",".join("\n" + "  " * (d + 1) + string(k) + ": " +
                              dump(x, d + 1) for k, x in v.items()) + \
               "\n" + "  " * d + "}"
    if isinstance(v, list):
        if not v:
            return "[]"
        return "[" + ",".join("\n" + "  " * (d + 1) + dump(x, d + 1)
                              for x in v) + "\n" + "  " * d + "]"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if isinstance(v, Real):
        if jansson_real(v) != v.text and len(bad) < 5:
            bad.append("real %s printed %s" % (jansson_real(v), v.text))
        return v.text
    if isinstance(v, int):
        return str(v)
    return string(v)

for path in sys.argv[1:]:
    text = open(path, encoding="utf-8").read()
    doc = json.loads(text, parse_float=real)
    again = dump(doc, 0) + "\n"
    if again != text:
        n = next((i for i, (a, b) in enumerate(zip(again, text))
                  if a != b), min(len(again), len(text)))
        print("%s: differs at byte %d: %r against %r" %
              (path, n, text[max(0, n - 40):n + 40],
               again[max(0, n - 40):n + 40]))
        sys.exit(1)
    if bad:
        print(path, bad)
        sys.exit(1)
    if path.endswith(".json"):
        c = doc["cluster"]
        js = c["members"][0]["jobs"]
        if c["nmembers"] != 24 or len(js) < 3 or \
           not js[0]["read"]["clat_ns"]["buckets"] or \
           js[0]["name"] != 'q"b\\s\tt':
            print("the merged document is not the one this test needs")
            sys.exit(1)
PYEOF
exit 0
