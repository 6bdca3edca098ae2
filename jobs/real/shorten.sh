#!/bin/sh
# shorten.sh SRC DST DEV DIR RUNTIME SIZE FILESIZE
# A short copy of the job file SRC in DST, for the test and the bench:
# runtime= becomes RUNTIME, ramp_time= 0, size= SIZE unless it is a
# percentage, filesize= FILESIZE, a filename under /dev/ the block device
# DEV, any other filename DIR/<its base name>, directory= DIR. FILESIZE is
# raised to twice the file's largest block size (bs=, bssplit=) when that
# is bigger. Everything else (include lines too) is left as written.
[ $# -eq 7 ] || { echo "usage: shorten.sh SRC DST DEV DIR RUNTIME SIZE FILESIZE" >&2; exit 2; }
fs=$7
big=$(sed -n 's/^\(bs\|bssplit\)=//p' "$1" | tr ':,/' '\n\n\n' |
	sed -n 's/^\([0-9][0-9]*\)\([kKmM]\{0,1\}\)$/\1 \2/p' |
	awk '{ v = $1; if ($2 ~ /[kK]/) v *= 1024; if ($2 ~ /[mM]/) v *= 1048576
		if (v > m) m = v } END { print m * 2 }')
[ "${big:-0}" -gt 0 ] && [ "$big" -gt "$(echo "$fs" | awk '{ v = $1 + 0
	if ($1 ~ /[kK]$/) v *= 1024; if ($1 ~ /[mM]$/) v *= 1048576; print v }')" ] &&
	fs=$big
sed -e "s|^runtime=.*|runtime=$5|" \
	-e 's|^ramp_time=.*|ramp_time=0|' \
	-e '/^size=.*%[[:space:]]*$/!'"s|^size=.*|size=$6|" \
	-e "s|^filesize=.*|filesize=$fs|" \
	-e "\\|^filename=/dev/|!s|^filename=\(.*/\)\{0,1\}\([^/]*\)$|filename=$4/\2|" \
	-e "s|^filename=/dev/.*|filename=$3|" \
	-e "s|^directory=.*|directory=$4|" \
	"$1" >"$2"
