// SPDX-License-Identifier: MIT
/*
 * The one argument loop of iorig's subcommands (cmdargs.h): each
 * subcommand gives its table of options, this reads argv through it.
 * Options may come before or after operands, as getopt_long permutes
 * them; "--" ends them. Names are whole (no abbreviations: a later
 * option never changes what an old command line meant).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmdargs.h"
#include "err.h"

static const struct cmd_opt *opt_long(const struct cmd_def *c,
				      const char *s, size_t n)
{
	const struct cmd_opt *o;

	for (o = c->opts; o->name; o++)
		if (strlen(o->name) == n && !strncmp(o->name, s, n))
			return o;
	return NULL;
}

static const struct cmd_opt *opt_letter(const struct cmd_def *c, char l)
{
	const struct cmd_opt *o;

	for (o = c->opts; o->name; o++)
		if (o->letter && o->letter == l)
			return o;
	return NULL;
}

/* "--a=VALUE, --b or OPERANDS": what the subcommand takes. */
static void expected(const struct cmd_def *c, char *buf, size_t len)
{
	const struct cmd_opt *o;
	size_t n = 0;

	buf[0] = '\0';
	for (o = c->opts; o->name && n < len; o++)
		n += (size_t)snprintf(buf + n, len - n, "%s--%s%s%s",
				      o == c->opts ? "" :
				      !o[1].name && !c->operand ? " or " :
				      ", ", o->name, o->value ? "=" : "",
				      o->value ? o->value : "");
	if (c->operand && n < len)
		snprintf(buf + n, len - n, "%s%s", n ? " or " : "",
			 c->operands);
}

static int said(const struct cmd_def *c, const struct err_rec *e,
		int *code)
{
	char text[ERR_TEXT_MAX];

	err_format(e, text, sizeof(text));
	fprintf(stderr, "%s: %s\n%s", c->prefix, text, c->usage);
	*code = 2;
	return 1;
}

/*
 * One option at argv[*a] (s: its text): its value from "=VALUE", from the
 * rest of a short option, or from the next argument. 0, or 1 with *code.
 */
static int one_opt(const struct cmd_def *c, int argc, char **argv, int *a,
		   void *ctx, int *code, struct err_rec *e)
{
	const char *s = argv[*a], *val = NULL, *eq;
	const struct cmd_opt *o;
	char why[ERR_MSG_MAX - 64];

	if (s[1] == '-') {
		eq = strchr(s + 2, '=');
		o = opt_long(c, s + 2, eq ? (size_t)(eq - s - 2) :
			     strlen(s + 2));
		val = eq ? eq + 1 : NULL;
	} else {
		o = opt_letter(c, s[1]);
		val = o && s[2] ? s + 2 : NULL;
	}
	if (!o) {
		expected(c, why, sizeof(why));
		err_set(e, ERR_CMDLINE, *a, "", "unknown option '%s': "
			"expected %s", s, why);
		return said(c, e, code);
	}
	if (!o->value && val) {
		err_set(e, ERR_CMDLINE, *a, o->name, "takes no value (a "
			"flag: --%s)", o->name);
		return said(c, e, code);
	}
	if (o->value && !val) {
		if (*a + 1 >= argc) {
			err_set(e, ERR_CMDLINE, *a, o->name, "expected a "
				"value: --%s=%s or --%s %s", o->name,
				o->value, o->name, o->value);
			return said(c, e, code);
		}
		val = argv[++*a];
	}
	why[0] = '\0';
	if (!o->set) {
		if (o->value)
			*(const char **)((char *)ctx + o->off) = val;
		else
			*(bool *)((char *)ctx + o->off) = true;
	} else if (o->set(ctx, val, why, sizeof(why))) {
		err_set(e, ERR_CMDLINE, *a, o->name, "%s", why);
		return said(c, e, code);
	}
	return 0;
}

int cmd_args(const struct cmd_def *c, int argc, char **argv, void *ctx,
	     int *code)
{
	struct err_rec e;
	char why[ERR_MSG_MAX - 64];
	bool opts = true;
	int a;

	for (a = c->first ? c->first : 1; a < argc; a++) {
		const char *s = argv[a];

		if (opts && !strcmp(s, "--")) {
			opts = false;
		} else if (opts && (!strcmp(s, "--help") ||
				    !strcmp(s, "-h"))) {
			fputs(c->usage, stdout);
			*code = fflush(stdout) || ferror(stdout) ? 1 : 0;
			return 1;
		} else if (opts && s[0] == '-' && s[1]) {
			if (one_opt(c, argc, argv, &a, ctx, code, &e))
				return 1;
		} else if (!c->operand) {
			err_set(&e, ERR_CMDLINE, a, "", "'%s': expected no "
				"operand", s);
			return said(c, &e, code);
		} else {
			why[0] = '\0';
			if (c->operand(ctx, s, why, sizeof(why))) {
				err_set(&e, ERR_CMDLINE, a, "", "'%s': %s", s,
					why);
				return said(c, &e, code);
			}
		}
	}
	return 0;
}

int cmd_usage_error(const struct cmd_def *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", c->prefix);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n%s", c->usage);
	return 2;
}
