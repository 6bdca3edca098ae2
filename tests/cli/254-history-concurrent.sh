#!/bin/sh
# The history under concurrent writers and interruptions (issue 25 §3):
# two runs recording into one database at the same moment, then eight in
# parallel, then four making a new one together (five times), lose no row (each run's JSON result is found in the database,
# with its unit and its figures); a run stopped by SIGINT is recorded as
# such (signal, exit 130) and left out of the checks' history; runs killed
# (SIGKILL) at random moments, some while they record, leave every earlier
# run whole and a database that passes PRAGMA integrity_check (Debian's
# sqlite3 CLI), and no run half recorded (each run has its unit, its
# figures and its histograms, or is absent).
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v sqlite3 >/dev/null 2>&1 ||
	skip "needs the sqlite3 CLI (Debian package sqlite3; make deps installs it)"

# job NAME ARGS...: one run, its JSON in NAME.json; in the background
# (job NAME ... &) the subshell becomes iorig (exec), so $! is iorig's.
job() {
	_n=$1
	shift
	exec "$IORIG" --output-format=json --history="$T/h.db" --name=cj \
		--filename="$T/f-${F:-$_n}" --size=1m --rw=randread --bs=4k \
		--ioengine=psync "$@" >"$T/$_n.json" 2>"$T/$_n.err"
}

mkrand f-base 1048576
for n in a b c d e f g h i j p; do cp f-base "f-$n"; done

# two at once: both start before either records
job a --runtime=300ms --time_based & pa=$!
job b --runtime=300ms --time_based & pb=$!
wait $pa || die "run a failed: $(cat a.err)"
wait $pb || die "run b failed: $(cat b.err)"
[ "$(sqlite3 h.db 'SELECT count(*) FROM runs')" = 2 ] ||
	die "two concurrent runs: $(sqlite3 h.db 'SELECT count(*) FROM runs') rows"

# eight in parallel, short ones (their commits meet)
pids=
for n in c d e f g h i j; do
	job $n --runtime=50ms --time_based & pids="$pids $!"
done
for p in $pids; do
	wait "$p" || die "a parallel run failed: $(cat ./*.err)"
done

"$PY" - h.db a b c d e f g h i j <<'PYEOF' || die "rows against the runs' JSON"
import json, sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
stored = [r[0] for r in db.execute("SELECT result_json FROM runs")]
assert len(stored) == 10, len(stored)
for n in sys.argv[2:]:
    text = open(n + ".json").read()
    assert stored.count(text) == 1, "run %s: not recorded once" % n
    d = json.loads(text)
    (rid, uid), = db.execute("SELECT r.id, u.id FROM runs r JOIN units u "
                             "ON u.run_id = r.id WHERE r.result_json = ?",
                             (text,)).fetchall()
    iops, = db.execute("SELECT value FROM figures WHERE unit_id = ? AND "
                       "metric = 'read.iops'", (uid,)).fetchone()
    want = d["jobs"][0]["read"]["iops"]
    assert abs(iops - want) <= 1e-9 * want, (n, iops, want)
PYEOF

# four runs making one new database at once, five times over (one of
# them switches it to WAL and makes the schema while the others wait)
r=0
while [ $r -lt 5 ]; do
	rm -f new.db new.db-wal new.db-shm
	pids=
	for n in 1 2 3 4; do
		"$IORIG" --name=nw --filename="$T/nw" --size=1m --rw=read \
			--ioengine=null --history="$T/new.db" -o /dev/null \
			2>>new.err & pids="$pids $!"
	done
	for p in $pids; do wait "$p" || die "making a new history: $(cat new.err)"; done
	[ "$(sqlite3 new.db 'SELECT count(*) FROM runs')" = 4 ] ||
		die "4 runs making one history: $(sqlite3 new.db 'SELECT count(*) FROM runs') rows"
	r=$((r + 1))
done

# SIGINT mid-run: recorded, flagged, and not part of the history. The
# same job (256 reads at 200 a second) twice whole, once stopped early.
paced="--rate_iops=200"
(F=p; job m1 $paced) || die "run m1: $(cat m1.err)"
(F=p; job m2 $paced) || die "run m2: $(cat m2.err)"
(F=p; job k $paced) & pk=$!
# once its worker thread runs (a second task), a little into the run
i=0
while [ "$(ls /proc/$pk/task 2>/dev/null | wc -l)" -lt 2 ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
sleep 0.3
kill -INT $pk
wait $pk
rc=$?
[ $rc -eq 130 ] || die "SIGINT: exit $rc, expected 130 ($(cat k.err))"
row=$(sqlite3 h.db "SELECT signal, exit_code FROM runs ORDER BY id DESC LIMIT 1")
[ "$row" = "SIGINT|130" ] || die "the interrupted run's row: '$row'"
(F=p; job l $paced --check='read.ios>=history.min' \
	--check='read.ios<history.min+1') ||
	die "run l: exit $?: $(cat l.err)"
"$PY" - h.db <<'PYEOF' || die "the stopped run in the history"
import json, sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
vals = [v for v, in db.execute(
    "SELECT f.value FROM figures f JOIN units u ON u.id = f.unit_id JOIN "
    "runs r ON r.id = u.run_id WHERE f.metric = 'read.ios' AND "
    "u.options_hash = (SELECT options_hash FROM units ORDER BY id DESC "
    "LIMIT 1) ORDER BY r.id")]
assert vals[:2] == [256, 256] and 0 < vals[2] < 256 and vals[3] == 256, vals
c = json.load(open("l.json"))["checks"]
# history.min over m1, m2 alone: 256, not the stopped run's count
assert c[0]["threshold"] == 256 and c[1]["threshold"] == 257, c
assert c[0]["pass"] is True and c[1]["pass"] is True, c
PYEOF

# SIGKILL at random moments, some during the commit
before=$(sqlite3 h.db 'SELECT count(*) FROM runs')
k=0
while [ $k -lt 12 ]; do
	job kill$k --runtime=20ms --time_based & p=$!
	# 25 ms to 300 ms: before, during and after the run and its commit
	sleep "$(printf '0.%03d' $((25 + k * 25)))"
	kill -KILL $p 2>/dev/null
	wait $p 2>/dev/null
	k=$((k + 1))
done
[ "$(sqlite3 h.db 'PRAGMA integrity_check')" = ok ] ||
	die "integrity_check after SIGKILL: $(sqlite3 h.db 'PRAGMA integrity_check')"
after=$(sqlite3 h.db 'SELECT count(*) FROM runs')
[ "$after" -ge "$before" ] || die "rows lost: $before before, $after after"
half=$(sqlite3 h.db "SELECT count(*) FROM runs r WHERE (SELECT count(*)
	FROM units u WHERE u.run_id = r.id) != 1 OR (SELECT count(*) FROM
	figures f JOIN units u ON u.id = f.unit_id WHERE u.run_id = r.id) < 20
	OR (SELECT count(*) FROM histograms h JOIN units u ON u.id = h.unit_id
	WHERE u.run_id = r.id) != 3")
[ "$half" = 0 ] || die "$half runs recorded in part"
# the runs of a..l are all still there, with their JSON
"$PY" - h.db a b c d e f g h i j m1 m2 k l <<'PYEOF' || die "earlier rows after SIGKILL"
import sqlite3, sys
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
stored = [r[0] for r in db.execute("SELECT result_json FROM runs")]
for n in sys.argv[2:]:
    assert stored.count(open(n + ".json").read()) == 1, n
PYEOF
echo "ok: 2 and 8 concurrent writers, SIGINT and $((after - before)) of 12 killed runs recorded whole, integrity ok"
