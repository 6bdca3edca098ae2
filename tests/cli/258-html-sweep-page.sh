#!/bin/sh
# The HTML report of a sweep (jobs/kaio-vs-pthread.job's shape, shortened)
# as headless Chromium lays it out and draws it:
# - the sweep chart is the page's first figure, right after the tables
#   (the browser's own layout says where each figure is);
# - the command line breaks between arguments only, never inside one
#   (each argument is one box in the layout, in a window too narrow for
#   the line);
# - the checks give value and threshold in the check's unit ("µs", not
#   4.44006e+06 against 50000), the summary's latency columns one unit
#   each, named in their heads; no "us", no exponent anywhere on the page;
# - the per-point histograms share one axis range (the same ticks on
#   both axes), their titles and subtitles name the engine one way;
# - the screenshot of the page's first 2000 px shows the sweep chart's
#   lines (its two engines' colours) and the checks' PASS and FAIL.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v gnuplot >/dev/null 2>&1 || skip "needs gnuplot (gnuplot-nox)"
chromium_or_skip page

sed -E -e 's/^[[:space:]]*runtime[[:space:]]*=.*/runtime=100ms/' \
	-e 's/^[[:space:]]*size[[:space:]]*=.*/size=4m/' \
	-e 's/^sweep=bs:.*/sweep=bs:512,4k,64k/' \
	"$top/jobs/kaio-vs-pthread.job" >k.job
grep -q '^runtime=100ms' k.job && grep -q '^sweep=bs:512,4k,64k' k.job ||
	die "the job file's runtime= or sweep=bs: line was not shortened"
have_odirect "$T" ||
	sed -i -E 's/^[[:space:]]*direct[[:space:]]*=.*/direct=0/' k.job
run --output-format=json --check='read.clat.p99<=1us' \
	--check='read.iops>=1' --eta=never --description=a-rather-long-one k.job
expect_rc 3
cp out k.json
run report --html -o k.html k.json
expect_rc 0

ud=$T/profile
chrome() {	# chrome PAGE ARGS...
	_page=$1
	shift
	timeout 90 "$browser" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$ud" --no-first-run --disable-extensions \
		--hide-scrollbars "$@" "file://$T/$_page" 2>>"$T/chrome.err"
}
# A copy of the page that measures itself once laid out (iorig's page
# has no script; this one is the test's).
"$PY" - k.html measure.html <<'EOF' || die "cannot make the measuring copy"
import sys
t = open(sys.argv[1]).read()
js = """<script>
window.addEventListener('load', function () {
  var r = {figs: [], args: []};
  document.querySelectorAll('figure').forEach(function (f) {
    r.figs.push([f.getAttribute('title'), f.getBoundingClientRect().top]);
  });
  var tops = {};
  document.querySelectorAll('p.cmd code span').forEach(function (s) {
    r.args.push([s.textContent, s.getClientRects().length]);
    tops[Math.round(s.getBoundingClientRect().top)] = 1;
  });
  r.cmd_lines = Object.keys(tops).length;
  var pre = document.createElement('pre');
  pre.id = 'measured';
  pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
});
</script>"""
open(sys.argv[2], "w").write(t.replace("</body>", js + "</body>"))
EOF
chrome measure.html --window-size=700,900 --dump-dom >dom.html ||
	die "chromium failed to lay the page out: $(tail -3 "$T/chrome.err")"
chrome k.html --window-size=1280,2000 --screenshot="$T/top.png" >/dev/null ||
	die "chromium failed to take a screenshot: $(tail -3 "$T/chrome.err")"

CLI_DIR="$top/tests/cli" "$PY" - dom.html k.html k.json top.png <<'PYEOF' || die "the sweep page is not as a person can trust"
import json, os, re, sys
from html.parser import HTMLParser
sys.path.insert(0, os.environ["CLI_DIR"])
from shot import Shot, find  # noqa: E402

dom, page, res = open(sys.argv[1]).read(), open(sys.argv[2]).read(), json.load(open(sys.argv[3]))
m = re.search(r'<pre id="measured">(.*?)</pre>', dom, re.S)
if not m:
    sys.exit("the page was not measured")
r = json.loads(m.group(1).replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
# the sweep chart first, right after the tables (the six histograms
# before it put it 4000 px down)
if not r["figs"] or "(sweep)" not in r["figs"][0][0]:
    sys.exit("the first figure is %r" % (r["figs"][:1],))
if r["figs"][0][1] > 1600:
    sys.exit("the sweep chart starts %d px down the page" % r["figs"][0][1])
if len(r["figs"]) != 1 + 6:
    sys.exit("%d figures: expected the sweep and six histograms" % len(r["figs"]))
# the command line: several lines at 700 px, no argument broken
if r["cmd_lines"] < 2:
    sys.exit("the command line fits one line at 700 px: nothing tested")
broken = [a for a, n in r["args"] if n != 1]
if broken or len(r["args"]) < 6:
    sys.exit("arguments broken across lines: %s (of %d)" % (broken, len(r["args"])))

# the text of the page
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.cells, self.heads, self.text, self.tag = [], [], [], None
    def handle_starttag(self, tag, a):
        self.tag = tag
        if tag == "tr":
            self.cells.append([])
    def handle_data(self, s):
        self.text.append(s)
        if self.tag == "td" and self.cells:
            self.cells[-1].append(s.strip())
        elif self.tag == "th":
            self.heads.append(s.strip())
p = P()
p.feed(page)
words = " ".join(p.text)
for bad in (r"\bus\b", r"\d[eE][+-]\d"):
    hit = re.search(bad, re.sub(r"<svg.*?</svg>", "", words, flags=re.S))
    if hit:
        sys.exit("the page says %r" % words[max(0, hit.start() - 40):hit.end() + 40])
for h in ("lat mean", "p50", "p99", "p99.9"):
    if not any(re.fullmatch(re.escape(h) + r" \((ns|µs|ms|s)\)", x) for x in p.heads):
        sys.exit("no head %r with its unit: %s" % (h, p.heads))
fail = [c for c in p.cells if c and c[0] == "FAIL"]
if len(fail) != 6:
    sys.exit("%d FAIL rows" % len(fail))
for c in fail:
    # result, check, job, value, threshold, from
    if c[1] != "read.clat.p99<=1us" or c[4] != "1.00 µs" or \
       not re.fullmatch(r"[0-9.]+ (µs|ms|s)", c[3]):
        sys.exit("check row %s" % c)
chk = [x for x in res["checks"] if x["expr"] == "read.clat.p99<=1us"]
for c, x in zip(fail, chk):
    v, u = c[3].split()
    got = float(v) * {"µs": 1e3, "ms": 1e6, "s": 1e9}[u]
    if abs(got - x["value"]) > 0.01 * x["value"]:
        sys.exit("check value %s, the result says %s ns" % (c[3], x["value"]))

# the histograms: one range (the same ticks), the engine named one way
svgs = re.findall(r"<figure title=\"([^\"]*)\">(<svg.*?</svg>)", page, re.S)
ticks = set()
for title, svg in svgs[1:]:
    text = [t.strip() for t in re.findall(r">([^<>]+)<", svg) if t.strip()]
    tk = tuple(t for t in text if re.fullmatch(r"[0-9.]+( (ns|µs|ms|s))?", t))
    ticks.add(tk)
    eng = re.search(r"ioengine=(\S+)", title).group(1)
    sub = [t for t in text if t.startswith("job ")][0]
    if "engine %s," % eng not in sub:
        sys.exit("title names %s, subtitle %r" % (eng, sub))
if len(ticks) != 1:
    sys.exit("the histograms have %d different axes" % len(ticks))

# the first 2000 px: the sweep chart's two lines, PASS and FAIL
s = Shot(sys.argv[4])
lines = [len(find(s, c, 0.6)) for c in ("#9400d3", "#009e73")]
red, green = len(find(s, "#cf222e", 0.95)), len(find(s, "#1a7f37", 0.95))
if min(lines) < 100 or red < 200 or green < 200:
    sys.exit("first screen: %s line pixels, %d red, %d green" % (lines, red, green))
print("sweep first at %d px, %d arguments unbroken, checks in µs" %
      (r["figs"][0][1], len(r["args"])))
PYEOF
exit 0
