#!/bin/sh
# fio's options about its own machinery, with fio's meaning where one can
# be given here. Outside truths: the kernel's view of iorig's threads
# while it runs (/proc/PID/task/TID/comm and Cpus_allowed_list), fio on
# the same job (the CPUs of its job process), and the files.
# comm: each clone's thread is named (15 bytes kept, the kernel's limit).
# gtod_cpu: the CPU is taken out of the job's cpus_allowed, as fio does;
#   no time thread is started (a warning says so).
# filetype (a later fio's): checked against the files, a mismatch refused.
# job_start_clock_id (a later fio's), profile: accepted without effect,
#   each with a warning; fio 3.33 runs a job with profile= as without.
# single_instance, single-instance: engine options of engines iorig has
#   not: refused naming what they need.
# lane: parallel
. "$(dirname "$0")/lib.sh"

ncpu=$(getconf _NPROCESSORS_CONF)

# watch PID NAME N: waits (up to 20 s) until N threads of PID are named
# NAME, then prints the Cpus_allowed_list of each, sorted, one a line.
watch() {
	_i=0
	while [ $_i -lt 400 ]; do
		_t=$(grep -lx "$2" /proc/$1/task/*/comm 2>/dev/null)
		if [ "$(echo "$_t" | grep -c comm)" -ge "$3" ]; then
			for _f in $_t; do
				sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' \
					"${_f%/comm}/status"
			done | sort
			return 0
		fi
		sleep 0.05
		_i=$((_i + 1))
	done
	return 1
}

# comm (and gtod_cpu with cpus_allowed when there are 2 CPUs)
extra=
[ "$ncpu" -ge 2 ] && extra="--cpus_allowed=0-1 --gtod_cpu=1"
# (30 s at 1000 I/Os a second: stopped once seen, a wait, not a busy loop)
"$IORIG" --name=c --ioengine=null --size=1m --time_based --runtime=30s \
	--rate_iops=1k --numjobs=2 --comm=iorig-comm-test-long $extra \
	--output-format=json >out 2>err &
pid=$!
cpus=$(watch $pid iorig-comm-test 2)
found=$?
kill -INT $pid 2>/dev/null
wait $pid
[ $found -eq 0 ] || die "no 2 threads named iorig-comm-test (comm=, 15 bytes kept) while the job ran"
if [ -n "$extra" ]; then
	[ "$(echo $cpus)" = "0 0" ] ||
		die "gtod_cpu=1, cpus_allowed=0-1: the clones may run on '$(echo $cpus)', expected 0 and 0"
	json_is "[j['cpus'] for j in d['jobs']]" "['0', '0']"
	expect_json "'gtod_cpu_no_thread' in [w['code'] for w in d['warnings']]"
	# fio: the job's process is kept off CPU 1 (its time thread's)
	if command -v fio >/dev/null; then
		fio --name=c --ioengine=null --size=1m --time_based \
			--runtime=30s --rate_iops=1k --cpus_allowed=0-1 \
			--gtod_cpu=1 \
			--output=/dev/null >/dev/null 2>&1 &
		fpid=$!
		fcpus=
		i=0
		# (polled: the job process sets its CPUs after it starts)
		while [ "$fcpus" != 0 ] && [ $i -lt 400 ]; do
			sleep 0.05
			for c in $(pgrep -P $fpid); do
				fcpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$c/status)
			done
			i=$((i + 1))
		done
		kill $fpid 2>/dev/null
		wait $fpid
		[ "$fcpus" = 0 ] || die "fio's job process with gtod_cpu=1: CPUs '$fcpus'"
	fi
	# Nothing left to run on: refused, as fio's job fails
	run --name=c --ioengine=null --size=1m --cpus_allowed=1 --gtod_cpu=1
	expect_rc 2
	expect_in err "option 'gtod_cpu'.*leaves cpus_allowed=1 no CPU"
fi
run --name=c --ioengine=null --size=1m --gtod_cpu=$ncpu
expect_rc 2
expect_in err "option 'gtod_cpu': CPU $ncpu does not exist"

# filetype: the files' own type passes, another is refused before anything
mkrand r.dat 65536
run --name=f --filename=r.dat --size=64k --rw=read --filetype=file \
	--output-format=json
expect_rc 0
json_is "d['jobs'][0]['read']['io_bytes']" 65536
for t in block char; do
	run --name=f --filename=r.dat --size=64k --rw=read --filetype=$t
	expect_rc 2
	expect_in err "r.dat: option 'filetype'.*filetype=$t, but this is a regular file"
	expect_empty out
done
run --name=f --filename=new.dat --size=64k --rw=write --filetype=block
expect_rc 2
[ ! -e new.dat ] || die "filetype refused, but new.dat was made"

# job_start_clock_id, profile: warnings, the job runs as without them;
# fio 3.33 runs a profile= job as a plain job too.
cat >p.fio <<'EOS'
[p]
filename=r.dat
size=64k
bs=4k
rw=read
profile=tiobench
job_start_clock_id=1
EOS
run p.fio --output-format=json
expect_rc 0
json_is "sorted(w['code'] for w in d['warnings'])" "['job_start_clock_id_ignored', 'profile_ignored']"
json_is "d['jobs'][0]['read']['io_bytes']" 65536
expect_in err "profile=tiobench has no effect"
if command -v fio >/dev/null; then
	grep -v job_start_clock_id p.fio >pf.fio
	fio pf.fio --output-format=json --output=f.json >/dev/null 2>&1 ||
		die "fio failed on a profile= job"
	[ "$(jsonf f.json "[(j['jobname'], j['read']['io_bytes']) for j in d['jobs']]")" = "[('p', 65536)]" ] ||
		die "fio ran profile=tiobench as: $(jsonf f.json "[(j['jobname'], j['read']['io_bytes']) for j in d['jobs']]")"
fi

# Engine options of engines that need what is not here.
run --name=h --filename=r.dat --size=64k --single_instance=1
expect_rc 2
expect_in err "option 'single_instance'.*libhdfs engine.*needs libhdfs"
run --name=h --filename=r.dat --size=64k --single-instance=1
expect_rc 2
expect_in err "option 'single-instance'.*gfapi.*need libgfapi"
echo ok
