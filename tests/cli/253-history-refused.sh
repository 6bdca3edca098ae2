#!/bin/sh
# --history refuses what is not an iorig history, before anything runs
# (exit 2, the job's file never made) and leaves it untouched (sha256
# before and after, no -wal/-shm beside it): random bytes, a text file,
# random bytes behind SQLite's own header, another program's SQLite
# database (made by the sqlite3 CLI), an iorig history of a newer schema
# version, a damaged one (a page of the history overwritten); a name the
# door refuses (a job's target, /dev/null, a directory, as root another
# user's symlink in a sticky directory), and --readonly
# (a missing file is not made; an existing one is read, not written).
# `iorig history` refuses the same files the same way.
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v sqlite3 >/dev/null 2>&1 ||
	skip "needs the sqlite3 CLI (Debian package sqlite3; make deps installs it)"

job() {
	run --name=rj --filename="$T/target" --size=1m --rw=read \
		--ioengine=psync "$@"
}

# refused FILE REGEX: a run recording into FILE exits 2 saying REGEX,
# the target is never made, FILE keeps its bytes and gets no journals.
refused() {
	_sum=$(sha256sum "$1")
	rm -f "$T/target"
	job --history="$1"
	expect_rc 2
	expect_in err "$2"
	[ ! -e "$T/target" ] || die "$1: the job ran (its file was made)"
	[ "$(sha256sum "$1")" = "$_sum" ] || die "$1 was changed"
	[ ! -e "$1-wal" ] && [ ! -e "$1-journal" ] ||
		die "$1: a journal was made beside it"
	run history list "$1"
	expect_rc 2
	expect_in err "$2"
	[ "$(sha256sum "$1")" = "$_sum" ] || die "$1 was changed by iorig history"
}

mkrand rand.db 65536
refused "$T/rand.db" 'is not a database of this kind'
printf 'job,iops\nseq,1000\n' >text.db
refused "$T/text.db" 'is not a database of this kind'
{ printf 'SQLite format 3\000'; head -c 65520 /dev/urandom; } >fake.db
refused "$T/fake.db" 'not a database SQLite can read|is damaged'
sqlite3 other.db 'CREATE TABLE t (a, b); INSERT INTO t VALUES (1, 2);'
refused "$T/other.db" 'another kind \(application_id 0x0'
sqlite3 app.db 'PRAGMA application_id=42; CREATE TABLE runs (id);'
refused "$T/app.db" 'another kind \(application_id 0x2a'

# a real history, then one of a newer schema and a damaged one
job --history="$T/good.db"
expect_rc 0
job --history="$T/good.db"
expect_rc 0
sqlite3 good.db 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
[ "$(sqlite3 good.db 'SELECT count(*) FROM runs')" = 2 ] || die "2 runs"
cp good.db newer.db
sqlite3 newer.db 'PRAGMA user_version=7; PRAGMA journal_mode=DELETE' >/dev/null
refused "$T/newer.db" 'schema version 7, written by a newer iorig'
cp good.db bad.db
size=$(fsize bad.db)
pages=$((size / 4096))
[ "$pages" -ge 4 ] || die "good.db has $pages pages"
# the last pages (rows of the tables) overwritten with random bytes
dd if=/dev/urandom of=bad.db bs=4096 seek=$((pages - 2)) count=2 \
	conv=notrunc status=none
sqlite3 bad.db 'PRAGMA journal_mode' >/dev/null 2>&1
rm -f bad.db-wal bad.db-shm
refused "$T/bad.db" 'is damaged \(PRAGMA quick_check|not a database SQLite can read'

# names the door refuses
expect_refused 'is a file one of the jobs reads or writes' \
	--name=rj --filename="$T/t2" --size=1m --rw=read --history="$T/t2"
[ ! -e t2 ] || die "the target was made"
expect_refused 'not a regular file|no regular file in /dev' \
	--name=rj --filename="$T/t3" --size=1m --rw=read --history=/dev/null
mkdir d.db
expect_refused 'not a regular file' \
	--name=rj --filename="$T/t3" --size=1m --rw=read --history="$T/d.db"
expect_refused 'also where --output' \
	--name=rj --filename="$T/t3" --size=1m --rw=read --history="$T/o.db" \
	--output="$T/o.db"
[ ! -e t3 ] || die "a refused run made its target"

# another user's symlink in a sticky directory (as root: one owned by
# nobody in a 1777 directory, to a real history): refused, untouched
if [ "$(id -u)" -eq 0 ]; then
	mkdir shared && chmod 1777 shared
	ln -s ../good.db shared/h.db && chown -h 65534:65534 shared/h.db ||
		die "cannot make a symlink owned by nobody"
	sum=$(sha256sum <good.db)
	expect_refused "through the symlink '[^']*shared/h.db'" \
		--name=rj --filename="$T/t4" --size=1m --rw=read \
		--history="$T/shared/h.db"
	[ "$(sha256sum <good.db)" = "$sum" ] || die "the linked history changed"
	[ ! -e t4 ] || die "a refused run made its target"
	symlink=", another user's symlink in a sticky directory"
else
	symlink=" (not root: no symlink of another user)"
fi

# --readonly: a missing history is not made; an existing one is read
mkrand target 1048576
job --readonly --history="$T/none.db"
expect_rc 2
expect_in err 'No such file.*read here, not made'
[ ! -e none.db ] || die "--readonly made a history"
sum=$(sha256sum good.db)
job --readonly --history="$T/good.db" --check='read.ios>=history.min'
expect_rc 0
expect_in err 'not recorded \(--readonly'
expect_in out 'PASS .*history of 2 runs'
[ "$(sha256sum good.db)" = "$sum" ] || die "--readonly changed the history"
[ "$(sqlite3 good.db 'SELECT count(*) FROM runs')" = 2 ] ||
	die "--readonly recorded a run"
echo "ok: foreign, damaged and newer files$symlink refused untouched, nothing run"
