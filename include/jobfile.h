/* SPDX-License-Identifier: MIT */
#ifndef IORIG_JOBFILE_H
#define IORIG_JOBFILE_H

#include <stdbool.h>
#include <stddef.h>
#include "err.h"

/*
 * Text -> raw options. A job file and the command line both produce a
 * struct raw_doc: an ordered list of sections, each an ordered list of
 * (name, value, file, line). No option is interpreted here; the option
 * table does that later. value is NULL for a bare word ("time_based").
 */
struct raw_opt {
	char *name;
	char *value;		/* expanded: ${ENV} and $vars substituted */
	/* $ncpus, $pagesize or $mb_memory was put in value: fio then
	 * hands the whole value to bc, so its arithmetic counts */
	bool calc;
	const char *file;	/* interned in the raw_doc; never NULL */
	int line;
};

struct raw_section {
	char *name;
	int is_global;		/* name starts with "global" */
	const char *file;
	int line;
	struct raw_opt *opts;
	size_t nopts, capopts;
};

struct raw_doc {
	struct raw_section *secs;
	size_t nsecs, capsecs;
	char **files;		/* interned file names, freed with the doc */
	size_t nfiles, capfiles;
};

/* Limits on hostile input. */
#define JOBFILE_MAX_LINE	8192
#define JOBFILE_MAX_INCLUDE	16
#define JOBFILE_MAX_SECTIONS	4096	/* per raw_doc */
#define JOBFILE_MAX_OPTIONS	4096	/* per section */

/*
 * Append the sections of job file `path` ("-" reads stdin, named "<stdin>")
 * to doc. Syntax: [section] headers; name=value or bare name; ';' and '#'
 * start comments (whole line, or after blank space); "include FILE" relative
 * to the including file's directory (depth and cycles limited); leading and
 * trailing blanks trimmed. Options before any section are an error.
 * Values and include paths are expanded with jobfile_expand. An include is
 * textual: options at the top of the included file continue the includer's
 * current section, and the includer's next options continue the last
 * section the included file opened.
 * Returns 0 or -errno with e filled (file, line, option, what was expected).
 * On failure doc keeps what was read before the error; free it either way.
 */
int jobfile_parse_file(struct raw_doc *doc, const char *path,
		       struct err_rec *e);
/* Same, from a string; `name` is used in messages and as the base for
 * relative includes (its directory). */
int jobfile_parse_string(struct raw_doc *doc, const char *name,
			 const char *text, struct err_rec *e);

/*
 * Substitute variables in a value: ${NAME} from the environment (unset is
 * an error naming it), $ncpus (online CPUs), $pagesize (bytes), $mb_memory
 * (physical memory in MiB). Arithmetic is left for the value parsers.
 * Returns 0, or -EINVAL/-E2BIG with why filled.
 */
int jobfile_expand(const char *in, char *out, size_t outlen, char *why,
		   size_t whylen);
/* The same for the value of option: filename_format keeps the $words
 * that are not variables, for its own check to name. *calc: whether
 * one of the variables ($ncpus, ...) was put in (struct raw_opt). */
int jobfile_expand_opt(const char *option, const char *in, char *out,
		       size_t outlen, bool *calc, char *why, size_t whylen);

/*
 * Helpers for building a raw_doc (the command line uses these too).
 * A zeroed struct raw_doc is empty. file is interned, name and value are
 * copied as given (no expansion: callers expand).
 *
 * raw_doc_add_section returns the new section, or NULL with errno ENOMEM or
 * E2BIG (JOBFILE_MAX_SECTIONS reached). The pointer is valid only until the
 * next raw_doc_add_section on the same doc, which may move the array: keep
 * an index, not the pointer, across additions.
 * raw_section_add returns 0, -ENOMEM, or -E2BIG (JOBFILE_MAX_OPTIONS).
 */
struct raw_section *raw_doc_add_section(struct raw_doc *doc,
					const char *name, const char *file,
					int line);
int raw_section_add(struct raw_doc *doc, struct raw_section *sec,
		    const char *name, const char *value, const char *file,
		    int line);
/* Intern a file name: returns a pointer owned by doc, NULL if out of
 * memory. Equal names share one copy. */
const char *raw_doc_intern(struct raw_doc *doc, const char *file);
/* Free everything and leave doc empty (zeroed). */
void raw_doc_free(struct raw_doc *doc);

#endif
