#!/bin/sh
# uid=, gid=:
# - what the job's user may not read, write or create is refused at plan
#   time (exit 2, option uid, the file named), before anything is made or
#   run (no --output, no other job's file), where it failed at run time
#   (exit 1) after the layout of the other jobs; the check is the
#   kernel's, on a thread of that user (iorig's own ids never change);
# - exec_prerun and exec_postrun run as the job's user, as fio's do (its
#   job process has switched): the ids they print and the owner of the
#   files they make (stat), and a directory only root may write refuses
#   them; a job without uid= runs them as root.
# lane: parallel
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root (switching to another user)"
chmod 711 "$T"
mkdir -m 1777 "$T/d"
mkdir -m 755 "$T/d/root"
head -c 65536 /dev/urandom >"$T/d/secret"
chmod 600 "$T/d/secret"
head -c 65536 /dev/urandom >"$T/d/ro"
chmod 644 "$T/d/ro"

# refused WHAT FILE ARGS...: exit 2 naming FILE and WHAT; nothing made.
refused() {
	_what=$1 _f=$2
	shift 2
	t0=$(now_ms)
	run --name=other --filename="$T/d/other" --rw=write --size=64k \
		--name=u --filename="$_f" --size=64k --uid=65534 \
		--output="$T/o.json" "$@"
	expect_rc 2
	expect_in err "^iorig: $_f: option '(uid|gid)': job 'u': cannot be $_what as (uid=65534|gid=65534).*: Permission denied"
	[ ! -e "$T/d/other" ] || die "another job's file was made"
	[ ! -e "$T/o.json" ] || die "--output was made"
}
refused read "$T/d/secret" --rw=read
refused read "$T/d/secret" --rw=read --gid=65534
refused "read and written" "$T/d/ro" --rw=write
refused "created in directory '$T/d/root'" "$T/d/root/new" --rw=write
# a read job whose layout extends the file writes it too
refused "read and written" "$T/d/ro" --rw=read --size=128k
# The group counts: a file its group (65533) may write, others not.
head -c 65536 /dev/urandom >"$T/d/grp"
chgrp 65533 "$T/d/grp"
chmod 660 "$T/d/grp"
refused "read and written" "$T/d/grp" --rw=write --gid=65534
run --name=g --filename="$T/d/grp" --rw=write --size=64k --uid=65534 \
	--gid=65533
expect_rc 0

# exec_prerun, exec_postrun as the job's user.
cd "$T/d" || die "cd"
run --name=p --filename="$T/d/f" --rw=write --size=64k --uid=65534 \
	--gid=65534 --exec_prerun="id -u; id -g; touch $T/d/pre" \
	--exec_postrun="touch $T/d/post"
expect_rc 0
[ "$(cat p.prerun.txt)" = "65534
65534" ] || die "prerun ran as: $(cat p.prerun.txt)"
for f in pre post f; do
	[ "$(stat -c %u:%g "$T/d/$f")" = 65534:65534 ] ||
		die "$f: owner $(stat -c %u:%g "$T/d/$f"), expected 65534:65534"
done
# where the user may not write, its prerun fails: the job does no I/O
run --name=q --filename="$T/d/q" --rw=write --size=64k --uid=65534 \
	--exec_prerun="touch $T/d/root/x"
expect_rc 1
expect_in err "exec_prerun 'touch .*' exited with status 1"
[ ! -e "$T/d/root/x" ] || die "the prerun wrote into a directory only root may"
# without uid=: root's
run --name=r --filename="$T/d/r" --rw=write --size=64k \
	--exec_prerun="touch $T/d/rootpre"
expect_rc 0
[ "$(stat -c %u "$T/d/rootpre")" = 0 ] || die "a job without uid= ran its prerun as $(stat -c %u "$T/d/rootpre")"
exit 0
