#!/bin/sh
# uid=, gid=: the job's files are made and opened as that user (stat's
# owner, the kernel's permission check), its thread runs as that user,
# and the main thread and the other jobs keep theirs (/proc/PID/task).
# lane: parallel
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root (switching to another user)"
chmod 711 "$T"
mkdir -m 1777 "$T/d"

# A file the job creates belongs to the job's user and group.
run --name=u --filename="$T/d/made" --rw=write --size=64k --uid=65534 \
    --gid=65534
expect_rc 0
[ "$(stat -c '%u:%g' "$T/d/made")" = 65534:65534 ] ||
	die "made by the job: owner $(stat -c '%u:%g' "$T/d/made"), expected 65534:65534"
# Without uid/gid: root's.
run --name=r --filename="$T/d/root" --rw=write --size=64k
expect_rc 0
[ "$(stat -c '%u:%g' "$T/d/root")" = 0:0 ] || die "without uid: not root's"

# A file only root may read: the job as 65534 is refused at plan time
# (exit 2: the kernel's check on a thread of that user, test 218); as
# root (uid=0) it reads it.
head -c 65536 /dev/urandom >"$T/d/secret"
chmod 600 "$T/d/secret"
run --name=s --filename="$T/d/secret" --rw=read --size=64k --uid=65534 \
    --gid=65534
expect_rc 2
expect_in err "secret.*Permission denied"
run --name=s --filename="$T/d/secret" --rw=read --size=64k --uid=0
expect_rc 0
# World-readable: the same job as 65534 reads it (the check is the
# kernel's, on the job's user).
chmod 604 "$T/d/secret"
run --name=s --filename="$T/d/secret" --rw=read --size=64k --uid=65534 \
    --gid=65534 --output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['io_bytes']" 65536

# While two jobs run, one with uid=65534: its thread alone has 65534 as
# real, effective, saved and fs uid (and gid); the main thread (the
# task whose id is the process') and the other job keep root. Read every
# 50 ms until both jobs' threads are there and switched, or the run (3 s
# at 200 writes a second each: a wait, not a busy loop) ends; a thread
# seen between its switch of gid and of uid is not there yet, but must
# not be the last thing seen.
"$IORIG" --name=a --filename="$T/d/fa" --rw=write --size=256k \
    --time_based --runtime=3s --rate_iops=200 --uid=65534 --gid=65534 \
    --name=b --filename="$T/d/fb" --rw=write --size=256k --time_based \
    --runtime=3s --rate_iops=200 >"$T/out" 2>"$T/err" &
pid=$!
while running "$pid"; do
	main=$(awk '/^Uid:/ { print $2,$3,$4,$5 }' \
		"/proc/$pid/task/$pid/status" 2>/dev/null)
	nob=0 root=0 odd=
	for t in /proc/"$pid"/task/*; do
		u=$(awk '/^Uid:/ { print $2,$3,$4,$5 }' "$t/status" 2>/dev/null)
		g=$(awk '/^Gid:/ { print $2,$3,$4,$5 }' "$t/status" 2>/dev/null)
		case "$u/$g" in
		"65534 65534 65534 65534/65534 65534 65534 65534")
			nob=$((nob + 1)) ;;
		"0 0 0 0/0 0 0 0") root=$((root + 1)) ;;
		/) ;; # ended between the listing and the read
		*) odd="task $t: uid $u gid $g" ;;
		esac
	done
	[ -z "$odd" ] && [ "$nob" -ge 1 ] && [ "$root" -ge 2 ] && break
	sleep 0.05
done
wait "$pid"
rc=$?
expect_rc 0
[ -z "$odd" ] || die "$odd"
[ "$main" = "0 0 0 0" ] || die "main thread: uid $main, expected root"
[ "$nob" = 1 ] || die "$nob threads run as 65534, expected 1 (job a)"
[ "$root" -ge 2 ] || die "$root threads run as root, expected 2 or more"
[ "$(stat -c %u "$T/d/fa"):$(stat -c %u "$T/d/fb")" = 65534:0 ] ||
	die "owners of fa, fb: $(stat -c %u "$T/d/fa"):$(stat -c %u "$T/d/fb")"

# Range: -1 is not a uid here (none is the default).
run --name=x --filename="$T/d/x" --rw=write --size=4k --uid=-1 --parse-only
expect_rc 2
echo ok
