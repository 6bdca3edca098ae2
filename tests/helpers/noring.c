// SPDX-License-Identifier: MIT
/*
 * noring: run a program with io_uring_setup(2) and/or io_setup(2) refused
 * by a seccomp filter, the way a container runtime's profile refuses them.
 *
 *   noring [--uring=ERR] [--aio=ERR] PROGRAM [ARG...]
 *
 * ERR is ENOSYS, EPERM, EACCES or EAGAIN: the system call fails with it.
 * Everything else is allowed. Exit 77 (with "SKIP: reason" on stderr) when
 * the filter cannot be installed here, 127 when PROGRAM cannot be run.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define NORING_ARCH	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NORING_ARCH	AUDIT_ARCH_AARCH64
#elif defined(__riscv) && __riscv_xlen == 64
#define NORING_ARCH	AUDIT_ARCH_RISCV64
#endif

#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup	425	/* the same on every architecture */
#endif

static const struct {
	const char *name;
	int err;
} errs[] = {
	{ "ENOSYS", ENOSYS }, { "EPERM", EPERM }, { "EACCES", EACCES },
	{ "EAGAIN", EAGAIN },
};

static int parse_err(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		if (!strcmp(s, errs[i].name))
			return errs[i].err;
	fprintf(stderr, "noring: unknown errno '%s'; expected ENOSYS, EPERM, "
		"EACCES or EAGAIN\n", s);
	exit(2);
}

static int usage(void)
{
	fprintf(stderr, "usage: noring [--uring=ERR] [--aio=ERR] PROGRAM "
		"[ARG...]\n");
	return 2;
}

/* nr fails with err; any other system call goes on to the next test. */
#define DENY(nr, err) \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
	BPF_STMT(BPF_RET | BPF_K, \
		 SECCOMP_RET_ERRNO | ((err) & SECCOMP_RET_DATA))

int main(int argc, char **argv)
{
	int uring = 0, aio = 0, i;

	for (i = 1; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strncmp(argv[i], "--uring=", 8))
			uring = parse_err(argv[i] + 8);
		else if (!strncmp(argv[i], "--aio=", 6))
			aio = parse_err(argv[i] + 6);
		else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else
			return usage();
	}
	if (i >= argc)
		return usage();

	{
		/* A syscall that is not denied falls through to ALLOW. */
		struct sock_filter f[] = {
#ifdef NORING_ARCH
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, arch)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NORING_ARCH, 1, 0),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
#endif
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, nr)),
			DENY(uring ? __NR_io_uring_setup : ~0u, uring),
			DENY(aio ? __NR_io_setup : ~0u, aio),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = {
			.len = (unsigned short)(sizeof(f) / sizeof(f[0])),
			.filter = f,
		};

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
			fprintf(stderr, "SKIP: PR_SET_NO_NEW_PRIVS: %s\n",
				strerror(errno));
			return 77;
		}
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
			fprintf(stderr, "SKIP: cannot install a seccomp "
				"filter: %s\n", strerror(errno));
			return 77;
		}
	}
	execvp(argv[i], argv + i);
	fprintf(stderr, "noring: %s: %s\n", argv[i], strerror(errno));
	return 127;
}
