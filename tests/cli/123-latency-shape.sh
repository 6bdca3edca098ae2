#!/bin/sh
# gtod_reduce and disable_lat/clat/slat/bw_measurement, and clocksource:
# the report has fio's shape. iorig still stamps every I/O (its clock is
# the TSC: cheap), but what fio would not have measured is reported
# empty, in both JSON formats. Outside truth: fio's fio-json on the same
# jobs (which latencies have samples), when fio is there; the expected
# table otherwise. The I/O counts do not change.
# lane: parallel
. "$(dirname "$0")/lib.sh"
py_serve

mkrand f.dat 4194304
# shape ARGS...: "slat clat lat" sample counts > 0 as 0/1, of fio-json
# read from stdin.
shape() {
	"$PY" -c 'import json,sys
r = json.load(sys.stdin)["jobs"][0]["read"]
print(" ".join(str(int(r[k]["N"] > 0)) for k in ("slat_ns", "clat_ns", "lat_ns")), r["total_ios"])'
}
for c in "libaio --direct=1 --iodepth=4" sync; do
	for o in none gtod_reduce disable_lat disable_clat disable_slat \
		disable_bw_measurement; do
		set -- --name=x --filename=f.dat --size=4m --rw=randread \
			--ioengine=$c
		[ $o = none ] || set -- "$@" --$o=1
		# shellcheck disable=SC2068
		got=$("$IORIG" $@ --output-format=fio-json | shape) ||
			die "iorig $*"
		case "$o,$c" in
		none,sync|disable_bw*,sync) want="0 1 1" ;;
		none,*|disable_bw*) want="1 1 1" ;;
		gtod_reduce,*) want="0 0 0" ;;
		disable_slat,*) want="0 1 1" ;;
		disable_lat,sync) want="0 1 0" ;;
		disable_lat,*) want="1 1 0" ;;
		disable_clat,sync) want="0 0 1" ;;
		disable_clat,*) want="1 0 1" ;;
		esac
		[ "$got" = "$want 1024" ] ||
			die "$o, $c: iorig's latencies with samples '$got', expected '$want 1024'"
		if command -v fio >/dev/null 2>&1; then
			# shellcheck disable=SC2068
			f=$(fio $@ --output-format=json 2>/dev/null | shape) ||
				die "fio $*"
			[ "$f" = "$got" ] ||
				die "$o, $c: fio '$f', iorig '$got'"
		fi
	done
done
# iorig's own JSON: the disabled histogram is empty, percentiles too.
run --name=x --filename=f.dat --size=4m --disable_clat=1 \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['clat_ns']['count']" 0
json_is "d['jobs'][0]['read']['lat_ns']['count']" 1024
# clocksource is accepted with each of fio's values; iorig keeps its clock.
for v in gettimeofday clock_gettime cpu; do
	run --name=x --ioengine=null --size=1m --clocksource=$v \
		--output-format=json
	expect_rc 0
	json_is "d['jobs'][0]['read']['ios']" 256
done
run --name=x --ioengine=null --size=1m --clocksource=tsc --parse-only
expect_rc 2
expect_in err "option 'clocksource'"
