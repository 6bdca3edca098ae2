/* SPDX-License-Identifier: MIT */
#ifndef IORIG_CPU_H
#define IORIG_CPU_H

#include <stdint.h>

/*
 * CPU time: of a thread or the process (getrusage) and of the whole
 * machine (/proc/stat). Engines with threads of their own (the pthread
 * pool) read it too, so it depends on nothing else of iorig.
 */
/* One iteration of a busy wait: the CPU's spin-wait hint (pause on x86,
 * yield on arm), which lets a sibling hyperthread run meanwhile. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

struct cpu_usage {
	uint64_t utime_ns;
	uint64_t stime_ns;
	/*
	 * A thread's time on a CPU from its schedstat, in ns (exact, where
	 * user and system time are tick-sampled); 0: not read (the process,
	 * or no schedstat). Only cpu_sub reads it; its result has 0 here and
	 * utime_ns + stime_ns as the total. cpu_add adds it up (a sum of
	 * threads' snapshots: the pthread pool's).
	 */
	uint64_t run_ns;
	uint64_t vcsw;		/* voluntary context switches */
	uint64_t ivcsw;		/* involuntary */
	uint64_t minflt;
	uint64_t majflt;
};

/*
 * The whole machine's CPU time from /proc/stat, in ns, summed over CPUs:
 * catches interrupt and softirq work done on other CPUs for our I/O.
 */
struct sys_cpu {
	uint64_t user;		/* user + nice */
	uint64_t system;
	uint64_t irq;
	uint64_t softirq;
	uint64_t idle;		/* idle + iowait */
	uint64_t steal;
};

/*
 * CPU of one phase (one wait group: the jobs that ran side by side), from
 * the three sources: the process (RUSAGE_SELF: every thread, io_uring's
 * io-wq and SQPOLL threads included) and the whole system.
 */
struct phase_cpu {
	struct cpu_usage proc;
	struct sys_cpu sys;
	uint64_t wall_ns;
	uint64_t ios;		/* I/Os of all jobs of the phase */
};

/*
 * The calling thread's usage (RUSAGE_THREAD, and its run time from
 * /proc/thread-self/schedstat where the kernel has it) and the process'
 * (RUSAGE_SELF, whose total Linux derives from the scheduler's run time
 * too). The user/system split of both is sampled at clock ticks (HZ):
 * over a few ticks it is noise, while the total is exact.
 */
void cpu_thread(struct cpu_usage *c);
void cpu_process(struct cpu_usage *c);
/* dst += add, field by field. */
void cpu_add(struct cpu_usage *dst, const struct cpu_usage *add);
/* a - b, field by field. */
void cpu_sub(struct cpu_usage *out, const struct cpu_usage *a,
	     const struct cpu_usage *b);

/* Returns 0, or -errno when /proc/stat cannot be read. */
int cpu_sys(struct sys_cpu *c);
void cpu_sys_sub(struct sys_cpu *out, const struct sys_cpu *a,
		 const struct sys_cpu *b);

/*
 * a - b of a counter read twice (CPU time, disk statistics), saturating
 * at 0: counters never go back, but a swapped pair must not turn into
 * 2^64.
 */
static inline uint64_t counter_sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

#endif
