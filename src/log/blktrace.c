// SPDX-License-Identifier: MIT
/*
 * Binary blktrace traces for read_iolog, and merge_blktrace_* (replay.h).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "replay.h"
#include "door.h"

#define BT_MAGIC	0x65617400u
#define BT_VERSION	0x07u
#define BT_REC		48
/* action: the low 16 bits the event, the high 16 its categories */
#define BT_QUEUE	1u
#define BT_CAT(bit)	(1u << (16 + (bit)))
#define BT_READ		BT_CAT(0)
#define BT_WRITE	BT_CAT(1)
#define BT_FLUSH	BT_CAT(2)
#define BT_NOTIFY	BT_CAT(10)
#define BT_DISCARD	BT_CAT(13)
/* the kernel's dev_t in a trace: 12 bits of major, 20 of minor */
#define BT_MINORBITS	20

struct bt_rec {
	uint32_t magic, seq;
	uint64_t time, sector;
	uint32_t bytes, action, pid, device, cpu;
	uint16_t error, pdu_len;
};

/* A trace being read: the record number and byte offset for messages */
struct bt_file {
	FILE *f;
	const char *path;
	bool swap;
	uint64_t size, pos;
	unsigned long recno;
};

static uint32_t get32(const unsigned char *p, bool swap)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static uint64_t get64(const unsigned char *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

static uint16_t get16(const unsigned char *p, bool swap)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return swap ? __builtin_bswap16(v) : v;
}

static void decode(struct bt_rec *t, const unsigned char *b, bool swap)
{
	t->magic = get32(b, swap);
	t->seq = get32(b + 4, swap);
	t->time = get64(b + 8, swap);
	t->sector = get64(b + 16, swap);
	t->bytes = get32(b + 24, swap);
	t->action = get32(b + 28, swap);
	t->pid = get32(b + 32, swap);
	t->device = get32(b + 36, swap);
	t->cpu = get32(b + 40, swap);
	t->error = get16(b + 44, swap);
	t->pdu_len = get16(b + 46, swap);
}

/* The record in this machine's byte order, as blktrace writes it here */
static void encode(unsigned char *b, const struct bt_rec *t)
{
	memcpy(b, &t->magic, 4);
	memcpy(b + 4, &t->seq, 4);
	memcpy(b + 8, &t->time, 8);
	memcpy(b + 16, &t->sector, 8);
	memcpy(b + 24, &t->bytes, 4);
	memcpy(b + 28, &t->action, 4);
	memcpy(b + 32, &t->pid, 4);
	memcpy(b + 36, &t->device, 4);
	memcpy(b + 40, &t->cpu, 4);
	memcpy(b + 44, &t->error, 2);
	memcpy(b + 46, &t->pdu_len, 2);
}

int blktrace_probe(const char *path, bool *swap)
{
	unsigned char b[BT_REC];
	FILE *f = fopen(path, "rb");
	size_t n;

	*swap = false;
	if (!f)
		return 0;
	n = fread(b, 1, sizeof(b), f);
	fclose(f);
	if (n != sizeof(b))
		return 0;
	if ((get32(b, false) & 0xffffff00u) == BT_MAGIC)
		return 1;
	if ((get32(b, true) & 0xffffff00u) == BT_MAGIC) {
		*swap = true;
		return 1;
	}
	return 0;
}

static int bt_open(struct bt_file *bf, const char *path, bool swap,
		   char *msg, size_t msglen)
{
	struct stat st;

	memset(bf, 0, sizeof(*bf));
	bf->path = path;
	bf->swap = swap;
	bf->f = fopen(path, "rb");
	if (!bf->f || fstat(fileno(bf->f), &st)) {
		int err = errno;

		snprintf(msg, msglen, "read_iolog %s: %s", path,
			 strerror(err));
		if (bf->f)
			fclose(bf->f);
		bf->f = NULL;
		return -err;
	}
	bf->size = (uint64_t)st.st_size;
	return 0;
}

static int bt_rewind(struct bt_file *bf)
{
	bf->pos = 0;
	bf->recno = 0;
	return fseeko(bf->f, 0, SEEK_SET) ? -errno : 0;
}

/* The next record (its pdu skipped): 1, 0 at the end, or -errno with msg
 * naming the file and the record. */
static int bt_next(struct bt_file *bf, struct bt_rec *t, char *msg,
		   size_t msglen)
{
	unsigned char b[BT_REC];
	size_t n = fread(b, 1, sizeof(b), bf->f);

	if (!n && feof(bf->f))
		return 0;
	bf->recno++;
	if (n != sizeof(b)) {
		if (ferror(bf->f)) {
			snprintf(msg, msglen, "read_iolog %s: record %lu: %s",
				 bf->path, bf->recno, strerror(EIO));
			return -EIO;
		}
		snprintf(msg, msglen, "read_iolog %s: record %lu (byte %"
			 PRIu64 ") is truncated: %zu of its %u bytes",
			 bf->path, bf->recno, bf->pos, n, BT_REC);
		return -EINVAL;
	}
	decode(t, b, bf->swap);
	if ((t->magic & 0xffffff00u) != BT_MAGIC ||
	    (t->magic & 0xffu) != BT_VERSION) {
		snprintf(msg, msglen, "read_iolog %s: record %lu (byte %"
			 PRIu64 "): %s 0x%08" PRIx32 " (a blktrace record "
			 "starts with 0x%08x)", bf->path, bf->recno, bf->pos,
			 (t->magic & 0xffffff00u) != BT_MAGIC ? "bad magic" :
			 "unknown version", t->magic, BT_MAGIC | BT_VERSION);
		return -EINVAL;
	}
	if (bf->pos + BT_REC + t->pdu_len > bf->size) {
		snprintf(msg, msglen, "read_iolog %s: record %lu (byte %"
			 PRIu64 "): its pdu of %u bytes runs past the end of "
			 "the file", bf->path, bf->recno, bf->pos, t->pdu_len);
		return -EINVAL;
	}
	if (t->pdu_len && fseeko(bf->f, t->pdu_len, SEEK_CUR)) {
		snprintf(msg, msglen, "read_iolog %s: record %lu: %s",
			 bf->path, bf->recno, strerror(errno));
		return -EIO;
	}
	bf->pos += BT_REC + t->pdu_len;
	return 1;
}

/* The block device in dir (depth levels down) numbered rdev: its path in
 * out, true; symbolic links are not followed. */
static bool find_dev(const char *dir, dev_t rdev, char *out, size_t outlen,
		     unsigned depth)
{
	char path[PATH_MAX];
	struct dirent *d;
	struct stat st;
	bool found = false;
	DIR *D = opendir(dir);

	if (!D)
		return false;
	while (!found && (d = readdir(D))) {
		if (d->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     d->d_name) >= sizeof(path) ||
		    lstat(path, &st))
			continue;
		if (S_ISBLK(st.st_mode) && st.st_rdev == rdev) {
			snprintf(out, outlen, "%s", path);
			found = true;
		} else if (S_ISDIR(st.st_mode) && depth) {
			found = find_dev(path, rdev, out, outlen, depth - 1);
		}
	}
	closedir(D);
	return found;
}

/* The job's file index of a traced device: replay_redirect, else its
 * node in /dev. */
struct dev_map {
	uint32_t dev[64];
	int idx[64];
	unsigned n;
};

static int dev_file(struct replay *r, const struct job *j,
		    struct dev_map *m, uint32_t device, char *msg,
		    size_t msglen, const struct bt_file *bf)
{
	char path[PATH_MAX];
	unsigned maj = device >> BT_MINORBITS;
	unsigned min = device & ((1u << BT_MINORBITS) - 1);
	unsigned i;
	int fi;

	if (j->logs.replay_redirect)
		return replay_name(r, j->logs.replay_redirect);
	for (i = 0; i < m->n; i++)
		if (m->dev[i] == device)
			return m->idx[i];
	if (!find_dev("/dev", makedev(maj, min), path, sizeof(path), 3)) {
		snprintf(msg, msglen, "read_iolog %s: record %lu: the traced "
			 "device %u:%u is not in /dev on this machine (set "
			 "replay_redirect to the device to replay on)",
			 bf->path, bf->recno, maj, min);
		return -ENODEV;
	}
	fi = replay_name(r, path);
	if (fi >= 0 && m->n < 64) {
		m->dev[m->n] = device;
		m->idx[m->n++] = fi;
	}
	return fi;
}

int blktrace_load(struct replay *r, const struct job *j, const char *path,
		  bool swap, char *msg, size_t msglen)
{
	struct bt_file bf;
	struct bt_rec t;
	struct dev_map map = { .n = 0 };
	uint64_t last_t = 0, delay, due = 0, off, len;
	uint64_t scale = j->logs.replay_time_scale ?: 100;
	size_t cap = 0;
	int ret, fi, act;

	memset(r, 0, sizeof(*r));
	ret = bt_open(&bf, path, swap, msg, msglen);
	while (!ret && (ret = bt_next(&bf, &t, msg, msglen)) == 1) {
		ret = 0;
		if ((t.action & 0xffffu) != BT_QUEUE)
			continue;
		if (t.action & BT_NOTIFY)
			continue;
		/* fio's delay: the time since the previous queue event (none
		 * after a time of 0, or going back), scaled */
		delay = 0;
		if (last_t && !j->logs.replay_no_stall && t.time >= last_t) {
			unsigned __int128 d = (unsigned __int128)
				(t.time - last_t) * 100 / scale;

			delay = d > UINT64_MAX ? UINT64_MAX : (uint64_t)d;
		}
		last_t = t.time;
		len = t.bytes;
		if (j->logs.replay_align)
			len = (len + j->logs.replay_align - 1) &
			      ~(j->logs.replay_align - 1);
		if (t.action & BT_DISCARD)
			act = RP_TRIM;
		else if (t.action & BT_FLUSH)
			act = RP_SYNC;
		else
			act = t.action & BT_WRITE ? RP_WRITE : RP_READ;
		if (act == RP_READ || act == RP_WRITE) {
			fi = dev_file(r, j, &map, t.device, msg, msglen, &bf);
			if (fi < 0) {
				ret = fi;
				break;
			}
		}
		if (j->logs.replay_skip &
		    (1u << (act == RP_SYNC ? DDIR_NR : act)))
			continue;
		if (act != RP_SYNC && !len)
			continue;	/* fio ignores zero-byte I/Os */
		fi = dev_file(r, j, &map, t.device, msg, msglen, &bf);
		if (fi < 0) {
			ret = fi;
			break;
		}
		if (act == RP_SYNC) {
			off = len = 0;
		} else {
			if (len > UINT32_MAX ||
			    t.sector > ((uint64_t)INT64_MAX - len) / 512) {
				snprintf(msg, msglen, "read_iolog %s: record "
					 "%lu: sector %" PRIu64 " is past the "
					 "largest offset", path, bf.recno,
					 t.sector);
				ret = -EINVAL;
				break;
			}
			off = t.sector * 512;
			if (j->logs.replay_scale)
				off /= j->logs.replay_scale;
			if (j->logs.replay_align)
				off &= ~(j->logs.replay_align - 1);
			if (off + len > r->max_end)
				r->max_end = off + len;
			if (len > r->max_len)
				r->max_len = (uint32_t)len;
			r->dirs |= 1u << act;
		}
		due = due > UINT64_MAX - delay / 1000 ? UINT64_MAX :
		      due + delay / 1000;
		ret = replay_push(r, &(struct replay_io){
				.due_us = due, .off = off,
				.len = (uint32_t)len, .file = (uint16_t)fi,
				.act = (uint8_t)act }, &cap);
		if (ret)
			snprintf(msg, msglen, "read_iolog %s: out of memory",
				 path);
	}
	if (bf.f)
		fclose(bf.f);
	if (!ret && !r->n) {
		ret = -EINVAL;
		snprintf(msg, msglen, "read_iolog %s: no I/O to replay (a "
			 "blktrace trace's queue events of reads, writes, "
			 "discards and flushes)", path);
	}
	if (ret)
		replay_free(r);
	return ret;
}

/* merge_blktrace_scalars / _iters: up to 64 numbers separated by ':';
 * the values before the first 0 count, as fio counts them. */
static int num_list(const char *s, long *v, unsigned *n, const char *opt,
		    const struct job *j, struct err_rec *e)
{
	char *end;
	double d;

	*n = 0;
	if (!s || !*s)
		return 0;
	for (;;) {
		errno = 0;
		d = strtod(s, &end);
		if (end == s || errno || (*end && *end != ':') || d < 0 ||
		    d > 1e9 || *n >= 64) {
			err_set(e, j->plan.section_file, j->plan.section_line,
				opt,
				"'%s': expected up to 64 numbers (0 or more) "
				"separated by ':', one per file of read_iolog",
				s);
			return -EINVAL;
		}
		if (d == 0)
			return 0;
		v[(*n)++] = (long)d;
		if (!*end)
			return 0;
		s = end + 1;
	}
}

/* One trace of a merge */
struct cursor {
	struct bt_file bf;
	struct bt_rec t;	/* its next queue event, time scaled */
	uint64_t last_raw;	/* the time of the last record read */
	uint64_t length;	/* one pass: its last record's time */
	long scalar, passes, pass;
	uint64_t in_pass;	/* events read in this pass */
};

/* The cursor's next queue event of a read, write or discard: 1, 0 at the
 * end of the pass, -errno with msg. */
static int cursor_next(struct cursor *c, char *msg, size_t msglen)
{
	int ret;

	while ((ret = bt_next(&c->bf, &c->t, msg, msglen)) == 1) {
		c->last_raw = c->t.time;
		if ((c->t.action & 0xffffu) == BT_QUEUE &&
		    (c->t.action & (BT_READ | BT_WRITE | BT_DISCARD))) {
			c->t.time = (c->t.time + (uint64_t)c->pass *
				     c->length) * (uint64_t)c->scalar / 100;
			return 1;
		}
	}
	if (!ret && !c->length)
		c->length = c->last_raw;
	return ret;
}

/* The cursor's next event over its passes: 1, 0 when done, -errno */
static int cursor_advance(struct cursor *c, char *msg, size_t msglen)
{
	int ret;

	while ((ret = cursor_next(c, msg, msglen)) == 0) {
		/* a pass without events: so would the next ones be */
		if (!c->in_pass || ++c->pass >= c->passes)
			return 0;
		c->in_pass = 0;
		if ((ret = bt_rewind(&c->bf))) {
			snprintf(msg, msglen, "read_iolog %s: %s", c->bf.path,
				 strerror(-ret));
			return ret;
		}
	}
	if (ret == 1)
		c->in_pass++;
	return ret;
}

/*
 * The traces of list (read_iolog's, cut at ':' in place: the cursors
 * keep their names) opened as cursors cs[0..*nr), each fenced in `in`
 * (the merge replaces none of them).
 */
static int merge_traces(struct job *j, char *list, struct cursor *cs,
			unsigned *nr, struct door_fence *in,
			struct err_rec *e)
{
	char msg[512], *p, *save;
	bool swap;
	int ret;

	for (p = strtok_r(list, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
		if (*nr == 64) {
			err_set(e, j->plan.section_file, j->plan.section_line,
				"read_iolog", "more than 64 traces to merge");
			return -EINVAL;
		}
		if (blktrace_probe(p, &swap) != 1) {
			err_set(e, j->plan.section_file, j->plan.section_line,
				"merge_blktrace_file", "read_iolog %s: not a "
				"blktrace trace (merge_blktrace_file merges "
				"blktrace traces only)", p);
			return -EINVAL;
		}
		ret = bt_open(&cs[*nr].bf, p, swap, msg, sizeof(msg));
		if (ret) {
			err_set(e, j->plan.section_file, j->plan.section_line,
				"merge_blktrace_file", "%s", msg);
			return ret;
		}
		snprintf(msg, sizeof(msg), "one of the traces it merges "
			 "('%s', read_iolog)", p);
		if (door_fence_add(in, p, msg)) {
			err_set(e, j->plan.section_file, j->plan.section_line,
				"merge_blktrace_file", "out of memory");
			return -ENOMEM;
		}
		(*nr)++;
	}
	return 0;
}

/* The cursor's next event, its trace closed when it has none left. */
static int merge_step(struct cursor *c, char *msg, size_t msglen)
{
	int ret = cursor_advance(c, msg, msglen);

	if (!ret) {
		fclose(c->bf.f);
		c->bf.f = NULL;
	}
	return ret < 0 ? ret : 0;
}

/* Every cursor's events, the earliest first, into f; 0 or -errno. */
static int merge_events(struct cursor *cs, unsigned nr, FILE *f, char *msg,
			size_t msglen)
{
	unsigned char b[BT_REC];
	unsigned i, best;
	int ret;

	for (;;) {
		best = nr;
		for (i = 0; i < nr; i++)
			if (cs[i].bf.f && (best == nr ||
					   cs[i].t.time < cs[best].t.time))
				best = i;
		if (best == nr)
			return 0;
		cs[best].t.pdu_len = 0;
		encode(b, &cs[best].t);
		fwrite(b, 1, sizeof(b), f);
		ret = merge_step(&cs[best], msg, msglen);
		if (ret)
			return ret;
	}
}

int blktrace_merge(struct job *j, struct err_rec *e)
{
	long scal[64], iters[64];
	unsigned nscal, niter, nr = 0, i;
	struct cursor *cs = NULL;
	struct door_out out = { .fd = -1 };
	struct door_fence *in = door_fence_new();
	char msg[512], *list = NULL, *p;
	bool opened = false;
	int ret;

	ret = num_list(j->logs.merge_blktrace_scalars, scal, &nscal,
		       "merge_blktrace_scalars", j, e);
	if (!ret)
		ret = num_list(j->logs.merge_blktrace_iters, iters, &niter,
			       "merge_blktrace_iters", j, e);
	if (ret)
		return ret;
	list = strdup(j->logs.read_iolog);
	cs = calloc(64, sizeof(*cs));
	if (!list || !cs || !in) {
		ret = -ENOMEM;
		err_set(e, j->plan.section_file, j->plan.section_line,
			"merge_blktrace_file", "out of memory");
		goto out;
	}
	ret = merge_traces(j, list, cs, &nr, in, e);
	if (ret)
		goto out;
	if ((nscal && nscal != nr) || (niter && niter != nr)) {
		ret = -EINVAL;
		err_set(e, j->plan.section_file, j->plan.section_line, nscal &&
			nscal !=
			nr ? "merge_blktrace_scalars" : "merge_blktrace_iters",
			"%u values for the %u traces read_iolog names",
			nscal && nscal != nr ? nscal : niter, nr);
		goto out;
	}
	for (i = 0; i < nr; i++) {
		cs[i].scalar = nscal ? scal[i] : 100;
		cs[i].passes = niter && iters[i] > 1 ? iters[i] : 1;
		ret = merge_step(&cs[i], msg, sizeof(msg));
		if (ret)
			goto bad;
	}
	/* the merge replaces none of the traces it reads */
	ret = door_open(&out, j->logs.merge_blktrace_file,
			"merge_blktrace_file", DOOR_WHOLE, in, e);
	if (ret)
		goto out;
	opened = true;
	ret = merge_events(cs, nr, out.f, msg, sizeof(msg));
	if (ret)
		goto bad;
	opened = false;
	ret = door_close(&out);
	if (ret) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"merge_blktrace_file", "%s: %s", j->logs.merge_blktrace_file,
			strerror(-ret));
		goto out;
	}
	/* The merged trace is what the job replays (once: a copy of the
	 * job planned again reads it, not the traces) */
	p = j->logs.merge_blktrace_file;
	j->logs.merge_blktrace_file = NULL;
	free(j->logs.read_iolog);
	j->logs.read_iolog = p;
	ret = 0;
	goto out;
bad:
	err_set(e, j->plan.section_file, j->plan.section_line,
		"merge_blktrace_file", "%s", msg);
out:
	if (opened)
		door_discard(&out);
	for (i = 0; cs && i < nr; i++)
		if (cs[i].bf.f)
			fclose(cs[i].bf.f);
	free(cs);
	free(list);
	door_fence_free(in);
	return ret;
}
