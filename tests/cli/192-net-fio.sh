#!/bin/sh
# ioengine=net against fio 3.33 on the same jobs, both ways, TCP and UDP,
# in a network namespace of the test's own: an iorig receiver counts
# exactly the bytes and blocks fio's sender reports having sent; fio's
# receiver gets iorig's stream to the end (no error; its count, which
# loses part-blocks, is never more than what iorig sent); over UDP the
# datagrams the kernel delivered (/proc/net/snmp InDatagrams: the open
# message, the blocks, the close message) are the blocks iorig counts;
# and when a slow iorig reader makes the kernel drop fio's datagrams
# (RcvbufErrors), iorig reads fio's sequence numbers and reports the
# gaps as dropped_ios: some, never more than the kernel dropped, and
# with the blocks received never more than fio sent. numjobs=2: iorig's
# clones listen on port and port+1, where fio's two clones connect. --enghelp lists the
# options fio's does; the report validates against the JSON schema.
# lane: serial
. "$(dirname "$0")/net.sh"
. "$(dirname "$0")/lib.sh"
py_serve
command -v fio >/dev/null 2>&1 || skip "needs fio (Debian's fio 3.33)"

# --enghelp=net and netsplice list the options fio 3.33 lists for them
for e in net netsplice; do
	fio --enghelp=$e | sed -n 's/^\([a-z_]*\) \+:.*/\1/p' | sort >fio.opts
	"$IORIG" --enghelp=$e | sed -n 's/^\([a-z_]*\) \+:.*/\1/p' | sort >iorig.opts
	[ -s fio.opts ] && cmp -s fio.opts iorig.opts ||
		die "--enghelp=$e: fio $(tr '\n' ' ' <fio.opts), iorig $(tr '\n' ' ' <iorig.opts)"
done

J="--bs=4k --size=1m --output-format=json"
FJ="--bs=4k --size=1m --output-format=json"

# TCP, fio sends, iorig receives
pair tcp:9001 "'$IORIG' --name=r --ioengine=net --listen --port=9001 --rw=read $J >r.json" \
	"fio --name=s --ioengine=net --hostname=127.0.0.1 --port=9001 --rw=write $FJ --output=s.json"
[ "$rrc" -eq 0 ] && [ "$src" -eq 0 ] || die "tcp fio->iorig: exit $rrc/$src: $(cat "$T/rerr" "$T/serr")"
[ "$(dirf s.json write io_bytes)" = 1048576 ] || die "fio sent $(dirf s.json write io_bytes)"
[ "$(dirf r.json read io_bytes)" = "$(dirf s.json write io_bytes)" ] ||
	die "tcp: iorig received $(dirf r.json read io_bytes), fio sent $(dirf s.json write io_bytes)"
[ "$(dirf r.json read ios)" = "$(dirf s.json write ios)" ] ||
	die "tcp: iorig counted $(dirf r.json read ios) blocks, fio $(dirf s.json write ios)"
[ "$(dirf r.json read short_ios)" = 0 ] || die "tcp: short receives"

# numjobs=2: clone N on port+N, as fio's clones connect (ss: both listen)
pair tcp:9007 "'$IORIG' --name=r --ioengine=net --listen --port=9006 --numjobs=2 --rw=read $J >r.json" \
	"ss -Hltn 'sport = :9006' | grep -q . || echo no 9006 >&2; fio --name=s --ioengine=net --hostname=127.0.0.1 --port=9006 --numjobs=2 --rw=write $FJ --output=s.json"
[ "$rrc" -eq 0 ] && [ "$src" -eq 0 ] || die "numjobs: exit $rrc/$src: $(cat "$T/rerr" "$T/serr")"
[ ! -s "$T/serr" ] || die "numjobs: $(cat "$T/serr")"
[ "$(jsonf r.json '[x["read"]["io_bytes"] for x in d["jobs"]]')" = "[1048576, 1048576]" ] ||
	die "numjobs: iorig's clones received $(jsonf r.json '[x["read"]["io_bytes"] for x in d["jobs"]]')"

# TCP, iorig sends, fio receives. fio's receiver paced (16 MiB/s: 62 ms
# in all): a receiver that outran the sender read part-blocks and could
# end before the stream did (its count loses part-blocks, below), its
# close with bytes unread then reset the connection under the sender's
# last writes (once, in a sanitizer pass: "write ... at offset 1028096:
# Connection reset by peer"). Paced, the sender stays ahead: whole
# blocks wait in the socket for each read.
pair tcp:9002 "fio --name=r --ioengine=net --listen --port=9002 --rw=read --rate=16m $FJ --output=r.json" \
	"'$IORIG' --name=s --ioengine=net --hostname=127.0.0.1 --port=9002 --rw=write $J >s.json"
[ "$rrc" -eq 0 ] && [ "$src" -eq 0 ] || die "tcp iorig->fio: exit $rrc/$src: $(cat "$T/rerr" "$T/serr")"
[ "$(dirf s.json write io_bytes)" = 1048576 ] && [ "$(dirf s.json write ios)" = 256 ] ||
	die "tcp: iorig sent $(dirf s.json write io_bytes) in $(dirf s.json write ios)"
jsonf r.json 'd["jobs"][0]["error"]' | grep -qx 0 || die "fio's receiver failed"
got=$(dirf r.json read io_bytes)
[ "$got" -gt 900000 ] && [ "$got" -le 1048576 ] || die "tcp: fio received $got"

# UDP both ways, paced senders (no loss on lo): all the blocks, and the
# kernel delivered as many datagrams plus the open and close messages.
in0=$(udp_stat InDatagrams)
pair udp:9003 "'$IORIG' --name=r --ioengine=net --protocol=udp --port=9003 --rw=read $J >r.json" \
	"fio --name=s --ioengine=net --protocol=udp --hostname=127.0.0.1 --port=9003 --rw=write --rate_iops=2000 $FJ --output=s.json"
[ "$rrc" -eq 0 ] && [ "$src" -eq 0 ] || die "udp fio->iorig: exit $rrc/$src: $(cat "$T/rerr" "$T/serr")"
in1=$(udp_stat InDatagrams)
[ "$(udp_stat RcvbufErrors)" = 0 ] || skip "lo dropped paced datagrams: machine too loaded"
[ "$(dirf r.json read ios)" = 256 ] && [ "$(dirf r.json read io_bytes)" = 1048576 ] ||
	die "udp: iorig received $(dirf r.json read ios) blocks of 256"
# the close message may come after the reader, done at its size, left
[ $((in1 - in0)) -eq 258 ] || [ $((in1 - in0)) -eq 257 ] ||
	die "udp: the kernel delivered $((in1 - in0)) datagrams, expected 257 or 258"
[ "$(dirf r.json read dropped_ios)" = 0 ] || die "udp: drops counted without loss"

pair udp:9004 "fio --name=r --ioengine=net --protocol=udp --port=9004 --rw=read $FJ --output=r.json" \
	"'$IORIG' --name=s --ioengine=net --protocol=udp --hostname=127.0.0.1 --port=9004 --rw=write --rate_iops=2000 $J >s.json"
[ "$rrc" -eq 0 ] && [ "$src" -eq 0 ] || die "udp iorig->fio: exit $rrc/$src: $(cat "$T/rerr" "$T/serr")"
[ "$(udp_stat RcvbufErrors)" = 0 ] || skip "lo dropped paced datagrams: machine too loaded"
[ "$(dirf r.json read io_bytes)" = "$(dirf s.json write io_bytes)" ] &&
	[ "$(dirf r.json read ios)" = 256 ] ||
	die "udp: fio received $(dirf r.json read io_bytes), iorig sent $(dirf s.json write io_bytes)"
[ "$(dirf r.json read drop_ios)" = 0 ] || die "udp: fio saw gaps in iorig's numbers"

# UDP loss: fio sends 1024 blocks at 4000/s to an iorig reader that takes
# 500/s with a small receive buffer; it reads for 3 s at most.
e0=$(udp_stat RcvbufErrors)
in0=$(udp_stat InDatagrams)
pair udp:9005 "'$IORIG' --name=r --ioengine=net --protocol=udp --port=9005 --rw=read --bs=4k --size=4m --window_size=32k --rate_iops=500 --runtime=3 --output-format=json >r.json" \
	"fio --name=s --ioengine=net --protocol=udp --hostname=127.0.0.1 --port=9005 --rw=write --bs=4k --size=4m --rate_iops=4000 --output-format=json --output=s.json"
[ "$rrc" -eq 0 ] && [ "$src" -eq 0 ] || die "udp loss: exit $rrc/$src: $(cat "$T/rerr" "$T/serr")"
lost=$(($(udp_stat RcvbufErrors) - e0))
deliv=$(($(udp_stat InDatagrams) - in0))
got=$(dirf r.json read ios)
drop=$(dirf r.json read dropped_ios)
[ "$lost" -gt 0 ] || skip "the kernel dropped nothing: no loss to count"
# delivered: the open message, the blocks, maybe the close message
# (after a reader done at its size: not delivered, not dropped)
[ $((deliv + lost)) -le 1026 ] && [ $((deliv + lost)) -ge 1025 ] ||
	die "udp loss: $deliv delivered + $lost dropped, expected 1025 or 1026 datagrams"
[ "$got" -eq $((deliv - 1)) ] || [ "$got" -eq $((deliv - 2)) ] ||
	die "udp loss: iorig counted $got blocks, the kernel delivered $deliv datagrams"
[ "$drop" -gt 0 ] && [ "$drop" -le "$lost" ] && [ $((got + drop)) -le 1024 ] ||
	die "udp loss: dropped_ios $drop, received $got, the kernel dropped $lost"
[ "$(dirf r.json read io_bytes)" -eq $((got * 4096)) ] || die "udp loss: bytes"
# the report with its losses validates against the documented schema
if "$PY" -c 'from jsonschema import Draft202012Validator' 2>/dev/null; then
	"$PY" -c 'import json, sys
from jsonschema import Draft202012Validator
v = Draft202012Validator(json.load(open(sys.argv[1])))
errs = list(v.iter_errors(json.load(open(sys.argv[2]))))
sys.exit("\n".join(e.message for e in errs[:5]) if errs else 0)' "$top/doc/iorig-json.schema.json" r.json ||
		die "the UDP receiver's report does not validate"
else
	echo "note: no jsonschema: the report's schema not checked"
fi
echo "ok: fio<->iorig tcp and udp; udp loss: received $got, counted $drop dropped, kernel dropped $lost"
