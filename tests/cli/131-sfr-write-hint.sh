#!/bin/sh
# sync_file_range= and write_hint=, checked from outside: the system calls
# (strace) are fio's own on the same job, call for call, the report's sync
# count is the number of calls, and the file's lifetime hint is what the
# kernel then gives back (fcntl F_GET_RW_HINT).
# lane: parallel
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null || skip "no strace"

# calls TOOL FILE OPTS...: the sync_file_range calls of TOOL's run, as
# "OFFSET LEN FLAGS" lines.
calls() {
	_tool=$1 _out=$2
	shift 2
	rm -f sfr.dat
	strace -f -qq -e trace=sync_file_range -o "$T/st" "$_tool" \
		--name=s --filename=sfr.dat --size=256k --bs=4k --rw=write "$@" \
		>"$T/out" 2>&1 || die "$_tool failed: $(cat "$T/out")"
	sed -n 's/.*sync_file_range([0-9]*, \([0-9]*\), \([0-9]*\), \([A-Z_|]*\)) *= 0.*/\1 \2 \3/p' \
		"$T/st" >"$_out"
}

for spec in write:4 wait_before,write,wait_after:3 write; do
	calls "$IORIG" "$T/i.calls" --sync_file_range=$spec --output-format=json
	n=$(wc -l <"$T/i.calls")
	[ "$n" -gt 0 ] || die "$spec: no sync_file_range call"
	json_is "d['jobs'][0]['sync']['ios']" "$n"
	if command -v fio >/dev/null; then
		calls fio "$T/f.calls" --sync_file_range=$spec
		cmp -s "$T/i.calls" "$T/f.calls" ||
			die "$spec: calls differ from fio's: $(diff "$T/i.calls" "$T/f.calls" | head)"
	fi
done
# write:4 over 64 writes of 4k: 15 calls of 16k each, back to back (none
# after the last write, as fio).
calls "$IORIG" "$T/i.calls" --sync_file_range=write:4
[ "$(wc -l <"$T/i.calls")" -eq 15 ] || die "write:4: $(wc -l <"$T/i.calls") calls"
awk '$1 != (NR - 1) * 16384 || $2 != 16384 || $3 != "SYNC_FILE_RANGE_WRITE" { exit 1 }' \
	"$T/i.calls" || die "write:4: $(cat "$T/i.calls")"

run --name=s --filename=x.dat --size=64k --sync_file_range=write:0
expect_rc 2
run --name=s --filename=x.dat --size=64k --sync_file_range=flush
expect_rc 2
expect_in err "option 'sync_file_range': expected FLAGS"

# write_hint: the kernel keeps the hint on the file's inode.
hint() {
	"$PY" -c 'import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
print(struct.unpack("Q", fcntl.fcntl(fd, 1035, bytes(8)))[0])' "$1"
}
head -c 65536 /dev/zero >h.dat
[ "$(hint h.dat)" = 0 ] || skip "a new file already has a write hint"
for w in short:2 extreme:5 none:1; do
	run --name=h --filename=h.dat --size=64k --rw=write --write_hint=${w%:*}
	expect_rc 0
	[ "$(hint h.dat)" = "${w#*:}" ] ||
		die "write_hint=${w%:*}: the kernel has $(hint h.dat), not ${w#*:}"
done
run --name=h --filename=h.dat --size=64k --write_hint=hot
expect_rc 2
expect_in err "option 'write_hint': expected none, short"
