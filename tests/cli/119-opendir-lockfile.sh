#!/bin/sh
# opendir and lockfile (issue 12, opt-a). opendir=DIR: every regular file
# below DIR (recursively, links not followed) is one of the job's files:
# the files strace sees opened, and the bytes read, against fio on the
# same job. lockfile=none runs; exclusive/readwrite are refused (exit 2).
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null 2>&1 || skip "no strace"
mkdir -p d/sub/deeper d/empty
mkrand d/a 65536
mkrand d/sub/b 65536
mkrand "d/sub/deeper/c:d" 65536
ln -s a d/link
ln -s /etc d/etclink

# opened CMD...: the files under d/ that CMD opened, sorted, one line.
opened() {
	strace -f -qq -e trace=openat -o st "$@" >out 2>err || die "$*"
	grep -v O_DIRECTORY st | grep -o '"d/[^"]*"' | tr -d '"' | sort -u |
		tr '\n' ' '
}
want="d/a d/sub/b d/sub/deeper/c:d "
got=$(opened "$IORIG" --name=o --opendir=d --rw=read --bs=4k)
[ "$got" = "$want" ] || die "opendir: opened $got, expected $want"
run --name=o --opendir=d --rw=read --bs=4k --output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['io_bytes']" $((3 * 65536))
if command -v fio >/dev/null 2>&1; then
	got=$(opened fio --name=o --opendir=d --rw=read --bs=4k)
	[ "$got" = "$want" ] || die "fio opened $got (iorig $want)"
fi
# With filename=, both: the named file first.
mkrand x 65536
run --name=o --filename=x --opendir=d --rw=read --bs=4k \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['io_bytes']" $((4 * 65536))
# Nothing there, or no directory: refused before anything runs.
run --name=o --opendir=d/empty --rw=read --bs=4k
expect_rc 2
expect_in err "opendir"
run --name=o --opendir=nonesuch --rw=read --bs=4k
expect_rc 2
expect_in err "opendir.*nonesuch"

# ---- lockfile ----
run --name=l --filename=x --rw=read --bs=4k --lockfile=none
expect_rc 0
for m in exclusive readwrite; do
	run --name=l --filename=x --rw=read --bs=4k --lockfile=$m
	expect_rc 2
	expect_in err "lockfile.*not supported yet"
	expect_empty out
done
echo ok
