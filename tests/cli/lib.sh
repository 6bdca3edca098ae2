# Sourced by the CLI tests. Gives: $IORIG, a scratch directory $T (removed
# at exit, also the working directory), and assertions that print what was
# expected and what came, then exit 1.
# The script's directory by the shell alone: dirname is a program to
# start, which costs a tenth of a second in the test guest.
case $0 in */*) _here=${0%/*} ;; *) _here=. ;; esac
top=$(cd "$_here/../.." && pwd)
IORIG=${IORIG:-$top/iorig}
[ -x "$IORIG" ] || { echo "no $IORIG: run make first"; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/iorig-cli.XXXXXX")
trap 'cd /; rm -rf "$T"' EXIT
cd "$T" || exit 1

# run ARGS...: runs iorig, keeping stdout in $T/out, stderr in $T/err and
# the exit code in $rc.
run() {
	"$IORIG" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

# strace_works: strace is there and may trace here (a container can
# forbid ptrace).
strace_works() {
	command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null
}

die() {
	echo "FAILED: $*"
	echo "--- stdout"; head -c 3000 "$T/out" 2>/dev/null
	echo "--- stderr"; head -c 3000 "$T/err" 2>/dev/null
	exit 1
}

expect_rc() {
	[ "$rc" -eq "$1" ] || die "expected exit code $1, got $rc"
}

# expect_out FILE REGEX: FILE (out or err) has a line matching REGEX.
expect_in() {
	grep -Eq -- "$2" "$T/$1" || die "expected /$2/ in std$1"
}

expect_not_in() {
	! grep -Eq -- "$2" "$T/$1" || die "did not expect /$2/ in std$1"
}

expect_empty() {
	[ ! -s "$T/$1" ] || die "expected empty std$1"
}

# expect_refused REGEX ARGS...: iorig ARGS exits 2 with REGEX in stderr.
expect_refused() {
	_why=$1
	shift
	run "$@"
	expect_rc 2
	expect_in err "$_why"
}

# The system Python when there is one: a version manager's shim (pyenv)
# costs a tenth of a second per call.
if [ -z "${PY:-}" ]; then
	if [ -x /usr/bin/python3 ]; then PY=/usr/bin/python3; else PY=python3; fi
fi
command -v "$PY" >/dev/null || { echo "python3 is needed by the CLI tests"; exit 1; }

# py_served ARGS...: python3 ARGS, run in one Python started for the
# test (tests/cli/pyserve.py, by _py_start), not in a python3 of its own:
# a start costs about 40 ms of CPU here and most of a second in the test
# guest, whose cases make every python call through it ($PY there). The
# call's arguments, its standard streams (what it wrote is copied to
# this shell's stdout and stderr when it ends, stderr first), its working
# directory and its exit status are python3's; what the server does not
# take (pyserve.py) runs in python3 as before. Not passed: the
# environment.
_py_bin=$PY
py_served() {
	# one call at a time: the lock is a file made only when absent; the
	# caller, once it has read its answer, says so on req ("ack"), and
	# the server removes it (a builtin echo, where rm(1) was a program
	# to start: most of a tenth of a second in the test guest)
	while ! (set -C; : >"$_py_dir/lock") 2>/dev/null; do
		# the test removed its scratch directory: python3 itself
		[ -p "$_py_dir/req" ] || { "$_py_bin" "$@"; return; }
		sleep 0.1
	done
	_py_n=0
	for _py_a in "$@"; do
		printf '%s' "$_py_a" >"$_py_dir/a.$_py_n"
		_py_n=$((_py_n + 1))
	done
	# this shell's own process (a subshell's, in $(...)), not $$
	read -r _py_pid _py_a </proc/self/stat
	echo "$_py_pid $_py_n" >"$_py_dir/req"
	# The answer, on one descriptor held open for reading and writing
	# across reads: the open never waits, a read never sees the end of
	# the FIFO, and a read that a signal ends with nothing read is read
	# again (what the server wrote stays in the FIFO, which the server
	# holds open). Opened for reading alone, a second reader took the
	# answer and left the caller the FIFO's end, an empty answer (3
	# tests in one suite under the sanitizers). Read in a subshell: read
	# takes its input on descriptor 0, and the server takes the call's
	# stdin from this shell's descriptor 0.
	_py_a=$({
		_py_k=0 _py_l=
		while [ -z "$_py_l" ] && [ "$_py_k" -lt 100 ]; do
			read -r _py_l <&9
			_py_k=$((_py_k + 1))
		done
		echo "$_py_l"
	} 9<>"$_py_dir/resp")
	read -r _py_rc _py_e _py_o <<EOF
$_py_a
EOF
	# (opened for reading and writing: a server that has ended holds req
	# no longer, and a write-only open would wait for a reader forever)
	echo ack 1<>"$_py_dir/req"
	case $_py_rc in
	python3) "$_py_bin" "$@" ;;
	[0-9]*)
		_py_put "$_py_e" "$_py_dir/err.$_py_pid" >&2
		_py_put "$_py_o" "$_py_dir/out.$_py_pid"
		return "$_py_rc" ;;
	*) die "py_served: $top/tests/cli/pyserve.py ended ($_py_rc):" \
		"$(tail -n 5 "$_py_dir/log")" ;;
	esac
}
# _py_put HOW FILE: FILE to stdout, as pyserve.py's how() says.
_py_put() {
	case $1 in
	t)
		while IFS= read -r _py_l; do
			printf '%s\n' "$_py_l"
		done <"$2"
		[ -z "$_py_l" ] || printf '%s' "$_py_l" ;;
	c) cat "$2" ;;
	esac
}
# _py_start: the server ($_py_dir), in a shell that holds req open (so
# that a call's write to it never waits, the server alive or not) and
# answers "ended STATUS" in its place once it has ended (so that a call
# never waits for an answer that cannot come). Started from a subshell
# that ends at once: not a job of the test's shell, whose wait(1) would
# wait for it; no descriptor of the caller's but req (a pipe it held
# would not end). It ends when the test's shell ($$) does, with status
# 0, and then nobody is left to answer (an answer would wait for a
# reader for ever). Its directory is $T.py, beside $T and not in it (a
# test may look at everything in $T); the server removes it as it ends,
# _py_end when it ends the server.
_py_start() {
	_py_dir=$T.py
	{ [ -d "$_py_dir" ] || mkdir "$_py_dir"; } &&
		mkfifo "$_py_dir/req" "$_py_dir/resp" ||
		die "py_served: cannot make $_py_dir"
	(
		{
			"$_py_bin" "$top/tests/cli/pyserve.py" "$_py_dir" $$ ||
				echo "ended $?" >"$_py_dir/resp"
		} 3<>"$_py_dir/req" </dev/null >"$_py_dir/log" 2>&1 \
			4>&- 5>&- 6>&- 7>&- 8>&- 9>&- &
		echo "$!" >"$_py_dir/wpid"
	)
}
# The shell that waits for the server, then the server (which wrote its
# own process id when it started).
_py_end() {
	read -r _py_a <"$_py_dir/wpid" && kill "$_py_a"
	read -r _py_a <"$_py_dir/pid" && kill "$_py_a"
	rm -rf "$_py_dir"
}
# py_serve: the test's own "$PY" calls are served too (py_served), as a
# guest case's are, for a test that makes many of them: a served call
# took 3 ms here where a python3 of its own took 8 (the suite started
# python3 about 1000 times; the 38 tests that serve theirs went from
# 159 to 151 s run one after another). Called in the test's own shell,
# after lib.sh. Not for a test whose calls read the environment (not
# passed), run in the background beside another call (one call at a
# time), count or time their own process (getrusage, getpid: the
# server's) or start programs that write to the standard streams (those
# go to the server's log).
py_serve() {
	_py_up
	PY=py_served
}
# _py_up: $_py_json is py_served, the server started first if the test
# has none (the directory made is the claim); $PY while another shell
# of the test is starting it. Called in the test's own shell where it
# can (expect_json, json_is), so that its $(...) calls find it set.
_py_json=$PY
_py_up() {
	[ "$_py_json" = py_served ] && return 0
	if [ -p "$T.py/resp" ]; then
		_py_dir=$T.py
	elif mkdir "$T.py" 2>/dev/null; then
		_py_start
	else
		return 0
	fi
	_py_json=py_served
}

# json EXPR: evaluates a Python expression on the JSON document in $T/out
# (bound to d) and prints the result. The standard library only (-S: no
# site module, no site-packages to look through): a start a third
# shorter. Served (py_served): the suite's parallel lane made about eight
# python starts a second, half of them these.
json() {
	_py_up
	"$_py_json" -S -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$T/out" "$1"
}

skip() {
	echo "SKIP: $*"
	exit 77
}

# tracing: $TR is tracefs, mounted there first when nothing is (as root:
# a fresh machine or a clean root may not have it mounted).
tracing() {
	TR=/sys/kernel/tracing
	[ -e "$TR/instances" ] || mount -t tracefs tracefs "$TR" 2>/dev/null
	:
}

# ---- added helpers ----

# jsonf FILE EXPR: like json, on FILE.
jsonf() {
	_py_up
	"$_py_json" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

# split_out: $T/out of one run with several formats (--output-format=
# fio-json,json,text writes them one after the other) split into
# $T/out.fio.json (fio's layout), $T/out.json (iorig's) and $T/out.text
# (the text: what is not a JSON document starting a line), each only when
# there; two documents of one layout fail the test. Removes the three
# first, so that none is left from an earlier run.
split_out() {
	rm -f "$T/out.fio.json" "$T/out.json" "$T/out.text"
	"$PY" - "$T/out" <<'PYEOF' || die "stdout is not the formats asked"
import json, sys
p = sys.argv[1]
t = open(p).read()
docs, text, i = {}, "", 0
while i < len(t):
    if t.startswith("{", i) and (i == 0 or t[i - 1] == "\n"):
        d, i = json.JSONDecoder().raw_decode(t, i)
        k = ".fio.json" if "fio version" in d else ".json"
        assert k not in docs, "two documents of one layout"
        docs[k] = d
    else:
        j = t.find("\n{", i)
        j = len(t) if j < 0 else j + 1
        text += t[i:j]
        i = j
for k, d in docs.items():
    json.dump(d, open(p + k, "w"))
if text.strip():
    open(p + ".text", "w").write(text)
PYEOF
}

# json_is EXPR VALUE: the Python expression EXPR on the JSON document in
# $T/out (bound to d) prints VALUE; stdout must be one JSON document.
json_is() {
	_py_up
	_got=$(json "$1" 2>&1) || die "stdout is not one JSON document: $_got"
	[ "$_got" = "$2" ] || die "expected $1 == $2, got $_got"
}

# expect_json EXPR [WHY]: the Python expression EXPR (d = stdout's JSON) holds.
expect_json() {
	_py_up
	_got=$(json "bool($1)" 2>&1) || die "stdout is not one JSON document: $_got"
	[ "$_got" = True ] || die "expected $1${2:+ ($2)}"
}

# The job options of the option table, one a line, read from the source
# (not from iorig, so a listing that drops one is caught).
table_job_options() {
	sed -n '/options_table\[\] = {/,/^};/p' "$top/src/plan/optable.c" |
		sed -n 's/.*\.name = "\([^"]*\)".*/\1/p'
}

# The engines' own options, from their tables in src/engines/ (the rows
# of each "static const struct opt_def NAME[] = {", and cmdprio.h's).
table_engine_options() {
	for f in "$top"/src/engines/*.c; do
		sed -n '/opt_def [a-z0-9_]*\[\] = {/,/^};/p' "$f"
	done | sed -n 's/.*\.name = "\([^"]*\)".*/\1/p'
	sed -n 's/.*\.name = "\([^"]*\)".*/\1/p' \
		"$top/src/engines/cmdprio.h"
}

# The command options (--help, --output...), from src/face/cli.c.
table_cmd_options() {
	sed -n '/cli_options\[\] = {/,/^};/p' "$top/src/face/cli.c" |
		sed -n 's/^[[:space:]]*{ "\([^"]*\)".*/\1/p'
}

# mkrand FILE BYTES: FILE with BYTES of random data.
mkrand() {
	head -c "$2" /dev/urandom >"$1" || die "cannot make $1"
}

# flipbyte FILE OFFSET: invert every bit of the byte at OFFSET, so the byte
# surely changes (writing a fixed byte leaves it alone 1 time in 256).
flipbyte() {
	python3 -c 'import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(int(sys.argv[2])); b = f.read(1)
    f.seek(int(sys.argv[2])); f.write(bytes([b[0] ^ 0xff]))' "$1" "$2" ||
		die "cannot flip byte $2 of $1"
}

# loop_disk FILE MIB: FILE gets MIB MiB of random data whose first and last
# MiB are zero (so no false file-system or RAID signature trips the write
# guards: those live at the ends), attached to a loop device whose name is
# left in $dev and which is detached on any exit. Skips (77) without root,
# losetup or a free loop device.
loop_disk() {
	[ "$(id -u)" -eq 0 ] || skip "needs root for losetup"
	command -v losetup >/dev/null 2>&1 ||
		skip "needs losetup (util-linux)"
	mkrand "$1" $(($2 * 1048576))
	dd if=/dev/zero of="$1" bs=64k count=16 conv=notrunc 2>/dev/null
	dd if=/dev/zero of="$1" bs=64k seek=$(($2 * 16 - 16)) count=16 \
		conv=notrunc 2>/dev/null
	dev=$(losetup -f --show "$1" 2>"$T/err") ||
		skip "losetup cannot attach a loop device here: $(cat "$T/err")"
	[ -b "$dev" ] || skip "losetup gave '$dev', not a block device"
	# Detach on any exit, then remove $T as the trap above does.
	trap 'losetup -d "$dev" 2>/dev/null; cd /; rm -rf "$T"' EXIT
	trap 'exit 1' INT TERM HUP
}

# dev_stat DEV FIELD...: the sum of those fields (1 = reads completed,
# 2 = reads merged, as iostat numbers them) of DEV's /sys/block/*/stat,
# once DEV has no request in flight (up to 2 s). The block layer ends a
# request's bios, which wakes the process that waits for them, before it
# counts the request in stat: a count read just after iorig exits can be
# one short.
dev_stat() {
	_ds=/sys/block/$(basename "$1")
	shift
	_dn=0
	until awk '{ exit !($1 == 0 && $2 == 0) }' "$_ds/inflight" ||
		[ $_dn -ge 200 ]; do
		sleep 0.01
		_dn=$((_dn + 1))
	done
	awk -v f="$*" '{ n = split(f, a, " "); s = 0
		for (i = 1; i <= n; i++) s += $a[i]
		printf "%.0f\n", s }' "$_ds/stat"
}

# sum_range FILE OFFSET LENGTH: checksum of those bytes of FILE.
sum_range() {
	dd if="$1" bs=65536 iflag=skip_bytes,count_bytes skip="$2" \
		count="$3" 2>/dev/null | cksum
}

# fsize FILE: size in bytes.
fsize() {
	stat -c %s "$1"
}

# Milliseconds since the epoch.
now_ms() {
	date +%s%3N
}

# running PID: PID is there and has not ended (a child that ended is a
# zombie until waited for, which kill -0 still finds).
running() {
	_st=
	read -r _st 2>/dev/null </proc/"$1"/stat
	case $_st in ''|*") Z "*|*") X "*) return 1 ;; esac
}

# expect_running PID WHAT: fails the test, naming PID's exit status, if
# PID (a child, iorig) has ended before WHAT.
expect_running() {
	running "$1" && return 0
	wait "$1"
	rc=$?
	die "iorig ended (exit $rc) before $2"
}

# wait_gone PID SECONDS: waits for PID (a child) to exit; kills it and
# fails the test if it is still there after SECONDS. Sets $rc.
wait_gone() {
	_n=$(($2 * 20))
	while kill -0 "$1" 2>/dev/null && [ "$_n" -gt 0 ]; do
		sleep 0.05
		_n=$((_n - 1))
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -9 "$1" 2>/dev/null
		wait "$1"
		die "pid $1 still running after $2 s"
	fi
	wait "$1"
	rc=$?
}

# have_odirect DIR: DIR's file system takes O_DIRECT I/O.
have_odirect() {
	dd if=/dev/zero of="$1/.odirect-probe" bs=4096 count=1 oflag=direct \
		>/dev/null 2>&1
	_r=$?
	rm -f "$1/.odirect-probe"
	return $_r
}

# expect_dir_empty DIR: nothing was created in DIR.
expect_dir_empty() {
	[ -z "$(ls -A "$1")" ] || die "expected nothing created in $1, found: $(ls -A "$1")"
}

# ---- file systems that fail: a small tmpfs, tests/faultfs ----

FAULTFS=${FAULTFS:-$top/tests/faultfs/faultfs}
_mounts=""
_fusepids=""

# Undone at exit, before $T is removed: lazily, so that a file system still
# busy with a stuck request lets go too.
# ext4_loop FILE MIB: ext4 on a loop device over FILE (see loop_disk),
# mounted on $T/mnt; unmounted and detached on any exit. Skips (77) when
# any step cannot be done here.
ext4_loop() {
	command -v mkfs.ext4 >/dev/null 2>&1 || skip "needs mkfs.ext4"
	loop_disk "$1" "$2"
	# Inode tables and journal zeroed now, not by the kernel's
	# ext4lazyinit thread after mounting: tests compare the image's
	# bytes before and after a run, and that thread writes into it
	# whenever it gets to it.
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" \
		2>"$T/err" ||
		skip "mkfs.ext4 failed: $(cat "$T/err")"
	mkdir "$T/mnt"
	mount "$dev" "$T/mnt" 2>"$T/err" ||
		skip "cannot mount ext4: $(cat "$T/err")"
	_mounts="$T/mnt"
	trap '_undo_mounts; losetup -d "$dev" 2>/dev/null; cd /; rm -rf "$T"' EXIT
	sync
}

_undo_mounts() {
	for _m in $_mounts; do
		fusermount3 -u -z "$_m" 2>/dev/null || umount -l "$_m" 2>/dev/null
	done
	for _p in $_fusepids; do
		kill "$_p" 2>/dev/null
		wait "$_p" 2>/dev/null
	done
}

_track_mount() {
	_mounts="$_mounts $1"
	trap '_undo_mounts; cd /; rm -rf "$T"' EXIT
}

# tmpfs_mount DIR SIZE: a tmpfs of SIZE bytes (k/m suffixes) on DIR, made
# here; skips the test unless it can be mounted (root).
tmpfs_mount() {
	[ "$(id -u)" = 0 ] || skip "mounting a tmpfs needs root"
	mkdir -p "$1" || die "cannot make $1"
	mount -t tmpfs -o "size=$2" tmpfs "$1" 2>"$T/mount.err" ||
		skip "cannot mount a tmpfs: $(cat "$T/mount.err")"
	_track_mount "$1"
}

# faultfs_mount DIR ARGS...: tests/faultfs (its fault options in ARGS) on
# DIR, made here, until exit; the file is DIR/data. Skips the test when
# faultfs was not built, there is no FUSE, or mounting fails.
faultfs_mount() {
	_dir=$1
	shift
	[ -x "$FAULTFS" ] || skip "no $FAULTFS (needs libfuse3-dev)"
	[ -c /dev/fuse ] || skip "no /dev/fuse"
	command -v fusermount3 >/dev/null || skip "no fusermount3 (fuse3)"
	mkdir -p "$_dir" || die "cannot make $_dir"
	"$FAULTFS" -f "$_dir" "$@" 2>>"$T/faultfs.err" &
	_pid=$!
	_fusepids="$_fusepids $_pid"
	_track_mount "$_dir"
	_n=100
	while [ ! -f "$_dir/data" ]; do
		kill -0 "$_pid" 2>/dev/null ||
			skip "cannot mount faultfs: $(tail -n 1 "$T/faultfs.err")"
		_n=$((_n - 1))
		[ "$_n" -gt 0 ] || skip "faultfs not mounted after 5 s"
		sleep 0.05
	done
}

# faultfs_delays: how many reads the faultfs mounts of this test have
# begun to delay (--delay) so far.
faultfs_delays() {
	cat "$T/faultfs.err" 2>/dev/null | grep -c '^faultfs: delaying'
}

# wait_delayed COUNT PID MS: waits until the faultfs mounts have begun to
# delay more than COUNT reads (faultfs_delays before the run): a read of
# the run is stuck now. Fails if PID ends first or after MS ms.
wait_delayed() {
	_n=$(($3 / 10))
	while [ "$(faultfs_delays)" -le "$1" ]; do
		kill -0 "$2" 2>/dev/null || { wait "$2"; rc=$?
			die "pid $2 ended (exit $rc) before its read was stuck"; }
		_n=$((_n - 1))
		[ "$_n" -gt 0 ] || die "no read stuck after $3 ms"
		sleep 0.01
	done
}

# wait_threads PID N MS: waits until process PID has N threads or more
# (a run's jobs have started: their workers are threads; its signal
# handlers and report are set up before). Fails if PID ends first or
# after MS ms.
wait_threads() {
	_n=$(($3 / 10))
	while :; do
		set -- "$1" "$2" "$3" /proc/"$1"/task/*
		running "$1" || set -- "$1" "$2" "$3"
		[ -d "${4:-}" ] || { wait "$1"; rc=$?
			die "pid $1 ended (exit $rc) before its jobs started"; }
		[ $(($# - 3)) -ge "$2" ] && return 0
		_n=$((_n - 1))
		[ "$_n" -gt 0 ] || die "pid $1: fewer than $2 threads after $3 ms"
		sleep 0.01
	done
}

# wait_json FILE MS: FILE holds one whole JSON document within MS ms.
wait_json() {
	"$PY" - "$1" "$2" <<'PYEOF' || die "no whole JSON document in $1 within $2 ms"
import json, sys, time
end = time.monotonic() + int(sys.argv[2]) / 1000
while True:
    try:
        json.load(open(sys.argv[1]))
        sys.exit(0)
    except Exception:
        if time.monotonic() > end:
            sys.exit(1)
        time.sleep(0.01)
PYEOF
}

# blocks_from FILE: prints how many 4 KiB blocks of FILE are not a whole
# write's data, or repeat another block. A write's bytes are one random
# block xor a 64-bit key drawn for that write (gen.h, gen_data): so the xor
# of any two written blocks is one 8-byte word repeated 512 times, and each
# block is distinct. The first block of ref.dat (a write job's file) is
# the reference; a block left unwritten (zeros, or what was there), torn
# between two writes or shifted fails the first test.
blocks_from() {
	"$PY" -c '
import sys
ref = int.from_bytes(open("ref.dat", "rb").read(4096), "little")
b = open(sys.argv[1], "rb").read()
blocks = [b[i:i + 4096] for i in range(0, len(b), 4096)]
bad = 0
for blk in blocks:
    x = (int.from_bytes(blk, "little") ^ ref).to_bytes(4096, "little")
    bad += x != x[:8] * 512
print(bad + len(blocks) - len(set(blocks)))
' "$1"
}

# syncs_parse_as_fio ARGS...: a job of ARGS (an engine with no file of its
# kind here: its target /dev/null) with each of the syncs (fsync=,
# fdatasync=, end_fsync=, fsync_on_close=, end_syncfs=, sync_file_range=),
# hipri=1 without direct=1 and trim_percentage= with verify=: each parses
# (--parse-only, exit 0), and fio 3.33 (/usr/bin/fio, when there) parses
# it too, all in one run of fio (a job each: ARGS must start with
# --name=; a fio start costs 0.16 CPU-s, mostly its clock calibration).
# end_syncfs is a later fio's option: only iorig is asked.
syncs_parse_as_fio() {
	case $1 in --name=*) ;; *) die "syncs_parse_as_fio: $1: expected" \
		"--name= first" ;; esac
	_f=
	for _o in --fsync=4 --fdatasync=4 --end_fsync=1 --fsync_on_close=1 \
	    --end_syncfs=1 --sync_file_range=write:4 --hipri=1 \
	    "--trim_percentage=10 --verify=crc32c --trim_backlog=4"; do
		run "$@" --filename=/dev/null --rw=randwrite $_o --parse-only
		[ "$rc" -eq 0 ] || die "$* $_o: exit $rc, expected 0"
		[ "$_o" = --end_syncfs=1 ] || _f="$_f $* --filename=/dev/null
			--rw=randwrite $_o"
	done
	[ -x /usr/bin/fio ] || return 0
	/usr/bin/fio --parse-only $_f >"$T/fio" 2>&1 ||
		die "fio 3.33 refuses one of these jobs: $_f: $(cat "$T/fio")"
}

# throttle_trace TAG EVENT...: for a test of the depth held on a device
# the blkio throttle holds back: skips unless tracefs has instances, each
# tracepoint EVENT (SYSTEM/NAME) is there and the cgroup v1 blkio throttle
# ($BLKIO) can be written; then a 32 MiB loop device ($dev, made from
# d.img; its MAJ:MIN in $mm) and a trace instance of the test's own ($I,
# iorig-TAG-PID) recording thread group ids, 8 MiB of buffer a CPU. At
# exit the throttles of $dev are lifted, the instance removed, the loop
# device detached and $T removed. The test sets the throttle itself.
throttle_trace() {
	_tag=$1
	shift
	tracing
	[ -w "$TR/instances" ] || skip "no writable tracefs instances at $TR"
	for _e; do
		[ -d "$TR/events/$_e" ] || skip "no $_e tracepoint"
	done
	BLKIO=/sys/fs/cgroup/blkio
	[ -w "$BLKIO/blkio.throttle.read_iops_device" ] ||
		skip "needs the cgroup v1 blkio throttle ($BLKIO)"
	loop_disk d.img 32
	mm=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
	I=$TR/instances/iorig-$_tag-$$
	mkdir "$I" || skip "cannot make a trace instance"
	trap 'for _k in read write; do
		echo "$mm 0" >"$BLKIO/blkio.throttle.${_k}_iops_device"
	done 2>/dev/null
	echo 0 >"$I/tracing_on" 2>/dev/null; rmdir "$I" 2>/dev/null
	losetup -d "$dev" 2>/dev/null; cd /; rm -rf "$T"' EXIT
	echo 1 >"$I/options/record-tgid"
	echo 8192 >"$I/buffer_size_kb"
}

# prefix_of PREFIX... -- ARGS...: $pre, the words before "--" (a command
# that runs the rest of its line, as taskset does; none: nothing), and
# $npre, how many words a shift takes off to leave ARGS.
prefix_of() {
	pre= npre=1
	while [ "$1" != -- ]; do
		pre="$pre $1"
		npre=$((npre + 1))
		shift
	done
}

# bg_pid CMD...: CMD run in the background (stdout in $T/out, stderr in
# $T/err), $pid its process id (as a trace names it), waited for; the
# test fails if CMD fails.
bg_pid() {
	"$@" >"$T/out" 2>"$T/err" &
	pid=$!
	wait $pid || die "$*: failed: $(cat "$T/err")"
}

# chromium_or_skip WHAT: $browser, a headless Chromium to render WHAT (the
# charts, the page) with; skips without one.
chromium_or_skip() {
	browser=
	for _b in chromium chromium-browser google-chrome; do
		command -v "$_b" >/dev/null 2>&1 && { browser=$_b; return 0; }
	done
	skip "no chromium to render the $1 (apt-get install chromium)"
}

# shots SVG PNG [SVG PNG]...: each PNG (paths under $T) as headless
# Chromium draws its SVG, a chart of iorig plot (1000 x 620, a viewBox
# only), alone in a window of that size. The SVGs are stacked in one
# page, each an image of that size in a box of its own, and the page's
# one screenshot is cut into the boxes (shot.py split): one start of
# Chromium (about 1.5 CPU-s) for them all. Skips without Chromium.
shots() {
	chromium_or_skip charts
	_page=$T/shots.html _outs= _n=0
	{ echo '<!DOCTYPE html><html><body style="margin:0">'
	  while [ $# -ge 2 ]; do
		echo "<div style=\"height:620px;overflow:hidden\"><img" \
			"style=\"display:block\" width=\"1000\" height=\"620\"" \
			"src=\"file://$T/$1\"></div>"
		_outs="$_outs $T/$2"
		_n=$((_n + 1))
		shift 2
	  done
	  echo '</body></html>'; } >"$_page"
	timeout 60 "$browser" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$T/profile" --no-first-run \
		--disable-extensions --hide-scrollbars \
		--window-size=1000,$((620 * _n)) --screenshot="$_page.png" \
		"file://$_page" >/dev/null 2>>"$T/chrome.err" ||
		die "chromium failed on $_page: $(tail -3 "$T/chrome.err")"
	# shellcheck disable=SC2086
	"$PY" "$top/tests/cli/shot.py" split "$_page.png" 620 $_outs ||
		die "cannot cut $_page.png into $_n charts"
}
