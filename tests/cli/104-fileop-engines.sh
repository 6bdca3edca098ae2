#!/bin/sh
# filecreate, filestat, filedelete (issue 12): each I/O is one create, stat
# or unlink of one file, once a pass, timed. Outside truths: the system
# calls strace counts on the job's own paths (open with O_CREAT, stat
# calls added by more loops, unlink), the files ls sees, and fio's bytes
# and latency samples on the same filecreate job.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "no strace: the witness"
N=40

# calls TRACE REGEX: lines of the strace logs on this job's paths matching
# (strace -ff: a log a thread, TRACE.TID, so that no call is split into
# "unfinished" and "resumed" lines by another thread's).
calls() {
	cat "$1".* | grep -c "$2" || true
}

# ---- filecreate: one open(O_CREAT) a file, the files empty, 0600
mkdir c
strace -ff -qq -e trace=openat,open,creat -o c.trace "$IORIG" --name=t \
	--directory=c --ioengine=filecreate --nrfiles=$N --filesize=4k \
	--output-format=json >out 2>err || die "filecreate: exit $?"
got=$(calls c.trace '"c/t\.0\.[0-9]*", O_RDWR|O_CREAT|O_CLOEXEC, 0600')
[ "$got" -eq $N ] || die "filecreate: $got creating opens of the files, expected $N"
[ "$(ls c | wc -l)" -eq $N ] || die "filecreate: $(ls c | wc -l) files"
[ -z "$(find c -type f ! -empty)" ] || die "filecreate wrote data"
[ -z "$(find c -type f ! -perm 600)" ] || die "filecreate: mode not 0600"
json_is "d['jobs'][0]['read']['ios']" $N
json_is "d['jobs'][0]['read']['io_bytes']" $((N * 4096))
json_is "d['jobs'][0]['read']['clat_ns']['count']" $N
expect_json "d['jobs'][0]['read']['clat_ns']['min'] > 0" "a timed system call"
json_is "d['jobs'][0]['write']['ios']" 0
# Existing files: opened again, not truncated, their data kept.
mkrand c/t.0.0 8192
before=$(cksum <c/t.0.0)
run --name=t --directory=c --ioengine=filecreate --nrfiles=$N \
	--filesize=4k --rw=write --output-format=json
expect_rc 0
[ "$(cksum <c/t.0.0)" = "$before" ] || die "filecreate changed a file"
json_is "d['jobs'][0]['write']['ios']" $N

if command -v fio >/dev/null 2>&1; then
	mkdir fc
	fio --name=t --directory=fc --ioengine=filecreate --nrfiles=$N \
		--filesize=4k --create_on_open=1 --openfiles=1 \
		--output-format=json >fio.json 2>/dev/null || die "fio failed"
	[ "$(jsonf fio.json "d['jobs'][0]['read']['io_bytes']")" = \
	  $((N * 4096)) ] || die "fio's bytes differ: $(cat fio.json)"
	[ "$(jsonf fio.json "d['jobs'][0]['read']['clat_ns']['N']")" = $N ] ||
		die "fio's latency samples differ from one an operation"
fi

# ---- filestat: one stat a file and loop (iorig's own look before the
# run, the files not there yet, finds nothing)
for l in 1 3; do
	mkdir s$l
	strace -ff -qq -e trace=stat,newfstatat,statx -o s$l.trace \
		"$IORIG" --name=t --directory=s$l --ioengine=filestat \
		--nrfiles=$N --filesize=4k --loops=$l --output-format=json \
		>out 2>err || die "filestat loops=$l: exit $?"
	json_is "d['jobs'][0]['read']['ios']" $((N * l))
	json_is "d['jobs'][0]['read']['clat_ns']['count']" $((N * l))
	got=$(calls s$l.trace "\"s$l/t\\.0\\.[0-9]*\", {st_mode=S_IFREG")
	[ "$got" -eq $((N * l)) ] ||
		die "filestat loops=$l: $got stat calls found the files, expected $((N * l))"
	[ "$(ls s$l | wc -l)" -eq $N ] || die "filestat: files missing"
done

# stat_type: lstat (no symlink followed), statx; each once a file.
for st in "lstat AT_SYMLINK_NOFOLLOW) = 0" "statx STATX_ALL, "; do
	k=${st%% *}
	mkdir x$k
	strace -ff -qq -e trace=stat,lstat,newfstatat,statx -o x$k.trace \
		"$IORIG" --name=t --directory=x$k --ioengine=filestat \
		--nrfiles=$N --filesize=4k --stat_type=$k >out 2>err ||
		die "stat_type=$k: exit $?"
	got=$(cat x$k.trace.* | grep "\"x$k/t\.0\.[0-9]*\"" | grep -c "${st#* }" || true)
	[ "$got" -eq $N ] || die "stat_type=$k: $got calls, expected $N"
done

# ---- filedelete: one unlink a file, the files gone (unlinkat on the
# directory held since the start: the name checked again, door.h)
mkdir u
strace -ff -qq -e trace=unlink,unlinkat -o u.trace "$IORIG" --name=t \
	--directory=u --ioengine=filedelete --nrfiles=$N --filesize=4k \
	--output-format=json >out 2>err || die "filedelete: exit $?"
got=$(calls u.trace 'unlink.*"\(u/\)\{0,1\}t\.0\.[0-9]*"')
[ "$got" -eq $N ] || die "filedelete: $got unlinks, expected $N"
[ -z "$(ls u)" ] || die "filedelete left: $(ls u)"
json_is "d['jobs'][0]['read']['ios']" $N
json_is "d['jobs'][0]['read']['clat_ns']['count']" $N
# Only files this run creates: one that exists is refused and kept.
echo keep >u/t.0.1
run --name=t --directory=u --ioengine=filedelete --nrfiles=3 --filesize=4k
expect_rc 2
expect_in err "t.0.1: option 'ioengine'.*exists"
[ "$(cat u/t.0.1)" = keep ] || die "filedelete touched an existing file"
[ ! -e u/t.0.0 ] || die "a refused job made u/t.0.0"
run --name=t --directory=u --ioengine=filedelete --nrfiles=3 --filesize=4k \
	--loops=2 --parse-only
expect_rc 2
expect_in err "option 'loops'.*one pass"
exit 0
