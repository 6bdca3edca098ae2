#!/bin/sh
# Writes tests/times.txt from the times the last runs left in
# build/test-times/ (tests/run-all.sh) and build/guest-times/
# (tests/guest/run.sh): the order a fresh clone's first make test starts
# its tests in (tests/order.sh). Run after a whole make test on a quiet
# machine; the times only order, they check nothing.
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/tests/times.txt
{
	sed -n '/^#/p' "$out" 2>/dev/null
	for d in "$top/build/test-times" "$top/build/guest-times"; do
		for f in "$d"/*; do
			[ -f "$f" ] || continue
			read -r s <"$f" || continue
			case $s in ''|*[!0-9]*) continue ;; esac
			echo "${f##*/} $s"
		done
	done | sort
} >"$out.new" && mv "$out.new" "$out"
