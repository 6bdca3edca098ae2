#!/bin/sh
# longhorn kbench's own fio/parse.sh (jq) reading --output-format=fio-json
# as it reads fio's: its four jobs in its order (randread, randwrite,
# read, write), six "read / write" figures printed, each above zero.
# An optional extra: set IORIG_KBENCH to a checkout of kbench's fio/
# folder (its parse.sh and func.sh); it also needs jq (Debian's jq).
# lane: parallel
. "$(dirname "$0")/lib.sh"

[ -n "${IORIG_KBENCH:-}" ] ||
	skip "IORIG_KBENCH is not set (kbench's fio/ folder, for its parse.sh)"
K=$IORIG_KBENCH
[ -f "$K/parse.sh" ] || skip "IORIG_KBENCH=$K has no parse.sh"
command -v jq >/dev/null 2>&1 || skip "kbench's parse.sh needs jq (Debian's jq)"
command -v bash >/dev/null 2>&1 || skip "kbench's parse.sh needs bash"

run --output-format=fio-json --ioengine=null --size=4m --time_based \
	--runtime=1100ms --rate_iops=500 --name=a --rw=randread \
	--name=b --rw=randwrite --name=c --rw=read --name=d --rw=write
expect_rc 0
for f in iops bandwidth latency; do cp "$T/out" "$T/k-$f.json"; done
bash "$K/parse.sh" "$T/k" >"$T/kb" 2>&1 || die "kbench parse.sh: $(cat "$T/kb")"
[ "$(grep -Ec ':  +[1-9][0-9,]* / [1-9][0-9,]*$' "$T/kb")" = 6 ] ||
	die "kbench parse.sh printed: $(cat "$T/kb")"
echo "ok: kbench's parse.sh reads iorig's fio-json"
