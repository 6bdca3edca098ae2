#!/bin/sh
# Signals that used to kill a run with no report (issue 9):
# - SIGHUP (a dropped ssh session) stops the run like SIGTERM: a report
#   that says so, exit 128 + 1;
# - a closed reader of standard output is a write error of the report
#   (EPIPE, exit 1, the cause named), not a silent SIGPIPE death;
# - a closed reader of --stream is a stream error: the run goes on to its
#   report, and exits 1 naming the stream;
# - a file size limit (ulimit -f) is an I/O error of the job (EFBIG), not
#   SIGXFSZ: a report, exit 1;
# - a signal that arrives while the report is being written changes
#   neither the report nor the exit code: both say "not interrupted".
# Paced: a signal or a check after a sleep, CPU under half its time
# alone (plain and under the sanitizers); held beside 86, 244 and the
# others moved with it, three times plain and twice sanitized.
# lane: paced
. "$(dirname "$0")/lib.sh"

mkrand data 1048576
JOB="--name=r --filename=data --size=1m --rw=read"

# SIGHUP.
"$IORIG" $JOB --runtime=20 --time_based --output-format=json >"$T/out" \
	2>"$T/err" &
pid=$!
sleep 0.5
kill -HUP "$pid"
wait_gone "$pid" 10
expect_rc 129
[ "$(json 'd["interrupted"]')" = True ] || die "report not interrupted"
[ "$(json 'd["signal"]')" = SIGHUP ] || die "signal is $(json 'd["signal"]')"

# Standard output's reader gone before the report.
{ "$IORIG" $JOB --runtime=0.3 --time_based 2>"$T/err"; echo $? >"$T/rc"; } |
	true
rc=$(cat "$T/rc")
expect_rc 1
expect_in err "writing the report to standard output: Broken pipe"

# The stream's reader reads one line and goes.
mkfifo s.fifo
head -n 1 s.fifo >/dev/null &
run $JOB --runtime=1 --time_based --interval=10ms --stream=s.fifo \
	--output-format=json
expect_rc 1
expect_in err "writing the stream s.fifo: Broken pipe"
[ "$(json 'd["jobs"][0]["read"]["ios"] > 0')" = True ] ||
	die "no report after the stream broke"

# A file size limit: writing past it is EFBIG, an error of the job.
(
	ulimit -f 1024	# 512 KiB
	"$IORIG" --name=w --filename=big --size=1m --rw=write --bs=64k \
		--output-format=json >"$T/out" 2>"$T/err"
	echo $? >"$T/rc"
)
rc=$(cat "$T/rc")
expect_rc 1
expect_in err "File too large"
json 'd["jobs"][0]["name"]' >/dev/null || die "no report with EFBIG"

# A signal while the report is written: the report is held in a FIFO
# whose buffer is one page, the signal sent, then the report read.
rm -f r.fifo
mkfifo r.fifo
"$IORIG" $JOB --output-format=json -o r.fifo 2>"$T/err" &
pid=$!
"$PY" - "$pid" r.fifo "$T/out" <<'PYEOF' || die "the FIFO reader failed"
import fcntl, os, signal, sys, time
pid, fifo, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
fd = os.open(fifo, os.O_RDONLY)
F_SETPIPE_SZ = 1031
fcntl.fcntl(fd, F_SETPIPE_SZ, 4096)
# Wait until the writer is blocked on a full pipe (its report is larger).
for _ in range(200):
    with open("/proc/%d/wchan" % pid) as w:
        if "pipe" in w.read():
            break
    time.sleep(0.05)
else:
    sys.exit("the report never filled the pipe")
os.kill(pid, signal.SIGINT)
time.sleep(0.2)
data = b""
while True:
    b = os.read(fd, 65536)
    if not b:
        break
    data += b
open(out, "wb").write(data)
PYEOF
wait "$pid"
rc=$?
[ "$(json 'd["interrupted"]')" = False ] || die "report says interrupted"
expect_rc 0
exit 0
