#!/bin/sh
# unlink=1 deletes the files that the job itself created, when the run
# ends: a later (stonewalled) job still reads them; a file that another job
# created, or that existed, is never deleted.
# lane: parallel
. "$(dirname "$0")/lib.sh"

MiB=1048576

# The writer creates f.dat with unlink=1; the reader, after it, reads it.
cat >wr.job <<'EOF'
[global]
filename=f.dat
size=1m
bs=64k

[w]
rw=write
unlink=1

[r]
stonewall
rw=read
EOF
run --output-format=json wr.job
expect_rc 0
json_is "d['jobs'][1]['read']['io_bytes']" $MiB
json_is "d['jobs'][1]['error']" None
[ ! -e f.dat ] || die "unlink=1 left f.dat"

# The reader has unlink=1 but did not create f.dat: it stays.
sed -e '/^unlink=1$/d' -e 's/^rw=read$/rw=read\nunlink=1/' wr.job >rw.job
grep -q '^unlink=1$' rw.job || die "could not make rw.job"
run rw.job
expect_rc 0
[ -e f.dat ] || die "unlink=1 deleted a file another job created"
[ "$(fsize f.dat)" -eq $MiB ] || die "f.dat is $(fsize f.dat) bytes"

# A file that existed, written and read with unlink=1: it stays, and only
# its region changed.
mkrand old.dat $((3 * MiB))
cp old.dat old.orig
run --name=u --filename=old.dat --offset=1m --size=1m --bs=4k --rw=randrw \
	--unlink=1
expect_rc 0
[ -e old.dat ] || die "unlink=1 deleted old.dat"
[ "$(sum_range old.dat 0 $MiB)" = "$(sum_range old.orig 0 $MiB)" ] ||
	die "old.dat changed before the region"
[ "$(sum_range old.dat $((2 * MiB)) $MiB)" = \
  "$(sum_range old.orig $((2 * MiB)) $MiB)" ] ||
	die "old.dat changed after the region"
exit 0
