#!/bin/sh
# The emulated NVMe controller shows its four namespaces with the formats
# run.sh gave them, by the controller's own Identify data (nvme-cli) and
# the kernel's view of each: nsid 1 conventional with 4 KiB blocks; nsid 2
# zoned (host-managed, 16 MiB zones); nsid 3 with 8 bytes of metadata in
# an extended LBA carrying protection information type 1, which the
# kernel exposes as plain 4 KiB blocks (the controller inserts and strips
# the protection information: PRACT); nsid 4 the same in a separate
# metadata buffer (mset=0). Each namespace also has its generic
# char device /dev/ngXnY, and the kernel's size is the namespace's.
. "$(dirname "$0")/../lib.sh"
need nvme nvme-cli

nvme list -o json >"$T/list.json" 2>"$T/err" || die "nvme list: $(cat "$T/err")"
# The kernel's view, read by the shell (each program costs in the guest).
for i in 1 2 3 4; do
	d=$(nvme_ns $i)
	nvme id-ns "$d" -o json >"$T/ns$i.json" 2>"$T/err" ||
		die "nvme id-ns $d: $(cat "$T/err")"
	[ -c "/dev/ng0n$i" ] || die "no generic char device /dev/ng0n$i"
	for a in size queue/logical_block_size queue/zoned queue/chunk_sectors \
	    queue/nr_zones; do
		read -r v <"/sys/block/${d#/dev/}/$a" || v=
		echo "$i $a $v"
	done
done >"$T/sys"
nvme zns id-ns "$(nvme_ns 2)" -o json >"$T/zns.json" 2>"$T/err" ||
	die "nvme zns id-ns: $(cat "$T/err")"

"$PY" -S - "$T" <<'PYEOF' || die "the namespaces are not what run.sh made"
import json, sys
t = sys.argv[1]
def load(n):
    return json.load(open(f"{t}/{n}.json"))
sysfs = {}
for line in open(f"{t}/sys"):
    i, attr, *v = line.split()
    sysfs[int(i), attr] = v[0] if v else ""
bad = []
def want(cond, what):
    if not cond:
        bad.append(what)

ids = sorted(x["NameSpace"] for x in load("list")["Devices"])
want(ids == [1, 2, 3, 4],
     f"nvme list shows namespaces {ids}, expected [1, 2, 3, 4]")
want(all(x["ModelNumber"].strip() == "QEMU NVMe Ctrl"
         for x in load("list")["Devices"]), "nvme list: not QEMU's controller")
ns = {i: load(f"ns{i}") for i in (1, 2, 3, 4)}
for i, d in ns.items():
    f = d["lbafs"][d["flbas"] & 0xF]
    want(f["ds"] == 12,
         f"namespace {i}: LBA data size 2^{f['ds']}, expected 4096")
    want(sysfs[i, "queue/logical_block_size"] == "4096",
         f"namespace {i}: kernel block size "
         f"{sysfs[i, 'queue/logical_block_size']}")
    want(int(sysfs[i, "size"]) == d["nsze"] * 8,
         f"namespace {i}: kernel size {sysfs[i, 'size']} sectors, "
         f"namespace {d['nsze']} blocks of 4 KiB")
    ms = f["ms"]
    ext = d["flbas"] >> 4 & 1
    pi = d["dps"] & 7
    zoned = sysfs[i, "queue/zoned"]
    if i == 1:
        want((ms, pi, zoned) == (0, 0, "none"),
             f"namespace 1: ms {ms} pi {pi} zoned {zoned}, expected 0 0 none")
    elif i == 2:
        zsze = load("zns")["lbafe"][d["flbas"] & 0xF]["zsze"]
        want(zoned == "host-managed", f"namespace 2: zoned '{zoned}'")
        want(zsze == 4096,
             f"namespace 2: zone size {zsze} blocks, expected 4096")
        want(sysfs[i, "queue/chunk_sectors"] == "32768",
             f"namespace 2: chunk_sectors {sysfs[i, 'queue/chunk_sectors']}")
        want(int(sysfs[i, "queue/nr_zones"]) == d["nsze"] // zsze,
             f"namespace 2: {sysfs[i, 'queue/nr_zones']} zones, "
             f"expected {d['nsze'] // zsze}")
    else:
        want((ms, ext, pi, zoned) == (8, i == 3, 1, "none"),
             f"namespace {i}: ms {ms} extended {ext} pi type {pi} zoned "
             f"{zoned}, expected 8 {int(i == 3)} 1 none")
for b in bad:
    print("FAILED:", b)
if not bad:
    print(f"ok: nsid 1 conventional, {ns[1]['nsze']} blocks of 4 KiB")
    print(f"ok: nsid 2 zoned, {sysfs[2, 'queue/nr_zones']} zones of 16 MiB")
    print(f"ok: nsid 3 8-byte metadata in an extended LBA, PI type 1, "
          f"{ns[3]['nsze']} blocks")
    print(f"ok: nsid 4 8-byte metadata in a separate buffer, PI type 1, "
          f"{ns[4]['nsze']} blocks")
sys.exit(1 if bad else 0)
PYEOF
