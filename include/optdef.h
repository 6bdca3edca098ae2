/* SPDX-License-Identifier: MIT */
#ifndef IORIG_OPTDEF_H
#define IORIG_OPTDEF_H

/*
 * The type of an option table's row, apart from the job table and its
 * machinery (options.h), so that an engine declares its own rows
 * (engine_ops.options) without depending on the option parser.
 */
#include <stddef.h>
#include <stdint.h>

/*
 * THE option table. Every job option is declared once: here, or, when
 * only an engine reads it, in that engine's own table (engine_ops.options,
 * rows of the same type whose offsets are into the engine's own options
 * struct). --help, --cmdhelp, --enghelp, --parse-only, the JSON report and
 * the man-page test read the tables.
 */
enum opt_type {
	OPT_STR,		/* char * */
	OPT_BOOL,		/* bool; a bare name means 1 */
	OPT_UINT,		/* uint64_t within [min, max] */
	OPT_SIZE,		/* uint64_t bytes */
	OPT_SIZE_PCT,		/* uint64_t bytes or double percent (aux) */
	OPT_TIME,		/* uint64_t ns; bare numbers in `unit_ns` */
	OPT_PCT,		/* double 0..100 */
	OPT_ENUM,		/* int, from `choices` */
	OPT_BS,			/* per-direction size or range: bs_min/bs_max */
	OPT_PLIST,		/* percentile_list */
	OPT_RATE,		/* uint64_t[DDIR_NR]: "read[,write[,trim]]" */
	OPT_SPECIAL,		/* parsed by `set` */
};

struct opt_choice {
	const char *name;
	int value;
	const char *help;
};

struct job;
struct opt_def;
typedef int (*opt_set_fn)(struct job *j, const struct opt_def *o,
			  const char *val, char *why, size_t whylen);
/* An OPT_STR value's own check: 0, or -EINVAL with why filled. */
typedef int (*opt_valid_fn)(const struct opt_def *o, const char *val,
			    char *why, size_t whylen);
/* An engine's OPT_STR row's setter: parses val once (sizes with kb_base)
 * into typed fields of the engine's options struct base, which the run
 * reads; 0, or -EINVAL with why filled and base as it was. */
typedef int (*opt_store_fn)(void *base, const struct opt_def *o,
			    const char *val, unsigned kb_base, char *why,
			    size_t whylen);

struct opt_def {
	const char *name;
	const char *alias;	/* fio's other spelling, or the command
				 * line's (allow-destructive), or NULL */
	enum opt_type type;
	size_t off;		/* offsetof(struct job, field); an engine's
				 * row: offsetof(its options struct, field) */
	size_t aux;		/* OPT_SIZE_PCT: offset of the percent field */
	const char *def;	/* default as text; NULL: empty/unset */
	uint64_t min, max;	/* OPT_UINT bounds */
	uint64_t unit_ns;	/* OPT_TIME default unit */
	const struct opt_choice *choices;	/* OPT_ENUM, NULL-name ended */
	opt_set_fn set;		/* OPT_SPECIAL, or NULL */
	opt_valid_fn valid;	/* OPT_STR: refused unless it returns 0
				 * (an empty value too); NULL: any text */
	opt_store_fn store;	/* an engine's OPT_STR: parses the value
				 * into its typed fields (then the text is
				 * kept, for --parse-only); refused unless
				 * it returns 0 (an empty value too) */
	unsigned flags;		/* OPT_F_* */
	const char *help;	/* one line */
	const char *category;
};

enum opt_flags {
	/* Stored inverted: buffered = !direct, rwmixwrite = 100 - rwmixread */
	OPT_F_INVERT = 1u << 0,
	/* OPT_UINT: the word "none" stores UINT64_MAX (unset) */
	OPT_F_NONE = 1u << 1,
	/* OPT_TIME with max set: 0 (off) is allowed below min */
	OPT_F_ZERO_OFF = 1u << 2,
	/* OPT_BOOL: also the word "auto"; the field is a signed char,
	 * 0, 1, or -1 for auto (the component decides what it can do) */
	OPT_F_AUTO = 1u << 3,
	/* OPT_RATE: counts (I/Os per second, k = 1000), not sizes */
	OPT_F_COUNT = 1u << 4,
	/* OPT_STR: a bare name (no "=value") stores "" (fio's log options:
	 * the job's name) */
	OPT_F_BARE = 1u << 5,
	/* iorig's own number option (not fio's): it keeps its whole
	 * arithmetic, where fio's would read the first number alone */
	OPT_F_OWN = 1u << 6,
	/* An engine's row: a parameter of another of its options
	 * (sqthread_poll_cpu of sqthread_poll, cmdprio_class of
	 * cmdprio_percentage). Set for another engine, it alone draws no
	 * warning, and the warning does not name it. */
	OPT_F_PARAM = 1u << 7,
	/* The job table's row after which the job's engine's own options
	 * come, in --parse-only and the JSON options. */
	OPT_F_ENGINE_NEXT = 1u << 8,
	/* OPT_SIZE(_PCT) of the job table: also a count of zones, "4z"
	 * (fio 3.33's zone unit), kept in job.io.zones_nz until plan.c knows
	 * the zone size */
	OPT_F_ZONES = 1u << 9,
};

/*
 * An engine's rows are of any type but OPT_SPECIAL, OPT_BS and OPT_PLIST
 * (their setters and fields are the job's); a value that needs more than
 * its type checks is an OPT_STR with `valid`, or with `store` when the run
 * reads more than the text: parsed once, there, into typed fields of the
 * engine's options struct (plain values: the struct's copy is a memcpy
 * and its strings'), never parsed again.
 */

#endif
