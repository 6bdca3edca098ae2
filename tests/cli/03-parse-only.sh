#!/bin/sh
# --parse-only: every job with every option's effective value, exit 0,
# nothing run. Inheritance from [global], --section, variables, kb_base,
# stdin job files and command-line globals.
# lane: parallel
. "$(dirname "$0")/lib.sh"

jobopts=$(table_job_options)
[ -n "$jobopts" ] || die "could not read the option table"

# opt JOB NAME: the value --parse-only printed for option NAME of job JOB.
opt() {
	awk -v job="[$1]" -v name="$2" '
		/^\[/ { cur = $0; next }
		cur == job && index($0, "  " name "=") == 1 {
			print substr($0, length(name) + 4); found = 1; exit
		}
		END { if (!found) print "<missing>" }' "$T/out"
}

# expect_opt JOB NAME VALUE
expect_opt() {
	_v=$(opt "$1" "$2")
	[ "$_v" = "$3" ] || die "[$1] $2: expected '$3', got '$_v'"
}

cat >inherit.job <<'EOF'
; [global] applies to the jobs below it; later wins
[global]
ioengine=null
bs=8k
fsync=4
filename=never-created.dat
size=1m

[a]
rw=write

[global]
bs=16k

[b]
size=2m
bs=32k
bs=64k
rwmixwrite=30

[c]
description=last global has bs=16k
EOF
run --parse-only inherit.job
expect_rc 0
expect_empty err
[ "$(grep -c '^\[' "$T/out")" -eq 3 ] || die "expected three jobs"
[ "$(grep '^\[' "$T/out" | tr -d '\n')" = '[a][b][c]' ] ||
	die "expected the jobs a, b, c in order"
# Every option of the table, once per job, in table order.
for j in a b c; do
	got=$(awk -v job="[$j]" '/^\[/ { cur = $0; next }
		cur == job { sub(/^  /, ""); sub(/=.*/, ""); print }' "$T/out")
	[ "$got" = "$jobopts" ] ||
		die "[$j] does not list exactly the table's options"
done
expect_opt a name a
expect_opt a bs 8192
expect_opt a rw write
expect_opt a fsync 4
expect_opt a size 1048576
expect_opt a ioengine null
expect_opt b bs 65536
expect_opt b size 2097152
expect_opt b fsync 4
expect_opt b rw read
expect_opt b rwmixread 70
expect_opt b rwmixwrite 30
expect_opt c bs 16384
expect_opt c size 1048576
expect_opt c description 'last global has bs=16k'
# Defaults come from the table.
expect_opt a numjobs 1
expect_opt a direct 0
expect_opt a buffered 1
expect_opt a randseed 137
expect_opt a kb_base 1024
[ ! -e never-created.dat ] || die "--parse-only created the job's file"

# --section picks jobs (repeatable); [global] still applies.
run --parse-only --section=b inherit.job
expect_rc 0
[ "$(grep '^\[' "$T/out" | tr -d '\n')" = '[b]' ] || die "expected only [b]"
expect_opt b fsync 4
run --parse-only --section=c --section=a inherit.job
expect_rc 0
[ "$(grep '^\[' "$T/out" | tr -d '\n')" = '[a][c]' ] ||
	die "expected [a] and [c]"

# numjobs clones are one job here.
run --parse-only --name=x --ioengine=null --numjobs=3
expect_rc 0
[ "$(grep -c '^\[' "$T/out")" -eq 1 ] || die "expected one [x]"
expect_opt x numjobs 3

# $ncpus, $pagesize, $mb_memory and arithmetic.
ncpus=$(getconf _NPROCESSORS_ONLN)
pagesize=$(getconf PAGESIZE)
mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
cat >vars.job <<'EOF'
[v]
ioengine=null
iodepth=$ncpus*2
numjobs=($ncpus+1)*2
bs=$pagesize*2
number_ios=$mb_memory
fsync=$pagesize/2
EOF
run --parse-only vars.job
expect_rc 0
expect_opt v iodepth $((ncpus * 2))
expect_opt v numjobs $(((ncpus + 1) * 2))
expect_opt v bs $((pagesize * 2))
expect_opt v fsync $((pagesize / 2))
got=$(opt v number_ios)
# Rounding of MemTotal vs physical pages may differ by a little.
[ "$got" -ge $((mb * 95 / 100)) ] && [ "$got" -le $((mb * 105 / 100 + 1)) ] ||
	die "\$mb_memory: expected about $mb, got $got"
# The same on the command line.
run --parse-only --name=v --ioengine=null '--iodepth=$ncpus*2'
expect_rc 0
expect_opt v iodepth $((ncpus * 2))

# ${ENV}: substituted once, never expanded again.
cat >env.job <<'EOF'
[e]
ioengine=null
size=${IORIG_TEST_SIZE}
description=${IORIG_TEST_DESC}
filename=${IORIG_TEST_SIZE}.dat#x ; a comment
EOF
IORIG_TEST_SIZE=12k IORIG_TEST_DESC='$ncpus cpus' run --parse-only env.job
expect_rc 0
expect_opt e size 12288
expect_opt e description '$ncpus cpus'
expect_opt e filename '12k.dat#x'
IORIG_TEST_SIZE=3m run --parse-only --name=e '--size=${IORIG_TEST_SIZE}'
expect_rc 0
expect_opt e size 3145728

# Sizes (a fraction with a unit is refused: fio misreads it); kb_base=1000 (KiB stays 1024).
run --parse-only --name=s --size=1536k --offset=1k --io_size=1g
expect_rc 0
expect_opt s size 1572864
expect_opt s offset 1024
expect_opt s io_size 1073741824
run --parse-only --kb_base=1000 --name=s --size=1k --offset=1KiB --bs=1k,2KiB \
	--io_size=1500k
expect_rc 0
expect_opt s kb_base 1000
expect_opt s size 1000
expect_opt s offset 1024
expect_opt s bs 1000,2048
expect_opt s io_size 1500000
# kb_base applies to sizes given before it in the section, too.
printf '[k]\nsize=1k\nkb_base=1000\n' >kb.job
run --parse-only kb.job
expect_rc 0
expect_opt k size 1000
# ...and a [global] kb_base to the jobs below.
printf '[global]\nkb_base=1000\n[k]\nsize=2k\n' >kbg.job
run --parse-only kbg.job
expect_rc 0
expect_opt k size 2000

# Times print in their largest exact unit.
run --parse-only --name=t --runtime=1.5 --ramp_time=300ms --startdelay=2m
expect_rc 0
expect_opt t runtime 1500ms
expect_opt t ramp_time 300ms
expect_opt t startdelay 2m

# "-" reads the job file from stdin.
printf '[from-stdin]\nioengine=null\nbs=128k\n' >stdin.job
run --parse-only - <stdin.job
expect_rc 0
expect_empty err
expect_opt from-stdin bs 131072

# Options before the first --name are global; later ones belong to their
# job; command-line globals apply to job files' jobs too.
run --parse-only --bs=8k --rw=write --name=a --name=b --bs=16k --name=c \
	--iodepth=3
expect_rc 0
[ "$(grep '^\[' "$T/out" | tr -d '\n')" = '[a][b][c]' ] ||
	die "expected jobs a, b, c"
expect_opt a bs 8192
expect_opt a rw write
expect_opt a iodepth 1
expect_opt b bs 16384
expect_opt b rw write
expect_opt c bs 8192
expect_opt c iodepth 3
run --parse-only --iodepth=7 stdin.job
expect_rc 0
expect_opt from-stdin iodepth 7
expect_opt from-stdin bs 131072

# include, relative to the including file.
mkdir sub
printf '[global]\nbs=32k\n' >sub/common.inc
printf 'include common.inc\n[i]\nioengine=null\n' >sub/main.job
run --parse-only sub/main.job
expect_rc 0
expect_opt i bs 32768

ls | grep -v -e '\.job$' -e '^out$' -e '^err$' -e '^sub$' && \
	die "--parse-only created files"
exit 0
