#!/bin/sh
# iorig report: a result saved with --output-format=json, read back into
# the result model and written in a format, gives the same bytes as the
# run's own output in that format. Outside truth: the run itself, which
# wrote the format and the JSON side by side (--output-format=F,json) from
# the figures it measured. The formats that depend on the model alone are
# compared: json (the document again), text, table, html (its charts
# drawn by gnuplot from the same figures), and terse for units of one job
# that did not verify (fio's terse gives a group_reporting unit's CPU over
# its clones' summed runtimes, and a verifying job's reads with the
# verification's clat, which the JSON does not keep). fio-json and json+
# are not: they carry the job file's own text.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

# split BOTH JSON REST: the iorig JSON document out of a run's output.
split() {
	"$PY" - "$@" <<'EOF'
import json, sys
t = open(sys.argv[1]).read()
i = t.index('{\n  "schema_version"')
_, end = json.JSONDecoder().raw_decode(t, i)
open(sys.argv[2], "w").write(t[i:end + 1])
open(sys.argv[3], "w").write(t[:i] + t[end + 1:])
EOF
}

# same NAME FORMATS -- JOB ARGS: each format's run against its report.
same() {
	name=$1
	fmts=$2
	shift 3
	for f in $fmts; do
		run "$@" --output-format="$f,json" --output="$name.$f.both"
		expect_rc 0
		split "$name.$f.both" "$name.$f.json" "$name.$f.run" ||
			die "$name: no JSON document beside $f"
		run report --output-format="$f" "$name.$f.json"
		expect_rc 0
		# json: the document alone, compared below
		[ "$f" = json ] || cmp -s "$name.$f.run" out ||
			die "$name: the report of its JSON in $f is not the" \
				"run's: $(diff "$name.$f.run" out | head -20)"
		run report --output-format=json "$name.$f.json"
		expect_rc 0
		cmp -s "$name.$f.json" out ||
			die "$name: its JSON read back is not the same" \
				"document: $(diff "$name.$f.json" out | head)"
	done
	echo "ok: $name ($fmts)"
}

all="text table html json"
command -v gnuplot >/dev/null 2>&1 || all="text table json"
same plain "$all terse" -- --name=a --rw=randrw --bs=4k --size=2m \
	--filename=a.dat
same grouped "$all" -- --name=g --rw=randread --bs=4k --size=1m \
	--numjobs=3 --group_reporting --filename=g.dat
same two "$all terse" -- --name=w --rw=write --bs=8k --size=1m \
	--filename=t.dat --name=r --stonewall --rw=read --bs=4k \
	--lat_percentiles=1 --filename=t.dat --size=1m
same intervals "$all terse" -- --name=i --rw=randread --bs=4k --size=16m \
	--time_based --runtime=400ms --interval=50ms --filename=i.dat
same repeats "$all" -- --name=p --rw=randread --bs=4k \
	--size=1m --repeat=3 --filename=g.dat --check='read.iops>=1'
same verified "$all" -- --name=v --ioengine=libaio \
	--iodepth=4 --rw=write --bs=4k --size=2m --verify=crc32c \
	--filename=v.dat
same paced "$all terse" -- --name=r --rw=randread --bs=4k \
	--size=16m --time_based --runtime=300ms --rate_iops=300 \
	--filename=i.dat
# An engine that moves no data (a saved null-engine result crashed the
# text writer once: the job's engine was not read back).
same nullengine "$all terse" -- --name=n --ioengine=null --rw=randread \
	--bs=4k --size=1m

# Several formats at once come in the run's order, from standard input.
run --name=a --rw=read --bs=4k --size=1m --filename=a.dat \
	--output-format=json --output=r.json
expect_rc 0
"$IORIG" report --output-format=table,text - <r.json >both.txt 2>err ||
	die "report from standard input failed: $(cat err)"
"$IORIG" report --output-format=text r.json >t.txt &&
	"$IORIG" report --output-format=table r.json >b.txt ||
	die "report failed"
cat t.txt b.txt | cmp -s - both.txt ||
	die "text,table is not the text then the table"

# What is not a result or not a format: exit 2, nothing written.
expect_refused "not a format; expected text, json" report \
	--output-format=nope r.json
echo '{"jobs": []}' >x.json
expect_refused "x\\.json.*not an iorig JSON result" report \
	--output-format=text -o y.txt x.json
[ -e y.txt ] && die "a refused report wrote y.txt"
exit 0
