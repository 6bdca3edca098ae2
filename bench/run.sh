#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Side-by-side benchmark of iorig and fio: the same job, alternating runs,
# medians and iorig/fio ratios per scenario. See bench/README.md.
#
# Environment:
#   BENCH_ROUNDS=N        rounds per scenario (default 5)
#   BENCH_RUNTIME=S       seconds per run (default 5)
#   BENCH_ONLY=a,b        scenarios to run (default: all)
#   BENCH_CPU=N           CPU both tools are pinned to (default 1, or 0);
#                         none: not pinned
#   BENCH_OUT=DIR         where run logs go (default: a new /tmp dir)
#   BENCH_IORIG=PATH      iorig binary (default: ./iorig at the repo root)
#   BENCH_FIO=PATH        fio binary (default: fio)
#   BENCH_T_IO_URING=PATH fio's t/io_uring, built by you (peak_*, scale_*)
#   BENCH_ZRAM_SIZE=SIZE  zram disk size when we set it up (default 1G)
#   BENCH_ZRAM_REUSE=1    read an already configured /dev/zram0 as it is
#   BENCH_REAL_JOBS=a,b   real_jobs: job files of jobs/real to run, by base
#                         name (default: all)
#   BENCH_REAL_SIZE=SIZE  real_jobs: size= of non-percentage jobs (64m)
#   BENCH_DISK=PATH       disk scenarios: block device or existing file to
#                         read (default: the device holding /, or failing
#                         that its largest file); never written
#
# Exit status: 0 when every scenario ran or was skipped (missed targets are
# not failures), 1 when a run gave no figures, 2 on bad usage, 77 when a
# prerequisite (bash, python3, fio) is missing and cannot be installed.

if [ -z "${BASH_VERSION:-}" ]; then
	command -v bash >/dev/null 2>&1 || {
		echo "bench: needs bash" >&2
		exit 77
	}
	exec bash "$0" "$@"
fi

set -u

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
HELPER="$BENCH_DIR/bench.py"

# ---------------------------------------------------------------------------
# Scenarios. Each name N has a function scenario_N that declares the sides
# it compares with add_side and calls run_rounds; it returns 0 when it ran,
# $SKIP (after calling skip REASON) when it cannot run here, anything else
# on error. A side is one tool with one set of arguments; the usual pair is
# "iorig" against "fio" on the same job, and a metric may compare any two
# sides (key:label:op:target:A/B, default iorig/fio).
SCENARIOS=(null sync io_uring libaio pthread io_uring_tuned
	peak_io_uring peak_libaio peak_io_uring_held peak_libaio_held
	scale_io_uring scale_null
	disk_libaio disk_io_uring disk_sync disk_pthread real_jobs)
SKIP=3

# iorig's batching, as extra sides of the queue-depth scenarios. iorig's
# default (iodepth_batch_submit=0, complete_max=0) hands the kernel every
# ready I/O at once and reaps every completion there is; fio's default
# submits each I/O as soon as it is ready and reaps one at a time.
S1=(--iodepth_batch_submit=1)
S1C1=(--iodepth_batch_submit=1 --iodepth_batch_complete_max=1)

# Rows comparing the batching variants of side A (default: iorig) with
# fio and with A itself: batch_rows [A] [with_cpu]
batch_rows() {
	local a=${1:-iorig} cpu=${2:-1} v
	for v in "$a-s1" "$a-s1c1"; do
		printf '%s\n' "read_iops:read IOPS:info:0:$v/fio"
		if [ "$cpu" = 1 ]; then
			printf '%s\n' \
				"ext_usr_ns_per_io:user CPU/IO (external):info:0:$v/fio" \
				"ext_sys_ns_per_io:sys CPU/IO (external):info:0:$v/fio"
		else
			printf '%s\n' \
				"read_clat_p50_ns:read clat p50:info:0:$v/fio"
		fi
		printf '%s\n' "read_iops:read IOPS:info:0:$v/$a"
	done
}

scenario_null() {
	local common=(--name=null --ioengine=null --rw=read --bs=4k --size=1t
		--time_based --runtime="$RUNTIME" --output-format=json)

	add_side iorig iorig "${common[@]}"
	add_side fio fio "${common[@]}"
	run_rounds null \
		"read_iops:read IOPS:ge:3.0" \
		"ext_cpu_ns_per_io:CPU/IO usr+sys (external):info:0" \
		"cpu_busy_pct:CPU busy (usr+sys)/wall:info:0"
}

# The kernel's own limit: fio's t/io_uring (no statistics, registered
# buffers and files, batched submit and reap), which the user builds from
# fio's source and names with BENCH_T_IO_URING (we do not build or ship
# it: it is GPL). iorig runs with its defaults. TIO_ARGS are the batch
# settings that gave t/io_uring its best on this machine (bench/README.md).
# BENCH_TIO_BATCH=N sets its submit and complete batches (best unpinned
# here: 4).
TIO_ARGS=(-d32 -s"${BENCH_TIO_BATCH:-32}" -c"${BENCH_TIO_BATCH:-32}" -p0 -R1 -O1)

# tio_acquire: BENCH_T_IO_URING is runnable, else skip.
tio_acquire() {
	if [ -z "$TIO" ]; then
		skip "BENCH_T_IO_URING is not set (build fio's t/io_uring" \
			"yourself and name it)"
		return 1
	fi
	[ -x "$TIO" ] || { skip "BENCH_T_IO_URING=$TIO is not executable"; return 1; }
	return 0
}

# peak ENGINE TIO_FLAG: QD32 4 KiB random reads from zram, iorig's
# defaults against t/io_uring (TIO_FLAG -a1: its legacy aio mode).
# TIO_ARGS_NOW: t/io_uring's arguments for this scenario (TIO_ARGS unless
# a *_held scenario set them).
peak() {
	local scn=$1 e=$2
	shift 2
	tio_acquire || return "$SKIP"
	zram_acquire || return "$SKIP"
	zram_job "$scn"
	add_side iorig iorig "${COMMON[@]}" --ioengine="$e" --iodepth=32
	add_side tio tio "${TIO_ARGS_NOW[@]}" "$@" -r"$RUNTIME" "$ZRAM_DEV"
	local extra=()
	[ "$e" = io_uring ] &&
		extra=("iowq_workers:io-wq worker threads seen:info:0:iorig/tio")
	run_rounds "$scn" \
		"read_iops:read IOPS:ge:0.97:iorig/tio" \
		"ext_cpu_ns_per_io:CPU/IO usr+sys (external):info:0:iorig/tio" \
		"cpu_busy_pct:CPU busy (usr+sys)/wall:info:0:iorig/tio" \
		"${extra[@]}"
}
scenario_peak_io_uring() {
	TIO_ARGS_NOW=("${TIO_ARGS[@]}")
	peak peak_io_uring io_uring
}
scenario_peak_libaio() {
	TIO_ARGS_NOW=("${TIO_ARGS[@]}")
	peak peak_libaio libaio -a1
}
# The same with t/io_uring holding the depth as iorig does (and fio): it
# waits for one completion (-c1) and refills what is free (-s32). With
# -cB it waits for B completions in one call, so at -c32 its queue drains
# to empty before each refill: the depth it holds is not the one asked.
TIO_HELD=(-d32 -s32 -c1 -p0 -R1 -O1)
scenario_peak_io_uring_held() {
	TIO_ARGS_NOW=("${TIO_HELD[@]}")
	peak peak_io_uring_held io_uring
}
scenario_peak_libaio_held() {
	TIO_ARGS_NOW=("${TIO_HELD[@]}")
	peak peak_libaio_held libaio -a1
}

# numjobs=N against N t/io_uring threads and against one job: the scaling
# of each (run unpinned: BENCH_CPU=none).
scenario_scale_io_uring() {
	local n=$(nproc)
	tio_acquire || return "$SKIP"
	zram_acquire || return "$SKIP"
	zram_job scale_io_uring
	add_side iorig-n iorig "${COMMON[@]}" --ioengine=io_uring \
		--iodepth=32 --numjobs="$n" --group_reporting=1
	add_side iorig iorig "${COMMON[@]}" --ioengine=io_uring --iodepth=32
	add_side tio-n tio "${TIO_ARGS[@]}" -n"$n" -r"$RUNTIME" "$ZRAM_DEV"
	add_side tio tio "${TIO_ARGS[@]}" -r"$RUNTIME" "$ZRAM_DEV"
	run_rounds scale_io_uring \
		"read_iops:read IOPS, $n jobs:info:0:iorig-n/tio-n" \
		"read_iops:iorig scaling ($n jobs / 1):info:0:iorig-n/iorig" \
		"read_iops:t/io_uring scaling ($n threads / 1):info:0:tio-n/tio"
}

# The null engine: numjobs=N against one job (the ratio's target is N).
scenario_scale_null() {
	local n=$(nproc)
	local common=(--name=null --ioengine=null --rw=read --bs=4k --size=1t
		--time_based --runtime="$RUNTIME" --output-format=json)
	add_side iorig-n iorig "${common[@]}" --numjobs="$n" --group_reporting=1
	add_side iorig iorig "${common[@]}"
	run_rounds scale_null \
		"read_iops:read IOPS, $n jobs / 1 job (ideal $n):info:0:iorig-n/iorig"
}

# zram_job NAME: the arguments every zram scenario shares, in COMMON.
zram_job() {
	COMMON=(--name="$1" --rw=randread --bs=4k --direct=1
		--filename="$ZRAM_DEV" --size="$ZRAM_BYTES"
		--time_based --runtime="$RUNTIME" --output-format=json)
}

scenario_sync() {
	zram_acquire || return "$SKIP"
	zram_job sync
	add_side iorig iorig "${COMMON[@]}" --ioengine=sync
	add_side fio fio "${COMMON[@]}" --ioengine=psync
	run_rounds sync \
		"read_iops:read IOPS:ge:1.0" \
		"ext_usr_ns_per_io:user CPU/IO (external):le:0.5" \
		"ext_sys_ns_per_io:sys CPU/IO (external):info:0" \
		"self_usr_ns_per_io:user CPU/IO (self-reported):info:0" \
		"self_sys_ns_per_io:sys CPU/IO (self-reported):info:0" \
		"read_clat_mean_ns:read clat mean:info:0" \
		"cpu_busy_pct:CPU busy (usr+sys)/wall:info:0"
}

# zram_qd32 SCENARIO IORIG_ENGINE FIO_ENGINE IOPS_OP IOPS_TARGET USR_OP
# USR_TARGET: QD32 4 KiB random reads from zram, default options on both
# sides, plus iorig's batching variants for information.
zram_qd32() {
	local scn=$1 ie=$2 fe=$3 rows
	zram_acquire || return "$SKIP"
	zram_job "$scn"
	add_side iorig iorig "${COMMON[@]}" --ioengine="$ie" --iodepth=32
	add_side fio fio "${COMMON[@]}" --ioengine="$fe" --iodepth=32
	add_side iorig-s1 iorig "${COMMON[@]}" --ioengine="$ie" --iodepth=32 \
		"${S1[@]}"
	add_side iorig-s1c1 iorig "${COMMON[@]}" --ioengine="$ie" \
		--iodepth=32 "${S1C1[@]}"
	mapfile -t rows < <(batch_rows iorig 1)
	[ "$ie" = io_uring ] &&
		rows+=("iowq_workers:io-wq worker threads seen:info:0")
	run_rounds "$scn" \
		"read_iops:read IOPS:$4:$5" \
		"ext_usr_ns_per_io:user CPU/IO (external):$6:$7" \
		"ext_sys_ns_per_io:sys CPU/IO (external):info:0" \
		"read_clat_mean_ns:read clat mean:info:0" \
		"cpu_busy_pct:CPU busy (usr+sys)/wall:info:0" \
		"${rows[@]}"
}

scenario_io_uring() { zram_qd32 io_uring io_uring io_uring ge 1.25 le 0.5; }
scenario_libaio() { zram_qd32 libaio libaio libaio ge 1.4 le 0.5; }
# fio has no thread-pool engine; posixaio (glibc's thread-pool POSIX AIO)
# is the nearest. Information only.
scenario_pthread() { zram_qd32 pthread pthread posixaio info 0 info 0; }

# The best each tool can do on zram at QD32. iorig: io_uring with
# registered buffers and files. fio: the best of the candidates measured
# once on this machine (bench/README.md, "io_uring_tuned"): registered
# buffers and files, submitting in batches of 8 and waiting for 8
# completions at a time.
FIO_TUNED=(--fixedbufs --registerfiles --iodepth_batch_submit=8
	--iodepth_batch_complete_min=8 --iodepth_batch_complete_max=8)
scenario_io_uring_tuned() {
	local tuned=(--ioengine=io_uring --iodepth=32 --fixedbufs=1
		--registerfiles=1)
	zram_acquire || return "$SKIP"
	zram_job io_uring_tuned
	add_side iorig iorig "${COMMON[@]}" "${tuned[@]}"
	add_side fio fio "${COMMON[@]}" --ioengine=io_uring --iodepth=32 \
		"${FIO_TUNED[@]}"
	add_side iorig-s1 iorig "${COMMON[@]}" "${tuned[@]}" "${S1[@]}"
	run_rounds io_uring_tuned \
		"read_iops:read IOPS:ge:0.95" \
		"ext_usr_ns_per_io:user CPU/IO (external):info:0" \
		"ext_sys_ns_per_io:sys CPU/IO (external):info:0" \
		"cpu_busy_pct:CPU busy (usr+sys)/wall:info:0" \
		"read_iops:read IOPS:info:0:iorig-s1/fio" \
		"read_iops:read IOPS:info:0:iorig-s1/iorig"
}

# disk_job NAME: the arguments every disk scenario shares, in COMMON; fio
# also gets --readonly (iorig opens read-only for reads).
disk_job() {
	COMMON=(--name="$1" --rw=randread --bs=4k --direct=1
		--filename="$DISK_TARGET" --size="$DISK_BYTES"
		--time_based --runtime="$RUNTIME" --output-format=json)
}

# disk_qd32 SCENARIO ENGINE: QD32 4 KiB random O_DIRECT reads from the
# machine's disk, the same engine on both sides, default options, plus
# iorig's batching variants for information.
disk_qd32() {
	local scn=$1 e=$2 rows
	disk_acquire || return "$SKIP"
	disk_job "$scn"
	add_side iorig iorig "${COMMON[@]}" --ioengine="$e" --iodepth=32
	add_side fio fio "${COMMON[@]}" --readonly --ioengine="$e" \
		--iodepth=32
	add_side iorig-s1 iorig "${COMMON[@]}" --ioengine="$e" --iodepth=32 \
		"${S1[@]}"
	add_side iorig-s1c1 iorig "${COMMON[@]}" --ioengine="$e" \
		--iodepth=32 "${S1C1[@]}"
	mapfile -t rows < <(batch_rows iorig 0)
	run_rounds "$scn" \
		"read_iops:read IOPS:within:0.03" \
		"read_clat_p50_ns:read clat p50:within:0.05" \
		"read_clat_mean_ns:read clat mean:info:0" \
		"ext_cpu_ns_per_io:CPU/IO usr+sys (external):info:0" \
		"cpu_busy_pct:CPU busy (usr+sys)/wall:info:0" \
		"${rows[@]}"
}

scenario_disk_libaio() { disk_qd32 disk_libaio libaio; }
scenario_disk_io_uring() { disk_qd32 disk_io_uring io_uring; }

scenario_disk_sync() {
	disk_acquire || return "$SKIP"
	disk_job disk_sync
	add_side iorig iorig "${COMMON[@]}" --ioengine=sync
	add_side fio fio "${COMMON[@]}" --readonly --ioengine=psync
	run_rounds disk_sync \
		"read_iops:read IOPS:within:0.03" \
		"read_clat_p50_ns:read clat p50:within:0.05" \
		"read_clat_mean_ns:read clat mean:info:0" \
		"ext_usr_ns_per_io:user CPU/IO (external):info:0" \
		"cpu_busy_pct:CPU busy (usr+sys)/wall:info:0"
}

# iorig against iorig: the thread pool against kernel AIO at QD32 on the
# disk, both with default options; the same with submit batches of one
# for information.
scenario_disk_pthread() {
	disk_acquire || return "$SKIP"
	disk_job disk_pthread
	add_side pthread iorig "${COMMON[@]}" --ioengine=pthread --iodepth=32
	add_side libaio iorig "${COMMON[@]}" --ioengine=libaio --iodepth=32
	add_side pthread-s1 iorig "${COMMON[@]}" --ioengine=pthread \
		--iodepth=32 "${S1[@]}"
	add_side libaio-s1 iorig "${COMMON[@]}" --ioengine=libaio \
		--iodepth=32 "${S1[@]}"
	run_rounds disk_pthread \
		"read_iops:read IOPS:ge:0.90:pthread/libaio" \
		"read_clat_p50_ns:read clat p50:info:0:pthread/libaio" \
		"ext_cpu_ns_per_io:CPU/IO usr+sys (external):info:0:pthread/libaio" \
		"read_iops:read IOPS:info:0:pthread-s1/libaio-s1" \
		"read_iops:read IOPS:info:0:pthread-s1/pthread" \
		"read_iops:read IOPS:info:0:libaio-s1/libaio"
}

# The realistic job files of jobs/real, each run as written apart from a
# short copy (jobs/real/shorten.sh): runtime BENCH_RUNTIME, no ramp, size
# BENCH_REAL_SIZE (percentages stay), raw devices pointed at a loop device
# over a file in $OUT, directories and other file names at $OUT/scratch.
# One row per file: total IOPS (read + write of every job) iorig/fio.
REAL_LOOP=
real_loop_acquire() {
	[ -n "$REAL_LOOP" ] && return 0
	if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null 2>&1; then
		skip "real_jobs needs root and losetup for its loop device"
		return 1
	fi
	truncate -s 256m "$OUT/real-disk.img" || return 1
	REAL_LOOP=$(losetup -f --show "$OUT/real-disk.img") || {
		skip "losetup cannot attach a loop device"
		return 1
	}
	# Written once, so reads of either tool find data, not holes.
	dd if=/dev/urandom of="$REAL_LOOP" bs=1M count=256 oflag=direct \
		status=none
	mkdir -p "$OUT/scratch" "$OUT/real"
}
real_loop_release() {
	[ -n "$REAL_LOOP" ] && losetup -d "$REAL_LOOP"
	REAL_LOOP=
	rm -f "$OUT/real-disk.img"
	rm -rf "$OUT/scratch"
}

scenario_real_jobs() {
	local src="$ROOT/jobs/real" f b want=",${BENCH_REAL_JOBS:-},"
	local size=${BENCH_REAL_SIZE:-64m} failed=0
	real_loop_acquire || return "$SKIP"
	for f in "$src"/*.inc; do
		[ -e "$f" ] || continue
		sh "$src/shorten.sh" "$f" "$OUT/real/${f##*/}" "$REAL_LOOP" \
			"$OUT/scratch" "${RUNTIME}s" "$size" 16m || return 1
	done
	for f in "$src"/*.fio; do
		b=$(basename "$f" .fio)
		[ "$want" = ",," ] || [[ $want == *",$b,"* ]] || continue
		sh "$src/shorten.sh" "$f" "$OUT/real/$b.fio" "$REAL_LOOP" \
			"$OUT/scratch" "${RUNTIME}s" "$size" 16m || return 1
		say ""
		say "-- real_jobs: $b.fio"
		reset_sides
		add_side iorig iorig --output-format=json "$OUT/real/$b.fio"
		add_side fio fio --output-format=json "$OUT/real/$b.fio"
		# Each tool lays out its own files: clear them between files.
		run_rounds "real.$b" "iops:total IOPS:within:0.10" || failed=1
		rm -rf "$OUT/scratch"/*
	done
	return $failed
}

# ---------------------------------------------------------------------------
# Running and measuring.

say() { printf '%s\n' "$*"; }

# skip REASON: say why a scenario cannot run here; it then returns $SKIP.
skip() {
	SKIP_REASON="$*"
	say "   skipped: $*"
}
note() { printf 'bench: %s\n' "$*" >&2; }

# Sides of the current scenario: SIDES[i] names side i (used in file names
# and metrics), SIDE_TOOL[i] is iorig or fio, and the array SIDE_ARGS_<i>
# holds its arguments.
SIDES=()
SIDE_TOOL=()

# add_side NAME TOOL ARG...: one more side in the current scenario.
add_side() {
	local name=$1 tool=$2 i=${#SIDES[@]}
	shift 2
	case $tool in
	iorig | fio | tio) ;;
	*)
		note "add_side $name: tool must be iorig, fio or tio, not '$tool'"
		return 1
		;;
	esac
	SIDES+=("$name")
	SIDE_TOOL+=("$tool")
	declare -ga "SIDE_ARGS_$i"
	local -n _side_args="SIDE_ARGS_$i"
	_side_args=("$@")
}

reset_sides() {
	local i
	for ((i = 0; i < ${#SIDES[@]}; i++)); do
		unset "SIDE_ARGS_$i"
	done
	SIDES=()
	SIDE_TOOL=()
}

side_bin() {
	case ${SIDE_TOOL[$1]} in
	iorig) printf '%s' "$IORIG" ;;
	tio) printf '%s' "$TIO" ;;
	*) printf '%s' "$FIO" ;;
	esac
}

# side_cmdline I: side I's command line, for the log and the .cmd file.
side_cmdline() {
	local -n _cl_args="SIDE_ARGS_$1"
	printf '%s' "${PIN[*]} $(side_bin "$1") ${_cl_args[*]}"
}

# run_one SCENARIO ROUND I: one measured run of side I; figures in
# r<ROUND>.<side>.vals
run_one() {
	local scn=$1 round=$2 i=$3 bin base
	local -n _args="SIDE_ARGS_$i"
	base="$OUT/$scn/r$round.${SIDES[i]}"
	bin=$(side_bin "$i")
	side_cmdline "$i" >"$base.cmd"
	echo >>"$base.cmd"
	python3 "$HELPER" measure "$base.time" -- "${PIN[@]}" "$bin" \
		"${_args[@]}" >"$base.json" 2>"$base.err"
	python3 "$HELPER" extract "${SIDE_TOOL[i]}" "$base.json" \
		"$base.time" >"$base.vals"
	note "[$scn] round $round/$ROUNDS ${SIDES[i]}:" \
		"$(python3 "$HELPER" show "$base.vals")"
}

# run_rounds SCENARIO METRIC...: run every side once per round, then
# summarise. Odd rounds run the sides in the order they were added, even
# rounds in reverse, so slow drift in the machine's load does not favour
# one side.
run_rounds() {
	local scn=$1 r i n=${#SIDES[@]}
	shift
	if [ "$n" -lt 2 ]; then
		note "[$scn] needs at least two sides (add_side)"
		return 1
	fi
	mkdir -p "$OUT/$scn" || return 1
	for ((i = 0; i < n; i++)); do
		printf '   %-11s %s\n' "${SIDES[i]}:" "$(side_cmdline "$i")"
	done
	for ((r = 1; r <= ROUNDS; r++)); do
		if ((r % 2)); then
			for ((i = 0; i < n; i++)); do
				run_one "$scn" "$r" "$i"
			done
		else
			for ((i = n - 1; i >= 0; i--)); do
				run_one "$scn" "$r" "$i"
			done
		fi
	done
	python3 "$HELPER" summary "$scn" "$OUT/$scn" "$ROUNDS" "$@"
}

# ---------------------------------------------------------------------------
# zram: a RAM block device, so the sync scenario measures the I/O path and
# not a disk. We configure /dev/zram0 only when it is unused (disksize 0),
# fill it with random data (reads of never-written zram pages take a
# shortcut in the kernel, and random pages do not compress away) and reset
# it at exit. A device someone else configured is left alone.

ZRAM_OWNED=0
ZRAM_DEV=
ZRAM_BYTES=

zram_acquire() {
	local sys=/sys/block/zram0 size t0 t1

	[ -n "$ZRAM_DEV" ] && return 0
	if [ ! -e "$sys" ] && [ "$(id -u)" = 0 ]; then
		modprobe zram >/dev/null 2>&1
		sleep 0.5
	fi
	if [ ! -e "$sys" ] || [ ! -b /dev/zram0 ]; then
		skip "/dev/zram0 not available (no zram module?)"
		return 1
	fi
	size=$(cat "$sys/disksize" 2>/dev/null) || size=
	if [ "$size" != 0 ]; then
		if [ "${BENCH_ZRAM_REUSE:-0}" = 1 ] && [ -n "$size" ]; then
			ZRAM_DEV=/dev/zram0
			ZRAM_BYTES=$size
			say "   using the existing /dev/zram0 ($size bytes)" \
				"read-only, contents as found (BENCH_ZRAM_REUSE=1)"
			return 0
		fi
		skip "/dev/zram0 is in use (disksize=$size)"
		say "   not touching it. Set BENCH_ZRAM_REUSE=1 to read it as" \
			"is, or, if it is a leftover of an interrupted bench" \
			"run: echo 1 > $sys/reset"
		return 1
	fi
	if [ "$(id -u)" != 0 ]; then
		skip "setting up /dev/zram0 needs root"
		return 1
	fi
	if ! echo "$ZRAM_SIZE" 2>/dev/null >"$sys/disksize"; then
		skip "cannot set zram0 disksize to $ZRAM_SIZE"
		return 1
	fi
	ZRAM_OWNED=1
	ZRAM_BYTES=$(cat "$sys/disksize")
	t0=$(date +%s.%N)
	if ! dd if=/dev/urandom of=/dev/zram0 bs=1M \
		count=$((ZRAM_BYTES / 1048576)) oflag=direct conv=fsync \
		status=none; then
		skip "filling /dev/zram0 failed"
		return 1
	fi
	t1=$(date +%s.%N)
	ZRAM_DEV=/dev/zram0
	say "   set up /dev/zram0: $ZRAM_BYTES bytes of random data" \
		"(filled in $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s," \
		"reset at exit)"
	return 0
}

zram_release() {
	[ "$ZRAM_OWNED" = 1 ] || return 0
	for _ in 1 2 3 4 5; do
		if echo 1 2>/dev/null >/sys/block/zram0/reset; then
			ZRAM_OWNED=0
			return 0
		fi
		sleep 1
	done
	note "could not reset /dev/zram0; do it by hand:" \
		"echo 1 > /sys/block/zram0/reset"
	return 1
}

# ---------------------------------------------------------------------------
# The machine's disk, for the device-bound scenarios: 4 KiB random O_DIRECT
# reads, never writes. BENCH_DISK names a block device or an existing file
# (read only, never written); by default the block device holding /. When
# that cannot be opened (a sandbox may forbid opening the raw device even
# to root) we fall back to the largest readable regular file of at least
# 256 MiB on the same file system: O_DIRECT reads of it still go to the
# same device, through the file system's block mapping, for both tools.

DISK_TARGET=
DISK_BYTES=
DISK_FAILED=

# direct_readable PATH: PATH can be opened and read with O_DIRECT.
direct_readable() {
	dd if="$1" of=/dev/null bs=4096 count=1 iflag=direct status=none \
		2>/dev/null
}

# root_disk: the block device holding / on stdout.
root_disk() {
	local src mm name
	src=$(findmnt -n -o SOURCE / 2>/dev/null)
	if [ -b "$src" ]; then
		printf '%s' "$src"
		return 0
	fi
	# /dev/root and the like: go by the device number.
	mm=$(findmnt -n -o MAJ:MIN / 2>/dev/null) || return 1
	name=$(sed -n 's/^DEVNAME=//p' "/sys/dev/block/${mm// /}/uevent" \
		2>/dev/null)
	[ -n "$name" ] && [ -b "/dev/$name" ] || return 1
	printf '/dev/%s' "$name"
}

# disk_describe DEV: size, model and driver of a block device, for the log.
disk_describe() {
	local name=${1##*/} sys drv
	sys=/sys/class/block/$name
	drv=$(readlink "$sys/device/driver" 2>/dev/null)
	[ -n "$drv" ] || drv=$(readlink "$sys/../device/driver" 2>/dev/null)
	printf '%s, %s, driver %s, scheduler %s' "$1" \
		"$(lsblk -dno SIZE "$1" 2>/dev/null | tr -d ' ')" \
		"${drv##*/}" \
		"$(cat "$sys/queue/scheduler" "$sys/../queue/scheduler" \
			2>/dev/null | sed -n '1s/.*\[\(.*\)\].*/\1/p')"
}

disk_acquire() {
	local dev mnt f bytes

	[ -n "$DISK_TARGET" ] && return 0
	if [ -n "$DISK_FAILED" ]; then
		skip "$DISK_FAILED"
		return 1
	fi
	if [ -n "${BENCH_DISK:-}" ]; then
		f=$BENCH_DISK
		if [ -b "$f" ]; then
			bytes=$(blockdev --getsize64 "$f" 2>/dev/null)
		elif [ -f "$f" ]; then
			bytes=$(stat -c %s "$f")
		else
			DISK_FAILED="BENCH_DISK=$f is neither a block device nor a file"
		fi
		if [ -z "$DISK_FAILED" ] && ! direct_readable "$f"; then
			DISK_FAILED="cannot read BENCH_DISK=$f with O_DIRECT"
		fi
	elif ! dev=$(root_disk); then
		DISK_FAILED="no block device holds / (findmnt)"
	elif direct_readable "$dev"; then
		f=$dev
		bytes=$(blockdev --getsize64 "$dev" 2>/dev/null)
		say "   disk: $(disk_describe "$dev"), read only"
	else
		mnt=$(findmnt -n -o TARGET "$dev" 2>/dev/null | head -n 1)
		say "   disk: $(disk_describe "$dev") holds / but cannot be" \
			"opened here ($(dd if="$dev" of=/dev/null bs=4096 \
			count=1 iflag=direct 2>&1 | sed -n '1s/.*: //p'))"
		f=$(find "${mnt:-/}" -xdev -type f -size +256M -readable \
			! -path '*:*' -printf '%s\t%p\n' 2>/dev/null |
			sort -n | tail -n 1 | cut -f 2-)
		if [ -z "$f" ]; then
			DISK_FAILED="$dev cannot be opened and no file of 256 MiB or more on ${mnt:-/} to read instead"
		elif ! direct_readable "$f"; then
			DISK_FAILED="$dev cannot be opened and $f cannot be read with O_DIRECT"
		else
			bytes=$(stat -c %s "$f")
			say "   reading instead the largest file on ${mnt:-/}" \
				"(read only, never written): $f"
		fi
	fi
	if [ -z "$DISK_FAILED" ] && [ -n "$bytes" ]; then
		# Whole 4 KiB blocks, so every random read is a full one.
		DISK_BYTES=$((bytes / 4096 * 4096))
		[ "$DISK_BYTES" -gt 0 ] ||
			DISK_FAILED="$f is smaller than 4 KiB"
	elif [ -z "$DISK_FAILED" ]; then
		DISK_FAILED="cannot tell the size of $f"
	fi
	if [ -n "$DISK_FAILED" ]; then
		skip "$DISK_FAILED"
		return 1
	fi
	DISK_TARGET=$f
	say "   disk target: $DISK_TARGET, $DISK_BYTES bytes"
	return 0
}

cleanup() {
	zram_release
	real_loop_release
}

# ---------------------------------------------------------------------------
# Setup.

need_positive() {
	case $2 in
	'' | *[!0-9]* | 0)
		note "$1 must be a positive integer, not '$2'"
		exit 2
		;;
	esac
}

ensure_fio() {
	if [ -n "${BENCH_FIO:-}" ] || command -v fio >/dev/null 2>&1; then
		return 0
	fi
	if [ "$(id -u)" != 0 ]; then
		note "fio is not installed and we are not root; install it" \
			"with: apt-get install -y fio"
		exit 77
	fi
	note "installing fio"
	if ! { apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fio; } >&2
	then
		note "could not install fio"
		exit 77
	fi
}

# binary_id PATH: sha256 prefix and mtime, to tell whether the binary was
# rebuilt while the bench ran (a shared working tree).
binary_id() {
	printf 'sha256 %s, built %s' \
		"$(sha256sum "$1" 2>/dev/null | cut -c1-12)" \
		"$(date -r "$1" '+%F %T' 2>/dev/null)"
}

print_machine() {
	local cpu fiov iorigv
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	fiov=$("$FIO" --version 2>/dev/null | head -n 1)
	iorigv=$("$IORIG" --version 2>/dev/null | head -n 1)
	[ -n "$iorigv" ] || iorigv="(no --version) VERSION $(cat "$ROOT/VERSION" 2>/dev/null)"
	say "iorig vs fio benchmark"
	say "  machine: $(nproc) CPUs, ${cpu:-unknown CPU}, kernel $(uname -r)," \
		"$(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
	say "  load:    $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min)" \
		"— a shared, noisy machine: read the medians"
	say "  fio:     ${fiov:-unknown} ($FIO)"
	[ "${fiov:-}" = fio-3.33 ] || say "           (expected fio-3.33; numbers may differ)"
	IORIG_ID=$(binary_id "$IORIG")
	say "  iorig:   $iorigv ($IORIG, $IORIG_ID)"
	say "  rounds:  $ROUNDS x ${RUNTIME}s per tool per scenario, alternating," \
		"pinned with: ${PIN[*]:-(no pinning)}"
	say "  logs:    $OUT"
}

selected() {
	local s
	[ -z "$ONLY" ] && return 0
	for s in ${ONLY//,/ }; do
		[ "$s" = "$1" ] && return 0
	done
	return 1
}

main() {
	ROUNDS=${BENCH_ROUNDS:-5}
	RUNTIME=${BENCH_RUNTIME:-5}
	ONLY=${BENCH_ONLY:-}
	ZRAM_SIZE=${BENCH_ZRAM_SIZE:-1G}
	IORIG=${BENCH_IORIG:-$ROOT/iorig}
	FIO=${BENCH_FIO:-fio}
	TIO=${BENCH_T_IO_URING:-}
	need_positive BENCH_ROUNDS "$ROUNDS"
	need_positive BENCH_RUNTIME "$RUNTIME"

	local s known
	for s in ${ONLY//,/ }; do
		known=0
		for k in "${SCENARIOS[@]}"; do
			[ "$s" = "$k" ] && known=1
		done
		if [ $known = 0 ]; then
			note "unknown scenario '$s' in BENCH_ONLY;" \
				"known: ${SCENARIOS[*]}"
			exit 2
		fi
	done

	command -v python3 >/dev/null 2>&1 || {
		note "needs python3 to read the tools' JSON"
		exit 77
	}
	ensure_fio
	if [ ! -x "$IORIG" ]; then
		note "no iorig binary at $IORIG; build it first (make bench does)"
		exit 1
	fi

	CPU=${BENCH_CPU:-1}
	[ "$CPU" = none ] || [ "$(nproc)" -gt "$CPU" ] || CPU=0
	if [ "$CPU" = none ]; then
		PIN=()
	elif command -v taskset >/dev/null 2>&1; then
		PIN=(taskset -c "$CPU")
	else
		PIN=()
		note "taskset not found: runs are not pinned"
	fi

	if [ -n "${BENCH_OUT:-}" ]; then
		OUT=$BENCH_OUT
		mkdir -p "$OUT" || exit 1
		rm -f "$OUT/summary.tsv"
	else
		OUT=$(mktemp -d /tmp/iorig-bench.XXXXXX) || exit 1
	fi

	trap cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM

	print_machine

	local failed=0 rc
	for s in "${SCENARIOS[@]}"; do
		selected "$s" || continue
		say ""
		say "== $s"
		SKIP_REASON="not run here"
		reset_sides
		"scenario_$s"
		rc=$?
		if [ $rc = $SKIP ]; then
			printf '%s\t%s\t\t\t\t\t\t\tSKIP\n' "$s" "$SKIP_REASON" \
				>>"$OUT/summary.tsv"
		elif [ $rc != 0 ]; then
			failed=1
		fi
	done

	say ""
	say "== summary (medians of $ROUNDS rounds; ratio = A/B of the same" \
		"round; med ratio = median of those)"
	python3 "$HELPER" table "$OUT/summary.tsv"
	say ""
	say "External CPU = the whole process' user/system time from wait4()," \
		"divided by the I/Os the tool reported; it includes start-up, layout" \
		"and reporting, which ${RUNTIME}s runs keep small."
	[ "$RUNTIME" -ge 5 ] ||
		say "(runtime < 5 s: fixed start-up costs weigh more than usual)"
	say "Self-reported CPU is each tool's own figure (fio: usr_cpu/sys_cpu" \
		"x job runtime; iorig: cpu.user_ns/sys_ns)."
	say "CPU busy = (user+sys)/wall of the whole process; well under 100%" \
		"for a CPU-bound pinned run (null, zram) means another process had" \
		"the CPU; disk runs wait for the device and are not CPU-bound."
	say "A/B names the two sides compared: iorig and fio run the same job" \
		"with default options; iorig-s1 adds --iodepth_batch_submit=1," \
		"iorig-s1c1 also --iodepth_batch_complete_max=1 (fio's defaults);" \
		"disk_pthread compares iorig engines with each other."
	say "Shared, noisy machine: trust medians and the ratio spread, not a" \
		"single run. Logs and JSON: $OUT"
	if [ "$(binary_id "$IORIG")" != "$IORIG_ID" ]; then
		say "WARNING: $IORIG changed during the run (now" \
			"$(binary_id "$IORIG"); was $IORIG_ID): later scenarios" \
			"measured another build. Copy the binary and point" \
			"BENCH_IORIG at the copy."
	fi
	[ $failed = 0 ] || note "some runs produced no figures; see $OUT/*/*.err"
	exit $failed
}

main "$@"
