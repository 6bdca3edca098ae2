// SPDX-License-Identifier: MIT
/*
 * The option table: every job option is declared here once. Parsing,
 * defaults, --parse-only, --help, --cmdhelp, the JSON report's "options"
 * object and the man-page test all read this table.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cgroup.h"
#include "check_expr.h"
#include "dist.h"
#include "cpuset.h"
#include "engine.h"
#include "fill.h"
#include "iosched.h"
#include "gen.h"
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

static int set_ignore_error(struct job *j, const struct opt_def *o,
			    const char *val, char *why, size_t whylen);
static int set_max_latency(struct job *j, const struct opt_def *o,
			   const char *val, char *why, size_t whylen);

static int set_replay_skip(struct job *j, const struct opt_def *o,
			   const char *val, char *why, size_t whylen);
static int set_str(char **dst, const char *val);

static int set_cpus_allowed(struct job *j, const struct opt_def *o,
			    const char *val, char *why, size_t whylen);
static int set_cpumask(struct job *j, const struct opt_def *o,
		       const char *val, char *why, size_t whylen);
static int set_steadystate(struct job *j, const struct opt_def *o,
			   const char *val, char *why, size_t whylen);

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

static int set_ioengine(struct job *j, const struct opt_def *o,
			const char *val, char *why, size_t whylen);
static int set_zonemode(struct job *j, const struct opt_def *o,
			const char *val, char *why, size_t whylen);
static int set_zone_fraction(struct job *j, const struct opt_def *o,
			     const char *val, char *why, size_t whylen);
static int set_random_distribution(struct job *j, const struct opt_def *o,
				   const char *val, char *why, size_t whylen);
static int set_bssplit(struct job *j, const struct opt_def *o,
		       const char *val, char *why, size_t whylen);
static int set_sweep(struct job *j, const struct opt_def *o,
		     const char *val, char *why, size_t whylen);
static int set_rate_curve(struct job *j, const struct opt_def *o,
			  const char *val, char *why, size_t whylen);
static int set_verify_pattern(struct job *j, const struct opt_def *o,
			      const char *val, char *why, size_t whylen);
static int set_check(struct job *j, const struct opt_def *o,
		     const char *val, char *why, size_t whylen);
static int set_buffer_pattern(struct job *j, const struct opt_def *o,
			      const char *val, char *why, size_t whylen);

static int set_filesize(struct job *j, const struct opt_def *o,
			const char *val, char *why, size_t whylen);
static int set_filename_format(struct job *j, const struct opt_def *o,
			       const char *val, char *why, size_t whylen);
static int set_file_service_type(struct job *j, const struct opt_def *o,
				 const char *val, char *why, size_t whylen);

static int set_lockfile(struct job *j, const struct opt_def *o,
			const char *val, char *why, size_t whylen);

static const struct opt_choice lockfile_choices[] = {
	{ "none", 0, "no locking (iorig never locks files)" },
	{ "exclusive", 1, "fio: one I/O on the file at a time: refused, "
	  "not supported yet" },
	{ "readwrite", 2, "fio: shared reads, exclusive writes: refused, "
	  "not supported yet" },
	{ NULL, 0, NULL },
};

static int set_str(char **dst, const char *val);
static void *field(void *base, size_t off);

static int set_nice(struct job *j, const struct opt_def *o, const char *val,
		    char *why, size_t whylen)
{
	int n;
	int ret = procattr_nice_parse(val, &n, why, whylen);

	return ret ? ret : set_str(field(j, o->off), val);
}

static int set_ioscheduler(struct job *j, const struct opt_def *o,
			   const char *val, char *why, size_t whylen)
{
	int ret = iosched_name_ok(val, why, whylen);

	return ret ? ret : set_str(field(j, o->off), val);
}

static int set_cgroup(struct job *j, const struct opt_def *o,
		      const char *val, char *why, size_t whylen)
{
	int ret = cgroup_name_ok(val, why, whylen);

	return ret ? ret : set_str(field(j, o->off), val);
}

static int set_sfr(struct job *j, const struct opt_def *o, const char *val,
		   char *why, size_t whylen)
{
	unsigned flags;
	uint64_t nr;
	int ret = procattr_sfr_parse(val, &flags, &nr, why, whylen);

	return ret ? ret : set_str(field(j, o->off), val);
}

static int set_write_hint(struct job *j, const struct opt_def *o,
			  const char *val, char *why, size_t whylen)
{
	if (procattr_write_hint(val) < 0) {
		snprintf(why, whylen, "expected none, short, medium, long or "
			 "extreme");
		return -EINVAL;
	}
	return set_str(field(j, o->off), val);
}

static int set_numa_nodes(struct job *j, const struct opt_def *o,
			  const char *val, char *why, size_t whylen)
{
	uint64_t mask;
	int ret = procattr_nodes_parse(val, &mask, why, whylen);

	return ret ? ret : set_str(field(j, o->off), val);
}

static int set_mempolicy_opt(struct job *j, const struct opt_def *o,
			     const char *val, char *why, size_t whylen)
{
	uint64_t mask;
	int mode;
	int ret = procattr_mempolicy_parse(val, &mode, &mask, why, whylen);

	return ret ? ret : set_str(field(j, o->off), val);
}

static int set_mem(struct job *j, const struct opt_def *o, const char *val,
		   char *why, size_t whylen)
{
	enum mem_type t;
	const char *file;
	int ret = procattr_mem_parse(val, &t, &file, why, whylen);

	return ret ? ret : set_str(field(j, o->off), val);
}

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
	{ .name = "name", .type = OPT_STR, .off = F(name),
	  .category = "description",
	  .help = "Job name; starts a new job on the command line" },
	{ .name = "description", .type = OPT_STR, .off = F(description),
	  .category = "description",
	  .help = "Free text, kept in the JSON report's options" },
	/* Target */
	{ .name = "filename", .type = OPT_STR, .off = F(filename),
	  .category = "target",
	  .help = "File(s) or block device(s), ':'-separated (\\: is a "
		  "':' in a name); default NAME.CLONE.FILE in directory" },
	{ .name = "directory", .type = OPT_STR, .off = F(directory),
	  .category = "target",
	  .help = "Directory for generated file names" },
	{ .name = "size", .type = OPT_SIZE_PCT, .off = F(size),
	  .aux = F(size_pct), .category = "target",
	  .help = "Region of the job in bytes, or a percentage of the "
		  "target's size; default: the target's size" },
	{ .name = "offset", .alias = "fileoffset", .type = OPT_SIZE_PCT,
	  .off = F(offset),
	  .aux = F(offset_pct), .def = "0", .category = "target",
	  .help = "Start of the region in each file, bytes or percentage" },
	{ .name = "io_size", .alias = "io_limit", .type = OPT_SIZE,
	  .off = F(io_size), .def = "0", .category = "target",
	  .help = "Bytes to transfer per loop; 0: the region's size" },
	{ .name = "nrfiles", .alias = "nr_files", .type = OPT_UINT,
	  .off = F(nrfiles), .def = "1", .min = 1, .max = 4096,
	  .category = "target",
	  .help = "Number of files the region is split over" },
	/* Workload */
	{ .name = "rw", .alias = "readwrite", .type = OPT_ENUM, .off = F(rw),
	  .def = "read", .choices = rw_choices, .category = "workload",
	  .help = "I/O pattern" },
	{ .name = "rwmixread", .type = OPT_PCT, .off = F(rwmixread),
	  .def = "50", .category = "workload",
	  .help = "Percent of mixed I/Os that read" },
	{ .name = "rwmixwrite", .type = OPT_PCT, .off = F(rwmixread),
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
	{ .name = "ioengine", .type = OPT_SPECIAL, .off = F(ioengine),
	  .def = "sync", .set = set_ioengine, .category = "engine",
	  .help = "How I/O is issued; see ENGINES" },
	{ .name = "iodepth", .type = OPT_UINT, .off = F(iodepth), .def = "1",
	  .min = 1, .max = 65536, .category = "engine",
	  .help = "I/Os kept in flight (synchronous engines: 1)" },
	{ .name = "iodepth_batch_submit", .alias = "iodepth_batch",
	  .type = OPT_UINT, .off = F(iodepth_batch_submit), .def = "0",
	  .min = 0, .max = 65536, .category = "engine",
	  .help = "Hand I/Os to the kernel in batches of this many; 0: "
		  "all that are ready at once" },
	{ .name = "iodepth_batch_complete_min",
	  .alias = "iodepth_batch_complete", .type = OPT_UINT,
	  .off = F(iodepth_batch_complete_min), .def = "1", .min = 0,
	  .max = 65536, .category = "engine",
	  .help = "Wait for at least this many completions at a time; 0: "
		  "never wait, poll" },
	{ .name = "iodepth_batch_complete_max", .type = OPT_UINT,
	  .off = F(iodepth_batch_complete_max), .def = "0", .min = 0,
	  .max = 65536, .flags = OPT_F_ENGINE_NEXT, .category = "engine",
	  .help = "Collect at most this many completions at a time; 0: "
		  "iodepth" },
	{ .name = "numjobs", .type = OPT_UINT, .off = F(numjobs), .def = "1",
	  .min = 1, .max = 4096, .category = "engine",
	  .help = "Clones of this job, each its own thread" },
	{ .name = "thread", .type = OPT_BOOL, .off = F(thread), .def = "0",
	  .category = "engine",
	  .help = "Accepted for fio compatibility: jobs are always threads" },
	/* Time and stop conditions */
	{ .name = "runtime", .alias = "timeout", .type = OPT_TIME,
	  .off = F(runtime_ns), .def = "0", .unit_ns = NS_S,
	  .category = "time",
	  .help = "Stop after this long (default unit s); 0: no limit" },
	{ .name = "time_based", .type = OPT_BOOL, .off = F(time_based),
	  .def = "0", .category = "time",
	  .help = "Repeat the workload until runtime has passed" },
	{ .name = "ramp_time", .type = OPT_TIME, .off = F(ramp_time_ns),
	  .def = "0", .unit_ns = NS_S, .category = "time",
	  .help = "Run this long before measuring (default unit s)" },
	{ .name = "startdelay", .type = OPT_TIME, .off = F(startdelay_ns),
	  .def = "0", .unit_ns = NS_S, .category = "time",
	  .help = "Wait this long before starting (default unit s)" },
	{ .name = "loops", .type = OPT_UINT, .off = F(loops), .def = "1",
	  .min = 1, .max = UINT32_MAX, .category = "time",
	  .help = "Repeat the workload this many times" },
	{ .name = "number_ios", .type = OPT_UINT, .off = F(number_ios),
	  .def = "0", .min = 0, .max = UINT64_MAX, .category = "time",
	  .help = "Stop after this many I/Os; 0: no limit" },
	/* Think time (fio's meaning; counted in the runtime) */
	{ .name = "thinktime", .type = OPT_TIME, .off = F(thinktime_ns),
	  .def = "0", .unit_ns = 1000, .category = "time",
	  .help = "Stall this long after thinktime_blocks I/Os, once those "
		  "in flight are done (default unit us); 0: never" },
	{ .name = "thinktime_spin", .type = OPT_TIME,
	  .off = F(thinktime_spin_ns), .def = "0", .unit_ns = 1000,
	  .category = "time",
	  .help = "Of each thinktime, spend this much busy on the CPU "
		  "first, then sleep the rest (default unit us)" },
	{ .name = "thinkcycles", .type = OPT_UINT, .off = F(thinkcycles),
	  .def = "0", .min = 0, .max = 4294967295u, .category = "time",
	  .help = "After each read or write issued, spin this many "
		  "iterations of the CPU's spin-wait hint (pause); 0: off" },
	{ .name = "thinktime_blocks", .type = OPT_UINT,
	  .off = F(thinktime_blocks), .def = "1", .min = 0,
	  .max = UINT64_MAX, .category = "time",
	  .help = "I/Os between two thinktimes (0 acts as 1)" },
	{ .name = "thinktime_blocks_type", .type = OPT_ENUM,
	  .off = F(thinktime_blocks_type), .def = "complete",
	  .choices = think_type_choices, .category = "time",
	  .help = "Whether thinktime_blocks counts completed or issued I/Os" },
	{ .name = "thinktime_iotime", .type = OPT_TIME,
	  .off = F(thinktime_iotime_ns), .def = "0", .unit_ns = NS_S,
	  .category = "time",
	  .help = "Also think after this much time doing I/O since the last "
		  "thinktime (default unit s); 0: off" },
	/* Caching and durability */
	/* Rate (src/worker/pace.c) */
	{ .name = "rate", .type = OPT_RATE, .off = F(rate), .def = "0",
	  .category = "rate",
	  .help = "Issue at most this many bytes/s: read[,write[,trim]], one "
		  "value for both, an empty item or 0: no limit; I/Os are "
		  "issued when due, open loop" },
	{ .name = "rate_iops", .type = OPT_RATE, .off = F(rate_iops),
	  .def = "0", .flags = OPT_F_COUNT, .category = "rate",
	  .help = "Issue at most this many I/Os per second per direction, "
		  "as rate= (ignored for a direction rate= sets)" },
	{ .name = "rate_min", .alias = "ratemin", .type = OPT_RATE,
	  .off = F(rate_min),
	  .def = "0", .category = "rate",
	  .help = "Fail the job when a direction moves fewer bytes/s than "
		  "this over a rate_cycle" },
	{ .name = "rate_iops_min", .type = OPT_RATE, .off = F(rate_iops_min),
	  .def = "0", .flags = OPT_F_COUNT, .category = "rate",
	  .help = "Fail the job when a direction completes fewer I/Os per "
		  "second than this over a rate_cycle" },
	{ .name = "rate_process", .type = OPT_ENUM, .off = F(rate_process),
	  .def = "linear", .choices = rate_process_choices,
	  .category = "rate",
	  .help = "When rated I/Os fall due: evenly spaced, or as a Poisson "
		  "process" },
	{ .name = "rate_cycle", .alias = "ratecycle", .type = OPT_TIME,
	  .off = F(rate_cycle_ns),
	  .def = "1000", .unit_ns = 1000000, .min = 1000000,
	  .max = 86400 * NS_S, .category = "rate",
	  .help = "The window rate_min and rate_iops_min average over "
		  "(default unit ms)" },
	{ .name = "rate_ignore_thinktime", .type = OPT_BOOL,
	  .off = F(rate_ignore_thinktime), .def = "0", .category = "rate",
	  .help = "After thinking, go on at the rate instead of catching up "
		  "with the I/Os that fell due meanwhile" },
	{ .name = "rate_curve", .type = OPT_SPECIAL, .off = F(rate_curve),
	  .set = set_rate_curve, .category = "rate",
	  .help = "PCT,PCT,... or default (10,50,70,80,90,100): a probe "
		  "run without a rate, then one stonewalled point per PCT "
		  "paced at that percent of the probe's IOPS" },
	{ .name = "rate_curve_probe", .type = OPT_TIME,
	  .off = F(rate_curve_probe_ns), .def = "0", .unit_ns = NS_S,
	  .max = 86400 * NS_S, .flags = OPT_F_OWN, .category = "rate",
	  .help = "rate_curve: how long the probe runs (default unit s); "
		  "0: as runtime" },
	{ .name = "io_submit_mode", .type = OPT_ENUM,
	  .off = F(io_submit_mode), .def = "inline",
	  .choices = submit_mode_choices, .category = "rate",
	  .help = "inline, or offload (fio's submission threads; iorig "
		  "submits inline and on schedule either way)" },
	{ .name = "direct", .type = OPT_BOOL, .off = F(direct), .def = "0",
	  .category = "cache", .help = "Open with O_DIRECT" },
	{ .name = "buffered", .type = OPT_BOOL, .off = F(direct),
	  .flags = OPT_F_INVERT, .def = "1", .category = "cache",
	  .help = "Use the page cache (the opposite of direct)" },
	{ .name = "sync", .type = OPT_ENUM, .off = F(sync), .def = "none",
	  .choices = sync_choices, .category = "cache",
	  .help = "Open for synchronous writes" },
	{ .name = "fsync", .type = OPT_UINT, .off = F(fsync), .def = "0",
	  .min = 0, .max = UINT64_MAX, .category = "cache",
	  .help = "fsync after every N writes; 0: never" },
	{ .name = "fdatasync", .type = OPT_UINT, .off = F(fdatasync),
	  .def = "0", .min = 0, .max = UINT64_MAX, .category = "cache",
	  .help = "fdatasync after every N writes; 0: never" },
	{ .name = "write_barrier", .type = OPT_UINT, .off = F(write_barrier),
	  .def = "0", .min = 0, .max = UINT64_MAX, .category = "cache",
	  .help = "Accepted for fio job files: fio marks every Nth write a "
		  "barrier for engines that have one (libpmem, sg); none "
		  "here has (a warning says so)" },
	{ .name = "sync_file_range", .type = OPT_SPECIAL,
	  .off = F(sync_file_range), .set = set_sfr, .category = "cache",
	  .help = "FLAGS[:N]: sync_file_range(2) over the range written "
		  "since the last one, every N writes (default 1); FLAGS: "
		  "wait_before, write, wait_after joined by ','" },
	{ .name = "write_hint", .type = OPT_SPECIAL, .off = F(write_hint),
	  .set = set_write_hint, .category = "cache",
	  .help = "Lifetime hint of the data written, set on each file "
		  "(fcntl F_SET_RW_HINT): none, short, medium, long, "
		  "extreme" },
	{ .name = "end_fsync", .type = OPT_BOOL, .off = F(end_fsync),
	  .def = "0", .category = "cache",
	  .help = "fsync the files when the job's writes are done" },
	{ .name = "fsync_on_close", .type = OPT_BOOL,
	  .off = F(fsync_on_close), .def = "0", .category = "cache",
	  .help = "fsync each file before it is closed, inside the runtime "
		  "(a job that writes)" },
	{ .name = "invalidate", .type = OPT_BOOL, .off = F(invalidate),
	  .def = "1", .category = "cache",
	  .help = "Drop the region's page cache before the job" },
	{ .name = "fadvise_hint", .type = OPT_ENUM, .off = F(fadvise_hint),
	  .def = "1", .choices = fadvise_choices, .category = "cache",
	  .help = "posix_fadvise advice over the region when opened" },
	/* Errors */
	{ .name = "continue_on_error", .type = OPT_ENUM,
	  .off = F(continue_on_error), .def = "none", .choices = coe_choices,
	  .category = "errors",
	  .help = "Failed I/Os to count and go on after instead of stopping "
		  "the job; errors still give exit status 1" },
	{ .name = "ignore_error", .type = OPT_SPECIAL, .off = F(ignore_error),
	  .set = set_ignore_error, .category = "errors",
	  .help = "READ,WRITE,VERIFY lists of errors (EIO:ENOSPC or numbers) "
		  "to go on after; a list given limits continue_on_error for "
		  "its direction to it and turns it on" },
	{ .name = "max_latency", .type = OPT_SPECIAL, .off = F(max_latency),
	  .set = set_max_latency, .category = "errors",
	  .help = "Fail the job (ETIMEDOUT) when a read or write takes longer "
		  "(queue to completion; us when bare; read,write,trim)" },
	/* Flow control between jobs (flow.h) */
	{ .name = "flow", .type = OPT_UINT, .off = F(flow), .def = "0",
	  .min = 0, .max = 1000, .category = "rate",
	  .help = "Weight: jobs of one flow_id keep their I/O counts in the "
		  "ratio of their weights; 0: off" },
	{ .name = "flow_id", .type = OPT_UINT, .off = F(flow_id), .def = "0",
	  .min = 0, .max = UINT32_MAX, .category = "rate",
	  .help = "The flow a job with flow= is counted in" },
	{ .name = "flow_sleep", .type = OPT_TIME, .off = F(flow_sleep_ns),
	  .def = "0", .unit_ns = 1000, .category = "rate",
	  .help = "How long a job ahead of its share waits before asking "
		  "again (us when bare); 0: it yields the CPU" },
	/* Latency target: fio's queue depth search */
	{ .name = "latency_target", .type = OPT_TIME,
	  .off = F(latency_target_ns), .def = "0", .unit_ns = 1000,
	  .category = "errors",
	  .help = "Find the largest queue depth (up to iodepth) whose I/Os "
		  "stay within this latency (us when bare)" },
	{ .name = "latency_window", .type = OPT_TIME,
	  .off = F(latency_window_ns), .def = "0", .unit_ns = 1000,
	  .category = "errors",
	  .help = "latency_target: each depth is tried for this long" },
	{ .name = "latency_percentile", .type = OPT_PCT,
	  .off = F(latency_percentile), .def = "100", .category = "errors",
	  .help = "latency_target: this percent of a window's I/Os must be "
		  "within the target" },
	{ .name = "latency_run", .type = OPT_BOOL, .off = F(latency_run),
	  .def = "0", .category = "errors",
	  .help = "latency_target: keep adjusting the depth until the job "
		  "ends, instead of stopping once it settles" },
	/* fio 3.33 accepts these and ignores them (deprecated) */
	{ .name = "experimental_verify", .type = OPT_BOOL,
	  .off = F(experimental_verify), .def = "0", .category = "verify",
	  .help = "Accepted: fio's other way (replaying the writes) to the "
		  "same checks; no effect (a warning says so)" },
	{ .name = "verifysort", .type = OPT_STR, .off = F(verifysort),
	  .flags = OPT_F_BARE, .category = "verify",
	  .help = "Deprecated in fio, which ignores it: no effect (a warning "
		  "says so)" },
	{ .name = "verifysort_nr", .type = OPT_STR, .off = F(verifysort_nr),
	  .flags = OPT_F_BARE, .category = "verify",
	  .help = "Deprecated in fio, which ignores it: no effect (a warning "
		  "says so)" },
	{ .name = "flow_watermark", .type = OPT_STR,
	  .off = F(flow_watermark), .flags = OPT_F_BARE, .category = "rate",
	  .help = "Deprecated in fio, which ignores it: no effect (a warning "
		  "says so)" },
	/* Randomness */
	{ .name = "randrepeat", .type = OPT_BOOL,
	  .off = F(randrepeat),
	  .def = "1", .category = "random",
	  .help = "Same random sequence on every run (seeded by randseed)" },
	{ .name = "randseed", .type = OPT_UINT, .off = F(randseed),
	  .def = "137", .min = 0, .max = UINT64_MAX, .category = "random",
	  .help = "Seed of the random sequence when randrepeat=1" },
	{ .name = "norandommap", .type = OPT_BOOL, .off = F(norandommap),
	  .def = "0", .category = "random",
	  .help = "Draw random blocks independently (repeats allowed); "
		  "else each block once per pass" },
	/* Random patterns (dist.h, gen.c) */
	{ .name = "random_distribution", .type = OPT_SPECIAL,
	  .off = F(random_distribution), .set = set_random_distribution,
	  .def = "random", .category = "random",
	  .help = "Law of random offsets: random, zipf:THETA, pareto:H, "
		  "normal:SIGMA (each [:CENTER]), zoned:A/R:..., "
		  "zoned_abs:A/SIZE:..." },
	{ .name = "random_generator", .type = OPT_ENUM,
	  .off = F(random_generator), .def = "tausworthe",
	  .choices = randgen_choices, .category = "random",
	  .help = "fio's offset generators; lfsr: no block twice per pass "
		  "even with norandommap=1" },
	{ .name = "percentage_random", .type = OPT_RATE,
	  .off = F(percentage_random), .def = "100", .flags = OPT_F_COUNT,
	  .category = "random",
	  .help = "Percent of a random job's I/Os at random offsets, the "
		  "rest going on after the one before: read[,write[,trim]]" },
	{ .name = "blockalign", .alias = "ba", .type = OPT_RATE,
	  .off = F(blockalign), .def = "0", .category = "random",
	  .help = "Random offsets are multiples of this: "
		  "read[,write[,trim]]; 0: "
		  "the block size (any other value turns the map off)" },
	{ .name = "allrandrepeat", .type = OPT_BOOL, .off = F(allrandrepeat),
	  .def = "0", .category = "random",
	  .help = "Also seed the bytes written from randseed, so that runs "
		  "write the same data" },
	{ .name = "rw_sequencer", .type = OPT_ENUM, .off = F(rw_sequencer),
	  .def = "sequential", .choices = rwseq_choices, .category = "random",
	  .help = "What rw=randread:N does between random offsets" },
	{ .name = "bs_unaligned", .alias = "blocksize_unaligned",
	  .type = OPT_BOOL, .off = F(bs_unaligned), .def = "0",
	  .category = "workload",
	  .help = "Lengths of a block size range are any byte count in it, "
		  "not multiples of its smallest size (offsets stay aligned "
		  "for random I/O)" },
	{ .name = "bs_is_seq_rand", .type = OPT_BOOL,
	  .off = F(bs_is_seq_rand), .def = "0", .category = "workload",
	  .help = "bs=A,B means sequential I/Os A, random ones B, in every "
		  "direction (instead of read A, write B)" },
	{ .name = "bssplit", .type = OPT_SPECIAL, .off = F(bssplit),
	  .set = set_bssplit, .category = "workload",
	  .help = "Weighted block sizes SIZE/PCT:SIZE/PCT..., per direction "
		  "read,write,trim; overrides bs" },
	/* Zones (zonemode=strided; gen.c) */
	{ .name = "zonemode", .type = OPT_SPECIAL, .off = F(zonemode),
	  .set = set_zonemode, .choices = zonemode_choices,
	  .category = "workload",
	  .help = "none, strided or zbd; unset: strided when "
		  "zonesize is given (fio's older form)" },
	{ .name = "zonesize", .type = OPT_SIZE, .off = F(zonesize),
	  .def = "0", .category = "workload",
	  .help = "Bytes of I/O in a zone before the next one; 0: no zones" },
	{ .name = "zonerange", .type = OPT_SIZE, .off = F(zonerange),
	  .def = "0", .category = "workload",
	  .help = "Extent of a zone, where its I/Os go; 0: zonesize" },
	{ .name = "zoneskip", .type = OPT_SIZE, .off = F(zoneskip),
	  .def = "0", .category = "workload",
	  .help = "Bytes between the end of a zone and the next one" },
	{ .name = "zonecapacity", .type = OPT_SIZE, .off = F(zonecapacity),
	  .def = "0", .category = "workload",
	  .help = "zonemode=zbd on a target that is not zoned: the bytes "
		  "of each emulated zone that take writes; 0: zonesize" },
	{ .name = "max_open_zones", .type = OPT_UINT,
	  .off = F(max_open_zones), .def = "0", .max = 4096,
	  .category = "workload",
	  .help = "zonemode=zbd: sequential zones written at once at most; "
		  "0: the device's limit (none when it has none)" },
	{ .name = "job_max_open_zones", .type = OPT_UINT,
	  .off = F(job_max_open_zones), .def = "0", .max = 4096,
	  .category = "workload",
	  .help = "zonemode=zbd: zones this job writes at once at most "
		  "(needs max_open_zones or a device limit); 0: no limit" },
	{ .name = "ignore_zone_limits", .type = OPT_BOOL,
	  .off = F(ignore_zone_limits), .def = "0", .category = "workload",
	  .help = "zonemode=zbd: ignore the device's own open zone limit" },
	{ .name = "read_beyond_wp", .type = OPT_BOOL,
	  .off = F(read_beyond_wp), .def = "0", .category = "workload",
	  .help = "zonemode=zbd: reads anywhere in a sequential zone, not "
		  "only below its write pointer" },
	{ .name = "zone_reset_threshold", .type = OPT_SPECIAL,
	  .off = F(zone_reset_threshold), .set = set_zone_fraction,
	  .category = "workload",
	  .help = "zonemode=zbd: the fraction (0..1) of the region's "
		  "sequential zones' bytes written from which writes reset "
		  "zones (at zone_reset_frequency)" },
	{ .name = "zone_reset_frequency", .type = OPT_SPECIAL,
	  .off = F(zone_reset_frequency), .set = set_zone_fraction,
	  .category = "workload",
	  .help = "zonemode=zbd: past zone_reset_threshold, one write in "
		  "1/VALUE (0..1) resets its zone first; 0: never" },
	/* Files after the job */
	{ .name = "unlink", .type = OPT_BOOL, .off = F(unlink), .def = "0",
	  .category = "target",
	  .help = "Delete the files iorig created, after the job" },
	{ .name = "unlink_each_loop", .type = OPT_BOOL,
	  .off = F(unlink_each_loop), .def = "0", .category = "target",
	  .help = "Delete the files iorig created before each loop after "
		  "the first, and make them again" },
	{ .name = "allow_destructive", .alias = "allow-destructive",
	  .type = OPT_BOOL, .off = F(allow_destructive), .def = "0",
	  .category = "target",
	  .help = "Let a job write to a block device that holds a file "
		  "system, RAID member or partition table (never to one "
		  "that is mounted or in use)" },
	{ .name = "layout", .type = OPT_BOOL, .off = F(layout), .def = "1",
	  .category = "target",
	  .help = "Before a job reads a file, write real data into the holes "
		  "and unwritten extents of its region; 0: leave them, with "
		  "a warning" },
	/* File layout (issue 12, layout family; src/target.c) */
	{ .name = "filesize", .type = OPT_SPECIAL, .off = F(filesize),
	  .set = set_filesize, .category = "target",
	  .help = "Size of each file, or LO-HI: each file a size drawn in "
		  "the range; size= then only sets how much I/O (the "
		  "default of io_size)" },
	{ .name = "filename_format", .type = OPT_SPECIAL,
	  .off = F(filename_format), .set = set_filename_format,
	  .category = "target",
	  .help = "Generated file names (default $jobname.$jobnum.$filenum): "
		  "$jobname, $jobnum (the clone), $filenum, $clientuid "
		  "(empty: iorig has no client/server mode)" },
	{ .name = "fallocate", .type = OPT_ENUM, .off = F(fallocate),
	  .def = "native", .choices = falloc_choices, .category = "target",
	  .help = "How a job that only writes (overwrite=0) makes room in "
		  "a new file or past the end of a file: no data written" },
	{ .name = "overwrite", .type = OPT_BOOL, .off = F(overwrite),
	  .def = "0", .category = "target",
	  .help = "A job that writes lays its files out with real data "
		  "first, so that its writes overwrite written blocks" },
	{ .name = "allow_file_create", .type = OPT_BOOL,
	  .off = F(allow_file_create), .def = "1", .category = "target",
	  .help = "0: a file that does not exist is an error, not created" },
	{ .name = "create_only", .type = OPT_BOOL, .off = F(create_only),
	  .def = "0", .category = "target",
	  .help = "Create and lay out the files, then do no I/O" },
	{ .name = "file_service_type", .type = OPT_SPECIAL,
	  .off = F(file_service_type), .set = set_file_service_type,
	  .def = "roundrobin", .category = "target",
	  .help = "Which file of a job the next I/O goes to: roundrobin[:N] "
		  "(N I/Os a file in turn), sequential (each file to its "
		  "end, then the next), random[:N] (N I/Os on a file drawn "
		  "uniformly), zipf[:THETA[:CENTER]], pareto[:H[:CENTER]], "
		  "normal[:SIGMA[:CENTER]] (gauss: the same): a file drawn "
		  "for every I/O" },
	{ .name = "openfiles", .alias = "open_files", .type = OPT_UINT,
	  .off = F(openfiles), .def = "0", .min = 0, .max = 4096,
	  .category = "target",
	  .help = "At most this many of a job's files in service at once "
		  "(0, the default: all): the next enters when one is finished, as "
		  "fio's open files; iorig keeps every file open" },
	{ .name = "create_serialize", .type = OPT_BOOL,
	  .off = F(create_serialize), .def = "1", .category = "target",
	  .help = "Accepted for fio job files: iorig always creates files "
		  "one job after the other" },
	{ .name = "create_on_open", .type = OPT_BOOL,
	  .off = F(create_on_open), .def = "0", .category = "target",
	  .help = "Accepted for fio job files: iorig creates files when the "
		  "job opens them, before its I/O starts, either way" },
	/* Placement (issue 12, opt-a family; src/target.c) */
	{ .name = "offset_increment", .type = OPT_SIZE_PCT,
	  .off = F(offset_increment), .aux = F(offset_increment_pct),
	  .def = "0", .category = "target",
	  .help = "Clone N of numjobs starts its region N times this further "
		  "than offset (bytes, or a percentage of the target)" },
	{ .name = "offset_align", .type = OPT_SIZE, .off = F(offset_align),
	  .def = "0", .category = "target",
	  .help = "A percentage offset (offset, offset_increment) is rounded "
		  "up to a multiple of this; 0: the smallest block size" },
	{ .name = "file_append", .type = OPT_BOOL, .off = F(file_append),
	  .def = "0", .category = "target",
	  .help = "The region of each file starts at its end (offset "
		  "ignored; devices keep offset)" },
	{ .name = "create_fsync", .type = OPT_BOOL, .off = F(create_fsync),
	  .def = "1", .category = "target",
	  .help = "fsync a file after laying it out or making room in it, "
		  "before the job; 0: leave the data in the page cache" },
	{ .name = "end_syncfs", .type = OPT_BOOL, .off = F(end_syncfs),
	  .def = "0", .category = "cache",
	  .help = "As end_fsync, with syncfs(2): the whole file system of "
		  "each file, inside the runtime (a job that writes)" },
	{ .name = "pre_read", .type = OPT_BOOL, .off = F(pre_read),
	  .def = "0", .category = "cache",
	  .help = "Read the region into the page cache before the job "
		  "(turns invalidate off; nothing with direct=1)" },
	{ .name = "allow_mounted_write", .type = OPT_BOOL,
	  .off = F(allow_destructive), .def = "0", .category = "target",
	  .help = "fio's name for allow_destructive: a mounted or in-use "
		  "device stays refused" },
	{ .name = "unique_filename", .type = OPT_BOOL,
	  .off = F(unique_filename), .def = "1", .category = "target",
	  .help = "Accepted for fio job files: fio prefixes a client's "
		  "address to file names; iorig has no client mode" },
	{ .name = "softrandommap", .type = OPT_BOOL, .off = F(softrandommap),
	  .def = "0", .category = "random",
	  .help = "Go on without the random map when it cannot be "
		  "allocated (sizes that vary: a bit per block), as fio; "
		  "else the job fails" },
	{ .name = "fill_device", .alias = "fill_fs", .type = OPT_BOOL,
	  .off = F(fill_device), .def = "0", .category = "target",
	  .help = "Write until the file system is full: ENOSPC ends the "
		  "job, not an error; without size=, the region is the free "
		  "space; a reading job fills it first, then reads" },
	{ .name = "opendir", .type = OPT_STR, .off = F(opendir),
	  .category = "target",
	  .help = "Every regular file below this directory (recursively, "
		  "in name order; links not followed) joins filename=" },
	{ .name = "lockfile", .type = OPT_SPECIAL, .off = F(lockfile),
	  .set = set_lockfile, .choices = lockfile_choices, .def = "none",
	  .category = "target",
	  .help = "fio's locking of a file between the jobs sharing it: "
		  "none (exclusive and readwrite: refused, not supported "
		  "yet)" },
	/* CPU placement and run control (cpuset.h, steady.h) */
	{ .name = "cpus_allowed", .type = OPT_SPECIAL, .off = F(cpus_allowed),
	  .set = set_cpus_allowed, .category = "cpu",
	  .help = "CPUs the job's clones may run on: a list such as 0-3,6" },
	{ .name = "cpumask", .type = OPT_SPECIAL, .off = F(cpus_allowed),
	  .set = set_cpumask, .category = "cpu",
	  .help = "CPUs as a mask, bit N for CPU N (0x3: CPUs 0 and 1); "
		  "same setting as cpus_allowed" },
	{ .name = "cpus_allowed_policy", .type = OPT_ENUM,
	  .off = F(cpus_allowed_policy), .def = "shared",
	  .choices = cpus_policy_choices, .category = "cpu",
	  .help = "shared: each clone may use all of the CPUs; split: one "
		  "CPU each, in turn" },
	/* Process attributes and I/O buffer memory (procattr.h) */
	{ .name = "nice", .type = OPT_SPECIAL, .off = F(nice),
	  .set = set_nice, .def = "0", .category = "cpu",
	  .help = "Nice value of each clone's thread, -20 to 19 "
		  "(setpriority)" },
	{ .name = "prio", .type = OPT_UINT, .off = F(prio), .def = "none",
	  .min = 0, .max = 7, .flags = OPT_F_NONE, .category = "cpu",
	  .help = "I/O priority level 0 (highest) to 7 (ioprio_set); the "
		  "class is best-effort unless prioclass says; none: "
		  "unchanged" },
	{ .name = "prioclass", .type = OPT_UINT, .off = F(prioclass),
	  .def = "none", .min = 0, .max = 3, .flags = OPT_F_NONE,
	  .category = "cpu",
	  .help = "I/O priority class: 0 none, 1 realtime, 2 best-effort, "
		  "3 idle (ioprio_set); none: unchanged" },
	{ .name = "priohint", .type = OPT_UINT, .off = F(priohint),
	  .def = "none", .min = 0, .max = 1023, .flags = OPT_F_NONE,
	  .category = "cpu",
	  .help = "I/O priority hint (command duration limit index) in the "
		  "value ioprio_set gets; none: unchanged" },
	{ .name = "uid", .type = OPT_UINT, .off = F(uid), .def = "none",
	  .min = 0, .max = 4294967294u, .flags = OPT_F_NONE,
	  .category = "cpu",
	  .help = "User id the job runs as: its files are opened and laid "
		  "out, and its thread runs, as this user; none: unchanged" },
	{ .name = "gid", .type = OPT_UINT, .off = F(gid), .def = "none",
	  .min = 0, .max = 4294967294u, .flags = OPT_F_NONE,
	  .category = "cpu",
	  .help = "Group id the job runs as (see uid); none: unchanged" },
	{ .name = "numa_cpu_nodes", .type = OPT_SPECIAL,
	  .off = F(numa_cpu_nodes), .set = set_numa_nodes, .category = "cpu",
	  .help = "Each clone runs on the CPUs of these NUMA nodes (all, "
		  "or a list such as 0,2-3)" },
	{ .name = "numa_mem_policy", .type = OPT_SPECIAL,
	  .off = F(numa_mem_policy), .set = set_mempolicy_opt,
	  .category = "cpu",
	  .help = "Each clone's memory policy (set_mempolicy): default, "
		  "local, prefer:NODE, bind:NODES, interleave:NODES" },
	{ .name = "mem", .alias = "iomem", .type = OPT_SPECIAL, .off = F(mem),
	  .set = set_mem, .def = "malloc", .category = "engine",
	  .help = "Memory of the I/O buffers: malloc, shm, shmhuge, "
		  "mmap[:FILE], mmaphuge[:FILE], mmapshared[:FILE]" },
	{ .name = "mem_align", .alias = "iomem_align", .type = OPT_SIZE,
	  .off = F(mem_align), .def = "0", .category = "engine",
	  .help = "The I/O buffers start at a multiple of this many bytes "
		  "(a power of 2); 0: the target's alignment" },
	{ .name = "hugepage-size", .type = OPT_SIZE, .off = F(hugepage_size),
	  .def = "2m", .category = "engine",
	  .help = "mem=shmhuge, mmaphuge: huge page size the buffers are "
		  "rounded up to" },
	{ .name = "lockmem", .type = OPT_SIZE, .off = F(lockmem), .def = "0",
	  .category = "engine",
	  .help = "Lock this many bytes of memory per clone (mlock) for its "
		  "run, leaving less for the page cache; 0: none" },
	{ .name = "ioscheduler", .type = OPT_SPECIAL, .off = F(ioscheduler),
	  .set = set_ioscheduler, .category = "engine",
	  .help = "Switch the disks under the job's targets to this I/O "
		  "scheduler (none, mq-deadline, kyber, bfq) once its files "
		  "are open; put back at the end of the run" },
	{ .name = "cgroup", .type = OPT_SPECIAL, .off = F(cgroup),
	  .set = set_cgroup, .category = "cpu",
	  .help = "Each clone's thread joins this blkio control group "
		  "(cgroup v1), made when missing" },
	{ .name = "cgroup_weight", .type = OPT_UINT, .off = F(cgroup_weight),
	  .def = "0", .min = 0, .max = 1000, .category = "cpu",
	  .help = "The group's blkio weight (bfq's, 1 to 1000); without "
		  "cgroup=, the group is named after the job; 0: unchanged" },
	{ .name = "cgroup_nodelete", .type = OPT_BOOL,
	  .off = F(cgroup_nodelete), .def = "0", .category = "cpu",
	  .help = "Keep a group the run made (normally removed when its "
		  "last clone ends)" },
	/* fio's options once of "no meaning" here (issue 12) */
	{ .name = "exec_prerun", .type = OPT_STR, .off = F(exec_prerun),
	  .category = "order",
	  .help = "Shell command run for each clone after its files are laid "
		  "out, before its I/O (output in NAME.prerun.txt); failing: "
		  "the clone does no I/O" },
	{ .name = "exec_postrun", .type = OPT_STR, .off = F(exec_postrun),
	  .category = "order",
	  .help = "Shell command run for each clone after its I/O ends "
		  "(output in NAME.postrun.txt)" },
	{ .name = "comm", .type = OPT_STR, .off = F(comm), .category = "cpu",
	  .help = "Name of each clone's thread (prctl PR_SET_NAME, 15 "
		  "bytes kept), as ps and /proc/PID/task/TID/comm show it" },
	{ .name = "gtod_cpu", .type = OPT_UINT, .off = F(gtod_cpu),
	  .def = "none", .min = 0, .max = CPU_SETSIZE - 1,
	  .flags = OPT_F_NONE, .category = "cpu",
	  .help = "fio's time-keeping CPU: taken out of cpus_allowed, as "
		  "fio does; iorig starts no time thread (a warning says so)" },
	{ .name = "job_start_clock_id", .type = OPT_UINT,
	  .off = F(job_start_clock_id), .def = "0", .min = 0, .max = 11,
	  .category = "report",
	  .help = "A later fio's clock of its JSON job_start: accepted, no "
		  "effect (no report here has job_start; a warning says so)" },
	{ .name = "filetype", .type = OPT_ENUM, .off = F(filetype),
	  .def = "none", .choices = filetype_choices, .category = "target",
	  .help = "Every file of the job is of this type (a later fio's, "
		  "which then skips its stat); checked, a mismatch refused" },
	{ .name = "profile", .type = OPT_STR, .off = F(profile),
	  .category = "description",
	  .help = "Accepted, no effect, as in fio 3.33, which runs its "
		  "built-in profiles only from --profile= (a warning says so)" },
	{ .name = "exitall", .type = OPT_BOOL, .off = F(exitall), .def = "0",
	  .category = "order",
	  .help = "When this job ends, stop the other jobs running with it" },
	{ .name = "exit_what", .type = OPT_ENUM, .off = F(exit_what),
	  .def = "group", .choices = exit_what_choices, .category = "order",
	  .help = "What exitall stops: group (the jobs running with it), "
		  "stonewall (the same here), all (those and every later "
		  "job)" },
	{ .name = "exitall_on_error", .type = OPT_BOOL,
	  .off = F(exitall_on_error), .def = "0", .category = "order",
	  .help = "When this job fails, stop every job, and start no more" },
	{ .name = "wait_for", .type = OPT_STR, .off = F(wait_for),
	  .category = "order",
	  .help = "Start once the job of this name (all its clones) has "
		  "ended" },
	{ .name = "iodepth_low", .type = OPT_UINT, .off = F(iodepth_low),
	  .def = "0", .min = 0, .max = 65536, .category = "engine",
	  .help = "Once iodepth I/Os are in flight, issue again only when "
		  "they drop to this many; 0: iodepth (refill at once)" },
	{ .name = "gtod_reduce", .type = OPT_BOOL, .off = F(gtod_reduce),
	  .def = "0", .category = "report",
	  .help = "Report no latencies and no bandwidth samples (all four "
		  "disable_* options)" },
	{ .name = "disable_lat", .type = OPT_BOOL, .off = F(disable_lat),
	  .def = "0", .category = "report",
	  .help = "Report no total latency (lat)" },
	{ .name = "disable_clat", .type = OPT_BOOL, .off = F(disable_clat),
	  .def = "0", .category = "report",
	  .help = "Report no completion latency (clat) nor its percentiles" },
	{ .name = "disable_slat", .type = OPT_BOOL, .off = F(disable_slat),
	  .def = "0", .category = "report",
	  .help = "Report no submission latency (slat)" },
	{ .name = "disable_bw_measurement", .alias = "disable_bw",
	  .type = OPT_BOOL, .off = F(disable_bw), .def = "0",
	  .category = "report",
	  .help = "Report no bandwidth and IOPS samples (interval= figures)" },
	{ .name = "clocksource", .type = OPT_ENUM, .off = F(clocksource),
	  .def = "clock_gettime", .choices = clocksource_choices,
	  .category = "time",
	  .help = "Accepted for fio job files: iorig times with the TSC "
		  "when it is invariant, else clock_gettime" },
	{ .name = "unified_rw_reporting", .type = OPT_ENUM,
	  .off = F(unified_rw_reporting), .def = "none",
	  .choices = unified_choices, .category = "report",
	  .help = "Report reads and writes apart, as one (mixed), or both" },
	{ .name = "disk_util", .type = OPT_BOOL, .off = F(disk_util),
	  .def = "1", .category = "report",
	  .help = "Report the devices' own counters over the run "
		  "(/proc/diskstats): I/Os, merges, ticks, utilization" },
	{ .name = "steadystate", .alias = "ss", .type = OPT_SPECIAL,
	  .off = F(steadystate), .def = "iops_slope:0.01%",
	  .set = set_steadystate, .category = "steadystate",
	  .help = "KIND:LIMIT[%]: stop the job once steady (iops, bw, lat: "
		  "every sample within LIMIT of the mean; *_slope: the "
		  "slope below LIMIT) over ss_dur" },
	{ .name = "ss_dur", .alias = "steadystate_duration", .type = OPT_TIME,
	  .off = F(ss_dur_ns), .def = "0", .unit_ns = NS_S,
	  .category = "steadystate",
	  .help = "The window steadystate judges (default unit s); 0: no "
		  "steady-state detection" },
	{ .name = "ss_ramp", .alias = "steadystate_ramp_time",
	  .type = OPT_TIME, .off = F(ss_ramp_ns), .def = "0", .unit_ns = NS_S,
	  .category = "steadystate",
	  .help = "Run this long before collecting steady-state samples "
		  "(default unit s)" },
	{ .name = "ss_interval", .alias = "steadystate_check_interval",
	  .type = OPT_TIME, .off = F(ss_interval_ns), .def = "1",
	  .unit_ns = NS_S, .min = 10000000, .max = 86400 * NS_S,
	  .category = "steadystate",
	  .help = "One steady-state sample per this long (default unit s)" },
	/* Ordering and reporting */
	{ .name = "stonewall", .alias = "wait_for_previous", .type = OPT_BOOL,
	  .off = F(stonewall), .def = "0", .category = "order",
	  .help = "Start after all earlier jobs have finished" },
	{ .name = "new_group", .type = OPT_BOOL, .off = F(new_group),
	  .def = "0", .category = "order",
	  .help = "Start a new reporting group" },
	{ .name = "group_reporting", .type = OPT_BOOL,
	  .off = F(group_reporting), .def = "0", .category = "report",
	  .help = "Report all jobs of the group as one" },
	{ .name = "percentile_list", .type = OPT_PLIST, .off = 0,
	  .def = DEFAULT_PERCENTILES, .category = "report",
	  .help = "Percentiles to report, ':'-separated" },
	{ .name = "clat_percentiles", .type = OPT_BOOL,
	  .off = F(clat_percentiles), .def = "1", .category = "report",
	  .help = "Report completion latency percentiles" },
	{ .name = "lat_percentiles", .type = OPT_BOOL,
	  .off = F(lat_percentiles), .def = "0", .category = "report",
	  .help = "Report total latency percentiles" },
	{ .name = "slat_percentiles", .type = OPT_BOOL,
	  .off = F(slat_percentiles), .def = "0", .category = "report",
	  .help = "Report submission latency percentiles" },
	{ .name = "interval", .type = OPT_TIME, .off = F(interval_ns),
	  .def = "0", .unit_ns = NS_S, .min = 10000000, .max = 86400 * NS_S,
	  .flags = OPT_F_ZERO_OFF | OPT_F_OWN, .category = "report",
	  .help = "Also record IOPS, bandwidth and latency for each "
		  "interval of this length (10ms to 1d, default unit s); "
		  "0: off" },
	{ .name = "bwavgtime", .alias = "bw_avg_time", .type = OPT_TIME,
	  .off = F(bw_avg_ns), .def = "500", .unit_ns = NS_S / 1000,
	  .min = NS_S / 1000, .max = 86400 * NS_S, .category = "report",
	  .help = "Take a bandwidth sample every this long (1ms to 1d, "
		  "default unit ms): min, max, mean, stddev of the samples "
		  "in the report" },
	{ .name = "iopsavgtime", .alias = "iops_avg_time", .type = OPT_TIME,
	  .off = F(iops_avg_ns), .def = "500", .unit_ns = NS_S / 1000,
	  .min = NS_S / 1000, .max = 86400 * NS_S, .category = "report",
	  .help = "Take an IOPS sample every this long (1ms to 1d, default "
		  "unit ms): min, max, mean, stddev of the samples in the "
		  "report" },
	{ .name = "kb_base", .type = OPT_ENUM, .off = F(kb_base),
	  .def = "1024", .choices = kb_base_choices, .category = "units",
	  .help = "Base of k/m/g and KB/MB/GB in sizes" },
	/* fio's report options once of "no meaning" here (issue 12) */
	{ .name = "stats", .type = OPT_BOOL, .off = F(stats), .def = "1",
	  .category = "report",
	  .help = "0: the job runs but is in no report, nor in its group's "
		  "totals (fio's stats=0)" },
	{ .name = "unit_base", .type = OPT_ENUM, .off = F(unit_base),
	  .def = "0", .choices = unit_base_choices, .category = "units",
	  .help = "Bandwidth of the text report in bytes (8, 0) or bits (1)" },
	{ .name = "significant_figures", .type = OPT_UINT, .off = F(sig_figs),
	  .def = "3", .min = 1, .max = 10, .category = "report",
	  .help = "Significant figures of the text report's IOPS and "
		  "bandwidth (fio: of its normal output, default 4)" },
	{ .name = "sweep", .type = OPT_SPECIAL, .off = F(sweep),
	  .set = set_sweep, .category = "sweep",
	  .help = "OPTION:v1,v2,...: run the job once per value, each point "
		  "stonewalled; repeat for a cartesian product" },
	/* Checks and repeats (check.h) */
	{ .name = "check", .type = OPT_SPECIAL, .off = F(check),
	  .set = set_check, .category = "checks",
	  .help = "EXPR such as read.iops>=50k or read.clat.p99<=2ms: checked "
		  "after the run, a failure gives exit status 3; repeatable" },
	{ .name = "repeat", .type = OPT_UINT, .off = F(repeat), .def = "1",
	  .min = 1, .max = 4096, .flags = OPT_F_OWN, .category = "checks",
	  .help = "Run the job this many times, one after the other; the "
		  "report gives mean, stddev, cv, min and max" },
	/* Buffer contents (fill.h) */
	{ .name = "zero_buffers", .type = OPT_BOOL, .off = F(zero_buffers),
	  .def = "0", .category = "buffers",
	  .help = "Write zeros (default: every write distinct random "
		  "bytes)" },
	{ .name = "refill_buffers", .type = OPT_BOOL,
	  .off = F(refill_buffers), .def = "0", .category = "buffers",
	  .help = "Accepted for fio job files: iorig makes every write's "
		  "bytes afresh anyway" },
	{ .name = "scramble_buffers", .type = OPT_BOOL,
	  .off = F(scramble_buffers), .def = "auto", .flags = OPT_F_AUTO,
	  .category = "buffers",
	  .help = "1: with zero_buffers or buffer_pattern, stamp each "
		  "512-byte sector with its offset and the write's key (no "
		  "two sectors alike); auto: as fio, not then" },
	{ .name = "buffer_pattern", .type = OPT_SPECIAL,
	  .off = F(buffer_pattern), .set = set_buffer_pattern,
	  .category = "buffers",
	  .help = "Write this pattern, repeated from each write's start: "
		  "0xHEX, an int, \"text\", 'FILE', or several together" },
	{ .name = "buffer_compress_percentage", .type = OPT_UINT,
	  .off = F(buffer_compress_percentage), .def = "0", .min = 0,
	  .max = 100, .category = "buffers",
	  .help = "Writes that compress by about this percent: each chunk "
		  "random, then zeros (or buffer_pattern); 0: not set" },
	{ .name = "buffer_compress_chunk", .type = OPT_SIZE,
	  .off = F(buffer_compress_chunk), .def = "512",
	  .category = "buffers",
	  .help = "Chunk of buffer_compress_percentage, random then fixed "
		  "bytes; 0 or more than the write: the smallest write" },
	{ .name = "dedupe_percentage", .type = OPT_UINT,
	  .off = F(dedupe_percentage), .def = "0", .min = 0, .max = 100,
	  .category = "buffers",
	  .help = "Percent of writes that repeat the last distinct write's "
		  "bytes (drawn at random per write)" },
	{ .name = "dedupe_mode", .type = OPT_ENUM, .off = F(dedupe_mode),
	  .def = "repeat", .choices = dedupe_mode_choices,
	  .category = "buffers",
	  .help = "Which earlier write a repeated one copies" },
	{ .name = "dedupe_global", .type = OPT_BOOL, .off = F(dedupe_global),
	  .def = "0", .category = "buffers",
	  .help = "dedupe_mode=working_set: the working set is spread over "
		  "all jobs with this option, so duplicates copy other "
		  "jobs' writes too" },
	{ .name = "dedupe_working_set_percentage", .type = OPT_UINT,
	  .off = F(dedupe_working_set_percentage), .def = "5", .min = 0,
	  .max = 100, .category = "buffers",
	  .help = "dedupe_mode=working_set: the first distinct writes, this "
		  "percent of the region, are the ones repeated" },
	/* Log files (iolog.h) */
	{ .name = "write_bw_log", .type = OPT_STR, .off = F(write_bw_log),
	  .flags = OPT_F_BARE, .category = "logs",
	  .help = "Bandwidth log PREFIX_bw.N.log (fio's format; bare: the "
		  "job's name)" },
	{ .name = "write_iops_log", .type = OPT_STR, .off = F(write_iops_log),
	  .flags = OPT_F_BARE, .category = "logs",
	  .help = "IOPS log PREFIX_iops.N.log (fio's format)" },
	{ .name = "write_lat_log", .type = OPT_STR, .off = F(write_lat_log),
	  .flags = OPT_F_BARE, .category = "logs",
	  .help = "Latency logs PREFIX_slat.N.log, _clat, _lat (fio's "
		  "format, ns)" },
	{ .name = "write_hist_log", .type = OPT_STR, .off = F(write_hist_log),
	  .flags = OPT_F_BARE, .category = "logs",
	  .help = "clat histogram log PREFIX_clat_hist.N.log (fio's bins; "
		  "needs log_hist_msec)" },
	{ .name = "log_avg_msec", .type = OPT_UINT, .off = F(log_avg_msec),
	  .def = "0", .min = 0, .max = 86400000, .category = "logs",
	  .help = "Average logs over windows of this many ms; 0: a line per "
		  "I/O" },
	{ .name = "log_hist_msec", .type = OPT_UINT, .off = F(log_hist_msec),
	  .def = "0", .min = 0, .max = 86400000, .category = "logs",
	  .help = "Histogram log window in ms; 0: no histogram lines" },
	{ .name = "log_window_value", .alias = "log_max_value",
	  .type = OPT_ENUM, .off = F(log_window_value), .def = "avg",
	  .choices = log_window_choices, .category = "logs",
	  .help = "What an averaged latency line holds: avg, max or both" },
	{ .name = "log_offset", .type = OPT_BOOL, .off = F(log_offset),
	  .def = "0", .category = "logs",
	  .help = "Per-I/O log lines carry the I/O's offset" },
	{ .name = "log_prio", .type = OPT_BOOL, .off = F(log_prio),
	  .def = "0", .category = "logs",
	  .help = "The priority field as fio's hex ioprio value (prio=, "
		  "prioclass=); 0: 1 for the realtime class, else 0" },
	{ .name = "per_job_logs", .type = OPT_BOOL, .off = F(per_job_logs),
	  .def = "1", .category = "logs",
	  .help = "1: one log file per job (.N); 0: jobs of a prefix append "
		  "to one file" },
	/* fio's log knobs (iolog.h, logz.h) */
	{ .name = "log_unix_epoch", .type = OPT_BOOL, .off = F(log_unix_epoch),
	  .def = "0", .category = "logs",
	  .help = "Log times in ms of CLOCK_REALTIME (Unix time), or of "
		  "log_alternate_epoch_clock_id's clock, not from the start" },
	{ .name = "log_alternate_epoch", .type = OPT_BOOL,
	  .off = F(log_alternate_epoch), .def = "0", .category = "logs",
	  .help = "Log times in ms of log_alternate_epoch_clock_id's clock "
		  "(as log_unix_epoch)" },
	{ .name = "log_alternate_epoch_clock_id", .type = OPT_UINT,
	  .off = F(log_alternate_epoch_clock_id), .def = "0", .min = 0,
	  .max = INT32_MAX, .category = "logs",
	  .help = "clock_gettime's clock of log_unix_epoch and "
		  "log_alternate_epoch (0 CLOCK_REALTIME, 1 CLOCK_MONOTONIC, "
		  "7 CLOCK_BOOTTIME, 11 CLOCK_TAI)" },
	{ .name = "log_hist_coarseness", .type = OPT_UINT,
	  .off = F(log_hist_coarseness), .def = "0", .min = 0, .max = 6,
	  .category = "logs",
	  .help = "Histogram log bins summed by 2^N: 1856 bins at 0, 29 at "
		  "6" },
	{ .name = "log_store_compressed", .type = OPT_BOOL,
	  .off = F(log_store_compressed), .def = "0", .category = "logs",
	  .help = "bw, iops and lat logs as fio's compressed samples "
		  "(PREFIX_KIND.N.log.fz, zlib), which fio --inflate-log "
		  "prints" },
	{ .name = "log_compression", .type = OPT_SIZE,
	  .off = F(log_compression), .category = "logs",
	  .help = "Accepted: fio's in-memory log chunk; iorig streams its "
		  "logs to their files, same lines" },
	{ .name = "log_compression_cpus", .type = OPT_SPECIAL,
	  .off = F(log_compression_cpus), .set = set_cpus_allowed,
	  .category = "logs",
	  .help = "Accepted (warned): iorig has no log compression thread "
		  "to place" },
	{ .name = "log_entries", .type = OPT_SIZE, .off = F(log_entries),
	  .def = "1024", .category = "logs",
	  .help = "Accepted: fio's initial in-memory log size; iorig streams "
		  "its logs and never grows one during a run" },
	{ .name = "error_dump", .type = OPT_BOOL, .off = F(error_dump),
	  .def = "0", .category = "errors",
	  .help = "Also print each I/O error the job goes on after "
		  "(continue_on_error): file, errno, direction, offset, "
		  "length; 0: only the one that stops it" },
	{ .name = "block_error_percentiles", .type = OPT_BOOL,
	  .off = F(block_error_percentiles), .def = "0",
	  .category = "errors",
	  .help = "Accepted (warned): iorig keeps no per-block trim state "
		  "for fio's trims-to-error histogram" },
	{ .name = "write_io_trace", .type = OPT_STR, .off = F(write_io_trace),
	  .category = "logs",
	  .help = "Per-I/O trace FILE: time_us, R/W, offset, bytes, slat, "
		  "clat, lat (ns)" },
	{ .name = "write_iolog", .type = OPT_STR, .off = F(write_iolog),
	  .category = "logs",
	  .help = "fio's iolog (version 3) of every I/O as queued, which "
		  "fio's read_iolog replays; appended to FILE (FILE.N for "
		  "clone N)" },
	/* I/O replay (replay.h) */
	{ .name = "read_iolog", .type = OPT_STR, .off = F(read_iolog),
	  .category = "logs",
	  .help = "Replay fio's iolog (version 2 or 3) or a binary blktrace "
		  "trace: its I/Os, on its files, at its times" },
	/* blktrace merge (src/blktrace.c, replay.h) */
	{ .name = "merge_blktrace_file", .type = OPT_STR,
	  .off = F(merge_blktrace_file), .category = "logs",
	  .help = "Merge the blktrace traces read_iolog names (A:B:...) by "
		  "time into this file, and replay it" },
	{ .name = "merge_blktrace_scalars", .type = OPT_STR,
	  .off = F(merge_blktrace_scalars), .category = "logs",
	  .help = "Per trace of the merge (':' list): its times scaled by "
		  "this percent" },
	{ .name = "merge_blktrace_iters", .type = OPT_STR,
	  .off = F(merge_blktrace_iters), .category = "logs",
	  .help = "Per trace of the merge (':' list): how many times it "
		  "repeats, each pass after the previous" },
	{ .name = "read_iolog_chunked", .type = OPT_BOOL,
	  .off = F(read_iolog_chunked), .def = "0", .category = "logs",
	  .help = "Accepted: iorig reads the whole log before the job starts "
		  "(the same I/Os)" },
	{ .name = "replay_no_stall", .type = OPT_BOOL,
	  .off = F(replay_no_stall), .def = "0", .category = "logs",
	  .help = "Replay the log's I/Os as fast as they go, not at its "
		  "times" },
	{ .name = "replay_redirect", .type = OPT_STR,
	  .off = F(replay_redirect), .category = "logs",
	  .help = "Replay every I/O of the log on this one file or device" },
	{ .name = "replay_scale", .type = OPT_UINT, .off = F(replay_scale),
	  .def = "1", .min = 0, .max = UINT32_MAX, .category = "logs",
	  .help = "Divide the log's offsets by this" },
	{ .name = "replay_align", .type = OPT_SIZE, .off = F(replay_align),
	  .def = "0", .category = "logs",
	  .help = "Align the log's offsets down to this power of 2 (bytes)" },
	{ .name = "replay_time_scale", .type = OPT_UINT,
	  .off = F(replay_time_scale), .def = "100", .min = 1,
	  .max = 1000000, .category = "logs",
	  .help = "The log's delays are 100/this as long (percent)" },
	{ .name = "replay_skip", .type = OPT_SPECIAL,
	  .off = F(replay_skip_str), .set = set_replay_skip,
	  .category = "logs",
	  .help = "Directions of the log not to replay: read,write,trim,sync" },
	/* Verification */
	{ .name = "verify", .type = OPT_ENUM, .off = F(verify), .def = "none",
	  .choices = verify_choices, .category = "verify",
	  .help = "Stamp every written block with a header and a checksum, "
		  "and check blocks read back" },
	{ .name = "verify_pattern", .type = OPT_SPECIAL,
	  .off = F(verify_pattern), .set = set_verify_pattern,
	  .category = "verify",
	  .help = "verify=pattern: the data after each header, 0xHEX or a "
		  "quoted string, repeated" },
	{ .name = "do_verify", .type = OPT_BOOL, .off = F(do_verify),
	  .def = "1", .category = "verify",
	  .help = "After the writes, read the blocks written back and check "
		  "them" },
	{ .name = "verify_only", .type = OPT_BOOL, .off = F(verify_only),
	  .def = "0", .category = "verify",
	  .help = "Write nothing: read the region and check what an earlier "
		  "run wrote" },
	{ .name = "verify_fatal", .type = OPT_BOOL, .off = F(verify_fatal),
	  .def = "0", .category = "verify",
	  .help = "Stop checking at the first mismatch (default: check "
		  "everything)" },
	{ .name = "verify_backlog", .type = OPT_UINT,
	  .off = F(verify_backlog), .def = "0", .min = 0,
	  .max = VERIFY_BACKLOG_MAX, .category = "verify",
	  .help = "Also check while writing: after every N writes, read "
		  "those N blocks back; 0: never" },
	{ .name = "verify_backlog_batch", .type = OPT_UINT,
	  .off = F(verify_backlog_batch), .def = "0", .min = 0,
	  .max = VERIFY_BACKLOG_MAX, .category = "verify",
	  .help = "Blocks read back each time verify_backlog is due: fewer "
		  "leaves some to the final check; 0: verify_backlog's N" },
	{ .name = "trim_percentage", .type = OPT_UINT,
	  .off = F(trim_percentage), .def = "0", .min = 0, .max = 100,
	  .category = "verify",
	  .help = "With verify and trim_backlog: this percentage of the "
		  "blocks written are trimmed afterwards, then checked to "
		  "read as zeros" },
	{ .name = "trim_verify_zero", .type = OPT_BOOL,
	  .off = F(trim_verify_zero), .def = "1", .category = "verify",
	  .help = "A trimmed block must read as zeros (0: it is not "
		  "checked)" },
	{ .name = "trim_backlog", .type = OPT_UINT, .off = F(trim_backlog),
	  .def = "0", .min = 0, .max = VERIFY_BACKLOG_MAX,
	  .category = "verify",
	  .help = "Trim after every N blocks written (the blocks "
		  "trim_percentage chose, oldest first); 0: never" },
	{ .name = "trim_backlog_batch", .type = OPT_UINT,
	  .off = F(trim_backlog_batch), .def = "0", .min = 0,
	  .max = VERIFY_BACKLOG_MAX, .category = "verify",
	  .help = "Trims each time trim_backlog is due; 0: trim_backlog's N" },
	{ .name = "verify_async", .type = OPT_UINT, .off = F(verify_async),
	  .def = "0", .min = 0, .max = 1024, .category = "verify",
	  .help = "fio's N verification threads: accepted, iorig checks "
		  "inline in the job's thread (a warning says so)" },
	{ .name = "verify_async_cpus", .type = OPT_SPECIAL,
	  .off = F(verify_async_cpus), .set = set_cpus_allowed,
	  .category = "verify",
	  .help = "CPUs of fio's verification threads (a list such as "
		  "0-3,6): checked, and without effect (verify_async)" },
	{ .name = "verify_dump", .type = OPT_BOOL, .off = F(verify_dump),
	  .def = "0", .category = "verify",
	  .help = "Write each mismatching block as read, and as expected, to "
		  "FILE.OFFSET.received and .expected in the working directory" },
	{ .name = "verify_state_save", .type = OPT_BOOL,
	  .off = F(verify_state_save), .def = "1", .category = "verify",
	  .help = "A writing job saves which blocks it wrote to "
		  "NAME.CLONE.verify-state in the working directory" },
	{ .name = "verify_state_load", .type = OPT_BOOL,
	  .off = F(verify_state_load), .def = "0", .category = "verify",
	  .help = "verify_only=1: check only the blocks the state file of "
		  "the writing run names" },
	{ .name = "verify_interval", .type = OPT_SIZE,
	  .off = F(verify_interval), .def = "0", .category = "verify",
	  .help = "A header and checksum every N bytes of a block (a "
		  "multiple of 512 dividing every block size); 0: one per "
		  "block" },
	{ .name = "verify_offset", .type = OPT_SIZE,
	  .off = F(verify_offset), .def = "0", .category = "verify",
	  .help = "Swap the header with the bytes at this offset of each "
		  "interval before writing (swapped back to check)" },
	{ .name = "serialize_overlap", .type = OPT_BOOL,
	  .off = F(serialize_overlap), .def = "0", .category = "verify",
	  .help = "Never have two I/Os of the job in flight that overlap: "
		  "the later waits" },
	{ .name = NULL },
};

/*
 * Options fio has that iorig does not (yet). Naming one is an error that
 * says so, never a silent no-op.
 */
static const char *const fio_only[] = {
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

const struct opt_def *options_find_in(const struct opt_def *t,
				      const char *name)
{
	for (; t && t->name; t++)
		if (!strcmp(t->name, name) ||
		    (t->alias && !strcmp(t->alias, name)))
			return t;
	return NULL;
}

const struct opt_def *options_find(const char *name)
{
	const struct engine_ops *const *e;
	const struct opt_def *o = options_find_in(options_table, name);

	for (e = engine_list(); !o && *e; e++)
		o = options_find_in((*e)->options, name);
	return o;
}

/* A row of the job table; any other is an engine's. */
static bool job_row(const struct opt_def *o)
{
	uintptr_t p = (uintptr_t)o, t = (uintptr_t)options_table;

	return p >= t && p < t + sizeof(options_table);
}

bool options_is_number(const char *name)
{
	const struct opt_def *o = options_find(name);

	if (!o)
		return false;
	switch (o->type) {
	case OPT_UINT: case OPT_SIZE: case OPT_SIZE_PCT: case OPT_TIME:
	case OPT_PCT: case OPT_BS: case OPT_RATE:
		return true;
	default:
		return false;
	}
}

bool options_is_fio_only(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(fio_only) / sizeof(fio_only[0]); i++)
		if (!strcmp(fio_only[i], name))
			return true;
	return false;
}

/* Levenshtein distance, capped: names are short. */
static unsigned edit_distance(const char *a, const char *b)
{
	unsigned row[64], i, j, la = strlen(a), lb = strlen(b);

	if (la >= 63 || lb >= 63)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		unsigned prev = row[0], cur;

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			cur = row[j];
			row[j] = prev + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (cur + 1 < row[j])
				row[j] = cur + 1;
			prev = cur;
		}
	}
	return row[lb];
}

/* Options of later fio versions that fio 3.33, the one iorig follows,
 * refuses as unknown. */
static const char *const not_fio333[] = {
	"log_issue_time",
	"verify_header_seed",
	"verify_mode",
	"verify_pattern_interval",
	"verify_policy",
	"verify_write_sequence",
};

const char *options_fio_only_msg(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(not_fio333) / sizeof(not_fio333[0]); i++)
		if (!strcmp(not_fio333[i], name))
			return "not an option of fio 3.33 (a later fio's), "
			       "which iorig follows: fio 3.33 refuses it too";
	if (!options_is_fio_only(name))
		return NULL;
	/* Engine options of engines that need what iorig has not: fio
	 * 3.33 knows them only once ioengine= names that engine. */
	if (!strcmp(name, "single_instance"))
		return "an option of fio's libhdfs engine (ioengine=libhdfs), "
		       "which needs libhdfs (Hadoop), which iorig does not "
		       "have; run this job with a fio built with it";
	if (!strcmp(name, "single-instance"))
		return "an option of fio's gfapi engines (ioengine=gfapi, "
		       "gfapi_async), which need libgfapi (GlusterFS), which "
		       "iorig does not have; run this job with a fio built "
		       "with it";
	if (!strcmp(name, "spdk_json_conf") || !strcmp(name, "spdk_conf"))
		return "an option of SPDK's fio plugin (ioengine=spdk_bdev, "
		       "spdk), which iorig does not have (Debian's fio 3.33 "
		       "cannot load it either); run this job with a fio "
		       "built with SPDK";
	/* NVMe Flexible Data Placement: a later fio's (3.34: fdp,
	 * fdp_pli, fdp_pli_select; 3.36 renamed them). doc/fdp.md says
	 * how they would map onto io_uring_cmd. */
	if (!strcmp(name, "fdp") || !strcmp(name, "fdp_pli") ||
	    !strcmp(name, "fdp_pli_select") || !strcmp(name, "plids") ||
	    !strcmp(name, "plid_select") || !strcmp(name, "dp_scheme") ||
	    !strcmp(name, "data_placement") ||
	    !strcmp(name, "dataplacement"))
		return "an option of a later fio's NVMe Flexible Data "
		       "Placement (fio 3.33, which iorig follows, refuses "
		       "it as unknown); not supported: Debian's QEMU (7.2), "
		       "the emulator iorig's NVMe tests run on, has no FDP, "
		       "so it could not be tested (doc/fdp.md: how it "
		       "would map onto ioengine=io_uring_cmd)";
	/* fio 3.33 opens with O_DIRECT and 040000000, a flag Linux does
	 * not have (no O_ATOMIC there): direct I/O, no atomic writes. */
	if (!strcmp(name, "atomic"))
		return "fio has this option but iorig does not support it: "
		       "fio 3.33 reads atomic=1 as direct=1 plus an open "
		       "flag Linux ignores, so its writes are not atomic, "
		       "without a word; expected direct=1, if that is what "
		       "the job needs (a later fio's atomic=1, RWF_ATOMIC "
		       "writes, is not supported either: Debian's QEMU "
		       "7.2, the emulator iorig's NVMe tests run on, has "
		       "no atomic write emulation to test it on)";
	/* Checked against Debian's fio 3.33 (fio --parse-only). */
	if (!strcmp(name, "percentage_sequential") ||
	    !strcmp(name, "rwmixcycle"))
		return "fio has this option but iorig does not support it "
		       "(fio 3.33 refuses it too: deprecated, the job is "
		       "dropped)";
	if (!strcmp(name, "ramp_size") || !strcmp(name, "ddir_seq_nr") ||
	    !strcmp(name, "ddir_seq_add") ||
	    !strcmp(name, "random_sequence_stride"))
		return "fio has this option but iorig does not support it yet "
		       "(fio 3.33 does not know it either: a later fio's, or "
		       "fio's internal name of rw=...:N)";
	return "fio has this option but iorig does not support it yet";
}

/* The nearest name in table t to name, when nearer than *bestd. */
static void suggest_in(const struct opt_def *t, const char *name,
		       const char **best, unsigned *bestd)
{
	unsigned d;

	for (; t && t->name; t++) {
		d = edit_distance(name, t->name);
		if (t->alias && edit_distance(name, t->alias) < d)
			d = edit_distance(name, t->alias);
		if (d < *bestd) {
			*bestd = d;
			*best = t->name;
		}
	}
}

const char *options_suggest(const char *name)
{
	const struct engine_ops *const *e;
	const char *best = NULL;
	unsigned bestd = strlen(name) > 4 ? 3 : 2;

	/* A name fio knows is not a typo of another option. */
	if (options_is_fio_only(name))
		return NULL;
	suggest_in(options_table, name, &best, &bestd);
	for (e = engine_list(); *e; e++)
		suggest_in((*e)->options, name, &best, &bestd);
	return best;
}

/* A row's value: at off in base, the job for the job table's rows, the
 * engine's options struct for an engine's. */
static void *field(void *base, size_t off)
{
	return (char *)base + off;
}

static const void *cfield(const void *base, size_t off)
{
	return (const char *)base + off;
}


static int set_ioengine(struct job *j, const struct opt_def *o,
			const char *val, char *why, size_t whylen)
{
	const struct engine_ops *const *e;
	const struct engine_ops *eng = engine_find(val);
	size_t n = 0;
	char *copy;
	int ret;

	if (eng) {
		if (eng != j->engine &&
		    (ret = engopts_switch(j, eng, why, whylen)))
			return ret;
		copy = strdup(eng->name);
		if (!copy)
			return -ENOMEM;
		free(j->ioengine);
		j->ioengine = copy;
		return 0;
	}
	if (engine_needs(val)) {
		snprintf(why, whylen, "engine '%s' needs %s, which iorig does "
			 "not have; run this job with a fio built with it",
			 val, engine_needs(val));
		return -EINVAL;
	}
	n += snprintf(why, whylen, "unknown engine '%s'; expected one of:",
		      val);
	for (e = engine_list(); *e && n < whylen; e++)
		n += snprintf(why + n, whylen - n, " %s", (*e)->name);
	return -EINVAL;
}

/*
 * Checked here, kept as given: verify/block.c makes the bytes of it. As in
 * fio, it makes verify=pattern of a job whose verify= was not given (so
 * far: a verify= after it still wins).
 */
static int set_verify_pattern(struct job *j, const struct opt_def *o,
			      const char *val, char *why, size_t whylen)
{
	uint8_t bytes[VERIFY_PATTERN_MAX];
	char *copy;
	int n;

	n = verify_pattern_parse(val, bytes, why, whylen);
	if (n < 0)
		return n;
	copy = strdup(val);
	if (!copy)
		return -ENOMEM;
	free(j->verify_pattern);
	j->verify_pattern = copy;
	if (!j->verify_set)
		j->verify = VERIFY_PATTERN;
	return 0;
}

/* replay_skip=read,write,trim,sync */
static int set_replay_skip(struct job *j, const struct opt_def *o,
			   const char *val, char *why, size_t whylen)
{
	static const char *const names[] = { "read", "write", "trim", "sync" };
	const char *p = val;
	unsigned bits = 0, i;
	size_t len;

	for (;;) {
		len = strcspn(p, ",");
		for (i = 0; i < 4; i++)
			if (strlen(names[i]) == len && !strncmp(p, names[i], len))
				break;
		if (i == 4) {
			snprintf(why, whylen, "'%.*s': expected read, write, "
				 "trim or sync, separated by commas", (int)len,
				 p);
			return -EINVAL;
		}
		bits |= 1u << i;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (set_str(field(j, o->off), val))
		return -ENOMEM;
	j->replay_skip = bits;
	return 0;
}

/* ignore_error=READ,WRITE,VERIFY: a list given turns its direction of
 * continue_on_error on, as in fio (errlist.h). */
static int set_ignore_error(struct job *j, const struct opt_def *o,
			    const char *val, char *why, size_t whylen)
{
	static const int bit[ERRLIST_TYPES] = { COE_READ, COE_WRITE,
						COE_VERIFY };
	struct errlist l;
	unsigned t;
	int ret;

	ret = errlist_parse(val, &l, why, whylen);
	if (!ret)
		ret = set_str(field(j, o->off), val);
	if (ret)
		return ret;
	j->ignore_errors = l;
	for (t = 0; t < ERRLIST_TYPES; t++)
		if (l.n[t])
			j->continue_on_error |= bit[t];
	return 0;
}

/* max_latency=TIME[,TIME[,TIME]]: read,write,trim; bare numbers are us */
static int set_max_latency(struct job *j, const struct opt_def *o,
			   const char *val, char *why, size_t whylen)
{
	char parts[3][128];
	uint64_t ns[DDIR_NR];
	int n, d, ret;

	n = value_split_rw(val, false, parts, why, whylen);
	if (n < 0)
		return n;
	for (d = 0; d < DDIR_NR; d++)
		if ((ret = value_time(parts[d], 1000, &ns[d], why, whylen)))
			return ret;
	ret = set_str(field(j, o->off), val);
	if (!ret)
		memcpy(j->max_latency_ns, ns, sizeof(ns));
	return ret;
}

/*
 * filesize=SIZE: every file of the job is this big; a range LO-HI: each
 * file a size drawn in it (target.c, filesize_draw).
 */
static int set_filesize(struct job *j, const struct opt_def *o,
			const char *val, char *why, size_t whylen)
{
	uint64_t lo, hi;
	char *copy;
	int ret;

	(void)o;
	ret = value_size_range(val, (unsigned)j->kb_base, &lo, &hi, why,
			       whylen);
	if (ret)
		return ret;
	copy = strdup(val);
	if (!copy)
		return -ENOMEM;
	free(j->filesize);
	j->filesize = copy;
	j->filesize_min = lo;
	j->filesize_max = hi;
	return 0;
}

/* fio's file_service_type; gen.h says what each kind does. */
static int set_file_service_type(struct job *j, const struct opt_def *o,
				 const char *val, char *why, size_t whylen)
{
	static const struct { const char *name; int kind; } k[] = {
		{ "roundrobin", GEN_FST_RR }, { "sequential", GEN_FST_SEQ },
		{ "random", GEN_FST_RANDOM }, { "zipf", GEN_FST_ZIPF },
		{ "pareto", GEN_FST_PARETO }, { "normal", GEN_FST_NORMAL },
		{ "gauss", GEN_FST_NORMAL },
	};
	const char *colon = strchr(val, ':');
	size_t i, nlen = colon ? (size_t)(colon - val) : strlen(val);
	uint64_t nr = 1;
	double param = 0, center = -1;
	struct dist_spec *d;
	char *end, *copy;
	int ret;

	(void)o;
	for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		if (strlen(k[i].name) == nlen && !strncmp(k[i].name, val, nlen))
			break;
	if (i == sizeof(k) / sizeof(k[0])) {
		snprintf(why, whylen, "'%s': expected roundrobin[:N], "
			 "sequential, random[:N], zipf[:THETA[:CENTER]], "
			 "pareto[:H[:CENTER]] or normal[:SIGMA[:CENTER]]", val);
		return -EINVAL;
	}
	if (k[i].kind <= GEN_FST_RANDOM && colon) {
		errno = 0;
		nr = strtoull(colon + 1, &end, 10);
		if (errno || end == colon + 1 || *end || !nr ||
		    nr > UINT32_MAX || colon[1] == '-') {
			snprintf(why, whylen, "'%s': expected a whole number "
				 "of I/Os from 1 after '%.*s:'", val,
				 (int)nlen, val);
			return -EINVAL;
		}
	} else if (k[i].kind > GEN_FST_RANDOM) {
		/* The law's parameters are random_distribution's. */
		char spec[128];

		snprintf(spec, sizeof(spec), "%s%s",
			 k[i].kind == GEN_FST_ZIPF ? "zipf" :
			 k[i].kind == GEN_FST_PARETO ? "pareto" : "normal",
			 colon ? colon : "");
		d = malloc(sizeof(*d));
		if (!d)
			return -ENOMEM;
		ret = dist_parse(spec, (unsigned)j->kb_base, d, why, whylen);
		param = d->param;
		center = d->center;
		free(d);
		if (ret)
			return ret;
		if (k[i].kind == GEN_FST_ZIPF && param == 1.0) {
			snprintf(why, whylen, "'%s': zipf's theta must not be "
				 "1 (as fio)", val);
			return -EINVAL;
		}
	}
	copy = strdup(val);
	if (!copy)
		return -ENOMEM;
	free(j->file_service_type);
	j->file_service_type = copy;
	j->file_service = k[i].kind;
	j->file_service_nr = nr;
	j->file_service_param = param;
	j->file_service_center = center;
	return 0;
}

static int set_filename_format(struct job *j, const struct opt_def *o,
			       const char *val, char *why, size_t whylen)
{
	const char *p;

	for (p = strchr(val, '$'); p; p = strchr(p + 1, '$')) {
		if (path_fmt_word(p))
			continue;
		snprintf(why, whylen, "'%s': unknown word at '%.32s'; "
			 "expected $jobname, $jobnum, $filenum or $clientuid "
			 "(other text is taken as it is)", val, p);
		return -EINVAL;
	}
	if (!*val) {
		snprintf(why, whylen, "expected a file name pattern");
		return -EINVAL;
	}
	return set_str(field(j, o->off), val);
}

/* Checked here (a file named in it is read), kept as given: fill.c makes
 * the bytes of it at run time. */
static int set_buffer_pattern(struct job *j, const struct opt_def *o,
			      const char *val, char *why, size_t whylen)
{
	uint8_t *bytes;
	char *copy;
	int n;

	n = fill_pattern_parse(val, &bytes, why, whylen);
	if (n < 0)
		return n;
	free(bytes);
	copy = strdup(val);
	if (!copy)
		return -ENOMEM;
	free(j->buffer_pattern);
	j->buffer_pattern = copy;
	return 0;
}

static int set_choice(int *dst, const struct opt_def *o, const char *val,
		      char *why, size_t whylen);

static int set_spec_str(char **dst, const char *val)
{
	char *copy = strdup(val);

	if (!copy)
		return -ENOMEM;
	free(*dst);
	*dst = copy;
	return 0;
}

/* Kept as given (NULL: not set, which zonesize's older form needs). */
static int set_zonemode(struct job *j, const struct opt_def *o,
			const char *val, char *why, size_t whylen)
{
	const struct opt_choice *c = o->choices;
	int v, ret = set_choice(&v, o, val, why, whylen);

	if (ret)
		return ret;
	while (c->value != v)
		c++;
	j->zone_mode = v;
	return set_spec_str(&j->zonemode, c->name);
}

/* zone_reset_threshold=, zone_reset_frequency=: a fraction 0..1 (fio's
 * float), kept as given with its value in zrt / zrf. */
static int set_zone_fraction(struct job *j, const struct opt_def *o,
			     const char *val, char *why, size_t whylen)
{
	bool thr = !strcmp(o->name, "zone_reset_threshold");
	char *end;
	double v;

	errno = 0;
	v = strtod(val, &end);
	if (end == val || *end || errno || !(v >= 0.0 && v <= 1.0)) {
		snprintf(why, whylen, "expected a fraction from 0 to 1, "
			 "such as 0.5");
		return -EINVAL;
	}
	*(thr ? &j->zrt : &j->zrf) = v;
	return set_spec_str(thr ? &j->zone_reset_threshold :
			    &j->zone_reset_frequency, val);
}

/* lockfile=: fio's locks between jobs sharing a file; only none here. */
static int set_lockfile(struct job *j, const struct opt_def *o,
			const char *val, char *why, size_t whylen)
{
	int v, ret = set_choice(&v, o, val, why, whylen);

	if (ret)
		return ret;
	if (v) {
		err_why(why, whylen, "'%s' is not supported yet: iorig does "
			"not lock files between the jobs that share them; "
			"expected none", val);
		return -EINVAL;
	}
	return set_spec_str(&j->lockfile, "none");
}

/* Checked here, kept as given: the worker parses it again for gen. */
static int set_random_distribution(struct job *j, const struct opt_def *o,
				   const char *val, char *why, size_t whylen)
{
	struct dist_spec *d = malloc(sizeof(*d));
	int ret;

	if (!d)
		return -ENOMEM;
	ret = dist_parse(val, (unsigned)j->kb_base, d, why, whylen);
	free(d);
	return ret ? ret : set_spec_str(&j->random_distribution, val);
}

static int set_bssplit(struct job *j, const struct opt_def *o,
		       const char *val, char *why, size_t whylen)
{
	struct bssplit_spec *b = malloc(sizeof(*b));
	int ret;

	if (!b)
		return -ENOMEM;
	ret = bssplit_parse(val, (unsigned)j->kb_base, b, why, whylen);
	free(b);
	return ret ? ret : set_spec_str(&j->bssplit, val);
}

/*
 * rw=MODE[:N]. For a random mode N counts I/Os (a new random offset every
 * N); for a sequential one it is a size, the gap after each I/O, negative
 * to go backwards.
 */
static int set_rw(struct job *j, const struct opt_def *o, const char *val,
		  char *why, size_t whylen)
{
	const char *colon = strchr(val, ':');
	char mode[32];
	uint64_t v;
	int ret;

	if (!colon) {
		j->rw_seq_nr = 0;
		j->rw_seq_add = 0;
		return set_choice(field(j, o->off), o, val, why, whylen);
	}
	if ((size_t)(colon - val) >= sizeof(mode)) {
		snprintf(why, whylen, "'%s' is not valid", val);
		return -EINVAL;
	}
	memcpy(mode, val, (size_t)(colon - val));
	mode[colon - val] = '\0';
	ret = set_choice(field(j, o->off), o, mode, why, whylen);
	if (ret)
		return ret;
	j->rw_seq_nr = 0;
	j->rw_seq_add = 0;
	if (rw_random(j->rw)) {
		ret = value_uint(colon + 1, 1, UINT32_MAX, &v, why, whylen);
		if (ret) {
			snprintf(why, whylen, "'%s': after a random mode, "
				 "expected a count of I/Os, 1 or more (a new "
				 "random offset every N I/Os)", val);
			return ret;
		}
		j->rw_seq_nr = v;
		return 0;
	}
	ret = value_size(colon[1] == '-' ? colon + 2 : colon + 1,
			 (unsigned)j->kb_base, &v, why, whylen);
	if (ret || v > (1ull << 40)) {
		snprintf(why, whylen, "'%s': after a sequential mode, "
			 "expected a size, the gap after each I/O (negative: "
			 "backwards), at most 1TiB", val);
		return -EINVAL;
	}
	j->rw_seq_add = colon[1] == '-' ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* Check one expression (check.c) and append it to the job's checks. */
static int set_check(struct job *j, const struct opt_def *o,
		     const char *val, char *why, size_t whylen)
{
	struct check_expr x;
	char *joined;
	int ret;

	if (strchr(val, ';')) {
		snprintf(why, whylen, "'%s': one check per check= line; ';' "
			 "is not part of a check", val);
		return -EINVAL;
	}
	ret = check_parse(val, (unsigned)j->kb_base, &x, why, whylen);
	if (ret)
		return ret;
	if (asprintf(&joined, "%s%s%s", j->check ? j->check : "",
		     j->check ? ";" : "", val) < 0)
		return -ENOMEM;
	free(j->check);
	j->check = joined;
	return 0;
}

static int set_cpus_allowed(struct job *j, const struct opt_def *o,
			    const char *val, char *why, size_t whylen)
{
	cpu_set_t set;
	int ret = cpuset_parse(val, &set, why, whylen);

	return ret ? ret : set_str(field(j, o->off), val);
}

/* Stored as the CPU list it means: cpus_allowed's field. */
static int set_cpumask(struct job *j, const struct opt_def *o,
		       const char *val, char *why, size_t whylen)
{
	char list[256];
	int ret = cpuset_mask_to_list(val, list, sizeof(list), why, whylen);

	return ret ? ret : set_str(field(j, o->off), list);
}

static int set_steadystate(struct job *j, const struct opt_def *o,
			   const char *val, char *why, size_t whylen)
{
	struct steady_crit c;
	int ret = steady_parse(val, &c, why, whylen);

	return ret ? ret : set_str(field(j, o->off), val);
}

/* Check "OPT:v1,v2[;OPT2:...]" and append it to the job's sweeps. */
static int set_sweep(struct job *j, const struct opt_def *o,
		     const char *val, char *why, size_t whylen)
{
	const char *p = val, *colon, *end;
	char name[64], *joined;
	const struct opt_def *target;
	size_t len;

	for (;;) {
		end = strchr(p, ';');
		end = end ? end : p + strlen(p);
		colon = memchr(p, ':', (size_t)(end - p));
		len = colon ? (size_t)(colon - p) : 0;
		if (!colon || !len || len >= sizeof(name) || colon + 1 == end ||
		    colon[1] == ',' || end[-1] == ',' || strstr(p, ",,")) {
			snprintf(why, whylen, "'%s': expected OPTION:value1,"
				 "value2,... such as bs:4k,64k", val);
			return -EINVAL;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		target = options_find(name);
		if (!target || target == o || !strcmp(name, "name")) {
			snprintf(why, whylen, "'%s' is not an option that can "
				 "be swept", name);
			return -EINVAL;
		}
		if (!*end)
			break;
		p = end + 1;
	}
	if (asprintf(&joined, "%s%s%s", j->sweep ? j->sweep : "",
		     j->sweep ? ";" : "", val) < 0)
		return -ENOMEM;
	free(j->sweep);
	j->sweep = joined;
	return 0;
}

/*
 * rate_curve=: "default" or percents of the probe's IOPS, each in
 * (0, 1000]; stored as the list ("10,50,70,80,90,100" for default).
 */
static int set_rate_curve(struct job *j, const struct opt_def *o,
			  const char *val, char *why, size_t whylen)
{
	const char *p = val;
	char *end, *copy;
	double v;
	unsigned n = 0;

	(void)o;
	if (!strcmp(val, "default"))
		val = p = RATE_CURVE_DEFAULT;
	for (;;) {
		errno = 0;
		v = strtod(p, &end);
		if (end == p || errno || !(v > 0 && v <= 1000) ||
		    (*end && *end != ',') || ++n > RATE_CURVE_MAX ||
		    *p == ' ' || *p == '+') {
			snprintf(why, whylen, "'%s': expected default or up to "
				 "%d percents (above 0, at most 1000) separated "
				 "by ',', such as 10,50,90,100", val,
				 RATE_CURVE_MAX);
			return -EINVAL;
		}
		if (!*end)
			break;
		p = end + 1;
	}
	copy = strdup(val);
	if (!copy)
		return -ENOMEM;
	free(j->rate_curve);
	j->rate_curve = copy;
	return 0;
}

static int set_choice(int *dst, const struct opt_def *o, const char *val,
		      char *why, size_t whylen)
{
	const struct opt_choice *c;
	size_t n;

	for (c = o->choices; c->name; c++) {
		if (!strcasecmp(c->name, val)) {
			*dst = c->value;
			return 0;
		}
	}
	n = snprintf(why, whylen, "'%s' is not valid; expected one of:", val);
	for (c = o->choices; c->name && n < whylen; c++)
		n += snprintf(why + n, whylen - n, " %s", c->name);
	return -EINVAL;
}

/*
 * fio's two readings. bs: one size per direction, read,write,trim, where
 * with no comma ':' or '-' separates too (bs=4k-64k reads 4k, writes
 * 64k).
 * bsrange: a range per direction, split by commas only. A range inside a
 * comma list of bs is what fio misreads silently (bs=4k-8k,16k drops 8k):
 * refused.
 */
static int set_bs(struct job *j, const struct opt_def *o, const char *val,
		  char *why, size_t whylen)
{
	bool range = !strcmp(o->name, "bsrange");
	char parts[3][128];
	uint64_t lo[3], hi[3];
	int n, i, ret;

	n = value_split_rw(val, !range, parts, why, whylen);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		if (!range && value_is_range(parts[i])) {
			snprintf(why, whylen, "'%s' is a range: bs takes one "
				 "size per direction (bs=4k-64k means 4k "
				 "reads, 64k writes); expected bsrange=%s for "
				 "a range of sizes", parts[i], val);
			return -EINVAL;
		}
		ret = value_size_range(parts[i], (unsigned)j->kb_base, &lo[i],
				       &hi[i], why, whylen);
		if (ret)
			return ret;
	}
	/* A direction not given takes the last one given, as in fio
	 * (bs=8k,32k: 32k trims). */
	for (i = 0; i < DDIR_NR; i++) {
		j->bs_min[i] = lo[i < n ? i : n - 1];
		j->bs_max[i] = hi[i < n ? i : n - 1];
	}
	return 0;
}

/*
 * rate=, rate_iops=, rate_min=, rate_iops_min=: "read[,write[,trim]]".
 * One item applies to every direction; without a trim item, trims take the
 * write item (fio's meaning); an empty item leaves its direction unlimited
 * (0).
 */
static int set_rate(uint64_t *dst, const struct opt_def *o, unsigned kb,
		    const char *val, char *why, size_t whylen)
{
	uint64_t v[3] = { 0, 0, 0 };
	const char *p = val, *comma;
	char item[128];
	unsigned n = 0;
	size_t len;
	double d;
	int ret;

	for (;; n++) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (n == 3 || len >= sizeof(item)) {
			snprintf(why, whylen, "'%s': expected at most three "
				 "values, read,write,trim", val);
			return -EINVAL;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		if (!len || strspn(item, " \t") == len) {
			v[n] = 0;
		} else if (o->flags & OPT_F_COUNT) {
			ret = value_count(item, &d, why, whylen);
			if (ret)
				return ret;
			if (d != (double)(uint64_t)d || d >= 1e18) {
				snprintf(why, whylen, "'%s': expected a whole "
					 "number of I/Os per second", item);
				return -EINVAL;
			}
			v[n] = (uint64_t)d;
		} else {
			ret = value_size(item, kb, &v[n], why, whylen);
			if (ret)
				return ret;
		}
		if (!comma)
			break;
		p = comma + 1;
	}
	dst[DDIR_READ] = v[0];
	dst[DDIR_WRITE] = n ? v[1] : v[0];
	dst[DDIR_TRIM] = n == 2 ? v[2] : dst[DDIR_WRITE];
	return 0;
}

static int set_plist(struct job *j, const char *val, char *why,
		     size_t whylen)
{
	double v[JOB_MAX_PERCENTILES];
	char buf[64];
	const char *p = val, *end;
	unsigned n = 0;
	size_t len;
	int ret;

	for (;;) {
		end = strchr(p, ':');
		len = end ? (size_t)(end - p) : strlen(p);
		if (n == JOB_MAX_PERCENTILES) {
			snprintf(why, whylen, "at most %d percentiles",
				 JOB_MAX_PERCENTILES);
			return -EINVAL;
		}
		if (len == 0 || len >= sizeof(buf)) {
			snprintf(why, whylen, "'%s': expected percentiles "
				 "such as 50:99:99.9", val);
			return -EINVAL;
		}
		memcpy(buf, p, len);
		buf[len] = '\0';
		ret = value_double(buf, 0, 100, &v[n], why, whylen);
		if (ret)
			return ret;
		if (v[n] <= 0) {
			snprintf(why, whylen, "percentile '%s' must be above 0",
				 buf);
			return -EINVAL;
		}
		n++;
		if (!end)
			break;
		p = end + 1;
	}
	memcpy(j->percentile_list, v, n * sizeof(v[0]));
	j->npercentiles = n;
	return 0;
}

static int set_str(char **dst, const char *val)
{
	char *copy = strdup(val);

	if (!copy)
		return -ENOMEM;
	free(*dst);
	*dst = copy;
	return 0;
}

static void fmt_time(uint64_t ns, char *buf, size_t len);

/* OPT_TIME bounds, when the option has them (max set). */
static int time_in_range(const struct opt_def *o, uint64_t ns, char *why,
			 size_t whylen)
{
	char v[32], lo[32], hi[32];
	bool off = o->flags & OPT_F_ZERO_OFF;

	if ((ns >= o->min && ns <= o->max) || (off && !ns))
		return 0;
	fmt_time(ns, v, sizeof(v));
	fmt_time(o->min, lo, sizeof(lo));
	fmt_time(o->max, hi, sizeof(hi));
	snprintf(why, whylen, "%s is out of range; expected %s%s to %s",
		 v, off ? "0 (off) or a time from " : "", lo, hi);
	return -ERANGE;
}

/*
 * fio reads a size with a fraction and a unit, 1.5m, as the digits before
 * the point (1 byte): a silent misreading, refused with what to write.
 */
static int fio_fraction(const struct opt_def *o, const char *val, char *why,
			size_t whylen)
{
	const char *dot = strchr(val, '.');
	bool sizes = o->type == OPT_SIZE || o->type == OPT_BS ||
		     (o->type == OPT_SIZE_PCT && !strchr(val, '%')) ||
		     (o->type == OPT_RATE && !(o->flags & OPT_F_COUNT));

	if (!sizes || !dot || dot[1] < '0' || dot[1] > '9' ||
	    !strpbrk(dot, "kKmMgGtTpP"))
		return 0;
	snprintf(why, whylen, "'%s': fio reads a fraction with a unit as the "
		 "whole part alone (1.5m as 1 byte); expected a whole number "
		 "of a smaller unit, such as 1536k for 1.5m", val);
	return -EINVAL;
}

static int opt_parse(struct job *j, void *base, const struct opt_def *o,
		     const char *val, char *why, size_t whylen);

/*
 * fio reads a number option as the number (and unit) it begins with and
 * drops what follows without a word, unless the value begins with '('
 * (its arithmetic): size=4k*2 is 4k there, 512/25 is 512, 1+2 is 1. It
 * also splits the value at '-' (after ',' and ':') and keeps one part:
 * numjobs=3-1 runs 3 jobs, size=1m-4k is 4k. Either would mean another
 * number here: refused for fio's options. A value in parentheses is
 * iorig's arithmetic (fio 3.33 as Debian builds it refuses it), and so is
 * one fio hands to bc (plan.c's calc_value); iorig's own options keep
 * their arithmetic; a leading '-' is a sign, refused by the parsers where
 * it has no meaning.
 */
static int fio_arith(const struct opt_def *o, const char *val, char *why,
		     size_t whylen)
{
	const char *p = val, *op;
	bool num = o->type == OPT_UINT || o->type == OPT_SIZE ||
		   o->type == OPT_SIZE_PCT || o->type == OPT_TIME ||
		   o->type == OPT_PCT;

	if ((!num && o->type != OPT_BS && o->type != OPT_RATE) ||
	    (o->flags & OPT_F_OWN))
		return 0;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '(')
		return 0;
	if (num && *p && strchr(p + 1, '-')) {
		snprintf(why, whylen, "'%s': fio splits a value at '-' (its "
			 "read-write form) and keeps one part without a word: "
			 "it does no subtraction there; expected the number "
			 "itself", val);
		return -EINVAL;
	}
	if (!(op = strpbrk(p, "*/+")))
		return 0;
	snprintf(why, whylen, "'%s': fio reads the number before '%c' alone "
		 "(%.*s) and drops the rest without a word; expected the "
		 "result itself, or the expression in parentheses as fio "
		 "evaluates it", val, *op, (int)(op - p), p);
	return -EINVAL;
}

/*
 * fio reads the value of a size option as parts split at ',' and ':' (its
 * read,write,trim form; one trailing ',' is dropped) and an option of one
 * value keeps one part without a word: size=6400K:6400K is 6400K. Parts
 * that are all the same value are that value; different ones are a silent
 * misreading, refused. 1 when val has no such parts, else 0 or -errno.
 */
static int fio_parts(struct job *j, void *base, const struct opt_def *o,
		     const char *val, char *why, size_t whylen)
{
	char part[128], first[128];
	const char *p = val, *q;
	uint64_t v0 = 0;
	double a0 = 0;
	size_t n;
	int ret, k;

	if ((o->type != OPT_SIZE && o->type != OPT_SIZE_PCT) ||
	    !strpbrk(val, ",:"))
		return 1;
	for (k = 0; *p; k++) {
		q = p + strcspn(p, ",:");
		n = (size_t)(q - p);
		if (n >= sizeof(part))
			n = sizeof(part) - 1;
		memcpy(part, p, n);
		part[n] = '\0';
		if (!k)
			snprintf(first, sizeof(first), "%s", part);
		ret = opt_parse(j, base, o, part, why, whylen);
		if (ret)
			return ret;
		if (!k) {
			v0 = *(uint64_t *)field(base, o->off);
			a0 = o->aux ? *(double *)field(base, o->aux) : 0;
		} else if (v0 != *(uint64_t *)field(base, o->off) ||
			   (o->aux && a0 != *(double *)field(base, o->aux))) {
			snprintf(why, whylen, "'%s': fio reads one of these "
				 "values and drops the others without a word; "
				 "expected one value, such as %s", val, first);
			return -EINVAL;
		}
		if (!*q || (*q == ',' && !q[1]))
			break;
		p = q + 1;
	}
	return 0;
}

/* OPT_STR: the row's own check, then a copy. */
static int parse_str(void *dst, const struct opt_def *o, const char *val,
		     char *why, size_t whylen)
{
	int ret;

	if (o->valid && (ret = o->valid(o, val, why, whylen)))
		return ret;
	if (!*val && !(o->flags & OPT_F_BARE) && !o->valid) {
		snprintf(why, whylen, "expected a non-empty value");
		return -EINVAL;
	}
	return set_str(dst, val);
}

/* OPT_BOOL: a bool, inverted for an OPT_F_INVERT row; OPT_F_AUTO: a
 * signed char, -1 for "auto". */
static int parse_bool(void *dst, const struct opt_def *o, const char *val,
		      char *why, size_t whylen)
{
	bool b;
	int ret;

	if ((o->flags & OPT_F_AUTO) && !strcasecmp(val, "auto")) {
		*(signed char *)dst = -1;
		return 0;
	}
	ret = value_bool(val, &b, why, whylen);
	if (ret)
		return ret;
	if (o->flags & OPT_F_AUTO)
		*(signed char *)dst = b;
	else
		*(bool *)dst = (o->flags & OPT_F_INVERT) ? !b : b;
	return 0;
}

/* OPT_SIZE_PCT: bytes, or a percent into the row's aux field (the other
 * one zeroed); size= must be above 0%. */
static int parse_size_pct(void *base, const struct opt_def *o, bool own,
			  unsigned kb, const char *val, char *why,
			  size_t whylen)
{
	uint64_t *dst = field(base, o->off), u;
	double d;
	int ret;

	if (strchr(val, '%')) {
		ret = value_pct(val, &d, why, whylen);
		if (!ret && d <= 0 && own && o->off == F(size)) {
			snprintf(why, whylen, "size must be above 0%%");
			ret = -EINVAL;
		}
		if (!ret) {
			*(double *)field(base, o->aux) = d;
			*dst = 0;
		}
		return ret;
	}
	ret = value_size(val, kb, &u, why, whylen);
	if (!ret) {
		*dst = u;
		*(double *)field(base, o->aux) = 0;
	}
	return ret;
}

/*
 * Parse val for option o into base (j itself for the job table's rows, an
 * engine's options struct for its rows; sizes read with j's kb_base); why
 * says what was expected.
 */
static int opt_parse(struct job *j, void *base, const struct opt_def *o,
		     const char *val, char *why, size_t whylen)
{
	void *dst = field(base, o->off);
	bool own = base == j;	/* the job table's: its fields by offset */
	unsigned kb = (unsigned)j->kb_base;
	uint64_t u;
	double d;
	int ret = fio_parts(j, base, o, val, why, whylen);

	if (ret <= 0)
		return ret;
	ret = fio_arith(o, val, why, whylen);
	if (!ret)
		ret = fio_fraction(o, val, why, whylen);
	if (ret)
		return ret;
	switch (o->type) {
	case OPT_STR:
		return parse_str(dst, o, val, why, whylen);
	case OPT_BOOL:
		return parse_bool(dst, o, val, why, whylen);
	case OPT_UINT:
		if ((o->flags & OPT_F_NONE) && !strcasecmp(val, "none")) {
			*(uint64_t *)dst = UINT64_MAX;
			return 0;
		}
		ret = value_uint(val, o->min, o->max, &u, why, whylen);
		if (!ret)
			*(uint64_t *)dst = u;
		return ret;
	case OPT_SIZE:
		ret = value_size(val, kb, &u, why, whylen);
		if (!ret)
			*(uint64_t *)dst = u;
		return ret;
	case OPT_SIZE_PCT:
		return parse_size_pct(base, o, own, kb, val, why, whylen);
	case OPT_TIME:
		ret = value_time(val, o->unit_ns, &u, why, whylen);
		if (!ret && o->max)
			ret = time_in_range(o, u, why, whylen);
		if (!ret)
			*(uint64_t *)dst = u;
		return ret;
	case OPT_PCT:
		ret = value_pct(val, &d, why, whylen);
		if (!ret)
			*(double *)dst = (o->flags & OPT_F_INVERT) ? 100 - d : d;
		return ret;
	case OPT_ENUM:
		if (own && o->off == F(rw))
			return set_rw(j, o, val, why, whylen);
		if (own && o->off == F(verify))
			j->verify_set = true;
		return set_choice(dst, o, val, why, whylen);
	case OPT_BS:
		return set_bs(j, o, val, why, whylen);
	case OPT_PLIST:
		return set_plist(j, val, why, whylen);
	case OPT_RATE:
		return set_rate(dst, o, kb, val, why, whylen);
	case OPT_SPECIAL:
		return o->set(j, o, val, why, whylen);
	}
	return -EINVAL;
}

int options_set(struct job *j, const char *name, const char *value,
		const char *file, int line, struct err_rec *e)
{
	const struct opt_def *o = options_find(name);
	const struct profile *prof;
	const char *hint;
	char why[512];
	int ret;

	if (!o && (prof = profile_owning(name, strlen(name)))) {
		/* fio knows it from a profile: read, no effect on the job */
		why[0] = '\0';
		if (!profile_check_form(prof, profile_opt_index(prof, name,
				strlen(name)), value, why, sizeof(why)))
			return 0;
		err_set(e, file, line, name, "%s (an option of fio's %s "
			"profile, read by fio in a job too, where it does "
			"nothing)", why, prof->name);
		return -EINVAL;
	}
	if (!o) {
		hint = options_fio_only_msg(name);
		if (hint) {
			err_set(e, file, line, name, "%s", hint);
			return -EINVAL;
		}
		hint = options_suggest(name);
		if (hint)
			err_set(e, file, line, name, "unknown option; did "
				"you mean '%s'?", hint);
		else
			err_set(e, file, line, name, "unknown option; see "
				"iorig --cmdhelp for the list");
		return -EINVAL;
	}
	if (!value && (o->flags & OPT_F_BARE))
		value = "";
	if (!value) {
		if (o->type != OPT_BOOL) {
			err_set(e, file, line, o->name, "needs a value "
				"(%s=...)", o->name);
			return -EINVAL;
		}
		value = "1";
	}
	why[0] = '\0';
	ret = job_row(o) ? opt_parse(j, j, o, value, why, sizeof(why)) :
	      engopts_set(j, o, value, why, sizeof(why));
	if (ret == -ENOMEM) {
		err_set(e, file, line, o->name, "out of memory");
		return ret;
	}
	if (ret) {
		err_set(e, file, line, o->name, "%s", why[0] ? why :
			"invalid value");
		return -EINVAL;
	}
	return 0;
}

int options_defaults(struct job *j)
{
	const struct opt_def *o;
	struct err_rec e;
	int ret;

	memset(j, 0, sizeof(*j));
	j->kb_base = 1024;
	for (o = options_table; o->name; o++) {
		if (!o->def || (o->flags & OPT_F_INVERT))
			continue;
		ret = options_set(j, o->name, o->def, "<defaults>", 0, &e);
		if (ret)
			return ret;
	}
	j->verify_set = false;	/* a default is not given */
	return 0;
}

static void fmt_time(uint64_t ns, char *buf, size_t len)
{
	static const struct { uint64_t div; const char *unit; } u[] = {
		{ 86400 * NS_S, "d" }, { 3600 * NS_S, "h" },
		{ 60 * NS_S, "m" }, { NS_S, "s" }, { 1000000, "ms" },
		{ 1000, "us" }, { 1, "ns" },
	};
	size_t i;

	if (!ns) {
		snprintf(buf, len, "0");
		return;
	}
	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (ns % u[i].div == 0)
			break;
	snprintf(buf, len, "%" PRIu64 "%s", ns / u[i].div, u[i].unit);
}

static void fmt_choice(const struct opt_def *o, int v, char *buf,
		       size_t len)
{
	const struct opt_choice *c;

	for (c = o->choices; c->name; c++) {
		if (c->value == v) {
			snprintf(buf, len, "%s", c->name);
			return;
		}
	}
	snprintf(buf, len, "%d", v);
}

static size_t fmt_range(uint64_t lo, uint64_t hi, char *buf, size_t len)
{
	if (lo == hi)
		return snprintf(buf, len, "%" PRIu64, lo);
	return snprintf(buf, len, "%" PRIu64 "-%" PRIu64, lo, hi);
}

/* o's value in base (see opt_parse) as text. */
static void opt_format(const struct job *j, const void *base,
		       const struct opt_def *o, char *buf, size_t len)
{
	const void *src = cfield(base, o->off);
	bool own = base == j;
	size_t n;
	unsigned i, last;

	buf[0] = '\0';
	switch (o->type) {
	case OPT_STR:
	case OPT_SPECIAL:
		snprintf(buf, len, "%s", *(char *const *)src ?
			 *(char *const *)src : "");
		break;
	case OPT_BOOL:
		if (o->flags & OPT_F_AUTO) {
			if (*(const signed char *)src < 0)
				snprintf(buf, len, "auto");
			else
				snprintf(buf, len, "%d",
					 *(const signed char *)src);
			break;
		}
		snprintf(buf, len, "%d", (o->flags & OPT_F_INVERT) ?
			 !*(const bool *)src : *(const bool *)src);
		break;
	case OPT_UINT:
	case OPT_SIZE:
		if ((o->flags & OPT_F_NONE) &&
		    *(const uint64_t *)src == UINT64_MAX)
			snprintf(buf, len, "none");
		else
			snprintf(buf, len, "%" PRIu64, *(const uint64_t *)src);
		break;
	case OPT_SIZE_PCT:
		if (*(const double *)cfield(base, o->aux) > 0)
			snprintf(buf, len, "%g%%",
				 *(const double *)cfield(base, o->aux));
		else if (*(const uint64_t *)src || o->def)
			snprintf(buf, len, "%" PRIu64,
				 *(const uint64_t *)src);
		break;
	case OPT_TIME:
		fmt_time(*(const uint64_t *)src, buf, len);
		break;
	case OPT_PCT:
		snprintf(buf, len, "%g", (o->flags & OPT_F_INVERT) ?
			 100 - *(const double *)src : *(const double *)src);
		break;
	case OPT_ENUM:
		fmt_choice(o, *(const int *)src, buf, len);
		n = strlen(buf);
		if (own && o->off == F(rw) && j->rw_seq_nr)
			snprintf(buf + n, len - n, ":%" PRIu64, j->rw_seq_nr);
		else if (own && o->off == F(rw) && j->rw_seq_add)
			snprintf(buf + n, len - n, ":%" PRId64, j->rw_seq_add);
		break;
	case OPT_BS:
		/* bs has no range form (fio's meaning): bsrange shows it. */
		if (strcmp(o->name, "bsrange") &&
		    (j->bs_min[0] != j->bs_max[0] ||
		     j->bs_min[1] != j->bs_max[1] ||
		     j->bs_min[2] != j->bs_max[2])) {
			buf[0] = '\0';
			break;
		}
		n = fmt_range(j->bs_min[0], j->bs_max[0], buf, len);
		/* As many items as differ from the last: "4k", "4k,64k",
		 * "4k,64k,8k". */
		for (last = DDIR_NR - 1; last > 0; last--)
			if (j->bs_min[last] != j->bs_min[last - 1] ||
			    j->bs_max[last] != j->bs_max[last - 1])
				break;
		for (i = 1; i <= last && n + 1 < len; i++) {
			buf[n++] = ',';
			n += fmt_range(j->bs_min[i], j->bs_max[i], buf + n,
				       len - n);
		}
		break;
	case OPT_RATE: {
		const uint64_t *v = src;

		if (v[DDIR_TRIM] != v[DDIR_WRITE])
			snprintf(buf, len, "%" PRIu64 ",%" PRIu64 ",%" PRIu64,
				 v[0], v[1], v[2]);
		else if (v[0] == v[1])
			snprintf(buf, len, "%" PRIu64, v[0]);
		else
			snprintf(buf, len, "%" PRIu64 ",%" PRIu64, v[0], v[1]);
		break;
	}
	case OPT_PLIST:
		for (i = 0, n = 0; i < j->npercentiles && n < len; i++)
			n += snprintf(buf + n, len - n, "%s%g", i ? ":" : "",
				      j->percentile_list[i]);
		break;
	}
}

int options_parse_row(struct job *j, void *base, const struct opt_def *o,
		      const char *val, char *why, size_t whylen)
{
	return opt_parse(j, base, o, val, why, whylen);
}

void options_format_row(const struct job *j, const void *base,
			const struct opt_def *o, char *buf, size_t len)
{
	opt_format(j, base, o, buf, len);
}

void options_format(const struct job *j, const struct opt_def *o,
		    char *buf, size_t len)
{
	if (job_row(o))
		opt_format(j, j, o, buf, len);
	else if (j->engine && j->eopts &&
		 options_find_in(j->engine->options, o->name) == o)
		opt_format(j, j->eopts, o, buf, len);
	else
		buf[0] = '\0';
}

const struct opt_def *options_next(const struct job *j,
				   const struct opt_def *o)
{
	const struct opt_def *eng = j->engine ? j->engine->options : NULL;

	if (!o)
		return options_table;
	if (!job_row(o)) {
		if ((++o)->name)
			return o;
		/* back to the job table, after the engine's place */
		for (o = options_table; !(o->flags & OPT_F_ENGINE_NEXT); o++)
			;
	} else if ((o->flags & OPT_F_ENGINE_NEXT) && eng && eng->name) {
		return eng;
	}
	return (++o)->name ? o : NULL;
}

int job_copy(struct job *dst, const struct job *src)
{
	const struct opt_def *o;
	char **s;

	*dst = *src;
	dst->section_file = NULL;
	dst->section_name = NULL;
	dst->sweep_point = NULL;
	dst->check_src = NULL;
	for (o = options_table; o->name; o++)
		if (o->type == OPT_STR || o->type == OPT_SPECIAL)
			*(char **)field(dst, o->off) = NULL;
	/* Every string of dst is now NULL or its own: job_free is safe. */
	if (engopts_copy(dst, src))
		goto err;
	for (o = options_table; o->name; o++) {
		if (o->type != OPT_STR && o->type != OPT_SPECIAL)
			continue;
		s = field(dst, o->off);
		/* Two options may share a field (cpumask, cpus_allowed) */
		if (*s)
			continue;
		if (*(char *const *)cfield(src, o->off) &&
		    !(*s = strdup(*(char *const *)cfield(src, o->off))))
			goto err;
	}
	if (src->section_file &&
	    !(dst->section_file = strdup(src->section_file)))
		goto err;
	if (src->section_name &&
	    !(dst->section_name = strdup(src->section_name)))
		goto err;
	if (src->sweep_point &&
	    !(dst->sweep_point = strdup(src->sweep_point)))
		goto err;
	if (src->check_src && !(dst->check_src = strdup(src->check_src)))
		goto err;
	return 0;
err:
	job_free(dst);
	return -ENOMEM;
}

void job_free(struct job *j)
{
	const struct opt_def *o;
	char **s;

	for (o = options_table; o->name; o++) {
		if (o->type != OPT_STR && o->type != OPT_SPECIAL)
			continue;
		s = field(j, o->off);
		free(*s);
		*s = NULL;
	}
	free(j->section_file);
	j->section_file = NULL;
	free(j->section_name);
	j->section_name = NULL;
	free(j->sweep_point);
	j->sweep_point = NULL;
	free(j->check_src);
	j->check_src = NULL;
	engopts_release(j);
}

static const char *type_name(const struct opt_def *o)
{
	static const char *const names[] = {
		[OPT_STR] = "text", [OPT_BOOL] = "bool", [OPT_UINT] = "int",
		[OPT_SIZE] = "size", [OPT_SIZE_PCT] = "size|pct",
		[OPT_TIME] = "time", [OPT_PCT] = "pct", [OPT_ENUM] = "choice",
		[OPT_BS] = "size[-size][,...]", [OPT_PLIST] = "list",
		[OPT_RATE] = "int[,int][,int]",
		[OPT_SPECIAL] = "text",
	};

	if (o->choices)
		return "choice";
	if (o->flags & OPT_F_AUTO)
		return "bool|auto";
	return names[o->type];
}

/* A row of engine e's table, when no engine before e has that name. */
static bool first_of_name(const struct engine_ops *const *e,
			  const struct opt_def *o)
{
	const struct engine_ops *const *f;

	for (f = engine_list(); f != e; f++)
		if (options_find_in((*f)->options, o->name))
			return false;
	return true;
}

void options_print_help(FILE *f)
{
	const struct engine_ops *const *e;
	const struct opt_def *o;

	fprintf(f, "\nJob options (in job files as name=value, on the "
		"command line as --name=value):\n");
	for (o = options_table; o->name; o++)
		fprintf(f, "  --%-26s %s\n", o->name, o->help);
	fprintf(f, "\nEngine options (of the engine that ioengine= names; "
		"--enghelp=ENGINE):\n");
	for (e = engine_list(); *e; e++)
		for (o = (*e)->options; o && o->name; o++)
			if (first_of_name(e, o))
				fprintf(f, "  --%-26s %s\n", o->name, o->help);
}

void options_print_row(FILE *f, const struct opt_def *o)
{
	const struct opt_choice *c;
	char lo[32], hi[32];

	fprintf(f, "%s\n", o->name);
	if (o->alias)
		fprintf(f, "  alias:    %s\n", o->alias);
	fprintf(f, "  type:     %s\n", type_name(o));
	fprintf(f, "  default:  %s\n", o->def ? o->def : "(none)");
	if (o->type == OPT_UINT)
		fprintf(f, "  range:    %" PRIu64 " to %" PRIu64 "\n", o->min,
			o->max);
	if (o->type == OPT_TIME)
		fprintf(f, "  unit:     %s when none is given\n",
			o->unit_ns == NS_S ? "s" : o->unit_ns == 1000 ? "us" :
			"ns");
	if (o->type == OPT_TIME && o->max) {
		fmt_time(o->min, lo, sizeof(lo));
		fmt_time(o->max, hi, sizeof(hi));
		fprintf(f, "  range:    %s%s to %s\n",
			(o->flags & OPT_F_ZERO_OFF) ? "0 (off), or " : "",
			lo, hi);
	}
	fprintf(f, "  category: %s\n", o->category);
	fprintf(f, "  %s\n", o->help);
	if (o->choices) {
		fprintf(f, "  values:\n");
		for (c = o->choices; c->name; c++)
			fprintf(f, "    %-12s %s\n", c->name, c->help);
	}
	if (o->set == set_ioengine)
		engine_print_help(f);
}

int options_print_cmdhelp(FILE *f, const char *name)
{
	const struct engine_ops *const *e;
	const struct opt_def *o;

	if (!name) {
		/* the job table, then each engine's options (a name engines
		 * share once) */
		for (o = options_table; o->name; o++)
			fprintf(f, "%-28s %s\n", o->name, o->help);
		for (e = engine_list(); *e; e++)
			for (o = (*e)->options; o && o->name; o++)
				if (first_of_name(e, o))
					fprintf(f, "%-28s %s\n", o->name,
						o->help);
		return 0;
	}
	o = options_find(name);
	if (!o)
		return -ENOENT;
	options_print_row(f, o);
	return 0;
}

void options_print_job(FILE *f, const struct job *j)
{
	const struct opt_def *o;
	char buf[1024];

	for (o = options_next(j, NULL); o; o = options_next(j, o)) {
		options_format(j, o, buf, sizeof(buf));
		fprintf(f, "  %s=%s\n", o->name, buf);
	}
}
