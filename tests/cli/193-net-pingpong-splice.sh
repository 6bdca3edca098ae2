#!/bin/sh
# net with pingpong, iorig to iorig, and netsplice, in a network namespace
# of the test's own. Outside truth: strace -c of each end. pingpong over
# TCP: the receiver counts the bytes the sender sent, and each end makes
# one send and one receive system call per block (the sender one more
# send: the close message), so every block went there and back. UDP
# pingpong likewise (plus the open message). netsplice:
# each block is one vmsplice and one splice on the sending end, at least
# one of each on the receiving end (more for a block that arrives in
# parts), no send or recv, and the receiver counts every byte sent.
# lane: parallel
. "$(dirname "$0")/net.sh"
. "$(dirname "$0")/lib.sh"
py_serve
command -v strace >/dev/null 2>&1 || skip "needs strace"

J="--bs=4k --size=1m --output-format=json"
# calls FILE SYSCALL: how many times strace -c counted SYSCALL
calls() {
	awk -v s="$2" '$NF == s { print $4; f = 1 } END { if (!f) print 0 }' "$1"
}

pair tcp:9011 "strace -f -c -o r.st '$IORIG' --name=r --ioengine=net --listen --pingpong --port=9011 --rw=read $J >r.json" \
	"strace -f -c -o s.st '$IORIG' --name=s --ioengine=net --pingpong --hostname=127.0.0.1 --port=9011 --rw=write $J >s.json"
[ "$rrc" -eq 0 ] && [ "$src" -eq 0 ] || die "pingpong: exit $rrc/$src: $(cat "$T/rerr" "$T/serr")"
[ "$(dirf r.json read io_bytes)" = 1048576 ] && [ "$(dirf s.json write io_bytes)" = 1048576 ] ||
	die "pingpong: received $(dirf r.json read io_bytes), sent $(dirf s.json write io_bytes)"
[ "$(dirf r.json read ios)" = 256 ] && [ "$(dirf s.json write ios)" = 256 ] || die "pingpong: ios"
[ "$(calls s.st sendto)" = 257 ] && [ "$(calls s.st recvfrom)" = 256 ] ||
	die "pingpong sender: $(calls s.st sendto) sends, $(calls s.st recvfrom) receives for 256 blocks"
[ "$(calls r.st recvfrom)" = 256 ] && [ "$(calls r.st sendto)" = 256 ] ||
	die "pingpong receiver: $(calls r.st recvfrom) receives, $(calls r.st sendto) sends for 256 blocks"

pair udp:9012 "strace -f -c -o r.st '$IORIG' --name=r --ioengine=net --protocol=udp --pingpong --port=9012 --rw=read $J >r.json" \
	"strace -f -c -o s.st '$IORIG' --name=s --ioengine=net --protocol=udp --pingpong --hostname=127.0.0.1 --port=9012 --rw=write $J >s.json"
[ "$rrc" -eq 0 ] && [ "$src" -eq 0 ] || die "udp pingpong: exit $rrc/$src: $(cat "$T/rerr" "$T/serr")"
[ "$(dirf r.json read io_bytes)" = "$(dirf s.json write io_bytes)" ] &&
	[ "$(dirf s.json write ios)" = 256 ] ||
	die "udp pingpong: received $(dirf r.json read io_bytes), sent $(dirf s.json write io_bytes)"
# open + 256 blocks + close
[ "$(calls s.st sendto)" = 258 ] && [ "$(calls s.st recvfrom)" = 256 ] ||
	die "udp pingpong sender: $(calls s.st sendto) sends, $(calls s.st recvfrom) receives"
[ "$(calls r.st sendto)" = 256 ] || die "udp pingpong receiver: $(calls r.st sendto) replies"

pair tcp:9013 "strace -f -c -o r.st '$IORIG' --name=r --ioengine=netsplice --listen --port=9013 --rw=read $J >r.json" \
	"strace -f -c -o s.st '$IORIG' --name=s --ioengine=netsplice --hostname=127.0.0.1 --port=9013 --rw=write $J >s.json"
[ "$rrc" -eq 0 ] && [ "$src" -eq 0 ] || die "netsplice: exit $rrc/$src: $(cat "$T/rerr" "$T/serr")"
[ "$(dirf r.json read io_bytes)" = 1048576 ] && [ "$(dirf s.json write io_bytes)" = 1048576 ] ||
	die "netsplice: received $(dirf r.json read io_bytes), sent $(dirf s.json write io_bytes)"
# The sender's counts are its own: one pair a block. The receiver's
# splice takes what the socket holds, so a block that has arrived in
# parts takes a pair per part (257 of each once, under the sanitizer
# beside other tests): at least one pair a block, and few more.
[ "$(calls s.st splice)" = 256 ] && [ "$(calls s.st vmsplice)" = 256 ] ||
	die "netsplice s.st: $(calls s.st splice) splice, $(calls s.st vmsplice) vmsplice for 256 blocks"
for c in splice vmsplice; do
	n=$(calls r.st $c)
	[ "$n" -ge 256 ] && [ "$n" -le 288 ] ||
		die "netsplice r.st: $n $c for 256 blocks, expected 256 to 288"
done
for f in s.st r.st; do
	[ "$(calls $f recvfrom)" = 0 ] || die "netsplice $f: recv used"
done
[ "$(calls s.st sendto)" -le 1 ] || die "netsplice: send used for blocks"

# a block larger than the pipe (64 KiB) goes through it in parts
pair tcp:9014 "'$IORIG' --name=r --ioengine=netsplice --listen --port=9014 --rw=read --bs=256k --size=4m --output-format=json >r.json" \
	"'$IORIG' --name=s --ioengine=netsplice --hostname=127.0.0.1 --port=9014 --rw=write --bs=256k --size=4m --output-format=json >s.json"
[ "$rrc" -eq 0 ] && [ "$src" -eq 0 ] || die "netsplice 256k: exit $rrc/$src: $(cat "$T/rerr" "$T/serr")"
[ "$(dirf r.json read io_bytes)" = 4194304 ] && [ "$(dirf r.json read ios)" = 16 ] ||
	die "netsplice 256k: received $(dirf r.json read io_bytes) in $(dirf r.json read ios)"
echo "ok: pingpong tcp/udp and netsplice, system calls per block"
