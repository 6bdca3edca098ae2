#!/bin/sh
# The subcommands (plot, report, merge, history) read their arguments
# through one loop driven by each one's table of options (issue 22):
# --NAME=VALUE and --NAME VALUE (and -o FILE, -oFILE) give the same
# bytes; options after the operands, and operands after "--", are read
# the same way; --help prints the subcommand's usage on stdout, exit 0;
# an unknown option, a missing value, a value for a flag and a bad value
# exit 2 naming the argument, the option and what was expected, with the
# usage on stderr, and write nothing. Outside truth: each subcommand's
# output for the same request in the other spelling, and its usage.
# lane: parallel
. "$(dirname "$0")/lib.sh"

run --name=a --ioengine=null --filename="$T/null" --size=16m --bs=4k \
	--rw=randread --output-format=json --output=r.json \
	--history=h.db
expect_rc 0
run --name=a --ioengine=null --filename="$T/null" --size=8m --bs=4k \
	--rw=randread --output-format=json --output=r2.json \
	--history=h.db
expect_rc 0

# same A B: the two runs (each a quoted argument list) print the same.
same() {
	eval "run $1"
	expect_rc 0
	mv out a.out
	eval "run $2"
	expect_rc 0
	cmp -s a.out out || die "'$1' and '$2' differ"
}

# --help: the usage on stdout, exit 0, nothing on stderr.
for c in plot report merge "history" "history list" "history compare"; do
	run $c --help
	expect_rc 0
	expect_in out "^usage: iorig ${c%% *}"
	expect_empty err
	run $c -h
	expect_rc 0
	expect_in out "^usage: iorig ${c%% *}"
done

# The two spellings of a value, and options after the operands.
same "report --output-format=table r.json" \
	"report --output-format table r.json"
same "report --output-format=table r.json" \
	"report r.json --output-format table"
same "report --output-format=text --terse-version=2 r.json" \
	"report --terse-version 2 --output-format text r.json"
same "merge --output-format=json r.json r2.json" \
	"merge r.json --output-format json r2.json"
same "merge --check=read.iops\>=1 r.json r2.json" \
	"merge --check read.iops\>=1 r.json r2.json"
same "history list --json --last=1 h.db" \
	"history list h.db --last 1 --json"
same "history compare --json h.db" "history compare h.db --json"
# -o FILE, -oFILE, --output FILE, --output=FILE: the same file
for o in "-o o1.txt" "-oo2.txt" "--output o3.txt" "--output=o4.txt"; do
	run report --output-format=text $o r.json
	expect_rc 0
	expect_empty out
done
cmp -s o1.txt o2.txt && cmp -s o1.txt o3.txt && cmp -s o1.txt o4.txt ||
	die "report's output file differs with the spelling of -o"
[ -s o1.txt ] || die "report -o wrote nothing"
run merge --output m1.txt r.json r2.json
expect_rc 0
run merge --output=m2.txt r.json r2.json
expect_rc 0
cmp -s m1.txt m2.txt || die "merge's --output differs with its spelling"
# "--": what follows is an operand, even when it starts with "-"
cp r.json ./-r.json
same "report --output-format=table r.json" \
	"report --output-format=table -- -r.json"

# refused CMD... -- REGEX...: exit 2, each REGEX on stderr, the usage
# too, nothing on stdout, no file written.
refused() {
	args=
	while [ "$1" != -- ]; do
		args="$args $1"
		shift
	done
	shift
	eval "run $args"
	expect_rc 2
	for x in "$@"; do
		expect_in err "$x"
	done
	expect_in err "^usage: iorig "
	expect_empty out
	[ ! -e bad.txt ] || die "'$args' wrote bad.txt"
}
refused report --nosuch -o bad.txt r.json -- \
	"^iorig: report: command line argument 1: unknown option '--nosuch': expected --output-format=FORMAT.*--html, --output=FILE, --terse-version=N, --history=FILE.db or RESULT.json"
refused merge --output=bad.txt --nosuch=3 r.json -- \
	"^iorig merge: command line argument 2: unknown option '--nosuch=3': expected --output-format=.*--output=FILE, --check=.*RESULT.json files"
refused plot --outdir=bad.txt --nosuch r.json -- \
	"^iorig plot: command line argument 2: unknown option '--nosuch': expected --format=svg\\|png, --outdir=DIR, --baseline=FILE or RESULT.json files"
refused history list --nosuch h.db -- \
	"^iorig: history: command line argument 2: unknown option '--nosuch'"
refused report r.json -o -- \
	"command line argument 2: option 'output': expected a value: --output=FILE or --output FILE"
refused report r.json --output-format -- \
	"option 'output-format': expected a value"
refused merge r.json --check -- "option 'check': expected a value"
refused plot r.json --baseline -- "option 'baseline': expected a value"
refused history show h.db --last -- "option 'last': expected a value"
refused report --html=yes -o bad.txt r.json -- \
	"command line argument 1: option 'html': takes no value"
refused history list --json=1 h.db -- "option 'json': takes no value"
refused report --output-format=text --terse-version=7 -o bad.txt r.json \
	-- "option 'terse-version': .*expected an integer from 2 to 5"
refused report --output-format=nosuch -o bad.txt r.json -- \
	"option 'output-format': 'nosuch' is not a format; expected text"
refused plot --outdir=bad.txt --format=jpg r.json -- \
	"option 'format': 'jpg': expected svg or png"
refused history list --last=0 h.db -- \
	"option 'last': '0' is not a count of runs"
echo "ok: the subcommands' arguments through one loop"
