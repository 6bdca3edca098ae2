#!/bin/sh
# BUG: --output=FILE is opened (created, or truncated) before the targets
# are validated, so a usage error found there (exit 2, "nothing run")
# still creates an empty FILE, or wipes an earlier report kept in it.
# lane: parallel
. "$(dirname "$0")/lib.sh"

# A target error: the file does not exist and no size= is given.
run --output=report.json --output-format=json --name=a --filename=x.dat
expect_rc 2
expect_in err "option 'size'"
[ ! -e report.json ] || die "a usage error created report.json"

# An earlier report survives a usage error.
echo '{"earlier": "report"}' >keep.json
run --output=keep.json --output-format=json --name=a --filename=x.dat
expect_rc 2
grep -q earlier keep.json || die "a usage error truncated keep.json"

# An O_DIRECT alignment error, found at the same stage.
run -o direct.txt --name=a --filename=d.dat --size=1m --bs=1000 --direct=1
expect_rc 2
[ ! -e direct.txt ] || die "a usage error created direct.txt"
exit 0
