#!/bin/sh
# A file iorig writes is never reached through a symlink that sits in a
# sticky directory all may write (/tmp) and that neither the caller nor
# the directory's owner owns (issue 21): the kernel's fs.protected_symlinks
# rule, which the door applies whether the machine has it on or not.
# Another user's link there could point a root run's log, stream, state
# or output at any file. As root, a link owned by nobody in a 1777
# directory, pointing at a file of root's: --stream, a shared log
# (per_job_logs=0, appended), merge --output, the exec engine's output,
# the verify state and --output are refused (exit 2) and the file keeps
# its sha256; through a link of the caller's own, or in a directory that
# is not shared, the same run writes. Before the door the in-place and
# appending ones wrote through the link.
# lane: parallel
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root (a link owned by another user)"
mkrand victim 65536
sum=$(sha256sum <victim)
mkdir shared && chmod 1777 shared
# evil NAME: shared/NAME, a symlink to ../victim owned by nobody
evil() {
	ln -s ../victim "shared/$1" && chown -h 65534:65534 "shared/$1" ||
		skip "cannot make a symlink owned by nobody"
}
# refused ARGS...: exit 2 naming the link, victim as it was
refused() {
	run "$@"
	expect_rc 2
	expect_in err "through the symlink '[^']*shared/[^']*'"
	[ "$(sha256sum <"$T/victim")" = "$sum" ] ||
		die "$*: the file behind the link changed"
}
mkrand data 1048576
J="--name=j --filename=$T/data --rw=read --bs=4k --size=1m"

evil stream
refused $J --interval=100ms --stream=shared/stream
evil lg_bw.log
refused $J --write_bw_log=shared/lg --per_job_logs=0
evil out
refused $J --output=shared/out
run --name=n --ioengine=null --size=1m --output-format=json -o r.json
expect_rc 0
evil merged
refused merge --output=shared/merged r.json
evil e.stdout
refused --name=shared/e --ioengine=exec --program=true --runtime=100ms
# a directory link in the path counts as much as the last part
mkdir realdir
ln -s ../realdir shared/dir && chown -h 65534:65534 shared/dir
refused $J --write_io_trace=shared/dir/trace
[ ! -e realdir/trace ] || die "the trace went through the directory link"
# the verify state, named after the job in the current directory
evil v.0.verify-state
cd shared || exit 1
refused --name=v --filename="$T/vdata" --rw=write --bs=4k --size=256k \
	--verify=crc32c
cd "$T" || exit 1

# The caller's own link there, or another user's link in a directory
# that is not shared, is followed (a shared log is appended through it).
ln -s ../mine.txt shared/own_bw.log
run $J --write_bw_log=shared/own --per_job_logs=0
expect_rc 0
[ -s mine.txt ] || die "the log did not go through the caller's own link"
mkdir private && ln -s ../other.txt private/l_bw.log &&
	chown -h 65534:65534 private/l_bw.log
run $J --write_bw_log=private/l --per_job_logs=0
expect_rc 0
[ -s other.txt ] || die "a link in a private directory was not followed"
[ "$(sha256sum <victim)" = "$sum" ] || die "the victim changed"
echo "ok: no file written through another user's link in a shared directory"
