#!/bin/sh
# File layout options, each against an outside truth (fio on the same job
# where it is installed, stat/filefrag, checksums):
# filename_format (names, errors that name it, paths never cut), fallocate
# modes and overwrite (size and allocation of what a job that only writes
# lays out, as fio leaves them), an unwritten layout before a read job
# (filled, and said), allow_file_create, create_only (no I/O: the data is
# unchanged), filesize (file sizes and bytes moved, as fio).
# lane: parallel
. "$(dirname "$0")/lib.sh"

KiB=1024
MiB=1048576
have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1

# alloc FILE: bytes allocated to FILE.
alloc() {
	echo $(($(stat -c %b "$1") * 512))
}

# ---- filename_format ----
mkdir a b
run --name=job --directory=a --filename_format='f-$JobName.$jobnum.$filenum$clientuid' \
	--nrfiles=2 --numjobs=2 --rw=write --size=128k --bs=64k
expect_rc 0
[ "$(ls a | tr '\n' ' ')" = "f-job.0.0 f-job.0.1 f-job.1.0 f-job.1.1 " ] ||
	die "filename_format made: $(ls a | tr '\n' ' ')"
if [ $have_fio = 1 ]; then
	fio --name=job --directory=b --filename_format='f-$JobName.$jobnum.$filenum$clientuid' \
		--nrfiles=2 --numjobs=2 --rw=write --size=128k --bs=64k \
		>/dev/null 2>&1 || die "fio failed on the same job"
	[ "$(ls a)" = "$(ls b)" ] || die "fio made $(ls b | tr '\n' ' ')"
fi

# A word it does not know: named, on the command line and in a job file.
run --name=x --filename_format='x.$filenum.$bogus' --parse-only
expect_rc 2
expect_in err "option 'filename_format': .*unknown word at '\\\$bogus'"
expect_not_in err "unknown variable"
printf '[x]\nfilename_format=$jobname.$nope\nrw=read\n' >bad.fio
run bad.fio
expect_rc 2
expect_in err "bad.fio:2: option 'filename_format':.*'\\\$nope'"
# $ncpus is still a job-file variable there.
run --name=x --filename_format='n$ncpus.$filenum' --parse-only
expect_rc 0
expect_in out "filename_format=n[0-9]+\\.\\\$filenum"

# A path far longer than 256 bytes comes whole in the message.
long=$T
i=0
while [ $i -lt 12 ]; do
	long=$long/dddddddddddddddddddddddddddddddddddddddd
	i=$((i + 1))
done
mkdir -p "$long"
run --name=x --filename="$long/missing" --allow_file_create=0 --rw=read \
	--size=1m
expect_rc 2
grep -qF -- "$long/missing" "$T/err" || die "the path was cut"

# ---- fallocate and overwrite: what a job that only writes lays out ----
# create_only=1: the layout alone. Size and allocation as fio leaves them.
probe=$T/probe
: >"$probe"
fallocate -l 64k "$probe" 2>/dev/null ||
	skip "this file system has no fallocate"
check_mode() {	# MODE EXPECTED_SIZE MIN_ALLOC MAX_ALLOC [OPTION]
	rm -f w.0.0
	run --name=w --rw=write --size=1m --bs=64k --create_only=1 \
		--fallocate="$1" $5
	expect_rc 0
	s=$(fsize w.0.0) al=$(alloc w.0.0)
	[ "$s" -eq "$2" ] || die "fallocate=$1 $5: size $s, expected $2"
	[ "$al" -ge "$3" ] && [ "$al" -le "$4" ] ||
		die "fallocate=$1 $5: $al bytes allocated, expected $3..$4"
	if [ $have_fio = 1 ]; then
		rm -f w.0.0
		fio --name=w --rw=write --size=1m --bs=64k --create_only=1 \
			--fallocate="$1" $5 >/dev/null 2>&1 || die "fio failed"
		[ "$(fsize w.0.0)" -eq "$s" ] ||
			die "fallocate=$1 $5: fio made $(fsize w.0.0) bytes, iorig $s"
		[ $(($(alloc w.0.0) / MiB)) -eq $((al / MiB)) ] ||
			die "fallocate=$1 $5: fio allocated $(alloc w.0.0), iorig $al"
	fi
}
check_mode native $MiB $MiB $((MiB + 64 * KiB))
check_mode posix $MiB $MiB $((MiB + 64 * KiB))
check_mode 1 $MiB $MiB $((MiB + 64 * KiB))
check_mode keep 0 $MiB $((MiB + 64 * KiB))
check_mode truncate $MiB 0 $((64 * KiB))
check_mode none 0 0 0
check_mode 0 0 0 0
check_mode native $MiB $MiB $((MiB + 64 * KiB)) --overwrite=1

# native: unwritten extents, no data (FIEMAP says so where filefrag is).
rm -f w.0.0
run --name=w --rw=write --size=1m --bs=64k --create_only=1
expect_rc 0
if command -v filefrag >/dev/null 2>&1; then
	filefrag -v w.0.0 | grep -q unwritten ||
		die "fallocate=native wrote data: $(filefrag -v w.0.0)"
fi
# overwrite=1: real data before the writes.
rm -f w.0.0
run --name=w --rw=write --size=1m --bs=64k --create_only=1 --overwrite=1
expect_rc 0
[ "$(cksum <w.0.0)" != "$(head -c $MiB /dev/zero | cksum)" ] ||
	die "overwrite=1 laid out zeros"

# A write job that lays out with fallocate, then a read job in the next
# group: the unwritten extents are filled before it reads, and said.
rm -f w.0.0
run --name=w --rw=write --size=1m --bs=64k --create_only=1 \
	--name=r --stonewall --filename=w.0.0 --rw=read --size=1m --bs=64k
expect_rc 0
expect_in err "warning: job 'r': w\\.0\\.0: 1048576 bytes .* filled with random data"
[ "$(cksum <w.0.0)" != "$(head -c $MiB /dev/zero | cksum)" ] ||
	die "the read job read unwritten extents"

# An existing shorter file: extended by fallocate, its data kept, said.
mkrand short.dat $((256 * KiB))
before=$(cksum <short.dat)
run --name=x --filename=short.dat --rw=write --size=1m --bs=64k \
	--create_only=1
expect_rc 0
expect_in err "short\\.dat: room made past its end, from 262144 to 1048576 bytes, with fallocate=native"
[ "$(head -c $((256 * KiB)) short.dat | cksum)" = "$before" ] ||
	die "the data of short.dat changed"
# truncate never shortens.
mkrand long.dat $((2 * MiB))
run --name=x --filename=long.dat --rw=write --size=1m --bs=64k \
	--fallocate=truncate --create_only=1
expect_rc 0
[ "$(fsize long.dat)" -eq $((2 * MiB)) ] || die "fallocate=truncate shortened"

# ---- allow_file_create ----
run --name=x --filename=nope.dat --allow_file_create=0 --rw=write --size=1m
expect_rc 2
expect_in err "nope\\.dat: option 'allow_file_create': .*does not exist"
[ ! -e nope.dat ] || die "allow_file_create=0 created the file"
run --name=x --filename=long.dat --allow_file_create=0 --rw=read --size=1m \
	--bs=64k
expect_rc 0

# ---- create_only: no I/O at all ----
before=$(cksum <long.dat)
run --name=x --filename=long.dat --rw=randwrite --size=2m --bs=4k \
	--create_only=1 --output-format=json
expect_rc 0
json_is "d['jobs'][0]['write']['ios']" 0
[ "$(cksum <long.dat)" = "$before" ] || die "create_only=1 wrote"

# ---- filesize: each file that size; size= is then the I/O per loop ----
for extra in "--size=6m" "--size=2m" "--io_size=5m" ""; do
	rm -f f.*
	run --name=f --rw=read --filesize=1m --nrfiles=3 $extra --bs=64k \
		--output-format=json
	expect_rc 0
	for n in 0 1 2; do
		[ "$(fsize f.0.$n)" -eq $MiB ] || die "f.0.$n: $(fsize f.0.$n)"
	done
	got=$(json "d['jobs'][0]['read']['io_bytes']")
	if [ $have_fio = 1 ]; then
		rm -f f.*
		want=$(fio --name=f --rw=read --filesize=1m --nrfiles=3 $extra \
			--bs=64k --output-format=json 2>/dev/null |
			"$PY" -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["read"]["io_bytes"])')
		[ "$got" = "$want" ] ||
			die "filesize=1m $extra: iorig moved $got bytes, fio $want"
	fi
done
exit 0
