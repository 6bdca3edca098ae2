/* SPDX-License-Identifier: MIT */
#ifndef IORIG_DIST_H
#define IORIG_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ddir.h"

/*
 * Random patterns (issue 12): the parsed forms of random_distribution= and
 * bssplit=, and the laws the generator (gen.c) draws from. Parsing checks
 * everything; gen_init only derives tables from a parsed spec.
 */
#define DIST_ZONES_MAX	256
#define BSSPLIT_MAX	64

enum dist_kind {
	DIST_RANDOM, DIST_ZIPF, DIST_PARETO, DIST_NORMAL, DIST_ZONED,
	DIST_ZONED_ABS,
};

/* access: percent of I/Os; size: percent of the file region (zoned) or
 * bytes (zoned_abs). */
struct dist_zone {
	double access;
	double size;
};

struct dist_spec {
	int kind;			/* enum dist_kind */
	double param;			/* zipf theta, pareto h, normal sigma */
	double center;			/* 0..1, or -1: the default */
	unsigned nzones[DDIR_NR];
	struct dist_zone zones[DDIR_NR][DIST_ZONES_MAX];
};

struct bssplit_entry {
	uint64_t bs;
	double perc;
};

struct bssplit_spec {
	unsigned n[DDIR_NR];		/* 0: no split for that direction */
	struct bssplit_entry e[DDIR_NR][BSSPLIT_MAX];
};

/*
 * "random", "zipf[:theta[:center]]", "pareto[:h[:center]]",
 * "normal[:sigma[:center]]", "zoned:A/R:A/R...[,reads-zones...]",
 * "zoned_abs:A/SIZE:...". Returns 0 or -EINVAL with why filled in.
 */
int dist_parse(const char *s, unsigned kb_base, struct dist_spec *d,
	       char *why, size_t whylen);
/* "SIZE/PCT:SIZE/PCT...[,writes[,trims]]"; sizes must be > 0. */
int bssplit_parse(const char *s, unsigned kb_base, struct bssplit_spec *b,
		  char *why, size_t whylen);

/*
 * Walker's alias table over at most DIST_ZONES_MAX weights: one 64-bit
 * random number picks an entry with probability weight / sum, O(1).
 */
struct dist_alias {
	unsigned n;
	uint32_t thresh[DIST_ZONES_MAX];
	uint16_t alias[DIST_ZONES_MAX];
};

void dist_alias_init(struct dist_alias *a, const double *w, unsigned n);
static inline unsigned dist_alias_pick(const struct dist_alias *a,
				       uint64_t r)
{
	unsigned i = (unsigned)(((r >> 32) * a->n) >> 32);

	return (uint32_t)r < a->thresh[i] ? i : a->alias[i];
}

/*
 * Ranks 0..n-1 drawn from a skewed law, rank 0 the most frequent for zipf
 * and pareto, rank (n - 1) / 2 for normal (dist_mode). u() supplies
 * uniform doubles in [0, 1).
 */
struct dist_law {
	int kind;
	uint64_t n;
	double theta, hx1, hxn, sq;	/* zipf, rejection-inversion */
	double pw;			/* pareto: rank = n * u^pw */
	uint64_t dev;			/* normal: width of the added spread */
};

void dist_law_init(struct dist_law *l, int kind, double param, uint64_t n);
uint64_t dist_law_mode(const struct dist_law *l);
uint64_t dist_law_draw(const struct dist_law *l, double (*u)(void *),
		       void *ctx);

#endif
