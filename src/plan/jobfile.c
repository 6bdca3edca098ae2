// SPDX-License-Identifier: MIT
/*
 * Job file reader: text -> struct raw_doc. Lines are read one at a time
 * into a fixed buffer, so hostile input (no newlines, endless streams)
 * costs bounded memory and ends in a clear error rather than a crash.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "defines.h"
#include "jobfile.h"
#include "path.h"

#define STDIN_NAME	"<stdin>"
#define INCLUDE_WORD	"include"
#define VAR_EXPECTED \
	"expected $ncpus, $pagesize, $mb_memory or ${ENV}"

/* One file (or string) being read; the include chain is a stack of these. */
struct jf_frame {
	const char *name;	/* interned */
	int has_id;		/* dev/ino valid (strings have none) */
	dev_t dev;
	ino_t ino;
};

/* A source of lines: a stream, or a NUL-terminated string. */
struct jf_src {
	FILE *fp;
	const char *text;
	const char *name;	/* interned; used in messages */
	int line;		/* number of the line last read */
};

struct jf_ctx {
	struct raw_doc *doc;
	struct err_rec *e;
	long cur;		/* index of the current section, -1: none */
	int depth;		/* frames in use */
	struct jf_frame frames[JOBFILE_MAX_INCLUDE + 1];
	/* A line, its optional '\r' and the NUL. Shared by all include
	 * levels: a line is consumed before the next one is read. */
	char line[JOBFILE_MAX_LINE + 2];
	char xbuf[JOBFILE_MAX_LINE + 1];	/* an expanded value */
	char path[PATH_MAX];		/* a resolved include path */
};

static int jf_parse_src(struct jf_ctx *c, struct jf_src *s);

/* ---- raw_doc building ---- */

/* Make room for one more element of size `size` in *arr. */
static int grow(void **arr, size_t n, size_t *cap, size_t size)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	p = reallocarray(*arr, ncap, size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

const char *raw_doc_intern(struct raw_doc *doc, const char *file)
{
	char *copy;
	size_t i;

	/* Pointer equality first: most callers pass an interned name. */
	for (i = 0; i < doc->nfiles; i++)
		if (doc->files[i] == file)
			return file;
	for (i = 0; i < doc->nfiles; i++)
		if (!strcmp(doc->files[i], file))
			return doc->files[i];
	if (grow((void **)&doc->files, doc->nfiles, &doc->capfiles,
		 sizeof(*doc->files)))
		return NULL;
	copy = strdup(file);
	if (!copy)
		return NULL;
	doc->files[doc->nfiles++] = copy;
	return copy;
}

struct raw_section *raw_doc_add_section(struct raw_doc *doc,
					const char *name, const char *file,
					int line)
{
	struct raw_section *sec;
	const char *ifile;
	char *copy;

	if (doc->nsecs >= JOBFILE_MAX_SECTIONS) {
		errno = E2BIG;
		return NULL;
	}
	ifile = raw_doc_intern(doc, file);
	if (!ifile)
		goto err_nomem;
	if (grow((void **)&doc->secs, doc->nsecs, &doc->capsecs,
		 sizeof(*doc->secs)))
		goto err_nomem;
	copy = strdup(name);
	if (!copy)
		goto err_nomem;
	sec = &doc->secs[doc->nsecs++];
	memset(sec, 0, sizeof(*sec));
	sec->name = copy;
	sec->is_global = !strncmp(name, "global", 6);
	sec->file = ifile;
	sec->line = line;
	return sec;

err_nomem:
	errno = ENOMEM;
	return NULL;
}

int raw_section_add(struct raw_doc *doc, struct raw_section *sec,
		    const char *name, const char *value, const char *file,
		    int line)
{
	struct raw_opt *o;
	const char *ifile;
	char *ncopy, *vcopy = NULL;

	if (sec->nopts >= JOBFILE_MAX_OPTIONS)
		return -E2BIG;
	ifile = raw_doc_intern(doc, file);
	if (!ifile)
		return -ENOMEM;
	if (grow((void **)&sec->opts, sec->nopts, &sec->capopts,
		 sizeof(*sec->opts)))
		return -ENOMEM;
	ncopy = strdup(name);
	if (!ncopy)
		goto err;
	if (value) {
		vcopy = strdup(value);
		if (!vcopy)
			goto err_name;
	}
	o = &sec->opts[sec->nopts++];
	o->name = ncopy;
	o->value = vcopy;
	o->file = ifile;
	o->line = line;
	return 0;

err_name:
	free(ncopy);
err:
	return -ENOMEM;
}

void raw_doc_free(struct raw_doc *doc)
{
	size_t i, j;

	for (i = 0; i < doc->nsecs; i++) {
		struct raw_section *sec = &doc->secs[i];

		for (j = 0; j < sec->nopts; j++) {
			free(sec->opts[j].name);
			free(sec->opts[j].value);
		}
		free(sec->opts);
		free(sec->name);
	}
	free(doc->secs);
	for (i = 0; i < doc->nfiles; i++)
		free(doc->files[i]);
	free(doc->files);
	memset(doc, 0, sizeof(*doc));
}

/* ---- variable expansion ---- */

struct xout {
	char *buf;
	size_t len, cap;
	bool var;		/* a jf_vars value was put in */
};

static int xput(struct xout *o, const char *s, size_t n)
{
	if (n >= o->cap - o->len)
		return -E2BIG;
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
	return 0;
}

static long long var_ncpus(void)
{
	return sysconf(_SC_NPROCESSORS_ONLN);
}

static long long var_pagesize(void)
{
	return sysconf(_SC_PAGESIZE);
}

static long long var_mb_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long psize = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || psize <= 0)
		return -1;
	return (long long)(((unsigned long long)pages * psize) >> 20);
}

static const struct {
	const char *name;
	long long (*get)(void);
} jf_vars[] = {
	{ "ncpus",	var_ncpus },
	{ "pagesize",	var_pagesize },
	{ "mb_memory",	var_mb_memory },
};

static bool is_jf_var(const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(jf_vars) / sizeof(jf_vars[0]); i++)
		if (strlen(jf_vars[i].name) == n &&
		    !memcmp(jf_vars[i].name, name, n))
			return true;
	return false;
}

static int is_word_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}


/*
 * *pp points at "${"; on success it is left after the '}'. ${NAME} must be
 * set; ${NAME:-TEXT} gives TEXT (taken literally) when NAME is unset or
 * empty, so a job file can have a default target.
 */
static int expand_env(struct xout *o, const char **pp, char *why,
		      size_t whylen)
{
	const char *name = *pp + 2, *end = strchr(name, '}');
	const char *def = NULL, *def_end = NULL;
	char key[256];
	const char *val;
	size_t n, i;

	if (end) {
		const char *sep = memmem(name, (size_t)(end - name), ":-", 2);

		if (sep) {
			def = sep + 2;
			def_end = end;
			end = sep;
		}
	}

	if (!end) {
		err_why(why, whylen,
			"'${' without a closing '}'; expected ${NAME}");
		return -EINVAL;
	}
	n = end - name;
	for (i = 0; i < n; i++)
		if (!is_word_char((unsigned char)name[i]))
			break;
	if (!n || i < n || (name[0] >= '0' && name[0] <= '9') ||
	    n >= sizeof(key)) {
		err_why(why, whylen,
			"bad variable name '${%.*s}'; expected ${NAME} with NAME made of letters, digits and '_'",
			(int)(n > 64 ? 64 : n), name);
		return -EINVAL;
	}
	memcpy(key, name, n);
	key[n] = '\0';
	val = defines_get(key);
	if (!val)
		val = getenv(key);
	if (def) {
		*pp = def_end + 1;
		if (!val || !*val)
			return xput(o, def, (size_t)(def_end - def));
		return xput(o, val, strlen(val));
	}
	if (!val) {
		err_why(why, whylen, "environment variable %s is not set "
			"(${%s:-DEFAULT} gives a default)", key, key);
		return -EINVAL;
	}
	*pp = end + 1;
	return xput(o, val, strlen(val));
}

/* *pp points at '$' not followed by '{'; on success it is left after
 * the variable name. */
static int expand_var(struct xout *o, const char **pp, bool keep,
		      char *why, size_t whylen)
{
	const char *name = *pp + 1;
	char num[32];
	long long v;
	size_t n, i;

	for (n = 0; is_word_char((unsigned char)name[n]); n++)
		;
	/* filename_format's words stay for it to fill (target.c). */
	if (path_fmt_word(*pp) == n + 1 ||
	    (keep && n && !is_jf_var(name, n))) {
		*pp = name + n;
		return xput(o, name - 1, n + 1);
	}
	if (!n) {
		err_why(why, whylen, "'$' without a variable name; %s",
			VAR_EXPECTED);
		return -EINVAL;
	}
	for (i = 0; i < sizeof(jf_vars) / sizeof(jf_vars[0]); i++)
		if (strlen(jf_vars[i].name) == n &&
		    !memcmp(jf_vars[i].name, name, n))
			break;
	if (i == sizeof(jf_vars) / sizeof(jf_vars[0]) && keep) {
		*pp = name + n;
		return xput(o, name - 1, n + 1);
	}
	if (i == sizeof(jf_vars) / sizeof(jf_vars[0])) {
		err_why(why, whylen, "unknown variable $%.*s; %s",
			(int)(n > 64 ? 64 : n), name, VAR_EXPECTED);
		return -EINVAL;
	}
	v = jf_vars[i].get();
	if (v <= 0) {
		err_why(why, whylen, "cannot determine $%s on this system",
			jf_vars[i].name);
		return -EINVAL;
	}
	*pp = name + n;
	o->var = true;
	n = snprintf(num, sizeof(num), "%lld", v);
	return xput(o, num, n);
}

/*
 * One pass, left to right: substituted text is not expanded again, so an
 * environment value may contain '$'. keep: a $word that is not one of
 * jf_vars stays as it is, for the option to judge (filename_format).
 */
static int expand(const char *in, char *out, size_t outlen, bool keep,
		  bool *var, char *why, size_t whylen)
{
	struct xout o = { .buf = out, .len = 0, .cap = outlen };
	const char *p = in, *q;
	int ret = 0;

	if (!outlen) {
		ret = -E2BIG;
		goto err_big;
	}
	out[0] = '\0';
	while (*p) {
		if (*p != '$') {
			q = strchrnul(p, '$');
			ret = xput(&o, p, q - p);
			p = q;
		} else if (p[1] == '{') {
			ret = expand_env(&o, &p, why, whylen);
		} else {
			ret = expand_var(&o, &p, keep, why, whylen);
		}
		if (ret == -E2BIG)
			goto err_big;
		if (ret)
			return ret;
	}
	if (var)
		*var = o.var;
	return 0;

err_big:
	err_why(why, whylen,
		"value is longer than %zu bytes after expansion",
		outlen ? outlen - 1 : 0);
	return -E2BIG;
}

int jobfile_expand(const char *in, char *out, size_t outlen, char *why,
		   size_t whylen)
{
	return expand(in, out, outlen, false, NULL, why, whylen);
}

int jobfile_expand_opt(const char *option, const char *in, char *out,
		       size_t outlen, bool *calc, char *why, size_t whylen)
{
	return expand(in, out, outlen, !strcmp(option, "filename_format"),
		      calc, why, whylen);
}

/* ---- line level ---- */

static int is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Trim in place; returns the first non-blank character. */
static char *trim(char *s)
{
	char *end;

	while (is_blank((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && is_blank((unsigned char)end[-1]))
		end--;
	*end = '\0';
	return s;
}

/* A comment starts at ';' or '#' that begins the line or follows a blank,
 * so "filename=a#b" keeps its '#'. */
static void strip_comment(char *s)
{
	char *p;

	for (p = s; *p; p++) {
		if ((*p == ';' || *p == '#') &&
		    (p == s || is_blank((unsigned char)p[-1]))) {
			*p = '\0';
			return;
		}
	}
}

static int src_getc(struct jf_src *s)
{
	if (s->fp)
		return getc(s->fp);
	if (!*s->text)
		return EOF;
	return (unsigned char)*s->text++;
}

/*
 * Read the next line into c->line without its "\n" or "\r\n".
 * Returns 1 for a line, 0 at the end, or -errno with c->e filled.
 */
static int read_line(struct jf_ctx *c, struct jf_src *s)
{
	size_t n = 0;
	int ch, nul = 0;

	s->line++;
	while ((ch = src_getc(s)) != EOF && ch != '\n') {
		/* Room for JOBFILE_MAX_LINE characters and a '\r'. */
		if (n == JOBFILE_MAX_LINE + 1)
			goto err_long;
		if (!ch)
			nul = 1;
		c->line[n++] = ch;
	}
	if (ch == EOF && s->fp && ferror(s->fp)) {
		int ret = errno ? -errno : -EIO;

		err_set(c->e, s->name, s->line, NULL, "read error: %s",
			strerror(-ret));
		return ret;
	}
	if (ch == EOF && !n)
		return 0;
	if (n && c->line[n - 1] == '\r')
		n--;
	if (n > JOBFILE_MAX_LINE)
		goto err_long;
	c->line[n] = '\0';
	if (nul) {
		err_set(c->e, s->name, s->line, NULL,
			"line contains a NUL byte; expected text");
		return -EINVAL;
	}
	return 1;

err_long:
	err_set(c->e, s->name, s->line, NULL,
		"line is longer than %d bytes", JOBFILE_MAX_LINE);
	return -EINVAL;
}

static int jf_nomem(struct jf_ctx *c, struct jf_src *s)
{
	err_set(c->e, s->name, s->line, NULL, "out of memory");
	return -ENOMEM;
}

static int jf_header(struct jf_ctx *c, struct jf_src *s, char *p)
{
	size_t len = strlen(p);
	char *name;

	if (len < 2 || p[len - 1] != ']') {
		err_set(c->e, s->name, s->line, NULL,
			"malformed section header; expected [name]");
		return -EINVAL;
	}
	p[len - 1] = '\0';
	name = trim(p + 1);
	if (!*name) {
		err_set(c->e, s->name, s->line, NULL,
			"empty section name; expected [name]");
		return -EINVAL;
	}
	if (strpbrk(name, "[]")) {
		err_set(c->e, s->name, s->line, NULL,
			"section name contains '[' or ']'; expected [name]");
		return -EINVAL;
	}
	if (c->doc->nsecs >= JOBFILE_MAX_SECTIONS) {
		err_set(c->e, s->name, s->line, NULL,
			"too many sections (the limit is %d)",
			JOBFILE_MAX_SECTIONS);
		return -EINVAL;
	}
	if (!raw_doc_add_section(c->doc, name, s->name, s->line))
		return jf_nomem(c, s);
	c->cur = (long)c->doc->nsecs - 1;
	return 0;
}

static int jf_option(struct jf_ctx *c, struct jf_src *s, char *p)
{
	char *name = p, *value = NULL, *eq = strchr(p, '=');
	struct raw_section *sec;
	char why[sizeof(c->e->msg)];
	bool calc = false;
	int ret;

	if (eq) {
		*eq = '\0';
		name = trim(p);
		value = trim(eq + 1);
	}
	if (!*name) {
		err_set(c->e, s->name, s->line, NULL,
			"missing option name before '='; expected name=value");
		return -EINVAL;
	}
	if (!strcmp(name, INCLUDE_WORD)) {
		err_set(c->e, s->name, s->line, NULL,
			"expected 'include FILE'");
		return -EINVAL;
	}
	if (c->cur < 0) {
		err_set(c->e, s->name, s->line, NULL,
			"option '%s' before any section; expected a [section] header first",
			name);
		return -EINVAL;
	}
	sec = &c->doc->secs[c->cur];
	if (sec->nopts >= JOBFILE_MAX_OPTIONS) {
		err_set(c->e, s->name, s->line, name,
			"too many options in section '%s' (the limit is %d)",
			sec->name, JOBFILE_MAX_OPTIONS);
		return -EINVAL;
	}
	if (value) {
		ret = jobfile_expand_opt(name, value, c->xbuf,
					 sizeof(c->xbuf), &calc, why,
					 sizeof(why));
		if (ret) {
			err_set(c->e, s->name, s->line, name, "%s", why);
			return -EINVAL;
		}
		value = c->xbuf;
	}
	if (raw_section_add(c->doc, sec, name, value, s->name, s->line))
		return jf_nomem(c, s);
	sec->opts[sec->nopts - 1].calc = calc;
	return 0;
}

/* Resolve `rel` against the directory of `base` into c->path. */
static int resolve_path(struct jf_ctx *c, const char *base, const char *rel)
{
	const char *slash = strrchr(base, '/');
	int n;

	if (rel[0] == '/' || !slash)
		n = snprintf(c->path, sizeof(c->path), "%s", rel);
	else
		n = snprintf(c->path, sizeof(c->path), "%.*s/%s",
			     (int)(slash - base), base, rel);
	return n < (int)sizeof(c->path) ? 0 : -ENAMETOOLONG;
}

/* Report an include cycle if (dev, ino) is already being read. */
static int check_cycle(struct jf_ctx *c, struct jf_src *s,
		       const struct stat *st, const char *path)
{
	char chain[512];
	size_t n = 0;
	int i, hit = -1;

	for (i = 0; i < c->depth; i++) {
		if (c->frames[i].has_id && c->frames[i].dev == st->st_dev &&
		    c->frames[i].ino == st->st_ino) {
			hit = i;
			break;
		}
	}
	if (hit < 0)
		return 0;
	chain[0] = '\0';
	for (i = hit; i < c->depth && n < sizeof(chain); i++)
		n += snprintf(chain + n, sizeof(chain) - n, "%s -> ",
			      c->frames[i].name);
	if (n < sizeof(chain))
		snprintf(chain + n, sizeof(chain) - n, "%s", path);
	err_set(c->e, s->name, s->line, NULL,
		"include cycle: '%s' is already being read (%s)", path, chain);
	return -EINVAL;
}

/* Read an open stream as one more frame of the include chain. */
static int jf_parse_stream(struct jf_ctx *c, FILE *fp, const char *name,
			   const struct stat *st)
{
	struct jf_src src = { .fp = fp, .name = name };
	struct jf_frame *f = &c->frames[c->depth++];
	int ret;

	f->name = name;
	f->has_id = 1;
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	ret = jf_parse_src(c, &src);
	c->depth--;
	return ret;
}

static int jf_include(struct jf_ctx *c, struct jf_src *s, char *arg)
{
	char why[sizeof(c->e->msg)];
	const char *path;
	struct stat st;
	FILE *fp;
	int ret;

	arg = trim(arg);
	if (!*arg || *arg == '=') {
		err_set(c->e, s->name, s->line, NULL,
			"expected 'include FILE'");
		return -EINVAL;
	}
	ret = jobfile_expand(arg, c->xbuf, sizeof(c->xbuf), why, sizeof(why));
	if (ret) {
		err_set(c->e, s->name, s->line, NULL, "include: %s", why);
		return -EINVAL;
	}
	if (c->depth > JOBFILE_MAX_INCLUDE) {
		err_set(c->e, s->name, s->line, NULL,
			"includes nested more than %d deep at '%s'",
			JOBFILE_MAX_INCLUDE, c->xbuf);
		return -EINVAL;
	}
	if (resolve_path(c, s->name, c->xbuf)) {
		err_set(c->e, s->name, s->line, NULL,
			"include path '%s' is too long", c->xbuf);
		return -ENAMETOOLONG;
	}
	path = raw_doc_intern(c->doc, c->path);
	if (!path)
		return jf_nomem(c, s);
	fp = fopen(path, "r");
	if (!fp) {
		ret = -errno;
		err_set(c->e, s->name, s->line, NULL,
			"cannot open include file '%s': %s", path,
			strerror(-ret));
		return ret;
	}
	if (fstat(fileno(fp), &st)) {
		ret = -errno;
		err_set(c->e, s->name, s->line, NULL,
			"cannot stat include file '%s': %s", path,
			strerror(-ret));
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
		err_set(c->e, s->name, s->line, NULL,
			"include file '%s' is a directory; expected a file",
			path);
		goto out;
	}
	ret = check_cycle(c, s, &st, path);
	if (!ret)
		ret = jf_parse_stream(c, fp, path, &st);
out:
	fclose(fp);
	return ret;
}

/* "include" followed by blank space starts an include line. */
static int is_include(const char *p)
{
	size_t n = strlen(INCLUDE_WORD);

	return !strncmp(p, INCLUDE_WORD, n) && is_blank((unsigned char)p[n]);
}

static int jf_line(struct jf_ctx *c, struct jf_src *s)
{
	char *p = c->line;

	strip_comment(p);
	p = trim(p);
	if (!*p)
		return 0;
	if (*p == '[')
		return jf_header(c, s, p);
	if (is_include(p))
		return jf_include(c, s, p + strlen(INCLUDE_WORD));
	return jf_option(c, s, p);
}

static int jf_parse_src(struct jf_ctx *c, struct jf_src *s)
{
	int ret;

	while ((ret = read_line(c, s)) > 0) {
		ret = jf_line(c, s);
		/* Skip the line and go on when the caller collects errors
		 * (out of memory stops). */
		if (ret && (ret == -ENOMEM || !err_keep(c->e)))
			return ret;
	}
	return ret;
}

/* ---- entry points ---- */

static void jf_ctx_init(struct jf_ctx *c, struct raw_doc *doc,
			struct err_rec *e)
{
	c->doc = doc;
	c->e = e;
	c->cur = -1;
	c->depth = 0;
}

int jobfile_parse_file(struct raw_doc *doc, const char *path,
		       struct err_rec *e)
{
	int is_stdin = !strcmp(path, "-");
	size_t kept = err_count(e);
	const char *name;
	struct jf_ctx *c;
	struct stat st;
	FILE *fp;
	int ret;

	/* Too big for a comfortable stack frame; one allocation per file. */
	c = malloc(sizeof(*c));
	if (!c) {
		err_set(e, path, 0, NULL, "out of memory");
		return -ENOMEM;
	}
	jf_ctx_init(c, doc, e);
	name = raw_doc_intern(doc, is_stdin ? STDIN_NAME : path);
	if (!name) {
		err_set(e, path, 0, NULL, "out of memory");
		ret = -ENOMEM;
		goto err_ctx;
	}
	fp = is_stdin ? stdin : fopen(path, "r");
	if (!fp) {
		ret = -errno;
		err_set(e, name, 0, NULL, "cannot open job file: %s",
			strerror(-ret));
		goto err_ctx;
	}
	if (fstat(fileno(fp), &st)) {
		ret = -errno;
		err_set(e, name, 0, NULL, "cannot stat job file: %s",
			strerror(-ret));
		goto err_close;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
		err_set(e, name, 0, NULL,
			"is a directory; expected a job file");
		goto err_close;
	}
	ret = jf_parse_stream(c, fp, name, &st);
	if (!ret && err_count(e) > kept)
		ret = -EINVAL;	/* e: the last error found */
err_close:
	if (!is_stdin)
		fclose(fp);
err_ctx:
	free(c);
	return ret;
}

int jobfile_parse_string(struct raw_doc *doc, const char *name,
			 const char *text, struct err_rec *e)
{
	struct jf_src src = { .text = text };
	size_t kept = err_count(e);
	struct jf_ctx *c;
	int ret;

	if (!name)
		name = "<string>";
	c = malloc(sizeof(*c));
	if (!c) {
		err_set(e, name, 0, NULL, "out of memory");
		return -ENOMEM;
	}
	jf_ctx_init(c, doc, e);
	src.name = raw_doc_intern(doc, name);
	if (!src.name) {
		err_set(e, name, 0, NULL, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	/* A string has no file identity; the depth limit stops a string
	 * that includes itself under its own name. */
	c->frames[0] = (struct jf_frame){ .name = src.name };
	c->depth = 1;
	ret = jf_parse_src(c, &src);
	if (!ret && err_count(e) > kept)
		ret = -EINVAL;
out:
	free(c);
	return ret;
}
