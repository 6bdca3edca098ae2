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
#   BENCH_CPU=N           CPU both tools are pinned to (default 1, or 0)
#   BENCH_OUT=DIR         where run logs go (default: a new /tmp dir)
#   BENCH_IORIG=PATH      iorig binary (default: ./iorig at the repo root)
#   BENCH_FIO=PATH        fio binary (default: fio)
#   BENCH_ZRAM_SIZE=SIZE  zram disk size when we set it up (default 1G)
#   BENCH_ZRAM_REUSE=1    read an already configured /dev/zram0 as it is
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
# Scenarios. Each name N has a function scenario_N that sets IORIG_ARGS and
# FIO_ARGS and calls run_rounds; it returns 0 when it ran, $SKIP (after calling
# skip REASON) when it cannot run here, anything else on error. Add new ones
# (libaio, io_uring, pthread, ...) here and below.
SCENARIOS=(null sync)
SKIP=3

scenario_null() {
	local common=(--name=null --ioengine=null --rw=read --bs=4k --size=1t
		--time_based --runtime="$RUNTIME" --output-format=json)

	IORIG_ARGS=("${common[@]}")
	FIO_ARGS=("${common[@]}")
	run_rounds null \
		"read_iops:read IOPS:ge:3.0" \
		"ext_cpu_ns_per_io:CPU/IO usr+sys (external):info:0" \
		"cpu_busy_pct:CPU busy (usr+sys)/wall:info:0"
}

scenario_sync() {
	zram_acquire || return "$SKIP"
	local common=(--name=sync --rw=randread --bs=4k --direct=1
		--filename="$ZRAM_DEV" --size="$ZRAM_BYTES"
		--time_based --runtime="$RUNTIME" --output-format=json)

	IORIG_ARGS=("${common[@]}" --ioengine=sync)
	FIO_ARGS=("${common[@]}" --ioengine=psync)
	run_rounds sync \
		"read_iops:read IOPS:ge:1.0" \
		"ext_usr_ns_per_io:user CPU/IO (external):le:0.5" \
		"ext_sys_ns_per_io:sys CPU/IO (external):info:0" \
		"self_usr_ns_per_io:user CPU/IO (self-reported):info:0" \
		"self_sys_ns_per_io:sys CPU/IO (self-reported):info:0" \
		"read_clat_mean_ns:read clat mean:info:0" \
		"cpu_busy_pct:CPU busy (usr+sys)/wall:info:0"
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

# run_one SCENARIO ROUND TOOL: one measured run; figures in r<ROUND>.<TOOL>.vals
run_one() {
	local scn=$1 round=$2 tool=$3 bin args base
	base="$OUT/$scn/r$round.$tool"
	if [ "$tool" = iorig ]; then
		bin=$IORIG
		args=("${IORIG_ARGS[@]}")
	else
		bin=$FIO
		args=("${FIO_ARGS[@]}")
	fi
	printf '%s\n' "${PIN[*]} $bin ${args[*]}" >"$base.cmd"
	python3 "$HELPER" measure "$base.time" -- "${PIN[@]}" "$bin" \
		"${args[@]}" >"$base.json" 2>"$base.err"
	python3 "$HELPER" extract "$tool" "$base.json" "$base.time" \
		>"$base.vals"
	note "[$scn] round $round/$ROUNDS $tool:" \
		"$(python3 "$HELPER" show "$base.vals")"
}

# run_rounds SCENARIO METRIC...: alternate the tools, then summarise. Odd
# rounds run iorig first, even rounds fio first, so slow drift in the
# machine's load does not favour one tool.
run_rounds() {
	local scn=$1 r
	shift
	mkdir -p "$OUT/$scn" || return 1
	say "   iorig: ${PIN[*]} $IORIG ${IORIG_ARGS[*]}"
	say "   fio:   ${PIN[*]} $FIO ${FIO_ARGS[*]}"
	for ((r = 1; r <= ROUNDS; r++)); do
		if ((r % 2)); then
			run_one "$scn" "$r" iorig
			run_one "$scn" "$r" fio
		else
			run_one "$scn" "$r" fio
			run_one "$scn" "$r" iorig
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

cleanup() {
	zram_release
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
	say "  iorig:   $iorigv ($IORIG)"
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
	[ "$(nproc)" -gt "$CPU" ] || CPU=0
	if command -v taskset >/dev/null 2>&1; then
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
		"scenario_$s"
		rc=$?
		if [ $rc = $SKIP ]; then
			printf '%s\t%s\t\t\t\t\t\tSKIP\n' "$s" "$SKIP_REASON" \
				>>"$OUT/summary.tsv"
		elif [ $rc != 0 ]; then
			failed=1
		fi
	done

	say ""
	say "== summary (medians of $ROUNDS rounds; ratio = iorig/fio of the same" \
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
		"for these CPU-bound pinned runs means another process had the CPU."
	say "Shared, noisy machine: trust medians and the ratio spread, not a" \
		"single run. Logs and JSON: $OUT"
	[ $failed = 0 ] || note "some runs produced no figures; see $OUT/*/*.err"
	exit $failed
}

main "$@"
