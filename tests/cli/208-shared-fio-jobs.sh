#!/bin/sh
# Real fio job files as their authors published them (a folder laid out
# OWNER+REPO/PATH, with SOURCES.tsv, given in IORIG_FIO_JOBS; skipped
# without it), through bench/fio-jobs.py with fio 3.33 as the truth:
# - every file fio accepts (--parse-only) iorig accepts, unless its engine
#   needs a library this machine lacks, and the refusal says so;
# - the files without time_based run short against scratch files (never
#   a device they name) with both tools, and where the job is bound by
#   its size the bytes read and written agree within 5%.
# lane: parallel
. "$(dirname "$0")/lib.sh"

[ -n "${IORIG_FIO_JOBS:-}" ] ||
	skip "IORIG_FIO_JOBS (a folder of real fio job files) is not set"
[ -d "$IORIG_FIO_JOBS" ] || skip "IORIG_FIO_JOBS=$IORIG_FIO_JOBS is no folder"
command -v fio >/dev/null 2>&1 || skip "needs fio, the truth"

"$PY" "$top/bench/fio-jobs.py" "$IORIG_FIO_JOBS" --iorig "$IORIG" \
	--fio fio --no-time-based >"$T/out" 2>"$T/err"
rc=$?
tail -1 "$T/out"
[ "$rc" -eq 0 ] || die "bench/fio-jobs.py: exit $rc: $(grep -E '^(DIFF|FAILED)' "$T/out" | head -5)"
# Refusals: each names the engine and what it needs.
awk '/^REFUSED / { f = $2; getline; if ($0 !~ /engine .* needs /) print f }' \
	"$T/out" >bad
[ ! -s bad ] || die "refused without an absent engine: $(cat bad)"
grep -q '^files [0-9]*: fio accepts' "$T/out" || die "no summary"
exit 0
