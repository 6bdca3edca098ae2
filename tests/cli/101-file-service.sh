#!/bin/sh
# file_service_type: which file of a job each I/O goes to, seen from
# outside (strace: the fd of every pread64, mapped to the file it opened),
# against fio's write_iolog on the same job (the exact sequence for the
# deterministic kinds, a chi-square homogeneity test of the per-file counts
# for the skewed ones) and against the laws themselves (uniform, zipf).
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "no strace"
have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1

# seq_iorig ARGS...: "file:block " for every read of files d/j.0.N, 4k blocks.
seq_iorig() {
	strace -f -s 0 -e trace=pread64,openat -o st "$IORIG" --name=j \
		--directory=d --bs=4k "$@" >out 2>err || die "iorig $*"
	# A call another thread interrupts is split in two lines, its fd on
	# "pread64(FD, <unfinished ...>", its offset on "<... pread64
	# resumed>..., COUNT, OFFSET) = N" of the same thread id ($1).
	awk '/openat\(.*"d\/j\.0\.[0-9]+"/ {
		match($0, /j\.0\.[0-9]+/); n = substr($0, RSTART + 4, RLENGTH - 4)
		k = split($0, a, "= "); fd[a[k] + 0] = n }
	/pread64\(/ { match($0, /pread64\([0-9]+/)
		f = substr($0, RSTART + 8, RLENGTH - 8) + 0
		if (/unfinished/) { pend[$1] = f; next } }
	/pread64 resumed/ { f = pend[$1]; delete pend[$1] }
	/pread64\(|pread64 resumed/ { if (!(f in fd)) next
		k = split($0, b, ", "); printf "%s:%d ", fd[f], b[k] / 4096 }' st
}
seq_fio() {
	rm -f log
	fio --name=j --directory=f --bs=4k --write_iolog=log "$@" \
		>/dev/null 2>&1 || die "fio $*"
	awk '$3 == "read" { n = $2; sub(/.*j\.0\./, "", n)
		printf "%s:%d ", n, $4 / 4096 }' log
}
# counts SEQ N: reads of each file 0..N-1.
counts() {
	echo "$1" | tr ' ' '\n' | awk -F: -v n="$2" 'NF == 2 { c[$1]++ }
		END { for (i = 0; i < n; i++) printf "%d ", c[i] + 0 }'
}
mkdir d f

# ---- the deterministic kinds: fio's exact order ----
for fst in roundrobin roundrobin:2 sequential; do
	s=$(seq_iorig --nrfiles=3 --size=48k --rw=read --file_service_type=$fst)
	case $fst in
	roundrobin) want="0:0 1:0 2:0 0:1 1:1 2:1 0:2 1:2 2:2 0:3 1:3 2:3 " ;;
	roundrobin:2) want="0:0 0:1 1:0 1:1 2:0 2:1 0:2 0:3 1:2 1:3 2:2 2:3 " ;;
	sequential) want="0:0 0:1 0:2 0:3 1:0 1:1 1:2 1:3 2:0 2:1 2:2 2:3 " ;;
	esac
	# The first reads may check the files: the last 12 are the job's.
	got=$(echo "$s" | tr ' ' '\n' | grep . | tail -n 12 | tr '\n' ' ')
	[ "$got" = "$want" ] || die "$fst: read $got, expected $want"
	if [ $have_fio = 1 ]; then
		fs=$(seq_fio --nrfiles=3 --size=48k --rw=read \
			--file_service_type=$fst)
		[ "$fs" = "$want" ] || die "$fst: fio read $fs (iorig $got)"
	fi
done
# The default is roundrobin, as fio's.
got=$(seq_iorig --nrfiles=3 --size=48k --rw=read | tr ' ' '\n' | grep . |
	tail -n 12 | tr '\n' ' ')
[ "$got" = "0:0 1:0 2:0 0:1 1:1 2:1 0:2 1:2 2:2 0:3 1:3 2:3 " ] ||
	die "default order: $got"

# randread, roundrobin: files in turn, each file's blocks a permutation
# (its own random map), one pass.
got=$(seq_iorig --nrfiles=3 --size=192k --rw=randread --randseed=3 |
	tr ' ' '\n' | grep . | tail -n 48)
echo "$got" | awk -F: '{ if ($1 != (NR - 1) % 3) bad = 1; seen[$0]++ }
	END { for (k in seen) if (seen[k] != 1) bad = 1
	      if (bad || length(seen) != 48) exit 1 }' ||
	die "randread roundrobin: $(echo $got)"
# sequential with a random map: each file all its blocks, then the next.
got=$(seq_iorig --nrfiles=3 --size=192k --rw=randread --randseed=3 \
	--file_service_type=sequential | tr ' ' '\n' | grep . | tail -n 48)
echo "$got" | awk -F: '{ if ($1 != int((NR - 1) / 16)) bad = 1; seen[$0]++ }
	END { if (bad || length(seen) != 48) exit 1 }' ||
	die "randread sequential: $(echo $got)"

# ---- random: uniform over files (chi-square, 7 df, p = 0.001: 24.32) ----
s=$(seq_iorig --nrfiles=8 --size=2m --io_size=32m --rw=randread \
	--norandommap --randseed=11 --file_service_type=random)
c=$(counts "$s" 8)
echo "$c" | awk '{ e = 0; for (i = 1; i <= NF; i++) e += $i; e /= NF
	for (i = 1; i <= NF; i++) x += ($i - e) ^ 2 / e
	if (x > 24.32) exit 1 }' || die "random over 8 files: $c"
# random:4: runs of at least 4 I/Os on one file.
s=$(seq_iorig --nrfiles=4 --size=1m --io_size=4m --rw=randread \
	--norandommap --randseed=5 --file_service_type=random:4)
echo "$s" | tr ' ' '\n' | grep . | tail -n 1024 | awk -F: '
	{ if ($1 != prev) { if (NR > 1 && run % 4) bad = 1; run = 0 }
	  run++; prev = $1 } END { exit bad }' || die "random:4 runs"

# ---- zipf over files: rank 0 (center 0) is file 0; the share of file 0
# is that of ranks 0..1023 of 4096 (1024 ranks a file, as fio draws) ----
s=$(seq_iorig --nrfiles=4 --size=1m --io_size=16m --rw=randread \
	--norandommap --randseed=11 --file_service_type=zipf:1.2:0)
ci=$(counts "$s" 4)
echo "$ci" | awk '{ for (k = 1; k <= 4096; k++) { w = k ^ -1.2; h += w
		if (k <= 1024) h0 += w }
	n = $1 + $2 + $3 + $4; p = h0 / h; e = n * p
	# 4 standard deviations
	if (($1 - e) ^ 2 > 16 * n * p * (1 - p)) exit 1
	if (!($1 > $2 && $2 > $3 && $3 > $4)) exit 1 }' ||
	die "zipf:1.2:0 counts $ci"
if [ $have_fio = 1 ]; then
	# Same kinds in fio: the per-file counts from the same law (2x4
	# homogeneity chi-square, 3 df, p = 0.001: 16.27).
	for fst in zipf:1.2:0 pareto:0.3:0 normal:30:0.5; do
		s=$(seq_iorig --nrfiles=4 --size=1m --io_size=16m \
			--rw=randread --norandommap --randseed=11 \
			--file_service_type=$fst)
		ci=$(counts "$s" 4)
		cf=$(counts "$(seq_fio --nrfiles=4 --size=1m --io_size=16m \
			--rw=randread --norandommap --file_service_type=$fst)" 4)
		echo "$ci $cf" | awk '{ for (i = 1; i <= 4; i++) {
			a += $i; b += $(i + 4) }
			for (i = 1; i <= 4; i++) { t = $i + $(i + 4)
				if (!t) continue
				ea = t * a / (a + b); eb = t * b / (a + b)
				x += ($i - ea) ^ 2 / ea + ($(i + 4) - eb) ^ 2 / eb }
			if (x > 16.27) exit 1 }' ||
			die "$fst: iorig $ci, fio $cf"
	done
fi

# ---- openfiles: at most N files in service at once (fio's open files) ----
want="0:0 1:0 0:1 1:1 0:2 1:2 0:3 1:3 2:0 3:0 2:1 3:1 2:2 3:2 2:3 3:3 "
got=$(seq_iorig --nrfiles=4 --size=64k --rw=read --openfiles=2 |
	tr ' ' '\n' | grep . | tail -n 16 | tr '\n' ' ')
[ "$got" = "$want" ] || die "openfiles=2 roundrobin: $got"
if [ $have_fio = 1 ]; then
	fs=$(seq_fio --nrfiles=4 --size=64k --rw=read --openfiles=2)
	[ "$fs" = "$want" ] || die "openfiles=2: fio read $fs"
fi
# random kinds: the spans from a file's first to last I/O overlap at most
# N at a time.
for fst in random random:3 roundrobin:2; do
	got=$(seq_iorig --nrfiles=6 --size=192k --rw=randread --openfiles=2 \
		--randseed=4 --file_service_type=$fst | tr ' ' '\n' | grep . |
		tail -n 48)
	echo "$got" | awk -F: '{ if (!($1 in first)) first[$1] = NR
		last[$1] = NR; n++ }
		END { if (n != 48 || length(first) != 6) exit 1
		for (i = 1; i <= n; i++) { c = 0
			for (f in first) if (first[f] <= i && i <= last[f]) c++
			if (c > 2) exit 1 } }' ||
		die "openfiles=2 $fst: $(echo $got)"
done

# ---- errors: named, exit 2, nothing run ----
for bad in roundrobin:0 roundrobin:x sequentail zipf:1 normal:-1; do
	run --name=x --filename=d/z --size=1m --file_service_type=$bad
	expect_rc 2
	expect_in err "option 'file_service_type'"
done
[ ! -e d/z ] || die "a refused job made its file"
# Skewed kinds rewrite blocks within a pass: verification refuses them.
run --name=x --directory=d --nrfiles=2 --size=1m --rw=randwrite \
	--verify=crc32c --file_service_type=zipf:1.2
expect_rc 2
expect_in err "option 'file_service_type': verification needs every block"
run --name=x --directory=d --nrfiles=2 --size=256k --rw=randwrite \
	--verify=crc32c --file_service_type=random:3
expect_rc 0
exit 0
