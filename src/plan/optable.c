// SPDX-License-Identifier: MIT
/*
 * The option table, data only: every job option declared once (its name,
 * type, default, range, category, help and, where its value needs more
 * than its type's parser, its setter in optvalue.c), the choice lists of
 * the options that take a word, and the names of fio's options that iorig
 * does not have or that fio 3.33 does not know. The machinery that reads
 * it (find, suggest, parse, set, defaults, format, help) is options.c's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cgroup.h"
#include "check_expr.h"
#include "cpuset.h"
#include "dist.h"
#include "engine.h"
#include "fill.h"
#include "gen.h"
#include "iosched.h"
#include "optint.h"
#include "options.h"
#include "path.h"
#include "procattr.h"
#include "profile.h"
#include "steady.h"
#include "value.h"
#include "verify.h"

#define NS_S	1000000000ull
#define F(field) offsetof(struct job, field)

static const struct opt_choice rw_choices[] = {
	{ "read", RW_READ, "sequential reads" },
	{ "write", RW_WRITE, "sequential writes" },
	{ "randread", RW_RANDREAD, "random reads" },
	{ "randwrite", RW_RANDWRITE, "random writes" },
	{ "rw", RW_RW, "sequential mixed reads and writes" },
	{ "readwrite", RW_RW, "same as rw" },
	{ "randrw", RW_RANDRW, "random mixed reads and writes" },
	{ "trim", RW_TRIM, "sequential trims (discard, hole punching)" },
	{ "randtrim", RW_RANDTRIM, "random trims" },
	{ "trimwrite", RW_TRIMWRITE, "sequential trims, each followed by a "
	  "write of its blocks" },
	{ "randtrimwrite", RW_RANDTRIMWRITE, "trimwrite at random offsets" },
	{ NULL, 0, NULL },
};

static const struct opt_choice sync_choices[] = {
	{ "none", SYNC_NONE, "no O_SYNC or O_DSYNC" },
	{ "0", SYNC_NONE, "same as none" },
	{ "sync", SYNC_SYNC, "open with O_SYNC" },
	{ "1", SYNC_SYNC, "same as sync" },
	{ "dsync", SYNC_DSYNC, "open with O_DSYNC" },
	{ NULL, 0, NULL },
};

static const struct opt_choice fadvise_choices[] = {
	{ "0", FADV_NONE, "no posix_fadvise" },
	{ "1", FADV_AUTO, "sequential or random, following rw" },
	{ "sequential", FADV_SEQUENTIAL, "POSIX_FADV_SEQUENTIAL" },
	{ "random", FADV_RANDOM, "POSIX_FADV_RANDOM" },
	{ "noreuse", FADV_NOREUSE, "POSIX_FADV_NOREUSE" },
	{ "dontneed", FADV_DONTNEED, "POSIX_FADV_DONTNEED" },
	{ "willneed", FADV_WILLNEED, "POSIX_FADV_WILLNEED" },
	{ NULL, 0, NULL },
};

static const struct opt_choice filetype_choices[] = {
	{ "none", FILETYPE_NONE, "any type iorig takes" },
	{ "file", FILETYPE_FILE, "regular files (or new ones)" },
	{ "block", FILETYPE_BLOCK, "block devices" },
	{ "char", FILETYPE_CHAR, "character devices (iorig takes none)" },
	{ NULL, 0, NULL },
};

static const struct opt_choice unit_base_choices[] = {
	{ "0", 0, "bytes (fio: auto, which is bytes)" },
	{ "8", 8, "bytes" },
	{ "1", 1, "bits" },
	{ NULL, 0, NULL },
};

static const struct opt_choice kb_base_choices[] = {
	{ "1024", 1024, "k, m, KB, MB... are powers of 1024" },
	{ "1000", 1000, "k, m, KB, MB... are powers of 1000 (KiB stays 1024)" },
	{ NULL, 0, NULL },
};

static const struct opt_choice coe_choices[] = {
	{ "none", COE_NONE, "stop at the first error" },
	{ "0", COE_NONE, "same as none" },
	{ "read", COE_READ, "count read errors and go on" },
	{ "write", COE_WRITE, "count write errors and go on" },
	{ "io", COE_IO, "count read and write errors and go on" },
	{ "verify", COE_VERIFY, "count verification mismatches and go on" },
	{ "all", COE_ALL, "io and verify" },
	{ "1", COE_ALL, "same as all" },
	{ NULL, 0, NULL },
};

static const struct opt_choice think_type_choices[] = {
	{ "complete", THINK_COMPLETE, "count completed I/Os" },
	{ "issue", THINK_ISSUE, "count issued I/Os" },
	{ NULL, 0, NULL },
};

static const struct opt_choice log_window_choices[] = {
	{ "avg", 0, "the mean of each window" },
	{ "max", 1, "the largest value of each window" },
	{ "both", 2, "the mean, then the largest value" },
	{ "0", 0, "avg" },
	{ "1", 1, "max" },
	{ NULL, 0, NULL },
};

static const struct opt_choice rate_process_choices[] = {
	{ "linear", RATE_LINEAR, "evenly spaced: one I/O every bs/rate" },
	{ "poisson", RATE_POISSON, "exponential gaps of mean bs/rate (a "
	  "Poisson process)" },
	{ NULL, 0, NULL },
};

static const struct opt_choice cpus_policy_choices[] = {
	{ "shared", CPUS_SHARED, "every clone may run on all of the CPUs" },
	{ "split", CPUS_SPLIT, "each clone gets one CPU of the set, in turn" },
	{ NULL, 0, NULL },
};

static const struct opt_choice clocksource_choices[] = {
	{ "gettimeofday", CLKSRC_GETTIMEOFDAY, "accepted; iorig keeps its "
	  "own clock (see the manual)" },
	{ "clock_gettime", CLKSRC_CLOCK_GETTIME, "accepted; iorig keeps its "
	  "own clock" },
	{ "cpu", CLKSRC_CPU, "accepted; iorig keeps its own clock" },
	{ NULL, 0, NULL },
};

static const struct opt_choice exit_what_choices[] = {
	{ "group", EXIT_WHAT_GROUP, "the jobs running with it (its wait "
	  "group)" },
	{ "stonewall", EXIT_WHAT_STONEWALL, "every running job: its wait "
	  "group, which runs alone" },
	{ "all", EXIT_WHAT_ALL, "every job: later wait groups do not start" },
	{ NULL, 0, NULL },
};

static const struct opt_choice unified_choices[] = {
	{ "none", UNIFIED_NONE, "reads and writes reported apart" },
	{ "0", UNIFIED_NONE, "same as none" },
	{ "mixed", UNIFIED_MIXED, "reads and writes reported as one "
	  "direction, mixed" },
	{ "1", UNIFIED_MIXED, "same as mixed" },
	{ "both", UNIFIED_BOTH, "apart, and mixed too" },
	{ "2", UNIFIED_BOTH, "same as both" },
	{ NULL, 0, NULL },
};

static const struct opt_choice submit_mode_choices[] = {
	{ "inline", SUBMIT_INLINE, "the job's thread submits and reaps" },
	{ "offload", SUBMIT_OFFLOAD, "accepted for fio job files; iorig "
	  "submits inline, on schedule (see the manual)" },
	{ NULL, 0, NULL },
};

static const struct opt_choice dedupe_mode_choices[] = {
	{ "repeat", DEDUPE_REPEAT, "the last distinct write" },
	{ "working_set", DEDUPE_WORKING_SET, "one of the first distinct "
	  "writes (dedupe_working_set_percentage of the region), drawn at "
	  "random" },
	{ NULL, 0, NULL },
};

static const struct opt_choice randgen_choices[] = {
	{ "tausworthe", RANDGEN_TAUSWORTHE, "fio's default; iorig draws from "
	  "xoshiro256** either way" },
	{ "lfsr", RANDGEN_LFSR, "every block once per pass even with "
	  "norandommap=1 (one block size)" },
	{ "tausworthe64", RANDGEN_TAUSWORTHE64, "same as tausworthe" },
	{ NULL, 0, NULL },
};

static const struct opt_choice rwseq_choices[] = {
	{ "sequential", RWSEQ_SEQUENTIAL, "rw=randread:N: N-1 sequential "
	  "I/Os after each random one" },
	{ "identical", RWSEQ_IDENTICAL, "rw=randread:N: each random offset "
	  "N times" },
	{ NULL, 0, NULL },
};

static const struct opt_choice zonemode_choices[] = {
	{ "none", ZONE_NONE, "no zones (zonesize is then refused, as fio "
	  "does)" },
	{ "strided", ZONE_STRIDED, "zonesize bytes in a zone of zonerange "
	  "bytes, then the next zone zoneskip bytes further on" },
	{ "zbd", ZONE_ZBD, "zoned block devices: writes at the zones' "
	  "write pointers, reads below them (zones emulated on other "
	  "targets with zonesize)" },
	{ NULL, 0, NULL },
};

static const struct opt_choice lockfile_choices[] = {
	{ "none", 0, "no locking (iorig never locks files)" },
	{ "exclusive", 1, "fio: one I/O on the file at a time: refused, "
	  "not supported yet" },
	{ "readwrite", 2, "fio: shared reads, exclusive writes: refused, "
	  "not supported yet" },
	{ NULL, 0, NULL },
};

static const struct opt_choice falloc_choices[] = {
	{ "none", FALLOC_NONE, "no preallocation: writes allocate" },
	{ "0", FALLOC_NONE, "same as none" },
	{ "native", FALLOC_NATIVE, "fallocate(2), nothing when the file "
	  "system cannot" },
	{ "posix", FALLOC_POSIX, "posix_fallocate(3)" },
	{ "1", FALLOC_POSIX, "same as posix" },
	{ "keep", FALLOC_KEEP, "fallocate(2) with FALLOC_FL_KEEP_SIZE" },
	{ "truncate", FALLOC_TRUNCATE, "ftruncate(2) up to the end of the "
	  "region (a sparse file; never shortens)" },
	{ NULL, 0, NULL },
};

static const struct opt_choice verify_choices[] = {
	{ "none", VERIFY_NONE, "write plain data, check nothing" },
	{ "0", VERIFY_NONE, "same as none (fio's default)" },
	{ "xxh3", VERIFY_XXH3, "header, generated data, XXH3 64-bit checksum" },
	{ "crc32c", VERIFY_CRC32C, "header, generated data, CRC-32C "
	  "checksum" },
	{ "crc32c-intel", VERIFY_CRC32C, "same as crc32c (fio's name for "
	  "its hardware-assisted CRC-32C)" },
	{ "pattern", VERIFY_PATTERN, "header, verify_pattern as the data, "
	  "CRC-32C checksum" },
	{ "md5", VERIFY_MD5, "header, generated data, MD5 (libcrypto)" },
	{ "crc64", VERIFY_CRC64, "header, generated data, CRC-64 (liblzma, "
	  "ECMA-182)" },
	{ "crc32", VERIFY_CRC32, "header, generated data, CRC-32 (zlib)" },
	{ "sha1", VERIFY_SHA1, "header, generated data, SHA-1 (libcrypto)" },
	{ "sha256", VERIFY_SHA256, "header, generated data, SHA-256 "
	  "(libcrypto)" },
	{ "sha512", VERIFY_SHA512, "header, generated data, SHA-512 "
	  "(libcrypto)" },
	{ "sha3-224", VERIFY_SHA3_224, "header, generated data, SHA3-224 "
	  "(libcrypto)" },
	{ "sha3-256", VERIFY_SHA3_256, "header, generated data, SHA3-256 "
	  "(libcrypto)" },
	{ "sha3-384", VERIFY_SHA3_384, "header, generated data, SHA3-384 "
	  "(libcrypto)" },
	{ "sha3-512", VERIFY_SHA3_512, "header, generated data, SHA3-512 "
	  "(libcrypto)" },
	{ "xxhash", VERIFY_XXHASH, "header, generated data, XXH32 seed 1 "
	  "(libxxhash)" },
	{ "meta", VERIFY_META, "header, generated data; only the header is "
	  "checked (CRC-32C of it), as fio's meta" },
	{ NULL, 0, NULL },
};

#define DEFAULT_PERCENTILES \
	"1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99"

const struct opt_def options_table[] = {
	/* Job description */
	{ .name = "name", .type = OPT_STR, .off = F(desc.name),
	  .category = "description",
	  .help = "Job name; starts a new job on the command line" },
	{ .name = "description", .type = OPT_STR, .off = F(desc.description),
	  .category = "description",
	  .help = "Free text, kept in the JSON report's options" },
	/* Target */
	{ .name = "filename", .type = OPT_STR, .off = F(target.filename),
	  .category = "target",
	  .help = "File(s) or block device(s), ':'-separated (\\: is a "
		  "':' in a name); default NAME.CLONE.FILE in directory" },
	{ .name = "directory", .type = OPT_STR, .off = F(target.directory),
	  .category = "target",
	  .help = "Directory for generated file names" },
	{ .name = "size", .type = OPT_SIZE_PCT, .off = F(target.size),
	  .aux = F(target.size_pct), .category = "target", .flags = OPT_F_ZONES,
	  .help = "Region of the job in bytes, a percentage of the "
		  "target's size, or zones (4z); default: the target's size" },
	{ .name = "offset", .alias = "fileoffset", .type = OPT_SIZE_PCT,
	  .off = F(target.offset),
	  .aux = F(target.offset_pct), .def = "0", .category = "target",
	  .flags = OPT_F_ZONES,
	  .help = "Start of the region in each file: bytes, percentage "
		  "or zones (2z)" },
	{ .name = "io_size", .alias = "io_limit", .type = OPT_SIZE,
	  .off = F(target.io_size), .def = "0", .category = "target",
	  .flags = OPT_F_ZONES,
	  .help = "Bytes to transfer per loop; 0: the region's size" },
	{ .name = "nrfiles", .alias = "nr_files", .type = OPT_UINT,
	  .off = F(target.nrfiles), .def = "1", .min = 1, .max = 4096,
	  .category = "target",
	  .help = "Number of files the region is split over" },
	/* Workload */
	{ .name = "rw", .alias = "readwrite", .type = OPT_ENUM, .off = F(io.rw),
	  .def = "read", .choices = rw_choices, .category = "workload",
	  .help = "I/O pattern" },
	{ .name = "rwmixread", .type = OPT_PCT, .off = F(io.rwmixread),
	  .def = "50", .category = "workload",
	  .help = "Percent of mixed I/Os that read" },
	{ .name = "rwmixwrite", .type = OPT_PCT, .off = F(io.rwmixread),
	  .flags = OPT_F_INVERT, .def = "50", .category = "workload",
	  .help = "Percent of mixed I/Os that write (100 - rwmixread)" },
	{ .name = "bs", .alias = "blocksize", .type = OPT_BS, .off = 0,
	  .def = "4k", .category = "workload",
	  .help = "Block size: SIZE, or READ,WRITE[,TRIM] (READ-WRITE as "
		  "fio reads it; ranges: bsrange)" },
	{ .name = "bsrange", .alias = "blocksize_range", .type = OPT_BS,
	  .off = 0, .def = "4k", .category = "workload",
	  .help = "Block size range LO-HI (or READ,WRITE[,TRIM] ranges), "
		  "sizes drawn as fio does; same setting as bs" },
	{ .name = "ioengine", .type = OPT_SPECIAL, .off = F(eng.ioengine),
	  .def = "sync", .set = optvalue_ioengine, .category = "engine",
	  .help = "How I/O is issued; see ENGINES" },
	{ .name = "iodepth", .type = OPT_UINT, .off = F(eng.iodepth),
	.def = "1",
	  .min = 1, .max = 65536, .category = "engine",
	  .help = "I/Os kept in flight (synchronous engines: 1)" },
	{ .name = "iodepth_batch_submit", .alias = "iodepth_batch",
	  .type = OPT_UINT, .off = F(eng.iodepth_batch_submit), .def = "0",
	  .min = 0, .max = 65536, .category = "engine",
	  .help = "Hand I/Os to the kernel in batches of this many; 0: "
		  "all that are ready at once" },
	{ .name = "iodepth_batch_complete_min",
	  .alias = "iodepth_batch_complete", .type = OPT_UINT,
	  .off = F(eng.iodepth_batch_complete_min), .def = "1", .min = 0,
	  .max = 65536, .category = "engine",
	  .help = "Wait for at least this many completions at a time; 0: "
		  "never wait, poll" },
	{ .name = "iodepth_batch_complete_max", .type = OPT_UINT,
	  .off = F(eng.iodepth_batch_complete_max), .def = "0", .min = 0,
	  .max = 65536, .flags = OPT_F_ENGINE_NEXT, .category = "engine",
	  .help = "Collect at most this many completions at a time; 0: "
		  "iodepth" },
	{ .name = "numjobs", .type = OPT_UINT, .off = F(eng.numjobs),
	.def = "1",
	  .min = 1, .max = 4096, .category = "engine",
	  .help = "Clones of this job, each its own thread" },
	{ .name = "thread", .type = OPT_BOOL, .off = F(eng.thread), .def = "0",
	  .category = "engine",
	  .help = "Accepted for fio compatibility: jobs are always threads" },
	/* Time and stop conditions */
	{ .name = "runtime", .alias = "timeout", .type = OPT_TIME,
	  .off = F(time.runtime_ns), .def = "0", .unit_ns = NS_S,
	  .category = "time",
	  .help = "Stop after this long (default unit s); 0: no limit" },
	{ .name = "time_based", .type = OPT_BOOL, .off = F(time.time_based),
	  .def = "0", .category = "time",
	  .help = "Repeat the workload until runtime has passed" },
	{ .name = "ramp_time", .type = OPT_TIME, .off = F(time.ramp_time_ns),
	  .def = "0", .unit_ns = NS_S, .category = "time",
	  .help = "Run this long before measuring (default unit s)" },
	{ .name = "startdelay", .type = OPT_TIME, .off = F(time.startdelay_ns),
	  .def = "0", .unit_ns = NS_S, .category = "time",
	  .help = "Wait this long before starting (default unit s)" },
	{ .name = "loops", .type = OPT_UINT, .off = F(time.loops), .def = "1",
	  .min = 1, .max = UINT32_MAX, .category = "time",
	  .help = "Repeat the workload this many times" },
	{ .name = "number_ios", .type = OPT_UINT, .off = F(time.number_ios),
	  .def = "0", .min = 0, .max = UINT64_MAX, .category = "time",
	  .help = "Stop after this many I/Os; 0: no limit" },
	/* Think time (fio's meaning; counted in the runtime) */
	{ .name = "thinktime", .type = OPT_TIME, .off = F(time.thinktime_ns),
	  .def = "0", .unit_ns = 1000, .category = "time",
	  .help = "Stall this long after thinktime_blocks I/Os, once those "
		  "in flight are done (default unit us); 0: never" },
	{ .name = "thinktime_spin", .type = OPT_TIME,
	  .off = F(time.thinktime_spin_ns), .def = "0", .unit_ns = 1000,
	  .category = "time",
	  .help = "Of each thinktime, spend this much busy on the CPU "
		  "first, then sleep the rest (default unit us)" },
	{ .name = "thinkcycles", .type = OPT_UINT, .off = F(time.thinkcycles),
	  .def = "0", .min = 0, .max = 4294967295u, .category = "time",
	  .help = "After each read or write issued, spin this many "
		  "iterations of the CPU's spin-wait hint (pause); 0: off" },
	{ .name = "thinktime_blocks", .type = OPT_UINT,
	  .off = F(time.thinktime_blocks), .def = "1", .min = 0,
	  .max = UINT64_MAX, .category = "time",
	  .help = "I/Os between two thinktimes (0 acts as 1)" },
	{ .name = "thinktime_blocks_type", .type = OPT_ENUM,
	  .off = F(time.thinktime_blocks_type), .def = "complete",
	  .choices = think_type_choices, .category = "time",
	  .help = "Whether thinktime_blocks counts completed or issued I/Os" },
	{ .name = "thinktime_iotime", .type = OPT_TIME,
	  .off = F(time.thinktime_iotime_ns), .def = "0", .unit_ns = NS_S,
	  .category = "time",
	  .help = "Also think after this much time doing I/O since the last "
		  "thinktime (default unit s); 0: off" },
	/* Caching and durability */
	/* Rate (src/worker/pace.c) */
	{ .name = "rate", .type = OPT_RATE, .off = F(pace.rate), .def = "0",
	  .category = "rate",
	  .help = "Issue at most this many bytes/s: read[,write[,trim]], one "
		  "value for both, an empty item or 0: no limit; I/Os are "
		  "issued when due, open loop" },
	{ .name = "rate_iops", .type = OPT_RATE, .off = F(pace.rate_iops),
	  .def = "0", .flags = OPT_F_COUNT, .category = "rate",
	  .help = "Issue at most this many I/Os per second per direction, "
		  "as rate= (ignored for a direction rate= sets)" },
	{ .name = "rate_min", .alias = "ratemin", .type = OPT_RATE,
	  .off = F(pace.rate_min),
	  .def = "0", .category = "rate",
	  .help = "Fail the job when a direction moves fewer bytes/s than "
		  "this over a rate_cycle" },
	{ .name = "rate_iops_min", .type = OPT_RATE,
	.off = F(pace.rate_iops_min),
	  .def = "0", .flags = OPT_F_COUNT, .category = "rate",
	  .help = "Fail the job when a direction completes fewer I/Os per "
		  "second than this over a rate_cycle" },
	{ .name = "rate_process", .type = OPT_ENUM, .off = F(pace.rate_process),
	  .def = "linear", .choices = rate_process_choices,
	  .category = "rate",
	  .help = "When rated I/Os fall due: evenly spaced, or as a Poisson "
		  "process" },
	{ .name = "rate_cycle", .alias = "ratecycle", .type = OPT_TIME,
	  .off = F(pace.rate_cycle_ns),
	  .def = "1000", .unit_ns = 1000000, .min = 1000000,
	  .max = 86400 * NS_S, .category = "rate",
	  .help = "The window rate_min and rate_iops_min average over "
		  "(default unit ms)" },
	{ .name = "rate_ignore_thinktime", .type = OPT_BOOL,
	  .off = F(pace.rate_ignore_thinktime), .def = "0", .category = "rate",
	  .help = "After thinking, go on at the rate instead of catching up "
		  "with the I/Os that fell due meanwhile" },
	{ .name = "rate_curve", .type = OPT_SPECIAL, .off = F(pace.rate_curve),
	  .set = optvalue_rate_curve, .category = "rate",
	  .help = "PCT,PCT,... or default (10,50,70,80,90,100): a probe "
		  "run without a rate, then one stonewalled point per PCT "
		  "paced at that percent of the probe's IOPS" },
	{ .name = "rate_curve_probe", .type = OPT_TIME,
	  .off = F(pace.rate_curve_probe_ns), .def = "0", .unit_ns = NS_S,
	  .max = 86400 * NS_S, .flags = OPT_F_OWN, .category = "rate",
	  .help = "rate_curve: how long the probe runs (default unit s); "
		  "0: as runtime" },
	{ .name = "io_submit_mode", .type = OPT_ENUM,
	  .off = F(pace.io_submit_mode), .def = "inline",
	  .choices = submit_mode_choices, .category = "rate",
	  .help = "inline, or offload (fio's submission threads; iorig "
		  "submits inline and on schedule either way)" },
	{ .name = "direct", .type = OPT_BOOL, .off = F(cache.direct),
	.def = "0",
	  .category = "cache", .help = "Open with O_DIRECT" },
	{ .name = "buffered", .type = OPT_BOOL, .off = F(cache.direct),
	  .flags = OPT_F_INVERT, .def = "1", .category = "cache",
	  .help = "Use the page cache (the opposite of direct)" },
	{ .name = "sync", .type = OPT_ENUM, .off = F(cache.sync), .def = "none",
	  .choices = sync_choices, .category = "cache",
	  .help = "Open for synchronous writes" },
	{ .name = "fsync", .type = OPT_UINT, .off = F(cache.fsync), .def = "0",
	  .min = 0, .max = UINT64_MAX, .category = "cache",
	  .help = "fsync after every N writes; 0: never" },
	{ .name = "fdatasync", .type = OPT_UINT, .off = F(cache.fdatasync),
	  .def = "0", .min = 0, .max = UINT64_MAX, .category = "cache",
	  .help = "fdatasync after every N writes; 0: never" },
	{ .name = "write_barrier", .type = OPT_UINT,
	.off = F(cache.write_barrier),
	  .def = "0", .min = 0, .max = UINT64_MAX, .category = "cache",
	  .help = "Accepted for fio job files: fio marks every Nth write a "
		  "barrier for engines that have one (libpmem, sg); none "
		  "here has (a warning says so)" },
	{ .name = "sync_file_range", .type = OPT_SPECIAL,
	  .off = F(cache.sync_file_range), .set = optvalue_sync_file_range,
	  .category = "cache",
	  .help = "FLAGS[:N]: sync_file_range(2) over the range written "
		  "since the last one, every N writes (default 1); FLAGS: "
		  "wait_before, write, wait_after joined by ','" },
	{ .name = "write_hint", .type = OPT_SPECIAL, .off = F(cache.write_hint),
	  .set = optvalue_write_hint, .category = "cache",
	  .help = "Lifetime hint of the data written, set on each file "
		  "(fcntl F_SET_RW_HINT): none, short, medium, long, "
		  "extreme" },
	{ .name = "end_fsync", .type = OPT_BOOL, .off = F(cache.end_fsync),
	  .def = "0", .category = "cache",
	  .help = "fsync the files when the job's writes are done" },
	{ .name = "fsync_on_close", .type = OPT_BOOL,
	  .off = F(cache.fsync_on_close), .def = "0", .category = "cache",
	  .help = "fsync each file before it is closed, inside the runtime "
		  "(a job that writes)" },
	{ .name = "invalidate", .type = OPT_BOOL, .off = F(cache.invalidate),
	  .def = "1", .category = "cache",
	  .help = "Drop the region's page cache before the job" },
	{ .name = "fadvise_hint", .type = OPT_ENUM,
	.off = F(cache.fadvise_hint),
	  .def = "1", .choices = fadvise_choices, .category = "cache",
	  .help = "posix_fadvise advice over the region when opened" },
	/* Errors */
	{ .name = "continue_on_error", .type = OPT_ENUM,
	  .off = F(err.continue_on_error), .def = "none",
	  .choices = coe_choices, .category = "errors",
	  .help = "Failed I/Os to count and go on after instead of stopping "
		  "the job; errors still give exit status 1" },
	{ .name = "ignore_error", .type = OPT_SPECIAL,
	.off = F(err.ignore_error),
	  .set = optvalue_ignore_error, .category = "errors",
	  .help = "READ,WRITE,VERIFY lists of errors (EIO:ENOSPC or numbers) "
		  "to go on after; a list given limits continue_on_error for "
		  "its direction to it and turns it on" },
	{ .name = "max_latency", .type = OPT_SPECIAL, .off = F(err.max_latency),
	  .set = optvalue_max_latency, .category = "errors",
	  .help = "Fail the job (ETIMEDOUT) when a read or write takes longer "
		  "(queue to completion; us when bare; read,write,trim)" },
	/* Flow control between jobs (flow.h) */
	{ .name = "flow", .type = OPT_UINT, .off = F(pace.flow), .def = "0",
	  .min = 0, .max = 1000, .category = "rate",
	  .help = "Weight: jobs of one flow_id keep their I/O counts in the "
		  "ratio of their weights; 0: off" },
	{ .name = "flow_id", .type = OPT_UINT, .off = F(pace.flow_id),
	.def = "0",
	  .min = 0, .max = UINT32_MAX, .category = "rate",
	  .help = "The flow a job with flow= is counted in" },
	{ .name = "flow_sleep", .type = OPT_TIME, .off = F(pace.flow_sleep_ns),
	  .def = "0", .unit_ns = 1000, .category = "rate",
	  .help = "How long a job ahead of its share waits before asking "
		  "again (us when bare); 0: it yields the CPU" },
	/* Latency target: fio's queue depth search */
	{ .name = "latency_target", .type = OPT_TIME,
	  .off = F(err.latency_target_ns), .def = "0", .unit_ns = 1000,
	  .category = "errors",
	  .help = "Find the largest queue depth (up to iodepth) whose I/Os "
		  "stay within this latency (us when bare)" },
	{ .name = "latency_window", .type = OPT_TIME,
	  .off = F(err.latency_window_ns), .def = "0", .unit_ns = 1000,
	  .category = "errors",
	  .help = "latency_target: each depth is tried for this long" },
	{ .name = "latency_percentile", .type = OPT_PCT,
	  .off = F(err.latency_percentile), .def = "100", .category = "errors",
	  .help = "latency_target: this percent of a window's I/Os must be "
		  "within the target" },
	{ .name = "latency_run", .type = OPT_BOOL, .off = F(err.latency_run),
	  .def = "0", .category = "errors",
	  .help = "latency_target: keep adjusting the depth until the job "
		  "ends, instead of stopping once it settles" },
	/* fio 3.33 accepts these and ignores them (deprecated) */
	{ .name = "experimental_verify", .type = OPT_BOOL,
	  .off = F(vfy.experimental_verify), .def = "0", .category = "verify",
	  .help = "Accepted: fio's other way (replaying the writes) to the "
		  "same checks; no effect (a warning says so)" },
	{ .name = "verifysort", .type = OPT_STR, .off = F(vfy.verifysort),
	  .flags = OPT_F_BARE, .category = "verify",
	  .help = "Deprecated in fio, which ignores it: no effect (a warning "
		  "says so)" },
	{ .name = "verifysort_nr", .type = OPT_STR, .off = F(vfy.verifysort_nr),
	  .flags = OPT_F_BARE, .category = "verify",
	  .help = "Deprecated in fio, which ignores it: no effect (a warning "
		  "says so)" },
	{ .name = "flow_watermark", .type = OPT_STR,
	  .off = F(pace.flow_watermark), .flags = OPT_F_BARE,
	  .category = "rate",
	  .help = "Deprecated in fio, which ignores it: no effect (a warning "
		  "says so)" },
	/* Randomness */
	{ .name = "randrepeat", .type = OPT_BOOL,
	  .off = F(rnd.randrepeat),
	  .def = "1", .category = "random",
	  .help = "Same random sequence on every run (seeded by randseed)" },
	{ .name = "randseed", .type = OPT_UINT, .off = F(rnd.randseed),
	  .def = "137", .min = 0, .max = UINT64_MAX, .category = "random",
	  .help = "Seed of the random sequence when randrepeat=1" },
	{ .name = "norandommap", .type = OPT_BOOL, .off = F(rnd.norandommap),
	  .def = "0", .category = "random",
	  .help = "Draw random blocks independently (repeats allowed); "
		  "else each block once per pass" },
	/* Random patterns (dist.h, gen.c) */
	{ .name = "random_distribution", .type = OPT_SPECIAL,
	  .off = F(rnd.random_distribution),
	  .set = optvalue_random_distribution,
	  .def = "random", .category = "random",
	  .help = "Law of random offsets: random, zipf:THETA, pareto:H, "
		  "normal:SIGMA (each [:CENTER]), zoned:A/R:..., "
		  "zoned_abs:A/SIZE:..." },
	{ .name = "random_generator", .type = OPT_ENUM,
	  .off = F(rnd.random_generator), .def = "tausworthe",
	  .choices = randgen_choices, .category = "random",
	  .help = "fio's offset generators; lfsr: no block twice per pass "
		  "even with norandommap=1" },
	{ .name = "percentage_random", .type = OPT_RATE,
	  .off = F(rnd.percentage_random), .def = "100", .flags = OPT_F_COUNT,
	  .category = "random",
	  .help = "Percent of a random job's I/Os at random offsets, the "
		  "rest going on after the one before: read[,write[,trim]]" },
	{ .name = "blockalign", .alias = "ba", .type = OPT_RATE,
	  .off = F(rnd.blockalign), .def = "0", .category = "random",
	  .help = "Random offsets are multiples of this: "
		  "read[,write[,trim]]; 0: "
		  "the block size (any other value turns the map off)" },
	{ .name = "allrandrepeat", .type = OPT_BOOL,
	.off = F(rnd.allrandrepeat),
	  .def = "0", .category = "random",
	  .help = "Also seed the bytes written from randseed, so that runs "
		  "write the same data" },
	{ .name = "rw_sequencer", .type = OPT_ENUM, .off = F(rnd.rw_sequencer),
	  .def = "sequential", .choices = rwseq_choices, .category = "random",
	  .help = "What rw=randread:N does between random offsets" },
	{ .name = "bs_unaligned", .alias = "blocksize_unaligned",
	  .type = OPT_BOOL, .off = F(io.bs_unaligned), .def = "0",
	  .category = "workload",
	  .help = "Lengths of a block size range are any byte count in it, "
		  "not multiples of its smallest size (offsets stay aligned "
		  "for random I/O)" },
	{ .name = "bs_is_seq_rand", .type = OPT_BOOL,
	  .off = F(io.bs_is_seq_rand), .def = "0", .category = "workload",
	  .help = "bs=A,B means sequential I/Os A, random ones B, in every "
		  "direction (instead of read A, write B)" },
	{ .name = "bssplit", .type = OPT_SPECIAL, .off = F(io.bssplit),
	  .set = optvalue_bssplit, .category = "workload",
	  .help = "Weighted block sizes SIZE/PCT:SIZE/PCT..., per direction "
		  "read,write,trim; overrides bs" },
	/* Zones (zonemode=strided; gen.c) */
	{ .name = "zonemode", .type = OPT_SPECIAL, .off = F(io.zonemode),
	  .set = optvalue_zonemode, .choices = zonemode_choices,
	  .category = "workload",
	  .help = "none, strided or zbd; unset: strided when "
		  "zonesize is given (fio's older form)" },
	{ .name = "zonesize", .type = OPT_SIZE, .off = F(io.zonesize),
	  .def = "0", .category = "workload",
	  .help = "Bytes of I/O in a zone before the next one; 0: no zones" },
	{ .name = "zonerange", .type = OPT_SIZE, .off = F(io.zonerange),
	  .def = "0", .category = "workload",
	  .help = "Extent of a zone, where its I/Os go; 0: zonesize" },
	{ .name = "zoneskip", .type = OPT_SIZE, .off = F(io.zoneskip),
	  .def = "0", .category = "workload", .flags = OPT_F_ZONES,
	  .help = "Bytes (or zones, 1z) between the end of a zone and the "
		  "next one" },
	{ .name = "zonecapacity", .type = OPT_SIZE, .off = F(io.zonecapacity),
	  .def = "0", .category = "workload",
	  .help = "zonemode=zbd on a target that is not zoned: the bytes "
		  "of each emulated zone that take writes; 0: zonesize" },
	{ .name = "max_open_zones", .type = OPT_UINT,
	  .off = F(io.max_open_zones), .def = "0", .max = 4096,
	  .category = "workload",
	  .help = "zonemode=zbd: sequential zones written at once at most; "
		  "0: the device's limit (none when it has none)" },
	{ .name = "job_max_open_zones", .type = OPT_UINT,
	  .off = F(io.job_max_open_zones), .def = "0", .max = 4096,
	  .category = "workload",
	  .help = "zonemode=zbd: zones this job writes at once at most "
		  "(needs max_open_zones or a device limit); 0: no limit" },
	{ .name = "ignore_zone_limits", .type = OPT_BOOL,
	  .off = F(io.ignore_zone_limits), .def = "0", .category = "workload",
	  .help = "zonemode=zbd: ignore the device's own open zone limit" },
	{ .name = "read_beyond_wp", .type = OPT_BOOL,
	  .off = F(io.read_beyond_wp), .def = "0", .category = "workload",
	  .help = "zonemode=zbd: reads anywhere in a sequential zone, not "
		  "only below its write pointer" },
	{ .name = "zone_reset_threshold", .type = OPT_SPECIAL,
	  .off = F(io.zone_reset_threshold), .set = optvalue_zone_fraction,
	  .category = "workload",
	  .help = "zonemode=zbd: the fraction (0..1) of the region's "
		  "sequential zones' bytes written from which writes reset "
		  "zones (at zone_reset_frequency)" },
	{ .name = "zone_reset_frequency", .type = OPT_SPECIAL,
	  .off = F(io.zone_reset_frequency), .set = optvalue_zone_fraction,
	  .category = "workload",
	  .help = "zonemode=zbd: past zone_reset_threshold, one write in "
		  "1/VALUE (0..1) resets its zone first; 0: never" },
	/* Files after the job */
	{ .name = "unlink", .type = OPT_BOOL, .off = F(target.unlink),
		.def = "0",
	  .category = "target",
	  .help = "Delete the files iorig created, after the job" },
	{ .name = "unlink_each_loop", .type = OPT_BOOL,
	  .off = F(target.unlink_each_loop), .def = "0", .category = "target",
	  .help = "Delete the files iorig created before each loop after "
		  "the first, and make them again" },
	{ .name = "allow_destructive", .alias = "allow-destructive",
	  .type = OPT_BOOL, .off = F(target.allow_destructive), .def = "0",
	  .category = "target",
	  .help = "Let a job write to a block device that holds a file "
		  "system, RAID member or partition table (never to one "
		  "that is mounted or in use)" },
	{ .name = "layout", .type = OPT_BOOL, .off = F(target.layout),
	.def = "1",
	  .category = "target",
	  .help = "Before a job reads a file, write real data into the holes "
		  "and unwritten extents of its region; 0: leave them, with "
		  "a warning" },
	/* File layout (issue 12, layout family; src/target/target.c) */
	{ .name = "filesize", .type = OPT_SPECIAL, .off = F(target.filesize),
	  .set = optvalue_filesize, .category = "target",
	  .help = "Size of each file, or LO-HI: each file a size drawn in "
		  "the range; size= then only sets how much I/O (the "
		  "default of io_size)" },
	{ .name = "filename_format", .type = OPT_SPECIAL,
	  .off = F(target.filename_format), .set = optvalue_filename_format,
	  .category = "target",
	  .help = "Generated file names (default $jobname.$jobnum.$filenum): "
		  "$jobname, $jobnum (the clone), $filenum, $clientuid "
		  "(empty: iorig has no client/server mode)" },
	{ .name = "fallocate", .type = OPT_ENUM, .off = F(target.fallocate),
	  .def = "native", .choices = falloc_choices, .category = "target",
	  .help = "How a job that only writes (overwrite=0) makes room in "
		  "a new file or past the end of a file: no data written" },
	{ .name = "overwrite", .type = OPT_BOOL, .off = F(target.overwrite),
	  .def = "0", .category = "target",
	  .help = "A job that writes lays its files out with real data "
		  "first, so that its writes overwrite written blocks" },
	{ .name = "allow_file_create", .type = OPT_BOOL,
	  .off = F(target.allow_file_create), .def = "1", .category = "target",
	  .help = "0: a file that does not exist is an error, not created" },
	{ .name = "create_only", .type = OPT_BOOL, .off = F(target.create_only),
	  .def = "0", .category = "target",
	  .help = "Create and lay out the files, then do no I/O" },
	{ .name = "file_service_type", .type = OPT_SPECIAL,
	  .off = F(target.file_service_type), .set = optvalue_file_service_type,
	  .def = "roundrobin", .category = "target",
	  .help = "Which file of a job the next I/O goes to: roundrobin[:N] "
		  "(N I/Os a file in turn), sequential (each file to its "
		  "end, then the next), random[:N] (N I/Os on a file drawn "
		  "uniformly), zipf[:THETA[:CENTER]], pareto[:H[:CENTER]], "
		  "normal[:SIGMA[:CENTER]] (gauss: the same): a file drawn "
		  "for every I/O" },
	{ .name = "openfiles", .alias = "open_files", .type = OPT_UINT,
	  .off = F(target.openfiles), .def = "0", .min = 0, .max = 4096,
	  .category = "target",
	  .help = "At most this many of a job's files in service at once "
		  "(0, the default: all): the next enters when one is finished, as "
		  "fio's open files; iorig keeps every file open" },
	{ .name = "create_serialize", .type = OPT_BOOL,
	  .off = F(target.create_serialize), .def = "1", .category = "target",
	  .help = "Accepted for fio job files: iorig always creates files "
		  "one job after the other" },
	{ .name = "create_on_open", .type = OPT_BOOL,
	  .off = F(target.create_on_open), .def = "0", .category = "target",
	  .help = "Accepted for fio job files: iorig creates files when the "
		  "job opens them, before its I/O starts, either way" },
	/* Placement (issue 12, opt-a family; src/target/target.c) */
	{ .name = "offset_increment", .type = OPT_SIZE_PCT,
	  .off = F(target.offset_increment),
	  .aux = F(target.offset_increment_pct),
	  .def = "0", .category = "target", .flags = OPT_F_ZONES,
	  .help = "Clone N of numjobs starts its region N times this further "
		  "than offset (bytes, or a percentage of the target)" },
	{ .name = "offset_align", .type = OPT_SIZE,
	.off = F(target.offset_align),
	  .def = "0", .category = "target",
	  .help = "A percentage offset (offset, offset_increment) is rounded "
		  "up to a multiple of this; 0: the smallest block size" },
	{ .name = "file_append", .type = OPT_BOOL, .off = F(target.file_append),
	  .def = "0", .category = "target",
	  .help = "The region of each file starts at its end (offset "
		  "ignored; devices keep offset)" },
	{ .name = "create_fsync", .type = OPT_BOOL,
	.off = F(target.create_fsync),
	  .def = "1", .category = "target",
	  .help = "fsync a file after laying it out or making room in it, "
		  "before the job; 0: leave the data in the page cache" },
	{ .name = "end_syncfs", .type = OPT_BOOL, .off = F(cache.end_syncfs),
	  .def = "0", .category = "cache",
	  .help = "As end_fsync, with syncfs(2): the whole file system of "
		  "each file, inside the runtime (a job that writes)" },
	{ .name = "pre_read", .type = OPT_BOOL, .off = F(cache.pre_read),
	  .def = "0", .category = "cache",
	  .help = "Read the region into the page cache before the job "
		  "(turns invalidate off; nothing with direct=1)" },
	{ .name = "allow_mounted_write", .type = OPT_BOOL,
	  .off = F(target.allow_destructive), .def = "0", .category = "target",
	  .help = "fio's name for allow_destructive: a mounted or in-use "
		  "device stays refused" },
	{ .name = "unique_filename", .type = OPT_BOOL,
	  .off = F(target.unique_filename), .def = "1", .category = "target",
	  .help = "Accepted for fio job files: fio prefixes a client's "
		  "address to file names; iorig has no client mode" },
	{ .name = "softrandommap", .type = OPT_BOOL,
	.off = F(rnd.softrandommap),
	  .def = "0", .category = "random",
	  .help = "Go on without the random map when it cannot be "
		  "allocated (sizes that vary: a bit per block), as fio; "
		  "else the job fails" },
	{ .name = "fill_device", .alias = "fill_fs", .type = OPT_BOOL,
	  .off = F(target.fill_device), .def = "0", .category = "target",
	  .help = "Write until the file system is full: ENOSPC ends the "
		  "job, not an error; without size=, the region is the free "
		  "space; a reading job fills it first, then reads" },
	{ .name = "opendir", .type = OPT_STR, .off = F(target.opendir),
	  .category = "target",
	  .help = "Every regular file below this directory (recursively, "
		  "in name order; links not followed) joins filename=" },
	{ .name = "lockfile", .type = OPT_SPECIAL, .off = F(target.lockfile),
	  .set = optvalue_lockfile, .choices = lockfile_choices, .def = "none",
	  .category = "target",
	  .help = "fio's locking of a file between the jobs sharing it: "
		  "none (exclusive and readwrite: refused, not supported "
		  "yet)" },
	/* CPU placement and run control (cpuset.h, steady.h) */
	{ .name = "cpus_allowed", .type = OPT_SPECIAL,
		.off = F(cpu.cpus_allowed),
	  .set = optvalue_cpus_allowed, .category = "cpu",
	  .help = "CPUs the job's clones may run on: a list such as 0-3,6" },
	{ .name = "cpumask", .type = OPT_SPECIAL, .off = F(cpu.cpus_allowed),
	  .set = optvalue_cpumask, .category = "cpu",
	  .help = "CPUs as a mask, bit N for CPU N (0x3: CPUs 0 and 1); "
		  "same setting as cpus_allowed" },
	{ .name = "cpus_allowed_policy", .type = OPT_ENUM,
	  .off = F(cpu.cpus_allowed_policy), .def = "shared",
	  .choices = cpus_policy_choices, .category = "cpu",
	  .help = "shared: each clone may use all of the CPUs; split: one "
		  "CPU each, in turn" },
	/* Process attributes and I/O buffer memory (procattr.h) */
	{ .name = "nice", .type = OPT_SPECIAL, .off = F(cpu.nice),
	  .set = optvalue_nice, .def = "0", .category = "cpu",
	  .help = "Nice value of each clone's thread, -20 to 19 "
		  "(setpriority)" },
	{ .name = "prio", .type = OPT_UINT, .off = F(cpu.prio), .def = "none",
	  .min = 0, .max = 7, .flags = OPT_F_NONE, .category = "cpu",
	  .help = "I/O priority level 0 (highest) to 7 (ioprio_set); the "
		  "class is best-effort unless prioclass says; none: "
		  "unchanged" },
	{ .name = "prioclass", .type = OPT_UINT, .off = F(cpu.prioclass),
	  .def = "none", .min = 0, .max = 3, .flags = OPT_F_NONE,
	  .category = "cpu",
	  .help = "I/O priority class: 0 none, 1 realtime, 2 best-effort, "
		  "3 idle (ioprio_set); none: unchanged" },
	{ .name = "priohint", .type = OPT_UINT, .off = F(cpu.priohint),
	  .def = "none", .min = 0, .max = 1023, .flags = OPT_F_NONE,
	  .category = "cpu",
	  .help = "I/O priority hint (command duration limit index) in the "
		  "value ioprio_set gets; none: unchanged" },
	{ .name = "uid", .type = OPT_UINT, .off = F(cpu.uid), .def = "none",
	  .min = 0, .max = 4294967294u, .flags = OPT_F_NONE,
	  .category = "cpu",
	  .help = "User id the job runs as: its files are opened and laid "
		  "out, and its thread runs, as this user; none: unchanged" },
	{ .name = "gid", .type = OPT_UINT, .off = F(cpu.gid), .def = "none",
	  .min = 0, .max = 4294967294u, .flags = OPT_F_NONE,
	  .category = "cpu",
	  .help = "Group id the job runs as (see uid); none: unchanged" },
	{ .name = "numa_cpu_nodes", .type = OPT_SPECIAL,
	  .off = F(cpu.numa_cpu_nodes), .set = optvalue_numa_cpu_nodes,
	  .category = "cpu",
	  .help = "Each clone runs on the CPUs of these NUMA nodes (all, "
		  "or a list such as 0,2-3)" },
	{ .name = "numa_mem_policy", .type = OPT_SPECIAL,
	  .off = F(cpu.numa_mem_policy), .set = optvalue_numa_mem_policy,
	  .category = "cpu",
	  .help = "Each clone's memory policy (set_mempolicy): default, "
		  "local, prefer:NODE, bind:NODES, interleave:NODES" },
	{ .name = "mem", .alias = "iomem", .type = OPT_SPECIAL,
	.off = F(eng.mem),
	  .set = optvalue_mem, .def = "malloc", .category = "engine",
	  .help = "Memory of the I/O buffers: malloc, shm, shmhuge, "
		  "mmap[:FILE], mmaphuge[:FILE], mmapshared[:FILE]" },
	{ .name = "mem_align", .alias = "iomem_align", .type = OPT_SIZE,
	  .off = F(eng.mem_align), .def = "0", .category = "engine",
	  .help = "The I/O buffers start at a multiple of this many bytes "
		  "(a power of 2); 0: the target's alignment" },
	{ .name = "hugepage-size", .type = OPT_SIZE,
	.off = F(eng.hugepage_size),
	  .def = "2m", .category = "engine",
	  .help = "mem=shmhuge, mmaphuge: huge page size the buffers are "
		  "rounded up to" },
	{ .name = "lockmem", .type = OPT_SIZE, .off = F(eng.lockmem),
	.def = "0",
	  .category = "engine",
	  .help = "Lock this many bytes of memory per clone (mlock) for its "
		  "run, leaving less for the page cache; 0: none" },
	{ .name = "ioscheduler", .type = OPT_SPECIAL, .off = F(eng.ioscheduler),
	  .set = optvalue_ioscheduler, .category = "engine",
	  .help = "Switch the disks under the job's targets to this I/O "
		  "scheduler (none, mq-deadline, kyber, bfq) once its files "
		  "are open; put back at the end of the run" },
	{ .name = "cgroup", .type = OPT_SPECIAL, .off = F(cpu.cgroup),
	  .set = optvalue_cgroup, .category = "cpu",
	  .help = "Each clone's thread joins this blkio control group "
		  "(cgroup v1), made when missing" },
	{ .name = "cgroup_weight", .type = OPT_UINT,
	.off = F(cpu.cgroup_weight),
	  .def = "0", .min = 0, .max = 1000, .category = "cpu",
	  .help = "The group's blkio weight (bfq's, 1 to 1000); without "
		  "cgroup=, the group is named after the job; 0: unchanged" },
	{ .name = "cgroup_nodelete", .type = OPT_BOOL,
	  .off = F(cpu.cgroup_nodelete), .def = "0", .category = "cpu",
	  .help = "Keep a group the run made (normally removed when its "
		  "last clone ends)" },
	/* fio's options once of "no meaning" here (issue 12) */
	{ .name = "exec_prerun", .type = OPT_STR, .off = F(order.exec_prerun),
	  .category = "order",
	  .help = "Shell command run for each clone after its files are laid "
		  "out, before its I/O (output in NAME.prerun.txt); failing: "
		  "the clone does no I/O" },
	{ .name = "exec_postrun", .type = OPT_STR, .off = F(order.exec_postrun),
	  .category = "order",
	  .help = "Shell command run for each clone after its I/O ends "
		  "(output in NAME.postrun.txt)" },
	{ .name = "comm", .type = OPT_STR, .off = F(cpu.comm),
	.category = "cpu",
	  .help = "Name of each clone's thread (prctl PR_SET_NAME, 15 "
		  "bytes kept), as ps and /proc/PID/task/TID/comm show it" },
	{ .name = "gtod_cpu", .type = OPT_UINT, .off = F(cpu.gtod_cpu),
	  .def = "none", .min = 0, .max = CPU_SETSIZE - 1,
	  .flags = OPT_F_NONE, .category = "cpu",
	  .help = "fio's time-keeping CPU: taken out of cpus_allowed, as "
		  "fio does; iorig starts no time thread (a warning says so)" },
	{ .name = "job_start_clock_id", .type = OPT_UINT,
	  .off = F(report.job_start_clock_id), .def = "0", .min = 0, .max = 11,
	  .category = "report",
	  .help = "A later fio's clock of its JSON job_start: accepted, no "
		  "effect (no report here has job_start; a warning says so)" },
	{ .name = "filetype", .type = OPT_ENUM, .off = F(target.filetype),
	  .def = "none", .choices = filetype_choices, .category = "target",
	  .help = "Every file of the job is of this type (a later fio's, "
		  "which then skips its stat); checked, a mismatch refused" },
	{ .name = "profile", .type = OPT_STR, .off = F(desc.profile),
	  .category = "description",
	  .help = "Accepted, no effect, as in fio 3.33, which runs its "
		  "built-in profiles only from --profile= (a warning says so)" },
	{ .name = "exitall", .type = OPT_BOOL, .off = F(order.exitall),
	.def = "0",
	  .category = "order",
	  .help = "When this job ends, stop the other jobs running with it" },
	{ .name = "exit_what", .type = OPT_ENUM, .off = F(order.exit_what),
	  .def = "group", .choices = exit_what_choices, .category = "order",
	  .help = "What exitall stops: group (the jobs running with it), "
		  "stonewall (the same here), all (those and every later "
		  "job)" },
	{ .name = "exitall_on_error", .type = OPT_BOOL,
	  .off = F(order.exitall_on_error), .def = "0", .category = "order",
	  .help = "When this job fails, stop every job, and start no more" },
	{ .name = "wait_for", .type = OPT_STR, .off = F(order.wait_for),
	  .category = "order",
	  .help = "Start once the job of this name (all its clones) has "
		  "ended" },
	{ .name = "iodepth_low", .type = OPT_UINT, .off = F(eng.iodepth_low),
	  .def = "0", .min = 0, .max = 65536, .category = "engine",
	  .help = "Once iodepth I/Os are in flight, issue again only when "
		  "they drop to this many; 0: iodepth (refill at once)" },
	{ .name = "gtod_reduce", .type = OPT_BOOL, .off = F(report.gtod_reduce),
	  .def = "0", .category = "report",
	  .help = "Report no latencies and no bandwidth samples (all four "
		  "disable_* options)" },
	{ .name = "disable_lat", .type = OPT_BOOL, .off = F(report.disable_lat),
	  .def = "0", .category = "report",
	  .help = "Report no total latency (lat)" },
	{ .name = "disable_clat", .type = OPT_BOOL,
	.off = F(report.disable_clat),
	  .def = "0", .category = "report",
	  .help = "Report no completion latency (clat) nor its percentiles" },
	{ .name = "disable_slat", .type = OPT_BOOL,
	.off = F(report.disable_slat),
	  .def = "0", .category = "report",
	  .help = "Report no submission latency (slat)" },
	{ .name = "disable_bw_measurement", .alias = "disable_bw",
	  .type = OPT_BOOL, .off = F(report.disable_bw), .def = "0",
	  .category = "report",
	  .help = "Report no bandwidth and IOPS samples (interval= figures)" },
	{ .name = "clocksource", .type = OPT_ENUM, .off = F(time.clocksource),
	  .def = "clock_gettime", .choices = clocksource_choices,
	  .category = "time",
	  .help = "Accepted for fio job files: iorig times with the TSC "
		  "when it is invariant, else clock_gettime" },
	{ .name = "unified_rw_reporting", .type = OPT_ENUM,
	  .off = F(report.unified_rw_reporting), .def = "none",
	  .choices = unified_choices, .category = "report",
	  .help = "Report reads and writes apart, as one (mixed), or both" },
	{ .name = "disk_util", .type = OPT_BOOL, .off = F(report.disk_util),
	  .def = "1", .category = "report",
	  .help = "Report the devices' own counters over the run "
		  "(/proc/diskstats): I/Os, merges, ticks, utilization" },
	{ .name = "steadystate", .alias = "ss", .type = OPT_SPECIAL,
	  .off = F(ss.steadystate), .def = "iops_slope:0.01%",
	  .set = optvalue_steadystate, .category = "steadystate",
	  .help = "KIND:LIMIT[%]: stop the job once steady (iops, bw, lat: "
		  "every sample within LIMIT of the mean; *_slope: the "
		  "slope below LIMIT) over ss_dur" },
	{ .name = "ss_dur", .alias = "steadystate_duration", .type = OPT_TIME,
	  .off = F(ss.ss_dur_ns), .def = "0", .unit_ns = NS_S,
	  .category = "steadystate",
	  .help = "The window steadystate judges (default unit s); 0: no "
		  "steady-state detection" },
	{ .name = "ss_ramp", .alias = "steadystate_ramp_time",
	  .type = OPT_TIME, .off = F(ss.ss_ramp_ns), .def = "0",
	  .unit_ns = NS_S, .category = "steadystate",
	  .help = "Run this long before collecting steady-state samples "
		  "(default unit s)" },
	{ .name = "ss_interval", .alias = "steadystate_check_interval",
	  .type = OPT_TIME, .off = F(ss.ss_interval_ns), .def = "1",
	  .unit_ns = NS_S, .min = 10000000, .max = 86400 * NS_S,
	  .category = "steadystate",
	  .help = "One steady-state sample per this long (default unit s)" },
	/* Ordering and reporting */
	{ .name = "stonewall", .alias = "wait_for_previous", .type = OPT_BOOL,
	  .off = F(order.stonewall), .def = "0", .category = "order",
	  .help = "Start after all earlier jobs have finished" },
	{ .name = "new_group", .type = OPT_BOOL, .off = F(order.new_group),
	  .def = "0", .category = "order",
	  .help = "Start a new reporting group" },
	{ .name = "group_reporting", .type = OPT_BOOL,
	  .off = F(report.group_reporting), .def = "0", .category = "report",
	  .help = "Report all jobs of the group as one" },
	{ .name = "percentile_list", .type = OPT_PLIST, .off = 0,
	  .def = DEFAULT_PERCENTILES, .category = "report",
	  .help = "Percentiles to report, ':'-separated" },
	{ .name = "clat_percentiles", .type = OPT_BOOL,
	  .off = F(report.clat_percentiles), .def = "1", .category = "report",
	  .help = "Report completion latency percentiles" },
	{ .name = "lat_percentiles", .type = OPT_BOOL,
	  .off = F(report.lat_percentiles), .def = "0", .category = "report",
	  .help = "Report total latency percentiles" },
	{ .name = "slat_percentiles", .type = OPT_BOOL,
	  .off = F(report.slat_percentiles), .def = "0", .category = "report",
	  .help = "Report submission latency percentiles" },
	{ .name = "interval", .type = OPT_TIME, .off = F(report.interval_ns),
	  .def = "0", .unit_ns = NS_S, .min = 10000000, .max = 86400 * NS_S,
	  .flags = OPT_F_ZERO_OFF | OPT_F_OWN, .category = "report",
	  .help = "Also record IOPS, bandwidth and latency for each "
		  "interval of this length (10ms to 1d, default unit s); "
		  "0: off" },
	{ .name = "bwavgtime", .alias = "bw_avg_time", .type = OPT_TIME,
	  .off = F(report.bw_avg_ns), .def = "500", .unit_ns = NS_S / 1000,
	  .min = NS_S / 1000, .max = 86400 * NS_S, .category = "report",
	  .help = "Take a bandwidth sample every this long (1ms to 1d, "
		  "default unit ms): min, max, mean, stddev of the samples "
		  "in the report" },
	{ .name = "iopsavgtime", .alias = "iops_avg_time", .type = OPT_TIME,
	  .off = F(report.iops_avg_ns), .def = "500", .unit_ns = NS_S / 1000,
	  .min = NS_S / 1000, .max = 86400 * NS_S, .category = "report",
	  .help = "Take an IOPS sample every this long (1ms to 1d, default "
		  "unit ms): min, max, mean, stddev of the samples in the "
		  "report" },
	{ .name = "kb_base", .type = OPT_ENUM, .off = F(report.kb_base),
	  .def = "1024", .choices = kb_base_choices, .category = "units",
	  .help = "Base of k/m/g and KB/MB/GB in sizes" },
	/* fio's report options once of "no meaning" here (issue 12) */
	{ .name = "stats", .type = OPT_BOOL, .off = F(report.stats), .def = "1",
	  .category = "report",
	  .help = "0: the job runs but is in no report, nor in its group's "
		  "totals (fio's stats=0)" },
	{ .name = "unit_base", .type = OPT_ENUM, .off = F(report.unit_base),
	  .def = "0", .choices = unit_base_choices, .category = "units",
	  .help = "Bandwidth of the text report in bytes (8, 0) or bits (1)" },
	{ .name = "significant_figures", .type = OPT_UINT,
	.off = F(report.sig_figs),
	  .def = "3", .min = 1, .max = 10, .category = "report",
	  .help = "Significant figures of the text report's IOPS and "
		  "bandwidth (fio: of its normal output, default 4)" },
	{ .name = "sweep", .type = OPT_SPECIAL, .off = F(runs.sweep),
	  .set = optvalue_sweep, .category = "sweep",
	  .help = "OPTION:v1,v2,...: run the job once per value, each point "
		  "stonewalled; repeat for a cartesian product" },
	/* Checks and repeats (check.h) */
	{ .name = "check", .type = OPT_SPECIAL, .off = F(runs.check),
	  .set = optvalue_check, .category = "checks",
	  .help = "EXPR such as read.iops>=50k or read.clat.p99<=2ms: checked "
		  "after the run, a failure gives exit status 3; repeatable" },
	{ .name = "repeat", .type = OPT_UINT, .off = F(runs.repeat), .def = "1",
	  .min = 1, .max = 4096, .flags = OPT_F_OWN, .category = "checks",
	  .help = "Run the job this many times, one after the other; the "
		  "report gives mean, stddev, cv, min and max" },
	/* Buffer contents (fill.h) */
	{ .name = "zero_buffers", .type = OPT_BOOL, .off = F(buf.zero_buffers),
	  .def = "0", .category = "buffers",
	  .help = "Write zeros (default: every write distinct random "
		  "bytes)" },
	{ .name = "refill_buffers", .type = OPT_BOOL,
	  .off = F(buf.refill_buffers), .def = "0", .category = "buffers",
	  .help = "Accepted for fio job files: iorig makes every write's "
		  "bytes afresh anyway" },
	{ .name = "scramble_buffers", .type = OPT_BOOL,
	  .off = F(buf.scramble_buffers), .def = "auto", .flags = OPT_F_AUTO,
	  .category = "buffers",
	  .help = "1: with zero_buffers or buffer_pattern, stamp each "
		  "512-byte sector with its offset and the write's key (no "
		  "two sectors alike); auto: as fio, not then" },
	{ .name = "buffer_pattern", .type = OPT_SPECIAL,
	  .off = F(buf.buffer_pattern), .set = optvalue_buffer_pattern,
	  .category = "buffers",
	  .help = "Write this pattern, repeated from each write's start: "
		  "0xHEX, an int, \"text\", 'FILE', or several together" },
	{ .name = "buffer_compress_percentage", .type = OPT_UINT,
	  .off = F(buf.buffer_compress_percentage), .def = "0", .min = 0,
	  .max = 100, .category = "buffers",
	  .help = "Writes that compress by about this percent: each chunk "
		  "random, then zeros (or buffer_pattern); 0: not set" },
	{ .name = "buffer_compress_chunk", .type = OPT_SIZE,
	  .off = F(buf.buffer_compress_chunk), .def = "512",
	  .category = "buffers",
	  .help = "Chunk of buffer_compress_percentage, random then fixed "
		  "bytes; 0 or more than the write: the smallest write" },
	{ .name = "dedupe_percentage", .type = OPT_UINT,
	  .off = F(buf.dedupe_percentage), .def = "0", .min = 0, .max = 100,
	  .category = "buffers",
	  .help = "Percent of writes that repeat the last distinct write's "
		  "bytes (drawn at random per write)" },
	{ .name = "dedupe_mode", .type = OPT_ENUM, .off = F(buf.dedupe_mode),
	  .def = "repeat", .choices = dedupe_mode_choices,
	  .category = "buffers",
	  .help = "Which earlier write a repeated one copies" },
	{ .name = "dedupe_global", .type = OPT_BOOL,
	.off = F(buf.dedupe_global),
	  .def = "0", .category = "buffers",
	  .help = "dedupe_mode=working_set: the working set is spread over "
		  "all jobs with this option, so duplicates copy other "
		  "jobs' writes too" },
	{ .name = "dedupe_working_set_percentage", .type = OPT_UINT,
	  .off = F(buf.dedupe_working_set_percentage), .def = "5", .min = 0,
	  .max = 100, .category = "buffers",
	  .help = "dedupe_mode=working_set: the first distinct writes, this "
		  "percent of the region, are the ones repeated" },
	/* Log files (iolog.h) */
	{ .name = "write_bw_log", .type = OPT_STR, .off = F(logs.write_bw_log),
	  .flags = OPT_F_BARE, .category = "logs",
	  .help = "Bandwidth log PREFIX_bw.N.log (fio's format; bare: the "
		  "job's name)" },
	{ .name = "write_iops_log", .type = OPT_STR,
	.off = F(logs.write_iops_log),
	  .flags = OPT_F_BARE, .category = "logs",
	  .help = "IOPS log PREFIX_iops.N.log (fio's format)" },
	{ .name = "write_lat_log", .type = OPT_STR,
	.off = F(logs.write_lat_log),
	  .flags = OPT_F_BARE, .category = "logs",
	  .help = "Latency logs PREFIX_slat.N.log, _clat, _lat (fio's "
		  "format, ns)" },
	{ .name = "write_hist_log", .type = OPT_STR,
	.off = F(logs.write_hist_log),
	  .flags = OPT_F_BARE, .category = "logs",
	  .help = "clat histogram log PREFIX_clat_hist.N.log (fio's bins; "
		  "needs log_hist_msec)" },
	{ .name = "log_avg_msec", .type = OPT_UINT, .off = F(logs.log_avg_msec),
	  .def = "0", .min = 0, .max = 86400000, .category = "logs",
	  .help = "Average logs over windows of this many ms; 0: a line per "
		  "I/O" },
	{ .name = "log_hist_msec", .type = OPT_UINT,
	.off = F(logs.log_hist_msec),
	  .def = "0", .min = 0, .max = 86400000, .category = "logs",
	  .help = "Histogram log window in ms; 0: no histogram lines" },
	{ .name = "log_window_value", .alias = "log_max_value",
	  .type = OPT_ENUM, .off = F(logs.log_window_value), .def = "avg",
	  .choices = log_window_choices, .category = "logs",
	  .help = "What an averaged latency line holds: avg, max or both" },
	{ .name = "log_offset", .type = OPT_BOOL, .off = F(logs.log_offset),
	  .def = "0", .category = "logs",
	  .help = "Per-I/O log lines carry the I/O's offset" },
	{ .name = "log_prio", .type = OPT_BOOL, .off = F(logs.log_prio),
	  .def = "0", .category = "logs",
	  .help = "The priority field as fio's hex ioprio value (prio=, "
		  "prioclass=); 0: 1 for the realtime class, else 0" },
	{ .name = "per_job_logs", .type = OPT_BOOL, .off = F(logs.per_job_logs),
	  .def = "1", .category = "logs",
	  .help = "1: one log file per job (.N); 0: jobs of a prefix append "
		  "to one file" },
	/* fio's log knobs (iolog.h, logz.h) */
	{ .name = "log_unix_epoch", .type = OPT_BOOL,
		.off = F(logs.log_unix_epoch),
	  .def = "0", .category = "logs",
	  .help = "Log times in ms of CLOCK_REALTIME (Unix time), or of "
		  "log_alternate_epoch_clock_id's clock, not from the start" },
	{ .name = "log_alternate_epoch", .type = OPT_BOOL,
	  .off = F(logs.log_alternate_epoch), .def = "0", .category = "logs",
	  .help = "Log times in ms of log_alternate_epoch_clock_id's clock "
		  "(as log_unix_epoch)" },
	{ .name = "log_alternate_epoch_clock_id", .type = OPT_UINT,
	  .off = F(logs.log_alternate_epoch_clock_id), .def = "0", .min = 0,
	  .max = INT32_MAX, .category = "logs",
	  .help = "clock_gettime's clock of log_unix_epoch and "
		  "log_alternate_epoch (0 CLOCK_REALTIME, 1 CLOCK_MONOTONIC, "
		  "7 CLOCK_BOOTTIME, 11 CLOCK_TAI)" },
	{ .name = "log_hist_coarseness", .type = OPT_UINT,
	  .off = F(logs.log_hist_coarseness), .def = "0", .min = 0, .max = 6,
	  .category = "logs",
	  .help = "Histogram log bins summed by 2^N: 1856 bins at 0, 29 at "
		  "6" },
	{ .name = "log_store_compressed", .type = OPT_BOOL,
	  .off = F(logs.log_store_compressed), .def = "0", .category = "logs",
	  .help = "bw, iops and lat logs as fio's compressed samples "
		  "(PREFIX_KIND.N.log.fz, zlib), which fio --inflate-log "
		  "prints" },
	{ .name = "log_compression", .type = OPT_SIZE,
	  .off = F(logs.log_compression), .category = "logs",
	  .help = "Accepted: fio's in-memory log chunk; iorig streams its "
		  "logs to their files, same lines" },
	{ .name = "log_compression_cpus", .type = OPT_SPECIAL,
	  .off = F(logs.log_compression_cpus), .set = optvalue_cpu_list,
	  .category = "logs",
	  .help = "Accepted (warned): iorig has no log compression thread "
		  "to place" },
	{ .name = "log_entries", .type = OPT_SIZE, .off = F(logs.log_entries),
	  .def = "1024", .category = "logs",
	  .help = "Accepted: fio's initial in-memory log size; iorig streams "
		  "its logs and never grows one during a run" },
	{ .name = "error_dump", .type = OPT_BOOL, .off = F(err.error_dump),
	  .def = "0", .category = "errors",
	  .help = "Also print each I/O error the job goes on after "
		  "(continue_on_error): file, errno, direction, offset, "
		  "length; 0: only the one that stops it" },
	{ .name = "block_error_percentiles", .type = OPT_BOOL,
	  .off = F(err.block_error_percentiles), .def = "0",
	  .category = "errors",
	  .help = "Accepted (warned): iorig keeps no per-block trim state "
		  "for fio's trims-to-error histogram" },
	{ .name = "write_io_trace", .type = OPT_STR,
	.off = F(logs.write_io_trace),
	  .category = "logs",
	  .help = "Per-I/O trace FILE: time_us, R/W, offset, bytes, slat, "
		  "clat, lat (ns)" },
	{ .name = "write_iolog", .type = OPT_STR, .off = F(logs.write_iolog),
	  .category = "logs",
	  .help = "fio's iolog (version 3) of every I/O as queued, which "
		  "fio's read_iolog replays; appended to FILE (FILE.N for "
		  "clone N)" },
	/* I/O replay (replay.h) */
	{ .name = "read_iolog", .type = OPT_STR, .off = F(logs.read_iolog),
	  .category = "logs",
	  .help = "Replay fio's iolog (version 2 or 3) or a binary blktrace "
		  "trace: its I/Os, on its files, at its times" },
	/* blktrace merge (src/log/blktrace.c, replay.h) */
	{ .name = "merge_blktrace_file", .type = OPT_STR,
	  .off = F(logs.merge_blktrace_file), .category = "logs",
	  .help = "Merge the blktrace traces read_iolog names (A:B:...) by "
		  "time into this file, and replay it" },
	{ .name = "merge_blktrace_scalars", .type = OPT_STR,
	  .off = F(logs.merge_blktrace_scalars), .category = "logs",
	  .help = "Per trace of the merge (':' list): its times scaled by "
		  "this percent" },
	{ .name = "merge_blktrace_iters", .type = OPT_STR,
	  .off = F(logs.merge_blktrace_iters), .category = "logs",
	  .help = "Per trace of the merge (':' list): how many times it "
		  "repeats, each pass after the previous" },
	{ .name = "read_iolog_chunked", .type = OPT_BOOL,
	  .off = F(logs.read_iolog_chunked), .def = "0", .category = "logs",
	  .help = "Accepted: iorig reads the whole log before the job starts "
		  "(the same I/Os)" },
	{ .name = "replay_no_stall", .type = OPT_BOOL,
	  .off = F(logs.replay_no_stall), .def = "0", .category = "logs",
	  .help = "Replay the log's I/Os as fast as they go, not at its "
		  "times" },
	{ .name = "replay_redirect", .type = OPT_STR,
	  .off = F(logs.replay_redirect), .category = "logs",
	  .help = "Replay every I/O of the log on this one file or device" },
	{ .name = "replay_scale", .type = OPT_UINT, .off = F(logs.replay_scale),
	  .def = "1", .min = 0, .max = UINT32_MAX, .category = "logs",
	  .help = "Divide the log's offsets by this" },
	{ .name = "replay_align", .type = OPT_SIZE, .off = F(logs.replay_align),
	  .def = "0", .category = "logs",
	  .help = "Align the log's offsets down to this power of 2 (bytes)" },
	{ .name = "replay_time_scale", .type = OPT_UINT,
	  .off = F(logs.replay_time_scale), .def = "100", .min = 1,
	  .max = 1000000, .category = "logs",
	  .help = "The log's delays are 100/this as long (percent)" },
	{ .name = "replay_skip", .type = OPT_SPECIAL,
	  .off = F(logs.replay_skip_str), .set = optvalue_replay_skip,
	  .category = "logs",
	  .help = "Directions of the log not to replay: read,write,trim,sync" },
	/* Verification */
	{ .name = "verify", .type = OPT_ENUM, .off = F(vfy.verify),
		.def = "none",
	  .choices = verify_choices, .category = "verify",
	  .help = "Stamp every written block with a header and a checksum, "
		  "and check blocks read back" },
	{ .name = "verify_pattern", .type = OPT_SPECIAL,
	  .off = F(vfy.verify_pattern), .set = optvalue_verify_pattern,
	  .category = "verify",
	  .help = "verify=pattern: the data after each header, 0xHEX or a "
		  "quoted string, repeated" },
	{ .name = "do_verify", .type = OPT_BOOL, .off = F(vfy.do_verify),
	  .def = "1", .category = "verify",
	  .help = "After the writes, read the blocks written back and check "
		  "them" },
	{ .name = "verify_only", .type = OPT_BOOL, .off = F(vfy.verify_only),
	  .def = "0", .category = "verify",
	  .help = "Write nothing: read the region and check what an earlier "
		  "run wrote" },
	{ .name = "verify_fatal", .type = OPT_BOOL, .off = F(vfy.verify_fatal),
	  .def = "0", .category = "verify",
	  .help = "Stop checking at the first mismatch (default: check "
		  "everything)" },
	{ .name = "verify_backlog", .type = OPT_UINT,
	  .off = F(vfy.verify_backlog), .def = "0", .min = 0,
	  .max = VERIFY_BACKLOG_MAX, .category = "verify",
	  .help = "Also check while writing: after every N writes, read "
		  "those N blocks back; 0: never" },
	{ .name = "verify_backlog_batch", .type = OPT_UINT,
	  .off = F(vfy.verify_backlog_batch), .def = "0", .min = 0,
	  .max = VERIFY_BACKLOG_MAX, .category = "verify",
	  .help = "Blocks read back each time verify_backlog is due: fewer "
		  "leaves some to the final check; 0: verify_backlog's N" },
	{ .name = "trim_percentage", .type = OPT_UINT,
	  .off = F(vfy.trim_percentage), .def = "0", .min = 0, .max = 100,
	  .category = "verify",
	  .help = "With verify and trim_backlog: this percentage of the "
		  "blocks written are trimmed afterwards, then checked to "
		  "read as zeros" },
	{ .name = "trim_verify_zero", .type = OPT_BOOL,
	  .off = F(vfy.trim_verify_zero), .def = "1", .category = "verify",
	  .help = "A trimmed block must read as zeros (0: it is not "
		  "checked)" },
	{ .name = "trim_backlog", .type = OPT_UINT, .off = F(vfy.trim_backlog),
	  .def = "0", .min = 0, .max = VERIFY_BACKLOG_MAX,
	  .category = "verify",
	  .help = "Trim after every N blocks written (the blocks "
		  "trim_percentage chose, oldest first); 0: never" },
	{ .name = "trim_backlog_batch", .type = OPT_UINT,
	  .off = F(vfy.trim_backlog_batch), .def = "0", .min = 0,
	  .max = VERIFY_BACKLOG_MAX, .category = "verify",
	  .help = "Trims each time trim_backlog is due; 0: trim_backlog's N" },
	{ .name = "verify_async", .type = OPT_UINT, .off = F(vfy.verify_async),
	  .def = "0", .min = 0, .max = 1024, .category = "verify",
	  .help = "fio's N verification threads: accepted, iorig checks "
		  "inline in the job's thread (a warning says so)" },
	{ .name = "verify_async_cpus", .type = OPT_SPECIAL,
	  .off = F(vfy.verify_async_cpus), .set = optvalue_cpu_list,
	  .category = "verify",
	  .help = "CPUs of fio's verification threads (a list such as "
		  "0-3,6): checked, and without effect (verify_async)" },
	{ .name = "verify_dump", .type = OPT_BOOL, .off = F(vfy.verify_dump),
	  .def = "0", .category = "verify",
	  .help = "Write each mismatching block as read, and as expected, to "
		  "FILE.OFFSET.received and .expected in the working directory" },
	{ .name = "verify_state_save", .type = OPT_BOOL,
	  .off = F(vfy.verify_state_save), .def = "1", .category = "verify",
	  .help = "A writing job saves which blocks it wrote to "
		  "NAME.CLONE.verify-state in the working directory" },
	{ .name = "verify_state_load", .type = OPT_BOOL,
	  .off = F(vfy.verify_state_load), .def = "0", .category = "verify",
	  .help = "verify_only=1: check only the blocks the state file of "
		  "the writing run names" },
	{ .name = "verify_interval", .type = OPT_SIZE,
	  .off = F(vfy.verify_interval), .def = "0", .category = "verify",
	  .help = "A header and checksum every N bytes of a block (a "
		  "multiple of 512 dividing every block size); 0: one per "
		  "block" },
	{ .name = "verify_offset", .type = OPT_SIZE,
	  .off = F(vfy.verify_offset), .def = "0", .category = "verify",
	  .help = "Swap the header with the bytes at this offset of each "
		  "interval before writing (swapped back to check)" },
	{ .name = "serialize_overlap", .type = OPT_BOOL,
	  .off = F(vfy.serialize_overlap), .def = "0", .category = "verify",
	  .help = "Never have two I/Os of the job in flight that overlap: "
		  "the later waits" },
	{ .name = NULL },
};

/*
 * Options fio has that iorig does not (yet). Naming one is an error that
 * says so, never a silent no-op.
 */
const char *const options_fio_only_names[] = {
	"atomic",
	"bindname",
	"brick",
	"busy_poll",
	"cdb_len",
	"chunck_size",
	"chunk_size",
	"clientname",
	"clustername",
	"conf",
	"cont",
	"cuda_io",
	"data_placement",
	"dataplacement",
	"ddir_seq_add",
	"ddir_seq_nr",
	"deac",
	"dp_scheme",
	"fdp",
	"fdp_pli",
	"fdp_pli_select",
	"gpu_dev_id",
	"gpu_dev_ids",
	"hdfs_use_direct",
	"hdfsdirectory",
	"http_host",
	"http_mode",
	"http_object_mode",
	"http_pass",
	"http_s3_key",
	"http_s3_keyid",
	"http_s3_region",
	"http_s3_security_token",
	"http_s3_sse_customer_algorithm",
	"http_s3_sse_customer_key",
	"http_s3_storage_class",
	"http_swift_auth_token",
	"http_user",
	"http_verbose",
	"https",
	"initiator",
	"libblkio_driver",
	"libblkio_force_enable_completion_eventfd",
	"libblkio_num_entries",
	"libblkio_path",
	"libblkio_pre_connect_props",
	"libblkio_pre_start_props",
	"libblkio_queue_size",
	"libblkio_vectored",
	"libblkio_wait_mode",
	"libblkio_write_zeroes_on_trim",
	"namenode",
	"nfs_url",
	"no_completion_thread",
	"num_range",
	"object_class",
	"percentage_sequential",
	"plid_select",
	"plids",
	"pool",
	"ramp_size",
	"random_sequence_stride",
	"rbd_encryption_format",
	"rbd_encryption_passphrase",
	"rbdname",
	"read_mode",
	"recover_zbd_write_error",
	"rocm_io",
	"rwmixcycle",
	"single-instance",
	"single_instance",
	"skip_bad",
	"spdk_conf",
	"spdk_json_conf",
	"spr_cs",
	"spr_num_regions",
	"spr_op",
	"sprandom",
	"svcl",
	"touch_objects",
	"uri",
	"verb",
	"verify_bytchk",
	"volume",
	"write_mode",
	"write_zone_remainder",
	"xnvme_admin",
	"xnvme_async",
	"xnvme_be",
	"xnvme_dev_nsid",
	"xnvme_dev_subnqn",
	"xnvme_iovec",
	"xnvme_mem",
	"xnvme_sync",
};

/* Options of later fio versions that fio 3.33, the one iorig follows,
 * refuses as unknown. */
const char *const options_not_fio333[] = {
	"log_issue_time",
	"verify_header_seed",
	"verify_mode",
	"verify_pattern_interval",
	"verify_policy",
	"verify_write_sequence",
};

const size_t options_table_size = sizeof(options_table);
const size_t options_fio_only_count =
	sizeof(options_fio_only_names) / sizeof(options_fio_only_names[0]);
const size_t options_not_fio333_count =
	sizeof(options_not_fio333) / sizeof(options_not_fio333[0]);
