#!/bin/sh
# doc/design.md is the map of the code: every source file (src/**/*.c,
# src/**/*.h, include/*.h) is named there in backquotes, and every file it
# names under src/ or include/ exists. README.md links to it. No two
# source files share a base name (the archive's members are keyed by it).
# IORIG_SRC=DIR checks another tree (to test this test).
# lane: parallel
. "$(dirname "$0")/lib.sh"
src=${IORIG_SRC:-$top}
doc=$src/doc/design.md
[ -r "$doc" ] || die "no $doc"

grep -oE '`(src|include)/[A-Za-z0-9_./-]+\.[ch]`' "$doc" | tr -d '`' |
	sort -u >"$T/named"
( cd "$src" && find src include -name '*.[ch]' | sort -u ) >"$T/files"
[ "$(wc -l <"$T/files")" -ge 30 ] || die "only $(wc -l <"$T/files") files under $src"

bad=0
for f in $(comm -23 "$T/files" "$T/named"); do
	echo "MISSING from doc/design.md: $f"
	bad=$((bad + 1))
done
for f in $(comm -13 "$T/files" "$T/named"); do
	echo "doc/design.md names $f, which does not exist"
	bad=$((bad + 1))
done
# libiorig.a keys its members by base name: one name, one file.
for f in $(grep '\.c$' "$T/files" | xargs -n 1 basename | sort | uniq -d); do
	echo "two source files are called $f: libiorig.a would keep one"
	bad=$((bad + 1))
done
grep -q '(doc/design.md)' "$src/README.md" ||
	{ echo "README.md does not link doc/design.md"; bad=$((bad + 1)); }
[ "$bad" -eq 0 ] || die "$bad problem(s) with the module map"
echo "ok: $(wc -l <"$T/files") files in the map"
