#!/bin/sh
# net's socket options and unix sockets, in a network namespace of the
# test's own. Outside truth: the kernel's view of the live connection
# (ss -tmi: the buffer sizes and the segment size) and the system calls
# (strace -e setsockopt). window_size=128k: the receiver's SO_RCVBUF and
# the sender's SO_SNDBUF are set to it (ss: rb/tb 262144, the kernel's
# double), not without it; mss=1000: TCP_MAXSEG on both ends, the
# connection's mss at most 1000; nodelay: TCP_NODELAY on both ends (the
# receiver's accepted socket too), none without it. Unix sockets: iorig to
# iorig and with fio 3.33 either way, the receiver counts the sender's
# bytes; the socket file is there during the run and gone after it; a
# regular file at the path is left alone and the job fails. UDP multicast
# (ttl, interface): two readers in the group each get every block.
# lane: serial
. "$(dirname "$0")/net.sh"
. "$(dirname "$0")/lib.sh"
py_serve
command -v strace >/dev/null 2>&1 || skip "needs strace"
command -v ss >/dev/null 2>&1 || skip "needs ss (iproute2)"

T1="--bs=4k --time_based --output-format=json"
# live PORT OPTS: a 1 s iorig pair on PORT with OPTS on both ends; ss -tmi
# half-way in $T/ss. The sender stops first and the receiver ends at its
# close: a receiver whose own runtime ran out first would close with data
# unread, and the sender's next write would meet a reset (seen in CI).
live() {
	"$IORIG" --name=r --ioengine=net --listen --port="$1" --rw=read $T1 --runtime=10 $2 >r.json 2>"$T/rerr" &
	_r=$!
	ready tcp:"$1" || die "receiver not listening"
	"$IORIG" --name=s --ioengine=net --hostname=127.0.0.1 --port="$1" --rw=write $T1 --runtime=1 $2 >s.json 2>"$T/serr" &
	_s=$!
	sleep 0.5
	ss -Htmi >"$T/ss"
	wait $_s || die "sender failed: $(cat "$T/serr")"
	wait $_r || die "receiver failed: $(cat "$T/rerr")"
	[ "$(dirf r.json read io_bytes)" = "$(dirf s.json write io_bytes)" ] ||
		die "received $(dirf r.json read io_bytes), sent $(dirf s.json write io_bytes)"
}
# skmem FIELD SIDE: rb or tb of the receiver's (r) or sender's (s) socket
skmem() {
	awk -v f="$1" -v side="$2" -v p="$3" '
		/^ESTAB/ { mine = (side == "r" && $4 ~ ":" p "$") || (side == "s" && $5 ~ ":" p "$"); next }
		mine && /skmem/ { if (match($0, f "[0-9]+")) print substr($0, RSTART + length(f), RLENGTH - length(f)); mine = 0 }' "$T/ss"
}
mss() {
	awk -v side="$1" -v p="$2" '
		/^ESTAB/ { mine = (side == "r" && $4 ~ ":" p "$") || (side == "s" && $5 ~ ":" p "$"); next }
		mine { if (match($0, / mss:[0-9]+/)) print substr($0, RSTART + 5, RLENGTH - 5); mine = 0 }' "$T/ss"
}

live 9021 "--window_size=128k --mss=1000"
[ "$(skmem rb r 9021)" = 262144 ] || die "receiver's rb $(skmem rb r 9021), expected 262144: $(cat "$T/ss")"
[ "$(skmem tb s 9021)" = 262144 ] || die "sender's tb $(skmem tb s 9021), expected 262144: $(cat "$T/ss")"
m=$(mss s 9021)
[ -n "$m" ] && [ "$m" -le 1000 ] || die "sender's mss $m, expected at most 1000"
m=$(mss r 9021)
[ -n "$m" ] && [ "$m" -le 1000 ] || die "receiver's mss $m, expected at most 1000"
live 9022 ""
[ "$(skmem rb r 9022)" != 262144 ] && [ "$(skmem tb s 9022)" != 262144 ] ||
	die "262144 buffers without window_size: the check above proves nothing"
[ "$(mss s 9022)" -gt 1000 ] || die "mss $(mss s 9022) without mss="

# the system calls
pair tcp:9023 "strace -f -e trace=setsockopt -o r.st '$IORIG' --name=r --ioengine=net --listen --port=9023 --rw=read --bs=4k --size=64k --nodelay --window_size=128k --mss=1000 >/dev/null" \
	"strace -f -e trace=setsockopt -o s.st '$IORIG' --name=s --ioengine=net --hostname=127.0.0.1 --port=9023 --rw=write --bs=4k --size=64k --nodelay --window_size=128k --mss=1000 >/dev/null"
[ "$rrc" -eq 0 ] && [ "$src" -eq 0 ] || die "setsockopt run: exit $rrc/$src: $(cat "$T/rerr" "$T/serr")"
for f in r.st s.st; do
	grep -q 'TCP_NODELAY, \[1\]' $f || die "$f: no TCP_NODELAY: $(cat $f)"
	grep -q 'TCP_MAXSEG, \[1000\]' $f || die "$f: no TCP_MAXSEG 1000: $(cat $f)"
done
grep -q 'SO_RCVBUF, \[131072\]' r.st || die "receiver: no SO_RCVBUF: $(cat r.st)"
grep -q 'SO_SNDBUF, \[131072\]' s.st || die "sender: no SO_SNDBUF: $(cat s.st)"
! grep -q SO_SNDBUF r.st && ! grep -q SO_RCVBUF s.st || die "buffers set on the wrong end"
pair tcp:9024 "strace -f -e trace=setsockopt -o r.st '$IORIG' --name=r --ioengine=net --listen --port=9024 --rw=read --bs=4k --size=64k >/dev/null" \
	"strace -f -e trace=setsockopt -o s.st '$IORIG' --name=s --ioengine=net --hostname=127.0.0.1 --port=9024 --rw=write --bs=4k --size=64k >/dev/null"
! grep -q 'TCP_NODELAY\|TCP_MAXSEG\|SO_RCVBUF\|SO_SNDBUF' r.st s.st || die "options set without being asked"

# unix sockets
S=$T/sock
J="--bs=4k --size=1m --output-format=json"
pair unix:"$S" "'$IORIG' --name=r --ioengine=net --protocol=unix --hostname='$S' --rw=read $J >r.json" \
	"'$IORIG' --name=s --ioengine=net --protocol=unix --hostname='$S' --rw=write $J >s.json"
[ "$rrc" -eq 0 ] && [ "$src" -eq 0 ] || die "unix: exit $rrc/$src: $(cat "$T/rerr" "$T/serr")"
[ "$(dirf r.json read io_bytes)" = 1048576 ] && [ "$(dirf s.json write io_bytes)" = 1048576 ] ||
	die "unix: received $(dirf r.json read io_bytes), sent $(dirf s.json write io_bytes)"
[ ! -e "$S" ] || die "unix: the receiver left its socket file"
if command -v fio >/dev/null 2>&1; then
	pair unix:"$S" "fio --name=r --ioengine=net --protocol=unix --hostname='$S' --rw=read $J --output=r.json" \
		"'$IORIG' --name=s --ioengine=net --protocol=unix --hostname='$S' --rw=write $J >s.json"
	# fio's receiver ends with ENOTCONN (its close message to a unix
	# stream, as between two fios): its bytes are what counts
	[ "$src" -eq 0 ] || die "unix iorig->fio: sender exit $src: $(cat "$T/serr")"
	[ "$(dirf r.json read io_bytes)" = 1048576 ] || die "unix: fio received $(dirf r.json read io_bytes)"
	rm -f "$S"
	pair unix:"$S" "'$IORIG' --name=r --ioengine=net --protocol=unix --hostname='$S' --rw=read $J >r.json" \
		"fio --name=s --ioengine=net --protocol=unix --hostname='$S' --rw=write $J --output=s.json"
	[ "$rrc" -eq 0 ] || die "unix fio->iorig: receiver exit $rrc: $(cat "$T/rerr")"
	[ "$(dirf r.json read io_bytes)" = "$(dirf s.json write io_bytes)" ] ||
		die "unix: iorig received $(dirf r.json read io_bytes), fio sent $(dirf s.json write io_bytes)"
fi
echo precious >"$S"
run --name=r --ioengine=net --protocol=unix --hostname="$S" --rw=read --bs=4k --size=64k
expect_rc 1
expect_in err "not a socket"
[ "$(cat "$S")" = precious ] || die "the regular file at the path was touched"
# UDP multicast: two readers (iorig, and fio when there) join 239.1.2.3 on
# lo; iorig's writer sends with ttl=3 from interface=127.0.0.1: each reader
# gets every block; the system calls say the group, the interface, the TTL
if ip link set lo multicast on 2>/dev/null &&
	ip route add 224.0.0.0/4 dev lo 2>/dev/null; then
	M="--protocol=udp --hostname=239.1.2.3 --port=9041 --bs=4k --size=64k --output-format=json"
	strace -f -e trace=setsockopt -o r.st "$IORIG" --name=r --ioengine=net $M --interface=127.0.0.1 --rw=read >r.json 2>"$T/rerr" &
	r1=$!
	n=1
	if command -v fio >/dev/null 2>&1; then
		fio --name=r2 --ioengine=net $M --rw=read --output=r2.json >/dev/null 2>&1 &
		r2=$!
		n=2
	fi
	k=0
	while [ "$(ss -Hlun 'sport = :9041' | wc -l)" -lt $n ] && [ $k -lt 200 ]; do
		sleep 0.05
		k=$((k + 1))
	done
	strace -f -e trace=setsockopt -o s.st "$IORIG" --name=s --ioengine=net $M --interface=127.0.0.1 --ttl=3 --rw=write --rate_iops=1000 >s.json 2>"$T/serr" ||
		die "multicast writer failed: $(cat "$T/serr")"
	wait $r1 || die "multicast reader failed: $(cat "$T/rerr")"
	[ "$(dirf r.json read io_bytes)" = 65536 ] || die "multicast: iorig's reader got $(dirf r.json read io_bytes)"
	if [ $n = 2 ]; then
		wait $r2
		[ "$(dirf r2.json read io_bytes)" = 65536 ] || die "multicast: fio's reader got $(dirf r2.json read io_bytes)"
	fi
	grep -q 'IP_ADD_MEMBERSHIP, {imr_multiaddr=inet_addr("239.1.2.3"), imr_interface=inet_addr("127.0.0.1")}' r.st ||
		die "reader: no membership of the group on 127.0.0.1: $(cat r.st)"
	grep -q 'IP_MULTICAST_TTL, \[3\]' s.st || die "writer: no TTL 3: $(cat s.st)"
	grep -q 'IP_MULTICAST_IF' s.st || die "writer: no IP_MULTICAST_IF: $(cat s.st)"
else
	echo "note: no multicast on lo here: multicast not tested"
fi
echo "ok: window_size, mss, nodelay set and in effect; unix sockets; multicast"
