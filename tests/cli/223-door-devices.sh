#!/bin/sh
# The commands that write files besides a run (issue 21): `iorig merge
# --output`, `iorig plot --outdir`, `iorig report --html -o`, the exec
# engine's JOB.stdout (std_redirect), iorig-mpi's --rank-output go
# through the door: never onto a block device (merge --output=DEV wrote
# the report over an ext4 superblock, exit 0), never a new name in /dev
# (each of them made one), the report replaced whole, its formats checked
# before anything is opened (merge truncated the old output before an
# unknown format was refused), a symlink at the name replaced, not
# followed. Outside truths: sha256 of the device and e2fsck -n on it,
# the listing of /dev before and after, sha256 of the files.
# lane: paced
. "$(dirname "$0")/lib.sh"

run --name=n --ioengine=null --size=1m --output-format=json -o r.json
expect_rc 0

# devlist: /dev's names (loop devices come and go with other tests)
devlist() {
	ls -A /dev | grep -v '^loop' | sort
}
# nodev ARGS...: iorig ARGS is refused (exit 2) and /dev is as it was.
nodev() {
	devlist >"$T/dev.before"
	run "$@"
	expect_rc 2
	devlist >"$T/dev.after"
	cmp -s "$T/dev.before" "$T/dev.after" ||
		die "$*: /dev changed: $(diff "$T/dev.before" "$T/dev.after")"
}
N=/dev/iorig-door-$$
nodev merge --output=$N r.json
expect_in err "iorig makes no regular file in /dev"
nodev report --html -o $N.html r.json
expect_in err "iorig makes no regular file in /dev"
nodev --name=$N --ioengine=exec --program=true --runtime=100ms
expect_in err "option 'std_redirect'"
if command -v gnuplot >/dev/null 2>&1; then
	nodev plot --outdir=/dev r.json
	expect_in err "is in /dev: iorig makes no name there"
	nodev plot --outdir=$N.d r.json
	expect_in err "is in /dev: iorig makes no name there"
else
	echo "note: no gnuplot: plot --outdir not tried"
fi
IORIG_MPI=${IORIG_MPI:-$(dirname "$IORIG")/iorig-mpi}
if [ -x "$IORIG_MPI" ] && command -v mpirun >/dev/null 2>&1 &&
   [ -z "${IORIG_SAN:-}" ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl=self,vader
	devlist >"$T/dev.before"
	timeout -k 5 60 mpirun -np 2 "$IORIG_MPI" --name=n --ioengine=null \
		--size=1m --output-format=json --rank-output=$N \
		>"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -ne 0 ] || die "--rank-output in /dev: exit 0"
	expect_in err "option 'rank-output'.*iorig makes no regular file in /dev"
	devlist >"$T/dev.after"
	cmp -s "$T/dev.before" "$T/dev.after" ||
		die "rank-output: /dev changed: $(diff "$T/dev.before" "$T/dev.after")"
else
	echo "note: no iorig-mpi or mpirun: --rank-output not tried"
fi

# merge: the formats before the output; the old output kept whole.
echo "previous report" >old.txt
run merge --output-format=bogus --output=old.txt r.json
expect_rc 2
expect_in err "'bogus' is not a report format"
[ "$(cat old.txt)" = "previous report" ] || die "merge truncated its output first"
# a symlink at the name is replaced by the report; what it points at is
# left alone
echo victim >victim.txt
ln -s victim.txt link.txt
run merge --output=link.txt r.json
expect_rc 0
[ "$(cat victim.txt)" = victim ] || die "merge wrote through the symlink"
[ -f link.txt ] && [ ! -L link.txt ] || die "link.txt is not the report"
grep -q "cluster" link.txt || die "link.txt holds no report: $(head -3 link.txt)"

# merge --output onto a block device holding ext4.
loop_disk disk.img 16
command -v mkfs.ext4 >/dev/null 2>&1 || skip "needs mkfs.ext4"
mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 || skip "mkfs.ext4 failed"
sum=$(sha256sum <"$dev")
run merge --output="$dev" r.json
expect_rc 2
expect_in err "is a block device"
run merge --output-format=json --output="$dev" r.json
expect_rc 2
[ "$(sha256sum <"$dev")" = "$sum" ] || die "merge wrote onto the device"
e2fsck -fn "$dev" >"$T/out" 2>&1 || die "e2fsck -n: $(tail -5 "$T/out")"
echo "ok: merge, plot, report --html, std_redirect, --rank-output through the door"
