#!/bin/sh
# iorig-mpi across two "hosts": two network namespaces joined by a veth
# pair, each with its own address and, in its own UTS namespace, its own
# host name (hostA, hostB). mpirun runs on hostA; Open MPI's rsh agent is
# a wrapper that runs the remote daemon with `ip netns exec` on hostB;
# the byte transfer layer is TCP only (btl tcp,self), so the ranks'
# results reach rank 0 over the veth pair, not through shared memory.
# Outside truth: each host's rank wrote its own file (${HOSTNAME}), the
# report has one row per host and rank 1's own figures (its
# --rank-output file); the veth's received bytes on hostA's side: at
# least rank 1's JSON result with IORIG_MPI_GATHER=1 (the documents sent),
# less than it by default (rank 1's wire form: its figures packed).
# Counts, bytes and documents, no time: the parallel lane, one mpirun
# at a time (4 ranks oversubscribe 2 CPUs).
# lane: parallel
# lock: mpi
. "$(dirname "$0")/lib.sh"
. "$top/tests/cli/mpi.sh"
command -v ip >/dev/null 2>&1 || skip "needs ip (iproute2)"
command -v unshare >/dev/null 2>&1 || skip "needs unshare (util-linux)"
[ "$(id -u)" -eq 0 ] || skip "needs root for network namespaces"

na=iorig175a$$ nb=iorig175b$$ va=i175a$$ vb=i175b$$
cleanup() {
	ip netns del "$na" 2>/dev/null
	ip netns del "$nb" 2>/dev/null
	cd /
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
ip netns add "$na" 2>"$T/err" || skip "ip netns add: $(cat "$T/err")"
ip netns add "$nb" 2>"$T/err" || skip "ip netns add: $(cat "$T/err")"
ip link add "$va" netns "$na" type veth peer name "$vb" netns "$nb" \
	2>"$T/err" || skip "no veth pair here: $(cat "$T/err")"
ip -n "$na" addr add 10.217.0.1/24 dev "$va" &&
	ip -n "$nb" addr add 10.217.0.2/24 dev "$vb" &&
	ip -n "$na" link set "$va" up && ip -n "$nb" link set "$vb" up &&
	ip -n "$na" link set lo up && ip -n "$nb" link set lo up ||
	die "setting up the veth pair"
ip netns exec "$na" unshare --uts true 2>"$T/err" ||
	skip "no UTS namespace here: $(cat "$T/err")"

# The rsh agent: "agent HOST COMMAND..." as ssh would be called.
cat >agent <<AGENT
#!/bin/sh
case \$1 in
10.217.0.2) shift
	exec ip netns exec $nb unshare --uts sh -c "hostname hostB; \$*" ;;
*) echo "agent: unknown host \$1" >&2; exit 1 ;;
esac
AGENT
chmod +x agent
cat >job <<JOB
[j]
ioengine=psync
rw=write
bs=4k
size=1m
filename=$T/f.\${HOSTNAME}.\${RANK}
JOB
# mpi2 [ENV=VALUE]: the job on hostA (rank 0) and hostB (rank 1); rx: the
# bytes hostA received on the veth meanwhile
mpi2() {
	rm -f f.host* rank.*
	rx0=$(ip netns exec "$na" cat "/sys/class/net/$va/statistics/rx_bytes")
	ip netns exec "$na" unshare --uts env "$@" sh -c "hostname hostA
	exec timeout -k 5 60 mpirun --host 10.217.0.1:1,10.217.0.2:1 -np 2 \
	--mca plm_rsh_agent $T/agent --mca btl tcp,self \
	--mca btl_tcp_if_include 10.217.0.0/24 \
	--mca oob_tcp_if_include 10.217.0.0/24 \
	$IORIG_MPI --output-format=json --rank-output=$T/rank job" \
		>"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 0
	rx=$(($(ip netns exec "$na" cat "/sys/class/net/$va/statistics/rx_bytes") - rx0))
	[ "$(fsize f.hostA.0)" = 1048576 ] || die "rank 0 did not write f.hostA.0"
	[ "$(fsize f.hostB.1)" = 1048576 ] || die "rank 1 did not write f.hostB.1"
	r1=$(fsize rank.1.json)
	"$PY" - "$T/out" "$T/rank.1.json" <<'PYEOF' || die "the cluster report across the two hosts"
import json, sys
c = json.load(open(sys.argv[1]))
r1 = json.load(open(sys.argv[2]))
cl = c["cluster"]
assert cl["hosts"] == ["hostA", "hostB"], cl["hosts"]
assert [m["label"] for m in cl["members"]] == ["rank 0 (hostA)", "rank 1 (hostB)"], cl["members"]
w = cl["jobs"][0]["write"]
assert [(h["host"], h["ios"]) for h in w["hosts"]] == [("hostA", 256), ("hostB", 256)], w["hosts"]
assert c["jobs"][0]["write"]["clat_ns"]["count"] == 512
# rank 1's own figures, which only hostB had, are in rank 0's report
assert cl["members"][1]["jobs"][0]["write"] == r1["jobs"][0]["write"], "rank 1's figures"
PYEOF
}

# IORIG_MPI_GATHER=1: rank 1's JSON document crosses the veth.
mpi2 IORIG_MPI_GATHER=1
[ "$rx" -ge "$r1" ] ||
	die "gather: hostA received $rx bytes on the veth, less than rank 1's result ($r1)"
rxg=$rx
# The default: rank 1's wire form (its figures packed), not its document.
mpi2
[ "$rx" -lt "$r1" ] ||
	die "hostA received $rx bytes on the veth, no less than rank 1's JSON result ($r1): the document was sent"
echo "veth bytes to hostA: $rx (wire), $rxg (JSON documents), rank 1's result $r1 bytes; start skew up to $(json 'd["cluster"]["start_skew_max_ns"]') ns"
