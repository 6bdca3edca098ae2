#!/bin/sh
# Jobs that would make a verifying job's checks fail are refused before
# anything runs, and another process using the region is found out:
# - two clones (numjobs=2) or two jobs of one stonewall group where one
#   writes bytes of a file that the other writes and verifies (or checks
#   with verify_only) -> exit 2 at plan time, naming both jobs, the file
#   and the bytes; nothing is created, --output neither. The same file
#   under two names (./f, a symlink, dir/../f, one not created yet) too;
# - jobs on disjoint bytes, in different stonewall groups, clones with
#   their own files, two verify_only jobs: run;
# - verify jobs take OFD byte-range locks on their region (write lock;
#   read lock for verify_only): a region another process holds a
#   conflicting lock on fails the job with a message naming the path and
#   the holder, exit 1, and not a byte of the file changes; a lock on other
#   bytes, or a read lock against verify_only, does not stop it;
# - two iorig processes at once: the second fails.
# lane: parallel
. "$(dirname "$0")/lib.sh"

V="--bs=4k --verify=xxh3"
mkdir od

# refused WHAT ARGS...: exit 2 at plan time, nothing created.
refused() {
	_what=$1
	shift
	run "$@" --output=od/o.json
	expect_rc 2
	expect_dir_empty od
	expect_in err "option 'verify': .*$_what"
	expect_in err "stonewall=1"
}

# numjobs=2 on one file: each clone overwrites the other's blocks.
refused "job 'v' clone 1 writes bytes 0-1048575 of f\\.dat while job 'v' clone 0 writes and verifies them" \
	--name=v --filename=f.dat --size=1m --rw=randwrite $V --numjobs=2
[ ! -e f.dat ] || die "f.dat was created"
run --name=v --filename=f.dat --size=1m --rw=randwrite $V --numjobs=2
expect_rc 2
expect_empty out

# Two jobs, half of their regions shared; a plain writer is enough.
refused "job 'b' writes bytes 524288-1048575 of f\\.dat while job 'a' writes and verifies them" \
	--name=a --filename=f.dat --size=1m --rw=write $V \
	--name=b --filename=f.dat --offset=512k --size=1m --rw=randwrite --bs=4k
# A verify_only job checking bytes that a job writes at the same time.
mkrand f.dat 2097152
sum0=$(cksum <f.dat)
refused "job 'w' writes bytes 0-1048575 of f\\.dat while job 'c' checks them" \
	--name=c --filename=f.dat --size=1m $V --verify_only=1 \
	--name=w --filename=f.dat --size=1m --rw=write --bs=64k
# The same file under other names; the file of one job does not exist yet.
ln -s f.dat link.dat
mkdir d
refused "of \\./f\\.dat while job 'a' writes and verifies" \
	--name=a --filename=link.dat --size=1m --rw=write $V \
	--name=b --filename=./f.dat --size=1m --rw=randwrite --bs=4k
refused "of $T/f\\.dat while job 'a' writes and verifies" \
	--name=a --filename=f.dat --size=1m --rw=write $V \
	--name=b --filename="$T/f.dat" --size=1m --rw=randwrite --bs=4k
refused "new\\.dat while job 'a' writes and verifies" \
	--name=a --filename=new.dat --size=1m --rw=write $V \
	--name=b --filename=d/../new.dat --size=1m --rw=randwrite --bs=4k
[ ! -e new.dat ] || die "new.dat was created"
# Two files of one job that are one file.
refused "job 'a' \\(its file 1\\) writes bytes 0-524287 of link\\.dat while job 'a' \\(its file 0\\)" \
	--name=a --filename=f.dat:link.dat --size=1m --rw=write $V
[ "$(cksum <f.dat)" = "$sum0" ] || die "a refused run changed f.dat"

# What may run together runs.
run --name=a --filename=f.dat --size=1m --rw=write $V \
	--name=b --filename=f.dat --offset=1m --size=1m --rw=randwrite $V \
	--numjobs=1 --output-format=json
expect_rc 0
json_is "[j['verify']['mismatches'] for j in d['jobs']]" "[0, 0]"
run --name=a --filename=f.dat --size=1m --rw=write $V \
	--name=b --stonewall --filename=f.dat --size=1m --rw=randwrite $V
expect_rc 0
run --name=v --size=256k --rw=randwrite $V --numjobs=2
expect_rc 0
run --name=c --filename=f.dat --size=1m $V --verify_only=1 \
	--name=d --filename=f.dat --size=1m $V --verify_only=1 \
	--name=r --filename=f.dat --size=1m --rw=randread --bs=4k
expect_rc 0
rm -f v.*

# hold SPEC...: a process that holds POSIX locks (which conflict with OFD
# locks) on f.dat, "ex:START:LEN" or "sh:START:LEN", until hold.stop
# exists (or the test is gone); its pid is in $holder once it holds them.
hold() {
	rm -f hold.ok hold.stop
	"$PY" - f.dat "$@" <<'EOF' &
import fcntl, os, sys, time
parent = os.getppid()
fd = os.open(sys.argv[1], os.O_RDWR)
for spec in sys.argv[2:]:
    kind, start, length = spec.split(":")
    fcntl.lockf(fd, fcntl.LOCK_EX if kind == "ex" else fcntl.LOCK_SH,
                int(length), int(start))
open("hold.ok", "w").close()
end = time.monotonic() + 60
while (not os.path.exists("hold.stop") and os.getppid() == parent and
       time.monotonic() < end):
    time.sleep(0.02)
EOF
	holder=$!
	_n=250
	while [ ! -e hold.ok ]; do
		kill -0 "$holder" 2>/dev/null || die "the lock holder died"
		_n=$((_n - 1))
		[ "$_n" -gt 0 ] || die "the lock holder did not start"
		sleep 0.02
	done
}

unhold() {
	touch hold.stop
	wait "$holder"
}

# A write lock on 4 KiB inside the region: the job fails, f.dat unchanged.
sum1=$(cksum <f.dat)
hold ex:8192:4096
run --name=v --filename=f.dat --size=1m --rw=randwrite $V \
	--output-format=json
expect_rc 1
expect_in err "job 'v': another process \\(pid $holder\\) holds a lock on bytes of f\\.dat that this job writes and verifies \\(0-1048575\\)"
json_is "d['jobs'][0]['error']['errno']" 11
[ "$(cksum <f.dat)" = "$sum1" ] || die "the refused job wrote to f.dat"
# verify_only is refused by a writer's lock too...
run --name=v --filename=f.dat --size=1m $V --verify_only=1
expect_rc 1
expect_in err "job 'v': another process \\(pid $holder\\) holds a lock on bytes of f\\.dat that this job checks \\(0-1048575\\): .* is writing them"
# ...and a job on other bytes is not.
run --name=v --filename=f.dat --offset=1m --size=1m --rw=randwrite $V
expect_rc 0
unhold

# A read lock (another checker) stops a writer, not a checker.
hold sh:0:1048576
run --name=v --filename=f.dat --size=1m --rw=write $V
expect_rc 1
expect_in err "holds a lock on bytes of f\\.dat .* is checking them"
run --name=v --filename=f.dat --size=1m $V --verify_only=1
expect_rc 0
unhold

# Two iorig processes: the second one fails while the first runs (and is
# stopped whatever happens).
trap 'kill -INT "$first" 2>/dev/null; cd /; rm -rf "$T"' EXIT
"$IORIG" --name=first --filename=f.dat --size=1m --rw=randwrite $V \
	--time_based --runtime=60 >first.out 2>first.err &
first=$!
"$PY" - f.dat <<'EOF' || { kill "$first"; wait "$first"; die "the first iorig took no lock (rc $?): $(cat first.err)"; }
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR)
end = time.monotonic() + 20
while time.monotonic() < end:
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 4096, 0)
        fcntl.lockf(fd, fcntl.LOCK_UN, 4096, 0)
    except OSError:
        sys.exit(0)
    time.sleep(0.02)
sys.exit(1)
EOF
run --name=second --filename=f.dat --size=1m --rw=randwrite $V
rc2=$rc
kill -INT "$first"
wait_gone "$first" 20
trap 'cd /; rm -rf "$T"' EXIT
[ "$rc" -eq 130 ] || die "the first iorig exited $rc, not 130"
rc=$rc2
expect_rc 1
expect_in err "job 'second': another process holds a lock on bytes of f\\.dat that this job writes and verifies \\(0-1048575\\): another iorig run, or another program, is writing them"
run --name=second --filename=f.dat --offset=512k --size=512k \
	--rw=randwrite $V
expect_rc 0
exit 0
