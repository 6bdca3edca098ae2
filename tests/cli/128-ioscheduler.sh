#!/bin/sh
# ioscheduler=: the disk under the job's target runs with that scheduler
# while the job does I/O (the kernel's /sys/block/DISK/queue/scheduler,
# read while it runs), and is put back as it was found afterwards; a
# scheduler the disk does not offer fails the job and changes nothing.
# lane: parallel
. "$(dirname "$0")/lib.sh"

loop_disk d.img 16
disk=$(basename "$dev")
sf=/sys/block/$disk/queue/scheduler
[ -w "$sf" ] || skip "$sf is not writable"
before=$(sed 's/.*\[\(.*\)\].*/\1/' "$sf")
want=
for s in bfq mq-deadline kyber none; do
	[ "$s" != "$before" ] && grep -qw -- "$s" "$sf" && { want=$s; break; }
done
[ -n "$want" ] || skip "$disk offers no other scheduler than $before"

# read every 20 ms until it shows the one asked or the run ends (3 s of
# direct reads at 200 a second: a wait, not a busy loop)
"$IORIG" --name=s --filename="$dev" --rw=randread --bs=4k --size=8m \
	--direct=1 --rate_iops=200 --time_based --runtime=3s \
	--ioscheduler="$want" --output-format=json >"$T/out" 2>"$T/err" &
pid=$!
during=$(cat "$sf")
while ! echo "$during" | grep -qF "[$want]" && running $pid; do
	sleep 0.02
	during=$(cat "$sf")
done
wait $pid || die "the job failed"
after=$(sed 's/.*\[\(.*\)\].*/\1/' "$sf")
echo "$during" | grep -qF "[$want]" ||
	die "while running $disk had '$during', not [$want]"
[ "$after" = "$before" ] || die "$disk left on $after, was $before"
json_is "d['jobs'][0]['targets'][0]['device']['scheduler']" "$want"

# Not offered: the job fails, saying what the disk offers; nothing changed.
run --name=s --filename="$dev" --rw=read --bs=4k --size=1m \
	--ioscheduler=nosuch
[ "$rc" -ne 0 ] || die "ioscheduler=nosuch ran"
expect_in err "ioscheduler=nosuch: $disk offers"
[ "$(sed 's/.*\[\(.*\)\].*/\1/' "$sf")" = "$before" ] ||
	die "$disk changed by a failed switch"

# Not a name: refused before anything runs.
run --name=s --filename="$dev" --size=1m --ioscheduler='bfq x'
expect_rc 2
expect_in err "option 'ioscheduler': expected a scheduler name"

# No disk under the target (the null engine): a warning, nothing else.
run --name=n --ioengine=null --size=1m --ioscheduler="$want" \
	--output-format=json
expect_rc 0
json_is "[w['code'] for w in d['warnings']]" "['ioscheduler_no_disk']"
