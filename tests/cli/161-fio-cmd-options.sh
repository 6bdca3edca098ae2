#!/bin/sh
# fio's command options (not job options): every one that Debian's fio
# lists in `fio --help`, and the others of fio's init.c, is taken with
# fio's meaning or refused with exit 2 and a reason, never as "unknown";
# invoked as iorig and as fio alike. Then what the accepted ones do,
# against outside witnesses: --readonly leaves a file it would write
# uncreated, --warnings-fatal runs nothing, --append-terse adds fio's
# terse line, --output-format=normal is the text report, --eta=never
# prints nothing on stderr, --eta-interval sets the status line's period,
# --enghelp lists the engines --cmdhelp=ioengine lists, --showcmd's line
# runs the jobs of its job file, --debug=parse prints the options and
# the steady-state criteria as fio's does.
# lane: parallel
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/bin"
ln -s "$IORIG" "$T/bin/fio"

# fio's list, from the binary when it is here, plus init.c's unlisted ones.
opts="latency-log append-terse eta-interval profile server-internal memcpytest"
if command -v fio >/dev/null 2>&1; then
	fio --help 2>/dev/null | sed -n 's/^  --\([a-z-]*\).*/\1/p' >"$T/fio-opts"
	[ "$(wc -l <"$T/fio-opts")" -ge 25 ] ||
		die "could not read fio --help's options"
	opts="$opts $(cat "$T/fio-opts")"
else
	opts="$opts debug parse-only merge-blktrace-only output bandwidth-log
minimal output-format terse-version version help cpuclock-test crctest
cmdhelp enghelp showcmd eta eta-newline status-interval readonly section
alloc-size warnings-fatal max-jobs server daemonize client remote-config
idle-prof inflate-log trigger-file trigger-timeout trigger trigger-remote
aux-path"
fi

# A value fio would take for each.
value() {
	case $1 in
	output) echo "=$T/o.txt" ;;
	output-format) echo "=json" ;;
	terse-version) echo "=3" ;;
	cmdhelp) echo "=bs" ;;
	eta) echo "=never" ;;
	eta-newline|eta-interval|status-interval) echo "=2s" ;;
	section) echo "=a" ;;
	alloc-size) echo "=1024" ;;
	max-jobs) echo "=4" ;;
	debug) echo "=io" ;;
	latency-log|inflate-log|trigger-file|aux-path|remote-config) echo "=x" ;;
	client|daemonize|profile|idle-prof|trigger|trigger-remote) echo "=x" ;;
	trigger-timeout) echo "=10" ;;
	server-internal) echo "=x" ;;
	*) echo "" ;;
	esac
}

n=0
for exe in "$IORIG" "$T/bin/fio"; do
	for o in $opts; do
		"$exe" "--$o$(value "$o")" --name=a --ioengine=null --size=4k \
			>"$T/out" 2>"$T/err" </dev/null
		rc=$?
		n=$((n + 1))
		case $rc in
		0) ;;
		2)
			expect_in err "'$o'"
			expect_not_in err "unknown|did you mean"
			[ "$(wc -c <"$T/err")" -gt 60 ] ||
				die "--$o: refused without saying why"
			;;
		*) die "$exe --$o: exit $rc, expected 0 or 2" ;;
		esac
	done
done
[ "$n" -ge 70 ] || die "only $n option runs"

# --debug: each of fio's debug types (its own list when it is here) is
# taken; parse prints the options as read and each steady-state criterion
# in fio's words, the same line as fio's; another name is refused.
types="process file io mem blktrace verify random parse diskutil job mutex
profile time net rate compress steadystate helperthread zbd all"
if command -v fio >/dev/null 2>&1; then
	types=$(fio --debug=help 2>/dev/null | sed -n 's/.*options://p' |
		tr ',' ' ')
	[ -n "$types" ] || die "could not read fio --debug=help's types"
fi
for t in $types job:1; do
	run --debug=$t --name=a --ioengine=null --size=4k
	expect_rc 0
done
run -d parse,io --name=a --ioengine=null --size=4k --output-format=json
expect_rc 0
expect_in out "^parse: <command line>:[0-9]+: \\[a\\] size=4k$"
run --debug=help
expect_rc 0
for t in $types; do
	[ "$t" = all ] || expect_in out "^  $t "
done
run --debug=parse,nope --name=a --ioengine=null --size=4k
expect_rc 2
expect_in err "'nope' is not one of fio's debug types"
# fio's t/steadystate_tests.py: --parse-only with global options alone.
for ss in iops:10 iops:10% iops:.1% bw:10% bw:.1% bw:12 iops_slope:2; do
	"$T/bin/fio" --parse-only --debug=parse --ss_dur=10s --ss=$ss \
		--ss_ramp=5 >"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 0
	sed -n 's/^parse: \(set steady state.*\)/\1/p' "$T/out" >"$T/mine"
	[ -s "$T/mine" ] || die "--ss=$ss: no steady-state line"
	# fio's line, when fio runs (it can fail to set up its shared
	# memory on a loaded machine: said, and not compared)
	if command -v fio >/dev/null 2>&1 &&
	   fio --parse-only --debug=parse --ss_dur=10s --ss=$ss \
		--ss_ramp=5 >"$T/fio.out" 2>"$T/fio.err" </dev/null; then
		sed -n 's/^parse *[0-9]* *\(set steady state.*\)/\1/p' \
			"$T/fio.out" >"$T/fios"
		cmp -s "$T/mine" "$T/fios" ||
			die "--ss=$ss: '$(cat "$T/mine")', fio '$(cat "$T/fios")' (fio's stdout: $(head -c 500 "$T/fio.out"); stderr: $(head -c 500 "$T/fio.err"))"
	elif command -v fio >/dev/null 2>&1; then
		echo "note: fio failed on --ss=$ss: $(head -c 300 "$T/fio.err")"
	fi
done
# a value that does not parse is still refused without a job
run --parse-only --ss_dur=10s --ss=iops:x
expect_rc 2
expect_in err "steadystate"

# The server/client options point to MPI.
for o in server client=h daemonize=p remote-config=f; do
	"$T/bin/fio" --$o --name=a --ioengine=null --size=4k >"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 2
	expect_in err 'MPI'
done

# --readonly: a job that writes is refused before anything is created.
run --readonly --name=w --filename="$T/w.dat" --size=64k --rw=write
expect_rc 2
expect_in err "readonly"
[ ! -e "$T/w.dat" ] || die "--readonly: w.dat was created"
run --readonly --name=w --filename="$T/w.dat" --size=64k --rw=randtrim
expect_rc 2
dd if=/dev/urandom of="$T/r.dat" bs=64k count=1 2>/dev/null
sum=$(cksum <"$T/r.dat")
run --readonly --name=r --filename="$T/r.dat" --size=64k --rw=read
expect_rc 0
[ "$(cksum <"$T/r.dat")" = "$sum" ] || die "--readonly: r.dat changed"

# --warnings-fatal: a plan warning (iodepth with a sync engine) stops the
# run before the file is made; without it, the run goes on.
set -- --name=p --filename="$T/p.dat" --size=64k --ioengine=sync --iodepth=4
run --warnings-fatal "$@"
expect_rc 2
expect_in err 'warning'
[ ! -e "$T/p.dat" ] || die "--warnings-fatal: p.dat was created"
run "$@"
expect_rc 0
[ -e "$T/p.dat" ] || die "without --warnings-fatal the job did not run"

# --append-terse: the report, then fio's terse line (v3: 130 fields with
# one disk in fio's HOWTO; here as many as --minimal gives).
set -- --name=t --ioengine=null --size=64k
run --minimal "$@"
expect_rc 0
nf=$(awk -F';' '/^3;/ { print NF }' "$T/out")
"$T/bin/fio" --output-format=json --append-terse "$@" >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0
[ "$(awk -F';' '/^3;/ { print NF }' "$T/out")" = "$nf" ] ||
	die "--append-terse: no terse line of $nf fields"
sed '/^3;/d' "$T/out" >"$T/j.json"
jsonf "$T/j.json" 'd["jobs"][0]["jobname"]' >/dev/null ||
	die "--append-terse: the JSON before the line is not one document"

# normal: fio's name for the text report (the same lines' labels).
run --output-format=normal "$@"
expect_rc 0
awk '{ print $1 }' "$T/out" >"$T/normal.txt"
run --output-format=text "$@"
awk '{ print $1 }' "$T/out" >"$T/text.txt"
cmp -s "$T/normal.txt" "$T/text.txt" || die "normal is not the text report"

# --eta: --progress's fio name; never: nothing on stderr.
run --eta=never "$@"
expect_rc 0
expect_empty err
# --eta-interval: with --eta=always, a status line every period (not a
# terminal: each its own line); 1.2 s at 250ms is 4, at the default 1s 1.
set -- --name=e --ioengine=null --size=1g --time_based --runtime=1200ms \
	--rate_iops=1000
run --eta=always --eta-interval=250ms "$@"
expect_rc 0
fast=$(grep -c '^\[' "$T/err")
run --eta=always "$@"
slow=$(grep -c '^\[' "$T/err")
[ "$fast" -ge 3 ] && [ "$slow" -le 2 ] ||
	die "--eta-interval=250ms: $fast lines, default: $slow"
run --eta-interval=100ms "$@"
expect_rc 2
expect_in err 'at least 250ms'

# --enghelp: the engines --cmdhelp=ioengine lists, in fio's layout.
run --enghelp
expect_rc 0
expect_in out '^Available IO engines:$'
sed -n 's/^\t//p' "$T/out" | sort >"$T/eng"
run --cmdhelp=ioengine
sed -n 's/^    \([a-z0-9_]\+\) .*/\1/p' "$T/out" | sort -u >"$T/eng2"
[ -s "$T/eng" ] && cmp -s "$T/eng" "$T/eng2" ||
	die "--enghelp: $(tr '\n' ' ' <"$T/eng") vs $(tr '\n' ' ' <"$T/eng2")"
run --enghelp=libaio
expect_rc 0
expect_in out '^libaio: '
run --enghelp=nosuch
expect_rc 2

# --showcmd: the command line runs the same jobs as the file (the same
# --parse-only listing), a [global] after a job included; for a plain
# file, the line fio --showcmd prints.
printf '[global]\nioengine=null\nsize=1m\n\n[a]\nrw=read\nbs=4k\n[b]\nrw=write\ndirect=1\n' >"$T/s.fio"
printf '[global]\nioengine=null\n[a]\nrw=read\n[global]\nbs=8k\n[b b]\nfilename=%s/x y\nsize=64k\n' "$T" >"$T/s2.fio"
for f in s.fio s2.fio; do
	run --showcmd "$T/$f"
	expect_rc 0
	[ "$(wc -l <"$T/out")" -eq 1 ] || die "--showcmd $f: not one line"
	cp "$T/out" "$T/cmd"
	run --parse-only "$T/$f"
	cp "$T/out" "$T/from-file"
	eval "set -- $(sed 's/^iorig//' "$T/cmd")"
	run --parse-only "$@"
	cmp -s "$T/out" "$T/from-file" ||
		die "--showcmd $f: $(cat "$T/cmd") is not the same jobs"
done
"$T/bin/fio" --showcmd "$T/s.fio" >"$T/out" 2>"$T/err"
expect_in out '^fio --ioengine=null --size=1m --name=a --rw=read --bs=4k --name=b --rw=write --direct=1$'
if command -v fio >/dev/null 2>&1; then
	fio --showcmd "$T/s.fio" | sed 's/ *$//' >"$T/fio-cmd"
	cmp -s "$T/out" "$T/fio-cmd" ||
		die "--showcmd: fio says $(cat "$T/fio-cmd")"
fi
run --showcmd
expect_rc 2
exit 0
