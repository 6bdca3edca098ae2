#!/bin/sh
# iorig-mpi across two "hosts": two network namespaces joined by a veth
# pair, each with its own address and, in its own UTS namespace, its own
# host name (hostA, hostB). mpirun runs on hostA; Open MPI's rsh agent is
# a wrapper that runs the remote daemon with `ip netns exec` on hostB;
# the byte transfer layer is TCP only (btl tcp,self), so the ranks'
# results reach rank 0 over the veth pair, not through shared memory.
# Outside truth: the veth's received bytes on hostA's side at least
# rank 1's JSON result (its --rank-output file), each host's rank wrote
# its own file (${HOSTNAME}), and the report has one row per host.
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
rx0=$(ip netns exec "$na" cat "/sys/class/net/$va/statistics/rx_bytes")
ip netns exec "$na" unshare --uts sh -c "hostname hostA
	exec timeout -k 5 60 mpirun --host 10.217.0.1:1,10.217.0.2:1 -np 2 \
	--mca plm_rsh_agent $T/agent --mca btl tcp,self \
	--mca btl_tcp_if_include 10.217.0.0/24 \
	--mca oob_tcp_if_include 10.217.0.0/24 \
	$IORIG_MPI --output-format=json --rank-output=$T/rank job" \
	>"$T/out" 2>"$T/err"
rc=$?
expect_rc 0
rx1=$(ip netns exec "$na" cat "/sys/class/net/$va/statistics/rx_bytes")
[ "$(fsize f.hostA.0)" = 1048576 ] || die "rank 0 did not write f.hostA.0"
[ "$(fsize f.hostB.1)" = 1048576 ] || die "rank 1 did not write f.hostB.1"
r1=$(fsize rank.1.json)
[ "$((rx1 - rx0))" -ge "$r1" ] ||
	die "hostA received $((rx1 - rx0)) bytes on the veth, less than rank 1's result ($r1)"
"$PY" - "$T/out" <<'PYEOF' || die "the cluster report across the two hosts"
import json, sys
c = json.load(open(sys.argv[1]))
cl = c["cluster"]
assert cl["hosts"] == ["hostA", "hostB"], cl["hosts"]
assert [m["label"] for m in cl["members"]] == ["rank 0 (hostA)", "rank 1 (hostB)"], cl["members"]
w = cl["jobs"][0]["write"]
assert [(h["host"], h["ios"]) for h in w["hosts"]] == [("hostA", 256), ("hostB", 256)], w["hosts"]
assert c["jobs"][0]["write"]["clat_ns"]["count"] == 512
PYEOF
echo "veth bytes to hostA: $((rx1 - rx0)), rank 1's result $r1 bytes; start skew up to $(json 'd["cluster"]["start_skew_max_ns"]') ns"
