#!/bin/sh
# Removal only of the inode this run made (issue 21: the door looks the
# name up again on a directory descriptor held since the file was made,
# and removes it only while it still names that inode):
# - filedelete: a file put at one of the job's names after the layout
#   (by exec_prerun, between the layout and the I/O) is left, with its
#   data; the files the run made are removed;
# - the net engine's unix receiver: a file put at its socket's path
#   during the run is left when it ends;
# - a socket another process listens on is never taken over: refused
#   when planning (exit 2), the other process' socket file the same
#   inode and still answering.
# Before the door each was removed by path.
# lane: parallel
. "$(dirname "$0")/lib.sh"

# ---- filedelete
mkdir u
run --name=d --directory=u --ioengine=filedelete --nrfiles=3 --filesize=4k \
	--exec_prerun='mv u/d.0.1 u/moved && echo precious >u/d.0.1'
[ "$rc" -ne 0 ] || die "a name that is another file now: exit 0"
expect_in err "u/d\\.0\\.1 \\(engine filedelete\\): Stale file handle"
[ "$(cat u/d.0.1 2>/dev/null)" = precious ] ||
	die "filedelete removed the file put at its name: $(ls u)"
[ ! -e u/d.0.0 ] && [ ! -e u/d.0.2 ] ||
	die "filedelete left files it made: $(ls u)"

# ---- the unix receiver's socket file
S=$T/sock
"$IORIG" --name=r --ioengine=net --protocol=unix --hostname="$S" \
	--rw=read --bs=4k --size=64k >"$T/out" 2>"$T/err" &
pid=$!
i=0
while [ ! -S "$S" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
[ -S "$S" ] || { kill $pid; die "the receiver made no socket file"; }
mv "$S" "$S.old" && echo precious >"$S" || die "cannot replace the socket"
kill -INT $pid
wait $pid
[ "$(cat "$S" 2>/dev/null)" = precious ] ||
	die "the receiver removed the file put at its path"
[ -S "$S.old" ] || die "the socket file moved away went too"

# ---- a socket another process listens on
L=$T/live
"$PY" - "$L" <<'EOF' &
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(4)
open(sys.argv[1] + ".ready", "w").close()
time.sleep(30)
EOF
lpid=$!
i=0
while [ ! -e "$L.ready" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
[ -e "$L.ready" ] || { kill $lpid; die "the listener did not start"; }
ino=$(stat -c %i "$L")
run --name=r --ioengine=net --protocol=unix --hostname="$L" --rw=read \
	--bs=4k --size=64k
[ "$rc" -eq 2 ] || { kill $lpid; die "a live socket of another process: exit $rc, expected 2"; }
expect_in err "'$L' is a socket another process holds"
[ "$(stat -c %i "$L")" = "$ino" ] || { kill $lpid; die "the live socket was replaced"; }
"$PY" -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])' "$L" ||
	{ kill $lpid; die "the other process' socket no longer answers"; }
kill $lpid 2>/dev/null
wait $lpid 2>/dev/null
echo "ok: only the files this run made are removed"
