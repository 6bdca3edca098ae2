#!/bin/sh
# error_dump=1: each I/O error the job goes on after (continue_on_error)
# is printed with its file, errno, direction, offset and length, in the
# order fio 3.33 prints them on the same job (tests/faultfs: reads at
# 64 KiB and 128 KiB fail with EIO); error_dump=0, the default as in fio
# 3.33, prints none of them. Also: block_error_percentiles and
# log_compression_cpus are accepted with a warning that says why nothing
# changes; log_issue_time is refused as fio 3.33 refuses it.
# lane: parallel
. "$(dirname "$0")/lib.sh"

faultfs_mount "$T/r" --size=1m --eio=65536,131072
faultfs_mount "$T/w" --size=1m --weio=32768

# "F: ERR: DIR offset=N, buflen=N" of each printed error, in order
errs() {
	sed -n 's/.* error on file \(.*\)$/\1/p' "$1"
}

for e in sync io_uring; do
	run --name=r --filename=r/data --bs=4k --ioengine=$e --iodepth=4 \
		--continue_on_error=read --error_dump=1
	expect_rc 1
	errs "$T/err" > got
	printf '%s\n' \
		"r/data: Input/output error: read offset=65536, buflen=4096" \
		"r/data: Input/output error: read offset=131072, buflen=4096" \
		> want
	cmp -s got want || { diff want got; die "$e: errors printed"; }
	run --name=r --filename=r/data --bs=4k --ioengine=$e --iodepth=4 \
		--continue_on_error=read
	expect_rc 1
	expect_not_in err "error on file"
	expect_in err "continued after 2 read and 0 write errors"
done
# writes, continue_on_error=write
run --name=w --filename=w/data --rw=write --bs=8k --continue_on_error=write \
	--error_dump=1
expect_rc 1
[ "$(errs "$T/err")" = "w/data: Input/output error: write offset=32768, buflen=8192" ] ||
	die "write error not printed"

if command -v fio >/dev/null 2>&1; then
	fio --name=r --filename=r/data --bs=4k --continue_on_error=read \
		--error_dump=1 >/dev/null 2>fio.err
	errs fio.err > fgot
	cmp -s fgot want || { diff want fgot; die "fio prints otherwise"; }
	fio --name=r --filename=r/data --bs=4k --continue_on_error=read \
		>/dev/null 2>fio.err
	! grep -q "error on file" fio.err || die "fio's default prints errors"
fi

# accepted, nothing changes, the warning says why
run --name=r --filename=r/data --size=64k --bs=4k \
	--block_error_percentiles=1 --log_compression_cpus=0 \
	--output-format=json
expect_rc 0
expect_in err "block_error_percentiles has no effect: iorig keeps no per-block trim state"
expect_in err "log_compression_cpus has no effect"
json_is "d['jobs'][0]['read']['ios']" 16
run --name=r --filename=r/data --log_issue_time=1 --parse-only
expect_rc 2
expect_in err "log_issue_time.*not an option of fio 3.33"
if command -v fio >/dev/null 2>&1; then
	! fio --name=r --filename=r/data --log_issue_time=1 --parse-only \
		>/dev/null 2>&1 || die "fio 3.33 takes log_issue_time"
fi
exit 0
