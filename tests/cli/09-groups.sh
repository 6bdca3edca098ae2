#!/bin/sh
# Groups: stonewall runs jobs one after the other in separate groups;
# new_group only splits the reporting; group_reporting merges clones.
# lane: parallel
. "$(dirname "$0")/lib.sh"

# stonewall: two groups, and the second job starts when the first is done,
# so the run lasts at least the sum of their runtimes.
run --ioengine=null --bs=4k --time_based --runtime=300ms \
	--name=a --name=b --stonewall --output-format=json
expect_rc 0
json_is "len(d['groups'])" 2
json_is "[(j['name'], j['group']) for j in d['jobs']]" "[('a', 0), ('b', 1)]"
expect_json "d['wall_ns'] >= 590000000" "jobs ran one after the other"
# Without it: one group, side by side. A second each (at 1000 I/Os a
# second, not two busy threads): one after the other would take 2 s, and
# 0.9 s is left for a start and an end on a busy machine.
run --ioengine=null --bs=4k --time_based --runtime=1s --rate_iops=1k \
	--name=a --name=b --output-format=json
expect_rc 0
json_is "len(d['groups'])" 1
json_is "[j['group'] for j in d['jobs']]" '[0, 0]'
expect_json "d['wall_ns'] < 1.9e9" "jobs ran side by side"
# new_group: a new reporting group, still side by side.
run --ioengine=null --bs=4k --time_based --runtime=1s --rate_iops=1k \
	--name=a --name=b --new_group --output-format=json
expect_rc 0
json_is "len(d['groups'])" 2
expect_json "d['wall_ns'] < 1.9e9" "new_group does not wait"

# On files: the reader after a stonewall sees the writer's whole file.
cat >seq.job <<'EOF'
[global]
filename=seq.dat
size=2m
bs=64k

[write]
rw=write

[read]
stonewall
rw=read
EOF
run --output-format=json seq.job
expect_rc 0
json_is "[j['group'] for j in d['jobs']]" '[0, 1]'
json_is "d['groups'][0]['write']['io_bytes']" 2097152
json_is "d['groups'][1]['read']['io_bytes']" 2097152
# wait_for_previous is stonewall's alias; stonewall in [global] makes
# every job its own group.
run --ioengine=null --size=1m --stonewall --name=a --name=b --name=c \
	--output-format=json
expect_rc 0
json_is "len(d['groups'])" 3
run --ioengine=null --size=1m --name=a --name=b --wait_for_previous \
	--output-format=json
expect_rc 0
json_is "len(d['groups'])" 2

# group_reporting with numjobs=3: one unit, njobs 3, the sum of the I/O.
run --ioengine=null --size=1m --bs=4k --name=g --numjobs=3 \
	--group_reporting --output-format=json
expect_rc 0
json_is "len(d['jobs'])" 1
json_is "d['jobs'][0]['njobs']" 3
json_is "d['jobs'][0]['clone']" None
json_is "d['jobs'][0]['read']['ios']" 768
json_is "d['jobs'][0]['read']['io_bytes']" 3145728
json_is "d['groups'][0]['njobs']" 3
json_is "d['groups'][0]['njobs_ran']" 3
json_is "d['groups'][0]['read']['ios']" 768
# It merges every job of the group, not only clones.
run --ioengine=null --size=1m --bs=4k --group_reporting --name=x --numjobs=2 \
	--name=y --output-format=json
expect_rc 0
json_is "len(d['jobs'])" 1
json_is "d['jobs'][0]['njobs']" 3
json_is "d['jobs'][0]['read']['ios']" 768
# ...but not across groups.
run --ioengine=null --size=1m --bs=4k --group_reporting --name=x --numjobs=2 \
	--name=y --stonewall --output-format=json
expect_rc 0
json_is "[(j['name'], j['njobs'], j['read']['ios']) for j in d['jobs']]" \
	"[('x', 2, 512), ('y', 1, 256)]"

# Without group_reporting, numjobs=2 reports two jobs.
run --ioengine=null --size=1m --bs=4k --name=c --numjobs=2 --output-format=json
expect_rc 0
json_is "len(d['jobs'])" 2
json_is "[(j['name'], j['clone'], j['njobs'], j['read']['ios']) for j in d['jobs']]" \
	"[('c', 0, 1, 256), ('c', 1, 1, 256)]"
json_is "d['groups'][0]['read']['ios']" 512
# Each clone has its own default file.
run --size=1m --bs=4k --rw=write --name=c --numjobs=2
expect_rc 0
[ -e c.0.0 ] && [ -e c.1.0 ] || die "expected the files c.0.0 and c.1.0"

# The text report: a merged unit says so.
run --ioengine=null --size=1m --bs=4k --name=g --numjobs=3 --group_reporting
expect_rc 0
expect_in out '^g: 3 jobs merged'
expect_in out '^group 0: 3 jobs'
exit 0
