#!/bin/sh
# The HTML report (--output-format=html, iorig report --html), rendered by
# a real browser: headless Chromium takes a screenshot of the page (its
# size, and the green PASS and red FAIL cells among its pixels) and dumps
# its DOM (the text has the job name, with its "<script>" as text and no
# script element, PASS and FAIL, the host name uname gives, the IOPS of
# the JSON report of the same run). The page is self-contained (no script,
# no http(s) address) and well-formed (every element closed), and a saved
# result gives the same page through `iorig report --html`.
# lane: parallel
. "$(dirname "$0")/lib.sh"

chromium_or_skip page

name='h<script>x&"q'
dd if=/dev/zero of=f bs=1M count=4 2>/dev/null
# JSON then HTML, one run (the formats' table order), one file.
run --name="$name" --filename=f --size=4m --bs=4k --rw=randrw \
	--number_ios=2000 --check='read.iops>=1' --check='read.iops<=1' \
	--output-format=html,json --output=both
expect_rc 3
expect_in err "check failed"
"$PY" - both <<'EOF' || die "cannot split the JSON and the page"
import json, sys
t = open(sys.argv[1]).read()
d, end = json.JSONDecoder().raw_decode(t)
rest = t[end:].lstrip("\n")
assert rest.startswith("<!DOCTYPE html>"), rest[:80]
open("r.json", "w").write(t[:end] + "\n")
open("r.html", "w").write(rest)
EOF

# The same page from the saved result.
run report --html -o r2.html r.json
expect_rc 0
expect_empty err
cmp -s r.html r2.html || die "iorig report --html r.json differs from --output-format=html"

# Self-contained and well-formed.
grep -qi '<script' r.html && die "the page has a <script"
grep -Eqi 'https?://' r.html && die "the page names an http(s) address"
"$PY" - r.html <<'EOF' || die "the page is not well-formed"
import sys
from html.parser import HTMLParser
void = {"meta", "br", "hr", "img", "input", "link", "col", "wbr"}
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.bad, self.ids, self.refs = [], [], [], set()
    def handle_startendtag(self, tag, a):
        self.attrs(a)
    def attrs(self, a):
        for k, v in a:
            if k == "id":
                self.ids.append(v)
            elif k.endswith("href") and v and v.startswith("#"):
                self.refs.add(v[1:])
    def handle_starttag(self, tag, a):
        self.attrs(a)
        if tag not in void:
            self.stack.append(tag)
    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.bad.append("</%s> closes <%s>" % (tag, self.stack[-1:]))
        else:
            self.stack.pop()
p = P()
p.feed(open(sys.argv[1]).read())
p.close()
if p.bad or p.stack:
    sys.exit("mismatched: %s; unclosed: %s" % (p.bad[:5], p.stack))
dup = sorted({i for i in p.ids if p.ids.count(i) > 1})
if dup or p.refs - set(p.ids):
    sys.exit("ids twice: %s; links to no id: %s" % (dup[:5], sorted(p.refs - set(p.ids))[:5]))
EOF

# The charts: those iorig plot draws for the result, one figure each.
if command -v gnuplot >/dev/null 2>&1; then
	"$IORIG" plot --outdir=pl r.json >/dev/null 2>"$T/err" ||
		die "iorig plot r.json failed"
	nsvg=$(ls pl/*.svg | wc -l)
	nfig=$(grep -o '<figure[ >]' r.html | wc -l)
	[ "$nsvg" -ge 2 ] || die "iorig plot drew $nsvg charts of a randrw job"
	[ "$nfig" -eq "$nsvg" ] || die "$nfig figures in the page, $nsvg charts by iorig plot"
	[ "$(grep -o '<svg[ >]' r.html | wc -l)" -eq "$nsvg" ] ||
		die "not every figure has its drawing"
fi
# Without gnuplot: the same page, a note where the charts would be.
PATH=/nonexistent "$IORIG" report --html -o nognu.html r.json 2>"$T/err" ||
	die "iorig report without gnuplot failed"
grep -q '<svg' nognu.html && die "charts without gnuplot"
grep -q 'No charts: gnuplot is not installed' nognu.html ||
	die "no note saying why there are no charts"
"$PY" - r.html nognu.html <<'EOF' || die "the page without gnuplot differs beyond the charts"
import re, sys
a, b = (re.sub(r"<h2>Charts</h2>.*?<h2>", "", open(f).read(), flags=re.S)
        for f in sys.argv[1:])
assert a == b
EOF

# The browser. Its own profile; no sandbox (root); no GPU.
ud=$T/profile
chrome() {	# chrome PAGE ARGS...
	_page=$1
	shift
	timeout 60 "$browser" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$ud" --no-first-run --disable-extensions \
		"$@" "file://$T/$_page" 2>>"$T/chrome.err"
}
# The page with its charts in a picture; the one without gnuplot as text.
chrome r.html --screenshot="$T/shot.png" --window-size=1280,2000 >/dev/null ||
	die "chromium failed to take a screenshot: $(tail -3 "$T/chrome.err")"
chrome nognu.html --dump-dom >dom.html ||
	die "chromium failed to dump the DOM: $(tail -3 "$T/chrome.err")"

# The screenshot: 1280x2000, with green (PASS) and red (FAIL) cells.
"$PY" - shot.png <<'EOF' || die "the screenshot is not the page"
import struct, sys, zlib
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, hdr = 8, b"", None
while pos < len(b):
    n, kind = struct.unpack(">I4s", b[pos:pos + 8])
    data = b[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        hdr = struct.unpack(">IIBBBBB", data)
    elif kind == b"IDAT":
        idat += data
    pos += 12 + n
w, h, depth, ctype = hdr[:4]
if (w, h) != (1280, 2000):
    sys.exit("screenshot is %dx%d, not 1280x2000" % (w, h))
assert depth == 8 and ctype in (2, 6), "PNG colour type %d/%d" % (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
# Undo the PNG filters. "Up", most rows, with whole-row integers: bytewise
# x + y mod 256 is ((x & 7f..) + (y & 7f..)) ^ ((x ^ y) & 80..).
lo = int.from_bytes(b"\x7f" * stride, "big")
hi = int.from_bytes(b"\x80" * stride, "big")
def add(x, y):
    x, y = int.from_bytes(x, "big"), int.from_bytes(y, "big")
    return (((x & lo) + (y & lo)) ^ ((x ^ y) & hi)).to_bytes(stride, "big")
prev, rows, i = bytes(stride), [], 0
for y in range(h):
    f, res = raw[i], raw[i + 1:i + 1 + stride]
    i += 1 + stride
    if f == 0:
        line = res
    elif f == 2:
        line = add(res, prev)
    else:
        line = bytearray(res)
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            up = prev[x]
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 3:
                line[x] = (line[x] + (a + up) // 2) & 255
            else:
                c = prev[x - bpp] if x >= bpp else 0
                p = a + up - c
                pa, pb, pc = abs(p - a), abs(p - up), abs(p - c)
                pr = a if pa <= pb and pa <= pc else up if pb <= pc else c
                line[x] = (line[x] + pr) & 255
        line = bytes(line)
    rows.append(line)
    prev = line
# The page's colours as CSS gives them: PASS #1a7f37, FAIL #cf222e.
dark = bytes(range(128, 256))
green = sum(r.count(b"\x1a\x7f\x37") for r in rows)
red = sum(r.count(b"\xcf\x22\x2e") for r in rows)
ink = sum(len(r.translate(None, dark)) for r in rows)
if ink < 5000:
    sys.exit("a blank screenshot: %d dark bytes" % ink)
if green < 200 or red < 200:
    sys.exit("no PASS/FAIL colours: %d green, %d red pixels" % (green, red))
print("screenshot %dx%d: %d green, %d red pixels, %d dark bytes" %
      (w, h, green, red, ink))
EOF

# The DOM's text against the JSON of the same run and uname.
host=$(uname -n)
"$PY" - dom.html r.json "$name" "$host" <<'EOF' || die "the rendered page's text is wrong"
import json, sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.text, self.tags = [], []
    def handle_starttag(self, tag, a):
        self.tags.append(tag)
    def handle_data(self, s):
        self.text.append(s)
dom, d = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
name, host = sys.argv[3], sys.argv[4]
p = P()
p.feed(dom)
text = " ".join(" ".join(p.text).split())
if "script" in p.tags:
    sys.exit("the job name became a script element")
j = d["jobs"][0]
for want in (name, "PASS", "FAIL", host, "%.1f" % j["read"]["iops"],
             "%.1f" % j["write"]["iops"], d["host"]["kernel"],
             "iorig " + d["iorig_version"], "No charts: gnuplot"):
    if want not in text:
        sys.exit("%r is not in the page's text" % want)
if d["host"]["hostname"] != host:
    sys.exit("the JSON's host %r is not uname's %r" % (d["host"]["hostname"], host))
EOF

# iorig report refuses what it cannot read; nothing is written then.
printf 'not json' >bad.json
run report --html -o x.html bad.json
expect_rc 2
expect_in err "bad\\.json.*not a JSON document"
echo '{"a": 1}' >other.json
run report --html -o x.html other.json
expect_rc 2
expect_in err "other\\.json.*not an iorig JSON result"
run report -o x.html r.json
expect_rc 2
expect_in err "--html"
[ -e x.html ] && die "a refused report wrote x.html"
cp r.json keep.json
run report --html -o keep.json keep.json
expect_rc 2
expect_in err "keep\\.json: the page would replace the result"
cmp -s r.json keep.json || die "iorig report replaced its own input"
# A result with keys missing or of other types (older, hand-edited): a
# page all the same, escaped, never a crash. Values of r.json in turn
# replaced by one of another type.
"$PY" - r.json "$IORIG" <<'EOF' || die "a mangled result broke iorig report"
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
paths = []
def walk(o, p):
    if isinstance(o, dict):
        for k in o:
            if k != "options":
                paths.append(p + [k]); walk(o[k], p + [k])
    elif isinstance(o, list):
        for i, v in enumerate(o[:3]):
            paths.append(p + [i]); walk(v, p + [i])
walk(d, [])
odd = [None, "<b>x</b>", -1e308, [], {}, True, 12345678901234567890]
step = max(1, len(paths) // 60)
for n, p in enumerate(paths[::step]):
    m = json.loads(json.dumps(d))
    o = m
    for k in p[:-1]:
        o = o[k]
    o[p[-1]] = odd[n % len(odd)]
    # gnuplot (slow) for one in five: the charts read the result too
    env = None if n % 5 == 0 else {"PATH": "/nonexistent"}
    r = subprocess.run([sys.argv[2], "report", "--html", "-"], env=env,
                       input=json.dumps(m).encode(), capture_output=True)
    if r.returncode not in (0, 2) or (r.returncode == 0 and
            (b"<b>" in r.stdout or not r.stdout.endswith(b"</html>\n"))):
        sys.exit("%s = %r: exit %d, %s" % (p, odd[n % len(odd)],
                 r.returncode, r.stderr[-300:]))
EOF

# To standard output, from standard input.
"$IORIG" report --html - <r.json >r3.html 2>"$T/err" || die "report from stdin failed"
cmp -s r.html r3.html || die "report from stdin differs"
exit 0
