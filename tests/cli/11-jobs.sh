#!/bin/sh
# Every example job file in jobs/ runs, in a short mode: runtimes, ramp
# times and sizes are cut down; the report must be valid JSON with every
# job run and none failed.
# lane: parallel
. "$(dirname "$0")/lib.sh"

MiB=1048576
set -- "$top"/jobs/*.job
[ -e "$1" ] || die "no job files in $top/jobs"

mkdir jobs
cp -R "$top"/jobs/. jobs/
# Jobs that read a device given in $TARGET get a scratch file.
mkrand target.dat $((4 * MiB))
TARGET=$T/target.dat
export TARGET
odirect=1
have_odirect "$T" || odirect=0

n=0
for src in "$@"; do
	f=jobs/$(basename "$src")
	sed -E \
		-e 's/^[[:space:]]*(runtime|timeout)[[:space:]]*=.*/\1=150ms/' \
		-e 's/^[[:space:]]*(ramp_time)[[:space:]]*=.*/\1=50ms/' \
		-e 's/^[[:space:]]*(startdelay)[[:space:]]*=.*/\1=0/' \
		-e 's/^[[:space:]]*(size|io_size|io_limit)[[:space:]]*=[^%]*$/\1=4m/' \
		-e 's/^[[:space:]]*(loops)[[:space:]]*=.*/\1=1/' \
		-e 's/^[[:space:]]*(repeat)[[:space:]]*=.*/\1=2/' \
		"$src" >"$f"
	if [ $odirect = 0 ]; then
		sed -i -E 's/^[[:space:]]*direct[[:space:]]*=.*/direct=0/' "$f"
		echo "note: $T has no O_DIRECT; running $f with direct=0"
	fi
	mkdir "run.$n"
	cd "run.$n" || exit 1
	start=$(now_ms)
	run --output-format=json "../$f"
	ms=$(($(now_ms) - start))
	cd "$T" || exit 1
	[ "$rc" -eq 0 ] || die "$(basename "$src"): exit $rc"
	# Warnings only: a job file's own mistakes are reported as such.
	if grep -v '^iorig: warning: ' "$T/err" | grep -q .; then
		die "$(basename "$src"): unexpected stderr"
	fi
	sed 's/^/    /' "$T/err"
	out=$(json "len(d['jobs'])") || die "$(basename "$src"): stdout is not JSON"
	[ "$out" -ge 1 ] || die "$(basename "$src"): no jobs in the report"
	expect_json "all(j['ran'] and j['error'] is None for j in d['jobs'])" \
		"$(basename "$src"): every job ran without error"
	expect_json "sum(j[x]['ios'] for j in d['jobs'] for x in ('read', 'write')) > 0" \
		"$(basename "$src"): some I/O"
	# Presets with checks and repeats: the checks ran, none failed; every
	# job ran its (shortened) number of runs.
	if grep -Eq '^[[:space:]]*check[[:space:]]*=' "$f"; then
		expect_json "len(d['checks']) > 0 and all(c['pass'] is not False for c in d['checks'])" \
			"$(basename "$src"): its checks ran and passed"
	fi
	if grep -Eq '^[[:space:]]*repeat[[:space:]]*=' "$f"; then
		expect_json "all(j['repeats'] and j['repeats']['n'] == 2 for j in d['jobs'])" \
			"$(basename "$src"): every job ran twice"
	fi
	# unlink=1 leaves no file behind.
	if grep -Eq '^[[:space:]]*unlink[[:space:]]*=[[:space:]]*1' "$f"; then
		[ -z "$(ls -A "run.$n")" ] ||
			die "$(basename "$src") has unlink=1 but left: $(ls -A "run.$n")"
	fi
	echo "ok $(basename "$src") (${ms} ms)"
	n=$((n + 1))
done
exit 0
