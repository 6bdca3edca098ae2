#!/bin/sh
# The guest cases' $PY (py_served, tests/cli/lib.sh), outside the guest:
# tests/cli/307-guest-py-served.sh runs this with IORIG_GUEST=1. Each
# check compares what a call gives with what python3 itself gives.
# PY_SERVED_KILL=1: the server is killed, and the next call must fail
# the script naming it, not wait.
. "$(dirname "$0")/../lib.sh"
# the calls are served: one process for them all
p1=$("$PY" -S -c 'import os; print(os.getpid())')
p2=$("$PY" -S -c 'import os; print(os.getpid())')
[ -n "$p1" ] && [ "$p1" = "$p2" ] || die "not served by one process: $p1 $p2"
echo '{"jobs":[{"read":{"ios":7}}]}' >"$T/out"
json_is "d['jobs'][0]['read']['ios']" 7
expect_json "d['jobs'][0]['read']['ios'] > 6"
[ "$(jvals "$T/out" "j['read']['ios']" "j['read']['ios'] * 2")" = "7 14" ] ||
	die "jvals"
for c in 'sys.exit(3)' 'sys.exit(True)' 'sys.exit(False)' 'sys.exit(256)' \
	'sys.exit("a message")' 'raise ValueError("boom")' 'x = 1' \
	'print("E", file=sys.stderr); print("O")' \
	'print(len(sys.argv), sys.argv[1:])' \
	'print("no newline", end="")' 'print("a\\tb\\\\n  c  ")'; do
	"$PY" -S -c "import sys; $c" x 'y z' >"$T/s.out" 2>"$T/s.err"
	got=$?
	"$_py_bin" -S -c "import sys; $c" x 'y z' >"$T/p.out" 2>"$T/p.err"
	want=$?
	[ "$got" = "$want" ] || die "$c: exit $got, python3's $want"
	cmp -s "$T/s.out" "$T/p.out" || die "$c: stdout differs: $(cat "$T/s.out")"
	# a traceback names the file python3 read: the same lines otherwise
	[ "$(grep -c . "$T/s.err")" = "$(grep -c . "$T/p.err")" ] &&
		[ "$(tail -n 1 "$T/s.err")" = "$(tail -n 1 "$T/p.err")" ] ||
		die "$c: stderr differs: $(cat "$T/s.err")"
done
echo "ok: exit statuses, stdout and stderr as python3's"
x=$("$PY" -S - a "b c" 'd
e' <<'PYEOF'
import sys
print(len(sys.argv), sys.argv[0], "|".join(sys.argv[1:]))
PYEOF
)
[ "$x" = "4 - a|b c|d
e" ] || die "a program on stdin, with arguments: $x"
y=$(echo hello | "$PY" -S -c 'import sys; print(sys.stdin.read().upper())')
[ "$y" = HELLO ] || die "stdin: $y"
{ echo one; "$PY" -S -c 'print("two")'; echo three; } >"$T/g"
[ "$(cat "$T/g")" = "one
two
three" ] || die "the shell's writes around a call: $(cat "$T/g")"
mkdir "$T/sub"
z=$(cd "$T/sub" && "$PY" -S -c 'import os; print(os.getcwd())')
[ "$z" = "$T/sub" ] || die "working directory: $z"
printf 'import sys\nprint("file", sys.argv[1:])\n' >"$T/s.py"
[ "$("$PY" "$T/s.py" x)" = "file ['x']" ] || die "a program file"
v=$("$PY" -m json.tool "$T/out" | tr -d ' \n')
[ "$v" = '{"jobs":[{"read":{"ios":7}}]}' ] || die "-m (python3's own): $v"
"$PY" -S -c 'import sys; sys.stdout.write("\0bin\n")' >"$T/b"
[ "$(od -An -c "$T/b" | tr -d ' ')" = '\0bin\n' ] || die "a NUL byte"
("$PY" -S -c 'import time; time.sleep(0.3); print("A")' >"$T/a") &
("$PY" -S -c 'print("B")' >"$T/b") &
wait
[ "$(cat "$T/a")$(cat "$T/b")" = AB ] || die "two calls at once"
# Three at once, ten times: each its own answer (a caller that read
# another's answer, or the end of the FIFO, had one call in eight runs of
# fifteen rounds fail "ended ()" when the server gave the lock back
# before the caller had read).
i=0
while [ "$i" -lt 10 ]; do
	for k in 1 2 3; do
		("$PY" -S -c 'import sys; print(int(sys.argv[1]) * 3)' "$i$k" \
			>"$T/c$k" 2>&1) &
	done
	wait
	for k in 1 2 3; do
		[ "$(cat "$T/c$k")" = "$(($i$k * 3))" ] ||
			die "round $i, call $k of three at once: $(cat "$T/c$k")"
	done
	i=$((i + 1))
done
echo "ok: stdin, the shell's offset, cwd, a program file, -m, NUL, two and three at once"
if [ "${PY_SERVED_KILL:-0}" = 1 ]; then
	read -r p <"$T.py/pid" || die "no server"
	kill -9 "$p"
	"$PY" -S -c 'print(1)'
	echo "a call after the server was killed came back"
	exit 0
fi
echo "ok: all"
