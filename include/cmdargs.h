/* SPDX-License-Identifier: MIT */
#ifndef IORIG_CMDARGS_H
#define IORIG_CMDARGS_H

/*
 * iorig's subcommands (`iorig plot|report|merge|history ...`, src/face/):
 * each is one file with a table of its options, which the one argument
 * loop (cmd_args, src/face/cmdargs.c) reads. The loop takes --NAME=VALUE
 * and --NAME VALUE (and -L VALUE, -LVALUE for an option with a letter),
 * flags as --NAME, --help and -h (the subcommand's usage, exit 0), "--"
 * (what follows is operands), "-" as an operand (standard input). Every
 * error names the option and what was expected, and exits 2.
 */
#include <stdbool.h>
#include <stddef.h>

/* One option of a subcommand's table. */
struct cmd_opt {
	const char *name;	/* --name */
	char letter;		/* -letter too, or 0 */
	const char *value;	/* what its value is ("FILE", "N"); NULL: a
				 * flag, which takes none */
	/*
	 * Sets the option on the subcommand's own arguments (ctx); value is
	 * NULL for a flag. 0, or -EINVAL with why filled: what was wrong and
	 * what was expected (the loop adds the option's name). NULL: the
	 * loop stores the value (a const char *) or true (a flag's bool) at
	 * ctx + off.
	 */
	int (*set)(void *ctx, const char *value, char *why, size_t len);
	size_t off;
};

/* A subcommand's arguments. */
struct cmd_def {
	const char *prefix;	/* its messages' start: "iorig plot" */
	const char *usage;	/* its usage, ending in a newline */
	const char *operands;	/* what its operands are, for an unknown
				 * option's message ("RESULT.json files") */
	const struct cmd_opt *opts;	/* ended by a row with no name */
	int first;		/* argv's first argument to read, after
				 * the words that name the command (0: 1) */
	/* Each operand, in order: 0, or -EINVAL with why (the loop names
	 * the argument). NULL: operands are refused. */
	int (*operand)(void *ctx, const char *arg, char *why, size_t len);
};

/*
 * Reads argv[first..argc-1] (argv[0] is the subcommand's name; history's
 * argv[1] its command word) into ctx through the table. 0: go on. 1:
 * done, the exit code in *code: 0 after --help (1 when it could not be
 * written), 2 after an error, said on stderr as "PREFIX: command line
 * argument N: option 'NAME': what was expected", then the usage.
 */
int cmd_args(const struct cmd_def *c, int argc, char **argv, void *ctx,
	     int *code);

/* "PREFIX: MESSAGE\n" and the usage on stderr; returns 2 (the exit code
 * of a usage error), for what a subcommand refuses after the loop. */
int cmd_usage_error(const struct cmd_def *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The subcommands' mains (src/face/): argv[0] is the subcommand's name;
 * each returns the exit code. */
int plot_main(int argc, char **argv);
int report_main(int argc, char **argv);
int merge_main(int argc, char **argv);
int history_main(int argc, char **argv);

#endif
