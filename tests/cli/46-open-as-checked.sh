#!/bin/sh
# Targets are opened as what was checked (SAFETY), and a target that cannot
# be written is found before any job runs.
# - A later group's target replaced between the checks and its group's
#   start (by a symlink to another file, by another file, or a symlink
#   where a new file was to be created): that job fails (exit 1) naming the
#   path, and the other file keeps its bytes.
# - unlink=1 deletes only the inode the run created: a file put in its
#   place stays, with a warning.
# - A dangling symlink, a read-only file system, a directory or file the
#   user may not write, an active swap file: exit 2 before the first group
#   ran (its file was never created).
. "$(dirname "$0")/lib.sh"

MiB=1048576

# twogroups TARGET [OPTION]: group 0 writes first.dat (with OPTION),
# group 1 writes TARGET. prerun.sh, when there is one, is group 0's
# exec_prerun=: it runs when every job of the run has been checked and
# first.dat is open, before group 0 starts and so before group 1 opens
# TARGET. The change a test makes there lands in that window every time,
# whatever the machine's load (no race against a clock).
twogroups() {
	cat >two.job <<JOB
[global]
size=1m
bs=64k
rw=write

[first]
filename=first.dat
${2:-}
$([ -e prerun.sh ] && echo "exec_prerun=sh prerun.sh")

[second]
stonewall
filename=$1
JOB
}

# changed TARGET [OPTION] < SCRIPT: two groups on TARGET, SCRIPT as the
# prerun (see twogroups), iorig run on them, JSON on stdout.
changed() {
	cat >prerun.sh
	twogroups "$@"
	"$IORIG" --output-format=json two.job >"$T/out" 2>"$T/err"
	rc=$?
	rm -f prerun.sh
}

# victim: a file with known data that no job names.
mkrand victim.dat $MiB
vsum=$(cksum <victim.dat)

# (1) An existing file replaced by a symlink to another file.
mkrand target.dat $MiB
changed target.dat <<SH
ln -sf victim.dat target.dat
SH
expect_rc 1
expect_in err "target.dat"
expect_in err "replaced by a symbolic link"
json_is "d['jobs'][1]['write']['io_bytes']" 0
[ "$(cksum <victim.dat)" = "$vsum" ] || die "victim.dat was written"
rm -f first.dat target.dat

# (2) An existing file replaced by another (mv): another inode.
mkrand target.dat $MiB
cp victim.dat other.dat
changed target.dat <<SH
mv other.dat target.dat
SH
expect_rc 1
expect_in err "target.dat.*changed since the job was checked"
[ "$(cksum <target.dat)" = "$vsum" ] || die "the new target.dat was written"
rm -f first.dat target.dat

# (3) A new file to be created; a symlink appears there meanwhile.
changed new.dat <<SH
ln -s victim.dat new.dat
SH
expect_rc 1
expect_in err "new.dat.*did not exist when the job was checked"
[ "$(cksum <victim.dat)" = "$vsum" ] || die "victim.dat was written"
[ -L new.dat ] || die "new.dat is no longer the symlink"
rm -f first.dat new.dat

# (4) unlink=1 on a file replaced after the job opened it.
cp victim.dat keep.dat
mkrand other.dat $MiB
changed other.dat unlink=1 <<SH
mv keep.dat first.dat
SH
expect_rc 0
expect_in err "first.dat: not deleted \(unlink=1\)"
[ -f first.dat ] || die "unlink=1 deleted a file it did not create"
[ "$(cksum <first.dat)" = "$vsum" ] || die "the new first.dat changed"
rm -f first.dat other.dat

# A file the same run created is still used by a later group and deleted
# at the end: the checks do not refuse it.
printf '[w]\nfilename=made.dat\nsize=1m\nbs=64k\nrw=write\nunlink=1\n[r]\nstonewall\nfilename=made.dat\nsize=1m\nbs=64k\nrw=read\n' >made.job
run made.job
expect_rc 0
expect_empty err
[ ! -e made.dat ] || die "unlink=1 left made.dat"

# ---- unwritable targets: exit 2, and the first group never ran ----

# unwritable WHY TARGET: group 1 writing TARGET is refused at plan time.
unwritable() {
	twogroups "$2"
	run two.job
	expect_rc 2
	expect_empty out
	expect_in err "$2"
	expect_in err "$1"
	[ ! -e first.dat ] || die "the first group ran before $2 was refused"
}

ln -s nowhere.dat dangling.dat
unwritable "symbolic link to a file that does not exist" dangling.dat
[ ! -e nowhere.dat ] || die "a file was created through the symlink"

[ "$(id -u)" -eq 0 ] || skip "not root: devices, read-only mounts, permissions and swap unchecked"

la= lb= swap=
cleanup() {
	[ -z "$swap" ] || swapoff "$T/swap.img"
	for _d in $la $lb; do
		losetup -d "$_d" 2>/dev/null
	done
	_undo_mounts
	cd /
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# ---- devices: another device under the checked name ----
if command -v losetup >/dev/null 2>&1 &&
   head -c $((4 * MiB)) /dev/zero >a.img && cp a.img b.img &&
   la=$(losetup -f --show a.img 2>/dev/null) &&
   lb=$(losetup -f --show b.img 2>/dev/null); then
	# (5) A symlink to a device, pointed at another device meanwhile.
	ln -s "$la" dev.lnk
	changed dev.lnk <<-SH
	ln -sfn '$lb' dev.lnk
	SH
	expect_rc 1
	expect_in err "dev.lnk.*changed since the job was checked: it was a block device"
	[ "$(cksum <b.img)" = "$(cksum <a.img)" ] || die "b.img was written"
	rm -f first.dat

	# (6) The same device number, another disk: the loop device is
	# re-attached to b.img (a hot-plugged disk taking a freed name).
	changed "$la" <<SH
losetup -d '$la' || exit 1
n=50
until losetup '$la' b.img 2>/dev/null || [ \$n -eq 0 ]; do
	sleep 0.1
	n=\$((n - 1))
done
[ \$n -gt 0 ]
SH
	[ "$rc" -ne 1 ] || ! grep -q "exec_prerun" "$T/err" ||
		die "cannot re-attach $la: $(cat first.prerun.txt)"
	if [ -e /sys/block/"${la#/dev/}"/diskseq ]; then
		expect_rc 1
		expect_in err "$la.*is another disk than when the job was checked"
		[ "$(cksum <b.img)" = "$(cksum <a.img)" ] || die "b.img was written"
	else
		echo "note: no disk sequence numbers here; re-attached devices not tested"
	fi
	rm -f first.dat
else
	echo "note: no loop devices here; replaced devices not tested"
fi

# A read-only bind mount: a new file in it, an existing one.
mkdir ro
mkrand ro/old.dat $MiB
mount --bind ro ro 2>/dev/null && {
	_track_mount "$T/ro"
	trap cleanup EXIT	# _track_mount set its own
	mount -o remount,ro,bind ro 2>"$T/mount.err" ||
		die "cannot remount read-only: $(cat "$T/mount.err")"
	unwritable "cannot be created: directory 'ro': Read-only file system" ro/new.dat
	unwritable "cannot be written: Read-only file system" ro/old.dat
	# Reading it is fine.
	run --name=r --filename=ro/old.dat --size=1m --bs=64k --rw=read
	expect_rc 0
} || echo "note: no bind mounts here; read-only file systems not tested"

# Permissions, as an unprivileged user (root bypasses them).
if command -v setpriv >/dev/null 2>&1 &&
   setpriv --reuid=65534 --regid=65534 --clear-groups "$IORIG" --version \
	>/dev/null 2>&1; then
	chmod 755 "$T"
	mkdir locked && chmod 755 locked
	mkrand locked/old.dat $MiB
	chmod 777 "$T"	# first.dat would be created by nobody
	asnobody() {
		twogroups "$1"
		setpriv --reuid=65534 --regid=65534 --clear-groups "$IORIG" \
			two.job >"$T/out" 2>"$T/err"
		rc=$?
	}
	asnobody locked/new.dat
	expect_rc 2
	expect_in err "locked/new.dat.*cannot be created: directory 'locked': Permission denied"
	[ ! -e first.dat ] || die "the first group ran"
	asnobody locked/old.dat
	expect_rc 2
	expect_in err "locked/old.dat.*cannot be written: Permission denied"
	[ ! -e first.dat ] || die "the first group ran"
else
	echo "note: cannot run as nobody here; permissions not tested"
fi

# An active swap file.
if command -v mkswap >/dev/null 2>&1; then
	head -c $((16 * MiB)) /dev/zero >swap.img && chmod 600 swap.img &&
		mkswap swap.img >/dev/null 2>&1
	if swapon swap.img 2>/dev/null; then
		swap=1
		unwritable "in use: it is an active swap file" swap.img
		swapoff swap.img && swap=
	else
		echo "note: swapon refused here; swap files not tested"
	fi
fi
exit 0
