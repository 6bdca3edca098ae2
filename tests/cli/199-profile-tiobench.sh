#!/bin/sh
# --profile=tiobench: fio's built-in profile. fio 3.33 on the same command
# is the truth of the jobs it makes: the same global and job options in
# fio's JSON, the same groups (stonewall), the same bytes moved and files
# left. The profile's own options (size in MiB, block, numruns, dir,
# threads) are checked by what strace sees (O_DIRECT opens of the four
# files in dir, the reads of block bytes) and the files' sizes; fio 3.33
# ignores them (the man page says so), so they are not compared with it.
# Bad input (an unknown profile, a profile option
# out of range, or one fio cannot read without --profile) exits 2 and
# creates nothing.
# lane: parallel
. "$(dirname "$0")/lib.sh"

# ---- refusals: exit 2, the option named, nothing created ----
mkdir z && cd z || die "no z"
expect_refused "'nope' is not a profile" --profile=nope
# Without --profile, fio reads a profile's option and does nothing with it.
run --dir=/tmp --threads=abc --name=x --size=4k --parse-only
expect_rc 2
expect_in err "option 'threads': .*fio's tiobench profile"
run --dir=/tmp --threads=0 --name=x --size=4k --parse-only
expect_rc 0
expect_refused "option 'threads': .*out of range" --profile=tiobench --threads=0
expect_refused "option 'numruns': .*out of range" --profile=tiobench --numruns=0
expect_refused "option 'size': .*not a number of MiB" --profile=tiobench --size=4m
expect_refused "option 'block': " --profile=tiobench --block=abc
expect_refused "option 'bogus': unknown option" --profile=tiobench --bogus=1
expect_refused "'bogus' is not an option of --profile=tiobench" \
	--profile=tiobench --cmdhelp=bogus
cd .. && expect_dir_empty z

# The same profile twice is one profile (fio keeps the last --profile).
run --profile=tiobench --profile tiobench --parse-only
expect_rc 0
[ "$(grep -c '^\[' out)" -eq 4 ] || die "expected 4 jobs: $(grep '^\[' out)"

# --cmdhelp lists the profile's options, the names fio lists.
run --profile=tiobench --cmdhelp
expect_rc 0
got=$(cut -d' ' -f1 out | tr '\n' ' ')
[ "$got" = "size block numruns dir threads " ] ||
	die "--cmdhelp lists '$got'"
if command -v fio >/dev/null 2>&1; then
	want=$(fio --profile=tiobench --cmdhelp 2>&1 | cut -d' ' -f1 |
	       tr '\n' ' ')
	[ "$got" = "$want" ] || die "fio lists '$want', iorig '$got'"
fi
run --profile=tiobench --cmdhelp=block
expect_rc 0
expect_in out "default: +4096"

have_odirect "$T" || skip "the scratch file system refuses O_DIRECT"

# ---- fio on the same command: the same jobs ----
# filesize= (a job option, before the profile's globals) keeps the files
# small; the profile's size (4 KiB per MiB of memory) caps nothing then.
if command -v fio >/dev/null 2>&1; then
	mkdir f i
	(cd f && fio --profile=tiobench --filesize=64k \
		--output-format=json >../f.json 2>../f.err) ||
		die "fio failed: $(cat f.err)"
	(cd i && "$IORIG" --profile=tiobench --filesize=64k \
		--output-format=fio-json >../i.json 2>../i.err) ||
		die "iorig failed: $(cat i.err)"
	"$PY" - f.json i.json <<'EOF' || die "the jobs differ from fio's"
import json, sys
f, i = (json.load(open(p)) for p in sys.argv[1:3])
bad = []
if f["global options"] != i["global options"]:
    bad.append("global options: fio %s, iorig %s"
               % (f["global options"], i["global options"]))
def jobs(d):
    return [(j["jobname"], j["groupid"], j.get("job options"),
             j["read"]["io_bytes"], j["write"]["io_bytes"])
            for j in d["jobs"]]
if jobs(f) != jobs(i):
    bad.append("jobs: fio %s\n iorig %s" % (jobs(f), jobs(i)))
names = [j[0] for j in jobs(i)]
if names != ["seqwrite", "randwrite", "seqread", "randread"]:
    bad.append("job names %s" % names)
for b in bad:
    print("MISMATCH:", b)
sys.exit(1 if bad else 0)
EOF
	for n in 1 2 3 4; do
		[ "$(fsize f/.fio.tio.$n)" -eq 65536 ] &&
		[ "$(fsize i/.fio.tio.$n)" -eq 65536 ] ||
			die "file .fio.tio.$n: fio $(fsize f/.fio.tio.$n)," \
			    "iorig $(fsize i/.fio.tio.$n) bytes"
	done
	rm -rf f i

	# A job file beside the profile: fio runs both, the file's first.
	printf '[jf]\nrw=write\nsize=64k\nfilename=jf.dat\n' >jf.fio
	mkdir i && (cd i && "$IORIG" --profile=tiobench --filesize=64k \
		--output-format=fio-json ../jf.fio >../i.json 2>../i.err) ||
		die "iorig with a job file failed: $(cat i.err)"
	got=$(jsonf i.json '[(j["jobname"], j["write"]["io_bytes"]) for j in d["jobs"]][:2]')
	[ "$got" = "[('jf', 65536), ('seqwrite', 262144)]" ] ||
		die "with a job file: $got"
	[ "$(fsize i/jf.dat)" -eq 65536 ] || die "jf.dat not written"
	rm -rf i
fi

# ---- the profile's own options, seen by strace ----
command -v strace >/dev/null 2>&1 || skip "needs strace"
mkdir d
# one trace file a thread (-ff): no call is split by another thread's
strace -f -ff -ttt -qq -e trace=openat,pread64,pwrite64 -o tr "$IORIG" \
	--profile tiobench --size=4 --dir "$T/d" --block=8k --numruns=2 \
	--threads 2 --output-format=json >out 2>err || die "iorig failed"
cat tr.* >tr && rm -f tr.*
# size=4 MiB over four files of 1 MiB each
for n in 1 2 3 4; do
	[ "$(fsize d/.fio.tio.$n)" -eq 1048576 ] ||
		die "d/.fio.tio.$n has $(fsize d/.fio.tio.$n) bytes, not 1 MiB"
done
# direct I/O (buffered=0) on the files in dir
grep -q "openat(.*\"$T/d/\.fio\.tio\.1\", .*O_DIRECT" tr ||
	die "no O_DIRECT open of $T/d/.fio.tio.1: $(grep tio tr | head -3)"
# 2 read jobs x 2 threads x 2 runs x 4 MiB / 8 KiB = 4096 reads of 8 KiB
r=$(grep -c ' pread64(.*, 8192, [0-9]*) *= 8192$' tr)
[ "$r" -eq 4096 ] || die "expected 4096 reads of 8192 bytes, got $r"
# the two write jobs: as many writes of 8 KiB
w=$(grep -c ' pwrite64(.*, 8192, [0-9]*) *= 8192$' tr)
[ "$w" -eq 4096 ] || die "expected 4096 writes of 8192 bytes, got $w"
# one group after the other (stonewall): the last write comes before the
# first read
lw=$(grep ' pwrite64(.*, 8192, ' tr | cut -d' ' -f1 | sort -n | tail -1)
fr=$(grep ' pread64(.*, 8192, ' tr | cut -d' ' -f1 | sort -n | head -1)
"$PY" -c "import sys; sys.exit(not $lw < $fr)" ||
	die "a read ($fr) came before the last write ($lw)"
json_is 'len(d["jobs"])' 4
echo "OK"
