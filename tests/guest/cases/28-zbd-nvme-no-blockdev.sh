#!/bin/sh
# zonemode=zbd on a zoned namespace the kernel gives no block device
# (nsid 5: 8 zones of 12 MiB, a zone size that is not a power of two, so
# the nvme driver logs "invalid zone size" and hides its disk): only its
# generic char device /dev/ng0n5 reaches it (ioengine=io_uring_cmd), and
# iorig asks the namespace itself for its zones (Identify for the Zoned
# Namespace command set, Zone Management Receive: Report Zones) and
# resets them (Zone Management Send) through that char device, as fio
# 3.33 does. Against fio 3.33 on the same jobs, nvme-cli's report of the
# zones (nvme zns report-zones on /dev/ng0n5: write pointers, states) and
# the NVMe driver's tracepoint (nvme_setup_cmd on nsid 5: the Write, Read
# and Zone Management Send commands each run set up). iorig on zones 0-3,
# fio on 4-7, the same jobs:
# - sequential writes of two whole zones, and of 18 MiB in two zones:
#   the zones left alike, the writes counted alike;
# - a read of the written data (size=2z): 144 reads, no more (the write
#   pointer);
# - a sequential write of 6 MiB into a full zone: one reset (one Zone
#   Management Send), the zone then half written;
# - random writes over four zones, 1.5 times their size, with
#   max_open_zones=2: no write error, at most two zones open, the resets
#   the report counts those the driver set up, what the zones hold what
#   they held and what was written less the zones reset (fio's zones
#   the same);
# - rw=trim of two zones, bs the zone size: each trim the zone's reset
#   (fio 3.33 does no trim on this job);
# - iorig's report of the zones after each job is what nvme-cli says;
#   its NVMe section names ng0n5, zoned (nvme zns id-ns answers), with
#   the controller's health log read through it before and after;
#   a zonesize that is not the namespace's is refused, and so is a write
#   without allow_destructive=1 (whether the namespace holds data cannot
#   be read without a block device).
# Leaves every zone of nsid 5 reset (empty).
. "$(dirname "$0")/../lib.sh"
need nvme nvme-cli
zns_ns 5
[ -b /dev/nvme0n5 ] && die "/dev/nvme0n5 exists: nsid 5 should have no" \
	"block device (a zone size that is not a power of two)"
nvme zns reset-zone $ng -a >"$T/rz" 2>&1 || die "nvme zns reset-zone:" \
	"$(cat "$T/rz")"
on_exit "nvme zns reset-zone $ng -a"
M=1048576
Z=$((12 * M))
common="--filename=$ng --ioengine=io_uring_cmd --cmd_type=nvme \
--zonemode=zbd --iodepth=1"
zns_iargs=--allow_destructive=1

# ng_zones FIRST COUNT: "WPTR:STATE ..." of COUNT zones from zone FIRST
# by nvme-cli's report (write pointers in 4 KiB blocks from each zone's
# start, a full zone's as its capacity; states as blkzone names them).
# ng_check JSON: iorig's zones in its report JSON (jobs[0].zbd.zones)
# are nvme-cli's now, condition and write pointer; prints "zones=N
# open=O full=F bytes=B" of nvme-cli's view of them.
ng_report() {
	nvme zns report-zones $ng -o json >"$T/nz" 2>"$T/nz.err" ||
		die "nvme zns report-zones $ng: $(cat "$T/nz.err")"
}
ng_py='
import json, sys
st = {"EMPTY": "em", "IMP_OPENED": "oi", "EXP_OPENED": "oe",
      "CLOSED": "cl", "READONLY": "ro", "FULL": "fu", "OFFLINE": "ol"}
def zones(path):
    d = json.load(open(path))
    out = []
    for q in d["zone_list"]:
        s = st.get(q["state"], q["state"])
        w = q["cap"] if s == "fu" else q["wp"] - q["slba"]
        out.append((q["slba"] * 4096, w * 4096, s))
    return out
'
ng_zones() {
	ng_report
	"$PY" -S - "$T/nz" "$1" "$2" <<PYEOF || die "ng_zones $*"
$ng_py
z = zones(sys.argv[1])[int(sys.argv[2]):int(sys.argv[2]) + int(sys.argv[3])]
print(" ".join("%d:%s" % (w // 4096, s) for _, w, s in z))
PYEOF
}
ng_check() {
	ng_report
	"$PY" -S - "$T/nz" "$1" <<PYEOF || die "ng_check $1"
$ng_py
nz = {a: (w, s) for a, w, s in zones(sys.argv[1])}
t = open(sys.argv[2]).read()
z = json.loads(t[t.find("{"):])["jobs"][0]["zbd"]["zones"]
bad = [(q["start"], q["cond_after"], q["wp_after"], nz.get(q["start"]))
       for q in z if nz.get(q["start"]) != (q["wp_after"], q["cond_after"])]
if bad:
    print("iorig says (start, cond, wp) / nvme-cli (wp, state):", bad[:4])
    sys.exit(1)
seq = [nz[q["start"]] for q in z]
print("zones=%d open=%d full=%d bytes=%d" % (len(seq),
      sum(s in ("oi", "oe") for w, s in seq),
      sum(s == "fu" for w, s in seq), sum(w for w, s in seq)))
PYEOF
}

# 0. Refused (exit 2, nothing changed): a write without
# allow_destructive=1, a zonesize that is not the namespace's.
before=$(ng_zones 0 8)
expect_refused 'allow_destructive' $common --name=z --rw=write --size=12M
expect_refused 'zonesize' $common --name=z --rw=write --size=12M \
	--zonesize=8M --allow_destructive=1
[ "$(ng_zones 0 8)" = "$before" ] || die "a refused job changed the zones"
echo "ok: refused on $ng: a write without allow_destructive=1," \
	"zonesize=8M (12 MiB zones); zones unchanged '$before'"

zns_zbd $Z 4096 3072:fu ng_zones ng_check nvme-cli

# 1. Sequential writes: zones 0-1 whole (fio 4-5); zones 2-3 with
# io_size one and a half zones (fio 6-7).
zns_seq_writes
# 2. A read of zones 2-3 (fio 6-7): 18 MiB written of 24, 144 reads.
zns_read
# 3. A job that needs a reset: 6 MiB written sequentially from zone 2
# (fio 6), which is full: reset, then written to half its size.
zns_reset_write
# 4. Random writes over zones 0-3 (fio 4-7), 72 MiB, at most two zones
# open; the zones held 36 MiB before (two full, two half written).
zns_rand_writes 0 $((36 * M))

# 5. A trim of zones 0-1 (fio 4-5), bs the zone size: each trim resets
# its zone (one Zone Management Send each zone that holds data). fio
# 3.33 does no trim on this job through the char device (case 26): its
# figures are printed, iorig's held to the driver's count and nvme-cli.
zns_pair t 0 48M --size=24M --bs=12M --rw=trim
set -- $(jvals "$T/t.i" "j['trim']['ios']" "j['trim']['errors']" \
	"j['zbd']['zone_resets']" \
	"@$T/t.f" "j['trim']['total_ios']" "j['error']")
[ "$1 $2 $3 $i_reset $i_write" = "2 0 $3 $3 0" ] && [ "$3" -ge 1 ] ||
	die "trim of 2 zones: iorig $1 trims ($2 errors, $3 resets);" \
	    "Zone Management Send $i_reset, Writes $i_write"
za=$(ng_zones 0 2)
[ "$za" = "0:em 0:em" ] || die "after the trims: zones 0-1 '$za'"
echo "ok: rw=trim: 2 trims, $3 resets ($i_reset Zone Management Send);" \
	"zones '$za' (fio 3.33: $4 trims, error $5, $f_reset Zone" \
	"Management Send, its zones '$(ng_zones 4 2)')"

# 6. The report's NVMe section says the namespace is zoned, as nvme-cli's
# zoned Identify does (the kernel has no queue/zoned to read for it).
nvme zns id-ns $ng >"$T/zid" 2>&1 || die "nvme zns id-ns $ng: $(cat "$T/zid")"
"$PY" -S - "$T/t.i" <<'PYEOF' || die "iorig's NVMe section of $ng"
import json, sys
t = open(sys.argv[1]).read()
n = [x for x in json.loads(t[t.find("{"):])["nvme"] if x["nsid"] == 5]
if (len(n) != 1 or n[0]["zoned"] is not True or n[0]["name"] != "ng0n5"
        or not n[0]["health_before"] or not n[0]["health_after"]):
    print("nvme entries of nsid 5:", n)
    sys.exit(1)
print("ok: the report's NVMe section: ng0n5 (nsid 5) zoned, as nvme zns"
      " id-ns answers; its controller's health log before and after")
PYEOF
