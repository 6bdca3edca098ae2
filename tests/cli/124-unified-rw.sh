#!/bin/sh
# unified_rw_reporting with fio's meaning: mixed reports reads and writes
# as one direction, "mixed"; both gives read, write and mixed. Outside
# truth: fio's fio-json on the same job (which directions it has), and
# the sum of the directions (mixed's I/Os, bytes and latency samples are
# the reads' and writes' together; its min/max the smaller/larger).
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

mkrand f.dat 4194304
keys='import json,sys
j = json.load(sys.stdin)["jobs"][0]
print(" ".join(k for k in ("read", "write", "trim", "mixed") if k in j))'
for m in none mixed both 0 1 2; do
	set -- --name=x --filename=f.dat --size=4m --rw=randrw \
		--unified_rw_reporting=$m
	got=$("$IORIG" "$@" --output-format=fio-json | "$PY" -c "$keys") ||
		die "iorig $*"
	case $m in
	none|0) want="read write trim" ;;
	mixed|1) want=mixed ;;
	*) want="read write trim mixed" ;;
	esac
	[ "$got" = "$want" ] || die "$m: fio-json has '$got', expected '$want'"
	if command -v fio >/dev/null 2>&1; then
		f=$(fio "$@" --output-format=json 2>/dev/null |
			"$PY" -c "$keys") || die "fio $*"
		[ "$f" = "$got" ] || die "$m: fio has '$f', iorig '$got'"
	fi
done

run --name=x --filename=f.dat --size=4m --rw=randrw \
	--unified_rw_reporting=both --output-format=json
expect_rc 0
j="d['jobs'][0]"
json_is "$j['mixed']['ios'] == $j['read']['ios'] + $j['write']['ios'] == 1024" True
json_is "$j['mixed']['io_bytes']" 4194304
json_is "$j['mixed']['clat_ns']['count'] == $j['read']['clat_ns']['count'] + $j['write']['clat_ns']['count']" True
json_is "$j['mixed']['clat_ns']['max'] == max($j['read']['clat_ns']['max'], $j['write']['clat_ns']['max'])" True
json_is "$j['mixed']['clat_ns']['min'] == min($j['read']['clat_ns']['min'], $j['write']['clat_ns']['min'])" True
json_is "d['groups'][0]['mixed']['ios']" 1024
run --name=x --filename=f.dat --size=4m --rw=randrw --output-format=json
json_is "d['jobs'][0]['mixed']" None
# The text report: mixed alone replaces the read and write lines.
run --name=x --filename=f.dat --size=4m --rw=randrw \
	--unified_rw_reporting=mixed
expect_rc 0
expect_in out '^  mixed .* 1024 ios$'
expect_not_in out '^  (read|write) '
