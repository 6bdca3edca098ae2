// SPDX-License-Identifier: MIT
/*
 * zonemode=zbd's plan (target.h: target_plan_zbd, target_zbd_share): the
 * target stage's checks of a job against the zones of its file or
 * device (zbd.h says what the kernel reports of them), a writer's region
 * rounded to whole zones, and the span of zones the jobs of a wait group
 * share on one target. The worker's side is src/worker/zoned.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "nvmedev.h"
#include "target.h"
#include "zbd.h"

/*
 * Whether [off, off + len) of a zoned device holds a sequential zone, by
 * its zone report (a region of conventional zones alone is not rounded,
 * fio's rule). -errno when the report fails.
 */
static int zbd_has_seq(const struct target_file *tf, uint64_t zs,
		       uint64_t off, uint64_t len)
{
	struct zbd_zone z[64];
	uint64_t at = off / zs * zs;
	struct zbd_dev d = { .zone_size = zs };
	int n = 0, i;

	/* an NVMe generic char device's zones are its namespace's, which
	 * its block device reports (BLKREPORTZONE is a block ioctl), or
	 * the namespace itself when it has none */
	d.fd = open(tf->is_nvme_chr && tf->nvme_bdev ? tf->nvme_bdev :
		    tf->path, O_RDONLY | O_CLOEXEC);
	if (d.fd < 0)
		return -errno;
	if (tf->is_nvme_chr && !tf->nvme_bdev && tf->nvme_id) {
		d.nsid = tf->nvme_id->nsid;
		d.lba_size = tf->nvme_id->lba_size;
	}
	while (at < off + len) {
		n = zbd_report(&d, at, z, 64);
		if (n <= 0)
			break;
		for (i = 0; i < n && z[i].start < off + len; i++)
			if (z[i].type != ZBD_TYPE_CONV) {
				close(d.fd);
				return 1;
			}
		at = z[n - 1].start + z[n - 1].len;
	}
	close(d.fd);
	return n < 0 ? n : 0;
}

/*
 * zonemode=zbd (fio's meaning): the zone geometry from the device, or
 * emulated zones of zonesize bytes on a file or a device that is not
 * zoned; the device's open zone limit against max_open_zones; direct I/O
 * for writes to a host-managed device; and a writing job's region
 * rounded to whole zones (its start up, its end down) when it holds
 * sequential zones, as fio rounds it, said in a warning.
 */
/* zonemode=zbd on a zoned device: its zone size (*zs), its end, the
 * job's limits checked against the device's. */
static int plan_zbd_device(struct target *t, struct target_file *tf,
			   const struct job *j, bool writes,
			   const struct zbd_info *zi, uint64_t *zs,
			   uint64_t *dev_end, struct err_rec *e)
{
	const char *f = j->plan.section_file;
	int line = j->plan.section_line;

	*zs = zi->zone_size;
	if (!*zs) {
		err_set(e, tf->path, 0, "zonemode", "a zoned device "
			"whose zone size sysfs does not give");
		return -EINVAL;
	}
	if (j->io.zonesize && j->io.zonesize != *zs) {
		err_set(e, f, line, "zonesize", "%" PRIu64 " is not "
			"the zone size of %s (%" PRIu64 " bytes); "
			"expected zonesize=%" PRIu64 " or none",
			j->io.zonesize, tf->path, *zs, *zs);
		return -EINVAL;
	}
	t->zbd_cap = *zs;
	/* passthrough has no page cache to reorder writes (fio asks
	 * direct=1 of block devices only) */
	if (zi->model == ZBD_HOST_MANAGED && writes &&
	    !j->cache.direct && !tf->is_nvme_chr) {
		err_set(e, f, line, "direct", "writes to the "
			"host-managed zoned device %s need direct "
			"I/O (fio refuses them too: buffered writes "
			"reach the device out of order); expected "
			"direct=1", tf->path);
		return -EINVAL;
	}
	t->zbd_max_open = (unsigned)j->io.max_open_zones;
	if (zi->model == ZBD_HOST_MANAGED && !j->io.ignore_zone_limits &&
	    zi->max_open) {
		if (j->io.max_open_zones > zi->max_open) {
			err_set(e, f, line, "max_open_zones", "%"
				PRIu64 " is more than %s can hold "
				"open (%u); expected at most %u, or "
				"ignore_zone_limits=1",
				j->io.max_open_zones, tf->path,
				zi->max_open, zi->max_open);
			return -EINVAL;
		}
		if (!j->io.max_open_zones)
			t->zbd_max_open = zi->max_open;
	}
	*dev_end = tf->cur_size;
	return 0;
}

/* zonemode=zbd emulated on a target that is not zoned: zonesize= and
 * zonecapacity= checked, the end of the target. */
static int plan_zbd_emulated(struct target *t, struct target_file *tf,
			     const struct job *j, uint64_t *zs,
			     uint64_t *dev_end, struct err_rec *e)
{
	const char *f = j->plan.section_file;
	int line = j->plan.section_line;

	*zs = j->io.zonesize;
	if (!*zs) {
		err_set(e, f, line, "zonesize", "%s is not a zoned "
			"block device: zonemode=zbd emulates zones "
			"on it, and needs their size (fio refuses it "
			"too); expected zonesize=, or a zoned device",
			tf->path);
		return -EINVAL;
	}
	if (*zs < 512 || (j->io.zonecapacity && j->io.zonecapacity > *zs)) {
		err_set(e, f, line, *zs < 512 ? "zonesize" :
			"zonecapacity", "%" PRIu64 " bytes; expected "
			"%s", *zs < 512 ? *zs : j->io.zonecapacity,
			*zs < 512 ? "at least 512" :
			"at most zonesize");
		return -EINVAL;
	}
	t->zbd_cap = j->io.zonecapacity ? j->io.zonecapacity : *zs;
	t->zbd_max_open = (unsigned)j->io.max_open_zones;
	*dev_end = tf->cur_size > tf->offset + tf->len ? tf->cur_size :
		   tf->offset + tf->len;
	if (*dev_end < *zs) {
		err_set(e, tf->path, 0, "zonesize", "%" PRIu64 " bytes "
			"is larger than the file or device (%" PRIu64
			"); expected at most its size", *zs, *dev_end);
		return -EINVAL;
	}
	return 0;
}

/*
 * What the kernel says of the zones of tf (zbd_probe): a block device's
 * own; an NVMe generic char device's are its namespace's, read from the
 * namespace's block device (fio 3.33 asks the namespace itself, Report
 * Zones; the zones are the same), or, for a namespace the kernel gives
 * no block device (a zone size that is not a power of two), from the
 * namespace itself through the char device (Identify for the Zoned
 * Namespace command set), as fio does. A SCSI generic device's zones
 * are not read (fio 3.33's sg engine does not read them either):
 * emulated. -errno with e when the namespace cannot be asked.
 */
static int zbd_probe_file(const struct target_file *tf, struct zbd_info *zi,
			  struct err_rec *e)
{
	int fd, r;

	memset(zi, 0, sizeof(*zi));
	if (tf->is_sg_chr || !tf->is_bdev)
		return 0;
	if (!tf->is_nvme_chr) {
		zbd_probe(tf->rdev, zi);
		return 0;
	}
	if (tf->nvme_bdev) {
		zbd_probe(tf->nvme_bdev_rdev, zi);
		return 0;
	}
	fd = tf->nvme_id ? open(tf->path, O_RDONLY | O_CLOEXEC) : -1;
	r = fd < 0 ? (tf->nvme_id ? -errno : -ENODEV) :
	    zbd_probe_nvme(fd, tf->nvme_id->nsid, tf->nvme_id->lbaf,
			   tf->nvme_id->lba_size, zi);
	if (fd >= 0)
		close(fd);
	if (!r && zi->model != ZBD_NONE && !zi->zone_size)
		r = -EIO;
	if (r)
		err_set(e, tf->path, 0, "zonemode", "its namespace has no "
			"block device, and asking the namespace for its zones "
			"(Identify, Zoned Namespace command set) failed: %s",
			strerror(-r));
	return r;
}

/* A writer's region rounded to whole zones of size zs (on a zoned
 * device only when its zones there are sequential). */
static int plan_zbd_round(struct target *t, struct target_file *tf,
			  const struct job *j, bool writes,
			  const struct zbd_info *zi, uint64_t zs,
			  uint64_t dev_end, struct err_rec *e)
{
	uint64_t off, end, nend;
	int seq = 1;

	/* fio's test: any job that is not a pure reader is rounded; a
	 * replay (read_iolog) is not: its log says where it writes */
	if ((!writes && !(rw_dirs(j->io.rw) & (1u << DDIR_TRIM))) ||
	    j->logs.read_iolog)
		return 0;
	off = tf->offset;
	end = off + tf->len;
	if (off >= dev_end)
		return 0;
	if (zi->model != ZBD_NONE)
		seq = zbd_has_seq(tf, zs, off, tf->len);
	if (seq < 0) {
		err_set(e, tf->path, 0, "zonemode", "cannot report the "
			"zones: %s", strerror(-seq));
		return seq;
	}
	if (!seq)
		return 0;
	if (off % zs)
		off += zs - off % zs;
	nend = end / zs * zs;
	if (nend <= off) {
		err_set(e, j->plan.section_file, j->plan.section_line, "size",
			"the region of %s (%" PRIu64
			" bytes from %" PRIu64 ") holds no whole zone of %"
			PRIu64 " bytes; expected at least one zone",
			tf->path, tf->len, tf->offset, zs);
		return -EINVAL;
	}
	if (!t->zbd_rounded && (off != tf->offset || nend != end)) {
		t->zbd_rounded = true;
		t->zbd_rounded_file = (unsigned)(tf - t->files);
		t->zbd_asked_off = tf->offset;
		t->zbd_asked_len = tf->len;
	}
	tf->offset = off;
	tf->len = nend - off;
	return 0;
}

/*
 * The files of a job with several (filename=a:b, nrfiles=): each one's
 * zones its own, as fio keeps them (src/worker/zoned.c: one zoned state
 * per file); iorig asks them to be alike (the same model, zone size,
 * capacity and open zone limit: its report has one geometry per job) and
 * their regions, once rounded, of one length (the generator's file
 * regions are equal). -EINVAL with e when they are not.
 */
static int plan_zbd_alike(const struct target *t, const struct job *j,
			  unsigned i, int model, uint64_t zs, uint64_t cap,
			  unsigned max_open, struct err_rec *e)
{
	if (model == t->zbd_model && zs == t->zbd_size &&
	    cap == t->zbd_cap && max_open == t->zbd_max_open)
		return 0;
	err_set(e, j->plan.section_file, j->plan.section_line, "filename",
		"zonemode=zbd: %s and %s have other zones (model, zone size, "
		"capacity or open zone limit), and iorig runs the files of a "
		"job only on zones alike yet (fio keeps each file's own); "
		"expected files with the same zones, or one job per file",
		t->files[0].path, t->files[i].path);
	return -EINVAL;
}

int target_plan_zbd(struct target *t, const struct job *j, bool writes,
		    struct err_rec *e)
{
	const char *f = j->plan.section_file;
	int line = j->plan.section_line, ret;
	struct zbd_info zi = { 0 };
	uint64_t zs = 0, dev_end, len;
	unsigned i;
	int d;

	if (j->io.zone_mode != ZONE_ZBD)
		return 0;
	t->zbd = true;
	for (i = 0; i < t->nfiles; i++) {
		struct target_file *tf = &t->files[i];
		int model = t->zbd_model;
		uint64_t size = t->zbd_size, cap = t->zbd_cap;
		unsigned max_open = t->zbd_max_open;

		ret = zbd_probe_file(tf, &zi, e);
		if (ret)
			return ret;
		if (zi.model != ZBD_NONE)
			ret = plan_zbd_device(t, tf, j, writes, &zi, &zs,
					      &dev_end, e);
		else
			ret = plan_zbd_emulated(t, tf, j, &zs, &dev_end, e);
		if (ret)
			return ret;
		t->zbd_size = zs;
		t->zbd_model = zi.model;
		if (i && plan_zbd_alike(t, j, i, model, size, cap, max_open,
					e))
			return -EINVAL;
		tf->zbd_end = dev_end;
	}
	if (j->io.job_max_open_zones && !t->zbd_max_open) {
		err_set(e, f, line, "job_max_open_zones", "needs a limit on "
			"the device's open zones (fio's rule); expected "
			"max_open_zones= too");
		return -EINVAL;
	}
	for (d = 0; j->vfy.verify && d < DDIR_NR; d++) { /* not VERIFY_NONE */
		if (!(rw_dirs(j->io.rw) & (1u << d)) || !j->io.bs_min[d] ||
		    !j->io.bs_max[d] || (!(zs % j->io.bs_min[d]) &&
					 !(zs % j->io.bs_max[d])))
			continue;
		err_set(e, f, line, "bs", "%" PRIu64 " does not divide the "
			"zone size %" PRIu64 ": with verify= fio refuses it "
			"(a zone's blocks are read back in whole blocks); "
			"expected a divisor of the zone size",
			zs % j->io.bs_min[d] ? j->io.bs_min[d] :
			j->io.bs_max[d], zs);
		return -EINVAL;
	}
	if ((rw_dirs(j->io.rw) & (1u << DDIR_TRIM)) && !j->logs.read_iolog &&
	    j->io.bs_min[DDIR_TRIM] != zs) {
		err_set(e, f, line, "bs", "the trim block size %" PRIu64
			" is not the zone size %" PRIu64 ": a trim resets "
			"one whole zone (fio refuses it too); expected "
			"bs=,,%" PRIu64, j->io.bs_min[DDIR_TRIM], zs, zs);
		return -EINVAL;
	}
	if (j->io.zoneskip % zs) {
		err_set(e, f, line, "zoneskip", "%" PRIu64 " is not a "
			"multiple of the zone size %" PRIu64, j->io.zoneskip, zs);
		return -EINVAL;
	}
	for (i = 0; i < t->nfiles; i++) {
		struct target_file *tf = &t->files[i];

		ret = zbd_probe_file(tf, &zi, e);
		if (ret)
			return ret;
		ret = plan_zbd_round(t, tf, j, writes, &zi, zs, tf->zbd_end,
				     e);
		if (ret)
			return ret;
	}
	len = t->files[0].len;
	for (i = 1; i < t->nfiles; i++)
		if (t->files[i].len != len && t->zbd_rounded) {
			err_set(e, f, line, "filename", "zonemode=zbd: the "
				"regions of %s and %s hold other numbers of "
				"whole zones (%" PRIu64 " and %" PRIu64
				" bytes), and iorig's files of a job have "
				"regions of one length; expected files "
				"whose regions hold the same zones",
				t->files[0].path, t->files[i].path, len,
				t->files[i].len);
			return -EINVAL;
		}
	if (t->zbd_rounded) {
		t->zbd_asked_region = t->region;
		t->uneven = false;
		t->file_region = len;
		t->region = len * t->nfiles;
	}
	return 0;
}

/* Whether a and b name the same file or device, as planned. */
static bool zbd_same_target(const struct target_file *a,
			const struct target_file *b)
{
	if (a->have_id && b->have_id)
		return a->is_bdev == b->is_bdev && (a->is_bdev ?
			a->rdev == b->rdev : a->dev == b->dev &&
			a->ino == b->ino);
	return !a->have_id && !b->have_id && !strcmp(a->path, b->path);
}

/* The zones [lo, hi) of f's region (zone size zs). */
static void zbd_zones_of(const struct target_file *f, uint64_t zs,
			 uint64_t *lo, uint64_t *hi)
{
	*lo = f->offset / zs * zs;
	*hi = (f->offset + f->len + zs - 1) / zs * zs;
}

/* Jobs i and k on the same file at once see its zones alike; else
 * true with e. */
static bool zbd_share_differs(const struct job *jobs,
			      const struct target *tg, size_t i, size_t k,
			      const char *path, struct err_rec *e)
{
	if (tg[k].zbd_size == tg[i].zbd_size &&
	    tg[k].zbd_cap == tg[i].zbd_cap &&
	    tg[k].zbd_max_open == tg[i].zbd_max_open)
		return false;
	err_set(e, jobs[k].plan.section_file, jobs[k].plan.section_line,
		"zonemode", "jobs '%s' and '%s' run at once on the zones of "
		"%s, which they see otherwise (zone size, capacity or "
		"max_open_zones); fio takes the first job's and drops the "
		"other's without a word; expected the same zonesize=, "
		"zonecapacity= and max_open_zones= (or stonewall between "
		"them)", jobs[i].desc.name, jobs[k].desc.name, path);
	return true;
}

/* Each file of job i: the span of the zones it shares with the jobs of
 * its wait group on the same file (the first job sharing one is
 * counted once in zbd_sharers). */
int target_zbd_share(const struct job *jobs, struct target *tg,
		     size_t njobs, struct err_rec *e)
{
	size_t i, k;
	unsigned fi, fk;

	for (i = 0; i < njobs; i++) {
		if (!tg[i].zbd)
			continue;
		tg[i].zbd_sharers = 1;
		for (fi = 0; fi < tg[i].nfiles; fi++) {
			struct target_file *a = &tg[i].files[fi];
			uint64_t lo, hi, klo, khi;

			zbd_zones_of(a, tg[i].zbd_size, &lo, &hi);
			for (k = 0; k < njobs; k++) {
				if (k == i || !tg[k].zbd ||
				    jobs[k].plan.wait_group !=
				    jobs[i].plan.wait_group)
					continue;
				for (fk = 0; fk < tg[k].nfiles; fk++)
					if (zbd_same_target(a,
							&tg[k].files[fk]))
						break;
				if (fk == tg[k].nfiles)
					continue;
				if (zbd_share_differs(jobs, tg, i, k, a->path,
						      e))
					return -EINVAL;
				zbd_zones_of(&tg[k].files[fk],
					     tg[k].zbd_size, &klo, &khi);
				if (klo < lo)
					lo = klo;
				if (khi > hi)
					hi = khi;
				if (!fi)
					tg[i].zbd_sharers++;
			}
			a->zbd_span_lo = lo;
			a->zbd_span_hi = hi;
		}
	}
	return 0;
}
