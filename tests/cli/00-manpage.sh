#!/bin/sh
# The man page documents everything the binary knows: every job option of
# the option table (`iorig --cmdhelp`) as an entry under JOB OPTIONS, every
# alias somewhere under JOB OPTIONS, every command option of `iorig --help`
# (long and short) as an entry under COMMAND OPTIONS, every engine as an
# entry under ENGINES, every exit status of `iorig --help` as an entry under
# EXIT STATUS, and every field of a JSON report under OUTPUT. It also must
# render without warnings when groff is installed (else that part alone is
# skipped).
#
# An "entry" is the tag line that follows a .TP: its first word (after the
# macro and font escapes, with \- read as -) for job options and engines,
# any word of it for command options and exit statuses. So ".B rw",
# ".BR rw \" (alias)\"" and "\fBrw\fR" all document rw.
#
# IORIG_MANPAGE=FILE checks another copy of the page (to test this test).

here=$(cd "$(dirname "$0")" && pwd)
case ${IORIG_MANPAGE:-} in
""|/*) ;;
*) IORIG_MANPAGE=$(pwd)/$IORIG_MANPAGE ;;
esac
# lane: parallel
. "$here/lib.sh"
MAN=${IORIG_MANPAGE:-$top/man/iorig.1}
[ -r "$MAN" ] || { echo "FAILED: no man page at $MAN"; exit 1; }

# Each problem is a "MISSING: ..." line, shown and kept in $T/missing.
: >"$T/missing"
miss() {
	echo "MISSING: $*" | tee -a "$T/missing"
}

# Read the page into three lists of "SECTION|word" lines:
#   tagfirst  the first word of each .TP tag
#   tagwords  every word of each .TP tag
#   words     every word of every text line
awk -v dir="$T" '
function norm(s) {
	sub(/^\.[A-Za-z]+[ \t]*/, "", s)	# the macro: .B .BR .BI ...
	gsub(/\\f\[[^]]*\]/, "", s)		# \f[B]
	gsub(/\\f\([A-Za-z][A-Za-z]/, "", s)	# \f(CW
	gsub(/\\f[A-Za-z1-4]/, "", s)		# \fB \fR \fI \fP
	gsub(/\\-/, "-", s)
	gsub(/\\\([A-Za-z][A-Za-z]/, " ", s)	# \(em \(bu ...
	gsub(/\\\*\([A-Za-z][A-Za-z]/, " ", s)	# \*(lq ...
	gsub(/\\[&c%~]/, "", s)
	gsub(/\\e/, " ", s)
	gsub(/[^A-Za-z0-9_.-]+/, " ", s)
	return s
}
function emit(file, s,    n, i, w) {
	n = split(s, w, " ")
	for (i = 1; i <= n; i++) {
		sub(/\.+$/, "", w[i])		# sentence ends
		if (w[i] != "")
			print sect "|" w[i] > (dir "/" file)
	}
}
/^\.\\"/ { next }
/^\.SH/ {
	sect = $0
	sub(/^\.SH[ \t]*/, "", sect)
	gsub(/"/, "", sect)
	want_tag = 0
	print sect > (dir "/sections")
	next
}
/^\.TP/ { want_tag = 1; next }
want_tag && /^\.(PD|br|sp)/ { next }
{
	s = norm($0)
	emit("words", s)
	if (want_tag) {
		want_tag = 0
		emit("tagwords", s)
		split(s, w, " ")
		sub(/\.+$/, "", w[1])
		if (w[1] != "")
			print sect "|" w[1] > (dir "/tagfirst")
	}
}
' "$MAN" || { echo "FAILED: awk could not read $MAN"; exit 1; }
touch "$T/words" "$T/tagwords" "$T/tagfirst" "$T/sections"

# lacking LIST SECTION FORMAT: of the words on standard input (the first
# of each line), each that LIST lacks under SECTION is a problem, told by
# FORMAT (printf's: the line's first word, then its second). One awk
# for the lot, not a grep per word: the page has some 400 entries.
lacking() {
	awk -v list="$T/$1" -v sect="$2" -v fmt="$3" '
	BEGIN { while ((getline l < list) > 0) have[l] = 1 }
	NF && !((sect "|" $1) in have) { printf "MISSING: " fmt "\n", $1, $2 }' |
		tee -a "$T/missing"
}

# Sections the page must have.
for s in NAME SYNOPSIS DESCRIPTION "COMMAND OPTIONS" "JOB FILES" VALUES \
	 "JOB OPTIONS" ENGINES TIMESTAMPS OUTPUT "EXIT STATUS" SAFETY \
	 "DIFFERENCES FROM FIO" EXAMPLES "SEE ALSO"; do
	grep -qxF -- "$s" "$T/sections" || miss "section .SH $s"
done

# Job options and their aliases, from the option table and each engine's:
# what --cmdhelp lists, what --enghelp=ENGINE lists for each engine, and
# what src/plan/optable.c and src/engines/ declare when lib.sh can read them
# (so an option that --cmdhelp forgets is still checked).
run --cmdhelp
expect_rc 0
awk 'NF { print $1 }' "$T/out" >"$T/cmdhelp"
run --cmdhelp=ioengine
awk '/^  values:/ { f = 1; next } f && /^    [^ ]/ { print $1 }' \
	"$T/out" >"$T/engnames"
[ -s "$T/engnames" ] || die "iorig --cmdhelp=ioengine lists no engines"
{
	cat "$T/cmdhelp"
	while read -r e; do
		"$IORIG" --enghelp="$e" | sed -n '2,/^$/s/^\([a-z0-9_]*\) *: .*/\1/p'
	done <"$T/engnames"
	if command -v table_job_options >/dev/null 2>&1; then
		table_job_options
	fi
	if command -v table_engine_options >/dev/null 2>&1; then
		table_engine_options
	fi
} | awk 'NF && !seen[$0]++' >"$T/jobopts"
n=$(wc -l <"$T/jobopts")
[ "$n" -ge 10 ] || die "iorig --cmdhelp listed only $n options"
lacking tagfirst "JOB OPTIONS" \
	"job option '%s': no .TP entry under JOB OPTIONS" <"$T/jobopts"
# Each option's own help must answer; its aliases must be mentioned.
# A sanitized iorig's leak check at exit is half of each of these some
# 300 starts (50 of 100 ms): off for them, as what they check is the
# page; the --cmdhelp calls above have it.
while read -r o; do
	echo "== $o"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"$IORIG" --cmdhelp="$o" 2>&1 || echo "== fails"
done <"$T/jobopts" >"$T/onehelp"
awk '/^== fails$/ { print "MISSING: job option \047" o "\047: iorig --cmdhelp=" o " fails"; next }
/^== / { o = substr($0, 4) }' "$T/onehelp" | tee -a "$T/missing"
awk '/^== / { o = substr($0, 4) } $1 == "alias:" { print $2, o }' "$T/onehelp" |
	lacking words "JOB OPTIONS" \
		"alias '%s' of '%s': not mentioned under JOB OPTIONS"

# Command options, long and short, from --help.
run --help
expect_rc 0
awk '/^Options:/ { f = 1; next } f && /^$/ { exit } f' "$T/out" >"$T/cli"
{
	grep -oE -- '--[A-Za-z0-9][A-Za-z0-9-]*' "$T/cli"
	grep -oE -- '(^|[[:space:]])-[A-Za-z],' "$T/cli" | tr -d ' \t,'
	if command -v table_cmd_options >/dev/null 2>&1; then
		table_cmd_options | sed 's/^/--/'
	fi
} | awk '!seen[$0]++' >"$T/cliopts"
n=$(grep -c -- '^--' "$T/cliopts")
[ "$n" -ge 5 ] || die "iorig --help listed only $n command options"
lacking tagwords "COMMAND OPTIONS" \
	"command option '%s': no .TP entry under COMMAND OPTIONS" <"$T/cliopts"

# Exit statuses, from the closing lines of --help.
sed -n '/^Exit codes:/,$p' "$T/out" | sed 's/^Exit codes://' |
	grep -oE '[0-9]+' >"$T/codes"
[ -s "$T/codes" ] || die "iorig --help lists no exit codes"
lacking tagwords "EXIT STATUS" \
	"exit status %s: no .TP entry under EXIT STATUS" <"$T/codes"

# Engines: --cmdhelp=ioengine lists them when it has a "values:" block;
# the error for an unknown engine always does.
run --cmdhelp=ioengine
awk '/^  values:/ { f = 1; next } f && /^    [^ ]/ { print $1 }' \
	"$T/out" >"$T/engines"
run --parse-only --name=x --ioengine=no-such-engine.
expect_rc 2
sed -n 's/.*expected one of: *//p' "$T/err" | tr ' ' '\n' |
	grep -v '^$' >>"$T/engines"
sort -u "$T/engines" -o "$T/engines"
[ -s "$T/engines" ] || die "could not learn the engine names from iorig"
lacking tagfirst ENGINES "engine '%s': no .TP entry under ENGINES" \
	<"$T/engines"

# Every field of a JSON report (the options object holds the job options,
# checked above; percentile keys are numbers), the metric names that key
# the figures of repeats and baselines included.
py=${PY:-python3}
if command -v "$py" >/dev/null 2>&1; then
	run --output-format=json --name=m --ioengine=null --size=64k \
		--rw=randrw --lat_percentiles=1 --slat_percentiles=1 \
		--interval=1s
	expect_rc 0
	cp "$T/out" "$T/report1.json"
	# The keys of checks, repeats and a baseline.
	run --output-format=json --name=m --ioengine=null --size=64k \
		--rw=randrw --repeat=2 --baseline="$T/report1.json" \
		--check='errors==0' --check='m:read.ios>=0.5*baseline'
	expect_rc 0
	# The here-document starts on the next line, so die goes here.
	"$py" - "$T/report1.json" "$T/out" >"$T/jsonkeys" <<'EOF' || die "bad JSON report"
import json, sys
keys = set()
def walk(x, parent):
    if isinstance(x, dict):
        for k, v in x.items():
            if parent in ("options", "percentiles"):
                continue
            keys.add(k)
            walk(v, k)
    elif isinstance(x, list):
        for v in x:
            walk(v, parent)
for path in sys.argv[1:]:
    walk(json.load(open(path)), "")
print("\n".join(sorted(keys)))
EOF
	n=$(wc -l <"$T/jsonkeys")
	[ "$n" -ge 50 ] || die "only $n JSON fields read from the reports"
	lacking words OUTPUT "JSON field '%s': not described under OUTPUT" \
		<"$T/jsonkeys"
else
	echo "note: no python3; JSON fields not checked"
fi

# The page renders without warnings.
if command -v groff >/dev/null 2>&1; then
	if ! groff -man -Tutf8 -ww -z "$MAN" >"$T/groff.out" 2>&1 ||
	   [ -s "$T/groff.out" ]; then
		echo "FAILED: groff -man -Tutf8 -ww warns about $MAN:"
		head -n 20 "$T/groff.out"
		echo groff >>"$T/missing"
	fi
else
	echo "note: no groff; the page was not test-rendered"
fi

missing=$(wc -l <"$T/missing")
if [ "$missing" -gt 0 ]; then
	echo "FAILED: $missing problem(s) with $MAN"
	exit 1
fi
echo "ok: $(wc -l <"$T/jobopts") job options, $(wc -l <"$T/cliopts")" \
	"command options, $(wc -l <"$T/engines") engines documented"
