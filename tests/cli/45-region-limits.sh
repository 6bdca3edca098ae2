#!/bin/sh
# Region arithmetic never wraps: offset + size beyond 2^63 - 1 (the largest
# file offset) and regions beyond 2^64 bytes are plan-time errors (exit 2)
# that name the option, and nothing is created or written. A file region
# smaller than the block size in use is refused the same way.
# And names: in filename=, "\:" is a ':' inside a name (by-path names).
# lane: parallel
. "$(dirname "$0")/lib.sh"

# unchanged FILE COPY: FILE still has COPY's bytes and size.
unchanged() {
	cmp -s "$1" "$2" || die "$1 was changed"
}

mkrand a.dat 1048576
cp a.dat a.orig

# offset + size wraps past 2^63: refused, naming size=; a.dat untouched.
run --name=w --filename=a.dat --rw=write --bs=4k \
	--offset=9223372036854771712 --size=8k
expect_rc 2
expect_in err "option 'size'"
expect_in err "2\^63 - 1"
expect_empty out
unchanged a.dat a.orig

# An offset beyond 2^63 (2^64 - 4k): refused, naming offset=.
run --name=w --filename=a.dat --rw=write --bs=4k \
	--offset=18446744073709547520 --size=8k
expect_rc 2
expect_in err "option 'offset'"
expect_in err "beyond the largest file offset"
unchanged a.dat a.orig

# The same for a file that does not exist yet: it is not created.
run --name=w --filename=new.dat --rw=write --bs=4k \
	--offset=9223372036854767616 --size=16k
expect_rc 2
expect_in err "option 'size'"
[ ! -e new.dat ] || die "new.dat was created"

# In a job file, with the region split over files: refused, nothing made.
cat >wrap.job <<'EOF'
[w]
filename=n1.dat:n2.dat
rw=randwrite
bs=4k
offset=9223372036854775000
size=1m
EOF
run wrap.job
expect_rc 2
expect_in err "option 'offset'|option 'size'"
[ ! -e n1.dat ] && [ ! -e n2.dat ] || die "a target file was created"

# Each file region must hold one block of a direction in use: 6k over two
# files is 3k each.
run --name=w --filename=s1.dat:s2.dat --rw=write --bs=4k --size=6k
expect_rc 2
expect_in err "option 'size'"
expect_in err "smaller than the write block size \(4096\)"
[ ! -e s1.dat ] && [ ! -e s2.dat ] || die "a target file was created"

# "\:" in filename= is a ':' in the name: on the command line, an existing
# file with a by-path-like name is read, and one is made next to it.
mkrand 'pci-0000:00:1f.2-ata-1' 262144
cp 'pci-0000:00:1f.2-ata-1' by-path.orig
run --name=c --output-format=json --rw=read --bs=4k --size=256k \
	--filename='pci-0000\:00\:1f.2-ata-1'
expect_rc 0
json_is "d['jobs'][0]['read']['io_bytes']" 262144
unchanged 'pci-0000:00:1f.2-ata-1' by-path.orig
[ "$(ls | grep -c '^pci-')" -eq 1 ] || die "files made: $(ls)"

# In a job file, two names, the first with a ':': both files and only
# those are made, the region split between them.
cat >colon.job <<'EOF'
[c]
filename=x\:y.dat:z.dat
rw=write
bs=4k
size=128k
EOF
run colon.job
expect_rc 0
[ "$(fsize x:y.dat)" -eq 65536 ] || die "x:y.dat is not 64 KiB"
[ "$(fsize z.dat)" -eq 65536 ] || die "z.dat is not 64 KiB"
for f in 'x\' 'x' 'y.dat' 'x\:y.dat'; do
	[ ! -e "$f" ] || die "made '$f'"
done

# nfiles * the region of each file beyond 2^64 bytes: five sparse files
# of 2^62 bytes on a tmpfs (ext4 and most file systems cannot hold them).
if [ "$(id -u)" = 0 ] && mkdir big && command -v truncate >/dev/null &&
   mount -t tmpfs -o size=1m tmpfs big 2>/dev/null; then
	_track_mount "$T/big"
	list=""
	for i in 1 2 3 4 5; do
		truncate -s 4E big/f$i || die "cannot make big/f$i"
		list="$list${list:+:}big/f$i"
	done
	run --name=w --filename="$list" --rw=randwrite --bs=4k --io_size=64k
	expect_rc 2
	expect_in err "option 'size'"
	expect_in err "larger than 2\^64 bytes"
	used=$(du -s -B1 big | cut -f1)
	[ "$used" -eq 0 ] || die "$used bytes were written to big/"
else
	echo "note: the 2^64-byte region case needs root and a tmpfs; left out"
fi
exit 0
