#!/bin/sh
# Invoked as fio, stderr says what Debian's fio 3.33 says on the same job:
# nothing where fio is silent (fio's own test suite fails a run whose
# stderr is not empty: t0010, t0016, t0025, t0026), and a warning where
# fio gives one (time_based without a runtime). The report keeps every
# warning all the same (iorig-json's "warnings"), --warnings-fatal counts
# only what is said, and invoked as iorig every warning is said as ever.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v fio >/dev/null 2>&1 || skip "needs fio (the outside truth)"
mkdir -p "$T/bin"
ln -s "$IORIG" "$T/bin/fio"
dd if=/dev/zero of="$T/f" bs=64k count=4 2>/dev/null

# asfio ARGS...: iorig invoked as fio; stdout, stderr and $rc as run.
asfio() {
	"$T/bin/fio" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

# quiet CODE ARGS...: fio runs the job with nothing on stderr; so does
# iorig as fio, whose iorig-json report still has the warning CODE, which
# iorig says on stderr under its own name.
quiet() {
	_code=$1
	shift
	# fio runs it with --warnings-fatal, silent (one run shows both:
	# without that option the run is the same, a warning being what it
	# turns into a failure)
	fio --warnings-fatal --output=/dev/null "$@" >/dev/null 2>"$T/ferr" ||
		die "fio --warnings-fatal failed on $*: $(cat "$T/ferr")"
	[ ! -s "$T/ferr" ] || die "fio is not silent on $*: $(cat "$T/ferr")"
	asfio --output-format=iorig-json "$@"
	expect_rc 0
	expect_empty err
	expect_json "any(w['code'] == '$_code' for w in d['warnings'])" \
		"$_code kept in the report"
	# so does iorig as fio
	asfio --warnings-fatal --output=/dev/null "$@"
	expect_rc 0
	expect_empty err
	run --output-format=json "$@"
	expect_rc 0
	expect_in err "^iorig: warning: .*job 'j'"
	expect_json "any(w['code'] == '$_code' for w in d['warnings'])"
}

set -- --name=j --filename="$T/f" --size=256k --bs=4k
# t0010/t0016: iodepth with the null engine
quiet iodepth_ignored "$@" --ioengine=null --iodepth=16
# t0025/t0026: experimental_verify
quiet experimental_verify "$@" --rw=write --verify=md5 \
	--experimental_verify=1
# a sync engine's iodepth: fio's "note" is on stdout, not stderr
quiet iodepth_ignored "$@" --ioengine=psync --iodepth=4
# deprecated options: fio says so on stdout
quiet fio_deprecated "$@" --rw=write --verify=crc32c --verifysort=1
quiet thinktime_unset "$@" --thinktime_blocks=4
quiet nrfiles_ignored --name=j --filename="$T/f" --nrfiles=3 --size=256k

# Job files: fio's own t0025 job, as its suite runs it.
cat >"$T/t.fio" <<EOF
[job]
filename=$T/f
size=256k
rw=write
verify=md5
experimental_verify=1
EOF
fio --output-format=json --output="$T/f.json" "$T/t.fio" 2>"$T/ferr" ||
	die "fio failed on the job file"
[ ! -s "$T/ferr" ] || die "fio is not silent: $(cat "$T/ferr")"
asfio --output-format=json --output="$T/i.json" "$T/t.fio"
expect_rc 0
expect_empty err

# Where fio speaks, iorig as fio speaks too, and --warnings-fatal stops
# both.
set -- --name=j --filename="$T/f" --size=256k --time_based=1
fio --output=/dev/null "$@" >/dev/null 2>"$T/ferr" || die "fio failed"
grep -q "time_based" "$T/ferr" || die "fio no longer warns: $(cat "$T/ferr")"
asfio --output=/dev/null "$@"
expect_rc 0
expect_in err "^iorig: warning: .*time_based without runtime"
fio --warnings-fatal --output=/dev/null "$@" >/dev/null 2>&1 &&
	die "fio --warnings-fatal runs time_based without runtime"
asfio --warnings-fatal --output=/dev/null "$@"
expect_rc 2
expect_in err "warnings-fatal"
echo ok
