// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "err.h"
#include "job.h"
#include "optdef.h"

extern const struct engine_ops engine_sync;
extern const struct engine_ops engine_null;
extern const struct engine_ops engine_uring;
extern const struct engine_ops engine_uring_cmd;
extern const struct engine_ops engine_sg;
extern const struct engine_ops engine_libaio;
extern const struct engine_ops engine_pthread;
extern const struct engine_ops engine_pvsync;
extern const struct engine_ops engine_pvsync2;
extern const struct engine_ops engine_posixaio;
extern const struct engine_ops engine_mmap;
extern const struct engine_ops engine_falloc;
extern const struct engine_ops engine_filecreate;
extern const struct engine_ops engine_filestat;
extern const struct engine_ops engine_filedelete;
extern const struct engine_ops engine_cpuio;
extern const struct engine_ops engine_exec;
extern const struct engine_ops engine_e4defrag;
extern const struct engine_ops engine_net;
extern const struct engine_ops engine_netsplice;

static const struct engine_ops *const engines[] = {
	&engine_sync,
	&engine_null,
	&engine_uring,
	&engine_uring_cmd,
	&engine_sg,
	&engine_libaio,
	&engine_pthread,
	&engine_pvsync,
	&engine_pvsync2,
	&engine_posixaio,
	&engine_mmap,
	&engine_falloc,
	&engine_filecreate,
	&engine_filestat,
	&engine_filedelete,
	&engine_cpuio,
	&engine_exec,
	&engine_e4defrag,
	&engine_net,
	&engine_netsplice,
	NULL,
};

const struct engine_ops *engine_find(const char *name)
{
	const struct engine_ops *const *e;

	for (e = engines; *e; e++)
		if (!strcmp((*e)->name, name) ||
		    ((*e)->alias && !strcmp((*e)->alias, name)))
			return *e;
	return NULL;
}

static const struct {
	const char *name;
	const char *needs;
} missing[] = {
	{ "rbd", "librbd (Ceph RADOS block devices)" },
	{ "rados", "librados (Ceph object storage)" },
	{ "spdk", "SPDK's fio plugin (spdk_nvme)" },
	{ "spdk_nvme", "SPDK's fio plugin (spdk_nvme)" },
	{ "spdk_bdev", "SPDK's fio plugin (spdk_bdev)" },
	{ "xnvme", "libxnvme (xNVMe)" },
	{ "libblkio", "libblkio" },
	{ "libhdfs", "libhdfs (Hadoop)" },
	{ "gfapi", "libgfapi (GlusterFS)" },
	{ "gfapi_async", "libgfapi (GlusterFS)" },
	{ "nfs", "libnfs" },
	{ "http", "libcurl and an HTTP/S3/Swift server" },
	{ "rdma", "librdmacm and libibverbs (RDMA)" },
	{ "dfs", "DAOS (libdfs)" },
	{ "ime", "DDN IME's native library" },
	{ "ime_psync", "DDN IME's native library" },
	{ "ime_psyncv", "DDN IME's native library" },
	{ "ime_aio", "DDN IME's native library" },
	{ "libpmem", "PMDK's libpmem" },
	{ "libcufile", "NVIDIA's cuFile (GPUDirect Storage)" },
	{ "nbd", "libnbd" },
	{ "libiscsi", "libiscsi" },
	{ "libzbc", "libzbc" },
	{ "external", "support for fio's external engine plugins (.so files "
	  "built against fio)" },
};

const char *engine_needs(const char *name)
{
	size_t i, n;

	for (i = 0; i < sizeof(missing) / sizeof(missing[0]); i++) {
		n = strlen(missing[i].name);
		/* external:PATH.so, and the other names exactly */
		if (!strncmp(name, missing[i].name, n) &&
		    (!name[n] || (name[n] == ':' &&
				  !strcmp(missing[i].name, "external"))))
			return missing[i].needs;
	}
	/* A path: fio loads it as an external engine. */
	if (strchr(name, '/') || (strlen(name) > 3 &&
				  !strcmp(name + strlen(name) - 3, ".so")))
		return missing[sizeof(missing) / sizeof(missing[0]) - 1].needs;
	return NULL;
}

const struct engine_ops *const *engine_list(void)
{
	return engines;
}

void engine_print_help(FILE *f)
{
	const struct engine_ops *const *e;
	const struct opt_def *o;
	size_t n;

	fprintf(f, "  values:\n");
	for (e = engines; *e; e++) {
		fprintf(f, "    %-12s %s\n", (*e)->name, (*e)->help);
		if ((*e)->alias)
			fprintf(f, "    %-12s also called %s\n", "",
				(*e)->alias);
		if ((*e)->flags & ENGINE_SYNC)
			fprintf(f, "    %-12s synchronous: one I/O at a time\n",
				"");
		if ((*e)->flags & ENGINE_CHANGES_FILES)
			fprintf(f, "    %-12s changes files even when reading\n",
				"");
		if ((*e)->flags & ENGINE_NODATA)
			fprintf(f, "    %-12s moves no data: nothing to verify\n",
				"");
		if ((*e)->flags & ENGINE_KEEPS_DATA)
			fprintf(f, "    %-12s keeps the bytes: may run beside "
				"a verifying job\n", "");
		if ((*e)->flags & ENGINE_ASYNC_NEEDS_DIRECT)
			fprintf(f, "    %-12s asynchronous with direct=1 only\n",
				"");
		if (!(*e)->options)
			continue;
		n = (size_t)fprintf(f, "    %-12s options:", "");
		for (o = (*e)->options; o->name; o++) {
			if (n + 1 + strlen(o->name) > 79) /* under "options:" */
				n = (size_t)fprintf(f, "\n%25s", "") - 1;
			n += (size_t)fprintf(f, " %s", o->name);
		}
		fprintf(f, "\n");
	}
}

void engine_print_one(FILE *f, const struct engine_ops *e)
{
	const struct opt_def *o;

	fprintf(f, "%s: %s\n", e->name, e->help);
	/* its options, as fio lists them, then what more there is to say */
	for (o = e->options; o && o->name; o++)
		fprintf(f, "%-24s: %s\n", o->name, o->help);
	if (e->about)
		fprintf(f, "\n%s", e->about);
}
