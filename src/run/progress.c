// SPDX-License-Identifier: MIT
/*
 * --progress: the status line (see progress.h). The main thread builds a
 * snapshot from what the workers publish (run.c); this file only decides
 * whether to show it, formats it and puts it on stderr.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "progress.h"
#include "stats.h"
#include "value.h"

static const struct {
	const char *name;
	enum progress_mode mode;
} progress_modes[] = {
	{ "auto", PROGRESS_AUTO },
	{ "always", PROGRESS_ALWAYS },
	{ "never", PROGRESS_NEVER },
};

int progress_mode_parse(const char *s, enum progress_mode *m)
{
	size_t i;

	for (i = 0; i < sizeof(progress_modes) / sizeof(progress_modes[0]);
	     i++) {
		if (s && !strcmp(s, progress_modes[i].name)) {
			*m = progress_modes[i].mode;
			return 0;
		}
	}
	return -EINVAL;
}

static bool term_ok(const char *term)
{
	return term && *term && strcmp(term, "dumb");
}

bool progress_wanted(enum progress_mode m, bool tty, const char *term)
{
	if (m == PROGRESS_ALWAYS)
		return true;
	return m == PROGRESS_AUTO && tty && term_ok(term);
}

void progress_init(struct progress *p, FILE *f, bool tty, const char *term,
		   uint64_t now_ns)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->in_place = tty;
	p->ansi = tty && term_ok(term);
	p->prev.now_ns = now_ns;
	p->period_ns = PROGRESS_PERIOD_NS;
	p->next_ns = now_ns + p->period_ns;
}

void progress_periods(struct progress *p, uint64_t period_ns,
		      uint64_t newline_ns)
{
	if (period_ns) {
		p->next_ns += period_ns - p->period_ns;
		p->period_ns = period_ns;
	}
	p->newline_ns = newline_ns;
	p->next_nl_ns = p->prev.now_ns + newline_ns;
}

bool progress_due(const struct progress *p, uint64_t now_ns)
{
	return now_ns >= p->next_ns;
}

/* m:ss, or h:mm:ss from an hour on. */
static void fmt_clock(uint64_t ns, char *buf, size_t len)
{
	uint64_t s = ns / 1000000000ull;

	if (ns == PROGRESS_UNKNOWN)
		snprintf(buf, len, "?");
	else if (s >= 3600)
		snprintf(buf, len, "%" PRIu64 ":%02" PRIu64 ":%02" PRIu64,
			 s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%" PRIu64 ":%02" PRIu64, s / 60, s % 60);
}

static const char *const count_units[5] = { "", "k", "M", "G", "T" };
static const char *const bin_units[5] = { "B", "KiB", "MiB", "GiB", "TiB" };

size_t progress_format(char *buf, size_t len,
		       const struct progress_snap *cur,
		       const struct progress_snap *prev)
{
	static const char dir_tag[DDIR_NR] = { 'r', 'w', 't' };
	double secs = (double)counter_sub0(cur->now_ns, prev->now_ns) / 1e9;
	char el[32], total[32], iops[32], bw[32];
	size_t n;
	int d;

	/* Lines come about a second apart: the nearest second. */
	fmt_clock(cur->elapsed_ns + 500000000ull, el, sizeof(el));
	/* The total rounded up: a 2.5 s run is not over at 0:02. */
	fmt_clock(cur->remaining_ns == PROGRESS_UNKNOWN ? PROGRESS_UNKNOWN :
		  cur->elapsed_ns + cur->remaining_ns + 999999999ull, total,
		  sizeof(total));
	n = (size_t)snprintf(buf, len, "[%s/%s] %u job%s", el, total,
			     cur->running, cur->running == 1 ? "" : "s");
	for (d = 0; d < DDIR_NR && n < len; d++) {
		uint64_t ios = counter_sub0(cur->ios[d], prev->ios[d]);
		uint64_t bytes = counter_sub0(cur->bytes[d], prev->bytes[d]);

		/* Trims only once a job has trimmed. */
		if (d == DDIR_TRIM && !cur->ios[d])
			continue;
		if (!ios || secs <= 0) {
			n += (size_t)snprintf(buf + n, len - n, "  %c 0",
					      dir_tag[d]);
			continue;
		}
		value_fmt_sig3((double)ios / secs, 1000, count_units, "",
			       true, iops, sizeof(iops));
		value_fmt_sig3((double)bytes / secs, 1024, bin_units, "",
			       true, bw, sizeof(bw));
		n += (size_t)snprintf(buf + n, len - n, "  %c %s IOPS %s/s",
				      dir_tag[d], iops, bw);
	}
	return n < len ? n : len - 1;
}

void progress_show(struct progress *p, const struct progress_snap *s)
{
	char line[160];
	size_t n = progress_format(line, sizeof(line), s, &p->prev);

	if (p->in_place && p->newline_ns && p->shown &&
	    s->now_ns >= p->next_nl_ns) {
		/* --eta-newline: the line on screen stays. */
		fputc('\n', p->f);
		p->shown = 0;
		p->next_nl_ns = s->now_ns + p->newline_ns;
	}
	if (p->in_place) {
		/* Without ESC [ K, blanks cover what the last line left. */
		fprintf(p->f, "\r%s%s%*s", line, p->ansi ? "\033[K" : "",
			!p->ansi && p->shown > n ? (int)(p->shown - n) : 0,
			"");
		p->shown = n;
	} else {
		fprintf(p->f, "%s\n", line);
	}
	fflush(p->f);
	p->prev = *s;
	p->next_ns = s->now_ns + p->period_ns;
}

void progress_clear(struct progress *p)
{
	if (!p->in_place || !p->shown)
		return;
	if (p->ansi)
		fputs("\r\033[K", p->f);
	else
		fprintf(p->f, "\r%*s\r", (int)p->shown, "");
	fflush(p->f);
	p->shown = 0;
}
