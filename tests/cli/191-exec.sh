#!/bin/sh
# ioengine=exec: program= runs with arguments= (%r the runtime in seconds,
# %n the job's name, split at spaces) for the job's runtime, then gets
# SIGTERM, and SIGKILL grace_time seconds later if it is still there;
# std_redirect writes its stdout and stderr to NAME.stdout and
# NAME.stderr. The files fio and iorig leave on the same job are compared.
# Nothing runs for --parse-only or a plan with an error elsewhere.
# lane: parallel
. "$(dirname "$0")/lib.sh"

# prog.sh OUT MODE ARGS...: writes ARGS and its pid to OUT, a
# line to stdout and to stderr, then waits; MODE term: notes SIGTERM in
# OUT and exits; MODE deaf: ignores SIGTERM.
cat >prog.sh <<'EOF2'
#!/bin/sh
out=$1 mode=$2
shift 2
echo "args: $*" >"$out"
echo "$$" >"$out.pid"
echo "to stdout: $1"
echo "to stderr: $# arguments" >&2
if [ "$mode" = deaf ]; then
	trap '' TERM
else
	trap 'echo TERM >>"$out"; exit 0' TERM
fi
while :; do sleep 0.05; done
EOF2
chmod +x prog.sh

# job DIR TOOL MODE EXTRA...: the exec job run by TOOL in DIR; its wall
# clock in $wall.
job() {
	d=$1 tool=$2 mode=$3
	shift 3
	mkdir -p "$d"
	(cd "$d" && t0=$(now_ms) && "$tool" --name=ex1 --ioengine=exec \
		--program=../prog.sh "--arguments=res.txt $mode %r %n  x%n" \
		--runtime=1 --output-format=json "$@" >out.json 2>err.txt &&
		echo $(($(now_ms) - t0)) >wall) || die "$tool in $d failed: $(cat "$d/err.txt")"
	wall=$(cat "$d/wall")
}

job i "$IORIG" term
[ "$(cat i/res.txt)" = "args: 1 ex1 xex1
TERM" ] || die "program's record: $(cat i/res.txt)"
[ "$(cat i/ex1.stdout)" = "to stdout: 1" ] || die "ex1.stdout: $(cat i/ex1.stdout)"
[ "$(cat i/ex1.stderr)" = "to stderr: 3 arguments" ] || die "ex1.stderr"
[ "$wall" -ge 900 ] && [ "$wall" -lt 2500 ] || die "ran ${wall} ms, runtime=1"
cp i/out.json "$T/out"
json_is 'd["jobs"][0]["read"]["io_bytes"]' 0
expect_json 'd["jobs"][0]["read"]["ios"] > 0' "requests counted"
if command -v fio >/dev/null 2>&1; then
	job f fio term
	for x in ex1.stdout ex1.stderr; do
		cmp -s i/$x f/$x || die "$x: iorig '$(cat i/$x)', fio '$(cat f/$x)'"
	done
	# the arguments fio gave; its TERM line only if its program had set
	# its trap when fio signalled it (CI, loaded: not always)
	[ "$(head -n 1 f/res.txt)" = "$(head -n 1 i/res.txt)" ] ||
		die "res.txt: iorig '$(head -n 1 i/res.txt)', fio '$(head -n 1 f/res.txt)'"
	echo "iorig and fio: the same arguments and output files"
fi

# A program that ignores SIGTERM is killed grace_time later (it is gone).
job g "$IORIG" deaf --grace_time=2
kill -0 "$(cat g/res.txt.pid)" 2>/dev/null && die "the program outlived the job"
[ "$wall" -ge 2900 ] && [ "$wall" -lt 4500 ] ||
	die "grace_time=2: ran ${wall} ms, expected runtime 1 s + 2 s"
job h "$IORIG" deaf --grace_time=0 --std_redirect=0
[ "$wall" -lt 2500 ] || die "grace_time=0: ran ${wall} ms"
[ ! -e h/ex1.stdout ] && [ ! -e h/ex1.stderr ] ||
	die "std_redirect=0 still wrote ex1.stdout/ex1.stderr"
grep -q '^to stdout: 1$' h/out.json || die "std_redirect=0: stdout not iorig's"

# Nothing runs when nothing is run.
mkdir p && cd p || die "mkdir"
run --parse-only --name=ex1 --ioengine=exec --program=../prog.sh \
	--arguments="res.txt term" --runtime=1
expect_rc 0
run --name=ex1 --ioengine=exec --program=../prog.sh \
	--arguments="res.txt term" --runtime=1 --name=bad --bs=3x
expect_rc 2
run --name=ex1 --ioengine=exec --runtime=1
expect_rc 2
expect_in err "program"
sleep 0.2
[ ! -e res.txt ] || die "the program ran though nothing was to run"
echo "ok: exec"
