#!/bin/sh
# A sweep is one row per point: --sweep=bs:4k,8k,16k --sweep=iodepth:1,4
# is six stonewalled jobs, last dimension fastest, each with its values,
# in the table and in the JSON.
# lane: parallel
. "$(dirname "$0")/lib.sh"

MiB=1048576
sweep="--sweep=bs:4k,8k,16k --sweep=iodepth:1,4"

# shellcheck disable=SC2086
run --name=s --filename=s.dat --size=1m --ioengine=pthread --rw=randread \
	$sweep --output-format=table
expect_rc 0
only_rows=$(grep -c '^s\[' "$T/out")
[ "$only_rows" -eq 6 ] || die "expected 6 rows, got $only_rows"
# Nothing else but the two header lines.
[ "$(grep -vc '^s\[' "$T/out")" -eq 2 ] || die "expected 2 header lines"
expect_in out '^# cpu'
expect_in out '^job +engine +reqs +bs +depth '
n=0
for bs in 4k 8k 16k; do
	for qd in 1 4; do
		n=$((n + 1))
		line=$(grep '^s\[' "$T/out" | sed -n "${n}p")
		reqs=$((MiB / ${bs%k} / 1024))
		re="^s\[bs=$bs iodepth=$qd\] +pthread +$reqs +${bs%k}KiB +$qd "
		echo "$line" | grep -Eq "$re" ||
			die "row $n is not bs=$bs iodepth=$qd, $reqs reqs: $line"
	done
done

# shellcheck disable=SC2086
run --name=s --filename=s.dat --size=1m --ioengine=pthread --rw=randread \
	$sweep --output-format=json
expect_rc 0
json_is "len(d['jobs'])" 6
json_is "[j['sweep_point'] for j in d['jobs']]" \
	"$(printf "['bs=4k iodepth=1', 'bs=4k iodepth=4', %s, %s, %s, %s]" \
		"'bs=8k iodepth=1'" "'bs=8k iodepth=4'" \
		"'bs=16k iodepth=1'" "'bs=16k iodepth=4'")"
want="[('4096', '1'), ('4096', '4'), ('8192', '1'), ('8192', '4'), "
want="$want('16384', '1'), ('16384', '4')]"
json_is "[(j['options']['bs'], j['options']['iodepth']) for j in d['jobs']]" \
	"$want"
# Stonewalled: each point its own group.
json_is "[j['group'] for j in d['jobs']]" "[0, 1, 2, 3, 4, 5]"
json_is "len(d['groups'])" 6
json_is "[j['read']['ios'] for j in d['jobs']]" "[256, 256, 128, 128, 64, 64]"
expect_json "all(j['ran'] and j['error'] is None for j in d['jobs'])" \
	"every point ran"

# One after the other: six points of 100ms take at least 600ms.
# shellcheck disable=SC2086
run --name=t --ioengine=null --time_based --runtime=100ms $sweep \
	--output-format=json
expect_rc 0
json_is "len(d['jobs'])" 6
expect_json "d['wall_ns'] >= 590000000" "the points ran one after the other"

# An engine sweep with a job that has clones: points x clones rows.
run --name=e --ioengine=null --size=1m --numjobs=2 \
	--sweep=ioengine:null,sync --filename=e.dat --output-format=table
expect_rc 0
[ "$(grep -c '^e\[' "$T/out")" -eq 4 ] ||
	die "expected 4 rows (2 engines x 2 clones), got $(grep -c '^e\[' "$T/out")"
exit 0
