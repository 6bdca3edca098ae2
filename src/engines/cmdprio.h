/* SPDX-License-Identifier: MIT */
#ifndef IORIG_ENGINES_CMDPRIO_H
#define IORIG_ENGINES_CMDPRIO_H

/*
 * The cmdprio_* options, of each engine that carries an I/O priority per
 * request (ENGINE_CMDPRIO: libaio, io_uring), as fio declares them for
 * each of its engines: CMDPRIO_OPTIONS(TYPE) is their rows, for the
 * engine's table, where TYPE is its options struct and that struct's
 * first member is `struct cmdprio_opts cp` (procattr.h): the rows' setters
 * parse each value once into its typed fields, which the worker reads
 * (engine_cmdprio) to draw each I/O's priority.
 */
#include <stddef.h>

#include "optdef.h"
#include "procattr.h"

struct err_rec;
struct job;

/*
 * The rows' setters (optdef.h: opt_store_fn): each parses its value once
 * into the typed fields of the struct cmdprio_opts its row's text field is
 * in, which the worker reads (procattr_cmdprio). cmdprio_percentage=,
 * cmdprio_class=, cmdprio=, cmdprio_hint=: A[,B], each from 0 to the row's
 * max; cmdprio_bssplit=: its lists, sizes read with the job's kb_base.
 */
int cmdprio_store_percentage(void *base, const struct opt_def *o,
			     const char *val, unsigned kb_base, char *why,
			     size_t whylen);
int cmdprio_store_class(void *base, const struct opt_def *o,
			const char *val, unsigned kb_base, char *why,
			size_t whylen);
int cmdprio_store_level(void *base, const struct opt_def *o,
			const char *val, unsigned kb_base, char *why,
			size_t whylen);
int cmdprio_store_hint(void *base, const struct opt_def *o, const char *val,
		       unsigned kb_base, char *why, size_t whylen);
int cmdprio_store_bssplit(void *base, const struct opt_def *o,
			  const char *val, unsigned kb_base, char *why,
			  size_t whylen);
/* The options together (fio refuses both ways of choosing the I/Os): 0,
 * or -EINVAL with e at j's section. */
int cmdprio_check(const struct job *j, const struct cmdprio_opts *c,
		  struct err_rec *e);

#define CMDPRIO_OPTIONS(TYPE)						\
	{ .name = "cmdprio_percentage", .type = OPT_STR,		\
	  .off = offsetof(TYPE, cp.percentage),				\
	  .store = cmdprio_store_percentage, .max = 100, .def = "0",	\
	  .category = "engine",						\
	  .help = "libaio, io_uring: percent of I/Os (READ[,WRITE]) "	\
		  "issued with their own priority (cmdprio_class, "	\
		  "cmdprio)" },						\
	{ .name = "cmdprio_bssplit", .type = OPT_STR,			\
	  .off = offsetof(TYPE, cp.bssplit),				\
	  .store = cmdprio_store_bssplit, .category = "engine",	\
	  .help = "libaio, io_uring: per block size, percent of I/Os "	\
		  "issued with their own priority, "			\
		  "BS/PCT[/CLASS/LEVEL[/HINT]] joined by ':' "		\
		  "(READ[,WRITE])" },					\
	{ .name = "cmdprio_class", .type = OPT_STR,			\
	  .off = offsetof(TYPE, cp.prio_class),				\
	  .store = cmdprio_store_class, .max = 3, .def = "1",		\
	  .flags = OPT_F_PARAM, .category = "engine",			\
	  .help = "libaio, io_uring: that priority's class, 0 to 3 "	\
		  "(READ[,WRITE]); default 1, realtime" },		\
	{ .name = "cmdprio", .type = OPT_STR,				\
	  .off = offsetof(TYPE, cp.level),				\
	  .store = cmdprio_store_level, .max = 7, .def = "0",		\
	  .flags = OPT_F_PARAM, .category = "engine",			\
	  .help = "libaio, io_uring: that priority's level, 0 to 7 "	\
		  "(READ[,WRITE])" },					\
	{ .name = "cmdprio_hint", .type = OPT_STR,			\
	  .off = offsetof(TYPE, cp.hint),				\
	  .store = cmdprio_store_hint, .max = 1023, .def = "0",	\
	  .flags = OPT_F_PARAM, .category = "engine",			\
	  .help = "libaio, io_uring: that priority's hint, 0 to 1023 "	\
		  "(READ[,WRITE])" }

#endif
