#!/bin/sh
# Invoked as fio: --minimal (terse v3, fio's default) has as many fields
# as Debian's fio writes for the same job, with fio's version in field 2
# ("fio-3.33 (iorig VER)", where iorig says "iorig-VER"); json+ is fio's
# json+ (the same keys as fio's, bins included); and `make
# install-fio-link` (make install FIO_LINK=1) makes bin/fio a link to
# iorig, but never over a real fio.
# lane: parallel
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/bin"
ln -s "$IORIG" "$T/bin/fio"
dd if=/dev/zero of="$T/f" bs=1M count=4 2>/dev/null
set -- --name=t --filename="$T/f" --size=4m --rw=randrw --bs=4k \
	--ioengine=psync --number_ios=500 --randrepeat=1

"$T/bin/fio" --minimal "$@" >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0
expect_in out '^3;fio-3\.[0-9]+ \(iorig [0-9.]+\);t;0;0;'
nf=$(awk -F';' 'NR == 1 { print NF }' "$T/out")
run --minimal "$@"
expect_rc 0
expect_in out '^3;iorig-[0-9.]+;t;0;0;'
[ "$(awk -F';' 'NR == 1 { print NF }' "$T/out")" = "$nf" ] ||
	die "as fio and as iorig: not the same field count"
if command -v fio >/dev/null 2>&1; then
	fio --minimal "$@" >"$T/fio.txt" 2>/dev/null || die "fio failed"
	fnf=$(awk -F';' 'NR == 1 { print NF }' "$T/fio.txt")
	[ "$nf" = "$fnf" ] || die "terse v3: $nf fields, fio writes $fnf"
	# json+: fio's keys everywhere, the bins' and options' aside.
	fio --output-format=json+ "$@" >"$T/fplus.json" 2>/dev/null ||
		die "fio failed"
	"$T/bin/fio" --output-format=json+ "$@" >"$T/iplus.json" 2>"$T/err" ||
		die "json+ as fio failed"
	CLI_DIR="$top/tests/cli" "$PY" - "$T/fplus.json" "$T/iplus.json" <<'EOF' || die "json+ shape"
import json
import os, sys
sys.path.insert(0, os.environ["CLI_DIR"])
from jsonshape import keys  # noqa: E402
f, i = (json.load(open(x)) for x in sys.argv[1:3])
for d in (f, i):
    d.pop("disk_util", None)
a, b = keys(f), keys(i)
assert "/jobs[]/read/clat_ns/bins" in b, "no bins"
assert a == b, ("fio only", sorted(a - b), "iorig only", sorted(b - a))
assert i["fio version"].startswith("fio-3."), i["fio version"]
EOF
else
	echo "note: no fio, field counts not compared"
fi

# make install-fio-link, into a DESTDIR: the link, then again (no change),
# then a real fio in its place is left alone.
command -v make >/dev/null 2>&1 || skip "no make"
d=$T/dest
mkdir -p "$d/usr/bin"
cp "$IORIG" "$d/usr/bin/iorig"
make -s -C "$top" install-fio-link DESTDIR="$d" PREFIX=/usr >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0
[ -L "$d/usr/bin/fio" ] && [ "$(readlink "$d/usr/bin/fio")" = iorig ] ||
	die "no link bin/fio -> iorig"
"$d/usr/bin/fio" --version | grep -q '^fio-3\.' || die "the link is not fio"
make -s -C "$top" install-fio-link DESTDIR="$d" PREFIX=/usr >"$T/out" 2>"$T/err"
rc=$?
expect_rc 0
rm "$d/usr/bin/fio"
printf '#!/bin/sh\necho real fio\n' >"$d/usr/bin/fio"
sum=$(cksum <"$d/usr/bin/fio")
make -s -C "$top" install-fio-link DESTDIR="$d" PREFIX=/usr >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -ne 0 ] || die "install-fio-link replaced a real fio"
expect_in err 'not the link to iorig'
[ ! -L "$d/usr/bin/fio" ] && [ "$(cksum <"$d/usr/bin/fio")" = "$sum" ] ||
	die "the real fio was changed"
exit 0
