#!/bin/sh
# The test machine: boots one QEMU guest (TCG emulation) with Debian's
# kernel and an emulated NVMe controller, runs every case in
# tests/guest/cases/ inside it, and prints one line per case in the format
# of tests/run-all.sh (PASS/FAIL/SKIP NAME ...), then a summary line.
# Exits 0 when no case failed, 1 when one did or the guest failed, 77
# (saying why) when the machine cannot be made here (no QEMU, no kernel).
#
# The guest (see doc/design.md, "The test guest"):
#   - Debian's kernel, fetched and unpacked once by kernel.sh into
#     IORIG_GUEST_CACHE (default build/guest/);
#   - an initramfs of busybox-static, init and the modules of MODULES
#     below (modprobe from a modules.dep of their own);
#   - this machine's root (`/` as this script sees it, a chroot's root
#     in .ci/run) over virtio-9p, read-only under a tmpfs overlay, and a
#     read-write 9p share for the results; the cases run chrooted there,
#     with this tree's own iorig and Debian's fio;
#   - QEMU's NVMe controller with five namespaces on sparse files in a
#     scratch directory: nsid 1 conventional, nsid 2 zoned (16 MiB zones),
#     nsid 3 with 8 bytes of metadata carrying protection information
#     type 1 (extended LBA), nsid 4 the same in a separate metadata
#     buffer (mset=0), nsid 5 zoned with 12 MiB zones (96 MiB; a zone
#     size that is not a power of two, so the kernel gives it no block
#     device, only /dev/ng0n5), all with 4 KiB blocks (a new namespace
#     goes at the end: the earlier ones keep their device names);
#   - null_blk (devices made per case through configfs), scsi_debug (one
#     64 MiB disk and its /dev/sgN; lbpu=1 lbprz=1: it takes UNMAP, and
#     unmapped blocks read as zeros), sg, dm-mod (dm-error) and dm-flakey.
#
# Limits: the guest must have started the cases IORIG_GUEST_BOOT_TIMEOUT
# seconds (default 180) after QEMU starts; each case runs under
# IORIG_GUEST_CASE_TIMEOUT seconds (default 300) inside the guest; a guest
# whose results share shows no progress for that long plus a minute, or
# that runs past IORIG_GUEST_TIMEOUT seconds in all (default 1200), is
# killed and fails. IORIG_GUEST_CASES (an extended regular expression)
# runs only the cases whose names match. IORIG_GUEST_MEM (MiB, default
# 2048) and IORIG_GUEST_CPUS (default 1) size the guest: under TCG a
# second CPU made the cases slower (44-64 s against 99-104 s for the
# first five) and keeps a second host CPU busy, where one keeps the load
# of one test in the parallel lane of tests/run-all.sh. IORIG_GUEST_ACCEL
# (default tcg) is QEMU's accelerator: kvm where KVM works. On the machine
# this was made on, guests hang under it, and cannot do otherwise: its
# CPUs show no svm or vmx, and its /dev/kvm is the kvm_pvm module's
# (/sys/module/kvm_pvm: pagetable-based virtualisation, made for nested
# clouds), which runs only guest kernels built for PVM, not Debian's
# (QEMU aborts under -cpu max; other models stop after "Probing EDD").
# TCG emulation boots in 10-20 s. IORIG_GUEST_CPU_MODEL (default
# max,erms=off,fsrm=off; below) is QEMU's -cpu.
# IORIG_GUEST_CLAIMS=DIR shares the cases between boots: each boot, as it
# finishes a case, claims the next case in DIR that no boot has claimed
# yet (an atomic symlink NAME -> its boot's id, made in the guest over a
# 9p share of DIR) and runs it, so boots started side by side on one DIR
# stay even as cases come and go; each reports only the cases it claimed,
# and the caller reports a case nobody claimed (tests/run-all.sh). Without
# it, the boot claims every case itself and reports any it never reached.
# The claims go longest first, by each case's last time in
# IORIG_GUEST_TIMES (a directory, default build/guest-times/: NAME holds
# its seconds, written after each run; a case without one there takes its
# line in tests/times.txt, and one in neither goes first), so that the
# boots' last cases are short ones and the boots end together.
# IORIG_GUEST_PIN=K (default 0) pins QEMU to the K-th CPU this script
# may use (below: why).
# IORIG_GUEST_KEEP=DIR keeps each case's whole output (NAME.log), the
# guest's console (console.log) and QEMU's messages (qemu.log) in DIR.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/guest
PATH=$PATH:/usr/sbin:/sbin
export PATH

skip() {
	echo "SKIP: $*"
	exit 77
}

num() {
	case $2 in
	''|*[!0-9]*) echo "$1='$2': expected a whole number" >&2; exit 2 ;;
	esac
}
boot_limit=${IORIG_GUEST_BOOT_TIMEOUT:-180}
case_limit=${IORIG_GUEST_CASE_TIMEOUT:-300}
total_limit=${IORIG_GUEST_TIMEOUT:-1200}
mem=${IORIG_GUEST_MEM:-2048}
cpus=${IORIG_GUEST_CPUS:-1}
pin_k=${IORIG_GUEST_PIN:-0}
num IORIG_GUEST_BOOT_TIMEOUT "$boot_limit"
num IORIG_GUEST_CASE_TIMEOUT "$case_limit"
num IORIG_GUEST_TIMEOUT "$total_limit"
num IORIG_GUEST_MEM "$mem"
num IORIG_GUEST_CPUS "$cpus"
num IORIG_GUEST_PIN "$pin_k"

# The modules the guest loads after mounting its root, in this order, with
# their parameters (the initramfs holds them and what they depend on).
# null_blk makes no device: a case makes its own through configfs.
# nvme_core first, with its timeouts at the case limit's length: the
# emulated controller's commands are the host's file I/O, which the
# host's dirty-page throttling could hold past the kernel's 30 s while
# tests beside the boot write through throttled loop devices. (What
# failed case 24 once with EINTR, "I/O 885 QID 1 timeout, aborting",
# was more likely QEMU's lost doorbells: see IORIG_GUEST_PIN below.)
MODULES='nvme_core io_timeout=300 admin_timeout=300
nvme
configfs
null_blk nr_devices=0
sd_mod
sg
scsi_debug dev_size_mb=64 lbpu=1 lbprz=1
dm_mod
dm_flakey'
# What init loads first, to reach its root.
BOOT_MODULES='virtio_pci 9pnet_virtio 9p overlay'

qemu=qemu-system-x86_64
command -v $qemu >/dev/null 2>&1 ||
	skip "no $qemu (Debian's qemu-system-x86; make test installs it)"
bb=$(command -v busybox 2>/dev/null)
[ -n "$bb" ] || skip "no busybox (Debian's busybox-static)"
ldd "$bb" >/dev/null 2>&1 &&
	skip "$bb is linked dynamically: the initramfs needs busybox-static"
for c in cpio modprobe depmod timeout; do
	command -v $c >/dev/null 2>&1 ||
		skip "no $c (Debian's cpio, kmod, coreutils)"
done

# The cases, in the order of their numbers.
cases=$(cd "$top" && ls tests/guest/cases/[0-9]*.sh 2>/dev/null |
	sort -t / -k 4 -n)
[ -n "${IORIG_GUEST_CASES:-}" ] &&
	cases=$(echo "$cases" | grep -E -- "$IORIG_GUEST_CASES")
[ -n "$cases" ] || skip "no case in tests/guest/cases/ to run"
# The order of the claims: the cases by their last time, longest first
# (none known here: by tests/times.txt; none there either: first); a tie
# in the order of their numbers.
times=${IORIG_GUEST_TIMES:-$top/build/guest-times}
. "$top/tests/order.sh"
order=$(for c in $cases; do echo "$(basename "$c" .sh) $c"; done |
	longest_first "$times" "$top/tests/times.txt")

cache=${IORIG_GUEST_CACHE:-$top/build/guest}
kout=$(sh "$here/kernel.sh" "$cache")
krc=$?
[ "$krc" -eq 77 ] && skip "$(echo "$kout" | sed -n 's/^SKIP: //p' | tail -n 1)"
[ "$krc" -eq 0 ] || { echo "FAIL tests/guest/kernel.sh (exit $krc)"
	echo "$kout" | sed 's/^/    | /'; exit 1; }
kdir=$(echo "$kout" | tail -n 1)
rel=$(ls "$kdir/lib/modules" | head -n 1)
vmlinuz=$kdir/boot/vmlinuz-$rel

S=$(mktemp -d "${TMPDIR:-/tmp}/iorig-guest.XXXXXX") || exit 1
# This boot's id in the claims: its scratch directory's unique name.
me=${S##*/}
claims=${IORIG_GUEST_CLAIMS:-}
if [ -n "$claims" ]; then
	[ -d "$claims" ] && claims=$(cd "$claims" && pwd) || {
		echo "FAIL tests/guest/run.sh: IORIG_GUEST_CLAIMS='$claims'" \
			"is not a directory"; exit 1; }
else
	claims=$S/claims
	mkdir "$claims" || exit 1
fi
qpid=
cleanup() {
	[ -n "$qpid" ] && kill -KILL "$qpid" 2>/dev/null
	rm -rf "$S"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# The initramfs: busybox, init, the modules and a modules.dep of theirs.
ir=$S/initramfs
mkdir -p "$ir/bin" "$ir/proc" "$ir/sys" "$ir/dev" "$ir/lib/modules/$rel"
cp "$bb" "$ir/bin/busybox" && cp "$here/init" "$ir/init" &&
	chmod 755 "$ir/init" || exit 1
echo "$MODULES" >"$ir/modules"
for m in $BOOT_MODULES $(echo "$MODULES" | cut -d ' ' -f 1); do
	modprobe -d "$kdir" -S "$rel" --show-depends "$m" >>"$S/deps" || {
		echo "FAIL tests/guest/run.sh: $rel has no module $m"; exit 1; }
done
sed -n 's/^insmod \([^ ]*\).*/\1/p' "$S/deps" | sort -u >"$S/ko"
while read -r f; do
	to=$ir/${f#"$kdir"/}
	mkdir -p "${to%/*}" && cp "$f" "$to" || exit 1
done <"$S/ko"
for f in modules.order modules.builtin modules.builtin.modinfo; do
	cp "$kdir/lib/modules/$rel/$f" "$ir/lib/modules/$rel/" 2>/dev/null
done
depmod -b "$ir" "$rel" || exit 1
( cd "$ir" && find . | cpio -o -H newc --quiet ) >"$S/initrd" || exit 1

# q VALUE: VALUE quoted for sh.
q() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# The sanitizer's report directory (tests/sanitize.sh), shared read-write
# at the same path so that a report written in the guest fails the suite.
sanlog=
case ${ASAN_OPTIONS:-}${TSAN_OPTIONS:-} in
*log_path=*)
	sanlog=$(echo "${ASAN_OPTIONS:-}:${TSAN_OPTIONS:-}" | tr ':' '\n' |
		sed -n 's/^log_path=//p' | head -n 1)
	sanlog=${sanlog%/*}
	[ -d "$sanlog" ] || sanlog= ;;
esac

res=$S/res
mkdir -p "$res"
{
	echo "REPO=$(q "$top")"
	echo "KMODS=$(q "$kdir/lib/modules/$rel")"
	echo "SANLOG=$(q "$sanlog")"
} >"$res/boot.conf"
{
	echo "REPO=$(q "$top")"
	echo "CASES=$(q "$(echo $order)")"
	echo "CASE_LIMIT=$case_limit"
	echo "BOOT_ID=$me"
	echo "export IORIG_GUEST=1 DM_DISABLE_UDEV=1 TMPDIR=/tmp"
	iorig=${IORIG:-$top/iorig}
	case $iorig in /*) ;; *) iorig=$(pwd)/$iorig ;; esac
	echo "export IORIG=$(q "$iorig")"
	for v in IORIG_SAN ASAN_OPTIONS UBSAN_OPTIONS TSAN_OPTIONS; do
		eval "val=\${$v-}"
		[ -n "$val" ] && echo "export $v=$(q "$val")"
	done
} >"$res/env.sh"

# The namespaces' backing files, sparse. discard=unmap: a deallocate
# (NVMe Dataset Management) punches a hole, so the blocks then read as
# zeros, as the namespaces' DLFEAT says (QEMU ignores discards by default).
truncate -s 256M "$S/conv.img" "$S/zoned.img" &&
	truncate -s 64M "$S/pi.img" "$S/pisep.img" &&
	truncate -s 96M "$S/zoned12.img" || exit 1
ns() {
	echo "-drive file=$S/$1.img,if=none,id=$1,format=raw,cache=unsafe,discard=unmap"
	echo "-device nvme-ns,drive=$1,bus=nvme0,nsid=$2,$k4$3"
}
p9='security_model=none,multidevs=remap'
# No mitigations: each system call's page-table switch is dear under TCG.
# No timer check: on a host loaded past its CPUs the emulated timer's
# first ticks come late, and the kernel then panics at boot ("IO-APIC +
# timer doesn't work", seen at a load of 18 on 2 CPUs).
# No address-space randomisation (norandmaps): QEMU 7.2's TCG keys the
# code it has translated by virtual address, so each program start at new
# addresses translated ld.so and every library anew. Measured in the
# guest, 4 rounds each way: /bin/true 238 -> 84 ms, fio --version 1137 ->
# 606 ms, iorig --version 275 -> 154 ms, python3 469 -> 289 ms; the cases
# start about a thousand programs. What the cases check does not depend
# on where a program's pages are mapped.
# CPU without ERMS and FSRM: with them the kernel clears and copies pages
# with "rep stosb"/"rep movsb", and glibc its large memsets and copies,
# which TCG runs a byte per loop of its own. Without, their loops of
# wide moves. Measured in the guest (second and third rounds): 256 MiB
# from /dev/zero 1206 -> 220-298 ms, a 256 MiB bytearray in python
# 3689 -> 901-1036 ms; five cases (06, 10, 13, 16, 21), twice each way:
# 100.7 and 96.4 s -> 93.3 and 93.9 s.
fast="mitigations=off no_timer_check norandmaps"
k4=logical_block_size=4096,physical_block_size=4096
set -- -accel "${IORIG_GUEST_ACCEL:-tcg}" -machine q35 \
	-cpu "${IORIG_GUEST_CPU_MODEL:-max,erms=off,fsrm=off}" \
	-smp "$cpus" -m "$mem" \
	-nodefaults -no-user-config -display none -no-reboot -monitor none \
	-serial "file:$S/console.log" \
	-kernel "$vmlinuz" -initrd "$S/initrd" \
	-append "console=ttyS0 panic=-1 oops=panic quiet loglevel=4 $fast" \
	-fsdev "local,id=root,path=/,readonly=on,$p9" \
	-device virtio-9p-pci,fsdev=root,mount_tag=hostroot \
	-fsdev "local,id=res,path=$res,$p9" \
	-device virtio-9p-pci,fsdev=res,mount_tag=results \
	-fsdev "local,id=claims,path=$claims,$p9" \
	-device virtio-9p-pci,fsdev=claims,mount_tag=claims \
	-device nvme,id=nvme0,serial=IORIG0001 \
	$(ns conv 1 '') \
	$(ns zoned 2 ',zoned=on,zoned.zone_size=16M') \
	$(ns pi 3 ',ms=8,mset=1,pi=1') \
	$(ns pisep 4 ',ms=8,mset=0,pi=1') \
	$(ns zoned12 5 ',zoned=on,zoned.zone_size=12M')
[ -n "$sanlog" ] && set -- "$@" -fsdev "local,id=san,path=$sanlog,$p9" \
	-device virtio-9p-pci,fsdev=san,mount_tag=sanlog

# QEMU runs on one host CPU: IORIG_GUEST_PIN=K (default 0) picks the
# K-th (modulo their count) of the CPUs this script may run on, so that
# side-by-side boots (tests/run-all.sh gives each its number) take one
# each. QEMU 7.2's NVMe controller (Debian 12's) loses I/O queue
# doorbells when its threads run on two CPUs at once: with shadow
# doorbells (which Linux uses on it), its emulation thread writes the
# event index and reads the shadow tail with no barrier between them,
# so the guest, reading the event index after its own new tail, can see
# no need to ring, and the queue stalls for good. Here 25 s of fio
# randrw 4k at iodepth=4 on nsid 1 stalled in each of 4 boots unpinned
# (the kernel's "I/O 848 QID 1 timeout, aborting" 300 s later), and in
# none of 5 pinned, where each thread sees the other's writes in order.
# Without taskset(1) QEMU runs unpinned.
pin=
if command -v taskset >/dev/null 2>&1; then
	cpus_here=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //' | tr ',' '\n' |
		awk -F- '/^[0-9]/ { e = $2 == "" ? $1 : $2
			for (c = $1; c <= e; c++) print c }')
	n=$(echo "$cpus_here" | grep -c .)
	[ "$n" -gt 0 ] && pin="taskset -c $(echo "$cpus_here" |
		sed -n "$((pin_k % n + 1))p")"
fi

# Boot, then watch: the cases must start within the boot limit, the
# results share must keep changing, and the whole within the total limit.
t0=$(date +%s)
$pin $qemu "$@" >"$S/qemu.log" 2>&1 </dev/null &
qpid=$!
why=
booted=
while kill -0 "$qpid" 2>/dev/null; do
	sleep 1
	now=$(date +%s)
	if [ -z "$booted" ] && [ -e "$res/booted" ]; then
		booted=$((now - t0))
	fi
	if [ -z "$booted" ]; then
		[ $((now - t0)) -ge "$boot_limit" ] &&
			why="the guest did not start its cases in $boot_limit s"
	else
		last=$(stat -c %Y "$res"/* | sort -n | tail -n 1)
		[ $((now - last)) -ge $((case_limit + 60)) ] &&
			why="the guest showed no progress for $((now - last)) s"
	fi
	[ $((now - t0)) -ge "$total_limit" ] &&
		why="the guest ran past $total_limit s (IORIG_GUEST_TIMEOUT)"
	if [ -n "$why" ]; then
		kill -TERM "$qpid" 2>/dev/null
		sleep 2
		kill -KILL "$qpid" 2>/dev/null
		break
	fi
done
wait "$qpid"
qrc=$?
qpid=
secs=$(( $(date +%s) - t0 ))
[ -z "$why" ] && [ ! -e "$res/done" ] &&
	why="the guest stopped before its cases were done (QEMU exit $qrc)"

if [ -n "${IORIG_GUEST_KEEP:-}" ]; then
	mkdir -p "$IORIG_GUEST_KEEP" &&
		cp "$res"/*.log "$S/console.log" "$S/qemu.log" \
			"$IORIG_GUEST_KEEP/"
fi

# tail_of FILE N PREFIX: the last N lines of FILE, indented.
tail_of() {
	[ -s "$1" ] && tail -n "$2" "$1" | sed "s/^/    $3 /"
}

# console: what the guest's console says, from its first sign of trouble
# (a panic, an oops, a BUG) or else its end.
console() {
	c=$S/console.log
	[ -s "$c" ] || return 0
	at=$(grep -n -m 1 -E 'Kernel panic|BUG:|Oops|sysrq: Trigger' "$c" |
		cut -d : -f 1)
	if [ -n "$at" ]; then
		tail -n "+$at" "$c" | head -n 25 | sed 's/^/    console: /'
	else
		tail_of "$c" 25 'console:'
	fi
}

# One line per case this boot claimed, as tests/run-all.sh prints a test;
# one claimed by another boot is that boot's to report, one nobody
# claimed the caller's when the claims are shared (another boot may
# still claim it), else this boot's.
pass=0 fail=0 skipped=0
for c in $cases; do
	n=$(basename "$c" .sh)
	log=$res/$n.log
	by=$(readlink "$claims/$n" 2>/dev/null)
	if [ -n "$by" ] && [ "$by" != "$me" ]; then
		continue
	elif [ -z "$by" ] && [ -n "${IORIG_GUEST_CLAIMS:-}" ]; then
		continue
	elif [ -e "$res/$n.rc" ]; then
		read -r rc s <"$res/$n.rc"
		case $rc in
		0) echo "PASS $c (${s}s)"; pass=$((pass + 1))
		   mkdir -p "$times" 2>/dev/null &&
			echo "$s" >"$times/$n" 2>/dev/null ;;
		77) echo "SKIP $c: $(grep -i 'skip' "$log" | tail -n 1)"
		    skipped=$((skipped + 1)) ;;
		124|137)
		    echo "FAIL $c: timed out after $case_limit s in the guest"
		    tail_of "$log" 20 '|'
		    tail_of "$res/$n.kmsg" 20 'kernel:'; fail=$((fail + 1)) ;;
		*)  echo "FAIL $c (exit $rc)"
		    grep -m 8 -E '^FAILED|^AssertionError|^[A-Za-z]+Error: ' \
			"$log" | sed 's/^/    ! /'
		    tail_of "$log" 40 '|'
		    tail_of "$res/$n.kmsg" 20 'kernel:'; fail=$((fail + 1)) ;;
		esac
	elif [ -n "$by" ]; then
		echo "FAIL $c: $why, during this case"
		tail_of "$log" 20 '|'
		console
		fail=$((fail + 1))
	else
		echo "FAIL $c: not run: ${why:-the guest never reached it}"
		fail=$((fail + 1))
	fi
done
if [ -n "$why" ] && [ -z "$booted" ]; then
	tail_of "$res/init.err" 5 'init:'
	tail_of "$S/qemu.log" 10 'qemu:'
	console
fi
# A boot that failed outside its cases (another boot ran them all) is
# one failure still.
if [ -n "$why" ] && [ "$fail" -eq 0 ]; then
	echo "FAIL tests/guest/run.sh: $why"
	fail=1
fi
echo "guest: $(cat "$res/kernel" 2>/dev/null || echo "$rel"), booted in" \
	"${booted:-(never)} s, ${secs} s in all: $pass passed, $fail failed," \
	"$skipped skipped"
[ "$fail" -eq 0 ]
