# Sourced by the net engine's tests (192-195) before lib.sh: the test runs
# again inside a new network namespace of its own (unshare -n) with only
# lo up, so its fixed ports collide with nothing and /proc/net/snmp counts
# its own datagrams only. Exits 77 where that is not possible.
if [ -z "${IORIG_NET_NS:-}" ]; then
	command -v unshare >/dev/null 2>&1 ||
		{ echo "SKIP: needs unshare (util-linux)"; exit 77; }
	command -v ip >/dev/null 2>&1 ||
		{ echo "SKIP: needs ip (iproute2)"; exit 77; }
	unshare -n true 2>/dev/null ||
		{ echo "SKIP: no network namespace here (unshare -n)"; exit 77; }
	IORIG_NET_NS=1 exec unshare -n sh "$0" "$@"
fi
ip link set lo up || { echo "FAILED: ip link set lo up"; exit 1; }

# ready WHAT: within 10 s, WHAT is there: tcp:PORT listening, udp:PORT
# bound, unix:PATH a socket.
ready() {
	_k=0
	while [ $_k -lt 200 ]; do
		case $1 in
		tcp:*) ss -Hltn "sport = :${1#tcp:}" | grep -q . && return 0 ;;
		udp:*) ss -Hlun "sport = :${1#udp:}" | grep -q . && return 0 ;;
		unix:*) [ -S "${1#unix:}" ] && return 0 ;;
		esac
		sleep 0.05
		_k=$((_k + 1))
	done
	return 1
}

# pair WHAT RECEIVER_CMD SENDER_CMD: runs the receiver in the background,
# the sender once WHAT (see ready) is there; their exit codes in $rrc and
# $src, stderr in $T/rerr and $T/serr. Each gets 20 s at most.
pair() {
	( timeout 20 sh -c "$2" >"$T/rout" 2>"$T/rerr"; echo $? >"$T/rrc" ) &
	_pp=$!
	ready "$1" || echo "note: $1 not there after 10 s" >&2
	timeout 20 sh -c "$3" >"$T/sout" 2>"$T/serr"
	src=$?
	wait "$_pp"
	rrc=$(cat "$T/rrc")
}

# udp_stat FIELD: the namespace's Udp FIELD from /proc/net/snmp
# (InDatagrams, OutDatagrams, RcvbufErrors...).
udp_stat() {
	awk -v f="$1" '$1 == "Udp:" { if (!n) { for (i = 2; i <= NF; i++) c[$i] = i; n = 1 } else print $c[f] }' /proc/net/snmp
}

# dirf FILE DIR KEY: the job's DIR (read, write) KEY of an iorig or fio
# JSON report (iorig's ios is fio's total_ios, dropped_ios fio's drop_ios).
dirf() {
	"$PY" -c 'import json,sys
j = json.load(open(sys.argv[1]))["jobs"][0]
d = j[sys.argv[2]]
k = sys.argv[3]
alt = {"ios": "total_ios", "dropped_ios": "drop_ios"}
print(d[k] if k in d else d[alt[k]])' "$@"
}
