#!/bin/sh
# rw=rw (sequential, mixed): each direction has its own position, as fio
# keeps one per direction, so the reads and the writes each walk the file
# from its start. Seen by strace (pread64, pwrite64 of the psync engine):
# - size-bound: the reads are 0, 4k, 8k... in order and so are the
#   writes; the two add up to the size, each from 0 (not one position
#   shared, which covered the size once, reads and writes interleaved);
#   with loops=2 (twice the size in all) each goes on, and both start
#   over at 0 once one of them has reached the end (fio: that direction
#   finishes the file, reopened for the next loop);
# - time_based: each direction goes to the end of the region before it
#   starts over (a shared position made each pass drop the page cache over
#   half-written data; buffered, that moved 2-4x less than fio).
# fio 3.33 on the same jobs shows the same orders.
# lane: parallel
. "$(dirname "$0")/lib.sh"

strace_works || skip "needs strace that may trace here"
have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1
mkrand f 262144

# trace TOOL ARGS...: the offsets and lengths of TOOL's job thread's reads
# (r.txt) and writes (w.txt), one "offset length" a line, in order.
trace() {
	tool=$1
	shift
	rm -f st.*
	strace -f -ff -qq -s0 -e trace=pread64,pwrite64 -o st "$tool" \
		--name=j --filename=f --ioengine=psync --bs=4k --thread "$@" \
		>out 2>err || die "$tool $*: exit $?"
	s=$(wc -l st.* | sort -n | grep -v total | tail -1 | awk '{ print $2 }')
	for c in read:r write:w; do
		awk -v sc="p${c%%:*}64" '$0 ~ "^" sc "\\(.* = [0-9]+$" {
			n = split($0, a, ", "); o = a[n]; sub(/\).*/, "", o)
			print o + 0, $NF }' "$s" >"${c#*:}.txt"
	done
}

# walks FILE: the runs of FILE's I/Os, each from 0 with every I/O where
# the one before ended: "N1 N2 ..." their counts of 4 KiB; fails
# (prints "bad") on any other step.
walks() {
	awk 'BEGIN { n = 0 }
	{ if ($1 == 0) { if (n) printf "%d ", n; n = 0 }
	  else if ($1 != end) { print "bad at " NR ": " end " then " $1; exit }
	  n += $2 / 4096; end = $1 + $2 }
	END { if (n) printf "%d", n }' "$1"
}

for tool in "$IORIG" fio; do
	[ "$tool" = fio ] && [ $have_fio = 0 ] && continue
	# 256k over 4k: 64 I/Os, reads and writes each from 0, in order.
	trace "$tool" --rw=rw --size=256k
	r=$(walks r.txt) w=$(walks w.txt)
	case "$r $w" in *bad*) die "$tool rw=rw: reads $r, writes $w" ;; esac
	[ $((r + w)) -eq 64 ] && [ "$r" -gt 16 ] && [ "$w" -gt 16 ] ||
		die "$tool rw=rw: $r reads and $w writes from 0, expected 64 in all, each a walk"
	# loops=2: 128 I/Os; a second walk only after one reached 64.
	trace "$tool" --rw=rw --size=256k --loops=2
	r=$(walks r.txt) w=$(walks w.txt)
	case "$r $w" in *bad*) die "$tool loops=2: reads $r, writes $w" ;; esac
	echo "$r,$w" | awk -F, '{ nr = split($1, r, " "); nw = split($2, w, " ")
		for (i = 1; i <= nr; i++) t += r[i]
		for (i = 1; i <= nw; i++) t += w[i]
		exit !(t == 128 && nr <= 2 && nw <= 2 &&
		       (nr + nw == 2 || r[1] == 64 || w[1] == 64)) }' ||
		die "$tool loops=2: read walks $r, write walks $w; expected 128 I/Os, both over again only after one reached 64"
	# time_based: each direction goes to the end (64 blocks) and over;
	# bssplit= takes iorig's other path (the random patterns').
	for bs in --bs=4k --bssplit=4k/50:8k/50; do
		trace "$tool" --rw=rw --size=256k --time_based --runtime=1 \
			--rate_iops=1000 $bs
		r=$(walks r.txt) w=$(walks w.txt)
		case "$r $w" in
		*bad*) die "$tool time_based $bs: reads $r, writes $w" ;;
		esac
		echo "$r" | awk '{ exit !($1 == 64 && NF >= 2) }' ||
			die "$tool time_based $bs: read walks $r, expected the first of 64 blocks and more"
		echo "$w" | awk '{ exit !($1 == 64 && NF >= 2) }' ||
			die "$tool time_based $bs: write walks $w, expected the first of 64 blocks and more"
	done
done
echo ok
