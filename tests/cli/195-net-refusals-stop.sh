#!/bin/sh
# net's bad input and its waits, in a network namespace of the test's own.
# Refused at planning, exit 2 with file:line and the option, and no socket
# made (strace -e socket): a port out of range (also port+N of clone N),
# an unknown protocol, listen with a hostname, a sender without one,
# listen over UDP, a unix socket with a port, a random job, a UDP block
# larger than a datagram. A sender with
# nothing listening fails at once (connection refused, as fio). A
# receiver whose peer never comes waits, as fio's does (runtime does not
# end the wait), until SIGINT or SIGTERM: then it ends within a second,
# the report says interrupted, and its socket is gone (ss: nothing bound;
# unix: no socket file). A receiver whose sender goes quiet mid-stream
# ends on SIGINT too.
# lane: paced
. "$(dirname "$0")/net.sh"
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null 2>&1 || skip "needs strace"
command -v ss >/dev/null 2>&1 || skip "needs ss (iproute2)"

# refused LINE OPTION JOBLINES...: the job file made of [j], ioengine=net
# and JOBLINES is refused at LINE naming OPTION, and no socket is made
refused() {
	_l=$1 _o=$2
	shift 2
	printf '[j]\nioengine=net\n' >j.fio
	for _x in "$@"; do echo "$_x" >>j.fio; done
	strace -f -e trace=socket -o st "$IORIG" j.fio >"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 2
	expect_in err "j\.fio:$_l: option '$_o'"
	! grep -q 'socket(AF_INET\|socket(AF_UNIX\|socket(AF_INET6' st ||
		die "a socket was made for a refused job: $(cat st)"
}
refused 3 port port=70000 hostname=127.0.0.1 rw=write
refused 3 protocol protocol=sctp port=1 hostname=127.0.0.1 rw=write
refused 3 listen listen port=9031 hostname=127.0.0.1 rw=read
refused 1 hostname port=9031 rw=write
refused 4 listen protocol=udp listen port=9031 rw=read
refused 4 port protocol=unix port=9031 hostname=/tmp/x rw=read
refused 5 rw port=9031 hostname=127.0.0.1 rw=randwrite
refused 3 port port=65535 numjobs=2 hostname=127.0.0.1 rw=write
refused 1 port rw=write hostname=127.0.0.1
refused 7 bs protocol=udp port=9031 hostname=127.0.0.1 rw=write bs=128k

# nothing listening: refused at once
t0=$(date +%s)
run --name=s --ioengine=net --hostname=127.0.0.1 --port=9032 --rw=write --bs=4k --size=64k
expect_rc 1
expect_in err "Connection refused"
[ $(($(date +%s) - t0)) -le 3 ] || die "a refused connection took $(($(date +%s) - t0)) s"

# stopped WHAT SIG: the iorig started in the background as $bg (its
# report in $T/out) ends within 1 s of SIG and leaves WHAT (see ready)
# gone (no process holds a socket on the port); its report says
# interrupted. A third argument: WHAT is not
# waited for first (a connection, not a listener).
stopped() {
	[ -n "${3:-}" ] || ready "$1" || die "$1 never there"
	sleep 0.3
	kill -s "$2" "$bg"
	_k=0
	while kill -0 "$bg" 2>/dev/null && [ $_k -lt 20 ]; do
		sleep 0.05
		_k=$((_k + 1))
	done
	kill -0 "$bg" 2>/dev/null && { kill -9 "$bg"; die "still running 1 s after SIG$2"; }
	wait "$bg"
	case $1 in
	# no socket of a process (the kernel may still be closing one)
	tcp:*) ! ss -Htanp "sport = :${1#tcp:}" | grep -q users || die "socket left: $(ss -tanp)" ;;
	udp:*) ! ss -Huanp "sport = :${1#udp:}" | grep -q . || die "socket left: $(ss -uanp)" ;;
	unix:*) [ ! -e "${1#unix:}" ] || die "unix socket file left" ;;
	esac
	json_is 'd["interrupted"]' True
}
J="--bs=4k --size=1m --output-format=json"
"$IORIG" --name=r --ioengine=net --listen --port=9033 --rw=read --runtime=1 $J >"$T/out" 2>"$T/err" &
bg=$!
ready tcp:9033 || die "not listening"
sleep 1.5
kill -0 $bg 2>/dev/null || die "a listener with runtime=1 gave up waiting (fio waits)"
stopped tcp:9033 INT
"$IORIG" --name=r --ioengine=net --protocol=udp --port=9034 --rw=read $J >"$T/out" 2>"$T/err" &
bg=$!
stopped udp:9034 TERM
"$IORIG" --name=r --ioengine=net --protocol=unix --hostname="$T/sock" --rw=read $J >"$T/out" 2>"$T/err" &
bg=$!
stopped unix:"$T/sock" INT

# a sender that goes quiet (2 blocks a second) mid-stream
"$IORIG" --name=r --ioengine=net --listen --port=9035 --rw=read $J >"$T/out" 2>"$T/err" &
bg=$!
ready tcp:9035 || die "not listening"
"$IORIG" --name=s --ioengine=net --hostname=127.0.0.1 --port=9035 --rw=write --bs=4k --size=1m --rate_iops=2 >/dev/null 2>&1 &
sp=$!
sleep 0.5
stopped tcp:9035 INT connected
expect_json 'd["jobs"][0]["read"]["ios"] >= 1' "the receiver got blocks before the stop"
kill "$sp" 2>/dev/null
wait "$sp" 2>/dev/null
echo "ok: refusals at planning, refused connection, stops while waiting"
