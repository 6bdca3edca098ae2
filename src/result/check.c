// SPDX-License-Identifier: MIT
/*
 * Checks (include/check.h): parsed and matched to the reported units when
 * the plan is made, so that every mistake is a usage error before anything
 * runs; evaluated after the run together with the repeats statistics and
 * the baseline comparisons.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "history.h"
#include "result.h"
#include "value.h"

static const char *const dir_nouns[DDIR_NR] = {
	"reads", "writes", "trims"
};

void check_source(const struct check_def *d, char *buf, size_t len)
{
	if (d->origin == CHECK_CMDLINE)
		snprintf(buf, len, "command line");
	else
		snprintf(buf, len, "%s:%d", d->file, d->line);
}

void check_unit_label(const struct job *j, char *buf, size_t len)
{
	size_t n;

	n = (size_t)snprintf(buf, len, "%s%s%s%s", j->desc.name,
			     j->plan.sweep_point ? "[" : "",
			     j->plan.sweep_point ? j->plan.sweep_point : "",
			     j->plan.sweep_point ? "]" : "");
	if (n < len && !j->report.group_reporting && j->eng.numjobs > 1)
		snprintf(buf + n, len - n, " clone %u", j->plan.clone);
}

/* The directions a job does I/O in, as bits 1 << DDIR_*. */
static unsigned job_dirs(const struct job *j)
{
	if (j->vfy.verify_only)
		return 0;	/* it only reads to verify */
	if (!rw_mixed(j->io.rw))
		return rw_dirs(j->io.rw);
	return (j->io.rwmixread > 0 ? 1u << DDIR_READ : 0) |
	       (j->io.rwmixread < 100 ? 1u << DDIR_WRITE : 0);
}

/* ---- check_build ---- */

/* The units of the plan: each one's first job and directions. */
struct units {
	size_t *unit_of;
	int n;
	size_t *first;
	unsigned *dirs;
};

static void units_free(struct units *u)
{
	free(u->unit_of);
	free(u->first);
	free(u->dirs);
}

static int units_make(struct units *u, const struct plan *p)
{
	size_t i;

	memset(u, 0, sizeof(*u));
	u->unit_of = calloc(p->njobs + 1, sizeof(*u->unit_of));
	if (!u->unit_of)
		return -ENOMEM;
	u->n = result_unit_of(p, u->unit_of);
	if (u->n < 0)
		return u->n;
	u->first = calloc((size_t)u->n + 1, sizeof(*u->first));
	u->dirs = calloc((size_t)u->n + 1, sizeof(*u->dirs));
	if (!u->first || !u->dirs)
		return -ENOMEM;
	for (i = p->njobs; i-- > 0;) {
		u->first[u->unit_of[i]] = i;
		u->dirs[u->unit_of[i]] |= job_dirs(&p->jobs[i]);
	}
	return 0;
}

struct builder {
	struct check_set *cs;
	const struct plan *p;
	struct units u;
	size_t capdefs, capitems;
	struct err_rec *e;
};

static int def_error(struct builder *b, const struct check_def *d,
		     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int def_error(struct builder *b, const struct check_def *d,
		     const char *fmt, ...)
{
	char msg[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err_set(b->e, d->file, d->line, "check", "'%.*s%s': %s", CHECK_QUOTE_MAX,
		d->text, strlen(d->text) > CHECK_QUOTE_MAX ? "..." : "", msg);
	return -EINVAL;
}

/* Add a check given at file:line; its index in *idx. Parse errors fill
 * b->e. An equal one (same place, text and kb_base) is reused. */
static int add_def(struct builder *b, const char *text, int origin,
		   const char *file, int line, unsigned kb_base, size_t *idx)
{
	struct check_set *cs = b->cs;
	struct check_def *d;
	char why[1024];
	size_t i;

	for (i = 0; i < cs->ndefs; i++) {
		d = &cs->defs[i];
		if (d->origin == origin && d->line == line &&
		    d->kb_base == kb_base && !strcmp(d->file, file) &&
		    !strcmp(d->text, text)) {
			*idx = i;
			return 0;
		}
	}
	if (cs->ndefs == b->capdefs) {
		size_t cap = b->capdefs ? 2 * b->capdefs : 8;

		d = realloc(cs->defs, cap * sizeof(*d));
		if (!d)
			return -ENOMEM;
		cs->defs = d;
		b->capdefs = cap;
	}
	d = &cs->defs[cs->ndefs];
	memset(d, 0, sizeof(*d));
	d->text = strdup(text);
	if (!d->text)
		return -ENOMEM;
	cs->ndefs++;
	d->origin = origin;
	snprintf(d->file, sizeof(d->file), "%s", file);
	d->line = line;
	d->kb_base = kb_base;
	*idx = cs->ndefs - 1;
	if (check_parse(text, kb_base, &d->x, why, sizeof(why))) {
		err_set(b->e, file, line, "check", "%s", why);
		return -EINVAL;
	}
	return 0;
}

static int add_item(struct builder *b, size_t def, int unit, bool na)
{
	struct check_set *cs = b->cs;
	struct check_item *it;
	size_t i;

	/* Items come unit by unit: this unit's are the last ones. */
	for (i = cs->nitems; i-- > 0 && cs->items[i].unit == unit;)
		if (cs->items[i].def == def)
			return 0;
	if (cs->nitems == b->capitems) {
		size_t cap = b->capitems ? 2 * b->capitems : 16;

		it = realloc(cs->items, cap * sizeof(*it));
		if (!it)
			return -ENOMEM;
		cs->items = it;
		b->capitems = cap;
	}
	it = &cs->items[cs->nitems++];
	memset(it, 0, sizeof(*it));
	it->def = def;
	it->unit = unit;
	it->na = na;
	return 0;
}

/*
 * Check def d on unit: the direction it needs (a scoped check on a unit
 * without it is an error, an unscoped one is n/a) and the baseline.
 */
static int plan_item(struct builder *b, size_t def, int unit, bool scoped)
{
	const struct check_def *d = &b->cs->defs[def];
	const struct job *j = &b->p->jobs[b->u.first[unit]];
	const struct baseline_job *bj;
	char label[300];
	double base = 0;
	bool na = false;
	int ret;

	check_unit_label(j, label, sizeof(label));
	if (d->x.m.dir >= 0 && !(b->u.dirs[unit] & (1u << d->x.m.dir))) {
		if (scoped)
			return def_error(b, d, "job '%s' does no %s%s", label,
					 dir_nouns[d->x.m.dir],
					 j->vfy.verify_only ? " (verify_only)" :
					 "; see its rw=");
		na = true;
	}
	if (d->x.nhist && !b->cs->hist_given)
		return def_error(b, d, "compares with the history, but no "
				 "--history=FILE.db was given");
	if (d->x.baseline && !na) {
		if (!b->cs->baseline)
			return def_error(b, d, "compares with the baseline, "
					 "but no --baseline=FILE was given");
		bj = baseline_find(b->cs->baseline, j);
		if (!bj)
			return def_error(b, d, "the baseline %s has no result "
					 "for job '%s'",
					 b->cs->baseline->path, label);
		ret = baseline_value(bj, &d->x.m, &base);
		if (ret == -ENOMEM)
			return ret;
		if (ret)
			return def_error(b, d, "the baseline %s has no %s for "
					 "job '%s'", b->cs->baseline->path,
					 d->x.m.name, label);
	}
	ret = add_item(b, def, unit, na);
	if (!ret && d->x.baseline)
		b->cs->items[b->cs->nitems - 1].base = base;
	return ret;
}

/* A --check: every unit, or those of the job it names. */
static int plan_cmdline(struct builder *b, size_t def, int unit)
{
	const struct check_def *d = &b->cs->defs[def];
	const struct job *j = &b->p->jobs[b->u.first[unit]];

	if (d->x.scope[0] && strcmp(d->x.scope, j->desc.name))
		return 0;
	return plan_item(b, def, unit, d->x.scope[0] != 0);
}

/* "gFILE:LINE" (or 'j'): the origin and place of a job's check k. */
static void job_check_src(const struct job *j, size_t k, int *origin,
			  char *file, size_t len, int *line)
{
	const char *s = j->runs.check_src, *end, *colon;

	for (; s && k; k--) {
		s = strchr(s, '\n');
		s = s ? s + 1 : NULL;
	}
	end = s ? strchr(s, '\n') : NULL;
	end = end ? end : (s ? s + strlen(s) : NULL);
	colon = NULL;
	for (const char *p = s; p && p < end; p++)
		if (*p == ':')
			colon = p;
	if (!s || !colon || colon - s < 1) {
		/* Set by a sweep point: the job's own. */
		*origin = CHECK_SECTION;
		snprintf(file, len, "%s", j->plan.section_file ?
			 j->plan.section_file : "");
		*line = j->plan.section_line;
		return;
	}
	*origin = s[0] == 'g' ? CHECK_GLOBAL : CHECK_SECTION;
	snprintf(file, len, "%.*s", (int)(colon - s - 1), s + 1);
	*line = atoi(colon + 1);
}

/* A check= of job j (of unit): its own section's check is scoped to it; a
 * global one applies to j unless it names another job. */
static int plan_file_check(struct builder *b, size_t def, int unit,
			   const struct job *j)
{
	const struct check_def *d = &b->cs->defs[def];

	if (d->x.scope[0] && strcmp(d->x.scope, j->desc.name)) {
		if (d->origin == CHECK_SECTION)
			return def_error(b, d, "a check in the section of job "
					 "'%s' cannot name job '%s'", j->desc.name,
					 d->x.scope);
		return 0;
	}
	return plan_item(b, def, unit, d->origin == CHECK_SECTION ||
			 d->x.scope[0]);
}

/* The check= lines of the jobs of unit. */
static int plan_job_checks(struct builder *b, int unit)
{
	const struct plan *p = b->p;
	char text[1024], file[256];
	const char *s, *end;
	size_t i, k, def;
	int origin, line, ret;

	for (i = b->u.first[unit]; i < p->njobs; i++) {
		const struct job *j = &p->jobs[i];

		if (b->u.unit_of[i] != (size_t)unit || !j->runs.check)
			continue;
		for (s = j->runs.check, k = 0; *s; k++) {
			end = strchr(s, ';');
			end = end ? end : s + strlen(s);
			snprintf(text, sizeof(text), "%.*s", (int)(end - s), s);
			s = *end ? end + 1 : end;
			job_check_src(j, k, &origin, file, sizeof(file), &line);
			ret = add_def(b, text, origin, file, line,
				      (unsigned)j->report.kb_base, &def);
			if (ret)
				return ret;
			ret = plan_file_check(b, def, unit, j);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* The same check= line, read for jobs of different kb_base. */
static bool same_line(const struct check_def *a, const struct check_def *b)
{
	return a->origin == b->origin && a->line == b->line &&
	       !strcmp(a->file, b->file) && !strcmp(a->text, b->text);
}

/* A check that names a job must apply to one. */
static int check_scopes(struct builder *b)
{
	const struct check_set *cs = b->cs;
	size_t i, k;

	for (i = 0; i < cs->ndefs; i++) {
		if (!cs->defs[i].x.scope[0])
			continue;
		for (k = 0; k < cs->nitems; k++)
			if (same_line(&cs->defs[cs->items[k].def],
				      &cs->defs[i]))
				break;
		if (k == cs->nitems)
			return def_error(b, &cs->defs[i], "no job called "
					 "'%s'%s", cs->defs[i].x.scope,
					 cs->defs[i].origin == CHECK_GLOBAL ?
					 " follows this global section" :
					 " runs");
	}
	return 0;
}

int check_build(struct check_set *cs, const struct plan *p,
		const struct check_arg *args, size_t nargs,
		const struct baseline *bl, struct err_rec *e)
{
	return check_build_hist(cs, p, args, nargs, bl, false, e);
}

int check_build_hist(struct check_set *cs, const struct plan *p,
		     const struct check_arg *args, size_t nargs,
		     const struct baseline *bl, bool hist, struct err_rec *e)
{
	struct builder b = { .cs = cs, .p = p, .e = e };
	size_t i, def, ncli;
	int u, ret;

	memset(cs, 0, sizeof(*cs));
	cs->baseline = bl;
	cs->hist_given = hist;
	ret = units_make(&b.u, p);
	for (i = 0; !ret && i < nargs; i++)
		ret = add_def(&b, args[i].expr, CHECK_CMDLINE, ERR_CMDLINE,
			      args[i].argi, 1024, &def);
	ncli = cs->ndefs;
	/* By unit: its job file's checks, then the command line's. */
	for (u = 0; !ret && u < b.u.n; u++) {
		ret = plan_job_checks(&b, u);
		for (i = 0; !ret && i < ncli; i++)
			ret = plan_cmdline(&b, i, u);
	}
	if (!ret)
		ret = check_scopes(&b);
	if (ret == -ENOMEM)
		err_set(e, "", 0, "check", "out of memory");
	units_free(&b.u);
	return ret;
}

void check_set_free(struct check_set *cs)
{
	size_t i;

	for (i = 0; i < cs->ndefs; i++)
		free(cs->defs[i].text);
	free(cs->defs);
	free(cs->items);
	memset(cs, 0, sizeof(*cs));
}

/* ---- check_eval ---- */

static double spread_value(const struct metric_spread *s, int func)
{
	switch (func) {
	case CHECK_F_STDDEV:
		return s->stddev;
	case CHECK_F_CV:
		return s->cv_pct;
	case CHECK_F_MIN:
		return s->min;
	case CHECK_F_MAX:
		return s->max;
	default:
		return s->mean;
	}
}

/* What one unit's evaluation works on. */
struct unit_eval {
	const struct run_result *r;
	const struct result_set *rs;
	int u;
	unsigned dirs;		/* the unit's directions, 1 << DDIR_* */
	unsigned nruns;
	struct metric *all;	/* nm metrics: nh headlines, the checks' */
	unsigned nm, nh;
	double *vals;		/* vals[k * nruns + run] */
	unsigned nran;		/* runs that ran and measured something */
	unsigned nramp;		/* runs stopped during ramp_time */
};

/* The value of every metric in every run of the unit that ran. */
static void unit_values(struct unit_eval *ue, struct result_unit *tmp)
{
	const struct result_unit *x = &ue->rs->units[ue->u], *one;
	struct result_row row;
	unsigned run, k;

	ue->nran = 0;
	ue->nramp = 0;
	for (run = 0; run < ue->nruns; run++) {
		one = x;
		if (ue->nruns > 1) {
			result_unit_run(ue->r, ue->rs, ue->u, run, tmp);
			one = tmp;
		}
		if (!one->stats.nclones)
			continue;
		if (!one->stats.nmeasured) {
			ue->nramp++;
			continue;
		}
		result_row(ue->r, one, &row);
		for (k = 0; k < ue->nm; k++)
			ue->vals[k * ue->nruns + ue->nran] =
				result_metric(&ue->all[k], &one->stats, &row);
		ue->nran++;
	}
}

static int unit_figs(struct unit_eval *ue, const struct baseline *bl,
		     struct check_unit *cu)
{
	const struct baseline_job *bj = NULL;
	struct check_fig *f;
	unsigned k;

	cu->job = ue->rs->units[ue->u].job;
	cu->repeated = ue->nruns > 1;
	cu->nfigs = ue->nh;
	if (bl && ue->nran)
		bj = baseline_find(bl, ue->rs->units[ue->u].job);
	cu->in_baseline = bj != NULL;
	for (k = 0; k < ue->nh; k++) {
		f = &cu->figs[k];
		f->m = ue->all[k];
		metric_spread(&ue->vals[k * ue->nruns], ue->nran, &f->spread);
		f->value = f->spread.mean;
		if (cu->repeated && ue->nran) {
			f->values = malloc(ue->nran * sizeof(*f->values));
			if (!f->values)
				return -ENOMEM;
			memcpy(f->values, &ue->vals[k * ue->nruns],
			       ue->nran * sizeof(*f->values));
		}
		if (bj && !baseline_value(bj, &f->m, &f->base)) {
			f->has_base = true;
			f->has_change = f->base != 0;
			if (f->has_change)
				f->change_pct = (f->value - f->base) /
						fabs(f->base) * 100;
		}
	}
	return 0;
}

/*
 * The threshold of a history check: its terms over the earlier runs of
 * the unit's job on its device model. NULL, or why it has none (n/a).
 */
static const char *hist_threshold(const struct check_set *cs,
				  const struct unit_eval *ue,
				  const struct check_def *d,
				  struct check_result *res)
{
	const struct result_unit *u = &ue->rs->units[ue->u];
	double *v, x;
	unsigned n, k;
	bool ok;

	res->threshold = d->x.threshold;
	if (!cs->history)
		return "the history could not be read";
	for (k = 0; k < d->x.nhist; k++) {
		if (history_values(cs->history, ue->r, u, &d->x.m,
				   d->x.hist[k].last, &v, &n))
			return "the history could not be read";
		ok = check_hstat(&d->x.hist[k], v, n, &x);
		free(v);
		if (!ok)
			return n ? "fewer than 2 runs of this job on this "
				   "device model in the history (stddev)" :
				   "no history yet: no earlier run of this job "
				   "(same options) on this device model";
		res->threshold += d->x.hist[k].factor * x;
		if (!k)
			res->hist_runs = n;
	}
	return NULL;
}

static void unit_result(const struct check_set *cs, struct unit_eval *ue,
			size_t item, unsigned k, struct check_result *res)
{
	const struct check_item *it = &cs->items[item];
	const struct check_def *d = &cs->defs[it->def];
	struct metric_spread s;

	res->def = d;
	res->unit = it->unit;
	res->job = ue->rs->units[it->unit].job;
	/* A baseline check that is n/a by direction has no baseline. */
	res->has_base = d->x.baseline && !it->na;
	res->has_threshold = (!d->x.baseline && !d->x.nhist) ||
			     res->has_base;
	res->threshold = d->x.baseline ? d->x.factor * it->base :
			 d->x.threshold;
	res->base = it->base;
	if (it->na || !ue->nran) {
		res->status = CHECK_NA;
		res->reason = it->na ? (d->x.m.dir == DDIR_READ ?
			      "the job does no reads" :
			      "the job does no writes") : ue->nramp ?
			      "nothing measured: stopped during ramp_time" :
			      "not run";
		return;
	}
	if (METRIC_IS_HEALTH(d->x.m.kind) &&
	    !ue->rs->units[it->unit].stats.health.known) {
		res->status = CHECK_NA;
		res->reason = "no NVMe namespace's health is known under "
			      "the job's targets";
		return;
	}
	if (d->x.nhist) {
		res->reason = hist_threshold(cs, ue, d, res);
		res->has_threshold = !res->reason;
		if (res->reason) {
			res->status = CHECK_NA;
			return;
		}
	}
	metric_spread(&ue->vals[k * ue->nruns], ue->nran, &s);
	res->value = spread_value(&s, d->x.func);
	res->status = check_compare(res->value, d->x.op, res->threshold) ?
		      CHECK_PASS : CHECK_FAIL;
}

/* Unit ue->u, whose checks are items [first, end) (items are by unit). */
static int eval_unit(const struct check_set *cs, struct unit_eval *ue,
		     size_t first, size_t end, struct result_unit *tmp,
		     struct check_report *out)
{
	size_t i;
	unsigned k;
	int ret = -ENOMEM;

	ue->nruns = ue->rs->units[ue->u].nruns ? ue->rs->units[ue->u].nruns
					       : 1;
	ue->all = calloc(METRIC_HEADLINE_MAX + end - first, sizeof(*ue->all));
	if (!ue->all)
		goto out;
	/* Headline figures are shown only in repeats and baseline blocks. */
	ue->nh = ue->nruns > 1 || cs->baseline ?
		 metric_headlines(ue->dirs, ue->all) : 0;
	ue->vals = calloc((ue->nh + end - first) * ue->nruns,
			  sizeof(*ue->vals));
	if (!ue->vals)
		goto out;
	ue->nm = ue->nh;
	for (i = first; i < end; i++)
		ue->all[ue->nm++] = cs->defs[cs->items[i].def].x.m;
	unit_values(ue, tmp);
	ret = unit_figs(ue, cs->baseline, &out->units[ue->u]);
	for (i = first, k = ue->nh; i < end; i++)
		unit_result(cs, ue, i, k++, &out->results[i]);
out:
	free(ue->all);
	free(ue->vals);
	return ret;
}

int check_eval(const struct check_set *cs, const struct run_result *r,
	       struct check_report *out)
{
	struct result_unit *tmp = NULL;
	struct result_set rs;
	struct unit_eval ue;
	unsigned *dirs = NULL;
	size_t i, first, end;
	int u, ret;

	memset(out, 0, sizeof(*out));
	out->baseline = cs->baseline;
	ret = result_collect(r, &rs);
	if (ret)
		return ret;
	ret = -ENOMEM;
	out->units = calloc((size_t)rs.nunits + 1, sizeof(*out->units));
	out->results = calloc(cs->nitems + 1, sizeof(*out->results));
	tmp = malloc(sizeof(*tmp));
	dirs = calloc((size_t)rs.nunits + 1, sizeof(*dirs));
	if (!out->units || !out->results || !tmp || !dirs)
		goto out;
	for (i = 0; rs.unit_of && i < r->plan->njobs; i++)
		dirs[rs.unit_of[i]] |= job_dirs(&r->plan->jobs[i]);
	out->nunits = rs.nunits;
	out->nresults = cs->nitems;
	ret = 0;
	for (u = 0, end = 0; !ret && u < rs.nunits; u++) {
		memset(&ue, 0, sizeof(ue));
		ue.r = r;
		ue.rs = &rs;
		ue.u = u;
		ue.dirs = dirs[u];
		for (first = end; end < cs->nitems && cs->items[end].unit == u;)
			end++;
		ret = eval_unit(cs, &ue, first, end, tmp, out);
	}
	for (i = 0; i < out->nresults; i++) {
		out->npass += out->results[i].status == CHECK_PASS;
		out->nfail += out->results[i].status == CHECK_FAIL;
		out->nna += out->results[i].status == CHECK_NA;
	}
out:
	free(tmp);
	free(dirs);
	result_set_free(&rs);
	return ret;
}

void check_report_free(struct check_report *cr)
{
	int u;
	unsigned k;

	for (u = 0; cr->units && u < cr->nunits; u++)
		for (k = 0; k < cr->units[u].nfigs; k++)
			free(cr->units[u].figs[k].values);
	free(cr->units);
	free(cr->results);
	memset(cr, 0, sizeof(*cr));
}

const struct check_unit *check_unit_at(const struct check_report *cr,
				       int i)
{
	return cr && i >= 0 && i < cr->nunits ? &cr->units[i] : NULL;
}

const char *check_status_name(int status)
{
	static const char *const names[] = {
		[CHECK_PASS] = "PASS", [CHECK_FAIL] = "FAIL",
		[CHECK_NA] = "n/a",
	};

	return status >= 0 && status <= CHECK_NA ? names[status] : "?";
}

void check_result_text(const struct check_result *x, char *buf, size_t len)
{
	const struct check_def *d = x->def;
	char label[300], src[300], v[48], t[48], b[48], f[48];
	size_t n;

	check_unit_label(x->job, label, sizeof(label));
	check_source(d, src, sizeof(src));
	n = (size_t)snprintf(buf, len, "%s: %s  ", label, d->text +
			     d->x.body);
	if (n >= len)
		return;
	if (x->status == CHECK_NA) {
		snprintf(buf + n, len - n, "%s  (%s)", x->reason, src);
		return;
	}
	metric_format(d->x.unit, x->value, v, sizeof(v));
	metric_format(d->x.unit, x->threshold, t, sizeof(t));
	if (d->x.nhist) {
		snprintf(buf + n, len - n, "%s, threshold %s (history of %u "
			 "run%s)  (%s)", v, t, x->hist_runs, x->hist_runs == 1 ?
			 "" : "s", src);
		return;
	}
	if (!x->has_base) {
		snprintf(buf + n, len - n, "%s, threshold %s  (%s)", v, t,
			 src);
		return;
	}
	metric_format(d->x.unit, x->base, b, sizeof(b));
	snprintf(f, sizeof(f), "%g", d->x.factor);
	snprintf(buf + n, len - n, "%s, threshold %s (%s x baseline %s)  "
		 "(%s)", v, t, f, b, src);
}

void check_fmt_figures(const struct check_result *x, char *value,
		       char *threshold, size_t len)
{
	int unit = x->def->x.unit;
	unsigned sig;

	for (sig = 3; sig <= 15; sig++) {
		metric_fmt(unit, x->value, sig, value, len);
		metric_fmt(unit, x->threshold, sig, threshold, len);
		if (strcmp(value, threshold) || x->value == x->threshold)
			break;
	}
}
