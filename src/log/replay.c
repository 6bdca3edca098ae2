// SPDX-License-Identifier: MIT
/*
 * read_iolog replay: reading fio's iolog (replay.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay.h"

int replay_name(struct replay *r, const char *name)
{
	char **v;
	unsigned i;

	for (i = 0; i < r->nnames; i++)
		if (!strcmp(r->names[i], name))
			return (int)i;
	if (r->nnames >= 4096)
		return -E2BIG;
	v = realloc(r->names, (r->nnames + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	r->names = v;
	if (!(v[r->nnames] = strdup(name)))
		return -ENOMEM;
	return (int)r->nnames++;
}

int replay_push(struct replay *r, const struct replay_io *io, size_t *cap)
{
	struct replay_io *v;

	if (r->n == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		v = realloc(r->v, *cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		r->v = v;
	}
	r->v[r->n++] = *io;
	return 0;
}

static int act_of(const char *a)
{
	static const char *const names[] = {
		[RP_READ] = "read", [RP_WRITE] = "write", [RP_TRIM] = "trim",
		[RP_SYNC] = "sync", [RP_DATASYNC] = "datasync" };
	unsigned i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(a, names[i]))
			return (int)i;
	if (!strcmp(a, "add") || !strcmp(a, "open") || !strcmp(a, "close"))
		return 100;
	if (!strcmp(a, "wait"))
		return 101;
	return -1;
}

/* A whole unsigned decimal number */
static int num(const char *s, uint64_t *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return *end || errno ? -1 : 0;
}

/* One line of fio's iolog: [TIME] FILE ACTION [OFFSET LENGTH]. */
struct iolog_line {
	uint64_t t, off, len;
	const char *file;
	int act;		/* RP_*, 100: add/open/close, 101: wait */
};

/* The words of a line into l; -1: not a line of this version. */
static int iolog_parse(char **w, unsigned nw, unsigned version,
		       struct iolog_line *l)
{
	unsigned k = 0;

	l->t = 0;
	if (version == 3 && (nw < 3 || num(w[k++], &l->t)))
		return -1;
	if (nw - k != 2 && nw - k != 4)
		return -1;
	l->file = w[k];
	l->act = act_of(w[k + 1]);
	if (l->act < 0 || (l->act == 100 && nw - k != 2))
		return -1;
	if (nw - k == 4 && (num(w[k + 2], &l->off) ||
			    num(w[k + 3], &l->len) || l->len > UINT32_MAX))
		return -1;
	if (nw - k == 2) {
		if (l->act != 100 && l->act != RP_SYNC &&
		    l->act != RP_DATASYNC)
			return -1;
		l->off = l->len = 0;
	}
	return 0;
}

/* Reading one iolog into a replay list. */
struct iolog_reader {
	const struct job *j;
	struct replay *r;
	const char *path;
	unsigned version, lineno;
	uint64_t last_t, due, scale;
	bool first_t;
	size_t cap;
	char *msg;
	size_t msglen;
};

/*
 * A parsed line into the list: its time, a wait, its file, the job's
 * replay_skip, replay_scale and replay_align. Returns 0, -errno with msg
 * set, or 1 when the line is malformed (an I/O of no length).
 */
static int iolog_add(struct iolog_reader *rd, const struct iolog_line *l)
{
	const struct job *j = rd->j;
	struct replay *r = rd->r;
	uint64_t off = l->off;
	int act = l->act, fi, ret;

	if (rd->version == 3) {
		/* Time going back adds no delay (fio's meaning) */
		if (!rd->first_t && l->t > rd->last_t)
			rd->due += (l->t - rd->last_t) * 100 / rd->scale;
		rd->first_t = false;
		rd->last_t = l->t;
	}
	if (act == 101) {		/* wait: OFFSET is the delay */
		rd->due += off * 100 / rd->scale;
		return 0;
	}
	fi = replay_name(r, j->logs.replay_redirect ? j->logs.replay_redirect :
			 l->file);
	if (fi < 0) {
		snprintf(rd->msg, rd->msglen, "read_iolog %s:%u: %s",
			 rd->path, rd->lineno, fi == -E2BIG ? "more than "
			 "4096 files" : "out of memory");
		return fi;
	}
	if (act == 100 || (act <= RP_TRIM &&
			   (j->logs.replay_skip & (1u << act))) ||
	    (act > RP_TRIM && (j->logs.replay_skip & (1u << DDIR_NR))))
		return 0;
	if (act <= RP_TRIM) {
		if (j->logs.replay_scale)
			off /= j->logs.replay_scale;
		if (j->logs.replay_align)
			off &= ~(j->logs.replay_align - 1);
		if (!l->len)
			return 1;
		if (off + l->len > r->max_end)
			r->max_end = off + l->len;
		if (l->len > r->max_len)
			r->max_len = (uint32_t)l->len;
		r->dirs |= 1u << act;
	}
	ret = replay_push(r, &(struct replay_io){
			.due_us = j->logs.replay_no_stall ? 0 : rd->due,
			.off = off, .len = (uint32_t)l->len,
			.file = (uint16_t)fi, .act = (uint8_t)act }, &rd->cap);
	if (ret)
		snprintf(rd->msg, rd->msglen, "read_iolog %s: out of memory",
			 rd->path);
	return ret;
}

/* The version its first line names (2 or 3), or 0: not fio's iolog. */
static unsigned iolog_version(FILE *f)
{
	char line[8192];

	if (!fgets(line, sizeof(line), f) ||
	    (strncmp(line, "fio version 2 iolog", 19) &&
	     strncmp(line, "fio version 3 iolog", 19)))
		return 0;
	return line[12] == '3' ? 3 : 2;
}

/* The lines after the header; 0 or -errno with msg set. */
static int iolog_lines(struct iolog_reader *rd, FILE *f)
{
	char line[8192], *w[6], *save, *p;
	struct iolog_line l;
	unsigned nw;
	int ret = 0;

	while (!ret && fgets(line, sizeof(line), f)) {
		rd->lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(rd->msg, rd->msglen, "read_iolog %s:%u: "
				 "line too long", rd->path, rd->lineno);
			return -EINVAL;
		}
		nw = 0;
		for (p = strtok_r(line, " \t\r\n", &save); p && nw < 6;
		     p = strtok_r(NULL, " \t\r\n", &save))
			w[nw++] = p;
		if (!nw)
			continue;
		ret = iolog_parse(w, nw, rd->version, &l) ? 1 :
		      iolog_add(rd, &l);
		if (ret != 1)
			continue;
		ret = -EINVAL;
		snprintf(rd->msg, rd->msglen, "read_iolog %s:%u: expected %s"
			 "FILE ACTION [OFFSET LENGTH] (ACTION read, write, "
			 "trim, sync, datasync, add, open, close%s)", rd->path,
			 rd->lineno, rd->version == 3 ? "TIME " : "",
			 rd->version == 2 ? ", wait" : "");
	}
	if (!ret && ferror(f)) {
		ret = -EIO;
		snprintf(rd->msg, rd->msglen, "read_iolog %s: %s", rd->path,
			 strerror(EIO));
	}
	return ret;
}

int replay_load(struct replay *r, const struct job *j, char *msg,
		size_t msglen)
{
	struct iolog_reader rd = { .j = j, .r = r, .path = j->logs.read_iolog,
				   .lineno = 1, .first_t = true,
				   .msg = msg, .msglen = msglen };
	const char *path = j->logs.read_iolog;
	FILE *f = fopen(path, "r");
	int ret = 0;
	bool swap;

	memset(r, 0, sizeof(*r));
	if (f && blktrace_probe(path, &swap) == 1) {
		fclose(f);
		return blktrace_load(r, j, path, swap, msg, msglen);
	}
	if (!f) {
		snprintf(msg, msglen, "read_iolog %s: %s", path,
			 strerror(errno));
		return -errno;
	}
	rd.version = iolog_version(f);
	if (!rd.version) {
		snprintf(msg, msglen, "read_iolog %s: not fio's iolog "
			 "version 2 or 3 (its first line says which) nor a "
			 "binary blktrace trace", path);
		fclose(f);
		return -EINVAL;
	}
	rd.scale = j->logs.replay_time_scale ? j->logs.replay_time_scale : 100;
	if (j->logs.replay_redirect &&
	    replay_name(r, j->logs.replay_redirect) < 0)
		ret = -ENOMEM;
	if (!ret)
		ret = iolog_lines(&rd, f);
	fclose(f);
	if (!ret && !r->n) {
		ret = -EINVAL;
		snprintf(msg, msglen, "read_iolog %s: no I/O to replay", path);
	}
	if (ret)
		replay_free(r);
	return ret;
}

void replay_free(struct replay *r)
{
	unsigned i;

	for (i = 0; i < r->nnames; i++)
		free(r->names[i]);
	free(r->names);
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/* The options of a replaying job together; a merge's traces merged. */
static int replay_options(struct job *j, struct err_rec *e)
{
	if (j->logs.replay_align & (j->logs.replay_align - 1)) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"replay_align",
			"%" PRIu64 " is not a power of 2", j->logs.replay_align);
		return -EINVAL;
	}
	if (j->vfy.verify || j->vfy.serialize_overlap) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"read_iolog",
			"a replay cannot verify or serialize_overlap: the "
			"log says what is written where");
		return -EINVAL;
	}
	if (j->logs.merge_blktrace_file)
		return blktrace_merge(j, e);
	if (strchr(j->logs.read_iolog, ':') &&
	    access(j->logs.read_iolog, F_OK)) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"read_iolog",
			"'%s' names several logs: fio gives them to the job's "
			"clones in turn (numjobs), which iorig does not do; "
			"give each job its log, or merge blktrace traces with "
			"merge_blktrace_file", j->logs.read_iolog);
		return -EINVAL;
	}
	return 0;
}

/* The log's files as the job's filename list. */
static int replay_files(struct job *j, const struct replay *r,
			struct err_rec *e)
{
	char *list;
	size_t n = 0;
	unsigned i;

	for (i = 0; i < r->nnames; i++)
		n += strlen(r->names[i]) + 1;
	list = malloc(n ? n : 1);
	if (!list)
		return -ENOMEM;
	list[0] = '\0';
	for (i = 0; i < r->nnames; i++) {
		if (strchr(r->names[i], ':')) {
			err_set(e, j->plan.section_file, j->plan.section_line,
				"read_iolog", "file name '%s' has a ':' "
				"(the separator of filename lists)",
				r->names[i]);
			free(list);
			return -EINVAL;
		}
		if (i)
			strcat(list, ":");
		strcat(list, r->names[i]);
	}
	free(j->target.filename);
	j->target.filename = list;
	j->target.nrfiles = r->nnames;
	return 0;
}

/* The job's rw, size and largest block from what the log does. */
static int replay_shape(struct job *j, const struct replay *r,
			struct err_rec *e)
{
	unsigned i;

	if ((r->dirs & (1u << DDIR_READ)) && (r->dirs & (1u << DDIR_TRIM))) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"read_iolog",
			"%s has reads and trims: iorig replays reads and "
			"writes, or writes and trims", j->logs.read_iolog);
		return -EINVAL;
	}
	if (r->dirs & (1u << DDIR_TRIM))
		j->io.rw = RW_TRIMWRITE;
	else if (r->dirs == (1u << DDIR_WRITE))
		j->io.rw = RW_WRITE;
	else if (r->dirs & (1u << DDIR_WRITE))
		j->io.rw = RW_RW;
	else
		j->io.rw = RW_READ;
	/* rounded up to the smallest block size: a region is a whole
	 * number of those (target.c), and a log's furthest I/O (a trace's:
	 * any multiple of 512) need not end on one */
	if (!j->target.size && !j->target.filesize_min) {
		uint64_t u = j->io.bs_min[0], end = r->max_end;

		for (i = 1; i < DDIR_NR; i++)
			if (j->io.bs_min[i] < u)
				u = j->io.bs_min[i];
		if (u && end % u)
			end += u - end % u;
		j->target.size = end * r->nnames;
	}
	/* the buffers hold the longest I/O of the log */
	for (i = 0; i < DDIR_NR; i++)
		if (j->io.bs_max[i] < r->max_len)
			j->io.bs_max[i] = r->max_len;
	return 0;
}

int replay_plan(struct job *j, struct err_rec *e)
{
	struct replay r;
	char msg[512];
	int ret;

	if (!j->logs.read_iolog && j->logs.merge_blktrace_file) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"merge_blktrace_file", "needs read_iolog=A:B:... (the "
			"blktrace traces to merge)");
		return -EINVAL;
	}
	if (!j->logs.read_iolog)
		return 0;
	ret = replay_options(j, e);
	if (ret)
		return ret;
	ret = replay_load(&r, j, msg, sizeof(msg));
	if (ret) {
		err_set(e, j->plan.section_file, j->plan.section_line,
			"read_iolog", "%s", msg);
		return ret;
	}
	ret = replay_files(j, &r, e);
	if (!ret)
		ret = replay_shape(j, &r, e);
	replay_free(&r);
	return ret;
}
