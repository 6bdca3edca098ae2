#!/bin/sh
# --help, --version and --cmdhelp: complete listings on stdout, exit 0;
# an unknown --cmdhelp option is a usage error with a suggestion.
# lane: parallel
. "$(dirname "$0")/lib.sh"

jobopts=$(table_job_options)
cmdopts=$(table_cmd_options)
[ "$(echo "$jobopts" | wc -l)" -ge 30 ] ||
	die "could not read the option table from $top/src/plan/optable.c"
[ "$(echo "$cmdopts" | wc -l)" -ge 5 ] ||
	die "could not read the command options from $top/src/face/cli.c"

# --help and -h: every job option of the table and every command option.
for h in --help -h; do
	run $h
	expect_rc 0
	expect_empty err
	expect_in out '^Usage: iorig'
	for o in $jobopts; do
		expect_in out "^ +--$o( |$)"
	done
	for o in $cmdopts; do
		expect_in out "(^| )--$o([= []|$)"
	done
	expect_in out '130/143'
done

# --version and -V: "iorig X.Y.Z", the VERSION file's when there is one.
for v in --version -V; do
	run $v
	expect_rc 0
	expect_empty err
	[ "$(wc -l <"$T/out")" -eq 1 ] || die "$v: expected one line"
	expect_in out '^iorig [0-9]+\.[0-9]+\.[0-9]+$'
	if [ -f "$top/VERSION" ]; then
		expect_in out "^iorig $(cat "$top/VERSION")\$"
	fi
done

# --cmdhelp: one line per job option, in table order, each with its help,
# then one per engine option (a name engines share once).
run --cmdhelp
expect_rc 0
expect_empty err
n=$(echo "$jobopts" | wc -l)
[ "$(awk '{print $1}' "$T/out" | head -n "$n")" = "$jobopts" ] ||
	die "--cmdhelp does not list exactly the table's options in order"
[ "$(awk '{print $1}' "$T/out" | tail -n +"$((n + 1))" | sort)" = \
  "$(table_engine_options | sort -u)" ] ||
	die "--cmdhelp does not list each engine option once after them"
expect_in out '^bs +Block size'
expect_in out '^runtime +Stop after'
# --cmdhelp=all: the same list, as fio's --cmdhelp=all is its list
# (fio 3.33 prints the same with or without it, for a profile too).
cp "$T/out" "$T/list"
run --cmdhelp=all
expect_rc 0
expect_empty err
cmp -s "$T/out" "$T/list" || die "--cmdhelp=all differs from --cmdhelp"
run --profile=tiobench --cmdhelp=all
expect_rc 0
expect_in out '^size +: '

# --cmdhelp=bs describes bs: alias, type, default, help.
run --cmdhelp=bs
expect_rc 0
expect_empty err
expect_in out '^bs$'
expect_in out 'alias: +blocksize'
expect_in out 'default: +4k'
expect_in out 'Block size'
expect_not_in out '^runtime'

# By alias, too; a choice lists its values.
run --cmdhelp=blocksize
expect_rc 0
expect_in out '^bs$'
run --cmdhelp=rw
expect_rc 0
expect_in out '^ +randread +'
expect_in out '^ +randrw +'
run --cmdhelp=runtime
expect_rc 0
expect_in out 'unit: +s'

# Unknown: exit 2, stderr only, a suggestion when close.
run --cmdhelp=blocksze
expect_rc 2
expect_empty out
expect_in err "unknown option 'blocksze'"
expect_in err "did you mean 'bs'"
run --cmdhelp=runtim
expect_rc 2
expect_empty out
expect_in err "did you mean 'runtime'"
run --cmdhelp=bogus
expect_rc 2
expect_empty out
expect_in err "unknown option 'bogus'"
expect_not_in err 'did you mean'

# Help runs nothing even with jobs on the command line.
run --help --name=x --filename=x.dat --size=1m
expect_rc 0
[ ! -e x.dat ] || die "--help ran a job"
exit 0
