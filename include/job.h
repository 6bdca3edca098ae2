/* SPDX-License-Identifier: MIT */
#ifndef IORIG_JOB_H
#define IORIG_JOB_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "ddir.h"
#include "errlist.h"
#include "steady.h"

enum rw_mode {
	RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE, RW_RW, RW_RANDRW,
	/* Trims (issue 12): a trim discards its blocks (BLKDISCARD on a
	 * device, a punched hole in a file); trimwrite trims a block, then
	 * writes it. */
	RW_TRIM, RW_RANDTRIM, RW_TRIMWRITE, RW_RANDTRIMWRITE,
};

/* The directions rw= does I/O in, as bits 1 << DDIR_* (rwmixread aside). */
static inline unsigned rw_dirs(int rw)
{
	static const unsigned char dirs[] = {
		[RW_READ] = 1, [RW_RANDREAD] = 1,
		[RW_WRITE] = 2, [RW_RANDWRITE] = 2,
		[RW_RW] = 3, [RW_RANDRW] = 3,
		[RW_TRIM] = 4, [RW_RANDTRIM] = 4,
		[RW_TRIMWRITE] = 6, [RW_RANDTRIMWRITE] = 6,
	};

	return dirs[rw];
}

static inline bool rw_random(int rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW ||
	       rw == RW_RANDTRIM || rw == RW_RANDTRIMWRITE;
}

/* Only reads: nothing on the target changes. */
static inline bool rw_reads_only(int rw)
{
	return rw == RW_READ || rw == RW_RANDREAD;
}

/* Writes or trims: the target's data changes (every guard applies). */
static inline bool rw_changes_data(int rw)
{
	return !rw_reads_only(rw);
}

/* Writes and nothing else. */
static inline bool rw_writes_only(int rw)
{
	return rw == RW_WRITE || rw == RW_RANDWRITE;
}

static inline bool rw_mixed(int rw)
{
	return rw == RW_RW || rw == RW_RANDRW;
}

enum fadvise_hint {
	FADV_NONE,		/* fadvise_hint=0 */
	FADV_AUTO,		/* 1: sequential or random by workload */
	FADV_SEQUENTIAL, FADV_RANDOM, FADV_NOREUSE, FADV_DONTNEED,
	FADV_WILLNEED,
};

enum sync_mode { SYNC_NONE, SYNC_SYNC, SYNC_DSYNC };

/* thinktime_blocks_type: what thinktime_blocks counts. */
enum think_type { THINK_COMPLETE, THINK_ISSUE };
enum rate_process { RATE_LINEAR, RATE_POISSON };
enum submit_mode { SUBMIT_INLINE, SUBMIT_OFFLOAD };
/* fallocate=: how a job that only writes makes room (src/target/target.c). */
enum falloc_mode { FALLOC_NONE, FALLOC_NATIVE, FALLOC_POSIX, FALLOC_KEEP,
		   FALLOC_TRUNCATE };
/* dedupe_mode: which earlier write a repeated one copies (fill.h). */
enum dedupe_mode { DEDUPE_REPEAT, DEDUPE_WORKING_SET };
enum rand_gen { RANDGEN_TAUSWORTHE, RANDGEN_LFSR, RANDGEN_TAUSWORTHE64 };
enum rw_seq { RWSEQ_SEQUENTIAL, RWSEQ_IDENTICAL };
/* Run control and reporting (runctl family). */
enum cpus_policy { CPUS_SHARED, CPUS_SPLIT };
enum clock_source { CLKSRC_GETTIMEOFDAY, CLKSRC_CLOCK_GETTIME, CLKSRC_CPU };
enum unified_rw { UNIFIED_NONE, UNIFIED_MIXED, UNIFIED_BOTH };
/* zonemode=: ZONE_UNSET when not given. */
enum zone_mode { ZONE_UNSET, ZONE_NONE, ZONE_STRIDED, ZONE_ZBD };
/* The options that take a count of zones (job.io.zones_nz's index). */
enum zone_count { ZN_SIZE, ZN_OFFSET, ZN_IO_SIZE, ZN_ZONESKIP, ZN_OFFINC,
		  ZN_COUNTS };

/*
 * continue_on_error: the failures a job counts and goes on after, as bits.
 * A read or write error is the -errno result of one I/O (res < 0), keyed by
 * its direction (1 << DDIR_*; a trim's error is a write error, as in
 * fio). Engine failures, fsync failures and
 * setup errors always end the job.
 */
enum coe_mask {
	COE_NONE = 0,
	COE_READ = 1 << DDIR_READ,
	COE_WRITE = 1 << DDIR_WRITE,
	COE_IO = COE_READ | COE_WRITE,
	COE_VERIFY = 1 << 2,	/* verification mismatches */
	COE_ALL = COE_IO | COE_VERIFY,
};

#define JOB_MAX_PERCENTILES	32
#define JOB_NAME_MAX		128
#define RATE_CURVE_MAX		32
#define RATE_CURVE_DEFAULT	"10,50,70,80,90,100"

/*
 * One job as the option table fills it. Every field that an option sets is
 * named after the option. Strings are owned by the job (strdup'd) and freed
 * by job_free(). The option table (options.c) is the only writer of option
 * fields; plan.c fills the derived fields at the bottom.
 */
/* exit_what=: what exitall stops. The wait group runs alone, so fio's
 * group and stonewall both stop it; all stops the later groups too. */
enum exit_what { EXIT_WHAT_GROUP, EXIT_WHAT_STONEWALL, EXIT_WHAT_ALL };

struct act_tally;

/*
 * Bytes an option's setter made of its text (buffer_pattern=,
 * verify_pattern=: a 'FILE' in them is read then), shared read-only by a
 * job and its copies: job_copy takes a reference, job_free drops one.
 */
struct job_bytes {
	_Atomic unsigned refs;
	size_t len;			/* > 0 */
	uint8_t data[];
};
struct bssplit_spec;
struct dist_spec;

/* An engine option as given: its row's name and the value read. */
struct engine_arg {
	char *name;
	char *value;
};

struct job {
	/* Grouped by the option table's categories (.category of each row of
	 * the option table, src/plan/optable.c): a field an option sets goes
	 * in its category's sub-struct, a field the plan or the run sets in
	 * plan. */

	/* The job's name and description (category description). */
	struct job_desc {
		char *name;
		char *description;
		char *profile;		/* accepted: fio 3.33 ignores it too */
	} desc;

	/* Where the job does its I/O: files, devices, the region and the files'
	 * layout (category target). */
	struct job_target {
		char *filename;	/* ':'-separated list, NULL: generated */
		char *directory;
		uint64_t size;	/* bytes; 0: take from target */
		double size_pct;	/* size given as a percentage, else 0 */
		uint64_t offset;
		double offset_pct;
		uint64_t io_size;	/* 0: same as size */
		uint64_t nrfiles;
		bool unlink;
		/* issue 12, file metadata: delete (only) the files this run
		 * created between loops; each loop makes them again */
		bool unlink_each_loop;
		bool allow_destructive;	/* write over data found on a device */
		bool layout;	/* fill a read job's holes first */
		/* File layout (issue 12, layout family; src/target/target.c,
		 * src/gen/gen.c). */
		char *filesize;		/* as given; parsed below */
		uint64_t filesize_min, filesize_max;	/* 0: size= decides */
		int fallocate;		/* enum falloc_mode */
		bool overwrite;		/* lay out with data before writing */
		char *filename_format;	/* $jobname $jobnum $filenum ... */
		bool create_serialize;
		bool create_on_open;
		bool create_only;	/* lay out, then no I/O */
		bool allow_file_create;
		/* file_service_type (layout family 2; src/gen/gen.c): as given,
		 * and parsed: enum gen_fst, I/Os per turn, law parameter and
		 * center. */
		char *file_service_type;
		int file_service;
		uint64_t file_service_nr;
		double file_service_param, file_service_center;
		uint64_t openfiles;	/* files in service at once; 0: all */
		/* Placement and file handling (issue 12, opt-a family;
		 * target.c). */
		/* clone c starts c * this further */
		uint64_t offset_increment;
		/* or a percentage of the target */
		double offset_increment_pct;
		uint64_t offset_align;	/* percent offsets' unit; 0: min bs */
		bool file_append;	/* region starts at the file's end */
		bool create_fsync;	/* fsync a file after laying it out */
		bool fill_device;	/* write until ENOSPC (fill_fs) */
		bool unique_filename;	/* accepted: no client mode */
		char *opendir;		/* files below it join filename */
		char *lockfile;		/* "none" only (optvalue_lockfile) */
		/* enum filetype: checked, no stat saved */
		int filetype;
	} target;

	/* What I/O the job does: rw=, block sizes, mixes, zones (category
	 * workload). */
	struct job_io {
		int rw;		/* enum rw_mode */
		/* percent of I/Os that read, mixed modes */
		double rwmixread;
		uint64_t bs_min[DDIR_NR];
		uint64_t bs_max[DDIR_NR];
		char *bssplit;		/* as given (--parse-only prints it) */
		/* bssplit parsed once by its setter (optvalue.c); NULL: not
		 * set. Owned by the job: job_copy copies it, job_free frees
		 * it. */
		struct bssplit_spec *bss;
		int64_t rw_seq_add;	/* rw=read:N: gap after each I/O */
		uint64_t rw_seq_nr;	/* rw=randread:N: random every N */
		/* Zones (issue 12, zones family; gen.c): zonemode=strided. */
		char *zonemode;		/* as given; NULL: not set */
		int zone_mode;		/* enum zone_mode, from zonemode */
		uint64_t zonesize;	/* bytes per zone; 0: no zones */
		uint64_t zonerange;	/* a zone's extent; 0: zonesize */
		uint64_t zoneskip;	/* gap after a zone */
		/* Sizes given in zones ("4z", fio's unit): counts, by enum
		 * zone_count; 0: not so given. plan.c turns them into bytes
		 * once it knows the zone size (zonesize=, or the zoned
		 * device's). */
		uint32_t zones_nz[ZN_COUNTS];
		/* zonemode=zbd (zbd.h; src/worker/zoned.c) */
		uint64_t zonecapacity;	/* emulated zones' capacity; 0: size */
		/* 0: the device's limit, or none */
		uint64_t max_open_zones;
		uint64_t job_max_open_zones;	/* this job's own; 0: none */
		/* not the device's max_open_zones */
		bool ignore_zone_limits;
		bool read_beyond_wp;	/* reads anywhere in a zone */
		char *zone_reset_threshold;	/* as given; its value in zrt */
		char *zone_reset_frequency;	/* as given; its value in zrf */
		double zrt, zrf;	/* fractions 0..1 */
		bool bs_is_seq_rand;	/* bs=A,B: sequential, random */
		bool bs_unaligned;	/* accepted: sizes need no 512 unit */
	} io;

	/* How the I/O is issued: the engine, its options and queue depths, the
	 * I/O buffers' memory (category engine). */
	struct job_eng {
		char *ioengine;
		/* The options of the job's engine (engine_ops.options): its own
		 * struct, which the option table fills from its defaults and
		 * the values given; NULL for an engine without options. */
		void *eopts;
		/* Every engine option given, in order (its row's name, its
		 * value): read again into eopts when ioengine= changes (a
		 * sweep), and read for the engines the job does not use (their
		 * checks, the warning that they apply to another engine). */
		struct engine_arg *eng_args;
		unsigned neng_args;
		uint64_t iodepth;
		uint64_t numjobs;
		bool thread;
		/* Queued engines (libaio, io_uring, pthread). */
		/* 0: everything ready at once */
		uint64_t iodepth_batch_submit;
		/* reap waits for this many */
		uint64_t iodepth_batch_complete_min;
		uint64_t iodepth_batch_complete_max;	/* 0: iodepth */
		uint64_t iodepth_low;	/* refill at this depth; 0: iodepth */
		char *mem;		/* TYPE[:FILE]; NULL: malloc */
		int mem_kind;		/* its enum mem_type and FILE (NULL:
					 * none), set by the setter; the */
		char *mem_file;		/* job owns mem_file (job_copy) */
		uint64_t mem_align;	/* 0: the target's alignment only */
		uint64_t hugepage_size;	/* shmhuge, mmaphuge: rounding */
		uint64_t lockmem;	/* bytes mlock()ed per clone; 0 */
		char *ioscheduler;	/* NULL: the disks' own (iosched.h) */
		/* ioengine='s; set with it */
		const struct engine_ops *engine;
		/* ENGINE_CHANGES_FILES (falloc) */
		bool engine_changes_files;
		bool engine_deletes;	/* ENGINE_DELETES (filedelete) */
		bool engine_nvme_chr;	/* ENGINE_NVME_CHAR (io_uring_cmd) */
		bool engine_scsi;	/* ENGINE_SCSI (sg) */
		/* Set by the engine's plan (cpuio's exit_on_io_done): the job
		 * ends when every job of its wait group that does I/O has
		 * ended. */
		bool exit_on_io_done;
	} eng;

	/* How long the job runs and when it pauses (category time). */
	struct job_time {
		uint64_t runtime_ns;	/* 0: no limit */
		bool time_based;
		uint64_t ramp_time_ns;
		uint64_t startdelay_ns;
		uint64_t loops;
		uint64_t number_ios;	/* 0: no limit */
		uint64_t thinktime_ns;	/* stall between I/Os; 0: off */
		uint64_t thinktime_spin_ns;	/* of it, busy on the CPU */
		/* I/Os between stalls; 0 acts as 1 */
		uint64_t thinktime_blocks;
		int thinktime_blocks_type;	/* enum think_type */
		/* also after this much I/O time */
		uint64_t thinktime_iotime_ns;
		uint64_t thinkcycles;	/* spin-waits after each read/write */
		int clocksource;	/* enum clock_source (accepted) */
	} time;

	/* Rates, flow control and rate_curve= (category rate). */
	struct job_pace {
		char *flow_watermark;
		/* issue 12, flow control (flow.h): weight 0: off */
		uint64_t flow, flow_id, flow_sleep_ns;
		/* Rate (src/worker/pace.c): per direction, 0: no limit. */
		uint64_t rate[DDIR_NR];	/* bytes/s */
		uint64_t rate_iops[DDIR_NR];	/* I/Os per second */
		/* bytes/s over rate_cycle, or fail */
		uint64_t rate_min[DDIR_NR];
		uint64_t rate_iops_min[DDIR_NR];
		int rate_process;	/* enum rate_process */
		uint64_t rate_cycle_ns;
		/* thinking drops what fell due */
		bool rate_ignore_thinktime;
		int io_submit_mode;	/* enum submit_mode (always inline) */
		/* rate_curve= (src/result/curve.c): percents of the probe's
		 * IOPS, as "10,50,90" (NULL: no curve); how long the probe runs
		 * (0: as runtime). */
		char *rate_curve;
		uint64_t rate_curve_probe_ns;
	} pace;

	/* Caching and syncing: O_DIRECT, fsync, fadvise, write hints (category
	 * cache). */
	struct job_cache {
		bool direct;
		int sync;	/* enum sync_mode */
		uint64_t fsync;	/* fsync every N writes; 0 never */
		uint64_t fdatasync;
		bool end_fsync;
		bool fsync_on_close;	/* fsync each file before closing it */
		bool invalidate;
		int fadvise_hint;	/* enum fadvise_hint */
		/* syncfs(2) the targets' file systems */
		bool end_syncfs;
		bool pre_read;		/* read the region before the job */
		char *write_hint;	/* none..extreme; NULL: not set */
		/* its RWH_WRITE_LIFE_* (1..5), set once by the setter; 0: not
		 * set */
		uint64_t write_hint_rwh;
		char *sync_file_range;	/* FLAGS[:N]; NULL: never */
		unsigned sfr_flags;	/* its SYNC_FILE_RANGE_* flags and */
		uint64_t sfr_nr;	/* N (procattr_sfr_parse, once) */
		uint64_t write_barrier;	/* accepted: no engine here has one */
	} cache;

	/* Random offsets: seeds, maps, distributions (category random). */
	struct job_rnd {
		bool randrepeat;
		uint64_t randseed;
		bool norandommap;
		/* Random patterns (dist.h, gen.c; issue 12). */
		char *random_distribution;	/* as given (--parse-only) */
		/* random_distribution parsed once (optvalue.c); NULL: not set
		 * or random (uniform). Owned by the job, as io.bss. */
		struct dist_spec *dist;
		int random_generator;	/* enum rand_gen */
		/* percent random I/Os */
		uint64_t percentage_random[DDIR_NR];
		/* random offsets' unit; 0: bs */
		uint64_t blockalign[DDIR_NR];
		bool allrandrepeat;	/* also repeat the bytes written */
		int rw_sequencer;	/* enum rw_seq */
		bool softrandommap;	/* accepted: the map never fails */
	} rnd;

	/* Verification and the trims checked with it (category verify). */
	struct job_vfy {
		/* fio 3.33's soft-deprecated options, accepted with a warning
		 * and no effect (fio ignores them too); NULL: not given */
		char *verifysort, *verifysort_nr;
		/* fio's way to the same checks */
		bool experimental_verify;
		/* Verification (verify.h). */
		int verify;		/* enum verify_kind */
		char *verify_pattern;	/* as given (--parse-only) */
		/* its bytes (at most VERIFY_PATTERN_MAX); NULL: none */
		struct job_bytes *verify_pat;
		bool verify_set;	/* verify= given (fio: verify_pattern
					 * alone sets verify=pattern) */
		bool do_verify;		/* check the region after writing */
		bool verify_only;	/* write nothing: check */
		bool verify_fatal;	/* stop at the first mismatch */
		/* check every N writes; 0 never */
		uint64_t verify_backlog;
		/* Verification, the rest of issue 12 (worker/vphase.c,
		 * plan.c) */
		/* blocks checked each time; 0: N */
		uint64_t verify_backlog_batch;
		uint64_t verify_async;	/* fio's verify threads: inline here */
		/* their CPUs (checked, reported) */
		char *verify_async_cpus;
		/* of verified writes, trimmed after */
		uint64_t trim_percentage;
		bool trim_verify_zero;	/* a trimmed block must read zeros */
		uint64_t trim_backlog;	/* trim after every N writes; 0 never */
		/* trims each time; 0: trim_backlog */
		uint64_t trim_backlog_batch;
		/* Verification extras (issue 12: src/verify/) */
		bool verify_dump;	/* mismatching blocks to files */
		bool verify_state_save;	/* written blocks to a state file */
		bool verify_state_load;	/* verify_only: check those only */
		/* bytes per header; 0: the block */
		uint64_t verify_interval;
		uint64_t verify_offset;	/* header swapped to this offset */
		bool serialize_overlap;	/* no two overlapping I/Os in flight */
	} vfy;

	/* The bytes written: patterns, compressibility, dedupe (category
	 * buffers). */
	struct job_buf {
		/* Buffer contents (fill.h): the bytes of writes other than the
		 * default (each write distinct and incompressible). */
		bool zero_buffers;	/* zeros */
		bool refill_buffers;	/* accepted: writes are always fresh */
		/* -1 auto, 0, 1: stamp constant contents per 512-byte sector */
		signed char scramble_buffers;
		char *buffer_pattern;	/* as given (--parse-only) */
		struct job_bytes *buffer_pat;	/* its bytes; NULL: not set */
		uint64_t buffer_compress_percentage;	/* 0: not set */
		uint64_t buffer_compress_chunk;	/* bytes; 0: the block */
		/* writes that repeat an earlier one */
		uint64_t dedupe_percentage;
		int dedupe_mode;	/* enum dedupe_mode */
		uint64_t dedupe_working_set_percentage;	/* of the region */
		bool dedupe_global;	/* working set spread over all jobs
					 * with it (fill.h) */
	} buf;

	/* Errors gone on after and latency limits and targets (category
	 * errors). */
	struct job_err {
		int continue_on_error;	/* enum coe_mask */
		/* issue 12, errors and latency (errlist.h, worker.c):
		 * ignore_error as given and its lists; max_latency as given, ns
		 * per direction (0: none; trims are not checked, as in fio) */
		char *ignore_error;
		struct errlist ignore_errors;
		char *max_latency;
		uint64_t max_latency_ns[DDIR_NR];
		/* issue 12, latency target (worker.c lt_*): fio's queue depth
		 * search; latency_target_ns 0: off */
		uint64_t latency_target_ns, latency_window_ns;
		double latency_percentile;
		bool latency_run;
		bool error_dump;	/* print each error gone on after */
		/* accepted, warned: no trim state */
		bool block_error_percentiles;
	} err;

	/* Log files written and I/O logs replayed (category logs). */
	struct job_logs {
		/* issue 12, I/O replay (replay.h): read_iolog and its knobs */
		char *read_iolog, *replay_redirect;
		bool read_iolog_chunked, replay_no_stall;
		uint64_t replay_scale, replay_align, replay_time_scale;
		char *replay_skip_str;
		unsigned replay_skip;	/* 1 << DDIR_*, 1 << DDIR_NR: syncs */
		/* issue 12, blktrace merge (src/log/blktrace.c): the lists as
		 * given */
		char *merge_blktrace_file, *merge_blktrace_scalars;
		char *merge_blktrace_iters;
		/* Log files (iolog.h); a log's prefix NULL: off, "": the
		 * name */
		char *write_bw_log, *write_iops_log, *write_lat_log;
		char *write_hist_log;
		char *write_io_trace;	/* per-I/O trace file, or NULL */
		char *write_iolog;	/* fio's iolog v3 file, or NULL */
		uint64_t log_avg_msec;	/* 0: a line per I/O */
		uint64_t log_hist_msec;	/* 0: no histogram lines */
		int log_window_value;	/* 0 avg, 1 max, 2 both */
		bool log_offset, log_prio;
		bool per_job_logs;	/* 0: one shared file, appended */
		/* issue 12, fio's log knobs (iolog.h, logz.h, worker.c) */
		/* either: log times from the clock's epoch, in ms */
		bool log_unix_epoch, log_alternate_epoch;
		uint64_t log_alternate_epoch_clock_id;	/* clock_gettime's id */
		/* hist bins summed by 2^N, 0..6 */
		uint64_t log_hist_coarseness;
		/* fio's .log.fz (zlib samples) */
		bool log_store_compressed;
		/* accepted: logs are streamed */
		uint64_t log_compression;
		uint64_t log_entries;	/* accepted: logs are streamed */
		/* accepted: no compression thread */
		char *log_compression_cpus;
	} logs;

	/* What the report holds and in which units (categories report and
	 * units). */
	struct job_report {
		uint64_t interval_ns;	/* interval= samples; 0: off */
		/* rate sample periods */
		uint64_t bw_avg_ns, iops_avg_ns;
		bool group_reporting;
		double percentile_list[JOB_MAX_PERCENTILES];
		unsigned npercentiles;
		bool clat_percentiles;
		bool lat_percentiles;
		bool slat_percentiles;
		uint64_t kb_base;
		bool gtod_reduce;	/* all four disable_* below */
		bool disable_lat, disable_clat, disable_slat, disable_bw;
		int unified_rw_reporting;	/* enum unified_rw */
		bool disk_util;		/* report the devices' counters */
		bool stats;		/* 0: left out of every report */
		int unit_base;		/* 1: text bandwidth in bits; 0, 8 */
		uint64_t sig_figs;	/* significant_figures, text report */
		/* accepted: no job_start reported */
		uint64_t job_start_clock_id;
	} report;

	/* The job's thread: CPUs, NUMA, priority, ids, cgroup (category
	 * cpu). */
	struct job_cpu {
		/* CPU placement (cpuset.h). */
		char *cpus_allowed;	/* CPU list as cpuset_parse reads it;
					 * cpumask= is stored as one; NULL:
					 * not set */
		cpu_set_t cpus;		/* its CPUs, parsed by the setter */
		int cpus_allowed_policy;	/* enum cpus_policy */
		/* Process attributes (procattr.h). */
		char *nice;		/* -20..19 as text; NULL: unchanged */
		int nice_inc;		/* its value, set by the setter */
		/* UINT64_MAX: not set */
		uint64_t prio, prioclass, priohint;
		uint64_t uid, gid;	/* the job's thread's ids; UINT64_MAX:
					 * unchanged (procattr_cred_*) */
		char *numa_cpu_nodes;	/* node list; NULL: unchanged */
		char *numa_mem_policy;	/* MODE[:NODES]; NULL: unchanged */
		/* Both parsed once by their setters (procattr.h): the nodes'
		 * mask, the policy's MPOL_* mode and its nodes' mask. */
		uint64_t numa_cpu_mask;
		int numa_mpol_mode;
		uint64_t numa_mpol_mask;
		char *cgroup;		/* blkio group (cgroup.h); NULL: none */
		uint64_t cgroup_weight;	/* 0: unchanged */
		bool cgroup_nodelete;
		char *comm;		/* the thread's name; NULL: iorig's */
		uint64_t gtod_cpu;	/* kept out of cpus_allowed; UINT64_MAX:
					 * none (no time thread here) */
	} cpu;

	/* When the job starts and what its end stops; commands around it
	 * (category order). */
	struct job_order {
		bool stonewall;
		bool new_group;
		bool exitall;		/* its end stops its wait group */
		bool exitall_on_error;	/* its failure stops the run */
		char *wait_for;		/* start once this job has ended */
		int exit_what;		/* enum exit_what: exitall's reach */
		/* Commands around a job (jobexec.h; issue 12). */
		char *exec_prerun, *exec_postrun;	/* sh -c; NULL: none */
	} order;

	/* steadystate=: end when the result settles (category steadystate). */
	struct job_ss {
		char *steadystate;	/* "iops:2%" (steady.h); NULL: none */
		/* steadystate parsed by its setter */
		struct steady_crit ss_crit;
		uint64_t ss_dur_ns;	/* window; 0: off */
		uint64_t ss_ramp_ns;	/* before collecting */
		uint64_t ss_interval_ns;	/* one sample each */
	} ss;

	/* iorig's own: sweep= (a job per value), repeat= and check= (categories
	 * sweep and checks). */
	struct job_runs {
		char *sweep;	/* "OPT:v1,v2" lines joined by ';' */
		char *check;	/* check= expressions joined by ';' (check.h) */
		/* runs of the job, one after the other */
		uint64_t repeat;
		/* Where each check= of `check` was set, in order: "FILE:LINE"
		 * lines joined by '\n', each starting with 'g' (a global
		 * section) or 'j' (the job's own section). */
		char *check_src;
	} runs;

	/* Set by the plan (plan.c, main.c) or the run, not by an option. */
	struct job_plan {
		unsigned clone;	/* 0..numjobs-1 */
		/* dedupe_global: this job's place among the n jobs (clones
		 * included) whose working sets are shared; n 0: not shared */
		unsigned dedupe_gidx, dedupe_gn;
		unsigned group;	/* reporting group id */
		/* jobs start after all of lower wait_group */
		unsigned wait_group;
		/* --readonly (the command line's, for every job): no file is
		 * created, extended, filled or mapped for writing */
		bool readonly;
		char *sweep_point;	/* "bs=4k ioengine=libaio", or NULL */
		/*
		 * rate_curve: the plan makes a probe (curve_point 1) and one
		 * job per percent (curve_point 2, 3, ...; curve_pct), each
		 * stonewalled; curve_probe is the plan index of the probe's
		 * first clone. The run sets a point's rate_iops (or rate) from
		 * the probe's result before the point starts. curve_point 0:
		 * not part of a curve.
		 */
		unsigned curve_point;
		double curve_pct;
		size_t curve_probe;
		/* where the job's section was defined */
		char *section_file;
		/*
		 * The section's own [name] (--name=), which name= may change:
		 * fio names a job's files after it ($jobname of
		 * filename_format).
		 */
		char *section_name;
		int section_line;
		/*
		 * repeat=N makes N copies of the job (each with its clones),
		 * one after the other and each stonewalled; copy r is run
		 * repeat_idx r. The plan lays the runs out back to back, so the
		 * job at plan index i with repeat_idx r > 0 repeats the one at
		 * i - r * numjobs, and run r's wait group is run 0's plus r.
		 */
		unsigned repeat_idx;
		/* --profile=act (src/plan/profile.c): the profile's latency
		 * table, shared by its jobs and owned by main; NULL: not an
		 * act job. Not an option: set on the planned jobs of the
		 * profile. */
		struct act_tally *act_tally;
	} plan;
};

/* filetype=: what every file of the job must be (later fio's option) */
enum filetype {
	FILETYPE_NONE,
	FILETYPE_FILE,
	FILETYPE_BLOCK,
	FILETYPE_CHAR,
};

/* Bytes of I/O per loop of a job whose region is `region` bytes:
 * io_size, else (fio's meaning) size= when filesize= sets the files' size
 * and size= is smaller than all of them, else the region. */
static inline uint64_t job_per_loop(const struct job *j, uint64_t region)
{
	if (j->target.io_size)
		return j->target.io_size;
	if (j->target.filesize_min && j->target.size && j->target.size < region)
		return j->target.size;
	return region;
}

#endif
