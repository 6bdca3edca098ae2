#!/bin/sh
# exec_prerun= and exec_postrun= with fio's meaning: a shell command run
# for each clone, prerun after the job's files are laid out and before its
# I/O, postrun after its I/O; the output of each in JOBNAME.prerun.txt /
# JOBNAME.postrun.txt. A failing prerun: the clone does no I/O and its
# postrun is not run (fio the same; iorig also fails the job, exit 1). A
# failing postrun changes nothing but a warning. Nothing runs for
# --parse-only or when the job file has an error elsewhere. The outside
# truths: the target's size and checksum as the commands saw them, the
# files the commands made, and fio on the same job.
# lane: parallel
. "$(dirname "$0")/lib.sh"

MiB=1048576
# pre/post record the target's size and checksum as they see it.
cat >job.fio <<'EOS'
[w]
filename=t.dat
size=1m
bs=64k
rw=write
exec_prerun=stat -c %s t.dat; md5sum <t.dat; echo pre >>count
exec_postrun=stat -c %s t.dat; md5sum <t.dat
EOS
run job.fio --output-format=json
expect_rc 0
[ -f w.prerun.txt ] && [ -f w.postrun.txt ] || die "no w.prerun.txt / w.postrun.txt"
# Laid out before the prerun (fio's order: its file is already 1 MiB)...
[ "$(sed -n 1p w.prerun.txt)" = $MiB ] || die "prerun did not see the laid-out file: $(cat w.prerun.txt)"
# ...and run before the writes: the data it saw is not the data written,
# which the postrun saw.
final=$(md5sum <t.dat)
[ "$(sed -n 2p w.prerun.txt)" != "$final" ] || die "prerun ran after the writes"
[ "$(sed -n 2p w.postrun.txt)" = "$final" ] || die "postrun did not see the written file"
[ "$(wc -l <count)" -eq 1 ] || die "prerun ran $(wc -l <count) times"
json_is "d['jobs'][0]['error']" None

# Each clone runs it (fio's numjobs the same).
rm -f count t.dat
run job.fio --numjobs=2 --output-format=json
expect_rc 0
[ "$(wc -l <count)" -eq 2 ] || die "2 clones: prerun ran $(wc -l <count) times"

# fio on the same job: the same size seen, the same number of runs. (fio
# appends "> NAME.prerun.txt 2>&1" to the command's text, which redirects
# only its last simple command: one command here, as both read it; and
# fio's job files end a value at any ';' or '#', hence the &&.)
if command -v fio >/dev/null; then
	cat >f.fio <<'EOS'
[w]
filename=t.dat
size=1m
bs=64k
rw=write
numjobs=2
exec_prerun=sh -c 'stat -c %s t.dat && echo pre >>count'
EOS
	rm -f count t.dat
	run f.fio
	expect_rc 0
	mkdir f && (cd f && fio ../f.fio --output=fio.out >/dev/null 2>&1) ||
		die "fio failed on the job"
	[ "$(cat f/w.prerun.txt)" = "$(cat w.prerun.txt)" ] ||
		die "fio's prerun saw $(cat f/w.prerun.txt) bytes, iorig's $(cat w.prerun.txt)"
	[ "$(wc -l <f/count)" -eq 2 ] && [ "$(wc -l <count)" -eq 2 ] ||
		die "fio ran the prerun $(wc -l <f/count) times, iorig $(wc -l <count)"
fi

# A failing prerun: no I/O (the existing file's data unchanged), no
# postrun, the job failed with the command's status.
mkrand t.dat $MiB
before=$(md5sum <t.dat)
rm -f w.postrun.txt
run --name=w --filename=t.dat --size=1m --bs=64k --rw=write \
	--exec_prerun='echo said; exit 3' --exec_postrun='echo post'
expect_rc 1
expect_in err "exec_prerun 'echo said; exit 3' exited with status 3"
[ "$(md5sum <t.dat)" = "$before" ] || die "the job wrote after its prerun failed"
[ ! -e w.postrun.txt ] || die "postrun ran after a failed prerun"
[ "$(cat w.prerun.txt)" = said ] || die "the prerun's output is not in w.prerun.txt"

# A failing postrun: a warning, the figures stand.
run --name=w --filename=t.dat --size=1m --bs=64k --rw=read \
	--exec_postrun='exit 5' --output-format=json
expect_rc 0
expect_json "[w['code'] for w in d['warnings']] == ['exec_postrun_failed']"
json_is "d['jobs'][0]['read']['io_bytes']" $MiB

# Nothing runs for --parse-only, nor when another section has an error.
rm -f marker
run --name=w --filename=t.dat --size=1m --rw=read \
	--exec_prerun='touch marker' --parse-only
expect_rc 0
cat >bad.fio <<'EOS'
[a]
filename=t.dat
size=1m
rw=read
exec_prerun=touch marker
[b]
filename=t.dat
size=1m
rw=bogus
EOS
run bad.fio
expect_rc 2
# nor when a later job's target is refused at plan time
cat >bad2.fio <<'EOS'
[a]
filename=t.dat
size=1m
rw=read
exec_prerun=touch marker
[b]
stonewall
filename=no/such/dir/x
size=1m
rw=write
EOS
run bad2.fio
expect_rc 2
expect_in err "no/such/dir"
[ ! -e marker ] || die "a prerun ran for --parse-only or a job file with an error"
# The output file is named after the job: a name into a missing
# directory is refused at plan time, before any layout.
run --name=no/such --filename=n.dat --size=1m --rw=write --exec_prerun='touch marker'
expect_rc 2
expect_in err "option 'exec_prerun': its output file no/such.prerun.txt .*directory 'no' does not exist"
[ ! -e marker ] && [ ! -e n.dat ] || die "ran, or laid out, a job whose prerun output cannot be made"
rm -f count

# The shell starts with the signals a program expects: iorig ignores
# SIGPIPE and SIGXFSZ, and a shell that inherited that made `yes | head`
# say "Broken pipe". The kernel's SigIgn/SigBlk masks of a process the
# shell starts: SIGPIPE (13) and SIGXFSZ (25), bits 12 and 24, not
# ignored; nothing blocked.
run --name=sig --ioengine=null --size=64k \
	--exec_prerun='yes | head -1; grep -E "^Sig(Ign|Blk)" /proc/self/status'
expect_rc 0
grep -q "Broken pipe" sig.prerun.txt && die "prerun: $(cat sig.prerun.txt)"
ign=$(awk '/^SigIgn/ {print $2}' sig.prerun.txt)
blk=$(awk '/^SigBlk/ {print $2}' sig.prerun.txt)
[ -n "$ign" ] || die "no SigIgn in sig.prerun.txt: $(cat sig.prerun.txt)"
[ $((0x$ign & 0x1001000)) -eq 0 ] ||
	die "prerun's programs ignore SIGPIPE or SIGXFSZ: SigIgn $ign"
[ $((0x$blk)) -eq 0 ] || die "prerun's programs start with SigBlk $blk"
# The exec engine's program likewise (it starts from a worker thread).
printf '#!/bin/sh\ngrep -E "^Sig(Ign|Blk)" /proc/self/status >"$1"\n' >sig.sh
chmod +x sig.sh
run --name=ex --ioengine=exec --program="$T/sig.sh" --arguments="$T/ex.sig" \
	--runtime=0.3 --std_redirect=0
expect_rc 0
ign=$(awk '/^SigIgn/ {print $2}' ex.sig)
blk=$(awk '/^SigBlk/ {print $2}' ex.sig)
[ -n "$ign" ] || die "the exec engine's program wrote no SigIgn"
[ $((0x$ign & 0x1001000)) -eq 0 ] ||
	die "the exec engine's program ignores SIGPIPE or SIGXFSZ: SigIgn $ign"
[ $((0x$blk)) -eq 0 ] || die "the exec engine's program starts with SigBlk $blk"
echo ok
