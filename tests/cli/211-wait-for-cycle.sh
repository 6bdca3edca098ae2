#!/bin/sh
# wait_for cycles are refused at plan time (exit 2, the file and line of
# the first job of the cycle, the cycle's jobs in order), by --parse-only
# too, before anything is created: a cycle would hang for ever (each job
# waits for another of the cycle to end). fio 3.33 refuses these job
# files too (a waitee must be defined before its waiter, so a cycle
# cannot be written; exit 1). A chain that ends runs, in order.
# lane: parallel
. "$(dirname "$0")/lib.sh"
mkdir d

cat >cyc.fio <<'EOF'
[global]
ioengine=psync
rw=write
bs=4k
size=64k

[a]
filename=d/fa
numjobs=2
wait_for=c

[b]
filename=d/fb
wait_for=a

[c]
filename=d/fc
wait_for=b

[d]
filename=d/fd
wait_for=a
EOF

for mode in --parse-only ""; do
	t0=$(now_ms)
	# shellcheck disable=SC2086
	timeout -k 2 20 "$IORIG" $mode cyc.fio >"$T/out" 2>"$T/err"
	rc=$?
	took=$(($(now_ms) - t0))
	[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] ||
		die "${mode:-run}: still waiting after 20 s (the cycle hangs)"
	expect_rc 2
	[ "$took" -lt 10000 ] || die "${mode:-run}: took $took ms to refuse"
	expect_in err "^iorig: cyc\\.fio:7: option 'wait_for': .*cycle \\(a -> c -> b -> a\\)"
	# nothing was created (the file system's listing)
	expect_dir_empty d
done

# Two jobs that wait for each other, on the command line.
run --name=x --ioengine=null --size=64k --wait_for=y \
	--name=y --ioengine=null --size=64k --wait_for=x
expect_rc 2
expect_in err "option 'wait_for': .*cycle \\(x -> y -> x\\)"

# fio refuses the same file (a waitee named before it is defined).
if command -v fio >/dev/null 2>&1; then
	timeout -k 2 20 fio cyc.fio >/dev/null 2>"$T/ferr"
	frc=$?
	[ "$frc" -ne 0 ] && [ "$frc" -ne 124 ] ||
		die "fio accepted the cycle (exit $frc)"
	expect_dir_empty d
fi

# A chain without a cycle runs each job after the one it waits for.
cat >chain.fio <<'EOF'
[global]
ioengine=psync
rw=write
bs=4k
size=64k

[a]
filename=d/fa

[b]
filename=d/fb
wait_for=a

[c]
filename=d/fc
numjobs=2
wait_for=b
EOF
run chain.fio --output-format=json
expect_rc 0
json_is "[j['ran'] for j in d['jobs']]" "[True, True, True, True]"
for f in fa fb fc; do
	[ "$(fsize d/$f)" -eq 65536 ] || die "$f: $(fsize d/$f) bytes"
done
exit 0
