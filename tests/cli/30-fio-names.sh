#!/bin/sh
# Every option name fio has (fio --cmdhelp=all, and the options of the
# engines both tools have, fio --enghelp) is known to iorig: implemented,
# or refused with "fio has this option", never "unknown option"; a name of
# fio's never gets a "did you mean" for another option (ba is fio's
# blockalign, not a typo of bs). A name neither tool knows still does.
# (Names and exit codes only: no timing, no device.)
# lane: parallel
. "$(dirname "$0")/lib.sh"

FIO=${FIO:-fio}
command -v "$FIO" >/dev/null 2>&1 || skip "no fio to take the names from"

{
	"$FIO" --cmdhelp=all
	"$FIO" --enghelp=io_uring
	"$FIO" --enghelp=libaio
} 2>/dev/null | sed -n 's/^ *\([a-z][a-z0-9_-]*\) *:.*/\1/p' | sort -u >names
n=$(wc -l <names)
[ "$n" -gt 150 ] || die "fio listed only $n option names"
bad=0
while read -r name; do
	"$IORIG" --cmdhelp="$name" >/dev/null 2>"$T/err" && continue
	if ! grep -q "fio has this option but iorig does not" "$T/err" ||
	   grep -q "did you mean" "$T/err"; then
		echo "fio's $name: $(cat "$T/err")"
		bad=$((bad + 1))
	fi
done <names
[ "$bad" -eq 0 ] || die "$bad of fio's $n option names not known"

# In a job file too, and with the line; aliases of fio's (not listed by
# --cmdhelp=all) as well.
printf '[a]\nclientname=admin\npool=rbd\nratemin=1m\nfileoffset=4k\nwrite_bw_log=x\n' >j.fio
run --parse-only j.fio
expect_rc 2
expect_in err "j\.fio:2: option 'clientname': fio has this option but iorig does not"
expect_in err "j\.fio:3: option 'pool': fio has this option but iorig does not"
expect_not_in err "did you mean|unknown option|ratemin|fileoffset"
# merge_blktrace_file without the traces to merge (read_iolog): says so.
run --name=m --size=4k --merge_blktrace_file=m.bin --parse-only
expect_rc 2
expect_in err "merge_blktrace_file': needs read_iolog"
[ ! -e m.bin ] || die "m.bin written"

# fio's aliases of options iorig has mean the same.
run --parse-only --name=a --ratemin=1m --ratecycle=2s --fileoffset=8k \
	--allrandrepeat=0
expect_rc 0
expect_in out '^  rate_min=1048576$'
expect_in out '^  rate_cycle=2s$'
expect_in out '^  offset=8192$'
expect_in out '^  allrandrepeat=0$'

# A real typo still gets its suggestion.
run --parse-only --name=a --direcotry=/tmp
expect_rc 2
expect_in err "unknown option.*did you mean --directory"
exit 0
