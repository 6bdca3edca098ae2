// SPDX-License-Identifier: MIT
/*
 * NVMe namespaces by the controller's own data (nvmedev.h). The admin
 * commands are libnvme's (nvme_identify_ctrl, nvme_identify_ns,
 * nvme_get_log_smart): its structures are the specification's layouts,
 * which linux/nvme_ioctl.h does not give, and nvme-cli reads the same
 * through the same library.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <libnvme.h>

#include "nvmedev.h"

/* A fixed-width ASCII field of Identify, without its padding. */
static void copy_field(char *dst, size_t dlen, const char *src, size_t slen)
{
	size_t n = slen < dlen - 1 ? slen : dlen - 1;

	memcpy(dst, src, n);
	dst[n] = '\0';
	while (n && (dst[n - 1] == ' ' || dst[n - 1] == '\0'))
		dst[--n] = '\0';
}

/* First line of a sysfs file, without its newline; -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int r = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		r = -EIO;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return r;
}

/* The kernel's name of the device rdev of a kind ("block": "nvme0n1",
 * "char": "ng0n1"), or -errno. */
static int sys_name(const char *kind, dev_t rdev, char *name, size_t len)
{
	char link[256], target[256];
	const char *b;
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/dev/%s/%u:%u", kind, major(rdev),
		 minor(rdev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	b = strrchr(target, '/');
	b = b ? b + 1 : target;
	if (strlen(b) >= len)
		return -ENAMETOOLONG;
	memcpy(name, b, strlen(b) + 1);
	return 0;
}

static int bdev_name(dev_t rdev, char *name, size_t len)
{
	return sys_name("block", rdev, name, len);
}

bool nvmedev_is_ns(dev_t rdev)
{
	char name[64];

	return !bdev_name(rdev, name, sizeof(name)) &&
	       !strncmp(name, "nvme", 4) && !strchr(name, 'p');
}

/* Whether the namespace answers Identify for the Zoned Namespace command
 * set (another command set's fails it with an NVMe status). */
static bool zns_answers(int fd, uint32_t nsid)
{
	struct nvme_zns_id_ns *zns = calloc(1, sizeof(*zns));
	bool yes;

	if (!zns)
		return false;
	yes = !nvme_zns_identify_ns(fd, nsid, zns);
	free(zns);
	return yes;
}

int nvmedev_ident(int fd, struct nvmedev_ident *id)
{
	struct nvme_id_ctrl ctrl;
	struct nvme_id_ns ns;
	struct nvme_lbaf *f;
	char name[64], path[128], zoned[32];
	struct stat st;
	int r;

	memset(id, 0, sizeof(*id));
	r = nvme_get_nsid(fd, &id->nsid);	/* NVME_IOCTL_ID */
	if (r || !id->nsid)
		return r < 0 ? -errno : -ENODEV;
	r = nvme_identify_ns(fd, id->nsid, &ns);
	if (r)
		return r < 0 ? -errno : -EIO;
	id->nsze = le64toh(ns.nsze);
	id->lbaf = ns.flbas & 0xf;
	if (ns.nlbaf > 16)	/* the extended formats: bits 6:5 */
		id->lbaf |= (ns.flbas >> 1) & 0x30;
	f = &ns.lbaf[id->lbaf];
	id->lba_size = f->ds < 32 ? 1u << f->ds : 0;
	id->ms = le16toh(f->ms);
	id->extended = ns.flbas & 0x10;
	id->pi_type = ns.dps & 7;
	id->pi_first = ns.dps & 8;
	r = nvme_identify_ctrl(fd, &ctrl);
	if (r)
		return r < 0 ? -errno : -EIO;
	copy_field(id->model, sizeof(id->model), ctrl.mn, sizeof(ctrl.mn));
	copy_field(id->serial, sizeof(id->serial), ctrl.sn, sizeof(ctrl.sn));
	copy_field(id->firmware, sizeof(id->firmware), ctrl.fr,
		   sizeof(ctrl.fr));
	id->elpe = ctrl.elpe;
	/* Zoned: the kernel's view of the block device (or of the char
	 * device's namespace), which reads the command set for us; a
	 * namespace the kernel gave no block device is asked itself. */
	if (!fstat(fd, &st)) {
		dev_t b = st.st_rdev;

		if (S_ISCHR(st.st_mode) &&
		    nvmedev_chr_block(st.st_rdev, path, sizeof(path), &b)) {
			id->zoned = zns_answers(fd, id->nsid);
			return 0;
		}
		if (!bdev_name(b, name, sizeof(name))) {
			snprintf(path, sizeof(path), "/sys/block/%s/queue/"
				 "zoned", name);
			id->zoned = !read_line(path, zoned, sizeof(zoned)) &&
				    strcmp(zoned, "none");
		}
	}
	return 0;
}

/* A 128-bit little-endian counter, held to 64 bits. */
static uint64_t u128(const uint8_t *b)
{
	uint64_t v = 0;
	int i;

	for (i = 15; i >= 8; i--)
		if (b[i])
			return UINT64_MAX;
	for (i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

int nvmedev_health(int fd, struct nvmedev_health *h)
{
	struct nvme_smart_log s;
	int r;

	memset(h, 0, sizeof(*h));
	r = nvme_get_log_smart(fd, NVME_NSID_ALL, false, &s);
	if (r)
		return r < 0 ? -errno : -EIO;
	h->critical_warning = s.critical_warning;
	/* kelvin, little-endian */
	h->temperature = (int)(s.temperature[0] | s.temperature[1] << 8) -
			 273;
	h->avail_spare = s.avail_spare;
	h->percentage_used = s.percent_used;
	h->data_units_read = u128(s.data_units_read);
	h->data_units_written = u128(s.data_units_written);
	h->host_read_commands = u128(s.host_reads);
	h->host_write_commands = u128(s.host_writes);
	h->media_errors = u128(s.media_errors);
	h->error_log_entries = u128(s.num_err_log_entries);
	h->power_on_hours = u128(s.power_on_hours);
	h->unsafe_shutdowns = u128(s.unsafe_shutdowns);
	return 0;
}

/*
 * The kernel names a namespace's generic char device ngXnY after its
 * block device nvmeXnY (X the controller's or, with native multipath,
 * the subsystem's instance, as the disk's): the name is mapped, then the
 * block device's number in sysfs must be the node's in /dev.
 */
int nvmedev_chr_block(dev_t rdev, char *path, size_t len, dev_t *bdev)
{
	char link[256], target[256], num[32];
	const char *b;
	unsigned ma, mi;
	struct stat st;
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/subsystem",
		 major(rdev), minor(rdev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -ENODEV;
	target[n] = '\0';
	b = strrchr(target, '/');
	if (strcmp(b ? b + 1 : target, "nvme-generic"))
		return -ENODEV;
	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u", major(rdev),
		 minor(rdev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -ENODEV;
	target[n] = '\0';
	b = strrchr(target, '/');
	b = b ? b + 1 : target;
	if (strncmp(b, "ng", 2))
		return -ENODEV;
	snprintf(link, sizeof(link), "/sys/block/nvme%s/dev", b + 2);
	if (read_line(link, num, sizeof(num)) ||
	    sscanf(num, "%u:%u", &ma, &mi) != 2)
		return -ENOENT;
	snprintf(path, len, "/dev/nvme%s", b + 2);
	if (stat(path, &st) || !S_ISBLK(st.st_mode) ||
	    st.st_rdev != makedev(ma, mi))
		return -ENOENT;
	*bdev = st.st_rdev;
	return 0;
}

const char *nvmedev_status_text(unsigned status)
{
	static const struct {
		unsigned sc;
		const char *text;
	} t[] = {
		{ 0x002, "NVMe status 0x002: invalid field in command" },
		{ 0x004, "NVMe status 0x004: data transfer error" },
		{ 0x006, "NVMe status 0x006: internal error" },
		{ 0x080, "NVMe status 0x080: LBA out of range" },
		{ 0x081, "NVMe status 0x081: capacity exceeded" },
		{ 0x0b9, "NVMe status 0x0b9: zone boundary error" },
		{ 0x0ba, "NVMe status 0x0ba: zone is full" },
		{ 0x0bc, "NVMe status 0x0bc: zone is offline" },
		{ 0x0bd, "NVMe status 0x0bd: zone is read only" },
		{ 0x0be, "NVMe status 0x0be: zone invalid write" },
		{ 0x280, "NVMe status 0x280: write fault" },
		{ 0x281, "NVMe status 0x281: unrecovered read error" },
		{ 0x282, "NVMe status 0x282: end-to-end guard check error "
			 "(protection information)" },
		{ 0x283, "NVMe status 0x283: end-to-end application tag "
			 "check error (protection information)" },
		{ 0x284, "NVMe status 0x284: end-to-end reference tag check "
			 "error (protection information)" },
		{ 0x286, "NVMe status 0x286: access denied" },
		{ 0x287, "NVMe status 0x287: deallocated or unwritten "
			 "logical block" },
	};
	size_t i;

	status &= 0x7ff;	/* SCT and SC; not DNR, MORE */
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].sc == status)
			return t[i].text;
	return NULL;
}

/* The kernel's name of the namespace fd is open on, or -ENODEV. */
static int ns_name(int fd, char *name, size_t len)
{
	char path[64];
	struct stat st;
	dev_t b;
	int r;

	if (fstat(fd, &st))
		return -errno;
	b = st.st_rdev;
	if (S_ISCHR(st.st_mode)) {
		r = nvmedev_chr_block(st.st_rdev, path, sizeof(path), &b);
		/* a namespace the kernel gave no block device: its char
		 * device's name ("ng0n5"), /dev/ng0n5 opened again at the end */
		if (r == -ENOENT)
			return sys_name("char", st.st_rdev, name, len);
		if (r)
			return -ENODEV;
	} else if (!S_ISBLK(st.st_mode))
		return -ENODEV;
	if (!nvmedev_is_ns(b))
		return -ENODEV;
	return bdev_name(b, name, len);
}

int nvmedev_watch(struct nvmedev_set *s, int fd, const char *path)
{
	struct nvmedev_dev *d;
	char name[32];
	unsigned i;
	int r;

	if (ns_name(fd, name, sizeof(name)))
		return -ENODEV;
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->d[i].name, name))
			return (int)i;
	d = realloc(s->d, (s->n + 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	s->d = d;
	d = &s->d[s->n];
	memset(d, 0, sizeof(*d));
	memcpy(d->name, name, sizeof(name));
	snprintf(d->target, sizeof(d->target), "%s", path);
	r = nvmedev_ident(fd, &d->id);
	if (!r)
		r = nvmedev_health(fd, &d->before);
	d->have_before = !r;
	d->err = r;
	return (int)s->n++;
}

unsigned nvmedev_errors_since(const void *log, unsigned n, uint64_t since,
			      struct nvmedev_errent *out, unsigned max)
{
	const struct nvme_error_log_page *p = log;
	struct nvmedev_errent *e;
	unsigned i, k = 0;
	uint64_t c;

	for (i = 0; i < n && k < max; i++) {
		c = le64toh(p[i].error_count);
		if (!c || c <= since)	/* 0: an empty entry */
			continue;
		e = &out[k++];
		e->count = c;
		e->lba = le64toh(p[i].lba);
		e->nsid = le32toh(p[i].nsid);
		e->sqid = le16toh(p[i].sqid);
		e->cmdid = le16toh(p[i].cmdid);
		/* bit 0 is the phase tag; then SC (8 bits), SCT (3) */
		e->status = (le16toh(p[i].status_field) >> 1) & 0x7ff;
		e->pel = le16toh(p[i].parm_error_location);
	}
	return k;
}

/* The error log's entries logged since d's health log before the run:
 * as many as grew, up to what the controller keeps and errs holds. */
static void errors_read(int fd, struct nvmedev_dev *d)
{
	struct nvme_error_log_page log[NVMEDEV_ERRS_MAX];
	uint64_t grew = d->after.error_log_entries -
			d->before.error_log_entries;
	unsigned n = NVMEDEV_ERRS_MAX;

	d->nerrs = 0;
	if (d->after.error_log_entries <= d->before.error_log_entries)
		return;
	if (n > (unsigned)d->id.elpe + 1)
		n = (unsigned)d->id.elpe + 1;
	if (grew < n)
		n = (unsigned)grew;
	memset(log, 0, sizeof(log));
	if (nvme_get_log_error(fd, n, false, log))
		return;
	d->nerrs = nvmedev_errors_since(log, n, d->before.error_log_entries,
					d->errs, NVMEDEV_ERRS_MAX);
}

void nvmedev_stop(struct nvmedev_set *s)
{
	char path[64];
	unsigned i;
	int fd;

	for (i = 0; i < s->n; i++) {
		struct nvmedev_dev *d = &s->d[i];

		if (!d->have_before)
			continue;
		snprintf(path, sizeof(path), "/dev/%s", d->name);
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0) {
			d->err = -errno;
			continue;
		}
		d->err = nvmedev_health(fd, &d->after);
		d->have_after = !d->err;
		if (d->have_after)
			errors_read(fd, d);
		close(fd);
	}
}

void nvmedev_set_free(struct nvmedev_set *s)
{
	free(s->d);
	s->d = NULL;
	s->n = 0;
}

static uint64_t sub(uint64_t b, uint64_t a)
{
	return b > a ? b - a : 0;
}

void nvmedev_health_sub(struct nvmedev_health *out,
			const struct nvmedev_health *b,
			const struct nvmedev_health *a)
{
	*out = *b;
	out->data_units_read = sub(b->data_units_read, a->data_units_read);
	out->data_units_written = sub(b->data_units_written,
				      a->data_units_written);
	out->host_read_commands = sub(b->host_read_commands,
				      a->host_read_commands);
	out->host_write_commands = sub(b->host_write_commands,
				       a->host_write_commands);
	out->media_errors = sub(b->media_errors, a->media_errors);
	out->error_log_entries = sub(b->error_log_entries,
				     a->error_log_entries);
	out->power_on_hours = sub(b->power_on_hours, a->power_on_hours);
	out->unsafe_shutdowns = sub(b->unsafe_shutdowns, a->unsafe_shutdowns);
}
