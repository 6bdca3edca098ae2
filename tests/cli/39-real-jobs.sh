#!/bin/sh
# Realistic job files (jobs/real/*.fio: vendor qualification, cloud and
# Kubernetes storage checks, database mixes, backups...) run unchanged
# apart from a short copy made by jobs/real/shorten.sh: runtime 300ms, no
# ramp, small sizes (percentages stay), raw-device filenames pointed at a
# loop device, file-system paths at this test's scratch directory. Each
# must exit 0 with a JSON report in which every job ran and did I/O, and
# leave the loop device's backing file its size.
# A file that needs an option iorig lacks fails here, naming it.
# lane: parallel
. "$(dirname "$0")/lib.sh"

src="$top/jobs/real"
ls "$src"/*.fio >/dev/null 2>&1 || die "no job files in $src"
loop_disk disk.img 64
# Sectors read + written by the loop device (/sys/block/*/stat fields 3, 7;
# printf: mawk prints a sum past 2^31 as 2.15e+09, which a long-used
# loop device reaches).
devsectors() {
	awk '{ printf "%.0f\n", $3 + $7 }' "/sys/block/$(basename "$dev")/stat"
}
mkdir scratch short || die "mkdir"
# Short copies side by side, so include lines resolve as in the originals.
for f in "$src"/*.inc; do
	[ -e "$f" ] || continue
	sh "$src/shorten.sh" "$f" "short/$(basename "$f")" "$dev" "$T/scratch" \
		300ms 4m 128k || die "shorten.sh $f"
done
n=0
failed=""
for f in "$src"/*.fio; do
	b=$(basename "$f" .fio)
	sh "$src/shorten.sh" "$f" "short/$b.fio" "$dev" "$T/scratch" 300ms 4m 128k ||
		die "shorten.sh $f"
	before=$(devsectors)
	run --output-format=json "short/$b.fio"
	after=$(devsectors)
	if [ "$rc" -ne 0 ]; then
		echo "FAIL $b.fio: exit $rc: $(grep -v '^iorig: warning' "$T/err" | head -3)"
		failed="$failed $b"
		continue
	fi
	# Every job (or group of clones) ran, with no error, and did I/O; the
	# number of reported entries is the number of sections less [global]
	# when there is no group_reporting, at least one otherwise.
	got=$(json "(len(d['jobs']), [j['name'] for j in d['jobs'] if not (j['ran'] and j['error'] is None and j['read']['ios'] + j['write']['ios'] > 0)])" 2>&1)
	case $got in
	"("[1-9]*", [])") ;;
	*) echo "FAIL $b.fio: jobs without I/O or with errors: $got"
		failed="$failed $b"; continue ;;
	esac
	# The raw-device jobs (all O_DIRECT) moved at least the bytes they
	# report through the loop device, by the kernel's own count.
	if grep -q '^filename=/dev/' "$f"; then
		bytes=$(json "sum(j['read']['io_bytes'] + j['write']['io_bytes'] for j in d['jobs'])")
		[ $(((after - before) * 512)) -ge "$bytes" ] || {
			echo "FAIL $b.fio: report says $bytes bytes, $dev moved $(((after - before) * 512))"
			failed="$failed $b"; continue; }
	fi
	# Without group_reporting each section is reported (its clones too).
	sections=$(grep -c '^\[' "$f")
	grep -q '^\[global\]' "$f" && sections=$((sections - 1))
	if ! grep -q '^group_reporting' "$f" short/*.inc; then
		entries=$(json "len(d['jobs'])")
		[ "$entries" -ge "$sections" ] || {
			echo "FAIL $b.fio: $sections jobs, $entries in the report"
			failed="$failed $b"; continue; }
	fi
	n=$((n + 1))
	rm -rf scratch/*
done
[ "$(fsize disk.img)" -eq $((64 * 1048576)) ] || die "disk.img changed size"
[ -z "$failed" ] || die "job files that did not run:$failed"
[ "$n" -ge 24 ] || die "expected at least 24 job files, ran $n"
echo "ok: $n realistic job files ran on $dev and $T/scratch"
