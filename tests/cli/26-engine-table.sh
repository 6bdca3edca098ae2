#!/bin/sh
# Engines declare what they are: --cmdhelp=ioengine lists every engine
# with its other name, help and the options only it reads; the planner's
# engine warnings come from the same table (their text unchanged); and
# the JSON report's engine_setup says which io_uring ring flags and
# registrations the kernel granted, checked against the io_uring_setup(2)
# and io_uring_register(2) calls strace saw.
# lane: parallel
. "$(dirname "$0")/lib.sh"

# The engines, from the error for an unknown one (not from --cmdhelp).
run --parse-only --name=x --ioengine=no-such-engine.
expect_rc 2
engines=$(sed -n 's/.*expected one of: *//p' "$T/err")
[ -n "$engines" ] || die "the error names no engines"

run --cmdhelp=ioengine
expect_rc 0
expect_in out '^  values:$'
for e in $engines; do
	grep -Eq "^    $e +[^ ]" "$T/out" ||
		die "--cmdhelp=ioengine does not list engine $e with its help"
done
# The aliases, and what each engine reads, in that engine's entry.
# entry NAME: the lines of NAME's entry.
entry() {
	awk -v e="$1" '/^    [^ ]/ { f = ($1 == e) } f' "$T/out"
}
for a in sync:psync libaio:kaio io_uring:uring; do
	entry "${a%%:*}" | grep -q "also called ${a#*:}\$" ||
		die "engine ${a%%:*}: alias ${a#*:} not listed"
done
entry io_uring >"$T/uring"
for o in fixedbufs registerfiles sqthread_poll sqthread_poll_cpu hipri; do
	grep -Eq "(options:| ) ?$o( |\$)" "$T/uring" ||
		die "io_uring entry lacks option $o: $(cat "$T/uring")"
done
entry pthread | grep -q 'options: pool_threads$' ||
	die "pthread entry lacks pool_threads"
entry libaio | grep -q 'direct=1' ||
	die "libaio entry does not say it needs direct=1"
entry sync | grep -q 'synchronous' || die "sync entry: not synchronous"
entry null | grep -q 'synchronous' || die "null entry: not synchronous"
# Every option an engine lists is a job option.
for o in $(sed -n 's/^ *options://p; /^ \{26\}[a-z]/p' "$T/out"); do
	"$IORIG" --cmdhelp="$o" >/dev/null 2>&1 ||
		die "--cmdhelp=ioengine lists '$o', which is no job option"
done
awk 'length > 80 { exit 1 }' "$T/out" || die "a line over 80 columns"

# The warnings, as they were worded before the table drove them.
run --parse-only --name=x --ioengine=libaio
expect_rc 0
expect_in err "libaio without direct=1 blocks in io_submit: the I/O is synchronous and iodepth has no effect"
run --parse-only --name=x --ioengine=libaio --direct=1
expect_not_in err 'blocks in'
run --parse-only --name=x --ioengine=sync --iodepth=4 --fixedbufs=1 \
	--pool_threads=2
expect_rc 0
expect_in err "iodepth=4 has no effect with the sync engine: it does one I/O at a time"
expect_in err "cmdprio_percentage, cmdprio_bssplit, force_async, nonvectored, fixedbufs, registerfiles, sqthread_poll and hipri apply to the io_uring engine only"
expect_in err "pool_threads applies to the pthread engine only"
run --parse-only --name=x --ioengine=io_uring --hipri=1 --sqthread_poll_cpu=1
expect_not_in err 'engine only'
run --parse-only --name=x --ioengine=pthread --sqthread_poll_cpu=1
expect_not_in err 'engine only'
run --parse-only --name=x --ioengine=pthread --registerfiles=1
expect_in err "apply to the io_uring engine only"

# engine_setup: null for an engine with nothing to say.
run --output-format=json --name=s --filename=s.dat --size=64k
expect_rc 0
json_is 'd["jobs"][0]["engine_setup"]' None

# An engine that could not be set up got nothing.
NORING=$top/tests/helpers/noring
if [ -x "$NORING" ] && "$NORING" --uring=ENOSYS true 2>/dev/null; then
	"$NORING" --uring=ENOSYS "$IORIG" --output-format=json --name=u \
		--filename=u.dat --size=64k --ioengine=io_uring \
		>"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 1
	json_is 'd["jobs"][0]["engine_setup"]' None
else
	echo "note: no working tests/helpers/noring: refused setup not checked"
fi

# io_uring: what the report says against what the kernel was asked for.
run --output-format=json --name=u --filename=u.dat --size=256k \
	--ioengine=io_uring --iodepth=4
if [ "$rc" -ne 0 ]; then
	grep -q 'setting up engine io_uring' "$T/err" ||
		die "io_uring run failed for another reason"
	json_is 'd["jobs"][0]["engine_setup"]' None
	skip "io_uring cannot be set up here: $(head -n 1 "$T/err")"
fi
expect_json 'isinstance(d["jobs"][0]["engine_setup"], list)'
command -v strace >/dev/null 2>&1 || skip "needs strace for the rest"
strace -f -X raw -o "$T/st" -e trace=io_uring_setup,io_uring_register \
	true 2>/dev/null || skip "strace cannot trace here"

# ustrace ARGS...: an io_uring JSON run under strace (calls in $T/st).
# (Sanitizer builds turn LeakSanitizer off by themselves when traced.)
ustrace() {
	strace -f -X raw -o "$T/st" \
		-e trace=io_uring_setup,io_uring_register \
		"$IORIG" --output-format=json --name=u --filename=u.dat \
		--size=256k --ioengine=io_uring --iodepth=4 "$@" \
		>"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 0
}

# What the kernel granted: the flags of the io_uring_setup(2) that
# succeeded (decoded with the kernel's values), then the registrations
# that succeeded: buffers (0), files (2), ring fds (20). (No min_wait,
# whatever the ring's features: a lingering wait has no timer.)
granted() {
	"$PY" - "$T/st" <<'EOF'
import re, sys
names = [(0x1, "IOPOLL"), (0x2, "SQPOLL"), (0x4, "SQ_AFF"),
         (0x1000, "SINGLE_ISSUER"), (0x2000, "DEFER_TASKRUN"),
         (0x100, "COOP_TASKRUN")]
regs = {0: "fixedbufs", 2: "registerfiles", 20: "registered_ring_fd"}
out = []
for line in open(sys.argv[1]):
    m = re.search(r"io_uring_setup\(\d+, \{flags=(0x[0-9a-f]+|\d+),.*"
                  r"features=(0x[0-9a-f]+|\d+),.*\) = (\d+)$", line)
    if m:
        f = int(m.group(1), 0)
        out += [n for bit, n in names if f & bit]
    m = re.search(r"io_uring_register\(\d+, (0x[0-9a-f]+|\d+),.*\) = "
                  r"(\d+)$", line)
    if m and int(m.group(1), 0) in regs:
        out.append(regs[int(m.group(1), 0)])
print(" ".join(out))
EOF
}

# fixedbufs and registerfiles default to auto: used when the kernel takes
# them (as root here it does); 0 turns them off.
for opts in "" "--fixedbufs=0 --registerfiles=0" "--fixedbufs=1" \
	"--registerfiles=1 --fixedbufs=0"; do
	# shellcheck disable=SC2086
	ustrace $opts
	want=$(granted)
	got=$(json '" ".join(d["jobs"][0]["engine_setup"])')
	[ -n "$want" ] || die "strace saw no io_uring_setup: $(cat "$T/st")"
	[ "$got" = "$want" ] ||
		die "io_uring $opts: engine_setup '$got', the kernel granted '$want'"
	case " $opts " in
	*fixedbufs=0*) echo "$got" | grep -qw fixedbufs &&
		die "fixedbufs=0 but engine_setup has it" ;;
	*) echo "$got" | grep -qw fixedbufs ||
		die "fixedbufs ${opts:-by default} but engine_setup lacks it" ;;
	esac
	case " $opts " in
	*registerfiles=0*) echo "$got" | grep -qw registerfiles &&
		die "registerfiles=0 but engine_setup has it" ;;
	*) echo "$got" | grep -qw registerfiles ||
		die "registerfiles ${opts:-by default} but engine_setup lacks it"
		;;
	esac
done

# Without CAP_IPC_LOCK, a 64 KiB locked-memory limit refuses 4 MiB of
# registered buffers: by default the job runs without them; asked for,
# the job fails and says so.
if command -v setpriv >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
	lowlock() {
		(ulimit -l 64 && exec setpriv --inh-caps=-ipc_lock \
			--bounding-set=-ipc_lock "$IORIG" --output-format=json \
			--name=u --filename=u.dat --size=4m --bs=1m \
			--ioengine=io_uring --iodepth=4 "$@") >"$T/out" 2>"$T/err"
		rc=$?
	}
	lowlock
	expect_rc 0
	got=$(json '" ".join(d["jobs"][0]["engine_setup"])')
	echo "$got" | grep -qw fixedbufs &&
		die "fixedbufs granted beyond a 64 KiB memlock limit: $got"
	lowlock --fixedbufs=1
	expect_rc 1
	expect_in err "fixedbufs"
else
	echo "note: no setpriv or not root: the memlock fallback is not tried"
fi
echo "ok: engine table, warnings and engine_setup ($got)"
