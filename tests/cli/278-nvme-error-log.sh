#!/bin/sh
# The NVMe devices' error_log (the controller's Error Information log
# entries logged during a run) read back from a saved result: a result
# whose nvme list is given a namespace with two entries (QEMU's
# controller in the test guest logs none, so they are written here, as a
# controller would report an unrecovered read error and a guard check
# error) keeps them through `iorig report` to JSON, validates against
# doc/iorig-json.schema.json, the text report prints each entry a line
# with its status in words and the HTML report a table row (`iorig
# report --output-format=html`). Without entries the list is empty.
# lane: parallel
. "$(dirname "$0")/lib.sh"

run --name=a --filename="$T/f" --size=64k --rw=write --output-format=json
expect_rc 0
cp "$T/out" "$T/r0.json"
python3 - "$T/r0.json" "$T/r.json" <<'PY' || die "cannot make r.json"
import json, sys
d = json.load(open(sys.argv[1]))
h = dict(data_units_read=1, data_units_written=2, host_read_commands=3,
         host_write_commands=4, media_errors=0, error_log_entries=10,
         power_on_hours=5, unsafe_shutdowns=0, critical_warning=0,
         temperature_c=40, available_spare_pct=100, percentage_used=0)
a = dict(h, media_errors=1, error_log_entries=12)
delta = {k: a[k] - h[k] for k in ("data_units_read", "data_units_written",
         "host_read_commands", "host_write_commands", "media_errors",
         "error_log_entries", "power_on_hours", "unsafe_shutdowns")}
e = lambda n, st, lba: dict(error_count=n, sqid=1, cmdid=66, status=st,
                            lba=lba, nsid=3, parm_error_location=0x204)
d["nvme"] = [dict(name="nvme0n3", target="/dev/ng0n3", model="QEMU NVMe Ctrl",
                  serial="IORIG0001", firmware="9.0", nsid=3, blocks=16384,
                  lba_format=1, lba_size=4096, metadata_size=8,
                  extended_lba=True, pi_type=1, zoned=False, error=None,
                  health_before=h, health_after=a, health_delta=delta,
                  error_log=[e(12, 0x281, 0x1234), e(11, 0x282, 7)])]
json.dump(d, open(sys.argv[2], "w"))
PY
"$IORIG" report --output-format=json -o "$T/back.json" "$T/r.json" \
	2>"$T/err" || die "iorig report --output-format=json: $(cat "$T/err")"
python3 - "$T/r.json" "$T/back.json" <<'PY' || die "error_log not kept"
import json, sys
a = json.load(open(sys.argv[1]))["nvme"][0]["error_log"]
b = json.load(open(sys.argv[2]))["nvme"][0]["error_log"]
assert a == b, (a, b)
PY
if python3 -c "import jsonschema" 2>/dev/null; then
	python3 - "$top/doc/iorig-json.schema.json" "$T/back.json" <<'PY' ||
import json, sys
from jsonschema import Draft202012Validator
v = Draft202012Validator(json.load(open(sys.argv[1])))
errs = list(v.iter_errors(json.load(open(sys.argv[2]))))
assert not errs, [e.message for e in errs[:3]]
PY
		die "the result read back does not validate"
	echo "ok: validates against doc/iorig-json.schema.json"
fi
echo "ok: error_log's two entries kept through iorig report"

"$IORIG" report --output-format=text "$T/r.json" >"$T/text" 2>"$T/err" ||
	die "iorig report (text): $(cat "$T/err")"
expect_in text "error log entry 12: NVMe status 0x281: unrecovered read error, queue 1, command 66, nsid 3, LBA 4660, parameter 0x204"
expect_in text "error log entry 11: NVMe status 0x282: end-to-end guard check error"
echo "ok: the text report names each entry and its status"

# The HTML report: the same entries, a table row each (the cells as
# a browser reads them), in the order of the saved result.
"$IORIG" report --output-format=html -o "$T/r.html" "$T/r.json" \
	2>"$T/err" || die "iorig report (html): $(cat "$T/err")"
python3 - "$T/r.html" <<'PY' || die "the HTML report lacks the error log"
import sys
from html.parser import HTMLParser
class Rows(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.cell = [], None
    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = ""
    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(self.cell)
            self.cell = None
    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
p = Rows()
p.feed(open(sys.argv[1]).read())
got = [r for r in p.rows if r and r[0] in ("12", "11") and len(r) == 7]
want = [["12", "NVMe status 0x281: unrecovered read error", "1", "66", "3",
         "4660", "0x204"],
        ["11", "NVMe status 0x282: end-to-end guard check error "
         "(protection information)", "1", "66", "3", "7", "0x204"]]
assert got == want, got
assert ["error log entry", "status", "queue", "command", "nsid", "LBA",
        "parameter"] in p.rows
PY
echo "ok: the HTML report has a row per entry, its status in words"

python3 -c "import json,sys; assert json.load(open(sys.argv[1]))['nvme'] \
== []" "$T/r0.json" || die "a run without NVMe targets has nvme entries"
echo "ok: no NVMe target, no nvme entries"
