#!/bin/sh
# stats=0, unit_base=, significant_figures= with fio's meaning.
# stats=0: the job runs (its file is written: the outside truth) but is in
# no report and not in its group's totals, as fio leaves it out of its
# output (fio 3.33's json and terse keep a nameless all-zero placeholder
# for it, which iorig does not copy: the named jobs are compared). unit_base=1
# gives the text report's bandwidth in bits with fio's unit names, and
# significant_figures= its IOPS and bandwidth precision; fio's JSON is not
# changed by either (checked on fio), nor is iorig's.
# lane: parallel
. "$(dirname "$0")/lib.sh"

MiB=1048576
mkrand r.dat $MiB
cat >s.fio <<'EOS'
[global]
size=1m
bs=64k
[a]
filename=r.dat
rw=read
[b]
filename=w.dat
rw=write
stats=0
EOS
run s.fio --output-format=json
expect_rc 0
[ "$(fsize w.dat)" -eq $MiB ] || die "the stats=0 job did not run (w.dat: $(fsize w.dat) bytes)"
json_is "[j['name'] for j in d['jobs']]" "['a']"
json_is "[(g['njobs'], g['write']['io_bytes'], g['read']['io_bytes']) for g in d['groups']]" "[(1, 0, $MiB)]"
run s.fio --output-format=fio-json
expect_rc 0
json_is "[j['jobname'] for j in d['jobs']]" "['a']"
run s.fio
expect_rc 0
expect_not_in out "^b:"
expect_in out "^group 0: 1 job, 1 ran"
run s.fio --output-format=terse
expect_rc 0
[ "$(wc -l <out)" -eq 1 ] && expect_in out "^3;[^;]*;a;"
if command -v fio >/dev/null; then
	rm -f w.dat
	fio s.fio --output-format=json --output=f.json >/dev/null 2>&1 ||
		die "fio failed on the job"
	[ "$(fsize w.dat)" -eq $MiB ] || die "fio's stats=0 job did not run"
	[ "$(jsonf f.json "[j['jobname'] for j in d['jobs'] if 'jobname' in j]")" = "['a']" ] ||
		die "fio's named jobs: $(jsonf f.json "[j.get('jobname') for j in d['jobs']]")"
	fio s.fio --output=f.txt >/dev/null 2>&1 || die "fio failed on the job"
	grep -q "^b: (groupid" f.txt && die "fio reports the stats=0 job"
	grep -Eq "WRITE:" f.txt && die "fio's group totals have the stats=0 job's writes"
fi

# unit_base=1: bits, fio's unit names; the figures are 8 times the bytes
# per second of the JSON report of the same run.
run --name=a --filename=r.dat --size=1m --bs=4k --rw=read --unit_base=1 \
	--significant_figures=6 --output-format=json,text
expect_rc 0
# text first, then the JSON document
sed -n '/^{/,$p' out >j.json
line=$(grep -E '^  read ' out | head -1) || die "no read line"
echo "$line" | grep -Eq "IOPS  [0-9.]+ [KMGT]?i?bit/s \([0-9.]+ [kMGT]?bit/s\)" ||
	die "unit_base=1: not bits: $line"
"$PY" - "$line" j.json <<'EOP' || die "the text's figures are not the JSON's in bits at 6 figures: $line"
import json, re, sys
line, d = sys.argv[1], json.load(open(sys.argv[2]))
r = d['jobs'][0]['read']
m = re.search(r'read\s+([0-9.]+)([kMG]?) IOPS\s+([0-9.]+) ([KMGT]?)ibit/s \(([0-9.]+) ([kMGT]?)bit/s\)', line)
iops = float(m.group(1)) * {'': 1, 'k': 1e3, 'M': 1e6, 'G': 1e9}[m.group(2)]
bin_ = float(m.group(3)) * {'': 1, 'K': 2**10, 'M': 2**20, 'G': 2**30, 'T': 2**40}[m.group(4)]
dec = float(m.group(5)) * {'': 1, 'k': 1e3, 'M': 1e6, 'G': 1e9, 'T': 1e12}[m.group(6)]
# 6 significant figures: each within half a unit of the 6th digit
for txt, val in ((m.group(1), iops), (m.group(3), bin_), (m.group(5), dec)):
    assert len(txt.replace('.', '').lstrip('0')) == 6, txt
bits = r['bw_bytes'] * 8
assert abs(iops - r['iops']) <= r['iops'] * 1e-5, (iops, r['iops'])
assert abs(bin_ - bits) <= bits * 1e-5, (bin_, bits)
assert abs(dec - bits) <= bits * 1e-5, (dec, bits)
EOP
# fio's normal output names the same units; its JSON stays in bytes.
if command -v fio >/dev/null; then
	fio --name=a --filename=r.dat --size=1m --bs=4k --rw=read --unit_base=1 \
		--output=f.txt >/dev/null 2>&1 || die "fio failed"
	grep -Eq "BW=[0-9.]+[KMGT]?ibit/s \([0-9.]+[kMGT]?bit/s\)" f.txt ||
		die "fio's unit_base=1 output: $(grep BW= f.txt)"
	fio --name=a --filename=r.dat --size=1m --bs=4k --rw=read --unit_base=1 \
		--output-format=json --output=f.json >/dev/null 2>&1 || die "fio failed"
	[ "$(jsonf f.json "abs(d['jobs'][0]['read']['bw'] * 1024 - d['jobs'][0]['read']['bw_bytes']) < 1024")" = True ] ||
		die "fio's JSON bandwidth changed with unit_base=1"
fi
# significant_figures=2: two figures; fio's range 1..10 refused outside
run --name=a --filename=r.dat --size=1m --bs=4k --rw=read --significant_figures=2
expect_rc 0
line=$(grep -E '^  read ' out | head -1)
"$PY" - "$line" <<'EOP' || die "significant_figures=2: $line"
import re, sys
m = re.search(r'read\s+([0-9.]+)[kMG]? IOPS\s+([0-9.]+) [KMG]?iB/s \(([0-9.]+) [kMG]?B/s\)', sys.argv[1])
for t in m.groups():
    # at most 2 significant digits, the rest zeros
    assert len(t.replace('.', '').strip('0')) <= 2, t
EOP
run --name=a --filename=r.dat --size=1m --rw=read --significant_figures=11
expect_rc 2
expect_in err "significant_figures.*from 1 to 10"
run --name=a --filename=r.dat --size=1m --rw=read --unit_base=2
expect_rc 2
echo ok
