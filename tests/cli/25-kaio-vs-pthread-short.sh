#!/bin/sh
# jobs/kaio-vs-pthread.job in a short mode (runtime 50ms, a 4 MiB scratch
# file) with the table output: one row per sweep point, kernel AIO (the
# kaio alias of libaio) then the thread pool, each over the ten request
# sizes, every row with I/O done at queue depth 32; unlink=1 leaves no
# file. tests/cli/11-jobs.sh runs it too, with JSON and longer runtimes.
# lane: parallel
. "$(dirname "$0")/lib.sh"

src=$top/jobs/kaio-vs-pthread.job
[ -f "$src" ] || die "no $src"
sed -E \
	-e 's/^[[:space:]]*runtime[[:space:]]*=.*/runtime=50ms/' \
	-e 's/^[[:space:]]*size[[:space:]]*=.*/size=4m/' \
	"$src" >k.job
grep -q '^runtime=50ms' k.job && grep -q '^size=4m' k.job ||
	die "the job file has no runtime= or size= line to shorten"
note=""
if ! have_odirect "$T"; then
	sed -i -E 's/^[[:space:]]*direct[[:space:]]*=.*/direct=0/' k.job
	note="no O_DIRECT on $T: ran with direct=0"
fi
unset TARGET
mkdir run && cd run || exit 1
run --output-format=table ../k.job
cd "$T" || exit 1
expect_rc 0
if grep -v '^iorig: warning: ' "$T/err" | grep -q .; then
	die "unexpected stderr"
fi
[ -z "$(ls -A run)" ] || die "unlink=1 left: $(ls -A run)"
rows=$(grep -c '^study\[' "$T/out")
[ "$rows" -eq 20 ] || die "expected 20 rows (2 engines x 10 sizes), got $rows"
n=0
for e in kaio pthread; do
	for bs in 512 1k 2k 4k 8k 16k 32k 64k 128k 256k; do
		n=$((n + 1))
		case $e in kaio) eng=libaio ;; *) eng=$e ;; esac
		case $bs in 512) col=512B ;; *) col=${bs%k}KiB ;; esac
		line=$(grep '^study\[' "$T/out" | sed -n "${n}p")
		re="^study\[ioengine=$e bs=$bs\] +$eng +[1-9][0-9]* +$col +32 "
		echo "$line" | grep -Eq "$re" ||
			die "row $n is not $e bs=$bs with I/O at depth 32: $line"
	done
done
[ -z "$note" ] || skip "$note (passed)"
exit 0
