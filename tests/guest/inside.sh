#!/bin/sh
# Runs inside the test guest, chrooted into the host's root (read-only
# under a tmpfs overlay): every case that run.sh listed, one after another,
# each under timeout(1), with its output and verdict on the results share
# RES (the first argument):
#   RES/NAME.start   written as the case starts
#   RES/NAME.log     its stdout and stderr
#   RES/NAME.rc      "EXIT SECONDS" when it ended
# RES/env.sh (written by run.sh) gives REPO, CASES, CASE_LIMIT and the
# environment the cases run with.
res=${1:?usage: inside.sh RESULTS-DIR}
. "$res/env.sh" || exit 1
cd "$REPO" || exit 1
echo "$(uname -r)" >"$res/kernel"
for c in $CASES; do
	n=$(basename "$c" .sh)
	start=$(date +%s)
	echo "$start" >"$res/$n.start"
	timeout -k 10 "$CASE_LIMIT" sh "$REPO/$c" >"$res/$n.log" 2>&1 </dev/null
	rc=$?
	echo "$rc $(( $(date +%s) - start ))" >"$res/$n.rc"
done
echo done >"$res/done"
