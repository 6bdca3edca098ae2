/* SPDX-License-Identifier: MIT */
#ifndef IORIG_ENGINES_CMDPRIO_H
#define IORIG_ENGINES_CMDPRIO_H

/*
 * The cmdprio_* options, of each engine that carries an I/O priority per
 * request (ENGINE_CMDPRIO: libaio, io_uring), as fio declares them for
 * each of its engines: CMDPRIO_OPTIONS(TYPE) is their rows, for the
 * engine's table, where TYPE is its options struct and that struct's
 * first member is `struct cmdprio_opts cp` (procattr.h), which the worker
 * reads (engine_cmdprio) to draw each I/O's priority.
 */
#include <stddef.h>

#include "optdef.h"
#include "procattr.h"

struct err_rec;
struct job;

/* cmdprio_*=A[,B], each from 0 to the row's max. */
int cmdprio_valid_pair(const struct opt_def *o, const char *val, char *why,
		       size_t whylen);
/* cmdprio_bssplit=: checked with kb_base 1024 (the worker reads it again
 * with the job's). */
int cmdprio_valid_bssplit(const struct opt_def *o, const char *val,
			  char *why, size_t whylen);
/* The options together (fio refuses both ways of choosing the I/Os): 0,
 * or -EINVAL with e at j's section. */
int cmdprio_check(const struct job *j, const struct cmdprio_opts *c,
		  struct err_rec *e);

#define CMDPRIO_OPTIONS(TYPE)						\
	{ .name = "cmdprio_percentage", .type = OPT_STR,		\
	  .off = offsetof(TYPE, cp.percentage),				\
	  .valid = cmdprio_valid_pair, .max = 100, .def = "0",		\
	  .category = "engine",						\
	  .help = "libaio, io_uring: percent of I/Os (READ[,WRITE]) "	\
		  "issued with their own priority (cmdprio_class, "	\
		  "cmdprio)" },						\
	{ .name = "cmdprio_bssplit", .type = OPT_STR,			\
	  .off = offsetof(TYPE, cp.bssplit),				\
	  .valid = cmdprio_valid_bssplit, .category = "engine",	\
	  .help = "libaio, io_uring: per block size, percent of I/Os "	\
		  "issued with their own priority, "			\
		  "BS/PCT[/CLASS/LEVEL[/HINT]] joined by ':' "		\
		  "(READ[,WRITE])" },					\
	{ .name = "cmdprio_class", .type = OPT_STR,			\
	  .off = offsetof(TYPE, cp.prio_class),				\
	  .valid = cmdprio_valid_pair, .max = 3, .def = "1",		\
	  .flags = OPT_F_PARAM, .category = "engine",			\
	  .help = "libaio, io_uring: that priority's class, 0 to 3 "	\
		  "(READ[,WRITE]); default 1, realtime" },		\
	{ .name = "cmdprio", .type = OPT_STR,				\
	  .off = offsetof(TYPE, cp.level),				\
	  .valid = cmdprio_valid_pair, .max = 7, .def = "0",		\
	  .flags = OPT_F_PARAM, .category = "engine",			\
	  .help = "libaio, io_uring: that priority's level, 0 to 7 "	\
		  "(READ[,WRITE])" },					\
	{ .name = "cmdprio_hint", .type = OPT_STR,			\
	  .off = offsetof(TYPE, cp.hint),				\
	  .valid = cmdprio_valid_pair, .max = 1023, .def = "0",	\
	  .flags = OPT_F_PARAM, .category = "engine",			\
	  .help = "libaio, io_uring: that priority's hint, 0 to 1023 "	\
		  "(READ[,WRITE])" }

#endif
