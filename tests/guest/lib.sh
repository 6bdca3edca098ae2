# Sourced by the guest cases (tests/guest/cases/NN-name.sh), which
# tests/guest/run.sh runs inside the test guest, as root, chrooted into
# this machine's root under a tmpfs overlay. Gives everything
# tests/cli/lib.sh gives ($IORIG, the scratch directory $T, run, die,
# expect_rc, expect_in, json, expect_json, skip...), $top (this tree), and
# the guest's devices:
#   nvme_ns NSID      the block device of namespace NSID of /dev/nvme0
#                     (1 conventional, 2 zoned, 3 protection information
#                     in an extended LBA, 4 in separate metadata; 5,
#                     zoned with 12 MiB zones, has none: /dev/ng0n5 only)
#   smart_log VAR     /dev/nvme0's SMART / health log: field F in ${VAR}_F
#   nullb_make NAME ATTR=VALUE...   a null_blk device made through configfs
#                     ($nullb is its /dev path), removed at exit
#   dm_make NAME TABLE              a device-mapper device ($dm), removed
#   scsi_debug_sg     the /dev/sgN of scsi_debug's disk
#   zone_at DEV SECTOR    "WPTR COND" of the zone starting at SECTOR
#                     (blkzone: write pointer in sectors from the zone's
#                     start, condition em, oi, fu, nw...)
#   on_exit CMD       CMD runs at exit (last registered, first run)
# Timing inside the emulator means nothing: cases check counts, bytes,
# states and errors.
[ "${IORIG_GUEST:-}" = 1 ] || {
	echo "SKIP: a guest case runs in the test guest: sh tests/guest/run.sh"
	exit 77
}
case $0 in */*) _here=${0%/*} ;; *) _here=. ;; esac
. "$_here/../../cli/lib.sh"
top=$(cd "$_here/../../.." && pwd)

# The exit trap: the registered commands, then the scratch directory.
_on_exit=
on_exit() {
	_on_exit="$1
$_on_exit"
}
_guest_exit() {
	cd /
	printf '%s\n' "$_on_exit" | while read -r _c; do
		[ -n "$_c" ] && eval "$_c" >/dev/null 2>&1
	done
	rm -rf "$T"
}
trap _guest_exit EXIT
trap 'exit 1' INT TERM HUP

# $PY is py_served (tests/cli/lib.sh): each call runs in one Python
# started for the case, not in a python3 of its own: a start costs most
# of a second in the emulator, and the cases make about 150 calls
# (served, two boots side by side took 283 and 261 s here, their cases
# 510 s; 305 and 303 s, cases 567 s, with each call a python3 of its
# own). Started here (py_serve), in the case's own shell, and ended at
# its exit.
py_serve
on_exit _py_end

# need CMD PACKAGE: skips without CMD.
need() {
	command -v "$1" >/dev/null 2>&1 || skip "no $1 (Debian's $2)"
}

# nvme_ns NSID: the block device of namespace NSID of controller nvme0.
nvme_ns() {
	for _d in /sys/block/nvme*n*; do
		[ -r "$_d/nsid" ] && [ "$(cat "$_d/nsid")" = "$1" ] &&
			{ echo "/dev/${_d##*/}"; return 0; }
	done
	die "no namespace $1 on /dev/nvme0"
}

# smart_log VAR: reads /dev/nvme0's SMART / health log (nvme-cli's JSON)
# once; each field F is then in ${VAR}_F. Shell only, no python: each
# program started costs a good part of a second in the emulator.
smart_log() {
	nvme smart-log /dev/nvme0 -o json >"$T/smart.json" 2>"$T/smart.err" ||
		die "nvme smart-log /dev/nvme0: $(cat "$T/smart.err")"
	while IFS= read -r _l; do
		case $_l in *'":'*) ;; *) continue ;; esac
		_k=${_l#*\"}
		_k=${_k%%\"*}
		case $_k in ''|*[!a-z0-9_]*) continue ;; esac
		_v=${_l#*\":}
		_v=${_v%,}
		_v=${_v#\"}
		_v=${_v%\"}
		eval "${1}_$_k=\$_v"
	done <"$T/smart.json"
}

# nullb_make NAME ATTR=VALUE...: a null_blk device through configfs, with
# the attributes given (size in MiB, zoned, zone_size in MiB,
# memory_backed...), powered on; $nullb is /dev/NAME.
# memory_backed=1 only where a case reads back what was written (verify=,
# a checksum): keeping the data costs about 30 ms a MiB under TCG (64 MiB
# of 64 KiB writes to a zoned device: iorig 2.7 s kept, 0.6 s not; fio 3.2
# s and 1.2 s). Zones, write pointers, open-zone limits and errors are the
# same without it; a read then returns the kernel's zeroed pages (Debian's
# kernel zeroes pages on allocation), so no stale bytes reach blkid.
nullb_make() {
	_n=/sys/kernel/config/nullb/$1
	[ -d /sys/kernel/config/nullb ] || die "no null_blk in configfs"
	mkdir "$_n" || die "cannot make $_n"
	on_exit "rmdir $_n"
	on_exit "echo 0 >$_n/power"
	_name=$1
	shift
	for _a in "$@"; do
		echo "${_a#*=}" >"$_n/${_a%%=*}" ||
			die "null_blk: cannot set ${_a%%=*} to ${_a#*=}"
	done
	echo 1 >"$_n/power" || die "null_blk: cannot power on $_name"
	nullb=/dev/$_name
	[ -b "$nullb" ] || die "null_blk: no $nullb after power on"
}

# dm_make NAME TABLE: a device-mapper device; $dm is /dev/mapper/NAME.
dm_make() {
	dmsetup create "$1" --table "$2" >"$T/dm.err" 2>&1 ||
		die "dmsetup create $1 '$2': $(cat "$T/dm.err")"
	on_exit "dmsetup remove --retry $1"
	dm=/dev/mapper/$1
	[ -b "$dm" ] || die "no $dm after dmsetup create"
}

# scsi_debug_sg: the SCSI generic node of scsi_debug's first disk.
scsi_debug_sg() {
	for _s in /sys/class/scsi_generic/sg*; do
		grep -q scsi_debug "$_s/device/model" 2>/dev/null &&
			{ echo "/dev/${_s##*/}"; return 0; }
	done
	die "no scsi_debug disk with a /dev/sg node"
}

# zone_at DEV SECTOR: "WPTR COND" of DEV's zone starting at SECTOR, by
# blkzone report (the write pointer in 512-byte sectors from the zone's
# start; the condition as blkzone abbreviates it: em, oi, oe, cl, fu, nw).
zone_at() {
	_r=$(blkzone report -o "$2" -c 1 "$1" 2>&1) ||
		die "blkzone report -o $2 -c 1 $1: $_r"
	case $_r in *"start: "*"wptr "*"zcond:"*) ;;
	*) die "blkzone report -o $2 -c 1 $1: '$_r'" ;; esac
	_w=${_r#*wptr }
	_w=${_w%% *}
	_c=${_r#*zcond:}
	_c=${_c#*(}
	_c=${_c%%)*}
	echo "$((_w)) $_c"
}

# zbd_check DEV JSON: the zones of the zonemode=zbd record of the first
# job in the iorig report JSON (jobs[0].zbd.zones: start, cond_after,
# wp_after) are the zones blkzone reports for DEV now, condition and
# write pointer; prints "zones=N open=O full=F bytes=B" of blkzone's
# view of them (B: bytes below their write pointers).
zbd_check() {
	blkzone report "$1" >"$T/bz" 2>"$T/bz.err" ||
		die "blkzone report $1: $(cat "$T/bz.err")"
	"$PY" -S - "$T/bz" "$2" <<'PYEOF' || die "zbd_check $1 $2"
import json, re, sys
bz = {}
for l in open(sys.argv[1]):
    m = re.search(r'start: (0x[0-9a-f]+), len (0x[0-9a-f]+), cap '
                  r'(0x[0-9a-f]+), wptr (0x[0-9a-f]+).*zcond:\s*\d+\((\w+)\)',
                  l)
    if m:
        s, n, c, w = (int(m.group(i), 16) * 512 for i in range(1, 5))
        cond = m.group(5)
        # a full zone holds data up to its capacity (fio's reading),
        # whatever write pointer the device gives it
        bz[s] = (c if cond in ('fu', 'nw') else w, cond, c)
z = json.load(open(sys.argv[2]))['jobs'][0]['zbd']['zones']
bad = [(q['start'], q['cond_after'], q['wp_after'], bz.get(q['start']))
       for q in z if q['type'] != 'conventional' and
       bz.get(q['start'], (None, None))[:2] != (q['wp_after'],
                                                 q['cond_after'])]
if bad:
    print('iorig says (start, cond, wp) / blkzone says (wp, cond, cap):',
          bad[:4])
    sys.exit(1)
seq = [bz[q['start']] for q in z if q['type'] != 'conventional']
print('zones=%d open=%d full=%d bytes=%d' % (
    len(seq), sum(c in ('oi', 'oe') for w, c, _ in seq),
    sum(c == 'fu' for w, c, _ in seq), sum(w for w, c, _ in seq)))
PYEOF
}

# zones_of DEV SECTOR COUNT: "WPTR:COND ..." of COUNT zones of DEV from
# SECTOR, by one blkzone report (write pointers in sectors from each
# zone's start).
zones_of() {
	blkzone report -o "$2" -c "$3" "$1" >"$T/bz" 2>"$T/bz.err" ||
		die "blkzone report -o $2 -c $3 $1: $(cat "$T/bz.err")"
	_out=
	while IFS= read -r _l; do
		_w=${_l#*wptr }
		_w=${_w%% *}
		_c=${_l#*zcond:}
		_c=${_c#*(}
		_c=${_c%%)*}
		_out="$_out${_out:+ }$((_w)):$_c"
	done <"$T/bz"
	echo "$_out"
}

# open_in "WPTR:COND ...": $open_n, how many of those zones (zones_of)
# are open, implicitly or explicitly; counted by the shell, no program
# started (one costs about a tenth of a second in the emulator).
open_in() {
	open_n=0
	for _w in $1; do
		case $_w in *:o[ie]) open_n=$((open_n + 1)) ;; esac
	done
}

# ---- shared by the cases that compare iorig with fio 3.33 ----

# nullb_pair PREFIX ATTR=VALUE...: two null_blk devices made alike (see
# nullb_make), PREFIXi for iorig ($a) and PREFIXf for fio 3.33 ($b).
nullb_pair() {
	_p=$1
	shift
	nullb_make "${_p}i" "$@"
	a=$nullb
	nullb_make "${_p}f" "$@"
	b=$nullb
}

# both NAME ARGS...: the same job on two devices made alike, iorig on $a
# and fio 3.33 on $b, each with $common; iorig's JSON in $T/NAME.i, fio's
# in $T/NAME.f (stderr in .ie, .fe). Either failing fails the case.
both() {
	_n=$1
	shift
	"$IORIG" --filename=$a $common --name=$_n "$@" --output-format=json \
		>"$T/$_n.i" 2>"$T/$_n.ie" || die "iorig $*: $(cat "$T/$_n.ie")"
	/usr/bin/fio --filename=$b $common --name=$_n "$@" \
		--output-format=json >"$T/$_n.f" 2>"$T/$_n.fe" ||
		die "fio $*: $(cat "$T/$_n.fe")"
}

# jvals FILE EXPR... [@FILE2 EXPR...]...: each Python expression EXPR on
# the JSON document in FILE (d; j is its first job; text before the
# document, which fio may print, is skipped), printed on one line,
# separated by spaces (a tuple or list by commas, without spaces); an
# argument @FILE2 makes the expressions after it look at FILE2 (iorig's
# report and fio's in one call). One python for them all: a program
# started costs a good part of a second in the emulator.
jvals() {
	"$PY" -S - "$@" <<'PYEOF' || die "jvals $*"
import json, sys
def load(f):
    t = open(f).read()
    d = json.loads(t[t.find('{'):])
    return d, d['jobs'][0]
d, j = load(sys.argv[1])
out = []
for e in sys.argv[2:]:
    if e.startswith('@'):
        d, j = load(e[1:])
    else:
        out.append(str(eval(e)).replace(' ', ''))
print(' '.join(out))
PYEOF
}

# trace_event EVENT: the tracepoint EVENT (SYSTEM/NAME) enabled until the
# case ends; $tr is tracefs (mounted here when it is not). Skips without
# tracefs or EVENT.
trace_event() {
	tr=/sys/kernel/tracing
	[ -d $tr/events ] || mount -t tracefs nodev $tr 2>/dev/null ||
		skip "no tracefs"
	[ -d "$tr/events/$1" ] || skip "no ${1#*/} tracepoint"
	echo 1 >"$tr/events/$1/enable" || die "cannot enable $1"
	on_exit "echo 0 >$tr/events/$1/enable"
}

# trace_tally OPS [PREFIX]: reads the trace ($tr/trace); for each
# REGEX:NAME of OPS (words; REGEX a basic one without spaces, as grep
# takes it), prints PREFIXNAME=N, N how many events match REGEX; without
# PREFIX, events are counted per window instead: those after the K-th
# trace_mark marker (trace_jobs) print NAME_K=N, and trace_jobs=K the
# number of windows. One awk for it all: a program started costs a good
# part of a second in the emulator.
trace_tally() {
	awk -v ops="$1" -v pre="${2-}" -v win="${2+0}" '
	BEGIN {
		n = split(ops, o, /[ \t\n]+/)
		for (i = 1; i <= n; i++) {
			if (o[i] == "")
				continue
			nm = o[i]; sub(/.*:/, "", nm)
			re = o[i]; sub(/:[^:]*$/, "", re)
			gsub(/\(/, "\\(", re)
			m++; R[m] = re; N[m] = nm
		}
		k = win == "" ? 0 : 1
	}
	/^#/ { next }
	win == "" && /tracing_mark_write: iorig-job/ { k++; next }
	k { for (i = 1; i <= m; i++) if ($0 ~ R[i]) C[i, k]++ }
	END {
		if (win != "") {
			for (i = 1; i <= m; i++)
				print pre N[i] "=" C[i, 1] + 0
			exit
		}
		for (j = 1; j <= k; j++)
			for (i = 1; i <= m; i++)
				print N[i] "_" j "=" C[i, j] + 0
		print "trace_jobs=" k
	}' $tr/trace
}

# trace_count VAR OPS PROG ARGS...: runs PROG ARGS (stdout in $T/out,
# stderr in $T/err, exit code in $rc) on an emptied trace (trace_event);
# then, for each REGEX:NAME of OPS (trace_tally), ${VAR}_NAME is how many
# of the trace's events match REGEX.
trace_count() {
	_v=$1 _ops=$2
	shift 2
	echo >$tr/trace
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	eval "$(trace_tally "$_ops" "${_v}_")"
}

# trace_jobs OPS PROG ARGS...: trace_count for a run of several
# stonewalled jobs, each with --exec_prerun="$trace_mark" (before the
# first job's name: every job's): the marker it writes just before the
# job's I/O starts the job's window. For the K-th job (from 1) and each
# REGEX:NAME of OPS, ${NAME}_K is how many events of its window match;
# $trace_jobs is the number of windows. (fio sends the command's output
# to a file by a redirection after it: the marker's own redirection is
# inside a group, which that one cannot replace. A shell of its own did
# the same at the cost of starting a program per job, 0.1 s under TCG.)
trace_mark="{ echo iorig-job >/sys/kernel/tracing/trace_marker; }"
trace_jobs() {
	_ops=$1
	shift
	echo >$tr/trace
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	eval "$(trace_tally "$_ops")"
}

# The options syncs_both gives a job each ("A,B": two options of one job).
sync_jobs="--fsync=4 --fdatasync=4,--iodepth=4 --sync_file_range=write:4
	--end_fsync=1 --fsync_on_close=1"

# syncs_both OPS SYNC WHERE IORIG_ONLY ARGS...: a stonewalled job per
# entry of $sync_jobs, each writing 64 KiB in 4 KiB blocks on ARGS (file,
# engine, offset), each job's commands counted in a window of its own
# (trace_jobs; OPS names the device's sync command SYNC and its write
# "write"): one run of iorig (given the words of IORIG_ONLY too), then one
# of fio 3.33 on the same jobs. For the K-th job (1-5): oK its options,
# aK iorig's SYNC commands, awK its writes, nK the syncs its JSON reports,
# fK and fwK fio's SYNC commands and writes; frc is fio's exit code.
# Dies unless iorig ran, both runs show 5 windows, and iorig sent one SYNC
# for end_fsync= and fsync_on_close=, else as many as the syncs it reports
# (3 or more) with its 16 writes. WHERE (" on DEV" or empty) ends the
# names in messages.
syncs_both() {
	_ops=$1 _sn=$2 _wh=$3 _io=$4
	shift 4
	set -- --exec_prerun="$trace_mark" "$@" --rw=write --bs=4k \
		--size=64k --output-format=json
	_k=1 _ifs=$IFS
	for _o in $sync_jobs; do
		IFS=,
		set -- "$@" --name=s$_k --stonewall $_o
		IFS=$_ifs
		case $_o in *,*) _o="${_o%%,*} ${_o#*,}" ;; esac
		eval "o$_k=\$_o"
		_k=$((_k + 1))
	done
	trace_jobs "$_ops" "$IORIG" $_io "$@"
	[ "$rc" = 0 ] || die "iorig$_wh: $(cat "$T/err")"
	[ "$trace_jobs" = 5 ] || die "iorig$_wh: $trace_jobs jobs traced, not 5"
	set -- $(jvals "$T/out" \
		"[(x.get('sync') or {}).get('ios') for x in d['jobs']]" |
		tr -d '[]' | tr , ' ') "$@"
	for _k in 1 2 3 4 5; do
		eval "a$_k=\$${_sn}_$_k aw$_k=\$write_$_k n$_k=\$$_k"
	done
	shift 5
	trace_jobs "$_ops" /usr/bin/fio "$@"
	frc=$rc
	[ "$trace_jobs" = 5 ] || die "fio$_wh: $trace_jobs jobs traced, not 5"
	for _k in 1 2 3 4 5; do
		eval "f$_k=\$${_sn}_$_k fw$_k=\$write_$_k _o=\$o$_k _a=\$a$_k" \
			"_aw=\$aw$_k _n=\$n$_k"
		case $_o in
		--end_fsync*|--fsync_on_close*)
			[ "$_a" = 1 ] ||
				die "iorig $_o$_wh: $_a $_sn commands, not 1"
			continue ;;
		esac
		[ "$_a" = "$_n" ] && [ "$_n" -ge 3 ] ||
			die "iorig $_o$_wh: $_a $_sn commands, $_n syncs" \
			    "reported (expected the same, 3 or more)"
		[ "$_aw" = 16 ] || die "iorig $_o$_wh: $_aw writes, not 16"
	done
}

# trim_pct OPS TRIM WHAT ARGS...: iorig's random writes of 256 KiB in
# 4 KiB blocks on ARGS with verify=crc32c, trim_percentage=50,
# trim_backlog=8 and trim_verify_zero=1, traced (trace_count; OPS names
# the device's trim command TRIM, WHAT in the messages): as many TRIM
# commands as the trims its JSON reports, more than none, and its blocks
# verified with no mismatch (the trimmed ones read as zeros).
trim_pct() {
	_ops=$1 _tn=$2 _what=$3
	shift 3
	trace_count a "$_ops" "$IORIG" "$@" --name=t --rw=randwrite --bs=4k \
		--size=256k --verify=crc32c --trim_percentage=50 \
		--trim_backlog=8 --trim_verify_zero=1 --output-format=json
	[ "$rc" = 0 ] || die "iorig trim_percentage: $(cat "$T/err")"
	set -- $(jvals "$T/out" "j['trim']['ios']" \
		"j['verify']['mismatches']" "j['verify']['blocks_checked'] > 0")
	eval "_c=\$a_$_tn"
	[ "$_c" = "$1" ] && [ "$1" -gt 0 ] ||
		die "trim_percentage: $_c $_what, $1 trims reported"
	[ "$2 $3" = "0 True" ] ||
		die "trim_percentage: mismatches, checked: $2 $3"
	echo "ok: trim_percentage=50: $_c $_what = the $1 trims reported," \
	     "verified (trimmed blocks zeros)"
}

# hipri_both OPS READ WHAT ARGS...: hipri=1 without direct=1, a read of
# 64 KiB in 4 KiB blocks on ARGS, by iorig and by fio 3.33 (fio takes
# it), traced (trace_count; OPS names the device's read command READ,
# WHAT in the messages): one READ per block, 16, for each.
hipri_both() {
	_ops=$1 _rn=$2 _what=$3
	shift 3
	set -- "$@" --name=h --rw=read --bs=4k --size=64k --hipri=1
	trace_count a "$_ops" "$IORIG" "$@"
	[ "$rc" = 0 ] || die "iorig hipri=1: $(cat "$T/err")"
	trace_count f "$_ops" /usr/bin/fio "$@"
	[ "$rc" = 0 ] || die "fio hipri=1: $(cat "$T/err")"
	eval "_a=\$a_$_rn _f=\$f_$_rn"
	[ "$_a" = 16 ] && [ "$_f" = 16 ] ||
		die "hipri=1: iorig $_a $_what, fio 3.33 $_f; expected 16"
	echo "ok: hipri=1 without direct=1: 16 $_what, as fio 3.33"
}

# ---- zonemode=zbd through an NVMe generic char device (cases 25, 26, 28) ----

# zns_ns NSID: the zoned namespace NSID through its char device: $ng
# (/dev/ng0nNSID, the case fails without it), $FIO (Debian's fio 3.33, the
# case skips without it), the NVMe driver's nvme_setup_cmd tracepoint on
# and $ops, the Write, Read and Zone Management Send commands on NSID as
# trace_count counts them (write, read, reset).
zns_ns() {
	FIO=/usr/bin/fio
	[ -x $FIO ] || skip "no $FIO (Debian's fio)"
	ng=/dev/ng0n$1
	[ -c $ng ] || die "no $ng"
	trace_event nvme/nvme_setup_cmd
	ops="nsid=$1,.*cmd=(nvme_cmd_write:write
	     nsid=$1,.*cmd=(nvme_cmd_read:read
	     nsid=$1,.*cmd=(nvme_cmd_zone_mgmt_send:reset"
}

# zns_blk NSID: zns_ns NSID for a namespace with a block device ($dev),
# its zones reset by blkzone now and at exit.
zns_blk() {
	need blkzone util-linux
	zns_ns $1
	dev=$(nvme_ns $1)
	blkzone reset "$dev" || die "blkzone reset $dev"
	on_exit "blkzone reset $dev"
}

# zns_pair NAME IOFF FOFF ARGS...: the job ARGS with $common, iorig's at
# offset IOFF (with $zns_iargs too; its JSON in $T/NAME.i, its commands in
# $i_write, $i_read, $i_reset) and fio's at FOFF ($T/NAME.f; $f_write...).
# Either failing fails the case.
zns_pair() {
	_n=$1 _io=$2 _fo=$3
	shift 3
	trace_count i "$ops" "$IORIG" $common --name=$_n --offset=$_io "$@" \
		${zns_iargs:-} --output-format=json
	[ "$rc" = 0 ] || die "iorig $*: $(cat "$T/err")"
	cp "$T/out" "$T/$_n.i"
	trace_count f "$ops" $FIO $common --name=$_n --offset=$_fo "$@" \
		--output-format=json
	[ "$rc" = 0 ] || die "fio $*: $(cat "$T/err")"
	cp "$T/out" "$T/$_n.f"
}

# zns_ios NAME DIR: iorig's and fio's I/Os of direction DIR and their
# errors ("IORIG IERR FILE FIO FERR": FILE the file of iorig's first zone).
zns_ios() {
	jvals "$T/$1.i" "j['$2']['ios']" "j['$2']['errors']" \
		"j['zbd']['zones'][0]['file']" \
		"@$T/$1.f" "j['$2']['total_ios']" "j['error']"
}

# The jobs cases 25 and 28 both run on a zoned namespace through $ng, in
# 128 KiB blocks, iorig on zones 0-3 and fio on 4-7 (then zones R..R+3,
# fio R+4..R+7), each checked against fio's counts, the driver's commands
# and the zones as a tool outside iorig reads them. zns_zbd sets them up:
# zns_zbd ZONE UNIT FULL ZONES CHECK TOOL
#   ZONE   the namespace's zone size in bytes
#   UNIT   the unit of ZONES' write pointers in bytes
#   FULL   a case pattern that ZONES' word for a full zone matches
#   ZONES FIRST COUNT   prints "WPTR:COND ..." of COUNT zones from FIRST
#   CHECK JSON   holds iorig's zones in its report JSON to the tool's and
#                prints "zones=N open=O full=F bytes=B" of the tool's view
#   TOOL   the tool's name, for the messages
zns_zbd() {
	zZ=$1 zU=$2 zfull=$3 zzones=$4 zcheck=$5 ztool=$6
	zM=1048576
	zH=$((zZ / 2 / zU))
}

# zns_seq_writes: two whole zones (0-1, fio 4-5) written sequentially,
# then one and a half zones' worth in 2-3 (fio 6-7): the writes counted
# alike, the zones left alike.
zns_seq_writes() {
	_c=$((2 * zZ / 131072))
	zns_pair w1 0 $((4 * zZ)) --size=$((2 * zZ)) --bs=128k --rw=write
	set -- $(zns_ios w1 write)
	[ "$1 $2 $3 $4 $5" = "$_c 0 $ng $_c 0" ] ||
		die "2 zones of 128 KiB writes: iorig '$1 $2 $3', fio '$4 $5'," \
		    "expected $_c each"
	[ "$i_write $f_write" = "$_c $_c" ] ||
		die "Write commands: iorig $i_write, fio $f_write; expected $_c"
	($zcheck "$T/w1.i") >"$T/c1" || die "$(cat "$T/c1")"
	grep -q "full=2 bytes=$((2 * zZ))" "$T/c1" ||
		die "2 zones written: $ztool says $(cat "$T/c1")"
	_b=$((3 * zZ / 2)) _c2=$((3 * zZ / 2 / 131072))
	zns_pair w2 $((2 * zZ)) $((6 * zZ)) --size=$((2 * zZ)) --io_size=$_b \
		--bs=128k --rw=write
	set -- $(zns_ios w2 write)
	[ "$1 $2 $4 $5" = "$_c2 0 $_c2 0" ] &&
		[ "$i_write $f_write" = "$_c2 $_c2" ] ||
		die "$((_b / zM)) MiB of writes: iorig $1 ($2 errors), fio $4" \
		    "($5); Write commands iorig $i_write, fio $f_write;" \
		    "expected $_c2"
	($zcheck "$T/w2.i") >"$T/c2" || die "$(cat "$T/c2")"
	grep -q "open=1 full=1 bytes=$_b" "$T/c2" ||
		die "$((_b / zM)) MiB in 2 zones: $ztool says $(cat "$T/c2")"
	set -- $($zzones 0 8)
	[ "$1 $2 $3 $4" = "$5 $6 $7 $8" ] ||
		die "iorig's zones 0-3 '$1 $2 $3 $4', fio's 4-7 '$5 $6 $7 $8'"
	case "$3 $4" in $zfull\ $zH:oi) ;; *)
		die "zones 2-3 after $((_b / zM)) MiB of writes: '$3 $4'" ;;
	esac
	echo "ok: sequential writes through $ng: zones 0-3 '$1 $2 $3 $4' as" \
		"fio leaves 4-7; $_c and $_c2 Write commands each; $(cat "$T/c2")"
}

# zns_read: zones 2-3 (fio 6-7) read, its size in zones (2z: the
# namespace's zone size, as fio counts it): the reads stop at the write
# pointer (one and a half zones written by zns_seq_writes).
zns_read() {
	_b=$((3 * zZ / 2)) _c=$((3 * zZ / 2 / 131072))
	zns_pair r $((2 * zZ)) $((6 * zZ)) --size=2z --bs=128k --rw=read
	set -- $(zns_ios r read)
	[ "$1 $2 $4 $5" = "$_c 0 $_c 0" ] && [ "$i_read $f_read" = "$_c $_c" ] ||
		die "read of $((_b / zM)) MiB written: iorig $1 ($2 errors)," \
		    "fio $4 ($5); Read commands iorig $i_read, fio $f_read;" \
		    "expected $_c"
	echo "ok: the read stops at the write pointer: $_c reads each, $_c" \
		"Read commands each"
}

# zns_reset_write: half a zone written sequentially from zone 2 (fio 6),
# which is full: one reset (one Zone Management Send), the zone then
# half written.
zns_reset_write() {
	_b=$((zZ / 2)) _c=$((zZ / 2 / 131072))
	zns_pair z $((2 * zZ)) $((6 * zZ)) --size=$((2 * zZ)) --io_size=$_b \
		--bs=128k --rw=write
	set -- $(zns_ios z write)
	res=$(jvals "$T/z.i" "j['zbd']['zone_resets']")
	[ "$1 $2 $4 $5" = "$_c 0 $_c 0" ] &&
		[ "$i_write $f_write" = "$_c $_c" ] ||
		die "$((_b / zM)) MiB of writes: iorig $1 ($2 errors), fio $4" \
		    "($5); Write commands iorig $i_write, fio $f_write;" \
		    "expected $_c"
	[ "$res $i_reset $f_reset" = "1 1 1" ] ||
		die "a full zone written: iorig reports $res resets and set up" \
		    "$i_reset Zone Management Send, fio $f_reset; expected 1"
	($zcheck "$T/z.i") >"$T/c3" || die "$(cat "$T/c3")"
	set -- $($zzones 0 8)
	[ "$1 $2 $3 $4" = "$5 $6 $7 $8" ] ||
		die "after the reset: iorig's zones 0-3 '$1 $2 $3 $4', fio's" \
		    "4-7 '$5 $6 $7 $8'"
	case "$1 $2 $3 $4" in $zfull\ $zfull\ $zH:oi\ $zH:oi) ;; *)
		die "zones 0-3 after zone 2's reset and $((_b / zM)) MiB:" \
		    "'$1 $2 $3 $4'" ;;
	esac
	echo "ok: a write to a full zone resets it first: 1 reset each (1" \
		"Zone Management Send each), zones 0-3 '$1 $2 $3 $4' as fio's" \
		"4-7"
}

# zns_rand_writes R HELD: random writes over zones R..R+3 (fio R+4..R+7),
# 1.5 times their size, at most two zones open (max_open_zones=2); the
# zones held HELD bytes before (each side). No write error, the resets
# iorig reports those the driver set up, and what the zones hold is what
# they held and what was written less the zones reset (fio's the same).
zns_rand_writes() {
	_b=$((6 * zZ)) _c=$((6 * zZ / 131072)) _h=$2
	zns_pair rw $(($1 * zZ)) $((($1 + 4) * zZ)) --size=$((4 * zZ)) \
		--io_size=$_b --bs=128k --rw=randwrite --max_open_zones=2
	set -- $(zns_ios rw write) $1
	iow=$1 fw=$4 _r=$6
	[ "$1 $2 $4 $5" = "$_c 0 $_c 0" ] &&
		[ "$i_write $f_write" = "$_c $_c" ] ||
		die "random writes: iorig $1 ($2 errors), fio $4 ($5); Write" \
		    "commands iorig $i_write, fio $f_write; expected $_c"
	set -- $(jvals "$T/rw.i" "j['zbd']['zone_resets']" \
		"j['zbd']['max_open_seen']" "j['zbd']['model']")
	res=$1 seen=$2
	[ "$3" = host-managed ] || die "iorig's zones of $ng: model $3"
	[ "$res" = "$i_reset" ] || die "iorig reports $res zone resets, the" \
		"driver set up $i_reset Zone Management Send"
	[ "$res" -gt 0 ] && [ "$f_reset" -gt 0 ] ||
		die "1.5 times 4 zones of writes: $res resets (fio $f_reset)"
	($zcheck "$T/rw.i") >"$T/c4" || die "$(cat "$T/c4")"
	ib=$(sed -n 's/.*bytes=\([0-9]*\).*/\1/p' "$T/c4")
	iopen=$(sed -n 's/.*open=\([0-9]*\).*/\1/p' "$T/c4")
	fz=$($zzones $((_r + 4)) 4)
	open_in "$fz"
	fopen=$open_n
	fb=0
	for z in $fz; do
		case $z in $zfull) fb=$((fb + zZ)) ;;
		*) fb=$((fb + ${z%%:*} * zU)) ;; esac
	done
	_w="$((_b / zM)) MiB of writes"
	[ "$_h" = 0 ] || _w="$((_h / zM)) MiB, then $_w"
	[ "$ib" = $((_h + _b - res * zZ)) ] &&
		[ "$fb" = $((_h + _b - f_reset * zZ)) ] ||
		die "after $_w: iorig's zones hold $ib bytes ($res resets)," \
		    "fio's $fb ($f_reset resets)"
	[ "$seen" -le 2 ] && [ "$iopen" -le 2 ] && [ "$fopen" -le 2 ] ||
		die "max_open_zones=2: iorig had $seen open ($iopen at the" \
		    "end), fio $fopen at the end"
	echo "ok: random writes: $iow writes each (fio $fw), $res resets" \
		"($i_reset Zone Management Send; fio $f_reset), at most $seen" \
		"zones open (fio's end: $fopen; zones '$fz'); $(cat "$T/c4")"
}
