#!/bin/sh
# Runs inside the test guest, chrooted into the host's root (read-only
# under a tmpfs overlay): every case that run.sh listed and no other boot
# has claimed, one after another, each under timeout(1), with its output
# and verdict on the results share RES (the first argument):
#   RES/NAME.start   written as the case starts
#   RES/NAME.log     its stdout and stderr
#   RES/NAME.rc      "EXIT SECONDS" when it ended
#   RES/NAME.kmsg    when it failed: what the kernel logged meanwhile
#                    (an NVMe command the driver timed out and cancelled
#                    shows there, as the job's EINTR does not say why)
# A case is claimed before it starts: the symlink CLAIMS/NAME -> BOOT_ID,
# made only if no boot made it first (symlink(2) is atomic on the host's
# directory that the 9p share CLAIMS is). RES/env.sh (written by run.sh)
# gives REPO, CASES, CASE_LIMIT, BOOT_ID and the environment the cases
# run with; init mounts CLAIMS.
res=${1:?usage: inside.sh RESULTS-DIR CLAIMS-DIR}
claims=${2:?usage: inside.sh RESULTS-DIR CLAIMS-DIR}
. "$res/env.sh" || exit 1
cd "$REPO" || exit 1
echo "$(uname -r)" >"$res/kernel"
for c in $CASES; do
	n=$(basename "$c" .sh)
	ln -s -T "$BOOT_ID" "$claims/$n" 2>/dev/null || continue
	start=$(date +%s)
	read -r up _ </proc/uptime
	echo "$start" >"$res/$n.start"
	timeout -k 10 "$CASE_LIMIT" sh "$REPO/$c" >"$res/$n.log" 2>&1 </dev/null
	rc=$?
	case $rc in
	0|77) ;;
	*) dmesg 2>/dev/null | awk -v t="${up%.*}" '
		{ s = $0; sub(/^\[ */, "", s); if (s + 0 >= t) print }' \
		>"$res/$n.kmsg" ;;
	esac
	echo "$rc $(( $(date +%s) - start ))" >"$res/$n.rc"
done
echo done >"$res/done"
