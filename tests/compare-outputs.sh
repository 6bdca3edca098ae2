#!/bin/sh
# OLD=/path/to/an/older/iorig sh tests/compare-outputs.sh [DIR]
#
# What reads saved results, old binary against this tree's: runs a set of
# jobs with OLD, saves their JSON results, then gives the same files to
# both binaries and compares, byte for byte, what each makes of them:
# `iorig report --html`, `iorig plot` (every .dat, .gp and .svg), `iorig
# merge` in the formats both have (text, json, fio-json), and the
# baseline figures a run reads from a saved result (--baseline: the
# "baseline" numbers of the report, not the run's own figures). Every
# difference is listed; the exit status is 1 when there is one. Not part
# of `make test` (it needs the older binary): run it when changing what
# reads results. DIR keeps the files (default: a fresh temporary one).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
NEW=${NEW:-$top/iorig}
[ -n "${OLD:-}" ] && [ -x "$OLD" ] || {
	echo "usage: OLD=/path/to/old/iorig sh $0 [DIR]"
	exit 77
}
D=${1:-$(mktemp -d "${TMPDIR:-/tmp}/iorig-compare.XXXXXX")}
mkdir -p "$D" && cd "$D" || exit 1
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
ndiff=0
differs() {	# differs WHAT A B: compare, list a difference
	if ! cmp -s "$2" "$3"; then
		echo "DIFF $1"
		diff "$2" "$3" | head -${LINES_SHOWN:-12} | sed 's/^/    /'
		ndiff=$((ndiff + 1))
	fi
}

# The runs: NAME ARGS... (each with --output-format=json, the old binary).
F="--filename=$D/t.dat"
runs() {
	cat <<EOF
plain --name=a --rw=randrw --bs=4k --size=4m $F
grouped --name=g --rw=randread --bs=4k --size=2m --numjobs=3 --group_reporting $F
two --name=w --rw=write --bs=8k --size=2m $F --name=r --stonewall --rw=read --bs=4k --size=2m --lat_percentiles=1 $F
intervals --name=i --rw=randread --bs=4k --size=32m --time_based --runtime=600ms --interval=100ms $F
verify --name=v --ioengine=libaio --iodepth=4 --rw=write --bs=4k --size=2m --verify=crc32c $F
paced --name=p --rw=randread --bs=4k --size=32m --time_based --runtime=400ms --rate_iops=400 $F
repeat --name=q --rw=randread --bs=4k --size=1m --repeat=3 --check=read.iops>=1 $F
mixed --name=m --rw=randrw --bs=4k --size=2m --unified_rw_reporting=both $F
sweep --name=s --rw=randread --size=1m --sweep=bs:4k,16k,64k $F
clones --name=c --rw=randread --bs=4k --size=1m --numjobs=2 $F
EOF
}
runs | while read -r name args; do
	# shellcheck disable=SC2086
	"$OLD" $args --output-format=json >"$name.json" 2>"$name.err" ||
		echo "note: $name: the old binary exited $? ($(head -c 200 \
			"$name.err"))"
	for k in 2 3; do
		# shellcheck disable=SC2086
		"$OLD" $args --output-format=json >"$name.$k.json" 2>/dev/null
	done
done

for j in $(runs | cut -d' ' -f1 | sed 's/$/.json/'); do
	n=${j%.json}
	"$OLD" report --html -o "old.$n.html" "$j" 2>/dev/null
	"$NEW" report --html -o "new.$n.html" "$j" 2>/dev/null
	differs "report --html $j" "old.$n.html" "new.$n.html"
	rm -rf "old.plot.$n" "new.plot.$n"
	"$OLD" plot --outdir="old.plot.$n" "$j" >"old.plot.$n.out" 2>&1
	"$NEW" plot --outdir="new.plot.$n" "$j" >"new.plot.$n.out" 2>&1
	sed "s/old\.plot/PLOT/" "old.plot.$n.out" >a.out
	sed "s/new\.plot/PLOT/" "new.plot.$n.out" >b.out
	differs "plot $j (charts named)" a.out b.out
	for f in "old.plot.$n"/*; do
		[ -e "$f" ] || continue
		g="new.plot.$n/${f##*/}"
		sed "s/old\.plot/PLOT/g" "$f" >a.out
		sed "s/new\.plot/PLOT/g" "$g" >b.out 2>/dev/null || : >b.out
		differs "plot $j: ${f##*/}" a.out b.out
	done
	for fmt in text json fio-json; do
		"$OLD" merge --output-format=$fmt "$j" "$n.2.json" "$n.3.json" \
			>"old.merge.$n.$fmt.out" 2>&1
		"$NEW" merge --output-format=$fmt "$j" "$n.2.json" "$n.3.json" \
			>"new.merge.$n.$fmt.out" 2>&1
		differs "merge --output-format=$fmt $n" \
			"old.merge.$n.$fmt.out" "new.merge.$n.$fmt.out"
	done
done
# fio's own JSON result, drawn by both.
if command -v fio >/dev/null 2>&1; then
	fio --name=f --rw=randread --bs=4k --size=2m "$F" --runtime=200ms \
		--time_based --output-format=json+ --output=fio.json \
		>/dev/null 2>&1
	"$OLD" plot --outdir=old.fio fio.json plain.json >/dev/null 2>&1
	"$NEW" plot --outdir=new.fio fio.json plain.json >/dev/null 2>&1
	for f in old.fio/*; do
		[ -e "$f" ] || continue
		sed "s/old\.fio/FIO/g" "$f" >a.out
		sed "s/new\.fio/FIO/g" "new.fio/${f##*/}" >b.out 2>/dev/null ||
			: >b.out
		differs "plot fio.json: ${f##*/}" a.out b.out
	done
fi
# Two results compared by plot, one the baseline.
"$OLD" plot --outdir=old.cmp --baseline=plain.json plain.2.json plain.3.json \
	>/dev/null 2>&1
"$NEW" plot --outdir=new.cmp --baseline=plain.json plain.2.json plain.3.json \
	>/dev/null 2>&1
for f in old.cmp/*; do
	[ -e "$f" ] || continue
	sed "s/old\.cmp/CMP/g" "$f" >a.out
	sed "s/new\.cmp/CMP/g" "new.cmp/${f##*/}" >b.out 2>/dev/null || : >b.out
	differs "plot --baseline: ${f##*/}" a.out b.out
done

# --baseline: what a run reads of a saved result.
bl() {	# bl BIN BASELINE ARGS...: the baseline figures of a run's report
	_b=$1
	_f=$2
	shift 2
	"$_b" "$@" --baseline="$_f" --check='read.iops>=0.01*baseline' \
		--check='read.clat.p99<=100*baseline' --output-format=json \
		2>/dev/null | "$PY" -c '
import json, sys
d = json.load(sys.stdin)
print(json.dumps(d["baseline"], sort_keys=True))
for j in d["jobs"]:
    b = j["baseline"] and j["baseline"]["figures"]
    print(j["name"], json.dumps({k: v["baseline"] for k, v in (b or {}).items()}, sort_keys=True))
for c in d["checks"]:
    print(c["expr"], c["job"], c["baseline"])
'
}
for n in plain grouped repeat; do
	args=$(runs | sed -n "s/^$n //p")
	# shellcheck disable=SC2086
	bl "$OLD" "$n.json" $args >old.bl 2>&1
	# shellcheck disable=SC2086
	bl "$NEW" "$n.json" $args >new.bl 2>&1
	differs "--baseline=$n.json (the baseline's figures)" old.bl new.bl
done
echo "$ndiff difference(s); the files are in $D"
[ "$ndiff" -eq 0 ]
