#!/bin/sh
# scsi_debug's disk has a SCSI generic node, and sg3-utils talk SCSI to it:
# READ CAPACITY gives the size the kernel gives its sd disk, INQUIRY names
# scsi_debug, and reading 2048 more blocks through /dev/sgN 128 at a time
# takes 16 more commands by the SCSI midlayer's own count of the device's
# requests (iorequest_cnt; sg_dd sends commands of its own besides the
# READs, the same for both lengths).
. "$(dirname "$0")/../lib.sh"
need sg_readcap sg3-utils
sg=$(scsi_debug_sg)
sys=/sys/class/scsi_generic/${sg#/dev/}/device
disk=$(ls "$sys/block" 2>/dev/null)
[ -n "$disk" ] || die "$sg: no sd disk beside it"

sg_readcap "$sg" >"$T/cap" 2>"$T/err" || die "sg_readcap $sg: $(cat "$T/err")"
read -r sectors <"/sys/block/$disk/size"
read -r lbs <"/sys/block/$disk/queue/logical_block_size"
blocks=$((sectors * 512 / lbs))
grep -q "Number of logical blocks=$blocks\$" "$T/cap" ||
	die "sg_readcap $sg: not $blocks blocks: $(cat "$T/cap")"
grep -q "Logical block length=$lbs bytes" "$T/cap" ||
	die "sg_readcap $sg: not $lbs-byte blocks: $(cat "$T/cap")"
sg_inq "$sg" >"$T/inq" 2>"$T/err" || die "sg_inq $sg: $(cat "$T/err")"
grep -q 'Product identification: scsi_debug' "$T/inq" ||
	die "sg_inq $sg: not scsi_debug: $(cat "$T/inq")"

# sgdd COUNT: how many commands sg_dd took to read COUNT blocks.
sgdd() {
	read -r c0 <"$sys/iorequest_cnt"
	sg_dd if="$sg" of=/dev/null bs="$lbs" bpt=128 count="$1" 2>"$T/err" ||
		die "sg_dd from $sg: $(cat "$T/err")"
	read -r c1 <"$sys/iorequest_cnt"
	echo $((c1 - c0))
}
a=$(sgdd 2048)
b=$(sgdd 4096)
[ "$a" -ge 16 ] && [ $((b - a)) -eq 16 ] ||
	die "$sg: iorequest_cnt moved by $a for 16 READs, by $b for 32"
echo "ok: $sg ($disk): $blocks blocks of $lbs bytes by READ CAPACITY;" \
	"16 more READs counted for 2048 more blocks"
